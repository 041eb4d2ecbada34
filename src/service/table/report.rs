//! The end of a game and the standings: the final message with the scores, and the table's status.

use crate::service::ids::Timestamp;
use crate::service::reply::{Attachment, Message, Output};
use crate::service::request::Button;
use crate::service::settings::Settings;
use crate::service::text::{RatingNote, StatusInfo, TeamName, Text, ZoneInfo};

use super::series::Series;
use super::{replied, Outcome, State, Table};

impl Table {
    /// Closes the table and builds the final message: the lines, the final board and the record.
    pub(super) fn end_game(&mut self, mut lines: Vec<Text>) -> Message {
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
                    Text::WonByForfeit { .. }
                        | Text::WonOnTime { .. }
                        | Text::SharedWin(_)
                        | Text::StopIsGivingUp(_)
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

    pub(super) fn status(&mut self, now: Timestamp, settings: &Settings) -> Outcome {
        let card = self.lobby_card(settings);
        let State::Playing(playing) = &self.state else {
            return replied(vec![Output::Ephemeral(Message::text(Text::LobbyStatus(
                Box::new(card),
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
}
