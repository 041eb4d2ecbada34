//! The lobby: seats and team wishes, computer players added and removed, the lobby card, and the
//! deal that turns a full lobby into a game.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::engine::{roll_off, Config, GameRng, Seat, Variant};
use crate::i18n::{tr, tr_args, Args, Lang};

use crate::service::bot::BotLevel;
use crate::service::daily_cap;
use crate::service::ids::{Actor, Timestamp};
use crate::service::reply::{Message, Output, Reply};
use crate::service::request::Button;
use crate::service::settings::Settings;
use crate::service::text::{LobbyCard, RatingNote, SeatLine, TeamName, Text, Who};

use super::challenge::Challenge;
use super::game::{humans_on_two_teams, LiveGame, Player, Playing};
use super::report::{hand_message, push_turn};
use super::series::Series;
use super::{replied, Outcome, State, Table};

/// A seat taken in the lobby, with the team the player asked for (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySeat {
    /// Who.
    pub player: Player,
    /// Wished team, 0-based.
    #[serde(default)]
    pub team: Option<u8>,
    /// The team is the one of the last game (a rematch), not a wish: dropped if the teams do not fit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kept: bool,
}

/// The lobby: seats taken so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lobby {
    /// In order of joining.
    pub seats: Vec<LobbySeat>,
    /// Players of the last game invited to this rematch who have not joined yet, with their team.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invited: Vec<LobbySeat>,
    /// A challenge's invitations: who still has to answer, and until when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<Challenge>,
}

/// Seats in turn order from the lobby, honouring team wishes: seat `i` is on team `i % teams`.
pub(super) fn assign_seats(seats: &[LobbySeat], config: &Config) -> Result<Vec<Player>, Text> {
    let teams = usize::from(config.teams.max(1));
    let size = config.players / config.teams.max(1);
    let mut chosen: Vec<VecDeque<&Player>> = vec![VecDeque::new(); teams];
    let mut free: VecDeque<&Player> = VecDeque::new();
    for seat in seats {
        match seat.team {
            Some(t) => chosen
                .get_mut(usize::from(t))
                .ok_or(Text::BadTeam {
                    team: t.saturating_add(1),
                    max: config.teams,
                })?
                .push_back(&seat.player),
            None => free.push_back(&seat.player),
        }
    }
    for (t, wishes) in chosen.iter().enumerate() {
        if wishes.len() > usize::from(size) {
            return Err(Text::TeamFull {
                team: TeamName::of(config.variant, t as u8),
                size,
                chosen: u8::try_from(wishes.len()).unwrap_or(u8::MAX),
            });
        }
    }
    let mut order = Vec::with_capacity(seats.len());
    for seat in 0..usize::from(config.players) {
        let team = seat % teams;
        let player = chosen
            .get_mut(team)
            .and_then(VecDeque::pop_front)
            .or_else(|| free.pop_front())
            .ok_or(Text::Internal)?;
        order.push(player.clone());
    }
    Ok(order)
}

impl Table {
    pub(super) fn lobby_card(&self, settings: &Settings) -> LobbyCard {
        let seat_line = |s: &LobbySeat| SeatLine {
            who: s.player.who(),
            team: s.team.map(|t| TeamName::of(self.setup.variant, t)),
            cards: None,
            colour: None,
        };
        let invited = match &self.state {
            State::Lobby(lobby) => lobby.invited.iter().map(seat_line).collect(),
            State::Playing(_) => Vec::new(),
        };
        let seats = match &self.state {
            State::Lobby(lobby) => lobby
                .seats
                .iter()
                .map(|s| SeatLine {
                    who: s.player.who(),
                    team: s.team.map(|t| TeamName::of(self.setup.variant, t)),
                    cards: None,
                    colour: None,
                })
                .collect(),
            State::Playing(p) => p.seat_lines(false),
        };
        let rating = match &self.state {
            State::Lobby(lobby) => Some(self.lobby_rating(lobby, settings)),
            State::Playing(_) => None,
        };
        let challenge = self.challenge();
        LobbyCard {
            variant: self.setup.variant,
            host: self.host,
            teams: self.setup.teams,
            options: self.setup.options,
            seats,
            max_players: self.setup.max_players(),
            invited,
            challenged: challenge.map(|c| c.waiting.clone()).unwrap_or_default(),
            challenge_lapses: self.invitations_lapse().map(|t| t.0 / 1000),
            // Someone whose invitation lapsed and who joined since is seated, no longer unanswered.
            unanswered: challenge
                .map(|c| {
                    c.unanswered
                        .iter()
                        .copied()
                        .filter(|&user| {
                            !matches!(&self.state, State::Lobby(lobby)
                                if lobby.seats.iter().any(|s| s.player.is(user)))
                        })
                        .collect()
                })
                .unwrap_or_default(),
            rules: Some(self.setup.rules(settings)),
            rating,
        }
    }

    /// Whether the lobby's game would count for ratings if it started now: the host's choice (by
    /// default, whether humans would play on two teams), unless some of its players have reached
    /// the daily cap on rated games against each other (`service/daily_cap.rs`).
    pub(super) fn lobby_rating(&self, lobby: &Lobby, settings: &Settings) -> RatingNote {
        let humans: Vec<u64> = lobby
            .seats
            .iter()
            .filter_map(|s| s.player.user().map(|u| u.0))
            .collect();
        let wanted = self.setup.rated.unwrap_or_else(|| {
            let players = u8::try_from(lobby.seats.len()).unwrap_or(u8::MAX);
            match Config::new(
                self.setup.variant,
                players,
                self.setup.teams,
                self.setup.options,
            )
            .ok()
            .and_then(|config| Some((assign_seats(&lobby.seats, &config).ok()?, config)))
            {
                Some((seats, config)) => humans_on_two_teams(&config, |seat| {
                    seats
                        .get(usize::from(seat))
                        .is_some_and(|p| p.user().is_some())
                }),
                // Not a player count a game can start with yet: two humans will be opponents
                // unless they asked for the same team.
                None => {
                    let mut wishes: Vec<Option<u8>> = lobby
                        .seats
                        .iter()
                        .filter(|s| s.player.user().is_some())
                        .map(|s| s.team)
                        .collect();
                    wishes.dedup();
                    humans.len() >= 2 && !(wishes.len() == 1 && wishes[0].is_some())
                }
            }
        });
        let limit = settings.limits.rated_games_per_day;
        if wanted && daily_cap::reached(&self.meetings, &humans, limit) {
            RatingNote::CasualLimit { limit }
        } else if wanted {
            RatingNote::Rated
        } else if self.setup.rated.is_none() && humans.len() < 2 {
            RatingNote::NeedsOpponent
        } else {
            RatingNote::Casual
        }
    }

    /// The lobby message with its buttons, showing the settings that apply: Accept and Decline while
    /// a challenge's invitations wait for an answer; Join, Leave, Add computer, Start and Cancel; then
    /// a button per team when the teams are set, and Remove computer while there is one.
    pub fn lobby_message(&self, settings: &Settings) -> Message {
        let mut buttons = Vec::new();
        if self.invitations_lapse().is_some() {
            buttons.extend([
                Button::Accept(self.created.0),
                Button::Decline(self.created.0),
            ]);
        }
        buttons.extend([
            Button::Join,
            Button::Leave,
            Button::AddBot,
            Button::Begin,
            Button::Cancel,
        ]);
        if let Some(teams) = self.setup.teams {
            buttons.extend((1..=teams.min(self.setup.max_teams())).map(Button::JoinTeam));
        }
        let has_bot = match &self.state {
            State::Lobby(lobby) => lobby.seats.iter().any(|s| s.player.user().is_none()),
            State::Playing(_) => false,
        };
        if has_bot {
            buttons.push(Button::RemoveBot);
        }
        let mut lines = vec![Text::Lobby(Box::new(self.lobby_card(settings)))];
        if self.answers_only {
            lines.push(Text::AnswersOnly);
        }
        Message {
            lines,
            buttons,
            ..Message::default()
        }
    }

    /// The private menu of levels for a new computer player; `added` names the one just added.
    pub(super) fn bot_menu_message(&self, added: Option<String>) -> Message {
        Message {
            lines: vec![Text::BotMenu { added }],
            buttons: BotLevel::ALL
                .into_iter()
                .map(|level| Button::AddBotLevel(self.created.0, level))
                .collect(),
            ..Message::default()
        }
    }

    /// **Add computer**: the menu of levels, for who may add one, while the lobby is open.
    pub(super) fn bot_menu(&mut self, actor: &Actor) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        self.lobby_mut()?;
        replied(vec![Output::Ephemeral(self.bot_menu_message(None))])
    }

    pub(super) fn lobby_output(&self, message: Message) -> Output {
        Output::Lobby {
            message_id: self.lobby_message,
            message,
        }
    }

    pub(super) fn join(&mut self, actor: &Actor, team: Option<u8>, settings: &Settings) -> Outcome {
        let max_players = self.setup.max_players();
        let max_teams = self.setup.max_teams();
        let setup = self.setup;
        let lobby = self.lobby_mut()?;
        if let Some(index) = lobby.seats.iter().position(|s| s.player.is(actor.user)) {
            return match team {
                Some(t) if t >= 1 && t <= max_teams => self.change_team(index, t - 1, settings),
                Some(t) => Err(Text::BadTeam {
                    team: t,
                    max: max_teams,
                }),
                None => Err(Text::AlreadyJoined),
            };
        }
        if lobby.seats.len() >= usize::from(max_players) {
            return Err(Text::LobbyFull { max: max_players });
        }
        let team = match team {
            Some(t) if t == 0 || t > max_teams => {
                return Err(Text::BadTeam {
                    team: t,
                    max: max_teams,
                })
            }
            Some(t) => Some(t - 1),
            None => None,
        };
        // Invited to a rematch: their team of the last game, unless they name another.
        let invitation = lobby.invited.iter().position(|s| s.player.is(actor.user));
        let kept = invitation
            .and_then(|i| lobby.invited.get(i))
            .and_then(|s| s.team)
            .filter(|_| team.is_none());
        let seat = LobbySeat {
            player: Player::Human {
                user: actor.user,
                name: actor.name.clone(),
            },
            team: team.or(kept),
            kept: kept.is_some(),
        };
        if team.is_some() {
            // A team that cannot take another player is refused now, not at Start.
            let mut wishes: Vec<Option<u8>> = lobby
                .seats
                .iter()
                .filter(|s| !s.kept)
                .map(|s| s.team)
                .collect();
            wishes.push(team);
            setup.check_wishes(lobby.seats.len() + 1, &wishes)?;
        }
        if let Some(i) = invitation {
            lobby.invited.remove(i);
        }
        lobby.seats.push(seat);
        // Joining answers a challenge's invitation, by Accept or by Join alike.
        self.answered(actor.user);
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::Joined)),
        ])
    }

    /// A seated player asks for another team (0-based): moved if the team has room.
    pub(super) fn change_team(&mut self, index: usize, team: u8, settings: &Settings) -> Outcome {
        let setup = self.setup;
        let variant = setup.variant;
        let lobby = self.lobby_mut()?;
        let seat = lobby.seats.get(index).ok_or(Text::Internal)?;
        if seat.team == Some(team) && !seat.kept {
            return Err(Text::AlreadyOnTeam(TeamName::of(variant, team)));
        }
        let wishes: Vec<Option<u8>> = lobby
            .seats
            .iter()
            .enumerate()
            .filter(|(i, s)| *i == index || !s.kept)
            .map(|(i, s)| if i == index { Some(team) } else { s.team })
            .collect();
        setup.check_wishes(lobby.seats.len(), &wishes)?;
        if let Some(seat) = lobby.seats.get_mut(index) {
            seat.team = Some(team);
            seat.kept = false;
        }
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::TeamChanged(TeamName::of(
                variant, team,
            )))),
        ])
    }

    pub(super) fn leave_lobby(&mut self, actor: &Actor, settings: &Settings) -> Outcome {
        let lobby = self.lobby_mut()?;
        let index = lobby
            .seats
            .iter()
            .position(|s| s.player.is(actor.user))
            .ok_or(Text::NotInGame)?;
        lobby.seats.remove(index);
        let next_host = lobby.seats.iter().find_map(|s| s.player.user());
        let computers = !lobby.seats.is_empty();
        let ack = Output::Ephemeral(Message::text(Text::Left));
        match next_host {
            None => {
                self.closed = true;
                replied(vec![
                    self.lobby_output(Message::text(Text::LobbyAbandoned { computers })),
                    ack,
                ])
            }
            Some(next) => {
                let mut message = self.lobby_message(settings);
                if actor.user == self.host {
                    self.host = next;
                    message = self.lobby_message(settings);
                    message.lines.push(Text::HostChanged(next));
                }
                replied(vec![self.lobby_output(message), ack])
            }
        }
    }

    pub(super) fn add_bot(
        &mut self,
        actor: &Actor,
        level: BotLevel,
        settings: &Settings,
        lang: Lang,
    ) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        let max_players = self.setup.max_players();
        let number = self.bots_added.saturating_add(1);
        let lobby = self.lobby_mut()?;
        if lobby.seats.len() >= usize::from(max_players) {
            return Err(Text::LobbyFull { max: max_players });
        }
        let max_bots = settings.limits.bots_per_table;
        let bots = lobby
            .seats
            .iter()
            .filter(|s| s.player.user().is_none())
            .count();
        if bots >= usize::from(max_bots) {
            return Err(Text::TooManyBots { max: max_bots });
        }
        let level_name = tr(lang, &format!("level-{level}"));
        let name = tr_args(
            lang,
            "bot-name",
            &Args::new()
                .number("number", number)
                .text("level", level_name),
        );
        lobby.seats.push(LobbySeat {
            player: Player::Bot {
                level,
                name: name.clone(),
            },
            team: None,
            kept: false,
        });
        self.bots_added = number;
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::BotAdded(name))),
        ])
    }

    pub(super) fn remove_bot(&mut self, actor: &Actor, settings: &Settings) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        let lobby = self.lobby_mut()?;
        let index = lobby
            .seats
            .iter()
            .rposition(|s| s.player.user().is_none())
            .ok_or(Text::NoBot)?;
        let seat = lobby.seats.remove(index);
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::BotRemoved(seat.player.name().into()))),
        ])
    }

    pub(super) fn cancel(&mut self, actor: &Actor) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        self.lobby_mut()?;
        self.closed = true;
        replied(vec![
            self.lobby_output(Message::text(Text::LobbyCancelled { by: actor.user })),
            Output::Ephemeral(Message::text(Text::CancelledAck)),
        ])
    }

    pub(super) fn begin(
        &mut self,
        actor: &Actor,
        now: Timestamp,
        seed: u64,
        settings: &Settings,
    ) -> Outcome {
        if !self.is_boss(actor) {
            return Err(self.not_boss());
        }
        self.deal(now, seed, settings)
    }

    /// Deals the lobby's game: seats, who starts, the first turn.
    pub(in crate::service) fn deal(
        &mut self,
        now: Timestamp,
        seed: u64,
        settings: &Settings,
    ) -> Outcome {
        let setup = self.setup;
        let lobby = self.lobby_mut()?;
        let players = u8::try_from(lobby.seats.len()).unwrap_or(u8::MAX);
        let config = Config::new(setup.variant, players, setup.teams, setup.options)
            .map_err(|e| Text::CannotStart(setup.variant, e))?;
        // Teams kept from the last game (a rematch) give way when they no longer fit.
        let mut seats = assign_seats(&lobby.seats, &config).or_else(|e| {
            if !lobby.seats.iter().any(|s| s.kept) {
                return Err(e);
            }
            let wishes: Vec<LobbySeat> = lobby
                .seats
                .iter()
                .map(|s| LobbySeat {
                    team: s.team.filter(|_| !s.kept),
                    ..s.clone()
                })
                .collect();
            assign_seats(&wishes, &config)
        })?;
        // Who starts: in dice a roll-off (RULES.md), in the card games a random dealer. The seats are
        // turned so the starting player sits in seat 0, which moves first in the engine and in records.
        // When players asked for teams, card games turn by whole rounds so the teams keep their numbers.
        let mut rng = GameRng::new(seed ^ 0x5EA7_0F0F);
        let mut roll_off_line = None;
        let first = if setup.variant == Variant::Dice {
            let (rounds, winner) = roll_off(players, &mut rng);
            roll_off_line = Some(Text::RollOff {
                rounds: rounds
                    .iter()
                    .map(|round| {
                        round
                            .iter()
                            .zip(&seats)
                            .filter_map(|(roll, player)| roll.map(|dice| (player.who(), dice)))
                            .collect()
                    })
                    .collect(),
                winner: seats
                    .get(usize::from(winner))
                    .map_or(Who::Bot(String::new()), Player::who),
            });
            usize::from(winner)
        } else if lobby.seats.iter().any(|s| s.team.is_some()) {
            let teams = u32::from(config.teams.max(1));
            (rng.below(u32::from(players) / teams) * teams) as usize
        } else {
            rng.below(u32::from(players)) as usize
        };
        let first = first.min(seats.len());
        seats.rotate_left(first);
        let live = LiveGame::start(config, seed).map_err(|e| {
            tracing::error!(channel = self.channel.0, "cannot start a game: {e}");
            Text::Internal
        })?;
        metrics::counter!("sequence_games_started_total", "game" => config.variant.name())
            .increment(1);
        tracing::info!(players = seats.len(), "game started");
        // Rated or casual is decided now, with the seats and teams as they are.
        let wanted = setup.rated.unwrap_or_else(|| {
            humans_on_two_teams(&config, |seat| {
                seats
                    .get(usize::from(seat))
                    .is_some_and(|p| p.user().is_some())
            })
        });
        let humans: Vec<u64> = seats.iter().filter_map(|p| p.user().map(|u| u.0)).collect();
        let limit = settings.limits.rated_games_per_day;
        let limited = wanted && daily_cap::reached(&self.meetings, &humans, limit);
        let playing = Playing {
            seats,
            live,
            rolled: false,
            turn_started: now,
            reminded: false,
            gave_up: Vec::new(),
            forfeited: Vec::new(),
            timeouts: Vec::new(),
            board_unshown: false,
            hand_dms: Vec::new(),
            human_moves: Some(vec![0; usize::from(players)]),
            rated: Some(wanted && !limited),
            daily_limit: limited.then_some(limit),
            stopped: None,
            own_actions: Some(Vec::new()),
            started: Some(now),
            hints: Some(settings.hints),
        };
        let note = playing.start_note(&setup);
        let mut outputs = vec![self.lobby_output(Message::text(Text::LobbyStarted(setup.variant)))];
        let mut lines: Vec<Text> = roll_off_line.into_iter().collect();
        lines.push(Text::GameStarted {
            variant: setup.variant,
            seats: playing.seat_lines(false),
        });
        if let (Some(best_of), None) = (setup.series, &self.series) {
            self.series = Some(Series::start(best_of, &playing.seats, config.teams));
        }
        lines.extend(self.series.as_ref().map(Series::game_line));
        lines.push(Text::Rating(note));
        if settings.timeout_gives_up {
            // The first turn that runs out decides (the lobby said it; the game says it again).
            lines.push(Text::TimeoutGivesUp {
                timeout_secs: setup.turn_timeout(settings).as_secs(),
            });
        }
        let mut playing = playing;
        // A computer to move first posts the board with its move, a moment later.
        let computer_first = playing.computer_to_move();
        playing.board_unshown = computer_first;
        let mut message = Message {
            image: (!computer_first).then(|| playing.board_image()),
            ..Message::default()
        };
        push_turn(
            self.created.0,
            &playing,
            setup.turn_timeout(settings),
            settings,
            &mut lines,
            &mut message,
            None,
        );
        message.lines = lines;
        outputs.push(Output::Channel(message));
        if setup.variant.has_cards() {
            for (seat, player) in playing.seats.iter().enumerate() {
                if let (Some(user), Ok(seat)) = (player.user(), Seat::try_from(seat)) {
                    outputs.push(Output::Direct {
                        user,
                        message: hand_message(&playing, self.channel, seat, true),
                    });
                }
            }
        }
        outputs.push(Output::Ephemeral(Message::text(Text::BegunAck)));
        self.state = State::Playing(playing);
        Ok(Reply {
            outputs,
            auto_move: self.auto_due(now, settings),
        })
    }
}
