//! Every user-facing sentence of the bot, in one place. A [`Text`] is a message with its arguments;
//! [`Text::render`] renders it in a language through the Fluent files of [`crate::i18n`], and `Display`
//! gives the English text (for logs and tests).

use std::fmt;

use crate::analysis::agreement::share_percent;
use crate::engine::{
    zone_corners, Card, Cell, Config, Layout, Options, PlayError, SetupError, Variant,
};
use crate::i18n::{join_list, tr, tr_args, Args, Lang, Tr};

use super::names::chat_name;
use super::{Button, ChannelId, Permission, UserId};

/// A moment as a Discord timestamp in relative style (`<t:1700000000:R>`): every client shows it
/// as "in 5 minutes" in its own language and counts it down by itself.
pub fn discord_timestamp(unix_seconds: u64) -> String {
    format!("<t:{unix_seconds}:R>")
}

/// A player as named in a message: a user (shown as a mention) or a computer player (its name, as
/// text: see [`chat_name`]).
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
            Who::Bot(name) => write!(f, "**{}**", chat_name(name)),
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

impl TeamName {
    /// The chip colour as a colour emoji (the same in every language), shown before a player's
    /// name so nobody has to open an image to learn their colour.
    pub fn emoji(self) -> &'static str {
        match self.color {
            "blue" => "🔵",
            "green" => "🟢",
            "red" => "🔴",
            "yellow" => "🟡",
            _ => "⚪",
        }
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
    /// Both its cells are covered, and the player has exchanged a card this turn already: it can
    /// be exchanged on a later turn.
    DeadExchanged,
}

/// The move of a hint, as the player would make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintMove {
    /// Play a card on a cell.
    Play {
        /// The card.
        card: Card,
        /// The cell.
        cell: String,
    },
    /// Exchange a dead card.
    Exchange(Card),
    /// Dice: place a chip on a cell.
    Place(String),
    /// Dice: remove the chip on a cell.
    Remove(String),
    /// Nothing else is legal.
    Pass,
}

/// Why the hint's move (see [`crate::analysis::Reason`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintWhy {
    /// It completes a sequence.
    Completes,
    /// It takes a chip out of an opponent's line one chip short of a sequence.
    Breaks {
        /// Whose line.
        team: TeamName,
        /// Chips in that line.
        chips: u8,
        /// The cell.
        cell: String,
    },
    /// It takes the last free cell of an opponent's line one chip short of a sequence.
    Blocks {
        /// Whose line.
        team: TeamName,
        /// Chips in that line.
        chips: u8,
        /// The cell.
        cell: String,
    },
    /// It makes a line one chip short of a sequence.
    Makes {
        /// Chips in the line.
        chips: u8,
        /// Its first cell.
        from: String,
        /// Its last cell.
        to: String,
    },
    /// It puts a chip in the King of the Board zone.
    Zone {
        /// The cell.
        cell: String,
    },
    /// It keeps a two-eyed jack (or unicorn) for later.
    KeepsWild(Card),
    /// A dead card: exchange it first.
    DeadCard,
    /// It did best over the deals the search tried.
    Best,
    /// Nothing else is legal.
    Pass,
}

/// One human's agreement with the computer in a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgreementLine {
    /// The player.
    pub who: Who,
    /// Moves on which `hard` chose the same.
    pub matched: u32,
    /// Moves compared.
    pub counted: u32,
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
    /// The player's chip colour in a running game (shown as an emoji before the name, also when
    /// every player is a team of their own); `None` in a lobby.
    pub colour: Option<TeamName>,
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
    /// Players of the last game invited to a rematch who have not joined yet (their team if kept).
    pub invited: Vec<SeatLine>,
    /// The settings that will apply (`None`: not shown, as in the status of a running game).
    pub rules: Option<LobbyRules>,
    /// Whether the game would count for ratings if it started now (`None`: not shown).
    pub rating: Option<RatingNote>,
}

/// Whether a game counts for ratings, as the lobby, the start and the end of a game say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatingNote {
    /// It counts.
    Rated,
    /// It does not (the host's choice, or a game without humans on two teams).
    Casual,
    /// A lobby with one human so far: it counts once a person joins on another team.
    NeedsOpponent,
    /// It does not: some of its players already played this many rated games against each other
    /// in the last 24 hours.
    CasualLimit {
        /// The daily limit.
        limit: u32,
    },
    /// It ended by giving up or a stop before every player had made two moves: it counts for
    /// nothing.
    Aborted,
    /// Stopped by someone who is not playing: no result (`gave_up`: those who gave up before keep
    /// their loss).
    ModeratorStop {
        /// Whether a player who gave up keeps a rated loss.
        gave_up: bool,
    },
}

/// The settings a lobby's game will be played with, as the lobby shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LobbyRules {
    /// Sequences needed to win with the lobby's teams (two teams, in classic without a choice).
    pub sequences: u8,
    /// Classic without a team count or a target: sequences needed with three teams.
    pub sequences_three_teams: Option<u8>,
    /// Whether a game is won on points, not sequences (house rule).
    pub scoring: bool,
    /// King of the Board: the points that win.
    pub king_of_the_board: Option<u8>,
    /// Seconds before a player to move is reminded (`None`: no reminder, a blitz clock).
    pub reminder_secs: Option<u64>,
    /// Seconds before the turn times out.
    pub timeout_secs: u64,
    /// Whether a player whose turn times out gives up at once.
    pub timeout_gives_up: bool,
    /// Timed-out turns in a row after which a computer takes the seat (0: never).
    pub replace_after: u8,
    /// The level of computer players added without one, and of those playing timed-out turns.
    pub bot_level: super::BotLevel,
    /// A series: best of how many games.
    pub series: Option<u8>,
}

/// A King of the Board zone as messages name it: by its centre and its corner cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZoneInfo {
    /// The centre.
    pub centre: Cell,
}

impl ZoneInfo {
    /// The zone around `centre` on the classic board.
    pub fn of(centre: Cell) -> ZoneInfo {
        ZoneInfo { centre }
    }

    /// The names of the centre, the top-left and the bottom-right cell (`F6`, `E5`, `G7`).
    pub fn names(&self) -> [String; 3] {
        let layout = Layout::standard(Variant::Classic);
        let (first, last) = zone_corners(self.centre);
        [self.centre, first, last].map(|c| layout.cell_name(c))
    }

    fn args(&self) -> Args<'static> {
        let [centre, first, last] = self.names();
        Args::new()
            .text("centre", centre)
            .text("first", first)
            .text("last", last)
    }
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
    /// King of the Board: the zone.
    pub zone: Option<ZoneInfo>,
    /// King of the Board: points per team (the target is `target`).
    pub points: Option<Box<[(TeamName, u8)]>>,
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
    /// Every cell of this number holds the player's own chip: the turn is lost.
    Blocked(u8),
    /// 10, but no opponent chip stands outside the 2 and 12 cells: the turn passes.
    NothingToRemove,
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
    /// The game cannot start or the lobby cannot open as asked (the game, and the engine's reason).
    CannotStart(Variant, SetupError),
    /// A number of teams this game never has.
    BadTeamCount {
        /// Asked for.
        teams: u8,
        /// The game.
        variant: Variant,
    },
    /// A lobby's turn time out of range (seconds).
    BadTurnTime {
        /// Asked for.
        secs: u32,
        /// Shortest allowed.
        min: u32,
        /// Longest allowed.
        max: u32,
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
    /// Every human left the lobby.
    LobbyAbandoned {
        /// Whether computer players were still seated (they do not play on their own).
        computers: bool,
    },
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
    /// King of the Board: a new sequence scored.
    ZoneScored {
        /// The team.
        team: TeamName,
        /// Whether it touches the zone (2 points, else 1).
        in_zone: bool,
        /// The team's points now.
        total: u8,
        /// Points that win.
        target: u8,
    },
    /// King of the Board: the zone moved.
    ZoneMoved(ZoneInfo),
    /// King of the Board: where the zone is, under the turn line.
    Zone(ZoneInfo),
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
    /// The final summary: a sequence, who completed it and on which move.
    SummarySequence {
        /// Whose sequence.
        team: TeamName,
        /// Who completed it.
        who: Who,
        /// The move (counting moves that placed or removed a chip).
        move_number: u32,
        /// King of the Board: the points it scored; `None` in other games.
        points: Option<u8>,
        /// King of the Board: whether it touched the zone (the zone doubled its points).
        in_zone: bool,
    },
    /// The final summary: a chip removed from a line one chip short of a sequence.
    SummaryBroken {
        /// Who removed it.
        who: Who,
        /// Whose line.
        team: TeamName,
        /// Chips that line had (4 in classic).
        chips: u8,
        /// The cell.
        cell: String,
        /// The move.
        move_number: u32,
    },
    /// A hint, privately: the move the `hard` computer player would make now, and why.
    Hint {
        /// The move.
        mv: HintMove,
        /// Why.
        why: HintWhy,
    },
    /// Hints are only for casual games.
    HintsOnlyCasual,
    /// The final message (and the status): how many hints were asked for, and by whom.
    HintsUsed {
        /// Hints asked for.
        count: u32,
        /// The players who asked, each once.
        by: Vec<Who>,
    },
    /// The animated replay of a finished game is attached.
    GameReplay {
        /// The game's number.
        id: i64,
    },
    /// The follow-up of a finished game: each human's agreement with the `hard` computer player.
    Agreement {
        /// The kept game's number.
        game: i64,
        /// One line per human.
        lines: Vec<AgreementLine>,
    },
    /// The final summary: the game's length in moves and, when known, minutes.
    SummaryLength {
        /// Moves that placed or removed a chip.
        moves: u32,
        /// Whole minutes from the start to the last move (`None`: not known).
        minutes: Option<u64>,
    },
    /// Everyone else gave up.
    WonByForfeit {
        /// The team.
        team: TeamName,
        /// Its players.
        members: Vec<Who>,
    },
    /// The game was stopped.
    Stopped(Who),
    /// A player stopped the game: that counts as giving up.
    StopIsGivingUp(Who),
    /// Several teams share the win, as the others gave up.
    SharedWin(Vec<TeamName>),
    /// Whether the game counts for ratings.
    Rating(RatingNote),
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
        /// Dice: the roll (2 or 12) after which the same player rolls again.
        again: Option<u8>,
        /// A human's turn: when it runs out, in Unix seconds (shown as a Discord timestamp, which
        /// every client counts down in its own language).
        deadline: Option<u64>,
    },
    /// A reminder.
    Reminder {
        /// The player.
        who: Who,
        /// Seconds until the computer plays for them.
        seconds_left: u64,
        /// Whether running out of time means giving up (this server's setting, or one timeout
        /// too many in a row).
        gives_up: bool,
        /// Whether giving up would end the game (nobody left on the player's side) instead of a
        /// computer taking the seat.
        ends_game: bool,
    },
    /// The turn timed out; the computer played it.
    TimedOut(Who),
    /// A player's turn timed out `count` times in a row: a computer takes the seat for good.
    ReplacedAfterTimeouts {
        /// The player.
        who: Who,
        /// The computer player taking over.
        bot: String,
        /// Timed-out turns in a row.
        count: u8,
    },
    /// A player gave up, and that ended the game (no computer takes a seat in an ended game).
    GaveUp(Who),
    /// A player ran out of time once too often (or once, where running out of time gives up), and
    /// that ended the game: nobody is left to play on for their side.
    OutOfTimeLost {
        /// The player.
        who: Who,
        /// Timed-out turns in a row.
        count: u8,
        /// Whether their side is out (else the game ends as no human is left).
        side_loses: bool,
    },
    /// In the turn prompt of a player who ran out of time on their last turns: the next timeout
    /// decides (a computer takes the seat, or their side loses).
    TimeoutWarning {
        /// The player.
        who: Who,
        /// Timed-out turns in a row so far.
        count: u8,
        /// Whether the next timeout ends the game (nobody left on their side).
        ends_game: bool,
    },
    /// Asked before giving up a running game (with the Confirm and Keep playing buttons).
    ConfirmLeave {
        /// Whether giving up ends the game (nobody left on the player's side) instead of a computer
        /// taking the seat.
        ends_game: bool,
    },
    /// The player chose to keep playing.
    KeptPlaying,
    /// `/sequence remove` in a card game: a chip is removed with a card.
    RemoveWithCard(Variant),
    /// The card named is not in the player's hand: the cards that are (private).
    NotInHand(Vec<Card>),
    /// Dice: the cell does not fit the roll; the cells that do.
    RollDoesNotMatch {
        /// The sum of the dice.
        total: u8,
        /// The cells the roll allows (empty: too many to list, or none).
        cells: Vec<String>,
    },
    /// A team wished for has as many players as a team of this game can have.
    TeamNoRoom {
        /// The team.
        team: TeamName,
        /// Most players per team.
        size: u8,
    },
    /// Only a player of the last game may ask for its rematch.
    RematchNotPlayer,
    /// No rematch is known for this channel (or it ended too long ago).
    RematchExpired,
    /// A Rematch button of an older game: the channel has played another game since.
    RematchSuperseded,
    /// A confirmation to give up, pressed after the game it asked about is over.
    LeaveExpired,
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
    /// After a restart: the game in this channel ended just before it, and its end was never posted
    /// (followed by the result, the final board and the record).
    EndedWhileRestarting,
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
        /// Their rating, if they played a rated game.
        rating: Option<RatingInfo>,
        /// Their agreement with the `hard` computer player over their latest rated games, if any
        /// was measured.
        agreement: Option<crate::store::AgreementTotals>,
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
    /// The user already has as many open tables as allowed.
    TooManyTables {
        /// The limit.
        max: u32,
    },
    /// The server already has as many open tables as allowed.
    ServerFull {
        /// The limit.
        max: u32,
    },
    /// The table already has as many computer players as allowed.
    TooManyBots {
        /// The limit.
        max: u8,
    },
    /// The bot is posting at its limit in this server: try again shortly.
    Busy,
    /// The host gave up: only the players still in the game (or moderators) may manage it.
    HostGaveUp,
    /// A private confirmation that a request was carried out (its result is posted in the channel).
    Done,

    // ----- channel permissions -----
    /// A game cannot start here: the bot lacks these permissions to post the board.
    CannotPostHere {
        /// What is missing.
        missing: Vec<Permission>,
        /// Whether the channel is a thread (or forum post).
        thread: bool,
    },
    /// The game is paused: the bot could not post in the channel.
    GamePaused {
        /// What is missing, if known.
        missing: Vec<Permission>,
        /// Whether the channel is a thread (or forum post).
        thread: bool,
    },
    /// The bot may post again: the paused game goes on.
    PostingRestored,
    /// Only members with Manage Server may see or change the server's settings.
    SettingsNotAllowed,
    /// This server's settings.
    ServerSettings(SettingsInfo),
    /// The server's settings were changed; now they are these.
    SettingsChanged(SettingsInfo),
    /// A setting out of its range.
    BadSetting {
        /// Which.
        name: SettingName,
        /// The smallest value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
    },
    /// The turn reminder must come before the turn timeout.
    ReminderNotBeforeTimeout {
        /// The reminder it would be, in seconds.
        reminder_secs: u64,
        /// The timeout it would be, in seconds.
        timeout_secs: u64,
    },

    // ----- the card picker -----
    /// The turn prompt's button that opens the picker.
    PickerPlayButton,
    /// Dice: the turn prompt's button that rolls and opens the picker.
    PickerRollButton,
    /// The picker's button back to the previous step.
    PickerBackButton,
    /// The picker's button that privately shows the move `hard` would make now (where hints are
    /// allowed).
    PickerHintButton,
    /// The button of [`Text::ConfirmHint`]: the hint, and the game becomes unrated.
    PickerHintUnratedButton,
    /// Asked privately before a hint in a rated game (where the server allows it).
    ConfirmHint,
    /// After a confirmed hint: the game no longer counts for ratings.
    HintMadeUnrated,
    /// In the channel, when a confirmed hint made a rated game casual: who used it.
    HintMadeCasual(Who),
    /// A dead card's button: exchange it.
    PickerExchange(Card),
    /// A card with nothing to do this turn (a label, and the refusal when it is chosen anyway).
    PickerUnplayable(Card),
    /// A row of the board in the picker's menu, with how many cells it offers.
    PickerRow {
        /// 1-based row.
        row: u8,
        /// Which part of a long row (0: the first or only).
        part: u8,
        /// Cells offered in it.
        cells: u8,
    },
    /// The placeholder of the menu of rows.
    PickerRowPlaceholder,
    /// A cell with an opponent chip: what the button does to it.
    PickerCell {
        /// The cell's name.
        cell: String,
        /// Whose chip it is.
        team: TeamName,
        /// Whether it is removed (else replaced).
        removing: bool,
    },
    /// The picker's first step: choose a card.
    PickCard,
    /// The picker: choose a row first (a card with many cells, or a dice roll).
    PickRow {
        /// The card (dice: none).
        card: Option<Card>,
        /// Whether the cells are chips to take away.
        removing: bool,
    },
    /// The picker: choose the cell.
    PickCell {
        /// The card (dice: none).
        card: Option<Card>,
        /// Whether the cells are chips to take away.
        removing: bool,
    },
    /// What the picker shows once the move was made.
    PickerDone,
    /// A button of a turn (or a game) that is over.
    PickerExpired {
        /// Whether the game is Sequence Dice (its prompt's button is Roll the dice, not Play).
        dice: bool,
    },
    /// Someone pressed the picker of another player.
    NotYourPicker {
        /// Whose turn it is.
        to_move: Who,
    },
    /// The picker named a card that is not in the presser's hand.
    PickerNotYourCard(Card),
    /// A button or menu id this bot does not know.
    BadButton,
    /// The asker has made the bot post their share of the server's posting budget: wait a little.
    SlowDown,
    /// A **Yes, give up** whose question was answered already (Keep playing) or forgotten (a restart).
    LeaveAnswered,
    /// The Yes of a question (stop, abandon the series, a hint that makes the game casual) that was
    /// answered already (Keep playing, or its Yes) or forgotten (a restart).
    QuestionAnswered,
    /// The level menu of **Add computer**; `added` names the computer player just added.
    BotMenu {
        /// The computer player the last press added.
        added: Option<String>,
    },
    /// The **⋯** menu of a running game.
    GameMenu,
    /// A button made for an earlier game or lobby of this channel.
    ButtonExpired,
    /// A player in the lobby moved to a team (an acknowledgement).
    TeamChanged(TeamName),
    /// A player asked for the team they are on already.
    AlreadyOnTeam(TeamName),
    /// Asks to confirm stopping the game; `gives_up`: the asker plays in it.
    ConfirmStop {
        /// Stopping counts as giving up for the asker's team.
        gives_up: bool,
    },
    /// A series of this length is not offered (best of 3, 5 or 7).
    BadSeries {
        /// Asked for.
        best_of: u8,
    },
    /// The score of a series after a game: each side's players and games won.
    SeriesScore {
        /// Best of how many.
        best_of: u8,
        /// Games played so far.
        played: u8,
        /// Each side and its wins.
        sides: Vec<(Vec<Who>, u8)>,
    },
    /// The start of a game of a series (and the status while it runs): which game, and the score
    /// so far.
    SeriesGame {
        /// Which game (1-based).
        number: u8,
        /// Best of how many.
        best_of: u8,
        /// Each side and its wins.
        sides: Vec<(Vec<Who>, u8)>,
    },
    /// A side won the series.
    SeriesWon {
        /// Best of how many.
        best_of: u8,
        /// The winning side's players.
        winners: Vec<Who>,
    },
    /// The series ended without a winner (stopped, or no side can reach a majority).
    SeriesNoWinner,
    /// After a game of a series that goes on: how to start the next one.
    SeriesNext,
    /// A lobby command between two games of a series.
    SeriesBreak,
    /// Someone who does not play in the series pressed its Next game or Abandon.
    NotInSeries,
    /// Asks a player to confirm abandoning the series.
    ConfirmAbandonSeries,
    /// A player abandoned the series.
    SeriesAbandoned {
        /// Who.
        by: Who,
    },
    /// Nobody started the next game of a series within the lobby timeout.
    SeriesExpired,
    /// A player's series on this server (under their stats).
    SeriesStats {
        /// Series played to their end.
        played: u32,
        /// Series won.
        won: u32,
    },
    /// The asker's last hint is still being searched: one at a time.
    HintBusy,
    /// The asker spent their share of the server's budget (a hint costs as much as a few posts).
    HintSpent,
    /// The asker already has this many replays waiting to be drawn.
    ReplaysWaiting {
        /// The most one member may have waiting.
        max: u32,
    },
    /// The server already has this many replays waiting to be drawn.
    ReplaysBusy {
        /// The most one server may have waiting.
        max: u32,
    },
}

/// A server setting that is a number of seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingName {
    /// The turn reminder.
    TurnReminder,
    /// The turn timeout.
    TurnTimeout,
    /// The lobby timeout.
    LobbyTimeout,
    /// A computer player's thinking time (in milliseconds).
    ThinkingTime,
    /// Timed-out turns in a row before a computer takes the seat (a count).
    TimeoutsBeforeReplaced,
}

impl SettingName {
    /// The option's name, as typed in the command.
    pub const fn option(self) -> &'static str {
        match self {
            SettingName::TurnReminder => "turn_reminder",
            SettingName::TurnTimeout => "turn_timeout",
            SettingName::LobbyTimeout => "lobby_timeout",
            SettingName::ThinkingTime => "thinking_time",
            SettingName::TimeoutsBeforeReplaced => "timeouts_before_replaced",
        }
    }

    /// The unit of its values: `s` or `ms`.
    pub const fn unit(self) -> &'static str {
        match self {
            SettingName::ThinkingTime => "ms",
            SettingName::TimeoutsBeforeReplaced => "",
            _ => "s",
        }
    }
}

/// A server's settings as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsInfo {
    /// The default game.
    pub variant: Variant,
    /// The default computer level.
    pub bot_level: crate::service::BotLevel,
    /// The turn reminder, in seconds.
    pub turn_reminder_secs: u64,
    /// The turn timeout, in seconds.
    pub turn_timeout_secs: u64,
    /// The lobby timeout, in seconds.
    pub lobby_timeout_secs: u64,
    /// A computer player's thinking time per move, in milliseconds (`None`: the bot's own).
    pub thinking_ms: Option<u64>,
    /// Whether a player whose turn times out gives up (else a computer plays that turn).
    pub timeout_gives_up: bool,
    /// Timed-out turns in a row after which a computer takes the seat (0: never).
    pub replace_after: u8,
    /// Whether games are rated by default (`None`: if humans play on at least two teams).
    pub rated: Option<bool>,
    /// The language of channel posts (`None`: the server's preferred locale).
    pub language: Option<Lang>,
    /// Whether hints may be asked in rated games (after a confirmation; else casual games only).
    pub hints: bool,
    /// Whether the animated replay is posted after every finished game.
    pub replay_gif: bool,
}

/// The lines of a server's settings.
fn settings_text(tr: &mut Tr, info: &SettingsInfo) -> String {
    let lang = tr.lang();
    let secs = |tr: &mut Tr, s: u64| {
        let n = u32::try_from(s).map_or(f64::from(u32::MAX), f64::from);
        tr.ta("duration", &Args::new().number("seconds", n))
    };
    let rated = match info.rated {
        Some(true) => "always",
        Some(false) => "never",
        None => "default",
    };
    let language = match info.language {
        Some(Lang::En) => "English",
        Some(Lang::De) => "Deutsch",
        Some(Lang::No) => "Norsk",
        None => "",
    };
    let args = Args::new()
        .text("game", game_name(info.variant, lang))
        .text("level", tr.t(&format!("level-{}", info.bot_level)))
        .text("reminder", secs(tr, info.turn_reminder_secs))
        .text("timeout", secs(tr, info.turn_timeout_secs))
        .text("lobby", secs(tr, info.lobby_timeout_secs))
        .text(
            "thinking",
            info.thinking_ms
                .map_or_else(|| "none".to_string(), |ms| ms.to_string()),
        )
        .text(
            "on_timeout",
            if info.timeout_gives_up {
                "give_up"
            } else {
                "computer"
            },
        )
        .number("replaced", info.replace_after)
        .text("rated", rated)
        .text("language", language)
        .text("hints", if info.hints { "on" } else { "off" })
        .text("replay_gif", if info.replay_gif { "on" } else { "off" });
    tr.ta("settings-list", &args)
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
    /// Their rating (the leaderboard's order).
    pub rating: RatingInfo,
}

/// A player's rating as shown: numbers in tenths, so texts compare exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RatingInfo {
    /// The conservative rating (`mu - 3 sigma`), in tenths.
    pub conservative: i64,
    /// Rated games played.
    pub games: u32,
    /// Whether there are too few rated games for the rating to mean much.
    pub provisional: bool,
    /// The changes of the conservative rating in the latest rated games, newest first, in tenths.
    pub changes: Vec<i64>,
}

impl RatingInfo {
    /// A stored rating and its latest changes, rounded to tenths.
    pub fn of(rating: &crate::store::PlayerRating, changes: &[f64]) -> RatingInfo {
        let tenths = |x: f64| {
            let t = (x * 10.0).round();
            if t.is_finite() {
                t.clamp(-1e12, 1e12) as i64
            } else {
                0
            }
        };
        RatingInfo {
            conservative: tenths(rating.conservative()),
            games: rating.games,
            provisional: rating.is_provisional(),
            changes: changes.iter().map(|&c| tenths(c)).collect(),
        }
    }
}

/// Tenths as a decimal number in `lang` (`12.3`, `-0.5`; `+` before a positive change if `signed`).
fn tenths_text(tenths: i64, lang: Lang, signed: bool) -> String {
    let sign = if tenths < 0 {
        "−"
    } else if signed && tenths > 0 {
        "+"
    } else {
        ""
    };
    let point = match lang {
        Lang::En => ".",
        _ => ",",
    };
    let abs = tenths.unsigned_abs();
    format!("{sign}{}{point}{}", abs / 10, abs % 10)
}

/// The rating part of `stats` and of a leaderboard line.
fn rating_text(tr: &mut Tr, rating: &RatingInfo) -> String {
    let lang = tr.lang();
    let args = Args::new()
        .text("rating", tenths_text(rating.conservative, lang, false))
        .number("games", rating.games)
        .text("provisional", if rating.provisional { "yes" } else { "no" });
    let mut text = tr.ta("rating-line", &args);
    if !rating.changes.is_empty() {
        let changes = rating
            .changes
            .iter()
            .map(|&c| tenths_text(c, lang, true))
            .collect::<Vec<_>>()
            .join(", ");
        text.push_str(&tr.ta(
            "rating-changes",
            &Args::new().text("changes", changes).number(
                "count",
                u32::try_from(rating.changes.len()).unwrap_or(u32::MAX),
            ),
        ));
    }
    text
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
    /// Whether the game was aborted (it counts for nothing).
    pub aborted: bool,
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
                | Text::CannotStart(..)
                | Text::BadTeam { .. }
                | Text::BadTeamCount { .. }
                | Text::BadTurnTime { .. }
                | Text::BadSeries { .. }
                | Text::SeriesBreak
                | Text::NotInSeries
                | Text::TeamFull { .. }
                | Text::NoBot
                | Text::Internal
                | Text::SaveFailed
                | Text::NoHistory
                | Text::HistoryFailed
                | Text::NoSuchGame(_)
                | Text::NoGameHere
                | Text::HintsOnlyCasual
                | Text::TooManyTables { .. }
                | Text::ServerFull { .. }
                | Text::TooManyBots { .. }
                | Text::Busy
                | Text::HostGaveUp
                | Text::CannotPostHere { .. }
                | Text::GamePaused { .. }
                | Text::SettingsNotAllowed
                | Text::BadSetting { .. }
                | Text::ReminderNotBeforeTimeout { .. }
                | Text::RemoveWithCard(_)
                | Text::NotInHand(_)
                | Text::RollDoesNotMatch { .. }
                | Text::TeamNoRoom { .. }
                | Text::RematchNotPlayer
                | Text::RematchExpired
                | Text::RematchSuperseded
                | Text::LeaveExpired
                | Text::PickerUnplayable(_)
                | Text::PickerExpired { .. }
                | Text::NotYourPicker { .. }
                | Text::PickerNotYourCard(_)
                | Text::BadButton
                | Text::SlowDown
                | Text::HintBusy
                | Text::HintSpent
                | Text::ReplaysWaiting { .. }
                | Text::ReplaysBusy { .. }
                | Text::LeaveAnswered
                | Text::QuestionAnswered
                | Text::ButtonExpired
                | Text::AlreadyOnTeam(_)
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
                | Text::TeamChanged(_)
                | Text::BotRemoved(_)
                | Text::CancelledAck
                | Text::BegunAck
                | Text::ForfeitAck
                | Text::StoppedAck
                | Text::Done
        )
    }
}

/// A one-line English rendering for logs and tests; users get [`Text::render`] in their language.
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

impl Text {
    /// The text in `lang` (a missing translation falls back to English and is logged).
    pub fn render(&self, lang: Lang) -> String {
        let mut tr = Tr::new(lang);
        let text = self.render_with(&mut tr);
        tr.finish();
        text
    }

    /// The text through a translator, which collects any problem (for tests).
    pub fn render_with(&self, tr: &mut Tr) -> String {
        first_upper(&self.body(tr))
    }

    fn body(&self, tr: &mut Tr) -> String {
        match self {
            Text::NoTable => tr.t("no-table"),
            Text::TableExists => tr.t("table-exists"),
            Text::AlreadyStarted => tr.t("already-started"),
            Text::NotStarted => tr.t("not-started"),
            Text::AlreadyJoined => tr.t("already-joined"),
            Text::LobbyFull { max } => tr.ta("lobby-full", &Args::new().number("max", *max)),
            Text::NotInGame => tr.t("not-in-game"),
            Text::NotHost { host } => tr.ta("not-host", &Args::new().text("host", mention(*host))),
            Text::NotYourTurn { to_move } => tr.ta(
                "not-your-turn",
                &Args::new().text("player", to_move.to_string()),
            ),
            Text::Illegal(e) => play_error(tr, *e),
            Text::IllegalWithCells(e, cells) => {
                let reason = play_error(tr, *e);
                let cells = if cells.is_empty() {
                    tr.t("illegal-no-cells")
                } else {
                    tr.ta(
                        "illegal-cells",
                        &Args::new().text("cells", cells.join(", ")),
                    )
                };
                format!("{reason} {cells}")
            }
            Text::BadCard { typed, variant } => {
                let key = match variant {
                    Variant::Kids => "bad-card-kids",
                    Variant::Classic | Variant::Dice => "bad-card-classic",
                };
                tr.ta(key, &Args::new().text("typed", typed.as_str()))
            }
            Text::BadCell { typed, last } => tr.ta(
                "bad-cell",
                &Args::new()
                    .text("typed", typed.as_str())
                    .text("last", last.as_str()),
            ),
            Text::CardNeeded => tr.t("card-needed"),
            Text::CellNeeded => tr.t("cell-needed"),
            Text::BadOption => tr.t("bad-option"),
            Text::GuildOnly => tr.t("guild-only"),
            Text::NoCardsInDice => tr.t("no-cards-in-dice"),
            Text::NotDice => tr.t("not-dice"),
            Text::RollFirst => tr.t("roll-first"),
            Text::AlreadyRolled { dice } => tr.ta(
                "already-rolled",
                &Args::new().text("dice", dice_text(*dice)),
            ),
            Text::CannotStart(variant, e) => setup_error(tr, *variant, e),
            Text::BadTeamCount { teams, variant } => {
                let game = game_title(tr, *variant);
                tr.ta(
                    "bad-team-count",
                    &Args::new()
                        .text("game", game)
                        .number("teams", *teams)
                        .text("variant", variant.to_string()),
                )
            }
            Text::BadTurnTime { secs, min, max } => tr.ta(
                "bad-turn-time",
                &Args::new()
                    .number("secs", *secs)
                    .number("min", *min)
                    .number("max", *max),
            ),
            Text::BadTeam { team, max } => tr.ta(
                "bad-team",
                &Args::new().number("team", *team).number("max", *max),
            ),
            Text::TeamFull { team, size, chosen } => {
                let team = team_name(tr, *team);
                tr.ta(
                    "team-full",
                    &Args::new()
                        .number("chosen", *chosen)
                        .text("team", team)
                        .number("size", *size),
                )
            }
            Text::NoBot => tr.t("no-bot"),
            Text::Internal => tr.t("internal"),
            Text::LobbyOpened => tr.t("lobby-opened"),
            Text::Joined => tr.t("joined"),
            Text::Left => tr.t("left"),
            Text::BotAdded(name) => tr.ta("bot-added", &Args::new().text("name", chat_name(name))),
            Text::BotRemoved(name) => {
                tr.ta("bot-removed", &Args::new().text("name", chat_name(name)))
            }
            Text::CancelledAck => tr.t("cancelled-ack"),
            Text::BegunAck => tr.t("begun-ack"),
            Text::ForfeitAck => tr.t("forfeit-ack"),
            Text::StoppedAck => tr.t("stopped-ack"),
            Text::Lobby(card) | Text::LobbyStatus(card) => lobby_card(tr, card),
            Text::LobbyStarted(variant) => {
                let game = game_title(tr, *variant);
                tr.ta("lobby-started", &Args::new().text("game", game))
            }
            Text::LobbyCancelled { by } => {
                tr.ta("lobby-cancelled", &Args::new().text("player", mention(*by)))
            }
            Text::LobbyExpired => tr.t("lobby-expired"),
            Text::LobbyAbandoned { computers } => tr.t(if *computers {
                "lobby-abandoned-computers"
            } else {
                "lobby-abandoned"
            }),
            Text::HostChanged(user) => {
                tr.ta("host-changed", &Args::new().text("player", mention(*user)))
            }
            Text::RollOff { rounds, winner } => {
                let mut parts = Vec::new();
                for (i, round) in rounds.iter().enumerate() {
                    let rolls: Vec<String> = round
                        .iter()
                        .map(|(who, dice)| format!("{who} {}", dice_text(*dice)))
                        .collect();
                    let key = if i == 0 { "roll-off" } else { "roll-off-again" };
                    parts.push(tr.ta(key, &Args::new().text("rolls", rolls.join(", "))));
                }
                parts.push(tr.ta(
                    "roll-off-winner",
                    &Args::new().text("player", winner.to_string()),
                ));
                parts.join(" ")
            }
            Text::GameStarted { variant, seats } => {
                let game = game_title(tr, *variant);
                let mut text = tr.ta("game-started", &Args::new().text("game", game));
                for (i, seat) in seats.iter().enumerate() {
                    text.push_str(&seat_line(tr, i, seat));
                }
                if variant.has_cards() {
                    text.push('\n');
                    text.push_str(&tr.t("game-started-cards"));
                }
                text
            }
            Text::Played { who, card, cell } => {
                let card = card_name(tr, *card);
                tr.ta(
                    "played",
                    &Args::new()
                        .text("player", who.to_string())
                        .text("card", card)
                        .text("cell", cell.as_str()),
                )
            }
            Text::Removed {
                who,
                card,
                cell,
                victim,
            } => {
                let victim = team_name(tr, *victim);
                let args = Args::new()
                    .text("player", who.to_string())
                    .text("victim", victim)
                    .text("cell", cell.as_str());
                match card {
                    Some(card) => {
                        let card = card_name(tr, *card);
                        tr.ta("removed-with-card", &args.text("card", card))
                    }
                    None => tr.ta("removed", &args),
                }
            }
            Text::Placed {
                who,
                cell,
                replaced,
            } => {
                let args = Args::new()
                    .text("player", who.to_string())
                    .text("cell", cell.as_str());
                match replaced {
                    Some(team) => {
                        let victim = team_name(tr, *team);
                        tr.ta("placed-replacing", &args.text("victim", victim))
                    }
                    None => tr.ta("placed", &args),
                }
            }
            Text::Exchanged { who, card } => {
                let card = card_name(tr, *card);
                tr.ta(
                    "exchanged",
                    &Args::new()
                        .text("player", who.to_string())
                        .text("card", card),
                )
            }
            Text::Passed(who) => tr.ta("passed", &Args::new().text("player", who.to_string())),
            Text::Captured {
                team,
                victim,
                cells,
            } => {
                let team = team_name(tr, *team);
                let victim = team_name(tr, *victim);
                let [first, second] = cells;
                tr.ta(
                    "captured",
                    &Args::new()
                        .text("team", team)
                        .text("victim", victim)
                        .text("first", first.as_str())
                        .text("second", second.as_str()),
                )
            }
            Text::SequenceDone {
                team,
                count,
                target,
            } => {
                let team = team_name(tr, *team);
                tr.ta(
                    "sequence-done",
                    &Args::new()
                        .text("team", team)
                        .number("count", count_number(*count))
                        .number("target", *target),
                )
            }
            Text::SequenceBroken(team) => {
                let team = team_name(tr, *team);
                tr.ta("sequence-broken", &Args::new().text("team", team))
            }
            Text::ZoneScored {
                team,
                in_zone,
                total,
                target,
            } => {
                let team = team_name(tr, *team);
                // A move that scores past the target: "4 points, 3 needed", never "4 of 3".
                let points = tr.ta(
                    if total > target {
                        "zone-points-past"
                    } else {
                        "zone-points"
                    },
                    &Args::new()
                        .number("total", *total)
                        .number("target", *target),
                );
                tr.ta(
                    if *in_zone {
                        "zone-scored"
                    } else {
                        "zone-scored-outside"
                    },
                    &Args::new().text("team", team).text("points", points),
                )
            }
            Text::ZoneMoved(zone) => tr.ta("zone-moved", &zone.args()),
            Text::Zone(zone) => tr.ta("zone-line", &zone.args()),
            Text::Reshuffled => tr.t("reshuffled"),
            Text::ProvisionalWin(team) => {
                let team = team_name(tr, *team);
                tr.ta("provisional-win", &Args::new().text("team", team))
            }
            Text::Rolled { who, dice, hint } => {
                let hint = roll_hint(tr, *hint);
                tr.ta(
                    "rolled",
                    &Args::new()
                        .text("player", who.to_string())
                        .text("dice", dice_text(*dice))
                        .text("hint", hint),
                )
            }
            Text::Won { team, members } | Text::WonByForfeit { team, members } => {
                let key = if matches!(self, Text::Won { .. }) {
                    "won"
                } else {
                    "won-by-forfeit"
                };
                let team = team_name(tr, *team);
                let names: Vec<String> = members.iter().map(ToString::to_string).collect();
                let players = join_list(tr, &names);
                tr.ta(
                    key,
                    &Args::new().text("team", team).text("players", players),
                )
            }
            Text::Scores(scores) => {
                let parts: Vec<String> = scores
                    .iter()
                    .map(|(team, points)| format!("{}: {points}", team_name(tr, *team)))
                    .collect();
                tr.ta("scores", &Args::new().text("scores", parts.join(", ")))
            }
            Text::Drawn => tr.t("drawn"),
            Text::SummarySequence {
                team,
                who,
                move_number,
                points,
                in_zone,
            } => {
                let team = team_name(tr, *team);
                let args = Args::new()
                    .text("team", team)
                    .text("player", who.to_string())
                    .number("move", *move_number);
                match points {
                    None => tr.ta("summary-sequence", &args),
                    Some(points) => {
                        let key = if *in_zone {
                            "summary-sequence-zone"
                        } else {
                            "summary-sequence-points"
                        };
                        tr.ta(key, &args.number("points", u32::from(*points)))
                    }
                }
            }
            Text::SummaryBroken {
                who,
                team,
                chips,
                cell,
                move_number,
            } => {
                let team = team_name(tr, *team);
                tr.ta(
                    "summary-broken",
                    &Args::new()
                        .text("player", who.to_string())
                        .text("team", team)
                        .number("chips", *chips)
                        .text("cell", cell.as_str())
                        .number("move", *move_number),
                )
            }
            Text::Hint { mv, why } => {
                let mv = match mv {
                    HintMove::Play { card, cell } => {
                        let card = card_name(tr, *card);
                        tr.ta(
                            "hint-play",
                            &Args::new().text("card", card).text("cell", cell.as_str()),
                        )
                    }
                    HintMove::Exchange(card) => {
                        let card = card_name(tr, *card);
                        tr.ta("hint-exchange", &Args::new().text("card", card))
                    }
                    HintMove::Place(cell) => {
                        tr.ta("hint-place", &Args::new().text("cell", cell.as_str()))
                    }
                    HintMove::Remove(cell) => {
                        tr.ta("hint-remove", &Args::new().text("cell", cell.as_str()))
                    }
                    HintMove::Pass => tr.t("hint-pass"),
                };
                let why = match why {
                    HintWhy::Completes => tr.t("why-completes"),
                    HintWhy::Breaks { team, chips, cell }
                    | HintWhy::Blocks { team, chips, cell } => {
                        let key = if matches!(why, HintWhy::Breaks { .. }) {
                            "why-breaks"
                        } else {
                            "why-blocks"
                        };
                        let team = team_name(tr, *team);
                        tr.ta(
                            key,
                            &Args::new()
                                .text("team", team)
                                .number("chips", *chips)
                                .text("cell", cell.as_str()),
                        )
                    }
                    HintWhy::Makes { chips, from, to } => tr.ta(
                        "why-makes",
                        &Args::new()
                            .number("chips", *chips)
                            .text("from", from.as_str())
                            .text("to", to.as_str()),
                    ),
                    HintWhy::Zone { cell } => {
                        tr.ta("why-zone", &Args::new().text("cell", cell.as_str()))
                    }
                    HintWhy::KeepsWild(card) => {
                        let card = card_name(tr, *card);
                        tr.ta("why-keeps-wild", &Args::new().text("card", card))
                    }
                    HintWhy::DeadCard => tr.t("why-dead"),
                    HintWhy::Best => tr.t("why-best"),
                    HintWhy::Pass => tr.t("why-pass"),
                };
                tr.ta("hint", &Args::new().text("move", mv).text("why", why))
            }
            Text::HintsOnlyCasual => tr.t("hints-only-casual"),
            Text::HintsUsed { count, by } => {
                let names: Vec<String> = by.iter().map(ToString::to_string).collect();
                let players = join_list(tr, &names);
                tr.ta(
                    "hints-used",
                    &Args::new().number("count", *count).text("players", players),
                )
            }
            Text::HintMadeCasual(who) => tr.ta(
                "hint-made-casual",
                &Args::new().text("player", who.to_string()),
            ),
            Text::GameReplay { id } => tr.ta(
                "game-replay",
                &Args::new().number("id", u32::try_from(*id).unwrap_or(u32::MAX)),
            ),
            Text::Agreement { game, lines } => {
                let mut out = vec![tr.ta(
                    "agreement-title",
                    &Args::new().number("game", u32::try_from(*game).unwrap_or(u32::MAX)),
                )];
                for line in lines {
                    let player = line.who.to_string();
                    out.push(match share_percent(line.matched, line.counted) {
                        None => tr.ta("agreement-none", &Args::new().text("player", player)),
                        Some(percent) => tr.ta(
                            "agreement-line",
                            &Args::new()
                                .text("player", player)
                                .number("percent", percent)
                                .number("matched", line.matched)
                                .number("counted", line.counted),
                        ),
                    });
                }
                out.push(tr.t("agreement-note"));
                out.join("\n")
            }
            Text::SummaryLength { moves, minutes } => match minutes {
                Some(minutes) => tr.ta(
                    "summary-length-minutes",
                    &Args::new()
                        .number("moves", *moves)
                        .number("minutes", u32::try_from(*minutes).unwrap_or(u32::MAX)),
                ),
                None => tr.ta("summary-length", &Args::new().number("moves", *moves)),
            },
            Text::Stopped(who) => tr.ta("stopped", &Args::new().text("player", who.to_string())),
            Text::NoHumansLeft => tr.t("no-humans-left"),
            Text::StopIsGivingUp(who) => tr.ta(
                "stop-is-giving-up",
                &Args::new().text("player", who.to_string()),
            ),
            Text::SharedWin(teams) => {
                let teams: Vec<String> = teams.iter().map(|t| team_name(tr, *t)).collect();
                let teams = join_list(tr, &teams);
                tr.ta("shared-win", &Args::new().text("teams", teams))
            }
            Text::Rating(note) => rating_note(tr, *note),
            Text::Forfeited { who, bot } => tr.ta(
                "forfeited",
                &Args::new()
                    .text("player", who.to_string())
                    .text("bot", chat_name(bot)),
            ),
            Text::Turn {
                who,
                dice,
                again,
                deadline,
            } => {
                let key = match (who, dice, again) {
                    (Who::Bot(_), _, _) => "turn-bot",
                    (_, true, Some(_)) => "turn-dice-again",
                    (_, true, None) => "turn-dice",
                    (_, false, _) => "turn-cards",
                };
                let mut line = tr.ta(
                    key,
                    &Args::new()
                        .text("player", who.to_string())
                        .number("sum", again.unwrap_or(0)),
                );
                if let (Who::User(_), Some(at)) = (who, deadline) {
                    line.push(' ');
                    line += &tr.ta(
                        "turn-deadline",
                        &Args::new().text("deadline", discord_timestamp(*at)),
                    );
                }
                line
            }
            Text::Reminder {
                who,
                seconds_left,
                gives_up,
                ends_game,
            } => {
                let time = duration_text(tr, *seconds_left);
                tr.ta(
                    match (gives_up, ends_game) {
                        (false, _) => "reminder",
                        (true, false) => "reminder-give-up",
                        (true, true) => "reminder-give-up-ends",
                    },
                    &Args::new()
                        .text("player", who.to_string())
                        .text("time", time),
                )
            }
            Text::TimedOut(who) => tr.ta("timed-out", &Args::new().text("player", who.to_string())),
            Text::ReplacedAfterTimeouts { who, bot, count } => tr.ta(
                "replaced-after-timeouts",
                &Args::new()
                    .text("player", who.to_string())
                    .text("bot", chat_name(bot))
                    .number("count", *count),
            ),
            Text::GaveUp(who) => tr.ta("gave-up", &Args::new().text("player", who.to_string())),
            Text::OutOfTimeLost {
                who,
                count,
                side_loses,
            } => tr.ta(
                if *side_loses {
                    "out-of-time-lost"
                } else {
                    "out-of-time-ends"
                },
                &Args::new()
                    .text("player", who.to_string())
                    .number("count", *count),
            ),
            Text::TimeoutWarning {
                who,
                count,
                ends_game,
            } => tr.ta(
                if *ends_game {
                    "timeout-warning-ends"
                } else {
                    "timeout-warning"
                },
                &Args::new()
                    .text("player", who.to_string())
                    .number("count", *count),
            ),
            Text::ConfirmLeave { ends_game } => tr.t(if *ends_game {
                "confirm-leave-ends"
            } else {
                "confirm-leave"
            }),
            Text::KeptPlaying => tr.t("kept-playing"),
            Text::RemoveWithCard(variant) => {
                let key = match variant {
                    Variant::Kids => "remove-with-dragon",
                    Variant::Classic | Variant::Dice => "remove-with-jack",
                };
                tr.t(key)
            }
            Text::NotInHand(cards) => {
                let names: Vec<String> = cards.iter().map(|&c| card_name(tr, c)).collect();
                tr.ta("not-in-hand", &Args::new().text("cards", names.join(", ")))
            }
            Text::RollDoesNotMatch { total, cells } => {
                let reason = tr.ta("roll-does-not-match", &Args::new().number("total", *total));
                if cells.is_empty() {
                    reason
                } else {
                    let cells = tr.ta("roll-cells", &Args::new().text("cells", cells.join(", ")));
                    format!("{reason} {cells}")
                }
            }
            Text::TeamNoRoom { team, size } => {
                let team = team_name(tr, *team);
                tr.ta(
                    "team-no-room",
                    &Args::new().text("team", team).number("size", *size),
                )
            }
            Text::RematchNotPlayer => tr.t("rematch-not-player"),
            Text::RematchExpired => tr.t("rematch-expired"),
            Text::RematchSuperseded => tr.t("rematch-superseded"),
            Text::LeaveExpired => tr.t("leave-expired"),
            Text::DmFailed(who) => tr.ta("dm-failed", &Args::new().text("player", who.to_string())),
            Text::RecordAttached => tr.t("record-attached"),
            Text::BoardCaption { variant, to_move } => {
                let game = game_title(tr, *variant);
                tr.ta(
                    "board-caption",
                    &Args::new()
                        .text("game", game)
                        .text("player", to_move.to_string()),
                )
            }
            Text::Hand {
                channel,
                cards,
                your_turn,
            } => {
                let mut text = tr.ta(
                    "hand-header",
                    &Args::new().text("channel", format!("<#{}>", channel.0)),
                );
                for card in cards {
                    text.push_str("\n• ");
                    text.push_str(&card.render_with(tr));
                }
                if *your_turn {
                    text.push('\n');
                    text.push_str(&tr.ta(
                        "hand-your-turn",
                        &Args::new().text("channel", format!("<#{}>", channel.0)),
                    ));
                }
                text
            }
            Text::Status(info) => status(tr, info),
            Text::SaveFailed => tr.t("save-failed"),
            Text::GameResumed {
                variant,
                to_move,
                seconds_left,
            } => {
                let game = game_title(tr, *variant);
                let args = Args::new()
                    .text("game", game)
                    .text("player", to_move.to_string());
                match seconds_left {
                    Some(seconds) => {
                        let time = duration_text(tr, *seconds);
                        tr.ta("game-resumed-timed", &args.text("time", time))
                    }
                    None => tr.ta("game-resumed", &args),
                }
            }
            Text::LobbyResumed(variant) => {
                let game = game_title(tr, *variant);
                tr.ta("lobby-resumed", &Args::new().text("game", game))
            }
            Text::NotRestored => tr.t("not-restored"),
            Text::EndedWhileRestarting => tr.t("ended-while-restarting"),
            Text::GameSaved { id } => tr.ta("game-saved", &Args::new().text("id", id.to_string())),
            Text::NoHistory => tr.t("no-history"),
            Text::HistoryFailed => tr.t("history-failed"),
            Text::Stats { who, totals, .. } if totals.games == 0 => {
                tr.ta("stats-none", &Args::new().text("player", who.to_string()))
            }
            Text::Stats {
                who,
                totals,
                rating,
                agreement,
            } => {
                let mut text = tr.ta(
                    "stats",
                    &totals_args(totals).text("player", who.to_string()),
                );
                let rating = match rating {
                    Some(rating) => rating_text(tr, rating),
                    None => tr.t("rating-none"),
                };
                text.push('\n');
                text.push_str(&rating);
                if let Some((a, percent)) = agreement
                    .as_ref()
                    .and_then(|a| Some((a, share_percent(a.matched, a.counted)?)))
                {
                    text.push('\n');
                    text.push_str(
                        &tr.ta(
                            "stats-agreement",
                            &Args::new()
                                .number("percent", percent)
                                .number("counted", a.counted)
                                .number("games", a.games),
                        ),
                    );
                }
                text
            }
            Text::Leaderboard(lines) if lines.is_empty() => tr.t("leaderboard-empty"),
            Text::Leaderboard(lines) => {
                let mut text = tr.t("leaderboard-header");
                for (i, line) in lines.iter().enumerate() {
                    let rating = rating_text(tr, &line.rating);
                    let totals = tr.ta("leaderboard-line", &totals_args(&line.totals));
                    text.push_str(&format!("\n{}. {} — {rating} · {totals}", i + 1, line.who));
                }
                text
            }
            Text::History(lines) if lines.is_empty() => tr.t("history-empty"),
            Text::History(lines) => {
                let mut text = tr.t("history-header");
                for line in lines {
                    let game = match line.variant {
                        Some(variant) => game_title(tr, variant),
                        None => tr.t("game-classic"),
                    };
                    let players: Vec<String> =
                        line.players.iter().map(ToString::to_string).collect();
                    let players = join_list(tr, &players);
                    let result = if line.aborted {
                        tr.t("history-aborted")
                    } else if line.winners.is_empty() {
                        tr.t("history-no-winner")
                    } else {
                        let winners: Vec<String> =
                            line.winners.iter().map(ToString::to_string).collect();
                        let winners = join_list(tr, &winners);
                        tr.ta("history-won-by", &Args::new().text("players", winners))
                    };
                    text.push_str(&format!(
                        "\n#{} · {game} · <t:{}:R> · {players} — {result}",
                        line.id, line.finished_at
                    ));
                }
                text.push('\n');
                text.push_str(&tr.t("history-footer"));
                text
            }
            Text::GameRecord { id } => {
                tr.ta("game-record", &Args::new().text("id", id.to_string()))
            }
            Text::NoSuchGame(id) => tr.ta("no-such-game", &Args::new().text("id", id.to_string())),
            Text::NoGameHere => tr.t("no-game-here"),
            Text::TooManyTables { max } => {
                tr.ta("too-many-tables", &Args::new().number("max", *max))
            }
            Text::ServerFull { max } => tr.ta("server-full", &Args::new().number("max", *max)),
            Text::TooManyBots { max } => tr.ta("too-many-bots", &Args::new().number("max", *max)),
            Text::Busy => tr.t("busy"),
            Text::HintBusy => tr.t("hint-busy"),
            Text::HintSpent => tr.t("hint-spent"),
            Text::ReplaysWaiting { max } => {
                tr.ta("replays-waiting", &Args::new().number("max", *max))
            }
            Text::ReplaysBusy { max } => tr.ta("replays-busy", &Args::new().number("max", *max)),
            Text::HostGaveUp => tr.t("host-gave-up"),
            Text::Done => tr.t("done"),
            Text::CannotPostHere { missing, thread } => {
                permissions_text(tr, "cannot-post-here", missing, *thread)
            }
            Text::GamePaused { missing, thread } if missing.is_empty() => {
                let mut text = tr.t("game-paused-unknown");
                text.push(' ');
                text.push_str(&how_to_grant(tr, *thread));
                text
            }
            Text::GamePaused { missing, thread } => {
                permissions_text(tr, "game-paused", missing, *thread)
            }
            Text::PostingRestored => tr.t("posting-restored"),
            Text::SettingsNotAllowed => tr.t("settings-not-allowed"),
            Text::ServerSettings(info) => {
                let list = settings_text(tr, info);
                format!("{}\n{list}", tr.t("settings-header"))
            }
            Text::SettingsChanged(info) => {
                let list = settings_text(tr, info);
                format!("{}\n{list}", tr.t("settings-changed"))
            }
            Text::BadSetting { name, min, max } => {
                let number = |n: u64| u32::try_from(n).map_or(f64::from(u32::MAX), f64::from);
                let key = if name.unit().is_empty() {
                    "settings-bad-range-count"
                } else {
                    "settings-bad-range"
                };
                tr.ta(
                    key,
                    &Args::new()
                        .text("option", name.option())
                        .text("unit", name.unit())
                        .number("min", number(*min))
                        .number("max", number(*max)),
                )
            }
            Text::ReminderNotBeforeTimeout {
                reminder_secs,
                timeout_secs,
            } => {
                let number = |n: u64| u32::try_from(n).map_or(f64::from(u32::MAX), f64::from);
                tr.ta(
                    "settings-reminder-after-timeout",
                    &Args::new()
                        .number("reminder", number(*reminder_secs))
                        .number("timeout", number(*timeout_secs)),
                )
            }
            Text::Rules(variant) => tr.t(match variant {
                Variant::Classic => "rules-classic",
                Variant::Dice => "rules-dice",
                Variant::Kids => "rules-kids",
            }),
            Text::PickerPlayButton => tr.t("picker-play"),
            Text::PickerRollButton => tr.t("button-roll"),
            Text::PickerBackButton => tr.t("picker-back"),
            Text::PickerHintButton => tr.t("picker-hint"),
            Text::PickerHintUnratedButton => tr.t("picker-hint-unrated"),
            Text::ConfirmHint => tr.t("confirm-hint"),
            Text::HintMadeUnrated => tr.t("hint-made-unrated"),
            Text::PickerExchange(card) => {
                let card = card_name(tr, *card);
                tr.ta("picker-exchange", &Args::new().text("card", card))
            }
            Text::PickerUnplayable(card) => {
                let card = card_name(tr, *card);
                tr.ta("picker-unplayable", &Args::new().text("card", card))
            }
            Text::PickerRow { row, part, cells } => {
                let args = Args::new()
                    .number("row", *row)
                    .number("part", part.saturating_add(1))
                    .number("cells", *cells);
                tr.ta(
                    if *part == 0 {
                        "picker-row"
                    } else {
                        "picker-row-part"
                    },
                    &args,
                )
            }
            Text::PickerRowPlaceholder => tr.t("picker-row-placeholder"),
            Text::PickerCell {
                cell,
                team,
                removing,
            } => {
                let team = team_name(tr, *team);
                tr.ta(
                    if *removing {
                        "complete-remove"
                    } else {
                        "complete-replace"
                    },
                    &Args::new().text("cell", cell.as_str()).text("team", team),
                )
            }
            Text::PickCard => tr.t("pick-card"),
            Text::PickRow { card, removing } | Text::PickCell { card, removing } => {
                let row = matches!(self, Text::PickRow { .. });
                let key = match (row, card.is_some(), *removing) {
                    (true, true, false) => "pick-row-card",
                    (true, true, true) => "pick-row-card-remove",
                    (true, false, false) => "pick-row-dice",
                    (true, false, true) => "pick-row-dice-remove",
                    (false, true, false) => "pick-cell-card",
                    (false, true, true) => "pick-cell-card-remove",
                    (false, false, false) => "pick-cell-dice",
                    (false, false, true) => "pick-cell-dice-remove",
                };
                let card = card.map(|c| card_name(tr, c)).unwrap_or_default();
                tr.ta(key, &Args::new().text("card", card))
            }
            Text::PickerDone => tr.t("done"),
            Text::PickerExpired { dice } => tr.t(if *dice {
                "picker-expired-dice"
            } else {
                "picker-expired"
            }),
            Text::NotYourPicker { to_move } => tr.ta(
                "picker-not-yours",
                &Args::new().text("player", to_move.to_string()),
            ),
            Text::PickerNotYourCard(card) => {
                let card = card_name(tr, *card);
                tr.ta("picker-not-your-card", &Args::new().text("card", card))
            }
            Text::BadButton => tr.t("bad-button"),
            Text::SlowDown => tr.t("slow-down"),
            Text::LeaveAnswered => tr.t("leave-answered"),
            Text::QuestionAnswered => tr.t("question-answered"),
            Text::BotMenu { added: None } => tr.t("bot-menu"),
            Text::BotMenu { added: Some(name) } => {
                tr.ta("bot-menu-added", &Args::new().text("name", chat_name(name)))
            }
            Text::GameMenu => tr.t("game-menu"),
            Text::ConfirmStop { gives_up: true } => tr.t("confirm-stop-player"),
            Text::ConfirmStop { gives_up: false } => tr.t("confirm-stop"),
            Text::BadSeries { best_of } => {
                tr.ta("bad-series", &Args::new().number("count", *best_of))
            }
            Text::SeriesScore {
                best_of,
                played,
                sides,
            } => {
                let score = series_score(tr, sides);
                tr.ta(
                    "series-score",
                    &Args::new()
                        .number("count", *best_of)
                        .number("played", *played)
                        .text("score", score),
                )
            }
            Text::SeriesGame {
                number,
                best_of,
                sides,
            } => {
                let score = series_score(tr, sides);
                tr.ta(
                    "series-game",
                    &Args::new()
                        .number("number", *number)
                        .number("count", *best_of)
                        .text("score", score),
                )
            }
            Text::SeriesWon { best_of, winners } => {
                let names: Vec<String> = winners.iter().map(ToString::to_string).collect();
                let players = join_list(tr, &names);
                tr.ta(
                    "series-won",
                    &Args::new()
                        .number("count", *best_of)
                        .text("players", players),
                )
            }
            Text::SeriesNoWinner => tr.t("series-no-winner"),
            Text::SeriesNext => tr.t("series-next"),
            Text::SeriesBreak => tr.t("series-break"),
            Text::NotInSeries => tr.t("not-in-series"),
            Text::ConfirmAbandonSeries => tr.t("confirm-abandon-series"),
            Text::SeriesAbandoned { by } => tr.ta(
                "series-abandoned",
                &Args::new().text("player", by.to_string()),
            ),
            Text::SeriesExpired => tr.t("series-expired"),
            Text::SeriesStats { played, won } => tr.ta(
                "series-stats",
                &Args::new().number("played", *played).number("won", *won),
            ),
            Text::ButtonExpired => tr.t("button-expired"),
            Text::TeamChanged(team) => {
                let team = team_name(tr, *team);
                tr.ta("team-changed", &Args::new().text("team", team))
            }
            Text::AlreadyOnTeam(team) => {
                let team = team_name(tr, *team);
                tr.ta("already-on-team", &Args::new().text("team", team))
            }
        }
    }
}

impl CardLine {
    /// The line in `lang`, without the bullet (also an autocomplete label).
    pub fn render(&self, lang: Lang) -> String {
        let mut tr = Tr::new(lang);
        let text = self.render_with(&mut tr);
        tr.finish();
        text
    }

    fn render_with(&self, tr: &mut Tr) -> String {
        let card = card_name(tr, self.card);
        let classic = !self.card.is_kids();
        let key = match &self.use_ {
            CardUse::Cells(cells) => {
                return tr.ta(
                    "card-cells",
                    &Args::new()
                        .text("card", card)
                        .text("cells", cells.join(", ")),
                )
            }
            CardUse::Wild if classic => "card-two-eyed-jack",
            CardUse::Wild => "card-wild",
            CardUse::Remove if classic => "card-one-eyed-jack",
            CardUse::Remove => "card-remove",
            CardUse::Dead => "card-dead",
            CardUse::DeadExchanged => "card-dead-exchanged",
        };
        tr.ta(key, &Args::new().text("card", card))
    }
}

impl TeamName {
    /// The team's name in `lang`, like `team 1 (blue)`.
    pub fn render(&self, lang: Lang) -> String {
        let mut tr = Tr::new(lang);
        let text = team_name(&mut tr, *self);
        tr.finish();
        text
    }
}

impl fmt::Display for TeamName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

/// The label of a button in `lang`.
pub fn button_label(button: Button, lang: Lang) -> String {
    let key = match button {
        Button::Join => "button-join",
        Button::Leave => "button-leave",
        Button::AddBot => "button-addbot",
        Button::Begin => "button-begin",
        Button::Cancel => "button-cancel",
        Button::Roll => "button-roll",
        Button::Hand => "button-hand",
        Button::Rematch(_) => "button-rematch",
        Button::ConfirmLeave(_) => "button-leave-confirm",
        Button::KeepPlaying => "button-leave-keep",
        Button::AddBotLevel(_, level) => {
            return tr(lang, &format!("button-level-{level}"));
        }
        Button::RemoveBot => "button-removebot",
        Button::JoinTeam(team) => {
            return tr_args(lang, "button-join-team", &Args::new().number("team", team));
        }
        Button::More(_) => "button-more",
        Button::Status => "button-status",
        Button::Rules => "button-rules",
        Button::LeaveGame(_) => "button-leave-game",
        Button::Stop(_) => "button-stop",
        Button::ConfirmStop(_) => "button-stop-confirm",
        Button::Stats => "button-stats",
        Button::Record(_) => "button-record",
        Button::NextGame(_) => "button-next-game",
        Button::AbandonSeries(_) => "button-abandon-series",
        Button::ConfirmAbandonSeries(_) => "button-abandon-series-confirm",
    };
    tr(lang, key)
}

/// The name of a card in `lang`: classic cards as `7♥`, kids cards as the animal's name.
pub fn card_label(card: Card, lang: Lang) -> String {
    let mut tr = Tr::new(lang);
    let text = card_name(&mut tr, card);
    tr.finish();
    text
}

/// The title of a game in `lang`.
pub fn game_name(variant: Variant, lang: Lang) -> String {
    tr(lang, &format!("game-{variant}"))
}

/// The numbers of a player's totals, for `stats` and `leaderboard-line`.
fn totals_args(totals: &Totals) -> Args<'static> {
    Args::new()
        .number("games", totals.games)
        .number("wins", totals.wins)
        .number("percent", totals.win_percent())
        .number("sequences", totals.sequences)
}

fn mention(user: UserId) -> String {
    format!("<@{}>", user.0)
}

fn count_number(count: usize) -> f64 {
    u32::try_from(count).map_or(f64::from(u32::MAX), f64::from)
}

fn card_name(tr: &mut Tr, card: Card) -> String {
    if card.is_kids() {
        // The English name (Display) is the key of the animal's name.
        tr.t(&format!("animal-{card}"))
    } else {
        card.pretty()
    }
}

fn game_title(tr: &mut Tr, variant: Variant) -> String {
    tr.t(&format!("game-{variant}"))
}

fn team_name(tr: &mut Tr, team: TeamName) -> String {
    let color = tr.t(&format!("color-{}", team.color));
    tr.ta(
        "team-name",
        &Args::new()
            .number("number", team.number)
            .text("color", color),
    )
}

fn play_error(tr: &mut Tr, error: PlayError) -> String {
    tr.t(&format!("play-error-{}", error.code()))
}

fn setup_error(tr: &mut Tr, asked: Variant, error: &SetupError) -> String {
    match error {
        SetupError::PlayerCount {
            variant, players, ..
        } => {
            let game = game_title(tr, *variant);
            tr.ta(
                "setup-player-count",
                &Args::new()
                    .text("game", game)
                    .number("players", *players)
                    .text("variant", variant.to_string()),
            )
        }
        SetupError::Teams {
            variant,
            players,
            teams,
            ..
        } => {
            // The team counts that work, asked of the engine rather than repeated here.
            let possible: Vec<String> = (2..=4u8)
                .filter(|&t| Config::new(*variant, *players, Some(t), Options::default()).is_ok())
                .map(|t| t.to_string())
                .collect();
            let args = Args::new()
                .number("players", *players)
                .number("teams", *teams);
            if *players <= 3 || possible.is_empty() {
                tr.ta("setup-teams-alone", &args)
            } else {
                let game = game_title(tr, *variant);
                let possible = join_or(tr, &possible);
                tr.ta(
                    "setup-teams",
                    &args.text("game", game).text("possible", possible),
                )
            }
        }
        SetupError::Option { option, .. } => match *option {
            "scoring" | "capture_pairs" => {
                let game = game_title(tr, asked);
                // The option as the user's language names it in `/sequence start`.
                let name = tr.t(&format!("opt-start-{option}"));
                tr.ta(
                    "setup-house-rule",
                    &Args::new().text("option", name).text("game", game),
                )
            }
            "sequences_to_win" if asked != Variant::Classic => {
                let game = game_title(tr, asked);
                tr.ta("setup-one-sequence", &Args::new().text("game", game))
            }
            "sequences_to_win" => tr.t("setup-sequences-range"),
            "sequence_length" => tr.ta(
                "setup-sequence-length",
                &Args::new().text("variant", asked.to_string()),
            ),
            "king_of_the_board" | "points_to_win" => {
                // The option and the mode as the user's language names them in `/sequence start`.
                let points = tr.t("opt-start-points_to_win");
                let mode = tr.t("choice-mode-king_of_the_board");
                let key = if *option == "points_to_win" {
                    "setup-points-to-win"
                } else {
                    "setup-king-of-the-board"
                };
                tr.ta(key, &Args::new().text("option", points).text("mode", mode))
            }
            _ => tr.ta(
                "setup-other",
                &Args::new().text("reason", error.to_string()),
            ),
        },
        SetupError::UnknownVariant(_)
        | SetupError::Deck(_)
        | SetupError::Roll(_)
        | SetupError::Zone(_) => tr.ta(
            "setup-other",
            &Args::new().text("reason", error.to_string()),
        ),
    }
}

/// `2 or 3`: the last two joined by the language's "or" (team counts are short lists).
fn join_or(tr: &mut Tr, items: &[String]) -> String {
    match items {
        [rest @ .., last] if !rest.is_empty() => tr.ta(
            "list-or",
            &Args::new()
                .text("first", rest.join(", "))
                .text("last", last.as_str()),
        ),
        _ => items.join(", "),
    }
}

fn dice_text(dice: [u8; 2]) -> String {
    let [a, b] = dice;
    format!("{a} + {b} = {}", u16::from(a) + u16::from(b))
}

fn duration_text(tr: &mut Tr, seconds: u64) -> String {
    let number = |n: u64| u32::try_from(n).map_or(f64::from(u32::MAX), f64::from);
    if seconds >= 60 {
        let minutes = if seconds >= 120 { seconds / 60 } else { 1 };
        tr.ta(
            "duration-minutes",
            &Args::new().number("minutes", number(minutes)),
        )
    } else {
        tr.ta("duration", &Args::new().number("seconds", number(seconds)))
    }
}

fn roll_hint(tr: &mut Tr, hint: RollHint) -> String {
    match hint {
        RollHint::Number(n) => tr.ta("roll-hint-number", &Args::new().number("number", n)),
        RollHint::Replace(n) => tr.ta("roll-hint-replace", &Args::new().number("number", n)),
        RollHint::Remove => tr.t("roll-hint-remove"),
        RollHint::Free => tr.t("roll-hint-free"),
        RollHint::Blocked(n) => tr.ta("roll-hint-blocked", &Args::new().number("number", n)),
        RollHint::NothingToRemove => tr.t("roll-hint-nothing-to-remove"),
    }
}

fn options_text(tr: &mut Tr, options: &Options) -> String {
    let mut parts = Vec::new();
    if let Some(n) = options.sequences_to_win {
        parts.push(tr.ta("option-sequences-to-win", &Args::new().number("count", n)));
    }
    if let Some(n) = options.sequence_length {
        parts.push(tr.ta("option-sequence-length", &Args::new().number("length", n)));
    }
    if options.equal_turns {
        parts.push(tr.t("option-equal-turns"));
    }
    if options.scoring {
        parts.push(tr.t("option-scoring"));
    }
    if options.capture_pairs {
        parts.push(tr.t("option-capture-pairs"));
    }
    if options.king_of_the_board {
        parts.push(tr.t("option-king-of-the-board"));
    }
    if let Some(n) = options.points_to_win {
        parts.push(tr.ta("option-points-to-win", &Args::new().number("count", n)));
    }
    parts.join(", ")
}

/// A seat of a list: number, player (after their colour in a running game), team, cards.
fn seat_line(tr: &mut Tr, index: usize, seat: &SeatLine) -> String {
    let mut line = match seat.colour {
        Some(team) => format!("\n{}. {} {}", index + 1, team.emoji(), seat.who),
        None => format!("\n{}. {}", index + 1, seat.who),
    };
    if let Some(team) = seat.team {
        line.push_str(" — ");
        line.push_str(&team_name(tr, team));
    }
    if let Some(cards) = seat.cards {
        line.push_str(" — ");
        line.push_str(&tr.ta("seat-cards", &Args::new().number("count", cards)));
    }
    line
}

fn first_upper(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn lobby_card(tr: &mut Tr, card: &LobbyCard) -> String {
    let game = game_title(tr, card.variant);
    let mut text = tr.ta(
        "lobby-header",
        &Args::new()
            .text("game", game)
            .text("host", mention(card.host)),
    );
    if let Some(teams) = card.teams {
        text.push(' ');
        text.push_str(&tr.ta("lobby-teams", &Args::new().number("teams", teams)));
    }
    let options = options_text(tr, &card.options);
    if !options.is_empty() {
        text.push(' ');
        text.push_str(&tr.ta("lobby-options", &Args::new().text("options", options)));
    }
    text.push('\n');
    let count = u32::try_from(card.seats.len()).unwrap_or(u32::MAX);
    text.push_str(
        &tr.ta(
            "lobby-players",
            &Args::new()
                .number("count", count)
                .number("max", card.max_players),
        ),
    );
    if card.seats.is_empty() {
        text.push('\n');
        text.push_str(&tr.t("lobby-nobody"));
    }
    for (i, seat) in card.seats.iter().enumerate() {
        text.push_str(&seat_line(tr, i, seat));
    }
    if !card.invited.is_empty() {
        let invited: Vec<String> = card
            .invited
            .iter()
            .map(|seat| match seat.team {
                Some(team) => format!("{} ({})", seat.who, team_name(tr, team)),
                None => seat.who.to_string(),
            })
            .collect();
        let players = join_list(tr, &invited);
        text.push('\n');
        text.push_str(&tr.ta("lobby-invited", &Args::new().text("players", players)));
    }
    if let Some(rules) = &card.rules {
        text.push('\n');
        text.push_str(&lobby_rules(tr, rules));
    }
    if let Some(note) = card.rating {
        text.push('\n');
        text.push_str(&rating_note(tr, note));
    }
    text.push('\n');
    text.push_str(&tr.t("lobby-footer"));
    text
}

/// Whether a game counts for ratings, in one line.
fn rating_note(tr: &mut Tr, note: RatingNote) -> String {
    match note {
        RatingNote::Rated => tr.t("rating-rated"),
        RatingNote::Casual => tr.t("rating-casual"),
        RatingNote::NeedsOpponent => tr.t("rating-needs-opponent"),
        RatingNote::CasualLimit { limit } => {
            tr.ta("rating-casual-limit", &Args::new().number("limit", limit))
        }
        RatingNote::Aborted => tr.ta(
            "rating-aborted",
            &Args::new().number("moves", super::table::ABORT_MOVES),
        ),
        RatingNote::ModeratorStop { gave_up: false } => tr.t("rating-moderator-stop"),
        RatingNote::ModeratorStop { gave_up: true } => tr.t("rating-moderator-stop-gave-up"),
    }
}

/// Each side of a series with its wins: "Ann 1 – Bob 0".
fn series_score(tr: &mut Tr, sides: &[(Vec<Who>, u8)]) -> String {
    let parts: Vec<String> = sides
        .iter()
        .map(|(players, wins)| {
            let names: Vec<String> = players.iter().map(ToString::to_string).collect();
            format!("{} {wins}", join_list(tr, &names))
        })
        .collect();
    parts.join(" – ")
}

/// The settings line of a lobby.
fn lobby_rules(tr: &mut Tr, rules: &LobbyRules) -> String {
    let target = if let Some(points) = rules.king_of_the_board {
        tr.ta("lobby-rules-kotb", &Args::new().number("count", points))
    } else if rules.scoring {
        tr.t("lobby-rules-scoring")
    } else {
        match rules.sequences_three_teams {
            Some(three) => tr.ta(
                "lobby-rules-sequences-by-teams",
                &Args::new()
                    .number("count", rules.sequences)
                    .number("three", three),
            ),
            None => tr.ta(
                "lobby-rules-sequences",
                &Args::new().number("count", rules.sequences),
            ),
        }
    };
    let target = match rules.series {
        Some(best_of) => {
            let series = tr.ta("lobby-rules-series", &Args::new().number("count", best_of));
            format!("{series} · {target}")
        }
        None => target,
    };
    let reminder = match rules.reminder_secs {
        Some(secs) => {
            let time = duration_text(tr, secs);
            tr.ta("lobby-rules-reminder", &Args::new().text("time", time))
        }
        None => tr.t("lobby-rules-no-reminder"),
    };
    let timeout = duration_text(tr, rules.timeout_secs);
    let on_timeout = if rules.timeout_gives_up {
        tr.ta(
            "lobby-rules-timeout-give-up",
            &Args::new().text("timeout", timeout),
        )
    } else if rules.replace_after > 0 {
        tr.ta(
            "lobby-rules-timeout-replaced",
            &Args::new()
                .text("timeout", timeout)
                .number("count", rules.replace_after),
        )
    } else {
        tr.ta(
            "lobby-rules-timeout-computer",
            &Args::new().text("timeout", timeout),
        )
    };
    let level = tr.t(&format!("level-{}", rules.bot_level));
    tr.ta(
        "lobby-rules",
        &Args::new()
            .text("target", target)
            .text("reminder", reminder)
            .text("timeout", on_timeout)
            .text("level", level),
    )
}

fn status(tr: &mut Tr, info: &StatusInfo) -> String {
    let game = game_title(tr, info.variant);
    let mut text = tr.ta("status-header", &Args::new().text("game", game));
    for (i, seat) in info.seats.iter().enumerate() {
        text.push_str(&seat_line(tr, i, seat));
    }
    text.push('\n');
    text.push_str(&tr.ta(
        "status-to-move",
        &Args::new().text("player", info.to_move.to_string()),
    ));
    if let Some(dice) = info.roll {
        text.push(' ');
        text.push_str(&tr.ta("status-rolled", &Args::new().text("dice", dice_text(dice))));
    }
    let time = duration_text(tr, info.seconds_left);
    text.push_str(", ");
    text.push_str(&tr.ta("status-time-left", &Args::new().text("time", time)));
    let sequences: Vec<String> = info
        .sequences
        .iter()
        .map(|(team, n)| format!("{}: {n}", team_name(tr, *team)))
        .collect();
    text.push('\n');
    if let Some(points) = &info.points {
        let points: Vec<String> = points
            .iter()
            .map(|(team, n)| format!("{}: {n}", team_name(tr, *team)))
            .collect();
        text.push_str(
            &tr.ta(
                "status-points",
                &Args::new()
                    .number("target", info.target)
                    .text("list", points.join(", ")),
            ),
        );
    } else {
        text.push_str(
            &tr.ta(
                "status-sequences",
                &Args::new()
                    .number("target", info.target)
                    .text("list", sequences.join(", ")),
            ),
        );
    }
    if let Some(zone) = &info.zone {
        text.push('\n');
        text.push_str(&tr.ta("status-zone", &zone.args()));
    }
    if let Some(n) = info.draw_pile {
        text.push('\n');
        text.push_str(&tr.ta(
            "status-draw-pile",
            &Args::new().number("count", count_number(n)),
        ));
    }
    text
}

/// The name of a permission as Discord's settings show it.
fn permission_name(tr: &mut Tr, permission: Permission) -> String {
    tr.t(match permission {
        Permission::ViewChannel => "permission-view-channel",
        Permission::SendMessages => "permission-send-messages",
        Permission::SendMessagesInThreads => "permission-send-messages-in-threads",
        Permission::AttachFiles => "permission-attach-files",
    })
}

/// How a member who manages the server grants the bot what it needs, in a channel or a thread.
fn how_to_grant(tr: &mut Tr, thread: bool) -> String {
    let needed: Vec<String> = Permission::to_post(thread)
        .into_iter()
        .map(|p| format!("**{}**", permission_name(tr, p)))
        .collect();
    let needed = join_list(tr, &needed);
    let key = if thread {
        "grant-permissions-thread"
    } else {
        "grant-permissions-channel"
    };
    tr.ta(key, &Args::new().text("permissions", needed))
}

/// A sentence naming the missing permissions, followed by how to grant them.
fn permissions_text(tr: &mut Tr, key: &str, missing: &[Permission], thread: bool) -> String {
    let names: Vec<String> = missing
        .iter()
        .map(|&p| format!("**{}**", permission_name(tr, p)))
        .collect();
    let names = join_list(tr, &names);
    let mut text = tr.ta(key, &Args::new().text("permissions", names));
    text.push(' ');
    text.push_str(&how_to_grant(tr, thread));
    text
}
