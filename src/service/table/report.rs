//! What the channel and the players are told about a game: the lines that describe what a move did
//! (with the scores), the turn prompt (with its Play or Roll button and the turn number it carries),
//! a player's hand, a refused move, the end of a game (the final message) and the table's status.

use std::time::Duration;

use crate::engine::{
    BitIter, Bits, Card, CardEffect, Event, Game, GroupKind, Move, PlayError, Seat, Status,
};

use crate::service::ids::{ChannelId, Timestamp};
use crate::service::reply::{Attachment, Control, HandImage, Image, Label, Message, Output, Style};
use crate::service::request::{Button, Press, Step};
use crate::service::settings::Settings;
use crate::service::text::{
    CardLine, CardUse, RatingNote, RollHint, StatusInfo, TeamName, Text, ZoneInfo,
};

use super::game::{turn_number, Player, Playing};
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
            link: None,
            activity: false,
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

pub(super) fn names_of(bits: Bits, game: &Game) -> Vec<String> {
    let layout = game.position().layout();
    BitIter(bits).map(|c| layout.cell_name(c)).collect()
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
pub(super) fn exchanged_before(playing: &Playing, seat: Seat) -> Vec<Text> {
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
pub(super) fn blocked_line(game: &Game) -> Text {
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
