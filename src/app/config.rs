//! The bot's configuration: a TOML file (see `config.example.toml`), with environment overrides. One
//! file for every face: what they share (the database, timers, defaults, limits, the log, the
//! listener) and, in the same struct so that the file keeps its shape, what only the Discord face
//! reads (the token, `dev_guild`, `[network]`, `[sharding]`'s recommended count).

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::engine::Variant;
use crate::service::{BotLevel, Limits, Settings};
use crate::store::{DatabaseConfig, ShardSet};

use super::error::StartError;

/// The token environment variable; it overrides the file.
pub const TOKEN_ENV: &str = "DISCORD_TOKEN";
/// Environment override of `dev_guild`.
pub const DEV_GUILD_ENV: &str = "SEQUENCE_DEV_GUILD";
/// Environment override of `database`.
pub const DATABASE_ENV: &str = "SEQUENCE_DATABASE";
/// Environment override of `database_url`.
pub const DATABASE_URL_ENV: &str = "SEQUENCE_DATABASE_URL";
/// Environment override of `[sharding] shards` (`auto`, `0-1`, `3`).
pub const SHARDS_ENV: &str = "SEQUENCE_SHARDS";
/// Environment override of `[sharding] total`.
pub const SHARD_TOTAL_ENV: &str = "SEQUENCE_SHARD_TOTAL";
/// Environment override of `[metrics] listen` (`off` turns a listener of the file off).
pub const METRICS_LISTEN_ENV: &str = "SEQUENCE_METRICS_LISTEN";
/// Environment override of `log_format` (`text` or `json`).
pub const LOG_FORMAT_ENV: &str = "SEQUENCE_LOG_FORMAT";
/// Environment override of `[web] listen` (`off` turns a listener of the file off; without a token the
/// pages are then served on the default address).
pub const WEB_LISTEN_ENV: &str = "SEQUENCE_WEB_LISTEN";
/// Environment override of `[web] public_url`.
pub const WEB_PUBLIC_URL_ENV: &str = "SEQUENCE_WEB_PUBLIC_URL";
/// Environment override of `[web] local` (`true` or `false`).
pub const WEB_LOCAL_ENV: &str = "SEQUENCE_WEB_LOCAL";
/// Environment override of `[activity] client_secret` (the application's OAuth2 client secret).
pub const CLIENT_SECRET_ENV: &str = "DISCORD_CLIENT_SECRET";

/// Where the pages are served without a Discord token when `[web] listen` is not set.
pub const DEFAULT_WEB_LISTEN: &str = "127.0.0.1:8080";

/// How log lines are written to standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One readable line per event (tracing-subscriber's default format).
    #[default]
    Text,
    /// One JSON object per line, for log collectors: the event's fields, and those of the spans it
    /// happened in (a game's `guild`, `channel` and `game`).
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = StartError;
    fn from_str(s: &str) -> Result<LogFormat, StartError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            _ => Err(StartError::Config(format!(
                "log_format must be \"text\" or \"json\", not `{s}`"
            ))),
        }
    }
}

/// The metrics and health listener (off unless `listen` is set).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetricsConfig {
    /// The address to serve `/metrics`, `/healthz` and `/readyz` on, such as `127.0.0.1:9184`.
    pub listen: Option<String>,
}

impl MetricsConfig {
    /// The address to listen on, if any, or why `listen` is not one.
    pub fn address(&self) -> Result<Option<std::net::SocketAddr>, StartError> {
        match self.listen.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
            None => Ok(None),
            Some(listen) => listen.parse().map(Some).map_err(|_| {
                StartError::Config(format!(
                    "metrics.listen must be an address and port such as \"127.0.0.1:9184\", not `{listen}`"
                ))
            }),
        }
    }
}

/// The web pages (`[web]`): where they are served, the address players reach them at, and whether
/// games can be opened there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebConfig {
    /// The address to serve the pages on, such as `127.0.0.1:8080` (without a token: that address by
    /// default; with one: no pages unless set).
    pub listen: Option<String>,
    /// The address players reach the pages at, such as `https://sequence.example.org` (behind a
    /// reverse proxy): the links to a game's page are made from it. Unset: no links are posted.
    pub public_url: Option<String>,
    /// Whether games can be opened and played on the pages (default: on without a Discord token, off
    /// with one).
    pub local: Option<bool>,
}

impl WebConfig {
    /// The address set in `listen`, if any, or why it is not one.
    pub fn address(&self) -> Result<Option<std::net::SocketAddr>, StartError> {
        match self.listen.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
            None => Ok(None),
            Some(listen) => listen.parse().map(Some).map_err(|_| {
                StartError::Config(format!(
                    "web.listen must be an address and port such as \"127.0.0.1:8080\", not `{listen}`"
                ))
            }),
        }
    }

    /// `public_url` checked and without a trailing slash (`https://sequence.example.org`, or with a
    /// path such as `https://example.org/sequence`), if set; or why it is not such an address.
    pub fn public_url(&self) -> Result<Option<String>, StartError> {
        let Some(url) = self
            .public_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
        else {
            return Ok(None);
        };
        let bad = || {
            StartError::Config(format!(
                "web.public_url must be the address players open, such as \"https://sequence.example.org\", not `{url}`"
            ))
        };
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))
            .ok_or_else(bad)?;
        let host = rest.split('/').next().unwrap_or_default();
        let host_ok = !host.is_empty()
            && !host.starts_with(':')
            && !host.contains('@')
            && host.bytes().all(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']')
            });
        let path_ok =
            rest.bytes().all(|b| b.is_ascii_graphic()) && !rest.contains(['?', '#', '\\']);
        if !host_ok || !path_ok {
            return Err(bad());
        }
        Ok(Some(url.trim_end_matches('/').to_string()))
    }

    /// The origin of `public_url` (`https://sequence.example.org`), if set.
    pub fn public_origin(&self) -> Option<String> {
        let url = self.public_url().ok()??;
        let scheme_end = url.find("://")? + 3;
        let host_end = url[scheme_end..]
            .find('/')
            .map_or(url.len(), |at| scheme_end + at);
        Some(url[..host_end].to_ascii_lowercase())
    }
}

/// The Discord Activity (`[activity]`): the board as a page inside Discord. On when the bot has a token
/// and `client_secret` is set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ActivityConfig {
    /// The application's OAuth2 client secret (developer portal → OAuth2 → Client Secret; better: the
    /// `DISCORD_CLIENT_SECRET` environment variable). The bot exchanges the page's authorization codes
    /// with it; it never leaves the bot.
    pub client_secret: Secret,
}

impl ActivityConfig {
    /// The client secret, checked for its shape (Discord's are 32 letters, digits, `-` and `_`; a
    /// few more or fewer are let through), if set. The error never holds the secret.
    pub fn checked_secret(&self) -> Result<Option<&str>, StartError> {
        if self.client_secret.is_empty() {
            return Ok(None);
        }
        let secret = self.client_secret.expose().trim();
        let shaped = (16..=128).contains(&secret.len())
            && secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if shaped {
            Ok(Some(secret))
        } else {
            Err(StartError::Config(format!(
                "activity.client_secret (or {CLIENT_SECRET_ENV}) is not a client secret: copy it from the developer portal (your application → OAuth2 → Client Secret; 32 letters and digits)"
            )))
        }
    }
}

/// A secret that never shows in `Debug` output or logs.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// A secret from a string.
    pub fn new(text: impl Into<String>) -> Secret {
        Secret(text.into())
    }

    /// The secret text, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether it is empty (or only spaces).
    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[hidden]")
    }
}

/// Timers, in seconds (milliseconds where named).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Timers {
    /// Remind the player to move after this many seconds.
    pub turn_reminder_secs: u64,
    /// Let the computer play the turn after this many seconds.
    pub turn_timeout_secs: u64,
    /// After this many timed-out turns in a row a computer keeps the seat for the rest of the game
    /// (0: never).
    pub timeouts_before_replaced: u8,
    /// Close a lobby that has not started after this many seconds.
    pub lobby_timeout_secs: u64,
    /// An invitation to a challenge not answered after this many seconds lapses.
    pub challenge_timeout_secs: u64,
    /// Pause before each computer move, so people can follow.
    pub bot_delay_ms: u64,
    /// How often the timers are checked.
    pub tick_secs: u64,
}

impl Timers {
    /// How often the service's host checks the timers (at least a second).
    pub fn tick(&self) -> Duration {
        Duration::from_secs(self.tick_secs.max(1))
    }

    /// The host's pause before each computer move.
    pub fn bot_delay(&self) -> Duration {
        Duration::from_millis(self.bot_delay_ms)
    }
}

impl Default for Timers {
    fn default() -> Timers {
        Timers {
            turn_reminder_secs: 120,
            turn_timeout_secs: 600,
            timeouts_before_replaced: 2,
            lobby_timeout_secs: 1800,
            challenge_timeout_secs: 600,
            bot_delay_ms: 1000,
            tick_secs: 1,
        }
    }
}

/// Limits against abuse (see [`crate::service::Limits`]).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    /// Open lobbies and games one user may host at once.
    pub tables_per_user: u32,
    /// Open lobbies and games one server may have at once.
    pub tables_per_server: u32,
    /// Computer players one game may have.
    pub bots_per_table: u8,
    /// Messages the bot posts per second in one server, on average.
    pub server_posts_per_second: u32,
    /// Messages the bot may post in one server in a burst.
    pub server_post_burst: u32,
    /// Computer players' searches at once in the process (0: one fewer than the cores, at least one).
    pub computer_threads: u32,
    /// Rated games two players may play against each other in one server in 24 hours (0: no limit).
    pub rated_games_per_day: u32,
}

impl Default for LimitsConfig {
    fn default() -> LimitsConfig {
        let limits = Limits::default();
        LimitsConfig {
            tables_per_user: limits.tables_per_user,
            tables_per_server: limits.tables_per_server,
            bots_per_table: limits.bots_per_table,
            server_posts_per_second: limits.server_posts_per_second,
            server_post_burst: limits.server_post_burst,
            computer_threads: limits.computer_threads,
            rated_games_per_day: limits.rated_games_per_day,
        }
    }
}

/// Defaults for new games.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Defaults {
    /// The game `start` opens when none is named.
    pub game: Variant,
    /// The level of a computer player added without one (and of the one playing a timed-out turn).
    pub bot_level: BotLevel,
    /// Thinking time of a computer player per move, in milliseconds.
    pub ai_time_ms: u64,
}

impl Default for Defaults {
    fn default() -> Defaults {
        Defaults {
            game: Variant::Classic,
            bot_level: BotLevel::Easy,
            ai_time_ms: 1000,
        }
    }
}

/// How the bot reaches Discord's REST API. Advanced: for running behind an HTTP proxy (also one that
/// inspects TLS), and for the end-to-end tests, which point the bot at a local stand-in for Discord.
/// Leave the section out to talk to Discord directly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Network {
    /// An HTTP proxy (`http://host:port`) for every request to Discord's REST API: requests to
    /// `https://discord.com` are tunnelled through it with `CONNECT`, and serenity's rate limiter stays
    /// in charge. (serenity's own `proxy` setting replaces the address instead, but its rate limiter
    /// ignores that setting, so it is not offered.) The gateway address comes from Discord's answer.
    pub https_proxy: Option<String>,
    /// A PEM file with extra root certificates to trust for Discord's REST API, such as the CA of a
    /// TLS-inspecting proxy (or of the test stand-in). The usual roots stay trusted.
    pub extra_root_certificates: Option<PathBuf>,
}

/// Discord sharding: which of the bot's shards this process runs (see [`ShardPlan`]). Leave the
/// section out for one process with one shard.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sharding {
    /// `auto` (this one process runs as many shards as Discord recommends), or this process's shard
    /// ids: one (`"2"`) or a range (`"0-1"`), out of `total`.
    pub shards: Option<String>,
    /// How many shards the bot has in all processes together.
    pub total: Option<u32>,
    /// How long a starting process waits for its shards to be let go by a process that is stopping
    /// (PostgreSQL), in seconds, before it gives up with an error.
    pub wait_secs: u64,
}

impl Default for Sharding {
    fn default() -> Sharding {
        Sharding {
            shards: None,
            total: None,
            wait_secs: 15,
        }
    }
}

/// What `[sharding]` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardPlan {
    /// One process, one shard (`client.start()`), as without the section.
    Single,
    /// One process with every shard, as many as Discord recommends (`GET /gateway/bot`).
    Auto,
    /// These shards of a fixed total.
    Fixed(ShardSet),
}

impl Sharding {
    /// The plan, or why the section cannot be used.
    pub fn plan(&self) -> Result<ShardPlan, StartError> {
        let bad = |m: String| StartError::Config(format!("sharding: {m}"));
        let shards = self
            .shards
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        match (shards, self.total) {
            (None, None) => Ok(ShardPlan::Single),
            (Some(s), None) if s.eq_ignore_ascii_case("auto") => Ok(ShardPlan::Auto),
            (Some(s), Some(_)) if s.eq_ignore_ascii_case("auto") => Err(bad(
                "`shards = \"auto\"` takes its total from Discord: leave `total` out".into(),
            )),
            (Some(_), None) => Err(bad(
                "`shards` names this process's shard ids: give the bot's `total` too".into(),
            )),
            (None, Some(total)) => ShardSet::all(total)
                .map(ShardPlan::Fixed)
                .map_err(|e| bad(e.to_string())),
            (Some(range), Some(total)) => {
                let number = |t: &str| {
                    t.trim().parse::<u32>().map_err(|_| {
                        bad(format!(
                            "`shards` must be `auto`, a shard id (`2`) or a range (`0-1`), not `{range}`"
                        ))
                    })
                };
                let (first, last) = match range.split_once('-') {
                    Some((a, b)) => (number(a)?, number(b)?),
                    None => (number(range)?, number(range)?),
                };
                ShardSet::new(first, last, total)
                    .map(ShardPlan::Fixed)
                    .map_err(|e| bad(e.to_string()))
            }
        }
    }
}

/// Everything the bot reads at start. `token`, `dev_guild` and `network` are the Discord face's own;
/// `sharding` says which shards' tables this process holds (the Discord face also connects them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BotConfig {
    /// The bot token (better: the `DISCORD_TOKEN` environment variable).
    pub token: Secret,
    /// A guild (server) id where commands are registered instantly, for development. Without it,
    /// commands are registered globally (which Discord may take a while to show).
    pub dev_guild: Option<u64>,
    /// The SQLite file where games are stored (default `sequence-bot.db`), unless `database_url` is
    /// set.
    pub database: Option<String>,
    /// `postgres://user:password@host:port/dbname` to store games in PostgreSQL instead (hidden in
    /// logs: it may hold a password).
    pub database_url: Option<Secret>,
    /// Timers.
    pub timers: Timers,
    /// Defaults.
    pub defaults: Defaults,
    /// Limits against abuse.
    pub limits: LimitsConfig,
    /// How Discord is reached (advanced; see [`Network`]).
    pub network: Network,
    /// Discord sharding (see [`Sharding`]).
    pub sharding: Sharding,
    /// How log lines are written.
    pub log_format: LogFormat,
    /// The metrics and health listener.
    pub metrics: MetricsConfig,
    /// The web pages.
    pub web: WebConfig,
    /// The Discord Activity.
    pub activity: ActivityConfig,
}

impl BotConfig {
    /// Parses TOML text.
    pub fn from_toml(text: &str) -> Result<BotConfig, StartError> {
        toml::from_str(text).map_err(|e| StartError::Config(e.message().to_string()))
    }

    /// Reads the file at `path` (an error if it is missing), or `config.toml` in the working directory
    /// if present, or the defaults; then applies the environment (`get` is `std::env::var` outside
    /// tests).
    pub fn load(
        path: Option<&Path>,
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<BotConfig, StartError> {
        let default_path = Path::new("config.toml");
        let file = match path {
            Some(p) => Some(p),
            None if default_path.exists() => Some(default_path),
            None => None,
        };
        let mut config = match file {
            Some(p) => {
                // A configuration is a few KB: a cap keeps a wrong path (`/dev/zero`) from hanging.
                let text = std::fs::File::open(p)
                    .and_then(|f| crate::files::read_capped(f, 1024 * 1024))
                    .map_err(|e| StartError::Config(format!("cannot read {}: {e}", p.display())))?
                    .ok_or_else(|| {
                        StartError::Config(format!(
                            "{} is larger than 1 MiB: not a configuration file",
                            p.display()
                        ))
                    })?;
                BotConfig::from_toml(&text).map_err(|e| match e {
                    StartError::Config(m) => StartError::Config(format!("{}: {m}", p.display())),
                    other => other,
                })?
            }
            None => BotConfig::default(),
        };
        config.apply_env(get)?;
        Ok(config)
    }

    /// Environment overrides: `DISCORD_TOKEN`, `SEQUENCE_DEV_GUILD`, `SEQUENCE_DATABASE`,
    /// `SEQUENCE_DATABASE_URL`, `SEQUENCE_SHARDS`, `SEQUENCE_SHARD_TOTAL`, `SEQUENCE_METRICS_LISTEN`,
    /// `SEQUENCE_LOG_FORMAT`, `SEQUENCE_WEB_LISTEN`, `SEQUENCE_WEB_PUBLIC_URL`, `SEQUENCE_WEB_LOCAL`,
    /// `DISCORD_CLIENT_SECRET`.
    pub fn apply_env(&mut self, get: impl Fn(&str) -> Option<String>) -> Result<(), StartError> {
        if let Some(token) = get(TOKEN_ENV).filter(|t| !t.trim().is_empty()) {
            self.token = Secret::new(token.trim());
        }
        if let Some(guild) = get(DEV_GUILD_ENV).filter(|g| !g.trim().is_empty()) {
            let id = guild.trim().parse::<u64>().map_err(|_| {
                StartError::Config(format!("{DEV_GUILD_ENV} must be a guild id (a number)"))
            })?;
            self.dev_guild = Some(id);
        }
        if let Some(db) = get(DATABASE_ENV).filter(|d| !d.trim().is_empty()) {
            self.database = Some(db);
        }
        if let Some(url) = get(DATABASE_URL_ENV).filter(|u| !u.trim().is_empty()) {
            self.database_url = Some(Secret::new(url.trim()));
        }
        if let Some(shards) = get(SHARDS_ENV).filter(|s| !s.trim().is_empty()) {
            self.sharding.shards = Some(shards.trim().to_string());
            if shards.trim().eq_ignore_ascii_case("auto") {
                // `auto` replaces a total from the file.
                self.sharding.total = None;
            }
        }
        if let Some(total) = get(SHARD_TOTAL_ENV).filter(|t| !t.trim().is_empty()) {
            let total = total.trim().parse::<u32>().map_err(|_| {
                StartError::Config(format!(
                    "{SHARD_TOTAL_ENV} must be the number of shards (a number)"
                ))
            })?;
            self.sharding.total = Some(total);
        }
        if let Some(listen) = get(METRICS_LISTEN_ENV).filter(|l| !l.trim().is_empty()) {
            let listen = listen.trim();
            self.metrics.listen = (!listen.eq_ignore_ascii_case("off")).then(|| listen.to_string());
        }
        if let Some(format) = get(LOG_FORMAT_ENV).filter(|f| !f.trim().is_empty()) {
            self.log_format = format.parse()?;
        }
        if let Some(listen) = get(WEB_LISTEN_ENV).filter(|l| !l.trim().is_empty()) {
            let listen = listen.trim();
            self.web.listen = (!listen.eq_ignore_ascii_case("off")).then(|| listen.to_string());
        }
        if let Some(url) = get(WEB_PUBLIC_URL_ENV).filter(|u| !u.trim().is_empty()) {
            self.web.public_url = Some(url.trim().to_string());
        }
        if let Some(secret) = get(CLIENT_SECRET_ENV).filter(|s| !s.trim().is_empty()) {
            self.activity.client_secret = Secret::new(secret.trim());
        }
        if let Some(local) = get(WEB_LOCAL_ENV).filter(|l| !l.trim().is_empty()) {
            self.web.local = Some(match local.trim().to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" | "on" => true,
                "false" | "0" | "no" | "off" => false,
                _ => {
                    return Err(StartError::Config(format!(
                        "{WEB_LOCAL_ENV} must be `true` or `false`, not `{local}`"
                    )))
                }
            });
        }
        Ok(())
    }

    /// Where the store lives: PostgreSQL if `database_url` is set, otherwise the SQLite file.
    pub fn database_config(&self) -> DatabaseConfig {
        let default = DatabaseConfig::default();
        DatabaseConfig {
            path: self
                .database
                .as_deref()
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map_or(default.path, Into::into),
            database_url: self
                .database_url
                .as_ref()
                .filter(|u| !u.is_empty())
                .map(|u| u.expose().trim().to_string()),
        }
    }

    /// Whether a Discord token is configured (without one, `run` starts the pages alone).
    pub fn has_token(&self) -> bool {
        !self.token.is_empty()
    }

    /// Where the web pages are served: `[web] listen`, or without a token [`DEFAULT_WEB_LISTEN`];
    /// `None` with a token and no `listen` (no pages). An error if `listen` is not an address.
    pub fn web_address(&self) -> Result<Option<std::net::SocketAddr>, StartError> {
        match self.web.address()? {
            Some(address) => Ok(Some(address)),
            None if !self.has_token() => Ok(DEFAULT_WEB_LISTEN.parse().ok()),
            None => Ok(None),
        }
    }

    /// Whether the Discord Activity is on: a token and a client secret are set.
    pub fn activity_on(&self) -> bool {
        self.has_token() && !self.activity.client_secret.is_empty()
    }

    /// Whether games can be opened and played on the pages: `[web] local`, by default on without a
    /// token and off with one.
    pub fn web_local_play(&self) -> bool {
        self.web.local.unwrap_or(!self.has_token())
    }

    /// Checks the token's presence and shape (three dot-separated parts), without contacting Discord.
    pub fn checked_token(&self) -> Result<&str, StartError> {
        if self.token.is_empty() {
            return Err(StartError::MissingToken);
        }
        let token = self.token.expose().trim();
        let parts: Vec<&str> = token.trim_start_matches("Bot ").split('.').collect();
        let shaped = parts.len() == 3
            && parts.iter().all(|p| {
                !p.is_empty()
                    && p.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            });
        if shaped {
            Ok(token)
        } else {
            Err(StartError::MalformedToken)
        }
    }

    /// Checks the numbers: timers must be positive and the reminder must come before the timeout.
    pub fn validate(&self) -> Result<(), StartError> {
        let t = &self.timers;
        if t.turn_timeout_secs == 0
            || t.lobby_timeout_secs == 0
            || t.challenge_timeout_secs == 0
            || t.tick_secs == 0
        {
            return Err(StartError::Config(
                "timers: turn_timeout_secs, lobby_timeout_secs, challenge_timeout_secs and \
                 tick_secs must be above 0"
                    .into(),
            ));
        }
        if t.turn_reminder_secs >= t.turn_timeout_secs {
            return Err(StartError::Config(
                "timers: turn_reminder_secs must be less than turn_timeout_secs".into(),
            ));
        }
        if let Some(proxy) = &self.network.https_proxy {
            if !(proxy.starts_with("http://") || proxy.starts_with("https://")) {
                return Err(StartError::Config(
                    "network.https_proxy must be an http:// or https:// address".into(),
                ));
            }
        }
        let l = &self.limits;
        if l.tables_per_user == 0
            || l.tables_per_server == 0
            || l.server_posts_per_second == 0
            || l.server_post_burst == 0
        {
            return Err(StartError::Config(
                "limits: tables_per_user, tables_per_server, server_posts_per_second and \
                 server_post_burst must be above 0"
                    .into(),
            ));
        }
        if self.dev_guild == Some(0) {
            return Err(StartError::Config(
                "dev_guild must be a guild id, not 0".into(),
            ));
        }
        self.sharding.plan()?;
        self.metrics.address()?;
        self.web.address()?;
        self.web.public_url()?;
        self.activity.checked_secret()?;
        Ok(())
    }

    /// The service settings this configuration asks for.
    pub fn settings(&self) -> Settings {
        Settings {
            turn_reminder: Duration::from_secs(self.timers.turn_reminder_secs),
            turn_timeout: Duration::from_secs(self.timers.turn_timeout_secs),
            lobby_timeout: Duration::from_secs(self.timers.lobby_timeout_secs),
            challenge_timeout: Duration::from_secs(self.timers.challenge_timeout_secs),
            default_bot_level: self.defaults.bot_level,
            default_variant: self.defaults.game,
            bot_think: Some(Duration::from_millis(self.defaults.ai_time_ms)),
            timeout_gives_up: false,
            replace_after_timeouts: self.timers.timeouts_before_replaced,
            hints: false,
            replay_gif: true,
            web_links: true,
            limits: Limits {
                tables_per_user: self.limits.tables_per_user,
                tables_per_server: self.limits.tables_per_server,
                bots_per_table: self.limits.bots_per_table,
                server_posts_per_second: self.limits.server_posts_per_second,
                server_post_burst: self.limits.server_post_burst,
                computer_threads: self.limits.computer_threads,
                rated_games_per_day: self.limits.rated_games_per_day,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB";

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn the_example_file_parses_and_validates() {
        let text = include_str!("../../config.example.toml");
        let config = BotConfig::from_toml(text).unwrap();
        config.validate().unwrap();
        assert!(config.token.is_empty());
        assert_eq!(config.timers, Timers::default());
        assert_eq!(config.defaults, Defaults::default());
    }

    #[test]
    fn the_metrics_listener_and_log_format_come_from_file_and_environment() {
        let mut config =
            BotConfig::from_toml("log_format = \"json\"\n[metrics]\nlisten = \"127.0.0.1:9184\"\n")
                .unwrap();
        assert_eq!(config.log_format, LogFormat::Json);
        assert_eq!(
            config.metrics.address().unwrap(),
            Some("127.0.0.1:9184".parse().unwrap())
        );
        assert_eq!(
            BotConfig::default().metrics.address().unwrap(),
            None,
            "off by default"
        );
        config
            .apply_env(|k| match k {
                METRICS_LISTEN_ENV => Some("0.0.0.0:9200".to_string()),
                LOG_FORMAT_ENV => Some("text".to_string()),
                _ => None,
            })
            .unwrap();
        assert_eq!(config.metrics.listen.as_deref(), Some("0.0.0.0:9200"));
        assert_eq!(config.log_format, LogFormat::Text);
        config
            .apply_env(|k| (k == METRICS_LISTEN_ENV).then(|| "off".to_string()))
            .unwrap();
        assert_eq!(config.metrics.listen, None);
        assert!(config
            .apply_env(|k| (k == LOG_FORMAT_ENV).then(|| "xml".to_string()))
            .is_err());
        config.metrics.listen = Some("localhost".into());
        let e = config.validate().unwrap_err();
        assert!(e.to_string().contains("metrics.listen"), "{e}");
    }

    /// `[web]`: the pages on the default address without a token and on none with one unless set;
    /// local play on without a token; the environment over the file; a malformed address or URL is a
    /// clear start-up error.
    #[test]
    fn the_web_settings_come_from_file_and_environment_and_are_checked() {
        let mut config = BotConfig::default();
        assert_eq!(
            config.web_address().unwrap(),
            Some("127.0.0.1:8080".parse().unwrap()),
            "without a token"
        );
        assert!(config.web_local_play());
        config
            .apply_env(|k| (k == TOKEN_ENV).then(|| "   ".into()))
            .unwrap();
        assert!(!config.has_token(), "a blank token is none");
        config.token = Secret::new(GOOD);
        assert_eq!(config.web_address().unwrap(), None, "with a token");
        assert!(!config.web_local_play());
        let mut config = BotConfig::from_toml(&format!(
            "token = \"{GOOD}\"\n[web]\nlisten = \"0.0.0.0:8081\"\npublic_url = \"https://Sequence.example.org/\"\nlocal = true\n"
        ))
        .unwrap();
        config.validate().unwrap();
        assert_eq!(
            config.web_address().unwrap(),
            Some("0.0.0.0:8081".parse().unwrap())
        );
        assert!(config.web_local_play());
        assert_eq!(
            config.web.public_url().unwrap().as_deref(),
            Some("https://Sequence.example.org")
        );
        assert_eq!(
            config.web.public_origin().as_deref(),
            Some("https://sequence.example.org")
        );
        config
            .apply_env(|k| match k {
                WEB_LISTEN_ENV => Some("127.0.0.1:9000".into()),
                WEB_PUBLIC_URL_ENV => Some("http://10.0.0.5:9000/sequence".into()),
                WEB_LOCAL_ENV => Some("false".into()),
                _ => None,
            })
            .unwrap();
        assert_eq!(config.web.listen.as_deref(), Some("127.0.0.1:9000"));
        assert_eq!(
            config.web.public_origin().as_deref(),
            Some("http://10.0.0.5:9000")
        );
        assert!(!config.web_local_play());
        config
            .apply_env(|k| (k == WEB_LISTEN_ENV).then(|| "off".into()))
            .unwrap();
        assert_eq!(config.web_address().unwrap(), None);
        assert!(config
            .apply_env(|k| (k == WEB_LOCAL_ENV).then(|| "maybe".into()))
            .is_err());
        for listen in ["localhost", "8080", "127.0.0.1"] {
            config.web.listen = Some(listen.into());
            let e = config.validate().unwrap_err();
            assert!(e.to_string().contains("web.listen"), "{listen}: {e}");
        }
        config.web.listen = None;
        for url in [
            "sequence.example.org",
            "ftp://example.org",
            "https://",
            "https://exa mple.org",
            "https://example.org/?x=1",
            "https://user@example.org",
            "javascript:alert(1)",
        ] {
            config.web.public_url = Some(url.into());
            let e = config.validate().unwrap_err();
            assert!(e.to_string().contains("web.public_url"), "{url}: {e}");
        }
    }

    #[test]
    fn environment_overrides_the_file() {
        let mut config =
            BotConfig::from_toml("token = \"a.b.c\"\ndev_guild = 5\n[timers]\nturn_timeout_secs = 60\nturn_reminder_secs = 30\n")
                .unwrap();
        assert_eq!(config.dev_guild, Some(5));
        assert_eq!(config.settings().turn_timeout, Duration::from_secs(60));
        config
            .apply_env(|k| match k {
                TOKEN_ENV => Some(GOOD.to_string()),
                DEV_GUILD_ENV => Some("77".to_string()),
                _ => None,
            })
            .unwrap();
        assert_eq!(config.checked_token().unwrap(), GOOD);
        assert_eq!(config.dev_guild, Some(77));
        assert!(config
            .apply_env(|k| (k == DEV_GUILD_ENV).then(|| "abc".to_string()))
            .is_err());
    }

    #[test]
    fn tokens_are_checked_and_never_printed() {
        let mut config = BotConfig::default();
        assert!(matches!(
            config.checked_token(),
            Err(StartError::MissingToken)
        ));
        for bad in ["abc", "a.b", "a..c", "a.b.c.d", "a b.c.d", "tok€n.x.y"] {
            config.token = Secret::new(bad);
            assert!(
                matches!(config.checked_token(), Err(StartError::MalformedToken)),
                "{bad}"
            );
        }
        config.token = Secret::new(GOOD);
        assert!(config.checked_token().is_ok());
        let printed = format!("{config:?}");
        assert!(!printed.contains("GabcDE"), "{printed}");
        assert!(printed.contains("[hidden]"));
        // The error messages do not include the token either.
        config.token = Secret::new("secret-part.x");
        let message = config.checked_token().unwrap_err().to_string();
        assert!(!message.contains("secret-part"));
    }

    /// `[activity] client_secret`: off without it (or without a token), the environment over the file,
    /// a malformed one a start-up error that does not repeat it, and never in `Debug`.
    #[test]
    fn the_client_secret_is_read_checked_and_never_printed() {
        const SECRET: &str = "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW";
        let config = BotConfig::default();
        assert!(!config.activity_on());
        assert_eq!(config.activity.checked_secret().unwrap(), None);
        let mut config = BotConfig::from_toml(&format!(
            "token = \"{GOOD}\"\n[activity]\nclient_secret = \"{SECRET}\"\n"
        ))
        .unwrap();
        config.validate().unwrap();
        assert!(config.activity_on());
        assert_eq!(config.activity.checked_secret().unwrap(), Some(SECRET));
        let printed = format!("{config:?}");
        assert!(!printed.contains("aB3dE5"), "{printed}");
        config
            .apply_env(|k| {
                (k == CLIENT_SECRET_ENV).then(|| " Zz9_-Zz9_-Zz9_-Zz9_-Zz9_-Zz9_-Zz ".into())
            })
            .unwrap();
        assert_eq!(
            config.activity.checked_secret().unwrap(),
            Some("Zz9_-Zz9_-Zz9_-Zz9_-Zz9_-Zz9_-Zz")
        );
        config.token = Secret::default();
        assert!(!config.activity_on(), "no Activity without the bot's token");
        for bad in [
            "short",
            "has spaces in the middle of it ok",
            "secret/with/slashes/in/it/x",
        ] {
            config.activity.client_secret = Secret::new(bad);
            let e = config.validate().unwrap_err().to_string();
            assert!(e.contains("activity.client_secret"), "{bad}: {e}");
            assert!(!e.contains(bad), "the error repeats the secret: {e}");
        }
        assert!(BotConfig::from_toml("[activity]\nsecret = \"x\"\n").is_err());
    }

    #[test]
    fn the_network_section_is_optional_and_checked() {
        assert_eq!(BotConfig::default().network, Network::default());
        let config = BotConfig::from_toml(
            "[network]\nhttps_proxy = \"http://127.0.0.1:8080\"\nextra_root_certificates = \"ca.pem\"\n",
        )
        .unwrap();
        config.validate().unwrap();
        assert_eq!(
            config.network.https_proxy.as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            config.network.extra_root_certificates,
            Some(PathBuf::from("ca.pem"))
        );
        let config = BotConfig::from_toml("[network]\nhttps_proxy = \"127.0.0.1:8080\"\n").unwrap();
        assert!(config.validate().is_err());
        assert!(BotConfig::from_toml("[network]\nproxy = \"x\"\n").is_err());
    }

    #[test]
    fn the_database_setting_picks_the_store() {
        let config = BotConfig::default();
        assert_eq!(config.database_config(), DatabaseConfig::default());
        assert_eq!(
            config.database_config().path,
            std::path::PathBuf::from("sequence-bot.db")
        );
        let mut config = BotConfig::from_toml("database = \"/var/lib/sequence/games.db\"").unwrap();
        assert_eq!(
            config.database_config().path,
            std::path::PathBuf::from("/var/lib/sequence/games.db")
        );
        assert_eq!(config.database_config().database_url, None);
        config
            .apply_env(|k| {
                (k == DATABASE_URL_ENV).then(|| "postgres://bot:pw@db/sequence".to_string())
            })
            .unwrap();
        assert_eq!(
            config.database_config().database_url.as_deref(),
            Some("postgres://bot:pw@db/sequence")
        );
        // The URL may hold a password: never printed.
        assert!(!format!("{config:?}").contains("pw@"));
        let config = BotConfig::from_toml("database_url = \"postgres://u@h/d\"").unwrap();
        assert_eq!(
            config.database_config().database_url.as_deref(),
            Some("postgres://u@h/d")
        );
    }

    #[test]
    fn sharding_is_read_from_the_file_and_the_environment() {
        assert_eq!(
            BotConfig::default().sharding.plan().unwrap(),
            ShardPlan::Single
        );
        let config = BotConfig::from_toml("[sharding]\nshards = \"auto\"\n").unwrap();
        assert_eq!(config.sharding.plan().unwrap(), ShardPlan::Auto);
        let mut config =
            BotConfig::from_toml("[sharding]\nshards = \"0-1\"\ntotal = 4\nwait_secs = 3\n")
                .unwrap();
        config.validate().unwrap();
        assert_eq!(
            config.sharding.plan().unwrap(),
            ShardPlan::Fixed(ShardSet::new(0, 1, 4).unwrap())
        );
        assert_eq!(config.sharding.wait_secs, 3);
        // The environment wins: another range, then `auto` (which drops the file's total).
        config
            .apply_env(|k| match k {
                SHARDS_ENV => Some(" 3 ".to_string()),
                SHARD_TOTAL_ENV => Some("6".to_string()),
                _ => None,
            })
            .unwrap();
        assert_eq!(
            config.sharding.plan().unwrap(),
            ShardPlan::Fixed(ShardSet::new(3, 3, 6).unwrap())
        );
        config
            .apply_env(|k| (k == SHARDS_ENV).then(|| "AUTO".to_string()))
            .unwrap();
        assert_eq!(config.sharding.plan().unwrap(), ShardPlan::Auto);
        // A total alone: every shard of it in this process.
        let config = BotConfig::from_toml("[sharding]\ntotal = 2\n").unwrap();
        assert_eq!(
            config.sharding.plan().unwrap(),
            ShardPlan::Fixed(ShardSet::all(2).unwrap())
        );
        assert!(BotConfig::default()
            .apply_env(|k| (k == SHARD_TOTAL_ENV).then(|| "two".to_string()))
            .is_err());
    }

    #[test]
    fn bad_sharding_is_explained() {
        for (text, expected) in [
            ("shards = \"0-1\"", "total"),
            ("shards = \"auto\"\ntotal = 2", "leave `total` out"),
            ("shards = \"0-4\"\ntotal = 4", "0-3"),
            ("shards = \"1-0\"\ntotal = 4", "not a range"),
            ("shards = \"x\"\ntotal = 4", "a range"),
            ("shards = \"-1\"\ntotal = 4", "a range"),
            ("total = 0", "at least 1"),
        ] {
            let config = BotConfig::from_toml(&format!("[sharding]\n{text}\n")).unwrap();
            let e = config.validate().unwrap_err().to_string();
            assert!(
                e.contains("sharding") && e.contains(expected),
                "{text}: {e}"
            );
        }
        assert!(BotConfig::from_toml("[sharding]\nshard = \"1\"\n").is_err());
    }

    #[test]
    fn bad_files_give_clear_errors() {
        let e = BotConfig::from_toml("tokn = \"x\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("tokn"), "{e}");
        let e = BotConfig::from_toml("[defaults]\ngame = \"chess\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("chess") || e.contains("variant"), "{e}");
        let config = BotConfig::from_toml("[timers]\nturn_reminder_secs = 900").unwrap();
        assert!(config.validate().is_err());
        let missing = BotConfig::load(Some(Path::new("/nonexistent/config.toml")), no_env)
            .unwrap_err()
            .to_string();
        assert!(missing.contains("/nonexistent/config.toml"), "{missing}");
    }
}
