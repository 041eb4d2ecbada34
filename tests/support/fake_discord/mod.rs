//! A local stand-in for Discord that speaks its real wire protocols on 127.0.0.1, for end-to-end tests.
//!
//! * REST (`rest.rs`): an HTTP/1.1 server for the routes a poise/serenity bot uses. It is reached either
//!   directly as `http://127.0.0.1:PORT` (serenity's `HttpBuilder::proxy`, which only works with
//!   serenity's rate limiter disabled) or as an HTTP proxy: the client sends `CONNECT discord.com:443`,
//!   the stand-in terminates TLS with a certificate from a CA made for this run ([`FakeDiscord::ca_pem`])
//!   and serves the same routes. The second way keeps serenity's real rate limiter in the loop.
//! * OpenAPI (`openapi.rs`): every REST request, and every answer, is checked against Discord's own
//!   OpenAPI description (`../shared/discord-api/openapi.json`); a problem fails the test on `Drop`.
//! * Gateway (`gateway.rs`): a WebSocket server (`ws://127.0.0.1:PORT`, returned by `GET /gateway`):
//!   hello, identify, heartbeat/ack, READY, GUILD_CREATE, dispatches, resume with replay, reconnect,
//!   invalid session.
//!
//! Tests inject interactions (slash commands typed against the registered command schema, autocomplete,
//! button clicks, select menus) as `INTERACTION_CREATE` dispatches, read every request the bot made, the
//! messages it created or edited, and inject faults (429 with `retry-after`, 5xx, dropped connections).
//! Installs and places as Discord treats them: servers with and without the bot, group DMs, the bot's
//! DM, user installs, "Use External Apps", token lifetimes on the stand-in's own clock (docs/development.md,
//! "Where Discord lets an app speak").
//! Nothing here connects anywhere: both servers listen on 127.0.0.1 and nothing is forwarded.

pub mod activity;
pub mod gateway;
pub mod model;
pub mod multipart;
pub mod openapi;
pub mod rest;
pub mod tls;

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, Notify};
use tokio::task::JoinHandle;

pub use model::FakeUser;
use model::{now_ms, FakeChannel, DISCORD_EPOCH_MS};
pub use model::{perm, ChannelKind, Overwrite};

/// How the stand-in behaves.
#[derive(Clone, Debug)]
pub struct Config {
    /// The bot token the stand-in accepts (without the `Bot ` prefix).
    pub token: String,
    /// The application (and bot user) id.
    pub application_id: u64,
    /// The bot's username.
    pub bot_name: String,
    /// The heartbeat interval sent in HELLO (Discord sends 41250 ms).
    pub heartbeat_interval_ms: u64,
    /// Like Discord, refuse an interaction callback this long after the dispatch (10062 Unknown
    /// interaction). `None` accepts late callbacks (they are still recorded as late).
    pub interaction_deadline: Option<Duration>,
    /// Send READY and GUILD_CREATE zlib-compressed (binary frames) when IDENTIFY asks for compression.
    pub compress: bool,
    /// How many dispatches a session keeps for replay on RESUME.
    pub history_limit: usize,
    /// The shard count `GET /gateway/bot` recommends.
    pub recommended_shards: u32,
    /// Whether the app supports the user installation context (the portal's "User Install"; new apps
    /// have it since the change log of 2024-06-27). Without it, commands naming `integration_types`
    /// 1 are refused at registration.
    pub user_install: bool,
    /// The application's OAuth2 client secret (the code exchange of the Activity checks it).
    pub client_secret: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            token: "MTEwMDAwMDAwMDAwMDAwMDAx.ZmFrZQ.stand-in-token-for-tests-only".to_string(),
            application_id: 1_100_000_000_000_000_001,
            bot_name: "sequence-bot".to_string(),
            heartbeat_interval_ms: 41_250,
            interaction_deadline: Some(Duration::from_secs(3)),
            compress: true,
            history_limit: 50_000,
            recommended_shards: 1,
            user_install: true,
            client_secret: "fakeClientSecret0123456789abcdef".to_string(),
        }
    }
}

/// A file uploaded in a multipart request.
#[derive(Clone, Debug)]
pub struct Upload {
    /// The form field, e.g. `files[0]`.
    pub field: String,
    /// The file name.
    pub filename: String,
    /// The part's content type.
    pub content_type: Option<String>,
    /// The bytes.
    pub data: Arc<Vec<u8>>,
}

/// One HTTP request the bot made, and what the stand-in answered.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// Order of arrival.
    pub index: usize,
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path below `/api/v10`, e.g. `/interactions/1/tok/callback` (or the full path if it had no
    /// such prefix).
    pub path: String,
    /// The query string, without `?`.
    pub query: String,
    /// The JSON body (or the multipart `payload_json`), `Null` if there was none.
    pub json: Value,
    /// Files of a multipart body.
    pub uploads: Vec<Upload>,
    /// Whether it came through the CONNECT tunnel (TLS), i.e. through serenity's rate limiter.
    pub via_tls: bool,
    /// The user name the client gave the proxy for its tunnel, if any (tells processes apart).
    pub client: Option<String>,
    /// The `Authorization` header.
    pub authorization: Option<String>,
    /// The status the stand-in answered.
    pub status: u16,
    /// Whether the answer was an injected fault.
    pub fault: bool,
    /// Whether a route matched (false: answered 404 as an unknown route).
    pub known_route: bool,
    /// For an error answer: Discord's JSON error code and message (e.g. `50001`, "Missing Access").
    pub error: Option<(u64, String)>,
    /// When the request (headers and body) had arrived.
    pub at: Instant,
}

/// A fault the REST side answers instead of the real response.
#[derive(Clone, Debug)]
pub enum Fault {
    /// HTTP 429 with `retry-after` (seconds) and the JSON body Discord sends.
    RateLimited {
        /// Seconds to wait.
        retry_after: f64,
        /// Whether it is the global limit (`x-ratelimit-global`).
        global: bool,
    },
    /// An HTTP 5xx with Discord's error body.
    ServerError(u16),
}

/// A REST request the test holds unanswered ([`FakeDiscord::hold_next`]): nothing of it is carried out
/// or recorded; once released it is refused with a 503, as if the connection had broken on the way.
#[derive(Debug, Default)]
pub struct Hold {
    arrived: std::sync::atomic::AtomicBool,
    arrival: Notify,
    release: Notify,
}

impl Hold {
    /// Whether the request has come (and is held).
    pub fn has_arrived(&self) -> bool {
        self.arrived.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Waits up to `limit` for the request to come; whether it did.
    pub async fn arrived_within(&self, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let notified = self.arrival.notified();
            if self.has_arrived() {
                return true;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return self.has_arrived();
            }
        }
    }

    /// Lets the held request go (refused).
    pub fn release(&self) {
        self.release.notify_one();
    }
}

#[derive(Clone, Debug)]
struct HoldRule {
    method: String,
    path_contains: String,
    hold: Arc<Hold>,
}

#[derive(Clone, Debug)]
struct FaultRule {
    fault: Fault,
    remaining: usize,
    method: Option<String>,
    path_contains: Option<String>,
    /// Only requests answering an interaction of this kind (callbacks and its webhook).
    kind: Option<InteractionKind>,
}

/// How to break the gateway connection.
#[derive(Clone, Copy, Debug)]
pub enum DropMode {
    /// Close the TCP connection without a WebSocket close frame.
    Abrupt,
    /// Send a close frame with this code (e.g. 4000 unknown error, resumable).
    Close(u16),
    /// Send op 7 RECONNECT and wait for the client to reconnect.
    Reconnect,
}

/// A file attached to a message.
#[derive(Clone, Debug)]
pub struct StoredAttachment {
    /// Snowflake.
    pub id: u64,
    /// File name.
    pub filename: String,
    /// Content type.
    pub content_type: Option<String>,
    /// Description (alt text).
    pub description: Option<String>,
    /// Bytes.
    pub data: Arc<Vec<u8>>,
}

/// A message the bot created (in a channel, a DM, or as an interaction response), as it is now.
#[derive(Clone, Debug)]
pub struct StoredMessage {
    /// Snowflake.
    pub id: u64,
    /// The channel.
    pub channel_id: u64,
    /// Text.
    pub content: String,
    /// Embeds as sent.
    pub embeds: Value,
    /// Components (action rows) as sent.
    pub components: Value,
    /// Attachments.
    pub attachments: Vec<StoredAttachment>,
    /// Message flags (64 = ephemeral, 128 = loading).
    pub flags: u64,
    /// The interaction this answers, for interaction responses and follow-ups.
    pub interaction_id: Option<u64>,
    /// The `allowed_mentions` of the last write.
    pub allowed_mentions: Value,
    /// How many times it was edited.
    pub edits: usize,
    /// The texts it showed before edits changed them, oldest first.
    pub earlier: Vec<String>,
    /// Whether it was deleted.
    pub deleted: bool,
    /// When it was created.
    pub created: Instant,
    /// Users this message notified when it was created, as Discord decides: a new, non-ephemeral
    /// message notifies the users it mentions that its `allowed_mentions` allow. Edits (including the
    /// first follow-up that fills in a deferred "thinking…" answer) notify nobody.
    pub notified: Vec<u64>,
    /// Whether the stand-in made it ephemeral although the bot asked for a public message: an answer
    /// of an app installed only by the user, in a server that does not let external apps answer in
    /// public (or where the user may not send messages).
    pub forced_ephemeral: bool,
}

/// Who a newly created message notifies: the users mentioned in `content` that `allowed` lets through
/// (no `allowed_mentions`: everyone mentioned; `parse` with "users": everyone mentioned; else the
/// listed `users`), nobody for an ephemeral message.
pub fn notified_by(content: &str, allowed: &Value, ephemeral: bool) -> Vec<u64> {
    if ephemeral {
        return Vec::new();
    }
    let mentioned = model::mentioned_ids(content);
    if allowed.is_null() {
        return mentioned;
    }
    let parses_users = allowed["parse"]
        .as_array()
        .is_some_and(|p| p.iter().any(|v| v == "users"));
    let listed: Vec<u64> = allowed["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str().and_then(|u| u.parse().ok()).or(u.as_u64()))
        .collect();
    mentioned
        .into_iter()
        .filter(|id| parses_users || listed.contains(id))
        .collect()
}

impl StoredMessage {
    /// Whether only the interaction's user sees it.
    pub fn is_ephemeral(&self) -> bool {
        self.flags & 64 != 0
    }

    /// Users mentioned in the text (`<@id>`).
    pub fn mentions(&self) -> Vec<u64> {
        model::mentioned_ids(&self.content)
    }

    /// The button or menu with this custom id, as sent.
    pub fn component(&self, custom_id: &str) -> Option<&Value> {
        self.components
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|row| row["components"].as_array().into_iter().flatten())
            .find(|c| c["custom_id"] == custom_id)
    }

    /// Every custom id of the buttons and menus.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
        for row in self.components.as_array().into_iter().flatten() {
            for component in row["components"].as_array().into_iter().flatten() {
                if let Some(id) = component["custom_id"].as_str() {
                    ids.push(id.to_string());
                }
            }
        }
        ids
    }

    /// Every text it showed, oldest first: those before edits changed them, then its text now.
    pub fn all_contents(&self) -> impl Iterator<Item = &str> {
        self.earlier
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(self.content.as_str()))
    }

    /// The text of the message and its embeds, for searching.
    pub fn all_text(&self) -> String {
        let mut text = self.content.clone();
        for embed in self.embeds.as_array().into_iter().flatten() {
            for key in ["title", "description"] {
                if let Some(s) = embed[key].as_str() {
                    text.push('\n');
                    text.push_str(s);
                }
            }
            for field in embed["fields"].as_array().into_iter().flatten() {
                for key in ["name", "value"] {
                    if let Some(s) = field[key].as_str() {
                        text.push('\n');
                        text.push_str(s);
                    }
                }
            }
            if let Some(s) = embed["footer"]["text"].as_str() {
                text.push('\n');
                text.push_str(s);
            }
        }
        text
    }
}

/// Kinds of interaction (Discord's `type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InteractionKind {
    /// 2: a slash command.
    Command,
    /// 3: a button or select menu.
    Component,
    /// 4: autocomplete of an option.
    Autocomplete,
    /// 5: a modal submitted.
    ModalSubmit,
}

impl InteractionKind {
    fn code(self) -> u8 {
        match self {
            InteractionKind::Command => 2,
            InteractionKind::Component => 3,
            InteractionKind::Autocomplete => 4,
            InteractionKind::ModalSubmit => 5,
        }
    }
}

/// The bot's answer to an interaction (the callback request).
#[derive(Clone, Debug)]
pub struct Callback {
    /// Response type: 4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete, 9 modal.
    pub kind: u8,
    /// The callback's `data`.
    pub data: Value,
    /// When it arrived.
    pub at: Instant,
}

/// An interaction the stand-in dispatched, and what became of it.
#[derive(Clone, Debug)]
pub struct InteractionState {
    /// Snowflake.
    pub id: u64,
    /// The interaction token.
    pub token: String,
    /// Kind.
    pub kind: InteractionKind,
    /// Who acted.
    pub user_id: u64,
    /// Where.
    pub channel_id: u64,
    /// For components: the message clicked.
    pub message_id: Option<u64>,
    /// When the user acted, on the stand-in's clock ([`State::clock`]).
    pub created: Instant,
    /// When its dispatch was first written to the bot's WebSocket (None: not delivered yet).
    pub dispatched: Option<Instant>,
    /// How many times the dispatch was written (replays on RESUME count).
    pub deliveries: usize,
    /// The accepted callback.
    pub callback: Option<Callback>,
    /// Callback attempts refused (already acknowledged, too late, invalid).
    pub refused_callbacks: Vec<(u16, String)>,
    /// The original response message.
    pub original: Option<u64>,
    /// Follow-up messages.
    pub followups: Vec<u64>,
    /// Whether the bot edited the original message through this interaction (`PATCH @original`).
    pub edited_original: bool,
    /// The dispatch payload (to deliver it again, as a resumed gateway may).
    pub payload: Value,
    /// Where it happened: 0 server, 1 DM with the bot, 2 group DM (Discord's interaction context).
    pub context: u8,
    /// `authorizing_integration_owners` as sent: `"0"` (server install: the guild id, or `"0"` in
    /// the bot's DM) and/or `"1"` (user install: the user's id).
    pub authorizing_integration_owners: Value,
    /// Whether every answer is forced ephemeral (see [`StoredMessage::forced_ephemeral`]).
    pub forced_ephemeral: bool,
    /// Follow-ups and edits through the token refused (status and Discord's error body): the
    /// follow-up limit (40094), an expired token (50027).
    pub refused_followups: Vec<(u16, String)>,
}

impl InteractionState {
    /// Whether only a user install authorised it (no server install in the place): Discord then
    /// allows 5 follow-ups (change log "User-Installed Apps General Availability", 2024-06-27).
    pub fn is_user_install_only(&self) -> bool {
        let owners = &self.authorizing_integration_owners;
        owners.get("1").is_some() && owners.get("0").is_none()
    }
}

impl InteractionState {
    /// Time from the dispatch to the bot's callback.
    pub fn latency(&self) -> Option<Duration> {
        let dispatched = self.dispatched?;
        Some(
            self.callback
                .as_ref()?
                .at
                .saturating_duration_since(dispatched),
        )
    }
}

/// Gateway counters.
#[derive(Clone, Debug, Default)]
pub struct GatewayStats {
    /// WebSocket connections accepted.
    pub connections: usize,
    /// IDENTIFY payloads received.
    pub identifies: usize,
    /// RESUME payloads accepted.
    pub resumes: usize,
    /// RESUME payloads refused (op 9 sent).
    pub invalid_sessions: usize,
    /// Heartbeats received.
    pub heartbeats: usize,
    /// The last IDENTIFY payload's `d`.
    pub last_identify: Value,
    /// Frames replayed on RESUME.
    pub replayed: usize,
    /// The `shard` (`[id, total]`) of every IDENTIFY, in order (`[0, 1]` when it had none).
    pub identified_shards: Vec<[u32; 2]>,
    /// IDENTIFY refused for a shard outside its total (4010 Invalid shard).
    pub invalid_shards: usize,
}

pub(crate) enum Outgoing {
    /// A text frame, and the interaction it dispatches.
    Text(Arc<String>, Option<u64>),
    /// A zlib-compressed binary frame.
    Binary(Vec<u8>),
    /// A close frame.
    Close(u16, String),
    /// Drop the TCP connection.
    Abort,
}

pub(crate) struct Conn {
    id: u64,
    tx: mpsc::UnboundedSender<Outgoing>,
}

pub(crate) struct Session {
    id: String,
    /// `[id, total]` from IDENTIFY: the session gets the events of the guilds of its shard.
    shard: [u32; 2],
    seq: u64,
    history: VecDeque<(u64, Arc<String>, Option<u64>)>,
    conn: Option<Conn>,
    /// Set by [`FakeDiscord::drop_gateway`]: a RESUME waits until a dispatch has been queued.
    hold_resume: bool,
    /// A RESUME that arrived while held: its connection, its sender and its payload.
    pending_resume: Option<(u64, mpsc::UnboundedSender<Outgoing>, Value)>,
}

/// Everything the stand-in knows; tests read it through [`FakeDiscord`].
pub struct State {
    pub(crate) config: Config,
    next_snowflake: u64,
    /// Requests in order of arrival.
    pub requests: Vec<RecordedRequest>,
    faults: Vec<FaultRule>,
    holds: Vec<HoldRule>,
    /// Registered global commands (with ids).
    pub global_commands: Vec<Value>,
    /// Registered guild commands.
    pub guild_commands: HashMap<u64, Vec<Value>>,
    /// Users by id.
    pub users: HashMap<u64, FakeUser>,
    user_order: Vec<u64>,
    /// Channels by id (guild text channels and DMs).
    pub channels: HashMap<u64, FakeChannel>,
    channel_order: Vec<u64>,
    /// Messages by id.
    pub messages: HashMap<u64, StoredMessage>,
    message_order: Vec<u64>,
    channel_messages: HashMap<u64, Vec<u64>>,
    /// Messages posted by a REST request whose answer has not left yet (the check against the OpenAPI
    /// description runs in between): left out of [`State::messages_in`] and [`FakeDiscord::message`],
    /// as on Discord a test's user cannot press a message's button before the bot can know its id.
    unanswered: HashSet<u64>,
    /// Interactions by id.
    pub interactions: HashMap<u64, InteractionState>,
    tokens: HashMap<String, u64>,
    dm_channels: HashMap<u64, u64>,
    /// Gateway sessions by shard id (one per shard, as a bot runs them).
    pub(crate) sessions: BTreeMap<u32, Session>,
    /// Guilds besides the first one: id and name. The first guild's channels are those not listed in
    /// `channel_guilds`.
    extra_guilds: Vec<(u64, String)>,
    /// The guild of each channel of an extra guild (threads: their parent's).
    channel_guilds: HashMap<u64, u64>,
    /// Servers that did not add the app (the bot is not a member): id and name.
    guilds_without_bot: Vec<(u64, String)>,
    /// Guilds whose @everyone lacks Use External Apps.
    external_apps_denied: Vec<u64>,
    /// How far the stand-in's clock runs ahead of the real one ([`FakeDiscord::advance_clock`]).
    clock_offset: Duration,
    /// Gateway counters.
    pub gateway: GatewayStats,
    /// The Activity: its switch, codes, access tokens and instances (`activity.rs`).
    pub activity: activity::ActivityState,
    /// What the check against Discord's OpenAPI description found (see `openapi.rs`).
    pub openapi: openapi::Report,
    /// TLS tunnels (CONNECT) opened by the client.
    pub tunnels: usize,
    /// Time spent in TLS handshakes of tunnels.
    pub tls_time: Duration,
    /// Keys (interaction, channel and user ids) changed since the last notification.
    touched: Vec<u64>,
    next_conn: u64,
    guild_id: u64,
    bot: FakeUser,
    pub(crate) gateway_url: String,
}

impl State {
    fn new(config: Config) -> State {
        let bot = FakeUser {
            id: config.application_id,
            name: config.bot_name.clone(),
            locale: "en-US".into(),
            permissions: model::BOT_PERMISSIONS,
            bot: true,
            dms_closed: false,
            installed: false,
            in_bot_guilds: true,
        };
        let mut state = State {
            config,
            next_snowflake: 0,
            requests: Vec::new(),
            faults: Vec::new(),
            holds: Vec::new(),
            global_commands: Vec::new(),
            guild_commands: HashMap::new(),
            users: HashMap::new(),
            user_order: Vec::new(),
            channels: HashMap::new(),
            channel_order: Vec::new(),
            messages: HashMap::new(),
            message_order: Vec::new(),
            channel_messages: HashMap::new(),
            unanswered: HashSet::new(),
            interactions: HashMap::new(),
            tokens: HashMap::new(),
            dm_channels: HashMap::new(),
            sessions: BTreeMap::new(),
            extra_guilds: Vec::new(),
            channel_guilds: HashMap::new(),
            guilds_without_bot: Vec::new(),
            external_apps_denied: Vec::new(),
            clock_offset: Duration::ZERO,
            gateway: GatewayStats::default(),
            activity: activity::ActivityState::default(),
            openapi: openapi::Report::default(),
            tunnels: 0,
            tls_time: Duration::ZERO,
            touched: Vec::new(),
            next_conn: 0,
            guild_id: 0,
            bot,
            gateway_url: String::new(),
        };
        state.guild_id = state.snowflake();
        state
    }

    /// A new snowflake: time-shaped like Discord's, strictly increasing.
    pub fn snowflake(&mut self) -> u64 {
        let from_time = now_ms().saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.next_snowflake = from_time.max(self.next_snowflake + 1);
        self.next_snowflake
    }

    /// The bot user.
    pub fn bot(&self) -> &FakeUser {
        &self.bot
    }

    /// The (first) guild's id.
    pub fn guild_id(&self) -> u64 {
        self.guild_id
    }

    /// Every guild the bot is in: the first one, then those added.
    pub fn guild_ids(&self) -> Vec<u64> {
        std::iter::once(self.guild_id)
            .chain(self.extra_guilds.iter().map(|(id, _)| *id))
            .collect()
    }

    /// Whether the bot is in guild `id`.
    pub fn is_guild(&self, id: u64) -> bool {
        self.guild_ids().contains(&id)
    }

    /// The guild of a channel (a thread's is its parent's).
    pub fn guild_of(&self, channel_id: u64) -> u64 {
        if let Some(&guild) = self.channel_guilds.get(&channel_id) {
            return guild;
        }
        match self.channels.get(&channel_id).and_then(|c| c.parent_id) {
            Some(parent) if parent != channel_id => self.guild_of(parent),
            _ => self.guild_id,
        }
    }

    /// Discord's shard of a guild for a session of `total` shards: `(guild_id >> 22) % total`.
    pub fn shard_of(guild_id: u64, total: u32) -> u32 {
        u32::try_from((guild_id >> 22) % u64::from(total.max(1))).unwrap_or(0)
    }

    /// The guilds on shard `[id, total]`.
    pub fn guilds_of_shard(&self, shard: [u32; 2]) -> Vec<u64> {
        self.guild_ids()
            .into_iter()
            .filter(|&g| State::shard_of(g, shard[1]) == shard[0])
            .collect()
    }

    /// Position of a guild channel in the guild's list.
    fn channel_position(&self, channel_id: u64) -> usize {
        self.channel_order
            .iter()
            .position(|&c| c == channel_id)
            .unwrap_or(0)
    }

    /// The channel object of `channel_id`.
    pub fn channel_json(&self, channel_id: u64) -> Option<Value> {
        let channel = self.channels.get(&channel_id)?;
        if channel.kind == ChannelKind::GroupDm {
            let recipients: Vec<&FakeUser> = channel
                .recipients
                .iter()
                .filter_map(|u| self.users.get(u))
                .collect();
            return Some(channel.group_dm_json(&recipients));
        }
        let recipient = channel.dm_with.and_then(|u| self.users.get(&u));
        let guild = self.guild_of(channel_id);
        Some(channel.json(guild, self.channel_position(channel_id), recipient))
    }

    /// The bot's permissions in a channel, computed as Discord does (`topics/permissions`): its
    /// guild permissions, then its member overwrite on the channel; a thread uses its parent's
    /// overwrites. Implicit denials are not applied (like `app_permissions`); see [`State::post_refusal`].
    pub fn bot_permissions(&self, channel_id: u64) -> u64 {
        let Some(channel) = self.channels.get(&channel_id) else {
            return 0;
        };
        let base = self.bot.permissions;
        match channel.kind {
            // Discord: in the bot's DM `app_permissions` includes Attach Files, Embed Links, Mention
            // Everyone and Use External Emojis (receiving-and-responding, interaction structure, ***).
            ChannelKind::Dm => {
                return perm::VIEW_CHANNEL
                    | perm::SEND_MESSAGES
                    | perm::ATTACH_FILES
                    | perm::EMBED_LINKS
                    | perm::MENTION_EVERYONE
                    | perm::USE_EXTERNAL_EMOJIS;
            }
            ChannelKind::GroupDm => return 0,
            _ if !self.is_guild(self.guild_of(channel_id)) => return 0,
            _ => {}
        }
        if base & perm::ADMINISTRATOR != 0 {
            return u64::MAX >> 13;
        }
        let source = match channel.parent_id.and_then(|p| self.channels.get(&p)) {
            Some(parent) if channel.kind.is_thread() => parent,
            _ => channel,
        };
        source
            .overwrites
            .iter()
            .filter(|o| o.user_id == self.bot.id)
            .fold(base, |p, o| (p & !o.deny) | o.allow)
    }

    /// Why Discord would refuse the bot a message in `channel_id` (with files or not), as
    /// `(status, code, message)`: 50001 Missing Access without View Channel or in a private thread
    /// the bot is not in; 50013 Missing Permissions without Send Messages (Send Messages in Threads in
    /// a thread) or, for files, Attach Files; 50008 in a forum itself (only its posts take messages).
    pub fn post_refusal(
        &self,
        channel_id: u64,
        with_files: bool,
    ) -> Option<(u16, u64, &'static str)> {
        let channel = self.channels.get(&channel_id)?;
        if let Some(refusal) = self.access_refusal(channel_id) {
            return Some(refusal);
        }
        let granted = self.bot_permissions(channel_id);
        if channel.kind == ChannelKind::Dm || granted & perm::ADMINISTRATOR != 0 {
            return None;
        }
        if channel.kind == ChannelKind::Forum {
            return Some((400, 50008, "Cannot send messages in a non-text channel"));
        }
        let send = if channel.kind.is_thread() {
            perm::SEND_MESSAGES_IN_THREADS
        } else {
            perm::SEND_MESSAGES
        };
        let needed = send | if with_files { perm::ATTACH_FILES } else { 0 };
        (granted & needed != needed).then_some((403, 50013, "Missing Permissions"))
    }

    /// Whether the bot may see a channel at all: `None`, or 50001 Missing Access (also in a group DM
    /// and in a server without the bot: it is not a member there).
    pub fn access_refusal(&self, channel_id: u64) -> Option<(u16, u64, &'static str)> {
        let channel = self.channels.get(&channel_id)?;
        let missing_access = (403, 50001, "Missing Access");
        match channel.kind {
            ChannelKind::Dm => return None,
            ChannelKind::GroupDm => return Some(missing_access),
            _ if !self.is_guild(self.guild_of(channel_id)) => return Some(missing_access),
            _ => {}
        }
        let granted = self.bot_permissions(channel_id);
        if granted & perm::VIEW_CHANNEL == 0 {
            return Some(missing_access);
        }
        let member = channel.members.contains(&self.bot.id);
        if channel.kind == ChannelKind::PrivateThread
            && !member
            && granted & (perm::MANAGE_THREADS | perm::ADMINISTRATOR) == 0
        {
            return Some(missing_access);
        }
        None
    }

    /// The stand-in's clock: the real one, advanced by [`FakeDiscord::advance_clock`]. Interaction
    /// deadlines and token lifetimes are measured on it.
    pub fn clock(&self) -> Instant {
        Instant::now() + self.clock_offset
    }

    /// How far the stand-in's clock runs ahead of the real one.
    pub fn clock_offset(&self) -> Duration {
        self.clock_offset
    }

    /// Whether guild `id` is a server that did not add the app.
    pub fn is_guild_without_bot(&self, id: u64) -> bool {
        self.guilds_without_bot.iter().any(|(g, _)| *g == id)
    }

    /// Whether external (user-installed) apps may answer in public in guild `id`.
    pub fn external_apps_allowed(&self, id: u64) -> bool {
        !self.external_apps_denied.contains(&id)
    }

    /// Where `user` acts in `channel_id`: Discord's interaction context (0 server, 1 the bot's DM,
    /// 2 a group DM) and the guild, or why they cannot act there at all.
    fn context_of(&self, user: &FakeUser, channel_id: u64) -> Result<(u8, Option<u64>), String> {
        let channel = self.channels.get(&channel_id).ok_or("unknown channel")?;
        match channel.kind {
            ChannelKind::Dm if channel.dm_with == Some(user.id) => Ok((1, None)),
            ChannelKind::Dm => Err(format!("{} is not in that DM", user.name)),
            ChannelKind::GroupDm if channel.recipients.contains(&user.id) => Ok((2, None)),
            ChannelKind::GroupDm => Err(format!("{} is not in that group DM", user.name)),
            _ => {
                let guild = self.guild_of(channel_id);
                if self.is_guild(guild) && !user.in_bot_guilds {
                    return Err(format!("{} is not a member of that server", user.name));
                }
                Ok((0, Some(guild)))
            }
        }
    }

    /// A command's installation and interaction contexts as Discord applies them: `integration_types`
    /// absent means `[0]` (bulk overwrite, "defaults to GUILD_INSTALL"); `contexts` absent or null
    /// means server and bot DM, `[0, 1]` (without the DM if the deprecated `dm_permission` is false).
    /// The documentation says a null `contexts` means all three, but Discord does not offer such a
    /// command in group DMs (discord-api-docs issues #6744 and #7108); the stand-in takes the stricter
    /// reading, so a bot must name `contexts` to be used there. Guild commands: `[0]` and `[0]`.
    fn command_contexts(command: &Value) -> (Vec<u64>, Vec<u64>) {
        if command.get("guild_id").is_some_and(|g| !g.is_null()) {
            return (vec![0], vec![0]);
        }
        let list = |v: &Value| -> Option<Vec<u64>> {
            v.as_array()
                .map(|l| l.iter().filter_map(Value::as_u64).collect())
        };
        let types = list(&command["integration_types"]).unwrap_or_else(|| vec![0]);
        let contexts = list(&command["contexts"]).unwrap_or_else(|| {
            if command["dm_permission"] == false {
                vec![0]
            } else {
                vec![0, 1]
            }
        });
        (types, contexts)
    }

    /// `authorizing_integration_owners` of a command by `user` in `channel_id` (receiving-and-
    /// responding, "Authorizing Integration Owners Object"): key `"0"` if the app is installed to the
    /// server there (the guild id; `"0"` in the bot's DM) and the command supports the server install
    /// in this context; key `"1"` (the user's id) if the user installed the app and the command
    /// supports the user install in this context. Neither: Discord's client does not offer the
    /// command, and the stand-in refuses to deliver it. `command` None: any command (raw data).
    fn command_owners(
        &self,
        user: &FakeUser,
        channel_id: u64,
        command: Option<&Value>,
    ) -> Result<Value, String> {
        let (context, guild) = self.context_of(user, channel_id)?;
        let (types, contexts) = match command {
            Some(c) => State::command_contexts(c),
            None => (vec![0, 1], vec![0, 1, 2]),
        };
        let name = command.map_or("the command".to_string(), |c| {
            format!("/{}", c["name"].as_str().unwrap_or(""))
        });
        let here = ["a server channel", "the bot's DM", "a group DM"][usize::from(context.min(2))];
        let mut owners = serde_json::Map::new();
        let in_context = contexts.contains(&u64::from(context));
        if !in_context {
            return Err(format!(
                "{name} is not offered in {here}: its contexts are {contexts:?}"
            ));
        }
        if types.contains(&0) {
            match (context, guild) {
                (0, Some(g)) if self.is_guild(g) => {
                    owners.insert("0".into(), json!(g.to_string()));
                }
                (1, _) => {
                    owners.insert("0".into(), json!("0"));
                }
                _ => {}
            }
        }
        if types.contains(&1) && user.installed && self.config.user_install {
            owners.insert("1".into(), json!(user.id.to_string()));
        }
        if owners.is_empty() {
            let why = if !types.contains(&1) {
                format!("its integration_types are {types:?} (no user install)")
            } else if !user.installed {
                format!(
                    "{} has not installed the app (install_for_user), and the app is not installed to {here}",
                    user.name
                )
            } else {
                "the app is not installed there".into()
            };
            return Err(format!(
                "{name} is not offered to {} in {here}: {why}",
                user.name
            ));
        }
        Ok(Value::Object(owners))
    }

    /// `authorizing_integration_owners` of a press on message `message_id`: those of the interaction
    /// that made the message (anyone may press, installed or not: the owners tell the app who
    /// authorised it); for a message the bot posted, the server install of its guild, or `"0"` in the
    /// bot's DM.
    fn component_owners(&self, message_id: u64) -> Value {
        let message = self.messages.get(&message_id);
        if let Some(i) = message
            .and_then(|m| m.interaction_id)
            .and_then(|i| self.interactions.get(&i))
        {
            return i.authorizing_integration_owners.clone();
        }
        let channel = message.and_then(|m| self.channels.get(&m.channel_id));
        match channel {
            Some(c) if c.kind == ChannelKind::Dm => json!({"0": "0"}),
            Some(c) => json!({"0": self.guild_of(c.id).to_string()}),
            None => json!({}),
        }
    }

    /// `app_permissions` of an interaction by `user` in `channel_id` with these owners: the bot's
    /// permissions where it is a member; in a group DM Attach Files, Embed Links and Mention Everyone
    /// (receiving-and-responding, interaction structure, ***); in a server without the bot what
    /// `@everyone` (here: the user) may use in answers, limited to Attach Files, Embed Links, Mention
    /// Everyone and Use External Emojis (change log 2022-06-29), Attach Files and Embed Links always
    /// (discord-api-docs #5316).
    fn app_permissions(&self, user: &FakeUser, channel_id: u64) -> u64 {
        let Some(channel) = self.channels.get(&channel_id) else {
            return 0;
        };
        if channel.kind == ChannelKind::GroupDm {
            return perm::ATTACH_FILES | perm::EMBED_LINKS | perm::MENTION_EVERYONE;
        }
        if channel.kind != ChannelKind::Dm && !self.is_guild(self.guild_of(channel_id)) {
            return (user.permissions & perm::RESPONSE) | perm::ATTACH_FILES | perm::EMBED_LINKS;
        }
        self.bot_permissions(channel_id)
    }

    /// The permissions of `user` in a server channel, as `member.permissions` carries them: their
    /// guild permissions, with Use External Apps as the guild's switch sets it.
    fn member_permissions(&self, user: &FakeUser, guild: u64) -> u64 {
        if self.external_apps_allowed(guild) {
            user.permissions | perm::USE_EXTERNAL_APPS
        } else {
            user.permissions & !perm::USE_EXTERNAL_APPS
        }
    }

    /// The `GUILD_CREATE` payload of the first guild.
    pub fn guild_create(&self) -> Value {
        self.guild_create_of(self.guild_id)
    }

    /// The `GUILD_CREATE` payload of guild `guild_id`.
    pub fn guild_create_of(&self, guild_id: u64) -> Value {
        let channels: Vec<Value> = self
            .channel_order
            .iter()
            .filter_map(|id| self.channels.get(id))
            .filter(|c| c.dm_with.is_none() && !c.kind.is_thread())
            .filter(|c| self.guild_of(c.id) == guild_id)
            .enumerate()
            .map(|(i, c)| c.json(guild_id, i, None))
            .collect();
        // Like Discord for large guilds, only some members are sent.
        let members: Vec<&FakeUser> = self
            .user_order
            .iter()
            .filter_map(|id| self.users.get(id))
            .filter(|u| u.in_bot_guilds)
            .take(100)
            .collect();
        let owner = self.user_order.first().copied().unwrap_or(self.bot.id);
        // Active threads the bot can see.
        let mut threads: Vec<&FakeChannel> = self
            .channels
            .values()
            .filter(|c| c.kind.is_thread() && self.access_refusal(c.id).is_none())
            .filter(|c| self.guild_of(c.id) == guild_id)
            .collect();
        threads.sort_by_key(|c| c.id);
        let threads: Vec<Value> = threads
            .into_iter()
            .map(|c| c.json(guild_id, 0, None))
            .collect();
        let name = self
            .extra_guilds
            .iter()
            .find(|(id, _)| *id == guild_id)
            .map_or("Sequence test guild", |(_, name)| name.as_str());
        let mut guild = model::guild_json(
            guild_id,
            name,
            owner,
            &self.bot,
            &members,
            self.users.len() + 1,
            &channels,
        );
        guild["threads"] = Value::Array(threads);
        guild
    }

    /// The message object of a stored message, as the API returns it.
    pub fn message_json(&self, id: u64) -> Option<Value> {
        let m = self.messages.get(&id)?;
        let mentions: Vec<Value> = m
            .mentions()
            .iter()
            .filter_map(|u| self.users.get(u))
            .map(|u| u.json())
            .collect();
        let attachments: Vec<Value> = m
            .attachments
            .iter()
            .map(|a| {
                let mut v = json!({
                    "id": a.id.to_string(),
                    "filename": a.filename,
                    "size": a.data.len(),
                    "url": format!("https://cdn.discordapp.com/attachments/{}/{}/{}", m.channel_id, a.id, a.filename),
                    "proxy_url": format!("https://media.discordapp.net/attachments/{}/{}/{}", m.channel_id, a.id, a.filename),
                    "content_type": a.content_type,
                });
                if let Some(description) = &a.description {
                    v["description"] = json!(description);
                }
                if let Some((w, h)) = model::png_size(&a.data) {
                    v["width"] = json!(w);
                    v["height"] = json!(h);
                }
                if m.is_ephemeral() {
                    v["ephemeral"] = json!(true);
                }
                v
            })
            .collect();
        let mut v = json!({
            "id": m.id.to_string(),
            "channel_id": m.channel_id.to_string(),
            "author": self.bot.json(),
            "content": m.content,
            "timestamp": model::timestamp_of(m.id),
            "edited_timestamp": if m.edits > 0 { Value::String(model::timestamp_of(self.next_snowflake)) } else { Value::Null },
            "tts": false,
            "mention_everyone": false,
            "mentions": mentions,
            "mention_roles": [],
            "attachments": attachments,
            "embeds": m.embeds.clone(),
            "pinned": false,
            "type": if m.interaction_id.is_some() { 20 } else { 0 },
            "flags": m.flags,
            "components": model::numbered_components(&m.components),
        });
        if let Some(interaction_id) = m.interaction_id {
            v["webhook_id"] = json!(self.config.application_id.to_string());
            v["application_id"] = json!(self.config.application_id.to_string());
            if let Some(i) = self.interactions.get(&interaction_id) {
                if let Some(user) = self.users.get(&i.user_id) {
                    v["interaction_metadata"] = json!({
                        "id": i.id.to_string(),
                        "type": i.kind.code(),
                        "user": user.json(),
                        "authorizing_integration_owners": i.authorizing_integration_owners,
                    });
                    if let Some(clicked) = i.message_id {
                        v["interaction_metadata"]["interacted_message_id"] =
                            json!(clicked.to_string());
                    }
                }
            }
        }
        Some(v)
    }

    /// Marks something a test may wait for as changed: an interaction, a channel or a user (DMs).
    pub(crate) fn touch(&mut self, key: u64) {
        self.touched.push(key);
    }

    fn add_message(&mut self, message: StoredMessage) -> u64 {
        let id = message.id;
        self.touch(message.channel_id);
        if let Some(user) = self
            .channels
            .get(&message.channel_id)
            .and_then(|c| c.dm_with)
        {
            self.touch(user);
        }
        if let Some(interaction) = message.interaction_id {
            self.touch(interaction);
        }
        self.channel_messages
            .entry(message.channel_id)
            .or_default()
            .push(id);
        self.messages.insert(id, message);
        self.message_order.push(id);
        id
    }

    /// Messages of a channel in order of creation, as a client shows them: deleted ones (a test's
    /// [`FakeDiscord::remove_message`]) and those whose post is not answered yet left out.
    pub fn messages_in(&self, channel_id: u64) -> Vec<&StoredMessage> {
        self.channel_messages
            .get(&channel_id)
            .into_iter()
            .flatten()
            .filter(|id| !self.unanswered.contains(id))
            .filter_map(|id| self.messages.get(id))
            .filter(|m| !m.deleted)
            .collect()
    }

    /// How many messages were ever posted: pass it to [`State::posted_since`] after a request.
    pub(crate) fn posted_count(&self) -> usize {
        self.message_order.len()
    }

    /// Holds the messages posted since `count` back until [`State::answered`].
    pub(crate) fn posted_since(&mut self, count: usize) -> Vec<u64> {
        let ids = self.message_order.get(count..).unwrap_or_default().to_vec();
        self.unanswered.extend(ids.iter().copied());
        ids
    }

    /// Shows messages held by [`State::posted_since`]: their request's answer is leaving.
    pub(crate) fn answered(&mut self, ids: &[u64]) {
        for id in ids {
            self.unanswered.remove(id);
        }
    }

    /// The DM channel opened with `user_id`, if the bot opened one.
    pub fn dm_channel_of(&self, user_id: u64) -> Option<u64> {
        self.dm_channels.get(&user_id).copied()
    }

    /// Requests answered 404 because no route matched.
    pub fn unknown_routes(&self) -> Vec<&RecordedRequest> {
        self.requests.iter().filter(|r| !r.known_route).collect()
    }

    /// The hold armed for this request, if any (taken: it holds one request).
    pub(crate) fn take_hold(&mut self, method: &str, path: &str) -> Option<Arc<Hold>> {
        let at = self
            .holds
            .iter()
            .position(|r| r.method == method && path.contains(&r.path_contains))?;
        Some(self.holds.remove(at).hold)
    }

    fn take_fault(&mut self, method: &str, path: &str) -> Option<Fault> {
        // Never fault `GET /gateway`: on failure serenity falls back to the real gateway's address.
        if path.starts_with("/gateway") {
            return None;
        }
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let token = match segments.as_slice() {
            ["interactions", _, token, "callback"] | ["webhooks", _, token, ..] => Some(*token),
            _ => None,
        };
        let kind = token
            .and_then(|t| self.tokens.get(t))
            .and_then(|id| self.interactions.get(id))
            .map(|i| i.kind);
        let rule = self.faults.iter_mut().find(|r| {
            r.remaining > 0
                && r.method.as_deref().is_none_or(|m| m == method)
                && r.path_contains.as_deref().is_none_or(|p| path.contains(p))
                && r.kind.is_none_or(|k| Some(k) == kind)
        })?;
        rule.remaining -= 1;
        Some(rule.fault.clone())
    }

    /// Queues a dispatch on the sessions that get it, as Discord routes events: a guild's (its
    /// `guild_id`) on the session of the guild's shard, the rest (direct messages) on shard 0. Sent
    /// now where connected, else kept for replay on RESUME. Whether any session took it.
    pub(crate) fn dispatch(&mut self, event: &str, data: Value, interaction: Option<u64>) -> bool {
        let guild = data["guild_id"]
            .as_str()
            .and_then(|g| g.parse::<u64>().ok());
        let shards: Vec<u32> = self
            .sessions
            .values()
            .filter(|s| match guild {
                Some(g) => State::shard_of(g, s.shard[1]) == s.shard[0],
                None => s.shard[0] == 0,
            })
            .map(|s| s.shard[0])
            .collect();
        let mut queued = false;
        for shard in shards {
            queued |= self.dispatch_on(shard, event, data.clone(), interaction);
        }
        queued
    }

    /// Queues a dispatch on the session of shard `shard` only.
    pub(crate) fn dispatch_on(
        &mut self,
        shard: u32,
        event: &str,
        data: Value,
        interaction: Option<u64>,
    ) -> bool {
        let limit = self.config.history_limit;
        let Some(session) = self.sessions.get_mut(&shard) else {
            return false;
        };
        session.seq += 1;
        let frame = Arc::new(json!({"op": 0, "s": session.seq, "t": event, "d": data}).to_string());
        session
            .history
            .push_back((session.seq, Arc::clone(&frame), interaction));
        while session.history.len() > limit {
            session.history.pop_front();
        }
        if let Some(conn) = &session.conn {
            let _ = conn.tx.send(Outgoing::Text(frame, interaction));
        }
        session.hold_resume = false;
        if let Some((conn_id, tx, data)) = session.pending_resume.take() {
            gateway::resume(self, conn_id, &tx, &data);
        }
        true
    }

    /// The session of the first guild's shard (the only one without sharding).
    pub(crate) fn main_session(&mut self) -> Option<&mut Session> {
        let guild = self.guild_id;
        self.sessions
            .values_mut()
            .find(|s| State::shard_of(guild, s.shard[1]) == s.shard[0])
    }
}

/// What tests share with the servers.
pub struct Shared {
    state: Mutex<State>,
    changed: Notify,
    keyed: Mutex<HashMap<u64, Arc<Notify>>>,
    tls: tokio_rustls::TlsAcceptor,
}

impl Shared {
    /// Locks the state (a panic elsewhere does not make it unusable).
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes those waiting for any change, and those waiting on the keys touched since last time.
    pub fn notify(&self) {
        let keys = std::mem::take(&mut self.lock().touched);
        self.notify_keys(&keys);
    }

    /// Wakes those waiting for any change and those waiting on `keys`.
    pub fn notify_keys(&self, keys: &[u64]) {
        self.changed.notify_waiters();
        if keys.is_empty() {
            return;
        }
        let keyed = self.keyed.lock().unwrap_or_else(|e| e.into_inner());
        for key in keys {
            if let Some(notify) = keyed.get(key) {
                notify.notify_waiters();
            }
        }
    }

    fn key_notify(&self, key: u64) -> Arc<Notify> {
        let mut keyed = self.keyed.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(keyed.entry(key).or_insert_with(|| Arc::new(Notify::new())))
    }

    /// Waits until `check` finds what it wants in the state, or `timeout` passes. With `keys`, it is
    /// woken only by changes to those (interaction, channel or user ids), which keeps hundreds of waiting
    /// tables cheap; without, by any change.
    pub async fn wait_for<T>(
        &self,
        timeout: Duration,
        what: &str,
        keys: &[u64],
        mut check: impl FnMut(&State) -> Option<T>,
    ) -> Result<T, String> {
        let deadline = tokio::time::Instant::now() + timeout;
        let notifies: Vec<Arc<Notify>> = keys.iter().map(|&k| self.key_notify(k)).collect();
        loop {
            let mut waits: Vec<_> = if notifies.is_empty() {
                vec![Box::pin(self.changed.notified())]
            } else {
                notifies.iter().map(|n| Box::pin(n.notified())).collect()
            };
            for wait in &mut waits {
                wait.as_mut().enable();
            }
            if let Some(found) = check(&self.lock()) {
                return Ok(found);
            }
            // Also poll now and then, in case a change was made without a notification.
            let wake = (tokio::time::Instant::now() + Duration::from_millis(200)).min(deadline);
            let _ = tokio::time::timeout_at(wake, futures_util::future::select_all(waits)).await;
            if tokio::time::Instant::now() >= deadline {
                if let Some(found) = check(&self.lock()) {
                    return Ok(found);
                }
                return Err(format!("timed out after {timeout:?} waiting for {what}"));
            }
        }
    }
}

/// A handle on an injected interaction.
#[derive(Clone, Debug)]
pub struct Interaction {
    /// Snowflake.
    pub id: u64,
    /// Token.
    pub token: String,
    /// Who acted.
    pub user_id: u64,
    /// Where.
    pub channel_id: u64,
}

/// The running stand-in. Dropping it stops both servers.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    rest_addr: SocketAddr,
    gateway_addr: SocketAddr,
    ca_pem: String,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        let mut state = self.shared.lock();
        for session in state.sessions.values_mut() {
            if let Some(conn) = session.conn.take() {
                let _ = conn.tx.send(Outgoing::Abort);
            }
        }
        // Every test that used the stand-in fails if a request broke Discord's API description, even
        // if it never looked (unless it is failing already, or took the problems to check them).
        let problems = state.openapi.problems();
        drop(state);
        if !problems.is_empty() && !std::thread::panicking() {
            panic!(
                "{} request(s) or answer(s) do not match Discord's OpenAPI description ({}):\n{}",
                problems.len(),
                openapi::SPEC_PATH,
                problems.join("\n")
            );
        }
    }
}

impl FakeDiscord {
    /// Starts the REST and gateway servers on 127.0.0.1 (ephemeral ports).
    pub async fn start(config: Config) -> Result<FakeDiscord, String> {
        let rest = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("bind REST: {e}"))?;
        let gateway = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("bind gateway: {e}"))?;
        let rest_addr = rest.local_addr().map_err(|e| e.to_string())?;
        let gateway_addr = gateway.local_addr().map_err(|e| e.to_string())?;
        // Fail loudly (not skip) when Discord's API description is missing: every request is checked.
        openapi::load()?;
        let tls = tls::make(&["discord.com"])?;
        let mut state = State::new(config);
        state.gateway_url = format!("ws://{gateway_addr}");
        let shared = Arc::new(Shared {
            state: Mutex::new(state),
            changed: Notify::new(),
            keyed: Mutex::new(HashMap::new()),
            tls: tls.acceptor,
        });
        let tasks = vec![
            tokio::spawn(rest::serve(rest, Arc::clone(&shared))),
            tokio::spawn(gateway::serve(gateway, Arc::clone(&shared))),
        ];
        Ok(FakeDiscord {
            shared,
            rest_addr,
            gateway_addr,
            ca_pem: tls.ca_pem,
            tasks,
        })
    }

    /// The shared state, for checks this API does not cover.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Locks and returns the state.
    pub fn state(&self) -> MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// `http://127.0.0.1:PORT`: the base for serenity's `HttpBuilder::proxy`, and the HTTP proxy for
    /// CONNECT tunnels.
    pub fn rest_url(&self) -> String {
        format!("http://{}", self.rest_addr)
    }

    /// `ws://127.0.0.1:PORT`, what `GET /gateway` returns.
    pub fn gateway_url(&self) -> String {
        format!("ws://{}", self.gateway_addr)
    }

    /// The CA (PEM) that signed the stand-in's `discord.com` certificate.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }

    /// The bot token the stand-in accepts.
    pub fn token(&self) -> String {
        self.state().config.token.clone()
    }

    /// The application id (also the bot user's id).
    pub fn application_id(&self) -> u64 {
        self.state().config.application_id
    }

    /// The guild id.
    pub fn guild_id(&self) -> u64 {
        self.state().guild_id
    }

    /// Adds a guild member with ordinary permissions.
    pub fn add_user(&self, name: &str) -> FakeUser {
        self.add_user_with(name, model::MEMBER_PERMISSIONS)
    }

    /// Adds a guild member with moderator permissions (manage channels/messages/guild).
    pub fn add_moderator(&self, name: &str) -> FakeUser {
        self.add_user_with(name, model::MODERATOR_PERMISSIONS)
    }

    /// Adds another app's bot user as a guild member (`"bot": true` in its user object).
    pub fn add_app(&self, name: &str) -> FakeUser {
        self.add_user_as(name, model::MEMBER_PERMISSIONS, true)
    }

    fn add_user_with(&self, name: &str, permissions: u64) -> FakeUser {
        self.add_user_as(name, permissions, false)
    }

    fn add_user_as(&self, name: &str, permissions: u64, bot: bool) -> FakeUser {
        let mut state = self.state();
        let user = FakeUser {
            id: state.snowflake(),
            name: name.to_string(),
            locale: "en-US".into(),
            permissions,
            bot,
            dms_closed: false,
            installed: false,
            in_bot_guilds: true,
        };
        state.users.insert(user.id, user.clone());
        state.user_order.push(user.id);
        let joined = model::timestamp_of(user.id);
        let mut member = user.member_json(&joined, false);
        member["guild_id"] = json!(state.guild_id.to_string());
        state.dispatch("GUILD_MEMBER_ADD", member, None);
        user
    }

    /// Changes a user's client locale (sent in their interactions).
    pub fn set_locale(&self, user_id: u64, locale: &str) {
        if let Some(user) = self.state().users.get_mut(&user_id) {
            user.locale = locale.to_string();
        }
    }

    /// Sets a user's server permissions (bit set, e.g. without Send Messages): what their interactions
    /// carry as `member.permissions`, and what limits an app installed only by them.
    pub fn set_user_permissions(&self, user_id: u64, permissions: u64) {
        if let Some(user) = self.state().users.get_mut(&user_id) {
            user.permissions = permissions;
        }
    }

    /// Makes the API refuse the bot's DMs to this user (50007), like a user who closed DMs.
    pub fn close_dms(&self, user_id: u64) {
        if let Some(user) = self.state().users.get_mut(&user_id) {
            user.dms_closed = true;
        }
    }

    /// Adds a text channel to the guild.
    pub fn add_channel(&self, name: &str) -> u64 {
        let mut state = self.state();
        let id = state.snowflake();
        state
            .channels
            .insert(id, FakeChannel::guild(id, name, ChannelKind::Text));
        state.channel_order.push(id);
        if let Some(channel) = state.channel_json(id) {
            state.dispatch("CHANNEL_CREATE", channel, None);
        }
        id
    }

    /// Adds the bot to another guild, whose id puts it on shard `shard` of `total` (Discord's
    /// `(guild_id >> 22) % total`); the sessions of that shard get its `GUILD_CREATE`, as when a bot
    /// joins a server. Its members are the stand-in's users.
    pub fn add_guild_on_shard(&self, name: &str, shard: u32, total: u32) -> u64 {
        let mut state = self.state();
        let total = u64::from(total.max(1));
        let base = state.snowflake() >> 22;
        // The next timestamp (in ms) on that shard: a snowflake up to `total` ms ahead.
        let high = base + (u64::from(shard) + total - base % total) % total;
        let id = (high << 22) | (state.snowflake() & 0x3F_FFFF);
        state.next_snowflake = state.next_snowflake.max(id);
        state.extra_guilds.push((id, name.to_string()));
        let create = state.guild_create_of(id);
        let shards: Vec<u32> = state
            .sessions
            .values()
            .filter(|s| State::shard_of(id, s.shard[1]) == s.shard[0])
            .map(|s| s.shard[0])
            .collect();
        for shard in shards {
            state.dispatch_on(shard, "GUILD_CREATE", create.clone(), None);
        }
        id
    }

    /// Adds a text channel to guild `guild_id` (one of [`FakeDiscord::add_guild_on_shard`]'s, or the
    /// first).
    pub fn add_channel_in(&self, guild_id: u64, name: &str) -> u64 {
        let mut state = self.state();
        let id = state.snowflake();
        state
            .channels
            .insert(id, FakeChannel::guild(id, name, ChannelKind::Text));
        state.channel_order.push(id);
        if guild_id != state.guild_id {
            state.channel_guilds.insert(id, guild_id);
        }
        // The bot hears of channels only in its own servers.
        if state.is_guild(guild_id) {
            if let Some(channel) = state.channel_json(id) {
                state.dispatch("CHANNEL_CREATE", channel, None);
            }
        }
        id
    }

    /// Adds a server that did not add the app (the bot is not a member; it gets no gateway event of
    /// it). Add channels with [`FakeDiscord::add_channel_in`]. Every user may act there; only a user
    /// who installed the app ([`FakeDiscord::install_for_user`]) can run its commands.
    pub fn add_guild_without_bot(&self, name: &str) -> u64 {
        let mut state = self.state();
        let id = state.snowflake();
        state.guilds_without_bot.push((id, name.to_string()));
        id
    }

    /// Sets the "Use External Apps" permission of `@everyone` in guild `guild_id` (default: allowed).
    /// Off: the answers of the app where only the user installed it are made ephemeral by the stand-in.
    pub fn allow_external_apps(&self, guild_id: u64, allowed: bool) {
        let mut state = self.state();
        state.external_apps_denied.retain(|g| *g != guild_id);
        if !allowed {
            state.external_apps_denied.push(guild_id);
        }
    }

    /// `user` installs the app to their account (a user install): the commands that allow it follow
    /// them into group DMs and servers without the bot, and the bot may DM them.
    pub fn install_for_user(&self, user: &FakeUser) {
        if let Some(u) = self.state().users.get_mut(&user.id) {
            u.installed = true;
        }
    }

    /// Adds a user who shares no server with the bot (not a member of its guilds): the bot cannot DM
    /// them (50278) unless they install the app. They can be put in group DMs and servers without the
    /// bot.
    pub fn add_stranger(&self, name: &str) -> FakeUser {
        let mut state = self.state();
        let user = FakeUser {
            id: state.snowflake(),
            name: name.to_string(),
            locale: "en-US".into(),
            permissions: model::MEMBER_PERMISSIONS,
            bot: false,
            dms_closed: false,
            installed: false,
            in_bot_guilds: false,
        };
        state.users.insert(user.id, user.clone());
        state.user_order.push(user.id);
        user
    }

    /// Adds a group DM (channel type 3) of `users`; the bot is not a recipient (bots cannot be), so it
    /// gets no event of it and cannot post there (50001): the app speaks only in answers.
    pub fn add_group_dm(&self, users: &[&FakeUser]) -> u64 {
        let mut state = self.state();
        let id = state.snowflake();
        let ids: Vec<u64> = users.iter().map(|u| u.id).collect();
        state.channels.insert(id, FakeChannel::group_dm(id, &ids));
        id
    }

    /// The DM between the bot and `user`, opened by the user (the same channel the bot gets from
    /// `POST /users/@me/channels`): commands there are in context 1 (BOT_DM).
    pub fn open_dm_with_bot(&self, user: &FakeUser) -> u64 {
        let mut state = self.state();
        if let Some(channel) = state.dm_channel_of(user.id) {
            return channel;
        }
        let id = state.snowflake();
        state.channels.insert(id, FakeChannel::dm(id, user.id));
        state.dm_channels.insert(user.id, id);
        id
    }

    /// Moves the stand-in's clock forward: interactions and their tokens count as `by` older (their
    /// 3 seconds and 15 minutes run on this clock).
    pub fn advance_clock(&self, by: Duration) {
        self.state().clock_offset += by;
    }

    /// The shards (`[id, total]`) with a connected gateway session.
    pub fn connected_shards(&self) -> Vec<[u32; 2]> {
        self.state()
            .sessions
            .values()
            .filter(|s| s.conn.is_some())
            .map(|s| s.shard)
            .collect()
    }

    /// Waits until shard `[id, total]` has a connected session that got READY.
    pub async fn wait_shard(&self, shard: [u32; 2], timeout: Duration) -> Result<(), String> {
        self.shared
            .wait_for(timeout, &format!("shard {shard:?} to identify"), &[], |s| {
                s.sessions
                    .get(&shard[0])
                    .is_some_and(|sess| sess.shard == shard && sess.conn.is_some())
                    .then_some(())
            })
            .await
    }

    /// Requests and routes checked against Discord's OpenAPI description, and what was found.
    pub fn openapi_summary(&self) -> String {
        self.state().openapi.summary()
    }

    /// Takes the problems the OpenAPI check found so far (so that a test which sends a bad request on
    /// purpose can assert it was caught, and `Drop` does not fail it).
    pub fn take_openapi_problems(&self) -> Vec<String> {
        let mut state = self.state();
        let problems = state.openapi.problems();
        let report = &mut state.openapi;
        report.violations.clear();
        report.response_violations.clear();
        report.limit_violations.clear();
        problems
    }

    /// Adds a forum channel (type 15) to the guild: it holds posts, see [`FakeDiscord::add_thread`].
    pub fn add_forum(&self, name: &str) -> u64 {
        let mut state = self.state();
        let id = state.snowflake();
        state
            .channels
            .insert(id, FakeChannel::guild(id, name, ChannelKind::Forum));
        state.channel_order.push(id);
        if let Some(channel) = state.channel_json(id) {
            state.dispatch("CHANNEL_CREATE", channel, None);
        }
        id
    }

    /// A user opens a thread in `parent`: a public (11) or private (12) thread of a text channel, or
    /// a post of a forum (always public). The bot is not a member; it is told of threads it can see
    /// (`THREAD_CREATE`), like Discord: not of a private thread until it is added.
    pub fn add_thread(&self, parent: u64, name: &str, private: bool, owner: u64) -> u64 {
        let mut state = self.state();
        let id = state.snowflake();
        let parent_is_forum = state
            .channels
            .get(&parent)
            .is_some_and(|c| c.kind == ChannelKind::Forum);
        let thread = FakeChannel::thread(id, name, private && !parent_is_forum, parent, owner);
        let private = thread.kind == ChannelKind::PrivateThread;
        state.channels.insert(id, thread);
        if let Some(mut channel) = state.channel_json(id) {
            if !private {
                channel["newly_created"] = json!(true);
                state.dispatch("THREAD_CREATE", channel, None);
            }
        }
        id
    }

    /// Adds a user (or the bot, by its id) to a thread, as a member mentioning them would.
    pub fn add_thread_member(&self, thread: u64, user_id: u64) {
        let mut state = self.state();
        let bot = state.bot.id;
        let Some(channel) = state.channels.get_mut(&thread) else {
            return;
        };
        if channel.members.contains(&user_id) {
            return;
        }
        channel.members.push(user_id);
        if user_id == bot {
            if let Some(channel) = state.channel_json(thread) {
                state.dispatch("THREAD_CREATE", channel, None);
            }
        }
    }

    /// Sets the bot's member overwrite on a text channel or forum (threads inherit it), like a
    /// moderator editing the channel's permissions; the gateway sends `CHANNEL_UPDATE`.
    pub fn set_bot_overwrite(&self, channel_id: u64, allow: u64, deny: u64) {
        let mut state = self.state();
        let bot = state.bot.id;
        let Some(channel) = state.channels.get_mut(&channel_id) else {
            return;
        };
        channel.overwrites.retain(|o| o.user_id != bot);
        if allow != 0 || deny != 0 {
            channel.overwrites.push(Overwrite {
                user_id: bot,
                allow,
                deny,
            });
        }
        if let Some(channel) = state.channel_json(channel_id) {
            state.dispatch("CHANNEL_UPDATE", channel, None);
        }
    }

    /// The bot's computed permissions in a channel (what its interactions carry as `app_permissions`).
    pub fn bot_permissions(&self, channel_id: u64) -> u64 {
        self.state().bot_permissions(channel_id)
    }

    /// The `INTERACTION_CREATE` payload (`d`) sent for interaction `id`, as the bot received it.
    pub fn dispatched_interaction(&self, id: u64) -> Option<Value> {
        let state = self.state();
        let (_, frame, _) = state
            .sessions
            .values()
            .flat_map(|s| s.history.iter())
            .find(|(_, _, i)| *i == Some(id))?;
        let frame: Value = serde_json::from_str(frame).ok()?;
        Some(frame["d"].clone())
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().requests.clone()
    }

    /// Requests whose method is `method` and whose path starts with `path_prefix`.
    pub fn requests_to(&self, method: &str, path_prefix: &str) -> Vec<RecordedRequest> {
        self.state()
            .requests
            .iter()
            .filter(|r| r.method == method && r.path.starts_with(path_prefix))
            .cloned()
            .collect()
    }

    /// Answers the next `count` matching REST requests with `fault`. `GET /gateway` is never faulted.
    pub fn inject_fault(
        &self,
        fault: Fault,
        count: usize,
        method: Option<&str>,
        path_contains: Option<&str>,
    ) {
        self.state().faults.push(FaultRule {
            fault,
            remaining: count,
            method: method.map(str::to_string),
            path_contains: path_contains.map(str::to_string),
            kind: None,
        });
    }

    /// Holds the next `method` request whose path (after `/api/v10`) contains `path_contains`: it stays
    /// unanswered, carried out in nothing, until [`Hold::release`], then is refused with a 503 (as a
    /// request cut off by the bot's death would be). For killing a bot while a post is on its way.
    pub fn hold_next(&self, method: &str, path_contains: &str) -> Arc<Hold> {
        let hold = Arc::new(Hold::default());
        self.state().holds.push(HoldRule {
            method: method.to_string(),
            path_contains: path_contains.to_string(),
            hold: hold.clone(),
        });
        hold
    }

    /// Answers the next `count` requests that answer an interaction of `kind` (its callback, its
    /// follow-ups and edits) with `fault`.
    pub fn inject_fault_for(&self, fault: Fault, count: usize, kind: InteractionKind) {
        self.state().faults.push(FaultRule {
            fault,
            remaining: count,
            method: None,
            path_contains: None,
            kind: Some(kind),
        });
    }

    /// Faults injected but not used yet.
    pub fn pending_faults(&self) -> usize {
        self.state().faults.iter().map(|r| r.remaining).sum()
    }

    /// Breaks the bot's gateway connection. Dispatches made from now on are kept for replay on RESUME,
    /// and the bot's RESUME is answered only once the next dispatch has been queued, so that dispatch is
    /// always replayed (however fast the bot reconnects).
    pub fn drop_gateway(&self, mode: DropMode) -> bool {
        let mut state = self.state();
        let Some(session) = state.main_session() else {
            return false;
        };
        let Some(conn) = session.conn.take() else {
            return false;
        };
        session.hold_resume = true;
        let message = match mode {
            DropMode::Abrupt => Outgoing::Abort,
            DropMode::Close(code) => Outgoing::Close(code, "stand-in closed the connection".into()),
            DropMode::Reconnect => {
                Outgoing::Text(Arc::new(json!({"op": 7, "d": null}).to_string()), None)
            }
        };
        conn.tx.send(message).is_ok()
    }

    /// Gateway counters.
    pub fn gateway_stats(&self) -> GatewayStats {
        self.state().gateway.clone()
    }

    /// Waits until a session is connected and READY was sent.
    pub async fn wait_ready(&self, timeout: Duration) -> Result<(), String> {
        self.shared
            .wait_for(timeout, "the bot to identify", &[], |s| {
                s.sessions
                    .values()
                    .any(|sess| sess.conn.is_some())
                    .then_some(())
            })
            .await
    }

    /// Waits until `count` RESUMEs have been accepted and the session is connected again.
    pub async fn wait_resumed(&self, count: usize, timeout: Duration) -> Result<(), String> {
        self.shared
            .wait_for(timeout, "the bot to resume", &[], |s| {
                let guild = s.guild_id;
                let connected = s.sessions.values().any(|sess| {
                    State::shard_of(guild, sess.shard[1]) == sess.shard[0] && sess.conn.is_some()
                });
                (s.gateway.resumes >= count && connected).then_some(())
            })
            .await
    }

    /// Waits until a command named `name` is registered (globally or in the guild) and returns it.
    pub async fn wait_command(&self, name: &str, timeout: Duration) -> Result<Value, String> {
        self.shared
            .wait_for(
                timeout,
                &format!("command /{name} to be registered"),
                &[],
                |s| s.find_command(name).cloned(),
            )
            .await
    }

    /// Injects `/path options...` typed by `user` in `channel_id`. `path` is the command and its
    /// subcommands (`"sequence start"`); options are given by name as text and converted to the
    /// registered option types, as Discord's client does (unknown options, wrong types, choices not
    /// offered and missing required options are refused here, as Discord's client would).
    pub fn slash(
        &self,
        user: &FakeUser,
        channel_id: u64,
        path: &str,
        options: &[(&str, &str)],
    ) -> Result<Interaction, String> {
        let mut state = self.state();
        let data = state.command_data(path, options, None)?;
        state.inject(InteractionKind::Command, user, channel_id, data, None)
    }

    /// [`FakeDiscord::slash`] for a command the user gave `age` ago (delivered late, as after a gateway
    /// resume): its snowflake dates from then, and Discord's three seconds count from there.
    pub fn slash_aged(
        &self,
        user: &FakeUser,
        channel_id: u64,
        path: &str,
        options: &[(&str, &str)],
        age: Duration,
    ) -> Result<Interaction, String> {
        let mut state = self.state();
        let data = state.command_data(path, options, None)?;
        state.inject_aged(InteractionKind::Command, user, channel_id, data, None, age)
    }

    /// Delivers an interaction's dispatch once more, as a resumed gateway may replay it.
    pub fn redeliver(&self, interaction: &Interaction) -> Result<(), String> {
        let mut state = self.state();
        let payload = state
            .interactions
            .get(&interaction.id)
            .map(|i| i.payload.clone())
            .ok_or("unknown interaction")?;
        if state.dispatch("INTERACTION_CREATE", payload, Some(interaction.id)) {
            Ok(())
        } else {
            Err("no gateway session".into())
        }
    }

    /// Injects an autocomplete request: the user is typing `options` with the cursor in `focused`.
    pub fn autocomplete(
        &self,
        user: &FakeUser,
        channel_id: u64,
        path: &str,
        options: &[(&str, &str)],
        focused: &str,
    ) -> Result<Interaction, String> {
        let mut state = self.state();
        let data = state.command_data(path, options, Some(focused))?;
        state.inject(InteractionKind::Autocomplete, user, channel_id, data, None)
    }

    /// Injects a use of the user command (context menu, "Apps → `name`") on `target` by `user` in
    /// `channel_id`, as Discord sends it: an application command of type 2 whose data names the
    /// command, `target_id` and the target in `resolved.users` (and `resolved.members` in a server).
    /// Refused unless such a user command is registered.
    pub fn user_command(
        &self,
        user: &FakeUser,
        channel_id: u64,
        name: &str,
        target: &FakeUser,
    ) -> Result<Interaction, String> {
        let mut state = self.state();
        let command = state
            .find_command(name)
            .filter(|c| c["type"] == 2)
            .ok_or_else(|| format!("no user command {name:?} is registered"))?
            .clone();
        let target_user = state.users.get(&target.id).ok_or("no such user")?.clone();
        let id = target.id.to_string();
        let mut data = json!({
            "id": command["id"],
            "name": command["name"],
            "type": 2,
            "target_id": id,
            "resolved": {"users": {id.clone(): target_user.json()}},
        });
        if state
            .channels
            .get(&channel_id)
            .is_some_and(|c| !c.is_private())
        {
            let mut member = target_user.member_json(&model::timestamp_of(target.id), true);
            if let Some(m) = member.as_object_mut() {
                m.remove("user");
            }
            data["resolved"]["members"] = json!({ id: member });
        }
        if let Some(guild_id) = command.get("guild_id").filter(|g| !g.is_null()) {
            data["guild_id"] = guild_id.clone();
        }
        state.inject(InteractionKind::Command, user, channel_id, data, None)
    }

    /// Injects an interaction with raw command `data` (no schema checks), for hostile-input tests.
    pub fn raw_command(
        &self,
        user: &FakeUser,
        channel_id: u64,
        data: Value,
    ) -> Result<Interaction, String> {
        self.state()
            .inject(InteractionKind::Command, user, channel_id, data, None)
    }

    /// Injects a click of the button `custom_id` on message `message_id` by `user`. Refused if the
    /// message has no such button, or it is an ephemeral message shown to someone else.
    pub fn click(
        &self,
        user: &FakeUser,
        message_id: u64,
        custom_id: &str,
    ) -> Result<Interaction, String> {
        self.component(user, message_id, custom_id, None)
    }

    /// A message in `channel` as if the bot had posted it, with these action rows: for tests of
    /// presses on components the bot would never make (a forged or outdated custom id).
    pub fn add_bot_message(&self, channel_id: u64, components: Value) -> u64 {
        let mut state = self.state();
        let id = state.snowflake();
        let message = StoredMessage {
            id,
            channel_id,
            content: "forged".into(),
            embeds: json!([]),
            components,
            attachments: Vec::new(),
            flags: 0,
            interaction_id: None,
            allowed_mentions: Value::Null,
            edits: 0,
            earlier: Vec::new(),
            deleted: false,
            created: Instant::now(),
            notified: Vec::new(),
            forced_ephemeral: false,
        };
        state.add_message(message)
    }

    /// [`FakeDiscord::add_bot_message`] with one primary button.
    pub fn add_bot_button(&self, channel_id: u64, label: &str, custom_id: &str) -> u64 {
        self.add_bot_message(
            channel_id,
            json!([{"type": 1, "components": [
                {"type": 2, "style": 1, "label": label, "custom_id": custom_id}]}]),
        )
    }

    /// Marks a message deleted (as if removed in the client), so that it is no longer taken for the
    /// channel's latest.
    pub fn remove_message(&self, message_id: u64) {
        if let Some(message) = self.state().messages.get_mut(&message_id) {
            message.deleted = true;
        }
    }

    /// Injects a choice of `values` in the select menu `custom_id` on message `message_id`.
    pub fn select(
        &self,
        user: &FakeUser,
        message_id: u64,
        custom_id: &str,
        values: &[&str],
    ) -> Result<Interaction, String> {
        self.component(user, message_id, custom_id, Some(values))
    }

    fn component(
        &self,
        user: &FakeUser,
        message_id: u64,
        custom_id: &str,
        values: Option<&[&str]>,
    ) -> Result<Interaction, String> {
        let mut state = self.state();
        let message = state
            .messages
            .get(&message_id)
            .ok_or_else(|| format!("no message {message_id}"))?;
        if message.deleted {
            return Err("the message was deleted".into());
        }
        let Some(component) = message.component(custom_id) else {
            return Err(format!(
                "message {message_id} has no component {custom_id:?} (has {:?})",
                message.custom_ids()
            ));
        };
        // What a Discord client lets a user do: press an enabled button, or choose between
        // `min_values` and `max_values` (default 1) of a menu's offered values.
        if component["disabled"] == true {
            return Err(format!("{custom_id:?} is disabled"));
        }
        match (component["type"].as_u64(), values) {
            (Some(2), None) => {}
            (Some(3), Some(values)) => {
                let offered: Vec<&str> = component["options"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|o| o["value"].as_str())
                    .collect();
                if let Some(bad) = values.iter().find(|v| !offered.contains(v)) {
                    return Err(format!("{bad:?} is not an option of {custom_id:?}"));
                }
                let min = component["min_values"].as_u64().unwrap_or(1) as usize;
                let max = component["max_values"].as_u64().unwrap_or(1) as usize;
                if !(min..=max).contains(&values.len()) {
                    return Err(format!(
                        "{custom_id:?} takes {min} to {max} values, not {}",
                        values.len()
                    ));
                }
            }
            (kind, _) => {
                return Err(format!(
                    "{custom_id:?} (type {kind:?}) is not pressed that way: values {values:?}"
                ))
            }
        }
        if message.is_ephemeral() {
            let owner = message
                .interaction_id
                .and_then(|i| state.interactions.get(&i))
                .map(|i| i.user_id);
            if owner != Some(user.id) {
                return Err("only the interaction's user sees this ephemeral message".into());
            }
        }
        let channel_id = message.channel_id;
        let mut data = json!({"custom_id": custom_id, "component_type": 2});
        if let Some(values) = values {
            data["component_type"] = json!(3);
            data["values"] = json!(values);
        }
        state.inject(
            InteractionKind::Component,
            user,
            channel_id,
            data,
            Some(message_id),
        )
    }

    /// The state of an interaction.
    pub fn interaction(&self, id: u64) -> Option<InteractionState> {
        self.state().interactions.get(&id).cloned()
    }

    /// Waits for the bot's callback to an interaction.
    pub async fn wait_callback(
        &self,
        interaction: &Interaction,
        timeout: Duration,
    ) -> Result<Callback, String> {
        let id = interaction.id;
        let result = self
            .shared
            .wait_for(
                timeout,
                &format!("the callback to interaction {id}"),
                &[id],
                |s| s.interactions.get(&id).and_then(|i| i.callback.clone()),
            )
            .await;
        result.map_err(|e| format!("{e} ({})", self.describe(id)))
    }

    /// What became of an interaction, for failure messages.
    pub fn describe(&self, id: u64) -> String {
        match self.interaction(id) {
            Some(i) => format!(
                "{:?} by {}: delivered {} time(s){}, callback {:?}, refused {:?}, original {:?}, follow-ups {:?}",
                i.kind,
                i.user_id,
                i.deliveries,
                i.dispatched.map_or(String::new(), |d| format!(" {:?} ago", d.elapsed())),
                i.callback.as_ref().map(|c| c.kind),
                i.refused_callbacks,
                i.original,
                i.followups
            ),
            None => "unknown interaction".into(),
        }
    }

    /// Waits for the visible answer to an interaction: the response message (after a deferral, once
    /// the bot has edited it), or for components the message as updated. Autocomplete and modal
    /// callbacks have no message: use [`Self::wait_callback`].
    pub async fn wait_reply(
        &self,
        interaction: &Interaction,
        timeout: Duration,
    ) -> Result<StoredMessage, String> {
        let id = interaction.id;
        self.shared
            .wait_for(
                timeout,
                &format!("the reply to interaction {id}"),
                &[id],
                |s| {
                    let i = s.interactions.get(&id)?;
                    let callback = i.callback.as_ref()?;
                    let message_id = match callback.kind {
                        4 | 5 => i.original?,
                        7 => i.followups.first().copied().or(i.message_id)?,
                        // A deferred update: its follow-up, or the clicked message once this
                        // interaction edited it.
                        6 => i
                            .followups
                            .first()
                            .copied()
                            .or(i.message_id.filter(|_| i.edited_original))?,
                        _ => return None,
                    };
                    // Seen once its request's answer leaves, as a client sees it.
                    if s.unanswered.contains(&message_id) {
                        return None;
                    }
                    let message = s.messages.get(&message_id)?;
                    if callback.kind == 5 && message.flags & 128 != 0 {
                        return None; // still "thinking"
                    }
                    Some(message.clone())
                },
            )
            .await
            .map_err(|e| format!("{e} ({})", self.describe(id)))
    }

    /// Messages in a channel, oldest first (deleted ones left out).
    pub fn messages_in(&self, channel_id: u64) -> Vec<StoredMessage> {
        self.state()
            .messages_in(channel_id)
            .into_iter()
            .cloned()
            .collect()
    }

    /// Messages the bot sent to `user_id` in DMs, oldest first.
    pub fn dms_to(&self, user_id: u64) -> Vec<StoredMessage> {
        let channel = self.state().dm_channel_of(user_id);
        channel.map(|c| self.messages_in(c)).unwrap_or_default()
    }

    /// A message as it is now (not before its post is answered).
    pub fn message(&self, id: u64) -> Option<StoredMessage> {
        let state = self.state();
        if state.unanswered.contains(&id) {
            return None;
        }
        state.messages.get(&id).cloned()
    }

    /// Dispatch-to-callback times of every answered interaction, in order of creation.
    pub fn latencies(&self) -> Vec<Duration> {
        let state = self.state();
        let mut all: Vec<&InteractionState> = state.interactions.values().collect();
        all.sort_by_key(|i| i.id);
        all.iter().filter_map(|i| i.latency()).collect()
    }
}

impl State {
    /// A registered command named `name` (global first, then the guild's).
    pub fn find_command(&self, name: &str) -> Option<&Value> {
        self.global_commands
            .iter()
            .chain(self.guild_commands.values().flatten())
            .find(|c| c["name"] == name)
    }

    fn command_data(
        &mut self,
        path: &str,
        options: &[(&str, &str)],
        focused: Option<&str>,
    ) -> Result<Value, String> {
        let mut words = path.split_whitespace();
        let name = words.next().ok_or("empty command path")?;
        let command = self
            .find_command(name)
            .ok_or_else(|| format!("/{name} is not registered"))?
            .clone();
        let mut schema = &command;
        let mut chain: Vec<&Value> = Vec::new();
        for word in words {
            let sub = schema["options"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|o| o["name"] == word && (o["type"] == 1 || o["type"] == 2))
                .ok_or_else(|| format!("/{path}: no subcommand {word:?}"))?;
            chain.push(sub);
            schema = sub;
        }
        let schema_options: Vec<Value> = schema["options"].as_array().cloned().unwrap_or_default();
        if schema_options
            .iter()
            .any(|o| o["type"] == 1 || o["type"] == 2)
        {
            return Err(format!("/{path} needs a subcommand"));
        }
        let mut resolved = json!({});
        let mut leaf = Vec::new();
        for (key, text) in options {
            let spec = schema_options
                .iter()
                .find(|o| o["name"] == *key)
                .ok_or_else(|| format!("/{path} has no option {key:?}"))?;
            let kind = spec["type"].as_u64().unwrap_or(3);
            let is_focused = focused == Some(*key);
            let value = if is_focused {
                Value::String(text.to_string())
            } else {
                self.option_value(spec, kind, text, &mut resolved)
                    .map_err(|e| format!("/{path} {key}: {e}"))?
            };
            let mut option = json!({"name": key, "type": kind, "value": value});
            if is_focused {
                option["focused"] = json!(true);
            }
            leaf.push(option);
        }
        if focused.is_none() {
            for spec in &schema_options {
                if spec["required"] == true && !options.iter().any(|(k, _)| spec["name"] == *k) {
                    return Err(format!("/{path}: required option {} missing", spec["name"]));
                }
            }
        } else if let Some(f) = focused {
            if !options.iter().any(|(k, _)| *k == f) {
                return Err(format!("focused option {f:?} not among the options"));
            }
        }
        // Wrap the leaf options in their subcommand (group) objects, innermost first.
        let mut options_value = Value::Array(leaf);
        for sub in chain.iter().rev() {
            options_value =
                json!([{"name": sub["name"], "type": sub["type"], "options": options_value}]);
        }
        let mut data = json!({
            "id": command["id"],
            "name": command["name"],
            "type": command["type"].as_u64().unwrap_or(1),
            "options": options_value,
        });
        if let Some(guild_id) = command.get("guild_id").filter(|g| !g.is_null()) {
            data["guild_id"] = guild_id.clone();
        }
        if resolved.as_object().is_some_and(|o| !o.is_empty()) {
            data["resolved"] = resolved;
        }
        Ok(data)
    }

    fn option_value(
        &self,
        spec: &Value,
        kind: u64,
        text: &str,
        resolved: &mut Value,
    ) -> Result<Value, String> {
        // With choices, the user picks one by its shown name (Discord sends the choice's value): the
        // name, or its translation, or the one choice that contains what they typed, as Discord's
        // client filters the list while typing.
        if let Some(choices) = spec["choices"].as_array().filter(|c| !c.is_empty()) {
            let shown = |c: &Value| {
                let mut names = vec![c["name"].as_str().unwrap_or("").to_string()];
                if let Some(localized) = c["name_localizations"].as_object() {
                    names.extend(
                        localized
                            .values()
                            .filter_map(|v| v.as_str().map(str::to_string)),
                    );
                }
                names
            };
            if let Some(choice) = choices.iter().find(|c| shown(c).iter().any(|n| n == text)) {
                return Ok(choice["value"].clone());
            }
            let typed = text.to_lowercase();
            let matching: Vec<&Value> = choices
                .iter()
                .filter(|c| shown(c).iter().any(|n| n.to_lowercase().contains(&typed)))
                .collect();
            if let [choice] = matching.as_slice() {
                return Ok(choice["value"].clone());
            }
        }
        let value = match kind {
            3 => {
                let len = text.chars().count() as u64;
                if spec["min_length"].as_u64().is_some_and(|m| len < m)
                    || spec["max_length"].as_u64().is_some_and(|m| len > m)
                {
                    return Err("length out of the allowed range".into());
                }
                Value::String(text.to_string())
            }
            4 => {
                let n: i64 = text.trim().parse().map_err(|_| "not an integer")?;
                if spec["min_value"].as_f64().is_some_and(|m| (n as f64) < m)
                    || spec["max_value"].as_f64().is_some_and(|m| (n as f64) > m)
                {
                    return Err("out of the allowed range".into());
                }
                json!(n)
            }
            5 => json!(text.parse::<bool>().map_err(|_| "not true/false")?),
            6 | 9 => {
                let id: u64 = text
                    .trim_start_matches("<@")
                    .trim_start_matches('!')
                    .trim_end_matches('>')
                    .parse()
                    .map_err(|_| "not a user id")?;
                let user = self.users.get(&id).ok_or("no such user")?;
                resolved["users"][id.to_string()] = user.json();
                let mut member = user.member_json(&model::timestamp_of(id), true);
                if let Some(m) = member.as_object_mut() {
                    m.remove("user");
                }
                resolved["members"][id.to_string()] = member;
                Value::String(id.to_string())
            }
            7 => {
                let id: u64 = text
                    .trim_start_matches("<#")
                    .trim_end_matches('>')
                    .parse()
                    .map_err(|_| "not a channel id")?;
                let channel = self.channel_json(id).ok_or("no such channel")?;
                resolved["channels"][id.to_string()] = channel;
                Value::String(id.to_string())
            }
            10 => json!(text.trim().parse::<f64>().map_err(|_| "not a number")?),
            other => return Err(format!("option type {other} not supported by the stand-in")),
        };
        if let Some(choices) = spec["choices"].as_array().filter(|c| !c.is_empty()) {
            if !choices.iter().any(|c| c["value"] == value) {
                return Err(format!("{value} is not one of the offered choices"));
            }
        }
        Ok(value)
    }

    fn inject(
        &mut self,
        kind: InteractionKind,
        user: &FakeUser,
        channel_id: u64,
        data: Value,
        message_id: Option<u64>,
    ) -> Result<Interaction, String> {
        self.inject_aged(kind, user, channel_id, data, message_id, Duration::ZERO)
    }

    /// [`State::inject`] for a user action `age` ago: the interaction's snowflake (and so Discord's
    /// three seconds) dates from then, as for an interaction delivered late.
    fn inject_aged(
        &mut self,
        kind: InteractionKind,
        user: &FakeUser,
        channel_id: u64,
        data: Value,
        message_id: Option<u64>,
        age: Duration,
    ) -> Result<Interaction, String> {
        let user = self
            .users
            .get(&user.id)
            .cloned()
            .ok_or("unknown user (add it with add_user)")?;
        let channel = self
            .channels
            .get(&channel_id)
            .cloned()
            .ok_or("unknown channel")?;
        let (context, guild) = self.context_of(&user, channel_id)?;
        let owners = match (kind, message_id) {
            (InteractionKind::Component | InteractionKind::ModalSubmit, Some(message)) => {
                self.component_owners(message)
            }
            _ => {
                let command = data["name"]
                    .as_str()
                    .and_then(|name| self.find_command(name))
                    .cloned();
                self.command_owners(&user, channel_id, command.as_ref())?
            }
        };
        let user_install_only = owners.get("1").is_some() && owners.get("0").is_none();
        // Use External Apps off (or no Send Messages for the user): the answers of an app installed
        // only by the user are ephemeral (change log 2024-06-27; topics/permissions, USE_EXTERNAL_APPS;
        // resources/application, "User Context").
        let forced_ephemeral = user_install_only
            && guild.is_some_and(|g| {
                !self.external_apps_allowed(g) || user.permissions & perm::SEND_MESSAGES == 0
            });
        let mut data = data;
        if context != 0 {
            // Outside a server there are no members to resolve.
            if let Some(resolved) = data.get_mut("resolved").and_then(Value::as_object_mut) {
                resolved.remove("members");
            }
        }
        let id = if age.is_zero() {
            self.snowflake()
        } else {
            // Time-shaped from the past; the low bits keep it unique.
            let then = now_ms().saturating_sub(u64::try_from(age.as_millis()).unwrap_or(u64::MAX));
            let low = self.snowflake() & 0x3F_FFFF;
            (then.saturating_sub(DISCORD_EPOCH_MS) << 22) | low
        };
        let guild_id = guild.unwrap_or(self.guild_id);
        let token = format!(
            "aW50ZXJhY3Rpb246{id}.{:016x}",
            id.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        );
        let mut payload = json!({
            "id": id.to_string(),
            "application_id": self.config.application_id.to_string(),
            "type": kind.code(),
            "data": data,
            "channel_id": channel_id.to_string(),
            "token": token,
            "version": 1,
            "app_permissions": self.app_permissions(&user, channel_id).to_string(),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": 10_485_760,
            "context": context,
            "authorizing_integration_owners": owners,
        });
        if channel.is_private() {
            payload["user"] = user.json();
            payload["channel"] = self.channel_json(channel_id).unwrap_or(Value::Null);
        } else {
            let permissions = self.member_permissions(&user, guild_id);
            let mut partial = channel.interaction_json(guild_id, self.channel_position(channel_id));
            partial["permissions"] = json!(permissions.to_string());
            payload["channel"] = partial;
            payload["guild_id"] = json!(guild_id.to_string());
            payload["guild_locale"] = json!("en-US");
            let mut member = user.member_json(&model::timestamp_of(user.id), true);
            member["permissions"] = json!(permissions.to_string());
            payload["member"] = member;
        }
        if let Some(message_id) = message_id {
            payload["message"] = self.message_json(message_id).ok_or("no such message")?;
        }
        self.interactions.insert(
            id,
            InteractionState {
                id,
                token: token.clone(),
                kind,
                user_id: user.id,
                channel_id,
                message_id,
                created: self
                    .clock()
                    .checked_sub(age)
                    .unwrap_or_else(|| self.clock()),
                dispatched: None,
                deliveries: 0,
                callback: None,
                refused_callbacks: Vec::new(),
                original: None,
                followups: Vec::new(),
                edited_original: false,
                payload: payload.clone(),
                context,
                authorizing_integration_owners: payload["authorizing_integration_owners"].clone(),
                forced_ephemeral,
                refused_followups: Vec::new(),
            },
        );
        self.tokens.insert(token.clone(), id);
        if !self.dispatch("INTERACTION_CREATE", payload, Some(id)) {
            return Err("no gateway session: the bot has not identified".into());
        }
        Ok(Interaction {
            id,
            token,
            user_id: user.id,
            channel_id,
        })
    }
}
