//! Tuning and diagnosis of the King of the Board zone knowledge: `medium` with the zone weight from the
//! environment against `medium` without the knowledge, seats swapped every game, and how the games went:
//! zone and plain sequences per side, the wins completed by a zone sequence, how often a side's move
//! differs from the one the other side would make in the same position, game length, and that the zone
//! was in every view. GAMES, SEED, ZONE (percent, 0: off), POINTS (points to win).

use sequence_bot::ai::arena::wilson;
use sequence_bot::ai::heuristic::{score_groups, Scorer, Weights};
use sequence_bot::engine::{Config, Game, GameRng, Move, Options, Status, Variant, View};

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

/// What one side did over the games.
#[derive(Default, Debug)]
struct Side {
    wins: u32,
    zone_seqs: u32,
    plain_seqs: u32,
    won_by_zone: u32,
    moves: u32,
    differ: u32,
}

fn main() {
    let games: u32 = env("GAMES", 2000);
    let seed: u64 = env("SEED", 20_000);
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
    let without = Weights::NO_ZONE;
    let mut sides = [Side::default(), Side::default()];
    let (mut plies, mut draws, mut zone_seen) = (0u64, 0, 0u32);
    for i in 0..games {
        let game_seed = seed + u64::from(i);
        let a_first = i.is_multiple_of(2);
        let mut game = Game::new(config, game_seed);
        let mut n = 0u64;
        while !game.position().is_over() && game.position().plies() < 5000 {
            let seat = game.position().to_move();
            let team = config.team_of(seat);
            let side = usize::from(team.is_multiple_of(2) != a_first); // 0: A (with), 1: B (without)
            let view = game.view(seat);
            if view.position.config().is_king_of_the_board()
                && view.position.zone_cells().count_ones() == 9
            {
                zone_seen += 1;
            }
            let s = GameRng::new(game_seed ^ n.wrapping_mul(0x9E37_79B9)).next_u64();
            let (mine, other) = if side == 0 {
                (with, without)
            } else {
                (without, with)
            };
            let mv = medium(&view, s, mine);
            sides[side].moves += 1;
            if medium(&view, s, other) != mv {
                sides[side].differ += 1;
            }
            let before = game.position().points(team);
            if game.play(seat, mv).is_err() {
                let _ = game.play(seat, Move::Pass);
            }
            let gained = u32::from(game.position().points(team).saturating_sub(before));
            // 2 points a zone sequence, 1 a plain one (two plain ones in one placement, which is rare,
            // count as one zone sequence here).
            sides[side].zone_seqs += gained / 2;
            sides[side].plain_seqs += gained % 2;
            if let Status::Won(_) = game.position().status() {
                sides[side].wins += 1;
                if gained >= 2 {
                    sides[side].won_by_zone += 1;
                }
            }
            n += 1;
        }
        if !matches!(game.position().status(), Status::Won(_)) {
            draws += 1;
        }
        plies += n;
    }
    let (w, l) = (sides[0].wins, sides[1].wins);
    let (lo, hi) = wilson(w, w + l);
    println!(
        "zone {}: with {w} - without {l}, {draws} draws ({:.1}%, 95% CI {:.1}%–{:.1}%), {:.1} plies a game, zone in view {:.0}% of moves",
        with.zone,
        100.0 * f64::from(w) / f64::from((w + l).max(1)),
        lo * 100.0,
        hi * 100.0,
        plies as f64 / f64::from(games),
        100.0 * f64::from(zone_seen) / plies as f64
    );
    for (name, s) in ["with", "without"].iter().zip(&sides) {
        println!(
            "{name:>8}: zone seqs {:.2}/game, plain seqs {:.2}/game, wins by a zone seq {}, moves differing from the other's choice {:.1}%",
            f64::from(s.zone_seqs) / f64::from(games),
            f64::from(s.plain_seqs) / f64::from(games),
            s.won_by_zone,
            100.0 * f64::from(s.differ) / f64::from(s.moves.max(1))
        );
    }
}
