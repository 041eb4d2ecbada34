//! Tuning harness for the King of the Board zone knowledge: `medium` with the zone weight from the
//! environment against `medium` without the knowledge, seats swapped every game.
//! GAMES, SEED, ZONE (percent, 0: off), POINTS (points to win).

use sequence_bot::ai::arena::{play_with, wilson, Winner};
use sequence_bot::ai::heuristic::{score_groups, Scorer, Weights};
use sequence_bot::ai::search::History;
use sequence_bot::engine::{Config, GameRng, Move, Options, Variant, View};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `medium` with the given weights.
fn medium(view: &View, seed: u64, weights: Weights) -> Move {
    let (Some(team), groups) = (view.team(), view.move_groups()) else {
        return Move::Pass;
    };
    if !view.is_my_turn() || groups.is_empty() {
        return Move::Pass;
    }
    let scorer = Scorer::new(&view.position, weights);
    let mut scored = Vec::new();
    score_groups(&scorer, team, &groups, false, None, &mut scored);
    let Some(best) = scored.iter().map(|s| s.1).max() else {
        return Move::Pass;
    };
    let ties: Vec<Move> = scored.iter().filter(|s| s.1 == best).map(|s| s.0).collect();
    let pick = GameRng::new(seed).below(ties.len() as u32) as usize;
    ties[pick]
}

fn main() {
    let games: u32 = env("GAMES", 400);
    let seed: u64 = env("SEED", 1);
    let options = Options {
        king_of_the_board: true,
        points_to_win: Some(env("POINTS", 3)),
        ..Options::default()
    };
    let config = Config::new(Variant::Classic, 2, None, options).unwrap_or_else(|e| panic!("{e}"));
    let with = Weights {
        zone: env("ZONE", Weights::DEFAULT.zone),
        ..Weights::DEFAULT
    };
    let a = |view: &View, _: &History, s: u64| medium(view, s, with);
    let b = |view: &View, _: &History, s: u64| medium(view, s, Weights::NO_ZONE);
    let (mut wins, mut losses) = (0, 0);
    for i in 0..games {
        match play_with(config, seed, i, &a, &b).winner {
            Winner::A => wins += 1,
            Winner::B => losses += 1,
            Winner::Draw => {}
        }
    }
    let (lo, hi) = wilson(wins, wins + losses);
    println!(
        "zone {}: {wins}-{losses} ({:.1}%, 95% CI {:.1}%–{:.1}%)",
        with.zone,
        100.0 * f64::from(wins) / f64::from((wins + losses).max(1)),
        lo * 100.0,
        hi * 100.0
    );
}
