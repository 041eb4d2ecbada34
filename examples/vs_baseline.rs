//! Screening harness for issue 48: `hard` with parameters from the environment against the frozen
//! baseline `hard-20261129`, both with the default budget, on paired deals (each deal twice, seats
//! swapped), one thread. The arena (`sequence-bot arena --a hard --b hard-20261129 --paired`) measures
//! the shipped `hard`; this plays variants of it without a rebuild of the binary.
//! GAMES, SEED, PLAYERS, KOTB, DEPTH, ROOT, BLOCK, ALL_HANDS, FORKS, ITERS.

use sequence_bot::ai::arena::{play_deal, wilson, Winner};
use sequence_bot::ai::search::{hard_with, History, Params};
use sequence_bot::ai::{contender_move, Budget, Contender};
use sequence_bot::engine::{Config, Move, Options, Variant, View};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let games: u32 = env("GAMES", 100);
    let seed: u64 = env("SEED", 480_001);
    let options = Options {
        king_of_the_board: env("KOTB", 0) == 1,
        ..Options::default()
    };
    let config = Config::new(Variant::Classic, env("PLAYERS", 2), None, options)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut params = Params::DEFAULT;
    params.rollout_depth = env("DEPTH", params.rollout_depth);
    params.root_moves = env("ROOT", params.root_moves);
    params.block = env("BLOCK", u8::from(params.block)) == 1;
    params.all_hands = env("ALL_HANDS", u8::from(params.all_hands)) == 1;
    params.forks = env("FORKS", u8::from(params.forks)) == 1;
    let budget = Budget {
        max_iterations: Some(env("ITERS", sequence_bot::ai::HARD_ITERATIONS)),
        ..Budget::DEFAULT
    };
    let hard = |view: &View, history: &History, s: u64| -> Move {
        if !view.is_my_turn() {
            return Move::Pass;
        }
        hard_with(view, history, &budget, s, &params)
    };
    let baseline = |view: &View, history: &History, s: u64| -> Move {
        contender_move(
            view,
            history,
            Contender::Hard20261129,
            &Budget::DEFAULT,
            s,
            true,
        )
    };
    let (mut w, mut l, mut d) = (0u32, 0u32, 0u32);
    for i in 0..games {
        let deal = seed.wrapping_add(u64::from(i / 2));
        let r = play_deal(config, deal, i, i.is_multiple_of(2), &hard, &baseline);
        match r.winner {
            Winner::A => w += 1,
            Winner::B => l += 1,
            Winner::Draw => d += 1,
        }
        eprintln!(
            "game {i}: {:?} in {} moves ({w}-{l}-{d})",
            r.winner, r.plies
        );
    }
    let (lo, hi) = wilson(w, w + l);
    println!(
        "{params:?}\n{config:?}\nhard {w} - baseline {l}, {d} draws: {:.1}% (95% CI {:.1}-{:.1})",
        100.0 * f64::from(w) / f64::from((w + l).max(1)),
        lo * 100.0,
        hi * 100.0
    );
}
