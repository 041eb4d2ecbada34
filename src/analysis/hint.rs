//! The move `hard` would play now for a seat, and one reason for it built from what the position shows:
//! it completes a sequence, breaks or blocks an opponent's line one chip short, makes such a line, keeps
//! a two-eyed jack for later, or exchanges a dead card first.

use super::{cells_of, threats_through, view_seed, BUDGET};
use crate::ai::search::{self, History};
use crate::ai::Budget;
use crate::engine::{Card, CardEffect, Cell, Event, Game, GameRng, Move, Team, View};

/// Why `hard` chose the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A dead card: exchange it first (the turn goes on; ask again after it).
    ExchangeDeadCard,
    /// It completes a sequence.
    CompletesSequence,
    /// It removes a chip from a line `team` had one chip short of a sequence.
    BreaksLine {
        /// Whose line.
        team: Team,
        /// The chip removed.
        cell: Cell,
    },
    /// It takes the last free cell of a line `team` had one chip short of a sequence.
    BlocksLine {
        /// Whose line.
        team: Team,
        /// The cell taken.
        cell: Cell,
    },
    /// It makes a line one chip short of a sequence (four in a row in classic): its cells in order.
    MakesLine {
        /// The line's chips (corners included), in line order.
        cells: Vec<Cell>,
    },
    /// It keeps a two-eyed jack (or unicorn) for later and plays another card.
    KeepsWildCard {
        /// The card kept.
        card: Card,
    },
    /// None of the above: it did best on average over the deals the search tried.
    BestOnAverage,
    /// Nothing else is legal.
    Pass,
}

/// A move with its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The move `hard` would play.
    pub mv: Move,
    /// Why.
    pub reason: Reason,
}

/// The hint for `view`'s seat, who must be to move, after the game's public `history` (oldest first);
/// `None` when it is not the seat's turn. Deterministic: the same view and history give the same hint.
pub fn hint(view: &View, history: &History) -> Option<Hint> {
    hint_with(view, history, &BUDGET)
}

/// [`hint`] within another search budget (for tests and benchmarks).
pub fn hint_with(view: &View, history: &History, budget: &Budget) -> Option<Hint> {
    if !view.is_my_turn() {
        return None;
    }
    let seed = view_seed(view);
    let mv = search::hard(view, history, budget, seed);
    let reason = reason_for(view, mv, seed);
    Some(Hint { mv, reason })
}

/// Why `mv` is good for `view`'s seat, from the position alone.
pub fn reason_for(view: &View, mv: Move, seed: u64) -> Reason {
    let pos = &view.position;
    let Some(me) = view.team() else {
        return Reason::Pass;
    };
    let (cell, card) = match mv {
        Move::Pass => return Reason::Pass,
        Move::Exchange { .. } => return Reason::ExchangeDeadCard,
        Move::Play { card, cell } => (cell, Some(card)),
        Move::Place { cell } | Move::Remove { cell } => (cell, None),
    };
    // The move on a game that fits the view (the unseen cards are a guess; placing a chip does not
    // depend on them).
    let mut game = Game::sample_from_view(view, &mut GameRng::new(seed));
    let seat = pos.to_move();
    let Ok(events) = game.play(seat, mv) else {
        return Reason::BestOnAverage;
    };
    if events
        .iter()
        .any(|e| matches!(e, Event::SequenceCompleted { team, .. } if *team == me))
    {
        return Reason::CompletesSequence;
    }
    let removes = matches!(mv, Move::Remove { .. })
        || card.is_some_and(|c| c.effect() == CardEffect::Remove)
        || pos.owner(cell).is_some();
    for team in (0..pos.config().teams).filter(|&t| t != me) {
        if !threats_through(pos, team, cell).is_empty() {
            return if removes {
                Reason::BreaksLine { team, cell }
            } else {
                Reason::BlocksLine { team, cell }
            };
        }
    }
    if !removes {
        let after = game.position();
        let mine = after.chips(me) | after.layout().corners;
        if let Some(&line) = threats_through(after, me, cell).first() {
            return Reason::MakesLine {
                cells: cells_of(line & mine),
            };
        }
    }
    let wild = view
        .hand
        .iter()
        .copied()
        .find(|c| c.effect() == CardEffect::Wild);
    match (wild, card) {
        (Some(wild), Some(played)) if played.effect() != CardEffect::Wild => {
            Reason::KeepsWildCard { card: wild }
        }
        _ => Reason::BestOnAverage,
    }
}
