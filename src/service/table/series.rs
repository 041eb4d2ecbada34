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

use serde::{Deserialize, Serialize};

use crate::engine::Seat;

use crate::service::ids::{Actor, Timestamp, UserId};
use crate::service::reply::{Message, Output, Reply};
use crate::service::request::{Button, Command};
use crate::service::settings::Settings;
use crate::service::text::{Text, Who};

use super::lobby::{Lobby, LobbySeat};
use super::play::Player;
use super::{Question, State, Table};

/// The series lengths offered: best of 3, 5 or 7 games.
pub const SERIES_LENGTHS: [u8; 3] = [3, 5, 7];

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

impl Table {
    /// The table between this finished game of a series and the next: the same seats and teams, the
    /// side that lost moving first (team numbers turn so that it is team 1), waiting for **Next
    /// game**. Its key is later than the game's.
    pub(in crate::service) fn between_games(
        &self,
        series: Series,
        now: Timestamp,
    ) -> Option<Table> {
        let State::Playing(playing) = &self.state else {
            return None;
        };
        let config = *playing.game().config();
        let teams = config.teams.max(1);
        let first = match playing.winners().as_slice() {
            [winner] => (winner + 1) % teams,
            _ => 1 % teams,
        };
        let renumber = |team: u8| (team + teams - first) % teams;
        let seats = (0..config.players)
            .filter_map(|seat: Seat| {
                Some(LobbySeat {
                    player: playing.original_player(seat)?.clone(),
                    team: Some(renumber(config.team_of(seat))),
                    kept: true,
                })
            })
            .collect();
        let mut team_side = series.team_side.clone();
        for (team, side) in series.team_side.iter().enumerate() {
            let team = u8::try_from(team).unwrap_or(0);
            if let Some(slot) = team_side.get_mut(usize::from(renumber(team))) {
                *slot = *side;
            }
        }
        let mut next = self.clone();
        next.created = Timestamp(now.0.max(self.created.0.saturating_add(1)));
        next.lobby_message = None;
        next.state = State::Lobby(Lobby {
            seats,
            invited: Vec::new(),
        });
        next.paused = None;
        next.closed = false;
        next.auto_busy = false;
        next.dm_failed = Vec::new();
        next.prompt = None;
        next.questions = Vec::new();
        next.series = Some(Series {
            team_side,
            ..series
        });
        Some(next)
    }

    /// Whether the table waits between two games of a series.
    pub fn is_between_games(&self) -> bool {
        matches!(self.state, State::Lobby(_)) && self.series.is_some()
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

impl Table {
    /// A command between two games of a series: **Next game** and **Abandon series** by its players,
    /// Cancel and Stop (the host or a moderator) end it, the status shows its score; what would change
    /// the seats is refused. `None`: handled as in any lobby (hand, board, rules, the menus' answers).
    pub(in crate::service) fn between_games_command(
        &mut self,
        actor: &Actor,
        command: &Command,
        now: Timestamp,
        seed: Option<u64>,
        settings: &Settings,
    ) -> Option<Result<Reply, Text>> {
        let series = self.series.clone()?;
        let player = series.has_player(actor.user);
        let outcome = match command {
            Command::NextGame | Command::Begin if player || self.is_boss(actor) => {
                let Some(seed) = seed else {
                    return Some(Err(Text::Internal));
                };
                self.deal(now, seed, settings).map(|mut reply| {
                    // No lobby message to edit: the game's post is the news (the pressed final
                    // message of the last game keeps its score).
                    reply.outputs.retain(|o| !matches!(o, Output::Lobby { .. }));
                    reply
                })
            }
            Command::AskAbandonSeries if player => {
                self.open_question(actor.user, Question::AbandonSeries);
                Ok(Reply {
                    outputs: vec![Output::Ephemeral(confirm_abandon(self.created.0))],
                    auto_move: false,
                })
            }
            Command::AbandonSeries if player => {
                self.closed = true;
                Ok(Reply {
                    outputs: vec![
                        ended_between_games(&series, abandoned_by(actor.user)),
                        // In the question's place (see `Table::handle`).
                        Output::Ephemeral(Message::text(abandoned_by(actor.user))),
                    ],
                    auto_move: false,
                })
            }
            Command::Cancel | Command::Stop if self.is_boss(actor) => {
                self.closed = true;
                Ok(Reply {
                    outputs: vec![ended_between_games(&series, abandoned_by(actor.user))],
                    auto_move: false,
                })
            }
            Command::NextGame | Command::AskAbandonSeries | Command::AbandonSeries => {
                Err(Text::NotInSeries)
            }
            Command::Cancel | Command::Stop => Err(self.not_boss()),
            Command::Status => Ok(Reply {
                outputs: vec![Output::Ephemeral(Message::text_lines(vec![
                    Text::SeriesBreak,
                    series.score(),
                ]))],
                auto_move: false,
            }),
            Command::Join { .. }
            | Command::Leave
            | Command::Forfeit { .. }
            | Command::AddBot { .. }
            | Command::RemoveBot
            | Command::BotMenu
            | Command::Begin => Err(Text::SeriesBreak),
            _ => return None,
        };
        Some(outcome)
    }
}
