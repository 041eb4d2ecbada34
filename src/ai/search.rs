//! The `hard` level: determinized search with paired samples.
//!
//! The seat cannot see the other hands, the draw pile or future dice, so the search deals them at random
//! many times ([`Game::sample_from_view`]; deals that do not fit the last opponent move are mostly
//! rejected). On each deal every candidate move (the heuristic's best dozen) is played, followed by a few
//! plies of the heuristic policy from the same random stream, and the result is scored: the real outcome
//! if the game ended, else the line-potential standings with what each hand can fill. Comparing the
//! candidates on the same deals (common random numbers) removes most of the luck from the comparison;
//! clearly worse candidates are dropped as the evidence comes in, and the best mean wins.

use std::time::Instant;

use super::heuristic::{score_groups, Scored, Scorer, Weights, WIN};
use super::{best_of, Budget};
use crate::engine::{CardEffect, Game, GameRng, Move, Seat, Status, Team, View};

/// Tunable search parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Moves considered at the root (best by the heuristic).
    pub root_moves: usize,
    /// Plies played by the policy after the candidate move before evaluating.
    pub rollout_depth: u32,
    /// Chance that a rollout move is a random one of the policy's top three, in percent.
    pub noise: u32,
    /// Scale turning a standings difference into a win probability.
    pub scale: f64,
    /// Heuristic weights for the rollouts and the evaluation.
    pub weights: Weights,
    /// Whether the evaluation counts what the (sampled) hands can fill.
    pub hands: bool,
    /// Whether the paired search drops clearly worse candidates as it goes.
    pub prune: bool,
    /// Whether deals must fit the last opponent move (see `sample_consistent`).
    pub infer: bool,
    /// Deals tried per sample when inferring.
    pub infer_tries: u32,
    /// Whether the searching side ranks its candidates and plays its rollout moves knowing its hand.
    pub own_hand: bool,
}

impl Params {
    /// The parameters `hard` plays with.
    pub const DEFAULT: Params = Params {
        root_moves: 12,
        rollout_depth: 10,
        noise: 0,
        scale: 250.0,
        weights: Weights::DEFAULT,
        hands: true,
        prune: true,
        infer: true,
        infer_tries: 20,
        own_hand: true,
    };
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

/// Most teams in a game.
const TEAMS: usize = 4;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The move chosen.
    pub best: Move,
    /// Iterations run.
    pub iterations: u32,
    /// Root moves with the deals they were tried on and their mean reward, best first.
    pub root: Vec<(Move, u32, f64)>,
}

/// The `hard` move for the seat to move in `view` (which must be its turn).
pub fn hard(view: &View, budget: &Budget, seed: u64) -> Move {
    let groups = view.move_groups();
    let Some(team) = view.team() else {
        return Move::Pass;
    };
    if groups.is_empty() {
        return Move::Pass;
    }
    let scorer = Scorer::new(&view.position, Params::DEFAULT.weights);
    let mut scored = Vec::new();
    score_groups(&scorer, team, &groups, false, None, &mut scored);
    let mut rng = GameRng::new(seed);
    // Exchanges first (they cost nothing), wins at once, a lone move without thinking.
    if let Some(&(mv, _)) = scored.iter().find(|s| matches!(s.0, Move::Exchange { .. })) {
        return mv;
    }
    if scored.len() == 1 || scored.iter().any(|s| s.1 >= WIN) {
        return best_of(&scored, &mut rng).unwrap_or(Move::Pass);
    }
    if Params::DEFAULT.own_hand {
        // Rank the candidates knowing the hand (the search then judges them).
        score_groups(&scorer, team, &groups, false, Some(&view.hand), &mut scored);
    }
    paired(view, budget, seed, &Params::DEFAULT, scored).best
}

/// Determinized search with paired samples: every sampled deal scores every candidate move, each
/// followed by a policy rollout from the same random stream, so the candidates are compared on the same
/// hidden cards and future draws (common random numbers) rather than on independent luck.
pub fn paired(
    view: &View,
    budget: &Budget,
    seed: u64,
    params: &Params,
    mut root_moves: Vec<Scored>,
) -> Outcome {
    let start = Instant::now();
    let mut rng = GameRng::new(seed ^ 0x9A_1BED);
    let config = view.position.config();
    let teams = usize::from(config.teams).min(TEAMS);
    let me = usize::from(view.team().unwrap_or(0)).min(TEAMS - 1);
    sort_scored(&mut root_moves, &mut rng);
    root_moves.truncate(params.root_moves.max(1));
    let k = root_moves.len();
    // values[i] holds candidate i's result on every deal it was tried on (all alive ones see each deal).
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); k];
    let mut alive: Vec<bool> = vec![true; k];
    let mut samples = 0u32;
    let mut iterations = 0u32;
    let max_iterations = budget.max_iterations.unwrap_or(u32::MAX);
    let mut scratch: Vec<Scored> = Vec::new();
    while iterations < max_iterations && (samples == 0 || start.elapsed() < budget.time) {
        let deal = if params.infer {
            sample_consistent(view, &mut rng, params)
        } else {
            Game::sample_from_view(view, &mut rng)
        };
        let stream = rng.next_u64();
        for (i, &(mv, _)) in root_moves.iter().enumerate() {
            if !alive[i] {
                continue;
            }
            let mut game = deal.clone();
            let seat = game.position().to_move();
            play(&mut game, seat, mv);
            let mut roll = GameRng::new(stream);
            let mut depth = 0;
            while depth < params.rollout_depth && !game.position().is_over() {
                let seat = game.position().to_move();
                let mv = policy(&game, params, me as Team, &mut roll, &mut scratch);
                play(&mut game, seat, mv);
                if !matches!(mv, Move::Exchange { .. }) {
                    depth += 1;
                }
            }
            values[i].push(evaluate(&game, params, teams)[me]);
            iterations += 1;
        }
        samples += 1;
        if params.prune && samples.is_multiple_of(16) {
            prune(&values, &mut alive);
        }
    }
    let mean = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let mut root: Vec<(Move, u32, f64)> = root_moves
        .iter()
        .zip(&values)
        .map(|(&(mv, _), v)| (mv, v.len() as u32, mean(v)))
        .collect();
    // Survivors (most deals) first, then by mean.
    root.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    let best = root.first().map_or(Move::Pass, |r| r.0);
    Outcome {
        best,
        iterations,
        root,
    }
}

/// A deal of the unseen cards that fits what the last opponent did: a player who could have completed a
/// sequence, or blocked the seat's four, before their last move would have done it, so hands holding
/// such a card are unlikely (one such card may just have been drawn). Rejection sampling, a few tries.
fn sample_consistent(view: &View, rng: &mut GameRng, params: &Params) -> Game {
    let pos = &view.position;
    let (Some(last), Some(me)) = (pos.last_action(), view.team()) else {
        return Game::sample_from_view(view, rng);
    };
    let config = pos.config();
    let them = config.team_of(last.seat);
    if them == me || !config.variant.has_cards() {
        return Game::sample_from_view(view, rng);
    }
    let scorer = Scorer::new(pos, params.weights);
    let exclude = last.cell.bit();
    let missed = scorer.finishing_cells(them, exclude) | scorer.finishing_cells(me, exclude);
    if missed == 0 {
        return Game::sample_from_view(view, rng);
    }
    let layout = pos.layout();
    let hand_size = u32::from(
        view.hand_sizes
            .get(usize::from(last.seat))
            .copied()
            .unwrap_or(1),
    )
    .max(1);
    let mut deal = Game::sample_from_view(view, rng);
    for _ in 0..params.infer_tries {
        let suspicious = deal
            .hand(last.seat)
            .iter()
            .filter(|c| match c.effect() {
                CardEffect::Cells => layout.cells_of_card(**c) & missed != 0,
                CardEffect::Wild => true,
                CardEffect::Remove => false,
            })
            .count();
        let accept = match suspicious {
            0 => true,
            1 => rng.below(hand_size) == 0,
            _ => false,
        };
        if accept {
            break;
        }
        deal = Game::sample_from_view(view, rng);
    }
    deal
}

/// Drops candidates that are clearly worse than the best on the deals all of them saw: the mean paired
/// difference is more than three standard errors below zero.
fn prune(values: &[Vec<f64>], alive: &mut [bool]) {
    let n = values
        .iter()
        .zip(alive.iter())
        .filter(|(_, &a)| a)
        .map(|(v, _)| v.len())
        .min()
        .unwrap_or(0);
    if n < 16 {
        return;
    }
    // Compare on the most recent `n` deals, which every live candidate saw.
    let tail = |v: &Vec<f64>| v[v.len() - n..].to_vec();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let Some(best) = (0..values.len())
        .filter(|&i| alive[i])
        .max_by(|&a, &b| mean(&tail(&values[a])).total_cmp(&mean(&tail(&values[b]))))
    else {
        return;
    };
    let best_values = tail(&values[best]);
    for i in 0..values.len() {
        if !alive[i] || i == best {
            continue;
        }
        let diffs: Vec<f64> = tail(&values[i])
            .iter()
            .zip(&best_values)
            .map(|(a, b)| b - a)
            .collect();
        let m = mean(&diffs);
        let var = diffs.iter().map(|d| (d - m) * (d - m)).sum::<f64>() / (n as f64 - 1.0);
        let se = (var / n as f64).sqrt();
        if m > 3.0 * se + 1e-9 {
            alive[i] = false;
        }
    }
}

/// Sorts scored moves best first, shuffling first so equal scores come in random order.
fn sort_scored(moves: &mut [Scored], rng: &mut GameRng) {
    rng.shuffle(moves);
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
}

/// Plays a move the search believes legal; an illegal one (never expected) passes instead.
fn play(game: &mut Game, seat: Seat, mv: Move) {
    if game.play(seat, mv).is_err() {
        let _ = game.play(seat, Move::Pass);
    }
}

/// The rollout policy: the heuristic's best move (jacks only where they matter), sometimes one of the
/// next best.
fn policy(
    game: &Game,
    params: &Params,
    me: Team,
    rng: &mut GameRng,
    scratch: &mut Vec<Scored>,
) -> Move {
    let groups = game.move_groups();
    if groups.is_empty() {
        return Move::Pass;
    }
    let mover = game.config().team_of(game.position().to_move());
    let scorer = Scorer::new(game.position(), params.weights);
    // The searching side plays on knowing its hand; the others are modelled as the plain heuristic.
    let hand = (params.own_hand && mover == me).then(|| game.hand(game.position().to_move()));
    score_groups(&scorer, mover, &groups, true, hand, scratch);
    if rng.below(100) < params.noise && scratch.len() > 1 {
        scratch.sort_by_key(|m| std::cmp::Reverse(m.1));
        if scratch[0].1 < WIN / 2 {
            let k = scratch.len().min(3) as u32;
            return scratch[rng.below(k) as usize].0;
        }
    }
    best_of(scratch, rng).unwrap_or(Move::Pass)
}

/// The reward of each team in [0, 1]: the result of a finished game, else the standings.
fn evaluate(game: &Game, params: &Params, teams: usize) -> [f64; TEAMS] {
    let mut out = [0.0; TEAMS];
    match game.position().status() {
        Status::Won(t) => {
            if let Some(o) = out.get_mut(usize::from(t)) {
                *o = 1.0;
            }
        }
        Status::Drawn => {
            for o in out.iter_mut().take(teams) {
                *o = 1.0 / teams as f64;
            }
        }
        Status::InProgress => {
            let pos = game.position();
            let mut fill = [0; TEAMS];
            let mut wilds = [0; TEAMS];
            for seat in 0..game.config().players {
                let t = usize::from(pos.config().team_of(seat)).min(TEAMS - 1);
                for &card in game.hand(seat) {
                    match card.effect() {
                        CardEffect::Cells => fill[t] |= pos.card_targets(t as Team, card),
                        CardEffect::Wild => wilds[t] += 1,
                        CardEffect::Remove => {}
                    }
                }
            }
            let to_move = usize::from(pos.config().team_of(pos.to_move()));
            let standings = if params.hands {
                Scorer::new(pos, params.weights).standings_with_hands(&fill, &wilds, to_move)
            } else {
                Scorer::new(pos, params.weights).standings()
            };
            let top = standings[..teams].iter().copied().max().unwrap_or(0);
            let mut total = 0.0;
            for t in 0..teams {
                let e = (f64::from(standings[t] - top) / params.scale).exp();
                out[t] = e;
                total += e;
            }
            for o in out.iter_mut().take(teams) {
                *o /= total;
            }
        }
    }
    out
}
