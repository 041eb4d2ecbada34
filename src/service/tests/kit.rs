//! The service's one test kit: the clock, settings, actors and tables the tests start from, asking as
//! a user (in a server or in direct messages), opening and beginning games, a persistence hook that
//! records, and reading a reply's text. Every helper that more than one test file needs is here, once.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::engine::{Layout, Move, Options, Variant};
use crate::service::{
    command_for_component, Actor, Button, ChannelId, Command, GuildId, Limits, Message, Output,
    Persist, Playing, RandomPicker, Reply, Request, Series, ServiceError, Settings, Table, Tables,
    Text, Timestamp, UserId,
};
use crate::store::tests::{postgres_store, sqlite_store, TestStore};
use crate::store::Store;

/// `mutex`, locked; a lock poisoned by a failed test is taken over.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The instant most tests ask at.
pub(crate) const T0: Timestamp = Timestamp(1_700_000_000_000);

/// Settings with [`Limits::unlimited`], for tests of everything but the limits.
pub(crate) fn test_settings() -> Settings {
    unlimited(Settings::default())
}

/// `settings` with [`Limits::unlimited`].
pub(crate) fn unlimited(settings: Settings) -> Settings {
    Settings {
        limits: Limits::unlimited(),
        ..settings
    }
}

/// Test settings with a one-minute reminder and a five-minute timeout.
pub(crate) fn timed() -> Settings {
    Settings {
        turn_reminder: std::time::Duration::from_secs(60),
        turn_timeout: std::time::Duration::from_secs(300),
        ..test_settings()
    }
}

/// `Player{id}`, with no moderator rights, for tests.
pub(crate) fn test_actor(id: u64) -> Actor {
    Actor {
        user: UserId(id),
        name: format!("Player{id}"),
        can_manage: false,
        can_manage_guild: false,
    }
}

/// The command a player gives for `mv`, for tests (a pass has none: it asks for the status).
pub(crate) fn command_for(mv: Move, layout: &Layout) -> Command {
    Command::of_move(mv, layout).unwrap_or(Command::Status)
}

/// Tables with `settings` whose games are dealt from `seed` and whose computers move at random.
pub(crate) fn seeded(settings: Settings, seed: u64) -> Tables {
    Tables::seeded(settings, Arc::new(RandomPicker), seed)
}

/// Tables with the default settings (limits included), dealt from `seed`.
pub(crate) fn service(seed: u64) -> Tables {
    seeded(Settings::default(), seed)
}

/// Tables with [`test_settings`] on `store`, dealt from `seed`.
pub(crate) fn tables_on(store: Arc<dyn Store>, seed: u64) -> Tables {
    seeded(test_settings(), seed).with_store(store)
}

/// The stores to run a test on: SQLite always, PostgreSQL when it is configured.
pub(crate) fn backends(name: &str) -> Vec<(&'static str, TestStore)> {
    let mut all = vec![("sqlite", sqlite_store(name).expect("sqlite"))];
    if let Some(pg) = postgres_store(name) {
        all.push(("postgres", pg));
    }
    all
}

/// Who asks from where: the server the requests come from (none: direct messages) and the actor a
/// user number stands for.
#[derive(Clone, Copy)]
pub(crate) struct Asker {
    pub guild: Option<GuildId>,
    pub actor: fn(u64) -> Actor,
}

/// Direct messages, as [`test_actor`]s.
pub(crate) const DM: Asker = Asker {
    guild: None,
    actor: test_actor,
};

impl Asker {
    /// From `guild`, as [`test_actor`]s.
    pub(crate) const fn server(guild: GuildId) -> Asker {
        Asker {
            guild: Some(guild),
            actor: test_actor,
        }
    }

    /// The same place, with `actor` for the users.
    pub(crate) const fn as_actor(self, actor: fn(u64) -> Actor) -> Asker {
        Asker { actor, ..self }
    }

    /// The reply to `actor`'s `command` in `channel` at `now`.
    pub(crate) fn ask_as(
        self,
        tables: &Tables,
        channel: u64,
        actor: Actor,
        command: Command,
        now: Timestamp,
    ) -> Reply {
        tables.handle(
            Request {
                guild: self.guild,
                channel: ChannelId(channel),
                actor,
                command,
            },
            now,
        )
    }

    /// The reply to `user`'s `command` in `channel` at `now`.
    pub(crate) fn ask_at(
        self,
        tables: &Tables,
        channel: u64,
        user: u64,
        command: Command,
        now: Timestamp,
    ) -> Reply {
        self.ask_as(tables, channel, (self.actor)(user), command, now)
    }

    /// [`Asker::ask`], which must be accepted.
    pub(crate) fn accepted(
        self,
        tables: &Tables,
        channel: u64,
        user: u64,
        command: Command,
    ) -> Reply {
        let reply = self.ask(tables, channel, user, command.clone());
        assert!(!reply.is_refusal(), "{command:?} by {user}: {reply:?}");
        reply
    }

    /// The reply to `user`'s `command` in `channel` at [`T0`].
    pub(crate) fn ask(self, tables: &Tables, channel: u64, user: u64, command: Command) -> Reply {
        self.ask_at(tables, channel, user, command, T0)
    }

    /// A press by `user` in `channel` at `now` of the component `id` (with a menu's chosen `value`),
    /// parsed as Discord sends it back; an id that does not parse is answered with the refusal the
    /// Discord layer gives.
    pub(crate) fn press_id_at(
        self,
        tables: &Tables,
        channel: u64,
        user: u64,
        id: &str,
        value: Option<&str>,
        now: Timestamp,
    ) -> Reply {
        let values: Vec<String> = value.into_iter().map(str::to_string).collect();
        match command_for_component(id, &values) {
            Ok(command) => self.ask_at(tables, channel, user, command, now),
            Err(text) => Reply::ephemeral(text),
        }
    }

    /// [`Asker::press_id_at`] at [`T0`].
    pub(crate) fn press_id(
        self,
        tables: &Tables,
        channel: u64,
        user: u64,
        id: &str,
        value: Option<&str>,
    ) -> Reply {
        self.press_id_at(tables, channel, user, id, value, T0)
    }

    /// A press of `button` by `user` in `channel` at `now`, parsed from its id as Discord sends it
    /// back.
    pub(crate) fn press_at(
        self,
        tables: &Tables,
        channel: u64,
        user: u64,
        button: Button,
        now: Timestamp,
    ) -> Reply {
        let command = command_for_component(&button.id(), &[]).expect("our own id");
        self.ask_at(tables, channel, user, command, now)
    }

    /// [`Asker::press_at`] at [`T0`].
    pub(crate) fn press(self, tables: &Tables, channel: u64, user: u64, button: Button) -> Reply {
        self.press_at(tables, channel, user, button, T0)
    }

    /// `users[0]` opens a lobby with `start`, the other users join, the host adds `bots` computers
    /// and begins, all at `now` and each accepted; the reply to the begin.
    pub(crate) fn begin_at(
        self,
        tables: &Tables,
        channel: u64,
        start: Command,
        users: &[u64],
        bots: usize,
        now: Timestamp,
    ) -> Reply {
        let reply = self.ask_at(tables, channel, users[0], start, now);
        assert!(!reply.is_refusal(), "{reply:?}");
        for &u in &users[1..] {
            assert!(!self
                .ask_at(tables, channel, u, join(None), now)
                .is_refusal());
        }
        for _ in 0..bots {
            let add = Command::AddBot { level: None };
            assert!(!self
                .ask_at(tables, channel, users[0], add, now)
                .is_refusal());
        }
        let reply = self.ask_at(tables, channel, users[0], Command::Begin, now);
        assert!(!reply.is_refusal(), "{reply:?}");
        reply
    }

    /// [`Asker::begin_at`] at [`T0`].
    pub(crate) fn begin(
        self,
        tables: &Tables,
        channel: u64,
        start: Command,
        users: &[u64],
        bots: usize,
    ) -> Reply {
        self.begin_at(tables, channel, start, users, bots, T0)
    }
}

/// The reply to `user`'s `command` in direct-message `channel` at [`T0`].
pub(crate) fn ask(tables: &Tables, channel: u64, user: u64, command: Command) -> Reply {
    DM.ask(tables, channel, user, command)
}

/// The reply to `user`'s `command` in `channel` of `guild` at [`T0`], as `User{user}`; user 1 may
/// manage the server.
pub(crate) fn ask_in(
    tables: &Tables,
    guild: GuildId,
    channel: u64,
    user: u64,
    command: Command,
) -> Reply {
    let actor = |user| Actor {
        user: UserId(user),
        name: format!("User{user}"),
        can_manage: false,
        can_manage_guild: user == 1,
    };
    Asker::server(guild)
        .as_actor(actor)
        .ask(tables, channel, user, command)
}

/// A `/start` whose choices a test sets by name (`Start { series, ..Start::of(variant) }`); every
/// choice not set is its default.
pub(crate) struct Start {
    pub variant: Variant,
    pub teams: Option<u8>,
    pub options: Options,
    pub rated: Option<bool>,
    pub turn_time: Option<u32>,
    pub series: Option<u8>,
}

impl Start {
    /// A `/start` of `variant` with every other choice at its default.
    pub(crate) fn of(variant: Variant) -> Start {
        Start {
            variant,
            teams: None,
            options: Options::default(),
            rated: None,
            turn_time: None,
            series: None,
        }
    }

    /// A `/start` of King of the Board (classic) to `points_to_win` (`None`: the default).
    pub(crate) fn king_of_the_board(points_to_win: Option<u8>) -> Start {
        Start {
            options: Options {
                king_of_the_board: true,
                points_to_win,
                ..Options::default()
            },
            ..Start::of(Variant::Classic)
        }
    }

    /// The same, in `teams` teams.
    pub(crate) fn teams(self, teams: Option<u8>) -> Start {
        Start { teams, ..self }
    }

    /// The same, rated or casual as asked (`None`: the default).
    pub(crate) fn rated(self, rated: Option<bool>) -> Start {
        Start { rated, ..self }
    }

    /// The same, on a `turn_time` clock (seconds).
    pub(crate) fn turn_time(self, turn_time: Option<u32>) -> Start {
        Start { turn_time, ..self }
    }

    /// The same, as a best-of-`series` series.
    pub(crate) fn series(self, series: Option<u8>) -> Start {
        Start { series, ..self }
    }

    /// The command.
    pub(crate) fn command(self) -> Command {
        Command::Start {
            variant: self.variant,
            teams: self.teams,
            options: self.options,
            rated: self.rated,
            turn_time: self.turn_time,
            series: self.series,
        }
    }
}

/// `/start` of `variant` in `teams` teams (or none), everything else at its default.
pub(crate) fn start(variant: Variant, teams: Option<u8>) -> Command {
    Start::of(variant).teams(teams).command()
}

/// `/join`, in `team` if one is given.
pub(crate) fn join(team: Option<u8>) -> Command {
    Command::Join { team }
}

/// A game of `variant` in direct-message `channel`: `users[0]` hosts, the others join, `bots`
/// computers are added and it begins; the reply to the begin.
pub(crate) fn begin_game(
    tables: &Tables,
    channel: u64,
    variant: Variant,
    users: &[u64],
    bots: usize,
) -> Reply {
    DM.begin(tables, channel, start(variant, None), users, bots)
}

/// The table of `channel` as JSON (empty without one): equal before and after a refusal means
/// nothing changed.
pub(crate) fn state(tables: &Tables, channel: u64) -> String {
    tables
        .snapshot(ChannelId(channel))
        .map(|t| serde_json::to_string(&t).expect("a table serializes"))
        .unwrap_or_default()
}

/// The game running in `channel`.
pub(crate) fn playing(tables: &Tables, channel: u64) -> Playing {
    tables
        .snapshot(ChannelId(channel))
        .and_then(|t| t.playing().cloned())
        .expect("a game is running")
}

/// The human whose turn it is in `channel`, if a game runs and a human is to move.
pub(crate) fn human_to_move(tables: &Tables, channel: u64) -> Option<UserId> {
    let table = tables.snapshot(ChannelId(channel))?;
    let playing = table.playing()?;
    let seat = playing.game().position().to_move();
    playing.seats.get(usize::from(seat))?.user()
}

/// All the English text a reply shows (in the channel, in the lobby and privately), a line each.
pub(crate) fn reply_text(reply: &Reply) -> String {
    reply
        .outputs
        .iter()
        .filter_map(Output::message)
        .map(Message::to_english)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The English text of every output of a reply, a line each (an empty line for an output without
/// a message).
pub(crate) fn text_of(reply: &Reply) -> String {
    reply
        .outputs
        .iter()
        .map(|o| o.message().map_or_else(String::new, Message::to_english))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The channel posts of a reply, in order.
pub(crate) fn channel_messages(reply: &Reply) -> Vec<&Message> {
    reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Channel(m) => Some(m),
            _ => None,
        })
        .collect()
}

/// The lobby card of a reply: the message it edits (None: a new post), and the card.
pub(crate) fn lobby_output(reply: &Reply) -> Option<(Option<u64>, &Message)> {
    reply.outputs.iter().find_map(|o| match o {
        Output::Lobby {
            message_id,
            message,
        } => Some((*message_id, message)),
        _ => None,
    })
}

/// The final message of a game: the channel post with the final board attached.
pub(crate) fn final_message(reply: &Reply) -> Option<&Message> {
    channel_messages(reply)
        .into_iter()
        .find(|m| m.attachment.is_some())
}

/// The first line of a refusal (a single private message), if the reply is one.
pub(crate) fn refusal(reply: &Reply) -> Option<&Text> {
    match reply.outputs.as_slice() {
        [Output::Ephemeral(m)] if reply.is_refusal() => m.lines.first(),
        _ => None,
    }
}

/// A persistence hook that keeps nothing and records what it is told: for each save the number of
/// actions of the game (0 in a lobby), each close with whether a game was played, and each series
/// that ended.
#[derive(Default)]
pub(crate) struct Recorder {
    pub saved: Mutex<Vec<usize>>,
    pub closed: Mutex<Vec<(ChannelId, bool)>>,
    pub series: Mutex<Vec<Series>>,
}

impl Persist for Recorder {
    fn save(&self, table: &Table) -> Result<(), ServiceError> {
        let actions = table.playing().map_or(0, |p| p.live.record().actions.len());
        self.saved.lock().unwrap().push(actions);
        Ok(())
    }
    fn close(
        &self,
        channel: ChannelId,
        finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError> {
        self.closed
            .lock()
            .unwrap()
            .push((channel, finished.is_some()));
        Ok(None)
    }
    fn series_ended(&self, _scope: u64, series: &Series) -> Result<(), ServiceError> {
        self.series.lock().unwrap().push(series.clone());
        Ok(())
    }
}

/// The next human action in `channel` (a roll first in dice), chosen at random among the legal
/// moves: who and what; `None` when a computer player is to move or the table is not playing.
pub(crate) fn random_human_action(
    tables: &Tables,
    channel: u64,
    rng: &mut crate::engine::GameRng,
) -> Option<(u64, Command)> {
    let table = tables.snapshot(ChannelId(channel))?;
    let playing = table.playing()?;
    let game = playing.live.game();
    let user = playing
        .seats
        .get(usize::from(game.position().to_move()))?
        .user()?;
    if !game.config().variant.has_cards() && !playing.rolled {
        return Some((user.0, Command::Roll));
    }
    let mut moves = crate::engine::MoveList::new();
    game.legal_moves(&mut moves);
    let playable: Vec<Move> = moves.into_iter().filter(|m| *m != Move::Pass).collect();
    let mv = *playable.get(rng.below(u32::try_from(playable.len()).ok()?) as usize)?;
    Some((user.0, command_for(mv, game.position().layout())))
}

/// A two-player classic game (one sequence wins) between `users` in `channel`, opened with the
/// lobby's `rated` choice and played to its end with random legal moves dealt from `seed`; the
/// reply to the last move (with the final message).
pub(crate) fn play_classic_to_the_end(
    asker: Asker,
    tables: &Tables,
    channel: u64,
    users: [u64; 2],
    rated: Option<bool>,
    seed: u64,
) -> Reply {
    let command = Start {
        options: Options {
            sequences_to_win: Some(1),
            ..Options::default()
        },
        rated,
        ..Start::of(Variant::Classic)
    }
    .command();
    asker.begin(tables, channel, command, &users, 0);
    let mut rng = crate::engine::GameRng::new(seed);
    for _ in 0..1000 {
        let (user, command) = random_human_action(tables, channel, &mut rng).expect("a move");
        let reply = asker.ask(tables, channel, user, command);
        assert!(!reply.is_refusal(), "{reply:?}");
        if tables.snapshot(ChannelId(channel)).is_none() {
            return reply;
        }
    }
    panic!("the game did not end");
}
