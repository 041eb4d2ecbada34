//! Every user-facing sentence of the bot, in one place. A [`Text`] is a message key with its arguments;
//! `Display` renders it in English (a later translation renders the same keys in other languages).

use std::fmt;

use crate::engine::{Card, Options, PlayError, Variant};

use super::{Button, ChannelId, UserId};

/// A player as named in a message: a user (shown as a mention) or a computer player (its name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// A Discord user.
    User(UserId),
    /// A computer player.
    Bot(String),
}

impl fmt::Display for Who {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Who::User(id) => write!(f, "<@{}>", id.0),
            Who::Bot(name) => write!(f, "**{name}**"),
        }
    }
}

/// A team as named in a message: its number (1-based) and chip colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamName {
    /// 1-based number.
    pub number: u8,
    /// Chip colour.
    pub color: &'static str,
}

impl TeamName {
    /// The name of 0-based `team` in a game of `variant`.
    pub fn of(variant: Variant, team: u8) -> TeamName {
        const CLASSIC: [&str; 4] = ["blue", "green", "red", "yellow"];
        const KIDS: [&str; 4] = ["red", "yellow", "green", "blue"];
        let colors = match variant {
            Variant::Kids => KIDS,
            Variant::Classic | Variant::Dice => CLASSIC,
        };
        TeamName {
            number: team.saturating_add(1),
            color: colors.get(usize::from(team)).copied().unwrap_or("grey"),
        }
    }
}

impl fmt::Display for TeamName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "team {} ({})", self.number, self.color)
    }
}

/// What a card in a hand can do now, for the hand message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardLine {
    /// The card.
    pub card: Card,
    /// What it does.
    pub use_: CardUse,
}

/// What a card can do now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardUse {
    /// It goes on one of these free cells.
    Cells(Vec<String>),
    /// Two-eyed jack or unicorn: any free cell.
    Wild,
    /// One-eyed jack or dragon: removes an opponent chip.
    Remove,
    /// Both its cells are covered: exchange it.
    Dead,
}

/// One seat in the lobby or status message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLine {
    /// The player.
    pub who: Who,
    /// Their team, if known.
    pub team: Option<TeamName>,
    /// Cards in hand (running card games).
    pub cards: Option<u8>,
}

/// The lobby message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyCard {
    /// The game.
    pub variant: Variant,
    /// The host.
    pub host: UserId,
    /// Teams asked for.
    pub teams: Option<u8>,
    /// Options asked for.
    pub options: Options,
    /// Seats so far, with the wished team.
    pub seats: Vec<SeatLine>,
    /// Most seats.
    pub max_players: u8,
}

/// The status message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusInfo {
    /// The game.
    pub variant: Variant,
    /// Seats in turn order.
    pub seats: Vec<SeatLine>,
    /// Whose turn.
    pub to_move: Who,
    /// Sequences per team, and the target.
    pub sequences: Vec<(TeamName, usize)>,
    /// Sequences needed to win.
    pub target: u8,
    /// Cards left to draw (card games).
    pub draw_pile: Option<usize>,
    /// Dice shown this turn.
    pub roll: Option<[u8; 2]>,
    /// Seconds until the turn times out.
    pub seconds_left: u64,
}

/// What a dice roll allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollHint {
    /// Place on a cell of this number.
    Number(u8),
    /// All cells of this number are covered: replace an opponent chip on one.
    Replace(u8),
    /// 10: remove an opponent chip.
    Remove,
    /// 11: any free cell.
    Free,
}

/// Every message the bot sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Text {
    // ----- refusals -----
    /// There is no table in the channel.
    NoTable,
    /// The channel already has a table.
    TableExists,
    /// Lobby commands after the game started.
    AlreadyStarted,
    /// Game commands before the game started.
    NotStarted,
    /// Joining twice.
    AlreadyJoined,
    /// No free seat.
    LobbyFull {
        /// Most players.
        max: u8,
    },
    /// The user has no seat.
    NotInGame,
    /// Only the host or a moderator may do that.
    NotHost {
        /// The host.
        host: UserId,
    },
    /// Someone else is to move.
    NotYourTurn {
        /// Whose turn.
        to_move: Who,
    },
    /// The engine refused the move.
    Illegal(PlayError),
    /// Illegal, with the cells that would work for the card.
    IllegalWithCells(PlayError, Vec<String>),
    /// Not a card of this game.
    BadCard {
        /// What was typed.
        typed: String,
        /// The game.
        variant: Variant,
    },
    /// Not a cell of this board.
    BadCell {
        /// What was typed.
        typed: String,
        /// The last cell of the board (`J10`).
        last: String,
    },
    /// `play` without a card in a card game.
    CardNeeded,
    /// `play` without a cell.
    CellNeeded,
    /// An option Discord sent could not be read.
    BadOption,
    /// A command used outside a server channel.
    GuildOnly,
    /// A card command in the dice game.
    NoCardsInDice,
    /// A dice command in a card game.
    NotDice,
    /// Dice: place before rolling.
    RollFirst,
    /// Dice: rolling twice.
    AlreadyRolled {
        /// The dice.
        dice: [u8; 2],
    },
    /// The game cannot start or the lobby cannot open as asked (the engine's reason).
    CannotStart(String),
    /// A number of teams this game never has.
    BadTeamCount {
        /// Asked for.
        teams: u8,
        /// The game.
        variant: Variant,
    },
    /// No such team.
    BadTeam {
        /// Asked for (1-based).
        team: u8,
        /// Highest team number.
        max: u8,
    },
    /// Too many players chose one team.
    TeamFull {
        /// The team.
        team: TeamName,
        /// Players per team.
        size: u8,
        /// Players who chose it.
        chosen: u8,
    },
    /// No computer player to remove.
    NoBot,
    /// Something broke on our side.
    Internal,

    // ----- acknowledgements (private) -----
    /// `start` worked.
    LobbyOpened,
    /// `join` worked.
    Joined,
    /// `leave` in the lobby worked.
    Left,
    /// A bot was added.
    BotAdded(String),
    /// A bot was removed.
    BotRemoved(String),
    /// The lobby was cancelled.
    CancelledAck,
    /// The game was started.
    BegunAck,
    /// The user gave up.
    ForfeitAck,
    /// The game was stopped.
    StoppedAck,

    // ----- lobby message -----
    /// The lobby, open.
    Lobby(LobbyCard),
    /// The lobby turned into a game.
    LobbyStarted(Variant),
    /// The lobby was cancelled.
    LobbyCancelled {
        /// By whom.
        by: UserId,
    },
    /// The lobby timed out.
    LobbyExpired,
    /// Everyone left the lobby.
    LobbyAbandoned,
    /// The host left; a new host.
    HostChanged(UserId),

    // ----- game, public -----
    /// Dice: the roll-off that decides who starts.
    RollOff {
        /// Each round: who rolled what (only players still in the running).
        rounds: Vec<Vec<(Who, [u8; 2])>>,
        /// Who starts.
        winner: Who,
    },
    /// The game begins.
    GameStarted {
        /// The game.
        variant: Variant,
        /// Seats in turn order.
        seats: Vec<SeatLine>,
    },
    /// A card placed a chip.
    Played {
        /// Who.
        who: Who,
        /// The card.
        card: Card,
        /// The cell.
        cell: String,
    },
    /// A chip was removed (one-eyed jack, dragon, dice 10).
    Removed {
        /// Who.
        who: Who,
        /// The card, if any.
        card: Option<Card>,
        /// The cell.
        cell: String,
        /// Whose chip.
        victim: TeamName,
    },
    /// Dice: a chip placed (maybe replacing one).
    Placed {
        /// Who.
        who: Who,
        /// The cell.
        cell: String,
        /// Whose chip was replaced.
        replaced: Option<TeamName>,
    },
    /// A dead card was exchanged.
    Exchanged {
        /// Who.
        who: Who,
        /// The card.
        card: Card,
    },
    /// No legal move: the turn passes.
    Passed(Who),
    /// Two chips captured (`capture_pairs`).
    Captured {
        /// Capturing team.
        team: TeamName,
        /// Losing team.
        victim: TeamName,
        /// The cells.
        cells: [String; 2],
    },
    /// A sequence was completed.
    SequenceDone {
        /// The team.
        team: TeamName,
        /// Its sequences now.
        count: usize,
        /// Needed to win.
        target: u8,
    },
    /// A sequence was broken (`scoring`).
    SequenceBroken(TeamName),
    /// The discard pile became the draw pile.
    Reshuffled,
    /// A team reached the target; the round is finished first.
    ProvisionalWin(TeamName),
    /// Dice were rolled.
    Rolled {
        /// Who.
        who: Who,
        /// The dice.
        dice: [u8; 2],
        /// What it allows.
        hint: RollHint,
    },
    /// A team won.
    Won {
        /// The team.
        team: TeamName,
        /// Its players.
        members: Vec<Who>,
    },
    /// Points in a `scoring` game.
    Scores(Vec<(TeamName, usize)>),
    /// The game was drawn.
    Drawn,
    /// Everyone else gave up.
    WonByForfeit {
        /// The team.
        team: TeamName,
        /// Its players.
        members: Vec<Who>,
    },
    /// The game was stopped.
    Stopped(Who),
    /// No human player is left.
    NoHumansLeft,
    /// A player gave up; a computer player takes the seat.
    Forfeited {
        /// Who gave up.
        who: Who,
        /// The computer player taking over.
        bot: String,
    },
    /// Whose turn it is.
    Turn {
        /// The player.
        who: Who,
        /// Dice game (roll first).
        dice: bool,
        /// Same player again (dice doubles 1+1 or 6+6).
        again: bool,
    },
    /// A reminder.
    Reminder {
        /// The player.
        who: Who,
        /// Seconds until the computer plays for them.
        seconds_left: u64,
    },
    /// The turn timed out; the computer played it.
    TimedOut(Who),
    /// A DM could not be delivered.
    DmFailed(Who),
    /// The record is attached.
    RecordAttached,
    /// Caption of `board`.
    BoardCaption {
        /// The game.
        variant: Variant,
        /// Whose turn.
        to_move: Who,
    },

    // ----- private -----
    /// A hand.
    Hand {
        /// The channel of the game.
        channel: ChannelId,
        /// The cards.
        cards: Vec<CardLine>,
        /// Whether it is this player's turn.
        your_turn: bool,
    },
    /// Status.
    Status(StatusInfo),
    /// Lobby status.
    LobbyStatus(LobbyCard),
    /// The rules of a game.
    Rules(Variant),

    // ----- persistence, history and stats -----
    /// The action could not be saved, so it was not applied.
    SaveFailed,
    /// After a restart: the game in this channel goes on.
    GameResumed {
        /// The game.
        variant: Variant,
        /// Whose turn.
        to_move: Who,
        /// Seconds left for a human's turn (`None` for a computer player).
        seconds_left: Option<u64>,
    },
    /// After a restart: the lobby in this channel is open again.
    LobbyResumed(Variant),
    /// After a restart: this channel's game could not be restored and was set aside.
    NotRestored,
    /// Where a finished game's record is kept.
    GameSaved {
        /// The game's number.
        id: i64,
    },
    /// Stats and history need a database, and this bot runs without one.
    NoHistory,
    /// Reading stats or history failed.
    HistoryFailed,
    /// A player's totals on this server.
    Stats {
        /// The player.
        who: Who,
        /// Their totals.
        totals: Totals,
    },
    /// The best players of this server.
    Leaderboard(Vec<LeaderLine>),
    /// The latest finished games of this server.
    History(Vec<HistoryLine>),
    /// The record of a finished game is attached.
    GameRecord {
        /// The game's number.
        id: i64,
    },
    /// No finished game with this number on this server.
    NoSuchGame(i64),
    /// No finished game of this channel is stored.
    NoGameHere,
}

/// A player's totals on a server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Finished games.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Sequences completed (by their team).
    pub sequences: u32,
}

impl Totals {
    /// Wins per game in whole percent.
    pub fn win_percent(&self) -> u32 {
        if self.games == 0 {
            0
        } else {
            ((u64::from(self.wins) * 100 + u64::from(self.games) / 2) / u64::from(self.games))
                as u32
        }
    }
}

/// One line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderLine {
    /// The player.
    pub who: Who,
    /// Their totals.
    pub totals: Totals,
}

/// One finished game in the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryLine {
    /// The game's number.
    pub id: i64,
    /// The game (`None` if the stored name is unknown to this version).
    pub variant: Option<Variant>,
    /// When it ended, in unix seconds.
    pub finished_at: i64,
    /// The players in seat order.
    pub players: Vec<Who>,
    /// The winners (empty: drawn, stopped or abandoned).
    pub winners: Vec<Who>,
}

impl Text {
    /// Whether this text refuses a request.
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            Text::NoTable
                | Text::TableExists
                | Text::AlreadyStarted
                | Text::NotStarted
                | Text::AlreadyJoined
                | Text::LobbyFull { .. }
                | Text::NotInGame
                | Text::NotHost { .. }
                | Text::NotYourTurn { .. }
                | Text::Illegal(_)
                | Text::IllegalWithCells(..)
                | Text::BadCard { .. }
                | Text::BadCell { .. }
                | Text::CardNeeded
                | Text::CellNeeded
                | Text::BadOption
                | Text::GuildOnly
                | Text::NoCardsInDice
                | Text::NotDice
                | Text::RollFirst
                | Text::AlreadyRolled { .. }
                | Text::CannotStart(_)
                | Text::BadTeam { .. }
                | Text::BadTeamCount { .. }
                | Text::TeamFull { .. }
                | Text::NoBot
                | Text::Internal
                | Text::SaveFailed
                | Text::NoHistory
                | Text::HistoryFailed
                | Text::NoSuchGame(_)
                | Text::NoGameHere
        )
    }

    /// Whether this text only confirms an action (a button press needs no such confirmation).
    pub fn is_ack(&self) -> bool {
        matches!(
            self,
            Text::LobbyOpened
                | Text::Joined
                | Text::Left
                | Text::BotAdded(_)
                | Text::BotRemoved(_)
                | Text::CancelledAck
                | Text::BegunAck
                | Text::ForfeitAck
                | Text::StoppedAck
        )
    }
}

fn join_names<T: fmt::Display>(items: &[T]) -> String {
    let names: Vec<String> = items.iter().map(ToString::to_string).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn variant_title(variant: Variant) -> &'static str {
    match variant {
        Variant::Classic => "Sequence",
        Variant::Dice => "Sequence Dice",
        Variant::Kids => "Sequence for Kids",
    }
}

fn dice_text(dice: [u8; 2]) -> String {
    let [a, b] = dice;
    format!("{a} + {b} = {}", u16::from(a) + u16::from(b))
}

fn options_text(options: &Options) -> String {
    let mut parts = Vec::new();
    if let Some(n) = options.sequences_to_win {
        parts.push(format!("{n} sequences to win"));
    }
    if let Some(n) = options.sequence_length {
        parts.push(format!("lines of {n}"));
    }
    if options.equal_turns {
        parts.push("equal turns".to_string());
    }
    if options.scoring {
        parts.push("scoring".to_string());
    }
    if options.capture_pairs {
        parts.push("capture pairs".to_string());
    }
    parts.join(", ")
}

fn seat_line(f: &mut fmt::Formatter<'_>, index: usize, seat: &SeatLine) -> fmt::Result {
    write!(f, "\n{}. {}", index + 1, seat.who)?;
    if let Some(team) = seat.team {
        write!(f, " — {team}")?;
    }
    if let Some(cards) = seat.cards {
        write!(f, " — {cards} cards")?;
    }
    Ok(())
}

fn first_upper(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl fmt::Display for LobbyCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "**{}** — a new game, hosted by <@{}>.",
            variant_title(self.variant),
            self.host.0
        )?;
        let opts = options_text(&self.options);
        if let Some(teams) = self.teams {
            write!(f, " {teams} teams.")?;
        }
        if !opts.is_empty() {
            write!(f, " Options: {opts}.")?;
        }
        write!(f, "\nPlayers ({}/{}):", self.seats.len(), self.max_players)?;
        if self.seats.is_empty() {
            write!(f, "\n(nobody yet)")?;
        }
        for (i, seat) in self.seats.iter().enumerate() {
            seat_line(f, i, seat)?;
        }
        write!(
            f,
            "\nPress **Join** (or use `/sequence join`) to take a seat; the host presses **Start** when everyone is in."
        )
    }
}

impl fmt::Display for CardLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let card = self.card.pretty();
        let classic = !self.card.is_kids();
        match &self.use_ {
            CardUse::Cells(cells) => write!(f, "• {card} — {}", cells.join(", ")),
            CardUse::Wild if classic => write!(f, "• {card} — two-eyed jack: any free cell"),
            CardUse::Wild => write!(f, "• {card} — any free cell"),
            CardUse::Remove if classic => {
                write!(f, "• {card} — one-eyed jack: removes an opponent chip")
            }
            CardUse::Remove => write!(f, "• {card} — removes an opponent chip"),
            CardUse::Dead => write!(
                f,
                "• {card} — dead (both cells taken): swap it with `/sequence exchange`"
            ),
        }
    }
}

impl fmt::Display for RollHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollHint::Number(n) => write!(f, "place a chip on a {n} cell"),
            RollHint::Replace(n) => write!(
                f,
                "every {n} cell is covered, so replace an opponent chip on a {n} cell"
            ),
            RollHint::Remove => f.write_str("remove an opponent chip (not on a 2 or 12 cell)"),
            RollHint::Free => f.write_str("place a chip on any free cell"),
        }
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Text::NoTable => f.write_str(
                "There is no game in this channel. Start one with `/sequence start`.",
            ),
            Text::TableExists => f.write_str(
                "This channel already has a game or a lobby. Finish it (or the host can `/sequence stop` it) before starting another.",
            ),
            Text::AlreadyStarted => f.write_str(
                "The game has already started. You can watch, and join the next one.",
            ),
            Text::NotStarted => f.write_str(
                "The game has not started yet: the host starts it with the **Start** button or `/sequence begin`.",
            ),
            Text::AlreadyJoined => f.write_str("You have already joined this game."),
            Text::LobbyFull { max } => {
                write!(f, "This game is full: it takes at most {max} players.")
            }
            Text::NotInGame => f.write_str("You are not playing in this game."),
            Text::NotHost { host } => write!(
                f,
                "Only the host (<@{}>) or members who may manage messages can do that.",
                host.0
            ),
            Text::NotYourTurn { to_move } => {
                write!(f, "It is not your turn: it is {to_move}'s turn.")
            }
            Text::Illegal(e) => write!(f, "{}.", first_upper(&e.to_string())),
            Text::IllegalWithCells(e, cells) => {
                write!(f, "{}.", first_upper(&e.to_string()))?;
                if cells.is_empty() {
                    f.write_str(" That card has no free cell now.")
                } else {
                    write!(f, " That card can go on: {}.", cells.join(", "))
                }
            }
            Text::BadCard { typed, variant } => match variant {
                Variant::Kids => write!(
                    f,
                    "`{typed}` is not a card of this game. Name an animal (like `lion`), `unicorn` or `dragon`."
                ),
                _ => write!(
                    f,
                    "`{typed}` is not a card. Write a rank and a suit, like `7H`, `10S`, `QD` or `JC`."
                ),
            },
            Text::BadCell { typed, last } => write!(
                f,
                "`{typed}` is not a cell of this board. Write a column letter and a row number, from `A1` to `{last}`."
            ),
            Text::CardNeeded => f.write_str(
                "Name the card to play, for example `/sequence play card:7H cell:D6`.",
            ),
            Text::CellNeeded => f.write_str(
                "Name the cell, for example `/sequence play card:7H cell:D6` (or `/sequence play cell:C3` in Sequence Dice).",
            ),
            Text::BadOption => f.write_str(
                "I could not read one of the options. Please pick the values from the lists Discord offers.",
            ),
            Text::GuildOnly => f.write_str("Sequence is played in server channels, not in direct messages."),
            Text::NoCardsInDice => f.write_str(
                "Sequence Dice has no cards: roll with `/sequence roll`, then place with `/sequence play cell:`.",
            ),
            Text::NotDice => f.write_str("Only Sequence Dice uses dice."),
            Text::RollFirst => f.write_str("Roll the dice first with `/sequence roll`."),
            Text::AlreadyRolled { dice } => write!(
                f,
                "You have already rolled {}. Now place your chip with `/sequence play cell:`.",
                dice_text(*dice)
            ),
            Text::CannotStart(reason) => write!(f, "That does not work: {reason}."),
            Text::BadTeamCount { teams, variant } => write!(
                f,
                "{} cannot be played in {teams} teams. {}",
                variant_title(*variant),
                match variant {
                    Variant::Classic => "Leave `teams` empty, or choose 2 or 3.",
                    Variant::Dice => "Leave `teams` empty, or choose 2.",
                    Variant::Kids => "Leave `teams` empty, or choose 2 or 4.",
                }
            ),
            Text::BadTeam { team, max } => {
                write!(f, "There is no team {team}: choose a team from 1 to {max}.")
            }
            Text::TeamFull {
                team,
                size,
                chosen,
            } => write!(
                f,
                "{chosen} players chose {team}, but each team has {size} players. Someone should `/sequence leave` and join another team."
            ),
            Text::NoBot => f.write_str("There is no computer player to remove."),
            Text::Internal => {
                f.write_str("Sorry, something went wrong on my side. Please try again.")
            }
            Text::LobbyOpened => f.write_str(
                "Your game is open. Others can join now; press **Start** when everyone is in.",
            ),
            Text::Joined => f.write_str("You have joined the game."),
            Text::Left => f.write_str("You have left the game."),
            Text::BotAdded(name) => write!(f, "{name} has joined."),
            Text::BotRemoved(name) => write!(f, "{name} has left."),
            Text::CancelledAck => f.write_str("The lobby is closed."),
            Text::BegunAck => f.write_str("The game has started."),
            Text::ForfeitAck => f.write_str("You have given up this game."),
            Text::StoppedAck => f.write_str("The game is stopped."),
            Text::Lobby(card) => card.fmt(f),
            Text::LobbyStarted(variant) => write!(
                f,
                "**{}** — this game has started. Good luck!",
                variant_title(*variant)
            ),
            Text::LobbyCancelled { by } => {
                write!(f, "This lobby was closed by <@{}>.", by.0)
            }
            Text::LobbyExpired => {
                f.write_str("This lobby was closed because the game did not start in time.")
            }
            Text::LobbyAbandoned => f.write_str("This lobby was closed: everyone left."),
            Text::HostChanged(user) => write!(f, "<@{}> is the host now.", user.0),
            Text::RollOff { rounds, winner } => {
                f.write_str("🎲 Roll-off for the first turn:")?;
                for (i, round) in rounds.iter().enumerate() {
                    let rolls: Vec<String> = round
                        .iter()
                        .map(|(who, dice)| format!("{who} {}", dice_text(*dice)))
                        .collect();
                    if i == 0 {
                        write!(f, " {}.", rolls.join(", "))?;
                    } else {
                        write!(f, " Tie, roll again: {}.", rolls.join(", "))?;
                    }
                }
                write!(f, " {winner} starts.")
            }
            Text::GameStarted { variant, seats } => {
                write!(f, "**{}** begins! Seats in turn order:", variant_title(*variant))?;
                for (i, seat) in seats.iter().enumerate() {
                    seat_line(f, i, seat)?;
                }
                if variant.has_cards() {
                    f.write_str("\nYour cards come by direct message (or use `/sequence hand`).")?;
                }
                Ok(())
            }
            Text::Played { who, card, cell } => {
                write!(f, "{who} played {} on {cell}.", card.pretty())
            }
            Text::Removed {
                who,
                card,
                cell,
                victim,
            } => match card {
                Some(card) => write!(
                    f,
                    "{who} played {} and removed the chip of {victim} from {cell}.",
                    card.pretty()
                ),
                None => write!(f, "{who} removed the chip of {victim} from {cell}."),
            },
            Text::Placed {
                who,
                cell,
                replaced,
            } => match replaced {
                Some(team) => {
                    write!(f, "{who} placed a chip on {cell}, replacing the chip of {team}.")
                }
                None => write!(f, "{who} placed a chip on {cell}."),
            },
            Text::Exchanged { who, card } => write!(
                f,
                "{who} exchanged the dead card {} and drew a new one.",
                card.pretty()
            ),
            Text::Passed(who) => write!(f, "{who} has no possible move and passes."),
            Text::Captured {
                team,
                victim,
                cells,
            } => write!(
                f,
                "{} captured two chips of {victim} ({} and {}).",
                first_upper(&team.to_string()),
                cells[0],
                cells[1]
            ),
            Text::SequenceDone {
                team,
                count,
                target,
            } => write!(
                f,
                "🎉 {} completed a sequence! ({count} of {target})",
                first_upper(&team.to_string())
            ),
            Text::SequenceBroken(team) => {
                write!(f, "{} lost a sequence.", first_upper(&team.to_string()))
            }
            Text::Reshuffled => {
                f.write_str("The discard pile was shuffled into a new draw pile.")
            }
            Text::ProvisionalWin(team) => write!(
                f,
                "{} has reached the goal! The round is played to its end first.",
                first_upper(&team.to_string())
            ),
            Text::Rolled { who, dice, hint } => {
                write!(f, "🎲 {who} rolled {}: {hint}.", dice_text(*dice))
            }
            Text::Won { team, members } => write!(
                f,
                "🏆 {} wins: congratulations, {}!",
                first_upper(&team.to_string()),
                join_names(members)
            ),
            Text::Scores(scores) => {
                let parts: Vec<String> = scores
                    .iter()
                    .map(|(team, points)| format!("{team}: {points}"))
                    .collect();
                write!(f, "Points: {}.", parts.join(", "))
            }
            Text::Drawn => f.write_str("The game ends in a draw."),
            Text::WonByForfeit { team, members } => write!(
                f,
                "🏆 {} wins, as everyone else gave up: congratulations, {}!",
                first_upper(&team.to_string()),
                join_names(members)
            ),
            Text::Stopped(who) => write!(f, "The game was stopped by {who}."),
            Text::NoHumansLeft => f.write_str("No human player is left, so the game ends."),
            Text::Forfeited { who, bot } => write!(
                f,
                "{who} gave up. The computer player **{bot}** takes their seat."
            ),
            Text::Turn {
                who: who @ Who::Bot(_),
                ..
            } => write!(f, "{who} is thinking…"),
            Text::Turn { who, dice, again } => match (dice, again) {
                (true, true) => write!(
                    f,
                    "{who}, that was a double: roll again with `/sequence roll`."
                ),
                (true, false) => write!(f, "{who}, it is your turn: `/sequence roll`."),
                (false, _) => write!(
                    f,
                    "{who}, it is your turn: `/sequence play card: cell:`."
                ),
            },
            Text::Reminder { who, seconds_left } => write!(
                f,
                "⏰ {who}, it is still your turn. In about {} the computer plays for you.",
                duration_text(*seconds_left)
            ),
            Text::TimedOut(who) => write!(
                f,
                "⏰ {who} ran out of time, so the computer played this turn."
            ),
            Text::DmFailed(who) => write!(
                f,
                "{who}, I could not send you a direct message. Use `/sequence hand` to see your cards privately."
            ),
            Text::RecordAttached => f.write_str("The game record is attached."),
            Text::BoardCaption { variant, to_move } => write!(
                f,
                "**{}**: {to_move} is to move.",
                variant_title(*variant)
            ),
            Text::Hand {
                channel,
                cards,
                your_turn,
            } => {
                write!(f, "Your cards in <#{}>:", channel.0)?;
                for card in cards {
                    write!(f, "\n{card}")?;
                }
                if *your_turn {
                    f.write_str("\nIt is your turn: `/sequence play card: cell:`.")?;
                }
                Ok(())
            }
            Text::Status(info) => {
                write!(f, "**{}** — seats in turn order:", variant_title(info.variant))?;
                for (i, seat) in info.seats.iter().enumerate() {
                    seat_line(f, i, seat)?;
                }
                write!(f, "\nTo move: {}", info.to_move)?;
                if let Some(dice) = info.roll {
                    write!(f, " (rolled {})", dice_text(dice))?;
                }
                write!(
                    f,
                    ", about {} left for this turn.",
                    duration_text(info.seconds_left)
                )?;
                let seqs: Vec<String> = info
                    .sequences
                    .iter()
                    .map(|(team, n)| format!("{team}: {n}"))
                    .collect();
                write!(
                    f,
                    "\nSequences ({} to win): {}.",
                    info.target,
                    seqs.join(", ")
                )?;
                if let Some(n) = info.draw_pile {
                    write!(f, "\nCards left to draw: {n}.")?;
                }
                Ok(())
            }
            Text::LobbyStatus(card) => card.fmt(f),
            Text::Rules(variant) => f.write_str(rules_text(*variant)),
            Text::SaveFailed => f.write_str(
                "Sorry, I could not save that, so nothing happened. Please try again in a moment.",
            ),
            Text::GameResumed {
                variant,
                to_move,
                seconds_left,
            } => {
                write!(
                    f,
                    "🔄 I was restarted: the **{}** game in this channel goes on where it was. It is {to_move}'s turn",
                    variant_title(*variant)
                )?;
                match seconds_left {
                    Some(s) => write!(f, " (about {} left).", duration_text(*s)),
                    None => f.write_str("."),
                }
            }
            Text::LobbyResumed(variant) => write!(
                f,
                "🔄 I was restarted: the **{}** lobby in this channel is still open.",
                variant_title(*variant)
            ),
            Text::NotRestored => f.write_str(
                "⚠️ I was restarted, but the game in this channel could not be restored: its saved state is damaged. It was set aside for the bot's operator. Please start a new game with `/sequence start`.",
            ),
            Text::GameSaved { id } => write!(
                f,
                "Saved as game #{id}: `/sequence record game:{id}` downloads its record again."
            ),
            Text::NoHistory => f.write_str(
                "Stats and game history are not available: this bot runs without a database.",
            ),
            Text::HistoryFailed => f.write_str(
                "Sorry, I could not read the game history just now. Please try again in a moment.",
            ),
            Text::Stats { who, totals } if totals.games == 0 => {
                write!(f, "{who} has not finished a game on this server yet.")
            }
            Text::Stats { who, totals } => write!(
                f,
                "📊 {who} on this server: {} {}, {} {} ({}%), {} {}.",
                totals.games,
                plural(totals.games, "game", "games"),
                totals.wins,
                plural(totals.wins, "win", "wins"),
                totals.win_percent(),
                totals.sequences,
                plural(totals.sequences, "sequence", "sequences"),
            ),
            Text::Leaderboard(lines) if lines.is_empty() => f.write_str(
                "No finished games on this server yet: the leaderboard fills up as games end.",
            ),
            Text::Leaderboard(lines) => {
                f.write_str("🏆 **Leaderboard** of this server:")?;
                for (i, line) in lines.iter().enumerate() {
                    let t = &line.totals;
                    write!(
                        f,
                        "\n{}. {} — {} {} in {} {} ({}%), {} {}",
                        i + 1,
                        line.who,
                        t.wins,
                        plural(t.wins, "win", "wins"),
                        t.games,
                        plural(t.games, "game", "games"),
                        t.win_percent(),
                        t.sequences,
                        plural(t.sequences, "sequence", "sequences"),
                    )?;
                }
                Ok(())
            }
            Text::History(lines) if lines.is_empty() => {
                f.write_str("No finished games on this server yet.")
            }
            Text::History(lines) => {
                f.write_str("📜 **Latest games** of this server:")?;
                for line in lines {
                    write!(
                        f,
                        "\n#{} · {} · <t:{}:R> · {}",
                        line.id,
                        line.variant.map_or("Sequence", variant_title),
                        line.finished_at,
                        join_names(&line.players)
                    )?;
                    if line.winners.is_empty() {
                        f.write_str(" — no winner")?;
                    } else {
                        write!(f, " — won by {}", join_names(&line.winners))?;
                    }
                }
                f.write_str("\n`/sequence record game:` downloads a game's record.")
            }
            Text::GameRecord { id } => write!(f, "The record of game #{id} is attached."),
            Text::NoSuchGame(id) => write!(
                f,
                "There is no finished game #{id} on this server. `/sequence history` lists the latest games."
            ),
            Text::NoGameHere => f.write_str(
                "No finished game of this channel is stored yet. `/sequence history` lists this server's latest games with their numbers.",
            ),
        }
    }
}

/// The label of a button.
pub fn button_label(button: Button) -> &'static str {
    match button {
        Button::Join => "Join",
        Button::Leave => "Leave",
        Button::AddBot => "Add computer",
        Button::Begin => "Start",
        Button::Cancel => "Cancel",
        Button::Roll => "Roll the dice",
        Button::Hand => "Show my cards",
    }
}

fn plural(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn duration_text(seconds: u64) -> String {
    if seconds >= 120 {
        format!("{} minutes", seconds / 60)
    } else if seconds >= 60 {
        "1 minute".to_string()
    } else {
        format!("{seconds} seconds")
    }
}

fn rules_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Classic => concat!(
            "**Sequence** — 2 to 12 players (2, 3, 4, 6, 8, 9, 10 or 12; more than 3 play in 2 or 3 teams).\n",
            "• On your turn play a card and put a chip on one of its two free cells on the board: `/sequence play card:7H cell:D6`.\n",
            "• Two-eyed jacks (J♣ J♦) go on any free cell. One-eyed jacks (J♠ J♥) remove an opponent chip that is not part of a finished sequence.\n",
            "• A card whose two cells are both covered is dead: swap it with `/sequence exchange` (once per turn), then play.\n",
            "• Five in a row (row, column or diagonal) is a sequence; the free corners count for everyone. Two sequences of a team may share one cell.\n",
            "• With two teams you need 2 sequences, with three teams 1.\n",
            "• You draw a new card automatically. Your cards come by direct message, or with `/sequence hand`."
        ),
        Variant::Dice => concat!(
            "**Sequence Dice** — 2 to 4 players (4 play as two teams).\n",
            "• On your turn `/sequence roll`, then put a chip on a free cell showing the sum: `/sequence play cell:C3`.\n",
            "• If all cells of that number are covered, replace an opponent chip on one of them.\n",
            "• 10: remove an opponent chip (`/sequence remove cell:`), but not from a 2 or 12 cell. 11: any free cell.\n",
            "• After 1+1 or 6+6 you roll again.\n",
            "• Five of your chips in a row (row, column or diagonal) win."
        ),
        Variant::Kids => concat!(
            "**Sequence for Kids** — 2 to 4 players.\n",
            "• You hold 3 animal cards. Play one and put a chip on a free cell with that animal: `/sequence play card:lion cell:B1`.\n",
            "• The unicorn goes on any free cell; the dragon removes an opponent chip.\n",
            "• A card whose two cells are covered is dead: swap it with `/sequence exchange`, then play.\n",
            "• Four in a row (row, column or diagonal) wins; the corners count for everyone."
        ),
    }
}
