//! The table between two games of a series (see `series` for the rules): built from the finished
//! game as a lobby with the same seats and teams, the side that lost moving first, waiting for
//! **Next game**; and the commands it takes (Next game, Abandon series, Cancel, Stop, the status).

use crate::engine::Seat;

use crate::service::ids::{Actor, Timestamp};
use crate::service::reply::{Message, Output, Reply};
use crate::service::request::Command;
use crate::service::settings::Settings;
use crate::service::text::Text;

use super::lobby::{Lobby, LobbySeat};
use super::series::{abandoned_by, confirm_abandon, ended_between_games, Series};
use super::{Question, State, Table};

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
        // The next game has a page of its own: the finished game's page stays its replay (its
        // final message links it), and a page that showed it follows the table (see `pages`).
        let mut pages = series.pages.clone();
        if !self.web_token.is_empty() {
            pages.push(self.web_token.clone());
        }
        next.web_token = super::new_web_token();
        next.lobby_message = None;
        next.state = State::Lobby(Lobby {
            seats,
            invited: Vec::new(),
            challenge: None,
        });
        next.paused = None;
        next.closed = false;
        next.auto_busy = false;
        next.dm_failed = Vec::new();
        next.prompt = None;
        next.questions = Vec::new();
        next.series = Some(Series {
            team_side,
            pages,
            ..series
        });
        Some(next)
    }

    /// Whether the table waits between two games of a series.
    pub fn is_between_games(&self) -> bool {
        matches!(self.state, State::Lobby(_)) && self.series.is_some()
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
