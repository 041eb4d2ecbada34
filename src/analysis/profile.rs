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

use serde::{Deserialize, Serialize};

use crate::ai::Level;

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
