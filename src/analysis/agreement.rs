//! Agreement with the computer: for each human seat, the share of their moves that `hard` would also
//! have played from that seat's own view at that moment (its hand, the public board and history).
//!
//! What counts: every move that placed or removed a chip when the seat had more than one such move.
//! Not counted: exchanges and passes, forced moves, and turns at which `hard` would first have
//! exchanged a dead card that the player kept (their move is then not `hard`'s next decision).

use super::{view_seed, AnalysisError, BUDGET};
use crate::ai::search;
use crate::ai::Budget;
use crate::engine::record::Record;
use crate::engine::{Move, MoveList, Seat};

/// One seat's agreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatAgreement {
    /// The seat.
    pub seat: Seat,
    /// Moves on which `hard` chose the same move.
    pub matched: u32,
    /// Moves counted.
    pub counted: u32,
}

impl SeatAgreement {
    /// The share in percent, rounded to the nearest; `None` when no move counted.
    pub fn percent(&self) -> Option<u32> {
        (self.counted > 0).then(|| (self.matched * 100 + self.counted / 2) / self.counted)
    }
}

/// The agreement of each of `seats` over the game of `record`, in the order of `seats`.
pub fn agreement(record: &Record, seats: &[Seat]) -> Result<Vec<SeatAgreement>, AnalysisError> {
    agreement_with(record, seats, &BUDGET)
}

/// [`agreement`] within another search budget per move (for tests).
pub fn agreement_with(
    record: &Record,
    seats: &[Seat],
    budget: &Budget,
) -> Result<Vec<SeatAgreement>, AnalysisError> {
    let mut result: Vec<SeatAgreement> = seats
        .iter()
        .map(|&seat| SeatAgreement {
            seat,
            matched: 0,
            counted: 0,
        })
        .collect();
    let mut game = record.initial_game()?;
    let layout = game.position().layout();
    let mut history: Vec<(Seat, Move)> = Vec::with_capacity(record.actions.len());
    let mut moves = MoveList::new();
    for (index, action) in record.actions.iter().enumerate() {
        if game.needs_roll() {
            // Refused only once the game is over, which the action then reports.
            let _ = game.roll();
        }
        let illegal = |error| AnalysisError::Illegal { index, error };
        let mv = action
            .to_move(game.config().variant, layout)
            .map_err(illegal)?;
        if let Some(entry) = result.iter_mut().find(|e| e.seat == action.seat) {
            let view = game.view(action.seat);
            view.legal_moves(&mut moves);
            let choices = moves
                .iter()
                .filter(|m| !matches!(m, Move::Exchange { .. } | Move::Pass))
                .count();
            let chip_move = !matches!(mv, Move::Exchange { .. } | Move::Pass);
            if chip_move && choices > 1 {
                let hard = search::hard(&view, &history, budget, view_seed(&view));
                if !matches!(hard, Move::Exchange { .. }) {
                    entry.counted += 1;
                    entry.matched += u32::from(hard == mv);
                }
            }
        }
        game.play(action.seat, mv).map_err(illegal)?;
        history.push((action.seat, mv));
    }
    Ok(result)
}
