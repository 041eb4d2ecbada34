//! The table's clock: pausing while the bot cannot post, reminders and timeouts, computer players'
//! moves claimed and applied, and the table's state after a restart.

use crate::engine::{GameRng, Move, Seat};
use crate::i18n::{tr, tr_args, Args, Lang};

use crate::service::access::Paused;
use crate::service::bot::{random_legal_move, BotLevel};
use crate::service::ids::{Timestamp, UserId};
use crate::service::reply::{Message, Output, Reply};
use crate::service::request::Button;
use crate::service::settings::Settings;
use crate::service::text::{Text, Who, ZoneInfo};

use super::game::Player;
use super::report::{prompt_button, push_turn};
use super::{AutoTask, State, Table};

/// The line when running out of time costs a player their seat: a computer takes it (`bot`), or
/// (`None`) the game ends, their side losing if `side_loses`.
pub(super) fn out_of_time(who: Who, bot: Option<String>, count: u8, side_loses: bool) -> Text {
    match bot {
        Some(bot) => Text::ReplacedAfterTimeouts { who, bot, count },
        None => Text::OutOfTimeLost {
            who,
            count,
            side_loses,
        },
    }
}

impl Table {
    /// Pauses the table: a post in its channel was refused. `false` if it was paused already.
    pub(in crate::service) fn pause(&mut self, now: Timestamp) -> bool {
        if self.paused.is_some() {
            return false;
        }
        self.paused = Some(Paused {
            since: now,
            ..Paused::default()
        });
        true
    }

    /// Ends a pause: the turn starts afresh (its time ran while nobody could see the game), and the
    /// channel is told the game goes on, with the board and a ping for a human to move.
    pub(in crate::service) fn unpause(&mut self, now: Timestamp, settings: &Settings) -> Reply {
        self.paused = None;
        let mut message = Message::text(Text::PostingRestored);
        let timeout = self.setup.turn_timeout(settings);
        if let State::Playing(playing) = &mut self.state {
            playing.turn_started = now;
            playing.reminded = false;
            if !playing.game().position().is_over() {
                message.image = Some(playing.board_image());
                let mut lines = std::mem::take(&mut message.lines);
                push_turn(
                    self.created.0,
                    playing,
                    timeout,
                    settings,
                    &mut lines,
                    &mut message,
                    None,
                );
                message.lines = lines;
            }
        }
        Reply {
            outputs: vec![Output::Channel(message)],
            auto_move: self.auto_due(now, settings),
        }
    }

    /// Where running out of time gives up (the server's `on_timeout` setting): `user`, to move,
    /// ran out of time. A computer takes the seat, or their side loses if nobody is left on it;
    /// announced as running out of time, not as giving up.
    pub(in crate::service) fn time_ran_out(
        &mut self,
        user: UserId,
        now: Timestamp,
        settings: &Settings,
        lang: Lang,
    ) -> Reply {
        let Some(playing) = self.playing_mut().ok() else {
            return Reply::default();
        };
        let Some(seat) = playing.seat_of(user) else {
            return Reply::default();
        };
        let count = playing.count_timeout(seat);
        let who = Who::User(user);
        let replaced = self.replace_by_computer(seat, settings, lang, |bot, side_loses| {
            out_of_time(who, bot, count, side_loses)
        });
        match replaced {
            Ok((lines, true)) => Reply {
                outputs: vec![Output::Channel(self.end_game(lines))],
                auto_move: false,
            },
            Ok((lines, false)) => Reply {
                outputs: vec![Output::Channel(Message::text_lines(lines))],
                auto_move: self.auto_due(now, settings),
            },
            Err(_) => Reply::default(),
        }
    }

    /// A computer player takes the seat of its human for the rest of the game (who gave up, or timed
    /// out too often); `announce` names the change. Returns the lines to post and whether the game
    /// ended: when no human is left, or every other team gave up. An ended game gets no computer
    /// player: the lines say who gave up and how the game ended, nothing that contradicts it.
    pub(super) fn replace_by_computer(
        &mut self,
        seat: Seat,
        settings: &Settings,
        lang: Lang,
        announce: impl FnOnce(Option<String>, bool) -> Text,
    ) -> Result<(Vec<Text>, bool), Text> {
        let playing = self.playing_mut()?;
        let leaving = playing.without(seat);
        let slot = playing
            .seats
            .get_mut(usize::from(seat))
            .ok_or(Text::Internal)?;
        let Player::Human { name, .. } = slot.clone() else {
            return Err(Text::NotInGame);
        };
        let level = settings.default_bot_level;
        let bot = tr_args(
            lang,
            "bot-stand-in",
            &Args::new()
                .text("level", tr(lang, &format!("level-{level}")))
                .text("name", name.as_str()),
        );
        let original = std::mem::replace(
            slot,
            Player::Bot {
                level,
                name: bot.clone(),
            },
        );
        playing.forfeited.push((seat, original));
        let team = playing.game().config().team_of(seat);
        if leaving.team_out && !playing.gave_up.contains(&team) {
            playing.gave_up.push(team);
        }
        if !leaving.ends_game() {
            return Ok((vec![announce(Some(bot), false)], false));
        }
        let mut lines = vec![announce(None, leaving.team_out)];
        if !leaving.humans_left && leaving.remaining > 1 {
            lines.push(Text::NoHumansLeft);
        }
        let on_time = matches!(lines.first(), Some(Text::OutOfTimeLost { .. }));
        lines.extend(playing.win_by_giving_up().map(|won| match won {
            // The last side to leave ran out of time: the result says so, not "gave up".
            Text::WonByForfeit { team, members } if on_time => Text::WonOnTime { team, members },
            other => other,
        }));
        Ok((lines, true))
    }

    /// Whether a computer move is due now (a bot to move, or a human whose time ran out).
    pub(super) fn auto_due(&self, now: Timestamp, settings: &Settings) -> bool {
        let Some(playing) = self.playing() else {
            return false;
        };
        let pos = playing.game().position();
        if self.closed || self.paused.is_some() || pos.is_over() {
            return false;
        }
        match playing.player(pos.to_move()) {
            Some(Player::Bot { .. }) => true,
            Some(Player::Human { .. }) => {
                now >= playing
                    .turn_started
                    .after(self.setup.turn_timeout(settings))
            }
            None => false,
        }
    }

    /// The human to move whose turn has run out at `now`, if any.
    pub(in crate::service) fn timed_out_human(
        &self,
        now: Timestamp,
        settings: &Settings,
    ) -> Option<(UserId, String)> {
        let playing = self.playing()?;
        let pos = playing.game().position();
        // Paused, the turn's time stands still (nobody could see the game).
        if self.closed || self.paused.is_some() || pos.is_over() {
            return None;
        }
        match playing.player(pos.to_move())? {
            Player::Human { user, name }
                if now
                    >= playing
                        .turn_started
                        .after(self.setup.turn_timeout(settings)) =>
            {
                Some((*user, name.clone()))
            }
            _ => None,
        }
    }

    /// Reminders and lobby expiry at `now`.
    pub(in crate::service) fn tick(&mut self, now: Timestamp, settings: &Settings) -> Reply {
        let mut reply = Reply::default();
        let (timeout, reminder) = (
            self.setup.turn_timeout(settings),
            self.setup.turn_reminder(settings),
        );
        if self.paused.is_some() {
            // Nobody could see a reminder or an expiry: time stands still until the pause ends.
            return reply;
        }
        match &mut self.state {
            State::Lobby(_) => {
                if now >= self.created.after(settings.lobby_timeout) {
                    self.closed = true;
                    let note = match &self.series {
                        // Between two games of a series: nobody pressed Next game in time.
                        Some(series) => {
                            super::series::ended_between_games(series, Text::SeriesExpired)
                        }
                        None => self.lobby_output(Message::text(Text::LobbyExpired)),
                    };
                    reply.outputs.push(note);
                } else if let Some(edit) = self.lapse_invitations(now, settings) {
                    reply.outputs.push(edit);
                }
            }
            State::Playing(playing) => {
                let pos = playing.game().position();
                let to_move = pos.to_move();
                let deadline = playing.turn_started.after(timeout);
                if let (false, false, Some(user), Some(reminder)) = (
                    pos.is_over(),
                    playing.reminded,
                    playing.player(to_move).and_then(Player::user),
                    reminder,
                ) {
                    if now >= playing.turn_started.after(reminder) && now < deadline {
                        playing.reminded = true;
                        // This timeout would be one too many in a row: the seat would go for good.
                        let in_a_row = playing
                            .timeouts
                            .get(usize::from(to_move))
                            .copied()
                            .unwrap_or(0);
                        let limit = settings.replace_after_timeouts;
                        let last_chance = limit > 0 && in_a_row.saturating_add(1) >= limit;
                        let message = Message {
                            lines: vec![Text::Reminder {
                                who: Who::User(user),
                                seconds_left: now.seconds_until(deadline),
                                gives_up: settings.timeout_gives_up || last_chance,
                                ends_game: playing.leaving_ends_game(to_move),
                            }],
                            mentions: vec![user],
                            components: vec![vec![prompt_button(self.created.0, playing.game())]],
                            ..Message::default()
                        };
                        reply.outputs.push(Output::Channel(message));
                    }
                }
                reply.auto_move = self.auto_due(now, settings);
            }
        }
        reply
    }

    /// After a restart: the note for the channel, and whether the table changed. A human whose turn ran
    /// out while the bot was down gets the time a reminded player has (the turn timeout minus the
    /// reminder) instead of losing the turn at once; every other deadline is kept. An expired lobby
    /// gets no note: the next tick closes it.
    pub(in crate::service) fn resume(
        &mut self,
        now: Timestamp,
        settings: &Settings,
    ) -> (Reply, bool) {
        if self.paused.is_some() {
            // The channel refused posts before the restart: still paused, nothing to say there.
            return (Reply::default(), false);
        }
        let variant = self.setup.variant;
        let timeout = self.setup.turn_timeout(settings);
        // A turn that ran out while the bot was down gets the time a reminded player has left (half
        // of a blitz clock, which has no reminder).
        let grace = match self.setup.turn_reminder(settings) {
            Some(reminder) => timeout.saturating_sub(reminder),
            None => timeout / 2,
        };
        let mut changed = false;
        let message = match &mut self.state {
            State::Lobby(_) if now >= self.created.after(settings.lobby_timeout) => None,
            State::Lobby(_) => Some(match &self.series {
                // Between two games of a series: its score, and its buttons again.
                Some(series) => Message {
                    lines: vec![series.score(), Text::SeriesNext],
                    buttons: vec![
                        Button::NextGame(self.created.0),
                        Button::AbandonSeries(self.created.0),
                    ],
                    ..Message::default()
                },
                None => Message::text(Text::LobbyResumed(variant)),
            }),
            State::Playing(playing) => {
                let seat = playing.game().position().to_move();
                let human = playing.player(seat).and_then(Player::user);
                let mut seconds_left = None;
                if human.is_some() {
                    if now >= playing.turn_started.after(timeout) {
                        let elapsed = timeout.saturating_sub(grace);
                        let elapsed = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
                        playing.turn_started = Timestamp(now.0.saturating_sub(elapsed));
                        playing.reminded = true;
                        changed = true;
                    }
                    seconds_left = Some(now.seconds_until(playing.turn_started.after(timeout)));
                }
                let mut lines = vec![Text::GameResumed {
                    variant,
                    to_move: playing.who(seat),
                    seconds_left,
                }];
                if let Some(zone) = playing.game().position().zone() {
                    lines.push(Text::Zone(ZoneInfo::of(zone)));
                }
                Some(Message {
                    lines,
                    image: Some(playing.board_image()),
                    mentions: human.into_iter().collect(),
                    components: human
                        .map(|_| vec![prompt_button(self.created.0, playing.game())])
                        .into_iter()
                        .collect(),
                    // As on a turn prompt: once its turn is over, the Play button goes and these stay.
                    buttons: match (human, playing.game().config().variant.has_cards()) {
                        (None, _) => Vec::new(),
                        (Some(_), true) => vec![Button::Hand, Button::More(self.created.0)],
                        (Some(_), false) => vec![Button::More(self.created.0)],
                    },
                    ..Message::default()
                })
            }
        };
        let reply = Reply {
            outputs: message.map(Output::Channel).into_iter().collect(),
            auto_move: self.auto_due(now, settings),
        };
        (reply, changed)
    }

    /// When the table last moved on: its turn's start in a game, its opening as a lobby.
    pub fn last_activity(&self) -> Timestamp {
        match &self.state {
            State::Lobby(_) => self.created,
            State::Playing(playing) => playing.turn_started,
        }
    }

    /// Takes the pending computer move, if one is due and no other is being chosen.
    pub(in crate::service) fn claim_auto_task(
        &mut self,
        now: Timestamp,
        settings: &Settings,
        seed: u64,
    ) -> Option<AutoTask> {
        if self.auto_busy || !self.auto_due(now, settings) {
            return None;
        }
        let channel = self.channel;
        let turn_timeout = self.setup.turn_timeout(settings);
        let mut rng = GameRng::new(seed);
        let playing = self.playing_mut().ok()?;
        if playing.game().needs_roll() {
            // The computer (or the timer) rolls for the player now, before choosing.
            let dice = [rng.die(), rng.die()];
            if let Err(e) = playing.live.roll(dice) {
                tracing::error!(channel = channel.0, "cannot roll for a computer move: {e}");
                return None;
            }
        }
        let game = playing.game();
        let seat = game.position().to_move();
        let (level, timed_out, due) = match playing.player(seat)? {
            Player::Bot { level, .. } => (*level, false, playing.turn_started),
            // A turn played for a player who ran out of time is played with care: at least
            // `medium` (an `easy` turn plays at random, and could waste a two-eyed jack).
            Player::Human { .. } => (
                match settings.default_bot_level {
                    BotLevel::Easy => BotLevel::Medium,
                    level => level,
                },
                true,
                playing.turn_started.after(turn_timeout),
            ),
        };
        let plies = game.position().plies();
        let task = AutoTask {
            seat,
            plies,
            view: game.view(seat),
            history: playing.live.history(),
            level,
            seed: rng.next_u64(),
            timed_out,
            due,
        };
        self.auto_busy = true;
        Some(task)
    }

    /// Applies a chosen computer move if the game is still where the task found it.
    pub(in crate::service) fn apply_auto(
        &mut self,
        task: &AutoTask,
        chosen: Option<Move>,
        now: Timestamp,
        settings: &Settings,
        lang: Lang,
    ) -> Option<Reply> {
        self.auto_busy = false;
        // Paused while the move was chosen: nothing is played until the channel takes posts again,
        // when the move is due again.
        if self.closed || self.paused.is_some() {
            return None;
        }
        let channel = self.channel;
        let State::Playing(playing) = &mut self.state else {
            return None;
        };
        let game = playing.game();
        let pos = game.position();
        if pos.is_over() || pos.plies() != task.plies || pos.to_move() != task.seat {
            return None;
        }
        let mv = match chosen.filter(|&mv| game.check(task.seat, mv).is_ok()) {
            Some(mv) => mv,
            None => {
                tracing::warn!(
                    channel = channel.0,
                    "computer player gave no legal move; playing a random one"
                );
                random_legal_move(&game.view(task.seat), task.seed)
            }
        };
        let mut lines = Vec::new();
        let who = playing.who(task.seat);
        if !game.config().variant.has_cards() {
            // The computer rolled for the seat: `commit_and_report` tells the roll with the move.
            playing.rolled = true;
        }
        if task.timed_out {
            let count = playing.count_timeout(task.seat);
            let limit = settings.replace_after_timeouts;
            if limit > 0 && count >= limit && !settings.timeout_gives_up {
                // Too many turns timed out in a row: a computer keeps the seat (announced once).
                match self.replace_by_computer(task.seat, settings, lang, |bot, side_loses| {
                    out_of_time(who.clone(), bot, count, side_loses)
                }) {
                    Ok((replaced, true)) => {
                        return Some(Reply {
                            outputs: vec![Output::Channel(self.end_game(replaced))],
                            auto_move: false,
                        })
                    }
                    Ok((replaced, false)) => lines.extend(replaced),
                    Err(e) => {
                        tracing::error!(channel = channel.0, "cannot replace a player: {e}");
                        lines.push(Text::TimedOut {
                            who: who.clone(),
                            level: task.level,
                        });
                    }
                }
            } else {
                lines.push(Text::TimedOut {
                    who: who.clone(),
                    level: task.level,
                });
            }
        }
        Some(self.commit_and_report(task.seat, mv, now, settings, lines, true))
    }
}
