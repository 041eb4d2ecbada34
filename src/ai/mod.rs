//! Computer players. They see only a seat's [`View`] (and, for `hard`, the game's public actions) — never
//! the [`Game`](crate::engine::Game) — so they cannot peek at other hands, the draw pile or future dice;
//! the `hard` level guesses those by dealing the unseen cards many times, weighted by what the others'
//! moves say about their hands ([`search::Inference`]).
//!
//! - `easy`: a uniformly random legal move.
//! - `medium`: the line-potential heuristic of [`heuristic`] (extend own lines, block the opponents',
//!   keep jacks for when they matter, exchange dead cards; in King of the Board games, lines through the
//!   zone count double and the race is for points, see [`heuristic::Weights::zone`]).
//! - `hard`: determinized search with paired samples ([`search`]), guided by the heuristic, within a
//!   [`Budget`]; the deals follow what the other players' public moves say about their hands.

pub mod arena;
pub mod hard_20261129;
pub mod heuristic;
pub mod search;
pub mod value;
pub mod windows;

#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::{GameRng, Move, MoveList, View};
use heuristic::{score_groups, Scorer, Weights};

/// How strong a computer player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A random legal move.
    Easy,
    /// The line-potential heuristic.
    Medium,
    /// Search over the hidden cards, guided by the heuristic.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// The lowercase name used in commands.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = AiError;
    fn from_str(s: &str) -> Result<Level, AiError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            "hard" => Ok(Level::Hard),
            _ => Err(AiError::UnknownLevel(s.to_string())),
        }
    }
}

/// Who plays an arena game: a level players can choose, or a frozen baseline that only the arena, the
/// benchmarks and the tests play (players and the service name a [`Level`], never a `Contender`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contender {
    /// A level as players get it.
    Level(Level),
    /// `hard` as it played on 2026-11-29, before issue 48 ([`hard_20261129`]): `hard-20261129`.
    Hard20261129,
}

impl Contender {
    /// The name the arena takes and prints.
    pub const fn name(self) -> &'static str {
        match self {
            Contender::Level(level) => level.name(),
            Contender::Hard20261129 => "hard-20261129",
        }
    }
}

impl From<Level> for Contender {
    fn from(level: Level) -> Contender {
        Contender::Level(level)
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Contender {
    type Err = AiError;
    fn from_str(s: &str) -> Result<Contender, AiError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hard-20261129" | "hard20261129" => Ok(Contender::Hard20261129),
            other => other
                .parse()
                .map(Contender::Level)
                .map_err(|_| AiError::UnknownContender(s.to_string())),
        }
    }
}

/// [`choose_move_knowing`] for a [`Contender`]: a level plays as players get it, the baseline as it
/// played on its day (with the same budget).
pub fn contender_move(
    view: &View,
    history: &search::History,
    contender: Contender,
    budget: &Budget,
    seed: u64,
    zone: bool,
) -> Move {
    match contender {
        Contender::Level(level) => choose_move_knowing(view, history, level, budget, seed, zone),
        Contender::Hard20261129 => {
            if !view.is_my_turn() {
                return Move::Pass;
            }
            let weights = if zone {
                hard_20261129::heuristic::Weights::DEFAULT
            } else {
                hard_20261129::heuristic::Weights::NO_ZONE
            };
            hard_20261129::hard_with(
                view,
                history,
                budget,
                seed,
                &hard_20261129::Params {
                    weights,
                    ..hard_20261129::Params::DEFAULT
                },
            )
        }
    }
}

/// What can go wrong around the computer players (choosing a move itself cannot fail).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// A level name that is not `easy`, `medium` or `hard`.
    #[error("there is no computer level called \"{0}\"; choose easy, medium or hard")]
    UnknownLevel(String),
    /// An arena player that is neither a level nor a baseline.
    #[error("there is no arena player called \"{0}\"; choose easy, medium or hard, or the baseline hard-20261129")]
    UnknownContender(String),
    /// An arena set-up the rules refuse.
    #[error("{0}")]
    Setup(#[from] crate::engine::SetupError),
    /// A bad arena argument.
    #[error("{0}")]
    Arena(String),
}

/// Search iterations of a `hard` move by default. Strength stops rising at about 3,000 (docs/development.md, *How strong
/// the computer players are*); this is under 100 ms of one core on the development machine for most moves.
pub const HARD_ITERATIONS: u32 = 3_000;

/// How long the `hard` level may think: it stops at whichever limit comes first, and sooner when one
/// candidate is left (`early_stop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Wall-clock time per move: a cap (a busy machine gets fewer iterations within it).
    pub time: Duration,
    /// Search iterations per move (`None`: only the time counts).
    pub max_iterations: Option<u32>,
    /// Whether the search stops as soon as one candidate is left, every other one clearly worse on the
    /// same deals (more search would not change the move).
    #[serde(default)]
    pub early_stop: bool,
}

impl Budget {
    /// The default: [`HARD_ITERATIONS`] with an early stop, at most one second.
    pub const DEFAULT: Budget = Budget::capped(Duration::from_secs(1));

    /// The default iterations and early stop, at most `time`.
    pub const fn capped(time: Duration) -> Budget {
        Budget {
            time,
            max_iterations: Some(HARD_ITERATIONS),
            early_stop: true,
        }
    }

    /// A time limit only, every bit of it spent (how `hard` searched before it had an iteration budget).
    pub const fn time(time: Duration) -> Budget {
        Budget {
            time,
            max_iterations: None,
            early_stop: false,
        }
    }

    /// An iteration limit only (the time limit is an hour), no early stop: deterministic for a given seed.
    pub const fn iterations(n: u32) -> Budget {
        Budget {
            time: Duration::from_secs(3600),
            max_iterations: Some(n),
            early_stop: false,
        }
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// Chooses a move for `view.seat` at `level`. Pure and synchronous: the same view, level, iteration limit
/// and seed give the same move. Returns a legal move when it is the seat's turn (`Pass` when nothing else
/// is legal, and when it is not the seat's turn). An exchange does not end the turn: call again after it.
/// `hard` blocks for up to `budget.time`: run it off the async runtime (e.g. `spawn_blocking`).
pub fn choose_move(view: &View, level: Level, budget: &Budget, seed: u64) -> Move {
    choose_move_after(view, &[], level, budget, seed)
}

/// [`choose_move`] for a player who also remembers the game's public actions so far (`history`, oldest
/// first, as in the game's record): `hard` reads the other players' hands from how they played (see
/// [`search::Inference`]). Without a history it only reads the last action the position shows.
pub fn choose_move_after(
    view: &View,
    history: &search::History,
    level: Level,
    budget: &Budget,
    seed: u64,
) -> Move {
    choose_move_knowing(view, history, level, budget, seed, true)
}

/// [`choose_move_after`] with the King of the Board zone knowledge on or off (`zone`; see
/// [`heuristic::Weights::zone`]): off, `medium` and `hard` play a King of the Board game as if it were classic (the
/// arena's comparison). Other games are played the same either way.
pub fn choose_move_knowing(
    view: &View,
    history: &search::History,
    level: Level,
    budget: &Budget,
    seed: u64,
    zone: bool,
) -> Move {
    if !view.is_my_turn() {
        return Move::Pass;
    }
    let weights = if zone {
        Weights::DEFAULT
    } else {
        Weights::NO_ZONE
    };
    match level {
        Level::Easy => easy(view, seed),
        Level::Medium => medium(view, seed, weights),
        Level::Hard => search::hard_with(
            view,
            history,
            budget,
            seed,
            &search::Params {
                weights,
                ..search::Params::DEFAULT
            },
        ),
    }
}

/// A uniformly random legal move.
fn easy(view: &View, seed: u64) -> Move {
    let mut moves = MoveList::new();
    view.legal_moves(&mut moves);
    let mut rng = GameRng::new(seed);
    match moves.len() {
        0 => Move::Pass,
        n => moves[rng.below(n as u32) as usize],
    }
}

/// The best move by the heuristic, ties broken at random.
fn medium(view: &View, seed: u64, weights: Weights) -> Move {
    let groups = view.move_groups();
    let Some(team) = view.team() else {
        return Move::Pass;
    };
    if groups.is_empty() {
        return Move::Pass;
    }
    let scorer = Scorer::new(&view.position, weights);
    let mut scored = Vec::new();
    score_groups(&scorer, team, &groups, false, None, &mut scored);
    let mut rng = GameRng::new(seed);
    best_of(&scored, &mut rng).unwrap_or(Move::Pass)
}

/// The highest-scored move, a random one among equals.
pub(crate) fn best_of(scored: &[heuristic::Scored], rng: &mut GameRng) -> Option<Move> {
    let best = scored.iter().map(|s| s.1).max()?;
    let ties = scored.iter().filter(|s| s.1 == best).count() as u32;
    let pick = rng.below(ties.max(1)) as usize;
    scored.iter().filter(|s| s.1 == best).nth(pick).map(|s| s.0)
}
