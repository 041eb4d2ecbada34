//! What comes in: a [`Request`] (who asked what, where), the [`Command`] it carries, and every custom id
//! a message component can send back, each parsed once and strictly into a typed value: the fixed
//! [`Button`]s and the picker's [`Press`].

use crate::engine::{Options, Variant};

use super::{picker, BotLevel, GameKey, GuildId, Actor, ChannelId, Press, SettingsRequest, UserId};

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
