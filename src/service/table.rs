//! One channel's table: the lobby, then the game. Plain, serializable data plus synchronous rules for
//! every command; `Tables` in the parent module does the locking.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::{
    roll_off, BitIter, Bits, Card, CardEffect, Cell, Config, Event, Game, GameRng, GroupKind, Move,
    Options, PlayError, Record, RecordError, RollMode, Seat, Status, Variant, View,
};

use super::bot::random_legal_move;
use super::picker;
use super::rules::ABORT_MOVES;
use super::seeds::{OsSeeds, SeedSource};
use super::series::Series;
use super::text::{
    card_label, CardLine, CardUse, LobbyCard, LobbyRules, RatingNote, RollHint, SeatLine,
    StatusInfo, TeamName, ZoneInfo,
};
use super::{
    Actor, Attachment, BoardImage, BotLevel, Button, ChannelId, Choice, Command, GuildId,
    HandImage, Image, Message, Output, Paused, Reply, Settings, Text, Timestamp, UserId, Who,
};
use crate::i18n::{tr, tr_args, Args, Lang};
use crate::store::rating;

/// Rated games between players in the last 24 hours, by pair of user ids (smaller first), as
/// [`rating::meetings`] counts them: what the daily limit of rated games is checked against.
pub type Meetings = Arc<HashMap<(u64, u64), u32>>;

/// Who stopped a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// A player of a team still in the game: that counts as giving up.
    Player(Seat),
    /// Someone who is not playing (a moderator): the game ends without a result.
    Moderator,
}

/// Autocomplete lists at most this many choices (Discord's limit).
const MAX_CHOICES: usize = 25;
/// Discord's limit on a choice label.
const MAX_LABEL: usize = 100;

/// What the host asked for when opening the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The game.
    pub variant: Variant,
    /// Number of teams, `None` for the default of the player count.
    #[serde(default)]
    pub teams: Option<u8>,
    /// Options.
    #[serde(default)]
    pub options: Options,
    /// Whether the game counts for ratings (`None`: if at least two teams have a human).
    #[serde(default)]
    pub rated: Option<bool>,
    /// The lobby's clock: seconds a player has for a turn (`None`: the server's turn timeout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_time: Option<u32>,
    /// A series: best of this many games (`None`: one game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<u8>,
}

/// Shortest turn time a lobby may ask for, in seconds.
pub const MIN_TURN_TIME: u32 = 10;
/// Longest turn time a lobby may ask for, in seconds (an hour).
pub const MAX_TURN_TIME: u32 = 3600;
/// A lobby clock shorter than this has no reminder: the turn prompt's countdown is the reminder,
/// and a post at half time in every turn of a blitz game would bury the board.
pub const MIN_TURN_TIME_WITH_REMINDER: u32 = 30;

impl Setup {
    /// Checks what does not depend on the player count: options and the number of teams.
    pub fn new(variant: Variant, teams: Option<u8>, options: Options) -> Result<Setup, Text> {
        Config::new(variant, 2, None, options).map_err(|e| Text::CannotStart(variant, e))?;
        let setup = Setup {
            variant,
            teams: None,
            options,
            rated: None,
            turn_time: None,
            series: None,
        };
        if let Some(t) = teams {
            if !(2..=setup.max_teams()).contains(&t) {
                return Err(Text::BadTeamCount { teams: t, variant });
            }
        }
        let setup = Setup { teams, ..setup };
        // A team count no player count of this game allows is refused now, not at Start.
        if setup.check_wishes(1, &[]).is_err() {
            return Err(Text::BadTeamCount {
                teams: teams.unwrap_or(0),
                variant,
            });
        }
        Ok(setup)
    }

    /// With the lobby's clock (`None`: the server's), checked: 10 s to an hour.
    pub fn with_turn_time(self, turn_time: Option<u32>) -> Result<Setup, Text> {
        if let Some(secs) = turn_time {
            if !(MIN_TURN_TIME..=MAX_TURN_TIME).contains(&secs) {
                return Err(Text::BadTurnTime {
                    secs,
                    min: MIN_TURN_TIME,
                    max: MAX_TURN_TIME,
                });
            }
        }
        Ok(Setup { turn_time, ..self })
    }

    /// As a series of `best_of` games (`None`: one game), checked: best of 3, 5 or 7.
    pub fn with_series(self, series: Option<u8>) -> Result<Setup, Text> {
        if let Some(best_of) = series {
            if !super::series::SERIES_LENGTHS.contains(&best_of) {
                return Err(Text::BadSeries { best_of });
            }
        }
        Ok(Setup { series, ..self })
    }

    /// The time a player has for a turn: the lobby's clock, else the server's turn timeout.
    pub fn turn_timeout(&self, settings: &Settings) -> Duration {
        self.turn_time
            .map_or(settings.turn_timeout, |s| Duration::from_secs(u64::from(s)))
    }

    /// When a player to move is reminded, from the turn's start (`None`: never): at half time with
    /// the lobby's clock (none under [`MIN_TURN_TIME_WITH_REMINDER`]), else the server's reminder.
    pub fn turn_reminder(&self, settings: &Settings) -> Option<Duration> {
        match self.turn_time {
            Some(s) if s < MIN_TURN_TIME_WITH_REMINDER => None,
            Some(s) => Some(Duration::from_millis(u64::from(s) * 500)),
            None => Some(settings.turn_reminder),
        }
    }

    /// Most players of this game.
    pub fn max_players(&self) -> u8 {
        match self.variant {
            Variant::Classic => 12,
            Variant::Dice | Variant::Kids => 4,
        }
    }

    /// Whether some player count of this game fits `seats` players with these team wishes
    /// (0-based, `None`: any team): a team count the rules allow (the asked one, if any) and no team
    /// with more wishes than a team has players. `Err` names the first team without room.
    pub fn check_wishes(&self, seats: usize, wishes: &[Option<u8>]) -> Result<(), Text> {
        let highest = wishes.iter().flatten().copied().max();
        // The largest team of the set-ups that allow the team count (for the refusal).
        let mut largest: Option<u8> = None;
        for players in 2..=self.max_players() {
            for teams in 2..=4u8 {
                if self.teams.is_some_and(|t| t != teams)
                    || Config::new(self.variant, players, Some(teams), self.options).is_err()
                    || usize::from(players) < seats
                    || highest.is_some_and(|h| h >= teams)
                {
                    continue;
                }
                let size = players / teams;
                let fits = (0..teams)
                    .all(|t| wishes.iter().filter(|w| **w == Some(t)).count() <= usize::from(size));
                if fits {
                    return Ok(());
                }
                largest = Some(largest.map_or(size, |s| s.max(size)));
            }
        }
        // The team that overflows at the largest team size any set-up allows.
        let size = largest.unwrap_or(1);
        let team = (0..self.max_teams())
            .find(|t| wishes.iter().filter(|w| **w == Some(*t)).count() > usize::from(size))
            .unwrap_or(0);
        Err(Text::TeamNoRoom {
            team: TeamName::of(self.variant, team),
            size,
        })
    }

    /// The settings a lobby of this set-up shows: the target and the timers that will apply.
    pub fn rules(&self, settings: &Settings) -> LobbyRules {
        let target = |teams| {
            Config {
                variant: self.variant,
                players: teams,
                teams,
                options: self.options,
            }
            .sequences_to_win()
        };
        let varies = self.variant == Variant::Classic
            && self.teams.is_none()
            && self.options.sequences_to_win.is_none();
        LobbyRules {
            sequences: target(self.teams.unwrap_or(2)),
            sequences_three_teams: varies.then(|| target(3)),
            scoring: self.options.scoring,
            king_of_the_board: self.options.king_of_the_board.then(|| {
                self.options
                    .points_to_win
                    .unwrap_or(crate::engine::DEFAULT_POINTS_TO_WIN)
            }),
            reminder_secs: self.turn_reminder(settings).map(|d| d.as_secs()),
            timeout_secs: self.turn_timeout(settings).as_secs(),
            timeout_gives_up: settings.timeout_gives_up,
            replace_after: settings.replace_after_timeouts,
            bot_level: settings.default_bot_level,
            series: self.series,
        }
    }

    /// The highest team number a player may choose.
    pub fn max_teams(&self) -> u8 {
        self.teams.unwrap_or(match self.variant {
            Variant::Classic | Variant::Dice => 3,
            Variant::Kids => 4,
        })
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Player {
    /// A Discord user.
    Human {
        /// The user.
        user: UserId,
        /// Display name.
        name: String,
    },
    /// A computer player.
    Bot {
        /// Strength.
        level: BotLevel,
        /// Display name.
        name: String,
    },
}

impl Player {
    /// How messages name the player.
    pub fn who(&self) -> Who {
        match self {
            Player::Human { user, .. } => Who::User(*user),
            Player::Bot { name, .. } => Who::Bot(name.clone()),
        }
    }

    /// The display name.
    pub fn name(&self) -> &str {
        match self {
            Player::Human { name, .. } | Player::Bot { name, .. } => name,
        }
    }

    /// The user, for a human.
    pub fn user(&self) -> Option<UserId> {
        match self {
            Player::Human { user, .. } => Some(*user),
            Player::Bot { .. } => None,
        }
    }

    /// Whether this is the user.
    fn is(&self, user: UserId) -> bool {
        self.user() == Some(user)
    }
}

/// A seat taken in the lobby, with the team the player asked for (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySeat {
    /// Who.
    pub player: Player,
    /// Wished team, 0-based.
    #[serde(default)]
    pub team: Option<u8>,
    /// The team is the one of the last game (a rematch), not a wish: dropped if the teams do not fit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kept: bool,
}

/// A running game: the seats, the game (kept as its record), the dice step and the turn timer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Playing {
    /// Players by seat.
    pub seats: Vec<Player>,
    /// The game and its record.
    pub live: LiveGame,
    /// Dice: whether the player to move has rolled (revealed the roll) this turn.
    #[serde(default)]
    pub rolled: bool,
    /// When the current turn started.
    pub turn_started: Timestamp,
    /// Whether the player to move was reminded.
    #[serde(default)]
    pub reminded: bool,
    /// Teams that gave up (no human left on them).
    #[serde(default)]
    pub gave_up: Vec<u8>,
    /// Players who gave up, with their seat (a computer player sits there now); they still count
    /// in the game's result.
    #[serde(default)]
    pub forfeited: Vec<(Seat, Player)>,
    /// Turns timed out in a row, by seat (reset when the player moves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeouts: Vec<u8>,
    /// The board changed since the last board image was posted (a computer was to move next).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub board_unshown: bool,
    /// Moves each human made themselves, by seat (turns a computer played for them, and exchanges of
    /// dead cards, do not count).
    /// `None` for a game started before they were counted: then read from its record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_moves: Option<Vec<u16>>,
    /// Whether the game counts for ratings, decided at the start (`None`: a game started before
    /// this was kept; the lobby's choice applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// Casual because some of its players had reached this daily limit of rated games against each
    /// other when it started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily_limit: Option<u32>,
    /// Who stopped the game, once it was stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stop>,
    /// The record's actions that humans chose themselves (not a computer playing a turn whose time ran
    /// out), by index: the moves their agreement with the computer is about. `None` for a game started
    /// before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_actions: Option<Vec<u32>>,
    /// When the game started (`None` for a game started before it was kept): the summary's minutes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<Timestamp>,
}

impl Playing {
    /// The final message's summary of the game: each sequence with who made it and on which move,
    /// each removal that broke a line one chip short of a sequence, and the game's length (minutes from
    /// the start to the last turn).
    pub fn summary_lines(&self) -> Vec<Text> {
        let record = self.live.record();
        let summary = match crate::analysis::summarize(record) {
            Ok(summary) => summary,
            Err(e) => {
                tracing::error!("cannot summarize the game: {e}");
                return Vec::new();
            }
        };
        let config = *self.game().config();
        let layout = self.game().position().layout();
        let who = |seat: Seat| {
            self.original_player(seat)
                .map_or_else(|| self.who(seat), Player::who)
        };
        let mut lines = Vec::new();
        for made in &summary.sequences {
            lines.push(Text::SummarySequence {
                team: TeamName::of(config.variant, made.team),
                who: who(made.seat),
                move_number: made.move_number,
                points: made.points,
                in_zone: made.in_zone,
            });
        }
        for broken in &summary.broken {
            lines.push(Text::SummaryBroken {
                who: who(broken.seat),
                team: TeamName::of(config.variant, broken.victim),
                chips: config.line_length().saturating_sub(1),
                cell: layout.cell_name(broken.cell),
                move_number: broken.move_number,
            });
        }
        lines.push(Text::SummaryLength {
            moves: summary.moves,
            minutes: self
                .started
                .map(|started| started.seconds_until(self.turn_started) / 60),
        });
        lines
    }

    /// The seat of a user.
    pub fn seat_of(&self, user: UserId) -> Option<Seat> {
        self.seats
            .iter()
            .position(|p| p.is(user))
            .and_then(|s| Seat::try_from(s).ok())
    }

    fn who(&self, seat: Seat) -> Who {
        self.seats
            .get(usize::from(seat))
            .map_or_else(|| Who::Bot(format!("seat {}", seat + 1)), Player::who)
    }

    pub(super) fn player(&self, seat: Seat) -> Option<&Player> {
        self.seats.get(usize::from(seat))
    }

    /// Who played a seat for the result: the human who gave it up, or whoever sits there.
    /// How many hints were used in the game and by whom (the players who sat down, each once);
    /// `None` without hints.
    pub(super) fn hints_used(&self) -> Option<Text> {
        let hints = &self.live.record().hints;
        if hints.is_empty() {
            return None;
        }
        let mut by: Vec<Who> = Vec::new();
        for hint in hints {
            if let Some(who) = self.original_player(hint.seat).map(Player::who) {
                if !by.contains(&who) {
                    by.push(who);
                }
            }
        }
        Some(Text::HintsUsed {
            count: u32::try_from(hints.len()).unwrap_or(u32::MAX),
            by,
        })
    }

    pub fn original_player(&self, seat: Seat) -> Option<&Player> {
        self.forfeited
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, p)| p)
            .or_else(|| self.player(seat))
    }

    /// The winning teams: the game's winner; or, for a game ended by giving up, the teams that did
    /// not give up (when only one is left, when no human is left, or when a player stopped it, which
    /// counts as giving up). None for a draw or a stop by someone who is not playing.
    pub fn winners(&self) -> Vec<u8> {
        let pos = self.game().position();
        match pos.status() {
            Status::Won(team) => vec![team],
            Status::Drawn => Vec::new(),
            Status::InProgress => {
                if self.stopped == Some(Stop::Moderator) {
                    return Vec::new();
                }
                let remaining = self.remaining_teams();
                let humans_left = self.seats.iter().any(|p| p.user().is_some());
                if remaining.len() == 1 || !humans_left || self.stopped.is_some() {
                    remaining
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// The teams that have not given up.
    fn remaining_teams(&self) -> Vec<u8> {
        (0..self.game().config().teams)
            .filter(|t| !self.gave_up.contains(t))
            .collect()
    }

    /// Moves the human of `seat` made themselves (or, for a game started before they were counted,
    /// every move of the seat in the record).
    pub fn moves_made(&self, seat: Seat) -> u32 {
        match &self.human_moves {
            Some(moves) => moves.get(usize::from(seat)).copied().map_or(0, u32::from),
            None => {
                let count = self
                    .live
                    .history()
                    .iter()
                    .filter(|(s, mv)| {
                        *s == seat && !matches!(mv, Move::Pass | Move::Exchange { .. })
                    })
                    .count();
                u32::try_from(count).unwrap_or(u32::MAX)
            }
        }
    }

    fn count_move(&mut self, seat: Seat) {
        if let Some(moves) = &mut self.human_moves {
            let index = usize::from(seat);
            if moves.len() <= index {
                moves.resize(index + 1, 0);
            }
            if let Some(count) = moves.get_mut(index) {
                *count = count.saturating_add(1);
            }
        }
    }

    /// Whether the game, once ended, is aborted: it did not end on the board (someone gave up or
    /// stopped it) before every human player had made [`ABORT_MOVES`] moves. It then counts for
    /// nothing.
    pub fn is_aborted(&self) -> bool {
        if self.game().position().status() != Status::InProgress {
            return false;
        }
        (0..self.game().config().players).any(|seat| {
            matches!(self.original_player(seat), Some(Player::Human { .. }))
                && self.moves_made(seat) < ABORT_MOVES
        })
    }

    /// Whether the game counts for ratings as it was started (`setup`: the lobby's choice, for a
    /// game started before the choice was kept with it).
    pub fn counts_for_ratings(&self, setup: &Setup) -> bool {
        self.rated.or(setup.rated).unwrap_or_else(|| {
            humans_on_two_teams(self.game().config(), |seat| {
                matches!(self.original_player(seat), Some(Player::Human { .. }))
            })
        })
    }

    /// What giving up the human seat `seat` would leave: whether its team is then out (no human left
    /// on it), whether any human is left at all, and the teams still in. The one place that decides
    /// whether a computer takes the seat or the game ends, for the questions and reminders that warn
    /// about it as well as for giving up itself.
    fn without(&self, seat: Seat) -> Leaving {
        let config = *self.game().config();
        let team = config.team_of(seat);
        let human_but = |s: usize| s != usize::from(seat) && self.seats[s].user().is_some();
        let team_out = !(0..self.seats.len())
            .any(|s| human_but(s) && Seat::try_from(s).is_ok_and(|s| config.team_of(s) == team));
        let humans_left = (0..self.seats.len()).any(human_but);
        let remaining = (0..config.teams)
            .filter(|&t| !self.gave_up.contains(&t) && (t != team || !team_out))
            .count();
        Leaving {
            team_out,
            humans_left,
            remaining,
        }
    }

    /// Whether giving up the seat `seat` ends the game (nobody left to play on for its side, or no
    /// human left at all) instead of a computer taking the seat.
    pub fn leaving_ends_game(&self, seat: Seat) -> bool {
        self.without(seat).ends_game()
    }

    /// Whether a human who gave up is among the players.
    pub fn anyone_gave_up(&self) -> bool {
        self.forfeited
            .iter()
            .any(|(_, p)| matches!(p, Player::Human { .. }))
            || matches!(self.stopped, Some(Stop::Player(_)))
    }

    /// The line announcing who wins a game ended by giving up (or a stop by a player).
    fn win_by_giving_up(&self) -> Option<Text> {
        let variant = self.game().config().variant;
        match self.winners().as_slice() {
            [] => None,
            [team] => Some(Text::WonByForfeit {
                team: TeamName::of(variant, *team),
                members: self.team_members(*team),
            }),
            teams => Some(Text::SharedWin(
                teams.iter().map(|&t| TeamName::of(variant, t)).collect(),
            )),
        }
    }

    /// What the end of the game means for ratings, for the final message.
    pub fn rating_note(&self, setup: &Setup) -> RatingNote {
        if self.is_aborted() {
            RatingNote::Aborted
        } else {
            self.start_note(setup)
        }
    }

    /// What the start message says about ratings: rated, casual, or casual for the daily limit
    /// (and, at the end, how a moderator's stop was counted).
    fn start_note(&self, setup: &Setup) -> RatingNote {
        if self.stopped == Some(Stop::Moderator) {
            RatingNote::ModeratorStop {
                gave_up: self.counts_for_ratings(setup) && self.anyone_gave_up(),
            }
        } else if let Some(limit) = self.daily_limit {
            RatingNote::CasualLimit { limit }
        } else if self.counts_for_ratings(setup) {
            RatingNote::Rated
        } else {
            RatingNote::Casual
        }
    }

    pub(super) fn names(&self) -> Vec<String> {
        self.seats.iter().map(|p| p.name().to_string()).collect()
    }

    /// Whether the player to move is a computer player (whose move comes at once, with the board).
    fn computer_to_move(&self) -> bool {
        let pos = self.game().position();
        !pos.is_over() && matches!(self.player(pos.to_move()), Some(Player::Bot { .. }))
    }

    /// The player of `seat` moved themselves: their timed-out turns in a row start again from 0.
    fn reset_timeouts(&mut self, seat: Seat) {
        if let Some(count) = self.timeouts.get_mut(usize::from(seat)) {
            *count = 0;
        }
    }

    /// Counts a timed-out turn of `seat`; returns how many in a row now.
    fn count_timeout(&mut self, seat: Seat) -> u8 {
        let index = usize::from(seat);
        if self.timeouts.len() <= index {
            self.timeouts.resize(index + 1, 0);
        }
        match self.timeouts.get_mut(index) {
            Some(count) => {
                *count = count.saturating_add(1);
                *count
            }
            None => 0,
        }
    }

    pub(super) fn game(&self) -> &Game {
        self.live.game()
    }

    fn board_image(&self) -> Image {
        Image::Board(BoardImage::of(self.game(), self.names()))
    }

    fn team_members(&self, team: u8) -> Vec<Who> {
        let config = self.game().config();
        (0..config.players)
            .filter(|&s| config.team_of(s) == team)
            .map(|s| self.who(s))
            .collect()
    }

    fn seat_lines(&self, with_cards: bool) -> Vec<SeatLine> {
        let game = self.game();
        let config = game.config();
        self.seats
            .iter()
            .enumerate()
            .map(|(seat, player)| {
                let seat = Seat::try_from(seat).unwrap_or(0);
                SeatLine {
                    who: player.who(),
                    team: (config.teams < config.players)
                        .then(|| TeamName::of(config.variant, config.team_of(seat))),
                    cards: (with_cards && config.variant.has_cards())
                        .then(|| u8::try_from(game.hand(seat).len()).unwrap_or(0)),
                    colour: Some(TeamName::of(config.variant, config.team_of(seat))),
                }
            })
            .collect()
    }
}

/// A game together with its record. Serialized as the record alone: replaying it restores the game
/// exactly, so nothing else needs storing.
#[derive(Clone, Debug)]
pub struct LiveGame {
    record: Record,
    game: Game,
}

impl LiveGame {
    /// A new game of `config` from `seed`, built through its record so the record always replays it.
    /// Dice are rolled when the player rolls ([`LiveGame::roll`]), never before.
    pub fn start(config: Config, seed: u64) -> Result<LiveGame, RecordError> {
        let record = Record::start_of(&Game::new_rolling(config, seed, RollMode::OnDemand));
        let game = record.initial_game_rolling(RollMode::OnDemand)?;
        Ok(LiveGame { record, game })
    }

    /// Restores a game from its record (a roll listed beyond the last action is the current turn's).
    pub fn from_record(record: Record) -> Result<LiveGame, String> {
        match record.replay_rolling(RollMode::OnDemand) {
            Ok(Ok(game)) => Ok(LiveGame { record, game }),
            Ok(Err(failure)) => Err(format!(
                "action {} of the stored record is illegal: {}",
                failure.index, failure.error
            )),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The public actions so far, oldest first (what every player has seen played).
    pub fn history(&self) -> Vec<(Seat, Move)> {
        let variant = self.game.config().variant;
        let layout = self.game.position().layout();
        self.record
            .actions
            .iter()
            .filter_map(|a| a.to_move(variant, layout).ok().map(|mv| (a.seat, mv)))
            .collect()
    }

    /// The record so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Notes in the record that `seat` asked for a hint before the next action.
    pub(super) fn note_hint(&mut self, seat: Seat) {
        self.record.push_hint(seat);
    }

    /// Dice: the player to move rolls `dice` now; appended to the record.
    pub(super) fn roll(&mut self, dice: [u8; 2]) -> Result<[u8; 2], PlayError> {
        let dice = self.game.roll_with(dice)?;
        self.record.push_roll(dice);
        Ok(dice)
    }

    /// Applies a move and appends it to the record: the one place where a game changes.
    ///
    /// King of the Board: a zone this move may need is drawn from a fresh seed of the operating
    /// system's random source, taken now (RULES.md: each zone is drawn when it is needed), and recorded
    /// with the move. Nothing a player saw (the deal, earlier zones, a restart) says anything about it.
    /// Should the source fail (it is logged), the zone comes from the game's own stream, which the last
    /// good seed started and no one has seen.
    pub(super) fn commit(&mut self, seat: Seat, mv: Move) -> Result<Vec<Event>, PlayError> {
        if self.game.config().is_king_of_the_board() {
            if let Some(seed) = OsSeeds.seed() {
                self.game.draw_zones_from(seed);
            }
        }
        let events = self.game.play(seat, mv)?;
        let layout = self.game.position().layout();
        self.record.push(seat, mv, layout, &events);
        metrics::counter!("sequence_moves_total", "game" => self.game.config().variant.name())
            .increment(1);
        Ok(events.to_vec())
    }
}

impl Serialize for LiveGame {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.record.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LiveGame {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<LiveGame, D::Error> {
        let record = Record::deserialize(deserializer)?;
        LiveGame::from_record(record).map_err(serde::de::Error::custom)
    }
}

/// The lobby: seats taken so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lobby {
    /// In order of joining.
    pub seats: Vec<LobbySeat>,
    /// Players of the last game invited to this rematch who have not joined yet, with their team.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invited: Vec<LobbySeat>,
}

/// What a player giving up would leave (see [`Playing::without`]).
#[derive(Clone, Copy, Debug)]
struct Leaving {
    /// No human is left on the player's team: it is out of the game.
    team_out: bool,
    /// A human is left in the game.
    humans_left: bool,
    /// Teams still in the game.
    remaining: usize,
}

impl Leaving {
    /// The game ends: no human is left, or at most one team is still in.
    fn ends_game(self) -> bool {
        self.remaining <= 1 || !self.humans_left
    }
}

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
    /// before a lobby command: the lobby shows, and Start decides, whether the daily limit makes the
    /// game casual.
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

/// The line when running out of time costs a player their seat: a computer takes it (`bot`), or
/// (`None`) the game ends, their side losing if `side_loses`.
fn out_of_time(who: Who, bot: Option<String>, count: u8, side_loses: bool) -> Text {
    match bot {
        Some(bot) => Text::ReplacedAfterTimeouts { who, bot, count },
        None => Text::OutOfTimeLost {
            who,
            count,
            side_loses,
        },
    }
}

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

fn names_of(bits: Bits, game: &Game) -> Vec<String> {
    let layout = game.position().layout();
    BitIter(bits).map(|c| layout.cell_name(c)).collect()
}

/// Two dice thrown from `seed`.
fn throw_dice(seed: u64) -> [u8; 2] {
    let mut rng = GameRng::new(seed);
    [rng.die(), rng.die()]
}

pub(super) fn roll_hint(game: &Game) -> Option<RollHint> {
    let [a, b] = game.position().roll()?;
    Some(match a + b {
        10 if game.move_groups().is_empty() => RollHint::NothingToRemove,
        10 => RollHint::Remove,
        11 => RollHint::Free,
        n if game.move_groups().is_empty() => RollHint::Blocked(n),
        n => {
            let occupied = game.position().occupied();
            let replace = game.move_groups().iter().any(|g| {
                matches!(g.kind, GroupKind::Place) && g.cells & occupied != 0 && g.cells != 0
            });
            if replace {
                RollHint::Replace(n)
            } else {
                RollHint::Number(n)
            }
        }
    })
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
            }),
            paused: None,
            series: None,
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

    /// Pauses the table: a post in its channel was refused. `false` if it was paused already.
    pub(super) fn pause(&mut self, now: Timestamp) -> bool {
        if self.paused.is_some() {
            return false;
        }
        self.paused = Some(Paused {
            since: now,
            ..Paused::default()
        });
        true
    }

    /// Ends a pause: the turn starts afresh (its time ran while nobody could see the game), and the
    /// channel is told the game goes on, with the board and a ping for a human to move.
    pub(super) fn unpause(&mut self, now: Timestamp, settings: &Settings) -> Reply {
        self.paused = None;
        let mut message = Message::text(Text::PostingRestored);
        let timeout = self.setup.turn_timeout(settings);
        if let State::Playing(playing) = &mut self.state {
            playing.turn_started = now;
            playing.reminded = false;
            if !playing.game().position().is_over() {
                message.image = Some(playing.board_image());
                let mut lines = std::mem::take(&mut message.lines);
                push_turn(
                    self.created.0,
                    playing,
                    timeout,
                    settings,
                    &mut lines,
                    &mut message,
                    None,
                );
                message.lines = lines;
            }
        }
        Reply {
            outputs: vec![Output::Channel(message)],
            auto_move: self.auto_due(now, settings),
        }
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
    /// too): it counts toward the daily limit of rated games between the same players while it
    /// runs. `None` without a running rated game.
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

    fn lobby_card(&self, settings: &Settings) -> LobbyCard {
        let seat_line = |s: &LobbySeat| SeatLine {
            who: s.player.who(),
            team: s.team.map(|t| TeamName::of(self.setup.variant, t)),
            cards: None,
            colour: None,
        };
        let invited = match &self.state {
            State::Lobby(lobby) => lobby.invited.iter().map(seat_line).collect(),
            State::Playing(_) => Vec::new(),
        };
        let seats = match &self.state {
            State::Lobby(lobby) => lobby
                .seats
                .iter()
                .map(|s| SeatLine {
                    who: s.player.who(),
                    team: s.team.map(|t| TeamName::of(self.setup.variant, t)),
                    cards: None,
                    colour: None,
                })
                .collect(),
            State::Playing(p) => p.seat_lines(false),
        };
        let rating = match &self.state {
            State::Lobby(lobby) => Some(self.lobby_rating(lobby, settings)),
            State::Playing(_) => None,
        };
        LobbyCard {
            variant: self.setup.variant,
            host: self.host,
            teams: self.setup.teams,
            options: self.setup.options,
            seats,
            max_players: self.setup.max_players(),
            invited,
            rules: Some(self.setup.rules(settings)),
            rating,
        }
    }

    /// Whether the lobby's game would count for ratings if it started now: the host's choice (by
    /// default, whether humans would play on two teams), unless some of its players have reached
    /// the daily limit of rated games against each other.
    fn lobby_rating(&self, lobby: &Lobby, settings: &Settings) -> RatingNote {
        let humans: Vec<u64> = lobby
            .seats
            .iter()
            .filter_map(|s| s.player.user().map(|u| u.0))
            .collect();
        let wanted = self.setup.rated.unwrap_or_else(|| {
            let players = u8::try_from(lobby.seats.len()).unwrap_or(u8::MAX);
            match Config::new(
                self.setup.variant,
                players,
                self.setup.teams,
                self.setup.options,
            )
            .ok()
            .and_then(|config| Some((assign_seats(&lobby.seats, &config).ok()?, config)))
            {
                Some((seats, config)) => humans_on_two_teams(&config, |seat| {
                    seats
                        .get(usize::from(seat))
                        .is_some_and(|p| p.user().is_some())
                }),
                // Not a player count a game can start with yet: two humans will be opponents
                // unless they asked for the same team.
                None => {
                    let mut wishes: Vec<Option<u8>> = lobby
                        .seats
                        .iter()
                        .filter(|s| s.player.user().is_some())
                        .map(|s| s.team)
                        .collect();
                    wishes.dedup();
                    humans.len() >= 2 && !(wishes.len() == 1 && wishes[0].is_some())
                }
            }
        });
        let limit = settings.limits.rated_games_per_day;
        if wanted && rating::daily_limit_reached(&self.meetings, &humans, limit) {
            RatingNote::CasualLimit { limit }
        } else if wanted {
            RatingNote::Rated
        } else if self.setup.rated.is_none() && humans.len() < 2 {
            RatingNote::NeedsOpponent
        } else {
            RatingNote::Casual
        }
    }

    /// The lobby message with its buttons, showing the settings that apply: Join, Leave, Add
    /// computer, Start and Cancel; then a button per team when the teams are set, and Remove computer
    /// while there is one.
    pub fn lobby_message(&self, settings: &Settings) -> Message {
        let mut buttons = vec![
            Button::Join,
            Button::Leave,
            Button::AddBot,
            Button::Begin,
            Button::Cancel,
        ];
        if let Some(teams) = self.setup.teams {
            buttons.extend((1..=teams.min(self.setup.max_teams())).map(Button::JoinTeam));
        }
        let has_bot = match &self.state {
            State::Lobby(lobby) => lobby.seats.iter().any(|s| s.player.user().is_none()),
            State::Playing(_) => false,
        };
        if has_bot {
            buttons.push(Button::RemoveBot);
        }
        Message {
            lines: vec![Text::Lobby(self.lobby_card(settings))],
            buttons,
            ..Message::default()
        }
    }

    /// The private menu of levels for a new computer player; `added` names the one just added.
    fn bot_menu_message(&self, added: Option<String>) -> Message {
        Message {
            lines: vec![Text::BotMenu { added }],
            buttons: BotLevel::ALL
                .into_iter()
                .map(|level| Button::AddBotLevel(self.created.0, level))
                .collect(),
            ..Message::default()
        }
    }

    /// **Add computer**: the menu of levels, for who may add one, while the lobby is open.
    fn bot_menu(&mut self, actor: &Actor) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        self.lobby_mut()?;
        replied(vec![Output::Ephemeral(self.bot_menu_message(None))])
    }

    /// **⋯** on a turn prompt: what else the asker may do in the running game. Everyone may see the
    /// status and the rules; a player also their cards and Leave; who may stop the game, Stop. A
    /// paused game offers only what it allows (no status, no leaving).
    fn game_menu(&mut self, actor: &Actor) -> Outcome {
        let game = self.created.0;
        let may_stop = self.is_boss(actor);
        let paused = self.paused.is_some();
        let playing = self.playing_mut()?;
        let seated = playing.seat_of(actor.user).is_some();
        let mut buttons = Vec::new();
        if !paused {
            buttons.push(Button::Status);
        }
        buttons.push(Button::Rules);
        if seated && playing.game().config().variant.has_cards() {
            buttons.push(Button::Hand);
        }
        if seated && !paused {
            buttons.push(Button::LeaveGame(game));
        }
        if may_stop {
            buttons.push(Button::Stop(game));
        }
        replied(vec![Output::Ephemeral(Message {
            lines: vec![Text::GameMenu],
            buttons,
            ..Message::default()
        })])
    }

    fn lobby_output(&self, message: Message) -> Output {
        Output::Lobby {
            message_id: self.lobby_message,
            message,
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
            return self.press(actor, press, now, settings, seed, lang);
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
            Command::Leave | Command::Forfeit { .. } if in_lobby => {
                self.leave_lobby(actor, settings)
            }
            Command::Leave => self.confirm_leave(actor),
            Command::Forfeit { .. } => self.forfeit(actor, now, settings, lang),
            Command::KeepPlaying => self.keep_playing(actor),
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
            Command::Board => self.board(),
            Command::Status => self.status(now, settings),
            Command::Stats { .. }
            | Command::Leaderboard
            | Command::History
            | Command::Record { .. }
            | Command::Replay { .. } => Err(Text::Internal),
        };
        outcome.unwrap_or_else(Reply::ephemeral)
    }

    // ----- lobby -----

    fn join(&mut self, actor: &Actor, team: Option<u8>, settings: &Settings) -> Outcome {
        let max_players = self.setup.max_players();
        let max_teams = self.setup.max_teams();
        let setup = self.setup;
        let lobby = self.lobby_mut()?;
        if let Some(index) = lobby.seats.iter().position(|s| s.player.is(actor.user)) {
            return match team {
                Some(t) if t >= 1 && t <= max_teams => self.change_team(index, t - 1, settings),
                Some(t) => Err(Text::BadTeam {
                    team: t,
                    max: max_teams,
                }),
                None => Err(Text::AlreadyJoined),
            };
        }
        if lobby.seats.len() >= usize::from(max_players) {
            return Err(Text::LobbyFull { max: max_players });
        }
        let team = match team {
            Some(t) if t == 0 || t > max_teams => {
                return Err(Text::BadTeam {
                    team: t,
                    max: max_teams,
                })
            }
            Some(t) => Some(t - 1),
            None => None,
        };
        // Invited to a rematch: their team of the last game, unless they name another.
        let invitation = lobby.invited.iter().position(|s| s.player.is(actor.user));
        let kept = invitation
            .and_then(|i| lobby.invited.get(i))
            .and_then(|s| s.team)
            .filter(|_| team.is_none());
        let seat = LobbySeat {
            player: Player::Human {
                user: actor.user,
                name: actor.name.clone(),
            },
            team: team.or(kept),
            kept: kept.is_some(),
        };
        if team.is_some() {
            // A team that cannot take another player is refused now, not at Start.
            let mut wishes: Vec<Option<u8>> = lobby
                .seats
                .iter()
                .filter(|s| !s.kept)
                .map(|s| s.team)
                .collect();
            wishes.push(team);
            setup.check_wishes(lobby.seats.len() + 1, &wishes)?;
        }
        if let Some(i) = invitation {
            lobby.invited.remove(i);
        }
        lobby.seats.push(seat);
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::Joined)),
        ])
    }

    /// A seated player asks for another team (0-based): moved if the team has room.
    fn change_team(&mut self, index: usize, team: u8, settings: &Settings) -> Outcome {
        let setup = self.setup;
        let variant = setup.variant;
        let lobby = self.lobby_mut()?;
        let seat = lobby.seats.get(index).ok_or(Text::Internal)?;
        if seat.team == Some(team) && !seat.kept {
            return Err(Text::AlreadyOnTeam(TeamName::of(variant, team)));
        }
        let wishes: Vec<Option<u8>> = lobby
            .seats
            .iter()
            .enumerate()
            .filter(|(i, s)| *i == index || !s.kept)
            .map(|(i, s)| if i == index { Some(team) } else { s.team })
            .collect();
        setup.check_wishes(lobby.seats.len(), &wishes)?;
        if let Some(seat) = lobby.seats.get_mut(index) {
            seat.team = Some(team);
            seat.kept = false;
        }
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::TeamChanged(TeamName::of(
                variant, team,
            )))),
        ])
    }

    fn leave_lobby(&mut self, actor: &Actor, settings: &Settings) -> Outcome {
        let lobby = self.lobby_mut()?;
        let index = lobby
            .seats
            .iter()
            .position(|s| s.player.is(actor.user))
            .ok_or(Text::NotInGame)?;
        lobby.seats.remove(index);
        let next_host = lobby.seats.iter().find_map(|s| s.player.user());
        let computers = !lobby.seats.is_empty();
        let ack = Output::Ephemeral(Message::text(Text::Left));
        match next_host {
            None => {
                self.closed = true;
                replied(vec![
                    self.lobby_output(Message::text(Text::LobbyAbandoned { computers })),
                    ack,
                ])
            }
            Some(next) => {
                let mut message = self.lobby_message(settings);
                if actor.user == self.host {
                    self.host = next;
                    message = self.lobby_message(settings);
                    message.lines.push(Text::HostChanged(next));
                }
                replied(vec![self.lobby_output(message), ack])
            }
        }
    }

    fn add_bot(
        &mut self,
        actor: &Actor,
        level: BotLevel,
        settings: &Settings,
        lang: Lang,
    ) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        let max_players = self.setup.max_players();
        let number = self.bots_added.saturating_add(1);
        let lobby = self.lobby_mut()?;
        if lobby.seats.len() >= usize::from(max_players) {
            return Err(Text::LobbyFull { max: max_players });
        }
        let max_bots = settings.limits.bots_per_table;
        let bots = lobby
            .seats
            .iter()
            .filter(|s| s.player.user().is_none())
            .count();
        if bots >= usize::from(max_bots) {
            return Err(Text::TooManyBots { max: max_bots });
        }
        let level_name = tr(lang, &format!("level-{level}"));
        let name = tr_args(
            lang,
            "bot-name",
            &Args::new()
                .number("number", number)
                .text("level", level_name),
        );
        lobby.seats.push(LobbySeat {
            player: Player::Bot {
                level,
                name: name.clone(),
            },
            team: None,
            kept: false,
        });
        self.bots_added = number;
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::BotAdded(name))),
        ])
    }

    fn remove_bot(&mut self, actor: &Actor, settings: &Settings) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        let lobby = self.lobby_mut()?;
        let index = lobby
            .seats
            .iter()
            .rposition(|s| s.player.user().is_none())
            .ok_or(Text::NoBot)?;
        let seat = lobby.seats.remove(index);
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::BotRemoved(seat.player.name().into()))),
        ])
    }

    fn cancel(&mut self, actor: &Actor) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        self.lobby_mut()?;
        self.closed = true;
        replied(vec![
            self.lobby_output(Message::text(Text::LobbyCancelled { by: actor.user })),
            Output::Ephemeral(Message::text(Text::CancelledAck)),
        ])
    }

    fn begin(&mut self, actor: &Actor, now: Timestamp, seed: u64, settings: &Settings) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        self.deal(now, seed, settings)
    }

    /// Deals the lobby's game: seats, who starts, the first turn.
    pub(super) fn deal(&mut self, now: Timestamp, seed: u64, settings: &Settings) -> Outcome {
        let setup = self.setup;
        let lobby = self.lobby_mut()?;
        let players = u8::try_from(lobby.seats.len()).unwrap_or(u8::MAX);
        let config = Config::new(setup.variant, players, setup.teams, setup.options)
            .map_err(|e| Text::CannotStart(setup.variant, e))?;
        // Teams kept from the last game (a rematch) give way when they no longer fit.
        let mut seats = assign_seats(&lobby.seats, &config).or_else(|e| {
            if !lobby.seats.iter().any(|s| s.kept) {
                return Err(e);
            }
            let wishes: Vec<LobbySeat> = lobby
                .seats
                .iter()
                .map(|s| LobbySeat {
                    team: s.team.filter(|_| !s.kept),
                    ..s.clone()
                })
                .collect();
            assign_seats(&wishes, &config)
        })?;
        // Who starts: in dice a roll-off (RULES.md), in the card games a random dealer. The seats are
        // turned so the starting player sits in seat 0, which moves first in the engine and in records.
        // When players asked for teams, card games turn by whole rounds so the teams keep their numbers.
        let mut rng = GameRng::new(seed ^ 0x5EA7_0F0F);
        let mut roll_off_line = None;
        let first = if setup.variant == Variant::Dice {
            let (rounds, winner) = roll_off(players, &mut rng);
            roll_off_line = Some(Text::RollOff {
                rounds: rounds
                    .iter()
                    .map(|round| {
                        round
                            .iter()
                            .zip(&seats)
                            .filter_map(|(roll, player)| roll.map(|dice| (player.who(), dice)))
                            .collect()
                    })
                    .collect(),
                winner: seats
                    .get(usize::from(winner))
                    .map_or(Who::Bot(String::new()), Player::who),
            });
            usize::from(winner)
        } else if lobby.seats.iter().any(|s| s.team.is_some()) {
            let teams = u32::from(config.teams.max(1));
            (rng.below(u32::from(players) / teams) * teams) as usize
        } else {
            rng.below(u32::from(players)) as usize
        };
        let first = first.min(seats.len());
        seats.rotate_left(first);
        let live = LiveGame::start(config, seed).map_err(|e| {
            tracing::error!(channel = self.channel.0, "cannot start a game: {e}");
            Text::Internal
        })?;
        metrics::counter!("sequence_games_started_total", "game" => config.variant.name())
            .increment(1);
        tracing::info!(players = seats.len(), "game started");
        // Rated or casual is decided now, with the seats and teams as they are.
        let wanted = setup.rated.unwrap_or_else(|| {
            humans_on_two_teams(&config, |seat| {
                seats
                    .get(usize::from(seat))
                    .is_some_and(|p| p.user().is_some())
            })
        });
        let humans: Vec<u64> = seats.iter().filter_map(|p| p.user().map(|u| u.0)).collect();
        let limit = settings.limits.rated_games_per_day;
        let limited = wanted && rating::daily_limit_reached(&self.meetings, &humans, limit);
        let playing = Playing {
            seats,
            live,
            rolled: false,
            turn_started: now,
            reminded: false,
            gave_up: Vec::new(),
            forfeited: Vec::new(),
            timeouts: Vec::new(),
            board_unshown: false,
            human_moves: Some(vec![0; usize::from(players)]),
            rated: Some(wanted && !limited),
            daily_limit: limited.then_some(limit),
            stopped: None,
            own_actions: Some(Vec::new()),
            started: Some(now),
        };
        let note = playing.start_note(&setup);
        let mut outputs = vec![self.lobby_output(Message::text(Text::LobbyStarted(setup.variant)))];
        let mut lines: Vec<Text> = roll_off_line.into_iter().collect();
        lines.push(Text::GameStarted {
            variant: setup.variant,
            seats: playing.seat_lines(false),
        });
        if let (Some(best_of), None) = (setup.series, &self.series) {
            self.series = Some(Series::start(best_of, &playing.seats, config.teams));
        }
        lines.extend(self.series.as_ref().map(Series::game_line));
        lines.push(Text::Rating(note));
        let mut playing = playing;
        // A computer to move first posts the board with its move, a moment later.
        let computer_first = playing.computer_to_move();
        playing.board_unshown = computer_first;
        let mut message = Message {
            image: (!computer_first).then(|| playing.board_image()),
            ..Message::default()
        };
        push_turn(
            self.created.0,
            &playing,
            setup.turn_timeout(settings),
            settings,
            &mut lines,
            &mut message,
            None,
        );
        message.lines = lines;
        outputs.push(Output::Channel(message));
        if setup.variant.has_cards() {
            for (seat, player) in playing.seats.iter().enumerate() {
                if let (Some(user), Ok(seat)) = (player.user(), Seat::try_from(seat)) {
                    outputs.push(Output::Direct {
                        user,
                        message: hand_message(&playing, self.channel, seat, true),
                    });
                }
            }
        }
        outputs.push(Output::Ephemeral(Message::text(Text::BegunAck)));
        self.state = State::Playing(playing);
        Ok(Reply {
            outputs,
            auto_move: self.auto_due(now, settings),
        })
    }

    // ----- game -----

    fn my_turn(&self, actor: &Actor) -> Result<(&Playing, Seat), Text> {
        let playing = match &self.state {
            State::Playing(p) => p,
            State::Lobby(_) => return Err(Text::NotStarted),
        };
        let seat = playing.seat_of(actor.user).ok_or(Text::NotInGame)?;
        let pos = playing.game().position();
        if pos.is_over() {
            return Err(Text::Illegal(PlayError::GameOver));
        }
        if pos.to_move() != seat {
            return Err(Text::NotYourTurn {
                to_move: playing.who(pos.to_move()),
            });
        }
        Ok((playing, seat))
    }

    fn human_move(
        &mut self,
        actor: &Actor,
        command: Command,
        now: Timestamp,
        settings: &Settings,
    ) -> Outcome {
        let variant = self.setup.variant;
        let (playing, seat) = self.my_turn(actor)?;
        let game = playing.game();
        let layout = game.position().layout();
        let parse_cell = |typed: &str| {
            layout.parse_cell(typed).ok_or_else(|| Text::BadCell {
                typed: typed.trim().chars().take(20).collect(),
                last: layout.cell_name(Cell(
                    u8::try_from(layout.len().saturating_sub(1)).unwrap_or(0),
                )),
            })
        };
        let parse_card = |typed: &str| {
            Card::parse(typed, variant).ok_or_else(|| Text::BadCard {
                typed: typed.trim().chars().take(20).collect(),
                variant,
            })
        };
        if matches!(&command, Command::Play { cell, .. } if cell.trim().is_empty()) {
            return Err(Text::CellNeeded);
        }
        let mv = match (variant.has_cards(), command) {
            (true, Command::Play { card: None, .. }) => return Err(Text::CardNeeded),
            (
                true,
                Command::Play {
                    card: Some(card),
                    cell,
                },
            ) => Move::Play {
                card: parse_card(&card)?,
                cell: parse_cell(&cell)?,
            },
            (true, Command::Exchange { card }) => Move::Exchange {
                card: parse_card(&card)?,
            },
            (true, Command::Remove { .. }) => return Err(Text::RemoveWithCard(variant)),
            (true, _) => return Err(Text::NotDice),
            (false, Command::Play { card: Some(_), .. } | Command::Exchange { .. }) => {
                return Err(Text::NoCardsInDice)
            }
            (false, _) if !playing.rolled => return Err(Text::RollFirst),
            (false, Command::Play { card: None, cell }) => {
                let cell = parse_cell(&cell)?;
                match game.position().roll() {
                    Some([a, b]) if a + b == 10 => Move::Remove { cell },
                    _ => Move::Place { cell },
                }
            }
            (false, Command::Remove { cell }) => Move::Remove {
                cell: parse_cell(&cell)?,
            },
            (false, _) => return Err(Text::Internal),
        };
        if let Err(e) = game.check(seat, mv) {
            return Err(illegal_text(game, seat, mv, e));
        }
        let playing = self.playing_mut()?;
        playing.reset_timeouts(seat);
        let index = u32::try_from(playing.live.record().actions.len()).unwrap_or(u32::MAX);
        if let Some(own) = &mut playing.own_actions {
            own.push(index);
        }
        // An exchange of a dead card is not a turn: the player still moves.
        if !matches!(mv, Move::Exchange { .. }) {
            playing.count_move(seat);
        }
        Ok(self.commit_and_report(seat, mv, now, settings, Vec::new(), false))
    }

    /// Dice: the player to move rolls, now: the dice are thrown from `seed` (fresh from the operating
    /// system for this roll), so nothing about a roll exists before the player rolls.
    fn roll(&mut self, actor: &Actor, now: Timestamp, settings: &Settings, seed: u64) -> Outcome {
        if self.setup.variant.has_cards() {
            self.playing_mut()?;
            return Err(Text::NotDice);
        }
        let (playing, seat) = self.my_turn(actor)?;
        if playing.rolled {
            let dice = playing.game().position().roll().ok_or(Text::Internal)?;
            return Err(Text::AlreadyRolled { dice });
        }
        let channel = self.channel;
        let playing = self.playing_mut()?;
        // (A game saved before rolls were made on demand may hold this turn's roll already.)
        if playing.game().needs_roll() {
            playing.live.roll(throw_dice(seed)).map_err(|e| {
                tracing::error!(channel = channel.0, "cannot roll: {e}");
                Text::Internal
            })?;
        }
        let line = rolled_line(playing, seat).ok_or(Text::Internal)?;
        let stuck = playing.game().move_groups().is_empty();
        let playing = self.playing_mut()?;
        playing.rolled = true;
        playing.reset_timeouts(seat);
        if stuck {
            return Ok(self.commit_and_report(seat, Move::Pass, now, settings, Vec::new(), false));
        }
        // One message per turn in the channel: the roll is posted with the move it leads to (see
        // `commit_and_report`); until then only the player sees it.
        replied(vec![Output::Ephemeral(Message::text(line))])
    }

    /// Applies an already checked move, passes for players who cannot move, and reports it all.
    fn commit_and_report(
        &mut self,
        seat: Seat,
        mv: Move,
        now: Timestamp,
        settings: &Settings,
        mut lines: Vec<Text>,
        auto: bool,
    ) -> Reply {
        let channel = self.channel;
        let table = self.created.0;
        let timeout = self.setup.turn_timeout(settings);
        let State::Playing(playing) = &mut self.state else {
            return Reply::ephemeral(Text::Internal);
        };
        let roll = playing.game().position().roll().map(|[a, b]| a + b);
        // Dice: the roll is told with the move it led to, in the same message.
        if playing.rolled && !matches!(mv, Move::Exchange { .. }) {
            lines.extend(rolled_line(playing, seat));
        }
        let events = match playing.live.commit(seat, mv) {
            Ok(events) => events,
            Err(e) => return Reply::ephemeral(Text::Illegal(e)),
        };
        describe(&events, playing, &mut lines);
        let mut new_turn = !matches!(mv, Move::Exchange { .. });
        // A player who cannot do anything passes at once (RULES.md: the turn is passed). In dice this
        // is found when they roll.
        for _ in 0..=playing.seats.len() {
            let game = playing.game();
            if game.position().is_over()
                || !game.config().variant.has_cards()
                || !game.move_groups().is_empty()
            {
                break;
            }
            let stuck = game.position().to_move();
            match playing.live.commit(stuck, Move::Pass) {
                Ok(events) => describe(&events, playing, &mut lines),
                Err(e) => {
                    tracing::error!(channel = channel.0, "automatic pass refused: {e}");
                    break;
                }
            }
            new_turn = true;
        }
        if new_turn {
            playing.rolled = false;
            playing.turn_started = now;
            playing.reminded = false;
        }
        let board_changed = matches!(
            mv,
            Move::Play { .. } | Move::Place { .. } | Move::Remove { .. }
        );
        // A computer's move (or one made for a player whose time ran out) always shows its board, so
        // computers moving one after another leave every position in the channel (issue 26). A
        // person's move with a computer to move next posts its board with the computer's move, a
        // moment later: not a board for "is thinking…" and another right after it.
        let show_board =
            (board_changed || playing.board_unshown) && (auto || !playing.computer_to_move());
        playing.board_unshown = (board_changed || playing.board_unshown) && !show_board;
        let mut outputs = Vec::new();
        let game = playing.game();
        if game.position().is_over() {
            let pos = game.position();
            match pos.status() {
                Status::Won(team) => lines.push(Text::Won {
                    team: TeamName::of(game.config().variant, team),
                    members: playing.team_members(team),
                }),
                Status::Drawn | Status::InProgress => lines.push(Text::Drawn),
            }
            if game.config().options.scoring || game.config().is_king_of_the_board() {
                lines.push(Text::Scores(scores(game)));
            }
            outputs.push(Output::Channel(self.end_game(lines)));
            return Reply {
                outputs,
                auto_move: false,
            };
        }
        let mut message = Message {
            image: show_board.then(|| playing.board_image()),
            ..Message::default()
        };
        if new_turn {
            let again = roll.filter(|_| {
                game.position().to_move() == seat && !game.config().variant.has_cards()
            });
            push_turn(
                table,
                playing,
                timeout,
                settings,
                &mut lines,
                &mut message,
                again,
            );
        }
        message.lines = lines;
        outputs.push(Output::Channel(message));
        let hand_changed = matches!(mv, Move::Play { .. } | Move::Exchange { .. });
        if let (true, Some(user)) = (hand_changed, playing.player(seat).and_then(Player::user)) {
            outputs.push(Output::Direct {
                user,
                message: hand_message(playing, channel, seat, true),
            });
        }
        Reply {
            outputs,
            auto_move: self.auto_due(now, settings),
        }
    }

    /// Closes the table and builds the final message: the lines, the final board and the record.
    fn end_game(&mut self, mut lines: Vec<Text>) -> Message {
        self.closed = true;
        let setup = self.setup;
        let Some(playing) = self.playing() else {
            return Message {
                lines,
                ..Message::default()
            };
        };
        let note = playing.rating_note(&setup);
        if note == RatingNote::Aborted {
            // Nobody wins or loses an aborted game: no line may say otherwise.
            lines.retain(|line| {
                !matches!(
                    line,
                    Text::WonByForfeit { .. } | Text::SharedWin(_) | Text::StopIsGivingUp(_)
                )
            });
        }
        lines.extend(playing.summary_lines());
        lines.extend(playing.hints_used());
        lines.push(Text::Rating(note));
        let attachment = match serde_json::to_vec_pretty(playing.live.record()) {
            Ok(data) => {
                lines.push(Text::RecordAttached);
                Some(Attachment {
                    filename: format!("sequence-{}.json", self.channel.0),
                    data,
                })
            }
            Err(e) => {
                tracing::error!(channel = self.channel.0, "cannot write the record: {e}");
                None
            }
        };
        Message {
            lines,
            image: Some(playing.board_image()),
            buttons: vec![Button::Rematch(self.created.0)],
            components: Vec::new(),
            attachment,
            mentions: Vec::new(),
        }
    }

    /// `/sequence leave` (or the Leave button) during a game: asks first, privately, with the
    /// Confirm and Keep playing buttons. Changes nothing.
    fn confirm_leave(&mut self, actor: &Actor) -> Outcome {
        let game = self.created.0;
        let playing = self.playing_mut()?;
        let seat = playing.seat_of(actor.user).ok_or(Text::NotInGame)?;
        let ends_game = playing.leaving_ends_game(seat);
        self.open_question(actor.user, Question::Leave);
        replied(vec![Output::Ephemeral(Message {
            lines: vec![Text::ConfirmLeave { ends_game }],
            buttons: vec![Button::ConfirmLeave(game), Button::KeepPlaying],
            ..Message::default()
        })])
    }

    /// **Stop the game** in the ⋯ menu: asks first, privately, saying what stopping means for the
    /// asker (a player gives up; a moderator ends it without a result). Changes nothing.
    fn confirm_stop(&mut self, actor: &Actor) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        let game = self.created.0;
        let playing = self.playing_mut()?;
        let gives_up = playing.seat_of(actor.user).is_some();
        self.open_question(actor.user, Question::Stop);
        replied(vec![Output::Ephemeral(Message {
            lines: vec![Text::ConfirmStop { gives_up }],
            buttons: vec![Button::ConfirmStop(game), Button::KeepPlaying],
            ..Message::default()
        })])
    }

    /// **Keep playing** (on any of the questions: give up, stop, abandon the series, a hint that
    /// makes the game casual): closes the asker's open questions (their Yes no longer counts) and
    /// answers in the question's place, so its buttons go. Changes nothing else, also between two
    /// games of a series.
    fn keep_playing(&mut self, actor: &Actor) -> Outcome {
        self.questions.retain(|&(user, _)| user != actor.user);
        replied(vec![Output::Update(Message::text(Text::KeptPlaying))])
    }

    fn forfeit(
        &mut self,
        actor: &Actor,
        now: Timestamp,
        settings: &Settings,
        lang: Lang,
    ) -> Outcome {
        let playing = self.playing_mut()?;
        let seat = playing.seat_of(actor.user).ok_or(Text::NotInGame)?;
        let ack = Output::Ephemeral(Message::text(Text::ForfeitAck));
        let who = Who::User(actor.user);
        let (lines, ended) =
            self.replace_by_computer(seat, settings, lang, |bot, _| match bot {
                Some(bot) => Text::Forfeited { who, bot },
                None => Text::GaveUp(who),
            })?;
        self.questions
            .retain(|&asked| asked != (actor.user, Question::Leave));
        if ended {
            let message = self.end_game(lines);
            return replied(vec![Output::Channel(message), ack]);
        }
        Ok(Reply {
            outputs: vec![Output::Channel(Message::text_lines(lines)), ack],
            auto_move: self.auto_due(now, settings),
        })
    }

    /// Where running out of time gives up (the server's `on_timeout` setting): `user`, to move,
    /// ran out of time. A computer takes the seat, or their side loses if nobody is left on it;
    /// announced as running out of time, not as giving up.
    pub(super) fn time_ran_out(
        &mut self,
        user: UserId,
        now: Timestamp,
        settings: &Settings,
        lang: Lang,
    ) -> Reply {
        let Some(playing) = self.playing_mut().ok() else {
            return Reply::default();
        };
        let Some(seat) = playing.seat_of(user) else {
            return Reply::default();
        };
        let count = playing.count_timeout(seat);
        let who = Who::User(user);
        let replaced = self.replace_by_computer(seat, settings, lang, |bot, side_loses| {
            out_of_time(who, bot, count, side_loses)
        });
        match replaced {
            Ok((lines, true)) => Reply {
                outputs: vec![Output::Channel(self.end_game(lines))],
                auto_move: false,
            },
            Ok((lines, false)) => Reply {
                outputs: vec![Output::Channel(Message::text_lines(lines))],
                auto_move: self.auto_due(now, settings),
            },
            Err(_) => Reply::default(),
        }
    }

    /// A computer player takes the seat of its human for the rest of the game (who gave up, or timed
    /// out too often); `announce` names the change. Returns the lines to post and whether the game
    /// ended: when no human is left, or every other team gave up. An ended game gets no computer
    /// player: the lines say who gave up and how the game ended, nothing that contradicts it.
    fn replace_by_computer(
        &mut self,
        seat: Seat,
        settings: &Settings,
        lang: Lang,
        announce: impl FnOnce(Option<String>, bool) -> Text,
    ) -> Result<(Vec<Text>, bool), Text> {
        let playing = self.playing_mut()?;
        let leaving = playing.without(seat);
        let slot = playing
            .seats
            .get_mut(usize::from(seat))
            .ok_or(Text::Internal)?;
        let Player::Human { name, .. } = slot.clone() else {
            return Err(Text::NotInGame);
        };
        let bot = tr_args(
            lang,
            "bot-stand-in",
            &Args::new().text("name", name.as_str()),
        );
        let original = std::mem::replace(
            slot,
            Player::Bot {
                level: settings.default_bot_level,
                name: bot.clone(),
            },
        );
        playing.forfeited.push((seat, original));
        let team = playing.game().config().team_of(seat);
        if leaving.team_out && !playing.gave_up.contains(&team) {
            playing.gave_up.push(team);
        }
        if !leaving.ends_game() {
            return Ok((vec![announce(Some(bot), false)], false));
        }
        let mut lines = vec![announce(None, leaving.team_out)];
        if !leaving.humans_left && leaving.remaining > 1 {
            lines.push(Text::NoHumansLeft);
        }
        lines.extend(playing.win_by_giving_up());
        Ok((lines, true))
    }

    /// Ends the game now. Stopped by one of its players, that counts as giving up: a loss for their
    /// team, a win for the others. Stopped by someone who is not playing (a moderator), the game
    /// ends without a result (those who already gave up keep their loss).
    fn stop(&mut self, actor: &Actor) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        let playing = self.playing_mut()?;
        let mut lines = vec![Text::Stopped(Who::User(actor.user))];
        match playing.seat_of(actor.user) {
            Some(seat) => {
                let team = playing.game().config().team_of(seat);
                if !playing.gave_up.contains(&team) {
                    playing.gave_up.push(team);
                }
                playing.stopped = Some(Stop::Player(seat));
                lines.push(Text::StopIsGivingUp(Who::User(actor.user)));
                lines.extend(playing.win_by_giving_up());
            }
            None => playing.stopped = Some(Stop::Moderator),
        }
        let message = self.end_game(lines);
        replied(vec![
            Output::Channel(message),
            Output::Ephemeral(Message::text(Text::StoppedAck)),
        ])
    }

    fn hand(&mut self, actor: &Actor) -> Outcome {
        let channel = self.channel;
        let playing = self.playing_mut()?;
        let seat = playing.seat_of(actor.user).ok_or(Text::NotInGame)?;
        if !playing.game().config().variant.has_cards() {
            return Err(Text::NoCardsInDice);
        }
        replied(vec![Output::Ephemeral(hand_message(
            playing, channel, seat, true,
        ))])
    }

    fn board(&mut self) -> Outcome {
        let playing = self.playing_mut()?;
        let game = playing.game();
        let message = Message {
            lines: vec![Text::BoardCaption {
                variant: game.config().variant,
                to_move: playing.who(game.position().to_move()),
            }],
            image: Some(playing.board_image()),
            ..Message::default()
        };
        replied(vec![Output::Channel(message)])
    }

    fn status(&mut self, now: Timestamp, settings: &Settings) -> Outcome {
        let card = self.lobby_card(settings);
        let State::Playing(playing) = &self.state else {
            return replied(vec![Output::Ephemeral(Message::text(Text::LobbyStatus(
                card,
            )))]);
        };
        let game = playing.game();
        let config = game.config();
        let pos = game.position();
        let info = StatusInfo {
            variant: config.variant,
            seats: playing.seat_lines(true),
            to_move: playing.who(pos.to_move()),
            sequences: (0..config.teams)
                .map(|t| (TeamName::of(config.variant, t), pos.sequence_count(t)))
                .collect(),
            target: pos.target(),
            draw_pile: config.variant.has_cards().then(|| game.draw_pile_len()),
            roll: pos.roll().filter(|_| playing.rolled),
            seconds_left: now.seconds_until(
                playing
                    .turn_started
                    .after(self.setup.turn_timeout(settings)),
            ),
            zone: pos.zone().map(ZoneInfo::of),
            points: config.is_king_of_the_board().then(|| {
                (0..config.teams)
                    .map(|t| (TeamName::of(config.variant, t), pos.points(t)))
                    .collect::<Vec<_>>()
                    .into_boxed_slice()
            }),
        };
        let mut lines = vec![Text::Status(info)];
        // While a game of a series runs: which game it is, and the score so far.
        lines.extend(self.series.as_ref().map(Series::game_line));
        // After a hint: how many, and whether the game still counts (a confirmed hint in a rated
        // game made it casual).
        if let Some(hints) = playing.hints_used() {
            lines.push(hints);
            lines.push(Text::Rating(if playing.counts_for_ratings(&self.setup) {
                RatingNote::Rated
            } else {
                RatingNote::Casual
            }));
        }
        replied(vec![Output::Ephemeral(Message::text_lines(lines))])
    }

    // ----- timers and computer players -----

    /// Whether a computer move is due now (a bot to move, or a human whose time ran out).
    fn auto_due(&self, now: Timestamp, settings: &Settings) -> bool {
        let Some(playing) = self.playing() else {
            return false;
        };
        let pos = playing.game().position();
        if self.closed || self.paused.is_some() || pos.is_over() {
            return false;
        }
        match playing.player(pos.to_move()) {
            Some(Player::Bot { .. }) => true,
            Some(Player::Human { .. }) => {
                now >= playing
                    .turn_started
                    .after(self.setup.turn_timeout(settings))
            }
            None => false,
        }
    }

    /// The human to move whose turn has run out at `now`, if any.
    pub(super) fn timed_out_human(
        &self,
        now: Timestamp,
        settings: &Settings,
    ) -> Option<(UserId, String)> {
        let playing = self.playing()?;
        let pos = playing.game().position();
        // Paused, the turn's time stands still (nobody could see the game).
        if self.closed || self.paused.is_some() || pos.is_over() {
            return None;
        }
        match playing.player(pos.to_move())? {
            Player::Human { user, name }
                if now
                    >= playing
                        .turn_started
                        .after(self.setup.turn_timeout(settings)) =>
            {
                Some((*user, name.clone()))
            }
            _ => None,
        }
    }

    /// Reminders and lobby expiry at `now`.
    pub(super) fn tick(&mut self, now: Timestamp, settings: &Settings) -> Reply {
        let mut reply = Reply::default();
        let (timeout, reminder) = (
            self.setup.turn_timeout(settings),
            self.setup.turn_reminder(settings),
        );
        if self.paused.is_some() {
            // Nobody could see a reminder or an expiry: time stands still until the pause ends.
            return reply;
        }
        match &mut self.state {
            State::Lobby(_) => {
                if now >= self.created.after(settings.lobby_timeout) {
                    self.closed = true;
                    let note = match &self.series {
                        // Between two games of a series: nobody pressed Next game in time.
                        Some(series) => {
                            super::series::ended_between_games(series, Text::SeriesExpired)
                        }
                        None => self.lobby_output(Message::text(Text::LobbyExpired)),
                    };
                    reply.outputs.push(note);
                }
            }
            State::Playing(playing) => {
                let pos = playing.game().position();
                let to_move = pos.to_move();
                let deadline = playing.turn_started.after(timeout);
                if let (false, false, Some(user), Some(reminder)) = (
                    pos.is_over(),
                    playing.reminded,
                    playing.player(to_move).and_then(Player::user),
                    reminder,
                ) {
                    if now >= playing.turn_started.after(reminder) && now < deadline {
                        playing.reminded = true;
                        // This timeout would be one too many in a row: the seat would go for good.
                        let in_a_row = playing
                            .timeouts
                            .get(usize::from(to_move))
                            .copied()
                            .unwrap_or(0);
                        let limit = settings.replace_after_timeouts;
                        let last_chance = limit > 0 && in_a_row.saturating_add(1) >= limit;
                        let message = Message {
                            lines: vec![Text::Reminder {
                                who: Who::User(user),
                                seconds_left: now.seconds_until(deadline),
                                gives_up: settings.timeout_gives_up || last_chance,
                                ends_game: playing.leaving_ends_game(to_move),
                            }],
                            mentions: vec![user],
                            components: vec![vec![picker::prompt_button(
                                self.created.0,
                                playing.game(),
                            )]],
                            ..Message::default()
                        };
                        reply.outputs.push(Output::Channel(message));
                    }
                }
                reply.auto_move = self.auto_due(now, settings);
            }
        }
        reply
    }

    /// After a restart: the note for the channel, and whether the table changed. A human whose turn ran
    /// out while the bot was down gets the time a reminded player has (the turn timeout minus the
    /// reminder) instead of losing the turn at once; every other deadline is kept. An expired lobby
    /// gets no note: the next tick closes it.
    pub(super) fn resume(&mut self, now: Timestamp, settings: &Settings) -> (Reply, bool) {
        if self.paused.is_some() {
            // The channel refused posts before the restart: still paused, nothing to say there.
            return (Reply::default(), false);
        }
        let variant = self.setup.variant;
        let timeout = self.setup.turn_timeout(settings);
        // A turn that ran out while the bot was down gets the time a reminded player has left (half
        // of a blitz clock, which has no reminder).
        let grace = match self.setup.turn_reminder(settings) {
            Some(reminder) => timeout.saturating_sub(reminder),
            None => timeout / 2,
        };
        let mut changed = false;
        let message = match &mut self.state {
            State::Lobby(_) if now >= self.created.after(settings.lobby_timeout) => None,
            State::Lobby(_) => Some(match &self.series {
                // Between two games of a series: its score, and its buttons again.
                Some(series) => Message {
                    lines: vec![series.score(), Text::SeriesNext],
                    buttons: vec![
                        Button::NextGame(self.created.0),
                        Button::AbandonSeries(self.created.0),
                    ],
                    ..Message::default()
                },
                None => Message::text(Text::LobbyResumed(variant)),
            }),
            State::Playing(playing) => {
                let seat = playing.game().position().to_move();
                let human = playing.player(seat).and_then(Player::user);
                let mut seconds_left = None;
                if human.is_some() {
                    if now >= playing.turn_started.after(timeout) {
                        let elapsed = timeout.saturating_sub(grace);
                        let elapsed = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
                        playing.turn_started = Timestamp(now.0.saturating_sub(elapsed));
                        playing.reminded = true;
                        changed = true;
                    }
                    seconds_left = Some(now.seconds_until(playing.turn_started.after(timeout)));
                }
                let mut lines = vec![Text::GameResumed {
                    variant,
                    to_move: playing.who(seat),
                    seconds_left,
                }];
                if let Some(zone) = playing.game().position().zone() {
                    lines.push(Text::Zone(ZoneInfo::of(zone)));
                }
                Some(Message {
                    lines,
                    image: Some(playing.board_image()),
                    mentions: human.into_iter().collect(),
                    components: human
                        .map(|_| vec![picker::prompt_button(self.created.0, playing.game())])
                        .into_iter()
                        .collect(),
                    // As on a turn prompt: once its turn is over, the Play button goes and these stay.
                    buttons: match (human, playing.game().config().variant.has_cards()) {
                        (None, _) => Vec::new(),
                        (Some(_), true) => vec![Button::Hand, Button::More(self.created.0)],
                        (Some(_), false) => vec![Button::More(self.created.0)],
                    },
                    ..Message::default()
                })
            }
        };
        let reply = Reply {
            outputs: message.map(Output::Channel).into_iter().collect(),
            auto_move: self.auto_due(now, settings),
        };
        (reply, changed)
    }

    /// When the table last moved on: its turn's start in a game, its opening as a lobby.
    pub fn last_activity(&self) -> Timestamp {
        match &self.state {
            State::Lobby(_) => self.created,
            State::Playing(playing) => playing.turn_started,
        }
    }

    /// Takes the pending computer move, if one is due and no other is being chosen.
    pub(super) fn claim_auto_task(
        &mut self,
        now: Timestamp,
        settings: &Settings,
        seed: u64,
    ) -> Option<AutoTask> {
        if self.auto_busy || !self.auto_due(now, settings) {
            return None;
        }
        let channel = self.channel;
        let turn_timeout = self.setup.turn_timeout(settings);
        let mut rng = GameRng::new(seed);
        let playing = self.playing_mut().ok()?;
        if playing.game().needs_roll() {
            // The computer (or the timer) rolls for the player now, before choosing.
            let dice = [rng.die(), rng.die()];
            if let Err(e) = playing.live.roll(dice) {
                tracing::error!(channel = channel.0, "cannot roll for a computer move: {e}");
                return None;
            }
        }
        let game = playing.game();
        let seat = game.position().to_move();
        let (level, timed_out, due) = match playing.player(seat)? {
            Player::Bot { level, .. } => (*level, false, playing.turn_started),
            // A turn played for a player who ran out of time is played with care: at least
            // `medium` (an `easy` turn plays at random, and could waste a two-eyed jack).
            Player::Human { .. } => (
                match settings.default_bot_level {
                    BotLevel::Easy => BotLevel::Medium,
                    level => level,
                },
                true,
                playing.turn_started.after(turn_timeout),
            ),
        };
        let plies = game.position().plies();
        let task = AutoTask {
            seat,
            plies,
            view: game.view(seat),
            history: playing.live.history(),
            level,
            seed: rng.next_u64(),
            timed_out,
            due,
        };
        self.auto_busy = true;
        Some(task)
    }

    /// Applies a chosen computer move if the game is still where the task found it.
    pub(super) fn apply_auto(
        &mut self,
        task: &AutoTask,
        chosen: Option<Move>,
        now: Timestamp,
        settings: &Settings,
        lang: Lang,
    ) -> Option<Reply> {
        self.auto_busy = false;
        // Paused while the move was chosen: nothing is played until the channel takes posts again,
        // when the move is due again.
        if self.closed || self.paused.is_some() {
            return None;
        }
        let channel = self.channel;
        let State::Playing(playing) = &mut self.state else {
            return None;
        };
        let game = playing.game();
        let pos = game.position();
        if pos.is_over() || pos.plies() != task.plies || pos.to_move() != task.seat {
            return None;
        }
        let mv = match chosen.filter(|&mv| game.check(task.seat, mv).is_ok()) {
            Some(mv) => mv,
            None => {
                tracing::warn!(
                    channel = channel.0,
                    "computer player gave no legal move; playing a random one"
                );
                random_legal_move(&game.view(task.seat), task.seed)
            }
        };
        let mut lines = Vec::new();
        let who = playing.who(task.seat);
        if !game.config().variant.has_cards() {
            // The computer rolled for the seat: `commit_and_report` tells the roll with the move.
            playing.rolled = true;
        }
        if task.timed_out {
            let count = playing.count_timeout(task.seat);
            let limit = settings.replace_after_timeouts;
            if limit > 0 && count >= limit && !settings.timeout_gives_up {
                // Too many turns timed out in a row: a computer keeps the seat (announced once).
                match self.replace_by_computer(task.seat, settings, lang, |bot, side_loses| {
                    out_of_time(who.clone(), bot, count, side_loses)
                }) {
                    Ok((replaced, true)) => {
                        return Some(Reply {
                            outputs: vec![Output::Channel(self.end_game(replaced))],
                            auto_move: false,
                        })
                    }
                    Ok((replaced, false)) => lines.extend(replaced),
                    Err(e) => {
                        tracing::error!(channel = channel.0, "cannot replace a player: {e}");
                        lines.push(Text::TimedOut(who.clone()));
                    }
                }
            } else {
                lines.push(Text::TimedOut(who.clone()));
            }
        }
        Some(self.commit_and_report(task.seat, mv, now, settings, lines, true))
    }

    // ----- autocomplete -----

    /// The caller's own cards (only dead ones with `dead_only`), matching what they typed.
    pub(super) fn complete_card(
        &self,
        user: UserId,
        typed: &str,
        dead_only: bool,
        lang: Lang,
    ) -> Vec<Choice> {
        let Some(playing) = self.playing() else {
            return Vec::new();
        };
        let Some(seat) = playing.seat_of(user) else {
            return Vec::new();
        };
        let game = playing.game();
        let typed = typed.trim().to_lowercase();
        let mut seen: Vec<Card> = Vec::new();
        let mut choices = Vec::new();
        for &card in game.hand(seat) {
            if seen.contains(&card) || (dead_only && !game.position().is_dead(card)) {
                continue;
            }
            seen.push(card);
            let code = card.to_string();
            let matches = typed.is_empty()
                || code.to_lowercase().starts_with(&typed)
                || card.pretty().to_lowercase().starts_with(&typed)
                || card_label(card, lang).to_lowercase().starts_with(&typed);
            if !matches {
                continue;
            }
            let line = card_line(game, seat, card).render(lang);
            let label: String = line.chars().take(MAX_LABEL).collect();
            choices.push(Choice { label, value: code });
        }
        choices.truncate(MAX_CHOICES);
        choices
    }

    /// The cells the caller may use with `card` (dice: for the current roll, once rolled).
    pub(super) fn complete_cell(
        &self,
        user: UserId,
        card: Option<&str>,
        typed: &str,
        lang: Lang,
    ) -> Vec<Choice> {
        let Some(playing) = self.playing() else {
            return Vec::new();
        };
        let Some(seat) = playing.seat_of(user) else {
            return Vec::new();
        };
        let game = playing.game();
        let pos = game.position();
        let config = game.config();
        let (cells, removing) = if config.variant.has_cards() {
            let Some(card) = card.and_then(|c| Card::parse(c, config.variant)) else {
                return Vec::new();
            };
            if !game.hand(seat).contains(&card) {
                return Vec::new();
            }
            (
                pos.card_targets(config.team_of(seat), card),
                card.effect() == CardEffect::Remove,
            )
        } else {
            if pos.to_move() != seat || !playing.rolled {
                return Vec::new();
            }
            let mut cells = 0;
            let mut removing = false;
            for group in game.move_groups() {
                cells |= group.cells;
                removing |= group.kind == GroupKind::Remove;
            }
            (cells, removing)
        };
        let typed = typed.trim().to_uppercase();
        let layout = pos.layout();
        BitIter(cells)
            .map(|cell| (cell, layout.cell_name(cell)))
            .filter(|(_, name)| name.starts_with(&typed))
            .take(MAX_CHOICES)
            .map(|(cell, name)| {
                let label = match pos.owner(cell) {
                    Some(team) => {
                        let key = if removing {
                            "complete-remove"
                        } else {
                            "complete-replace"
                        };
                        let team = TeamName::of(config.variant, team).render(lang);
                        let label = tr_args(
                            lang,
                            key,
                            &Args::new().text("cell", name.as_str()).text("team", team),
                        );
                        label.chars().take(MAX_LABEL).collect()
                    }
                    None => name.clone(),
                };
                Choice { label, value: name }
            })
            .collect()
    }
}

/// Seats in turn order from the lobby, honouring team wishes: seat `i` is on team `i % teams`.
/// Whether humans (`is_human` by seat) sit on at least two teams of `config`: by default such a game
/// counts for ratings.
fn humans_on_two_teams(config: &Config, is_human: impl Fn(Seat) -> bool) -> bool {
    let mut teams: Vec<u8> = (0..config.players)
        .filter(|&seat| is_human(seat))
        .map(|seat| config.team_of(seat))
        .collect();
    teams.sort_unstable();
    teams.dedup();
    teams.len() >= 2
}

fn assign_seats(seats: &[LobbySeat], config: &Config) -> Result<Vec<Player>, Text> {
    let teams = usize::from(config.teams.max(1));
    let size = config.players / config.teams.max(1);
    let mut chosen: Vec<VecDeque<&Player>> = vec![VecDeque::new(); teams];
    let mut free: VecDeque<&Player> = VecDeque::new();
    for seat in seats {
        match seat.team {
            Some(t) => chosen
                .get_mut(usize::from(t))
                .ok_or(Text::BadTeam {
                    team: t.saturating_add(1),
                    max: config.teams,
                })?
                .push_back(&seat.player),
            None => free.push_back(&seat.player),
        }
    }
    for (t, wishes) in chosen.iter().enumerate() {
        if wishes.len() > usize::from(size) {
            return Err(Text::TeamFull {
                team: TeamName::of(config.variant, t as u8),
                size,
                chosen: u8::try_from(wishes.len()).unwrap_or(u8::MAX),
            });
        }
    }
    let mut order = Vec::with_capacity(seats.len());
    for seat in 0..usize::from(config.players) {
        let team = seat % teams;
        let player = chosen
            .get_mut(team)
            .and_then(VecDeque::pop_front)
            .or_else(|| free.pop_front())
            .ok_or(Text::Internal)?;
        order.push(player.clone());
    }
    Ok(order)
}

/// Dice: the line that tells the roll of `seat` (to move, having rolled) and what it allows.
pub(super) fn rolled_line(playing: &Playing, seat: Seat) -> Option<Text> {
    let game = playing.game();
    if game.config().variant.has_cards() {
        return None;
    }
    Some(Text::Rolled {
        who: playing.who(seat),
        dice: game.position().roll()?,
        hint: roll_hint(game)?,
    })
}

/// The turn line (with a ping for a human) and the turn buttons.
fn push_turn(
    table: u64,
    playing: &Playing,
    timeout: Duration,
    settings: &Settings,
    lines: &mut Vec<Text>,
    message: &mut Message,
    again: Option<u8>,
) {
    let game = playing.game();
    let seat = game.position().to_move();
    let dice = !game.config().variant.has_cards();
    let human = playing.player(seat).and_then(Player::user).is_some();
    lines.push(Text::Turn {
        who: playing.who(seat),
        dice,
        again,
        deadline: human.then(|| playing.turn_started.after(timeout).0 / 1000),
    });
    // A player who ran out of time on their last turn, for whom the next timeout decides, is told
    // in the prompt itself (a short clock has no reminder).
    let in_a_row = playing
        .timeouts
        .get(usize::from(seat))
        .copied()
        .unwrap_or(0);
    let limit = settings.replace_after_timeouts;
    if human && in_a_row > 0 && limit > 0 && in_a_row.saturating_add(1) >= limit {
        lines.push(Text::TimeoutWarning {
            who: playing.who(seat),
            count: in_a_row,
            ends_game: playing.leaving_ends_game(seat),
        });
    }
    if let Some(zone) = game.position().zone() {
        lines.push(Text::Zone(ZoneInfo::of(zone)));
    }
    if let Some(user) = playing.player(seat).and_then(Player::user) {
        message.mentions.push(user);
        message.components = vec![vec![picker::prompt_button(table, game)]];
    }
    message.buttons = if dice {
        vec![Button::More(table)]
    } else {
        vec![Button::Hand, Button::More(table)]
    };
}

/// The private hand message of a seat: the cards, what each can do, and the hand picture. With
/// `turn_note`, a player to move is told how to play (the picker leaves it out: its buttons follow).
pub(super) fn hand_message(
    playing: &Playing,
    channel: ChannelId,
    seat: Seat,
    turn_note: bool,
) -> Message {
    let game = playing.game();
    let cards = game
        .hand(seat)
        .iter()
        .map(|&card| card_line(game, seat, card))
        .collect();
    Message {
        lines: vec![Text::Hand {
            channel,
            cards,
            your_turn: turn_note && game.position().to_move() == seat && !game.position().is_over(),
        }],
        image: Some(Image::Hand(HandImage::of(game, seat))),
        ..Message::default()
    }
}

pub(super) fn card_line(game: &Game, seat: Seat, card: Card) -> CardLine {
    let pos = game.position();
    let use_ = match card.effect() {
        CardEffect::Wild => CardUse::Wild,
        CardEffect::Remove => CardUse::Remove,
        CardEffect::Cells => {
            let targets = pos.card_targets(game.config().team_of(seat), card);
            if targets == 0 && pos.has_exchanged() && pos.to_move() == seat {
                // One exchange a turn: this one waits for the next turn.
                CardUse::DeadExchanged
            } else if targets == 0 {
                CardUse::Dead
            } else {
                CardUse::Cells(names_of(targets, game))
            }
        }
    };
    CardLine { card, use_ }
}

/// Points per team: sequences in a `scoring` game, points in King of the Board.
fn scores(game: &Game) -> Vec<(TeamName, usize)> {
    let variant = game.config().variant;
    let pos = game.position();
    let points = if game.config().is_king_of_the_board() {
        pos.points_per_team().into_iter().map(usize::from).collect()
    } else {
        pos.scores()
    };
    points
        .into_iter()
        .enumerate()
        .map(|(t, n)| (TeamName::of(variant, t as u8), n))
        .collect()
}

/// A refusal of the engine, with the cells that would work when the card was the problem.
fn illegal_text(game: &Game, seat: Seat, mv: Move, error: PlayError) -> Text {
    match (mv, error) {
        // Only ever an answer to the player themselves (a refusal is private).
        (_, PlayError::CardNotInHand) => Text::NotInHand(game.hand(seat).to_vec()),
        (Move::Place { .. } | Move::Remove { .. }, PlayError::CardDoesNotMatch) => {
            let mut cells = 0;
            for group in game.move_groups() {
                cells |= group.cells;
            }
            let mut cells = names_of(cells, game);
            if cells.len() > 12 {
                cells.clear();
            }
            let total = game.position().roll().map_or(0, |[a, b]| a + b);
            Text::RollDoesNotMatch { total, cells }
        }
        (
            Move::Play { card, .. },
            PlayError::CellOccupied
            | PlayError::CardDoesNotMatch
            | PlayError::FreeCorner
            | PlayError::NoOpponentChip
            | PlayError::ChipLocked,
        ) => {
            let targets = game
                .position()
                .card_targets(game.config().team_of(seat), card);
            let mut cells = names_of(targets, game);
            if cells.len() > 12 {
                return Text::Illegal(error);
            }
            cells.truncate(12);
            Text::IllegalWithCells(error, cells)
        }
        _ => Text::Illegal(error),
    }
}

/// One line per public event. Drawn cards and dice rolls are not described here.
fn describe(events: &[Event], playing: &Playing, lines: &mut Vec<Text>) {
    let game = playing.game();
    let config = game.config();
    let layout = game.position().layout();
    let variant = config.variant;
    let team_name = |t: u8| TeamName::of(variant, t);
    let done_here = |team: u8| {
        events
            .iter()
            .filter(|e| matches!(e, Event::SequenceCompleted { team: t, .. } if *t == team))
            .count()
    };
    let mut seen_done = [0usize; 4];
    let kotb = config.is_king_of_the_board();
    // King of the Board: each team's points before this move, counted up score by score.
    let mut points: Vec<u8> = (0..config.teams)
        .map(|t| {
            let scored: u8 = events
                .iter()
                .filter_map(|e| match *e {
                    Event::Scored { team, points, .. } if team == t => Some(points),
                    _ => None,
                })
                .sum();
            game.position().points(t).saturating_sub(scored)
        })
        .collect();
    for event in events {
        let line = match *event {
            Event::Exchanged { seat, card } => Text::Exchanged {
                who: playing.who(seat),
                card,
            },
            Event::Placed {
                seat,
                card: Some(card),
                cell,
                ..
            } => Text::Played {
                who: playing.who(seat),
                card,
                cell: layout.cell_name(cell),
            },
            Event::Placed {
                seat,
                card: None,
                cell,
                replaced,
                ..
            } => Text::Placed {
                who: playing.who(seat),
                cell: layout.cell_name(cell),
                replaced: replaced.map(team_name),
            },
            Event::Removed {
                seat,
                team,
                card,
                cell,
            } => Text::Removed {
                who: playing.who(seat),
                card,
                cell: layout.cell_name(cell),
                victim: team_name(team),
            },
            Event::Captured {
                team,
                victim,
                cells: [a, b],
            } => Text::Captured {
                team: team_name(team),
                victim: team_name(victim),
                cells: [layout.cell_name(a), layout.cell_name(b)],
            },
            // King of the Board tells the points the sequence scored instead.
            Event::SequenceCompleted { .. } if kotb => continue,
            Event::Scored {
                team,
                points: scored,
                in_zone,
                ..
            } => {
                let total = points.get_mut(usize::from(team)).map_or(scored, |p| {
                    *p = p.saturating_add(scored);
                    *p
                });
                Text::ZoneScored {
                    team: team_name(team),
                    in_zone,
                    total,
                    target: game.position().target(),
                }
            }
            Event::ZoneMoved { to, .. } => Text::ZoneMoved(ZoneInfo::of(to)),
            Event::SequenceCompleted { team, .. } => {
                let now_count = game.position().sequence_count(team);
                let seen = seen_done.get_mut(usize::from(team));
                let k = seen.map_or(1, |s| {
                    *s += 1;
                    *s
                });
                Text::SequenceDone {
                    team: team_name(team),
                    count: now_count.saturating_sub(done_here(team)) + k,
                    target: config.sequences_to_win(),
                }
            }
            Event::SequenceBroken { team } => Text::SequenceBroken(team_name(team)),
            Event::Reshuffled => Text::Reshuffled,
            Event::Passed { seat } => Text::Passed(playing.who(seat)),
            Event::ProvisionalWin { team } => Text::ProvisionalWin(team_name(team)),
            Event::Drew { .. } | Event::Rolled { .. } | Event::Won { .. } | Event::Drawn => {
                continue
            }
        };
        lines.push(line);
    }
}
