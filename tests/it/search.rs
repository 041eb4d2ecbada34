//! The computer player's search tests that play many `hard` moves. They were unit tests (src/ai/tests.rs);
//! here they call the optimized library (`cargo test` compiles the unit tests unoptimized, where these
//! two alone took over a minute of a CPU).

use sequence_bot::ai::{choose_move, search, Budget, Level, HARD_ITERATIONS};
use sequence_bot::engine::{Config, Game, Move, Options, Seat, Variant, View};

fn config(variant: Variant, players: u8, options: Options) -> Config {
    Config::new(variant, players, None, options).unwrap()
}

/// The position after `plies` moves of `medium` against itself, from the view of the seat to move.
fn medium_position(seed: u64, plies: u64) -> View {
    let mut game = Game::new(config(Variant::Classic, 2, Options::default()), seed);
    for i in 0..plies {
        if game.position().is_over() {
            break;
        }
        let seat = game.position().to_move();
        let mv = choose_move(&game.view(seat), Level::Medium, &Budget::DEFAULT, i);
        game.play(seat, mv).unwrap();
    }
    game.view(game.position().to_move())
}

/// Runs `hard`'s search on `view` and returns what it found.
fn search_outcome(view: &View, budget: &Budget, seed: u64) -> Option<search::Outcome> {
    let params = search::Params::DEFAULT;
    let scored = search::candidates(view, &params, seed).ok()?;
    Some(search::paired(view, &[], budget, seed, &params, scored))
}

#[test]
fn hard_stops_early_once_one_move_is_clearly_best_and_never_passes_its_budget() {
    let mut stopped_early = 0;
    let mut searched = 0;
    for seed in 0..12 {
        let view = medium_position(seed, 10 + seed * 3);
        let mut early = Budget::iterations(HARD_ITERATIONS);
        early.early_stop = true;
        let Some(outcome) = search_outcome(&view, &early, seed) else {
            continue;
        };
        searched += 1;
        // A sample tries every live candidate, so the last one may pass the limit by less than one sample.
        assert!(
            outcome.iterations < HARD_ITERATIONS + 12,
            "{}",
            outcome.iterations
        );
        let full = search_outcome(&view, &Budget::iterations(HARD_ITERATIONS), seed).unwrap();
        assert!(full.iterations >= HARD_ITERATIONS, "{}", full.iterations);
        if outcome.iterations < HARD_ITERATIONS {
            stopped_early += 1;
            // It stopped because every other candidate was dropped (the chosen one saw every deal),
            // and the full search, on the same deals, plays the same move.
            let deals = outcome.root[0].1;
            assert!(
                outcome.root.iter().all(|r| r.1 <= deals),
                "{:?}",
                outcome.root
            );
            assert_eq!(outcome.best, full.best, "seed {seed}");
        }
    }
    assert!(searched >= 8, "only {searched} positions had a search");
    assert!(stopped_early >= 1, "no search of {searched} stopped early");
}

#[test]
fn hard_with_the_learned_value_and_branched_replies_plays_legally_and_repeatably() {
    let params = search::Params {
        learned: true,
        replies: 3,
        rollout_depth: 16,
        ..search::Params::DEFAULT
    };
    let budget = Budget::iterations(60);
    for seed in 0..3u64 {
        let mut game = Game::new(config(Variant::Classic, 2, Options::default()), seed);
        let mut history: Vec<(Seat, Move)> = Vec::new();
        while !game.position().is_over() {
            let seat = game.position().to_move();
            let view = game.view(seat);
            let mv = if seat == 0 {
                let mv = search::hard_with(&view, &history, &budget, seed, &params);
                let again = search::hard_with(&view, &history, &budget, seed, &params);
                assert_eq!(mv, again, "same view, history and seed: same move");
                mv
            } else {
                choose_move(&view, Level::Medium, &budget, seed)
            };
            if let Err(e) = game.check(seat, mv) {
                panic!("seed {seed}: illegal {mv:?}: {e}");
            }
            game.play(seat, mv).unwrap();
            history.push((seat, mv));
        }
    }
}
