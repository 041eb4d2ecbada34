//! What the Activity's page needs from Discord, asked by the web face and answered by the Discord face
//! (no face imports another: both meet here). The Discord face provides an [`ActivityDiscord`] once it
//! knows its application ([`provide`]); the web face asks [`provider`] when a page in Discord's
//! Activity frame signs in. Without a provider (no token, or no `client_secret`) the Activity's
//! routes answer that the Activity is not available here.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use crate::service::Venue;

/// A future as [`ActivityDiscord`] returns it.
pub type Asking<'a, T> = Pin<Box<dyn Future<Output = Result<T, ActivityError>> + Send + 'a>>;

/// The user an access token belongs to (`GET /users/@me` with that token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityUser {
    /// Their Discord user id.
    pub id: u64,
    /// The name shown for them: their display name, else their username.
    pub name: String,
    /// Their client's language (`en-US`, `de`, `no`, …) when Discord says it.
    pub locale: Option<String>,
}

/// An Activity's instance as Discord describes it
/// (`GET /applications/{application}/activity-instances/{instance}` with the bot's token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityInstance {
    /// The channel it was launched in.
    pub channel: u64,
    /// Its server, if any (none in a DM or a group DM).
    pub guild: Option<u64>,
    /// The users in it now.
    pub users: Vec<u64>,
    /// What kind of place it runs in, as the rules of a place go (the Discord face tells it from the
    /// instance's location and the servers the bot is a member of): a server that added the bot
    /// ([`Venue::Server`]: the bot posts there); a server where only a member installed the app
    /// ([`Venue::ServerWithoutBot`]); a DM or a group DM (Discord's location kind `pc` does not tell
    /// the two apart, and their rules are the same: [`Venue::GroupDm`]). Everywhere but a server
    /// that added the bot, it may only answer interactions.
    pub venue: Venue,
}

/// Why Discord did not answer as the page hoped. Never carries a secret, a code or a token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActivityError {
    /// The code was refused (unknown, used before, expired, or for another application).
    #[error("Discord refused the authorization code")]
    BadCode,
    /// The access token was refused (unknown, expired, or for another application).
    #[error("Discord refused the access token")]
    BadToken,
    /// No such instance of this application's Activity (ended, or never was).
    #[error("no such Activity instance")]
    NoInstance,
    /// Discord could not be asked, or answered what it should not: said in the log, not to the page.
    #[error("Discord could not be asked: {0}")]
    Unavailable(String),
}

/// Discord's part of an Activity sign-in, as the Discord face asks it.
pub trait ActivityDiscord: Send + Sync + 'static {
    /// The application's id (the page's `client_id`).
    fn application_id(&self) -> u64;

    /// Exchanges an authorization code from the page's `authorize` for an access token at Discord's
    /// OAuth2 token endpoint, with the application's client secret (which never leaves the bot).
    fn exchange_code<'a>(&'a self, code: &'a str) -> Asking<'a, String>;

    /// The user `access_token` belongs to.
    fn user<'a>(&'a self, access_token: &'a str) -> Asking<'a, ActivityUser>;

    /// The instance `instance_id` of this application's Activity.
    fn instance<'a>(&'a self, instance_id: &'a str) -> Asking<'a, ActivityInstance>;
}

static PROVIDER: Mutex<Option<Arc<dyn ActivityDiscord>>> = Mutex::new(None);

/// Makes `discord` the one the Activity's pages ask (the Discord face, once it knows its application).
pub fn provide(discord: Arc<dyn ActivityDiscord>) {
    *PROVIDER.lock().unwrap_or_else(|e| e.into_inner()) = Some(discord);
}

/// The one the Activity's pages ask, if the Discord face provided one.
pub fn provider() -> Option<Arc<dyn ActivityDiscord>> {
    PROVIDER.lock().unwrap_or_else(|e| e.into_inner()).clone()
}
