//! The catalogue: every message the bot sends, as data ([`Text`], a variant and its arguments). Its
//! sections follow the topic files that render them (`lobby.rs` renders the lobby section, ...);
//! [`Text::is_error`] and [`Text::is_ack`] sort them for the Discord adapter.

use crate::analysis::profile::Achievement;
use crate::engine::{Card, PlayError, SetupError, Variant};
use crate::service::access::Permission;
use crate::service::bot::BotLevel;
use crate::service::ids::{ChannelId, UserId};

use super::payload::{
    AgreementLine, CardLine, HintMove, HintWhy, HistoryLine, LeaderLine, LobbyCard, ProfileInfo,
    RatingInfo, RatingNote, RollHint, SeatLine, SettingName, SettingsInfo, StatusInfo, TeamName,
    Totals, VersusInfo, Who, ZoneInfo,
};

/// Every message the bot sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Text {
    // ----- refusals (`refusals.rs`) -----
    /// There is no table in the channel.
    NoTable,
    /// A page asked this process to act on a table another process of the bot holds (several
    /// processes on PostgreSQL): it only shows it.
    PlayedElsewhere,
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
    /// The host gave up: only the players still in the game (or moderators) may manage it.
    HostGaveUp,
    /// A player asked for the team they are on already.
    AlreadyOnTeam(TeamName),

    // ----- lobby and acknowledgements (`lobby.rs`) -----
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
    /// A private confirmation that a request was carried out (its result is posted in the channel).
    Done,
    /// A player in the lobby moved to a team (an acknowledgement).
    TeamChanged(TeamName),
    /// The lobby, open (boxed: the card is the largest payload, and every `Text` carries its size).
    Lobby(Box<LobbyCard>),
    /// Lobby status.
    LobbyStatus(Box<LobbyCard>),
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
    /// The level menu of **Add computer**; `added` names the computer player just added.
    BotMenu {
        /// The computer player the last press added.
        added: Option<String>,
    },

    // ----- the game as it runs (`play.rs`) -----
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

    // ----- what a player asks to see (`status.rs`) -----
    /// Caption of `board`.
    BoardCaption {
        /// The game.
        variant: Variant,
        /// Whose turn.
        to_move: Who,
    },
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
    /// The rules of a game.
    Rules(Variant),

    // ----- turns, the clock, giving up (`turns.rs`) -----
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
    /// The turn timed out; the computer played it at `level`.
    TimedOut {
        /// The player whose turn it was.
        who: Who,
        /// The level the computer played the turn at.
        level: BotLevel,
    },
    /// A player's turn timed out `count` times in a row: a computer takes the seat for good.
    ReplacedAfterTimeouts {
        /// The player.
        who: Who,
        /// The computer player taking over.
        bot: String,
        /// Timed-out turns in a row.
        count: u8,
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
    /// A player gave up; a computer player takes the seat.
    Forfeited {
        /// Who gave up.
        who: Who,
        /// The computer player taking over.
        bot: String,
    },
    /// A player gave up, and that ended the game (no computer takes a seat in an ended game).
    GaveUp(Who),
    /// Asked before giving up a running game (with the Confirm and Keep playing buttons).
    ConfirmLeave {
        /// Whether giving up ends the game (nobody left on the player's side) instead of a computer
        /// taking the seat.
        ends_game: bool,
    },
    /// The player chose to keep playing.
    KeptPlaying,
    /// At the start of a game on a server whose timed-out players give up: the first timeout decides.
    TimeoutGivesUp {
        /// The turn's time, in seconds.
        timeout_secs: u64,
    },
    /// Keep playing on the hint question: no hint, the game stays rated (the picker comes back).
    HintDeclined,
    /// A confirmation to give up, pressed after the game it asked about is over.
    LeaveExpired,
    /// A **Yes, give up** whose question was answered already (Keep playing) or forgotten (a restart).
    LeaveAnswered,
    /// Asks to confirm stopping the game; `gives_up`: the asker plays in it.
    ConfirmStop {
        /// Stopping counts as giving up for the asker's team.
        gives_up: bool,
    },

    // ----- the card picker and the menus (`picker.rs`) -----
    /// The turn prompt's button that opens the picker.
    PickerPlayButton,
    /// Dice: the turn prompt's button that rolls and opens the picker.
    PickerRollButton,
    /// The picker's button back to the previous step.
    PickerBackButton,
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
    /// A button made for an earlier game or lobby of this channel.
    ButtonExpired,
    /// The Yes of a question (stop, abandon the series, a hint that makes the game casual) that was
    /// answered already (Keep playing, or its Yes) or forgotten (a restart).
    QuestionAnswered,
    /// The **⋯** menu of a running game.
    GameMenu,

    // ----- hints (`hints.rs`) -----
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
    /// The asker's last hint is still being searched: one at a time.
    HintBusy,
    /// The asker spent their share of the server's budget (a hint costs as much as a few posts).
    HintSpent,

    // ----- the end of a game (`end.rs`) -----
    /// A team won.
    Won {
        /// The team.
        team: TeamName,
        /// Its players.
        members: Vec<Who>,
    },
    /// Everyone else gave up.
    WonByForfeit {
        /// The team.
        team: TeamName,
        /// Its players.
        members: Vec<Who>,
    },
    /// The last other side ran out of time (and gave up, or lost its last player to a computer).
    WonOnTime {
        /// The team.
        team: TeamName,
        /// Its players.
        members: Vec<Who>,
    },
    /// Points in a `scoring` game.
    Scores(Vec<(TeamName, usize)>),
    /// The game was drawn.
    Drawn,
    /// Every seat passed for a whole round: the board is blocked and the game ends on the count.
    Blocked {
        /// The team that leads (`None`: a draw).
        winner: Option<TeamName>,
        /// Each team's count, in team order (empty: nothing is counted, a classic game's draw).
        scores: Vec<usize>,
        /// Counted in King of the Board points (else in sequences).
        points: bool,
    },
    /// Several teams share the win, as the others gave up.
    SharedWin(Vec<TeamName>),
    /// The game was stopped.
    Stopped(Who),
    /// A player stopped the game: that counts as giving up.
    StopIsGivingUp(Who),
    /// No human player is left.
    NoHumansLeft,
    /// Whether the game counts for ratings.
    Rating(RatingNote),
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
    /// The final summary: the game's length in moves and, when known, minutes.
    SummaryLength {
        /// Moves that placed or removed a chip.
        moves: u32,
        /// Whole minutes from the start to the last move (`None`: not known).
        minutes: Option<u64>,
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
    /// The record is attached.
    RecordAttached,
    /// Where a finished game's record is kept.
    GameSaved {
        /// The game's number.
        id: i64,
    },
    /// The link button to a game's web page, on the lobby and the turn prompts.
    WatchButton,
    /// The button that opens the board as a Discord Activity, on the lobby and the turn prompts.
    ActivityButton,
    /// The link button to a finished game's web page (its replay), on the final message and the
    /// record.
    ReplayLinkButton,
    /// Only a player of the last game may ask for its rematch.
    RematchNotPlayer,

    // ----- challenges (`lobby.rs`) -----
    /// `invite:` holds something that is not a mention of a person (or nothing).
    InviteNotMentions,
    /// `invite:` mentions a role, a channel, `@everyone` or `@here`.
    InviteNotPeople,
    /// `invite:` mentions this person twice.
    InviteTwice(UserId),
    /// The host invited themselves.
    InviteSelf,
    /// More players invited than the lobby has free seats.
    InviteTooMany {
        /// Free seats besides the host.
        max: u8,
    },
    /// An app (a bot account) was invited.
    InviteBot(UserId),
    /// Accept or Decline by someone the lobby does not wait for (not invited, answered, lapsed).
    NotInvited,
    /// The decliner's private confirmation.
    DeclinedAck,
    /// To the host, privately: an invited player declined.
    ChallengeDeclined {
        /// Who declined.
        by: UserId,
        /// The lobby's game.
        variant: Variant,
        /// Where the lobby is.
        channel: ChannelId,
    },
    /// No rematch is known for this channel (or it ended too long ago).
    RematchExpired,
    /// A Rematch button of an older game: the channel has played another game since.
    RematchSuperseded,

    // ----- series (`series.rs`) -----
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

    // ----- stats, ratings and history (`records.rs`) -----
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

    // ----- profiles, head-to-head and achievements (`profile.rs`) -----
    /// A player's profile: the text version of the card (for screen readers and clients without
    /// images).
    Profile(Box<ProfileInfo>),
    /// A member without a finished game on this server: no profile to show.
    NoProfile {
        /// Whose profile was asked for.
        who: Who,
    },
    /// The profiles are being rebuilt from the stored games after an upgrade (issue 44): profiles
    /// and head-to-heads answer this until it is done.
    ProfilesRebuilding {
        /// How far the rebuild is, in percent.
        percent: u32,
    },
    /// Two members' games together, from the asker's side.
    Versus(Box<VersusInfo>),
    /// The asker has not finished a game with this member on this server.
    NoVersus {
        /// The other member.
        other: Who,
    },
    /// `/sequence versus` with oneself.
    VersusSelf,
    /// A player unlocked achievements with the game just finished: one line of its final message per
    /// player, naming them (their conditions are on the profile).
    Unlocked {
        /// The player.
        who: Who,
        /// What they unlocked, in the catalogue's order.
        achievements: Vec<Achievement>,
    },

    // ----- server settings (`settings.rs`) -----
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

    // ----- the bot in its channel: restarts, permissions, limits (`channel.rs`) -----
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
    /// A DM could not be delivered.
    DmFailed(Who),
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
    /// The asker has made the bot post their share of the server's posting budget: wait a little.
    SlowDown,
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
    /// A lobby where the bot may only answer presses (a group DM, a server without the bot): what
    /// that means for the game.
    AnswersOnly,
    /// Heads what was held back while nobody pressed (delivered with the next press).
    HeldBack,
    /// `/sequence start` in a server that lets user-installed apps answer only privately.
    ExternalAppsOff,
    /// The leaderboard, the list of games or a numbered game asked for outside a server.
    ServerOnlyLists,
    /// A rated game asked for outside a server.
    CasualOutsideServers,
}

impl Text {
    /// Whether this text refuses a request.
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            Text::NoTable
                | Text::PlayedElsewhere
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
                | Text::ExternalAppsOff
                | Text::ServerOnlyLists
                | Text::CasualOutsideServers
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
                | Text::NoProfile { .. }
                | Text::ProfilesRebuilding { .. }
                | Text::NoVersus { .. }
                | Text::VersusSelf
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
                | Text::InviteNotMentions
                | Text::InviteNotPeople
                | Text::InviteTwice(_)
                | Text::InviteSelf
                | Text::InviteTooMany { .. }
                | Text::InviteBot(_)
                | Text::NotInvited
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
