//! `/sequence hint` and the picker's **Hint** button: privately, the move the `hard` computer player
//! would make now for the asker, from their own view, with one reason ([`crate::analysis::hint`]).
//! Only in casual games, so a hint can never decide a rated game; the record lists every hint and the
//! final message counts them.

use crate::analysis::{self, Reason};
use crate::engine::{Move, Seat, View};

use super::table::Table;
use super::text::{HintMove, HintWhy, TeamName, Text};
use super::{lock, ChannelId, Reply, Tables, Timestamp, UserId};

/// What a hint needs from the table: the asker's seat and view, the public history, and the moves made
/// so far (the hint is noted only if the game has not moved on meanwhile).
struct Asked {
    seat: Seat,
    view: View,
    history: Vec<(Seat, Move)>,
    actions: usize,
}

/// Whether `user` may have a hint now at `table`, and what it needs; else the refusal.
fn ask(table: &Table, user: UserId) -> Result<Asked, Text> {
    let playing = table.playing().ok_or(Text::NotStarted)?;
    let seat = playing.seat_of(user).ok_or(Text::NotInGame)?;
    if playing.counts_for_ratings(&table.setup) {
        return Err(Text::HintsOnlyCasual);
    }
    let game = playing.live.game();
    let pos = game.position();
    if pos.is_over() {
        return Err(Text::NotStarted);
    }
    if pos.to_move() != seat {
        let to_move = playing
            .player(pos.to_move())
            .map_or(super::Who::Bot(String::new()), super::table::Player::who);
        return Err(Text::NotYourTurn { to_move });
    }
    if !game.config().variant.has_cards() && !playing.rolled {
        return Err(Text::RollFirst);
    }
    Ok(Asked {
        seat,
        view: game.view(seat),
        history: playing.live.history(),
        actions: playing.live.record().actions.len(),
    })
}

/// The hint's text: the move and its reason, in the words of the board.
pub(super) fn hint_text(view: &View, hint: &analysis::Hint) -> Text {
    let pos = &view.position;
    let layout = pos.layout();
    let variant = pos.config().variant;
    let name = |cell| layout.cell_name(cell);
    let chips = pos.config().line_length().saturating_sub(1);
    let mv = match hint.mv {
        Move::Play { card, cell } => HintMove::Play {
            card,
            cell: name(cell),
        },
        Move::Exchange { card } => HintMove::Exchange(card),
        Move::Place { cell } => HintMove::Place(name(cell)),
        Move::Remove { cell } => HintMove::Remove(name(cell)),
        Move::Pass => HintMove::Pass,
    };
    let why = match &hint.reason {
        Reason::CompletesSequence => HintWhy::Completes,
        Reason::BreaksLine { team, cell } => HintWhy::Breaks {
            team: TeamName::of(variant, *team),
            chips,
            cell: name(*cell),
        },
        Reason::BlocksLine { team, cell } => HintWhy::Blocks {
            team: TeamName::of(variant, *team),
            chips,
            cell: name(*cell),
        },
        Reason::MakesLine { cells } => match (cells.first(), cells.last()) {
            (Some(&from), Some(&to)) => HintWhy::Makes {
                chips,
                from: name(from),
                to: name(to),
            },
            _ => HintWhy::Best,
        },
        Reason::KeepsWildCard { card } => HintWhy::KeepsWild(*card),
        Reason::ExchangeDeadCard => HintWhy::DeadCard,
        Reason::BestOnAverage => HintWhy::Best,
        Reason::Pass => HintWhy::Pass,
    };
    Text::Hint { mv, why }
}

impl Tables {
    /// `/sequence hint` by `user` in `channel`: privately, the move `hard` would make now from their
    /// view and why. Only in a casual game, on the asker's turn. The search runs in the search pool
    /// like a computer move (never on the async runtime); the hint is then noted in the game's record
    /// (saved with the next move).
    pub async fn hint(&self, channel: ChannelId, user: UserId, now: Timestamp) -> Reply {
        let Some(shared) = self.get(channel) else {
            return Reply::ephemeral(Text::NoTable);
        };
        let asked = match ask(&lock(&shared), user) {
            Ok(asked) => asked,
            Err(refusal) => return Reply::ephemeral(refusal),
        };
        let Asked {
            seat,
            view,
            history,
            actions,
        } = asked;
        let searched = view.clone();
        let hint = self
            .pool
            .run_for("hint", now, move || {
                analysis::hint_with(&searched, &history, &analysis::BUDGET)
            })
            .await;
        let hint = match hint {
            Ok(Some(hint)) => hint,
            Ok(None) => return Reply::ephemeral(Text::Internal),
            Err(e) => {
                tracing::error!(channel = channel.0, "a hint failed: {e}");
                return Reply::ephemeral(Text::Internal);
            }
        };
        {
            let mut table = lock(&shared);
            if let Ok(playing) = table.playing_mut() {
                // Noted only while it is still that turn: a hint for a turn that is over was no help.
                if playing.live.record().actions.len() == actions {
                    playing.live.note_hint(seat);
                }
            }
        }
        Reply::ephemeral(hint_text(&view, &hint))
    }
}
