//! The Discord adapter: poise slash commands, buttons, and the timer loop, translating to and from
//! [`crate::service`]. No game logic lives here. This file holds the shared types and the Discord
//! face's start-up ([`Bot`]): what only Discord needs (the token, the shards, the gateway) around the
//! start every face shares ([`crate::app`]: the listener, the store opened and every table restored),
//! then the restart notes posted.
//!
//! An interaction flows `commands` / `press` (decode, who asks) -> `answer::serve` (acknowledge,
//! ask the service through `interaction`, answer as `answer::plan` decides) -> `outgoing` (a message
//! made ready) and `post` (what goes to the channel, the lobby, DMs; the timer loop).

pub mod activity;
mod answer;
mod commands;
pub mod gateway;
mod interaction;
mod localize;
mod outgoing;
mod post;
mod press;
mod relay;
mod retry;
mod window;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::app::config::{self, BotConfig, ShardPlan};
use crate::app::error::StartError;
use crate::app::paint::{painter, Painter};
use crate::app::start::{stop_signal, App, LogLayer, Program};
use crate::service::{ChannelId, Reply, Tables, Text, Timestamp};
use crate::store::ShardSet;

/// Errors of command handlers (anything; user-facing refusals come from the service instead).
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// The poise context of our commands.
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// Why the bot could not start or stopped: the start every face shares, or Discord.
#[derive(Debug, thiserror::Error)]
pub enum DiscordError {
    /// The configuration or the store (see [`StartError`]).
    #[error(transparent)]
    Start(#[from] StartError),
    /// Discord refused the token.
    #[error("Discord refused the token: it is wrong or was reset. Copy a new one from the developer portal (your application → Bot → Reset Token)")]
    TokenRejected,
    /// Discord refused the gateway intents.
    #[error("Discord refused the gateway intents: {0}")]
    Intents(String),
    /// Connecting failed.
    #[error("could not connect to Discord: {0}")]
    Connect(String),
    /// Registering the commands failed.
    #[error("could not register the slash commands: {0}")]
    Register(String),
    /// The hold on this process's shards was lost (its database connection failed).
    #[error("lost the hold on {0}: the PostgreSQL connection holding it failed, and another process may have taken it over, so this one stopped rather than touch those tables. Start it again: it claims its shards afresh (or waits for the process that has them)")]
    ShardsLost(String),
}

impl DiscordError {
    /// The process's exit code: 2 for what the configuration must fix, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            DiscordError::Start(e) => e.exit_code(),
            _ => 1,
        }
    }
}

/// The Discord face, started by [`crate::app::start::launch`]: the token's shape is checked before
/// anything starts, the gateway watch is added to the log, and [`run`] runs the bot.
pub struct Bot;

impl Program for Bot {
    type Error = DiscordError;

    fn log_layer(&self) -> Option<LogLayer> {
        // The health check's view of the gateway, whatever RUST_LOG lets through to the log.
        Some(gateway::watch_layer())
    }

    fn check(&self, config: &BotConfig) -> Result<(), String> {
        config
            .checked_token()
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn run(self, config: BotConfig) -> impl std::future::Future<Output = Result<(), DiscordError>> {
        run(config)
    }

    fn exit_code(error: &DiscordError) -> i32 {
        error.exit_code()
    }
}

/// A refusal to show to the user only (not logged as an error).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UserError(pub Text);

/// Shared state of every handler.
#[derive(Clone)]
pub struct Data {
    /// Every channel's table.
    pub tables: Arc<Tables>,
    /// Draws the images.
    pub painter: Arc<dyn Painter>,
    /// Images drawn at once: one per core. Drawing is CPU work; more at once would only hold more
    /// image buffers in memory and take the cores the interactions are answered on.
    drawing: Arc<tokio::sync::Semaphore>,
    /// Replay animations drawn at once: one. Each holds a few whole board images while it is drawn and
    /// none is urgent (it follows a final message), so they queue rather than add up in memory.
    replays: Arc<tokio::sync::Semaphore>,
    /// The tokens of channels where the bot may only answer interactions, and what waits there.
    relays: Arc<relay::Relays>,
}

impl Data {
    /// Handler state around a service.
    pub fn new(tables: Arc<Tables>, painter: Arc<dyn Painter>) -> Data {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Data {
            tables,
            painter,
            drawing: Arc::new(tokio::sync::Semaphore::new(cores)),
            replays: Arc::new(tokio::sync::Semaphore::new(1)),
            relays: Arc::new(relay::Relays::default()),
        }
    }
}

/// Set when the start-up (command registration) failed, so `run` can report it.
static SETUP_FAILED: OnceLock<String> = OnceLock::new();

/// Tests only: a face started beside Discord on the same service, with the default game (the command
/// line sets it before [`run`]: the console, see `console::spawn_beside`).
pub static BESIDE: OnceLock<fn(Arc<Tables>, crate::engine::Variant)> = OnceLock::new();

/// The parent command with all subcommands, the settings, and the user command on the context menu
/// ("Apps → Sequence profile"), as registered with Discord: descriptions, and the German and
/// Norwegian names and descriptions, come from the translation files.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    let mut commands = vec![
        commands::sequence(),
        commands::settings(),
        commands::profile_menu(),
        commands::challenge_menu(),
    ];
    commands.iter_mut().for_each(localize::localize);
    commands
}

/// Runs the bot until it is stopped (Ctrl-C or SIGTERM) or Discord ends the connection. With
/// `[sharding]`, only this process's shards: their tables are restored and played here, their
/// gateway connections opened here, and they are held in the database for as long as the process
/// runs (released when it stops; if the hold is lost, the process stops with an error).
pub async fn run(config: BotConfig) -> Result<(), DiscordError> {
    run_with_painter(config, painter()).await
}

/// [`run`] with the images drawn by `painter` (tests hold drawing up with one of their own).
pub async fn run_with_painter(
    config: BotConfig,
    painter: Arc<dyn Painter>,
) -> Result<(), DiscordError> {
    config.validate()?;
    let token = config.checked_token()?.to_string();
    let plan = config.sharding.plan()?;
    // The listener comes first, so that `/readyz` tells "restoring" while the tables are restored.
    let starting = App::start(config, painter).await?;
    let gateway = Arc::new(gateway::Gateway::default());
    if let Some(health) = starting.health() {
        health.set_probe(gateway.clone());
    }
    // Ask Discord who we are before connecting the gateway: a refused token then gives a clear error
    // at once instead of a reconnect loop.
    // Defence in depth: a message that does not say whom it may ping pings nobody (never @everyone,
    // @here or a role); the deliberate user pings name their users (see `deliver`).
    let mut http = serenity::HttpBuilder::new(&token)
        .default_allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Some(client) = http_client(&starting.config().network)? {
        http = http.client(client);
    }
    let http = http.build();
    let (shards, name) = match plan {
        ShardPlan::Single => (ShardSet::SINGLE, None),
        ShardPlan::Fixed(set) => (set, None),
        ShardPlan::Auto => {
            // What `start_autosharded` asks, asked here: the tables of every shard are restored
            // (and held) before the first gateway connection.
            let name = check_token(&http, LOGIN_TIMEOUT).await?;
            let total = recommended_shards(&http, LOGIN_TIMEOUT).await?;
            let set = ShardSet::all(total)
                .map_err(|e| DiscordError::Connect(format!("GET /gateway/bot: {e}")))?;
            (set, Some(name))
        }
    };
    let app = starting.open(shards).await?;
    // The Activity: its button from now on, its sign-in once the application is known (`setup`).
    app.tables.set_activity(app.config.activity_on());
    let claim = app.claim.clone();
    let result = run_shards(app, http, name, plan, gateway).await;
    App::release(claim).await;
    result
}

/// The gateway part of [`run`], once the tables are restored and the shards held; `gateway` is the
/// health check's view of the shards (filled in once the client exists).
async fn run_shards(
    app: App,
    http: serenity::Http,
    name: Option<String>,
    plan: ShardPlan,
    gateway: Arc<gateway::Gateway>,
) -> Result<(), DiscordError> {
    let App {
        config,
        tables,
        restored,
        claim,
        painter,
        health,
        ..
    } = app;
    let notes = restored.notes;
    let data = Data::new(tables, painter);
    if let Some(start) = BESIDE.get() {
        // Tests only: a second face of the same service (subscribed before the host starts, so it
        // sees every event).
        start(data.tables.clone(), config.defaults.game);
    }
    let dev_guild = config.dev_guild;
    let timers = config.timers.clone();
    let activity_on = config.activity_on();
    let client_secret = config
        .activity
        .checked_secret()?
        .filter(|_| activity_on)
        .map(str::to_string);
    let activity_client = activity::http_client(&config.network)?;
    let bot_token = config.checked_token()?.to_string();
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands(),
            on_error: |error| Box::pin(on_error(error)),
            // poise's default lets a reply ping every user it mentions; ours ping only whom they
            // name (as the HTTP client's default above).
            allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
            event_handler: |ctx, event, _framework, data| {
                Box::pin(async move {
                    if let serenity::FullEvent::Ready { data_about_bot } = event {
                        log_shard_ready(ctx, data_about_bot);
                    }
                    press::on_event(ctx, event, data).await
                })
            },
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                tracing::info!(
                    bot = %ready.user.name,
                    guilds = ready.guilds.len(),
                    "connected to Discord"
                );
                let commands = &framework.options().commands;
                match dev_guild {
                    Some(guild) => {
                        serenity::GuildId::new(guild)
                            .set_commands(ctx, localize::application_commands(commands))
                            .await?;
                        tracing::info!(guild, "commands registered in the development guild");
                    }
                    None => {
                        // The app's entry point is sent along: Discord refuses (50240) an
                        // overwrite that would drop it.
                        let existing = serenity::Command::get_global_commands(ctx).await?;
                        serenity::Command::set_global_commands(
                            ctx,
                            activity::with_entry_point(
                                localize::application_commands(commands),
                                &existing,
                                activity_on,
                            ),
                        )
                        .await?;
                        tracing::info!("commands registered globally");
                    }
                }
                activity::provide(
                    ready.application.id.get(),
                    client_secret.as_deref(),
                    &bot_token,
                    activity_client,
                    ctx.cache.clone(),
                );
                // Subscribed before anything is published: the timers, the computer players and the
                // notes' computer moves come as the host's events.
                data.tables.spawn_face(post::Discord::new(ctx, &data));
                tokio::spawn(post_restart_notes(ctx.clone(), data.clone(), notes));
                data.tables.spawn_host(timers.tick(), timers.bot_delay());
                Ok(data)
            })
        })
        .build();
    if name.is_none() {
        let name = check_token(&http, LOGIN_TIMEOUT).await?;
        tracing::info!(bot = %name, "token accepted");
    }
    let intents = serenity::GatewayIntents::GUILDS;
    let mut builder = serenity::ClientBuilder::new_with_http(http, intents).framework(framework);
    if health.is_some() {
        // Rate-limit waits and shard connection changes reach event handlers only (not poise).
        builder = builder.event_handler(gateway::GatewayMetrics::default());
    }
    let mut client = builder
        .await
        .map_err(|e| DiscordError::Connect(e.to_string()))?;
    if health.is_some() {
        gateway.set(claim.shards(), client.shard_manager.clone());
    }
    let shards = client.shard_manager.clone();
    tokio::spawn(async move {
        stop_signal().await;
        tracing::info!("stopping");
        shards.shutdown_all().await;
    });
    let shards = client.shard_manager.clone();
    let watched = claim.clone();
    tokio::spawn(async move {
        // A lost hold (its database connection failed): another process may own these tables now.
        // The service already leaves them alone; the process stops so that its supervisor starts it
        // again and it claims them afresh (or finds them taken).
        while watched.is_held() {
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        if SHARDS_LOST.set(watched.shards().to_string()).is_ok() {
            shards.shutdown_all().await;
        }
    });
    let result = match plan {
        ShardPlan::Single => client.start().await,
        ShardPlan::Auto => client.start_shards(claim.shards().total()).await,
        ShardPlan::Fixed(set) if set.first() == set.last() => {
            client.start_shard(set.first(), set.total()).await
        }
        // serenity 0.12 starts `range.start..=range.end`: the end of the range is the last shard
        // (tests/e2e_shards.rs checks which shards identify).
        ShardPlan::Fixed(set) => {
            client
                .start_shard_range(set.first()..set.last(), set.total())
                .await
        }
    };
    if let Some(reason) = SETUP_FAILED.get() {
        return Err(DiscordError::Register(reason.clone()));
    }
    // `release` below marks the claim as no longer held: the watch must not take that for a loss.
    if let Some(shards) = SHARDS_LOST.get() {
        return Err(DiscordError::ShardsLost(shards.clone()));
    }
    SHARDS_LOST.set(String::new()).ok();
    result.map_err(start_error)
}

/// Restart notes taken from the queue per pass: each is charged to its server's budget just before
/// it is posted, so a pass is kept short.
const NOTES_PER_PASS: usize = 16;

/// How long the notes wait when every server with notes left has spent its posting budget.
const NOTES_WAIT: Duration = Duration::from_millis(500);

/// Posts the notes of a restart ("resumed", or "could not be restored"), newest activity first (the
/// order [`Tables::restore_from_store`] gives them), as each server's posting budget allows, and
/// starts the computer players that are due. Runs as a task of its own, one note at a time (one board
/// drawn at a time): moves in restored channels are answered meanwhile, and the timer plays their
/// due computer moves whether or not their note is out yet.
async fn post_restart_notes(ctx: serenity::Context, data: Data, notes: Vec<(ChannelId, Reply)>) {
    let total = notes.len();
    let mut pending: std::collections::VecDeque<_> = notes.into();
    let started = std::time::Instant::now();
    while !pending.is_empty() {
        let ready = data
            .tables
            .notes_to_post(&mut pending, Timestamp::now(), NOTES_PER_PASS);
        if ready.is_empty() {
            tokio::time::sleep(NOTES_WAIT).await;
            continue;
        }
        for (channel, reply) in ready {
            post::send_unprompted(&ctx, &data, channel, reply).await;
        }
    }
    if total > 0 {
        tracing::info!(
            notes = total,
            seconds = started.elapsed().as_secs(),
            "restart notes posted"
        );
    }
}

/// Set when the hold on this process's shards was lost (their description), so `run` can report it.
static SHARDS_LOST: OnceLock<String> = OnceLock::new();

/// Logs each shard's connection: with several, the health of every one shows in the log.
fn log_shard_ready(ctx: &serenity::Context, ready: &serenity::Ready) {
    let [id, total] = ready.shard.map_or([0, 1], |s| [s.id.0, s.total]);
    tracing::info!(
        shard = id,
        total,
        guilds = ready.guilds.len(),
        "shard {id} of {total} connected to Discord (session {})",
        ctx.shard_id
    );
}

/// The shard count Discord recommends for the bot (`GET /gateway/bot`).
async fn recommended_shards(http: &serenity::Http, limit: Duration) -> Result<u32, DiscordError> {
    match tokio::time::timeout(limit, http.get_bot_gateway()).await {
        Ok(Ok(gateway)) => {
            tracing::info!(
                shards = gateway.shards,
                "Discord recommends {} shard(s)",
                gateway.shards
            );
            Ok(gateway.shards.max(1))
        }
        Ok(Err(e)) => Err(start_error(e)),
        Err(_) => Err(DiscordError::Connect(format!(
            "no answer from Discord (GET /gateway/bot) within {} seconds",
            limit.as_secs()
        ))),
    }
}

/// The HTTP client for Discord's REST API when `[network]` asks for a proxy or extra roots; `None`
/// lets serenity build its usual one.
fn http_client(network: &config::Network) -> Result<Option<reqwest::Client>, StartError> {
    if network.https_proxy.is_none() && network.extra_root_certificates.is_none() {
        return Ok(None);
    }
    client_builder(network)?
        .build()
        .map(Some)
        .map_err(|e| StartError::Config(format!("network: {e}")))
}

/// A client for Discord as `[network]` asks: through its proxy, trusting its extra roots.
fn client_builder(network: &config::Network) -> Result<reqwest::ClientBuilder, StartError> {
    let mut builder = reqwest::Client::builder().use_rustls_tls();
    if let Some(proxy) = &network.https_proxy {
        let proxy = reqwest::Proxy::https(proxy.as_str())
            .map_err(|e| StartError::Config(format!("network.https_proxy: {e}")))?;
        builder = builder.proxy(proxy);
    }
    if let Some(path) = &network.extra_root_certificates {
        let pem = std::fs::File::open(path)
            .and_then(|f| crate::files::read_capped(f, 4 * 1024 * 1024))
            .map_err(|e| {
                StartError::Config(format!(
                    "network.extra_root_certificates: cannot read {}: {e}",
                    path.display()
                ))
            })?
            .ok_or_else(|| {
                StartError::Config(format!(
                    "network.extra_root_certificates: {} is larger than 4 MiB",
                    path.display()
                ))
            })?
            .into_bytes();
        let certificates = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
            StartError::Config(format!(
                "network.extra_root_certificates: {} is not PEM: {e}",
                path.display()
            ))
        })?;
        if certificates.is_empty() {
            return Err(StartError::Config(format!(
                "network.extra_root_certificates: no certificate in {}",
                path.display()
            )));
        }
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    Ok(builder)
}

/// How long the token check may take.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(30);

/// Asks Discord for the bot's own user: `TokenRejected` on 401, `Connect` when Discord is unreachable.
async fn check_token(http: &serenity::Http, limit: Duration) -> Result<String, DiscordError> {
    match tokio::time::timeout(limit, http.get_current_user()).await {
        Ok(Ok(user)) => Ok(user.name.clone()),
        Ok(Err(e)) => Err(start_error(e)),
        Err(_) => Err(DiscordError::Connect(format!(
            "no answer from Discord within {} seconds",
            limit.as_secs()
        ))),
    }
}

/// A clear error for a failed connection.
fn start_error(error: serenity::Error) -> DiscordError {
    match error {
        serenity::Error::Gateway(serenity::GatewayError::InvalidAuthentication) => {
            DiscordError::TokenRejected
        }
        serenity::Error::Gateway(
            e @ (serenity::GatewayError::InvalidGatewayIntents
            | serenity::GatewayError::DisallowedGatewayIntents),
        ) => DiscordError::Intents(e.to_string()),
        serenity::Error::Http(e) if e.status_code().map(|s| s.as_u16()) == Some(401) => {
            DiscordError::TokenRejected
        }
        other => DiscordError::Connect(other.to_string()),
    }
}

/// Errors of commands: user errors are shown privately, anything else is logged and the user gets a
/// short apology.
async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Setup {
            error, framework, ..
        } => {
            tracing::error!("start-up failed: {error}");
            let _ = SETUP_FAILED.set(error.to_string());
            framework.shard_manager().shutdown_all().await;
        }
        poise::FrameworkError::Command { error, ctx, .. } => {
            let text = match error.downcast_ref::<UserError>() {
                Some(UserError(text)) => text.clone(),
                None => {
                    tracing::error!(
                        command = %ctx.command().qualified_name,
                        "command failed: {error}"
                    );
                    Text::Internal
                }
            };
            answer::say_private(ctx, &text).await;
        }
        poise::FrameworkError::ArgumentParse { ctx, error, .. } => {
            tracing::debug!("unreadable option: {error}");
            answer::say_private(ctx, &Text::BadOption).await;
        }
        poise::FrameworkError::GuildOnly { ctx, .. } => {
            answer::say_private(ctx, &Text::GuildOnly).await;
        }
        poise::FrameworkError::CommandPanic { ctx, payload, .. } => {
            tracing::error!(
                command = %ctx.command().qualified_name,
                "command panicked: {}",
                payload.unwrap_or_default()
            );
            answer::say_private(ctx, &Text::Internal).await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!("error while handling an error: {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_tree_is_valid_for_discord() {
        let commands = commands();
        let created = localize::application_commands(&commands);
        let json = serde_json::to_value(&created).unwrap();
        let top = json.as_array().unwrap();
        assert_eq!(
            top.len(),
            4,
            "the game's parent command, the settings and the user commands for a profile and a \
             challenge"
        );
        // The challenge's user command, named in every language.
        let challenge = &top[3];
        assert_eq!(challenge["name"], "Challenge to Sequence");
        assert_eq!(challenge["type"], 2);
        assert_eq!(
            challenge["name_localizations"]["de"],
            "Zu Sequence herausfordern"
        );
        assert_eq!(
            challenge["name_localizations"]["no"],
            "Utfordre til Sequence"
        );
        // Wherever a game can be opened: both installs, servers, the bot's DM and group DMs.
        assert_eq!(challenge["contexts"], serde_json::json!([0, 1, 2]));
        assert_eq!(challenge["integration_types"], serde_json::json!([0, 1]));
        // The user command: on a member's context menu, named in every language, no description.
        let menu = &top[2];
        assert_eq!(menu["name"], "Sequence profile");
        assert_eq!(menu["type"], 2);
        assert_eq!(menu["name_localizations"]["de"], "Sequence-Profil");
        assert_eq!(menu["name_localizations"]["no"], "Sequence-profil");
        assert!(
            menu.get("description")
                .is_none_or(|d| d.is_null() || d == ""),
            "{menu}"
        );
        // Both installs, and every place: a member's profile means something in a DM too.
        assert_eq!(menu["contexts"], serde_json::json!([0, 1, 2]));
        assert_eq!(menu["integration_types"], serde_json::json!([0, 1]));
        assert_eq!(top[0]["name"], "sequence");
        // The game: installed to a server or to a user, and used in servers, the bot's DM and group
        // DMs (Discord's contexts 0, 1 and 2).
        assert_eq!(top[0]["integration_types"], serde_json::json!([0, 1]));
        assert_eq!(top[0]["contexts"], serde_json::json!([0, 1, 2]));
        // The settings are a command of their own, shown only to members with Manage Server (1 << 5)
        // and never in DMs.
        let settings = &top[1];
        assert_eq!(settings["name"], "sequence-settings");
        assert_eq!(settings["default_member_permissions"], "32");
        assert_eq!(settings["contexts"], serde_json::json!([0]), "servers only");
        assert_eq!(
            settings["integration_types"],
            serde_json::json!([0]),
            "a server's settings come with the server install only"
        );
        let names: Vec<&str> = settings["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "game",
                "level",
                "turn_reminder",
                "turn_timeout",
                "lobby_timeout",
                "thinking_time",
                "on_timeout",
                "timeouts_before_replaced",
                "rated",
                "language",
                "hints",
                "replay_gif",
                "web_links",
                "web_page",
                "reset"
            ]
        );
        let subs = top[0]["options"].as_array().unwrap();
        let names: Vec<&str> = subs.iter().map(|s| s["name"].as_str().unwrap()).collect();
        for expected in [
            "start",
            "join",
            "leave",
            "bot",
            "begin",
            "cancel",
            "play",
            "exchange",
            "roll",
            "remove",
            "hand",
            "hint",
            "board",
            "status",
            "rules",
            "forfeit",
            "stop",
            "stats",
            "leaderboard",
            "history",
            "record",
            "replay",
        ] {
            assert!(names.contains(&expected), "missing /sequence {expected}");
        }
        assert!(subs.len() <= 25);
        fn check(option: &serde_json::Value) {
            let name = option["name"].as_str().unwrap();
            assert!(
                !name.is_empty()
                    && name.len() <= 32
                    && name.chars().all(|c| c.is_ascii_lowercase()
                        || c.is_ascii_digit()
                        || c == '_'
                        || c == '-'),
                "bad name {name}"
            );
            let description = option["description"].as_str().unwrap_or("");
            assert!(
                !description.is_empty() && description.chars().count() <= 100,
                "description of {name}: `{description}`"
            );
            if let Some(options) = option["options"].as_array() {
                assert!(options.len() <= 25);
                // Discord wants required options first.
                let required: Vec<bool> = options
                    .iter()
                    .map(|o| o["required"].as_bool().unwrap_or(false))
                    .collect();
                assert!(
                    required.windows(2).all(|w| w[0] || !w[1]),
                    "required options after optional ones in {name}"
                );
                options.iter().for_each(check);
            }
        }
        subs.iter().for_each(check);
        check(settings);
        // Autocomplete is on for the card and cell options of `play`.
        let play = subs.iter().find(|s| s["name"] == "play").unwrap();
        for option in play["options"].as_array().unwrap() {
            assert_eq!(option["autocomplete"], true, "{option}");
        }
    }

    /// A one-shot HTTP server on the loopback that answers every request with `status` and `body`.
    async fn fake_discord(status: &'static str, body: &'static str) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            for _ in 0..4 {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let mut buffer = [0u8; 4096];
                let _ = socket.read(&mut buffer).await;
                let response = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
            }
        });
        format!("http://{address}")
    }

    fn http_to(proxy: String) -> serenity::Http {
        serenity::HttpBuilder::new("MTIz.abc.def")
            .proxy(proxy)
            .ratelimiter_disabled(true)
            .build()
    }

    #[tokio::test]
    async fn a_refused_token_is_reported_clearly() {
        let proxy = fake_discord(
            "401 Unauthorized",
            r#"{"message": "401: Unauthorized", "code": 0}"#,
        )
        .await;
        let e = check_token(&http_to(proxy), Duration::from_secs(10))
            .await
            .unwrap_err();
        assert!(matches!(e, DiscordError::TokenRejected), "{e:?}");
    }

    #[tokio::test]
    async fn an_accepted_token_gives_the_bot_name() {
        let proxy = fake_discord(
            "200 OK",
            r#"{"id": "1234567890", "username": "SequenceBot", "discriminator": "0", "avatar": null, "bot": true}"#,
        )
        .await;
        let name = check_token(&http_to(proxy), Duration::from_secs(10))
            .await
            .unwrap();
        assert_eq!(name, "SequenceBot");
    }

    #[tokio::test]
    async fn an_unreachable_discord_is_a_connection_error() {
        // Nothing listens on this port of the loopback.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        drop(listener);
        let e = check_token(
            &http_to(format!("http://{address}")),
            Duration::from_secs(10),
        )
        .await
        .unwrap_err();
        assert!(matches!(e, DiscordError::Connect(_)), "{e:?}");
    }

    #[test]
    fn connection_errors_are_explained() {
        let e = start_error(serenity::Error::Gateway(
            serenity::GatewayError::InvalidAuthentication,
        ));
        assert!(matches!(e, DiscordError::TokenRejected));
        assert!(e.to_string().contains("refused the token"));
        let e = start_error(serenity::Error::Gateway(
            serenity::GatewayError::DisallowedGatewayIntents,
        ));
        assert!(matches!(e, DiscordError::Intents(_)));
    }
}
