//! The arguments of texts: the players, teams, cards, lobbies, statuses, settings, ratings and
//! history lines that a [`Text`](super::Text) carries, as plain data (rendered by the topic files).

use std::fmt;

use crate::engine::{zone_corners, Card, Cell, Layout, Options, Variant};
use crate::i18n::Lang;
use crate::service::bot::BotLevel;
use crate::service::ids::UserId;
use crate::service::names::chat_name;

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
    /// It starts a line where `lines` lines through the cell are still open to the seat.
    Opens {
        /// The cell.
        cell: String,
        /// Open lines through it.
        lines: u8,
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
    /// A challenge's invited players who have not answered yet.
    pub challenged: Vec<UserId>,
    /// When their invitations lapse, in seconds since the Unix epoch (`None`: nobody waits).
    pub challenge_lapses: Option<u64>,
    /// A challenge's invited players who did not answer before their invitations lapsed.
    pub unanswered: Vec<UserId>,
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
    pub bot_level: BotLevel,
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
    pub bot_level: BotLevel,
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
    /// Whether the server's games have web pages (the Watch button).
    pub web_links: bool,
    /// Whether the server has its own web page.
    pub web_page: bool,
    /// The server's page, shown to the admin when it is on and the bot's address is known.
    pub page_url: Option<String>,
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

/// A player's rating as shown: on the shown scale ([`crate::store::rating::shown_rating`]: 1,500 for
/// a new player, whole numbers), so texts compare exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RatingInfo {
    /// The conservative rating (`mu - 3 sigma`) on the shown scale.
    pub shown: i64,
    /// Rated games played.
    pub games: u32,
    /// Whether there are too few rated games for the rating to mean much.
    pub provisional: bool,
    /// The changes of the rating in the latest rated games, newest first, on the shown scale.
    pub changes: Vec<i64>,
}

impl RatingInfo {
    /// A stored rating and its latest changes (of the conservative rating), on the shown scale.
    pub fn of(rating: &crate::store::PlayerRating, changes: &[f64]) -> RatingInfo {
        use crate::store::rating::{shown_change, shown_rating};
        RatingInfo {
            shown: shown_rating(rating.conservative()),
            games: rating.games,
            provisional: rating.is_provisional(),
            changes: changes.iter().map(|&c| shown_change(c)).collect(),
        }
    }
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

/// A player's profile on a server, as the card and its text version show it (built by the service
/// from the store's [`crate::store::Profile`]; ratings on the shown scale, so it compares exactly).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileInfo {
    /// The player, for the text (a mention).
    pub who: Who,
    /// The player's name for the card (cleaned as every name is; see [`crate::service::names`]).
    pub name: String,
    /// Every finished game that was not aborted.
    pub figures: crate::analysis::profile::Figures,
    /// Only the games that count for achievements (the progress toward the next ones).
    pub feats: crate::analysis::profile::Figures,
    /// The achievements unlocked, each with the game that unlocked it.
    pub unlocked: Vec<(crate::analysis::profile::Achievement, i64)>,
    /// The rating, if the player has played a rated game here.
    pub rating: Option<RatingInfo>,
    /// The place on the server's leaderboard, of how many rated players.
    pub rank: Option<(u32, u32)>,
    /// The rating after each of the latest rated games, oldest first, on the shown scale.
    pub chart: Vec<i64>,
    /// Series played to their end, and won.
    pub series: crate::store::SeriesStats,
    /// Agreement with `hard` over the latest rated games.
    pub agreement: crate::store::AgreementTotals,
    /// Seen by another member: their games together, from the viewer's side.
    pub versus: Option<VersusInfo>,
}

/// Two members' games together on a server, from the viewer's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersusInfo {
    /// The viewer.
    pub viewer: Who,
    /// The other member.
    pub other: Who,
    /// The other member's name for the card.
    pub other_name: String,
    /// Games both finished (not aborted).
    pub games: u32,
    /// Of those, on the same team.
    pub partner_games: u32,
    /// Of those, won together.
    pub partner_wins: u32,
    /// Games on opposing teams.
    pub opponent_games: u32,
    /// Of those, won by the viewer's side.
    pub wins: u32,
    /// Of those, won by the other's side.
    pub losses: u32,
    /// Sequences the viewer completed in their shared games.
    pub sequences: u32,
    /// Sequences the other member completed in them.
    pub other_sequences: u32,
    /// The latest shared games, newest first.
    pub recent: Vec<SharedLine>,
}

/// One game two members played together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedLine {
    /// The game's number (for `/sequence replay` and `record`).
    pub id: i64,
    /// The game (`None` if the stored name is unknown to this version).
    pub variant: Option<Variant>,
    /// When it ended, in unix seconds.
    pub finished_at: i64,
    /// Whether they were partners.
    pub partners: bool,
    /// Whether the viewer won it.
    pub won: bool,
    /// Whether the other member won it.
    pub other_won: bool,
}
