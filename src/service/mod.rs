//! Game tables: lobbies, seats, turns, timers and permissions, one table per channel.
//!
//! Everything here is plain data and synchronous logic, tested offline: a [`Request`] (who asked what in
//! which channel) goes in, a [`Reply`] (what to post, privately or publicly, and to whom) comes out. The
//! Discord layer only translates. Images are returned as descriptors ([`Image`]) that the Discord layer
//! renders; a board descriptor can only be built from the public view, so a hand cannot reach a channel.

mod access;
mod bot;
mod budget;
mod deadlines;
mod hint;
pub mod names;
mod persist;
pub mod picker;
mod pool;
mod rematch;
pub mod replays;
mod review;
mod seeds;
pub mod series;
mod server;
mod table;
pub mod text;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::{Game, Options, Variant, View};
use crate::i18n::Lang;
use crate::store::{ShardClaim, ShardSet, Store, StoreError};

pub use access::{Paused, Permission};
pub use bot::{BotLevel, MovePicker, RandomPicker};
pub use persist::{Restored, StorePersist};
pub use picker::{action_rows, command_for_component, Control, Label, Press, SelectOption, Style};
pub use pool::{default_threads, PoolError, PoolStats, SearchPool};
pub use seeds::{OsSeeds, SeedSource};
pub use server::{OnTimeout, ServerSettings, SettingsRequest};
pub use table::{LobbySeat, Player, Playing, Setup, State, Table};
pub use text::{Text, Who};
// For the tests in `tests/`, which name service items only as `crate::service::X`.
#[cfg(test)]
pub(crate) use names::clean_name;
#[cfg(test)]
pub(crate) use picker::{
    turn_number, Step, MAX_BUTTONS_PER_ROW, MAX_BUTTON_LABEL, MAX_CUSTOM_ID, MAX_OPTIONS,
    MAX_OPTION_TEXT, MAX_PLACEHOLDER, MAX_ROWS,
};
#[cfg(test)]
pub(crate) use replays::FORGET_AFTER_MS;
#[cfg(test)]
pub(crate) use series::Series;
#[cfg(test)]
pub(crate) use table::LiveGame;
// These are `pub(super)`, so they can only be re-exported within the service.
#[cfg(test)]
use budget::MIN_MEMBER_BURST;
#[cfg(test)]
use deadlines::next_deadline;
#[cfg(test)]
use hint::hint_text;
#[cfg(test)]
use picker::{explore, explore_targets};
#[cfg(test)]
use table::{card_line, roll_hint};

/// A Discord user id, as a plain number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UserId(pub u64);

/// A Discord channel id, as a plain number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChannelId(pub u64);

/// A Discord guild (server) id, as a plain number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GuildId(pub u64);

/// Milliseconds since the Unix epoch: deadlines are stored as plain numbers so tables serialize.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// The current wall-clock time.
    pub fn now() -> Timestamp {
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        Timestamp(u64::try_from(ms).unwrap_or(u64::MAX))
    }

    /// This time plus a duration.
    pub fn after(self, duration: Duration) -> Timestamp {
        let ms = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        Timestamp(self.0.saturating_add(ms))
    }

    /// Whole seconds from `self` until `later` (0 if `later` has passed).
    pub fn seconds_until(self, later: Timestamp) -> u64 {
        later.0.saturating_sub(self.0) / 1000
    }
}

/// Who asks: a user, their display name, and whether they may manage messages in the channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// The user.
    pub user: UserId,
    /// Their display name (used on the board image and in the seat list).
    pub name: String,
    /// Whether they have the Manage Messages permission here (may stop any game).
    pub can_manage: bool,
    /// Whether they have the Manage Server permission (may change the server's settings).
    pub can_manage_guild: bool,
}

/// One request to the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The server, or `None` in a DM (stats and history are per server).
    pub guild: Option<GuildId>,
    /// Where.
    pub channel: ChannelId,
    /// Who.
    pub actor: Actor,
    /// What.
    pub command: Command,
}

/// Everything a user can ask for (slash commands and buttons alike).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Open a lobby in this channel.
    Start {
        /// Which game.
        variant: Variant,
        /// Number of teams (`None`: the default for the player count).
        teams: Option<u8>,
        /// Game options.
        options: Options,
        /// Whether the game counts for ratings (`None`: if at least two teams have a human).
        rated: Option<bool>,
        /// The lobby's clock: seconds a player has for a turn (`None`: the server's turn timeout).
        turn_time: Option<u32>,
        /// A series: best of this many games (3, 5 or 7; `None`: one game).
        series: Option<u8>,
    },
    /// Take a seat in the lobby, optionally on a team (1-based, as users count).
    Join {
        /// The wished team, 1-based.
        team: Option<u8>,
    },
    /// Leave the lobby; in a running game, asks to confirm giving it up (then `Forfeit`).
    Leave,
    /// Add a computer player to the lobby (host only).
    AddBot {
        /// How strong (`None`: the configured default).
        level: Option<BotLevel>,
    },
    /// Remove the last computer player from the lobby (host only).
    RemoveBot,
    /// Deal and start the game (host only).
    Begin,
    /// Close the lobby without playing (host only).
    Cancel,
    /// Play a card on a cell (classic, kids), or in dice place on a cell (`card` then is `None`).
    Play {
        /// The card as typed (`7H`, `10s`, `lion`).
        card: Option<String>,
        /// The cell as typed (`D6`).
        cell: String,
    },
    /// Exchange a dead card.
    Exchange {
        /// The card as typed.
        card: String,
    },
    /// Dice: roll for this turn.
    Roll,
    /// Dice: remove an opponent chip after a 10.
    Remove {
        /// The cell as typed.
        cell: String,
    },
    /// Show the caller's hand privately.
    Hand,
    /// Post the current board in the channel.
    Board,
    /// Show the table's state privately.
    Status,
    /// Show the rules of a game privately.
    Rules {
        /// Which game (`None`: this channel's game, or classic).
        variant: Option<Variant>,
    },
    /// Give up a running game.
    Forfeit {
        /// From the confirmation's button: the game it asked about (a typed command: this channel's
        /// game, whichever it is).
        game: Option<GameKey>,
    },
    /// Answer to the confirmation of `Leave`: keep playing (changes nothing).
    KeepPlaying,
    /// Open a lobby for a rematch of this channel's last game, with its players invited.
    Rematch {
        /// The game whose final message carries the button (only the channel's last game is replayed).
        game: GameKey,
    },
    /// End the game or lobby now (host or Manage Messages).
    Stop,
    /// A player's totals on this server (`None`: the caller's).
    Stats {
        /// Whose.
        user: Option<UserId>,
    },
    /// The best players of this server.
    Leaderboard,
    /// The latest finished games of this server.
    History,
    /// The record of a finished game of this server (`None`: the latest of this channel).
    Record {
        /// The game's number.
        game: Option<i64>,
    },
    /// The animated replay of a finished game of this server, posted in the channel (`None`: the
    /// latest of this channel).
    Replay {
        /// The game's number.
        game: Option<i64>,
    },
    /// Show (nothing asked) or change this server's settings (Manage Server only).
    Settings(SettingsRequest),
    /// A press in the card picker (or its Play/Roll button on a turn prompt).
    Press(Press),
    /// The lobby's **Add computer** button: the menu of levels, privately (host only).
    BotMenu,
    /// The turn prompt's **⋯** button: what else the asker may do in the running game, privately.
    Menu,
    /// The **⋯** menu's Stop: asks privately to confirm (who may stop the game).
    AskStop,
    /// Between two games of a series: start the next one at once (a player of the series).
    NextGame,
    /// Between two games of a series: asks privately to confirm abandoning it.
    AskAbandonSeries,
    /// Between two games of a series: abandon it, as asked to confirm.
    AbandonSeries,
    /// A press of a button made for one game of the channel: carried out as `command` only while
    /// that game's table is the channel's, else refused politely.
    OfGame {
        /// The table's key ([`table::Table::created`]).
        game: GameKey,
        /// What the button asks.
        command: Box<Command>,
    },
}

impl Command {
    /// The command itself, or for a press of a button made for one game, what it asks.
    pub fn unwrapped(&self) -> &Command {
        match self {
            Command::OfGame { command, .. } => command,
            command => command,
        }
    }

    /// Whether the command may change a table (everything but reading: hand, board, status, rules,
    /// stats, leaderboard, history, record).
    pub fn changes_table(&self) -> bool {
        match self {
            Command::Press(press) => press.changes_table(),
            Command::OfGame { command, .. } => command.changes_table(),
            _ => {
                !matches!(
                    self,
                    Command::Board
                        | Command::Stats { .. }
                        | Command::Leaderboard
                        | Command::History
                        | Command::Replay { .. }
                ) && self.posts()
            }
        }
    }

    /// Whether the command may make the bot post in the channel (all but the private answers; stats,
    /// leaderboard and history are posted in the channel).
    pub fn posts(&self) -> bool {
        if let Command::OfGame { command, .. } = self {
            return command.posts();
        }
        !matches!(
            self,
            Command::Hand
                | Command::BotMenu
                | Command::Menu
                | Command::AskStop
                | Command::AskAbandonSeries
                | Command::KeepPlaying
                | Command::Status
                | Command::Rules { .. }
                | Command::Record { .. }
                | Command::Settings(_)
        ) && !matches!(self, Command::Press(press) if !press.changes_table())
    }
}

/// A button on a message; its id is what Discord sends back when it is pressed.
///
/// The buttons that act on one particular game (Rematch, the confirmation to give up) carry that game's
/// key (when its table opened, [`table::Table::created`]), so an old message's button cannot act on a
/// later game of the same channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Button {
    /// Take a seat.
    Join,
    /// Leave the lobby.
    Leave,
    /// Add a computer player: opens the menu of levels (host only).
    AddBot,
    /// Start the game.
    Begin,
    /// Close the lobby.
    Cancel,
    /// Dice: roll.
    Roll,
    /// Show my hand privately.
    Hand,
    /// Play again: a lobby with the same game, teams and computer players (on a game's final message).
    Rematch(GameKey),
    /// Give up the running game, as asked to confirm.
    ConfirmLeave(GameKey),
    /// Do not give up after all.
    KeepPlaying,
    /// Add a computer player of this level to the lobby of this game (the level menu).
    AddBotLevel(GameKey, BotLevel),
    /// Remove the last computer player from the lobby.
    RemoveBot,
    /// Take a seat on this team (1-based), or move to it.
    JoinTeam(u8),
    /// The menu of what else there is to do in this game (⋯ on its turn prompts).
    More(GameKey),
    /// The table's state, privately.
    Status,
    /// The rules of this channel's game, privately.
    Rules,
    /// Leave this game (asks to confirm first).
    LeaveGame(GameKey),
    /// End this game now (who may stop it): asks to confirm first.
    Stop(GameKey),
    /// End this game now, as asked to confirm.
    ConfirmStop(GameKey),
    /// My totals on this server.
    Stats,
    /// The record of this stored game, privately.
    Record(i64),
    /// The next game of a series (carries the key of the table waiting between the games).
    NextGame(GameKey),
    /// Abandon a series between two games (asks to confirm first).
    AbandonSeries(GameKey),
    /// Abandon the series, as asked to confirm.
    ConfirmAbandonSeries(GameKey),
}

/// Which game of a channel a button belongs to: when its table opened, in milliseconds.
pub type GameKey = u64;

impl Button {
    /// Every button that carries no game.
    pub const FIXED: [Button; 12] = [
        Button::Join,
        Button::Leave,
        Button::AddBot,
        Button::Begin,
        Button::Cancel,
        Button::Roll,
        Button::Hand,
        Button::KeepPlaying,
        Button::RemoveBot,
        Button::Status,
        Button::Rules,
        Button::Stats,
    ];

    /// The custom id sent to Discord.
    pub fn id(self) -> String {
        match self {
            Button::Join => "sequence:join".into(),
            Button::Leave => "sequence:leave".into(),
            Button::AddBot => "sequence:addbot".into(),
            Button::Begin => "sequence:begin".into(),
            Button::Cancel => "sequence:cancel".into(),
            Button::Roll => "sequence:roll".into(),
            Button::Hand => "sequence:hand".into(),
            Button::Rematch(game) => format!("sequence:rematch:{game}"),
            Button::ConfirmLeave(game) => format!("sequence:leave-confirm:{game}"),
            Button::KeepPlaying => "sequence:leave-keep".into(),
            Button::AddBotLevel(game, level) => format!("sequence:addbot:{game}:{level}"),
            Button::RemoveBot => "sequence:removebot".into(),
            Button::JoinTeam(team) => format!("sequence:join:{team}"),
            Button::More(game) => format!("sequence:more:{game}"),
            Button::Status => "sequence:status".into(),
            Button::Rules => "sequence:rules".into(),
            Button::LeaveGame(game) => format!("sequence:leave:{game}"),
            Button::Stop(game) => format!("sequence:stop:{game}"),
            Button::ConfirmStop(game) => format!("sequence:stop-confirm:{game}"),
            Button::Stats => "sequence:stats".into(),
            Button::Record(game) => format!("sequence:record:{game}"),
            Button::NextGame(game) => format!("sequence:next:{game}"),
            Button::AbandonSeries(game) => format!("sequence:abandon:{game}"),
            Button::ConfirmAbandonSeries(game) => format!("sequence:abandon-confirm:{game}"),
        }
    }

    /// The button with this custom id. Parsed strictly: only what [`Button::id`] prints is accepted.
    pub fn from_id(id: &str) -> Option<Button> {
        if let Some(button) = Button::FIXED.into_iter().find(|b| b.id() == id) {
            return Some(button);
        }
        if id.len() > picker::MAX_CUSTOM_ID {
            return None;
        }
        let parts: Vec<&str> = id.split(':').collect();
        let button = match parts.as_slice() {
            ["sequence", "rematch", game] => Button::Rematch(game.parse().ok()?),
            ["sequence", "leave-confirm", game] => Button::ConfirmLeave(game.parse().ok()?),
            ["sequence", "addbot", game, level] => {
                Button::AddBotLevel(game.parse().ok()?, level.parse().ok()?)
            }
            ["sequence", "join", team] => Button::JoinTeam(team.parse().ok()?),
            ["sequence", "leave", game] => Button::LeaveGame(game.parse().ok()?),
            ["sequence", "more", game] => Button::More(game.parse().ok()?),
            ["sequence", "stop", game] => Button::Stop(game.parse().ok()?),
            ["sequence", "stop-confirm", game] => Button::ConfirmStop(game.parse().ok()?),
            ["sequence", "record", game] => Button::Record(game.parse().ok()?),
            ["sequence", "next", game] => Button::NextGame(game.parse().ok()?),
            ["sequence", "abandon", game] => Button::AbandonSeries(game.parse().ok()?),
            ["sequence", "abandon-confirm", game] => {
                Button::ConfirmAbandonSeries(game.parse().ok()?)
            }
            _ => return None,
        };
        (button.id() == id).then_some(button)
    }

    /// The command a press stands for.
    pub fn command(self) -> Command {
        let of_game = |game, command| Command::OfGame {
            game,
            command: Box::new(command),
        };
        match self {
            Button::Join => Command::Join { team: None },
            Button::Leave => Command::Leave,
            Button::AddBot => Command::BotMenu,
            Button::Begin => Command::Begin,
            Button::Cancel => Command::Cancel,
            Button::Roll => Command::Roll,
            Button::Hand => Command::Hand,
            Button::Rematch(game) => Command::Rematch { game },
            Button::ConfirmLeave(game) => Command::Forfeit { game: Some(game) },
            Button::KeepPlaying => Command::KeepPlaying,
            Button::AddBotLevel(game, level) => {
                of_game(game, Command::AddBot { level: Some(level) })
            }
            Button::RemoveBot => Command::RemoveBot,
            Button::JoinTeam(team) => Command::Join { team: Some(team) },
            Button::More(game) => of_game(game, Command::Menu),
            Button::Status => Command::Status,
            Button::Rules => Command::Rules { variant: None },
            Button::LeaveGame(game) => of_game(game, Command::Leave),
            Button::Stop(game) => of_game(game, Command::AskStop),
            Button::ConfirmStop(game) => of_game(game, Command::Stop),
            Button::Stats => Command::Stats { user: None },
            Button::Record(game) => Command::Record { game: Some(game) },
            Button::NextGame(game) => of_game(game, Command::NextGame),
            Button::AbandonSeries(game) => of_game(game, Command::AskAbandonSeries),
            Button::ConfirmAbandonSeries(game) => of_game(game, Command::AbandonSeries),
        }
    }

    /// Whether the button is drawn as the main (highlighted) action.
    pub const fn is_primary(self) -> bool {
        matches!(
            self,
            Button::Join
                | Button::Begin
                | Button::Roll
                | Button::Rematch(_)
                | Button::NextGame(_)
                | Button::KeepPlaying
                | Button::JoinTeam(_)
                | Button::AddBotLevel(..)
        )
    }

    /// Whether the button is drawn as a destructive action.
    pub const fn is_danger(self) -> bool {
        matches!(
            self,
            Button::Cancel
                | Button::ConfirmLeave(_)
                | Button::Stop(_)
                | Button::ConfirmStop(_)
                | Button::AbandonSeries(_)
                | Button::ConfirmAbandonSeries(_)
        )
    }
}

/// A board picture to draw: always the public view, with the seat names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardImage {
    view: View,
    names: Vec<String>,
    targets: Vec<crate::engine::Cell>,
}

impl BoardImage {
    /// The board of a game as everyone sees it (no hand).
    pub fn of(game: &Game, names: Vec<String>) -> BoardImage {
        BoardImage {
            view: game.public_view(),
            names,
            targets: Vec::new(),
        }
    }

    /// The same board with the cells a picker step offers marked and labelled.
    pub fn with_targets(mut self, targets: Vec<crate::engine::Cell>) -> BoardImage {
        self.targets = targets;
        self
    }

    /// The cells to mark (a picker step's buttons; empty on a channel board).
    pub fn targets(&self) -> &[crate::engine::Cell] {
        &self.targets
    }

    /// The public view to draw.
    pub fn view(&self) -> &View {
        &self.view
    }

    /// Seat names, by seat.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// A hand picture to draw: one seat's view, only ever sent to that seat's user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandImage {
    view: View,
}

impl HandImage {
    /// The hand of `seat`.
    fn of(game: &Game, seat: u8) -> HandImage {
        HandImage {
            view: game.view(seat),
        }
    }

    /// The seat's view to draw.
    pub fn view(&self) -> &View {
        &self.view
    }
}

/// An image for a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Image {
    /// The board, public.
    Board(BoardImage),
    /// A hand, private.
    Hand(HandImage),
    /// A whole finished game, animated (GIF), public.
    Replay(ReplayImage),
}

/// The animated replay of a finished game: its record, the seats named by their colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayImage {
    /// The game.
    pub record: crate::engine::Record,
    /// The slot of a replay a member asked for, to give back with [`Tables::replay_posted`] once
    /// it is posted or could not be (`None`: the replay after a final message, which holds none).
    pub slot: Option<u64>,
}

/// A file attached to a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// The file name.
    pub filename: String,
    /// The contents.
    pub data: Vec<u8>,
}

/// A message to send: lines of text, and optionally an image, buttons and a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    /// The lines, each a translatable text.
    pub lines: Vec<Text>,
    /// An image to attach.
    pub image: Option<Image>,
    /// Fixed buttons below the message (after `components`, see [`action_rows`]).
    pub buttons: Vec<Button>,
    /// Action rows of buttons and menus made for this message (the picker, a turn's Play button).
    pub components: Vec<Vec<Control>>,
    /// A file to attach.
    pub attachment: Option<Attachment>,
    /// Users this message pings (everyone else named in it is shown, not pinged).
    pub mentions: Vec<UserId>,
}

impl Message {
    /// A message of one line.
    pub fn text(text: Text) -> Message {
        Message {
            lines: vec![text],
            ..Message::default()
        }
    }

    /// A message of several lines.
    pub fn text_lines(lines: Vec<Text>) -> Message {
        Message {
            lines,
            ..Message::default()
        }
    }

    /// The turn this message is the prompt of, if it carries a Play (or Roll) button.
    pub fn prompt_turn(&self) -> Option<u32> {
        self.components.iter().flatten().find_map(|control| {
            let press = Press::parse(control.id(), &[]).ok()?;
            matches!(press.step, picker::Step::Play | picker::Step::Roll).then_some(press.turn)
        })
    }

    /// The English text of the message, lines joined by newlines.
    pub fn to_english(&self) -> String {
        self.render(Lang::En)
    }

    /// The text of the message in `lang`, lines joined by newlines.
    pub fn render(&self, lang: Lang) -> String {
        self.lines
            .iter()
            .map(|line| line.render(lang))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// One thing to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// To the person who asked, visible only to them.
    Ephemeral(Message),
    /// To the channel.
    Channel(Message),
    /// A private message to a user. If it cannot be delivered, the Discord layer posts
    /// [`Text::DmFailed`] in the channel (which reveals nothing).
    Direct {
        /// The recipient.
        user: UserId,
        /// The message.
        message: Message,
    },
    /// To the person who pressed a button of the private picker: the picker message, updated in place
    /// (Discord's UPDATE_MESSAGE). Anywhere else it is sent like [`Output::Ephemeral`].
    Update(Message),
    /// An old turn prompt of the channel whose turn is over: its buttons become `buttons` (the Play
    /// button goes; the hand button stays while the game runs).
    Disarm {
        /// The posted prompt.
        message_id: u64,
        /// The buttons it keeps.
        buttons: Vec<Button>,
    },
    /// The lobby message: edit it in place (`message_id`), or post it and tell the service its id
    /// with [`Tables::set_lobby_message`].
    Lobby {
        /// The message to edit, if one was posted before.
        message_id: Option<u64>,
        /// The new contents.
        message: Message,
    },
}

impl Output {
    /// The message it carries (`None` for [`Output::Disarm`], which only changes an old message's buttons).
    pub fn message(&self) -> Option<&Message> {
        match self {
            Output::Channel(m)
            | Output::Ephemeral(m)
            | Output::Update(m)
            | Output::Lobby { message: m, .. }
            | Output::Direct { message: m, .. } => Some(m),
            Output::Disarm { .. } => None,
        }
    }
}

/// The service's answer to a request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// What to send, in order.
    pub outputs: Vec<Output>,
    /// A computer player (or the timer) is to move next: call [`Tables::auto_step`] until it returns
    /// `None`.
    pub auto_move: bool,
}

impl Reply {
    /// A reply that is only a private message to the asker.
    pub fn ephemeral(text: Text) -> Reply {
        Reply {
            outputs: vec![Output::Ephemeral(Message::text(text))],
            auto_move: false,
        }
    }

    /// Whether the reply is a refusal: exactly one private message and nothing else.
    pub fn is_refusal(&self) -> bool {
        matches!(self.outputs.as_slice(), [Output::Ephemeral(m) | Output::Update(m)] if m.lines.first().is_some_and(Text::is_error))
    }
}

/// Timers and defaults of the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// After this long a player to move is reminded.
    pub turn_reminder: Duration,
    /// After this long the turn is played for them by a computer player.
    pub turn_timeout: Duration,
    /// A lobby that has not started after this long is closed.
    pub lobby_timeout: Duration,
    /// Level of a bot added without a level, and of the computer that plays a timed-out turn.
    pub default_bot_level: BotLevel,
    /// The game `start` opens when none is named.
    pub default_variant: Variant,
    /// How long a computer player thinks per move (`None`: the move picker's own time).
    pub bot_think: Option<Duration>,
    /// Whether a player whose turn times out gives up (a computer takes their seat for good) instead
    /// of a computer playing that one turn.
    pub timeout_gives_up: bool,
    /// After this many timed-out turns in a row a computer takes the player's seat for the rest of
    /// the game (0: never).
    pub replace_after_timeouts: u8,
    /// Limits against abuse.
    /// Whether a hint may be asked in a game that counts for ratings (after a private confirmation;
    /// the game is then unrated for everyone). Off: hints only in casual games.
    pub hints: bool,
    /// Whether the animated replay of every finished (kept) game is posted right after its final
    /// message (drawn by the Discord layer off the async runtime).
    pub replay_gif: bool,
    pub limits: Limits,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            turn_reminder: Duration::from_secs(120),
            turn_timeout: Duration::from_secs(600),
            lobby_timeout: Duration::from_secs(1800),
            default_bot_level: BotLevel::Easy,
            default_variant: Variant::Classic,
            bot_think: None,
            timeout_gives_up: false,
            replace_after_timeouts: 2,
            hints: false,
            replay_gif: true,
            limits: Limits::default(),
        }
    }
}

/// Limits against abuse: how much one user or one server may ask of the bot at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open tables (lobbies and games) one user may host at once, across all servers.
    pub tables_per_user: u32,
    /// Open tables one server may have at once.
    pub tables_per_server: u32,
    /// Computer players one table may have.
    pub bots_per_table: u8,
    /// Messages the bot posts per second in one server, on average (channel posts, lobby edits and
    /// direct messages of its games). Discord allows a bot 50 requests per second in all.
    pub server_posts_per_second: u32,
    /// Messages the bot may post in one server in a burst, above the average.
    pub server_post_burst: u32,
    /// Computer players' searches that run at once in the whole process (`0`: one fewer than the
    /// machine's cores, at least one); more wait their turn in the order their turns became due.
    pub computer_threads: u32,
    /// Rated games two players may play against each other in one server in 24 hours; later games
    /// between them are casual (0: no limit).
    pub rated_games_per_day: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tables_per_user: 3,
            tables_per_server: 25,
            bots_per_table: 5,
            server_posts_per_second: 5,
            server_post_burst: 20,
            computer_threads: 0,
            rated_games_per_day: 5,
        }
    }
}

impl Limits {
    /// Tests only: no limit that a test of something else could run into.
    #[cfg(test)]
    pub(crate) fn unlimited() -> Limits {
        Limits {
            tables_per_user: u32::MAX,
            tables_per_server: u32::MAX,
            bots_per_table: u8::MAX,
            server_posts_per_second: 1_000_000,
            server_post_burst: 1_000_000,
            computer_threads: 0,
            rated_games_per_day: 0,
        }
    }
}

/// Most threads tokio's blocking pool may have (its default is 512). Every blocking call of the bot
/// (a request handled and saved, a timer pass, a computer move applied and saved, an image drawn)
/// runs there; past this many at once they wait their turn instead of each taking a thread of its
/// own (8 MB of address space and a database wait each). Drawing takes at most one per core, and a
/// burst of computer moves at most [`AUTO_APPLY_AT_ONCE`], so requests always find threads free.
pub const MAX_BLOCKING_THREADS: usize = 64;

/// Computer moves (and timed-out turns) applied and saved at once: a timer pass that finds thousands
/// due does not take more of the blocking pool than this.
pub const AUTO_APPLY_AT_ONCE: usize = 8;

/// The bot's async runtime: tokio's multi-threaded one with [`MAX_BLOCKING_THREADS`].
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .build()
}

/// Errors of the service layer (the store's, mostly).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A table could not be written as JSON.
    #[error("cannot write the table as JSON: {0}")]
    Encode(#[from] serde_json::Error),
}

/// Called with a table each time an action is accepted, and when a table closes, before anyone is
/// told about it. If it fails, the service undoes the action in memory and apologises, so memory and
/// database never disagree. Blocking: with a real store, call the service from a blocking thread.
pub trait Persist: Send + Sync {
    /// The table changed (lobby or game); store it.
    fn save(&self, table: &Table) -> Result<(), ServiceError>;
    /// The table closed; `finished` holds the final table if a game was played. Returns the number
    /// under which the finished game was kept, if it was.
    fn close(
        &self,
        channel: ChannelId,
        finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError>;
    /// A series ended (decided or not): its players' series stats. Nothing by default.
    fn series_ended(
        &self,
        _guild: Option<GuildId>,
        _series: &series::Series,
    ) -> Result<(), ServiceError> {
        Ok(())
    }
}

/// A [`Persist`] that keeps nothing.
pub struct NoPersist;

impl Persist for NoPersist {
    fn save(&self, _table: &Table) -> Result<(), ServiceError> {
        Ok(())
    }
    fn close(
        &self,
        _channel: ChannelId,
        _finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError> {
        Ok(None)
    }
}

/// One autocomplete suggestion: what the user sees, and the value filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Shown in the list.
    pub label: String,
    /// Sent as the option's value.
    pub value: String,
}

type Shared = Arc<Mutex<Table>>;

/// Saves a changed table, or closes it (keeping a finished game and naming its number in the final
/// message). Refusals change nothing and are not saved.
fn persist_update(
    persist: &dyn Persist,
    table: &Table,
    mut reply: Reply,
    replay_gif: bool,
) -> Result<Reply, ServiceError> {
    if reply.is_refusal() {
        return Ok(reply);
    }
    if !table.closed {
        persist.save(table)?;
        return Ok(reply);
    }
    let finished = matches!(table.state, State::Playing(_)).then_some(table);
    let kept = persist.close(table.channel, finished)?;
    if finished.is_some() {
        metrics::counter!("sequence_games_finished_total", "game" => table.setup.variant.name())
            .increment(1);
        tracing::info!(record = kept, "game ended");
    }
    if let Some(id) = kept {
        let last = reply.outputs.iter_mut().rev().find_map(|o| match o {
            Output::Channel(m) if m.attachment.is_some() => Some(m),
            _ => None,
        });
        if let Some(message) = last {
            message.lines.push(Text::GameSaved { id });
            // Kept: each player's totals, and the record of this game, are a press away.
            message.buttons.extend([Button::Stats, Button::Record(id)]);
        }
        // The animated replay, as a follow-up right after the final message: the final message goes
        // out at once, and the GIF (drawn on a blocking thread by the Discord layer) when it is ready.
        let at = reply.outputs.iter().rposition(
            |o| matches!(o, Output::Channel(m) if m.lines.contains(&Text::GameSaved { id })),
        );
        // An aborted game (too few moves to count) is not worth an animation.
        let playing = table.playing().filter(|p| !p.is_aborted());
        if let (true, Some(at), Some(playing)) = (replay_gif, at, playing) {
            reply.outputs.insert(
                at + 1,
                Output::Channel(Message {
                    lines: vec![Text::GameReplay { id }],
                    image: Some(Image::Replay(ReplayImage {
                        record: playing.live.record().clone(),
                        slot: None,
                    })),
                    ..Message::default()
                }),
            );
        }
    }
    Ok(reply)
}

/// Languages last seen per user and per channel, for messages that answer nobody in particular (DMs,
/// timer and computer moves). Kept in memory only: after a restart the Discord layer asks the server.
#[derive(Debug, Default)]
struct Languages {
    users: HashMap<UserId, Lang>,
    channels: HashMap<ChannelId, Lang>,
}

/// Most users and channels whose language is remembered; past it the memory starts afresh.
const MAX_REMEMBERED: usize = 100_000;

/// Every channel's table. Each table has its own lock, held only for a synchronous update (which
/// includes saving it), never across an `.await`. With a store, `handle` and `tick` do blocking I/O:
/// call them from a blocking thread (`tokio::task::spawn_blocking`); `auto_step` does so itself.
pub struct Tables {
    /// The live tables, with how many each host and server has.
    tables: Mutex<deadlines::Registry>,
    /// Each live table's next deadline, so a timer pass looks only at the tables that are due (taken
    /// inside a table lock, never the other way round).
    deadlines: Mutex<deadlines::Deadlines>,
    settings: Settings,
    picker: Arc<dyn MovePicker>,
    persist: Arc<dyn Persist>,
    store: Option<Arc<dyn Store>>,
    seeds: Arc<dyn SeedSource>,
    languages: Mutex<Languages>,
    /// Each server's posting budget, shared among its members.
    budgets: Mutex<budget::Budgets>,
    /// Lobby cards held back while a member keeps joining and leaving.
    lobby_edits: Mutex<budget::LobbyEdits>,
    /// Each server's own settings, as read from the store (or changed) so far.
    servers: Mutex<HashMap<GuildId, ServerSettings>>,
    /// Where every computer move is chosen.
    pool: SearchPool,
    /// The shards this process holds, when it runs only some of the bot's (or holds them through a
    /// database shared with other processes): only their tables are restored, timed and played, and
    /// only while the claim holds.
    claim: Option<Arc<dyn ShardClaim>>,
    /// The last finished game of each channel, for its rematch.
    finished: rematch::FinishedGames,
    /// Finished games waiting for their agreement follow-up.
    reviews: review::Reviews,
    /// The search budget of each move of an agreement analysis.
    analysis_budget: crate::ai::Budget,
    /// Held while a new table is checked against the table limits and published, so that
    /// simultaneous starts cannot all pass a limit (taken before any table or the map).
    opening: Mutex<()>,
    /// Held while a server's settings are read, changed and written, so that two changes at once
    /// both survive (taken before the map of settings).
    changing_settings: Mutex<()>,
    /// Computer moves being applied and saved on the blocking pool ([`AUTO_APPLY_AT_ONCE`]).
    applying: Arc<tokio::sync::Semaphore>,
    /// The humans (with their teams) of each running rated game, by channel: they count toward the
    /// daily limit of rated games between the same players as the finished ones do (kept as tables
    /// change, with the table's lock held; taken after it, never before).
    rated_running: Mutex<HashMap<ChannelId, RunningRated>>,
    /// The replays members asked for that wait or are being drawn.
    replays: Mutex<replays::Replays>,
    /// The hints given on the current turns and the members whose hint is being searched.
    hints: Mutex<hint::Hints>,
    /// Held from reading the day's rated games to saving a game that starts, so that games started
    /// side by side in several channels see each other (taken inside a table lock, before the map).
    starting: Mutex<()>,
}

/// A running rated game's server and its humans with their teams.
type RunningRated = (Option<GuildId>, Vec<(u64, u8)>);

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding a lock leaves consistent data here (every update is checked first and then
    // applied), so a poisoned lock is simply taken over.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tables")
            .field("tables", &lock(&self.tables).len())
            .field("settings", &self.settings)
            .finish()
    }
}

impl Tables {
    /// An empty service. `picker` chooses moves for computer players and timed-out turns. Every game,
    /// dice roll and computer move gets a fresh seed from the operating system ([`OsSeeds`]).
    pub fn new(settings: Settings, picker: Arc<dyn MovePicker>) -> Tables {
        Tables {
            tables: Mutex::new(deadlines::Registry::default()),
            deadlines: Mutex::new(deadlines::Deadlines::default()),
            picker,
            persist: Arc::new(NoPersist),
            store: None,
            seeds: Arc::new(OsSeeds),
            languages: Mutex::new(Languages::default()),
            budgets: Mutex::new(budget::Budgets::default()),
            lobby_edits: Mutex::new(budget::LobbyEdits::default()),
            servers: Mutex::new(HashMap::new()),
            pool: SearchPool::new(usize::try_from(settings.limits.computer_threads).unwrap_or(0)),
            settings,
            claim: None,
            finished: rematch::FinishedGames::default(),
            reviews: review::Reviews::default(),
            analysis_budget: crate::analysis::BUDGET,
            opening: Mutex::new(()),
            changing_settings: Mutex::new(()),
            rated_running: Mutex::new(HashMap::new()),
            starting: Mutex::new(()),
            hints: Mutex::new(hint::Hints::default()),
            replays: Mutex::new(replays::Replays::default()),
            applying: Arc::new(tokio::sync::Semaphore::new(AUTO_APPLY_AT_ONCE)),
        }
    }

    /// Tests only: seeds from a repeatable stream started at `seed`, so the games are the same on
    /// every run.
    #[cfg(test)]
    pub(crate) fn seeded(settings: Settings, picker: Arc<dyn MovePicker>, seed: u64) -> Tables {
        Tables {
            seeds: Arc::new(seeds::StreamSeeds::new(seed)),
            ..Tables::new(settings, picker)
        }
    }

    /// Stores tables through `persist` from now on.
    pub fn with_persist(mut self, persist: Arc<dyn Persist>) -> Tables {
        self.persist = persist;
        self
    }

    /// Stores tables and finished games in `store`, and answers stats and history from it.
    pub fn with_store(mut self, store: Arc<dyn Store>) -> Tables {
        self.persist = Arc::new(StorePersist::new(store.clone()));
        self.store = Some(store);
        self
    }

    /// A replay a member asked for was posted, or could not be: its slot in the replay queue is free
    /// again ([`ReplayImage::slot`]).
    pub fn replay_posted(&self, slot: u64) {
        lock(&self.replays).give_back(slot);
    }

    /// The replay slots `reply` holds, given back when the returned value is dropped: for the
    /// Discord layer's answer to a command, whose posting may end early on an error.
    pub fn replays_held(self: &Arc<Self>, reply: &Reply) -> replays::Held {
        let slots = reply
            .outputs
            .iter()
            .filter_map(|o| match o.message().map(|m| &m.image) {
                Some(Some(Image::Replay(ReplayImage {
                    slot: Some(slot), ..
                }))) => Some(*slot),
                _ => None,
            })
            .collect();
        replays::Held {
            tables: self.clone(),
            slots,
        }
    }

    /// What the computer players' pool has done so far.
    pub fn computer_stats(&self) -> PoolStats {
        self.pool.stats()
    }

    /// Sets the gauge `sequence_tables` (open tables by `state`: lobby, playing or paused, and by
    /// `game`) to what is open now; the metrics listener calls it before each scrape. Every
    /// combination is set, so one that empties reads 0 rather than its last value.
    pub fn record_table_gauges(&self) {
        // Kept as tables change (see `Registry::set_kind`): the same cost at any number of tables.
        let counts = lock(&self.tables).table_counts();
        for (state, by_game) in deadlines::GAUGE_STATES.into_iter().zip(counts) {
            for (variant, count) in Variant::ALL.into_iter().zip(by_game) {
                metrics::gauge!("sequence_tables", "state" => state, "game" => variant.name())
                    .set(f64::from(count));
            }
        }
    }

    /// Open tables by state (lobby, playing, paused) and game, as the `sequence_tables` gauge shows
    /// them (for the benchmark and tests).
    pub fn table_counts(&self) -> Vec<(&'static str, Variant, u32)> {
        let counts = lock(&self.tables).table_counts();
        deadlines::GAUGE_STATES
            .into_iter()
            .zip(counts)
            .flat_map(|(state, by_game)| {
                Variant::ALL
                    .into_iter()
                    .zip(by_game)
                    .map(move |(variant, count)| (state, variant, count))
            })
            .collect()
    }

    /// Whether the store answers a trivial query (for the health check). Blocking: call it from a
    /// blocking thread.
    pub fn check_store(&self) -> Result<(), StoreError> {
        match &self.store {
            Some(store) => store.ping(),
            None => Ok(()),
        }
    }

    /// The span of log lines about a channel's table: [`Table::span`], or only the channel when it
    /// has no table. For the Discord layer's lines about a channel.
    pub fn log_span(&self, channel: ChannelId) -> tracing::Span {
        match self.get(channel) {
            Some(shared) => lock(&shared).span(),
            None => tracing::info_span!("game", channel = channel.0),
        }
    }

    /// Whether this process still holds its shards in the store (always, without a claim).
    pub fn holds_shards(&self) -> bool {
        self.claim.as_ref().is_none_or(|c| c.is_held())
    }

    /// Acts only on the tables of the shards `claim` holds, and only while it holds them.
    pub fn with_claim(mut self, claim: Arc<dyn ShardClaim>) -> Tables {
        self.claim = Some(claim);
        self
    }

    /// The shards whose tables this process runs (all of them without a claim).
    pub fn shards(&self) -> ShardSet {
        self.claim.as_ref().map_or(ShardSet::SINGLE, |c| c.shards())
    }

    /// Whether this process may act on the tables of `guild` now: its shard is one of this
    /// process's, and the claim on it still holds.
    pub fn may_act(&self, guild: Option<GuildId>) -> bool {
        self.claim
            .as_ref()
            .is_none_or(|c| c.is_held() && c.shards().owns(guild.map(|g| g.0)))
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    fn get(&self, channel: ChannelId) -> Option<Shared> {
        lock(&self.tables).get(channel).cloned()
    }

    /// Sets the table's next deadline anew after a change (with its lock held), and who hosts it.
    fn reschedule(&self, table: &Table, settings: &Settings) {
        if table.closed {
            // `forget` clears it, as it takes the table out of the map.
            return;
        }
        let mut tables = lock(&self.tables);
        tables.set_host(table.channel, table.host);
        tables.set_kind(table.channel, deadlines::gauge_kind(table));
        drop(tables);
        let at = deadlines::next_deadline(table, settings);
        lock(&self.deadlines).set(table.channel, at);
        let mut running = lock(&self.rated_running);
        match table.running_rated() {
            Some(humans) => {
                running.insert(table.channel, (table.guild, humans));
            }
            None => {
                running.remove(&table.channel);
            }
        }
    }

    /// Sets the next deadline of every table of `guild` anew (its timers changed).
    pub(super) fn reschedule_guild(&self, guild: Option<GuildId>) {
        let settings = self.settings_for(guild);
        let all = lock(&self.tables).tables_of(guild);
        for shared in all {
            let table = lock(&shared);
            self.reschedule(&table, &settings);
        }
    }

    /// Channels with a timer set (tests and figures).
    pub fn timers_set(&self) -> usize {
        lock(&self.deadlines).len()
    }

    /// Number of open tables (lobbies and games).
    pub fn len(&self) -> usize {
        lock(&self.tables).len()
    }

    /// Whether no table is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A copy of a channel's table (for persistence and tests).
    pub fn snapshot(&self, channel: ChannelId) -> Option<Table> {
        let shared = self.get(channel)?;
        let table = lock(&shared);
        (!table.closed).then(|| table.clone())
    }

    /// Puts back a stored table (after a restart). Refused if the channel already has one.
    pub fn restore(&self, table: Table) -> bool {
        let settings = self.settings_for(table.guild);
        let (channel, host, guild) = (table.channel, table.host, table.guild);
        let shared = Arc::new(Mutex::new(table));
        let table = lock(&shared);
        if !lock(&self.tables).insert(channel, shared.clone(), host, guild) {
            return false;
        }
        self.reschedule(&table, &settings);
        true
    }

    /// Remembers the id of the lobby message posted for a channel, so later changes edit it (also
    /// after a restart: it is saved; blocking, like `handle`). If saving fails, the next saved action
    /// carries it.
    pub fn set_lobby_message(&self, channel: ChannelId, message_id: u64) {
        if let Some(shared) = self.get(channel) {
            let mut table = lock(&shared);
            if table.closed || table.lobby_message == Some(message_id) {
                return;
            }
            table.lobby_message = Some(message_id);
            if let Err(e) = self.persist.save(&table) {
                table.span().in_scope(|| {
                    tracing::warn!(channel = channel.0, "cannot save the lobby message id: {e}")
                });
            }
        }
    }

    /// A turn prompt with a Play (or Roll) button was posted in `channel` as `message_id`: its button is
    /// taken off when its turn is over. The edits to make now: an older prompt still armed, or this one
    /// if its turn is over already (it was posted late).
    pub fn note_prompt(
        &self,
        channel: ChannelId,
        message_id: u64,
        message: &Message,
    ) -> Vec<Output> {
        let Some(turn) = message.prompt_turn() else {
            return Vec::new();
        };
        let Some(shared) = self.get(channel) else {
            return Vec::new();
        };
        let mut table = lock(&shared);
        let mut edits = Vec::new();
        match table.prompt {
            Some((_, newer)) if newer > turn => {
                edits.push(Output::Disarm {
                    message_id,
                    buttons: table.prompt_buttons(),
                });
                return edits;
            }
            Some((older, _)) if older != message_id => {
                let buttons = table.prompt_buttons();
                table.disarmed = (!buttons.is_empty()).then_some(older);
                edits.push(Output::Disarm {
                    message_id: older,
                    buttons,
                });
            }
            _ => {}
        }
        table.prompt = Some((message_id, turn));
        edits.extend(table.disarm_prompt());
        edits
    }

    /// A direct message to `user` about the game in `channel` could not be delivered: whether to say
    /// so in the channel. True once per game and player (a player with closed DMs is told once, not
    /// after every move); false when the channel has no game.
    pub fn note_dm_failed(&self, channel: ChannelId, user: UserId) -> bool {
        let Some(shared) = self.get(channel) else {
            return false;
        };
        let mut table = lock(&shared);
        if table.closed || table.dm_failed.contains(&user) {
            return false;
        }
        table.dm_failed.push(user);
        true
    }

    /// Remembers the language of a user (their Discord locale) and of a channel (its server's preferred
    /// locale), as seen on an interaction.
    pub fn note_languages(
        &self,
        channel: ChannelId,
        user: UserId,
        user_lang: Option<Lang>,
        channel_lang: Option<Lang>,
    ) {
        let mut languages = lock(&self.languages);
        if let Some(lang) = user_lang {
            if languages.users.len() >= MAX_REMEMBERED {
                languages.users.clear();
            }
            languages.users.insert(user, lang);
        }
        if let Some(lang) = channel_lang {
            if languages.channels.len() >= MAX_REMEMBERED {
                languages.channels.clear();
            }
            languages.channels.insert(channel, lang);
        }
    }

    /// The language last seen for a user.
    pub fn user_language(&self, user: UserId) -> Option<Lang> {
        lock(&self.languages).users.get(&user).copied()
    }

    /// The language last seen for a channel.
    pub fn channel_language(&self, channel: ChannelId) -> Option<Lang> {
        lock(&self.languages).channels.get(&channel).copied()
    }

    /// Handles one request at time `now`. Never panics on user input; a refusal is a single
    /// ephemeral message and changes nothing.
    pub fn handle(&self, request: Request, now: Timestamp) -> Reply {
        let Request {
            guild,
            channel,
            mut actor,
            command,
        } = request;
        // Names reach messages, logs, images and the database: one line of visible text, at most
        // Discord's 32 characters (messages escape it again, see `names::chat_name`).
        actor.name = names::clean_name(&actor.name);
        if command.changes_table() && !self.may_act(guild) {
            // The shard is being handed to another process (or was never this one's): nothing
            // changes here; the player tries again once the new owner is up.
            tracing::warn!(
                channel = channel.0,
                "a command for a table of a shard this process does not hold was refused"
            );
            return Reply::ephemeral(Text::SaveFailed);
        }
        if command.posts() {
            if let Err(text) = self.member_may_post(guild, actor.user, now) {
                return Reply::ephemeral(text);
            }
        }
        let user = actor.user;
        let join_or_leave = matches!(command, Command::Join { .. } | Command::Leave);
        let mut reply = self.handle_command(guild, channel, actor, command, now);
        self.charge_member(guild, channel, user, join_or_leave, &mut reply, now);
        reply
    }

    fn handle_command(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: Actor,
        command: Command,
        now: Timestamp,
    ) -> Reply {
        match command {
            Command::Start {
                variant,
                teams,
                options,
                rated,
                turn_time,
                series,
            } => {
                let rated = rated.or(self.server_settings(guild).rated);
                let setup = Setup::new(variant, teams, options)
                    .and_then(|s| s.with_turn_time(turn_time))
                    .and_then(|s| s.with_series(series))
                    .map(|s| Setup { rated, ..s });
                self.start(guild, channel, &actor, setup, now)
            }
            Command::Settings(request) => self.change_settings(guild, &actor, request, now),
            Command::Rematch { game } => self.rematch(guild, channel, &actor, game, now),
            command @ Command::Replay { .. } => {
                // A slot in the replay queue first (nothing to read when it is full), given back
                // when there is nothing to draw.
                let slot = match lock(&self.replays).take(guild, actor.user, now) {
                    Ok(slot) => slot,
                    Err(refusal) => return Reply::ephemeral(refusal),
                };
                let mut reply = self.history(guild, channel, &actor, command);
                let mut held = false;
                for output in &mut reply.outputs {
                    if let Output::Channel(Message {
                        image: Some(Image::Replay(replay)),
                        ..
                    }) = output
                    {
                        replay.slot = Some(slot);
                        held = true;
                    }
                }
                if !held {
                    lock(&self.replays).give_back(slot);
                }
                reply
            }
            command @ (Command::Stats { .. }
            | Command::Leaderboard
            | Command::History
            | Command::Record { .. }) => self.history(guild, channel, &actor, command),
            Command::Rules { variant } => {
                let variant = variant
                    .or_else(|| self.snapshot(channel).map(|t| t.setup.variant))
                    .unwrap_or(self.settings_for(guild).default_variant);
                Reply {
                    outputs: vec![Output::Ephemeral(Message::text(Text::Rules(variant)))],
                    auto_move: false,
                }
            }
            command => {
                let Some(shared) = self.get(channel) else {
                    return Reply::ephemeral(Text::NoTable);
                };
                let mut table = lock(&shared);
                if table.closed {
                    return Reply::ephemeral(Text::NoTable);
                }
                let _span = table.span().entered();
                if let Some(paused) = &table.paused {
                    // Only what needs no post in the channel: a hand, and ending the table (the ⋯
                    // menu offers just those then, and Stop asks first).
                    if !matches!(
                        command.unwrapped(),
                        Command::Hand
                            | Command::Stop
                            | Command::Cancel
                            | Command::Menu
                            | Command::AskStop
                            | Command::KeepPlaying
                    ) {
                        return Reply::ephemeral(Text::GamePaused {
                            missing: paused.missing.clone(),
                            thread: paused.thread,
                        });
                    }
                }
                // Fresh randomness for what needs it: a deal (and who starts), a roll.
                let rolls = matches!(command, Command::Press(p) if p.step == picker::Step::Roll);
                let deals = matches!(
                    command.unwrapped(),
                    Command::Begin | Command::Roll | Command::NextGame
                );
                let seed = if deals || rolls {
                    match self.seeds.seed() {
                        Some(seed) => Some(seed),
                        None => return Reply::ephemeral(Text::Internal),
                    }
                } else {
                    None
                };
                let read_only = matches!(
                    command.unwrapped(),
                    Command::Hand
                        | Command::Board
                        | Command::Status
                        | Command::BotMenu
                        | Command::Menu
                        | Command::AskStop
                        | Command::AskAbandonSeries
                        | Command::KeepPlaying
                ) || matches!(&command, Command::Press(p) if !p.changes_table());
                let before = (!read_only).then(|| table.clone());
                let lang = self
                    .server_language(guild)
                    .or_else(|| self.channel_language(channel))
                    .unwrap_or_default();
                let settings = self.settings_for(guild);
                // A game that may start here is decided and saved before another channel reads
                // the running rated games.
                let _starting =
                    (deals && matches!(table.state, State::Lobby(_))).then(|| lock(&self.starting));
                if matches!(table.state, State::Lobby(_)) {
                    table.meetings = self.recent_meetings(guild, channel, &table.setup, &settings);
                }
                let reply = table.handle(&actor, command, now, &settings, seed, lang);
                match before {
                    Some(before) => self.commit(&shared, &mut table, before, reply, now, &settings),
                    None => reply,
                }
            }
        }
    }

    fn start(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: &Actor,
        setup: Result<Setup, Text>,
        now: Timestamp,
    ) -> Reply {
        let setup = match setup {
            Ok(setup) => setup,
            Err(text) => return Reply::ephemeral(text),
        };
        let mut table = Table::new(channel, actor, setup, now);
        table.guild = guild;
        let _span = table.span().entered();
        let reply = Reply {
            outputs: vec![
                Output::Lobby {
                    message_id: None,
                    message: table.lobby_message(&self.settings_for(guild)),
                },
                Output::Ephemeral(Message::text(Text::LobbyOpened)),
            ],
            auto_move: false,
        };
        self.open(guild, actor, table, reply)
    }

    /// Publishes a new lobby (within the limits) and saves it; `reply` announces it.
    fn open(&self, guild: Option<GuildId>, actor: &Actor, table: Table, reply: Reply) -> Reply {
        // Counted and published in one critical section: two starts at once cannot both see room
        // for one more table. Nothing takes `opening` while holding a table or the map.
        let opening = lock(&self.opening);
        if let Err(text) = self.check_table_limits(guild, actor.user) {
            return Reply::ephemeral(text);
        }
        let channel = table.channel;
        // The new table is locked before it is published, so nobody uses it before it is saved; the
        // map lock is taken inside a table lock, as everywhere.
        let _span = table.span().entered();
        let (host, table_guild) = (table.host, table.guild);
        let shared = Arc::new(Mutex::new(table));
        let mut table = lock(&shared);
        {
            let _opening = opening;
            if !lock(&self.tables).insert(channel, shared.clone(), host, table_guild) {
                return Reply::ephemeral(Text::TableExists);
            }
        }
        if let Err(e) = self.persist.save(&table) {
            tracing::error!(channel = channel.0, "cannot save a new lobby: {e}");
            table.closed = true;
            self.forget(&shared, channel);
            return Reply::ephemeral(Text::SaveFailed);
        }
        self.reschedule(&table, &self.settings_for(guild));
        reply
    }

    /// Rated games between this server's players in the last 24 hours, finished or running in
    /// another channel, for the daily limit of rated games between the same players (nothing to read
    /// for a casual lobby or without a limit). A store that cannot answer allows the game: the limit
    /// is a guard, not a reason to refuse play.
    fn recent_meetings(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        setup: &Setup,
        settings: &Settings,
    ) -> table::Meetings {
        let (Some(store), Some(guild)) = (&self.store, guild) else {
            return table::Meetings::default();
        };
        if setup.rated == Some(false) || settings.limits.rated_games_per_day == 0 {
            return table::Meetings::default();
        }
        const DAY_MS: i64 = 24 * 60 * 60 * 1000;
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        let mut games = store
            .rated_games_since(Some(guild.0), now_ms.saturating_sub(DAY_MS))
            .unwrap_or_else(|e| {
                tracing::warn!(guild = guild.0, "cannot read the day's rated games: {e}");
                Vec::new()
            });
        games.extend(
            lock(&self.rated_running)
                .iter()
                .filter(|(c, (g, _))| **c != channel && *g == Some(guild))
                .map(|(_, (_, humans))| humans.clone()),
        );
        Arc::new(crate::store::rating::meetings(&games))
    }

    /// Refuses a new table past the limits: tables the user hosts, tables of the server.
    fn check_table_limits(&self, guild: Option<GuildId>, user: UserId) -> Result<(), Text> {
        let limits = self.settings.limits;
        // Counted as tables come and go (a table closing is counted until it leaves the map, a
        // moment later under its own lock).
        let (hosted, in_guild) = {
            let tables = lock(&self.tables);
            (
                tables.hosted_by(user),
                guild.map_or(0, |g| tables.in_guild(g)),
            )
        };
        if hosted >= limits.tables_per_user {
            return Err(Text::TooManyTables {
                max: limits.tables_per_user,
            });
        }
        if in_guild >= limits.tables_per_server {
            return Err(Text::ServerFull {
                max: limits.tables_per_server,
            });
        }
        Ok(())
    }

    /// Stores (or closes) a table after an update, with its lock held. If the store fails, the table is
    /// put back as it was `before` and the reply becomes an apology: memory never runs ahead of the
    /// database, and nothing is announced that was not saved.
    fn commit(
        &self,
        shared: &Shared,
        table: &mut Table,
        before: Table,
        reply: Reply,
        now: Timestamp,
        settings: &Settings,
    ) -> Reply {
        match persist_update(&*self.persist, table, reply, settings.replay_gif) {
            Ok(mut reply) => {
                // Taken before a series opens the table again for its next game.
                let review = table.closed.then(|| review::Review::of(table)).flatten();
                if !reply.is_refusal() {
                    reply.outputs.extend(table.disarm_prompt());
                    series::after_game(&*self.persist, table, &mut reply, now);
                }
                self.reviews.keep(review, &reply);
                if table.closed {
                    self.finished.remember(table, now, settings.lobby_timeout);
                    self.forget(shared, table.channel);
                } else {
                    self.reschedule(table, settings);
                }
                reply
            }
            Err(e) => {
                tracing::error!(channel = table.channel.0, "cannot save the table: {e}");
                *table = before;
                Reply::ephemeral(Text::SaveFailed)
            }
        }
    }

    /// Removes a closed table from the map, if the entry is still this table (and not a newer one).
    /// Takes the map lock; may be called with the table's lock held (the only nesting of locks, always
    /// in this order).
    fn forget(&self, shared: &Shared, channel: ChannelId) {
        let mut tables = lock(&self.tables);
        if tables.remove(channel, shared) {
            // Under the map lock: a newer table in the channel cannot have set its deadline yet.
            lock(&self.deadlines).set(channel, None);
            lock(&self.rated_running).remove(&channel);
        }
    }

    /// A post in `channel` was refused by Discord (Missing Permissions or Missing Access): its table,
    /// if any, pauses (saved, so a restart keeps it paused). `true` if it was not paused before.
    pub fn pause(&self, channel: ChannelId, now: Timestamp) -> bool {
        let Some(shared) = self.get(channel) else {
            return false;
        };
        let mut table = lock(&shared);
        if table.closed || !table.pause(now) {
            return false;
        }
        let _span = table.span().entered();
        tracing::warn!(
            channel = channel.0,
            "cannot post in the channel: the table is paused"
        );
        // Time stands still while paused: no timer until it resumes.
        lock(&self.tables).set_kind(channel, deadlines::gauge_kind(&table));
        lock(&self.deadlines).set(channel, None);
        if let Err(e) = self.persist.save(&table) {
            // Still paused in memory; a restart would try to post and pause it again.
            tracing::error!(channel = channel.0, "cannot save the pause: {e}");
        }
        true
    }

    /// The bot's permissions in `channel` as an interaction there shows them (`granted`, Discord's
    /// bitfield; `thread`: the channel is a thread or forum post). A paused table whose channel allows
    /// posting again resumes: the reply (a note and the board for the channel, and maybe a computer
    /// move) is to be sent. Otherwise the pause remembers what is missing, to tell the players.
    pub fn note_access(
        &self,
        channel: ChannelId,
        granted: u64,
        thread: bool,
        now: Timestamp,
    ) -> Option<Reply> {
        let shared = self.get(channel)?;
        let mut table = lock(&shared);
        if table.closed || !self.may_act(table.guild) {
            return None;
        }
        let _span = table.span().entered();
        let paused = table.paused.as_mut()?;
        let missing = Permission::missing_to_post(granted, thread);
        if !missing.is_empty() {
            paused.missing = missing;
            paused.thread = thread;
            return None;
        }
        let before = table.clone();
        let reply = table.unpause(now, &self.settings);
        let replay_gif = self.settings_for(table.guild).replay_gif;
        match persist_update(&*self.persist, &table, reply, replay_gif) {
            Ok(reply) => {
                tracing::info!(
                    channel = channel.0,
                    "the bot may post again: the table resumes"
                );
                self.reschedule(&table, &self.settings_for(table.guild));
                Some(reply)
            }
            Err(e) => {
                tracing::error!(channel = channel.0, "cannot save the end of a pause: {e}");
                *table = before;
                None
            }
        }
    }

    /// Reminders, timed-out lobbies, and the channels where a computer player or a timed-out turn is due
    /// (`Reply::auto_move`): call this every few seconds.
    /// Only the tables whose deadline has come are looked at (see [`deadlines::Deadlines`]).
    pub fn tick(&self, now: Timestamp) -> Vec<(ChannelId, Reply)> {
        let due = lock(&self.deadlines).take_due(now);
        let mut out = Vec::new();
        for channel in due {
            let Some(shared) = self.get(channel) else {
                continue;
            };
            let mut table = lock(&shared);
            if table.closed {
                continue;
            }
            if !self.may_act(table.guild) {
                // Not this process's to time now; looked at again at the next pass, as before.
                lock(&self.deadlines).set(channel, Some(now));
                continue;
            }
            let _span = table.span().entered();
            let before = table.clone();
            let settings = self.settings_for(table.guild);
            let timed_out = table
                .timed_out_human(now, &settings)
                .filter(|_| settings.timeout_gives_up);
            let mut reply = match timed_out {
                // This server's rule: a player whose time ran out gives up.
                Some((user, _)) => {
                    let lang = self
                        .server_language(table.guild)
                        .or_else(|| self.channel_language(channel))
                        .unwrap_or_default();
                    let reply = table.time_ran_out(user, now, &settings, lang);
                    if reply.outputs.is_empty() {
                        table.tick(now, &settings)
                    } else {
                        reply
                    }
                }
                None => table.tick(now, &settings),
            };
            if !reply.outputs.is_empty() {
                match persist_update(&*self.persist, &table, reply, settings.replay_gif) {
                    Ok(mut saved) => {
                        saved.outputs.extend(table.disarm_prompt());
                        // Taken before a series opens the table again for its next game.
                        let review = table.closed.then(|| review::Review::of(&table)).flatten();
                        series::after_game(&*self.persist, &mut table, &mut saved, now);
                        self.reviews.keep(review, &saved);
                        reply = saved;
                    }
                    Err(e) => {
                        // Undone; the next tick tries again.
                        tracing::error!(channel = channel.0, "cannot save the table: {e}");
                        *table = before;
                        lock(&self.deadlines).set(channel, Some(now));
                        continue;
                    }
                }
                if table.closed {
                    self.finished.remember(&table, now, settings.lobby_timeout);
                    self.forget(&shared, channel);
                }
            }
            self.reschedule(&table, &settings);
            if !reply.outputs.is_empty() || reply.auto_move {
                self.charge_unprompted(table.guild, budget::posts_of(&reply), now);
                out.push((channel, reply));
            }
        }
        out.extend(self.waiting_lobby_edits(now));
        out
    }

    /// Plays one move for a computer player, or for a human whose turn timed out. The move is chosen
    /// outside the table lock (on a blocking thread) and applied only if the game has not moved on
    /// meanwhile. `None` when nothing is due.
    pub async fn auto_step(&self, channel: ChannelId, now: Timestamp) -> Option<Reply> {
        let shared = self.get(channel)?;
        let seed = self.seeds.seed()?;
        let (task, guild, span) = {
            let mut table = lock(&shared);
            if table.closed || !self.may_act(table.guild) {
                return None;
            }
            let span = table.span();
            let _span = span.enter();
            // With the server's whole posting budget spent, computer moves wait: the timer finds them
            // due again. Members cannot spend the last of it.
            if !self.may_post_unprompted(table.guild, now) {
                return None;
            }
            let settings = self.known_settings_for(table.guild);
            let task = table.claim_auto_task(now, &settings, seed)?;
            drop(_span);
            (task, table.guild, span)
        };
        let settings = self.known_settings_for(guild);
        let lang = self
            .known_server_language(guild)
            .or_else(|| self.channel_language(channel))
            .unwrap_or_default();
        let think = settings.bot_think;
        let picker = self.picker.clone();
        let view = task.view.clone();
        let history = task.history.clone();
        let level = task.level;
        let seed = task.seed;
        let chosen = self
            .pool
            .run_for(level.name(), task.due, move || {
                picker.choose_thinking(&view, &history, level, seed, think)
            })
            .await;
        let chosen = match chosen {
            Ok(mv) => Some(mv),
            Err(e) => {
                span.in_scope(|| {
                    tracing::error!(channel = channel.0, "computer player failed: {e}")
                });
                None
            }
        };
        // Applied and saved on a blocking thread too: saving is I/O.
        let persist = self.persist.clone();
        let table_ref = shared.clone();
        let in_blocking = span.clone();
        let timers = settings.clone();
        // A pass with many timeouts due takes a few blocking threads, not one each (the semaphore is
        // never closed, so a permit always comes).
        let permit = self.applying.clone().acquire_owned().await.ok();
        let applied = tokio::task::spawn_blocking(move || {
            let _span = in_blocking.entered();
            let _permit = permit;
            let mut table = lock(&table_ref);
            let before = table.clone();
            let reply = table.apply_auto(&task, chosen, now, &settings, lang)?;
            match persist_update(&*persist, &table, reply, settings.replay_gif) {
                Ok(mut reply) => {
                    reply.outputs.extend(table.disarm_prompt());
                    let review = table.closed.then(|| review::Review::of(&table)).flatten();
                    series::after_game(&*persist, &mut table, &mut reply, now);
                    Some((
                        reply,
                        table
                            .closed
                            .then(|| rematch::Finished::of(&table, now))
                            .flatten(),
                        table.closed,
                        review,
                    ))
                }
                Err(e) => {
                    // Undone; the timer finds the move due again and retries.
                    tracing::error!(channel = channel.0, "cannot save a computer move: {e}");
                    *table = before;
                    table.auto_busy = false;
                    None
                }
            }
        })
        .await;
        match applied {
            Ok(Some((reply, finished, closed, review))) => {
                self.reviews.keep(review, &reply);
                if let Some(finished) = finished {
                    self.finished.put(channel, finished, timers.lobby_timeout);
                }
                if closed {
                    self.forget(&shared, channel);
                } else {
                    self.reschedule(&lock(&shared), &timers);
                }
                self.charge_unprompted(guild, budget::posts_of(&reply), now);
                Some(reply)
            }
            Ok(None) => None,
            Err(e) => {
                span.in_scope(|| {
                    tracing::error!(channel = channel.0, "applying a computer move failed: {e}")
                });
                lock(&shared).auto_busy = false;
                None
            }
        }
    }

    /// Plays every due computer move in a channel in turn (for tests and simple callers); returns the
    /// replies in order.
    pub async fn run_auto(&self, channel: ChannelId, now: Timestamp) -> Vec<Reply> {
        let mut replies = Vec::new();
        // A game has a bounded number of moves; the bound only guards against a picker that never ends
        // a game.
        for _ in 0..10_000 {
            match self.auto_step(channel, now).await {
                Some(reply) => replies.push(reply),
                None => break,
            }
        }
        replies
    }

    /// Autocomplete for a card: only the caller's own cards, filtered by what they typed, labelled in
    /// `lang`.
    pub fn complete_card(
        &self,
        channel: ChannelId,
        user: UserId,
        typed: &str,
        lang: Lang,
    ) -> Vec<Choice> {
        self.get(channel)
            .map(|shared| lock(&shared).complete_card(user, typed, false, lang))
            .unwrap_or_default()
    }

    /// Autocomplete for a dead card to exchange: only the caller's own dead cards.
    pub fn complete_dead_card(
        &self,
        channel: ChannelId,
        user: UserId,
        typed: &str,
        lang: Lang,
    ) -> Vec<Choice> {
        self.get(channel)
            .map(|shared| lock(&shared).complete_card(user, typed, true, lang))
            .unwrap_or_default()
    }

    /// Autocomplete for a cell: the legal cells for `card` (dice: for the current roll), for the caller.
    pub fn complete_cell(
        &self,
        channel: ChannelId,
        user: UserId,
        card: Option<&str>,
        typed: &str,
        lang: Lang,
    ) -> Vec<Choice> {
        self.get(channel)
            .map(|shared| lock(&shared).complete_cell(user, card, typed, lang))
            .unwrap_or_default()
    }
}
