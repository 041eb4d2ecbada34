//! The game being played, as data: who sits in each seat (`Player`), the running game with its
//! seats, timers and counts (`Playing`), the game kept as its record (`LiveGame`), who stopped it, and
//! the turn number a prompt carries.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::{
    Config, Event, Game, Move, PlayError, Record, RecordError, RollMode, Seat, Status,
};

use crate::service::bot::BotLevel;
use crate::service::ids::{Timestamp, UserId};
use crate::service::reply::{BoardImage, Image};
use crate::service::rules::ABORT_MOVES;
use crate::service::seeds::{OsSeeds, SeedSource};
use crate::service::text::{RatingNote, SeatLine, TeamName, Text, Who};

use super::setup::Setup;

/// Who stopped a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// A player of a team still in the game: that counts as giving up.
    Player(Seat),
    /// Someone who is not playing (a moderator): the game ends without a result.
    Moderator,
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
    pub(super) fn is(&self, user: UserId) -> bool {
        self.user() == Some(user)
    }
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
    /// Each human's hand message of this game (its direct message's id), edited as the hand changes:
    /// a new direct message only when Discord refuses the edit (see [`super::super::Tables::hand_dm`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand_dms: Vec<(UserId, u64)>,
    /// Moves each human made themselves, by seat (turns a computer played for them, and exchanges of
    /// dead cards, do not count).
    /// `None` for a game started before they were counted: then read from its record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_moves: Option<Vec<u16>>,
    /// Whether the game counts for ratings, decided at the start (`None`: a game started before
    /// this was kept; the lobby's choice applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// Casual because some of its players had reached this daily cap on rated games against each
    /// other when it started (`service/daily_cap.rs`).
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
    /// Whether the server's `hints` setting allowed hints in rated games when the game was dealt:
    /// a game keeps the settings it was dealt with, so an admin changing `hints` later does not
    /// change a running game (`None`: a game dealt before this was kept; the setting applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<bool>,
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

    pub(super) fn who(&self, seat: Seat) -> Who {
        self.seats
            .get(usize::from(seat))
            .map_or_else(|| Who::Bot(format!("seat {}", seat + 1)), Player::who)
    }

    pub(in crate::service) fn player(&self, seat: Seat) -> Option<&Player> {
        self.seats.get(usize::from(seat))
    }

    /// Who played a seat for the result: the human who gave it up, or whoever sits there.
    /// How many hints were used in the game and by whom (the players who sat down, each once);
    /// `None` without hints.
    pub(in crate::service) fn hints_used(&self) -> Option<Text> {
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
    pub(super) fn remaining_teams(&self) -> Vec<u8> {
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

    pub(super) fn count_move(&mut self, seat: Seat) {
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
    pub(super) fn without(&self, seat: Seat) -> Leaving {
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
    pub(super) fn win_by_giving_up(&self) -> Option<Text> {
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
    pub(super) fn start_note(&self, setup: &Setup) -> RatingNote {
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

    pub(in crate::service) fn names(&self) -> Vec<String> {
        self.seats.iter().map(|p| p.name().to_string()).collect()
    }

    /// Whether the player to move is a computer player (whose move comes at once, with the board).
    pub(super) fn computer_to_move(&self) -> bool {
        let pos = self.game().position();
        !pos.is_over() && matches!(self.player(pos.to_move()), Some(Player::Bot { .. }))
    }

    /// The player of `seat` moved themselves: their timed-out turns in a row start again from 0.
    pub(super) fn reset_timeouts(&mut self, seat: Seat) {
        if let Some(count) = self.timeouts.get_mut(usize::from(seat)) {
            *count = 0;
        }
    }

    /// Counts a timed-out turn of `seat`; returns how many in a row now.
    pub(super) fn count_timeout(&mut self, seat: Seat) -> u8 {
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

    pub(in crate::service) fn game(&self) -> &Game {
        self.live.game()
    }

    pub(super) fn board_image(&self) -> Image {
        Image::Board(BoardImage::of(self.game(), self.names()))
    }

    pub(super) fn team_members(&self, team: u8) -> Vec<Who> {
        let config = self.game().config();
        (0..config.players)
            .filter(|&s| config.team_of(s) == team)
            .map(|s| self.who(s))
            .collect()
    }

    pub(super) fn seat_lines(&self, with_cards: bool) -> Vec<SeatLine> {
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
    pub(super) record: Record,
    pub(super) game: Game,
}

impl LiveGame {
    /// A new game of `config` from `seed`, built through its record so the record always replays it.
    /// Dice are rolled when the player rolls ([`LiveGame::roll`]), never before.
    pub fn start(config: Config, seed: u64) -> Result<LiveGame, RecordError> {
        let mut record = Record::start_of(&Game::new_rolling(config, seed, RollMode::OnDemand));
        // The actions people choose themselves are kept from the deal (the profiles count only those).
        record.own = Some(Vec::new());
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
    pub(in crate::service) fn note_hint(&mut self, seat: Seat) {
        self.record.push_hint(seat);
    }

    /// Notes in the record that the action about to be committed was chosen by its person at `now`,
    /// their turn having begun at `turn_started`.
    pub(in crate::service) fn note_own(&mut self, now: Timestamp, turn_started: Timestamp) {
        let index = self.record.actions.len();
        let at = i64::try_from(now.0).unwrap_or(i64::MAX);
        self.record
            .push_own(index, at, now.0.saturating_sub(turn_started.0));
    }

    /// Dice: the player to move rolls `dice` now; appended to the record.
    pub(in crate::service) fn roll(&mut self, dice: [u8; 2]) -> Result<[u8; 2], PlayError> {
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
    pub(in crate::service) fn commit(
        &mut self,
        seat: Seat,
        mv: Move,
    ) -> Result<Vec<Event>, PlayError> {
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

/// What a player giving up would leave (see [`Playing::without`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Leaving {
    /// No human is left on the player's team: it is out of the game.
    pub(super) team_out: bool,
    /// A human is left in the game.
    pub(super) humans_left: bool,
    /// Teams still in the game.
    pub(super) remaining: usize,
}

impl Leaving {
    /// The game ends: no human is left, or at most one team is still in.
    pub(super) fn ends_game(self) -> bool {
        self.remaining <= 1 || !self.humans_left
    }
}

/// Whether humans (`is_human` by seat) sit on at least two teams of `config`: by default such a game
/// counts for ratings.
pub(super) fn humans_on_two_teams(config: &Config, is_human: impl Fn(Seat) -> bool) -> bool {
    let mut teams: Vec<u8> = (0..config.players)
        .filter(|&seat| is_human(seat))
        .map(|seat| config.team_of(seat))
        .collect();
    teams.sort_unstable();
    teams.dedup();
    teams.len() >= 2
}

/// The number of the turn being played: moves so far, an exchange (which does not end the turn) not
/// counted. Every later turn has a higher number.
pub fn turn_number(game: &Game) -> u32 {
    let pos = game.position();
    pos.plies() - u32::from(pos.has_exchanged())
}
