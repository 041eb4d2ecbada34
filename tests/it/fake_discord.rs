//! Self-tests of the Discord stand-in (tests/support/fake_discord): its frames and answers deserialize
//! with serenity's own types, and a minimal serenity `Client` (not the bot) completes the handshake,
//! answers an interaction with a PNG through both ways of reaching the REST API, rides out 429s with its
//! rate limiter, and resumes after dropped connections without losing or doubling a dispatch.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use serenity::all::{
    ButtonStyle, Context, CreateActionRow, CreateAttachment, CreateAutocompleteResponse,
    CreateButton, CreateCommand, CreateCommandOption, CreateInteractionResponse,
    CreateInteractionResponseMessage, CreateMessage, EventHandler, GatewayIntents, HttpBuilder,
    Interaction as SerenityInteraction, Ready,
};
use support::fake_discord::{model, multipart, perm, Config, DropMode, FakeDiscord, Fault};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(10);

#[test]
fn multipart_parser_splits_parts() {
    let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"board.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n--XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"a\":1}\r\n--XyZ--\r\n";
    let parts = multipart::parse(body, "XyZ").expect("parses");
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0].name, "files[0]");
    assert_eq!(parts[0].filename.as_deref(), Some("board.png"));
    assert_eq!(parts[0].data, b"\x89PNG");
    assert_eq!(parts[1].data, b"{\"a\":1}");
    assert_eq!(
        multipart::boundary("multipart/form-data; boundary=XyZ").as_deref(),
        Some("XyZ")
    );
    assert!(multipart::parse(b"--XyZ\r\nbroken", "XyZ").is_err());
}

fn tiny_png() -> Vec<u8> {
    let image = image::RgbaImage::from_pixel(12, 7, image::Rgba([200, 30, 30, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut out, image::ImageFormat::Png)
        .expect("encode png");
    out.into_inner()
}

/// What the minimal bot saw.
#[derive(Debug)]
enum Seen {
    Ready(u64),
    Interaction,
    CallbackError(String),
}

/// A minimal bot: answers `/ping` with a PNG and a button, autocompletes with two choices, answers
/// button clicks by updating the message.
struct MiniBot {
    seen: mpsc::UnboundedSender<Seen>,
}

#[serenity::async_trait]
impl EventHandler for MiniBot {
    async fn ready(&self, _ctx: Context, ready: Ready) {
        let _ = self.seen.send(Seen::Ready(ready.application.id.get()));
    }

    async fn interaction_create(&self, ctx: Context, interaction: SerenityInteraction) {
        let _ = self.seen.send(Seen::Interaction);
        let result = match &interaction {
            SerenityInteraction::Command(command) => {
                let message = CreateInteractionResponseMessage::new()
                    .content(format!("pong <@{}>", command.user.id))
                    .add_file(CreateAttachment::bytes(tiny_png(), "board.png"))
                    .components(vec![CreateActionRow::Buttons(vec![CreateButton::new(
                        "again",
                    )
                    .label("Again")
                    .style(ButtonStyle::Primary)])]);
                command
                    .create_response(&ctx.http, CreateInteractionResponse::Message(message))
                    .await
            }
            SerenityInteraction::Autocomplete(auto) => {
                let response = CreateAutocompleteResponse::new()
                    .add_string_choice("Seven of hearts", "7H")
                    .add_string_choice("Jack of clubs", "JC");
                auto.create_response(&ctx.http, CreateInteractionResponse::Autocomplete(response))
                    .await
            }
            SerenityInteraction::Component(component) => {
                let message = CreateInteractionResponseMessage::new().content("clicked");
                component
                    .create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(message))
                    .await
            }
            _ => Ok(()),
        };
        if let Err(e) = result {
            let _ = self.seen.send(Seen::CallbackError(e.to_string()));
        }
    }
}

/// How the minimal bot reaches the REST API.
enum Route {
    /// `HttpBuilder::proxy` with the rate limiter off.
    BaseUrl,
    /// A CONNECT proxy and the stand-in's CA, rate limiter on.
    Tunnel,
}

struct Running {
    seen: mpsc::UnboundedReceiver<Seen>,
    http: Arc<serenity::http::Http>,
    shards: Arc<serenity::gateway::ShardManager>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let shards = Arc::clone(&self.shards);
        tokio::spawn(async move { shards.shutdown_all().await });
    }
}

async fn start_minibot(fake: &FakeDiscord, route: Route) -> Running {
    let http = match route {
        Route::BaseUrl => HttpBuilder::new(fake.token())
            .proxy(fake.rest_url())
            .ratelimiter_disabled(true)
            .build(),
        Route::Tunnel => {
            let client = reqwest::Client::builder()
                .use_rustls_tls()
                .proxy(reqwest::Proxy::https(fake.rest_url()).expect("proxy url"))
                .add_root_certificate(
                    reqwest::Certificate::from_pem(fake.ca_pem().as_bytes()).expect("ca pem"),
                )
                .build()
                .expect("reqwest client");
            HttpBuilder::new(fake.token()).client(client).build()
        }
    };
    let (tx, seen) = mpsc::unbounded_channel();
    let mut client = serenity::client::ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .event_handler(MiniBot { seen: tx })
        .await
        .expect("client");
    let http = Arc::clone(&client.http);
    let shards = Arc::clone(&client.shard_manager);
    tokio::spawn(async move {
        let _ = client.start().await;
    });
    Running { seen, http, shards }
}

async fn register_ping(http: &serenity::http::Http) {
    let commands = vec![CreateCommand::new("ping")
        .description("Answers with a picture")
        .add_option(
            CreateCommandOption::new(serenity::all::CommandOptionType::String, "card", "A card")
                .required(true)
                .set_autocomplete(true),
        )
        .add_option(CreateCommandOption::new(
            serenity::all::CommandOptionType::Integer,
            "times",
            "How many",
        ))];
    let registered = serenity::all::Command::set_global_commands(http, commands)
        .await
        .expect("commands registered and parsed by serenity");
    assert_eq!(registered.len(), 1);
    assert_eq!(registered[0].name, "ping");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_frames_and_rest_answers_deserialize_with_serenity() {
    let fake = FakeDiscord::start(Config {
        compress: false,
        ..Config::default()
    })
    .await
    .expect("stand-in");
    let alice = fake.add_user("alice");
    let table = fake.add_channel("table-1");

    // REST through the base URL: GET /gateway and command registration, parsed by serenity.
    let http = HttpBuilder::new(fake.token())
        .proxy(fake.rest_url())
        .ratelimiter_disabled(true)
        .application_id(fake.application_id().into())
        .build();
    let gateway = http.get_gateway().await.expect("gateway info");
    assert_eq!(gateway.url, fake.gateway_url());
    register_ping(&http).await;
    let info = http
        .get_current_application_info()
        .await
        .expect("application info parses");
    assert_eq!(info.id.get(), fake.application_id());

    // A raw WebSocket client: every frame must parse as serenity's GatewayEvent.
    let url = format!("{}/?v=10", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connect");
    let hello: serenity::model::event::GatewayEvent =
        serde_json::from_str(&read_text(&mut ws).await).expect("hello parses");
    assert!(matches!(
        hello,
        serenity::model::event::GatewayEvent::Hello(41_250)
    ));
    let identify = json!({"op": 2, "d": {"token": fake.token(), "intents": 1, "compress": false,
        "properties": {"os": "linux", "browser": "test", "device": "test"}, "shard": [0, 1]}});
    ws.send(Message::Text(identify.to_string()))
        .await
        .expect("send");
    let mut seq = 0;
    let mut frames = Vec::new();
    for _ in 0..2 {
        let text = read_text(&mut ws).await;
        frames.push(text);
    }
    for text in &frames {
        let event: serenity::model::event::GatewayEvent =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        if let serenity::model::event::GatewayEvent::Dispatch(s, _) = event {
            seq = s;
        }
    }
    assert!(frames[0].contains("\"READY\""));
    assert!(frames[1].contains("\"GUILD_CREATE\""));
    assert_eq!(seq, 2);

    // A slash command, an autocomplete and (after the bot posts a button) a click.
    fake.slash(&alice, table, "ping", &[("card", "7H"), ("times", "3")])
        .expect("slash");
    assert!(fake
        .slash(&alice, table, "ping", &[("times", "3")])
        .is_err_and(|e| e.contains("required")));
    assert!(fake
        .slash(&alice, table, "ping", &[("card", "7H"), ("times", "x")])
        .is_err());
    fake.autocomplete(&alice, table, "ping", &[("card", "7")], "card")
        .expect("autocomplete");
    let posted = serenity::all::ChannelId::new(table)
        .send_message(
            &http,
            CreateMessage::new()
                .content("your move")
                .add_file(CreateAttachment::bytes(tiny_png(), "board.png"))
                .button(CreateButton::new("play:7H").label("Play 7♥")),
        )
        .await
        .expect("message posted and parsed by serenity");
    assert_eq!(posted.attachments.len(), 1);
    assert_eq!(posted.attachments[0].width, Some(12));
    fake.click(&alice, posted.id.get(), "play:7H")
        .expect("click");
    assert!(fake.click(&alice, posted.id.get(), "nope").is_err());
    let mut kinds = Vec::new();
    for _ in 0..3 {
        let text = read_text(&mut ws).await;
        let event: serenity::model::event::GatewayEvent =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let serenity::model::event::GatewayEvent::Dispatch(_, event) = event else {
            panic!("not a dispatch: {text}");
        };
        let serenity::model::event::Event::InteractionCreate(created) = event else {
            panic!("not an interaction: {text}");
        };
        kinds.push(created.interaction.kind());
    }
    use serenity::all::InteractionType;
    assert_eq!(
        kinds,
        vec![
            InteractionType::Command,
            InteractionType::Autocomplete,
            InteractionType::Component
        ]
    );

    // Heartbeat → ack.
    ws.send(Message::Text(json!({"op": 1, "d": 5}).to_string()))
        .await
        .expect("send");
    let ack: Value = serde_json::from_str(&read_text(&mut ws).await).expect("json");
    assert_eq!(ack["op"], 11);

    // RESUME from an old sequence number on a new connection replays what came after it.
    let session_id = serde_json::from_str::<Value>(&frames[0]).expect("json")["d"]["session_id"]
        .as_str()
        .expect("session id")
        .to_string();
    drop(ws);
    let url = format!("{}/?v=10", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connect");
    let _hello = read_text(&mut ws).await;
    let resume = json!({"op": 6, "d": {"token": fake.token(), "session_id": session_id, "seq": 3}});
    ws.send(Message::Text(resume.to_string()))
        .await
        .expect("send");
    let replayed: Vec<Value> = [
        read_text(&mut ws).await,
        read_text(&mut ws).await,
        read_text(&mut ws).await,
    ]
    .iter()
    .map(|t| serde_json::from_str(t).expect("json"))
    .collect();
    assert_eq!(replayed[0]["s"], 4);
    assert_eq!(replayed[1]["s"], 5);
    assert_eq!(replayed[2]["t"], "RESUMED");
    // An unknown session gets op 9.
    let bad = json!({"op": 6, "d": {"token": fake.token(), "session_id": "nope", "seq": 1}});
    let (mut ws2, _) = tokio_tungstenite::connect_async(format!("{}/?v=10", fake.gateway_url()))
        .await
        .expect("connect");
    let _hello = read_text(&mut ws2).await;
    ws2.send(Message::Text(bad.to_string()))
        .await
        .expect("send");
    let invalid: Value = serde_json::from_str(&read_text(&mut ws2).await).expect("json");
    assert_eq!(invalid["op"], 9);
    assert_eq!(fake.gateway_stats().resumes, 1);
    assert!(fake.state().unknown_routes().is_empty());
}

async fn read_text<S>(ws: &mut S) -> String
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a frame in time")
            .expect("connection open")
            .expect("frame");
        if let Message::Text(text) = frame {
            return text;
        }
    }
}

async fn wait_seen(running: &mut Running, what: impl Fn(&Seen) -> bool) -> Seen {
    loop {
        let seen = tokio::time::timeout(WAIT, running.seen.recv())
            .await
            .expect("the mini bot to see it in time")
            .expect("handler alive");
        if what(&seen) {
            return seen;
        }
    }
}

async fn handshake_and_reply(route: Route) -> FakeDiscord {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let alice = fake.add_user("alice");
    let table = fake.add_channel("table-1");
    let mut bot = start_minibot(&fake, route).await;
    let ready = wait_seen(&mut bot, |s| matches!(s, Seen::Ready(_))).await;
    assert!(matches!(ready, Seen::Ready(id) if id == fake.application_id()));
    fake.wait_ready(WAIT).await.expect("session");
    let identify = fake.gateway_stats().last_identify;
    assert_eq!(
        identify["compress"], true,
        "serenity asks for payload compression"
    );
    register_ping(&bot.http).await;

    let ping = fake
        .slash(&alice, table, "ping", &[("card", "7H")])
        .expect("slash");
    let reply = fake.wait_reply(&ping, WAIT).await.expect("reply");
    assert_eq!(reply.content, format!("pong <@{}>", alice.id));
    assert_eq!(reply.mentions(), vec![alice.id]);
    assert_eq!(reply.attachments.len(), 1);
    let png = image::load_from_memory(&reply.attachments[0].data).expect("PNG decodes");
    assert_eq!((png.width(), png.height()), (12, 7));
    assert_eq!(reply.custom_ids(), vec!["again".to_string()]);
    let callback = fake.requests_to("POST", &format!("/interactions/{}/", ping.id));
    assert_eq!(callback.len(), 1);
    assert_eq!(callback[0].uploads[0].field, "files[0]");

    let auto = fake
        .autocomplete(&alice, table, "ping", &[("card", "J")], "card")
        .expect("autocomplete");
    let answer = fake.wait_callback(&auto, WAIT).await.expect("choices");
    assert_eq!(answer.kind, 8);
    assert_eq!(answer.data["choices"][1]["value"], "JC");

    let click = fake.click(&alice, reply.id, "again").expect("click");
    let updated = fake.wait_reply(&click, WAIT).await.expect("update");
    assert_eq!(updated.id, reply.id);
    assert_eq!(updated.content, "clicked");
    assert!(fake.state().unknown_routes().is_empty());
    fake
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_client_through_the_base_url() {
    let fake = handshake_and_reply(Route::BaseUrl).await;
    assert!(fake.requests().iter().all(|r| !r.via_tls));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_client_through_the_tls_tunnel() {
    let fake = handshake_and_reply(Route::Tunnel).await;
    assert!(fake.requests().iter().all(|r| r.via_tls));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_rate_limiter_retries_429_but_not_500() {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let alice = fake.add_user("alice");
    let table = fake.add_channel("table-1");
    let mut bot = start_minibot(&fake, Route::Tunnel).await;
    wait_seen(&mut bot, |s| matches!(s, Seen::Ready(_))).await;
    register_ping(&bot.http).await;

    fake.inject_fault(
        Fault::RateLimited {
            retry_after: 0.25,
            global: false,
        },
        2,
        Some("POST"),
        Some("/callback"),
    );
    let ping = fake
        .slash(&alice, table, "ping", &[("card", "7H")])
        .expect("slash");
    let reply = fake
        .wait_reply(&ping, WAIT)
        .await
        .expect("reply after 429s");
    assert_eq!(reply.attachments.len(), 1);
    let attempts = fake.requests_to("POST", &format!("/interactions/{}/", ping.id));
    assert_eq!(attempts.len(), 3, "two 429s, then the accepted callback");
    assert_eq!(
        attempts.iter().map(|r| r.status).collect::<Vec<_>>(),
        vec![429, 429, 204]
    );
    let waited = attempts[2].at.duration_since(attempts[0].at);
    assert!(waited >= Duration::from_millis(450), "waited {waited:?}");

    // serenity does not retry a 500: the handler gets the error.
    fake.inject_fault(Fault::ServerError(500), 1, Some("POST"), Some("/callback"));
    let ping = fake
        .slash(&alice, table, "ping", &[("card", "7H")])
        .expect("slash");
    let error = wait_seen(&mut bot, |s| matches!(s, Seen::CallbackError(_))).await;
    assert!(matches!(error, Seen::CallbackError(e) if e.contains("500")));
    assert!(fake.interaction(ping.id).expect("known").callback.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_resumes_after_drops_without_losing_or_doubling() {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let alice = fake.add_user("alice");
    let table = fake.add_channel("table-1");
    let mut bot = start_minibot(&fake, Route::BaseUrl).await;
    wait_seen(&mut bot, |s| matches!(s, Seen::Ready(_))).await;
    register_ping(&bot.http).await;

    let modes = [DropMode::Abrupt, DropMode::Close(4000), DropMode::Reconnect];
    for (round, mode) in modes.into_iter().enumerate() {
        fake.wait_ready(WAIT).await.expect("connected");
        assert!(fake.drop_gateway(mode), "{mode:?}: a connection to drop");
        // Sent while the bot is disconnected: kept and replayed on RESUME.
        let ping = fake
            .slash(&alice, table, "ping", &[("card", "7H")])
            .expect("slash");
        fake.wait_resumed(round + 1, WAIT)
            .await
            .unwrap_or_else(|e| panic!("{mode:?}: {e}"));
        fake.wait_reply(&ping, WAIT)
            .await
            .unwrap_or_else(|e| panic!("{mode:?}: {e}"));
        let state = fake.interaction(ping.id).expect("known");
        assert_eq!(state.deliveries, 1, "{mode:?}: delivered exactly once");
        assert!(
            state.refused_callbacks.is_empty(),
            "{mode:?}: answered once"
        );
    }
    let stats = fake.gateway_stats();
    assert_eq!(stats.identifies, 1, "never re-identified");
    assert_eq!(stats.resumes, 3);
    assert!(
        stats.replayed >= 3,
        "each ping was replayed on RESUME, not sent live"
    );
}

/// Sends one request straight to the stand-in's REST API (no serenity), with the bot's token.
async fn raw_request(
    fake: &FakeDiscord,
    method: reqwest::Method,
    path_and_query: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .request(
            method,
            format!("{}/api/v10{path_and_query}", fake.rest_url()),
        )
        .header("authorization", format!("Bot {}", fake.token()));
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A message with a PNG as `multipart/form-data`, the way serenity sends files.
async fn raw_multipart_message(fake: &FakeDiscord, channel: u64, payload: &Value) -> (u16, Value) {
    let boundary = "fake-boundary-1234";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\
             Content-Type: application/json\r\n\r\n{payload}\r\n--{boundary}\r\n\
             Content-Disposition: form-data; name=\"files[0]\"; filename=\"board.png\"\r\n\
             Content-Type: image/png\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(&tiny_png());
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let response = reqwest::Client::new()
        .post(format!(
            "{}/api/v10/channels/{channel}/messages",
            fake.rest_url()
        ))
        .header("authorization", format!("Bot {}", fake.token()))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_check_catches_requests_discord_does_not_document() {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let table = fake.add_channel("table-1");
    let messages = format!("/channels/{table}/messages");
    use reqwest::Method;

    // Valid: a documented route and body, and serenity's integer attachment id (allow-listed).
    raw_request(&fake, Method::GET, "/gateway/bot", None).await;
    raw_request(
        &fake,
        Method::POST,
        &messages,
        Some(json!({"content": "hi", "attachments": [{"id": 0, "filename": "a.png"}]})),
    )
    .await;
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(fake
        .openapi_summary()
        .contains("allowed deviation (1x): attachment ids"));

    // Invalid, each in its own way.
    raw_request(&fake, Method::POST, &messages, Some(json!({"content": 5}))).await;
    raw_request(
        &fake,
        Method::POST,
        &messages,
        Some(json!({"content": "x", "allowed_mentions": {"parse": ["nobody"]}})),
    )
    .await;
    raw_request(
        &fake,
        Method::POST,
        "/interactions/1/token/callback",
        Some(json!({"type": 4, "data": {"content": "x", "flags": "ephemeral"}})),
    )
    .await;
    raw_request(&fake, Method::GET, "/no/such/route", None).await;
    raw_request(&fake, Method::DELETE, "/gateway", None).await;
    raw_request(&fake, Method::GET, "/gateway?shards=2", None).await;
    raw_request(&fake, Method::GET, "/channels/not-a-snowflake", None).await;
    let problems = fake.take_openapi_problems();
    let expect = [
        "POST /channels/{channel_id}/messages: body: at /content",
        "POST /channels/{channel_id}/messages: body: at /allowed_mentions/parse/0",
        "POST /interactions/{interaction_id}/{interaction_token}/callback: body: at /data/flags",
        "GET /no/such/route: no such path",
        "DELETE /gateway: method not documented for this path",
        "GET /gateway: query parameter \"shards\" is not documented",
        "GET /channels/{channel_id}: path parameter channel_id",
    ];
    assert_eq!(problems.len(), expect.len(), "{problems:#?}");
    for (problem, expected) in problems.iter().zip(expect) {
        assert!(
            problem.contains(expected),
            "{problem:?} should say {expected:?}"
        );
    }

    // A problem nobody took fails the test when the stand-in is dropped.
    raw_request(&fake, Method::POST, &messages, Some(json!({"tts": "yes"}))).await;
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(fake)));
    let message = dropped
        .expect_err("dropping a stand-in with an unchecked problem panics")
        .downcast::<String>()
        .map(|s| *s)
        .unwrap_or_default();
    assert!(
        message.contains("POST /channels/{channel_id}/messages: body: at /tts"),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stand_in_answers_match_discords_response_schemas() {
    use reqwest::Method;
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let alice = fake.add_user("alice");
    let table = fake.add_channel("table-1");
    let app = fake.application_id();
    let guild = fake.guild_id();
    let command = json!({
        "name": "sequence", "description": "Play", "type": 1,
        "options": [{"type": 1, "name": "play", "description": "Play a card",
            "options": [{"type": 3, "name": "card", "description": "A card", "required": true,
                         "autocomplete": true, "min_length": null, "max_length": null}]}]
    });
    let mut answers = vec![
        raw_request(&fake, Method::GET, "/gateway", None).await,
        raw_request(&fake, Method::GET, "/gateway/bot", None).await,
        raw_request(&fake, Method::GET, "/users/@me", None).await,
        raw_request(&fake, Method::GET, &format!("/users/{}", alice.id), None).await,
        raw_request(&fake, Method::GET, "/oauth2/applications/@me", None).await,
        raw_request(
            &fake,
            Method::PUT,
            &format!("/applications/{app}/commands"),
            Some(json!([command])),
        )
        .await,
        raw_request(
            &fake,
            Method::PUT,
            &format!("/applications/{app}/guilds/{guild}/commands"),
            Some(json!([command])),
        )
        .await,
        raw_request(
            &fake,
            Method::GET,
            &format!("/applications/{app}/commands"),
            None,
        )
        .await,
        raw_request(
            &fake,
            Method::POST,
            "/users/@me/channels",
            Some(json!({"recipient_id": alice.id.to_string()})),
        )
        .await,
        raw_request(&fake, Method::GET, &format!("/channels/{table}"), None).await,
    ];
    let button = json!([{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Join", "custom_id": "sequence:join"}]}]);
    let (status, posted) = raw_multipart_message(
        &fake,
        table,
        &json!({"content": format!("<@{}> to play", alice.id), "components": button,
                "attachments": [{"id": 0, "filename": "board.png"}]}),
    )
    .await;
    answers.push((status, posted.clone()));
    let message = format!(
        "/channels/{table}/messages/{}",
        posted["id"].as_str().unwrap_or("0")
    );
    answers.push(
        raw_request(
            &fake,
            Method::PATCH,
            &message,
            Some(json!({"content": "edited"})),
        )
        .await,
    );
    answers.push(raw_request(&fake, Method::GET, &message, None).await);
    answers.push(raw_request(&fake, Method::DELETE, &message, None).await);
    // An error answer has Discord's error shape too.
    answers.push(raw_request(&fake, Method::GET, "/users/1", None).await);

    let statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        statuses,
        [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 204, 404],
        "{answers:#?}"
    );
    let state = fake.state();
    let report = &state.openapi;
    assert_eq!(report.responses, answers.len(), "every answer was checked");
    assert!(
        report.response_violations.is_empty(),
        "{:#?}",
        report.response_violations
    );
    drop(state);
    assert!(fake.take_openapi_problems().is_empty());
}

#[test]
fn response_check_refuses_an_answer_that_is_not_discord_shaped() {
    let spec = support::fake_discord::openapi::load().expect("Discord's OpenAPI description");
    let user = json!({"id": "1", "username": "a", "avatar": null, "discriminator": "0",
        "public_flags": 0, "flags": 0, "global_name": null, "primary_guild": null,
        "mfa_enabled": false, "locale": "en-US"});
    spec.check_response("GET /users/@me", 200, &user)
        .expect("a complete user");
    let mut partial = user.clone();
    partial.as_object_mut().map(|u| u.remove("flags"));
    let error = spec
        .check_response("GET /users/@me", 200, &partial)
        .expect_err("a user without flags");
    assert!(
        error.contains("\"flags\" is a required property"),
        "{error}"
    );
    let error = spec
        .check_response("GET /users/@me", 201, &user)
        .expect_err("an undocumented status");
    assert!(error.contains("201 is not documented"), "{error}");
}

#[test]
fn command_limits_count_the_longest_localization() {
    use support::fake_discord::openapi::{command_limits, COMMAND_SIZE_LIMIT};
    let small = json!([{"name": "ab", "description": "cde",
        "description_localizations": {"de": "fghijk", "no": "lm"},
        "options": [{"name": "x", "description": "y",
                     "choices": [{"name": "one", "value": "1",
                                  "name_localizations": {"de": "eins!"}}]}]}]);
    let (errors, largest) = command_limits(&small);
    assert!(errors.is_empty(), "{errors:?}");
    // 2 + max(3, 6, 2) for the command, 1 + 1 for the option, max(3, 5) + 1 for the choice.
    assert_eq!(largest, Some(("ab".to_string(), 2 + 6 + 2 + 6)));

    let options: Vec<Value> = (0..26)
        .map(|i| json!({"type": 3, "name": format!("o{i}"), "description": "d"}))
        .collect();
    let choices: Vec<Value> = (0..26)
        .map(|i| json!({"name": format!("c{i}"), "value": format!("{i}")}))
        .collect();
    let long = "x".repeat(100);
    let big_options: Vec<Value> = (0..25)
        .map(|i| {
            json!({"type": 1, "name": format!("s{i}"), "description": long,
                   "description_localizations": {"de": "y".repeat(100)},
                   "options": (0..3).map(|j| json!({"type": 3, "name": format!("p{j}"),
                        "description": long})).collect::<Vec<_>>()})
        })
        .collect();
    let body = json!([
        {"name": "many", "description": "d", "options": options},
        {"name": "choosy", "description": "d",
         "options": [{"type": 3, "name": "pick", "description": "d", "choices": choices}]},
        {"name": "huge", "description": "d", "options": big_options},
    ]);
    let (errors, largest) = command_limits(&body);
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors[0].contains("/many has 26 options"), "{errors:?}");
    assert!(
        errors[1].contains("/choosy pick has 26 choices"),
        "{errors:?}"
    );
    assert!(
        errors[2].contains(&format!("Discord allows {COMMAND_SIZE_LIMIT}")),
        "{errors:?}"
    );
    assert_eq!(largest.map(|(name, _)| name), Some("huge".to_string()));
}

#[test]
fn a_missing_or_foreign_api_description_is_a_loud_error() {
    use support::fake_discord::openapi::Spec;
    let missing = Spec::read("/nonexistent/discord-api/openapi.json")
        .err()
        .expect("a missing file is an error");
    assert!(
        missing.contains("/nonexistent/discord-api/openapi.json") && missing.contains("workplace"),
        "{missing}"
    );
    let foreign = Spec::from_value(json!({"openapi": "3.1.0", "paths": {}}))
        .err()
        .expect("no components");
    assert!(foreign.contains("not an OpenAPI description"), "{foreign}");
}

#[tokio::test]
async fn threads_forums_and_overwrites_deserialize_with_serenity() {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let alice = fake.add_user("alice");
    let text = fake.add_channel("text");
    fake.set_bot_overwrite(text, 0, perm::ATTACH_FILES);
    let forum = fake.add_forum("forum");
    let thread = fake.add_thread(text, "thread", false, alice.id);
    let private = fake.add_thread(text, "private", true, alice.id);
    let post = fake.add_thread(forum, "post", false, alice.id);
    let expected = [
        (text, serenity::model::channel::ChannelType::Text),
        (forum, serenity::model::channel::ChannelType::Forum),
        (thread, serenity::model::channel::ChannelType::PublicThread),
        (
            private,
            serenity::model::channel::ChannelType::PrivateThread,
        ),
        (post, serenity::model::channel::ChannelType::PublicThread),
    ];
    let state = fake.state();
    for (id, kind) in expected {
        let json = state.channel_json(id).expect("channel");
        let channel: serenity::model::channel::GuildChannel =
            serde_json::from_value(json.clone()).unwrap_or_else(|e| panic!("{e}: {json}"));
        assert_eq!(channel.kind, kind, "{json}");
        let event = json!({"op": 0, "s": 1, "t": "THREAD_CREATE", "d": json});
        let parsed: serenity::model::event::GatewayEvent =
            serde_json::from_value(event).unwrap_or_else(|e| panic!("as an event: {e}: {json}"));
        assert!(matches!(
            parsed,
            serenity::model::event::GatewayEvent::Dispatch(1, _)
        ));
    }
    let overwrites = state.channel_json(text).expect("text")["permission_overwrites"].clone();
    assert_eq!(overwrites[0]["deny"], json!(perm::ATTACH_FILES.to_string()));
    assert_eq!(
        state.bot_permissions(thread),
        state.bot_permissions(text),
        "a thread inherits its parent's overwrites"
    );
    let guild = state.guild_create();
    let threads = guild["threads"].as_array().expect("threads").len();
    assert_eq!(
        threads, 2,
        "the private thread the bot is not in is not sent"
    );
    let event = json!({"op": 0, "s": 2, "t": "GUILD_CREATE", "d": guild});
    let parsed: serenity::model::event::GatewayEvent =
        serde_json::from_value(event).expect("GUILD_CREATE parses");
    let serenity::model::event::GatewayEvent::Dispatch(
        _,
        serenity::model::event::Event::GuildCreate(created),
    ) = parsed.clone()
    else {
        panic!("not a GUILD_CREATE: {parsed:?}");
    };
    assert_eq!(created.guild.threads.len(), 2);
    // What Discord would answer a post there.
    assert_eq!(state.post_refusal(text, false), None);
    assert_eq!(state.post_refusal(text, true).map(|r| r.1), Some(50013));
    assert_eq!(state.post_refusal(private, false).map(|r| r.1), Some(50001));
    assert_eq!(state.post_refusal(forum, false).map(|r| r.1), Some(50008));
    assert_eq!(state.post_refusal(post, true).map(|r| r.1), None);
}

/// A raw gateway session for shard `shard` (`None`: IDENTIFY without `shard`); the `d` of every
/// dispatch up to and including the GUILD_CREATEs it expects, by event name.
async fn identify_shard(
    fake: &FakeDiscord,
    shard: Option<[u32; 2]>,
    guild_creates: usize,
) -> (
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    Vec<(String, Value)>,
) {
    let url = format!("{}/?v=10", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connect");
    read_text(&mut ws).await; // HELLO
    let mut d = json!({"token": fake.token(), "intents": 1, "compress": false,
        "properties": {"os": "linux", "browser": "test", "device": "test"}});
    if let Some(shard) = shard {
        d["shard"] = json!(shard);
    }
    ws.send(Message::Text(json!({"op": 2, "d": d}).to_string()))
        .await
        .expect("send");
    let mut events = Vec::new();
    while events.len() < 1 + guild_creates {
        let frame: Value = serde_json::from_str(&read_text(&mut ws).await).expect("json");
        events.push((
            frame["t"].as_str().unwrap_or("").to_string(),
            frame["d"].clone(),
        ));
    }
    (ws, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_shards_guilds_as_discord_does() {
    let fake = FakeDiscord::start(Config {
        compress: false,
        recommended_shards: 2,
        ..Config::default()
    })
    .await
    .expect("stand-in");
    let http = HttpBuilder::new(fake.token())
        .proxy(fake.rest_url())
        .ratelimiter_disabled(true)
        .application_id(fake.application_id().into())
        .build();
    let gateway = http.get_bot_gateway().await.expect("GET /gateway/bot");
    assert_eq!(gateway.shards, 2);
    assert_eq!(gateway.session_start_limit.max_concurrency, 1);
    register_ping(&http).await;
    let alice = fake.add_user("alice");
    let even = fake.add_guild_on_shard("even", 0, 2);
    let odd = fake.add_guild_on_shard("odd", 1, 2);
    assert_eq!((even >> 22) % 2, 0);
    assert_eq!((odd >> 22) % 2, 1);
    let first = fake.guild_id();
    let first_shard = u32::try_from((first >> 22) % 2).expect("small");
    let in_even = fake.add_channel_in(even, "even-table");
    let in_odd = fake.add_channel_in(odd, "odd-table");

    // Each session gets READY with its shard's guilds, and a GUILD_CREATE for each of them.
    let on = |shard: u32| 1 + usize::from(first_shard == shard);
    let (mut ws0, events0) = identify_shard(&fake, Some([0, 2]), on(0)).await;
    let (mut ws1, events1) = identify_shard(&fake, Some([1, 2]), on(1)).await;
    for (shard, events, guild) in [(0, &events0, even), (1, &events1, odd)] {
        assert_eq!(events[0].0, "READY");
        assert_eq!(events[0].1["shard"], json!([shard, 2]));
        let ready: Vec<String> = events[0].1["guilds"]
            .as_array()
            .expect("guilds")
            .iter()
            .map(|g| g["id"].as_str().unwrap_or("").to_string())
            .collect();
        assert!(ready.contains(&guild.to_string()), "{ready:?}");
        let created: Vec<&Value> = events[1..].iter().map(|(_, d)| &d["id"]).collect();
        assert!(created.contains(&&json!(guild.to_string())), "{created:?}");
        assert_eq!(ready.len(), on(shard));
    }
    assert_eq!(fake.connected_shards(), vec![[0, 2], [1, 2]]);
    assert_eq!(fake.gateway_stats().identified_shards, vec![[0, 2], [1, 2]]);

    // An interaction reaches only the session of its guild's shard, with that guild's id.
    fake.slash(&alice, in_odd, "ping", &[("card", "7H")])
        .expect("slash");
    fake.slash(&alice, in_even, "ping", &[("card", "8H")])
        .expect("slash");
    for (ws, guild, card) in [(&mut ws1, odd, "7H"), (&mut ws0, even, "8H")] {
        let frame: Value = serde_json::from_str(&read_text(ws).await).expect("json");
        assert_eq!(frame["t"], "INTERACTION_CREATE");
        assert_eq!(frame["d"]["guild_id"], guild.to_string());
        assert_eq!(frame["d"]["channel"]["guild_id"], guild.to_string());
        assert_eq!(frame["d"]["data"]["options"][0]["value"], card);
        let event: serenity::model::event::GatewayEvent =
            serde_json::from_value(frame).expect("serenity parses it");
        assert!(matches!(
            event,
            serenity::model::event::GatewayEvent::Dispatch(..)
        ));
    }
    // Nothing else arrived on either session: a heartbeat's ack is the next frame.
    for ws in [&mut ws0, &mut ws1] {
        ws.send(Message::Text(json!({"op": 1, "d": null}).to_string()))
            .await
            .expect("send");
        let next: Value = serde_json::from_str(&read_text(ws).await).expect("json");
        assert_eq!(next["op"], 11, "{next}");
    }
    // A channel's REST object names its guild.
    let channel = http
        .get_channel(serenity::all::ChannelId::new(in_odd))
        .await
        .expect("channel");
    assert_eq!(channel.guild().expect("guild channel").guild_id.get(), odd);

    // A shard outside its total is refused with 4010, as Discord does.
    let url = format!("{}/?v=10", fake.gateway_url());
    let (mut bad, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connect");
    read_text(&mut bad).await;
    let identify = json!({"op": 2, "d": {"token": fake.token(), "intents": 1,
        "properties": {"os": "linux", "browser": "test", "device": "test"}, "shard": [2, 2]}});
    bad.send(Message::Text(identify.to_string()))
        .await
        .expect("send");
    let closed = tokio::time::timeout(WAIT, bad.next())
        .await
        .expect("in time")
        .expect("a frame")
        .expect("frame");
    let Message::Close(Some(frame)) = closed else {
        panic!("not a close: {closed:?}");
    };
    assert_eq!(u16::from(frame.code), 4010);
    assert_eq!(fake.gateway_stats().invalid_shards, 1);
}

/// Components as Discord takes them: five rows of five buttons and a menu of 25 options pass (and the
/// OpenAPI description agrees); a sixth row, a sixth button, a menu beside a button, a 26th option, a
/// duplicate id or value, an overlong id or label are refused. Users press only what is offered: an
/// enabled button, a value of the menu; the press arrives as a component interaction (type 3 with
/// `values` for a menu), and an UPDATE_MESSAGE answer edits an ephemeral message in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn components_are_checked_and_pressed_as_discord_does() {
    use reqwest::Method;
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let table = fake.add_channel("table-1");
    let alice = fake.add_user("alice");
    let messages = format!("/channels/{table}/messages");
    let button = |id: String| json!({"type": 2, "style": 1, "label": "B", "custom_id": id});
    let row = |start: usize, n: usize| json!({"type": 1, "components": (start..start + n).map(|i| button(format!("b{i}"))).collect::<Vec<_>>()});
    let option = |i: usize| json!({"label": format!("Row {i}"), "value": format!("{i}-0"), "description": "A1, B1"});
    let menu = |id: &str, n: usize| {
        json!({"type": 1, "components": [{"type": 3, "custom_id": id, "placeholder": "Choose",
            "options": (0..n).map(option).collect::<Vec<_>>()}]})
    };
    let post = |components: Value| {
        let fake = &fake;
        let messages = messages.clone();
        async move {
            raw_request(
                fake,
                Method::POST,
                &messages,
                Some(json!({"content": "x", "components": components})),
            )
            .await
        }
    };
    // Accepted.
    let full: Vec<Value> = (0..5).map(|r| row(r * 5, 5)).collect();
    let (status, _) = post(json!(full)).await;
    assert_eq!(status, 200);
    let link = |url: &str| json!({"type": 2, "style": 5, "label": "Watch", "url": url});
    let with_link = json!([{"type": 1, "components": [button("b".into()), button("c".into()),
        link("https://sequence.example.org/g/0123456789abcdef0123456789abcdef")]}]);
    let (status, linked) = post(with_link).await;
    assert_eq!(status, 200, "{linked}");
    let (status, with_menu) = post(json!([menu("m", 25), row(0, 5), row(5, 2)])).await;
    assert_eq!(status, 200, "{with_menu}");
    let problems = fake.take_openapi_problems();
    assert!(
        problems.is_empty(),
        "Discord's OpenAPI takes them: {problems:#?}"
    );
    // Refused.
    let long_id = "x".repeat(101);
    let long_label = json!([{"type": 1, "components": [{"type": 2, "style": 1,
        "label": "L".repeat(81), "custom_id": "a"}]}]);
    let bad = [
        json!((0..6).map(|r| row(r * 5, 1)).collect::<Vec<_>>()),
        json!([row(0, 6)]),
        json!([menu("m", 26)]),
        json!([{"type": 1, "components": [button("a".into()),
            {"type": 3, "custom_id": "m", "options": [option(1)]}]}]),
        json!([row(0, 2), row(0, 1)]),
        json!([{"type": 1, "components": [{"type": 3, "custom_id": "m",
            "options": [option(1), option(1)]}]}]),
        json!([{"type": 1, "components": [button(long_id)]}]),
        long_label,
        // Link buttons: a url and no custom_id; other buttons: a custom_id and no url; a known style.
        json!([{"type": 1, "components": [{"type": 2, "style": 5, "label": "W"}]}]),
        json!([{"type": 1, "components": [{"type": 2, "style": 5, "label": "W",
            "url": "https://x.org/g/1", "custom_id": "w"}]}]),
        json!([{"type": 1, "components": [link("sequence.example.org/g/1")]}]),
        json!([{"type": 1, "components": [link(&format!("https://x.org/{}", "a".repeat(500)))]}]),
        json!([{"type": 1, "components": [{"type": 2, "style": 1, "label": "B",
            "custom_id": "b", "url": "https://x.org"}]}]),
        json!([{"type": 1, "components": [{"type": 2, "style": 7, "label": "B",
            "custom_id": "b"}]}]),
        json!([{"type": 1, "components": [button("a".into()), button("b".into()),
            button("c".into()), button("d".into()), button("e".into()), link("https://x.org")]}]),
    ];
    for components in bad {
        let (status, body) = post(components.clone()).await;
        assert_eq!(status, 400, "{components}: {body}");
    }
    fake.take_openapi_problems();

    // Presses: only what a Discord client offers (a successful press, a menu choice delivered as
    // component_type 3 with `values`, and UPDATE_MESSAGE on an ephemeral picker are driven by the
    // real bot in tests/it/e2e_buttons.rs).
    let picker = json!([menu("rows", 3),
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "Old", "custom_id": "old",
            "disabled": true}, button("cell".into())]}]);
    let (status, posted) = post(picker).await;
    assert_eq!(status, 200, "{posted}");
    let shown = posted["id"]
        .as_str()
        .and_then(|id| id.parse::<u64>().ok())
        .expect("id");
    assert!(fake.click(&alice, shown, "old").is_err(), "disabled");
    assert!(
        fake.select(&alice, shown, "rows", &["7-0"]).is_err(),
        "not offered"
    );
    assert!(
        fake.select(&alice, shown, "rows", &[]).is_err(),
        "one value"
    );
    assert!(
        fake.select(&alice, shown, "rows", &["1-0", "2-0"]).is_err(),
        "one value"
    );
    assert!(
        fake.select(&alice, shown, "cell", &["1-0"]).is_err(),
        "a button"
    );
    assert!(
        fake.click(&alice, shown, "rows").is_err(),
        "a menu is chosen from"
    );
    assert!(
        fake.click(&alice, shown, "nothing").is_err(),
        "no such component"
    );
    assert!(fake.take_openapi_problems().is_empty());
}

// Where Discord lets an app speak: user installs, group DMs, servers without the bot (see
// docs/development.md, "Where Discord lets an app speak"). A raw gateway session stands for the bot;
// the tests answer with raw REST requests, and serenity parses every dispatched interaction.

/// `/play` offered everywhere to both installs, `/rules` with Discord's defaults.
fn anywhere_commands() -> Value {
    json!([
        {"name": "play", "description": "Play", "type": 1,
         "integration_types": [0, 1], "contexts": [0, 1, 2]},
        {"name": "rules", "description": "Rules", "type": 1},
    ])
}

/// A stand-in with the commands registered and a gateway session (so interactions are delivered).
async fn anywhere() -> (
    FakeDiscord,
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) {
    let fake = FakeDiscord::start(Config {
        compress: false,
        ..Config::default()
    })
    .await
    .expect("stand-in");
    let path = format!("/applications/{}/commands", fake.application_id());
    let (status, body) = raw_request(
        &fake,
        reqwest::Method::PUT,
        &path,
        Some(anywhere_commands()),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (ws, _) = identify_shard(&fake, None, 1).await;
    (fake, ws)
}

/// The dispatched interaction, parsed by serenity, and its raw payload.
fn delivered(fake: &FakeDiscord, id: u64) -> (SerenityInteraction, Value) {
    let payload = fake.dispatched_interaction(id).expect("dispatched");
    let parsed = serde_json::from_value(payload.clone())
        .unwrap_or_else(|e| panic!("serenity parses it: {e}: {payload}"));
    (parsed, payload)
}

fn bits(value: &Value) -> u64 {
    value
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("a permission string")
}

async fn answer(fake: &FakeDiscord, id: u64, token: &str, body: Value) -> (u16, Value) {
    let path = format!("/interactions/{id}/{token}/callback");
    raw_request(fake, reqwest::Method::POST, &path, Some(body)).await
}

async fn follow_up(fake: &FakeDiscord, token: &str, content: &str) -> (u16, Value) {
    let path = format!("/webhooks/{}/{token}", fake.application_id());
    raw_request(
        fake,
        reqwest::Method::POST,
        &path,
        Some(json!({ "content": content })),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_keep_their_installation_and_interaction_contexts() {
    use reqwest::Method;
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let path = format!("/applications/{}/commands", fake.application_id());
    let (status, stored) = raw_request(&fake, Method::PUT, &path, Some(anywhere_commands())).await;
    assert_eq!(status, 200, "{stored}");
    assert_eq!(stored[0]["integration_types"], json!([0, 1]));
    assert_eq!(stored[0]["contexts"], json!([0, 1, 2]));
    // Discord's defaults: a server install only; contexts left null.
    assert_eq!(stored[1]["integration_types"], json!([0]));
    assert_eq!(stored[1]["contexts"], Value::Null);
    let commands: Vec<serenity::all::Command> =
        serde_json::from_value(stored.clone()).expect("serenity parses them");
    assert_eq!(
        commands[0].integration_types,
        vec![
            serenity::all::InstallationContext::Guild,
            serenity::all::InstallationContext::User
        ]
    );
    assert!(fake.take_openapi_problems().is_empty());

    // Refused as Discord refuses them: unknown values, empty lists, repeats, not a list.
    let bad = [
        json!({"integration_types": [2]}),
        json!({"contexts": [3]}),
        json!({"contexts": []}),
        json!({"integration_types": [0, 0]}),
        json!({"contexts": "guild"}),
    ];
    for fields in bad {
        let mut command = json!({"name": "bad", "description": "Bad"});
        for (k, v) in fields.as_object().expect("object") {
            command[k] = v.clone();
        }
        let (status, body) = raw_request(&fake, Method::PUT, &path, Some(json!([command]))).await;
        assert_eq!(status, 400, "{fields}: {body}");
        assert_eq!(body["code"], 50035, "{body}");
    }
    assert_eq!(fake.state().global_commands.len(), 2, "nothing changed");
    fake.take_openapi_problems();

    // An app without the user installation context cannot offer a command to user installs.
    let server_only = FakeDiscord::start(Config {
        user_install: false,
        ..Config::default()
    })
    .await
    .expect("stand-in");
    let path = format!("/applications/{}/commands", server_only.application_id());
    let (status, body) =
        raw_request(&server_only, Method::PUT, &path, Some(anywhere_commands())).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["errors"]["0"]["integration_types"].is_object(),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interactions_say_where_they_happen_and_who_authorised_the_app() {
    let (fake, _ws) = anywhere().await;
    let guild = fake.guild_id();
    let alice = fake.add_user("alice");
    let carol = fake.add_user("carol");
    let dave = fake.add_stranger("dave");
    let table = fake.add_channel("table");
    let outside = fake.add_guild_without_bot("family server");
    let kitchen = fake.add_channel_in(outside, "kitchen");
    let group = fake.add_group_dm(&[&alice, &carol, &dave]);
    let dm = fake.open_dm_with_bot(&alice);

    // Before Alice installs the app: only where the bot is.
    for channel in [group, kitchen] {
        let refused = fake
            .slash(&alice, channel, "play", &[])
            .expect_err("not offered without a user install");
        assert!(refused.contains("has not installed the app"), "{refused}");
    }
    let refused = fake
        .slash(&dave, table, "play", &[])
        .expect_err("dave is not in the bot's server");
    assert!(refused.contains("not a member"), "{refused}");
    let refused = fake
        .slash(&alice, dm, "rules", &[])
        .expect("a server-install command in the bot's DM (contexts default to server and bot DM)");
    let (_, payload) = delivered(&fake, refused.id);
    assert_eq!(payload["context"], 1);
    assert_eq!(payload["authorizing_integration_owners"], json!({"0": "0"}));
    let at_table = fake
        .slash(&alice, table, "play", &[])
        .expect("in the server");
    let (_, payload) = delivered(&fake, at_table.id);
    assert_eq!(payload["context"], 0);
    assert_eq!(
        payload["authorizing_integration_owners"],
        json!({"0": guild.to_string()})
    );

    fake.install_for_user(&alice);
    let alice_id = alice.id.to_string();
    // In the server with the bot, both installs authorise it.
    let both = fake
        .slash(&alice, table, "play", &[])
        .expect("in the server");
    let (_, payload) = delivered(&fake, both.id);
    assert_eq!(
        payload["authorizing_integration_owners"],
        json!({"0": guild.to_string(), "1": alice_id})
    );
    assert_eq!(
        bits(&payload["app_permissions"]),
        fake.bot_permissions(table)
    );

    // A group DM: context 2, the user install only, `user` and the channel (type 3), no guild.
    let in_group = fake
        .slash(&alice, group, "play", &[])
        .expect("user install");
    let (parsed, payload) = delivered(&fake, in_group.id);
    assert_eq!(payload["context"], 2);
    assert_eq!(
        payload["authorizing_integration_owners"],
        json!({"1": alice_id})
    );
    assert!(payload.get("guild_id").is_none() && payload.get("member").is_none());
    assert_eq!(payload["user"]["id"], alice_id);
    assert_eq!(payload["channel"]["type"], 3);
    assert_eq!(
        payload["channel"]["recipients"].as_array().map(Vec::len),
        Some(3)
    );
    assert_eq!(
        bits(&payload["app_permissions"]),
        perm::ATTACH_FILES | perm::EMBED_LINKS | perm::MENTION_EVERYONE
    );
    let SerenityInteraction::Command(command) = parsed else {
        panic!("a command");
    };
    assert_eq!(
        command.context,
        Some(serenity::all::InteractionContext::PrivateChannel)
    );
    assert!(command.guild_id.is_none());

    // A server without the bot: context 0 with the guild and member, the user install only, and
    // only what an app without a bot may use in answers.
    let in_kitchen = fake
        .slash(&alice, kitchen, "play", &[])
        .expect("user install");
    let (_, payload) = delivered(&fake, in_kitchen.id);
    assert_eq!(payload["context"], 0);
    assert_eq!(payload["guild_id"], outside.to_string());
    assert_eq!(
        payload["authorizing_integration_owners"],
        json!({"1": alice_id})
    );
    let granted = bits(&payload["app_permissions"]);
    assert_eq!(granted & !perm::RESPONSE, 0, "{granted:b}");
    assert_ne!(granted & perm::ATTACH_FILES, 0);
    assert_eq!(granted & (perm::VIEW_CHANNEL | perm::SEND_MESSAGES), 0);
    assert_ne!(
        bits(&payload["member"]["permissions"]) & perm::USE_EXTERNAL_APPS,
        0,
        "Use External Apps is on by default"
    );

    // The bot's DM: both installs ("0" is "0" there).
    let in_dm = fake.slash(&alice, dm, "play", &[]).expect("bot DM");
    let (_, payload) = delivered(&fake, in_dm.id);
    assert_eq!(payload["context"], 1);
    assert_eq!(
        payload["authorizing_integration_owners"],
        json!({"0": "0", "1": alice_id})
    );
    assert_ne!(
        bits(&payload["app_permissions"]) & perm::USE_EXTERNAL_EMOJIS,
        0
    );

    // A command without user install stays out of the group DM, installed or not; a stranger is
    // not in another user's DM.
    let refused = fake
        .slash(&alice, group, "rules", &[])
        .expect_err("contexts");
    assert!(refused.contains("not offered"), "{refused}");
    assert!(fake.slash(&carol, dm, "play", &[]).is_err());

    // The DM the user opened is the one the bot gets; the stranger is left out of the server's
    // GUILD_CREATE.
    let (_, opened) = raw_request(
        &fake,
        reqwest::Method::POST,
        "/users/@me/channels",
        Some(json!({"recipient_id": alice.id.to_string()})),
    )
    .await;
    assert_eq!(opened["id"], dm.to_string());
    let members = fake.state().guild_create()["members"].clone();
    let ids: Vec<&Value> = members
        .as_array()
        .expect("members")
        .iter()
        .map(|m| &m["user"]["id"])
        .collect();
    assert!(ids.contains(&&json!(alice.id.to_string())));
    assert!(!ids.contains(&&json!(dave.id.to_string())));
}

/// A user command (context menu) follows the same rules; outside a server it resolves no members.
/// `dm_permission: false` (deprecated, still honoured) keeps a command out of the bot's DM.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn menus_and_old_dm_permission_follow_the_same_rules() {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("stand-in");
    let path = format!("/applications/{}/commands", fake.application_id());
    let commands = json!([
        {"name": "Challenge", "type": 2, "integration_types": [0, 1], "contexts": [0, 1, 2]},
        {"name": "stats", "description": "Stats", "type": 1, "dm_permission": false},
    ]);
    let (status, body) = raw_request(&fake, reqwest::Method::PUT, &path, Some(commands)).await;
    assert_eq!(status, 200, "{body}");
    let _session = identify_shard(&fake, None, 1).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let table = fake.add_channel("table");
    let group = fake.add_group_dm(&[&alice, &bob]);
    let dm = fake.open_dm_with_bot(&alice);
    assert!(fake.user_command(&alice, group, "Challenge", &bob).is_err());
    fake.install_for_user(&alice);
    let menu = fake
        .user_command(&alice, group, "Challenge", &bob)
        .expect("user install");
    let (_, payload) = delivered(&fake, menu.id);
    assert_eq!(payload["data"]["target_id"], bob.id.to_string());
    assert!(payload["data"]["resolved"].get("members").is_none());
    assert!(payload["data"]["resolved"]["users"][bob.id.to_string()].is_object());
    let menu = fake
        .user_command(&alice, table, "Challenge", &bob)
        .expect("server");
    let (_, payload) = delivered(&fake, menu.id);
    assert!(payload["data"]["resolved"]["members"][bob.id.to_string()].is_object());
    assert!(fake.slash(&alice, table, "stats", &[]).is_ok());
    let refused = fake
        .slash(&alice, dm, "stats", &[])
        .expect_err("dm_permission");
    assert!(refused.contains("not offered"), "{refused}");
    assert!(fake.take_openapi_problems().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_speaks_only_through_answers_where_the_bot_is_not_a_member() {
    use reqwest::Method;
    let (fake, _ws) = anywhere().await;
    let alice = fake.add_user("alice");
    let carol = fake.add_user("carol");
    let dave = fake.add_stranger("dave");
    let outside = fake.add_guild_without_bot("family server");
    let kitchen = fake.add_channel_in(outside, "kitchen");
    let group = fake.add_group_dm(&[&alice, &carol, &dave]);

    // Channel posts and reads where the bot is not a member: 403 50001 Missing Access.
    for channel in [group, kitchen] {
        let (status, body) = raw_request(
            &fake,
            Method::POST,
            &format!("/channels/{channel}/messages"),
            Some(json!({"content": "hello"})),
        )
        .await;
        assert_eq!((status, &body["code"]), (403, &json!(50001)), "{body}");
        let (status, _) =
            raw_request(&fake, Method::GET, &format!("/channels/{channel}"), None).await;
        assert_eq!(status, 403);
    }
    let (status, _) = raw_request(&fake, Method::GET, &format!("/guilds/{outside}"), None).await;
    assert_eq!(status, 403);
    assert!(fake.messages_in(group).is_empty());
    let refused: Vec<_> = fake
        .requests()
        .into_iter()
        .filter_map(|r| r.error)
        .collect();
    assert!(
        refused.contains(&(50001, "Missing Access".to_string())),
        "{refused:?}"
    );

    // DMs: a user who shares no server with the bot cannot be written to until they install it.
    let (status, channel) = raw_request(
        &fake,
        Method::POST,
        "/users/@me/channels",
        Some(json!({"recipient_id": dave.id.to_string()})),
    )
    .await;
    assert_eq!(status, 200);
    let dave_dm = format!("/channels/{}/messages", channel["id"].as_str().expect("id"));
    let (status, body) = raw_request(
        &fake,
        Method::POST,
        &dave_dm,
        Some(json!({"content": "your hand"})),
    )
    .await;
    assert_eq!((status, &body["code"]), (403, &json!(50278)), "{body}");
    fake.install_for_user(&dave);
    let (status, _) = raw_request(
        &fake,
        Method::POST,
        &dave_dm,
        Some(json!({"content": "your hand"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(fake.dms_to(dave.id).len(), 1);

    // The answer to a command is the way in: it lands in the group DM, and anyone there may press its
    // button (not only the user who installed the app); the press carries the installer's owners.
    fake.install_for_user(&alice);
    let command = fake
        .slash(&alice, group, "play", &[])
        .expect("user install");
    let button = json!([{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Join", "custom_id": "join"}]}]);
    let (status, body) = answer(
        &fake,
        command.id,
        &command.token,
        json!({"type": 4, "data": {"content": "A game", "components": button}}),
    )
    .await;
    assert_eq!(status, 204, "{body}");
    let posted = fake.messages_in(group);
    assert_eq!(posted.len(), 1);
    let press = fake
        .click(&carol, posted[0].id, "join")
        .expect("carol may press");
    let (parsed, payload) = delivered(&fake, press.id);
    assert_eq!(payload["context"], 2);
    assert_eq!(
        payload["authorizing_integration_owners"],
        json!({"1": alice.id.to_string()})
    );
    assert_eq!(payload["user"]["id"], carol.id.to_string());
    assert!(matches!(parsed, SerenityInteraction::Component(_)));
    let metadata = fake.state().message_json(posted[0].id).expect("message")
        ["interaction_metadata"]["authorizing_integration_owners"]
        .clone();
    assert_eq!(metadata, json!({"1": alice.id.to_string()}));
    assert!(fake.take_openapi_problems().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn user_installs_get_five_follow_ups_and_tokens_last_fifteen_minutes() {
    use reqwest::Method;
    let (fake, _ws) = anywhere().await;
    let alice = fake.add_user("alice");
    let carol = fake.add_user("carol");
    let table = fake.add_channel("table");
    let group = fake.add_group_dm(&[&alice, &carol]);
    fake.install_for_user(&alice);

    // In a group DM (user install only): a deferred answer filled in, then five follow-ups; the
    // sixth is refused with 40094.
    let command = fake
        .slash(&alice, group, "play", &[])
        .expect("user install");
    let (status, _) = answer(&fake, command.id, &command.token, json!({"type": 5})).await;
    assert_eq!(status, 204);
    let (status, _) = follow_up(&fake, &command.token, "the board").await;
    assert_eq!(
        status, 200,
        "filling in the deferred answer creates no follow-up"
    );
    for n in 1..=5 {
        let (status, body) = follow_up(&fake, &command.token, &format!("turn {n}")).await;
        assert_eq!(status, 200, "{n}: {body}");
    }
    let (status, body) = follow_up(&fake, &command.token, "turn 6").await;
    assert_eq!((status, &body["code"]), (400, &json!(40094)), "{body}");
    let state = fake.interaction(command.id).expect("interaction");
    assert!(state.is_user_install_only());
    assert_eq!(state.followups.len(), 5);
    assert_eq!(state.refused_followups.len(), 1);
    assert!(state.refused_followups[0].1.contains("40094"));
    // Editing stays allowed.
    let (status, _) = raw_request(
        &fake,
        Method::PATCH,
        &format!(
            "/webhooks/{}/{}/messages/@original",
            fake.application_id(),
            command.token
        ),
        Some(json!({"content": "the board, updated"})),
    )
    .await;
    assert_eq!(status, 200);

    // Where the bot is installed to the server, there is no such limit.
    let command = fake.slash(&alice, table, "play", &[]).expect("server");
    answer(
        &fake,
        command.id,
        &command.token,
        json!({"type": 4, "data": {"content": "x"}}),
    )
    .await;
    for n in 1..=7 {
        let (status, _) = follow_up(&fake, &command.token, &format!("turn {n}")).await;
        assert_eq!(status, 200);
    }

    // Tokens: valid at 14 minutes, 401 50027 Invalid Webhook Token at 15, on every webhook route.
    let command = fake
        .slash(&alice, group, "play", &[])
        .expect("user install");
    answer(
        &fake,
        command.id,
        &command.token,
        json!({"type": 4, "data": {"content": "x"}}),
    )
    .await;
    fake.advance_clock(Duration::from_secs(14 * 60));
    let (status, _) = follow_up(&fake, &command.token, "still in time").await;
    assert_eq!(status, 200);
    fake.advance_clock(Duration::from_secs(60));
    let original = format!(
        "/webhooks/{}/{}/messages/@original",
        fake.application_id(),
        command.token
    );
    for (method, body) in [
        (Method::PATCH, Some(json!({"content": "late"}))),
        (Method::GET, None),
    ] {
        let (status, answer) = raw_request(&fake, method, &original, body).await;
        assert_eq!((status, &answer["code"]), (401, &json!(50027)), "{answer}");
        assert_eq!(answer["message"], "Invalid Webhook Token");
    }
    let (status, _) = follow_up(&fake, &command.token, "too late").await;
    assert_eq!(status, 401);
    assert_eq!(
        fake.interaction(command.id)
            .expect("interaction")
            .refused_followups
            .len(),
        3
    );

    // The three seconds run on the same clock: an interaction four seconds old is unknown.
    let late = fake.slash(&alice, table, "play", &[]).expect("server");
    fake.advance_clock(Duration::from_secs(4));
    let (status, body) = answer(
        &fake,
        late.id,
        &late.token,
        json!({"type": 4, "data": {"content": "x"}}),
    )
    .await;
    assert_eq!((status, &body["code"]), (404, &json!(10062)), "{body}");
    assert!(fake.take_openapi_problems().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_are_private_where_the_server_does_not_allow_external_apps() {
    let (fake, _ws) = anywhere().await;
    let guild = fake.guild_id();
    let alice = fake.add_user("alice");
    let table = fake.add_channel("table");
    let outside = fake.add_guild_without_bot("strict server");
    let kitchen = fake.add_channel_in(outside, "kitchen");
    fake.install_for_user(&alice);
    fake.allow_external_apps(outside, false);
    fake.allow_external_apps(guild, false);

    // The interaction tells the app up front only through the member's permissions (no Use External
    // Apps); the answer and its follow-ups are made ephemeral.
    let command = fake
        .slash(&alice, kitchen, "play", &[])
        .expect("user install");
    let (_, payload) = delivered(&fake, command.id);
    assert_eq!(
        bits(&payload["member"]["permissions"]) & perm::USE_EXTERNAL_APPS,
        0
    );
    let (status, _) = answer(
        &fake,
        command.id,
        &command.token,
        json!({"type": 4, "data": {"content": "The board"}}),
    )
    .await;
    assert_eq!(status, 204);
    let (status, body) = follow_up(&fake, &command.token, "Your turn").await;
    assert_eq!(status, 200);
    assert_eq!(body["flags"], 64, "{body}");
    let messages = fake.messages_in(kitchen);
    assert_eq!(messages.len(), 2);
    assert!(messages
        .iter()
        .all(|m| m.is_ephemeral() && m.forced_ephemeral));
    assert!(
        fake.interaction(command.id)
            .expect("interaction")
            .forced_ephemeral
    );

    // A deferred answer is private too.
    let deferred = fake
        .slash(&alice, kitchen, "play", &[])
        .expect("user install");
    answer(&fake, deferred.id, &deferred.token, json!({"type": 5})).await;
    follow_up(&fake, &deferred.token, "The board").await;
    let original = fake.interaction(deferred.id).and_then(|i| i.original);
    let original = original.and_then(|m| fake.message(m)).expect("answer");
    assert!(original.is_ephemeral() && original.forced_ephemeral);

    // Where the app is installed to the server the switch does not apply; and with Use External Apps
    // back on, the user install answers in public.
    let command = fake.slash(&alice, table, "play", &[]).expect("server");
    answer(
        &fake,
        command.id,
        &command.token,
        json!({"type": 4, "data": {"content": "The board"}}),
    )
    .await;
    assert!(!fake.messages_in(table)[0].is_ephemeral());
    fake.allow_external_apps(outside, true);
    let command = fake
        .slash(&alice, kitchen, "play", &[])
        .expect("user install");
    answer(
        &fake,
        command.id,
        &command.token,
        json!({"type": 4, "data": {"content": "The board"}}),
    )
    .await;
    let last = fake.messages_in(kitchen).pop().expect("answer");
    assert!(!last.is_ephemeral() && !last.forced_ephemeral);

    // A user who may not send messages there gets private answers from their install too; a
    // mention in a forced private answer notifies nobody.
    fake.set_user_permissions(alice.id, model::MEMBER_PERMISSIONS & !perm::SEND_MESSAGES);
    let command = fake
        .slash(&alice, kitchen, "play", &[])
        .expect("user install");
    let mention = format!("<@{}> to play", alice.id);
    answer(
        &fake,
        command.id,
        &command.token,
        json!({"type": 4, "data": {"content": mention}}),
    )
    .await;
    let last = fake.messages_in(kitchen).pop().expect("answer");
    assert!(last.is_ephemeral() && last.forced_ephemeral);
    assert!(last.notified.is_empty());
    assert!(fake.take_openapi_problems().is_empty());
}
