//! What a finished game leaves for its rematch: the game's setup, seats and teams, remembered in memory
//! per channel for as long as a lobby would stay open (see [`super::rematch`], which reads it).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use crate::engine::Seat;

use super::ids::{Actor, ChannelId, GameKey, Timestamp, UserId};
use super::lock::lock;
use super::table::{Lobby, LobbySeat, Player, Setup, State, Table};

/// Most channels whose last game is remembered for a rematch; past it the memory starts afresh.
const MAX_REMEMBERED: usize = 10_000;

/// A finished game, as much as its rematch needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Finished {
    /// Which game it was (its Rematch button carries this key).
    pub(super) game: GameKey,
    /// The game and its options.
    setup: Setup,
    /// Every seat of the game in turn order: the player who sat there first (a human who gave up,
    /// not the computer that took over), with their team.
    seats: Vec<LobbySeat>,
    /// Computer players added so far (for the names of new ones).
    bots_added: u8,
    /// When the game ended.
    pub(super) ended: Timestamp,
    /// The key of the rematch's lobby, once it was opened: while it is open, a press of this game's
    /// Rematch by one of its players joins it.
    pub(super) lobby: Option<GameKey>,
    /// The game's web token: its page (now its replay) can open the rematch too.
    pub(super) web_token: String,
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
            web_token: table.web_token.clone(),
        })
    }

    /// Whether `user` played this game.
    pub(super) fn has_player(&self, user: UserId) -> bool {
        self.seats.iter().any(|s| s.player.user() == Some(user))
    }

    /// The lobby of the rematch: `host` seated with their team, the computer players seated, the
    /// other players invited.
    pub(super) fn lobby(&self, channel: ChannelId, host: &Actor, now: Timestamp) -> Table {
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

    pub(super) fn get(&self, channel: ChannelId) -> Option<Finished> {
        lock(&self.0).games.get(&channel).map(|(f, _)| f.clone())
    }

    /// The channel and the remembered game whose web token is `token` (empty names none).
    pub(super) fn of_web_token(&self, token: &str) -> Option<(ChannelId, Finished)> {
        if token.is_empty() {
            return None;
        }
        lock(&self.0)
            .games
            .iter()
            .find(|(_, (f, _))| f.web_token == token)
            .map(|(channel, (f, _))| (*channel, f.clone()))
    }

    /// Remembers that the rematch of `game` opened the lobby `lobby`.
    pub(super) fn set_lobby(&self, channel: ChannelId, game: GameKey, lobby: GameKey) {
        let mut all = lock(&self.0);
        if let Some((finished, _)) = all.games.get_mut(&channel).filter(|(f, _)| f.game == game) {
            finished.lobby = Some(lobby);
        }
    }
}
