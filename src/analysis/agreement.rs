//! Agreement with the computer: for each human seat, the share of their moves that `hard` would also
//! have played from that seat's own view at that moment (its hand, the public board and history).
//!
//! What counts: every move that placed or removed a chip when the seat had more than one such move.
//! Not counted: exchanges and passes, forced moves, and turns at which `hard` would first have
//! exchanged a dead card that the player kept (their move is then not `hard`'s next decision).

use std::sync::Arc;

use super::{view_seed, AnalysisError, BUDGET};
use crate::ai::search;
use crate::ai::Budget;
use crate::engine::record::Record;
use crate::engine::{Move, MoveList, Seat, View};

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
        share_percent(self.matched, self.counted)
    }
}

/// `matched` of `counted` in percent, rounded to the nearest; `None` when `counted` is 0.
pub fn share_percent(matched: u32, counted: u32) -> Option<u32> {
    let scaled = u64::from(matched) * 100 + u64::from(counted) / 2;
    scaled
        .checked_div(u64::from(counted))
        .map(|p| u32::try_from(p).unwrap_or(u32::MAX))
}

/// One move to judge: a human's chip move with its seat's view and the public history before it.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The seat that moved.
    pub seat: Seat,
    /// The index of the move's action in the record.
    pub index: usize,
    /// What it saw.
    view: View,
    /// The public actions before the move (the game's whole history, shared; `at` of them count).
    history: Arc<Vec<(Seat, Move)>>,
    at: usize,
    /// What it played.
    played: Move,
}

impl Decision {
    /// Whether `hard` from the same view chose the same move; `None` when `hard` would first have
    /// exchanged a dead card (not counted). One `hard` search: run it off the async runtime.
    pub fn judge(&self, budget: &Budget) -> Option<bool> {
        let history = self.history.get(..self.at).unwrap_or_default();
        let hard = search::hard(&self.view, history, budget, view_seed(&self.view));
        (!matches!(hard, Move::Exchange { .. })).then_some(hard == self.played)
    }
}

/// The moves of `seats` to judge in the game of `record`, in order: each chip move made when the seat
/// had more than one.
pub fn decisions(record: &Record, seats: &[Seat]) -> Result<Vec<Decision>, AnalysisError> {
    let mut game = record.initial_game()?;
    let layout = game.position().layout();
    let mut history: Vec<(Seat, Move)> = Vec::with_capacity(record.actions.len());
    let mut pending: Vec<(Seat, usize, View, usize, Move)> = Vec::new();
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
        if seats.contains(&action.seat) && !matches!(mv, Move::Exchange { .. } | Move::Pass) {
            let view = game.view(action.seat);
            view.legal_moves(&mut moves);
            let choices = moves
                .iter()
                .filter(|m| !matches!(m, Move::Exchange { .. } | Move::Pass))
                .count();
            if choices > 1 {
                pending.push((action.seat, index, view, history.len(), mv));
            }
        }
        game.play(action.seat, mv).map_err(illegal)?;
        history.push((action.seat, mv));
    }
    let history = Arc::new(history);
    Ok(pending
        .into_iter()
        .map(|(seat, index, view, at, played)| Decision {
            seat,
            index,
            view,
            history: history.clone(),
            at,
            played,
        })
        .collect())
}

/// Each of `seats`' agreement from judged decisions (`verdicts[i]` is `decisions[i].judge(..)`).
pub fn tally(
    seats: &[Seat],
    decisions: &[Decision],
    verdicts: &[Option<bool>],
) -> Vec<SeatAgreement> {
    seats
        .iter()
        .map(|&seat| {
            let mut entry = SeatAgreement {
                seat,
                matched: 0,
                counted: 0,
            };
            for (decision, verdict) in decisions.iter().zip(verdicts) {
                if let (true, Some(same)) = (decision.seat == seat, verdict) {
                    entry.counted += 1;
                    entry.matched += u32::from(*same);
                }
            }
            entry
        })
        .collect()
}

/// The agreement of each of `seats` over the game of `record`, in the order of `seats`, all at once
/// (the service judges the decisions one by one instead, between live moves).
pub fn agreement(record: &Record, seats: &[Seat]) -> Result<Vec<SeatAgreement>, AnalysisError> {
    agreement_with(record, seats, &BUDGET)
}

/// [`agreement`] within another search budget per move (for tests).
pub fn agreement_with(
    record: &Record,
    seats: &[Seat],
    budget: &Budget,
) -> Result<Vec<SeatAgreement>, AnalysisError> {
    let decisions = decisions(record, seats)?;
    let verdicts: Vec<Option<bool>> = decisions.iter().map(|d| d.judge(budget)).collect();
    Ok(tally(seats, &decisions, &verdicts))
}
