//! A player's figures and achievements on one server, from the games they finished there: what one
//! game adds for each human seat ([`SeatGame`], read from the game's record and results), the running
//! totals ([`Figures`]) and the achievements read off them ([`Achievement`]).
//!
//! Pure: the store keeps the totals up to date when it stores a game (and rebuilds them from the games
//! when they are missing or damaged), the service words them and the render layer draws the card.
//!
//! Two totals are kept per player: every finished game that was not aborted ("figures", shown on the
//! profile), and only the games that count for achievements ("feats", see
//! [`SeatGame::counts_for_achievements`]). Achievements read the second, so a casual game against one's
//! own second account can never unlock one.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::{summarize, AnalysisError};
use crate::ai::Level;
use crate::engine::record::Record;
use crate::engine::{CardEffect, Move, Variant};

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
    /// Whether the game counts for achievements: rated, or without a human on an opposing team (a
    /// game against computers cannot be thrown by a second account).
    pub counts_for_achievements: bool,
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
    /// Whether one of the player's moves completed two sequences at once.
    pub double_sequence: bool,
    /// Whether the player's team made the game's first move.
    pub moved_first: bool,
    /// Whether the player won after an opposing team had completed the game's first sequence.
    pub comeback: bool,
    /// The game's length in milliseconds, where known.
    pub duration_ms: Option<u64>,
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
    /// The fewest own moves in any won game.
    pub fastest_win: Option<u32>,
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
    /// A win in at most 12 own moves.
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
    /// A win without playing a two-eyed jack.
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
    // What each seat did, action by action; and for each chip move (1-based, as the summary counts
    // them) whether it was a one-eyed jack.
    let mut did = vec![SeatPlay::default(); seats.len().max(usize::from(config.players))];
    let mut one_eyed_move = vec![false];
    for (index, action) in record.actions.iter().enumerate() {
        let mv = action
            .to_move(config.variant, layout)
            .map_err(|error| AnalysisError::Illegal { index, error })?;
        let Some(play) = did.get_mut(usize::from(action.seat)) else {
            continue;
        };
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
    let first_team = record
        .actions
        .first()
        .and_then(|a| seats.get(usize::from(a.seat)))
        .map(|s| s.team);
    let first_sequence_team = summary.sequences.first().map(|s| s.team);
    let teams = seats.iter().map(|s| s.team).collect::<HashSet<_>>().len();
    let humans = seats.iter().filter(|s| s.user_id.is_some()).count();
    let duration_ms = info
        .started_at
        .map(|start| u64::try_from(info.finished_at - start).unwrap_or(0));
    let mut out = Vec::new();
    for (index, seat) in seats.iter().enumerate() {
        let Some(user_id) = seat.user_id else {
            continue;
        };
        let won = seat.won && !seat.gave_up;
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
        let mine = |seat_of: u8| usize::from(seat_of) == index;
        let made: Vec<u32> = summary
            .sequences
            .iter()
            .filter(|s| mine(s.seat))
            .map(|s| s.move_number)
            .collect();
        let broken: Vec<u32> = summary
            .broken
            .iter()
            .filter(|b| mine(b.seat))
            .map(|b| b.move_number)
            .collect();
        let play = did.get(index).copied().unwrap_or_default();
        out.push(SeatGame {
            user_id,
            game_id: info.game_id,
            finished_at: info.finished_at,
            won,
            kind: Some(kind),
            counts_for_achievements: info.rated || !opposition.contains(&Opposition::Humans),
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
            double_sequence: made.windows(2).any(|w| w[0] == w[1]),
            moved_first: first_team == Some(seat.team),
            comeback: won && first_sequence_team.is_some_and(|t| t != seat.team),
            duration_ms,
        });
    }
    Ok(out)
}

/// What one seat did in a game, counted from the record's actions.
#[derive(Clone, Copy, Debug, Default)]
struct SeatPlay {
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
            self.fastest_win = Some(self.fastest_win.map_or(game.moves, |f| f.min(game.moves)));
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
        add(&mut self.moves, game.moves);
        if let Some(ms) = game.duration_ms {
            self.play_ms = self.play_ms.saturating_add(ms);
            add(&mut self.timed_games, 1);
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
            u32::from(game.won && with_cards && game.two_eyed_jacks == 0),
        );
        add(&mut self.comebacks, u32::from(game.comeback));
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
                self.fastest_win.is_some() != (self.wins > 0),
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
            Achievement::Quick => u32::from(feats.fastest_win.is_some_and(|m| m <= QUICK_MOVES)),
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

/// [`Achievement::Quick`]: a win in at most this many own moves.
pub const QUICK_MOVES: u32 = 12;
