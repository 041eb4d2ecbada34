//! The Activity's routes, asked in-process through the app's router (and the live channel over a
//! real socket) against a real service with its host running, a fake Discord answering the
//! sign-in, and a test face standing for the Discord face (it records what it is given to post).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};

use super::{ActivitySession, Sessions, SESSION_HEADER};
use crate::app::activity::{
    ActivityDiscord, ActivityError, ActivityInstance, ActivityUser, Asking,
};
use crate::app::config::BotConfig;
use crate::app::http::Site;
use crate::engine::Card;
use crate::i18n::{tr, Lang};
use crate::service::{
    Actor, CellName, ChannelId, Command, Event, Face, FaceId, GuildId, Origin, Output, Press,
    RandomPicker, Request, Sent, State, Step, Tables, Timestamp, UserId, Venue,
};
use crate::web::limit::Limiter;
use crate::web::tests::{a_move, Answer, Browser};
use crate::web::Web;

/// The application's id.
const APP: u64 = 1_234_567_890;
/// The channel the first instance runs in, and its server.
const CHANNEL: u64 = 555;
const GUILD: u64 = 77;
/// Another channel, with an instance of its own.
const OTHER: u64 = 666;
/// A group DM of Ann and Bob (the bot may only answer there), with an instance.
const GROUP: u64 = 777;
/// A channel of a server that did not add the bot (a member installed the app), with an instance.
const ELSEWHERE: u64 = 888;
const FRIENDS: u64 = 78;
/// The users: Ann (her client in German), Bob, Dan (who only watches) in the first instance, Cat in
/// the other.
const ANN: u64 = 101;
const BOB: u64 = 102;
const CAT: u64 = 103;
const DAN: u64 = 104;

/// Discord as the sign-in asks it: codes valid once, tokens of known users, two instances. The
/// code `down` finds Discord unreachable.
struct FakeDiscord {
    codes: Mutex<HashMap<String, String>>,
    users: HashMap<String, ActivityUser>,
    instances: HashMap<String, ActivityInstance>,
}

impl FakeDiscord {
    fn new() -> Arc<FakeDiscord> {
        let user = |id, name: &str, locale: Option<&str>| ActivityUser {
            id,
            name: name.to_string(),
            locale: locale.map(str::to_string),
        };
        let users = HashMap::from([
            (token_of(ANN), user(ANN, "Ann", Some("de"))),
            (token_of(BOB), user(BOB, "Bob", Some("en-US"))),
            (token_of(CAT), user(CAT, "Cat", None)),
            (token_of(DAN), user(DAN, "Dan", None)),
        ]);
        let instances = HashMap::from([
            (
                "i-1".to_string(),
                ActivityInstance {
                    channel: CHANNEL,
                    guild: Some(GUILD),
                    users: vec![ANN, BOB, DAN],
                    venue: Venue::Server,
                },
            ),
            (
                "i-2".to_string(),
                ActivityInstance {
                    channel: OTHER,
                    guild: Some(GUILD),
                    users: vec![CAT],
                    venue: Venue::Server,
                },
            ),
            (
                "i-3".to_string(),
                ActivityInstance {
                    channel: GROUP,
                    guild: None,
                    users: vec![ANN, BOB],
                    venue: Venue::GroupDm,
                },
            ),
            (
                "i-4".to_string(),
                ActivityInstance {
                    channel: ELSEWHERE,
                    guild: Some(FRIENDS),
                    users: vec![ANN, BOB],
                    venue: Venue::ServerWithoutBot {
                        external_apps: true,
                    },
                },
            ),
        ]);
        Arc::new(FakeDiscord {
            codes: Mutex::default(),
            users,
            instances,
        })
    }

    /// A new code for `user`'s sign-in.
    fn code_for(&self, user: u64) -> String {
        let code = format!("code-{user}-{}", self.codes.lock().unwrap().len());
        self.codes
            .lock()
            .unwrap()
            .insert(code.clone(), token_of(user));
        code
    }
}

/// The access token Discord gives `user`.
fn token_of(user: u64) -> String {
    format!("access-{user}-Zq9")
}

impl ActivityDiscord for FakeDiscord {
    fn application_id(&self) -> u64 {
        APP
    }

    fn exchange_code<'a>(&'a self, code: &'a str) -> Asking<'a, String> {
        Box::pin(async move {
            if code == "down" {
                return Err(ActivityError::Unavailable(
                    "discord.com: connection refused".into(),
                ));
            }
            self.codes
                .lock()
                .unwrap()
                .remove(code)
                .ok_or(ActivityError::BadCode)
        })
    }

    fn user<'a>(&'a self, access_token: &'a str) -> Asking<'a, ActivityUser> {
        Box::pin(async move {
            self.users
                .get(access_token)
                .cloned()
                .ok_or(ActivityError::BadToken)
        })
    }

    fn instance<'a>(&'a self, instance_id: &'a str) -> Asking<'a, ActivityInstance> {
        Box::pin(async move {
            self.instances
                .get(instance_id)
                .cloned()
                .ok_or(ActivityError::NoInstance)
        })
    }
}

/// A face standing for Discord: it records every event it sees and every output it is to post.
#[derive(Clone, Default)]
struct ChatFace {
    observed: Arc<Mutex<Vec<Event>>>,
    sent: Arc<Mutex<Vec<Output>>>,
    next_id: Arc<Mutex<u64>>,
}

impl ChatFace {
    fn sent(&self) -> Vec<Output> {
        self.sent.lock().unwrap().clone()
    }

    fn observed(&self) -> Vec<Event> {
        self.observed.lock().unwrap().clone()
    }
}

impl Face for ChatFace {
    fn id(&self) -> FaceId {
        FaceId::Discord
    }

    async fn send(&self, _channel: ChannelId, output: &Output) -> Sent {
        self.sent.lock().unwrap().push(output.clone());
        let mut next = self.next_id.lock().unwrap();
        *next += 1;
        match output {
            Output::Channel(_) => Sent::Posted(1000 + *next),
            Output::Lobby {
                message_id: None, ..
            } => Sent::Lobby(1000 + *next),
            _ => Sent::Nothing,
        }
    }

    fn observe(&self, event: &Event) {
        self.observed.lock().unwrap().push(event.clone());
    }
}

/// The service with its host running, the Discord stand-in face subscribed, and the app's router
/// with the web's routes, the Activity answered by `discord`.
fn app_with(
    discord: &Arc<FakeDiscord>,
    limiter: Limiter,
    sessions: Sessions,
) -> (Router, Arc<Tables>, ChatFace) {
    let config = BotConfig::default();
    let tables = Arc::new(Tables::new(config.settings(), Arc::new(RandomPicker)));
    let (router, chat) = app_on(discord, limiter, sessions, &tables);
    (router, tables, chat)
}

/// The app's router for `tables` (its host running, the Discord stand-in face subscribed), the
/// Activity answered by `discord`.
fn app_on(
    discord: &Arc<FakeDiscord>,
    limiter: Limiter,
    sessions: Sessions,
    tables: &Arc<Tables>,
) -> (Router, ChatFace) {
    let config = BotConfig::default();
    let web = Arc::new(
        Web::new(&config)
            .with_limiter(limiter)
            .with_sessions(sessions)
            .with_activity(discord.clone()),
    );
    web.open(tables);
    let chat = ChatFace::default();
    tables.spawn_face(chat.clone());
    tables.spawn_host(Duration::from_secs(1), Duration::ZERO);
    let router = crate::app::http::router([web as Arc<dyn Site>]);
    (router, chat)
}

fn app(discord: &Arc<FakeDiscord>) -> (Router, Arc<Tables>, ChatFace) {
    app_with(discord, Limiter::new(1000.0, 1000.0), Sessions::default())
}

/// The origin of the Activity's page in Discord's frame.
fn frame() -> String {
    format!("https://{APP}.discordsays.com")
}

/// A request as the Activity's page sends it: under `/.proxy`, from Discord's frame, `POST`s with
/// `X-Sequence: 1`, and with its session once it has one.
#[derive(Clone, Default)]
struct Page {
    session: Option<String>,
}

impl Page {
    async fn ask(&self, app: &Router, method: Method, path: &str, body: Option<Value>) -> Answer {
        let origin = frame();
        let mut headers = vec![("origin", origin.as_str())];
        if method == Method::POST {
            headers.push(("x-sequence", "1"));
        }
        if let Some(session) = &self.session {
            headers.push((SESSION_HEADER, session.as_str()));
        }
        Browser::default()
            .ask(app, method, &format!("/.proxy{path}"), body, &headers)
            .await
    }

    async fn get(&self, app: &Router, path: &str) -> Answer {
        self.ask(app, Method::GET, path, None).await
    }

    async fn post(&self, app: &Router, path: &str, body: Value) -> Answer {
        self.ask(app, Method::POST, path, Some(body)).await
    }

    async fn act(&self, app: &Router, token: &str, body: Value) -> Answer {
        self.post(app, &format!("/api/g/{token}/act"), body).await
    }

    /// Opens a lobby in the channel (`body`: the new game's choices) as its host, `other` joins it and
    /// the host begins the game: its web token.
    async fn open_and_begin(&self, app: &Router, other: &Page, body: Value) -> String {
        let opened = self.post(app, "/api/activity/start", body).await;
        let token = opened.created();
        for (page, action) in [(other, "join"), (self, "begin")] {
            let answer = page.act(app, &token, json!({ "action": action })).await;
            assert_eq!(answer.status, StatusCode::OK, "{action}: {answer:?}");
        }
        token
    }

    async fn view(&self, app: &Router, token: &str) -> Value {
        let answer = self.get(app, &format!("/api/g/{token}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        answer.json()
    }

    /// Signs `user` in to `instance` as the page does: the code exchanged, then the session.
    async fn signed_in(
        app: &Router,
        discord: &FakeDiscord,
        user: u64,
        instance: &str,
    ) -> (Page, Value) {
        let page = Page::default();
        let exchanged = page
            .post(
                app,
                "/api/activity/token",
                json!({ "code": discord.code_for(user) }),
            )
            .await;
        assert_eq!(exchanged.status, StatusCode::OK, "{exchanged:?}");
        let access_token = exchanged.json()["access_token"]
            .as_str()
            .expect("a token")
            .to_string();
        let signed = page
            .post(
                app,
                "/api/activity/session",
                json!({ "access_token": access_token, "instance_id": instance }),
            )
            .await;
        assert_eq!(signed.status, StatusCode::OK, "{signed:?}");
        let body = signed.json();
        let session = body["session"].as_str().expect("a session").to_string();
        (
            Page {
                session: Some(session),
            },
            body,
        )
    }
}

/// Where the bot may only answer (a group DM; a server that did not add it) the sign-in marks the
/// channel so, as an interaction there would, and a lobby opened from the Activity follows the rules
/// of the place as `/sequence start` there (`Command::in_venue`): casual in the group DM, the
/// server's default where only a member installed the app. A server channel of the bot's stays
/// as it was: not marked, the server's default.
#[tokio::test]
async fn where_the_bot_may_only_answer_the_activity_follows_the_places_rules() {
    let discord = FakeDiscord::new();
    let (app, tables, chat) = app(&discord);
    for (instance, channel, answers_only, rated) in [
        ("i-3", GROUP, true, json!(false)),
        ("i-4", ELSEWHERE, true, Value::Null),
        ("i-1", CHANNEL, false, Value::Null),
    ] {
        let (ann, signed) = Page::signed_in(&app, &discord, ANN, instance).await;
        assert_eq!(signed["channel"], channel.to_string());
        assert_eq!(
            tables.is_answers_only(ChannelId(channel)),
            answers_only,
            "{instance}"
        );
        let opened = ann.post(&app, "/api/activity/start", json!({})).await;
        let token = opened.created();
        let view = ann.view(&app, &token).await;
        assert_eq!(view["view"]["game"]["rated"], rated, "{instance}: {view}");
        let table = tables.snapshot(ChannelId(channel)).expect("a lobby");
        assert_eq!(
            table.answers_only, answers_only,
            "{instance}: kept with the table"
        );
        assert_eq!(table.guild.map(|g| g.0), discord.instances[instance].guild);
        // Shown in the chat as any lobby is (the Discord face sends it as the place allows).
        let shown = || {
            chat.sent()
                .iter()
                .filter(|o| matches!(o, Output::Lobby { .. }))
                .count()
        };
        wait_for(|| shown() > 0).await;
    }
}

/// Two processes on one database (shards 0 and 1 of 2): the channel's table runs in the other one
/// (server 77 is shard 0's), and this process serves the Activity's pages. The session gets the
/// table's token all the same (not null, which would offer a lobby that cannot open here), its page
/// shows the table as issue 46's pages show such a table (the player's own hand included), and a
/// tap or a second lobby is refused in words: it is played where it runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_another_process_holds_is_shown_and_its_taps_refused_in_words() {
    use crate::store::{ExclusiveClaim, ShardSet, SqliteStore, Store};
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open_in_memory().expect("store"));
    let shard = |n| {
        Arc::new(ExclusiveClaim::new(
            ShardSet::new(n, n, 2).expect("a shard set"),
        ))
    };
    let config = BotConfig::default();
    let tables_of = |n: u32| {
        Arc::new(
            Tables::new(config.settings(), Arc::new(RandomPicker))
                .with_store(store.clone())
                .with_claim(shard(n)),
        )
    };
    let (owner, here) = (tables_of(0), tables_of(1));
    assert_eq!(
        ShardSet::new(0, 0, 2).expect("set").shard_of(Some(GUILD)),
        0
    );
    let discord = FakeDiscord::new();
    let web = Arc::new(
        Web::new(&config)
            .with_limiter(Limiter::new(1000.0, 1000.0))
            .with_sessions(Sessions::default())
            .with_activity(discord.clone()),
    );
    web.open(&here);
    let app = crate::app::http::router([web as Arc<dyn Site>]);
    // Ann and Bob play in the owner's process (from the chat there).
    let ask = |user: u64, command: Command| {
        let owner = owner.clone();
        async move {
            let request = Request {
                guild: Some(GuildId(GUILD)),
                channel: ChannelId(CHANNEL),
                actor: Actor {
                    user: UserId(user),
                    name: format!("user {user}"),
                    can_manage: false,
                    can_manage_guild: false,
                },
                command,
            };
            let (reply, pending) = owner.serve(request, FaceId::Discord).await;
            drop(pending);
            assert!(!reply.is_refusal(), "{reply:?}");
        }
    };
    let start: crate::web::local::NewGame =
        serde_json::from_value(json!({ "variant": "classic" })).expect("a new game");
    let request = start.request_in(
        ChannelId(CHANNEL),
        Some(GuildId(GUILD)),
        session(ANN).actor(),
        crate::engine::Variant::Classic,
        None,
    );
    ask(ANN, request.command).await;
    ask(BOB, Command::Join { team: None }).await;
    ask(ANN, Command::Begin).await;
    let token = owner.web_token(ChannelId(CHANNEL)).expect("a token");
    assert_eq!(here.web_token(ChannelId(CHANNEL)), None, "not held here");

    let (ann, signed) = Page::signed_in(&app, &discord, ANN, "i-1").await;
    assert_eq!(signed["token"], json!(token), "{signed}");
    let now = ann.get(&app, "/api/activity/table").await;
    assert_eq!(now.json(), json!({ "token": token }));
    let view = ann.view(&app, &token).await;
    assert_eq!(view["view"]["phase"], "playing", "{view}");
    assert!(
        view["view"]["you"]["hand"].is_array(),
        "her own hand: {view}"
    );
    let refused = ann.act(&app, &token, json!({ "action": "stop" })).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{refused:?}");
    assert_eq!(refused.error(), tr(Lang::De, "played-elsewhere"));
    let second = ann.post(&app, "/api/activity/start", json!({})).await;
    assert_eq!(second.status, StatusCode::CONFLICT, "{second:?}");
    assert_eq!(second.error(), tr(Lang::De, "played-elsewhere"));
    assert_eq!(
        owner.web_token(ChannelId(CHANNEL)),
        Some(token),
        "nothing changed there"
    );
}

/// A move as the page's two taps make it, in any variant with cards: the first card of the hand with
/// a marked cell, on that cell; else a dead card exchanged.
fn tapped(view: &Value) -> Value {
    let turn = view["board"]["turn"].clone();
    let hand = view["you"]["hand"].as_array().expect("a hand");
    for card in hand {
        if let Some(cell) = card["targets"].as_array().and_then(|t| t.first()) {
            return json!({ "action": "play", "turn": turn, "card": card["code"], "cell": cell });
        }
    }
    let dead = hand
        .iter()
        .find(|c| c["dead"] == true)
        .expect("a dead card");
    json!({ "action": "exchange", "turn": turn, "card": dead["code"] })
}

/// A server that turned `web_links` off (no public pages, no Watch links) but has the Activity: a
/// game played to its end from the Activity shows its replay there, to the sessions of its channel
/// (the page's replay link works), while a guest of the public pages and another channel's session
/// get nothing of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_web_links_off_the_activity_still_shows_its_own_replay() {
    use crate::store::{SqliteStore, Store};
    let discord = FakeDiscord::new();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open_in_memory().expect("store"));
    let mut settings = BotConfig::default().settings();
    settings.web_links = false;
    // A whole game's posts, made at once.
    settings.limits = crate::service::Limits::unlimited();
    let tables = Arc::new(Tables::new(settings, Arc::new(RandomPicker)).with_store(store));
    let (app, _chat) = app_on(
        &discord,
        Limiter::new(1000.0, 1000.0),
        Sessions::default(),
        &tables,
    );
    let (ann, _) = Page::signed_in(&app, &discord, ANN, "i-1").await;
    let (bob, _) = Page::signed_in(&app, &discord, BOB, "i-1").await;
    let (cat, _) = Page::signed_in(&app, &discord, CAT, "i-2").await;
    let token = ann
        .open_and_begin(&app, &bob, json!({ "variant": "kids" }))
        .await;
    let mut over = false;
    for _ in 0..400 {
        let game = ann.get(&app, &format!("/api/g/{token}")).await.json();
        if game["replay"] == json!(true) {
            over = true;
            break;
        }
        let mover = if game["view"]["you"]["your_turn"] == json!(true) {
            &ann
        } else {
            &bob
        };
        let view = mover.view(&app, &token).await["view"].clone();
        if view["you"]["your_turn"] != json!(true) {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        }
        let answer = mover.act(&app, &token, tapped(&view)).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    }
    assert!(over, "the game ended");
    let replay_path = format!("/api/g/{token}/replay");
    for page in [&ann, &bob] {
        let replay = page.get(&app, &replay_path).await;
        assert_eq!(replay.status, StatusCode::OK, "{replay:?}");
        assert!(replay.json()["frames"]
            .as_array()
            .is_some_and(|f| f.len() > 1));
        let record = page.get(&app, &format!("/api/g/{token}/record")).await;
        assert_eq!(record.status, StatusCode::OK, "{record:?}");
    }
    // Not public: a guest, and another channel's session, get nothing.
    let guest = Browser::default();
    for path in [format!("/api/g/{token}"), replay_path.clone()] {
        let answer = guest.clone().get(&app, &path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {answer:?}");
        let answer = cat.get(&app, &path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {answer:?}");
    }
}

/// The sign-in, route by route: the client id; a code exchanged once (used again, unknown, or
/// shaped like no code: 401; Discord unreachable: 503 without the reason); a session for a user in
/// the instance, in their client's language, with the channel and its table's token (null: none);
/// a token Discord refuses (401), an instance it does not know (404), a user not in the instance
/// (403); bad bodies (400); a request from another site (403); the session's routes without a
/// session or with one not kept (401).
#[tokio::test]
async fn the_sign_in_takes_what_discord_accepts_and_refuses_the_rest() {
    let discord = FakeDiscord::new();
    let (app, _tables, _chat) = app(&discord);
    let page = Page::default();
    let about = page.get(&app, "/api/activity").await;
    assert_eq!(about.status, StatusCode::OK, "{about:?}");
    assert_eq!(about.json(), json!({ "client_id": APP.to_string() }));

    let code = discord.code_for(ANN);
    let exchanged = page
        .post(&app, "/api/activity/token", json!({ "code": code }))
        .await;
    assert_eq!(exchanged.status, StatusCode::OK, "{exchanged:?}");
    assert_eq!(exchanged.json(), json!({ "access_token": token_of(ANN) }));
    let again = page
        .post(&app, "/api/activity/token", json!({ "code": code }))
        .await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED, "{again:?}");
    assert_eq!(again.error(), tr(Lang::En, "web-activity-bad-code"));
    for bad in ["", "with space", &"x".repeat(600)] {
        let answer = page
            .post(&app, "/api/activity/token", json!({ "code": bad }))
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{bad:?}");
    }
    let down = page
        .post(
            &app,
            "/api/activity/token?lang=no",
            json!({ "code": "down" }),
        )
        .await;
    assert_eq!(down.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(down.error(), tr(Lang::No, "web-activity-unavailable"));
    assert!(
        !down.text.contains("refused"),
        "the reason stays in the log"
    );
    for body in [
        json!({}),
        json!({ "code": 5 }),
        json!({ "code": "a", "x": 1 }),
    ] {
        let answer = page.post(&app, "/api/activity/token", body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
    }

    let sign_in = |access_token: String, instance: &str| json!({ "access_token": access_token, "instance_id": instance });
    let signed = page
        .post(&app, "/api/activity/session", sign_in(token_of(ANN), "i-1"))
        .await;
    assert_eq!(signed.status, StatusCode::OK, "{signed:?}");
    let body = signed.json();
    let session = body["session"].as_str().expect("a session");
    assert_eq!(session.len(), 64);
    assert!(session
        .bytes()
        .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')));
    assert_eq!(
        body,
        json!({ "session": session, "name": "Ann", "lang": "de", "channel": CHANNEL.to_string(), "token": null })
    );
    let again = page
        .post(&app, "/api/activity/session", sign_in(token_of(ANN), "i-1"))
        .await;
    assert_ne!(again.json()["session"], body["session"], "random");
    let cat = page
        .post(&app, "/api/activity/session", sign_in(token_of(CAT), "i-2"))
        .await;
    assert_eq!(cat.json()["lang"], "en", "no locale: the request's");
    assert_eq!(cat.json()["channel"], OTHER.to_string());

    let refused = [
        (
            sign_in("forged".into(), "i-1"),
            StatusCode::UNAUTHORIZED,
            "web-activity-bad-token",
        ),
        (
            sign_in(token_of(BOB), "i-9"),
            StatusCode::NOT_FOUND,
            "web-activity-no-instance",
        ),
        (
            sign_in(token_of(BOB), "../i-1"),
            StatusCode::NOT_FOUND,
            "web-activity-no-instance",
        ),
        (
            sign_in(token_of(CAT), "i-1"),
            StatusCode::FORBIDDEN,
            "web-activity-not-in-instance",
        ),
    ];
    for (asked, status, key) in refused {
        let answer = page
            .post(&app, "/api/activity/session", asked.clone())
            .await;
        assert_eq!(answer.status, status, "{asked}: {answer:?}");
        assert_eq!(answer.error(), tr(Lang::En, key), "{asked}");
    }
    // Ann is not in the other instance; she is refused in her language.
    let answer = page
        .post(&app, "/api/activity/session", sign_in(token_of(ANN), "i-2"))
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(answer.error(), tr(Lang::De, "web-activity-not-in-instance"));
    let answer = page
        .post(
            &app,
            "/api/activity/session",
            json!({ "access_token": token_of(ANN) }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);

    // From another site, or without the header: refused before Discord is asked.
    let code = discord.code_for(BOB);
    for (origin, marked) in [
        ("https://evil.example", true),
        ("https://1234567891.discordsays.com", true),
        (frame().as_str(), false),
    ] {
        let mut headers = vec![("origin", origin)];
        if marked {
            headers.push(("x-sequence", "1"));
        }
        let answer = Browser::default()
            .ask(
                &app,
                Method::POST,
                "/.proxy/api/activity/token",
                Some(json!({ "code": code })),
                &headers,
            )
            .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{origin} {marked}");
    }
    assert!(
        discord.codes.lock().unwrap().contains_key(&code),
        "the code was not used"
    );

    // The session's routes.
    let table = page.get(&app, "/api/activity/table").await;
    assert_eq!(table.status, StatusCode::UNAUTHORIZED, "{table:?}");
    assert_eq!(table.error(), tr(Lang::En, "web-activity-signed-out"));
    let forged = Page {
        session: Some("ab".repeat(32)),
    };
    for answer in [
        forged.get(&app, "/api/activity/table").await,
        forged.post(&app, "/api/activity/start", json!({})).await,
        forged.get(&app, "/api/me").await,
    ] {
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{answer:?}");
    }
    let ann = Page {
        session: Some(session.to_string()),
    };
    let table = ann.get(&app, "/api/activity/table").await;
    assert_eq!(table.status, StatusCode::OK);
    assert_eq!(table.json(), json!({ "token": null }));
    let me = ann.get(&app, "/api/me").await;
    assert_eq!(me.json()["name"], "Ann");
    assert_eq!(me.json()["lang"], "de");
}

/// Without a provider (no token or no client secret) the Activity is not set up: 404 with a
/// sentence the page shows.
#[tokio::test]
async fn without_discord_the_activity_is_not_set_up() {
    if crate::app::activity::provider().is_some() {
        return;
    }
    let config = BotConfig::default();
    let tables = Arc::new(Tables::new(config.settings(), Arc::new(RandomPicker)));
    let web = Arc::new(Web::new(&config));
    web.open(&tables);
    let app = crate::app::http::router([web as Arc<dyn Site>]);
    let page = Page::default();
    let about = page.get(&app, "/api/activity").await;
    assert_eq!(about.status, StatusCode::NOT_FOUND);
    assert_eq!(about.error(), tr(Lang::En, "web-activity-off"));
    let token = page
        .ask(
            &app,
            Method::POST,
            "/api/activity/token",
            Some(json!({ "code": "c" })),
        )
        .await;
    // Discord's frame is no allowed origin then either.
    assert_eq!(token.status, StatusCode::FORBIDDEN, "{token:?}");
}

/// Every path of the pages is served under `/.proxy/` as well: the page, its files, the API;
/// another path there is a 404.
#[tokio::test]
async fn every_path_is_served_under_the_proxy_prefix() {
    let discord = FakeDiscord::new();
    let (app, _tables, _chat) = app(&discord);
    let mut browser = Browser::default();
    for path in ["/.proxy", "/.proxy/", "/.proxy/?frame_id=1&instance_id=i-1"] {
        let page = browser.get(&app, path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        assert!(
            page.content_type.starts_with("text/html"),
            "{path}: {page:?}"
        );
    }
    let plain = browser.get(&app, "/assets/app.js").await;
    let proxied = browser.get(&app, "/.proxy/assets/app.js").await;
    assert_eq!(proxied.status, StatusCode::OK);
    assert_eq!(proxied.text, plain.text);
    let me = browser.get(&app, "/.proxy/api/me").await;
    assert_eq!(me.json()["name"], Value::Null);
    let named = browser
        .post(&app, "/.proxy/api/me", json!({ "name": "Eve" }))
        .await;
    assert_eq!(named.status, StatusCode::OK, "{named:?}");
    for path in [
        "/.proxy/nothing",
        "/.proxy/api/nothing",
        "/.proxy/.proxy/api/me",
    ] {
        let answer = browser.get(&app, path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!answer.error().is_empty(), "{path}");
    }
}

/// The game through sessions: Ann opens a lobby from the Activity (the Discord face's: the
/// stand-in face posts its card, the event's origin the web), Bob joins, Ann begins. Each sees their
/// own hand, Dan (watching) none; the one not to move cannot play; a move made through a session
/// reaches the Discord face's delivery; a move made in the chat turns the page's same move stale;
/// Cat (another channel's instance) reaches nothing of this table; the table follows in
/// `/api/activity/table`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sessions_play_a_discord_table_that_the_chat_sees() {
    let discord = FakeDiscord::new();
    let (app, tables, chat) = app(&discord);
    let (ann, _) = Page::signed_in(&app, &discord, ANN, "i-1").await;
    let (bob, _) = Page::signed_in(&app, &discord, BOB, "i-1").await;
    let (dan, _) = Page::signed_in(&app, &discord, DAN, "i-1").await;
    let (cat, _) = Page::signed_in(&app, &discord, CAT, "i-2").await;
    let channel = ChannelId(CHANNEL);

    let opened = ann
        .post(&app, "/api/activity/start", json!({ "variant": "classic" }))
        .await;
    let token = opened.created();
    assert_eq!(tables.face_of(channel), FaceId::Discord, "the chat's table");
    let table = tables.snapshot(channel).expect("a lobby");
    assert_eq!(table.guild, Some(GuildId(GUILD)));
    let host = match &table.state {
        State::Lobby(lobby) => lobby.seats[0].player.clone(),
        State::Playing(_) => panic!("a lobby"),
    };
    assert_eq!(host.user(), Some(UserId(ANN)));
    assert_eq!(host.name(), "Ann");
    for page in [&ann, &dan] {
        let now = page.get(&app, "/api/activity/table").await;
        assert_eq!(now.json(), json!({ "token": token }));
    }
    // A second lobby in the channel is refused in plain words.
    let second = bob.post(&app, "/api/activity/start", json!({})).await;
    assert_eq!(second.status, StatusCode::CONFLICT, "{second:?}");
    assert!(!second.error().is_empty());
    wait_for(|| {
        chat.sent().iter().any(|o| {
            matches!(
                o,
                Output::Lobby {
                    message_id: None,
                    ..
                }
            )
        })
    })
    .await;
    assert!(chat
        .observed()
        .iter()
        .any(|e| e.channel == channel && e.origin == Origin::Face(FaceId::Web)));

    let joined = bob.act(&app, &token, json!({ "action": "join" })).await;
    assert_eq!(joined.status, StatusCode::OK, "{joined:?}");
    let begun = ann.act(&app, &token, json!({ "action": "begin" })).await;
    assert_eq!(begun.status, StatusCode::OK, "{begun:?}");

    // Each player sees their own hand; the watcher none.
    let seen = ann.view(&app, &token).await;
    assert_eq!(seen["view"]["phase"], "playing");
    let ann_hand = seen["view"]["you"]["hand"].clone();
    let bob_hand = bob.view(&app, &token).await["view"]["you"]["hand"].clone();
    assert!(ann_hand.as_array().is_some_and(|h| !h.is_empty()), "{seen}");
    assert!(bob_hand.as_array().is_some_and(|h| !h.is_empty()));
    assert_ne!(ann_hand, bob_hand);
    let watched = dan.get(&app, &format!("/api/g/{token}")).await;
    assert_eq!(watched.status, StatusCode::OK);
    assert!(watched.json()["view"].get("you").is_none(), "{watched:?}");
    assert!(!watched.text.contains("\"hand\""), "{}", watched.text);
    // Dan may not play either.
    let answer = dan.act(&app, &token, json!({ "action": "forfeit" })).await;
    assert_eq!(answer.status, StatusCode::CONFLICT, "{answer:?}");

    // Another channel's session reaches nothing of this table.
    assert_eq!(
        cat.get(&app, &format!("/api/g/{token}")).await.status,
        StatusCode::NOT_FOUND
    );
    let answer = cat.act(&app, &token, json!({ "action": "join" })).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{answer:?}");
    let answer = cat.get(&app, &format!("/api/g/{token}/live")).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{answer:?}");
    assert_eq!(
        cat.get(&app, "/api/activity/table").await.json(),
        json!({ "token": null })
    );

    // The one not to move cannot play the other's seat.
    let (mover, waiter) = if seen["view"]["you"]["your_turn"] == json!(true) {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    let view = waiter.view(&app, &token).await["view"].clone();
    let turn = view["board"]["turn"].clone();
    let mut played = a_move(&view);
    played["turn"] = turn.clone();
    let answer = waiter.act(&app, &token, played).await;
    assert_eq!(answer.status, StatusCode::CONFLICT, "{answer:?}");
    assert_eq!(
        mover.view(&app, &token).await["view"]["board"],
        view["board"],
        "nothing changed"
    );

    // The mover plays through their session: the Discord face delivers what the chat shows.
    let posted_before = chat.sent().len();
    let view = mover.view(&app, &token).await["view"].clone();
    let mut played = a_move(&view);
    played["turn"] = turn.clone();
    let answer = mover.act(&app, &token, played).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    wait_for(|| chat.sent().len() > posted_before).await;
    let moved = chat
        .observed()
        .into_iter()
        .rev()
        .find(|e| e.channel == channel && e.turn == turn.as_u64().map(|t| t as u32))
        .expect("the move's event");
    assert_eq!(moved.origin, Origin::Face(FaceId::Web));
    assert!(
        chat.sent()[posted_before..]
            .iter()
            .any(|o| matches!(o, Output::Channel(_))),
        "{:?}",
        &chat.sent()[posted_before..]
    );

    // Now the other moves in the chat (a press through the service, as the Discord face serves
    // it): the same move sent from the page afterwards is stale and changes nothing.
    let page_view = waiter.view(&app, &token).await["view"].clone();
    let now = page_view["board"]["turn"].as_u64().expect("a turn") as u32;
    let chosen = a_move(&page_view);
    let command = press_of(
        &tables,
        channel,
        UserId(waiter_id(waiter, &ann)),
        now,
        &chosen,
    );
    let pressed = Request {
        guild: Some(GuildId(GUILD)),
        channel,
        actor: Actor {
            user: UserId(waiter_id(waiter, &ann)),
            name: if std::ptr::eq(waiter, &ann) {
                "Ann"
            } else {
                "Bob"
            }
            .into(),
            can_manage: false,
            can_manage_guild: false,
        },
        command,
    };
    let (reply, pending) = tables.serve(pressed, FaceId::Discord).await;
    drop(pending);
    assert!(!reply.is_refusal(), "{reply:?}");
    let after_chat = waiter.view(&app, &token).await["view"].clone();
    let mut stale = chosen.clone();
    stale["turn"] = json!(now);
    let answer = waiter.act(&app, &token, stale).await;
    assert_eq!(answer.status, StatusCode::CONFLICT, "{answer:?}");
    assert!(!answer.error().is_empty());
    let later = waiter.view(&app, &token).await["view"].clone();
    assert_eq!(later["board"], after_chat["board"], "nothing changed");
    assert_eq!(later["you"]["hand"], after_chat["you"]["hand"]);
    // Every message the chat is asked to edit or disarm is one it posted: the web face, which
    // only pretends to post, delivered nothing of this table.
    wait_for(|| {
        chat.sent()
            .iter()
            .any(|o| matches!(o, Output::Disarm { .. }))
    })
    .await;
    for output in chat.sent() {
        if let Output::Disarm { message_id, .. }
        | Output::Lobby {
            message_id: Some(message_id),
            ..
        } = output
        {
            assert!(message_id > 1000 && message_id < 1_000_000, "{output:?}");
        }
    }
}

/// Ann's user id if `page` is Ann's, else Bob's.
fn waiter_id(page: &Page, ann: &Page) -> u64 {
    if std::ptr::eq(page, ann) {
        ANN
    } else {
        BOB
    }
}

/// The chat's press for the move `chosen` (as the page would send it) on turn `turn`.
fn press_of(
    tables: &Tables,
    channel: ChannelId,
    user: UserId,
    turn: u32,
    chosen: &Value,
) -> Command {
    let view = tables
        .view(channel, Some(user), Lang::En, Timestamp::now())
        .expect("a view");
    let variant = view.game.variant;
    let card = Card::parse(chosen["card"].as_str().expect("a card"), variant).expect("a card");
    let step = match chosen["action"].as_str() {
        Some("play") => {
            let name = chosen["cell"].as_str().expect("a cell");
            let col = name.as_bytes()[0] - b'A';
            let row: u8 = name[1..].parse().expect("a row");
            Step::Cell(Some(card), CellName { col, row: row - 1 })
        }
        _ => Step::Exchange(card),
    };
    Command::Press(Press {
        table: view.key,
        turn,
        step,
    })
}

/// Waits (up to 5 s) until `done`.
async fn wait_for(done: impl Fn() -> bool) {
    for _ in 0..250 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never happened");
}

/// The live channel named by `?activity=` over a real socket, under `/.proxy`: a seated player's
/// frames carry their hand, a watcher's none (no hand in any byte), another channel's session is
/// refused, and a session not kept is 401.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_channel_of_a_session_shows_only_its_own_hand() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let discord = FakeDiscord::new();
    let (app, _tables, _chat) = app(&discord);
    let (ann, _) = Page::signed_in(&app, &discord, ANN, "i-1").await;
    let (bob, _) = Page::signed_in(&app, &discord, BOB, "i-1").await;
    let (dan, _) = Page::signed_in(&app, &discord, DAN, "i-1").await;
    let (cat, _) = Page::signed_in(&app, &discord, CAT, "i-2").await;
    let token = ann.open_and_begin(&app, &bob, json!({})).await;
    let address = crate::app::http::serve(([127, 0, 0, 1], 0).into(), app.clone())
        .await
        .expect("bind");
    let url = |page: &Page| {
        format!(
            "ws://{address}/.proxy/api/g/{token}/live?activity={}",
            page.session.as_deref().unwrap()
        )
    };
    let first_frame = |url: String| async move {
        let (mut socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("a socket");
        loop {
            match socket.next().await.expect("a frame").expect("a frame") {
                Message::Text(text) => return text.to_string(),
                _ => continue,
            }
        }
    };
    let ann_frame = first_frame(url(&ann)).await;
    let frame: Value = serde_json::from_str(&ann_frame).unwrap();
    let ann_hand = frame["view"]["you"]["hand"].clone();
    assert!(
        ann_hand.as_array().is_some_and(|h| !h.is_empty()),
        "{frame}"
    );
    let dan_frame = first_frame(url(&dan)).await;
    assert!(!dan_frame.contains("\"hand\""), "{dan_frame}");
    assert!(!dan_frame.contains("\"you\""), "{dan_frame}");
    let bob_frame = first_frame(url(&bob)).await;
    let frame: Value = serde_json::from_str(&bob_frame).unwrap();
    assert_ne!(frame["view"]["you"]["hand"], ann_hand);
    for (page, status) in [
        (&cat, 404),
        (
            &Page {
                session: Some("cd".repeat(32)),
            },
            401,
        ),
    ] {
        match tokio_tungstenite::connect_async(url(page)).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
                assert_eq!(answer.status().as_u16(), status);
            }
            other => panic!("{status}: {:?}", other.map(|_| ())),
        }
    }
}

/// Past its burst an address gets 429 on the Activity's routes as on every other, under `/.proxy`
/// too, and nothing is asked of Discord.
#[tokio::test]
async fn the_activity_routes_have_the_same_flood_limit() {
    let discord = FakeDiscord::new();
    let (app, _tables, _chat) = app_with(&discord, Limiter::new(0.001, 3.0), Sessions::default());
    let page = Page::default();
    for _ in 0..3 {
        assert_eq!(page.get(&app, "/api/activity").await.status, StatusCode::OK);
    }
    let code = discord.code_for(ANN);
    let answer = page
        .post(&app, "/api/activity/token", json!({ "code": code }))
        .await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{answer:?}");
    assert_eq!(answer.error(), tr(Lang::En, "web-api-too-many"));
    assert!(
        discord.codes.lock().unwrap().contains_key(&code),
        "not asked"
    );
    for path in ["/api/activity/table", "/api/g/x"] {
        let answer = page.get(&app, path).await;
        assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{path}");
    }
}

/// Discord's proxy sends every player's requests from a few addresses of its own: a session's
/// requests are counted as its Discord user's, each with the same limit, apart from the address's
/// (which the sign-in itself counts against).
#[tokio::test]
async fn a_sessions_requests_count_as_its_users() {
    let discord = FakeDiscord::new();
    let (app, _tables, _chat) = app_with(&discord, Limiter::new(0.001, 4.0), Sessions::default());
    // Two sign-ins of two requests each: the address's burst is spent.
    let (ann, _) = Page::signed_in(&app, &discord, ANN, "i-1").await;
    let (bob, _) = Page::signed_in(&app, &discord, BOB, "i-1").await;
    let guest = Page::default();
    let answer = guest.get(&app, "/api/activity").await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    for _ in 0..4 {
        let answer = ann.get(&app, "/api/activity/table").await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    }
    let answer = ann.get(&app, "/api/activity/table").await;
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "Ann's own limit"
    );
    let answer = bob.get(&app, "/api/activity/table").await;
    assert_eq!(answer.status, StatusCode::OK, "Bob's is his: {answer:?}");
    // A session id that is not kept counts as the address.
    let forged = Page {
        session: Some("ef".repeat(32)),
    };
    let answer = forged.get(&app, "/api/activity/table").await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
}

/// No code, access token or session id reaches a log line, whatever happens: sign-ins, refusals,
/// Discord unreachable, a lobby opened and acted on (every level of the log captured).
#[test]
fn no_code_token_or_session_reaches_the_log() {
    let written = Arc::new(Mutex::new(Vec::<u8>::new()));
    let sink = written.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || Capture(sink.clone()))
        .finish();
    let secrets = tracing::subscriber::with_default(subscriber, || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(async {
                let discord = FakeDiscord::new();
                let (app, _tables, _chat) = app(&discord);
                let code = discord.code_for(ANN);
                let page = Page::default();
                page.post(&app, "/api/activity/token", json!({ "code": code }))
                    .await;
                page.post(&app, "/api/activity/token", json!({ "code": code }))
                    .await;
                page.post(&app, "/api/activity/token", json!({ "code": "down" }))
                    .await;
                page.post(
                    &app,
                    "/api/activity/session",
                    json!({ "access_token": token_of(CAT), "instance_id": "i-1" }),
                )
                .await;
                let (ann, body) = Page::signed_in(&app, &discord, ANN, "i-1").await;
                let opened = ann.post(&app, "/api/activity/start", json!({})).await;
                let token = opened.json()["token"].as_str().unwrap().to_string();
                ann.act(&app, &token, json!({ "action": "nonsense" })).await;
                ann.act(&app, &token, json!({ "action": "begin" })).await;
                let session = body["session"].as_str().unwrap().to_string();
                vec![code, token_of(ANN), token_of(CAT), session]
            })
    });
    let log = String::from_utf8_lossy(&written.lock().unwrap()).into_owned();
    assert!(
        log.contains("could not ask Discord"),
        "the log was captured: {log}"
    );
    for secret in secrets {
        assert!(!log.contains(&secret), "{secret} in the log: {log}");
    }
    assert!(!log.contains("access-"), "{log}");
}

/// A writer into a shared buffer (the captured log).
struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session(user: u64) -> ActivitySession {
    ActivitySession {
        user: UserId(user),
        name: format!("user {user}"),
        locale: None,
        channel: ChannelId(CHANNEL),
        guild: None,
        instance: "i-1".into(),
        venue: Venue::Server,
    }
}

/// Sessions are bounded: a user's oldest goes past their own bound, the oldest of all past the
/// total, and a session is gone after its lifetime.
#[test]
fn sessions_are_bounded_and_expire() {
    let sessions = Sessions::with_bounds(3, 2, Duration::from_secs(3600));
    let first = sessions.open(session(1)).unwrap();
    let second = sessions.open(session(1)).unwrap();
    let third = sessions.open(session(1)).unwrap();
    assert_eq!(sessions.get(&first), None, "the user's oldest went");
    assert_eq!(sessions.get(&second), Some(session(1)));
    assert_eq!(sessions.get(&third), Some(session(1)));
    let other = sessions.open(session(2)).unwrap();
    let more = sessions.open(session(3)).unwrap();
    assert_eq!(sessions.len(), 3);
    assert_eq!(sessions.get(&second), None, "the oldest of all went");
    assert!(sessions.get(&other).is_some() && sessions.get(&more).is_some());
    assert_eq!(sessions.get(&"0".repeat(64)), None);

    let short = Sessions::with_bounds(10, 10, Duration::from_millis(30));
    let id = short.open(session(1)).unwrap();
    assert!(short.get(&id).is_some());
    std::thread::sleep(Duration::from_millis(60));
    assert_eq!(short.get(&id), None, "expired");
    short.open(session(2)).unwrap();
    assert_eq!(short.len(), 1, "the expired one was dropped");
}
