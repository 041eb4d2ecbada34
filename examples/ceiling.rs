//! Issue 48's ceiling: how far above the frozen baseline can `hard`'s search go when it is told what no
//! real player knows? A peeking `hard` (the same candidates, the same paired search and rollouts) deals
//! its worlds with the other seats' real hands (`PEEK=hands`, the draw pile still random), or plays on
//! the real game itself, hands and the order of the draw pile (`PEEK=all`). It plays the baseline
//! `hard-20261129` on paired deals (each deal twice, seats swapped), two-player classic, both sides
//! capped by iterations only (`ITERS`, 3,000 as `hard`), so a busy machine does not change the play.
//! It measures an upper bound for the target, not a player the bot offers.
//!
//! `cargo run --release --example ceiling` with GAMES (default 100), SEED (600001), PEEK (hands), ITERS.

use std::time::Duration;

use sequence_bot::ai::arena::wilson;
use sequence_bot::ai::search::{candidates, paired_on, Params};
use sequence_bot::ai::{contender_move, Budget, Contender};
use sequence_bot::engine::{Config, Game, GameRng, Move, Options, Seat, Status, Variant};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The peeking player's move in `game` for the seat to move.
fn peek(game: &Game, budget: &Budget, seed: u64, all: bool) -> Move {
    let seat = game.position().to_move();
    let view = game.view(seat);
    let params = Params::DEFAULT;
    let scored = match candidates(&view, &params, seed) {
        Ok(scored) => scored,
        Err(mv) => return mv,
    };
    let players = game.config().players;
    let mut deal = |rng: &mut GameRng| -> Game {
        if all {
            return game.clone();
        }
        // The draw pile at random, then the other seats' real hands where `deal_from_view` takes them
        // (from the end, in seat order).
        let mut pool = Game::unseen_cards(&view);
        for other in 0..players {
            if other == seat {
                continue;
            }
            for &card in game.hand(other) {
                if let Some(i) = pool.iter().position(|c| *c == card) {
                    pool.swap_remove(i);
                }
            }
        }
        rng.shuffle(&mut pool);
        let mut tail = Vec::new();
        for other in (0..players).rev() {
            if other == seat {
                continue;
            }
            tail.extend(game.hand(other).iter().copied());
        }
        pool.extend(tail);
        Game::deal_from_view(&view, pool, rng)
    };
    paired_on(&view, budget, seed, &params, scored, &mut deal).best
}

fn mix(seed: u64, plies: u64) -> u64 {
    let mut z = seed ^ plies.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn main() {
    let games: u32 = env("GAMES", 100);
    let seed: u64 = env("SEED", 600_001);
    let all = env("PEEK", String::from("hands")) == "all";
    let budget = Budget {
        time: Duration::from_secs(60),
        max_iterations: Some(env("ITERS", sequence_bot::ai::HARD_ITERATIONS)),
        early_stop: true,
    };
    let config = Config::new(Variant::Classic, 2, None, Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut w, mut l, mut d) = (0u32, 0u32, 0u32);
    for i in 0..games {
        let deal = seed.wrapping_add(u64::from(i / 2));
        let peek_team = (i % 2) as u8;
        let mut game = Game::new(config, deal);
        let mut history: Vec<(Seat, Move)> = Vec::new();
        while !game.position().is_over() && game.position().plies() < 5_000 {
            let seat = game.position().to_move();
            let s = mix(deal, u64::from(game.position().plies()));
            let mv = if config.team_of(seat) == peek_team {
                peek(&game, &budget, s, all)
            } else {
                contender_move(
                    &game.view(seat),
                    &history,
                    Contender::Hard20261129,
                    &budget,
                    s,
                    true,
                )
            };
            let mv = if game.play(seat, mv).is_ok() {
                mv
            } else {
                let _ = game.play(seat, Move::Pass);
                Move::Pass
            };
            history.push((seat, mv));
        }
        match game.position().status() {
            Status::Won(t) if t == peek_team => w += 1,
            Status::Won(_) => l += 1,
            _ => d += 1,
        }
        eprintln!("game {i}: {w}-{l}-{d}");
    }
    let (lo, hi) = wilson(w, w + l);
    println!(
        "peek={} vs hard-20261129: {w} - {l}, {d} draws: {:.1}% (95% CI {:.1}-{:.1})",
        if all { "all" } else { "hands" },
        100.0 * f64::from(w) / f64::from((w + l).max(1)),
        lo * 100.0,
        hi * 100.0
    );
}
