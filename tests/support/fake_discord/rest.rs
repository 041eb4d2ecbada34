//! The REST API (v10) on HTTP/1.1: plain, or inside a `CONNECT discord.com:443` tunnel with TLS.
//!
//! Routes: gateway info, application info, command registration (global and guild), interaction
//! callbacks (JSON or multipart with files), the interaction webhook (follow-ups, `@original`), DM
//! channels, channel messages (create, edit, delete, fetch), users, members, guild, channels. Answers
//! carry Discord's `x-ratelimit-*` headers; bodies are checked against Discord's documented limits
//! (message length, embeds, components, choices, command names) and refused the way Discord refuses
//! them (`50035 Invalid Form Body`, `10062 Unknown interaction`, `40060 already acknowledged`, ...).

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::TcpListener;

use super::model::{self, FakeChannel};
use super::{
    multipart, openapi, Callback, Fault, InteractionKind, RecordedRequest, Shared, State,
    StoredAttachment, StoredMessage, Upload,
};

const MAX_BODY: usize = 30 * 1024 * 1024;
/// Discord's upload limit for bots without boosts.
const MAX_UPLOAD: usize = 10 * 1024 * 1024;
/// Interaction tokens are valid for 15 minutes.
const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// Accepts connections until the task is aborted.
pub async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        if let Ok((stream, _)) = listener.accept().await {
            let _ = stream.set_nodelay(true);
            tokio::spawn(serve_connection(
                TokioIo::new(stream),
                Arc::clone(&shared),
                false,
                None,
            ));
        }
    }
}

type BoxFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Serves HTTP on `io`; `client` is who opened the tunnel it runs in (see [`proxy_user`]).
fn serve_connection<I>(
    io: I,
    shared: Arc<Shared>,
    via_tls: bool,
    client: Option<String>,
) -> BoxFuture
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    Box::pin(async move {
        let service = service_fn(move |req| {
            let shared = Arc::clone(&shared);
            let client = client.clone();
            async move { Ok::<_, Infallible>(handle(req, shared, via_tls, client).await) }
        });
        let _ = http1::Builder::new()
            .serve_connection(io, service)
            .with_upgrades()
            .await;
    })
}

/// Serves the tunnel of a `CONNECT`: TLS with the stand-in's certificate, then the same API.
fn tunnel(req: Request<Incoming>, shared: Arc<Shared>) -> BoxFuture {
    let client = proxy_user(&req);
    Box::pin(async move {
        let Ok(upgraded) = hyper::upgrade::on(req).await else {
            return;
        };
        let begun = Instant::now();
        let Ok(stream) = shared.tls.accept(TokioIo::new(upgraded)).await else {
            return;
        };
        {
            let mut state = shared.lock();
            state.tunnels += 1;
            state.tls_time += begun.elapsed();
        }
        serve_connection(TokioIo::new(stream), shared, true, client).await;
    })
}

/// The user name of a `CONNECT`'s `Proxy-Authorization: Basic …` (a client names itself with a proxy
/// URL like `http://shard-0:x@127.0.0.1:PORT`): tells the requests of several bot processes apart.
fn proxy_user(req: &Request<Incoming>) -> Option<String> {
    let value = req.headers().get("proxy-authorization")?.to_str().ok()?;
    let text = String::from_utf8(base64_decode(value.strip_prefix("Basic ")?.trim())?).ok()?;
    Some(text.split(':').next().unwrap_or("").to_string())
}

/// Standard base64 (with padding) to bytes; `None` if it is not base64.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for byte in text.trim_end_matches('=').bytes() {
        let value = u32::try_from(ALPHABET.iter().position(|&a| a == byte)?).ok()?;
        bits = (bits << 6) | value;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push(u8::try_from((bits >> count) & 0xff).ok()?);
        }
    }
    Some(out)
}

/// An answer: status and JSON body (`Null` for 204).
struct Answer {
    status: u16,
    body: Value,
    headers: Vec<(&'static str, String)>,
}

impl Answer {
    fn ok(body: Value) -> Answer {
        Answer {
            status: 200,
            body,
            headers: Vec::new(),
        }
    }

    fn no_content() -> Answer {
        Answer {
            status: 204,
            body: Value::Null,
            headers: Vec::new(),
        }
    }

    fn error(status: u16, code: u64, message: &str) -> Answer {
        Answer {
            status,
            body: json!({"message": message, "code": code}),
            headers: Vec::new(),
        }
    }

    /// `400 Invalid Form Body` with one error at `path`, as Discord words it.
    fn invalid_form(path: &str, message: &str) -> Answer {
        let mut errors = json!({});
        let mut node = &mut errors;
        for key in path.split('.') {
            node = &mut node[key];
        }
        *node = json!({"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]});
        Answer {
            status: 400,
            body: json!({"message": "Invalid Form Body", "code": 50035, "errors": errors}),
            headers: Vec::new(),
        }
    }

    fn json(status: u16, body: Value) -> Answer {
        Answer {
            status,
            body,
            headers: Vec::new(),
        }
    }

    fn unknown_route() -> Answer {
        Answer::error(404, 0, "404: Not Found")
    }
}

fn fault_answer(fault: &Fault) -> Answer {
    match fault {
        Fault::RateLimited {
            retry_after,
            global,
        } => {
            let mut headers = vec![
                ("retry-after", format!("{retry_after:.3}")),
                (
                    "x-ratelimit-scope",
                    if *global { "global" } else { "user" }.into(),
                ),
                ("x-ratelimit-limit", "5".into()),
                ("x-ratelimit-remaining", "0".into()),
                ("x-ratelimit-reset-after", format!("{retry_after:.3}")),
            ];
            if *global {
                headers.push(("x-ratelimit-global", "true".into()));
            }
            Answer {
                status: 429,
                body: json!({"message": "You are being rate limited.", "retry_after": retry_after, "global": global}),
                headers,
            }
        }
        Fault::ServerError(status) => Answer::error(*status, 0, "500: Internal Server Error"),
    }
}

async fn handle(
    req: Request<Incoming>,
    shared: Arc<Shared>,
    via_tls: bool,
    client: Option<String>,
) -> Response<Full<Bytes>> {
    if req.method() == Method::CONNECT {
        let target = req.uri().authority().map(|a| a.to_string());
        if target.as_deref() != Some("discord.com:443") {
            // The stand-in only pretends to be Discord; it forwards nothing anywhere.
            return respond(Answer::error(
                403,
                0,
                "the stand-in only tunnels to discord.com:443",
            ));
        }
        tokio::spawn(tunnel(req, Arc::clone(&shared)));
        return respond(Answer::ok(Value::Null));
    }
    let method = req.method().to_string();
    let full_path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let authorization = header("authorization");
    let content_type = header("content-type").unwrap_or_default();
    let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => return respond(Answer::error(413, 40005, "Request entity too large")),
    };
    let arrived = Instant::now();
    let (json_body, uploads, parse_error) = parse_body(&content_type, &body);
    let multipart = multipart::boundary(&content_type).is_some();
    let path = full_path
        .strip_prefix("/api/v10")
        .map(str::to_string)
        .unwrap_or_else(|| full_path.clone());

    // A request the test holds (`FakeDiscord::hold_next`): unanswered until released, then refused as
    // if the connection had broken; nothing of it is carried out or recorded.
    let held = shared.lock().take_hold(&method, &path);
    if let Some(hold) = held {
        let released = hold.release.notified();
        hold.arrived
            .store(true, std::sync::atomic::Ordering::SeqCst);
        hold.arrival.notify_waiters();
        released.await;
        return respond(Answer::error(503, 0, "held by the test, then dropped"));
    }
    let mut state = shared.lock();
    let mut posted_before = usize::MAX;
    let mut record = RecordedRequest {
        index: state.requests.len(),
        method: method.clone(),
        path: path.clone(),
        query,
        json: json_body.clone(),
        uploads: uploads.clone(),
        via_tls,
        client,
        authorization: authorization.clone(),
        status: 0,
        fault: false,
        known_route: true,
        error: None,
        at: arrived,
    };
    let expected = format!("Bot {}", state.config.token);
    let bearer = authorization
        .as_deref()
        .and_then(|a| a.strip_prefix("Bearer "));
    let answer = if method == "POST" && path == "/oauth2/token" {
        // Authenticated by the client id and secret in its form, not by a token.
        let (status, body) = super::activity::token_endpoint(&mut state, &json_body);
        Answer::json(status, body)
    } else if let (Some(token), "GET", "/users/@me") = (bearer, method.as_str(), path.as_str()) {
        let (status, body) = super::activity::bearer_me(&state, token);
        Answer::json(status, body)
    } else if let (Some(token), "GET", "/oauth2/@me") = (bearer, method.as_str(), path.as_str()) {
        let (status, body) = super::activity::bearer_authorization(&state, token);
        Answer::json(status, body)
    } else if authorization.as_deref() != Some(expected.as_str()) {
        Answer::error(401, 0, "401: Unauthorized")
    } else if !full_path.starts_with("/api/v10/") {
        record.known_route = false;
        Answer::unknown_route()
    } else if let Some(fault) = state.take_fault(&method, &path) {
        record.fault = true;
        fault_answer(&fault)
    } else if let Some(error) = &parse_error {
        Answer::error(400, 50109, error)
    } else {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        posted_before = state.posted_count();
        match route(
            &mut state, &method, &segments, &json_body, &uploads, arrived,
        ) {
            Some(answer) => answer,
            None => {
                record.known_route = false;
                Answer::unknown_route()
            }
        }
    };
    record.status = answer.status;
    if answer.status >= 400 {
        record.error = Some((
            answer.body["code"].as_u64().unwrap_or(0),
            answer.body["message"].as_str().unwrap_or("").to_string(),
        ));
    }
    // Checked against Discord's OpenAPI description without holding the state, so that requests
    // arriving together do not queue behind each other's schema validation (see `openapi.rs`); the
    // outcome is recorded before the answer leaves.
    let index = record.index;
    let (method, query, json) = (
        record.method.clone(),
        record.query.clone(),
        record.json.clone(),
    );
    let file_fields: Vec<String> = record.uploads.iter().map(|u| u.field.clone()).collect();
    state.requests.push(record);
    // What this request posted stays out of sight until its answer leaves, as on Discord, where the bot
    // knows a message's id before anyone can press its buttons.
    let posted = state.posted_since(posted_before);
    drop(state);
    // The OAuth2 token endpoint is not in Discord's API description: not checked against it.
    let described = !(method == "POST" && full_path == "/api/v10/oauth2/token");
    let found = described.then(|| {
        openapi::load().map(|spec| {
            let request = openapi::RequestParts {
                index,
                method: &method,
                path: &full_path,
                query: &query,
                body: &json,
                multipart,
                file_fields: file_fields.iter().map(String::as_str).collect(),
                parse_error: parse_error.as_deref(),
            };
            spec.check_exchange(&request, answer.status, &answer.body)
        })
    });
    {
        let mut state = shared.lock();
        match found {
            Some(Ok(found)) => state.openapi.record(found),
            Some(Err(e)) => state.openapi.violations.push(e),
            None => {}
        }
        state.answered(&posted);
    }
    shared.notify();
    respond(answer)
}

fn respond(answer: Answer) -> Response<Full<Bytes>> {
    let reset = model::now_ms() as f64 / 1000.0 + 1.0;
    let mut builder = Response::builder()
        .status(StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("via", "1.1 fake-discord")
        .header("x-ratelimit-bucket", "fake0bucket0hash");
    if !answer
        .headers
        .iter()
        .any(|(k, _)| *k == "x-ratelimit-limit")
    {
        builder = builder
            .header("x-ratelimit-limit", "10000")
            .header("x-ratelimit-remaining", "9999")
            .header("x-ratelimit-reset", format!("{reset:.3}"))
            .header("x-ratelimit-reset-after", "1.000");
    }
    for (name, value) in &answer.headers {
        builder = builder.header(*name, value.as_str());
    }
    let body = if answer.status == 204 || (answer.status == 200 && answer.body.is_null()) {
        Bytes::new()
    } else {
        builder = builder.header("content-type", "application/json");
        Bytes::from(answer.body.to_string())
    };
    builder
        .body(Full::new(body))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new())))
}

/// JSON body (or multipart `payload_json`), uploaded files, and a parse error if the body is broken.
fn parse_body(content_type: &str, body: &[u8]) -> (Value, Vec<Upload>, Option<String>) {
    if body.is_empty() {
        return (Value::Null, Vec::new(), None);
    }
    if let Some(boundary) = multipart::boundary(content_type) {
        let parts = match multipart::parse(body, &boundary) {
            Ok(parts) => parts,
            Err(e) => {
                return (
                    Value::Null,
                    Vec::new(),
                    Some(format!("bad multipart body: {e}")),
                )
            }
        };
        let mut json_body = Value::Null;
        let mut uploads = Vec::new();
        for part in parts {
            if part.name == "payload_json" {
                match serde_json::from_slice(&part.data) {
                    Ok(v) => json_body = v,
                    Err(e) => {
                        return (Value::Null, uploads, Some(format!("bad payload_json: {e}")))
                    }
                }
            } else if let Some(filename) = part.filename {
                uploads.push(Upload {
                    field: part.name,
                    filename,
                    content_type: part.content_type,
                    data: Arc::new(part.data),
                });
            }
        }
        return (json_body, uploads, None);
    }
    if content_type.starts_with("application/x-www-form-urlencoded") {
        return (form_fields(body), Vec::new(), None);
    }
    match serde_json::from_slice(body) {
        Ok(v) => (v, Vec::new(), None),
        Err(e) => (
            Value::Null,
            Vec::new(),
            Some(format!("The request body contains invalid JSON: {e}")),
        ),
    }
}

/// A form body (`a=1&b=x%20y`) as a JSON object of strings.
fn form_fields(body: &[u8]) -> Value {
    let decode = |text: &str| {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                    match u8::from_str_radix(hex, 16) {
                        Ok(b) => {
                            out.push(b);
                            i += 2;
                        }
                        Err(_) => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).to_string()
    };
    let mut fields = serde_json::Map::new();
    for pair in String::from_utf8_lossy(body)
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        fields.insert(decode(key), Value::String(decode(value)));
    }
    Value::Object(fields)
}

fn parse_id(text: &str) -> Option<u64> {
    text.parse().ok()
}

fn route(
    state: &mut State,
    method: &str,
    segments: &[&str],
    body: &Value,
    uploads: &[Upload],
    now: Instant,
) -> Option<Answer> {
    let app = state.config.application_id.to_string();
    Some(match (method, segments) {
        ("GET", ["gateway"]) => Answer::ok(json!({"url": state.gateway_url.clone()})),
        ("GET", ["gateway", "bot"]) => Answer::ok(json!({
            "url": state.gateway_url.clone(),
            "shards": state.config.recommended_shards.max(1),
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000usize.saturating_sub(state.gateway.identifies),
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        })),
        ("GET", ["oauth2", "applications", "@me"] | ["applications", "@me"]) => {
            Answer::ok(application_info(state))
        }
        ("GET", ["users", "@me"]) => {
            let mut user = state.bot().json();
            user["verified"] = json!(true);
            user["mfa_enabled"] = json!(false);
            user["locale"] = json!(state.bot().locale);
            Answer::ok(user)
        }
        ("GET", ["users", id]) => match parse_id(id).and_then(|id| state.users.get(&id)) {
            Some(user) => Answer::ok(user.json()),
            None => Answer::error(404, 10013, "Unknown User"),
        },
        ("POST", ["users", "@me", "channels"]) => open_dm(state, body),
        ("GET", ["applications", a, "activity-instances", instance]) if *a == app => {
            let (status, body) = super::activity::instance(state, instance);
            Answer::json(status, body)
        }
        ("GET", ["applications", a, "commands"]) if *a == app => {
            Answer::ok(Value::Array(state.global_commands.clone()))
        }
        ("PUT", ["applications", a, "commands"]) if *a == app => put_commands(state, body, None),
        ("GET", ["applications", a, "guilds", g, "commands"]) if *a == app => {
            let guild = parse_id(g).unwrap_or(0);
            Answer::ok(Value::Array(
                state
                    .guild_commands
                    .get(&guild)
                    .cloned()
                    .unwrap_or_default(),
            ))
        }
        ("PUT", ["applications", a, "guilds", g, "commands"]) if *a == app => {
            match parse_id(g).filter(|&g| g == state.guild_id()) {
                Some(guild) => put_commands(state, body, Some(guild)),
                None => Answer::error(403, 50001, "Missing Access"),
            }
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            interaction_callback(state, id, token, body, uploads, now)
        }
        (_, ["webhooks", a, token]) if method == "POST" && *a == app => {
            followup(state, token, body, uploads)
        }
        (_, ["webhooks", a, token, "messages", which]) if *a == app => {
            webhook_message(state, method, token, which, body, uploads)
        }
        ("GET", ["channels", c]) => match parse_id(c).and_then(|c| {
            let refusal = state.access_refusal(c);
            state.channel_json(c).map(|json| (json, refusal))
        }) {
            Some((_, Some((status, code, message)))) => Answer::error(status, code, message),
            Some((channel, None)) => Answer::ok(channel),
            None => Answer::error(404, 10003, "Unknown Channel"),
        },
        ("POST", ["channels", c, "typing"]) => {
            match parse_id(c).filter(|c| state.channels.contains_key(c)) {
                Some(_) => Answer::no_content(),
                None => Answer::error(404, 10003, "Unknown Channel"),
            }
        }
        ("POST", ["channels", c, "messages"]) => channel_post(state, c, body, uploads),
        (_, ["channels", c, "messages", m]) => channel_message(state, method, c, m, body, uploads),
        ("GET", ["guilds", g]) if parse_id(g).is_some_and(|g| state.is_guild(g)) => {
            let mut guild = state.guild_create_of(parse_id(g).unwrap_or_default());
            if let Some(g) = guild.as_object_mut() {
                for key in [
                    "members",
                    "channels",
                    "threads",
                    "presences",
                    "voice_states",
                ] {
                    g.remove(key);
                }
            }
            Answer::ok(guild)
        }
        ("GET", ["guilds", g, "channels"]) if parse_id(g).is_some_and(|g| state.is_guild(g)) => {
            let guild = state.guild_create_of(parse_id(g).unwrap_or_default());
            Answer::ok(guild["channels"].clone())
        }
        // A server that did not add the app: the bot has no access to it.
        (_, ["guilds", g, ..]) if parse_id(g).is_some_and(|g| state.is_guild_without_bot(g)) => {
            Answer::error(403, 50001, "Missing Access")
        }
        ("GET", ["guilds", g, "members", u]) if parse_id(g).is_some_and(|g| state.is_guild(g)) => {
            match parse_id(u).and_then(|u| state.users.get(&u)) {
                Some(user) => Answer::ok(user.member_json(&model::timestamp_of(user.id), false)),
                None => Answer::error(404, 10007, "Unknown Member"),
            }
        }
        _ => return None,
    })
}

pub(super) fn application_info(state: &State) -> Value {
    let owner = state
        .users
        .values()
        .min_by_key(|u| u.id)
        .map(|u| u.json())
        .unwrap_or_else(|| state.bot().json());
    json!({
        "id": state.config.application_id.to_string(),
        "name": state.config.bot_name,
        "icon": null,
        "description": "Sequence, on a local stand-in for Discord",
        "bot_public": true,
        "bot_require_code_grant": false,
        "owner": owner,
        "summary": "",
        "verify_key": "0".repeat(64),
        "team": null,
        "flags": 0,
        "bot": state.bot().json(),
        "redirect_uris": [],
        "interactions_endpoint_url": null,
        "role_connections_verification_url": null,
        "type": null,
        "flags_new": "0",
        "approximate_guild_count": 1,
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,
        "eligible_oauth2_scopes": ["bot", "applications.commands"],
        "tags": [],
    })
}

fn open_dm(state: &mut State, body: &Value) -> Answer {
    let Some(user_id) = body["recipient_id"]
        .as_str()
        .and_then(parse_id)
        .or_else(|| body["recipient_id"].as_u64())
    else {
        return Answer::invalid_form("recipient_id", "This field is required");
    };
    if !state.users.contains_key(&user_id) {
        return Answer::error(400, 50033, "Invalid Recipient(s)");
    }
    let channel_id = match state.dm_channel_of(user_id) {
        Some(c) => c,
        None => {
            let id = state.snowflake();
            state.channels.insert(id, FakeChannel::dm(id, user_id));
            state.dm_channels.insert(user_id, id);
            id
        }
    };
    match state.channel_json(channel_id) {
        Some(channel) => Answer::ok(channel),
        None => Answer::error(500, 0, "500: Internal Server Error"),
    }
}

/// Checks a command (or option) list as Discord does on registration.
fn check_commands(commands: &[Value], path: &str) -> Result<(), (String, String)> {
    let name_ok = |name: &str| {
        (1..=32).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric() && !c.is_uppercase())
    };
    // USER and MESSAGE commands (types 2 and 3, on the context menu) may be mixed case and include
    // spaces; they take no description and no options (docs: application commands, "Application
    // Command Naming", "User Commands").
    let menu_name_ok = |name: &str| {
        (1..=32).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c == ' ' || c.is_alphanumeric())
    };
    for (i, command) in commands.iter().enumerate() {
        let here = format!("{path}.{i}");
        let name = command["name"].as_str().unwrap_or("");
        // Only top-level commands have a type; options have theirs in another sense.
        let kind = if path.is_empty() {
            command["type"].as_u64().unwrap_or(1)
        } else {
            1
        };
        let menu = matches!(kind, 2 | 3);
        // The entry point (type 4) is named as Discord's default "Launch" is, and has a description.
        let entry_point = kind == 4;
        let localized = command["name_localizations"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(locale, n)| {
                (
                    format!("{here}.name_localizations.{locale}"),
                    n.as_str().unwrap_or(""),
                )
            });
        for (at, n) in std::iter::once((format!("{here}.name"), name)).chain(localized) {
            let ok = if menu || entry_point {
                menu_name_ok(n)
            } else {
                name_ok(n)
            };
            if !ok {
                return Err((at, format!("Invalid name {n:?}")));
            }
        }
        if path.is_empty() {
            check_contexts(command, &here)?;
        }
        let description = command["description"].as_str().unwrap_or("");
        if kind == 1 && !(1..=100).contains(&description.chars().count()) {
            return Err((
                format!("{here}.description"),
                "Must be between 1 and 100 in length.".into(),
            ));
        }
        if menu && !description.is_empty() {
            return Err((
                format!("{here}.description"),
                "Context menu commands cannot have description".into(),
            ));
        }
        if menu && command["options"].as_array().is_some_and(|o| !o.is_empty()) {
            return Err((
                format!("{here}.options"),
                "Context menu commands cannot have options".into(),
            ));
        }
        let options = command["options"].as_array().cloned().unwrap_or_default();
        if options.len() > 25 {
            return Err((
                format!("{here}.options"),
                "Must be 25 or fewer in length.".into(),
            ));
        }
        let mut seen_optional = false;
        for (j, option) in options.iter().enumerate() {
            let required = option["required"] == true;
            if required && seen_optional {
                return Err((
                    format!("{here}.options.{j}"),
                    "Required options must be placed before non-required options".into(),
                ));
            }
            seen_optional |= !required;
            let choices = option["choices"].as_array().map_or(0, Vec::len);
            if choices > 25 {
                return Err((
                    format!("{here}.options.{j}.choices"),
                    "Must be 25 or fewer in length.".into(),
                ));
            }
            if choices > 0 && option["autocomplete"] == true {
                return Err((
                    format!("{here}.options.{j}.autocomplete"),
                    "Autocomplete cannot be set on options with choices".into(),
                ));
            }
        }
        check_commands(&options, &format!("{here}.options"))?;
    }
    Ok(())
}

/// Checks a command's `integration_types` (0 server install, 1 user install) and `contexts` (0
/// server, 1 bot DM, 2 group DM) as Discord's API description does: absent or null, or a non-empty
/// list of known values without repeats (application-commands, command structure; openapi.json,
/// `ApplicationCommandCreateRequest`).
fn check_contexts(command: &Value, here: &str) -> Result<(), (String, String)> {
    for (key, max) in [("integration_types", 1), ("contexts", 2)] {
        let value = &command[key];
        if value.is_null() {
            continue;
        }
        let Some(list) = value.as_array() else {
            return Err((format!("{here}.{key}"), "Must be an array".into()));
        };
        if list.is_empty() {
            return Err((
                format!("{here}.{key}"),
                "Must be 1 or more in length.".into(),
            ));
        }
        let mut seen = Vec::new();
        for (i, item) in list.iter().enumerate() {
            match item.as_u64() {
                Some(n) if n <= max && !seen.contains(&n) => seen.push(n),
                Some(n) if n <= max => {
                    return Err((format!("{here}.{key}"), "Items must be unique".into()))
                }
                _ => {
                    return Err((
                        format!("{here}.{key}.{i}"),
                        format!("Value \"{item}\" is not a valid enum value."),
                    ))
                }
            }
        }
    }
    Ok(())
}

fn put_commands(state: &mut State, body: &Value, guild: Option<u64>) -> Answer {
    let Some(list) = body.as_array() else {
        return Answer::invalid_form("_root", "Must be an array");
    };
    if list.len() > 100 {
        return Answer::invalid_form("_root", "Must be 100 or fewer in length.");
    }
    if let Err((path, message)) = check_commands(list, "") {
        return Answer::invalid_form(path.trim_start_matches('.'), &message);
    }
    // A command may name only installation contexts the app supports (application-commands,
    // "Installation Context"). The documentation gives no wording for this error; the stand-in
    // answers 50035 Invalid Form Body at the field.
    if !state.config.user_install {
        for (i, command) in list.iter().enumerate() {
            let user = command["integration_types"]
                .as_array()
                .is_some_and(|l| l.iter().any(|v| v == 1));
            if user {
                return Answer::invalid_form(
                    &format!("{i}.integration_types"),
                    "The application does not support the user installation context",
                );
            }
        }
    }
    if let Err((status, code, message)) = super::activity::check_entry_point(state, list, guild) {
        return match code {
            50035 => Answer::invalid_form("_root", &message),
            _ => Answer::error(status, code, &message),
        };
    }
    let existing = match guild {
        Some(g) => state.guild_commands.get(&g).cloned().unwrap_or_default(),
        None => state.global_commands.clone(),
    };
    let mut stored = Vec::new();
    for command in list {
        // Discord keeps the id of a command whose name is unchanged.
        let id = existing
            .iter()
            .find(|c| c["name"] == command["name"])
            .and_then(|c| c["id"].as_str().and_then(parse_id))
            .unwrap_or_else(|| state.snowflake());
        let version = state.snowflake();
        let mut c = command.clone();
        c["id"] = json!(id.to_string());
        c["application_id"] = json!(state.config.application_id.to_string());
        c["version"] = json!(version.to_string());
        if c["type"].is_null() {
            c["type"] = json!(1);
        }
        if let Some(g) = guild {
            c["guild_id"] = json!(g.to_string());
        }
        // Discord answers with the fields that are set: options lose their `null`s.
        if let Some(options) = c.get_mut("options") {
            drop_nulls(options);
        }
        for key in [
            "default_member_permissions",
            "name_localizations",
            "description_localizations",
        ] {
            if c.get(key).is_none() {
                c[key] = Value::Null;
            }
        }
        // A context menu command has no description; Discord answers with an empty one.
        if c.get("description").is_none_or(Value::is_null) {
            c["description"] = json!("");
        }
        if c.get("nsfw").is_none() {
            c["nsfw"] = json!(false);
        }
        // Discord answers with the installation contexts it applies: `[0]` unless named.
        if c.get("integration_types").is_none_or(Value::is_null) {
            c["integration_types"] = json!([0]);
        }
        if c.get("contexts").is_none() {
            c["contexts"] = Value::Null;
        }
        if c.get("options").is_none() {
            c["options"] = json!([]);
        }
        stored.push(c);
    }
    match guild {
        Some(g) => {
            state.guild_commands.insert(g, stored.clone());
        }
        None => state.global_commands = stored.clone(),
    }
    Answer::ok(Value::Array(stored))
}

/// Removes `null` members of objects, recursively.
fn drop_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        Value::Array(list) => list.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// Checks a message body against Discord's limits. `Err` is the (path, message) of the first problem.
fn check_message(body: &Value) -> Result<(), (String, String)> {
    let chars = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    if chars(&body["content"]) > 2000 {
        return Err(("content".into(), "Must be 2000 or fewer in length.".into()));
    }
    let embeds = body["embeds"].as_array().cloned().unwrap_or_default();
    if embeds.len() > 10 {
        return Err(("embeds".into(), "Must be 10 or fewer in length.".into()));
    }
    let mut total = 0;
    for (i, embed) in embeds.iter().enumerate() {
        let limits = [("title", 256), ("description", 4096)];
        for (key, max) in limits {
            let n = chars(&embed[key]);
            total += n;
            if n > max {
                return Err((
                    format!("embeds.{i}.{key}"),
                    format!("Must be {max} or fewer in length."),
                ));
            }
        }
        let footer = chars(&embed["footer"]["text"]);
        let author = chars(&embed["author"]["name"]);
        total += footer + author;
        if footer > 2048 || author > 256 {
            return Err((format!("embeds.{i}"), "Footer or author too long.".into()));
        }
        let fields = embed["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            return Err((
                format!("embeds.{i}.fields"),
                "Must be 25 or fewer in length.".into(),
            ));
        }
        for (j, field) in fields.iter().enumerate() {
            let (name, value) = (chars(&field["name"]), chars(&field["value"]));
            total += name + value;
            if name == 0 || name > 256 || value == 0 || value > 1024 {
                return Err((
                    format!("embeds.{i}.fields.{j}"),
                    "Field name must be 1-256 and value 1-1024 in length.".into(),
                ));
            }
        }
    }
    if total > 6000 {
        return Err((
            "embeds".into(),
            "Embed size exceeds maximum size of 6000".into(),
        ));
    }
    let rows = body["components"].as_array().cloned().unwrap_or_default();
    if rows.len() > 5 {
        return Err(("components".into(), "Must be 5 or fewer in length.".into()));
    }
    let mut custom_ids = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if row["type"] != 1 {
            return Err((
                format!("components.{i}.type"),
                "Top-level components must be action rows".into(),
            ));
        }
        let items = row["components"].as_array().cloned().unwrap_or_default();
        if items.is_empty() || items.len() > 5 {
            return Err((
                format!("components.{i}.components"),
                "Must be between 1 and 5 in length.".into(),
            ));
        }
        let has_select = items.iter().any(|c| c["type"] != 2);
        if has_select && items.len() > 1 {
            return Err((
                format!("components.{i}.components"),
                "A select menu must be alone in its row".into(),
            ));
        }
        for (j, item) in items.iter().enumerate() {
            let here = format!("components.{i}.components.{j}");
            if chars(&item["label"]) > 80 {
                return Err((
                    format!("{here}.label"),
                    "Must be 80 or fewer in length.".into(),
                ));
            }
            let is_link = item["type"] == 2 && item["style"] == 5;
            if item["type"] == 2 {
                check_button(item, &here)?;
            }
            if !is_link {
                let id = item["custom_id"].as_str().unwrap_or("");
                if id.is_empty() || id.chars().count() > 100 {
                    return Err((
                        format!("{here}.custom_id"),
                        "Must be between 1 and 100 in length.".into(),
                    ));
                }
                if custom_ids.contains(&id.to_string()) {
                    return Err((
                        format!("{here}.custom_id"),
                        "Component custom id cannot be duplicated".into(),
                    ));
                }
                custom_ids.push(id.to_string());
            }
            if item["type"] == 2 && item["label"].is_null() && item["emoji"].is_null() {
                return Err((here.clone(), "A button needs a label or an emoji".into()));
            }
            if item["type"] == 3 {
                let options = item["options"].as_array().map_or(0, Vec::len);
                let min = item["min_values"].as_u64().unwrap_or(1);
                let max = item["max_values"].as_u64().unwrap_or(1);
                if min > 25 || !(1..=25).contains(&max) || min > max || max as usize > options {
                    return Err((
                        format!("{here}.max_values"),
                        "min_values and max_values must be 0-25, 1-25, in order, and no more than the options".into(),
                    ));
                }
                if chars(&item["placeholder"]) > 150 {
                    return Err((
                        format!("{here}.placeholder"),
                        "Must be 150 or fewer in length.".into(),
                    ));
                }
                let mut values: Vec<&str> = item["options"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|o| o["value"].as_str())
                    .collect();
                values.sort_unstable();
                let count = values.len();
                values.dedup();
                if values.len() != count {
                    return Err((
                        format!("{here}.options"),
                        "Select option values must be unique".into(),
                    ));
                }
            }
            if let Some(options) = item["options"].as_array() {
                if options.is_empty() || options.len() > 25 {
                    return Err((
                        format!("{here}.options"),
                        "Must be between 1 and 25 in length.".into(),
                    ));
                }
                for (k, option) in options.iter().enumerate() {
                    if chars(&option["label"]) == 0
                        || chars(&option["label"]) > 100
                        || chars(&option["value"]) == 0
                        || chars(&option["value"]) > 100
                        || chars(&option["description"]) > 100
                    {
                        return Err((
                            format!("{here}.options.{k}"),
                            "Label 1-100, value up to 100 in length.".into(),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// A button as Discord's component reference describes it: styles 1-4 send an interaction and need
/// a `custom_id` and no `url`; style 5 (Link) opens its `url` (http, https or discord, at most 512
/// characters) and has no `custom_id`; style 6 (Premium) names a SKU, which this bot never sells.
fn check_button(item: &Value, here: &str) -> Result<(), (String, String)> {
    let has = |field: &str| !item[field].is_null();
    match item["style"].as_u64() {
        Some(1..=4) if has("url") => Err((
            format!("{here}.url"),
            "A button with a custom_id cannot have a url".into(),
        )),
        Some(1..=4) => Ok(()),
        Some(5) => {
            if has("custom_id") {
                return Err((
                    format!("{here}.custom_id"),
                    "A link button cannot have a custom_id".into(),
                ));
            }
            let url = item["url"].as_str().unwrap_or("");
            let scheme = ["https://", "http://", "discord://"]
                .iter()
                .any(|s| url.starts_with(s) && url.len() > s.len());
            if !scheme || url.chars().count() > 512 || url.contains(char::is_whitespace) {
                return Err((
                    format!("{here}.url"),
                    "A link button needs a url (http, https or discord; 512 or fewer in length)"
                        .into(),
                ));
            }
            Ok(())
        }
        Some(6) => Err((
            format!("{here}.style"),
            "A premium button needs a sku_id (and no label, custom_id or url)".into(),
        )),
        _ => Err((
            format!("{here}.style"),
            "Value must be one of {1, 2, 3, 4, 5, 6}.".into(),
        )),
    }
}

/// The attachments a create or edit ends with: listed existing ones kept, uploads added. On an edit (v10)
/// the list must name every attachment that stays, new ones included; on a create, uploads the list does
/// not name are attached too.
fn attachments_after(
    state: &mut State,
    body: &Value,
    uploads: &[Upload],
    existing: &[StoredAttachment],
    is_create: bool,
) -> Result<Vec<StoredAttachment>, Answer> {
    for upload in uploads {
        if upload.data.len() > MAX_UPLOAD {
            return Err(Answer::error(413, 40005, "Request entity too large"));
        }
    }
    let upload_for = |id: &str| uploads.iter().find(|u| u.field == format!("files[{id}]"));
    let mut result = Vec::new();
    match body["attachments"].as_array() {
        Some(listed) => {
            for entry in listed {
                let id = match &entry["id"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                if let Some(upload) = upload_for(&id) {
                    result.push(StoredAttachment {
                        id: state.snowflake(),
                        filename: entry["filename"]
                            .as_str()
                            .unwrap_or(&upload.filename)
                            .to_string(),
                        content_type: upload.content_type.clone(),
                        description: entry["description"].as_str().map(str::to_string),
                        data: Arc::clone(&upload.data),
                    });
                } else if let Some(kept) = existing.iter().find(|a| a.id.to_string() == id) {
                    result.push(kept.clone());
                } else {
                    return Err(Answer::invalid_form(
                        "attachments",
                        &format!("Unknown attachment or file {id}"),
                    ));
                }
            }
            if is_create {
                for upload in uploads {
                    let named = listed.iter().any(|e| {
                        let id = match &e["id"] {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        upload.field == format!("files[{id}]")
                    });
                    if !named {
                        result.push(StoredAttachment {
                            id: state.snowflake(),
                            filename: upload.filename.clone(),
                            content_type: upload.content_type.clone(),
                            description: None,
                            data: Arc::clone(&upload.data),
                        });
                    }
                }
            }
        }
        None => {
            result.extend(existing.iter().cloned());
            for upload in uploads {
                result.push(StoredAttachment {
                    id: state.snowflake(),
                    filename: upload.filename.clone(),
                    content_type: upload.content_type.clone(),
                    description: None,
                    data: Arc::clone(&upload.data),
                });
            }
        }
    }
    if result.len() > 10 {
        return Err(Answer::invalid_form(
            "attachments",
            "Must be 10 or fewer in length.",
        ));
    }
    Ok(result)
}

/// A new message from a create body.
fn new_message(
    state: &mut State,
    channel_id: u64,
    body: &Value,
    uploads: &[Upload],
    allowed_flags: u64,
    interaction_id: Option<u64>,
) -> Result<StoredMessage, Answer> {
    if let Err((path, message)) = check_message(body) {
        return Err(Answer::invalid_form(&path, &message));
    }
    let attachments = attachments_after(state, body, uploads, &[], true)?;
    let content = body["content"].as_str().unwrap_or("").to_string();
    let embeds = body["embeds"].as_array().cloned().unwrap_or_default();
    let components = body["components"].as_array().cloned().unwrap_or_default();
    if content.is_empty() && embeds.is_empty() && attachments.is_empty() && components.is_empty() {
        return Err(Answer::error(400, 50006, "Cannot send an empty message"));
    }
    Ok(StoredMessage {
        id: state.snowflake(),
        channel_id,
        content,
        embeds: Value::Array(embeds),
        components: Value::Array(components),
        attachments,
        flags: body["flags"].as_u64().unwrap_or(0) & allowed_flags,
        interaction_id,
        allowed_mentions: body["allowed_mentions"].clone(),
        edits: 0,
        earlier: Vec::new(),
        deleted: false,
        created: Instant::now(),
        notified: super::notified_by(
            &content_for_notify(body),
            &body["allowed_mentions"],
            body["flags"].as_u64().unwrap_or(0) & allowed_flags & 64 != 0,
        ),
        forced_ephemeral: false,
    })
}

fn content_for_notify(body: &Value) -> String {
    body["content"].as_str().unwrap_or("").to_string()
}

/// Applies an edit body to a message.
fn edit_message(state: &mut State, id: u64, body: &Value, uploads: &[Upload]) -> Answer {
    if let Err((path, message)) = check_message(body) {
        return Answer::invalid_form(&path, &message);
    }
    let Some(existing) = state.messages.get(&id).map(|m| m.attachments.clone()) else {
        return Answer::error(404, 10008, "Unknown Message");
    };
    let attachments = match attachments_after(state, body, uploads, &existing, false) {
        Ok(a) => a,
        Err(answer) => return answer,
    };
    let Some(message) = state.messages.get_mut(&id) else {
        return Answer::error(404, 10008, "Unknown Message");
    };
    if message.deleted {
        return Answer::error(404, 10008, "Unknown Message");
    }
    if let Some(content) = body.get("content") {
        let content = content.as_str().unwrap_or("").to_string();
        if content != message.content {
            let before = std::mem::replace(&mut message.content, content);
            message.earlier.push(before);
        }
    }
    if let Some(embeds) = body.get("embeds") {
        message.embeds = if embeds.is_null() {
            json!([])
        } else {
            embeds.clone()
        };
    }
    if let Some(components) = body.get("components") {
        message.components = if components.is_null() {
            json!([])
        } else {
            components.clone()
        };
    }
    if body.get("allowed_mentions").is_some() {
        message.allowed_mentions = body["allowed_mentions"].clone();
    }
    message.attachments = attachments;
    message.flags &= !128; // no longer "thinking"
    message.edits += 1;
    let (channel, interaction) = (message.channel_id, message.interaction_id);
    state.touch(channel);
    if let Some(interaction) = interaction {
        state.touch(interaction);
    }
    let Some(message) = state.messages.get(&id) else {
        return Answer::error(404, 10008, "Unknown Message");
    };
    if message.content.is_empty()
        && message.embeds.as_array().is_none_or(Vec::is_empty)
        && message.attachments.is_empty()
        && message.components.as_array().is_none_or(Vec::is_empty)
    {
        return Answer::error(400, 50006, "Cannot send an empty message");
    }
    match state.message_json(id) {
        Some(json) => Answer::ok(json),
        None => Answer::error(404, 10008, "Unknown Message"),
    }
}

fn check_choices(data: &Value) -> Result<(), (String, String)> {
    let Some(choices) = data["choices"].as_array() else {
        return Err(("data.choices".into(), "This field is required".into()));
    };
    if choices.len() > 25 {
        return Err((
            "data.choices".into(),
            "Must be 25 or fewer in length.".into(),
        ));
    }
    for (i, choice) in choices.iter().enumerate() {
        let name = choice["name"].as_str().map_or(0, |s| s.chars().count());
        if !(1..=100).contains(&name) {
            return Err((
                format!("data.choices.{i}.name"),
                "Must be between 1 and 100 in length.".into(),
            ));
        }
        if choice["value"]
            .as_str()
            .is_some_and(|s| s.chars().count() > 100)
        {
            return Err((
                format!("data.choices.{i}.value"),
                "Must be 100 or fewer in length.".into(),
            ));
        }
        if choice["value"].is_null() {
            return Err((
                format!("data.choices.{i}.value"),
                "This field is required".into(),
            ));
        }
    }
    Ok(())
}

fn interaction_callback(
    state: &mut State,
    id: &str,
    token: &str,
    body: &Value,
    uploads: &[Upload],
    now: Instant,
) -> Answer {
    let Some(&iid) = state.tokens.get(token) else {
        return Answer::error(404, 10062, "Unknown interaction");
    };
    if parse_id(id) != Some(iid) {
        return Answer::error(404, 10062, "Unknown interaction");
    }
    let deadline = state.config.interaction_deadline;
    let Some(interaction) = state.interactions.get(&iid).cloned() else {
        return Answer::error(404, 10062, "Unknown interaction");
    };
    let refuse = |state: &mut State, answer: Answer| {
        if let Some(i) = state.interactions.get_mut(&iid) {
            i.refused_callbacks
                .push((answer.status, answer.body.to_string()));
        }
        answer
    };
    if interaction.callback.is_some() {
        return refuse(
            state,
            Answer::error(400, 40060, "Interaction has already been acknowledged."),
        );
    }
    // Discord's clock starts at the user's action (the interaction's snowflake), not at delivery: an
    // interaction delivered late (after a gateway resume) may already be past it. Both are read on
    // the stand-in's clock.
    let clock_now = now + state.clock_offset();
    let since = interaction.created;
    let deadline = deadline.or(Some(TOKEN_LIFETIME));
    if deadline.is_some_and(|d| clock_now.saturating_duration_since(since) > d) {
        return refuse(state, Answer::error(404, 10062, "Unknown interaction"));
    }
    let Some(kind) = body["type"].as_u64().map(|k| k as u8) else {
        return refuse(
            state,
            Answer::invalid_form("type", "This field is required"),
        );
    };
    let allowed: &[u8] = match interaction.kind {
        InteractionKind::Autocomplete => &[8],
        InteractionKind::Command => &[4, 5, 9, 12],
        InteractionKind::Component => &[4, 5, 6, 7, 9, 12],
        InteractionKind::ModalSubmit => &[4, 5, 6, 7],
    };
    if !allowed.contains(&kind) {
        return refuse(
            state,
            Answer::error(
                400,
                40043,
                "Interaction response type is not valid for this interaction",
            ),
        );
    }
    // LAUNCH_ACTIVITY: "only available for apps with Activities enabled" (interaction callback types).
    if kind == 12 && !state.activity.enabled {
        return refuse(
            state,
            Answer::invalid_form("type", "This application has no Activity to launch"),
        );
    }
    let forced = forced_body(&body["data"], interaction.forced_ephemeral);
    let data = forced.as_ref().map_or(&body["data"], |(data, _)| data);
    let forced_now = forced.as_ref().is_some_and(|(_, changed)| *changed);
    let mut original = None;
    match kind {
        4 => match new_message(
            state,
            interaction.channel_id,
            data,
            uploads,
            4 | 64 | 4096,
            Some(iid),
        ) {
            Ok(mut message) => {
                message.forced_ephemeral = forced_now;
                original = Some(state.add_message(message));
            }
            Err(answer) => return refuse(state, answer),
        },
        5 => {
            let message = StoredMessage {
                id: state.snowflake(),
                channel_id: interaction.channel_id,
                content: String::new(),
                embeds: json!([]),
                components: json!([]),
                attachments: Vec::new(),
                flags: (data["flags"].as_u64().unwrap_or(0) & 64) | 128,
                interaction_id: Some(iid),
                allowed_mentions: Value::Null,
                edits: 0,
                earlier: Vec::new(),
                deleted: false,
                created: Instant::now(),
                notified: Vec::new(),
                forced_ephemeral: forced_now,
            };
            original = Some(state.add_message(message));
        }
        7 => {
            let Some(message_id) = interaction.message_id else {
                return refuse(state, Answer::error(400, 40043, "No message to update"));
            };
            let answer = edit_message(state, message_id, data, uploads);
            if answer.status != 200 {
                return refuse(state, answer);
            }
        }
        8 => {
            if let Err((path, message)) = check_choices(data) {
                return refuse(state, Answer::invalid_form(&path, &message));
            }
        }
        9 => {
            let title = data["title"].as_str().map_or(0, |s| s.chars().count());
            if data["custom_id"].as_str().is_none_or(str::is_empty) || !(1..=45).contains(&title) {
                return refuse(
                    state,
                    Answer::invalid_form(
                        "data",
                        "A modal needs a custom id and a title of 1-45 characters",
                    ),
                );
            }
        }
        _ => {}
    }
    state.touch(iid);
    if let Some(i) = state.interactions.get_mut(&iid) {
        i.callback = Some(Callback {
            kind,
            data: data.clone(),
            at: now,
        });
        i.original = original;
    }
    Answer::no_content()
}

/// The body of an answer made ephemeral (flag 64 added) when `force` is set: the new body and
/// whether the flag was added by the stand-in (the bot had not asked for it). `None`: unchanged.
fn forced_body(body: &Value, force: bool) -> Option<(Value, bool)> {
    if !force {
        return None;
    }
    let flags = body["flags"].as_u64().unwrap_or(0);
    let mut forced = if body.is_object() {
        body.clone()
    } else {
        json!({})
    };
    forced["flags"] = json!(flags | 64);
    Some((forced, flags & 64 == 0))
}

/// The interaction behind a webhook token: 404 10015 Unknown Webhook for a token never issued; 401
/// 50027 Invalid Webhook Token once it is 15 minutes old on the stand-in's clock (what Discord
/// answers on every webhook route then: discord-api-docs #6851; receiving-and-responding, "Interaction
/// tokens are valid for 15 minutes"). The refusal is recorded on the interaction.
fn interaction_of_token(state: &mut State, token: &str) -> Result<u64, Answer> {
    let Some(&id) = state.tokens.get(token) else {
        return Err(Answer::error(404, 10015, "Unknown Webhook"));
    };
    let now = state.clock();
    let Some(interaction) = state.interactions.get_mut(&id) else {
        return Err(Answer::error(404, 10015, "Unknown Webhook"));
    };
    if now.saturating_duration_since(interaction.created) >= TOKEN_LIFETIME {
        let answer = Answer::error(401, 50027, "Invalid Webhook Token");
        interaction
            .refused_followups
            .push((answer.status, answer.body.to_string()));
        return Err(answer);
    }
    Ok(id)
}

/// Follow-ups an app installed only by the user may create per interaction (change log "User-Installed
/// Apps General Availability", 2024-06-27; receiving-and-responding, "Create Followup Message").
pub const USER_INSTALL_FOLLOWUPS: usize = 5;

fn followup(state: &mut State, token: &str, body: &Value, uploads: &[Upload]) -> Answer {
    let iid = match interaction_of_token(state, token) {
        Ok(iid) => iid,
        Err(answer) => return answer,
    };
    let Some(interaction) = state.interactions.get(&iid).cloned() else {
        return Answer::error(404, 10015, "Unknown Webhook");
    };
    match &interaction.callback {
        Some(c) if c.kind != 8 => {}
        _ => return Answer::error(404, 10015, "Unknown Webhook"),
    }
    let forced = forced_body(body, interaction.forced_ephemeral);
    let body = forced.as_ref().map_or(body, |(b, _)| b);
    let forced_now = forced.as_ref().is_some_and(|(_, changed)| *changed);
    // After a deferred response, the first follow-up fills in the "thinking" message.
    if let Some(original) = interaction.original {
        if state
            .messages
            .get(&original)
            .is_some_and(|m| m.flags & 128 != 0)
        {
            return edit_message(state, original, body, uploads);
        }
    }
    // The limit counts follow-up messages created; filling in a deferred answer (above) creates none.
    // The documentation names the error (40094) but not its HTTP status: 400, like Discord's other
    // refusals of a request it understood.
    if interaction.is_user_install_only() && interaction.followups.len() >= USER_INSTALL_FOLLOWUPS {
        let answer = Answer::error(
            400,
            40094,
            "This interaction has hit the maximum number of follow up messages",
        );
        if let Some(i) = state.interactions.get_mut(&iid) {
            i.refused_followups
                .push((answer.status, answer.body.to_string()));
        }
        state.touch(iid);
        return answer;
    }
    match new_message(
        state,
        interaction.channel_id,
        body,
        uploads,
        4 | 64 | 4096,
        Some(iid),
    ) {
        Ok(mut message) => {
            message.forced_ephemeral = forced_now;
            let id = state.add_message(message);
            state.touch(iid);
            if let Some(i) = state.interactions.get_mut(&iid) {
                i.followups.push(id);
            }
            match state.message_json(id) {
                Some(json) => Answer::ok(json),
                None => Answer::error(500, 0, "500: Internal Server Error"),
            }
        }
        Err(answer) => answer,
    }
}

fn webhook_message(
    state: &mut State,
    method: &str,
    token: &str,
    which: &str,
    body: &Value,
    uploads: &[Upload],
) -> Answer {
    let iid = match interaction_of_token(state, token) {
        Ok(iid) => iid,
        Err(answer) => return answer,
    };
    let Some(interaction) = state.interactions.get(&iid).cloned() else {
        return Answer::error(404, 10015, "Unknown Webhook");
    };
    state.touch(iid);
    let message_id = if which == "@original" {
        // For a component's deferred update or update, @original is the clicked message.
        match (
            interaction.original,
            interaction.callback.as_ref().map(|c| c.kind),
        ) {
            (Some(m), _) => Some(m),
            (None, Some(6 | 7)) => interaction.message_id,
            _ => None,
        }
    } else {
        parse_id(which).filter(|m| interaction.followups.contains(m))
    };
    let Some(message_id) = message_id.filter(|m| state.messages.get(m).is_some_and(|m| !m.deleted))
    else {
        return Answer::error(404, 10008, "Unknown Message");
    };
    match method {
        "GET" => match state.message_json(message_id) {
            Some(json) => Answer::ok(json),
            None => Answer::error(404, 10008, "Unknown Message"),
        },
        "PATCH" => {
            let answer = edit_message(state, message_id, body, uploads);
            if answer.status == 200 && which == "@original" {
                if let Some(i) = state.interactions.get_mut(&iid) {
                    i.edited_original = true;
                }
            }
            answer
        }
        "DELETE" => {
            if let Some(m) = state.messages.get_mut(&message_id) {
                m.deleted = true;
            }
            Answer::no_content()
        }
        _ => Answer::error(405, 0, "405: Method Not Allowed"),
    }
}

fn channel_post(state: &mut State, channel: &str, body: &Value, uploads: &[Upload]) -> Answer {
    let Some(channel) = parse_id(channel)
        .and_then(|c| state.channels.get(&c))
        .cloned()
    else {
        return Answer::error(404, 10003, "Unknown Channel");
    };
    if let Some(user) = channel.dm_with.and_then(|u| state.users.get(&u)) {
        // A bot may DM a user only if they share a server or the user installed the app.
        if !user.in_bot_guilds && !user.installed {
            return Answer::error(
                403,
                50278,
                "Cannot send messages to this user due to having no mutual guilds",
            );
        }
        if user.dms_closed {
            return Answer::error(403, 50007, "Cannot send messages to this user");
        }
    }
    if let Some((status, code, message)) = state.post_refusal(channel.id, !uploads.is_empty()) {
        return Answer::error(status, code, message);
    }
    match new_message(state, channel.id, body, uploads, 4 | 4096, None) {
        Ok(message) => {
            let id = state.add_message(message);
            match state.message_json(id) {
                Some(json) => Answer::ok(json),
                None => Answer::error(500, 0, "500: Internal Server Error"),
            }
        }
        Err(answer) => answer,
    }
}

fn channel_message(
    state: &mut State,
    method: &str,
    channel: &str,
    message: &str,
    body: &Value,
    uploads: &[Upload],
) -> Answer {
    let (Some(channel_id), Some(message_id)) = (parse_id(channel), parse_id(message)) else {
        return Answer::error(404, 10008, "Unknown Message");
    };
    if !state.channels.contains_key(&channel_id) {
        return Answer::error(404, 10003, "Unknown Channel");
    }
    if let Some((status, code, message)) = state.access_refusal(channel_id) {
        return Answer::error(status, code, message);
    }
    let visible = state
        .messages
        .get(&message_id)
        .is_some_and(|m| m.channel_id == channel_id && !m.deleted && !m.is_ephemeral());
    if !visible {
        return Answer::error(404, 10008, "Unknown Message");
    }
    match method {
        "GET" => match state.message_json(message_id) {
            Some(json) => Answer::ok(json),
            None => Answer::error(404, 10008, "Unknown Message"),
        },
        "PATCH" => edit_message(state, message_id, body, uploads),
        "DELETE" => {
            if let Some(m) = state.messages.get_mut(&message_id) {
                m.deleted = true;
            }
            Answer::no_content()
        }
        _ => Answer::error(405, 0, "405: Method Not Allowed"),
    }
}
