//! `sequence-bot arena`: seeded matches between two levels with seats swapped every game, reported as
//! wins, draws and a 95% Wilson confidence interval of A's win rate over decided games.

use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use super::search::History;
use super::{contender_move, AiError, Budget, Contender};
use crate::engine::{Config, Game, Move, Options, Seat, Status, Variant, View};

/// Games longer than this many moves are stopped and counted as draws (never expected).
const MAX_PLIES: u32 = 5_000;

/// One arena run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arena {
    /// Player A (a level, or the frozen baseline `hard-20261129`).
    pub a: Contender,
    /// Player B.
    pub b: Contender,
    /// Games to play.
    pub games: u32,
    /// Seed of the first game (game `i` deals from `seed + i`, or from `seed + i / 2` when `paired`).
    pub seed: u64,
    /// Whether each deal is played twice, seats swapped: games `2k` and `2k + 1` deal the same cards
    /// (and give each move the same seed), A moving first in the first of them.
    pub paired: bool,
    /// The game set-up.
    pub config: Config,
    /// The `hard` budget per move of A.
    pub budget: Budget,
    /// The `hard` budget per move of B (two budgets of `hard` can be matched against each other).
    pub budget_b: Budget,
    /// Worker threads (1 or 2).
    pub threads: usize,
    /// Whether A plays King of the Board games knowing the zone (see [`super::heuristic::Weights::zone`]).
    pub zone_a: bool,
    /// Whether B does.
    pub zone_b: bool,
}

/// Which side won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// Level A.
    A,
    /// Level B.
    B,
    /// Nobody.
    Draw,
}

/// The result of one arena game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game's number, from 0.
    pub index: u32,
    /// Whether A had the first seat (A plays the even teams then, B the odd ones).
    pub a_first: bool,
    /// Who won.
    pub winner: Winner,
    /// Moves made (exchanges included).
    pub plies: u32,
    /// Moves a level returned that the engine refused (always 0 unless there is a bug).
    pub illegal: u32,
}

/// Plays one arena game: seed `seed + index` deals the cards (or rolls the dice); A plays the even teams
/// in even games, the odd teams in odd ones.
pub fn play_game(arena: &Arena, index: u32) -> GameResult {
    let choose = |who: Contender, budget: Budget, zone: bool| {
        move |view: &View, history: &History, seed: u64| {
            contender_move(view, history, who, &budget, seed, zone)
        }
    };
    let a = choose(arena.a, arena.budget, arena.zone_a);
    let b = choose(arena.b, arena.budget_b, arena.zone_b);
    if arena.paired {
        let deal = arena.seed.wrapping_add(u64::from(index / 2));
        play_deal(arena.config, deal, index, index.is_multiple_of(2), &a, &b)
    } else {
        play_with(arena.config, arena.seed, index, &a, &b)
    }
}

/// A player for [`play_with`]: a view, the public actions so far and a seed in, a move out.
pub type Player<'a> = dyn Fn(&View, &History, u64) -> Move + Sync + 'a;

/// Plays game `index` of a match between two players (seats swapped every other game).
pub fn play_with(
    config: Config,
    seed: u64,
    index: u32,
    a: &Player<'_>,
    b: &Player<'_>,
) -> GameResult {
    let seed = seed.wrapping_add(u64::from(index));
    play_deal(config, seed, index, index.is_multiple_of(2), a, b)
}

/// Plays game `index` on the deal of `seed`, A moving first when `a_first` (a paired run plays each
/// deal with `a_first` and without).
pub fn play_deal(
    config: Config,
    seed: u64,
    index: u32,
    a_first: bool,
    a: &Player<'_>,
    b: &Player<'_>,
) -> GameResult {
    let mut game = Game::new(config, seed);
    let mut illegal = 0;
    let mut history: Vec<(Seat, Move)> = Vec::new();
    while !game.position().is_over() && game.position().plies() < MAX_PLIES {
        let seat = game.position().to_move();
        let team = config.team_of(seat);
        let player = if team.is_multiple_of(2) == a_first {
            a
        } else {
            b
        };
        let move_seed = mix(seed, u64::from(game.position().plies()));
        let mv = player(&game.view(seat), &history, move_seed);
        if game.play(seat, mv).is_ok() {
            history.push((seat, mv));
        } else {
            illegal += 1;
            if game.play(seat, Move::Pass).is_err() {
                break;
            }
            history.push((seat, Move::Pass));
        }
    }
    let winner = match game.position().status() {
        Status::Won(team) if team.is_multiple_of(2) == a_first => Winner::A,
        Status::Won(_) => Winner::B,
        _ => Winner::Draw,
    };
    GameResult {
        index,
        a_first,
        winner,
        plies: game.position().plies(),
        illegal,
    }
}

/// A seed for one move of one game.
fn mix(seed: u64, plies: u64) -> u64 {
    let mut z = seed ^ plies.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The summary of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The run.
    pub arena: Arena,
    /// Every game, in order.
    pub results: Vec<GameResult>,
}

impl Report {
    /// Games A won.
    pub fn a_wins(&self) -> u32 {
        self.count(Winner::A)
    }

    /// Games B won.
    pub fn b_wins(&self) -> u32 {
        self.count(Winner::B)
    }

    /// Drawn games.
    pub fn draws(&self) -> u32 {
        self.count(Winner::Draw)
    }

    fn count(&self, w: Winner) -> u32 {
        self.results.iter().filter(|r| r.winner == w).count() as u32
    }

    /// A's win rate over decided games with its 95% Wilson interval.
    pub fn a_rate(&self) -> (f64, f64, f64) {
        let decided = self.a_wins() + self.b_wins();
        let rate = if decided == 0 {
            0.0
        } else {
            f64::from(self.a_wins()) / f64::from(decided)
        };
        let (lo, hi) = wilson(self.a_wins(), decided);
        (rate, lo, hi)
    }

    /// Average moves per game.
    pub fn average_plies(&self) -> f64 {
        let total: u64 = self.results.iter().map(|r| u64::from(r.plies)).sum();
        total as f64 / self.results.len().max(1) as f64
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.arena;
        let (rate, lo, hi) = self.a_rate();
        let budget = if a.budget == a.budget_b {
            describe(&a.budget)
        } else {
            format!("A {}, B {}", describe(&a.budget), describe(&a.budget_b))
        };
        let mode = if a.config.is_king_of_the_board() {
            let knows = |zone: bool| if zone { "with" } else { "without" };
            format!(
                " king_of_the_board to {} points (A {} zone knowledge, B {})",
                a.config.points_to_win(),
                knows(a.zone_a),
                knows(a.zone_b)
            )
        } else {
            String::new()
        };
        writeln!(
            f,
            "arena: {} vs {}, {} {}-player{}, {} games from seed {}{}, hard budget {}",
            a.a,
            a.b,
            a.config.variant,
            a.config.players,
            mode,
            self.results.len(),
            a.seed,
            if a.paired {
                " (paired: each deal twice, seats swapped)"
            } else {
                ""
            },
            budget,
        )?;
        writeln!(f, "A ({}) wins: {}", a.a, self.a_wins())?;
        writeln!(f, "B ({}) wins: {}", a.b, self.b_wins())?;
        writeln!(f, "draws: {}", self.draws())?;
        writeln!(
            f,
            "A win rate over decided games: {:.1}% (95% CI {:.1}%–{:.1}%)",
            rate * 100.0,
            lo * 100.0,
            hi * 100.0
        )?;
        let first: Vec<&GameResult> = self.results.iter().filter(|r| r.a_first).collect();
        let first_wins = first.iter().filter(|r| r.winner == Winner::A).count();
        let second_wins = self
            .results
            .iter()
            .filter(|r| !r.a_first && r.winner == Winner::A)
            .count();
        writeln!(
            f,
            "A wins moving first: {}/{}, moving second: {}/{}",
            first_wins,
            first.len(),
            second_wins,
            self.results.len() - first.len()
        )?;
        write!(f, "average moves per game: {:.1}", self.average_plies())?;
        let illegal: u32 = self.results.iter().map(|r| r.illegal).sum();
        if illegal > 0 {
            write!(f, "\nILLEGAL MOVES RETURNED: {illegal}")?;
        }
        Ok(())
    }
}

/// A budget in words: `1000 ms / 3000 iterations, early stop`.
fn describe(budget: &Budget) -> String {
    format!(
        "{} ms{}{}",
        budget.time.as_millis(),
        budget
            .max_iterations
            .map_or(String::new(), |n| format!(" / {n} iterations")),
        if budget.early_stop {
            ", early stop"
        } else {
            ""
        }
    )
}

/// The 95% Wilson score interval of `successes` out of `n`.
pub fn wilson(successes: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let n = f64::from(n);
    let p = f64::from(successes) / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Plays the run on up to two threads; `progress` hears of each game as it ends.
pub fn run(arena: &Arena, progress: &(dyn Fn(&GameResult) + Sync)) -> Report {
    let next = AtomicU32::new(0);
    let results = Mutex::new(Vec::with_capacity(arena.games as usize));
    let threads = arena.threads.clamp(1, 2);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= arena.games {
                    break;
                }
                let result = play_game(arena, index);
                progress(&result);
                if let Ok(mut r) = results.lock() {
                    r.push(result);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|r| r.index);
    Report {
        arena: *arena,
        results,
    }
}

/// The arena's command-line arguments, as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// Player A: a level, or the baseline `hard-20261129`.
    pub a: String,
    /// Player B.
    pub b: String,
    /// Games.
    pub games: u32,
    /// First seed.
    pub seed: u64,
    /// classic, dice or kids.
    pub game: String,
    /// Players.
    pub players: u8,
    /// Hard time cap in milliseconds.
    pub budget_ms: u64,
    /// Hard iteration limit (`None`: [`super::HARD_ITERATIONS`]; `Some(0)`: none, only the time counts).
    pub iterations: Option<u32>,
    /// Whether hard spends its whole budget (no early stop).
    pub no_early_stop: bool,
    /// B's time cap, if not A's.
    pub b_budget_ms: Option<u64>,
    /// B's iteration limit, if not A's (`Some(0)`: none).
    pub b_iterations: Option<u32>,
    /// Whether B spends its whole budget (no early stop), whatever A does.
    pub b_no_early_stop: bool,
    /// Threads (1 or 2).
    pub threads: usize,
    /// The game mode: `classic` (none) or `king_of_the_board`.
    pub mode: Option<String>,
    /// Points that win a `king_of_the_board` game (its default when `None`).
    pub points_to_win: Option<u8>,
    /// Whether A plays without the King of the Board zone knowledge.
    pub a_no_zone: bool,
    /// Whether B plays without it.
    pub b_no_zone: bool,
    /// Whether each deal is played twice, seats swapped (see [`Arena::paired`]).
    pub paired: bool,
}

impl Args {
    /// Checks the arguments.
    pub fn to_arena(&self) -> Result<Arena, AiError> {
        let variant: Variant = self.game.parse()?;
        let king_of_the_board = match self.mode.as_deref().map(str::trim) {
            None | Some("classic") => false,
            Some("king_of_the_board") => true,
            Some(other) => {
                return Err(AiError::Arena(format!(
                    "there is no game mode called \"{other}\"; choose classic or king_of_the_board"
                )))
            }
        };
        let options = Options {
            king_of_the_board,
            points_to_win: self.points_to_win,
            ..Options::default()
        };
        let config = Config::new(variant, self.players, None, options)?;
        if self.games == 0 {
            return Err(AiError::Arena("play at least one game (--games N)".into()));
        }
        if !(1..=2).contains(&self.threads) {
            return Err(AiError::Arena(
                "use 1 or 2 threads (the machine has 2 cores)".into(),
            ));
        }
        Ok(Arena {
            a: self.a.parse()?,
            b: self.b.parse()?,
            games: self.games,
            seed: self.seed,
            paired: self.paired,
            config,
            budget: budget(self.budget_ms, self.iterations, !self.no_early_stop),
            budget_b: budget(
                self.b_budget_ms.unwrap_or(self.budget_ms),
                self.b_iterations.or(self.iterations),
                !(self.no_early_stop || self.b_no_early_stop),
            ),
            threads: self.threads,
            zone_a: !self.a_no_zone,
            zone_b: !self.b_no_zone,
        })
    }
}

/// A budget from the command line: `iterations` `None` is the default limit, `Some(0)` none.
fn budget(ms: u64, iterations: Option<u32>, early_stop: bool) -> Budget {
    Budget {
        time: std::time::Duration::from_millis(ms.max(1)),
        max_iterations: match iterations {
            None => Some(super::HARD_ITERATIONS),
            Some(0) => None,
            Some(n) => Some(n),
        },
        early_stop,
    }
}

/// `sequence-bot arena ...`: runs and prints the report; returns the exit code.
pub fn run_cli(args: &Args) -> i32 {
    let arena = match args.to_arena() {
        Ok(a) => a,
        Err(e) => {
            crate::cli::print_error(&e.to_string());
            return 2;
        }
    };
    let report = run(&arena, &|r: &GameResult| {
        let (first, second) = if r.a_first {
            (arena.a, arena.b)
        } else {
            (arena.b, arena.a)
        };
        let winner = match r.winner {
            Winner::A => format!("A ({})", arena.a),
            Winner::B => format!("B ({})", arena.b),
            Winner::Draw => "draw".into(),
        };
        crate::cli::print_error(&format!(
            "game {:>4}: {} first vs {}: {} in {} moves",
            r.index, first, second, winner, r.plies
        ));
    });
    match crate::cli::print_line(&report.to_string()) {
        Ok(()) => 0,
        Err(e) => {
            crate::cli::print_error(&e);
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        let (lo, hi) = wilson(90, 100);
        assert!((lo - 0.8256).abs() < 0.001, "{lo}");
        assert!((hi - 0.9448).abs() < 0.001, "{hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10);
        assert!(lo > 0.69 && hi > 0.999, "{lo} {hi}");
    }

    #[test]
    fn bad_arguments_are_refused_politely() {
        let good = Args {
            a: "medium".into(),
            b: "easy".into(),
            games: 2,
            seed: 1,
            game: "classic".into(),
            players: 2,
            budget_ms: 1000,
            iterations: None,
            no_early_stop: false,
            b_budget_ms: None,
            b_iterations: None,
            b_no_early_stop: false,
            threads: 1,
            mode: None,
            points_to_win: None,
            a_no_zone: false,
            b_no_zone: false,
            paired: false,
        };
        assert!(good.to_arena().is_ok());
        let bad_level = Args {
            a: "grandmaster".into(),
            ..good.clone()
        };
        assert!(bad_level
            .to_arena()
            .unwrap_err()
            .to_string()
            .contains("easy, medium or hard"));
        assert!(Args {
            players: 5,
            ..good.clone()
        }
        .to_arena()
        .is_err());
        assert!(Args {
            threads: 8,
            ..good.clone()
        }
        .to_arena()
        .is_err());
        assert!(Args { games: 0, ..good }.to_arena().is_err());
    }

    #[test]
    fn a_short_run_counts_every_game_and_swaps_seats() {
        let arena = Args {
            a: "medium".into(),
            b: "easy".into(),
            games: 4,
            seed: 7,
            game: "kids".into(),
            players: 2,
            budget_ms: 1000,
            iterations: None,
            no_early_stop: false,
            b_budget_ms: None,
            b_iterations: None,
            b_no_early_stop: false,
            threads: 2,
            mode: None,
            points_to_win: None,
            a_no_zone: false,
            b_no_zone: false,
            paired: false,
        }
        .to_arena()
        .unwrap();
        let report = run(&arena, &|_| {});
        assert_eq!(report.results.len(), 4);
        assert_eq!(report.a_wins() + report.b_wins() + report.draws(), 4);
        assert_eq!(report.results.iter().filter(|r| r.a_first).count(), 2);
        assert!(report.results.iter().all(|r| r.illegal == 0 && r.plies > 0));
        // Same seeds, same games, whatever the threads.
        let again = run(
            &Arena {
                threads: 1,
                ..arena
            },
            &|_| {},
        );
        assert_eq!(again.results, report.results);
        assert!(report.to_string().contains("95% CI"));
    }

    #[test]
    fn king_of_the_board_runs_with_and_without_the_zone_knowledge() {
        let args = Args {
            a: "medium".into(),
            b: "medium".into(),
            games: 4,
            seed: 3,
            game: "classic".into(),
            players: 2,
            budget_ms: 1000,
            iterations: None,
            no_early_stop: false,
            b_budget_ms: None,
            b_iterations: None,
            b_no_early_stop: false,
            threads: 1,
            mode: Some("king_of_the_board".into()),
            points_to_win: Some(4),
            a_no_zone: false,
            b_no_zone: true,
            paired: false,
        };
        let arena = args.to_arena().unwrap();
        assert!(arena.config.is_king_of_the_board());
        assert_eq!(arena.config.points_to_win(), 4);
        assert!(arena.zone_a && !arena.zone_b);
        let report = run(&arena, &|_| {});
        assert_eq!(report.results.len(), 4);
        assert!(report.results.iter().all(|r| r.illegal == 0));
        let text = report.to_string();
        assert!(
            text.contains("king_of_the_board to 4 points (A with zone knowledge, B without)"),
            "{text}"
        );
        let bad_mode = Args {
            mode: Some("capture_the_flag".into()),
            ..args.clone()
        };
        let error = bad_mode.to_arena().unwrap_err().to_string();
        assert!(error.contains("classic or king_of_the_board"), "{error}");
        // The rules refuse the mode outside the classic game, and points without the mode.
        assert!(Args {
            game: "kids".into(),
            ..args.clone()
        }
        .to_arena()
        .is_err());
        assert!(Args { mode: None, ..args }.to_arena().is_err());
    }
}
