//! One channel's table: the lobby, then the game, then (in a series) the break before the next. Plain,
//! serializable data plus synchronous rules for every command, with no store and no locks: `Tables`
//! (in `service::tables`) locks, saves and schedules. This file holds the table itself and
//! [`Table::handle`], the one dispatch of a command to the file of its job:
//! - `setup`: what the host asked for, and its checks;
//! - `lobby`: seats, computer players, the lobby card, the deal;
//! - `challenge`: a challenge's invitations in the lobby (Accept, Decline, lapse);
//! - `game`: the game being played, as data: players, the running game and its record;
//! - `play`: the moves: play, exchange and roll, giving up and stopping, hand and board;
//! - `report`: what the channel is told: what a move did, the turn prompt, a hand, the end and the
//!   status;
//! - `clock`: pauses, reminders, timeouts and computer moves;
//! - `autocomplete`: a move's card and cell as typed;
//! - `picker`: the private buttons a move is made with;
//! - `series`: a series, its score and its messages;
//! - `between`: the break between two games of a series;
//! - `view`: what one viewer may see of the table, as plain data for a web page.

mod autocomplete;
mod between;
mod challenge;
mod clock;
mod game;
mod lobby;
pub mod picker;
mod play;
mod replay;
mod report;
pub mod series;
mod setup;
mod view;

use serde::{Deserialize, Serialize};

use crate::engine::{Move, Seat, Status, View};
use crate::i18n::Lang;

use crate::service::access::Paused;
use crate::service::bot::BotLevel;
use crate::service::daily_cap::Meetings;
use crate::service::ids::{Actor, ChannelId, GuildId, Timestamp, UserId};
use crate::service::reply::{Message, Output, Reply};
use crate::service::request::Command;
use crate::service::settings::Settings;
use crate::service::text::Text;

use self::picker::Picked;
use self::series::Series;

pub use challenge::Challenge;
pub use game::*;
pub use lobby::*;
pub use replay::*;
pub use setup::*;
pub use view::*;
// For the tests in `service/tests/`.
#[cfg(test)]
pub(in crate::service) use report::{card_line, roll_hint};

/// Lobby or game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "lowercase")]
#[allow(clippy::large_enum_variant)]
pub enum State {
    /// Waiting for players.
    Lobby(Lobby),
    /// Being played.
    Playing(Playing),
}

/// A channel's table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Table {
    /// The channel.
    pub channel: ChannelId,
    /// Who opened it (may start, cancel and stop).
    pub host: UserId,
    /// What was asked for.
    pub setup: Setup,
    /// The lobby message, once posted.
    #[serde(default)]
    pub lobby_message: Option<u64>,
    /// The server, or `None` in a DM (for stats and history).
    #[serde(default)]
    pub guild: Option<GuildId>,
    /// When the lobby opened.
    pub created: Timestamp,
    /// Computer players added so far (for their names).
    #[serde(default)]
    pub bots_added: u8,
    /// Lobby or game.
    pub state: State,
    /// Set while the bot cannot post in the channel: nothing happens on its own until it can again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<Paused>,
    /// The series this table plays, from its first game's start (see [`super::series`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<Series>,
    /// The bot may not post in this channel, only answer the players' interactions (a group DM, or a
    /// server channel where only a player installed the app): kept, so that after a restart nothing
    /// is posted there until someone presses (see docs/development.md, "Playing where the bot may
    /// only answer").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub answers_only: bool,
    /// The face the table was opened from, which posts its events (see `tables/host.rs`); Discord for
    /// every table saved before faces were told apart.
    #[serde(default, skip_serializing_if = "crate::service::FaceId::is_discord")]
    pub face: crate::service::FaceId,
    /// The token of the table's web page (`/g/<token>`, see [`crate::service::seeds::web_token`]):
    /// made when the table opens, saved with it; a table saved before pages existed gets one when it
    /// is loaded. Empty only if the random source failed, and then the table has no page.
    #[serde(default = "new_web_token")]
    pub web_token: String,
    /// Set when the table has ended; it is then removed from the service.
    #[serde(skip)]
    pub(super) closed: bool,
    /// A computer move is being chosen.
    #[serde(skip)]
    pub(super) auto_busy: bool,
    /// Players already told in the channel that their direct messages are closed (once per game).
    #[serde(skip)]
    pub(super) dm_failed: Vec<UserId>,
    /// The last turn prompt posted with a Play (or Roll) button and the turn it was for; its button is
    /// taken off once that turn is over. In memory only: after a restart an old button just answers
    /// that its turn is over.
    #[serde(skip)]
    pub(super) prompt: Option<(u64, u32)>,
    /// The last prompt whose Play button was taken off while the game ran (it keeps the hand and ⋯
    /// buttons): those go too once the game is over, also when a computer's move ends it. In memory
    /// only, like `prompt`.
    #[serde(skip)]
    pub(super) disarmed: Option<u64>,
    /// Rated games between this server's players in the last 24 hours, refreshed by the service
    /// before a lobby command: the lobby shows, and Start decides, whether the daily cap
    /// (`service/daily_cap.rs`) makes the game casual.
    #[serde(skip)]
    pub(super) meetings: Meetings,
    /// The private yes-or-no questions asked and not answered yet: a question's Yes counts only
    /// while it is open (Keep playing, or the Yes itself, closes it). In memory only: after a restart
    /// an old Yes is refused and the player asks again.
    #[serde(skip)]
    pub(super) questions: Vec<(UserId, Question)>,
}

/// A private yes-or-no question, all answered the same way: its Yes or **Keep playing** answers in
/// the question's place (so its buttons go), and once answered the other button is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Question {
    /// Give up the running game?
    Leave,
    /// Stop the game for everyone?
    Stop,
    /// Abandon the series (between two games)?
    AbandonSeries,
    /// A hint that makes the rated game casual?
    Hint,
}

/// A computer move to choose outside the lock.
#[derive(Clone, Debug)]
pub(super) struct AutoTask {
    pub(super) seat: Seat,
    pub(super) plies: u32,
    pub(super) view: View,
    /// The public actions so far (the computer player reads the others' hands from them).
    pub(super) history: Vec<(Seat, Move)>,
    pub(super) level: BotLevel,
    pub(super) seed: u64,
    pub(super) timed_out: bool,
    /// When the turn became due: its start for a computer player, the end of the time allowed for a
    /// human who timed out. The computer players' pool serves the earliest first.
    pub(super) due: Timestamp,
}

type Outcome = Result<Reply, Text>;

/// The answer to a question's Yes replaces the question: its private answer (the first, also an
/// acknowledgement) updates the pressed message, so the question's buttons go. A refusal stays a
/// private message of its own.
fn answered_in_place(mut reply: Reply) -> Reply {
    if reply.is_refusal() {
        return reply;
    }
    if let Some(output) = reply
        .outputs
        .iter_mut()
        .find(|o| matches!(o, Output::Ephemeral(_)))
    {
        if let Output::Ephemeral(message) = output {
            *output = Output::Update(std::mem::take(message));
        }
    }
    reply
}

fn replied(outputs: Vec<Output>) -> Outcome {
    Ok(Reply {
        outputs,
        auto_move: false,
    })
}

/// A fresh web token, or none (an empty one) if the random source failed.
fn new_web_token() -> String {
    crate::service::seeds::web_token().unwrap_or_default()
}

impl Table {
    /// The span of every log line about this table: its server (`guild`, 0 in a DM), `channel`, and
    /// `game`, the table's own id (when its lobby opened, in milliseconds since the Unix epoch:
    /// unique within its channel, and the same from lobby to end and across restarts). Never a hand.
    pub fn span(&self) -> tracing::Span {
        tracing::info_span!(
            "game",
            guild = self.guild.map_or(0, |g| g.0),
            channel = self.channel.0,
            game = self.created.0
        )
    }

    /// A new lobby hosted by `host`, who takes the first seat.
    pub fn new(channel: ChannelId, host: &Actor, setup: Setup, now: Timestamp) -> Table {
        Table {
            channel,
            host: host.user,
            setup,
            lobby_message: None,
            guild: None,
            created: now,
            bots_added: 0,
            state: State::Lobby(Lobby {
                seats: vec![LobbySeat {
                    player: Player::Human {
                        user: host.user,
                        name: host.name.clone(),
                    },
                    team: None,
                    kept: false,
                }],
                invited: Vec::new(),
                challenge: None,
            }),
            paused: None,
            series: None,
            answers_only: false,
            face: crate::service::FaceId::default(),
            web_token: new_web_token(),
            closed: false,
            auto_busy: false,
            dm_failed: Vec::new(),
            prompt: None,
            disarmed: None,
            meetings: Meetings::default(),
            questions: Vec::new(),
        }
    }

    /// Opens `question` for `user` (asked again: still one).
    pub(super) fn open_question(&mut self, user: UserId, question: Question) {
        if !self.questions.contains(&(user, question)) {
            self.questions.push((user, question));
        }
    }

    /// Answers `user`'s `question`: whether it was open (it is closed now).
    pub(super) fn answer_question(&mut self, user: UserId, question: Question) -> bool {
        let open = self.questions.contains(&(user, question));
        self.questions.retain(|&asked| asked != (user, question));
        open
    }

    /// The running game, if any.
    pub fn playing(&self) -> Option<&Playing> {
        match &self.state {
            State::Playing(p) => Some(p),
            State::Lobby(_) => None,
        }
    }

    /// Whether `actor` may manage the table (add computers, begin, cancel, stop): the host, or members
    /// who may manage messages. A host who gave up a running game no longer may; the players still in
    /// it then may.
    pub(super) fn is_boss(&self, actor: &Actor) -> bool {
        if actor.can_manage {
            return true;
        }
        match &self.state {
            State::Playing(playing) if playing.seat_of(self.host).is_none() => {
                playing.seat_of(actor.user).is_some()
            }
            _ => actor.user == self.host,
        }
    }

    /// The refusal for someone who may not manage the table.
    pub(super) fn not_boss(&self) -> Text {
        match &self.state {
            State::Playing(playing) if playing.seat_of(self.host).is_none() => Text::HostGaveUp,
            _ => Text::NotHost { host: self.host },
        }
    }

    /// The humans of the rated game being played here, each with their team (those who gave up
    /// too): it counts toward the daily cap on rated games between the same players while it runs
    /// (`service/daily_cap.rs`). `None` without a running rated game.
    pub(super) fn running_rated(&self) -> Option<Vec<(u64, u8)>> {
        let State::Playing(playing) = &self.state else {
            return None;
        };
        if self.closed
            || playing.game().position().status() != Status::InProgress
            || !playing.counts_for_ratings(&self.setup)
        {
            return None;
        }
        let config = playing.game().config();
        Some(
            (0..config.players)
                .filter_map(|seat| match playing.original_player(seat) {
                    Some(Player::Human { user, .. }) => Some((user.0, config.team_of(seat))),
                    _ => None,
                })
                .collect(),
        )
    }

    fn lobby_mut(&mut self) -> Result<&mut Lobby, Text> {
        match &mut self.state {
            State::Lobby(lobby) => Ok(lobby),
            State::Playing(_) => Err(Text::AlreadyStarted),
        }
    }

    pub(super) fn playing_mut(&mut self) -> Result<&mut Playing, Text> {
        match &mut self.state {
            State::Playing(p) => Ok(p),
            State::Lobby(_) => Err(Text::NotStarted),
        }
    }

    /// Handles every command but `start` and `rules`. `lang` is the channel's language, for the names
    /// of computer players added now.
    pub(super) fn handle(
        &mut self,
        actor: &Actor,
        command: Command,
        now: Timestamp,
        settings: &Settings,
        seed: Option<u64>,
        lang: Lang,
    ) -> Reply {
        if let Command::Press(press) = command {
            return match self.press(actor, press, settings) {
                Picked::Answer(reply) => reply,
                Picked::Act(command) => {
                    let reply = self.handle(actor, command.clone(), now, settings, seed, lang);
                    self.after_picked(actor.user, &command, reply, settings)
                }
            };
        }
        if let Command::OfGame { game, command } = command {
            if game != self.created.0 {
                // The button was made for an earlier game (or lobby) of this channel.
                return Reply::ephemeral(Text::ButtonExpired);
            }
            let question = match *command {
                Command::Stop if self.is_boss(actor) => Some(Question::Stop),
                Command::AbandonSeries
                    if self
                        .series
                        .as_ref()
                        .is_some_and(|s| s.has_player(actor.user)) =>
                {
                    Some(Question::AbandonSeries)
                }
                _ => None,
            };
            if let Some(question) = question {
                // A question's Yes: only while the question is open, and its answer replaces it.
                if !self.answer_question(actor.user, question) {
                    return Reply::ephemeral(Text::QuestionAnswered);
                }
                return answered_in_place(self.handle(actor, *command, now, settings, seed, lang));
            }
            let from_level_menu = matches!(*command, Command::AddBot { .. });
            let mut reply = self.handle(actor, *command, now, settings, seed, lang);
            if from_level_menu && !reply.is_refusal() {
                // The level menu stays open: it says who joined and offers another.
                for output in &mut reply.outputs {
                    if let Output::Ephemeral(Message { lines, .. }) = output {
                        if let Some(Text::BotAdded(name)) = lines.first() {
                            *output = Output::Update(self.bot_menu_message(Some(name.clone())));
                        }
                    }
                }
            }
            return reply;
        }
        if let Command::Forfeit { game: Some(game) } = command {
            if game != self.created.0 {
                // The confirmation was asked about an earlier game of this channel.
                return Reply::ephemeral(Text::LeaveExpired);
            }
            let seated = self
                .playing()
                .is_some_and(|p| p.seat_of(actor.user).is_some());
            if seated && !self.answer_question(actor.user, Question::Leave) {
                // Its question was answered (Keep playing) or forgotten (a restart).
                return Reply::ephemeral(Text::LeaveAnswered);
            }
            return answered_in_place(self.handle(
                actor,
                Command::Forfeit { game: None },
                now,
                settings,
                seed,
                lang,
            ));
        }
        let in_lobby = matches!(self.state, State::Lobby(_));
        if self.is_between_games() {
            if let Some(outcome) = self.between_games_command(actor, &command, now, seed, settings)
            {
                return outcome.unwrap_or_else(Reply::ephemeral);
            }
        }
        let outcome = match command {
            Command::Press(_) | Command::OfGame { .. } => Err(Text::Internal),
            Command::BotMenu => self.bot_menu(actor),
            Command::Menu => self.game_menu(actor),
            Command::AskStop => self.confirm_stop(actor),
            Command::Start { .. } => Err(Text::TableExists),
            Command::Settings(_) => Err(Text::Internal),
            Command::Rules { variant } => replied(vec![Output::Ephemeral(Message::text(
                Text::Rules(variant.unwrap_or(self.setup.variant)),
            ))]),
            Command::Join { team } => self.join(actor, team, settings),
            Command::Accept => self.accept(actor, settings),
            Command::Decline => self.decline(actor, settings),
            Command::Challenge { .. } => Err(Text::TableExists),
            Command::Leave | Command::Forfeit { .. } if in_lobby => {
                self.leave_lobby(actor, settings)
            }
            Command::Leave => self.confirm_leave(actor),
            Command::Forfeit { .. } => self.forfeit(actor, now, settings, lang),
            Command::KeepPlaying => self.keep_playing(actor, settings),
            Command::Rematch { .. } => Err(Text::TableExists),
            Command::NextGame | Command::AskAbandonSeries | Command::AbandonSeries => {
                Err(Text::ButtonExpired)
            }
            Command::AddBot { level } => self.add_bot(
                actor,
                level.unwrap_or(settings.default_bot_level),
                settings,
                lang,
            ),
            Command::RemoveBot => self.remove_bot(actor, settings),
            Command::Begin => seed
                .ok_or(Text::Internal)
                .and_then(|seed| self.begin(actor, now, seed, settings)),
            Command::Cancel if in_lobby => self.cancel(actor),
            Command::Cancel => Err(Text::AlreadyStarted),
            Command::Stop if in_lobby => self.cancel(actor),
            Command::Stop => self.stop(actor),
            Command::Roll => seed
                .ok_or(Text::Internal)
                .and_then(|seed| self.roll(actor, now, settings, seed)),
            command
            @ (Command::Play { .. } | Command::Exchange { .. } | Command::Remove { .. }) => {
                self.human_move(actor, command, now, settings)
            }
            Command::Hand => self.hand(actor),
            // Searched off the table's lock by `Tables::serve`, never here.
            Command::Hint => Err(Text::Internal),
            Command::Board => self.board(),
            Command::Status => self.status(now, settings),
            Command::Stats { .. }
            | Command::Profile { .. }
            | Command::Versus { .. }
            | Command::Leaderboard
            | Command::History
            | Command::Record { .. }
            | Command::Replay { .. } => Err(Text::Internal),
        };
        outcome.unwrap_or_else(Reply::ephemeral)
    }
}
