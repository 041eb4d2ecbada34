//! What comes in: a [`Request`] (who asked what, where), the [`Command`] it carries, and every custom id
//! a message component can send back, each parsed once and strictly into a typed value: the fixed
//! [`Button`]s and the picker's [`Press`].

use std::fmt;

use crate::engine::{Card, Cell, Layout, Move, Options, Variant};

use super::bot::BotLevel;
use super::ids::{Actor, ChannelId, GameKey, GuildId, UserId};
use super::server::SettingsRequest;
use super::text::Text;

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
    /// A challenge: open a lobby as `start` (a [`Command::Start`]) asks, with these players invited
    /// by a mention that notifies them; each answers with **Accept** or **Decline**
    /// (`/sequence start invite:`, the user command "Challenge to Sequence").
    Challenge {
        /// The lobby to open (a [`Command::Start`]).
        start: Box<Command>,
        /// Who is invited, in the host's order (checked when the lobby opens: each once, people
        /// only, not the host, not more than the free seats).
        invited: Vec<UserId>,
        /// Those of `invited` that are apps, not people, as Discord tells (refused by the lobby).
        bots: Vec<UserId>,
    },
    /// An invited player takes their seat (the challenge's **Accept**).
    Accept,
    /// An invited player declines: the host is told privately.
    Decline,
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
    /// `/sequence hint`: privately, the move the `hard` computer would make now, and why (searched in
    /// the pool by [`super::Tables::serve`], never by the synchronous handling).
    Hint,
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
    /// A player's profile on this server: the card (an image) and its text (`None`: the caller's).
    /// Another member's profile also shows the caller's games with them.
    Profile {
        /// Whose.
        user: Option<UserId>,
    },
    /// The caller's games with another member of this server: as partners, as opponents, the
    /// latest shared games.
    Versus {
        /// The other member.
        user: UserId,
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

/// Where a request comes from, as far as the rules of a place go (docs/playing.md, "Where you can
/// play"): the Discord layer reads it from the interaction, the console from its request line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Venue {
    /// A server channel where the server added the bot: it posts there.
    Server,
    /// A server channel where only a member installed the app: the bot may only answer.
    ServerWithoutBot {
        /// Whether the server lets apps its members installed answer publicly (Use External Apps);
        /// without it every answer would be private, so no game opens.
        external_apps: bool,
    },
    /// The bot's DM with one user, or a DM between users.
    Dm,
    /// A group DM (the bot is never a member).
    GroupDm,
}

impl Venue {
    /// Whether the bot may only answer there (every place but a server that added it).
    pub fn answers_only(self) -> bool {
        self != Venue::Server
    }

    /// Whether the place is a server (stats, ratings and lists are kept per server).
    pub fn is_server(self) -> bool {
        matches!(self, Venue::Server | Venue::ServerWithoutBot { .. })
    }
}

impl Command {
    /// The command as the rules of `venue` let it through, or the polite refusal: outside servers
    /// as [`Command::outside_servers`] says; in a server that lets apps installed by members answer
    /// only privately no game opens (nobody else would see it).
    pub fn in_venue(self, venue: Venue) -> Result<Command, Text> {
        match venue {
            Venue::Server => Ok(self),
            Venue::ServerWithoutBot {
                external_apps: false,
            } if matches!(self, Command::Start { .. } | Command::Challenge { .. }) => {
                Err(Text::ExternalAppsOff)
            }
            Venue::ServerWithoutBot { .. } => Ok(self),
            Venue::Dm | Venue::GroupDm => self.outside_servers(),
        }
    }

    /// The command as it applies outside a server (a group DM, a DM), where the Discord layer asks
    /// it so: games there are casual (a rating ranks the players of one server, and every group DM
    /// would share one pool), and the lists of a server (leaderboard, history, numbered games) are
    /// not offered, so that no chat sees another's games (docs/playing.md, "Where you can play").
    /// The refusal to say instead.
    pub fn outside_servers(self) -> Result<Command, Text> {
        match self {
            Command::Start {
                rated: Some(true), ..
            } => Err(Text::CasualOutsideServers),
            Command::Start {
                variant,
                teams,
                options,
                rated: _,
                turn_time,
                series,
            } => Ok(Command::Start {
                variant,
                teams,
                options,
                rated: Some(false),
                turn_time,
                series,
            }),
            Command::Challenge {
                start,
                invited,
                bots,
            } => Ok(Command::Challenge {
                start: Box::new(start.outside_servers()?),
                invited,
                bots,
            }),
            Command::Leaderboard
            | Command::History
            | Command::Record { game: Some(_) }
            | Command::Replay { game: Some(_) } => Err(Text::ServerOnlyLists),
            command => Ok(command),
        }
    }
}

impl Command {
    /// The command a player types for the engine's move `mv` on `layout` (a pass has none: it is
    /// never chosen, the game passes for a player who has no move).
    pub fn of_move(mv: Move, layout: &Layout) -> Option<Command> {
        Some(match mv {
            Move::Play { card, cell } => Command::Play {
                card: Some(card.to_string()),
                cell: layout.cell_name(cell),
            },
            Move::Exchange { card } => Command::Exchange {
                card: card.to_string(),
            },
            Move::Place { cell } => Command::Play {
                card: None,
                cell: layout.cell_name(cell),
            },
            Move::Remove { cell } => Command::Remove {
                cell: layout.cell_name(cell),
            },
            Move::Pass => return None,
        })
    }

    /// The command itself, or for a press of a button made for one game, what it asks.
    pub fn unwrapped(&self) -> &Command {
        match self {
            Command::OfGame { command, .. } => command,
            command => command,
        }
    }

    /// What kind of command it is: the one place that classifies every command (a press of a
    /// button made for one game, as what it asks).
    pub fn kind(&self) -> CommandKind {
        use CommandKind::*;
        match self {
            Command::OfGame { command, .. } => command.kind(),
            Command::Press(press) if press.step == Step::Roll => Deals,
            Command::Press(press) if press.changes_table() => Changes,
            Command::Press(_) => Looks,
            Command::Status
            | Command::Hint
            | Command::Rules { .. }
            | Command::Record { .. }
            | Command::Settings(_)
            | Command::BotMenu
            | Command::AskAbandonSeries => Looks,
            Command::Hand | Command::Menu | Command::AskStop | Command::KeepPlaying => {
                LooksWhilePaused
            }
            Command::Board
            | Command::Stats { .. }
            | Command::Profile { .. }
            | Command::Versus { .. }
            | Command::Leaderboard
            | Command::History
            | Command::Replay { .. } => Shows,
            Command::Join { .. } => Joins,
            Command::Accept | Command::Rematch { .. } => Seats,
            Command::Leave => Leaves,
            Command::Stop | Command::Cancel => Ends,
            Command::Begin | Command::Roll | Command::NextGame => Deals,
            Command::Start { .. }
            | Command::Challenge { .. }
            | Command::Decline
            | Command::AddBot { .. }
            | Command::RemoveBot
            | Command::Play { .. }
            | Command::Exchange { .. }
            | Command::Remove { .. }
            | Command::Forfeit { .. }
            | Command::AbandonSeries => Changes,
        }
    }

    /// Whether the command may change a table (everything but reading: hand, board, status, rules,
    /// stats, leaderboard, history, record).
    pub fn changes_table(&self) -> bool {
        self.kind().changes_table()
    }

    /// Whether the command may make the bot post in the channel (all but the private answers; stats,
    /// profiles, leaderboard and history are posted in the channel).
    pub fn posts(&self) -> bool {
        self.kind().posts()
    }
}

/// What a command does, as the registry and the adapters need to know before it is carried out:
/// whether it may change a table (then only the shard's owner carries it out, and the table is kept
/// to put back if saving fails), whether it may post in the channel (then it is charged to the
/// posting budget), what a paused table still allows, what needs fresh randomness and what seats
/// someone. [`Command::kind`] classifies each command once; the predicates below read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandKind {
    /// Answered privately, changes nothing: the status, the rules, a record, the server's settings
    /// (shown or changed: a server's, not a table's), the Add computer menu, the question before
    /// abandoning a series, a step of the picker.
    Looks,
    /// Answered privately, changes nothing, and allowed while a table is paused: the hand, the ⋯
    /// menu, the question before Stop and its Keep playing.
    LooksWhilePaused,
    /// Posts in the channel what is known, changes no table: the board, stats, profiles, versus, the
    /// leaderboard, history, a replay.
    Shows,
    /// Changes a table: opening a lobby, declining, computers added or removed, a move, giving up,
    /// abandoning a series.
    Changes,
    /// Takes a seat in a lobby by Join (repeated Join and Leave edit the lobby card less often).
    Joins,
    /// Takes a seat at someone's table by accepting their invitation or a rematch.
    Seats,
    /// Leaves a lobby (in a game, asks to confirm giving up).
    Leaves,
    /// Ends a table (also while paused): Stop, Cancel.
    Ends,
    /// Needs fresh randomness: a deal (Begin, the next game of a series) or a roll.
    Deals,
}

impl CommandKind {
    /// Whether a command of this kind may change a table.
    pub fn changes_table(self) -> bool {
        !matches!(
            self,
            CommandKind::Looks | CommandKind::LooksWhilePaused | CommandKind::Shows
        )
    }

    /// Whether a command of this kind may make the bot post in the channel.
    pub fn posts(self) -> bool {
        self.changes_table() || self == CommandKind::Shows
    }

    /// Whether a paused table carries it out: only what needs no post in the channel, and ending the
    /// table.
    pub fn allowed_while_paused(self) -> bool {
        matches!(self, CommandKind::LooksWhilePaused | CommandKind::Ends)
    }

    /// Whether it needs a fresh seed (a deal, who starts, a roll).
    pub fn needs_seed(self) -> bool {
        self == CommandKind::Deals
    }

    /// Whether it seats the asker at someone's table (the host's next invitation may ping them again).
    pub fn takes_seat(self) -> bool {
        matches!(self, CommandKind::Joins | CommandKind::Seats)
    }

    /// Whether it is a Join or a Leave (whose lobby edits are held back when repeated).
    pub fn joins_or_leaves(self) -> bool {
        matches!(self, CommandKind::Joins | CommandKind::Leaves)
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
    /// My profile on this server (the card).
    Profile,
    /// The record of this stored game, privately.
    Record(i64),
    /// The next game of a series (carries the key of the table waiting between the games).
    NextGame(GameKey),
    /// Abandon a series between two games (asks to confirm first).
    AbandonSeries(GameKey),
    /// Abandon the series, as asked to confirm.
    ConfirmAbandonSeries(GameKey),
    /// Accept the invitation to this lobby (a challenge; invited players only).
    Accept(GameKey),
    /// Decline the invitation to this lobby (a challenge; invited players only).
    Decline(GameKey),
}

impl Button {
    /// Every button that carries no game.
    pub const FIXED: [Button; 13] = [
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
        Button::Profile,
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
            Button::Profile => "sequence:profile".into(),
            Button::Record(game) => format!("sequence:record:{game}"),
            Button::NextGame(game) => format!("sequence:next:{game}"),
            Button::AbandonSeries(game) => format!("sequence:abandon:{game}"),
            Button::ConfirmAbandonSeries(game) => format!("sequence:abandon-confirm:{game}"),
            Button::Accept(game) => format!("sequence:accept:{game}"),
            Button::Decline(game) => format!("sequence:decline:{game}"),
        }
    }

    /// The button with this custom id. Parsed strictly: only what [`Button::id`] prints is accepted.
    pub fn from_id(id: &str) -> Option<Button> {
        if let Some(button) = Button::FIXED.into_iter().find(|b| b.id() == id) {
            return Some(button);
        }
        if id.len() > MAX_CUSTOM_ID {
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
            ["sequence", "accept", game] => Button::Accept(game.parse().ok()?),
            ["sequence", "decline", game] => Button::Decline(game.parse().ok()?),
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
            Button::Profile => Command::Profile { user: None },
            Button::Record(game) => Command::Record { game: Some(game) },
            Button::NextGame(game) => of_game(game, Command::NextGame),
            Button::AbandonSeries(game) => of_game(game, Command::AskAbandonSeries),
            Button::ConfirmAbandonSeries(game) => of_game(game, Command::AbandonSeries),
            Button::Accept(game) => of_game(game, Command::Accept),
            Button::Decline(game) => of_game(game, Command::Decline),
        }
    }

    /// Whether the button is drawn as the main (highlighted) action.
    pub const fn is_primary(self) -> bool {
        matches!(
            self,
            Button::Join
                | Button::Accept(_)
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

/// Characters of a custom id (1 to 100; Discord's limit).
pub const MAX_CUSTOM_ID: usize = 100;

/// Every picker id starts with this (the fixed buttons use `sequence:` and a word).
const PREFIX: &str = "sequence:p:";

/// A cell as named in an id (`D6`): column and row, 0-based, checked against a board only when used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName {
    pub(crate) col: u8,
    pub(crate) row: u8,
}

impl CellName {
    pub(crate) fn of(cell: Cell, layout: &Layout) -> CellName {
        CellName {
            col: cell.col(layout.width),
            row: cell.row(layout.width),
        }
    }

    /// The cell on `layout`, if it is on the board.
    pub(crate) fn on(self, layout: &Layout) -> Option<Cell> {
        (self.col < layout.width && self.row < layout.height)
            .then(|| Cell::at(self.col, self.row, layout.width))
    }

    fn parse(text: &str) -> Option<CellName> {
        let mut chars = text.chars();
        let letter = chars.next().filter(char::is_ascii_uppercase)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
            return None;
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        Some(CellName {
            col: letter as u8 - b'A',
            row: row - 1,
        })
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'A' + self.col),
            u32::from(self.row) + 1
        )
    }
}

/// A part of a card's targets too many for one step: one board row, or a part of a long row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The board row, 0-based.
    pub(crate) row: u8,
    /// Which [`CELLS_PER_STEP`](super::picker::CELLS_PER_STEP) cells of that row (0 unless a custom board has longer rows).
    pub(crate) part: u8,
}

impl Group {
    fn parse(text: &str) -> Option<Group> {
        let (row, part) = text.split_once('-')?;
        let group = Group {
            row: strict_number(row)?,
            part: strict_number(part)?,
        };
        (group.to_string() == text).then_some(group)
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.row, self.part)
    }
}

/// What a picker press asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Open the picker (the turn prompt's Play button).
    Play,
    /// Dice: roll, then show the cells (the turn prompt's Roll button).
    Roll,
    /// Back to the cards.
    Cards,
    /// The cells (or rows) of a card.
    Card(Card),
    /// The cells of one row of a card's targets (dice: the roll's), chosen in the menu.
    Group(Option<Card>, Group),
    /// Play the card (dice: place or remove) on the cell: the move.
    Cell(Option<Card>, CellName),
    /// Exchange the dead card.
    Exchange(Card),
    /// Privately, the move `hard` would make now and why, as `/sequence hint` answers (shown only
    /// where a hint is allowed; answered by [`super::Tables::press_hint`]).
    Hint,
    /// The confirmation's button in a rated game (where the server allows hints there): the hint,
    /// and the game becomes unrated for everyone.
    HintUnrated,
}

/// A press of a picker button or a choice in its menu: which table and turn it belongs to, and what
/// it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Press {
    /// The table's creation time (ms): a new game in the channel has other ids.
    pub table: u64,
    /// The turn it was shown for ([`turn_number`]).
    pub turn: u32,
    /// What it asks for.
    pub step: Step,
}

/// Why a custom id was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PressError {
    /// Not an id this bot makes.
    #[error("not a button of this bot: {0:?}")]
    Unknown(String),
    /// Shaped like one of ours, but not exactly.
    #[error("malformed button id: {0:?}")]
    Malformed(String),
    /// A menu choice where none belongs, or none (or several) where one does.
    #[error("unexpected menu values for {0:?}")]
    Values(String),
}

fn strict_number<T: std::str::FromStr + fmt::Display>(text: &str) -> Option<T> {
    if text.is_empty() || text.len() > 20 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: T = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

/// A card as written in an id: its code (`7H`, `TS`, `lion`), exactly.
fn strict_card(text: &str) -> Option<Card> {
    [Variant::Classic, Variant::Kids]
        .into_iter()
        .filter_map(|v| Card::parse(text, v))
        .find(|card| card.to_string() == text)
}

fn card_or_dash(card: Option<Card>) -> String {
    card.map_or_else(|| "-".to_string(), |c| c.to_string())
}

fn strict_card_or_dash(text: &str) -> Option<Option<Card>> {
    if text == "-" {
        Some(None)
    } else {
        strict_card(text).map(Some)
    }
}

impl Press {
    /// The custom id of a button (or, for [`Step::Group`], of the menu, without the chosen row).
    pub fn id(&self) -> String {
        let step = match self.step {
            Step::Play => "play".to_string(),
            Step::Roll => "roll".to_string(),
            Step::Cards => "cards".to_string(),
            Step::Card(card) => format!("card:{card}"),
            Step::Group(card, _) => format!("rows:{}", card_or_dash(card)),
            Step::Cell(card, cell) => format!("cell:{}:{cell}", card_or_dash(card)),
            Step::Exchange(card) => format!("swap:{card}"),
            Step::Hint => "hint".to_string(),
            Step::HintUnrated => "hint-unrated".to_string(),
        };
        format!("{PREFIX}{}:{}:{step}", self.table, self.turn)
    }

    /// The menu value that stands for this press ([`Step::Group`] only).
    pub fn value(&self) -> Option<String> {
        match self.step {
            Step::Group(_, group) => Some(group.to_string()),
            _ => None,
        }
    }

    /// Parses a custom id and the chosen menu values, strictly: only what [`Press::id`] and
    /// [`Press::value`] print is accepted.
    pub fn parse(id: &str, values: &[String]) -> Result<Press, PressError> {
        let rest = id
            .strip_prefix(PREFIX)
            .ok_or_else(|| PressError::Unknown(id.chars().take(MAX_CUSTOM_ID).collect()))?;
        let malformed = || PressError::Malformed(id.chars().take(MAX_CUSTOM_ID).collect());
        if id.len() > MAX_CUSTOM_ID {
            return Err(malformed());
        }
        let parts: Vec<&str> = rest.split(':').collect();
        let (table, turn, step) = match parts.as_slice() {
            [table, turn, step @ ..] => (
                strict_number::<u64>(table).ok_or_else(malformed)?,
                strict_number::<u32>(turn).ok_or_else(malformed)?,
                step,
            ),
            _ => return Err(malformed()),
        };
        let is_menu = matches!(step, ["rows", _]);
        let value = match (is_menu, values) {
            (true, [value]) => Some(value.as_str()),
            (false, []) => None,
            _ => return Err(PressError::Values(id.chars().take(MAX_CUSTOM_ID).collect())),
        };
        let step = match (step, value) {
            (["play"], None) => Step::Play,
            (["roll"], None) => Step::Roll,
            (["cards"], None) => Step::Cards,
            (["hint"], None) => Step::Hint,
            (["hint-unrated"], None) => Step::HintUnrated,
            (["card", card], None) => Step::Card(strict_card(card).ok_or_else(malformed)?),
            (["swap", card], None) => Step::Exchange(strict_card(card).ok_or_else(malformed)?),
            (["cell", card, cell], None) => Step::Cell(
                strict_card_or_dash(card).ok_or_else(malformed)?,
                CellName::parse(cell).ok_or_else(malformed)?,
            ),
            (["rows", card], Some(value)) => Step::Group(
                strict_card_or_dash(card).ok_or_else(malformed)?,
                Group::parse(value).ok_or_else(malformed)?,
            ),
            _ => return Err(malformed()),
        };
        let press = Press { table, turn, step };
        if press.id() != id || press.value().as_deref() != value {
            return Err(malformed());
        }
        Ok(press)
    }

    /// Whether the press may change the table (a move, an exchange, a roll); the others only show a
    /// step of the picker.
    pub fn changes_table(&self) -> bool {
        matches!(self.step, Step::Roll | Step::Cell(..) | Step::Exchange(_))
    }

    /// Whether the press asks for a hint (answered by [`super::Tables::press_hint`], which searches
    /// off the async runtime, not by the table's synchronous handling).
    pub fn is_hint(&self) -> bool {
        matches!(self.step, Step::Hint | Step::HintUnrated)
    }

    /// Whether the press comes from the private picker (whose message is then updated in place), not
    /// from a public turn prompt.
    pub fn is_on_picker(&self) -> bool {
        !matches!(self.step, Step::Play | Step::Roll)
    }
}

/// The command a component stands for: a fixed button or a picker press. A malformed id is refused
/// politely (nothing is trusted: the command is then checked like a typed one).
pub fn command_for_component(id: &str, values: &[String]) -> Result<Command, Text> {
    if let Some(button) = Button::from_id(id) {
        return if values.is_empty() {
            Ok(button.command())
        } else {
            Err(Text::BadButton)
        };
    }
    match Press::parse(id, values) {
        Ok(press) => Ok(Command::Press(press)),
        Err(e) => {
            tracing::info!("refused a component: {e}");
            Err(Text::BadButton)
        }
    }
}
