//! Looking back at games and ahead for a player: what happened in a finished game ([`summary`]), how
//! often each human chose the move `hard` would have chosen from their own view ([`agreement`]), and the
//! move `hard` would play now with a one-line reason ([`hint`]).
//!
//! About games, not Discord: it uses only [`crate::engine`] and [`crate::ai`]; the service decides when
//! to run it (off the async runtime, through the search pool) and how to word it.
//!
//! Hidden information: every question to `hard` is asked from one seat's [`View`] at that moment (its
//! hand, the public board and the public history), never from the whole game, and the search's seed comes
//! from that view alone ([`view_seed`]), so the answer cannot depend on another hand.

pub mod agreement;
pub mod hint;
pub mod profile;
pub mod summary;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_profile;
#[cfg(test)]
pub(crate) mod tests_support;

use std::time::Duration;

use crate::ai::{Budget, HARD_ITERATIONS};
use crate::engine::{Bits, Cell, Position, Team, View};

pub use agreement::{agreement, agreement_with, decisions, tally, Decision, SeatAgreement};
pub use hint::{hint, hint_with, Hint, Reason};
pub use summary::{summarize, BrokenLine, GameSummary, SequenceMade};

/// What went wrong reading a record for an analysis.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The record cannot be read.
    #[error("{0}")]
    Record(#[from] crate::engine::RecordError),
    /// An action of the record is illegal.
    #[error("action {index} of the record is illegal: {error}")]
    Illegal {
        /// Index of the action.
        index: usize,
        /// Why.
        error: crate::engine::PlayError,
    },
}

/// The budget of every analysis search: `hard`'s iterations and early stop, with a time cap far above
/// what they take, so that the answer depends on the view alone and not on how busy the machine is.
pub const BUDGET: Budget = Budget {
    time: Duration::from_secs(20),
    max_iterations: Some(HARD_ITERATIONS),
    early_stop: true,
};

/// A seed for `hard` from what `view`'s seat knows (seat, public position, own hand): the same view
/// always gives the same move, and another seat's hand cannot change it.
pub fn view_seed(view: &View) -> u64 {
    // FNV-1a over the view's public and own parts.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| {
        for byte in x.to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    let pos = &view.position;
    eat(u64::from(view.seat.unwrap_or(u8::MAX)));
    eat(u64::from(pos.plies()));
    for team in 0..pos.config().teams {
        let chips = pos.chips(team);
        eat(chips as u64);
        eat((chips >> 64) as u64);
    }
    if let Some([a, b]) = pos.roll() {
        eat(u64::from(a) << 8 | u64::from(b));
    }
    for card in &view.hand {
        eat(u64::from(card.0));
    }
    hash
}

/// The cells of `bits` in line order (a window's cells increase along the line in every direction).
pub(crate) fn cells_of(bits: Bits) -> Vec<Cell> {
    crate::engine::BitIter(bits).collect()
}

/// A window through `cell` in which `team` holds all but one cell (corners count for everyone) and the
/// last is empty: a line one chip short of a sequence. `cell` may be any of its cells.
pub(crate) fn threats_through(pos: &Position, team: Team, cell: Cell) -> Vec<Bits> {
    let layout = pos.layout();
    let len = pos.config().line_length();
    let mine = pos.chips(team) | layout.corners;
    let empty = pos.empty() & !layout.corners;
    layout
        .windows_through(cell, len)
        .iter()
        .copied()
        .filter(|&w| (w & mine).count_ones() == u32::from(len) - 1 && (w & empty).count_ones() == 1)
        .collect()
}
