//! The `hard` level: single-observer information-set Monte Carlo tree search (ISMCTS).
//!
//! Each iteration deals the cards the seat cannot see at random (a determinization consistent with its
//! view; in dice the future rolls come from the sampled game's own generator), walks the tree choosing
//! among the moves legal in that deal by UCB with availability counts and a progressive bias from the
//! heuristic, adds one node, plays on with the cheap heuristic policy for a few plies, and scores the
//! result with the line-potential evaluation (or the real outcome when the game ended).

use std::time::Instant;

use super::heuristic::{score_groups, Scored, Scorer, Weights, WIN};
use super::{best_of, Budget};
use crate::engine::{CardEffect, Game, GameRng, Move, Seat, Status, Team, View};

/// Tunable search parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Moves considered at the root (best by the heuristic).
    pub root_moves: usize,
    /// Moves considered at other nodes.
    pub inner_moves: usize,
    /// Plies played by the policy after the tree before evaluating.
    pub rollout_depth: u32,
    /// UCB exploration constant.
    pub exploration: f64,
    /// Weight of the heuristic's prior, fading with visits.
    pub bias: f64,
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
}

impl Params {
    /// The parameters `hard` plays with.
    pub const DEFAULT: Params = Params {
        root_moves: 10,
        inner_moves: 5,
        rollout_depth: 12,
        exploration: 0.6,
        bias: 1.0,
        noise: 10,
        scale: 250.0,
        weights: Weights::DEFAULT,
        hands: true,
        prune: true,
    };
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

/// Most teams in a game.
const TEAMS: usize = 4;

struct Node {
    mv: Move,
    mover: Team,
    visits: u32,
    avail: u32,
    reward: f64,
    prior: f64,
    children: Vec<u32>,
}

impl Node {
    fn new(mv: Move, mover: Team, prior: f64) -> Node {
        Node {
            mv,
            mover,
            visits: 0,
            avail: 0,
            reward: 0.0,
            prior,
            children: Vec::new(),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The move chosen.
    pub best: Move,
    /// Iterations run.
    pub iterations: u32,
    /// Root moves with their visits and mean reward, most visited first.
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
    score_groups(&scorer, team, &groups, false, &mut scored);
    let mut rng = GameRng::new(seed);
    // Exchanges first (they cost nothing), wins at once, a lone move without thinking.
    if let Some(&(mv, _)) = scored.iter().find(|s| matches!(s.0, Move::Exchange { .. })) {
        return mv;
    }
    if scored.len() == 1 || scored.iter().any(|s| s.1 >= WIN) {
        return best_of(&scored, &mut rng).unwrap_or(Move::Pass);
    }
    search(view, budget, seed, &Params::DEFAULT, scored).best
}

/// Runs the search from `view` over the scored root moves.
pub fn search(
    view: &View,
    budget: &Budget,
    seed: u64,
    params: &Params,
    mut root_moves: Vec<Scored>,
) -> Outcome {
    let start = Instant::now();
    let mut rng = GameRng::new(seed ^ 0x15_3C75);
    let config = view.position.config();
    let teams = usize::from(config.teams).min(TEAMS);
    let root_team = view.team().unwrap_or(0);
    sort_scored(&mut root_moves, &mut rng);
    root_moves.truncate(params.root_moves.max(1));
    let mut nodes = vec![Node::new(Move::Pass, root_team, 0.0)];
    let root_priors = priors(&root_moves);
    for (&(mv, _), &p) in root_moves.iter().zip(&root_priors) {
        nodes.push(Node::new(mv, root_team, p));
        let id = (nodes.len() - 1) as u32;
        nodes[0].children.push(id);
    }
    let max_iterations = budget.max_iterations.unwrap_or(u32::MAX);
    let mut iterations = 0;
    let mut scratch: Vec<Scored> = Vec::new();
    let mut available: Vec<u32> = Vec::new();
    let mut path: Vec<u32> = Vec::new();
    while iterations < max_iterations && (iterations == 0 || start.elapsed() < budget.time) {
        iterations += 1;
        let mut game = Game::sample_from_view(view, &mut rng);
        path.clear();
        let mut node = 0u32;
        // Selection and expansion.
        loop {
            if game.position().is_over() {
                break;
            }
            auto_exchange(&mut game);
            let seat = game.position().to_move();
            let mover = config.team_of(seat);
            available.clear();
            let mut fresh: Option<(Move, f64)> = None;
            if node == 0 {
                available.extend_from_slice(&nodes[0].children);
            } else {
                let groups = game.move_groups();
                let scorer = Scorer::new(game.position(), params.weights);
                score_groups(&scorer, mover, &groups, true, &mut scratch);
                sort_scored(&mut scratch, &mut rng);
                scratch.truncate(params.inner_moves.max(1));
                let p = priors(&scratch);
                for (&(mv, _), &prior) in scratch.iter().zip(&p) {
                    let found =
                        nodes[node as usize].children.iter().copied().find(|&c| {
                            nodes[c as usize].mv == mv && nodes[c as usize].mover == mover
                        });
                    match found {
                        Some(c) => available.push(c),
                        None if fresh.is_none() => fresh = Some((mv, prior)),
                        None => {}
                    }
                }
            }
            if let Some((mv, prior)) = fresh {
                nodes.push(Node::new(mv, mover, prior));
                let id = (nodes.len() - 1) as u32;
                nodes[node as usize].children.push(id);
                nodes[id as usize].avail += 1;
                for &c in &available {
                    nodes[c as usize].avail += 1;
                }
                path.push(id);
                play(&mut game, seat, mv);
                break;
            }
            if available.is_empty() {
                break;
            }
            for &c in &available {
                nodes[c as usize].avail += 1;
            }
            let chosen = select(&nodes, &available, params);
            path.push(chosen);
            play(&mut game, seat, nodes[chosen as usize].mv);
            node = chosen;
        }
        // Rollout.
        let mut depth = 0;
        while depth < params.rollout_depth && !game.position().is_over() {
            let seat = game.position().to_move();
            let mv = policy(&game, params, &mut rng, &mut scratch);
            play(&mut game, seat, mv);
            if !matches!(mv, Move::Exchange { .. }) {
                depth += 1;
            }
        }
        let reward = evaluate(&game, params, teams);
        for &id in &path {
            let n = &mut nodes[id as usize];
            n.visits += 1;
            n.reward += reward[usize::from(n.mover).min(TEAMS - 1)];
        }
        nodes[0].visits += 1;
    }
    let mut root: Vec<(Move, u32, f64)> = nodes[0]
        .children
        .iter()
        .map(|&c| {
            let n = &nodes[c as usize];
            (n.mv, n.visits, n.reward / f64::from(n.visits.max(1)))
        })
        .collect();
    // Most visited first; the heuristic order (stable sort) breaks ties.
    root.sort_by_key(|r| std::cmp::Reverse(r.1));
    let best = root.first().map_or(Move::Pass, |r| r.0);
    Outcome {
        best,
        iterations,
        root,
    }
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
        let deal = Game::sample_from_view(view, &mut rng);
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
                let mv = policy(&game, params, &mut roll, &mut scratch);
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

fn config_players(game: &Game) -> Seat {
    game.config().players
}

/// Sorts scored moves best first, shuffling first so equal scores come in random order.
fn sort_scored(moves: &mut [Scored], rng: &mut GameRng) {
    rng.shuffle(moves);
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
}

/// Priors in [0, 1] from heuristic scores (best first): the best gets 1.
fn priors(moves: &[Scored]) -> Vec<f64> {
    let (Some(hi), Some(lo)) = (moves.first(), moves.last()) else {
        return Vec::new();
    };
    let span = f64::from((hi.1 - lo.1).max(1));
    moves.iter().map(|s| f64::from(s.1 - lo.1) / span).collect()
}

/// UCB with availability counts and a fading heuristic bias.
fn select(nodes: &[Node], available: &[u32], params: &Params) -> u32 {
    let mut best = available[0];
    let mut best_value = f64::NEG_INFINITY;
    for &c in available {
        let n = &nodes[c as usize];
        if n.visits == 0 {
            // Unvisited moves first, best prior first.
            let value = 1e9 + n.prior;
            if value > best_value {
                best_value = value;
                best = c;
            }
            continue;
        }
        let visits = f64::from(n.visits);
        let value = n.reward / visits
            + params.exploration * (f64::from(n.avail.max(1)).ln() / visits).sqrt()
            + params.bias * n.prior / (visits + 1.0);
        if value > best_value {
            best_value = value;
            best = c;
        }
    }
    best
}

/// Plays a move the search believes legal; an illegal one (never expected) passes instead.
fn play(game: &mut Game, seat: Seat, mv: Move) {
    if game.play(seat, mv).is_err() {
        let _ = game.play(seat, Move::Pass);
    }
}

/// Exchanges a dead card of the player to move, as every level does first.
fn auto_exchange(game: &mut Game) {
    let seat = game.position().to_move();
    let exchange = game.move_groups().iter().find_map(|g| match g.kind {
        crate::engine::GroupKind::Exchange(card) => Some(Move::Exchange { card }),
        _ => None,
    });
    if let Some(mv) = exchange {
        play(game, seat, mv);
    }
}

/// The rollout policy: the heuristic's best move (jacks only where they matter), sometimes one of the
/// next best.
fn policy(game: &Game, params: &Params, rng: &mut GameRng, scratch: &mut Vec<Scored>) -> Move {
    let groups = game.move_groups();
    if groups.is_empty() {
        return Move::Pass;
    }
    let mover = game.config().team_of(game.position().to_move());
    let scorer = Scorer::new(game.position(), params.weights);
    score_groups(&scorer, mover, &groups, true, scratch);
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
            for seat in 0..config_players(game) {
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
