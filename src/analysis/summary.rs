//! What happened in a game, from its record: each sequence with who made it and on which move, each
//! removal that broke an opponent's line one chip short of a sequence, in King of the Board what each
//! sequence scored (the zone doubles it), and the game's length.

use super::{threats_through, AnalysisError};
use crate::engine::record::Record;
use crate::engine::{Cell, Event, Game, Move, Seat, Team};

/// A completed sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceMade {
    /// Whose.
    pub team: Team,
    /// The seat whose move completed it.
    pub seat: Seat,
    /// The move that completed it (1-based, counting moves that placed or removed a chip).
    pub move_number: u32,
    /// Its cells in line order.
    pub cells: Vec<Cell>,
    /// King of the Board: the points it scored (2 touching the zone, 1 elsewhere); `None` in other
    /// games.
    pub points: Option<u8>,
    /// King of the Board: whether it touched the zone when it was made (its points were doubled).
    pub in_zone: bool,
}

/// A chip removed (one-eyed jack, dragon; in dice a 10 or a replacing placement) from a line its team had one chip short of a sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenLine {
    /// Who removed it.
    pub seat: Seat,
    /// The team that lost the chip.
    pub victim: Team,
    /// Where.
    pub cell: Cell,
    /// The move (1-based, as in [`SequenceMade::move_number`]).
    pub move_number: u32,
}

/// The summary of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSummary {
    /// Sequences in the order they were made.
    pub sequences: Vec<SequenceMade>,
    /// Lines broken by a removal, in order.
    pub broken: Vec<BrokenLine>,
    /// Moves that placed or removed a chip (the frames of the animated replay).
    pub moves: u32,
    /// Every action (exchanges and passes too).
    pub actions: usize,
    /// The team that won on the board: its sequences (or, in King of the Board, its points) reached
    /// the goal. `None` when nobody did: the game was given up, stopped, or ended by a blocked board
    /// (a round of passes decides it on the sequences or points so far).
    pub board_win: Option<Team>,
}

/// The summary of the game `record` describes (played to its end or not).
pub fn summarize(record: &Record) -> Result<GameSummary, AnalysisError> {
    let mut game = record.initial_game()?;
    let layout = game.position().layout();
    let mut summary = GameSummary {
        actions: record.actions.len(),
        ..GameSummary::default()
    };
    for (index, action) in record.actions.iter().enumerate() {
        if game.needs_roll() {
            // Refused only once the game is over, which the action then reports.
            let _ = game.roll();
        }
        let illegal = |error| AnalysisError::Illegal { index, error };
        let mv = action
            .to_move(game.config().variant, layout)
            .map_err(illegal)?;
        let broken = removal_breaks_line(&game, action.seat, mv);
        // A win reached on the board and held for the last turns of the round (`equal_turns`)
        // stays a win on the board even if the round ends in passes.
        let pending = game.position().pending_win();
        let events = game.play(action.seat, mv).map_err(illegal)?;
        for event in &events {
            if let Event::Won { team } = *event {
                let on_board = !matches!(mv, Move::Pass) || pending == Some(team);
                summary.board_win = on_board.then_some(team);
            }
        }
        if !matches!(mv, Move::Exchange { .. } | Move::Pass) {
            summary.moves += 1;
        }
        if let Some((victim, cell)) = broken {
            summary.broken.push(BrokenLine {
                seat: action.seat,
                victim,
                cell,
                move_number: summary.moves,
            });
        }
        // The sequences this action completed, by their index in the position's list.
        let mut made: Vec<(u16, usize)> = Vec::new();
        for event in &events {
            match *event {
                Event::SequenceCompleted { team, index } => {
                    let cells = game
                        .position()
                        .sequences()
                        .get(usize::from(index))
                        .map(|s| s.cells().to_vec())
                        .unwrap_or_default();
                    made.push((index, summary.sequences.len()));
                    summary.sequences.push(SequenceMade {
                        team,
                        seat: action.seat,
                        move_number: summary.moves,
                        cells,
                        points: None,
                        in_zone: false,
                    });
                }
                Event::Scored {
                    points,
                    in_zone,
                    index,
                    ..
                } => {
                    let entry = made.iter().find(|(i, _)| *i == index).map(|(_, at)| *at);
                    if let Some(sequence) = entry.and_then(|at| summary.sequences.get_mut(at)) {
                        sequence.points = Some(points);
                        sequence.in_zone = in_zone;
                    }
                }
                _ => {}
            }
        }
    }
    Ok(summary)
}

/// When `mv` removes a chip from a line its team had one chip short of a sequence: that team and the
/// cell.
fn removal_breaks_line(game: &Game, seat: Seat, mv: Move) -> Option<(Team, Cell)> {
    let pos = game.position();
    let cell = match mv {
        Move::Play { card, cell } if card.effect() == crate::engine::CardEffect::Remove => cell,
        // Dice: a 10 removes, a placement on an opponent's chip replaces it.
        Move::Remove { cell } | Move::Place { cell } => cell,
        _ => return None,
    };
    let victim = pos.owner(cell)?;
    (victim != pos.team_of(seat) && !threats_through(pos, victim, cell).is_empty())
        .then_some((victim, cell))
}
