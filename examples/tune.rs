//! Tuning harness: `hard` with parameters from the environment against `medium`.
//! GAME, GAMES, SEED, ITERS, MS, DEPTH, ROOT, NOISE, SCALE, HANDS, PRUNE, INFER, MODEL, OWN_HAND, HAND_W, LEARNED, REPLIES.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use sequence_bot::ai::arena::{play_with, wilson, Winner};
use sequence_bot::ai::search::{hard_with, History, Params};
use sequence_bot::ai::{choose_move, Budget, Level};
use sequence_bot::engine::{Config, Move, Options, Variant, View};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let games: u32 = env("GAMES", 20);
    let seed: u64 = env("SEED", 1000);
    let variant: Variant = env("GAME", "classic".to_string())
        .parse()
        .unwrap_or(Variant::Classic);
    let config =
        Config::new(variant, 2, None, Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut params = Params::DEFAULT;
    params.rollout_depth = env("DEPTH", params.rollout_depth);
    params.root_moves = env("ROOT", params.root_moves);
    params.noise = env("NOISE", params.noise);
    params.scale = env("SCALE", params.scale);
    params.hands = env("HANDS", 1) == 1;
    params.prune = env("PRUNE", 1) == 1;
    params.infer = env("INFER", 1) == 1;
    params.model = env("MODEL", 1) == 1;
    params.own_hand = env("OWN_HAND", 1) == 1;
    params.weights.hand = env("HAND_W", params.weights.hand);
    params.learned = env("LEARNED", 0) == 1;
    params.replies = env("REPLIES", params.replies);
    let budget = Budget {
        time: Duration::from_millis(env("MS", 3_600_000)),
        max_iterations: std::env::var("ITERS").ok().and_then(|v| v.parse().ok()),
        early_stop: env("EARLY_STOP", 0) == 1,
    };
    let hard = |view: &View, history: &History, s: u64| -> Move {
        if !view.is_my_turn() {
            return Move::Pass;
        }
        hard_with(view, history, &budget, s, &params)
    };
    let medium =
        |view: &View, _: &History, s: u64| choose_move(view, Level::Medium, &Budget::DEFAULT, s);
    let next = AtomicU32::new(0);
    let wins = AtomicU32::new(0);
    let losses = AtomicU32::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let r = play_with(config, seed, i, &hard, &medium);
                match r.winner {
                    Winner::A => wins.fetch_add(1, Ordering::Relaxed),
                    Winner::B => losses.fetch_add(1, Ordering::Relaxed),
                    Winner::Draw => 0,
                };
            });
        }
    });
    let (w, l) = (wins.into_inner(), losses.into_inner());
    let (lo, hi) = wilson(w, w + l);
    println!(
        "{params:?}\nhard {w} - medium {l}: {:.1}% ({:.1}-{:.1})",
        100.0 * f64::from(w) / f64::from((w + l).max(1)),
        lo * 100.0,
        hi * 100.0
    );
}
