//! Rematch: the final message of a game carries a **Rematch** button. Pressed by one of its players
//! while the channel is free, it opens a lobby with the same game, options and teams: the presser is
//! the host, the computer players sit again, and the other players are invited by a mention that
//! notifies them; each joins with one press of **Join** and keeps their team (if the teams still fit
//! at Start; otherwise the kept teams give way). In the card games the team that did not start the
//! last game starts the rematch (with three teams, the one that moved second).
//!
//! What a rematch needs is remembered in memory when a game ends, for as long as a lobby would stay
//! open (the lobby timeout): a press after that, or after a restart, is answered politely.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use crate::engine::Seat;

use super::table::{Lobby, LobbySeat, Player, Setup, State, Table};
use super::tables::lobby_opened;
use super::{
    lock, Actor, ChannelId, Command, GameKey, GuildId, Reply, Tables, Text, Timestamp, UserId,
};

/// Most channels whose last game is remembered for a rematch; past it the memory starts afresh.
const MAX_REMEMBERED: usize = 10_000;

/// A finished game, as much as its rematch needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Finished {
    /// Which game it was (its Rematch button carries this key).
    game: GameKey,
    /// The game and its options.
    setup: Setup,
    /// Every seat of the game in turn order: the player who sat there first (a human who gave up,
    /// not the computer that took over), with their team.
    seats: Vec<LobbySeat>,
    /// Computer players added so far (for the names of new ones).
    bots_added: u8,
    /// When the game ended.
    ended: Timestamp,
    /// The key of the rematch's lobby, once it was opened: while it is open, a press of this game's
    /// Rematch by one of its players joins it.
    lobby: Option<GameKey>,
}

impl Finished {
    /// What a rematch of `table` needs, if a game was played there.
    pub(super) fn of(table: &Table, ended: Timestamp) -> Option<Finished> {
        let State::Playing(playing) = &table.state else {
            return None;
        };
        let config = *playing.live.game().config();
        let teams = config.teams.max(1);
        // Seat 0 moved first, so team 0 started this game; the rematch's team 0 moves first (Start
        // puts a player of the first team in seat 0). In the card games the next team starts the
        // rematch: every team moves one number down, keeping its players (their numbers and colours
        // turn). Sequence Dice rolls off for the start, as its rules say.
        let turn = u8::from(table.setup.variant.has_cards());
        let seats = (0..config.players)
            .filter_map(|seat: Seat| {
                let player = playing.original_player(seat)?.clone();
                Some(LobbySeat {
                    player,
                    team: Some((config.team_of(seat) + teams - turn) % teams),
                    kept: true,
                })
            })
            .collect();
        Some(Finished {
            game: table.created.0,
            setup: table.setup,
            seats,
            bots_added: table.bots_added,
            ended,
            lobby: None,
        })
    }

    /// Whether `user` played this game.
    fn has_player(&self, user: UserId) -> bool {
        self.seats.iter().any(|s| s.player.user() == Some(user))
    }

    /// The lobby of the rematch: `host` seated with their team, the computer players seated, the
    /// other players invited.
    fn lobby(&self, channel: ChannelId, host: &Actor, now: Timestamp) -> Table {
        let mut table = Table::new(channel, host, self.setup, now);
        table.bots_added = self.bots_added;
        let mut seats = Vec::new();
        let mut invited = Vec::new();
        for seat in &self.seats {
            match &seat.player {
                Player::Human { user, .. } if *user == host.user => seats.insert(
                    0,
                    LobbySeat {
                        player: Player::Human {
                            user: host.user,
                            name: host.name.clone(),
                        },
                        ..seat.clone()
                    },
                ),
                Player::Human { user, .. } => {
                    if !invited
                        .iter()
                        .any(|s: &LobbySeat| s.player.user() == Some(*user))
                    {
                        invited.push(seat.clone());
                    }
                }
                Player::Bot { .. } => seats.push(seat.clone()),
            }
        }
        table.state = State::Lobby(Lobby {
            seats,
            invited,
            challenge: None,
        });
        table
    }
}

/// The last finished game of each channel, for its rematch, while its Rematch button may still open
/// one (issue 28: kept for ever, they were most of what a long-lived process gained per game).
#[derive(Debug, Default)]
pub(super) struct FinishedGames(Mutex<Remembered>);

#[derive(Debug, Default)]
struct Remembered {
    /// Each channel's last game, and until when its rematch may open.
    games: HashMap<ChannelId, (Finished, Timestamp)>,
    /// How many there were after the last sweep of expired ones.
    after_sweep: usize,
}

/// Fewest remembered games before expired ones are swept out.
const SWEEP_FROM: usize = 1024;

impl FinishedGames {
    /// Remembers the game of a table that just closed (a lobby closing leaves nothing to remember),
    /// for `window` (the server's lobby timeout, the time a rematch may open).
    pub(super) fn remember(&self, table: &Table, now: Timestamp, window: Duration) {
        let Some(finished) = Finished::of(table, now) else {
            return;
        };
        self.put(table.channel, finished, window);
    }

    /// Remembers a finished game for `window` after its end. Games whose window has passed are swept
    /// out whenever the number remembered has doubled since the last sweep, so the memory holds about
    /// the games that ended within a window (at most [`MAX_REMEMBERED`]).
    pub(super) fn put(&self, channel: ChannelId, finished: Finished, window: Duration) {
        let now = finished.ended;
        let mut all = lock(&self.0);
        if all.games.len() >= (2 * all.after_sweep).max(SWEEP_FROM) {
            all.games.retain(|_, (_, until)| now < *until);
            all.after_sweep = all.games.len();
        }
        if all.games.len() >= MAX_REMEMBERED {
            all.games.clear();
            all.after_sweep = 0;
        }
        let until = now.after(window);
        all.games.insert(channel, (finished, until));
    }

    /// The key of the channel's remembered game (tests).
    #[cfg(test)]
    pub(super) fn get_key(&self, channel: ChannelId) -> Option<GameKey> {
        self.get(channel).map(|f| f.game)
    }

    /// Games remembered (tests).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        lock(&self.0).games.len()
    }

    fn get(&self, channel: ChannelId) -> Option<Finished> {
        lock(&self.0).games.get(&channel).map(|(f, _)| f.clone())
    }

    /// Remembers that the rematch of `game` opened the lobby `lobby`.
    fn set_lobby(&self, channel: ChannelId, game: GameKey, lobby: GameKey) {
        let mut all = lock(&self.0);
        if let Some((finished, _)) = all.games.get_mut(&channel).filter(|(f, _)| f.game == game) {
            finished.lobby = Some(lobby);
        }
    }
}

impl Tables {
    /// The Rematch button: a lobby like the channel's last game, its players invited.
    pub(super) fn rematch(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: &Actor,
        game: GameKey,
        now: Timestamp,
    ) -> Reply {
        if let Some(open) = self.snapshot(channel) {
            let its_lobby = matches!(open.state, State::Lobby(_))
                && self.finished.get(channel).is_some_and(|f| {
                    f.game == game && f.lobby == Some(open.created.0) && f.has_player(actor.user)
                });
            if its_lobby {
                // The rematch is open already: one of the game's players joins it (with their team).
                let join = Command::Join { team: None };
                return self.handle_command(guild, channel, actor.clone(), join, now);
            }
            return Reply::ephemeral(Text::TableExists);
        }
        let settings = self.settings_for(guild);
        let Some(finished) = self
            .finished
            .get(channel)
            .filter(|f| now < f.ended.after(settings.lobby_timeout))
        else {
            return Reply::ephemeral(Text::RematchExpired);
        };
        if finished.game != game {
            // An older game's button: the channel has played another game since.
            return Reply::ephemeral(Text::RematchSuperseded);
        }
        if !finished.has_player(actor.user) {
            return Reply::ephemeral(Text::RematchNotPlayer);
        }
        let mut table = finished.lobby(channel, actor, now);
        self.place(&mut table, guild);
        // Known before the lobby is published, so a second press at the same moment joins it.
        self.finished.set_lobby(channel, game, table.created.0);
        let mut message = table.lobby_message(&settings);
        if let State::Lobby(lobby) = &table.state {
            // A new message that mentions them: the invitation notifies (not those it pinged lately
            // who did not take a seat since, see `budget::Budgets::ping_invited`).
            let invited: Vec<UserId> = lobby
                .invited
                .iter()
                .filter_map(|s| s.player.user())
                .collect();
            message.mentions = match self.ping_invited(guild, actor.user, &invited, now) {
                Ok(pinged) => pinged,
                Err(text) => return Reply::ephemeral(text),
            };
        }
        let pinged = message.mentions.clone();
        let reply = self.open(guild, actor, table, lobby_opened(message));
        if reply.is_refusal() {
            self.not_pinged(actor.user, &pinged);
        }
        reply
    }
}
