//! The moves of the people at the table: the ⋯ menu, play, exchange and roll (checked, committed and
//! reported), giving up, stopping, and a player's hand and the board on request.

use crate::engine::{Card, Cell, GameRng, Move, PlayError, Seat, Status};
use crate::i18n::Lang;

use crate::service::ids::{Actor, Timestamp};
use crate::service::reply::{Message, Output, Reply};
use crate::service::request::{Button, Command};
use crate::service::settings::Settings;
use crate::service::text::{TeamName, Text, Who};

use super::game::{Player, Playing, Stop};
use super::report::{
    blocked_line, describe, exchanged_before, hand_message, illegal_text, push_turn, rolled_line,
    scores,
};
use super::{replied, Outcome, Question, State, Table};

/// Two dice thrown from `seed`.
pub(super) fn throw_dice(seed: u64) -> [u8; 2] {
    let mut rng = GameRng::new(seed);
    [rng.die(), rng.die()]
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
