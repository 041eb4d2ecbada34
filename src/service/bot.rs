//! Computer players as seen by the service: a level, and a [`MovePicker`] that chooses a move from a
//! seat's view. The Discord layer plugs in the real AI; tests use [`RandomPicker`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::engine::{GameRng, Move, MoveList, Seat, View};

/// How strong a computer player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    /// Plays quickly and makes mistakes.
    Easy,
    /// A fair opponent.
    Medium,
    /// Thinks hard.
    Hard,
}

impl BotLevel {
    /// Every level.
    pub const ALL: [BotLevel; 3] = [BotLevel::Easy, BotLevel::Medium, BotLevel::Hard];

    /// The lowercase name.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Easy => "easy",
            BotLevel::Medium => "medium",
            BotLevel::Hard => "hard",
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not easy, medium or hard.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level `{0}`: choose easy, medium or hard")]
pub struct UnknownLevel(pub String);

impl FromStr for BotLevel {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<BotLevel, UnknownLevel> {
        let lower = s.trim().to_ascii_lowercase();
        BotLevel::ALL
            .into_iter()
            .find(|l| l.name() == lower)
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// Chooses a move for the seat whose view is given (it is that seat's turn). Synchronous and possibly
/// slow: the service calls it on a blocking thread, never holding a table lock. A move that turns out
/// illegal is replaced by a random legal one.
pub trait MovePicker: Send + Sync + 'static {
    /// The move to play, knowing the game's public actions so far (`history`, oldest first).
    fn choose(&self, view: &View, history: &[(Seat, Move)], level: BotLevel, seed: u64) -> Move;
}

/// Picks a uniformly random legal move, whatever the level (a stand-in for the real AI).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPicker;

impl MovePicker for RandomPicker {
    fn choose(&self, view: &View, _history: &[(Seat, Move)], _level: BotLevel, seed: u64) -> Move {
        random_legal_move(view, seed)
    }
}

/// A uniformly random legal move from a view (`Pass` when there is none).
pub fn random_legal_move(view: &View, seed: u64) -> Move {
    let mut moves = MoveList::new();
    view.legal_moves(&mut moves);
    if moves.is_empty() {
        return Move::Pass;
    }
    let mut rng = GameRng::new(seed);
    let n = u32::try_from(moves.len()).unwrap_or(u32::MAX);
    moves
        .get(rng.below(n) as usize)
        .copied()
        .unwrap_or(Move::Pass)
}
