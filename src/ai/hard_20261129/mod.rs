//! The frozen baseline: `hard` as it played on 2026-11-29, before issue 48's new design, kept so that
//! later changes to `hard` do not move it. Only the arena (`--a hard-20261129`), the benchmarks and the
//! tests play it ([`crate::ai::Contender::Hard20261129`]); players and the service cannot choose it.
//! This is a copy of `ai::search` and `ai::heuristic` of that day (the board's windows and the engine
//! are shared); `hard_20261129_plays_as_hard_did` checks its moves on fixed seeds. Do not change it.
//!
//! What follows is the original description.
//!
//! The `hard` level: determinized search with paired samples.
//!
//! The seat cannot see the other hands, the draw pile or future dice, so the search deals them many
//! times. The deals follow what the others' public moves say about their hands ([`Inference`]: a player
//! who passed over a better move did not hold the card for it); where that model does not apply, deals
//! are random ([`Game::sample_from_view`]) with those that do not fit the last opponent move mostly
//! rejected. On each deal every candidate move (the heuristic's best dozen) is played, followed by a few
//! plies of the heuristic policy from the same random stream, and the result is scored: the real outcome
//! if the game ended, else the line-potential standings with what each hand can fill. (Two options are
//! off by default, as they measured no better at 1 s a move: judging two-team classic positions by a
//! win-chance model fitted to self-play, [`crate::ai::value`], and branching the seat's own next decision in
//! each rollout, [`Params::replies`].) Comparing the candidates on the same deals (common random
//! numbers) removes most of the luck from the comparison; clearly worse candidates are dropped as the
//! evidence comes in, and the best mean wins.

use std::time::Instant;

pub mod heuristic;

use crate::ai::Budget;
use crate::engine::{
    BitIter, Card, CardEffect, Game, GameRng, GroupKind, Move, Seat, Status, Team, Variant, View,
};
use heuristic::{score_groups, Scored, Scorer, Weights, WIN};

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
    /// Whether deals fit the last opponent move under the model that it played the heuristic's best
    /// move (see [`Inference`]); where the model does not apply, `infer` decides.
    pub model: bool,
    /// Whether the searching side ranks its candidates and plays its rollout moves knowing its hand.
    pub own_hand: bool,
    /// Whether two-team classic positions are judged by the learned model of [`crate::ai::value`] (fitted to
    /// classic games; other games keep the standings).
    pub learned: bool,
    /// At the searching side's next turn in a rollout, how many of its best moves (by the heuristic) are
    /// each played out on the same deal, the best result counting; 1 plays the heuristic's best.
    pub replies: usize,
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
        model: true,
        own_hand: true,
        learned: false,
        replies: 1,
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
pub fn hard(view: &View, history: &History, budget: &Budget, seed: u64) -> Move {
    hard_with(view, history, budget, seed, &Params::DEFAULT)
}

/// [`hard`] with other search parameters (for tuning).
pub fn hard_with(
    view: &View,
    history: &History,
    budget: &Budget,
    seed: u64,
    params: &Params,
) -> Move {
    match candidates(view, params, seed) {
        Ok(scored) => paired(view, history, budget, seed, params, scored).best,
        Err(mv) => mv,
    }
}

/// The candidate moves `hard` searches for the seat to move, scored by the heuristic; `Err` with the move
/// to play at once when there is nothing to search (an exchange, a win, a lone move).
pub fn candidates(view: &View, params: &Params, seed: u64) -> Result<Vec<Scored>, Move> {
    let groups = view.move_groups();
    let Some(team) = view.team() else {
        return Err(Move::Pass);
    };
    if groups.is_empty() {
        return Err(Move::Pass);
    }
    let scorer = Scorer::new(&view.position, params.weights);
    let mut scored = Vec::new();
    score_groups(&scorer, team, &groups, false, None, &mut scored);
    let mut rng = GameRng::new(seed);
    // Exchanges first (they cost nothing), wins at once, a lone move without thinking.
    if let Some(&(mv, _)) = scored.iter().find(|s| matches!(s.0, Move::Exchange { .. })) {
        return Err(mv);
    }
    if scored.len() == 1 || scored.iter().any(|s| s.1 >= WIN) {
        return Err(best_of(&scored, &mut rng).unwrap_or(Move::Pass));
    }
    if params.own_hand {
        // Rank the candidates knowing the hand (the search then judges them).
        score_groups(&scorer, team, &groups, false, Some(&view.hand), &mut scored);
    }
    Ok(scored)
}

/// Determinized search with paired samples: every sampled deal scores every candidate move, each
/// followed by a policy rollout from the same random stream, so the candidates are compared on the same
/// hidden cards and future draws (common random numbers) rather than on independent luck.
pub fn paired(
    view: &View,
    history: &History,
    budget: &Budget,
    seed: u64,
    params: &Params,
    root_moves: Vec<Scored>,
) -> Outcome {
    let inference = if params.model {
        Inference::new(view, history, params)
    } else {
        None
    };
    let mut deal = |rng: &mut GameRng| {
        if let Some(inference) = &inference {
            inference.sample(view, rng)
        } else if params.infer {
            sample_consistent(view, rng, params)
        } else {
            Game::sample_from_view(view, rng)
        }
    };
    paired_on(view, budget, seed, params, root_moves, &mut deal)
}

/// [`paired`] on deals from `deal` (each a game that fits `view`, with the unseen cards guessed).
pub fn paired_on(
    view: &View,
    budget: &Budget,
    seed: u64,
    params: &Params,
    mut root_moves: Vec<Scored>,
    deal: &mut dyn FnMut(&mut GameRng) -> Game,
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
        let deal = deal(&mut rng);
        let stream = rng.next_u64();
        for (i, &(mv, _)) in root_moves.iter().enumerate() {
            if !alive[i] {
                continue;
            }
            let mut game = deal.clone();
            let seat = game.position().to_move();
            play(&mut game, seat, mv);
            let mut roll = GameRng::new(stream);
            let value = rollout(
                &mut game,
                params,
                me as Team,
                teams,
                &mut roll,
                &mut scratch,
            );
            values[i].push(value);
            iterations += 1;
        }
        samples += 1;
        if params.prune && samples.is_multiple_of(16) {
            prune(&values, &mut alive);
            if budget.early_stop && alive.iter().filter(|&&a| a).count() <= 1 {
                break;
            }
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

/// The game's public actions so far, oldest first: who did what (every move is seen by everyone).
pub type History = [(Seat, Move)];

/// What the other players' moves say about their hands, on the model that each plays the move the
/// heuristic scores best (as `medium` does). Walking back through the public actions, every turn of another
/// seat is checked against every card it might hold: a card that would have offered a better move than
/// the one made was not in that hand then, so if it is there now it was drawn since. Deals then give each
/// seat such a card only with the odds that it came with one of the draws since (`draws / hand size`).
/// A turn that shows the player does not follow the heuristic (the same card had a better cell) says
/// nothing; the walk stops where the position alone cannot be undone (see [`Position::before`]).
///
/// [`Position::before`]: crate::engine::Position::before
pub struct Inference {
    /// The other seats something is known of.
    seats: Vec<SeatBelief>,
    /// The cards the searching seat cannot see (the same for every deal).
    unseen: Vec<Card>,
}

/// What is known of one other seat's hand.
struct SeatBelief {
    seat: Seat,
    hand_size: usize,
    /// A weight in (0, 1] for every card code.
    weights: [f32; 128],
    /// For the codes ruled out, the draws the seat has made since.
    ruled_out: [Option<u32>; 128],
}

impl Inference {
    /// The inference from `history` (or, when it is empty, from the last action the position shows).
    pub fn new(view: &View, history: &History, params: &Params) -> Option<Inference> {
        let pos = &view.position;
        let me = view.seat?;
        let config = pos.config();
        if !config.variant.has_cards() {
            return None;
        }
        let from_last: Vec<(Seat, Move)>;
        let history = if history.is_empty() {
            let last = pos.last_action()?;
            from_last = vec![(
                last.seat,
                Move::Play {
                    card: last.card?,
                    cell: last.cell,
                },
            )];
            &from_last[..]
        } else {
            history
        };
        let unseen = Game::unseen_cards(view);
        let mut codes: Vec<Card> = unseen.clone();
        codes.sort_unstable();
        codes.dedup();
        // Per seat: for every card code, the draws since the latest turn it was ruled out (None: never).
        let players = usize::from(config.players);
        let mut draws_since = vec![0u32; players];
        let mut ruled_out: Vec<[Option<u32>; 128]> = vec![[None; 128]; players];
        let mut after = pos.clone();
        for (i, &(seat, mv)) in history.iter().enumerate().rev() {
            let Some(before) = after.before(seat, mv) else {
                break;
            };
            let s = usize::from(seat);
            if seat != me && s < players {
                if let Move::Play { card: played, cell } = mv {
                    // This turn's play is followed by a draw: cards ruled out here came after it.
                    draws_since[s] += 1;
                    let exchanged =
                        i > 0 && matches!(history[i - 1], (x, Move::Exchange { .. }) if x == seat);
                    let turn = Turn {
                        played,
                        cell,
                        exchanged,
                        draws: draws_since[s],
                    };
                    judge_turn(&before, params, turn, &codes, &mut ruled_out[s]);
                } else if matches!(mv, Move::Exchange { .. }) {
                    draws_since[s] += 1;
                }
            }
            after = before;
        }
        let mut seats = Vec::new();
        for seat in 0..config.players {
            let s = usize::from(seat);
            let hand_size = usize::from(view.hand_sizes.get(s).copied().unwrap_or(0));
            if seat == me || hand_size == 0 || ruled_out[s].iter().all(Option::is_none) {
                continue;
            }
            let mut weights = [1.0f32; 128];
            for (w, r) in weights.iter_mut().zip(&ruled_out[s]) {
                if let Some(d) = r {
                    *w = (*d as f32 / hand_size as f32).clamp(0.02, 1.0);
                }
            }
            seats.push(SeatBelief {
                seat,
                hand_size,
                weights,
                ruled_out: ruled_out[s],
            });
        }
        if seats.is_empty() {
            None
        } else {
            Some(Inference { seats, unseen })
        }
    }

    /// If `card` was ruled out for `seat` at one of its turns, how many draws it has made since then
    /// (counting the draw after that turn): the card can only be in the hand if one of them brought it.
    pub fn draws_since_ruled_out(&self, seat: Seat, card: Card) -> Option<u32> {
        self.seats
            .iter()
            .find(|b| b.seat == seat)
            .and_then(|b| b.ruled_out[usize::from(card.0 & 127)])
    }

    /// A deal that fits the inference: each inferred seat's hand is drawn card by card with the weights,
    /// everything else is dealt at random.
    pub fn sample(&self, view: &View, rng: &mut GameRng) -> Game {
        let mut pool = self.unseen.clone();
        rng.shuffle(&mut pool);
        let players = view.position.config().players;
        let mut hands: Vec<Vec<Card>> = vec![Vec::new(); usize::from(players)];
        for belief in &self.seats {
            let weights = &belief.weights;
            let hand = &mut hands[usize::from(belief.seat)];
            while hand.len() < belief.hand_size && !pool.is_empty() {
                let total: f32 = pool.iter().map(|c| weights[usize::from(c.0 & 127)]).sum();
                let mut x = total * (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
                let mut pick = pool.len() - 1;
                for (i, c) in pool.iter().enumerate() {
                    x -= weights[usize::from(c.0 & 127)];
                    if x < 0.0 {
                        pick = i;
                        break;
                    }
                }
                hand.push(pool.swap_remove(pick));
            }
        }
        // `deal_from_view` deals the other seats in order from the end: arrange the pool that way.
        let mut tail: Vec<Card> = Vec::new();
        for seat in (0..players).rev() {
            if Some(seat) == view.seat {
                continue;
            }
            let s = usize::from(seat);
            if self.seats.iter().any(|b| b.seat == seat) {
                tail.extend(hands[s].iter().copied());
            } else {
                let n = usize::from(view.hand_sizes.get(s).copied().unwrap_or(0));
                for _ in 0..n {
                    tail.extend(pool.pop());
                }
            }
        }
        pool.extend(tail);
        Game::deal_from_view(view, pool, rng)
    }
}

/// One turn of another seat, as [`judge_turn`] reads it.
struct Turn {
    /// The card played, and where.
    played: Card,
    cell: crate::engine::Cell,
    /// Whether the seat exchanged a dead card before playing.
    exchanged: bool,
    /// The seat's draws from this play on (the one after it included).
    draws: u32,
}

/// One turn of another seat under the heuristic model: marks in `ruled_out` (unless a later turn already
/// did) every card code that would have offered a better move than the one made, and, when the seat did
/// not exchange, every dead card (the heuristic exchanges one whenever it holds one).
fn judge_turn(
    before: &crate::engine::Position,
    params: &Params,
    turn: Turn,
    codes: &[Card],
    ruled_out: &mut [Option<u32>; 128],
) {
    let team = before.config().team_of(before.to_move());
    let scorer = Scorer::new(before, params.weights);
    let (played, cell) = (turn.played, turn.cell);
    let made = scorer.score(team, Move::Play { card: played, cell });
    // The best score a card offers; `i32::MAX` for a dead card the seat would have exchanged.
    let best = |card: Card| -> i32 {
        let mut top = i32::MIN;
        for group in &before.move_groups(&[card]) {
            match group.kind {
                GroupKind::Play(card) => {
                    for cell in BitIter(group.cells) {
                        top = top.max(scorer.score(team, Move::Play { card, cell }));
                    }
                }
                GroupKind::Exchange(_) if !turn.exchanged => top = i32::MAX,
                _ => {}
            }
        }
        top
    };
    if best(played) > made {
        // Not a heuristic player's move: it tells nothing.
        return;
    }
    for &card in codes {
        let slot = &mut ruled_out[usize::from(card.0 & 127)];
        if slot.is_none() && best(card) > made {
            *slot = Some(turn.draws);
        }
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

/// Plays the policy from `game` for `params.rollout_depth` plies (exchanges aside) and returns the
/// searching team's reward. With `params.replies` above 1, the searching team's next decision is
/// branched: each of its `replies` best moves by the heuristic is played out on a copy (same deal, same
/// random stream) and the best result counts.
fn rollout(
    game: &mut Game,
    params: &Params,
    me: Team,
    teams: usize,
    roll: &mut GameRng,
    scratch: &mut Vec<Scored>,
) -> f64 {
    let mut depth = 0;
    let mut branch = params.replies > 1;
    while depth < params.rollout_depth && !game.position().is_over() {
        let seat = game.position().to_move();
        let mv = policy(game, params, me, roll, scratch);
        let exchange = matches!(mv, Move::Exchange { .. });
        if branch && !exchange && game.config().team_of(seat) == me {
            branch = false;
            let mut options: Vec<Scored> = scratch.clone();
            options.sort_by_key(|m| std::cmp::Reverse(m.1));
            options.truncate(params.replies);
            if options.len() > 1 {
                // Each option then plays on unbranched, for the plies left.
                let rest = Params {
                    rollout_depth: params.rollout_depth - depth - 1,
                    replies: 1,
                    ..*params
                };
                let mut best = f64::MIN;
                for &(option, _) in &options {
                    let mut copy = game.clone();
                    let mut copy_roll = roll.clone();
                    play(&mut copy, seat, option);
                    let v = rollout(&mut copy, &rest, me, teams, &mut copy_roll, scratch);
                    best = best.max(v);
                }
                return best;
            }
        }
        play(game, seat, mv);
        if !exchange {
            depth += 1;
        }
    }
    evaluate(game, params, teams)[usize::from(me)]
}

/// The rollout policy: the heuristic's best move (jacks only where they matter), sometimes one of the
/// next best.
pub fn policy(
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
pub fn evaluate(game: &Game, params: &Params, teams: usize) -> [f64; TEAMS] {
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
        Status::InProgress
            if params.learned && teams == 2 && game.config().variant == Variant::Classic =>
        {
            let p = crate::ai::value::win_probability(game, 0);
            out[0] = p;
            out[1] = 1.0 - p;
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

/// The highest-scored move, a random one among equals (a copy of `ai::best_of` of that day).
fn best_of(scored: &[Scored], rng: &mut GameRng) -> Option<Move> {
    let best = scored.iter().map(|s| s.1).max()?;
    let ties = scored.iter().filter(|s| s.1 == best).count() as u32;
    let pick = rng.below(ties.max(1)) as usize;
    scored.iter().filter(|s| s.1 == best).nth(pick).map(|s| s.0)
}
