//! Series (issue 25): a lobby started with `series: 3 | 5 | 7` plays best of that many games. After a
//! game that does not decide it, the table stays open between the games (stored like any table, so a
//! restart keeps it) with the same seats and teams; its final message carries **Next game**, which
//! any player of the series presses to deal the next game at once, and **Abandon series** (asks to
//! confirm). The side that lost moves first: with two teams the loser; with three, the team seated
//! after the winner's (a shared win or none: the team that moved second). A team's colour follows
//! who moves first, so the score names the players of each side.
//!
//! The series ends when a side has won a majority, when a game of it is stopped (by anyone), when it
//! is abandoned, cancelled or stopped between games, or when nobody starts the next game within the
//! lobby timeout; then nobody wins it. Every game of a series is rated on its own.
//!
//! This file holds the series itself (sides, score, the check of a stored one) and its messages; the
//! table between two games and the commands it takes are in `between`.

use serde::{Deserialize, Serialize};

use crate::service::ids::UserId;
use crate::service::reply::{Message, Output};
use crate::service::request::Button;
use crate::service::text::{Text, Who};

use super::game::Player;
use super::setup::SERIES_LENGTHS;

/// A series under way, kept with its table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    /// Best of how many games.
    pub best_of: u8,
    /// Each side's players, as they sat in the first game by team.
    pub sides: Vec<Vec<Player>>,
    /// Games won by each side.
    pub wins: Vec<u8>,
    /// Games played (finished) so far.
    pub played: u8,
    /// The side of each team of the current (or next) game, by team number.
    pub team_side: Vec<u8>,
    /// Set once the series is over (decided, or ended without a winner).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub over: bool,
    /// The web tokens of the series' finished games, oldest first: each game has a page of its own
    /// (its replay), and a page that showed one of them live follows the table to the next game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<String>,
}

impl Series {
    /// A series of `best_of` games whose first game has `seats` (players by seat) in `teams` teams.
    pub(in crate::service) fn start(best_of: u8, seats: &[Player], teams: u8) -> Series {
        let teams = teams.max(1);
        let mut sides = vec![Vec::new(); usize::from(teams)];
        for (seat, player) in seats.iter().enumerate() {
            if let Some(side) = sides.get_mut(seat % usize::from(teams)) {
                side.push(player.clone());
            }
        }
        Series {
            best_of,
            sides,
            wins: vec![0; usize::from(teams)],
            played: 0,
            team_side: (0..teams).collect(),
            over: false,
            pages: Vec::new(),
        }
    }

    /// Wins a side needs: a majority of the games.
    pub fn needed(&self) -> u8 {
        self.best_of / 2 + 1
    }

    /// The side that has won the series, if one has.
    pub fn winner(&self) -> Option<usize> {
        self.wins.iter().position(|w| *w >= self.needed())
    }

    /// Whether `user` plays in the series.
    pub fn has_player(&self, user: UserId) -> bool {
        self.sides.iter().flatten().any(|p| p.user() == Some(user))
    }

    /// The humans of the series, with whether their side won it.
    pub fn results(&self) -> Vec<(UserId, bool)> {
        let winner = self.winner();
        let mut out: Vec<(UserId, bool)> = Vec::new();
        for (side, players) in self.sides.iter().enumerate() {
            for user in players.iter().filter_map(Player::user) {
                if !out.iter().any(|(u, _)| *u == user) {
                    out.push((user, winner == Some(side)));
                }
            }
        }
        out
    }

    /// The line of the game being played (its start message and the status): which game of how
    /// many, and the score so far.
    pub fn game_line(&self) -> Text {
        Text::SeriesGame {
            number: self.played.saturating_add(1),
            best_of: self.best_of,
            sides: self.sides(),
        }
    }

    /// Each side's players and games won.
    fn sides(&self) -> Vec<(Vec<Who>, u8)> {
        self.sides
            .iter()
            .zip(&self.wins)
            .map(|(players, wins)| (players.iter().map(Player::who).collect(), *wins))
            .collect()
    }

    /// The score line.
    pub fn score(&self) -> Text {
        Text::SeriesScore {
            best_of: self.best_of,
            played: self.played,
            sides: self.sides(),
        }
    }

    /// Why a stored series cannot be used, if it cannot (a damaged row, issue 33): best of 3, 5 or 7;
    /// one side per team of its table (`teams`, when the table knows them), none of them empty;
    /// every team mapped to a side of its own; a score that fits the games played.
    pub(in crate::service) fn problem(&self, teams: Option<usize>) -> Option<String> {
        let sides = self.sides.len();
        if !SERIES_LENGTHS.contains(&self.best_of) {
            return Some(format!(
                "the series is best of {}, not 3, 5 or 7",
                self.best_of
            ));
        }
        if !(2..=crate::engine::game::MAX_TEAMS).contains(&sides) {
            return Some(format!("the series has {sides} sides"));
        }
        if let Some(empty) = self.sides.iter().position(Vec::is_empty) {
            return Some(format!("side {} of the series has no players", empty + 1));
        }
        if self.wins.len() != sides || self.team_side.len() != sides {
            return Some(format!(
                "the series has {sides} sides, {} scores and {} teams",
                self.wins.len(),
                self.team_side.len()
            ));
        }
        if let Some(teams) = teams.filter(|t| *t != sides) {
            return Some(format!(
                "the series has {sides} sides for a table of {teams} teams"
            ));
        }
        let mut seen = vec![false; sides];
        for side in &self.team_side {
            match seen.get_mut(usize::from(*side)) {
                Some(seen) if !*seen => *seen = true,
                Some(_) => {
                    return Some(format!(
                        "two teams of the series play for side {}",
                        side + 1
                    ))
                }
                None => {
                    return Some(format!(
                        "a team of the series plays for side {}, out of range",
                        side + 1
                    ))
                }
            }
        }
        let won: u32 = self.wins.iter().map(|w| u32::from(*w)).sum();
        if self.played > self.best_of || won > u32::from(self.played) {
            return Some(format!(
                "the series counts {won} wins in {} games of a best of {}",
                self.played, self.best_of
            ));
        }
        None
    }

    /// Counts a finished game: `winners` are its winning teams (one for a win), `stopped` whether it
    /// was stopped (which ends the series). Returns the lines for its final message.
    pub(in crate::service) fn count_game(&mut self, winners: &[u8], stopped: bool) -> Vec<Text> {
        self.played = self.played.saturating_add(1);
        if let ([team], false) = (winners, stopped) {
            let side = self.team_side.get(usize::from(*team)).copied();
            if let Some(wins) = side.and_then(|s| self.wins.get_mut(usize::from(s))) {
                *wins = wins.saturating_add(1);
            }
        }
        let mut lines = vec![self.score()];
        if let Some(side) = self.winner() {
            self.over = true;
            lines.push(Text::SeriesWon {
                best_of: self.best_of,
                winners: self
                    .sides
                    .get(side)
                    .map(|p| p.iter().map(Player::who).collect())
                    .unwrap_or_default(),
            });
        } else if stopped || self.played >= self.best_of {
            self.over = true;
            lines.push(Text::SeriesNoWinner);
        } else {
            lines.push(Text::SeriesNext);
        }
        lines
    }
}

/// The note in the channel when a series ends between two games (abandoned, cancelled, stopped or
/// expired), with its score.
pub(in crate::service) fn ended_between_games(series: &Series, line: Text) -> Output {
    Output::Channel(Message::text_lines(vec![line, series.score()]))
}

/// The private question before abandoning a series.
pub(in crate::service) fn confirm_abandon(key: u64) -> Message {
    Message {
        lines: vec![Text::ConfirmAbandonSeries],
        buttons: vec![Button::ConfirmAbandonSeries(key), Button::KeepPlaying],
        ..Message::default()
    }
}

/// Who abandoned.
pub(in crate::service) fn abandoned_by(user: UserId) -> Text {
    Text::SeriesAbandoned {
        by: Who::User(user),
    }
}
