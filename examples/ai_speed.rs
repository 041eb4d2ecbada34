//! Prints how many `hard` search iterations per second run on a few mid-game positions.

use std::time::{Duration, Instant};

use sequence_bot::ai::heuristic::{score_groups, Scorer, Weights};
use sequence_bot::ai::search::{paired, Params};
use sequence_bot::ai::{choose_move, Budget, Level};
use sequence_bot::engine::{Config, Game, Options, Variant};

fn main() {
    for variant in Variant::ALL {
        let config =
            Config::new(variant, 2, None, Options::default()).unwrap_or_else(|e| panic!("{e}"));
        let mut game = Game::new(config, 3);
        // Some medium moves into the game (kids games are short).
        let moves = match variant {
            Variant::Kids => 4,
            _ => 20,
        };
        for i in 0..moves {
            if game.position().is_over() {
                break;
            }
            let seat = game.position().to_move();
            let mv = choose_move(&game.view(seat), Level::Medium, &Budget::DEFAULT, i);
            let _ = game.play(seat, mv);
        }
        let view = game.view(game.position().to_move());
        let scorer = Scorer::new(&view.position, Weights::DEFAULT);
        let mut scored = Vec::new();
        score_groups(
            &scorer,
            view.team().unwrap_or(0),
            &view.move_groups(),
            false,
            None,
            &mut scored,
        );
        let start = Instant::now();
        let out = paired(
            &view,
            &[],
            &Budget::time(Duration::from_secs(1)),
            1,
            &Params::DEFAULT,
            scored,
        );
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{variant}: {} iterations in {secs:.2} s = {:.0}/s; root: {:?}",
            out.iterations,
            f64::from(out.iterations) / secs,
            &out.root[..out.root.len().min(4)]
        );
    }
}
