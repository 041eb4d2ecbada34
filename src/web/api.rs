//! The JSON API the page uses, and `/g/{token}`. Every answer is JSON; an error is a 4xx or 5xx with
//! `{"error": "<a sentence in the asker's language>"}`, never a panic:
//!
//! - `GET /api/me` → `{"name", "local", "lang"}`; `POST /api/me` `{"name"}` sets the guest's cookies.
//! - `POST /api/games` (local play only, else 404) opens a game with the asker seated as its host →
//!   `{"token", "url"}`.
//! - `GET /api/g/{token}` → `{"token", "version", "view", "replay"}`: what the asker may see of the
//!   table (their hand only if seated); a finished game's replay; with `next` (the token of the game
//!   played now) for an earlier game of a series still played.
//! - `POST /api/g/{token}/act` `{"action", "turn", "card", "cell", "level", "team"}`: a move (`play`,
//!   `exchange`, `roll`, each with the turn it was made on: a stale one is refused) or another action,
//!   through the service's one door → `{"ok": true, "message"}`, or 409 with the service's refusal.
//! - `GET /api/g/{token}/live` → the live channel (a WebSocket).
//! - `GET /g/{token}` → the page if the token is known, else a plain 404 page.
//! - `GET /s/{token}`, `GET /api/s/{token}` → a server's own page and its data (see [`server_page`]).
//! - `/api/activity…`: the Discord Activity's sign-in (see [`activity`]). A request with an Activity
//!   session (`X-Sequence-Activity`; the live channel `?activity=`) is its Discord user on the
//!   tables of its channel only; a guest (a cookie) only watches a table that is not a local game.
//!
//! Every path is served under `/.proxy/` as well (Discord's proxy in front of the Activity). Every
//! request passes [`guard`] first: the per-address limit (429) and, for a POST, the check against
//! cross-site forgery (403).

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post, MethodRouter};
use axum::{Extension, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::engine::{Card, Variant};
use crate::i18n::{tr, tr_args, Args, Lang};
use crate::service::text::HintMove;
use crate::service::{
    Actor, BotLevel, CellName, ChannelId, Command, FaceId, Output, Press, Reply,
    Request as ServiceRequest, State as TableState, Step, TableView, Tables, Text, Timestamp,
    UserId,
};

use super::activity::{self, channel_for, frame_origin, session_of, ActivitySession};
use super::face::WebFace;
use super::limit::client_address;
use super::local::{is_local, new_channel, NewGame};
use super::plain::plain;
use super::session::{check_forgery, checked_name, set_cookies, Session};
use super::{live, page, replay, server_page, Web};

/// The routes of the web face, behind [`guard`]; all of them under `/.proxy/` too (with a 404 of
/// their own for any other path there).
pub fn routes(web: Arc<Web>) -> Router {
    let proxied = paths()
        .fallback(unknown_address)
        .layer(middleware::from_fn_with_state(web.clone(), guard))
        .with_state(web.clone());
    paths()
        .layer(middleware::from_fn_with_state(web.clone(), guard))
        .with_state(web)
        .nest_service("/.proxy", proxied)
}

/// The paths of the web face.
fn paths() -> Router<Arc<Web>> {
    Router::new()
        .route("/api/me", only(get(me).post(set_me)))
        .route("/api/activity", only(get(activity::about)))
        .route("/api/activity/token", only(post(activity::token)))
        .route("/api/activity/session", only(post(activity::sign_in)))
        .route("/api/activity/table", only(get(activity::table)))
        .route("/api/activity/start", only(post(activity::start)))
        .route("/api/games", only(post(new_game)))
        .route("/api/g/{token}", only(get(game)))
        .route("/api/g/{token}/act", only(post(act)))
        .route("/api/g/{token}/live", only(get(live_channel)))
        .route("/api/g/{token}/replay", only(get(game_replay)))
        .route("/api/g/{token}/record", only(get(game_record)))
        .route("/g/{token}", only(get(game_page)))
        .route("/api/s/{token}", only(get(server_data)))
        .route("/s/{token}", only(get(server_html)))
        .route("/api/{*rest}", any(unknown_address))
        .merge(page::page_routes())
}

/// `route` with any other method answered 405 in JSON.
fn only(route: MethodRouter<Arc<Web>>) -> MethodRouter<Arc<Web>> {
    route.fallback(|asked: Session| async move {
        error(StatusCode::METHOD_NOT_ALLOWED, asked.lang, "web-api-method")
    })
}

/// The client's address, as [`guard`] found it.
#[derive(Clone, Copy, Debug)]
struct Client(IpAddr);

/// In front of every route: the per-address request limit (429; an Activity session's requests
/// counted as its user's), and for anything but `GET` and `HEAD` the check against cross-site
/// forgery (403).
async fn guard(State(web): State<Arc<Web>>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    // A session's requests count as its Discord user's (Discord's proxy hides their addresses).
    let session = activity::named_session(request.headers(), request.uri().query())
        .and_then(|id| web.sessions.get(id));
    let client = match session {
        Some(session) => activity::counted_as(session.user),
        None => client_address(peer, request.headers()),
    };
    let lang = || Session::read(request.headers(), request.uri().query()).lang;
    if !web.limiter.allow(client) {
        let mut answer = error(StatusCode::TOO_MANY_REQUESTS, lang(), "web-api-too-many");
        answer
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return answer;
    }
    let reads = matches!(*request.method(), Method::GET | Method::HEAD);
    if !reads {
        // The pages' own address, and the Activity's page in Discord's frame.
        let frame = web.activity_discord().map(|d| frame_origin(d.as_ref()));
        let allowed: Vec<&str> = web
            .public_origin
            .iter()
            .chain(&frame)
            .map(String::as_str)
            .collect();
        if check_forgery(request.headers(), &allowed).is_err() {
            return error(StatusCode::FORBIDDEN, lang(), "web-api-forbidden");
        }
    }
    request.extensions_mut().insert(Client(client));
    next.run(request).await
}

/// A JSON answer.
pub(super) fn json_answer(status: StatusCode, body: &impl Serialize) -> Response {
    let text = serde_json::to_string(body).unwrap_or_else(|_| "{}".into());
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}

/// `{"error": …}` with the catalogue's message `key` in `lang`.
fn error(status: StatusCode, lang: Lang, key: &str) -> Response {
    Refusal::new(status, lang, key).into_response()
}

/// A request that cannot be served: its status and the sentence that says why.
#[derive(Debug)]
pub(super) struct Refusal {
    pub(super) status: StatusCode,
    pub(super) text: String,
}

impl Refusal {
    /// With the catalogue's message `key` in `lang`.
    pub(super) fn new(status: StatusCode, lang: Lang, key: &str) -> Refusal {
        Refusal {
            status,
            text: tr(lang, key),
        }
    }

    /// With the catalogue's message `key` in `lang`, its variables `args`.
    fn with(status: StatusCode, lang: Lang, key: &str, args: &[(&str, &str)]) -> Refusal {
        let mut fluent = Args::new();
        for (name, value) in args {
            fluent = fluent.text(name, *value);
        }
        Refusal {
            status,
            text: tr_args(lang, key, &fluent),
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        json_answer(self.status, &json!({ "error": self.text }))
    }
}

/// The language code the page uses (`en`, `de`, `no`).
pub(super) fn lang_code(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::De => "de",
        Lang::No => "no",
    }
}

/// The tables and the web face, or 503 while the bot starts.
pub(super) fn opened(web: &Web, lang: Lang) -> Result<(&Arc<Tables>, &WebFace), Refusal> {
    web.open
        .get()
        .map(|o| (&o.tables, &o.face))
        .ok_or_else(|| Refusal::new(StatusCode::SERVICE_UNAVAILABLE, lang, "web-api-starting"))
}

/// The channel of the running table whose watch token is `token` (held here, or by another process
/// on a shared database: [`Tables::find_web_token`]), or 404.
async fn channel_of(tables: &Arc<Tables>, token: &str, lang: Lang) -> Result<ChannelId, Refusal> {
    tables
        .find_web_token(token)
        .await
        .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, lang, "web-api-not-found"))
}

/// `body` read as JSON of `T`, or 400.
pub(super) fn read_json<T: for<'de> Deserialize<'de>>(
    body: &[u8],
    lang: Lang,
) -> Result<T, Refusal> {
    serde_json::from_slice(body)
        .map_err(|_| Refusal::new(StatusCode::BAD_REQUEST, lang, "web-api-unreadable"))
}

/// Who asks: a guest of the pages (their cookies), or the Discord user of an Activity session.
struct Asker {
    /// The request's cookies and language.
    guest: Session,
    /// The Activity session the request names, if any.
    activity: Option<ActivitySession>,
    /// The language to answer in: the Discord user's, else the request's.
    lang: Lang,
}

impl Asker {
    /// Who asks with `headers` at `uri` (`live`: the session may be named in the query, as a
    /// WebSocket cannot carry the header); 401 for a session that is not (or no longer) kept.
    fn read(web: &Web, headers: &HeaderMap, uri: &Uri, live: bool) -> Result<Asker, Refusal> {
        let guest = Session::read(headers, uri.query());
        let query = uri.query().filter(|_| live);
        let activity = session_of(web, headers, query, guest.lang)?;
        let lang = activity
            .as_ref()
            .and_then(ActivitySession::lang)
            .unwrap_or(guest.lang);
        Ok(Asker {
            guest,
            activity,
            lang,
        })
    }

    /// Whose hand a view shows.
    fn viewer(&self) -> Option<UserId> {
        match &self.activity {
            Some(session) => Some(session.user),
            None => self.guest.guest.as_ref().map(|g| g.user),
        }
    }

    /// Who acts, with their name (`None`: a guest who has not chosen a name).
    fn player(&self) -> Option<(UserId, &str)> {
        match &self.activity {
            Some(session) => Some((session.user, session.name.as_str())),
            None => self.guest.player(),
        }
    }

    /// The channel of the running table whose web token is `token`, as this asker may reach it:
    /// a session only its channel's.
    async fn running(&self, tables: &Arc<Tables>, token: &str) -> Option<ChannelId> {
        match &self.activity {
            Some(session) => channel_for(tables, session, token, self.lang).await.ok(),
            None => tables.find_web_token(token).await,
        }
    }

    /// Refused (403) if a guest would act at `channel`'s table: one that is not a local game is
    /// played in Discord, and only watched here.
    fn may_act(&self, channel: ChannelId) -> Result<(), Refusal> {
        if self.activity.is_none() && !is_local(channel) {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                self.lang,
                "web-api-watch-only",
            ));
        }
        Ok(())
    }
}

// ---- What a handler starts from (read before it runs) -----------------------------------------------

/// A guest's cookies and the language asked for (the `lang` query or cookie).
impl<S: Send + Sync> FromRequestParts<S> for Session {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Session, Infallible> {
        Ok(Session::read(&parts.headers, parts.uri.query()))
    }
}

/// Who asks, an Activity session named by its header only; 401 for one not (or no longer) kept.
impl FromRequestParts<Arc<Web>> for Asker {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, web: &Arc<Web>) -> Result<Asker, Refusal> {
        Asker::read(web, &parts.headers, &parts.uri, false)
    }
}

/// Who opens the live channel: as [`Asker`], the session named by its header or, as a browser
/// cannot set a WebSocket's headers, by the address's `?activity=`.
struct LiveAsker(Asker);

impl FromRequestParts<Arc<Web>> for LiveAsker {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, web: &Arc<Web>) -> Result<LiveAsker, Refusal> {
        Asker::read(web, &parts.headers, &parts.uri, true).map(LiveAsker)
    }
}

/// The open tables and the language asked for, for a handler that needs no more; 503 while the bot
/// starts.
struct Open {
    tables: Arc<Tables>,
    lang: Lang,
}

impl FromRequestParts<Arc<Web>> for Open {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, web: &Arc<Web>) -> Result<Open, Refusal> {
        let lang = Session::read(&parts.headers, parts.uri.query()).lang;
        let (tables, _) = opened(web, lang)?;
        Ok(Open {
            tables: tables.clone(),
            lang,
        })
    }
}

/// `GET /api/me` (and the answer of `POST /api/me`).
fn me_answer(web: &Web, name: Option<&str>, lang: Lang) -> serde_json::Value {
    json!({ "name": name, "local": web.local, "lang": lang_code(lang) })
}

async fn me(State(web): State<Arc<Web>>, asker: Asker) -> Response {
    let name = match &asker.activity {
        Some(session) => Some(session.name.as_str()),
        None => asker.guest.guest.as_ref().and(asker.guest.name.as_deref()),
    };
    json_answer(StatusCode::OK, &me_answer(&web, name, asker.lang))
}

/// What `POST /api/me` takes.
#[derive(Deserialize)]
struct NameAsked {
    name: String,
}

async fn set_me(
    State(web): State<Arc<Web>>,
    session: Session,
    body: Bytes,
) -> Result<Response, Refusal> {
    let asked: NameAsked = read_json(&body, session.lang)?;
    let name = checked_name(&asked.name)
        .map_err(|_| Refusal::new(StatusCode::BAD_REQUEST, session.lang, "web-api-bad-name"))?;
    let guest = session.guest.unwrap_or_default();
    let mut answer = json_answer(StatusCode::OK, &me_answer(&web, Some(&name), session.lang));
    for cookie in set_cookies(&guest, &name, web.secure) {
        answer.headers_mut().append(header::SET_COOKIE, cookie);
    }
    Ok(answer)
}

async fn new_game(
    State(web): State<Arc<Web>>,
    session: Session,
    body: Bytes,
) -> Result<Response, Refusal> {
    let lang = session.lang;
    if !web.local {
        return Err(Refusal::new(
            StatusCode::NOT_FOUND,
            lang,
            "web-api-no-local",
        ));
    }
    let (tables, face) = opened(&web, lang)?;
    let (user, name) = session
        .player()
        .ok_or_else(|| Refusal::new(StatusCode::UNAUTHORIZED, lang, "web-api-name-needed"))?;
    let asked: NewGame = read_json(&body, lang)?;
    let channel = new_channel();
    let request = asked.request(channel, user, name, web.default_variant);
    let (reply, pending) = tables.serve(request, FaceId::Web).await;
    tables.deliver(face, channel, &reply.outputs).await;
    drop(pending);
    if reply.is_refusal() {
        return Err(refused(tables, channel, &reply, (user, name), lang));
    }
    created(tables, channel, lang)
}

/// The answer to a game opened in `channel`: 201 with its page's address and web token.
pub(super) fn created(
    tables: &Tables,
    channel: ChannelId,
    lang: Lang,
) -> Result<Response, Refusal> {
    let token = tables.web_token(channel).ok_or_else(|| Refusal {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        text: Text::Internal.render(lang),
    })?;
    Ok(json_answer(
        StatusCode::CREATED,
        &json!({ "url": format!("/g/{token}"), "token": token }),
    ))
}

async fn game(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    asker: Asker,
) -> Result<Response, Refusal> {
    let lang = asker.lang;
    let (tables, face) = opened(&web, lang)?;
    // A table found running may close before its view is taken (its last move being saved): it is
    // then a finished game, answered as one below.
    let running = match asker.running(tables, &token).await {
        Some(channel) => tables
            .view(channel, asker.viewer(), lang, Timestamp::now())
            .map(|view| (channel, view)),
        None => None,
    };
    let Some((channel, view)) = running else {
        // A finished game's page is its replay (for a session, only a recent one of its channel).
        let recent = asker
            .viewer()
            .and_then(|user| tables.rematch_of_web_token(&token, Some(user), Timestamp::now()));
        let reachable = match &asker.activity {
            Some(session) => recent.is_some_and(|(channel, _, _)| channel == session.channel),
            None => true,
        };
        let activity = asker.activity.as_ref().map(|s| s.channel);
        // A game of a series still played: the page that showed it live goes on to the game
        // played now (the replay, where one is kept, is for those who open it afresh).
        let next = match &asker.activity {
            Some(_) => None,
            None => tables.next_of_web_token(&token),
        };
        if reachable && is_finished(tables, &token, activity).await {
            // Whether this asker may open its rematch from here (they played it, and it is recent).
            let rematch = recent.is_some_and(|(_, _, played)| played);
            return Ok(json_answer(
                StatusCode::OK,
                &json!({ "token": token, "version": 0, "view": null, "replay": true, "rematch": rematch, "next": next }),
            ));
        }
        if let Some(next) = next {
            return Ok(json_answer(
                StatusCode::OK,
                &json!({ "token": token, "version": 0, "view": null, "replay": false, "next": next }),
            ));
        }
        return Err(Refusal::new(
            StatusCode::NOT_FOUND,
            lang,
            "web-api-not-found",
        ));
    };
    Ok(json_answer(
        StatusCode::OK,
        &json!({
            "token": token,
            "version": if tables.held_elsewhere(channel) { tables.version_elsewhere(channel).unwrap_or(0) } else { face.version(channel) },
            "view": view,
            "replay": false,
        }),
    ))
}

/// What `POST /api/g/{token}/act` takes.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Act {
    /// What to do (see [`Action`]).
    pub action: String,
    /// The turn a move was made on (`board.turn` of the view it was chosen on).
    #[serde(default)]
    pub turn: Option<u32>,
    /// The card played or exchanged (`7H`, `lion`).
    #[serde(default)]
    pub card: Option<String>,
    /// The cell (`D6`).
    #[serde(default)]
    pub cell: Option<String>,
    /// The level of a computer player added.
    #[serde(default)]
    pub level: Option<BotLevel>,
    /// The team joined (1-based).
    #[serde(default)]
    pub team: Option<u8>,
}

/// The actions of `act`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Join,
    Leave,
    AddBot,
    RemoveBot,
    Begin,
    Cancel,
    Play,
    Exchange,
    Roll,
    Hint,
    Stop,
    Forfeit,
    Rematch,
    NextGame,
}

impl Action {
    fn parse(text: &str) -> Option<Action> {
        Some(match text {
            "join" => Action::Join,
            "leave" => Action::Leave,
            "add_bot" => Action::AddBot,
            "remove_bot" => Action::RemoveBot,
            "begin" => Action::Begin,
            "cancel" => Action::Cancel,
            "play" => Action::Play,
            "exchange" => Action::Exchange,
            "roll" => Action::Roll,
            "hint" => Action::Hint,
            "stop" => Action::Stop,
            "forfeit" => Action::Forfeit,
            "rematch" => Action::Rematch,
            "next_game" => Action::NextGame,
            _ => return None,
        })
    }
}

/// The command `act` asks for on the table whose view is `view`, or why it cannot be one (400, in
/// `lang`).
fn command_of(act: &Act, view: &TableView, lang: Lang) -> Result<Command, Refusal> {
    let bad = |key: &str| Refusal::new(StatusCode::BAD_REQUEST, lang, key);
    let shown = |text: &str| text.chars().take(20).collect::<String>();
    let Some(action) = Action::parse(&act.action) else {
        let action = shown(&act.action);
        return Err(Refusal::with(
            StatusCode::BAD_REQUEST,
            lang,
            "web-api-unknown-action",
            &[("action", &action)],
        ));
    };
    let key = view.key;
    let variant = view.game.variant;
    let card = || -> Result<Card, Refusal> {
        let text = act
            .card
            .as_deref()
            .ok_or_else(|| bad("web-api-card-needed"))?;
        Card::parse(text, variant).ok_or_else(|| {
            Refusal::with(
                StatusCode::BAD_REQUEST,
                lang,
                "web-api-bad-card",
                &[("card", &shown(text))],
            )
        })
    };
    let moved = |step: Step| -> Result<Command, Refusal> {
        let turn = act.turn.ok_or_else(|| bad("web-api-turn-needed"))?;
        Ok(Command::Press(Press {
            table: key,
            turn,
            step,
        }))
    };
    let command = match action {
        Action::Play => {
            let text = act
                .cell
                .as_deref()
                .ok_or_else(|| bad("web-api-cell-needed"))?;
            let cell = cell_on(text, view).ok_or_else(|| {
                Refusal::with(
                    StatusCode::BAD_REQUEST,
                    lang,
                    "web-api-bad-cell",
                    &[("cell", &shown(text))],
                )
            })?;
            // Dice places (or removes) with the roll, not a card.
            let card = if variant == Variant::Dice {
                None
            } else {
                Some(card()?)
            };
            return moved(Step::Cell(card, cell));
        }
        Action::Exchange => return moved(Step::Exchange(card()?)),
        Action::Roll => return moved(Step::Roll),
        // Routed by the service's door to the search pool (never wrapped).
        Action::Hint => return Ok(Command::Hint),
        // As typed, not as a question's Yes (the page asks before it sends them): the token already
        // names this game only.
        Action::Stop => return Ok(Command::Stop),
        Action::Forfeit => return Ok(Command::Forfeit { game: None }),
        Action::Join => Command::Join { team: act.team },
        Action::Leave => Command::Leave,
        Action::AddBot => Command::AddBot { level: act.level },
        Action::RemoveBot => Command::RemoveBot,
        Action::Begin => Command::Begin,
        Action::Cancel => Command::Cancel,
        Action::Rematch => Command::Rematch { game: key },
        Action::NextGame => Command::NextGame,
    };
    // Carried out only while this game is the channel's (a page left open on an old game acts on
    // nothing new).
    Ok(Command::OfGame {
        game: key,
        command: Box::new(command),
    })
}

/// The cell named `text` (`D6`: a capital column letter and a row number) if it is on the view's
/// board (any cell name while no board is dealt).
fn cell_on(text: &str, view: &TableView) -> Option<CellName> {
    let mut chars = text.chars();
    let letter = chars.next().filter(char::is_ascii_uppercase)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
        return None;
    }
    let row: u8 = digits.parse().ok()?;
    let cell = CellName {
        col: letter as u8 - b'A',
        row: row - 1,
    };
    match &view.board {
        Some(board) if cell.col >= board.width || cell.row >= board.height => None,
        _ => Some(cell),
    }
}

async fn act(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    asker: Asker,
    body: Bytes,
) -> Result<Response, Refusal> {
    let lang = asker.lang;
    let (tables, face) = opened(&web, lang)?;
    let running = asker.running(tables, &token).await;
    if let Some(channel) = running {
        asker.may_act(channel)?;
    }
    let (user, name) = asker
        .player()
        .ok_or_else(|| Refusal::new(StatusCode::UNAUTHORIZED, lang, "web-api-name-needed"))?;
    let asked: Act = read_json(&body, lang)?;
    let (channel, command) = match running {
        Some(channel) => {
            let view = tables
                .view(channel, Some(user), lang, Timestamp::now())
                .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, lang, "web-api-not-found"))?;
            (channel, command_of(&asked, &view, lang)?)
        }
        // A finished game's page (its replay) opens its rematch, as its final message's button.
        None if asked.action == "rematch" => {
            let (channel, game, _) = tables
                .rematch_of_web_token(&token, Some(user), Timestamp::now())
                .filter(|(channel, _, _)| {
                    asker
                        .activity
                        .as_ref()
                        .is_none_or(|session| session.channel == *channel)
                })
                .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, lang, "web-api-not-found"))?;
            asker.may_act(channel)?;
            (channel, Command::Rematch { game })
        }
        None => {
            return Err(Refusal::new(
                StatusCode::NOT_FOUND,
                lang,
                "web-api-not-found",
            ))
        }
    };
    let rematch = matches!(command, Command::Rematch { .. });
    let request = ServiceRequest {
        guild: asker.activity.as_ref().and_then(|session| session.guild),
        channel,
        actor: Actor {
            user,
            name: name.to_string(),
            can_manage: false,
            can_manage_guild: false,
        },
        command,
    };
    let (reply, pending) = tables.serve(request, FaceId::Web).await;
    // The web delivers only its own tables' outputs; the face of another table (Discord, for an
    // Activity's move) delivers them from the event, whose origin is the web.
    if tables.face_of(channel) == FaceId::Web {
        tables.deliver(face, channel, &reply.outputs).await;
    }
    let answer = if reply.is_refusal() {
        Err(refused(tables, channel, &reply, (user, name), lang))
    } else if let Some(new) = tables
        .web_token(channel)
        .filter(|new| rematch && *new != token)
    {
        // The rematch's lobby has a page of its own: the page goes there.
        Ok(json_answer(
            StatusCode::OK,
            &json!({ "ok": true, "message": null, "url": format!("/g/{new}") }),
        ))
    } else {
        Ok(done(tables, channel, &reply, (user, name), lang))
    };
    // What follows (the computer's moves) starts once the asker is answered.
    drop(pending);
    answer
}

/// The names of everyone at `channel`'s table (and the asker), by user id, for [`plain`].
fn names_at(tables: &Tables, channel: ChannelId, asker: (UserId, &str)) -> HashMap<u64, String> {
    let mut names = HashMap::from([(asker.0 .0, asker.1.to_string())]);
    if let Some(table) = tables.snapshot(channel) {
        let players: Vec<_> = match &table.state {
            TableState::Lobby(lobby) => lobby
                .seats
                .iter()
                .chain(&lobby.invited)
                .map(|s| s.player.clone())
                .collect(),
            TableState::Playing(playing) => playing.seats.clone(),
        };
        for player in players {
            if let Some(user) = player.user() {
                names.insert(user.0, player.name().to_string());
            }
        }
    }
    names
}

/// The text of the reply's first private message (the answer meant for the asker), in plain words.
fn private_text(
    tables: &Tables,
    channel: ChannelId,
    reply: &Reply,
    asker: (UserId, &str),
    lang: Lang,
) -> Option<String> {
    let message = reply.outputs.iter().find_map(|output| match output {
        Output::Ephemeral(m) | Output::Update(m) => Some(m),
        _ => None,
    })?;
    // "Done: see the channel": the page shows the table itself.
    if matches!(message.lines.first(), Some(Text::Done | Text::PickerDone)) {
        return None;
    }
    let text = plain(&message.render(lang), &names_at(tables, channel, asker));
    (!text.trim().is_empty()).then_some(text)
}

/// 409 with the service's refusal in plain words.
pub(super) fn refused(
    tables: &Tables,
    channel: ChannelId,
    reply: &Reply,
    asker: (UserId, &str),
    lang: Lang,
) -> Refusal {
    Refusal {
        status: StatusCode::CONFLICT,
        text: private_text(tables, channel, reply, asker, lang)
            .unwrap_or_else(|| Text::Internal.render(lang)),
    }
}

/// `{"ok": true, "message"}`, and with a hint `"hint": {"card", "cell"}`.
fn done(
    tables: &Tables,
    channel: ChannelId,
    reply: &Reply,
    asker: (UserId, &str),
    lang: Lang,
) -> Response {
    let message = private_text(tables, channel, reply, asker, lang);
    let mut body = json!({ "ok": true, "message": message });
    let hinted = reply
        .outputs
        .iter()
        .filter_map(Output::message)
        .flat_map(|m| &m.lines)
        .find_map(|line| match line {
            Text::Hint { mv, .. } => Some(mv),
            _ => None,
        });
    let hint = match hinted {
        Some(HintMove::Play { card, cell }) => {
            Some(json!({ "card": card.to_string(), "cell": cell }))
        }
        Some(HintMove::Exchange(card)) => Some(json!({ "card": card.to_string(), "cell": null })),
        Some(HintMove::Place(cell) | HintMove::Remove(cell)) => {
            Some(json!({ "card": null, "cell": cell }))
        }
        Some(HintMove::Pass) | None => None,
    };
    if let Some(hint) = hint {
        body["hint"] = hint;
    }
    json_answer(StatusCode::OK, &body)
}

async fn live_channel(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    Extension(Client(client)): Extension<Client>,
    LiveAsker(asker): LiveAsker,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, Refusal> {
    let lang = asker.lang;
    let opened = web
        .open
        .get()
        .ok_or_else(|| Refusal::new(StatusCode::SERVICE_UNAVAILABLE, lang, "web-api-starting"))?;
    let channel = match &asker.activity {
        Some(session) => channel_for(&opened.tables, session, &token, lang).await?,
        None => channel_of(&opened.tables, &token, lang).await?,
    };
    let upgrade =
        upgrade.map_err(|_| Refusal::new(StatusCode::BAD_REQUEST, lang, "web-api-not-live"))?;
    Ok(live::socket(
        opened.live.clone(),
        channel,
        asker.viewer(),
        lang,
        client,
        upgrade,
    )
    .await)
}

/// Whether `token` names a finished game kept with its page, for an asker of the Activity in
/// `activity`'s channel or anyone (the store is read on a blocking thread).
async fn is_finished(tables: &Arc<Tables>, token: &str, activity: Option<ChannelId>) -> bool {
    let (tables, token) = (tables.clone(), token.to_string());
    tokio::task::spawn_blocking(move || tables.finished_of_web_token(&token, activity).is_some())
        .await
        .unwrap_or(false)
}

async fn game_replay(
    Open { tables, .. }: Open,
    asker: Asker,
    Path(token): Path<String>,
) -> Response {
    // An Activity session's own channel's game answers even with `web_links` off.
    let activity = asker.activity.map(|s| s.channel);
    replay::replay(tables, &token, asker.lang, activity).await
}

async fn game_record(
    Open { tables, .. }: Open,
    asker: Asker,
    Path(token): Path<String>,
) -> Response {
    let activity = asker.activity.map(|s| s.channel);
    replay::record(tables, &token, activity).await
}

async fn game_page(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    Session { lang, .. }: Session,
) -> Response {
    match web.open.get() {
        // Starting: the page asks again for the game until it answers.
        None => page::index_html(),
        Some(opened) if opened.tables.find_web_token(&token).await.is_some() => page::index_html(),
        Some(opened) if is_finished(&opened.tables, &token, None).await => page::index_html(),
        Some(_) => page::not_found_page(lang),
    }
}

async fn server_data(Open { tables, lang }: Open, Path(token): Path<String>) -> Response {
    server_page::data(tables, &token, lang).await
}

async fn server_html(
    State(web): State<Arc<Web>>,
    Path(token): Path<String>,
    Session { lang, .. }: Session,
) -> Response {
    match web.open.get() {
        // Starting: the page asks again until it answers.
        None => page::index_html(),
        Some(opened) => server_page::html(opened.tables.clone(), &token, lang).await,
    }
}

/// Any other path under `/api/` or `/.proxy/`.
async fn unknown_address(asked: Session) -> Response {
    error(StatusCode::NOT_FOUND, asked.lang, "web-api-unknown-address")
}
