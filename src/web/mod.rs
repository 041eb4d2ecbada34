//! The web face: the board in a browser, on the bot's one HTTP server. Like the Discord face and the
//! console it speaks to the service only through [`Tables::serve`] and reads what a viewer may see
//! through [`Tables::view`]; it uses the app layer, never another face.
//!
//! - `session`: who asks (a guest's cookie, their name and language) and the check against
//!   cross-site forgery.
//! - `api`: the JSON API the page uses (`/api/me`, `/api/games`, `/api/g/{token}`, its `act` and
//!   `live`), and `/g/{token}`; `limit`: the per-address request limit in front of it; `plain`: the
//!   service's chat texts as plain sentences.
//! - `local`: games opened on the pages (local play); `face`: the web as a face of the service.
//! - `activity`: the Discord Activity's sign-in and sessions (the page in Discord's frame plays as
//!   its Discord user on its channel's tables).
//! - `live`: the live channel (a WebSocket per open page); `page`: the page and its files;
//!   `replay`: a finished game's replay and record.
//!
//! Every path is served under `/.proxy/` too (`/.proxy/api/me` is `/api/me`): Discord's proxy lets
//! the Activity's page reach the bot only there.
//!
//! Started two ways: without a Discord token, `sequence-bot run` runs [`LocalFace`] (the pages
//! alone, local play on); with one, the binary registers [`WebBeside`] beside the Discord face, which
//! serves the pages when `[web] listen` is set.

pub mod activity;
pub mod api;
pub mod face;
pub mod limit;
pub mod live;
pub mod local;
pub mod page;
pub mod plain;
pub mod replay;
pub mod server_page;
pub mod session;

#[cfg(test)]
mod tests;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Router;

use crate::app::activity::{provider, ActivityDiscord};
use crate::app::config::{BotConfig, ShardPlan};
use crate::app::error::StartError;
use crate::app::http::Site;
use crate::app::paint::painter;
use crate::app::start::{stop_signal, App, Beside, Program};
use crate::engine::Variant;
use crate::service::{FaceId, Tables};
use crate::store::ShardSet;

use activity::Sessions;
use face::WebFace;
use limit::Limiter;
use live::Live;

/// The web face's state, shared by its routes: the tables once they are open, and what the
/// configuration says.
pub struct Web {
    /// What the routes need once the tables are open.
    open: OnceLock<Opened>,
    /// Games can be opened on the pages.
    local: bool,
    /// The pages are reached over https (the cookies are `Secure`).
    secure: bool,
    /// The origin players reach the pages at (`[web] public_url`), besides the request's own host.
    public_origin: Option<String>,
    /// `[web] public_url`: the links to a game's page are made from it.
    public_url: Option<String>,
    /// The game opened when none is named.
    default_variant: Variant,
    /// The per-address request limit.
    limiter: Limiter,
    /// The Activity's sessions.
    sessions: Sessions,
    /// Who answers the Activity's sign-in when not the process's provider (tests).
    activity: Option<Arc<dyn ActivityDiscord>>,
}

/// The tables and what runs on them for the web.
struct Opened {
    tables: Arc<Tables>,
    face: WebFace,
    live: Arc<Live>,
}

impl Web {
    /// The web face as `config` asks for it (local play as [`BotConfig::web_local_play`]).
    pub fn new(config: &BotConfig) -> Web {
        let public_url = config.web.public_url().ok().flatten();
        Web {
            open: OnceLock::new(),
            local: config.web_local_play(),
            secure: public_url
                .as_deref()
                .is_some_and(|url| url.starts_with("https://")),
            public_origin: config.web.public_origin(),
            public_url,
            default_variant: config.defaults.game,
            limiter: Limiter::default(),
            sessions: Sessions::default(),
            activity: None,
        }
    }

    /// With `discord` answering the Activity's sign-in instead of the process's provider (tests).
    pub fn with_activity(mut self, discord: Arc<dyn ActivityDiscord>) -> Web {
        self.activity = Some(discord);
        self
    }

    /// With other Activity sessions (tests: other bounds).
    pub fn with_sessions(mut self, sessions: Sessions) -> Web {
        self.sessions = sessions;
        self
    }

    /// Who answers the Activity's sign-in: the Discord face's provider (`None`: the Activity is
    /// not set up on this bot).
    pub fn activity_discord(&self) -> Option<Arc<dyn ActivityDiscord>> {
        self.activity.clone().or_else(provider)
    }

    /// With another request limit (tests).
    pub fn with_limiter(mut self, limiter: Limiter) -> Web {
        self.limiter = limiter;
        self
    }

    /// The tables are open: the web face subscribes to them (its own tables' events delivered, every
    /// channel's last event noted) and the live channel starts. Before the host starts, so that no
    /// event is missed. Once only (later calls change nothing).
    pub fn open(&self, tables: &Arc<Tables>) {
        if self.open.get().is_some() {
            return;
        }
        let face = WebFace::new(tables.clone());
        let opened = Opened {
            tables: tables.clone(),
            face: face.clone(),
            live: Live::new(tables.clone()),
        };
        if self.open.set(opened).is_ok() {
            // The Watch links of Discord's messages point here.
            tables.set_web_base(self.public_url.clone());
            tables.spawn_face(face);
        }
    }

    /// The web face, once the tables are open.
    pub fn face(&self) -> Option<&WebFace> {
        self.open.get().map(|o| &o.face)
    }
}

impl Site for Web {
    fn routes(self: Arc<Self>) -> Router {
        api::routes(self)
    }
}

/// `sequence-bot run` without a Discord token: the pages alone, on `[web] listen` (default
/// `127.0.0.1:8080`), with the store, the restored tables and the host; local play on unless
/// `[web] local = false`. Exit code 2 for a configuration problem, 1 when the database cannot be
/// opened.
pub struct LocalFace;

impl Program for LocalFace {
    type Error = StartError;

    fn run(self, config: BotConfig) -> impl std::future::Future<Output = Result<(), StartError>> {
        run_local(config)
    }

    fn exit_code(error: &StartError) -> i32 {
        error.exit_code()
    }
}

async fn run_local(config: BotConfig) -> Result<(), StartError> {
    let web = Arc::new(Web::new(&config));
    let starting =
        App::start_serving(config, painter(), vec![web.clone() as Arc<dyn Site>]).await?;
    // Without Discord there is no recommended count: `auto` is one shard here.
    let shards = match starting.config().sharding.plan()? {
        ShardPlan::Fixed(set) => set,
        ShardPlan::Single | ShardPlan::Auto => ShardSet::SINGLE,
    };
    // Discord's games in the same database stay in it as they are (no clock runs out, no computer
    // moves) until the bot runs with its token again; their pages show them as played elsewhere.
    let App {
        config,
        tables,
        restored,
        claim,
        web_address,
        ..
    } = starting.restoring_only(&[FaceId::Web]).open(shards).await?;
    if !restored.left.is_empty() {
        tracing::info!(
            games = restored.left.len(),
            "Discord games in the database are left as they are until the bot runs with its token"
        );
    }
    // Only the web's own notes are delivered here (the others wait for the Discord face).
    web.open(&tables);
    if let Some(face) = web.face() {
        for (channel, reply) in restored.notes {
            if tables.face_of(channel) == FaceId::Web {
                tables.deliver_reply(face, channel, &reply).await;
            }
        }
    }
    tables.spawn_host(config.timers.tick(), config.timers.bot_delay());
    if let Some(address) = web_address {
        announce(address);
    }
    stop_signal().await;
    App::release(claim).await;
    Ok(())
}

/// Says where the pages are, on standard output (a newcomer's first line) and in the log.
fn announce(address: SocketAddr) {
    use std::io::Write;
    let shown = if address.ip().is_unspecified() {
        SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), address.port())
    } else {
        address
    };
    tracing::info!(address = %address, "web pages on http://{shown}/");
    let mut out = std::io::stdout().lock();
    let _ =
        writeln!(out, "Play Sequence in your browser: http://{shown}/").and_then(|()| out.flush());
}

/// The pages beside the Discord face (registered by the binary with
/// [`crate::app::start::add_beside`]): served when `[web] listen` is set, with local play when
/// `[web] local = true`. The Watch links of Discord's messages come with `[web] public_url` alone
/// (the pages may be served by another process behind the same address).
#[derive(Default)]
pub struct WebBeside {
    web: Mutex<Option<Arc<Web>>>,
    public_url: Mutex<Option<String>>,
}

impl Beside for WebBeside {
    fn site(&self, config: &BotConfig) -> Option<Arc<dyn Site>> {
        *self.public_url.lock().unwrap_or_else(|e| e.into_inner()) =
            config.web.public_url().ok().flatten();
        config.web_address().ok().flatten()?;
        let web = Arc::new(Web::new(config));
        *self.web.lock().unwrap_or_else(|e| e.into_inner()) = Some(web.clone());
        Some(web)
    }

    fn opened(&self, tables: &Arc<Tables>, address: Option<SocketAddr>) {
        let public_url = self
            .public_url
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        tables.set_web_base(public_url);
        let web = self.web.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(web) = web {
            web.open(tables);
            if let Some(address) = address {
                tracing::info!(address = %address, "web pages on http://{address}/");
            }
        }
    }
}
