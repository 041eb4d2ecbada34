//! A player's figures and achievements on one server, from the games they finished there: what one
//! game adds for each human seat ([`SeatGame`], read from the game's record and results), the running
//! totals ([`Figures`]) and the achievements read off them ([`Achievement`]).
//!
//! Pure: the store keeps the totals up to date when it stores a game (and rebuilds them from the games
//! when they are missing or damaged), the service words them and the render layer draws the card.
//!
//! Two totals are kept per player: the games shown on the profile ("figures", see
//! [`SeatGame::counts_on_profile`]), and only the games that count for achievements ("feats", see
//! [`SeatGame::feats`]). Achievements read the second, so a casual game against one's own second
//! account, a game given up after a few moves, or turns a computer played for someone can never
//! unlock one. Only what a person did counts: turns a computer played for them (a turn that ran
//! out, a seat taken over) are not their moves, sequences or wins, and their play time is the time of
//! the turns they took, each minute once however many games ran side by side.

use std::collections::HashSet;

use crate::engine::record::OwnTurn;

use serde::{Deserialize, Serialize};

use super::{summarize, AnalysisError};
use crate::ai::Level;
use crate::engine::record::Record;
use crate::engine::{CardEffect, Move, Seat, Variant};

/// The four kinds of game of the breakdown, in the order of [`Figures::by_game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    /// Classic Sequence (cards).
    Classic,
    /// Classic Sequence with the King of the Board rules.
    KingOfTheBoard,
    /// Sequence Dice.
    Dice,
    /// Sequence for Kids.
    Kids,
}

impl GameKind {
    /// Every kind, in the order of [`Figures::by_game`].
    pub const ALL: [GameKind; 4] = [
        GameKind::Classic,
        GameKind::KingOfTheBoard,
        GameKind::Dice,
        GameKind::Kids,
    ];

    /// Its index in [`Figures::by_game`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Who a player played against, in the order of [`Figures::by_opposition`]. A game counts under
/// `Humans` when an opposing seat is a human, and under each computer level that sits on an opposing
/// team (so one game can count under several).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Opposition {
    /// At least one human opponent.
    Humans,
    /// An `easy` computer opponent.
    Easy,
    /// A `medium` computer opponent.
    Medium,
    /// A `hard` computer opponent.
    Hard,
}

impl Opposition {
    /// Every kind of opposition, in the order of [`Figures::by_opposition`].
    pub const ALL: [Opposition; 4] = [
        Opposition::Humans,
        Opposition::Easy,
        Opposition::Medium,
        Opposition::Hard,
    ];

    /// Its index in [`Figures::by_opposition`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opposition a computer level is.
    pub fn of_level(level: Level) -> Opposition {
        match level {
            Level::Easy => Opposition::Easy,
            Level::Medium => Opposition::Medium,
            Level::Hard => Opposition::Hard,
        }
    }
}

/// Games and wins of one row of a breakdown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Breakdown {
    /// Games.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// The player's own moves in these games, summed (for the average length).
    pub moves: u32,
    /// The fewest own moves in a won game.
    pub fastest_win: Option<u32>,
}

/// One seat of a finished game, as the store knows it (what [`seat_games`] needs besides the record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatResult {
    /// The Discord user; `None` for a computer player.
    pub user_id: Option<u64>,
    /// A computer player's level; `None` for a human.
    pub level: Option<Level>,
    /// The seat's team.
    pub team: u8,
    /// Whether the seat's team won.
    pub won: bool,
    /// Whether the player gave up (their game is a loss whatever the team did).
    pub gave_up: bool,
}

/// What a finished game is, besides its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The stored game's id.
    pub game_id: i64,
    /// When it ended, in unix milliseconds.
    pub finished_at: i64,
    /// When its first move was made, in unix milliseconds, where known (games stored before this was
    /// kept have none: they add no play time).
    pub started_at: Option<i64>,
    /// Whether it counted for ratings.
    pub rated: bool,
    /// Whether it was aborted: such a game adds nothing anywhere ([`seat_games`] returns nothing).
    pub aborted: bool,
}

/// What one finished game adds to one human player's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatGame {
    /// The player.
    pub user_id: u64,
    /// The game's id.
    pub game_id: i64,
    /// When it ended, in unix milliseconds.
    pub finished_at: i64,
    /// Whether the player won (their team won and they did not give up).
    pub won: bool,
    /// The kind of game (index of [`GameKind::ALL`]).
    pub kind: Option<GameKind>,
    /// Who they played against.
    pub opposition: Vec<Opposition>,
    /// Whether the game is of a kind that counts for achievements: rated, or without a human on an
    /// opposing team (a game against computers cannot be thrown by a second account). What it then
    /// does to the player's feats is [`SeatGame::feats`].
    pub counts_for_achievements: bool,
    /// Whether the player gave up (a forfeit, a confirmed leave, a stop, replaced for timeouts).
    pub gave_up: bool,
    /// Whether a computer played most of the player's moves for them (turns that ran out, a seat
    /// taken over): the game is not theirs to win or to unlock anything with.
    pub mostly_computer: bool,
    /// Whether the game ended without a win on the board (given up, stopped, out of time, a blocked
    /// board): a win then says nothing about how it was won.
    pub ended_off_board: bool,
    /// Whether it ended off the board before every team had made [`REAL_GAME_MOVES`] moves: no real
    /// game was played, so it counts for no one's achievements, and on no profile but the quitter's.
    pub early: bool,
    /// Moves of the player's whole team (every seat of it, computers too): what
    /// [`Achievement::Quick`] measures, the same for any team size.
    pub team_moves: u32,
    /// Human seats in the game.
    pub humans: u32,
    /// Teams in the game.
    pub teams: u32,
    /// Seats in the game.
    pub players: u32,
    /// The player's own moves (actions that placed or removed a chip).
    pub moves: u32,
    /// Sequences the player completed.
    pub sequences: u32,
    /// Two-eyed jacks played (classic).
    pub two_eyed_jacks: u32,
    /// One-eyed jacks played (classic).
    pub one_eyed_jacks: u32,
    /// Removals by the player that broke an opponent's line one chip short of a sequence (any game).
    pub lines_broken: u32,
    /// Of those, removals made with a one-eyed jack.
    pub fours_broken_with_one_eyed: u32,
    /// Dead cards exchanged.
    pub dead_cards: u32,
    /// Whether one of the player's moves completed two sequences at once, in a game won on the board.
    pub double_sequence: bool,
    /// Whether the player's team made the game's first move.
    pub moved_first: bool,
    /// Whether the player won on the board after an opposing team had completed the game's first
    /// sequence.
    pub comeback: bool,
    /// When the player was playing, as spans `(from, to)` in unix milliseconds, sorted and apart:
    /// each own turn from its start (at most [`TURN_PLAY_MS`] before the move) to the move. For a
    /// game recorded before own turns were kept, the game from its start to its end, where known.
    pub play: Vec<(i64, i64)>,
}

/// What a game does to a player's feats (the totals achievements read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feats {
    /// It counts.
    Add,
    /// It counts for nothing but ends their run of wins (they gave up, or a computer played it).
    BreakStreak,
    /// Nothing.
    Nothing,
}

impl SeatGame {
    /// Whether the game is on the player's profile: not when it was given up early ([`SeatGame::early`])
    /// by someone else (the quitter keeps the loss, so giving up never hides one).
    pub fn counts_on_profile(&self) -> bool {
        !self.early || self.gave_up
    }

    /// What the game does to the player's feats: nothing in a casual game against people; a game
    /// they gave up, or that a computer played mostly for them, only breaks their run of wins (no
    /// count of theirs grows by it); a game given up early counts for no one.
    pub fn feats(&self) -> Feats {
        if !self.counts_for_achievements {
            Feats::Nothing
        } else if self.gave_up || self.mostly_computer {
            Feats::BreakStreak
        } else if self.early {
            Feats::Nothing
        } else {
            Feats::Add
        }
    }

    /// Whether the player won on the board (their sequences or points, not the others giving up).
    pub fn won_on_board(&self) -> bool {
        self.won && !self.ended_off_board
    }
}

/// A player's running totals on one server (either every game, or the games that count for
/// achievements). Stored as it is (serde), so a field added later must have a default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Figures {
    /// Games.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Wins in a row up to the latest game.
    pub current_streak: u32,
    /// The longest run of wins.
    pub best_streak: u32,
    /// Sequences completed.
    pub sequences: u32,
    /// By kind of game, in the order of [`GameKind::ALL`].
    pub by_game: [Breakdown; 4],
    /// By opposition, in the order of [`Opposition::ALL`].
    pub by_opposition: [Breakdown; 4],
    /// Two-eyed jacks played.
    pub two_eyed_jacks: u32,
    /// One-eyed jacks played.
    pub one_eyed_jacks: u32,
    /// Opponents' lines broken one chip short of a sequence.
    pub lines_broken: u32,
    /// Of those, broken with a one-eyed jack.
    pub fours_broken_with_one_eyed: u32,
    /// Dead cards exchanged.
    pub dead_cards: u32,
    /// Games in which the player's team moved first.
    pub first_move_games: u32,
    /// Of those, won.
    pub first_move_wins: u32,
    /// Own moves, summed.
    pub moves: u32,
    /// Play time in milliseconds (games whose length is known).
    pub play_ms: u64,
    /// Games whose length is known.
    pub timed_games: u32,
    /// When the first game here ended, in unix milliseconds.
    pub first_game_at: Option<i64>,
    /// The latest game added (the store adds games in id order; a game already added is not added
    /// again).
    pub last_game_id: i64,
    /// Games with three or more humans.
    pub crowd_games: u32,
    /// Wins in games of three teams.
    pub three_team_wins: u32,
    /// Moves that completed two sequences at once.
    pub double_sequences: u32,
    /// Wins without playing a two-eyed jack (classic and King of the Board).
    pub wins_without_two_eyed: u32,
    /// Wins after the opponents completed the first sequence.
    pub comebacks: u32,
    /// The fewest own moves in any game won on the board.
    pub fastest_win: Option<u32>,
    /// The fewest moves of the player's team in a game won on the board ([`Achievement::Quick`]).
    pub fastest_team_win: Option<u32>,
    /// The latest spans of play time counted (sorted, apart, at most [`KEPT_SPANS`]): a minute
    /// already in one is not counted again by another game played side by side.
    pub play_spans: Vec<(i64, i64)>,
}

/// An achievement: a name, a one-line condition (both in the service's texts, by [`Achievement::key`])
/// and a goal on one counter of the player's feats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Achievement {
    /// First game finished.
    FirstGame,
    /// 100 games.
    Veteran,
    /// 5 wins in a row.
    OnFire,
    /// 10 wins in a row.
    Unstoppable,
    /// Beat `easy`.
    BeatEasy,
    /// Beat `medium`.
    BeatMedium,
    /// Beat `hard`.
    BeatHard,
    /// Beat `hard` 10 times.
    HardTen,
    /// 50 two-eyed jacks played.
    WildCards,
    /// A win on the board within 12 moves of the player's team.
    Quick,
    /// 10 hours of play.
    TenHours,
    /// 10 games with three or more humans.
    Party,
    /// A King of the Board win.
    King,
    /// A series won.
    SeriesWon,
    /// A Sequence Dice win.
    DiceWin,
    /// A Sequence for Kids win.
    KidsWin,
    /// A win in a game of three teams.
    ThreeTeams,
    /// An opponent's four broken with a one-eyed jack.
    Breaker,
    /// Two sequences completed with one move.
    Double,
    /// A win on the board without playing a two-eyed jack.
    NoWildCards,
    /// A win after the opponents completed the first sequence.
    Comeback,
    /// 25 opponents' lines broken.
    Wall,
}

/// Every human seat's [`SeatGame`] of a finished game, in seat order (nothing for an aborted game).
/// `seats` are the game's seats in order, as stored; the record is replayed once (its summary finds the
/// sequences and the broken lines, see [`summarize`]).
pub fn seat_games(
    info: &GameInfo,
    seats: &[SeatResult],
    record: &Record,
) -> Result<Vec<SeatGame>, AnalysisError> {
    if info.aborted {
        return Ok(Vec::new());
    }
    let summary = summarize(record)?;
    let game = record.initial_game()?;
    let config = *game.config();
    let layout = game.position().layout();
    let kind = match config.variant {
        Variant::Classic if config.is_king_of_the_board() => GameKind::KingOfTheBoard,
        Variant::Classic => GameKind::Classic,
        Variant::Dice => GameKind::Dice,
        Variant::Kids => GameKind::Kids,
    };
    // The actions people chose themselves (`None`: a game recorded before they were kept, where
    // every action of a person's seat counts as theirs).
    let own: Option<HashSet<usize>> = record
        .own
        .as_ref()
        .map(|turns| turns.iter().map(|t| t.index).collect());
    let is_own = |index: usize| own.as_ref().is_none_or(|own| own.contains(&index));
    // What each seat did, action by action; and for each chip move (1-based, as the summary counts
    // them) whether it was a one-eyed jack and whether its person chose it.
    let mut did = vec![SeatPlay::default(); seats.len().max(usize::from(config.players))];
    let mut one_eyed_move = vec![false];
    let mut own_move = vec![false];
    for (index, action) in record.actions.iter().enumerate() {
        let mv = action
            .to_move(config.variant, layout)
            .map_err(|error| AnalysisError::Illegal { index, error })?;
        let Some(play) = did.get_mut(usize::from(action.seat)) else {
            continue;
        };
        let mine = is_own(index);
        let chip = !matches!(mv, Move::Exchange { .. } | Move::Pass);
        if chip {
            play.seat_moves += 1;
            own_move.push(mine);
        }
        if !mine {
            if chip {
                one_eyed_move.push(false);
            }
            continue;
        }
        match mv {
            Move::Exchange { .. } => play.dead_cards += 1,
            Move::Pass => {}
            Move::Play { card, .. } => {
                play.moves += 1;
                let jack = !card.is_kids();
                let two = jack && card.effect() == CardEffect::Wild;
                let one = jack && card.effect() == CardEffect::Remove;
                play.two_eyed += u32::from(two);
                play.one_eyed += u32::from(one);
                one_eyed_move.push(one);
            }
            Move::Place { .. } | Move::Remove { .. } => {
                play.moves += 1;
                one_eyed_move.push(false);
            }
        }
    }
    let chosen = |move_number: u32| {
        usize::try_from(move_number)
            .ok()
            .and_then(|m| own_move.get(m))
            .copied()
            .unwrap_or(false)
    };
    let first_team = record
        .actions
        .first()
        .and_then(|a| seats.get(usize::from(a.seat)))
        .map(|s| s.team);
    let first_sequence_team = summary.sequences.first().map(|s| s.team);
    let team_list: Vec<u8> = {
        let mut list: Vec<u8> = seats.iter().map(|s| s.team).collect();
        list.sort_unstable();
        list.dedup();
        list
    };
    let teams = team_list.len();
    let moves_of_team = |team: u8| -> u32 {
        seats
            .iter()
            .zip(&did)
            .filter(|(s, _)| s.team == team)
            .map(|(_, d)| d.seat_moves)
            .sum()
    };
    let ended_off_board = summary.board_win.is_none();
    let early = ended_off_board
        && team_list
            .iter()
            .any(|&team| moves_of_team(team) < REAL_GAME_MOVES);
    let humans = seats.iter().filter(|s| s.user_id.is_some()).count();
    let mut out = Vec::new();
    for (index, seat) in seats.iter().enumerate() {
        let Some(user_id) = seat.user_id else {
            continue;
        };
        let play = did.get(index).copied().unwrap_or_default();
        let mostly_computer = own.is_some() && play.moves * 2 < play.seat_moves;
        let won = seat.won && !seat.gave_up && !mostly_computer;
        let on_board = won && summary.board_win == Some(seat.team);
        let mut opposition = Vec::new();
        for other in seats.iter().filter(|o| o.team != seat.team) {
            let against = match (other.user_id, other.level) {
                (Some(_), _) => Some(Opposition::Humans),
                (None, Some(level)) => Some(Opposition::of_level(level)),
                (None, None) => None,
            };
            if let Some(against) = against.filter(|a| !opposition.contains(a)) {
                opposition.push(against);
            }
        }
        opposition.sort_by_key(|o| o.index());
        let mine =
            |seat_of: u8, move_number: u32| usize::from(seat_of) == index && chosen(move_number);
        let made: Vec<u32> = summary
            .sequences
            .iter()
            .filter(|s| mine(s.seat, s.move_number))
            .map(|s| s.move_number)
            .collect();
        let broken: Vec<u32> = summary
            .broken
            .iter()
            .filter(|b| mine(b.seat, b.move_number))
            .map(|b| b.move_number)
            .collect();
        let seat_number = Seat::try_from(index).unwrap_or(Seat::MAX);
        let play_spans = match &record.own {
            Some(turns) => own_spans(turns, record, seat_number),
            None => info
                .started_at
                .filter(|&start| start < info.finished_at)
                .map(|start| vec![(start, info.finished_at)])
                .unwrap_or_default(),
        };
        out.push(SeatGame {
            user_id,
            game_id: info.game_id,
            finished_at: info.finished_at,
            won,
            kind: Some(kind),
            counts_for_achievements: info.rated || !opposition.contains(&Opposition::Humans),
            gave_up: seat.gave_up,
            mostly_computer,
            ended_off_board,
            early,
            team_moves: moves_of_team(seat.team),
            opposition,
            humans: count(humans),
            teams: u32::from(config.teams).max(count(teams)),
            players: count(seats.len()),
            moves: play.moves,
            sequences: count(made.len()),
            two_eyed_jacks: play.two_eyed,
            one_eyed_jacks: play.one_eyed,
            lines_broken: count(broken.len()),
            fours_broken_with_one_eyed: count(
                broken
                    .iter()
                    .filter(|&&m| {
                        usize::try_from(m)
                            .ok()
                            .and_then(|m| one_eyed_move.get(m))
                            .copied()
                            .unwrap_or(false)
                    })
                    .count(),
            ),
            dead_cards: play.dead_cards,
            double_sequence: !ended_off_board && made.windows(2).any(|w| w[0] == w[1]),
            moved_first: first_team == Some(seat.team),
            comeback: on_board && first_sequence_team.is_some_and(|t| t != seat.team),
            play: play_spans,
        });
    }
    Ok(out)
}

/// The spans a seat's own turns were played in: each from the turn's start, at most
/// [`TURN_PLAY_MS`] before its move, to the move; merged where they touch.
fn own_spans(turns: &[OwnTurn], record: &Record, seat: Seat) -> Vec<(i64, i64)> {
    let cap = i64::try_from(TURN_PLAY_MS).unwrap_or(i64::MAX);
    let spans: Vec<(i64, i64)> = turns
        .iter()
        .filter(|t| record.actions.get(t.index).is_some_and(|a| a.seat == seat))
        .map(|t| {
            let took = i64::try_from(t.ms).unwrap_or(i64::MAX).min(cap);
            (t.at.saturating_sub(took), t.at)
        })
        .collect();
    merge_spans(spans)
}

/// `spans` sorted and merged where they overlap or touch; empty ones dropped.
fn merge_spans(mut spans: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    spans.retain(|(from, to)| from < to);
    spans.sort_unstable();
    let mut merged: Vec<(i64, i64)> = Vec::with_capacity(spans.len());
    for (from, to) in spans {
        match merged.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => merged.push((from, to)),
        }
    }
    merged
}

/// Milliseconds of `span` not inside any of the sorted, apart `spans`.
fn uncovered_ms(span: (i64, i64), spans: &[(i64, i64)]) -> u64 {
    let covered: i64 = spans
        .iter()
        .map(|&(from, to)| (to.min(span.1) - from.max(span.0)).max(0))
        .sum();
    u64::try_from((span.1 - span.0 - covered).max(0)).unwrap_or(0)
}

/// What one seat did in a game, counted from the record's actions.
#[derive(Clone, Copy, Debug, Default)]
struct SeatPlay {
    /// Chip moves of the seat, whoever chose them.
    seat_moves: u32,
    /// Chip moves its person chose.
    moves: u32,
    two_eyed: u32,
    one_eyed: u32,
    dead_cards: u32,
}

/// A count as `u32`, saturating.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Breakdown {
    /// Wins per game, 0 without games.
    pub fn win_rate(&self) -> f64 {
        rate(self.wins, self.games)
    }

    /// Own moves per game, 0 without games.
    pub fn average_moves(&self) -> f64 {
        rate(self.moves, self.games)
    }

    /// Adds one game.
    fn add(&mut self, game: &SeatGame) {
        self.games = self.games.saturating_add(1);
        self.moves = self.moves.saturating_add(game.moves);
        if game.won {
            self.wins = self.wins.saturating_add(1);
        }
        if game.won_on_board() {
            self.fastest_win = Some(self.fastest_win.map_or(game.moves, |f| f.min(game.moves)));
        }
    }

    /// Why these counts cannot be, if they cannot.
    fn problem(&self) -> Option<String> {
        (self.wins > self.games).then(|| format!("{} wins of {} games", self.wins, self.games))
    }
}

/// `part / whole`, 0 when `whole` is 0.
fn rate(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        f64::from(part) / f64::from(whole)
    }
}

impl Figures {
    /// Adds one game of the player (a game whose id is not above [`Figures::last_game_id`] was added
    /// already and changes nothing).
    pub fn add(&mut self, game: &SeatGame) {
        if game.game_id <= self.last_game_id {
            return;
        }
        let add = |total: &mut u32, n: u32| *total = total.saturating_add(n);
        add(&mut self.games, 1);
        if game.won {
            add(&mut self.wins, 1);
            add(&mut self.current_streak, 1);
            self.best_streak = self.best_streak.max(self.current_streak);
        } else {
            self.current_streak = 0;
        }
        add(&mut self.sequences, game.sequences);
        if let Some(kind) = game.kind {
            self.by_game[kind.index()].add(game);
        }
        for against in &game.opposition {
            self.by_opposition[against.index()].add(game);
        }
        add(&mut self.two_eyed_jacks, game.two_eyed_jacks);
        add(&mut self.one_eyed_jacks, game.one_eyed_jacks);
        add(&mut self.lines_broken, game.lines_broken);
        add(
            &mut self.fours_broken_with_one_eyed,
            game.fours_broken_with_one_eyed,
        );
        add(&mut self.dead_cards, game.dead_cards);
        if game.moved_first {
            add(&mut self.first_move_games, 1);
            add(&mut self.first_move_wins, u32::from(game.won));
        }
        if game.won_on_board() {
            self.fastest_win = Some(self.fastest_win.map_or(game.moves, |f| f.min(game.moves)));
            self.fastest_team_win = Some(
                self.fastest_team_win
                    .map_or(game.team_moves, |f| f.min(game.team_moves)),
            );
        }
        add(&mut self.moves, game.moves);
        let spans = merge_spans(game.play.clone());
        if !spans.is_empty() {
            let new_ms: u64 = spans
                .iter()
                .map(|&span| uncovered_ms(span, &self.play_spans))
                .sum();
            self.play_ms = self.play_ms.saturating_add(new_ms);
            add(&mut self.timed_games, 1);
            let mut kept = std::mem::take(&mut self.play_spans);
            kept.extend(spans);
            let mut kept = merge_spans(kept);
            let surplus = kept.len().saturating_sub(KEPT_SPANS);
            kept.drain(..surplus);
            self.play_spans = kept;
        }
        self.first_game_at = Some(
            self.first_game_at
                .map_or(game.finished_at, |at| at.min(game.finished_at)),
        );
        self.last_game_id = game.game_id;
        add(&mut self.crowd_games, u32::from(game.humans >= 3));
        add(
            &mut self.three_team_wins,
            u32::from(game.won && game.teams == 3),
        );
        add(&mut self.double_sequences, u32::from(game.double_sequence));
        let with_cards = matches!(
            game.kind,
            Some(GameKind::Classic | GameKind::KingOfTheBoard)
        );
        add(
            &mut self.wins_without_two_eyed,
            u32::from(game.won_on_board() && with_cards && game.two_eyed_jacks == 0),
        );
        add(&mut self.comebacks, u32::from(game.comeback));
    }

    /// Ends the run of wins: a game that counts for nothing else (see [`Feats::BreakStreak`]).
    pub fn break_streak(&mut self) {
        self.current_streak = 0;
    }

    /// Wins per game, 0 without games.
    pub fn win_rate(&self) -> f64 {
        rate(self.wins, self.games)
    }

    /// Wins per game in which the player's team moved first, 0 without such games.
    pub fn first_move_win_rate(&self) -> f64 {
        rate(self.first_move_wins, self.first_move_games)
    }

    /// Own moves per game, 0 without games.
    pub fn average_moves(&self) -> f64 {
        rate(self.moves, self.games)
    }

    /// Why these totals cannot be what adding games gives (a damaged stored row), if they cannot.
    pub fn problem(&self) -> Option<String> {
        let mut checks: Vec<(bool, String)> = vec![
            (
                self.wins > self.games,
                format!("{} wins of {} games", self.wins, self.games),
            ),
            (
                self.current_streak > self.best_streak || self.best_streak > self.wins,
                format!(
                    "a streak of {} with a best of {} and {} wins",
                    self.current_streak, self.best_streak, self.wins
                ),
            ),
            (
                self.first_move_wins > self.first_move_games || self.first_move_games > self.games,
                format!(
                    "{} first-move wins of {} first-move games",
                    self.first_move_wins, self.first_move_games
                ),
            ),
            (
                self.fours_broken_with_one_eyed > self.lines_broken
                    || self.fours_broken_with_one_eyed > self.one_eyed_jacks,
                format!(
                    "{} fours broken with a one-eyed jack of {} lines broken",
                    self.fours_broken_with_one_eyed, self.lines_broken
                ),
            ),
            (
                self.timed_games > self.games || self.crowd_games > self.games,
                format!("{} timed games of {} games", self.timed_games, self.games),
            ),
            (
                self.three_team_wins > self.wins
                    || self.wins_without_two_eyed > self.wins
                    || self.comebacks > self.wins
                    || self.double_sequences > self.games,
                format!("more special wins than {} wins", self.wins),
            ),
            (
                (self.games > 0) != (self.last_game_id > 0 && self.first_game_at.is_some())
                    || self.last_game_id < 0,
                format!(
                    "{} games with latest game {}",
                    self.games, self.last_game_id
                ),
            ),
            (
                (self.fastest_win.is_some() && self.wins == 0)
                    // Both are set by the same wins on the board (rows stored before the team's
                    // count was kept are rebuilt from the games).
                    || self.fastest_win.is_some() != self.fastest_team_win.is_some(),
                format!(
                    "a fastest win {:?} with {} wins",
                    self.fastest_win, self.wins
                ),
            ),
        ];
        let kinds: u32 = self.by_game.iter().map(|b| b.games).sum();
        checks.push((
            kinds != self.games,
            format!("{kinds} games by kind of {} games", self.games),
        ));
        for row in self.by_game.iter().chain(&self.by_opposition) {
            if let Some(problem) = row.problem() {
                checks.push((true, problem));
            }
            checks.push((
                row.games > self.games,
                format!("a breakdown of {} games of {}", row.games, self.games),
            ));
        }
        checks.into_iter().find(|(bad, _)| *bad).map(|(_, why)| why)
    }
}

impl Achievement {
    /// Every achievement, in the order they are shown.
    pub const ALL: [Achievement; 22] = [
        Achievement::FirstGame,
        Achievement::Veteran,
        Achievement::OnFire,
        Achievement::Unstoppable,
        Achievement::BeatEasy,
        Achievement::BeatMedium,
        Achievement::BeatHard,
        Achievement::HardTen,
        Achievement::WildCards,
        Achievement::Quick,
        Achievement::TenHours,
        Achievement::Party,
        Achievement::King,
        Achievement::SeriesWon,
        Achievement::DiceWin,
        Achievement::KidsWin,
        Achievement::ThreeTeams,
        Achievement::Breaker,
        Achievement::Double,
        Achievement::NoWildCards,
        Achievement::Comeback,
        Achievement::Wall,
    ];

    /// Its stable key (stored in the database, and the id of its texts).
    pub fn key(self) -> &'static str {
        match self {
            Achievement::FirstGame => "first_game",
            Achievement::Veteran => "veteran",
            Achievement::OnFire => "on_fire",
            Achievement::Unstoppable => "unstoppable",
            Achievement::BeatEasy => "beat_easy",
            Achievement::BeatMedium => "beat_medium",
            Achievement::BeatHard => "beat_hard",
            Achievement::HardTen => "hard_ten",
            Achievement::WildCards => "wild_cards",
            Achievement::Quick => "quick",
            Achievement::TenHours => "ten_hours",
            Achievement::Party => "party",
            Achievement::King => "king",
            Achievement::SeriesWon => "series_won",
            Achievement::DiceWin => "dice_win",
            Achievement::KidsWin => "kids_win",
            Achievement::ThreeTeams => "three_teams",
            Achievement::Breaker => "breaker",
            Achievement::Double => "double",
            Achievement::NoWildCards => "no_wild_cards",
            Achievement::Comeback => "comeback",
            Achievement::Wall => "wall",
        }
    }

    /// The achievement of a key (`None` for an unknown one).
    pub fn from_key(key: &str) -> Option<Achievement> {
        Achievement::ALL.into_iter().find(|a| a.key() == key)
    }

    /// The count [`Achievement::have`] must reach.
    pub fn goal(self) -> u32 {
        match self {
            Achievement::Veteran => 100,
            Achievement::OnFire => 5,
            Achievement::Unstoppable | Achievement::HardTen | Achievement::Party => 10,
            Achievement::WildCards => 50,
            Achievement::TenHours => 36_000_000,
            Achievement::Wall => 25,
            _ => 1,
        }
    }

    /// The player's progress toward the goal (at most the goal): read off their feats, and for
    /// [`Achievement::SeriesWon`] the series they won. Unlocked once it reaches [`Achievement::goal`].
    pub fn have(self, feats: &Figures, series_won: u32) -> u32 {
        let wins_of = |kind: GameKind| feats.by_game[kind.index()].wins;
        let beat = |o: Opposition| feats.by_opposition[o.index()].wins;
        let have = match self {
            Achievement::FirstGame | Achievement::Veteran => feats.games,
            Achievement::OnFire | Achievement::Unstoppable => feats.best_streak,
            Achievement::BeatEasy => beat(Opposition::Easy),
            Achievement::BeatMedium => beat(Opposition::Medium),
            Achievement::BeatHard | Achievement::HardTen => beat(Opposition::Hard),
            Achievement::WildCards => feats.two_eyed_jacks,
            Achievement::Quick => {
                u32::from(feats.fastest_team_win.is_some_and(|m| m <= QUICK_MOVES))
            }
            Achievement::TenHours => u32::try_from(feats.play_ms).unwrap_or(u32::MAX),
            Achievement::Party => feats.crowd_games,
            Achievement::King => wins_of(GameKind::KingOfTheBoard),
            Achievement::SeriesWon => series_won,
            Achievement::DiceWin => wins_of(GameKind::Dice),
            Achievement::KidsWin => wins_of(GameKind::Kids),
            Achievement::ThreeTeams => feats.three_team_wins,
            Achievement::Breaker => feats.fours_broken_with_one_eyed,
            Achievement::Double => feats.double_sequences,
            Achievement::NoWildCards => feats.wins_without_two_eyed,
            Achievement::Comeback => feats.comebacks,
            Achievement::Wall => feats.lines_broken,
        };
        have.min(self.goal())
    }

    /// Whether the player has it.
    pub fn is_unlocked(self, feats: &Figures, series_won: u32) -> bool {
        self.have(feats, series_won) >= self.goal()
    }

    /// The achievements a game unlocks: those `after` has and `before` had not (series left out:
    /// a game alone never wins one).
    pub fn unlocked_between(before: &Figures, after: &Figures) -> Vec<Achievement> {
        Achievement::ALL
            .into_iter()
            .filter(|a| *a != Achievement::SeriesWon)
            .filter(|a| a.is_unlocked(after, 0) && !a.is_unlocked(before, 0))
            .collect()
    }
}

/// [`Achievement::Quick`]: a win on the board within this many moves of the player's team (all its
/// seats together, so a team of two has as many between them as a player alone).
pub const QUICK_MOVES: u32 = 12;

/// A game that ended off the board (given up, stopped, out of time, blocked) before every team had
/// made this many moves is no real game: it counts for no one's achievements (see [`SeatGame::early`]).
pub const REAL_GAME_MOVES: u32 = 10;

/// The most of one turn that counts as play time: a turn left longer is time away from the game.
pub const TURN_PLAY_MS: u64 = 180_000;

/// Spans of play time a player's totals keep to count each minute once (older ones are dropped).
pub const KEPT_SPANS: usize = 32;
