//! `/sequence hint` and the picker's **Hint** button: privately, the move the `hard` computer player
//! would make now for the asker, from their own view, with one reason ([`crate::analysis::hint`]).
//! Only in casual games, so a hint can never decide a rated game; the record lists every hint and the
//! final message counts them.

use crate::analysis::{self, Reason};
use crate::engine::{Move, Seat, View};

use super::picker::{next_step, turn_number, Next, Press};
use super::table::{Playing, Setup, Table};
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

/// Whether a hint may be given in this game: only where it cannot be unfair (a casual game).
pub(super) fn allowed(playing: &Playing, setup: &Setup) -> bool {
    !playing.counts_for_ratings(setup)
}

/// Whether `user` may have a hint now at `table`, and what it needs; else the refusal. A press of
/// the picker's Hint button (`press`) must also be for this table and this turn.
fn ask(table: &Table, user: UserId, press: Option<Press>) -> Result<Asked, Text> {
    let playing = table.playing().ok_or(Text::NotStarted)?;
    if let Some(press) = press {
        let game = playing.game();
        if press.table != table.created.0
            || game.position().is_over()
            || press.turn != turn_number(game)
        {
            return Err(Text::PickerExpired {
                dice: !game.config().variant.has_cards(),
            });
        }
        let hints = allowed(playing, &table.setup);
        match next_step(table.created.0, table.channel, playing, user, press, hints) {
            Ok(Next::Hint) => {}
            Ok(_) => return Err(Text::Internal),
            Err(refusal) => return Err(refusal),
        }
    }
    let seat = playing.seat_of(user).ok_or(Text::NotInGame)?;
    if !allowed(playing, &table.setup) {
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
        self.hint_for(channel, user, None, now).await
    }

    /// A press of the picker's **Hint** button by `user` in `channel`: checked like any picker press
    /// (this table, this turn, the player to move), then answered privately exactly as
    /// [`Tables::hint`] answers (a new private message; the picker stays as it is).
    pub async fn press_hint(
        &self,
        channel: ChannelId,
        user: UserId,
        press: Press,
        now: Timestamp,
    ) -> Reply {
        if !press.is_hint() {
            return Reply::ephemeral(Text::Internal);
        }
        self.hint_for(channel, user, Some(press), now).await
    }

    async fn hint_for(
        &self,
        channel: ChannelId,
        user: UserId,
        press: Option<Press>,
        now: Timestamp,
    ) -> Reply {
        let Some(shared) = self.get(channel) else {
            return Reply::ephemeral(match press {
                Some(_) => Text::PickerExpired { dice: false },
                None => Text::NoTable,
            });
        };
        let asked = match ask(&lock(&shared), user, press) {
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
