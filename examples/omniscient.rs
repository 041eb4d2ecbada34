//! How far can looking ahead take a player against `medium`? An omniscient player — it sees the other
//! hand and the order of the draw pile, which no real player (and no level of this bot) can — searches
//! its best K moves by the heuristic, each followed by medium's reply as `hard` models it, for LEVELS of
//! its own turns, and judges the end with `hard`'s evaluation. Two-player classic, seats swapped every
//! game. It measures a ceiling for heuristic-guided lookahead, not a player the bot offers.
//!
//! `cargo run --release --example omniscient` with GAMES (default 1000), SEED (1), K (3), LEVELS (1), and
//! OPPONENT (`medium`, or `hard-20261129`: the frozen baseline of issue 48, capped at its 3,000 iterations
//! only, so a busy machine does not change its play).

use sequence_bot::ai::heuristic::{score_groups, Scorer};
use sequence_bot::ai::search::{evaluate, policy, Params};
use std::time::Duration;

use sequence_bot::ai::{choose_move, contender_move, Budget, Contender, Level};
use sequence_bot::engine::{Config, Game, GameRng, Move, Options, Seat, Status, Team, Variant};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The best value team `me` (to move in `game`) reaches in `levels` of its turns, and the move to it.
fn search(
    game: &Game,
    params: &Params,
    k: usize,
    levels: u32,
    me: Team,
    rng: &mut GameRng,
) -> (f64, Move) {
    if levels == 0 || game.position().is_over() {
        return (evaluate(game, params, 2)[usize::from(me)], Move::Pass);
    }
    let seat = game.position().to_move();
    let scorer = Scorer::new(game.position(), params.weights);
    let mut scored = Vec::new();
    score_groups(
        &scorer,
        me,
        &game.move_groups(),
        false,
        Some(game.hand(seat)),
        &mut scored,
    );
    if let Some(&(mv, _)) = scored.iter().find(|s| matches!(s.0, Move::Exchange { .. })) {
        let mut after = game.clone();
        let _ = after.play(seat, mv);
        return (search(&after, params, k, levels, me, rng).0, mv);
    }
    rng.shuffle(&mut scored);
    scored.sort_by_key(|m| std::cmp::Reverse(m.1));
    scored.truncate(k.max(1));
    let mut best = (f64::MIN, Move::Pass);
    let mut scratch = Vec::new();
    for &(mv, _) in &scored {
        let mut after = game.clone();
        if after.play(seat, mv).is_err() {
            continue;
        }
        while !after.position().is_over()
            && after.config().team_of(after.position().to_move()) != me
        {
            let s = after.position().to_move();
            let reply = policy(&after, params, me, rng, &mut scratch);
            if after.play(s, reply).is_err() {
                let _ = after.play(s, Move::Pass);
            }
        }
        let v = search(&after, params, k, levels - 1, me, rng).0;
        if v > best.0 {
            best = (v, mv);
        }
    }
    best
}

fn main() {
    let games: u64 = env("GAMES", 1000);
    let seed: u64 = env("SEED", 1);
    let k: usize = env("K", 3);
    let levels: u32 = env("LEVELS", 1);
    let config = Config::new(Variant::Classic, 2, None, Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let params = Params::DEFAULT;
    let baseline = match env("OPPONENT", String::from("medium")).as_str() {
        "medium" => false,
        "hard-20261129" => true,
        other => panic!("OPPONENT is medium or hard-20261129, not {other}"),
    };
    let capped = Budget {
        time: Duration::from_secs(60),
        ..Budget::DEFAULT
    };
    let (mut won, mut lost) = (0u32, 0u32);
    for i in 0..games {
        let mut game = Game::new(config, seed + i);
        let me = (i % 2) as Team;
        let mut rng = GameRng::new(seed.wrapping_mul(31).wrapping_add(i));
        let mut history: Vec<(Seat, Move)> = Vec::new();
        while !game.position().is_over() && game.position().plies() < 2000 {
            let seat = game.position().to_move();
            let mv = if config.team_of(seat) == me {
                search(&game, &params, k, levels, me, &mut rng).1
            } else if baseline {
                contender_move(
                    &game.view(seat),
                    &history,
                    Contender::Hard20261129,
                    &capped,
                    rng.next_u64(),
                    true,
                )
            } else {
                choose_move(
                    &game.view(seat),
                    Level::Medium,
                    &Budget::DEFAULT,
                    rng.next_u64(),
                )
            };
            if game.play(seat, mv).is_ok() {
                history.push((seat, mv));
            } else {
                let _ = game.play(seat, Move::Pass);
                history.push((seat, Move::Pass));
            }
        }
        match game.position().status() {
            Status::Won(t) if t == me => won += 1,
            Status::Won(_) => lost += 1,
            _ => {}
        }
    }
    let (lo, hi) = sequence_bot::ai::arena::wilson(won, won + lost);
    println!(
        "omniscient K={k} LEVELS={levels} vs {}: {won} - {lost}: {:.1}% (95%: {:.1}-{:.1})",
        if baseline { "hard-20261129" } else { "medium" },
        100.0 * f64::from(won) / f64::from((won + lost).max(1)),
        lo * 100.0,
        hi * 100.0
    );
}
