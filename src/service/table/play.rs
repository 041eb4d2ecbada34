//! The game being played: its players and live game, the moves of the people at the table (play,
//! exchange, roll), giving up and stopping, a player's hand and the board, the turn prompt (with its
//! Play or Roll button and the turn number it carries), and the lines that describe what happened
//! (with the scores).

use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::{
    BitIter, Bits, Card, CardEffect, Cell, Config, Event, Game, GameRng, GroupKind, Move,
    PlayError, Record, RecordError, RollMode, Seat, Status,
};
use crate::i18n::Lang;

use crate::service::bot::BotLevel;
use crate::service::ids::{Actor, ChannelId, Timestamp, UserId};
use crate::service::reply::{
    BoardImage, Control, HandImage, Image, Label, Message, Output, Reply, Style,
};
use crate::service::request::{Button, Command, Press, Step};
use crate::service::seeds::{OsSeeds, SeedSource};
use crate::service::settings::Settings;
use crate::service::text::{
    CardLine, CardUse, RatingNote, RollHint, SeatLine, TeamName, Text, Who, ZoneInfo,
};

use super::setup::Setup;
use super::{replied, Outcome, Question, State, Table};
use crate::service::rules::ABORT_MOVES;

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

pub(super) fn names_of(bits: Bits, game: &Game) -> Vec<String> {
    let layout = game.position().layout();
    BitIter(bits).map(|c| layout.cell_name(c)).collect()
}

/// Two dice thrown from `seed`.
pub(super) fn throw_dice(seed: u64) -> [u8; 2] {
    let mut rng = GameRng::new(seed);
    [rng.die(), rng.die()]
}

pub(in crate::service) fn roll_hint(game: &Game) -> Option<RollHint> {
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

/// Dice: the line that tells the roll of `seat` (to move, having rolled) and what it allows.
pub(in crate::service) fn rolled_line(playing: &Playing, seat: Seat) -> Option<Text> {
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

/// Points per team: sequences in a `scoring` game, points in King of the Board.
pub(super) fn scores(game: &Game) -> Vec<(TeamName, usize)> {
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

/// The dead cards `seat` exchanged since its last move, read from the record (an exchange is told
/// in the channel with the move after it).
fn exchanged_before(playing: &Playing, seat: Seat) -> Vec<Text> {
    let variant = playing.game().config().variant;
    let actions = &playing.live.record().actions;
    let trailing = actions
        .iter()
        .rev()
        .take_while(|a| a.seat == seat && a.exchange.is_some())
        .count();
    actions[actions.len() - trailing..]
        .iter()
        .filter_map(|a| Card::parse(a.exchange.as_deref()?, variant))
        .map(|card| Text::Exchanged {
            who: playing.who(seat),
            card,
        })
        .collect()
}

/// Why a game ended after a whole round of passes, with the count it was decided on (RULES.md: a
/// blocked board).
fn blocked_line(game: &Game) -> Text {
    let config = game.config();
    let points = config.is_king_of_the_board();
    let scores = if points || config.options.scoring {
        scores(game).into_iter().map(|(_, n)| n).collect()
    } else {
        Vec::new()
    };
    let winner = match game.position().status() {
        Status::Won(team) => Some(TeamName::of(config.variant, team)),
        Status::Drawn | Status::InProgress => None,
    };
    Text::Blocked {
        winner,
        scores,
        points,
    }
}

/// The number of the turn being played: moves so far, an exchange (which does not end the turn) not
/// counted. Every later turn has a higher number.
pub fn turn_number(game: &Game) -> u32 {
    let pos = game.position();
    pos.plies() - u32::from(pos.has_exchanged())
}

/// The turn prompt's button for the player to move: Play (dice: Roll).
pub(in crate::service) fn prompt_button(table: u64, game: &Game) -> Control {
    let dice = !game.config().variant.has_cards();
    let press = Press {
        table,
        turn: turn_number(game),
        step: if dice { Step::Roll } else { Step::Play },
    };
    Control::Button {
        id: press.id(),
        label: Label::Text(if dice {
            Text::PickerRollButton
        } else {
            Text::PickerPlayButton
        }),
        style: Style::Primary,
        disabled: false,
    }
}

/// The turn line (with a ping for a human) and the turn buttons.
pub(super) fn push_turn(
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
        message.components = vec![vec![prompt_button(table, game)]];
    }
    message.buttons = if dice {
        vec![Button::More(table)]
    } else {
        vec![Button::Hand, Button::More(table)]
    };
}

/// The private hand message of a seat: the cards, what each can do, and the hand picture. With
/// `turn_note`, a player to move is told how to play (the picker leaves it out: its buttons follow).
pub(in crate::service) fn hand_message(
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

pub(in crate::service) fn card_line(game: &Game, seat: Seat, card: Card) -> CardLine {
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

/// A refusal of the engine, with the cells that would work when the card was the problem.
pub(super) fn illegal_text(game: &Game, seat: Seat, mv: Move, error: PlayError) -> Text {
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
pub(super) fn describe(events: &[Event], playing: &Playing, lines: &mut Vec<Text>) {
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

impl Table {
    /// **⋯** on a turn prompt: what else the asker may do in the running game. Everyone may see the
    /// status and the rules; a player also their cards and Leave; who may stop the game, Stop. A
    /// paused game offers only what it allows (no status, no leaving).
    pub(super) fn game_menu(&mut self, actor: &Actor) -> Outcome {
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

    pub(super) fn my_turn(&self, actor: &Actor) -> Result<(&Playing, Seat), Text> {
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

    pub(super) fn human_move(
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
        if playing.live.record().own.is_some() {
            let turn_started = playing.turn_started;
            playing.live.note_own(now, turn_started);
        }
        // An exchange of a dead card is not a turn: the player still moves.
        if !matches!(mv, Move::Exchange { .. }) {
            playing.count_move(seat);
        }
        Ok(self.commit_and_report(seat, mv, now, settings, Vec::new(), false))
    }

    /// Dice: the player to move rolls, now: the dice are thrown from `seed` (fresh from the operating
    /// system for this roll), so nothing about a roll exists before the player rolls.
    pub(super) fn roll(
        &mut self,
        actor: &Actor,
        now: Timestamp,
        settings: &Settings,
        seed: u64,
    ) -> Outcome {
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
    pub(super) fn commit_and_report(
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
        let exchange = matches!(mv, Move::Exchange { .. });
        if !exchange {
            // A dead card exchanged before this move is told with it, in one post (see below).
            let exchanged = exchanged_before(playing, seat);
            lines.splice(0..0, exchanged);
        }
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
            let blocked = playing
                .live
                .record()
                .actions
                .last()
                .is_some_and(|a| a.pass == Some(true));
            if blocked {
                lines.push(blocked_line(game));
            }
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
        let hand_changed = matches!(mv, Move::Play { .. } | Move::Exchange { .. });
        let mover = playing.player(seat).and_then(Player::user);
        if exchange && !new_turn {
            // The exchange is not a turn: the channel hears of it with the move that follows, in
            // the same post (read back from the record then, so a restart in between loses
            // nothing). The player is answered privately, with their new hand as always.
            if !auto {
                outputs.push(Output::Ephemeral(Message::text_lines(lines)));
            }
            if let Some(user) = mover {
                outputs.push(Output::Direct {
                    user,
                    message: hand_message(playing, channel, seat, true),
                });
            }
            return Reply {
                outputs,
                auto_move: self.auto_due(now, settings),
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
        if let (true, Some(user)) = (hand_changed, mover) {
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

    /// `/sequence leave` (or the Leave button) during a game: asks first, privately, with the
    /// Confirm and Keep playing buttons. Changes nothing.
    pub(super) fn confirm_leave(&mut self, actor: &Actor) -> Outcome {
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
    pub(super) fn confirm_stop(&mut self, actor: &Actor) -> Outcome {
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
    /// After the hint question, the answer says the game stays rated and the picker comes back in
    /// the question's place (the player is still to move).
    pub(super) fn keep_playing(&mut self, actor: &Actor, settings: &Settings) -> Outcome {
        let hint_asked = self.questions.contains(&(actor.user, Question::Hint));
        self.questions.retain(|&(user, _)| user != actor.user);
        if !hint_asked {
            return replied(vec![Output::Update(Message::text(Text::KeptPlaying))]);
        }
        let mut answer = self.picker_for(actor.user, settings).unwrap_or_default();
        answer.lines.insert(0, Text::HintDeclined);
        replied(vec![Output::Update(answer)])
    }

    pub(super) fn forfeit(
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

    /// Ends the game now. Stopped by one of its players, that counts as giving up: a loss for their
    /// team, a win for the others. Stopped by someone who is not playing (a moderator), the game
    /// ends without a result (those who already gave up keep their loss).
    pub(super) fn stop(&mut self, actor: &Actor) -> Outcome {
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

    pub(super) fn hand(&mut self, actor: &Actor) -> Outcome {
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

    pub(super) fn board(&mut self) -> Outcome {
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
}
