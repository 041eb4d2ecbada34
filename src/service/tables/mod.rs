//! The registry of every channel's table (`Tables`): the locks around each table, the limits per user and
//! server, timers and computer moves scheduled through the deadlines and the search pool, and saving
//! through [`Persist`] after every accepted change. A request is decoded, routed to its table (or to the
//! registry's own commands: stats, history, settings), and the table's reply is saved before it goes out.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex};

use crate::engine::Variant;
use crate::i18n::Lang;
use crate::store::{ShardClaim, ShardSet, Store, StoreError};

use super::daily_cap::{self, Meetings};
use super::save;
use super::settings::MAX_REMEMBERED;
use super::{
    deadlines, finished, lock, names, replays, Actor, ChannelId, Choice, Command, GuildId, Image,
    Message, MovePicker, NoPersist, OsSeeds, Output, Permission, Persist, PoolStats, ReplayImage,
    Reply, Request, SearchPool, SeedSource, ServerSettings, Settings, Setup, State, StorePersist,
    Table, Text, Timestamp, UserId,
};
use crate::service::budget::{posts_of, Budgets, LobbyEdits};

mod budget;
mod challenge;
mod elsewhere;
mod hint;
mod history;
mod host;
mod page;
pub use page::{PageGame, PagePlayer, PageSeat, ServerPage};
mod quick;
mod rematch;
mod restore;
mod review;
mod server;
mod view;
mod watch;

pub use challenge::parse_invite;
#[cfg(test)]
pub(in crate::service) use hint::hint_text;
pub use host::{Event, Face, FaceId, Origin, Pending, Sent};
pub use quick::{Later, QUICK_ANSWER};

use super::deadlines::Shared;

/// Languages last seen per user and per channel, for messages that answer nobody in particular (DMs,
/// timer and computer moves). Kept in memory only: after a restart the Discord layer asks the server.
#[derive(Debug, Default)]
pub(super) struct Languages {
    pub(super) users: HashMap<UserId, Lang>,
    pub(super) channels: HashMap<ChannelId, Lang>,
}

/// Replay slots given back when dropped (the replays of a reply, see [`Tables::replays_held`]).
pub struct Held {
    tables: Arc<Tables>,
    slots: Vec<u64>,
}

impl Drop for Held {
    fn drop(&mut self) {
        for &slot in &self.slots {
            self.tables.replay_posted(slot);
        }
    }
}

/// Every channel's table. Each table has its own lock, held only for a synchronous update (which
/// includes saving it), never across an `.await`. With a store, `handle` and `tick` do blocking I/O:
/// call them from a blocking thread (`tokio::task::spawn_blocking`); `auto_step` does so itself.
pub struct Tables {
    /// The live tables, with how many each host and server has.
    pub(super) tables: Mutex<deadlines::Registry>,
    /// Each live table's next deadline, so a timer pass looks only at the tables that are due (taken
    /// inside a table lock, never the other way round).
    pub(super) deadlines: Mutex<deadlines::Deadlines>,
    pub(super) settings: Settings,
    pub(super) picker: Arc<dyn MovePicker>,
    pub(super) persist: Arc<dyn Persist>,
    pub(super) store: Option<Arc<dyn Store>>,
    pub(super) seeds: Arc<dyn SeedSource>,
    pub(super) languages: Mutex<Languages>,
    /// Each server's posting budget, shared among its members.
    pub(super) budgets: Mutex<Budgets>,
    /// Lobby cards held back while a member keeps joining and leaving.
    pub(super) lobby_edits: Mutex<LobbyEdits>,
    /// Each server's own settings, as read from the store (or changed) so far.
    pub(super) servers: Mutex<HashMap<GuildId, ServerSettings>>,
    /// Where every computer move is chosen.
    pub(super) pool: SearchPool,
    /// The shards this process holds, when it runs only some of the bot's (or holds them through a
    /// database shared with other processes): only their tables are restored, timed and played, and
    /// only while the claim holds.
    pub(super) claim: Option<Arc<dyn ShardClaim>>,
    /// The last finished game of each channel, for its rematch.
    pub(super) finished: finished::FinishedGames,
    /// Finished games waiting for their agreement follow-up.
    pub(super) reviews: review::Reviews,
    /// The search budget of each move of an agreement analysis.
    pub(super) analysis_budget: crate::ai::Budget,
    /// Held while a new table is checked against the table limits and published, so that
    /// simultaneous starts cannot all pass a limit (taken before any table or the map).
    pub(super) opening: Mutex<()>,
    /// Held while a server's settings are read, changed and written, so that two changes at once
    /// both survive (taken before the map of settings).
    pub(super) changing_settings: Mutex<()>,
    /// Computer moves being applied and saved on the blocking pool ([`AUTO_APPLY_AT_ONCE`]).
    pub(super) applying: Arc<tokio::sync::Semaphore>,
    /// The humans (with their teams) of each running rated game, by channel: they count toward the
    /// daily cap on rated games between the same players (`daily_cap.rs`) as the finished ones do (kept as tables
    /// change, with the table's lock held; taken after it, never before).
    pub(super) rated_running: Mutex<HashMap<ChannelId, RunningRated>>,
    /// The replays members asked for that wait or are being drawn.
    pub(super) replays: Mutex<replays::Replays>,
    /// The hints given on the current turns and the members whose hint is being searched.
    pub(super) hints: Mutex<hint::Hints>,
    /// Held from reading the day's rated games to saving a game that starts, so that games started
    /// side by side in several channels see each other (taken inside a table lock, before the map).
    pub(super) starting: Mutex<()>,
    /// Channels where the bot may only answer interactions, as the Discord layer saw on their last
    /// interaction (a table opened there is marked so, see [`Table::answers_only`]).
    pub(super) answers_only: Mutex<HashSet<ChannelId>>,
    /// The host: its events, computer drivers and the face of each table ([`host`]).
    pub(super) host: host::Host,
    /// Tables other processes hold, as pages here last read them ([`elsewhere`]).
    pub(super) elsewhere: Mutex<elsewhere::ElsewhereTables>,
    /// The address of the web pages, for their links ([`Tables::set_web_base`]).
    pub(super) web_base: Mutex<Option<String>>,
    /// The faces whose tables [`Tables::restore_from_store`] brings back (`None`: every table);
    /// see [`Tables::restoring_only`].
    pub(super) restoring: Option<Vec<FaceId>>,
    /// Whether **Open the board** is offered ([`Tables::set_activity`]).
    pub(super) activity: std::sync::atomic::AtomicBool,
}

/// A running rated game's server and its humans with their teams.
pub(super) type RunningRated = (Option<GuildId>, Vec<(u64, u8)>);

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tables")
            .field("tables", &lock(&self.tables).len())
            .field("settings", &self.settings)
            .finish()
    }
}

impl Tables {
    /// An empty service. `picker` chooses moves for computer players and timed-out turns. Every game,
    /// dice roll and computer move gets a fresh seed from the operating system ([`OsSeeds`]).
    pub fn new(settings: Settings, picker: Arc<dyn MovePicker>) -> Tables {
        Tables {
            tables: Mutex::new(deadlines::Registry::default()),
            deadlines: Mutex::new(deadlines::Deadlines::default()),
            picker,
            persist: Arc::new(NoPersist),
            store: None,
            seeds: Arc::new(OsSeeds),
            languages: Mutex::new(Languages::default()),
            answers_only: Mutex::new(HashSet::new()),
            budgets: Mutex::new(Budgets::default()),
            lobby_edits: Mutex::new(LobbyEdits::default()),
            servers: Mutex::new(HashMap::new()),
            pool: SearchPool::new(usize::try_from(settings.limits.computer_threads).unwrap_or(0)),
            settings,
            claim: None,
            finished: finished::FinishedGames::default(),
            reviews: review::Reviews::default(),
            analysis_budget: crate::analysis::BUDGET,
            opening: Mutex::new(()),
            changing_settings: Mutex::new(()),
            rated_running: Mutex::new(HashMap::new()),
            starting: Mutex::new(()),
            hints: Mutex::new(hint::Hints::default()),
            replays: Mutex::new(replays::Replays::default()),
            applying: Arc::new(tokio::sync::Semaphore::new(AUTO_APPLY_AT_ONCE)),
            host: host::Host::default(),
            elsewhere: Mutex::new(elsewhere::ElsewhereTables::default()),
            web_base: Mutex::new(None),
            restoring: None,
            activity: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Tests only: seeds from a repeatable stream started at `seed`, so the games are the same on
    /// every run.
    #[cfg(test)]
    pub(crate) fn seeded(settings: Settings, picker: Arc<dyn MovePicker>, seed: u64) -> Tables {
        Tables {
            seeds: Arc::new(super::seeds::StreamSeeds::new(seed)),
            ..Tables::new(settings, picker)
        }
    }

    /// Stores tables through `persist` from now on.
    pub fn with_persist(mut self, persist: Arc<dyn Persist>) -> Tables {
        self.persist = persist;
        self
    }

    /// Stores tables and finished games in `store`, and answers stats and history from it.
    pub fn with_store(mut self, store: Arc<dyn Store>) -> Tables {
        self.persist = Arc::new(StorePersist::new(store.clone()));
        self.store = Some(store);
        self
    }

    /// A replay a member asked for was posted, or could not be: its slot in the replay queue is free
    /// again ([`ReplayImage::slot`]).
    pub fn replay_posted(&self, slot: u64) {
        lock(&self.replays).give_back(slot);
    }

    /// The replay slots `reply` holds, given back when the returned value is dropped: for the
    /// Discord layer's answer to a command, whose posting may end early on an error.
    pub fn replays_held(self: &Arc<Self>, reply: &Reply) -> Held {
        let slots = reply
            .outputs
            .iter()
            .filter_map(|o| match o.message().map(|m| &m.image) {
                Some(Some(Image::Replay(ReplayImage {
                    slot: Some(slot), ..
                }))) => Some(*slot),
                _ => None,
            })
            .collect();
        Held {
            tables: self.clone(),
            slots,
        }
    }

    /// What the computer players' pool has done so far.
    pub fn computer_stats(&self) -> PoolStats {
        self.pool.stats()
    }

    /// Sets the gauge `sequence_tables` (open tables by `state`: lobby, playing or paused, and by
    /// `game`) to what is open now; the metrics listener calls it before each scrape. Every
    /// combination is set, so one that empties reads 0 rather than its last value.
    pub fn record_table_gauges(&self) {
        // Kept as tables change (see `Registry::set_kind`): the same cost at any number of tables.
        let counts = lock(&self.tables).table_counts();
        for (state, by_game) in deadlines::GAUGE_STATES.into_iter().zip(counts) {
            for (variant, count) in Variant::ALL.into_iter().zip(by_game) {
                metrics::gauge!("sequence_tables", "state" => state, "game" => variant.name())
                    .set(f64::from(count));
            }
        }
    }

    /// Open tables by state (lobby, playing, paused) and game, as the `sequence_tables` gauge shows
    /// them (for the benchmark and tests).
    pub fn table_counts(&self) -> Vec<(&'static str, Variant, u32)> {
        let counts = lock(&self.tables).table_counts();
        deadlines::GAUGE_STATES
            .into_iter()
            .zip(counts)
            .flat_map(|(state, by_game)| {
                Variant::ALL
                    .into_iter()
                    .zip(by_game)
                    .map(move |(variant, count)| (state, variant, count))
            })
            .collect()
    }

    /// Whether the store answers a trivial query (for the health check). Blocking: call it from a
    /// blocking thread.
    pub fn check_store(&self) -> Result<(), StoreError> {
        match &self.store {
            Some(store) => store.ping(),
            None => Ok(()),
        }
    }

    /// The span of log lines about a channel's table: [`Table::span`], or only the channel when it
    /// has no table. For the Discord layer's lines about a channel.
    pub fn log_span(&self, channel: ChannelId) -> tracing::Span {
        match self.get(channel) {
            Some(shared) => lock(&shared).span(),
            None => tracing::info_span!("game", channel = channel.0),
        }
    }

    /// Whether this process still holds its shards in the store (always, without a claim).
    pub fn holds_shards(&self) -> bool {
        self.claim.as_ref().is_none_or(|c| c.is_held())
    }

    /// Restores only the tables of `faces` from the store: a process without Discord leaves Discord's
    /// tables in the store as they are (no clock runs out, no computer moves, nothing announced) until
    /// a process with Discord restores them. Their pages show them as played elsewhere.
    pub fn restoring_only(mut self, faces: &[FaceId]) -> Tables {
        self.restoring = Some(faces.to_vec());
        self
    }

    /// Acts only on the tables of the shards `claim` holds, and only while it holds them.
    pub fn with_claim(mut self, claim: Arc<dyn ShardClaim>) -> Tables {
        self.claim = Some(claim);
        self
    }

    /// The shards whose tables this process runs (all of them without a claim).
    pub fn shards(&self) -> ShardSet {
        self.claim.as_ref().map_or(ShardSet::SINGLE, |c| c.shards())
    }

    /// Whether this process may act on the tables of `guild` now: its shard is one of this
    /// process's, and the claim on it still holds.
    pub fn may_act(&self, guild: Option<GuildId>) -> bool {
        self.claim
            .as_ref()
            .is_none_or(|c| c.is_held() && c.shards().owns(guild.map(|g| g.0)))
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub(super) fn get(&self, channel: ChannelId) -> Option<Shared> {
        lock(&self.tables).get(channel).cloned()
    }

    /// Sets the table's next deadline anew after a change (with its lock held), and who hosts it.
    pub(super) fn reschedule(&self, table: &Table, settings: &Settings) {
        if table.closed {
            // `forget` clears it, as it takes the table out of the map.
            return;
        }
        let mut tables = lock(&self.tables);
        tables.set_host(table.channel, table.host);
        tables.set_kind(table.channel, deadlines::gauge_kind(table));
        let earlier = table
            .series
            .as_ref()
            .map_or(&[][..], |s| s.pages.as_slice());
        tables.set_tokens(table.channel, &table.web_token, earlier);
        drop(tables);
        let at = deadlines::next_deadline(table, settings);
        lock(&self.deadlines).set(table.channel, at);
        let mut running = lock(&self.rated_running);
        match table.running_rated() {
            Some(humans) => {
                running.insert(table.channel, (table.guild, humans));
            }
            None => {
                running.remove(&table.channel);
            }
        }
    }

    /// Sets the next deadline of every table of `guild` anew (its timers changed).
    pub(super) fn reschedule_guild(&self, guild: Option<GuildId>) {
        let settings = self.settings_for(guild);
        let all = lock(&self.tables).tables_of(guild);
        for shared in all {
            let table = lock(&shared);
            self.reschedule(&table, &settings);
        }
    }

    /// Channels with a timer set (tests and figures).
    pub fn timers_set(&self) -> usize {
        lock(&self.deadlines).len()
    }

    /// Number of open tables (lobbies and games).
    pub fn len(&self) -> usize {
        lock(&self.tables).len()
    }

    /// Whether no table is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A copy of a channel's table (for persistence and tests).
    pub fn snapshot(&self, channel: ChannelId) -> Option<Table> {
        let shared = self.get(channel)?;
        let table = lock(&shared);
        (!table.closed).then(|| table.clone())
    }

    /// Puts back a stored table (after a restart). Refused if the channel already has one.
    pub fn restore(&self, table: Table) -> bool {
        let settings = self.settings_for(table.guild);
        let (channel, host, guild) = (table.channel, table.host, table.guild);
        let answers_only = table.answers_only;
        let face = table.face;
        let token = table.web_token.clone();
        let shared = Arc::new(Mutex::new(table));
        let table = lock(&shared);
        if !lock(&self.tables).insert(channel, shared.clone(), host, guild, &token) {
            return false;
        }
        self.reschedule(&table, &settings);
        drop(table);
        if answers_only {
            lock(&self.answers_only).insert(channel);
        }
        if !face.is_discord() {
            self.note_face(channel, face);
        }
        true
    }

    /// Remembers the id of the lobby message posted for a channel, so later changes edit it (also
    /// after a restart: it is saved; blocking, like `handle`). If saving fails, the next saved action
    /// carries it.
    pub fn set_lobby_message(&self, channel: ChannelId, message_id: u64) {
        self.update_saved(channel, "the lobby message id", |table| {
            if table.lobby_message == Some(message_id) {
                return false;
            }
            table.lobby_message = Some(message_id);
            true
        });
    }

    /// Changes the live table of `channel` under its lock with `update` (nothing for a closed table
    /// or none) and, if `update` changed it (returns true), saves it ([`Tables::save`]): a change
    /// that a failed save leaves in memory only is carried by the table's next saved action. Whether
    /// the table changed.
    fn update_saved(
        &self,
        channel: ChannelId,
        what: &str,
        update: impl FnOnce(&mut Table) -> bool,
    ) -> bool {
        let Some(shared) = self.get(channel) else {
            return false;
        };
        let mut table = lock(&shared);
        if table.closed || !update(&mut table) {
            return false;
        }
        self.save(&table, what);
        true
    }

    /// Saves `table` (with its lock held) after a change outside a command (a message id, a pause, a
    /// resumed timer, a new lobby); if the store fails, logs that `what` could not be saved, in the
    /// table's span, and returns false. (A command's update is saved by [`Tables::commit`], which
    /// puts the table back when saving fails.)
    pub(super) fn save(&self, table: &Table, what: &str) -> bool {
        match self.persist.save(table) {
            Ok(()) => true,
            Err(e) => {
                table.span().in_scope(|| {
                    tracing::error!(channel = table.channel.0, "cannot save {what}: {e}")
                });
                false
            }
        }
    }

    /// A turn prompt with a Play (or Roll) button was posted in `channel` as `message_id`: its button is
    /// taken off when its turn is over. The edits to make now: an older prompt still armed, or this one
    /// if its turn is over already (it was posted late).
    pub fn note_prompt(
        &self,
        channel: ChannelId,
        message_id: u64,
        message: &Message,
    ) -> Vec<Output> {
        let Some(turn) = message.prompt_turn() else {
            return Vec::new();
        };
        let Some(shared) = self.get(channel) else {
            return Vec::new();
        };
        let mut table = lock(&shared);
        let mut edits = Vec::new();
        match table.prompt {
            Some((_, newer)) if newer > turn => {
                edits.push(Output::Disarm {
                    message_id,
                    buttons: table.prompt_buttons(),
                });
                return edits;
            }
            Some((older, _)) if older != message_id => {
                let buttons = table.prompt_buttons();
                table.disarmed = (!buttons.is_empty()).then_some(older);
                edits.push(Output::Disarm {
                    message_id: older,
                    buttons,
                });
            }
            _ => {}
        }
        table.prompt = Some((message_id, turn));
        edits.extend(table.disarm_prompt());
        edits
    }

    /// A direct message to `user` about the game in `channel` could not be delivered: whether to say
    /// so in the channel. True once per game and player (a player with closed DMs is told once, not
    /// after every move); false when the channel has no game.
    pub fn note_dm_failed(&self, channel: ChannelId, user: UserId) -> bool {
        let Some(shared) = self.get(channel) else {
            return false;
        };
        let mut table = lock(&shared);
        if table.closed || table.dm_failed.contains(&user) {
            return false;
        }
        table.dm_failed.push(user);
        true
    }

    /// The hand message of `user` in the game running in `channel`: the direct message that shows
    /// their hand, edited as it changes (an edit does not notify), if one was sent in this game.
    pub fn hand_dm(&self, channel: ChannelId, user: UserId) -> Option<u64> {
        let shared = self.get(channel)?;
        let table = lock(&shared);
        let playing = table.playing().filter(|_| !table.closed)?;
        playing
            .hand_dms
            .iter()
            .find(|(who, _)| *who == user)
            .map(|&(_, message)| message)
    }

    /// Whether `user` has a seat at `channel`'s table: in its lobby or its running game (their view
    /// differs from a watcher's: their seat, in a lobby whether they host it).
    pub fn is_seated(&self, channel: ChannelId, user: UserId) -> bool {
        if self.is_seated_in_game(channel, user) {
            return true;
        }
        let Some(shared) = self.get(channel) else {
            return false;
        };
        let table = lock(&shared);
        !table.closed
            && match &table.state {
                State::Lobby(lobby) => lobby.seats.iter().any(|s| s.player.user() == Some(user)),
                State::Playing(_) => false,
            }
    }

    /// Whether a game is running in `channel` with `user` in a seat of theirs. A hand is sent only
    /// then: a computer's move can end the game while the answer to the person's move (with their new
    /// hand) is still being sent, and a hand of a finished game is of no use.
    pub fn is_seated_in_game(&self, channel: ChannelId, user: UserId) -> bool {
        let Some(shared) = self.get(channel) else {
            return self.seated_elsewhere(channel, user);
        };
        let table = lock(&shared);
        !table.closed
            && table
                .playing()
                .is_some_and(|playing| playing.seat_of(user).is_some())
    }

    /// Remembers `message_id` as the hand message of `user` in the game running in `channel` (a new
    /// direct message was sent: the first of the game, or one after Discord refused an edit), saved
    /// with the table so that after a restart the same message is edited (blocking, like `handle`;
    /// if saving fails, the next saved action carries it).
    pub fn set_hand_dm(&self, channel: ChannelId, user: UserId, message_id: u64) {
        self.update_saved(channel, "the hand message id", |table| {
            let State::Playing(playing) = &mut table.state else {
                return false;
            };
            if playing.seat_of(user).is_none() {
                return false;
            }
            match playing.hand_dms.iter_mut().find(|(who, _)| *who == user) {
                Some((_, known)) if *known == message_id => return false,
                Some((_, known)) => *known = message_id,
                None => playing.hand_dms.push((user, message_id)),
            }
            true
        });
    }

    /// Remembers the language of a user (their Discord locale) and of a channel (its server's preferred
    /// locale), as seen on an interaction.
    pub fn note_languages(
        &self,
        channel: ChannelId,
        user: UserId,
        user_lang: Option<Lang>,
        channel_lang: Option<Lang>,
    ) {
        let mut languages = lock(&self.languages);
        if let Some(lang) = user_lang {
            if languages.users.len() >= MAX_REMEMBERED {
                languages.users.clear();
            }
            languages.users.insert(user, lang);
        }
        if let Some(lang) = channel_lang {
            if languages.channels.len() >= MAX_REMEMBERED {
                languages.channels.clear();
            }
            languages.channels.insert(channel, lang);
        }
    }

    /// Notes whether the bot may only answer interactions in `channel` (not post there), as its
    /// latest interaction tells. A table there is marked (and saved) when that changes, so that a
    /// restart knows it too; a table opened there later is marked when it opens.
    pub fn note_answers_only(&self, channel: ChannelId, answers_only: bool) {
        {
            let mut channels = lock(&self.answers_only);
            let known = channels.contains(&channel);
            if known == answers_only {
                // Nothing new for the map; the table may still be one restored unmarked.
            } else if answers_only {
                if channels.len() >= MAX_REMEMBERED {
                    // Only the live tables there are kept (the set must hold every one of them:
                    // `is_answers_only` reads nothing else).
                    channels.retain(|c| {
                        self.get(*c)
                            .is_some_and(|shared| lock(&shared).answers_only)
                    });
                }
                channels.insert(channel);
            } else {
                channels.remove(&channel);
            }
        }
        self.update_saved(channel, "where the bot may post", |table| {
            if table.answers_only == answers_only {
                return false;
            }
            table.answers_only = answers_only;
            true
        });
    }

    /// Whether the bot may only answer interactions in `channel`: seen so on its latest interaction,
    /// or its table says so (also after a restart: restored tables are noted). Takes no table lock
    /// (the Discord layer asks before every post).
    pub fn is_answers_only(&self, channel: ChannelId) -> bool {
        lock(&self.answers_only).contains(&channel)
    }

    /// The language last seen for a user.
    pub fn user_language(&self, user: UserId) -> Option<Lang> {
        lock(&self.languages).users.get(&user).copied()
    }

    /// The language last seen for a channel.
    pub fn channel_language(&self, channel: ChannelId) -> Option<Lang> {
        lock(&self.languages).channels.get(&channel).copied()
    }

    /// Handles one request at time `now`. Never panics on user input; a refusal is a single
    /// ephemeral message and changes nothing.
    pub fn handle(&self, request: Request, now: Timestamp) -> Reply {
        let Request {
            guild,
            channel,
            mut actor,
            command,
        } = request;
        // Names reach messages, logs, images and the database: one line of visible text, at most
        // Discord's 32 characters (messages escape it again, see `names::chat_name`).
        actor.name = names::clean_name(&actor.name);
        let kind = command.kind();
        if kind.changes_table() && !self.may_act(guild) {
            // The shard is being handed to another process (or was never this one's): nothing
            // changes here; the player tries again once the new owner is up.
            tracing::warn!(
                channel = channel.0,
                "a command for a table of a shard this process does not hold was refused"
            );
            return Reply::ephemeral(Text::SaveFailed);
        }
        if kind.posts() {
            if let Err(text) = self.member_may_post(guild, actor.user, now) {
                return Reply::ephemeral(text);
            }
        }
        let user = actor.user;
        let mut reply = self.handle_command(guild, channel, actor, command, now);
        if kind.takes_seat() && !reply.is_refusal() {
            // Seated at the host's table: the host's next invitation may ping them again.
            if let Some(host) = self.get(channel).map(|shared| lock(&shared).host) {
                lock(&self.budgets).accepted(host, user);
            }
        }
        self.charge_member(
            guild,
            channel,
            user,
            kind.joins_or_leaves(),
            &mut reply,
            now,
        );
        reply
    }

    pub(super) fn handle_command(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: Actor,
        command: Command,
        now: Timestamp,
    ) -> Reply {
        match command {
            start @ Command::Start { .. } => {
                let setup = self.setup_for(guild, start);
                self.start(guild, channel, &actor, setup, now)
            }
            Command::Challenge {
                start,
                invited,
                bots,
            } => self.challenge(guild, channel, &actor, *start, (&invited, &bots), now),
            Command::Settings(request) => self.change_settings(guild, &actor, request, now),
            Command::Rematch { game } => self.rematch(guild, channel, &actor, game, now),
            command @ Command::Replay { .. } => {
                // A slot in the replay queue first (nothing to read when it is full), given back
                // when there is nothing to draw.
                let slot = match lock(&self.replays).take(guild, actor.user, now) {
                    Ok(slot) => slot,
                    Err(refusal) => return Reply::ephemeral(refusal),
                };
                let mut reply = self.history(guild, channel, &actor, command);
                let mut held = false;
                for output in &mut reply.outputs {
                    if let Output::Channel(Message {
                        image: Some(Image::Replay(replay)),
                        ..
                    }) = output
                    {
                        replay.slot = Some(slot);
                        held = true;
                    }
                }
                if !held {
                    lock(&self.replays).give_back(slot);
                }
                reply
            }
            command @ (Command::Stats { .. }
            | Command::Profile { .. }
            | Command::Versus { .. }
            | Command::Leaderboard
            | Command::History
            | Command::Record { .. }) => self.history(guild, channel, &actor, command),
            Command::Rules { variant } => {
                let variant = variant
                    .or_else(|| self.snapshot(channel).map(|t| t.setup.variant))
                    .unwrap_or(self.settings_for(guild).default_variant);
                Reply {
                    outputs: vec![Output::Ephemeral(Message::text(Text::Rules(variant)))],
                    auto_move: false,
                }
            }
            command => {
                let kind = command.kind();
                let Some(shared) = self.get(channel) else {
                    return Reply::ephemeral(Text::NoTable);
                };
                let mut table = lock(&shared);
                if table.closed {
                    return Reply::ephemeral(Text::NoTable);
                }
                let _span = table.span().entered();
                if let Some(paused) = &table.paused {
                    // Only what needs no post in the channel: a hand, and ending the table (the ⋯
                    // menu offers just those then, and Stop asks first).
                    if !kind.allowed_while_paused() {
                        return Reply::ephemeral(Text::GamePaused {
                            missing: paused.missing.clone(),
                            thread: paused.thread,
                        });
                    }
                }
                // Fresh randomness for what needs it: a deal (and who starts), a roll.
                let deals = kind.needs_seed();
                let seed = if deals {
                    match self.seeds.seed() {
                        Some(seed) => Some(seed),
                        None => return Reply::ephemeral(Text::Internal),
                    }
                } else {
                    None
                };
                let before = kind.changes_table().then(|| table.clone());
                let lang = self
                    .server_language(guild)
                    .or_else(|| self.channel_language(channel))
                    .unwrap_or_default();
                let settings = self.settings_for(guild);
                // A game that may start here is decided and saved before another channel reads
                // the running rated games.
                let _starting =
                    (deals && matches!(table.state, State::Lobby(_))).then(|| lock(&self.starting));
                if matches!(table.state, State::Lobby(_)) {
                    table.meetings = self.recent_meetings(guild, channel, &table.setup, &settings);
                }
                let reply = table.handle(&actor, command, now, &settings, seed, lang);
                match before {
                    Some(before) => self.commit(&shared, &mut table, before, reply, now, &settings),
                    None => reply,
                }
            }
        }
    }

    pub(super) fn start(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: &Actor,
        setup: Result<Setup, Text>,
        now: Timestamp,
    ) -> Reply {
        let setup = match setup {
            Ok(setup) => setup,
            Err(text) => return Reply::ephemeral(text),
        };
        let mut table = Table::new(channel, actor, setup, now);
        self.place(&mut table, guild);
        let _span = table.span().entered();
        let reply = lobby_opened(table.lobby_message(&self.settings_for(guild)));
        self.open(guild, actor, table, reply)
    }

    /// Where a new lobby's table is: its server, and whether the bot may only answer interactions
    /// there (as noted from them), so that its card says so and a restart knows it. Every new lobby
    /// (a start, a challenge, a rematch) is placed here before its card is worded.
    pub(super) fn place(&self, table: &mut Table, guild: Option<GuildId>) {
        table.guild = guild;
        table.answers_only = lock(&self.answers_only).contains(&table.channel);
    }

    /// Publishes a new lobby (within the limits) and saves it; `reply` announces it ([`lobby_opened`]).
    pub(super) fn open(
        &self,
        guild: Option<GuildId>,
        actor: &Actor,
        table: Table,
        mut reply: Reply,
    ) -> Reply {
        // Counted and published in one critical section: two starts at once cannot both see room
        // for one more table. Nothing takes `opening` while holding a table or the map.
        let opening = lock(&self.opening);
        if let Err(text) = self.check_table_limits(guild, actor.user) {
            return Reply::ephemeral(text);
        }
        let channel = table.channel;
        // The new table is locked before it is published, so nobody uses it before it is saved; the
        // map lock is taken inside a table lock, as everywhere.
        let _span = table.span().entered();
        let (host, table_guild) = (table.host, table.guild);
        let token = table.web_token.clone();
        let shared = Arc::new(Mutex::new(table));
        let mut table = lock(&shared);
        {
            let _opening = opening;
            if !lock(&self.tables).insert(channel, shared.clone(), host, table_guild, &token) {
                return Reply::ephemeral(Text::TableExists);
            }
        }
        if !self.save(&table, "a new lobby") {
            table.closed = true;
            self.forget(&shared, channel);
            return Reply::ephemeral(Text::SaveFailed);
        }
        let settings = self.settings_for(guild);
        save::offer_links(
            &mut reply,
            &self.table_links(&table, &settings),
            false,
            false,
        );
        self.reschedule(&table, &settings);
        reply
    }

    /// The meetings a lobby in `channel` is checked against for the daily cap on rated games between
    /// the same players: the server's rated games of the last day, finished or running in another
    /// channel (see `service/daily_cap.rs`).
    pub(super) fn recent_meetings(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        setup: &Setup,
        settings: &Settings,
    ) -> Meetings {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        let running = lock(&self.rated_running)
            .iter()
            .filter(|(c, (g, _))| **c != channel && guild.is_some() && *g == guild)
            .map(|(_, (_, humans))| humans.clone())
            .collect::<Vec<_>>();
        daily_cap::recent(
            self.store.as_deref(),
            guild,
            setup.rated == Some(false),
            settings.limits.rated_games_per_day,
            running.into_iter(),
            now_ms,
        )
    }

    /// Refuses a new table past the limits: tables the user hosts, tables of the server.
    pub(super) fn check_table_limits(
        &self,
        guild: Option<GuildId>,
        user: UserId,
    ) -> Result<(), Text> {
        let limits = self.settings.limits;
        // Counted as tables come and go (a table closing is counted until it leaves the map, a
        // moment later under its own lock).
        let (hosted, in_guild) = {
            let tables = lock(&self.tables);
            (
                tables.hosted_by(user),
                guild.map_or(0, |g| tables.in_guild(g)),
            )
        };
        if hosted >= limits.tables_per_user {
            return Err(Text::TooManyTables {
                max: limits.tables_per_user,
            });
        }
        if in_guild >= limits.tables_per_server {
            return Err(Text::ServerFull {
                max: limits.tables_per_server,
            });
        }
        Ok(())
    }

    /// Stores (or closes) a table after an update, with its lock held. If the store fails, the table is
    /// put back as it was `before` and the reply becomes an apology: memory never runs ahead of the
    /// database, and nothing is announced that was not saved.
    pub(super) fn commit(
        &self,
        shared: &Shared,
        table: &mut Table,
        before: Table,
        reply: Reply,
        now: Timestamp,
        settings: &Settings,
    ) -> Reply {
        let links = self.table_links(table, settings);
        match save::persist_update(&*self.persist, table, reply, settings.replay_gif, &links) {
            Ok(mut reply) => {
                // Taken before a series opens the table again for its next game.
                let review = table.closed.then(|| review::Review::of(table)).flatten();
                if !reply.is_refusal() {
                    reply.outputs.extend(table.disarm_prompt());
                    save::after_game(&*self.persist, table, &mut reply, now);
                }
                self.reviews.keep(review, &reply);
                if table.closed {
                    self.finished.remember(table, now, settings.lobby_timeout);
                    self.forget(shared, table.channel);
                } else {
                    self.reschedule(table, settings);
                }
                reply
            }
            Err(e) => {
                tracing::error!(channel = table.channel.0, "cannot save the table: {e}");
                *table = before;
                Reply::ephemeral(Text::SaveFailed)
            }
        }
    }

    /// Removes a closed table from the map, if the entry is still this table (and not a newer one).
    /// Takes the map lock; may be called with the table's lock held (the only nesting of locks, always
    /// in this order).
    pub(super) fn forget(&self, shared: &Shared, channel: ChannelId) {
        let mut tables = lock(&self.tables);
        if tables.remove(channel, shared) {
            // Under the map lock: a newer table in the channel cannot have set its deadline yet.
            lock(&self.deadlines).set(channel, None);
            lock(&self.rated_running).remove(&channel);
        }
    }

    /// A post in `channel` was refused by Discord (Missing Permissions or Missing Access): its table,
    /// if any, pauses (saved, so a restart keeps it paused). `true` if it was not paused before.
    pub fn pause(&self, channel: ChannelId, now: Timestamp) -> bool {
        // If saving fails, still paused in memory; a restart would try to post and pause it again.
        self.update_saved(channel, "the pause", |table| {
            if !table.pause(now) {
                return false;
            }
            table.span().in_scope(|| {
                tracing::warn!(
                    channel = channel.0,
                    "cannot post in the channel: the table is paused"
                )
            });
            // Time stands still while paused: no timer until it resumes.
            lock(&self.tables).set_kind(channel, deadlines::gauge_kind(table));
            lock(&self.deadlines).set(channel, None);
            true
        })
    }

    /// The bot's permissions in `channel` as an interaction there shows them (`granted`, Discord's
    /// bitfield; `thread`: the channel is a thread or forum post). A paused table whose channel allows
    /// posting again resumes: the reply (a note and the board for the channel, and maybe a computer
    /// move) is to be sent. Otherwise the pause remembers what is missing, to tell the players.
    pub fn note_access(
        &self,
        channel: ChannelId,
        granted: u64,
        thread: bool,
        now: Timestamp,
    ) -> Option<Reply> {
        let shared = self.get(channel)?;
        let mut table = lock(&shared);
        if table.closed || !self.may_act(table.guild) {
            return None;
        }
        let _span = table.span().entered();
        let paused = table.paused.as_mut()?;
        let missing = Permission::missing_to_post(granted, thread);
        if !missing.is_empty() {
            paused.missing = missing;
            paused.thread = thread;
            return None;
        }
        let before = table.clone();
        let reply = table.unpause(now, &self.settings);
        let settings = self.settings_for(table.guild);
        let links = self.table_links(&table, &settings);
        match save::persist_update(&*self.persist, &table, reply, settings.replay_gif, &links) {
            Ok(reply) => {
                tracing::info!(
                    channel = channel.0,
                    "the bot may post again: the table resumes"
                );
                self.reschedule(&table, &self.settings_for(table.guild));
                Some(reply)
            }
            Err(e) => {
                tracing::error!(channel = channel.0, "cannot save the end of a pause: {e}");
                *table = before;
                None
            }
        }
    }

    /// Reminders, timed-out lobbies, and the channels where a computer player or a timed-out turn is due
    /// (`Reply::auto_move`): call this every few seconds.
    /// Only the tables whose deadline has come are looked at (see [`deadlines::Deadlines`]).
    pub fn tick(&self, now: Timestamp) -> Vec<(ChannelId, Reply)> {
        let due = lock(&self.deadlines).take_due(now);
        let mut out = Vec::new();
        for channel in due {
            let Some(shared) = self.get(channel) else {
                continue;
            };
            let mut table = lock(&shared);
            if table.closed {
                continue;
            }
            if !self.may_act(table.guild) {
                // Not this process's to time now; looked at again at the next pass, as before.
                lock(&self.deadlines).set(channel, Some(now));
                continue;
            }
            let _span = table.span().entered();
            let before = table.clone();
            let settings = self.settings_for(table.guild);
            let timed_out = table
                .timed_out_human(now, &settings)
                .filter(|_| settings.timeout_gives_up);
            let mut reply = match timed_out {
                // This server's rule: a player whose time ran out gives up.
                Some((user, _)) => {
                    let lang = self
                        .server_language(table.guild)
                        .or_else(|| self.channel_language(channel))
                        .unwrap_or_default();
                    let reply = table.time_ran_out(user, now, &settings, lang);
                    if reply.outputs.is_empty() {
                        table.tick(now, &settings)
                    } else {
                        reply
                    }
                }
                None => table.tick(now, &settings),
            };
            if !reply.outputs.is_empty() {
                let links = self.table_links(&table, &settings);
                match save::persist_update(
                    &*self.persist,
                    &table,
                    reply,
                    settings.replay_gif,
                    &links,
                ) {
                    Ok(mut saved) => {
                        saved.outputs.extend(table.disarm_prompt());
                        // Taken before a series opens the table again for its next game.
                        let review = table.closed.then(|| review::Review::of(&table)).flatten();
                        save::after_game(&*self.persist, &mut table, &mut saved, now);
                        self.reviews.keep(review, &saved);
                        reply = saved;
                    }
                    Err(e) => {
                        // Undone; the next tick tries again.
                        tracing::error!(channel = channel.0, "cannot save the table: {e}");
                        *table = before;
                        lock(&self.deadlines).set(channel, Some(now));
                        continue;
                    }
                }
                if table.closed {
                    self.finished.remember(&table, now, settings.lobby_timeout);
                    self.forget(&shared, channel);
                }
            }
            self.reschedule(&table, &settings);
            if !reply.outputs.is_empty() || reply.auto_move {
                self.charge_unprompted(table.guild, posts_of(&reply), now);
                out.push((channel, reply));
            }
        }
        out.extend(self.waiting_lobby_edits(now));
        out
    }

    /// Plays one move for a computer player, or for a human whose turn timed out. The move is chosen
    /// outside the table lock (on a blocking thread) and applied only if the game has not moved on
    /// meanwhile. `None` when nothing is due.
    pub async fn auto_step(&self, channel: ChannelId, now: Timestamp) -> Option<Reply> {
        let shared = self.get(channel)?;
        let seed = self.seeds.seed()?;
        let (task, guild, span, links) = {
            let mut table = lock(&shared);
            if table.closed || !self.may_act(table.guild) {
                return None;
            }
            let span = table.span();
            let _span = span.enter();
            // With the server's whole posting budget spent, computer moves wait: the timer finds them
            // due again. Members cannot spend the last of it.
            if !self.may_post_unprompted(table.guild, now) {
                return None;
            }
            let settings = self.known_settings_for(table.guild);
            let task = table.claim_auto_task(now, &settings, seed)?;
            drop(_span);
            let links = self.table_links(&table, &settings);
            (task, table.guild, span, links)
        };
        let settings = self.known_settings_for(guild);
        let lang = self
            .known_server_language(guild)
            .or_else(|| self.channel_language(channel))
            .unwrap_or_default();
        let think = settings.bot_think;
        let picker = self.picker.clone();
        let view = task.view.clone();
        let history = task.history.clone();
        let level = task.level;
        let seed = task.seed;
        let chosen = self
            .pool
            .run_for(level.name(), task.due, move || {
                picker.choose_thinking(&view, &history, level, seed, think)
            })
            .await;
        let chosen = match chosen {
            Ok(mv) => Some(mv),
            Err(e) => {
                span.in_scope(|| {
                    tracing::error!(channel = channel.0, "computer player failed: {e}")
                });
                None
            }
        };
        // Applied and saved on a blocking thread too: saving is I/O.
        let persist = self.persist.clone();
        let table_ref = shared.clone();
        let in_blocking = span.clone();
        let timers = settings.clone();
        // A pass with many timeouts due takes a few blocking threads, not one each (the semaphore is
        // never closed, so a permit always comes).
        let permit = self.applying.clone().acquire_owned().await.ok();
        let applied = tokio::task::spawn_blocking(move || {
            let _span = in_blocking.entered();
            let _permit = permit;
            let mut table = lock(&table_ref);
            let before = table.clone();
            let reply = table.apply_auto(&task, chosen, now, &settings, lang)?;
            match save::persist_update(&*persist, &table, reply, settings.replay_gif, &links) {
                Ok(mut reply) => {
                    reply.outputs.extend(table.disarm_prompt());
                    let review = table.closed.then(|| review::Review::of(&table)).flatten();
                    save::after_game(&*persist, &mut table, &mut reply, now);
                    Some((
                        reply,
                        table
                            .closed
                            .then(|| finished::Finished::of(&table, now))
                            .flatten(),
                        table.closed,
                        review,
                    ))
                }
                Err(e) => {
                    // Undone; the timer finds the move due again and retries.
                    tracing::error!(channel = channel.0, "cannot save a computer move: {e}");
                    *table = before;
                    table.auto_busy = false;
                    None
                }
            }
        })
        .await;
        match applied {
            Ok(Some((reply, finished, closed, review))) => {
                self.reviews.keep(review, &reply);
                if let Some(finished) = finished {
                    self.finished.put(channel, finished, timers.lobby_timeout);
                }
                if closed {
                    self.forget(&shared, channel);
                } else {
                    self.reschedule(&lock(&shared), &timers);
                }
                self.charge_unprompted(guild, posts_of(&reply), now);
                Some(reply)
            }
            Ok(None) => None,
            Err(e) => {
                span.in_scope(|| {
                    tracing::error!(channel = channel.0, "applying a computer move failed: {e}")
                });
                lock(&shared).auto_busy = false;
                None
            }
        }
    }

    /// Plays every due computer move in a channel in turn (for tests and simple callers); returns the
    /// replies in order.
    pub async fn run_auto(&self, channel: ChannelId, now: Timestamp) -> Vec<Reply> {
        let mut replies = Vec::new();
        // A game has a bounded number of moves; the bound only guards against a picker that never ends
        // a game.
        for _ in 0..10_000 {
            match self.auto_step(channel, now).await {
                Some(reply) => replies.push(reply),
                None => break,
            }
        }
        replies
    }

    /// Autocomplete for a card: only the caller's own cards, filtered by what they typed, labelled in
    /// `lang`.
    pub fn complete_card(
        &self,
        channel: ChannelId,
        user: UserId,
        typed: &str,
        lang: Lang,
    ) -> Vec<Choice> {
        self.get(channel)
            .map(|shared| lock(&shared).complete_card(user, typed, false, lang))
            .unwrap_or_default()
    }

    /// Autocomplete for a dead card to exchange: only the caller's own dead cards.
    pub fn complete_dead_card(
        &self,
        channel: ChannelId,
        user: UserId,
        typed: &str,
        lang: Lang,
    ) -> Vec<Choice> {
        self.get(channel)
            .map(|shared| lock(&shared).complete_card(user, typed, true, lang))
            .unwrap_or_default()
    }

    /// Autocomplete for a cell: the legal cells for `card` (dice: for the current roll), for the caller.
    pub fn complete_cell(
        &self,
        channel: ChannelId,
        user: UserId,
        card: Option<&str>,
        typed: &str,
        lang: Lang,
    ) -> Vec<Choice> {
        self.get(channel)
            .map(|shared| lock(&shared).complete_cell(user, card, typed, lang))
            .unwrap_or_default()
    }
}

/// Most threads tokio's blocking pool may have (its default is 512). Every blocking call of the bot
/// (a request handled and saved, a timer pass, a computer move applied and saved, an image drawn)
/// runs there; past this many at once they wait their turn instead of each taking a thread of its
/// own (8 MB of address space and a database wait each). Drawing takes at most one per core, and a
/// burst of computer moves at most [`AUTO_APPLY_AT_ONCE`], so requests always find threads free.
pub const MAX_BLOCKING_THREADS: usize = 64;

/// Computer moves (and timed-out turns) applied and saved at once: a timer pass that finds thousands
/// due does not take more of the blocking pool than this.
pub const AUTO_APPLY_AT_ONCE: usize = 8;

/// The bot's async runtime: tokio's multi-threaded one with [`MAX_BLOCKING_THREADS`].
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .build()
}

/// The answer that opens a lobby: its card, a new message (so that whom it mentions is notified), and
/// the private word to its host.
pub(super) fn lobby_opened(card: Message) -> Reply {
    Reply {
        outputs: vec![
            Output::Lobby {
                message_id: None,
                message: card,
            },
            Output::Ephemeral(Message::text(Text::LobbyOpened)),
        ],
        auto_move: false,
    }
}
