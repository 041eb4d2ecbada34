//! Start-up and shutdown shared by every face: [`launch`] (the configuration read and checked, the
//! log set up, the runtime started, the face run, its exit code), [`App::start`] (the listener up, then
//! the store opened and every table restored, with the computer player behind bot seats), and the
//! stop signal.

use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::ai;
use crate::engine::{Move, Seat, View};
use crate::service::{BotLevel, FaceId, MovePicker, Restored, Tables, Timestamp};
use crate::store::{open_store, ShardClaim, ShardSet};

use super::config::{BotConfig, LogFormat};
use super::error::StartError;
use super::health::{self, Health};
use super::http::Site;
use super::paint::Painter;

/// A face of the bot (Discord, the console): what it checks and logs beyond what every face does, and
/// how it runs once [`launch`] has read its configuration.
pub trait Program {
    /// Why the face stopped: the start-up's reasons and its own.
    type Error: std::fmt::Display + From<StartError>;

    /// A tracing layer the face needs beside the log lines (Discord: the gateway watch).
    fn log_layer(&self) -> Option<LogLayer> {
        None
    }

    /// What the face checks before anything starts, after the configuration's own checks: the
    /// reason it cannot start (exit code 2).
    fn check(&self, _config: &BotConfig) -> Result<(), String> {
        Ok(())
    }

    /// Runs the face until it ends (usually through [`App::start`]).
    fn run(self, config: BotConfig) -> impl Future<Output = Result<(), Self::Error>>;

    /// The exit code of the process that stopped with `error`.
    fn exit_code(error: &Self::Error) -> i32;
}

/// A tracing layer a face adds to the log set-up.
pub type LogLayer = Box<dyn tracing_subscriber::Layer<tracing_subscriber::Registry> + Send + Sync>;

/// Starts `face` with the configuration at `config_path` (or `config.toml` in the working directory,
/// if present) and the environment, and runs it to its end: the process's exit code. 2 for a
/// configuration the face cannot start with (said on standard error), 1 when the runtime cannot start
/// or the face stops with an error ([`Program::exit_code`]).
pub fn launch(config_path: Option<&Path>, face: impl Program) -> i32 {
    let config = match BotConfig::load(config_path, |key| std::env::var(key).ok()) {
        Ok(config) => config,
        Err(e) => {
            say(&format!("sequence-bot: {e}"));
            return 2;
        }
    };
    init_logging(config.log_format, face.log_layer());
    let checked = config
        .validate()
        .map_err(|e| e.to_string())
        .and_then(|()| face.check(&config));
    if let Err(e) = checked {
        say(&format!("sequence-bot: {e}"));
        return 2;
    }
    let runtime = match crate::service::runtime() {
        Ok(runtime) => runtime,
        Err(e) => {
            say(&format!(
                "sequence-bot: cannot start the async runtime: {e}"
            ));
            return 1;
        }
    };
    run_face(&runtime, face, config)
}

/// Runs `face` on `runtime`: 0 when it ends well, its exit code (the error said) when not.
fn run_face<F: Program>(runtime: &tokio::runtime::Runtime, face: F, config: BotConfig) -> i32 {
    match runtime.block_on(face.run(config)) {
        Ok(()) => 0,
        Err(e) => {
            say(&format!("sequence-bot: {e}"));
            F::exit_code(&e)
        }
    }
}

/// Writes a line to standard error; a closed or broken standard error is ignored (there is nowhere
/// left to say so), where `eprintln!` would panic.
fn say(text: &str) {
    use std::io::Write;
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let _ = writeln!(err, "{text}").and_then(|()| err.flush());
}

/// Logs to stderr; `RUST_LOG` chooses the detail (default: this crate at info, the rest at warn).
/// `layer`, the face's own, sees every event whatever `RUST_LOG` lets through to the log.
pub fn init_logging(format: LogFormat, layer: Option<LogLayer>) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,sequence_bot=info"));
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;
    let registry = tracing_subscriber::registry().with(layer);
    let lines = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => registry.with(lines.with_filter(filter)).try_init(),
        // One object per line: the event's own fields at the top level, the fields of the span it
        // happened in (a game's guild, channel and game) under `span`.
        LogFormat::Json => registry
            .with(
                lines
                    .json()
                    .flatten_event(true)
                    .with_current_span(true)
                    .with_span_list(false)
                    .with_filter(filter),
            )
            .try_init(),
    };
}

/// A part of the bot served beside a face, on the same service and HTTP server (the web pages beside
/// Discord): the binary registers it with [`add_beside`] before the face starts, and
/// [`App::start`] serves its routes and hands it the tables once they are open.
pub trait Beside: Send + Sync + 'static {
    /// Its routes under `config` (`None`: it stays off).
    fn site(&self, config: &BotConfig) -> Option<Arc<dyn Site>>;

    /// The tables are open and restored, before the host starts (also when it serves no routes);
    /// `address` is where the web routes are served (as bound), if they are.
    fn opened(&self, tables: &Arc<Tables>, address: Option<SocketAddr>);
}

/// The parts registered to run beside the face of this process.
static BESIDE: Mutex<Vec<Arc<dyn Beside>>> = Mutex::new(Vec::new());

/// Registers `part` to be served beside the face this process starts (see [`Beside`]).
pub fn add_beside(part: Arc<dyn Beside>) {
    BESIDE.lock().unwrap_or_else(|e| e.into_inner()).push(part);
}

fn besides() -> Vec<Arc<dyn Beside>> {
    BESIDE.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// What every face runs on once started: the configuration, the restored tables, the hold on this
/// process's shards, the painter, and the listener's health (with `[metrics] listen`).
pub struct App {
    /// The configuration it was started with.
    pub config: BotConfig,
    /// Every channel's table of this process's shards.
    pub tables: Arc<Tables>,
    /// What the restore found: the notes to post, the channels resumed and those set aside.
    pub restored: Restored,
    /// The hold on this process's shards in the database; let go by [`App::release`].
    pub claim: Arc<dyn ShardClaim>,
    /// Draws the images.
    pub painter: Arc<dyn Painter>,
    /// What `/healthz`, `/readyz` and `/metrics` look at, with a listener.
    pub health: Option<Arc<Health>>,
    /// Where the web pages are served (as bound), when they are.
    pub web_address: Option<SocketAddr>,
}

/// The first half of [`App::start`]: the configuration checked and the listener up, so that
/// `/readyz` tells "restoring" while the tables are restored. [`Starting::open`] does the rest once
/// the face knows which shards this process runs.
pub struct Starting {
    config: BotConfig,
    painter: Arc<dyn Painter>,
    health: Option<Arc<Health>>,
    web_address: Option<SocketAddr>,
    besides: Vec<Arc<dyn Beside>>,
    /// The faces whose tables are restored (`None`: every table), see [`Starting::restoring_only`].
    restoring: Option<Vec<FaceId>>,
}

impl App {
    /// Checks `config` and starts the listener (with `[metrics] listen`); then [`Starting::open`].
    pub async fn start(
        config: BotConfig,
        painter: Arc<dyn Painter>,
    ) -> Result<Starting, StartError> {
        Self::start_serving(config, painter, Vec::new()).await
    }

    /// [`App::start`] with the routes of a face's `sites` served beside the health routes and those
    /// of the parts registered beside it ([`add_beside`]): on `[metrics] listen`, and when there are
    /// sites, on the web address ([`BotConfig::web_address`]) too (one listener when both are the
    /// same; the same pages on each, `/metrics` only on `[metrics] listen`).
    pub async fn start_serving(
        config: BotConfig,
        painter: Arc<dyn Painter>,
        mut sites: Vec<Arc<dyn Site>>,
    ) -> Result<Starting, StartError> {
        config.validate()?;
        let parts = besides();
        for part in &parts {
            if let Some(site) = part.site(&config) {
                sites.push(site);
            }
        }
        let metrics = config.metrics.address()?;
        let web = match sites.is_empty() {
            true => None,
            false => config.web_address()?,
        };
        let mut addresses = Vec::new();
        if let Some(address) = metrics {
            addresses.push((address, "metrics.listen"));
        }
        if let Some(address) = web.filter(|web| Some(*web) != metrics) {
            addresses.push((address, "web.listen"));
        }
        let (health, bound) = match addresses.is_empty() {
            true => (None, Vec::new()),
            false => {
                let (health, bound) = health::listen_on(&addresses, sites).await?;
                (Some(health), bound)
            }
        };
        // The web's address as bound: its own listener's, or the metrics listener it shares.
        let web_address = web.and_then(|web| {
            addresses
                .iter()
                .zip(&bound)
                .find(|((asked, _), _)| *asked == web)
                .map(|(_, bound)| *bound)
        });
        Ok(Starting {
            config,
            painter,
            health,
            web_address,
            besides: parts,
            restoring: None,
        })
    }

    /// Lets go of this process's shards, so that a replacement can take them over at once: the last
    /// step of every face's stop (every change is saved before it is told, so nothing else is left).
    pub async fn release(claim: Arc<dyn ShardClaim>) {
        let _ = tokio::task::spawn_blocking(move || claim.release()).await;
    }
}

impl Starting {
    /// The configuration being started with.
    pub fn config(&self) -> &BotConfig {
        &self.config
    }

    /// The listener's health, with `[metrics] listen` (a face adds its probe here).
    pub fn health(&self) -> Option<&Arc<Health>> {
        self.health.as_ref()
    }

    /// Where the web pages are served (as bound), when they are.
    pub fn web_address(&self) -> Option<SocketAddr> {
        self.web_address
    }

    /// Restores only the tables of `faces` ([`Tables::restoring_only`]): a process without Discord
    /// leaves Discord's games in the store as they are, clocks and computer players included.
    pub fn restoring_only(mut self, faces: &[FaceId]) -> Starting {
        self.restoring = Some(faces.to_vec());
        self
    }

    /// Opens the store, claims `shards` and restores their tables (see [`open_and_restore`]), with
    /// the computer player of the configuration behind bot seats; the health then tells "ready".
    pub async fn open(self, shards: ShardSet) -> Result<App, StartError> {
        let Starting {
            config,
            painter,
            health,
            web_address,
            besides,
            restoring,
        } = self;
        let think = Duration::from_millis(config.defaults.ai_time_ms);
        let mut tables = Tables::new(config.settings(), move_picker(think));
        if let Some(faces) = &restoring {
            tables = tables.restoring_only(faces);
        }
        let (tables, restored, claim) = open_and_restore(tables, &config, shards).await?;
        if let Some(health) = &health {
            health.set_tables(tables.clone());
            health.set_restored();
        }
        for part in &besides {
            part.opened(&tables, web_address);
        }
        Ok(App {
            config,
            tables,
            restored,
            claim,
            painter,
            health,
            web_address,
        })
    }
}

/// The computer player behind bot seats and timed-out turns: `crate::ai`, thinking up to `think` per
/// move at the hard level.
fn move_picker(think: Duration) -> Arc<dyn MovePicker> {
    Arc::new(AiPicker { think })
}

/// Plays the service's bot seats with `crate::ai`.
struct AiPicker {
    think: Duration,
}

impl MovePicker for AiPicker {
    fn choose(&self, view: &View, history: &[(Seat, Move)], level: BotLevel, seed: u64) -> Move {
        ai::choose_move_after(view, history, level, &ai::Budget::capped(self.think), seed)
    }

    fn choose_thinking(
        &self,
        view: &View,
        history: &[(Seat, Move)],
        level: BotLevel,
        seed: u64,
        think: Option<Duration>,
    ) -> Move {
        let budget = ai::Budget::capped(think.unwrap_or(self.think));
        ai::choose_move_after(view, history, level, &budget, seed)
    }
}

/// Opens the configured store (a damaged SQLite file is repaired, the damaged one kept beside it; one
/// that cannot be read at all, is read-only or is in use by another process is an error), claims
/// `shards` in it (PostgreSQL: waiting up to `[sharding] wait_secs` for a stopping process to let go
/// of them, then an error; SQLite: only the whole set) and puts back every stored lobby and game of
/// those shards. Tables that cannot be restored are set aside in the store's quarantine and logged;
/// games whose end was never announced get their final message. All of it blocks, so it runs on a
/// blocking thread.
async fn open_and_restore(
    tables: Tables,
    config: &BotConfig,
    shards: ShardSet,
) -> Result<(Arc<Tables>, Restored, Arc<dyn ShardClaim>), StartError> {
    let database = config.database_config();
    let place = match &database.database_url {
        Some(_) => "PostgreSQL (database_url)".to_string(),
        None => database.path.display().to_string(),
    };
    let wait = Duration::from_secs(config.sharding.wait_secs);
    let joined = tokio::task::spawn_blocking(move || {
        let store = open_store(&database).map_err(|e| StartError::Store(e.to_string()))?;
        let claim = store
            .claim_shards(shards, wait)
            .map_err(|e| StartError::Store(e.to_string()))?;
        let tables = Arc::new(tables.with_store(store).with_claim(claim.clone()));
        let restored = match tables.restore_from_store(Timestamp::now()) {
            Ok(restored) => restored,
            Err(e) => {
                claim.release();
                return Err(StartError::Store(e.to_string()));
            }
        };
        // Ready first: an upgraded database's profiles are rebuilt behind the games (issue 44).
        drop(tables.rebuild_profiles_in_background());
        Ok::<_, StartError>((tables, restored, claim))
    })
    .await
    .map_err(|e| StartError::Store(format!("opening the database failed: {e}")))?;
    let (tables, restored, claim) = joined?;
    tracing::info!(
        database = %place,
        shards = %shards,
        restored = restored.resumed.len(),
        "database open"
    );
    for (channel, reason) in &restored.lost {
        tracing::warn!(
            channel = channel.0,
            "a stored game could not be restored and was set aside in the database's quarantine table: {reason}"
        );
    }
    Ok((tables, restored, claim))
}

/// Waits for Ctrl-C, or SIGTERM (how `docker stop` and systemd stop a process) where there is one.
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM ({e}); only Ctrl-C stops the bot");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
