//! The Discord Activity's side of the web face: the page in Discord's Activity frame signs in with
//! Discord (through [`crate::app::activity::provider`], which the Discord face provides) and gets a
//! session here; with it, the page is its Discord user on the tables of the instance's channel.
//!
//! - `GET /api/activity` → `{"client_id"}` (404 when the bot has no Activity set up).
//! - `POST /api/activity/token` `{"code"}` → `{"access_token"}`: the code of the SDK's `authorize`
//!   exchanged by the Discord face (with the client secret, which never reaches the page).
//! - `POST /api/activity/session` `{"access_token", "instance_id"}` → `{"session", "name", "lang",
//!   "channel", "token"}`: the token's user, checked to be in the instance, gets a session of that
//!   instance's channel (`token`: the web token of the channel's table, or null). A table another
//!   process holds (shards on one database) is the channel's table too: its page shows it as
//!   issue 46's pages show such a table (read from the store, followed live), and a tap there is
//!   refused in words (`played-elsewhere`): its players play where it runs.
//! - `GET /api/activity/table` → `{"token"}`: the channel's table now (null: none).
//! - `POST /api/activity/start` (the body of `POST /api/games`) opens a lobby in the channel with the
//!   user as its host, the Discord face's like one opened with `/sequence start` → `{"token", "url"}`,
//!   under the rules of the place (`Command::in_venue`: casual in a DM or group DM).
//!
//! Where the instance runs is a place as the Discord face tells it
//! ([`ActivityInstance::venue`](crate::app::activity::ActivityInstance::venue)).
//! Where the bot may only answer interactions (a DM, a group DM, a server that did not add the bot)
//! the sign-in tells the service so (`Tables::note_answers_only`), as an interaction there would:
//! the Discord face then sends what the chat is owed only through interactions (a follow-up on a
//! fresh token, or held back for the next one), never as a channel post.
//!
//! A session is named by the `X-Sequence-Activity` header (the live channel: `?activity=`, as a
//! browser cannot set a WebSocket's headers). Sessions live in memory only ([`Sessions`]): after a
//! restart the page gets 401 and signs in again, silently. No code, token or session id is ever
//! written to the log. Discord's proxy hides the players' addresses, so a session's requests are
//! counted per Discord user by the request limit and the live channel ([`counted_as`]); the sign-in
//! itself, before there is a session, per address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;

use crate::app::activity::{ActivityDiscord, ActivityError};
use crate::i18n::Lang;
use crate::service::{Actor, ChannelId, FaceId, GuildId, Reply, Tables, Text, UserId, Venue};

use super::api::{created, json_answer, lang_code, opened, read_json, refused, Refusal};
use super::local::NewGame;
use super::session::{lang_code as known_lang, Session};
use super::Web;

/// The header that names an Activity session.
pub const SESSION_HEADER: &str = "x-sequence-activity";
/// The live channel's query parameter that names an Activity session.
pub const SESSION_QUERY: &str = "activity";
/// Sessions kept at once in all; past it, the oldest goes.
pub const MAX_SESSIONS: usize = 10_000;
/// Sessions kept at once for one Discord user (a few devices, a few reloads); past it, their oldest
/// goes.
pub const MAX_PER_USER: usize = 8;
/// How long a session lasts.
pub const LIFETIME: Duration = Duration::from_secs(12 * 60 * 60);
/// Longest code or access token taken (Discord's are about 30 characters).
const MAX_SECRET: usize = 512;
/// Longest instance id taken (Discord's are about 50 characters).
const MAX_INSTANCE: usize = 128;

/// What an Activity session stands for: a Discord user in one instance of the Activity, on the
/// tables of its channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivitySession {
    /// Their Discord user id.
    pub user: UserId,
    /// Their name, as Discord gave it.
    pub name: String,
    /// Their client's language, as Discord gave it.
    pub locale: Option<String>,
    /// The channel the Activity runs in.
    pub channel: ChannelId,
    /// Its server (none in a DM or group DM).
    pub guild: Option<GuildId>,
    /// The Activity's instance.
    pub instance: String,
    /// What kind of place the channel is (whether the bot may post there, and its rules).
    pub venue: Venue,
}

impl ActivitySession {
    /// The language of the user's client, if the bot speaks it.
    pub fn lang(&self) -> Option<Lang> {
        self.locale.as_deref().and_then(known_lang)
    }

    /// The user as the service knows an asker.
    pub fn actor(&self) -> Actor {
        Actor {
            user: self.user,
            name: self.name.clone(),
            can_manage: false,
            can_manage_guild: false,
        }
    }
}

/// The Activity sessions of the process, in memory: at most [`MAX_SESSIONS`] (and
/// [`MAX_PER_USER`] per user), each for [`LIFETIME`].
pub struct Sessions {
    max: usize,
    per_user: usize,
    lifetime: Duration,
    kept: Mutex<HashMap<String, (ActivitySession, Instant)>>,
}

impl Default for Sessions {
    fn default() -> Sessions {
        Sessions::with_bounds(MAX_SESSIONS, MAX_PER_USER, LIFETIME)
    }
}

impl Sessions {
    /// Sessions with other bounds (tests).
    pub fn with_bounds(max: usize, per_user: usize, lifetime: Duration) -> Sessions {
        Sessions {
            max: max.max(1),
            per_user: per_user.max(1),
            lifetime,
            kept: Mutex::new(HashMap::new()),
        }
    }

    /// A new session for `session`: its id (64 hex digits from the operating system's random
    /// source), or `None` if that source failed (logged). The expired, the user's oldest past
    /// [`MAX_PER_USER`], and the oldest of all past [`MAX_SESSIONS`] go.
    pub fn open(&self, session: ActivitySession) -> Option<String> {
        let mut bytes = [0u8; 32];
        if let Err(e) = rand::rngs::OsRng.try_fill_bytes(&mut bytes) {
            tracing::error!("the operating system's random source failed: {e}");
            return None;
        }
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let now = Instant::now();
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|_, (_, opened)| now.duration_since(*opened) < self.lifetime);
        let user = session.user;
        while kept.values().filter(|(s, _)| s.user == user).count() >= self.per_user {
            remove_oldest(&mut kept, |s| s.user == user);
        }
        while kept.len() >= self.max {
            remove_oldest(&mut kept, |_| true);
        }
        kept.insert(id.clone(), (session, now));
        Some(id)
    }

    /// The session named `id`, while it lasts.
    pub fn get(&self, id: &str) -> Option<ActivitySession> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let (session, opened) = kept.get(id)?;
        (opened.elapsed() < self.lifetime).then(|| session.clone())
    }

    /// Sessions kept now (expired ones included until the next is opened).
    pub fn len(&self) -> usize {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Removes the oldest of the sessions that `which` picks.
fn remove_oldest(
    kept: &mut HashMap<String, (ActivitySession, Instant)>,
    which: impl Fn(&ActivitySession) -> bool,
) {
    let oldest = kept
        .iter()
        .filter(|(_, (s, _))| which(s))
        .min_by_key(|(_, (_, opened))| *opened)
        .map(|(id, _)| id.clone());
    if let Some(id) = oldest {
        kept.remove(&id);
    }
}

/// The session id a request names: its `X-Sequence-Activity` header, else (the live channel) its
/// `?activity=`. `None`: the request names none.
pub fn named_session<'a>(headers: &'a HeaderMap, query: Option<&'a str>) -> Option<&'a str> {
    if let Some(value) = headers.get(SESSION_HEADER) {
        return Some(value.to_str().unwrap_or_default().trim());
    }
    query?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == SESSION_QUERY)
        .map(|(_, value)| value)
}

/// The address the requests of `user`'s sessions are counted under by the request limit and the live
/// channel's bounds: one of their own (a unique local IPv6 address made of the user id), as
/// Discord's proxy hides the players' addresses behind a few of its own.
pub fn counted_as(user: UserId) -> IpAddr {
    const PREFIX: u128 = 0xfd53_7165_0000_0000_0000_0000_0000_0000;
    IpAddr::V6(Ipv6Addr::from(PREFIX | u128::from(user.0)))
}

/// The origin of the Activity's page in Discord's frame: `https://<application id>.discordsays.com`.
pub fn frame_origin(discord: &dyn ActivityDiscord) -> String {
    format!("https://{}.discordsays.com", discord.application_id())
}

/// The session a request names, if it names one; 401 if it names one that is not (or no longer)
/// kept.
pub(super) fn session_of(
    web: &Web,
    headers: &HeaderMap,
    query: Option<&str>,
    lang: Lang,
) -> Result<Option<ActivitySession>, Refusal> {
    let Some(id) = named_session(headers, query) else {
        return Ok(None);
    };
    web.sessions
        .get(id)
        .map(Some)
        .ok_or_else(|| Refusal::new(StatusCode::UNAUTHORIZED, lang, "web-activity-signed-out"))
}

/// The session a request must name, and the language to answer it in; 401 without one.
fn signed_in(
    web: &Web,
    headers: &HeaderMap,
    uri: &Uri,
) -> Result<(ActivitySession, Lang), Refusal> {
    let asked = Session::read(headers, uri.query()).lang;
    let session = session_of(web, headers, None, asked)?
        .ok_or_else(|| Refusal::new(StatusCode::UNAUTHORIZED, asked, "web-activity-signed-out"))?;
    let lang = session.lang().unwrap_or(asked);
    Ok((session, lang))
}

/// The provider of the Activity's sign-in, or 404 when the bot has none.
fn discord(web: &Web, lang: Lang) -> Result<Arc<dyn ActivityDiscord>, Refusal> {
    web.activity_discord()
        .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, lang, "web-activity-off"))
}

/// Why Discord's answer ends a sign-in: its status and sentence (what went wrong on Discord's side
/// only in the log).
fn refusal_of(error: &ActivityError, lang: Lang) -> Refusal {
    match error {
        ActivityError::BadCode => {
            Refusal::new(StatusCode::UNAUTHORIZED, lang, "web-activity-bad-code")
        }
        ActivityError::BadToken => {
            Refusal::new(StatusCode::UNAUTHORIZED, lang, "web-activity-bad-token")
        }
        ActivityError::NoInstance => {
            Refusal::new(StatusCode::NOT_FOUND, lang, "web-activity-no-instance")
        }
        ActivityError::Unavailable(reason) => {
            tracing::warn!("the Activity's sign-in could not ask Discord: {reason}");
            Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                lang,
                "web-activity-unavailable",
            )
        }
    }
}

/// Whether `text` may be a code or an access token: 1 to [`MAX_SECRET`] visible ASCII characters.
fn is_secret_shaped(text: &str) -> bool {
    !text.is_empty() && text.len() <= MAX_SECRET && text.bytes().all(|b| b.is_ascii_graphic())
}

/// Whether `text` may be an instance id: 1 to [`MAX_INSTANCE`] letters, digits and `-_.:`.
fn is_instance_shaped(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_INSTANCE
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// `GET /api/activity`.
pub(super) async fn about(State(web): State<Arc<Web>>, headers: HeaderMap, uri: Uri) -> Response {
    let lang = Session::read(&headers, uri.query()).lang;
    match discord(&web, lang) {
        Ok(discord) => json_answer(
            StatusCode::OK,
            &json!({ "client_id": discord.application_id().to_string() }),
        ),
        Err(refusal) => axum::response::IntoResponse::into_response(refusal),
    }
}

/// What `POST /api/activity/token` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CodeAsked {
    code: String,
}

/// `POST /api/activity/token`.
pub(super) async fn token(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    uri: Uri,
    body: Bytes,
) -> Result<Response, Refusal> {
    let lang = Session::read(&headers, uri.query()).lang;
    let discord = discord(&web, lang)?;
    let asked: CodeAsked = read_json(&body, lang)?;
    if !is_secret_shaped(&asked.code) {
        return Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            lang,
            "web-activity-bad-code",
        ));
    }
    let access_token = discord
        .exchange_code(&asked.code)
        .await
        .map_err(|e| refusal_of(&e, lang))?;
    Ok(json_answer(
        StatusCode::OK,
        &json!({ "access_token": access_token }),
    ))
}

/// What `POST /api/activity/session` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionAsked {
    access_token: String,
    instance_id: String,
}

/// `POST /api/activity/session`.
pub(super) async fn sign_in(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    uri: Uri,
    body: Bytes,
) -> Result<Response, Refusal> {
    let asked_lang = Session::read(&headers, uri.query()).lang;
    let discord = discord(&web, asked_lang)?;
    let (tables, _) = opened(&web, asked_lang)?;
    let asked: SessionAsked = read_json(&body, asked_lang)?;
    if !is_secret_shaped(&asked.access_token) {
        return Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            asked_lang,
            "web-activity-bad-token",
        ));
    }
    if !is_instance_shaped(&asked.instance_id) {
        return Err(Refusal::new(
            StatusCode::NOT_FOUND,
            asked_lang,
            "web-activity-no-instance",
        ));
    }
    let (user, instance) = tokio::join!(
        discord.user(&asked.access_token),
        discord.instance(&asked.instance_id)
    );
    let user = user.map_err(|e| refusal_of(&e, asked_lang))?;
    let lang = user
        .locale
        .as_deref()
        .and_then(known_lang)
        .unwrap_or(asked_lang);
    let instance = instance.map_err(|e| refusal_of(&e, lang))?;
    if !instance.users.contains(&user.id) {
        return Err(Refusal::new(
            StatusCode::FORBIDDEN,
            lang,
            "web-activity-not-in-instance",
        ));
    }
    let session = ActivitySession {
        user: UserId(user.id),
        name: user
            .name
            .chars()
            .take(super::session::MAX_NAME_CHARS)
            .collect(),
        locale: user.locale,
        channel: ChannelId(instance.channel),
        guild: instance.guild.map(GuildId),
        instance: asked.instance_id,
        venue: instance.venue,
    };
    let channel = session.channel;
    note_place(tables, channel, session.venue).await;
    let name = session.name.clone();
    let id = web.sessions.open(session).ok_or_else(|| Refusal {
        status: StatusCode::SERVICE_UNAVAILABLE,
        text: Text::Internal.render(lang),
    })?;
    Ok(json_answer(
        StatusCode::OK,
        &json!({
            "session": id,
            "name": name,
            "lang": lang_code(lang),
            "channel": channel.0.to_string(),
            "token": tables.web_token_anywhere(channel).await,
        }),
    ))
}

/// `GET /api/activity/table`.
pub(super) async fn table(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    uri: Uri,
) -> Result<Response, Refusal> {
    let (session, lang) = signed_in(&web, &headers, &uri)?;
    let (tables, _) = opened(&web, lang)?;
    Ok(json_answer(
        StatusCode::OK,
        &json!({ "token": tables.web_token_anywhere(session.channel).await }),
    ))
}

/// `POST /api/activity/start`: a lobby in the session's channel, its host the user, the Discord
/// face's (the chat shows it as after `/sequence start`), rated as the place's games are.
pub(super) async fn start(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    uri: Uri,
    body: Bytes,
) -> Result<Response, Refusal> {
    let (session, lang) = signed_in(&web, &headers, &uri)?;
    let (tables, _) = opened(&web, lang)?;
    let asked: NewGame = read_json(&body, lang)?;
    let channel = session.channel;
    let asker = (session.user, session.name.as_str());
    let mut request = asked.request_in(
        channel,
        session.guild,
        session.actor(),
        web.default_variant,
        None,
    );
    // The rules of the place, as for `/sequence start` there: casual outside servers.
    request.command = match request.command.in_venue(session.venue) {
        Ok(command) => command,
        Err(text) => {
            return Err(refused(
                tables,
                channel,
                &Reply::ephemeral(text),
                asker,
                lang,
            ))
        }
    };
    // Known before the lobby is: its card goes out as the place allows.
    note_place(tables, channel, session.venue).await;
    let (reply, pending) = tables
        .serve_owned(request, FaceId::Web, FaceId::Discord)
        .await;
    drop(pending);
    if reply.is_refusal() {
        return Err(refused(tables, channel, &reply, asker, lang));
    }
    created(tables, channel, lang)
}

/// Tells the service whether the bot may only answer in `channel` (the place of an Activity's
/// instance), when that changed, as an interaction there would (on a blocking thread: a table there
/// is saved with the mark).
async fn note_place(tables: &Arc<Tables>, channel: ChannelId, venue: Venue) {
    let answers_only = venue.answers_only();
    if tables.is_answers_only(channel) == answers_only {
        return;
    }
    let tables = tables.clone();
    let noted =
        tokio::task::spawn_blocking(move || tables.note_answers_only(channel, answers_only)).await;
    if let Err(e) = noted {
        tracing::error!(
            channel = channel.0,
            "noting where the bot may post failed: {e}"
        );
    }
}

/// The channel of the table whose web token is `token` if it is the session's channel's table
/// (404 otherwise: another channel's table is nothing to a session).
pub(super) async fn channel_for(
    tables: &Arc<Tables>,
    session: &ActivitySession,
    token: &str,
    lang: Lang,
) -> Result<ChannelId, Refusal> {
    if tables.web_token(session.channel).as_deref() == Some(token) {
        return Ok(session.channel);
    }
    match tables.find_web_token(token).await {
        Some(channel) if channel == session.channel => Ok(channel),
        _ => Err(Refusal::new(
            StatusCode::NOT_FOUND,
            lang,
            "web-api-not-found",
        )),
    }
}

#[cfg(test)]
mod tests;
