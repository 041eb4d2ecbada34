//! `/sequence hint` and the picker's **Hint** button: privately, the move the `hard` computer player
//! would make now for the asker, from their own view, with one reason ([`crate::analysis::hint`]).
//! Only in casual games, so a hint can never decide a rated game, or where the server's `hints`
//! setting allows them in rated games too: then the player confirms first, and the game becomes
//! unrated for everyone. The record lists every hint and the final message counts them.

use crate::analysis::{self, Reason};
use crate::engine::{Move, Seat, View};

use crate::service::reply::{Control, Label, Style};
use crate::service::request::{Press, Step};
use crate::service::table::picker::{allowed, next_step, Next};
use crate::service::table::turn_number;
use crate::service::table::{Question, Table};
use crate::service::text::{HintMove, HintWhy, TeamName, Text, Who};
use crate::service::{
    lock, Button, ChannelId, GuildId, Message, Output, Reply, Settings, Timestamp, UserId,
};

use super::{Shared, Tables, MAX_REMEMBERED};

/// What a hint costs the asker's share of the server's budget, in posts: a hint is a long search,
/// not a post, but it comes out of the same share, so a member cannot ask for searches without end.
pub(in crate::service) const HINT_POSTS: i64 = 5;

/// The hint given to a player on one turn: asked again on that turn, it is repeated, not searched
/// again (one search per player and turn).
#[derive(Clone, Debug)]
pub(in crate::service) struct Given {
    /// The table (its creation time) and the number of actions of its record: the turn.
    turn: (u64, usize),
    lines: Vec<Text>,
}

/// The hints given on the current turns, by channel and player, and the players whose hint is being
/// searched now (one at a time each).
#[derive(Debug, Default)]
pub(in crate::service) struct Hints {
    given: std::collections::HashMap<(ChannelId, UserId), Given>,
    searching: std::collections::HashSet<UserId>,
}

/// Marks a player's hint as being searched until dropped.
struct Searching<'a> {
    hints: &'a std::sync::Mutex<Hints>,
    user: UserId,
}

impl Drop for Searching<'_> {
    fn drop(&mut self) {
        lock(self.hints).searching.remove(&self.user);
    }
}

/// What a hint needs from the table: the asker's seat and view, the public history, and the moves made
/// so far (the hint is noted only if the game has not moved on meanwhile).
struct Asked {
    seat: Seat,
    view: View,
    history: Vec<(Seat, Move)>,
    actions: usize,
    /// The hint was confirmed in a rated game, which has just become unrated.
    unrated: bool,
    /// What the game's `rated` was before (put back if the unrated game cannot be saved).
    was_rated: Option<bool>,
}

/// What a request for a hint leads to.
enum Answer {
    /// Give it.
    Give(Box<Asked>),
    /// A rated game where the server allows hints: ask first, with this press as the button.
    Confirm(Press),
}

/// Whether `user` may have a hint now at `table`, and what it needs; else the refusal. A press of
/// the picker's Hint button (`press`) must also be for this table and this turn. A confirmed hint
/// in a rated game (allowed by `settings`) makes the game unrated here, before the search.
fn ask(
    table: &mut Table,
    user: UserId,
    press: Option<Press>,
    settings: &Settings,
) -> Result<Answer, Text> {
    let created = table.created.0;
    let playing = table.playing().ok_or(Text::NotStarted)?;
    let hints = allowed(playing, &table.setup, settings);
    if let Some(press) = press {
        let game = playing.game();
        if press.table != created || game.position().is_over() || press.turn != turn_number(game) {
            return Err(Text::PickerExpired {
                dice: !game.config().variant.has_cards(),
            });
        }
        match next_step(created, table.channel, playing, user, press, hints) {
            Ok(Next::Hint) => {}
            Ok(_) => return Err(Text::Internal),
            Err(refusal) => return Err(refusal),
        }
    }
    let seat = playing.seat_of(user).ok_or(Text::NotInGame)?;
    if !hints {
        return Err(Text::HintsOnlyCasual);
    }
    let game = playing.live.game();
    let pos = game.position();
    if pos.is_over() {
        return Err(Text::NotStarted);
    }
    if pos.to_move() != seat {
        let to_move = playing.player(pos.to_move()).map_or(
            crate::service::Who::Bot(String::new()),
            crate::service::table::Player::who,
        );
        return Err(Text::NotYourTurn { to_move });
    }
    if !game.config().variant.has_cards() && !playing.rolled {
        return Err(Text::RollFirst);
    }
    let rated = playing.counts_for_ratings(&table.setup);
    let confirmed = press.is_some_and(|p| p.step == Step::HintUnrated);
    let turn = turn_number(game);
    if rated && !confirmed {
        table.open_question(user, Question::Hint);
        return Ok(Answer::Confirm(Press {
            table: created,
            turn,
            step: Step::HintUnrated,
        }));
    }
    if confirmed && !table.answer_question(user, Question::Hint) {
        // Answered already (Keep playing, or this Yes pressed before) or forgotten (a restart).
        return Err(Text::QuestionAnswered);
    }
    let playing = table.playing().ok_or(Text::NotStarted)?;
    let game = playing.live.game();
    let asked = Asked {
        seat,
        view: game.view(seat),
        history: playing.live.history(),
        actions: playing.live.record().actions.len(),
        unrated: rated,
        was_rated: playing.rated,
    };
    if rated {
        // Confirmed: from now on the game counts for nobody's rating (the final message and the
        // status say it is casual; no rating changes are stored).
        if let Ok(playing) = table.playing_mut() {
            playing.rated = Some(false);
        }
    }
    Ok(Answer::Give(Box::new(asked)))
}

/// The private question before a hint in a rated game, with its Yes and **Keep playing** (answered
/// like every question: in its place).
fn confirmation(press: Press) -> Message {
    Message {
        lines: vec![Text::ConfirmHint],
        components: vec![vec![Control::Button {
            id: press.id(),
            label: Label::Text(Text::PickerHintUnratedButton),
            style: Style::Danger,
            disabled: false,
        }]],
        buttons: vec![Button::KeepPlaying],
        ..Message::default()
    }
}

/// The hint's text: the move and its reason, in the words of the board.
pub(in crate::service) fn hint_text(view: &View, hint: &analysis::Hint) -> Text {
    let pos = &view.position;
    let layout = pos.layout();
    let variant = pos.config().variant;
    let name = |cell| layout.cell_name(cell);
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
        Reason::BreaksLine { team, cell, chips } => HintWhy::Breaks {
            team: TeamName::of(variant, *team),
            chips: *chips,
            cell: name(*cell),
        },
        Reason::BlocksLine { team, cell, chips } => HintWhy::Blocks {
            team: TeamName::of(variant, *team),
            chips: *chips,
            cell: name(*cell),
        },
        Reason::MakesLine { cells } => match (cells.first(), cells.last()) {
            (Some(&from), Some(&to)) => HintWhy::Makes {
                chips: u8::try_from(cells.len()).unwrap_or(u8::MAX),
                from: name(from),
                to: name(to),
            },
            _ => HintWhy::Best,
        },
        Reason::TakesZone { cell } => HintWhy::Zone { cell: name(*cell) },
        Reason::OpensLines { cell, lines } => HintWhy::Opens {
            cell: name(*cell),
            lines: *lines,
        },
        Reason::KeepsWildCard { card } => HintWhy::KeepsWild(*card),
        Reason::ExchangeDeadCard => HintWhy::DeadCard,
        Reason::BestOnAverage => HintWhy::Best,
        Reason::Pass => HintWhy::Pass,
    };
    Text::Hint { mv, why }
}

impl Tables {
    /// Saves the table in `shared` as it is now, on a blocking thread (saving is I/O) and under its
    /// lock, so a newer state saved meanwhile is never overwritten by an older one. False when it
    /// could not be saved (logged).
    async fn save_table(&self, shared: &Shared) -> bool {
        let persist = self.persist.clone();
        let shared = shared.clone();
        let saved = tokio::task::spawn_blocking(move || {
            let table = lock(&shared);
            if table.closed {
                return Ok(());
            }
            persist.save(&table).map_err(|e| (table.channel, e))
        })
        .await;
        match saved {
            Ok(Ok(())) => true,
            Ok(Err((channel, e))) => {
                tracing::error!(
                    channel = channel.0,
                    "cannot save the table after a hint: {e}"
                );
                false
            }
            Err(e) => {
                tracing::error!("saving the table after a hint failed: {e}");
                false
            }
        }
    }

    /// `/sequence hint` by `user` in `channel`: privately, the move `hard` would make now from their
    /// view and why. Only in a casual game, on the asker's turn. The search runs in the search pool
    /// like a computer move (never on the async runtime); the hint is then noted in the game's record
    /// and the table saved (a rated game made unrated is saved before the search).
    pub(in crate::service) async fn hint(
        &self,
        channel: ChannelId,
        user: UserId,
        now: Timestamp,
    ) -> Reply {
        self.hint_for(channel, user, None, now).await
    }

    /// A press of the picker's **Hint** button by `user` in `channel`: checked like any picker press
    /// (this table, this turn, the player to move), then answered privately exactly as
    /// [`Tables::hint`] answers (a new private message; the picker stays as it is).
    pub(in crate::service) async fn press_hint(
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

    /// Takes a hint's cost from `user`'s share of `guild`'s budget, or refuses it when spent.
    fn charge_hint(
        &self,
        guild: Option<GuildId>,
        user: UserId,
        now: Timestamp,
    ) -> Result<(), Text> {
        let Some(guild) = guild else { return Ok(()) };
        let mut budgets = lock(&self.budgets);
        if !budgets.member_may_search(guild, user, now, &self.settings.limits) {
            metrics::counter!("sequence_posting_refusals_total", "budget" => "hint").increment(1);
            return Err(Text::HintSpent);
        }
        budgets.spend(
            guild,
            Some((user, HINT_POSTS)),
            0,
            now,
            &self.settings.limits,
        );
        Ok(())
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
        // One search at a time per member, whatever the channel.
        let _searching = {
            let mut hints = lock(&self.hints);
            if !hints.searching.insert(user) {
                return Reply::ephemeral(Text::HintBusy);
            }
            Searching {
                hints: &self.hints,
                user,
            }
        };
        let (answer, guild, created) = {
            let mut table = lock(&shared);
            // The server's settings from memory (no I/O here): read when the table opened.
            let settings = self.known_settings_for(table.guild);
            let created = table.created.0;
            let turn = table
                .playing()
                .map(|p| (created, p.live.record().actions.len()));
            // Asked again on the same turn: the same hint, without a new search.
            if let Some(turn) = turn {
                if let Some(given) = lock(&self.hints).given.get(&(channel, user)) {
                    if given.turn == turn && ask(&mut table, user, press, &settings).is_ok() {
                        return Reply {
                            outputs: vec![Output::Ephemeral(Message::text_lines(
                                given.lines.clone(),
                            ))],
                            auto_move: false,
                        };
                    }
                }
            }
            (
                ask(&mut table, user, press, &settings),
                table.guild,
                created,
            )
        };
        let asked = match answer {
            Ok(Answer::Give(asked)) => *asked,
            Ok(Answer::Confirm(press)) => {
                return Reply {
                    outputs: vec![Output::Ephemeral(confirmation(press))],
                    auto_move: false,
                }
            }
            Err(refusal) => return Reply::ephemeral(refusal),
        };
        let Asked {
            seat,
            view,
            history,
            actions,
            unrated,
            was_rated,
        } = asked;
        // The search is charged to the asker's share of the server's budget (refused when spent,
        // before a rated game is made unrated for it).
        if let Err(refusal) = self.charge_hint(guild, user, now) {
            if unrated {
                let mut table = lock(&shared);
                if let Ok(playing) = table.playing_mut() {
                    playing.rated = was_rated;
                }
            }
            return Reply::ephemeral(refusal);
        }
        // A rated game made unrated stays so across a restart: saved before the hint is searched.
        if unrated && !self.save_table(&shared).await {
            let mut table = lock(&shared);
            if let Ok(playing) = table.playing_mut() {
                playing.rated = was_rated;
            }
            return Reply::ephemeral(Text::SaveFailed);
        }
        let searched = view.clone();
        // Beside the computer players' pool, at the lowest priority: a hint never delays a
        // computer move, in this channel or another.
        let hint = self
            .pool
            .run_aside("hint", move || {
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
        let noted = {
            let mut table = lock(&shared);
            match table.playing_mut() {
                // Noted only while it is still that turn: a hint for a turn that is over was no help.
                Ok(playing) if playing.live.record().actions.len() == actions => {
                    playing.live.note_hint(seat);
                    true
                }
                _ => false,
            }
        };
        // The record keeps the hint across a restart too (a failure is logged: the hint is given).
        if noted {
            self.save_table(&shared).await;
        }
        let mut lines = vec![hint_text(&view, &hint)];
        let mut outputs = Vec::new();
        if unrated {
            lines.push(Text::HintMadeUnrated);
            // Everyone at the table learns it, not only the asker.
            outputs.push(Output::Channel(Message::text(Text::HintMadeCasual(
                Who::User(user),
            ))));
        }
        if noted {
            let mut hints = lock(&self.hints);
            if hints.given.len() >= MAX_REMEMBERED {
                hints.given.clear();
            }
            hints.given.insert(
                (channel, user),
                Given {
                    turn: (created, actions),
                    lines: vec![lines[0].clone()],
                },
            );
        }
        let message = Message::text_lines(lines);
        // The answer to the question's Yes replaces the question (so its buttons go).
        outputs.push(if press.is_some_and(|p| p.step == Step::HintUnrated) {
            Output::Update(message)
        } else {
            Output::Ephemeral(message)
        });
        Reply {
            outputs,
            auto_move: false,
        }
    }
}
