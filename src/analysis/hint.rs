//! The move `hard` would play now for a seat, and one reason for it built from what the position shows:
//! it completes a sequence, breaks or blocks an opponent's line (one chip short, or two short with the
//! rest free), makes or extends a line of its own, takes a cell of the King of the Board zone, keeps a
//! two-eyed jack for later (only when the move builds on the seat's chips without it and another line
//! of the seat's, two short of a sequence, is waiting for it), starts a line where lines are still open
//! to the seat, or exchanges a dead card first. "It did best over the games the computer played out" is
//! left for a move the position gives no such reason for (issues 33 and 44).

use super::{cells_of, threats_through, view_seed, BUDGET};
use crate::ai::search::{self, History};
use crate::ai::Budget;
use crate::engine::{
    Bits, Card, CardEffect, Cell, Event, Game, GameRng, Move, Position, Team, View,
};

/// Why `hard` chose the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A dead card: exchange it first (the turn goes on; ask again after it).
    ExchangeDeadCard,
    /// It completes a sequence.
    CompletesSequence,
    /// It removes a chip from a line of `team`'s (`chips` of a sequence's cells held, the rest free).
    BreaksLine {
        /// Whose line.
        team: Team,
        /// The chip removed.
        cell: Cell,
        /// Chips the line had (corners included): one or two short of a sequence.
        chips: u8,
    },
    /// It takes a free cell of a line of `team`'s (`chips` of a sequence's cells held, the rest free).
    BlocksLine {
        /// Whose line.
        team: Team,
        /// The cell taken.
        cell: Cell,
        /// Chips the line has (corners included): one or two short of a sequence.
        chips: u8,
    },
    /// It makes or extends a line of the seat's own that can still become a sequence (no opponent
    /// chip in it): its cells in order.
    MakesLine {
        /// The line's chips (corners included), in line order.
        cells: Vec<Cell>,
    },
    /// It puts a chip in the King of the Board zone (a sequence through it scores 2 points).
    TakesZone {
        /// The cell.
        cell: Cell,
    },
    /// It puts a chip where no line of the seat's is yet, on a cell through which `lines` windows of a
    /// sequence's length hold no opponent chip (after the move: a removal can open them).
    OpensLines {
        /// The cell.
        cell: Cell,
        /// Open windows through it.
        lines: u8,
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
    let len = pos.config().line_length();
    let opponents: Vec<Team> = (0..pos.config().teams).filter(|&t| t != me).collect();
    for &team in &opponents {
        if !threats_through(pos, team, cell).is_empty() {
            return if removes {
                Reason::BreaksLine {
                    team,
                    cell,
                    chips: len - 1,
                }
            } else {
                Reason::BlocksLine {
                    team,
                    cell,
                    chips: len - 1,
                }
            };
        }
    }
    if removes {
        // A one-eyed jack on a line two short of a sequence, the rest of it free.
        for &team in &opponents {
            if open_lines(pos, team, cell, len - 2).next().is_some() {
                return Reason::BreaksLine {
                    team,
                    cell,
                    chips: len - 2,
                };
            }
        }
        // A chip of a line of its team's, two or more of them with no other team's chip in it.
        if let Some(team) = pos.owner(cell).filter(|t| *t != me) {
            let chips = longest_open_line(pos, team, cell);
            if chips >= 2 {
                return Reason::BreaksLine { team, cell, chips };
            }
        }
        return match open_windows(game.position(), me, cell) {
            0 => Reason::BestOnAverage,
            lines => Reason::OpensLines { cell, lines },
        };
    }
    let after = game.position();
    let mine = after.chips(me) | after.layout().corners;
    if let Some(&line) = threats_through(after, me, cell).first() {
        return Reason::MakesLine {
            cells: cells_of(line & mine),
        };
    }
    // The zone as it is when the chip is placed (a scoring move moves it).
    if pos.zone_cells() & cell.bit() != 0 {
        return Reason::TakesZone { cell };
    }
    for &team in &opponents {
        if open_lines(pos, team, cell, len - 2).next().is_some() {
            return Reason::BlocksLine {
                team,
                cell,
                chips: len - 2,
            };
        }
    }
    // The longest run of the seat's own chips (corners included) through the cell, in a line that
    // can still become a sequence, with a chip of the seat's besides the new one (a corner alone
    // builds nothing of its own).
    let run = after
        .layout()
        .windows_through(cell, len)
        .iter()
        .copied()
        .filter(|&w| opponents_in(after, me, w) == 0)
        .map(|w| run_through(w, mine, cell))
        .filter(|run| {
            run.iter()
                .any(|c| *c != cell && after.owner(*c) == Some(me))
        })
        .max_by_key(Vec::len)
        .unwrap_or_default();
    let held = run.len();
    let wild = view
        .hand
        .iter()
        .copied()
        .find(|c| c.effect() == CardEffect::Wild);
    match (wild, card) {
        _ if held >= usize::from(len.saturating_sub(2)).max(3) => Reason::MakesLine { cells: run },
        // The move builds on the seat's chips with an ordinary card, and another line of the seat's is
        // two short of a sequence: the wild card stays for that one (on a board with no such line,
        // keeping it is no reason).
        (Some(wild), Some(played))
            if held >= 2
                && played.effect() != CardEffect::Wild
                && waits_for_wild(after, me, cell) =>
        {
            Reason::KeepsWildCard { card: wild }
        }
        _ if held >= 2 => Reason::MakesLine { cells: run },
        _ => {
            // An opponent's line of two or more that the chip stops, else the lines it starts.
            let blocked = opponents
                .iter()
                .map(|&team| (team, longest_open_line(pos, team, cell)))
                .max_by_key(|&(team, chips)| (chips, std::cmp::Reverse(team)));
            match blocked {
                Some((team, chips)) if chips >= 2 => Reason::BlocksLine { team, cell, chips },
                _ => match open_windows(after, me, cell) {
                    0 => Reason::BestOnAverage,
                    lines => Reason::OpensLines { cell, lines },
                },
            }
        }
    }
}

/// Whether `me` has, on `pos` and away from `cell`, a line two short of a sequence (corners count,
/// at least one chip of its own) with no opponent chip in it: a line a wild card can help finish.
fn waits_for_wild(pos: &Position, me: Team, cell: Cell) -> bool {
    let layout = pos.layout();
    let len = pos.config().line_length();
    let mine = pos.chips(me) | layout.corners;
    crate::engine::BitIter(pos.chips(me)).any(|chip| {
        layout.windows_through(chip, len).iter().any(|&w| {
            w & cell.bit() == 0
                && opponents_in(pos, me, w) == 0
                && (w & mine).count_ones() >= u32::from(len.saturating_sub(2))
                && (w & mine).count_ones() < u32::from(len)
        })
    })
}

/// The most chips of `team`'s (corners count, `cell` included when it is theirs) in a window through
/// `cell` that holds no other team's chip, counting only windows with a chip of `team`'s besides
/// `cell`; 0 when there is none.
fn longest_open_line(pos: &Position, team: Team, cell: Cell) -> u8 {
    let layout = pos.layout();
    let len = pos.config().line_length();
    let theirs = pos.chips(team) | layout.corners;
    layout
        .windows_through(cell, len)
        .iter()
        .copied()
        .filter(|&w| opponents_in(pos, team, w) == 0 && w & pos.chips(team) & !cell.bit() != 0)
        .map(|w| u8::try_from((w & theirs).count_ones()).unwrap_or(u8::MAX))
        .max()
        .unwrap_or(0)
}

/// Windows of a sequence's length through `cell` with no chip of `me`'s opponents (`cell` as it is on
/// `pos`).
fn open_windows(pos: &Position, me: Team, cell: Cell) -> u8 {
    let len = pos.config().line_length();
    let open = pos
        .layout()
        .windows_through(cell, len)
        .iter()
        .filter(|&&w| opponents_in(pos, me, w) == 0)
        .count();
    u8::try_from(open).unwrap_or(u8::MAX)
}

/// The cells of `mine` in window `w` (in line order) that touch `cell` without a gap, `cell` included.
fn run_through(w: Bits, mine: Bits, cell: Cell) -> Vec<Cell> {
    let line = cells_of(w);
    let Some(at) = line.iter().position(|c| *c == cell) else {
        return Vec::new();
    };
    let held = |c: &Cell| mine & c.bit() != 0;
    let start = line[..at]
        .iter()
        .rposition(|c| !held(c))
        .map_or(0, |gap| gap + 1);
    let end = line[at..]
        .iter()
        .position(|c| !held(c))
        .map_or(line.len(), |gap| at + gap);
    line[start..end].to_vec()
}

/// Lines (windows of `len` cells through `cell`, `cell` free) in which `team` holds exactly `chips`
/// cells (corners count for everyone) and every other cell is free.
fn open_lines(
    pos: &Position,
    team: Team,
    cell: Cell,
    chips: u8,
) -> impl Iterator<Item = Bits> + '_ {
    let layout = pos.layout();
    let len = pos.config().line_length();
    let theirs = pos.chips(team) | layout.corners;
    let empty = pos.empty() & !layout.corners;
    let taken = pos.owner(cell) == Some(team);
    layout
        .windows_through(cell, len)
        .iter()
        .copied()
        .filter(move |&w| {
            let (held, free) = ((w & theirs).count_ones(), (w & empty).count_ones());
            held == u32::from(chips)
                && free == u32::from(len - chips)
                && (taken || w & empty & cell.bit() != 0)
        })
}

/// The chips of `me`'s opponents in window `w`.
fn opponents_in(pos: &Position, me: Team, w: Bits) -> u32 {
    (0..pos.config().teams)
        .filter(|&t| t != me)
        .map(|t| (w & pos.chips(t)).count_ones())
        .sum()
}
