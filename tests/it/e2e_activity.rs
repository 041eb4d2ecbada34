//! Issue 47, the Discord side of the Activity through the stand-in: **Open the board** on the lobby
//! card and the turn prompt (only with a client secret), answered with `LAUNCH_ACTIVITY` (callback type
//! 12) at once; the app's entry point command kept in the global commands' bulk overwrite (never
//! refused with 50240), with or without a client secret here; and the Activity's sign-in as the web
//! face asks it (`app::activity::provider`), through the stand-in's OAuth2 token endpoint,
//! `users/@me` and `activity-instances`: a code exchanged once, a replayed, expired or another
//! application's code refused, a wrong client secret refused, who is in an instance and what kind of
//! place it runs in; the secret never in the bot's log. Where the bot may only answer (a group DM):
//! a lobby opened from the Activity is casual, its players play from the Activity, nothing is posted
//! as a channel message, what the chat is owed comes with the next interaction there (a launch), and
//! a press in the chat shows in the Activity.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support;

use sequence_bot::app::activity::{ActivityError, ActivityUser};
use sequence_bot::service::Venue;
use serde_json::json;
use support::bot::{BotOptions, BotProcess, Harness, InProcessBot};
use support::fake_discord::{Config, FakeDiscord, FakeUser};
use support::table::{
    choices, lobby_against_easy, mover_of, notified_prompt_after, play_button, posted_after,
    updated_in_place, Dice, STEP,
};

/// The custom id of **Open the board**.
const OPEN: &str = "sequence:activity";

/// The bot's options with the stand-in's client secret in `[activity]` (or none), commands registered
/// globally (where the entry point lives).
fn options(secret: Option<&str>) -> BotOptions {
    BotOptions {
        guild_commands: false,
        extra_config: secret
            .map(|s| format!("\n[activity]\nclient_secret = {s:?}\n"))
            .unwrap_or_default(),
        ..BotOptions::default()
    }
}

/// A stand-in whose app has Activities (and so Discord's default entry point, its handler `handler`),
/// then the bot.
async fn start(secret: bool) -> Harness {
    start_with(secret, 2).await
}

async fn start_with(secret: bool, handler: u8) -> Harness {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("the stand-in");
    fake.enable_activities();
    fake.set_entry_point_handler(handler);
    let secret = secret.then(|| fake.client_secret());
    let dir = tempfile::tempdir().expect("a folder");
    let bot = BotProcess::spawn(&fake, dir.path(), &options(secret.as_deref()));
    let h = Harness { fake, bot, dir };
    h.wait_connected()
        .await
        .unwrap_or_else(|e| panic!("the bot connects: {e}"));
    h
}

/// The registered global entry point commands (type 4).
fn entry_points(fake: &FakeDiscord) -> Vec<Value> {
    fake.state()
        .global_commands
        .iter()
        .filter(|c| c["type"] == 4)
        .cloned()
        .collect()
}

/// Every bulk overwrite of the global commands the bot sent, with the stand-in's status.
fn overwrites(fake: &FakeDiscord) -> Vec<(u16, Option<(u64, String)>)> {
    fake.requests_to("PUT", "/applications/")
        .into_iter()
        .filter(|r| r.path.ends_with("/commands"))
        .map(|r| (r.status, r.error))
        .collect()
}

/// Waits for the human's turn prompt (a message with a Play button that notified them) after `skip`.
async fn prompt_after(h: &Harness, channel: u64, human: u64, skip: usize) -> u64 {
    notified_prompt_after(&h.fake, channel, human, skip)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_the_board_launches_the_activity_and_the_entry_point_is_kept() {
    let h = start(true).await;
    let fake = &h.fake;
    // The default entry point Discord made is sent along with the bot's commands: kept, same id.
    let before: Vec<Value> = entry_points(fake);
    assert_eq!(before.len(), 1, "{before:?}");
    for (status, error) in overwrites(fake) {
        assert_eq!(status, 200, "the overwrite was refused: {error:?}");
    }
    assert!(!overwrites(fake).is_empty(), "registered globally");
    assert!(fake.state().find_command("sequence").is_some());
    let entry = &entry_points(fake)[0];
    assert_eq!(entry["name"], "launch");
    assert_eq!(entry["id"], before[0]["id"], "the same command");
    assert_eq!(entry["handler"], 2, "Discord launches it itself");

    let human = fake.add_user("ann");
    let channel = fake.add_channel("sequence-activity");
    let lobby = lobby_against_easy(fake, &human, channel).await;
    let shown = fake.message(lobby).expect("the lobby");
    assert!(
        shown.custom_ids().iter().any(|id| id == OPEN),
        "Open the board on the lobby card: {:?}",
        shown.custom_ids()
    );
    let messages = fake.messages_in(channel).len();
    let press = fake.click(&human, lobby, OPEN).expect("press");
    let callback = fake.wait_callback(&press, STEP).await.expect("answered");
    assert_eq!(callback.kind, 12, "LAUNCH_ACTIVITY");
    let latency = fake
        .interaction(press.id)
        .and_then(|i| i.latency())
        .expect("a latency");
    assert!(latency < Duration::from_secs(1), "{latency:?}");
    // Nothing else: the table is not asked, nothing is posted.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(fake.messages_in(channel).len(), messages);

    let skip = fake.messages_in(channel).len();
    let begin = fake.click(&human, lobby, "sequence:begin").expect("press");
    fake.wait_callback(&begin, STEP).await.expect("begin");
    let prompt = prompt_after(&h, channel, human.id, skip).await;
    let shown = fake.message(prompt).expect("the prompt");
    assert!(
        shown.custom_ids().iter().any(|id| id == OPEN),
        "Open the board on the turn prompt: {:?}",
        shown.custom_ids()
    );
    let press = fake.click(&human, prompt, OPEN).expect("press");
    let callback = fake.wait_callback(&press, STEP).await.expect("answered");
    assert_eq!(callback.kind, 12);
    assert_eq!(fake.launched_activities().len(), 2);
    assert!(
        fake.take_openapi_problems().is_empty(),
        "Discord's OpenAPI takes the callbacks and the commands"
    );
    let log = h.bot.log();
    assert!(
        !log.contains(&fake.client_secret()),
        "the secret in the log"
    );
    assert!(log.contains("Activity"), "{}", h.bot.log_tail(30));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_client_secret_no_button_and_the_entry_point_is_still_kept() {
    let h = start(false).await;
    let fake = &h.fake;
    for (status, error) in overwrites(fake) {
        assert_eq!(status, 200, "the overwrite was refused: {error:?}");
    }
    assert_eq!(entry_points(fake).len(), 1, "the app's entry point kept");
    let human = fake.add_user("bea");
    let channel = fake.add_channel("sequence-no-activity");
    let lobby = lobby_against_easy(fake, &human, channel).await;
    let shown = fake.message(lobby).expect("the lobby");
    assert!(
        !shown.custom_ids().iter().any(|id| id == OPEN),
        "{:?}",
        shown.custom_ids()
    );
    assert!(fake.take_openapi_problems().is_empty());
}

/// An entry point whose use the portal left to the app (`APP_HANDLER`) is kept so, and its use is
/// answered with `LAUNCH_ACTIVITY` at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entry_point_left_to_the_app_is_answered_with_a_launch() {
    let h = start_with(true, 1).await;
    let fake = &h.fake;
    let entry = entry_points(fake);
    assert_eq!(entry.len(), 1);
    assert_eq!(entry[0]["handler"], 1, "kept as registered");
    let human = fake.add_user("cid");
    let channel = fake.add_channel("sequence-launcher");
    let used = fake
        .use_entry_point(&human, channel)
        .expect("an entry point")
        .expect("the bot answers it");
    let callback = fake.wait_callback(&used, STEP).await.expect("answered");
    assert_eq!(callback.kind, 12);
    assert!(fake.take_openapi_problems().is_empty());
}

/// The stand-in refuses an overwrite that drops the entry point, as Discord does: what the bot
/// avoids above.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stand_in_refuses_an_overwrite_that_drops_the_entry_point() {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("the stand-in");
    fake.enable_activities();
    let client = reqwest::Client::new();
    let url = format!(
        "{}/api/v10/applications/{}/commands",
        fake.rest_url(),
        fake.application_id()
    );
    let put = |body: Value| {
        client
            .put(&url)
            .header("authorization", format!("Bot {}", fake.token()))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
    };
    let slash = serde_json::json!({"name": "sequence", "description": "Play", "type": 1});
    let refused = put(serde_json::json!([slash.clone()])).await.expect("sent");
    assert_eq!(refused.status().as_u16(), 400);
    let body: Value =
        serde_json::from_slice(&refused.bytes().await.expect("a body")).expect("json");
    assert_eq!(body["code"], 50240, "{body}");
    assert_eq!(entry_points(&fake).len(), 1, "nothing changed");
    let entry =
        serde_json::json!({"name": "launch", "description": "Launch", "type": 4, "handler": 2});
    let accepted = put(serde_json::json!([slash, entry])).await.expect("sent");
    assert_eq!(accepted.status().as_u16(), 200);
    let two = serde_json::json!([entry, entry]);
    assert_eq!(put(two).await.expect("sent").status().as_u16(), 400);
    assert!(fake.take_openapi_problems().is_empty());
}

/// The sign-in as the web face asks it: the provider the in-process bot made once it knew its
/// application, through the stand-in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sign_in_asks_discord_through_the_stand_in() {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("the stand-in");
    fake.enable_activities();
    let dir = tempfile::tempdir().expect("a folder");
    let secret = fake.client_secret();
    let _bot = InProcessBot::spawn(
        &fake,
        dir.path(),
        &options(Some(&secret)),
        sequence_bot::app::paint::painter(),
    );
    fake.wait_ready(Duration::from_secs(60))
        .await
        .expect("the bot connects");
    let started = Instant::now();
    let provider = loop {
        if let Some(p) = sequence_bot::app::activity::provider() {
            if p.application_id() == fake.application_id() {
                break p;
            }
        }
        assert!(started.elapsed() < STEP, "no provider");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };

    let ann = fake.add_user("ann");
    fake.set_locale(ann.id, "de");
    let bob = fake.add_user("bob");
    let code = fake.oauth_code(&ann);
    let token = provider.exchange_code(&code).await.expect("exchanged");
    // Once only.
    assert_eq!(
        provider.exchange_code(&code).await,
        Err(ActivityError::BadCode)
    );
    assert_eq!(
        provider.exchange_code("fake-code-never-made").await,
        Err(ActivityError::BadCode)
    );
    // Another application's code.
    let other = fake.oauth_code_for(&ann, fake.application_id() + 1);
    assert_eq!(
        provider.exchange_code(&other).await,
        Err(ActivityError::BadCode)
    );
    // Five minutes on: expired.
    let late = fake.oauth_code(&bob);
    fake.advance_clock(Duration::from_secs(301));
    assert_eq!(
        provider.exchange_code(&late).await,
        Err(ActivityError::BadCode)
    );
    assert_eq!(
        provider.user(&token).await.expect("the user"),
        ActivityUser {
            id: ann.id,
            name: "Ann".into(),
            locale: Some("de".into())
        }
    );
    assert_eq!(
        provider.user("fake-access-forged").await,
        Err(ActivityError::BadToken)
    );
    // Ann's real token, but one another application was given: users/@me would name her, the
    // authorization says whose token it is.
    let foreign = fake.access_token_for(&ann, fake.application_id() + 1);
    assert_eq!(provider.user(&foreign).await, Err(ActivityError::BadToken));
    assert!(
        fake.requests_to("GET", "/oauth2/@me").len() >= 3,
        "every token's authorization was asked"
    );

    let channel = fake.add_channel("sequence-instance");
    let instance = fake.add_activity_instance(channel, &[&ann]);
    let found = provider.instance(&instance).await.expect("the instance");
    assert_eq!(found.channel, channel);
    assert_eq!(found.guild, Some(fake.guild_id()));
    assert_eq!(found.users, vec![ann.id]);
    assert!(!found.users.contains(&bob.id), "Bob is not in it");
    assert_eq!(found.venue, Venue::Server, "a server of the bot's");
    let dm = fake.add_group_dm(&[&ann, &bob]);
    let private = fake.add_activity_instance(dm, &[&ann, &bob]);
    let found = provider.instance(&private).await.expect("the instance");
    assert_eq!((found.channel, found.guild), (dm, None));
    assert_eq!(found.venue, Venue::GroupDm, "a group DM");
    // A server that did not add the bot (a member installed the app): Discord is asked, and says so.
    let friends = fake.add_guild_without_bot("friends");
    let games = fake.add_channel_in(friends, "games");
    let theirs = fake.add_activity_instance(games, &[&ann]);
    let found = provider.instance(&theirs).await.expect("the instance");
    assert_eq!(found.guild, Some(friends));
    assert_eq!(
        found.venue,
        Venue::ServerWithoutBot {
            external_apps: true
        }
    );
    let asked = fake.requests_to("GET", &format!("/guilds/{friends}"));
    assert_eq!(asked.len(), 1, "asked once: {asked:?}");
    assert!(
        fake.requests_to("GET", &format!("/guilds/{}", fake.guild_id()))
            .is_empty(),
        "the bot's own server is known from the gateway"
    );
    fake.end_activity_instance(&instance);
    assert_eq!(
        provider.instance(&instance).await,
        Err(ActivityError::NoInstance)
    );

    // A wrong client secret: Discord refuses the client (said in the log, not to the page).
    let network = sequence_bot::app::config::Network {
        https_proxy: Some(fake.rest_url()),
        extra_root_certificates: Some(dir.path().join("fake-discord-ca.pem")),
    };
    let wrong = sequence_bot::discord::activity::DiscordActivity::new(
        fake.application_id(),
        "wrongClientSecret0123456789abcde",
        &fake.token(),
        sequence_bot::discord::activity::http_client(&network).expect("a client"),
        sequence_bot::discord::activity::DISCORD_API,
    );
    let code = fake.oauth_code(&bob);
    let refused = sequence_bot::app::activity::ActivityDiscord::exchange_code(&wrong, &code)
        .await
        .unwrap_err();
    match &refused {
        ActivityError::Unavailable(reason) => {
            assert!(reason.contains("invalid_client"), "{reason}");
            assert!(!reason.contains("wrongClientSecret"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    // The code was not spent by the refused client: the right one still exchanges it.
    assert!(provider.exchange_code(&code).await.is_ok());
    assert_eq!(
        fake.code_exchanges(),
        vec![200, 400, 400, 400, 400, 401, 200]
    );
    assert!(
        fake.take_openapi_problems().is_empty(),
        "oauth2/@me, users/@me and activity-instances as Discord's OpenAPI describes them"
    );
}

/// The bot's options with the Activity (the stand-in's client secret) and its web pages on a free
/// port of the loopback (Discord's proxy would forward the page's `/.proxy/` requests there).
fn with_pages(secret: &str) -> BotOptions {
    let mut options = options(Some(secret));
    options
        .extra_config
        .push_str("[web]\nlisten = \"127.0.0.1:0\"\n");
    options
}

/// A stand-in whose app has Activities (Discord's own entry point), and the bot with the Activity
/// and its pages: the harness and the pages' base address.
async fn with_board() -> (Harness, String) {
    let fake = FakeDiscord::start(Config::default())
        .await
        .expect("the stand-in");
    fake.enable_activities();
    let secret = fake.client_secret();
    let dir = tempfile::tempdir().expect("a folder");
    let bot = BotProcess::spawn(&fake, dir.path(), &with_pages(&secret));
    let h = Harness { fake, bot, dir };
    if let Err(e) = h.wait_connected().await {
        panic!("the bot connects: {e}\nbot log:\n{}", h.bot.log_tail(60));
    }
    let address = h
        .bot
        .web_address(Duration::from_secs(30))
        .unwrap_or_else(|e| panic!("{e}"));
    (h, format!("http://{address}"))
}

/// One player's Activity page as the test plays it: its session, over HTTP to the bot's pages, with
/// the `/.proxy` paths and the frame's origin that Discord's proxy forwards.
struct Board {
    client: reqwest::Client,
    base: String,
    origin: String,
    session: Option<String>,
}

impl Board {
    /// Signs `user` in to `instance` as the page does: a code from `authorize` exchanged, then the
    /// session. The page and the session's answer.
    async fn sign_in(
        fake: &FakeDiscord,
        base: &str,
        user: &FakeUser,
        instance: &str,
    ) -> (Board, Value) {
        let mut board = Board {
            client: reqwest::Client::new(),
            base: base.to_string(),
            origin: format!("https://{}.discordsays.com", fake.application_id()),
            session: None,
        };
        let code = fake.oauth_code(user);
        let (status, token) = board
            .post("/api/activity/token", json!({ "code": code }))
            .await;
        assert_eq!(status, 200, "{token}");
        let (status, signed) = board
            .post(
                "/api/activity/session",
                json!({ "access_token": token["access_token"], "instance_id": instance }),
            )
            .await;
        assert_eq!(status, 200, "{signed}");
        board.session = signed["session"].as_str().map(str::to_string);
        (board, signed)
    }

    async fn ask(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        // Paced within the bot's request limit (20 a second per user).
        tokio::time::sleep(Duration::from_millis(60)).await;
        let mut request = self
            .client
            .request(method, format!("{}/.proxy{path}", self.base))
            .header("origin", &self.origin)
            .timeout(Duration::from_secs(10));
        if let Some(session) = &self.session {
            request = request.header("x-sequence-activity", session);
        }
        if let Some(body) = body {
            request = request
                .header("x-sequence", "1")
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        let response = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
        (status, json)
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.ask(reqwest::Method::POST, path, Some(body)).await
    }

    /// The table's view as this player sees it.
    async fn view(&self, token: &str) -> Value {
        let (status, game) = self
            .ask(reqwest::Method::GET, &format!("/api/g/{token}"), None)
            .await;
        assert_eq!(status, 200, "{game}");
        game["view"].clone()
    }

    async fn act(&self, token: &str, act: Value) -> (u16, Value) {
        self.post(&format!("/api/g/{token}/act"), act).await
    }
}

/// A move as two taps make it: the first card of the hand with a marked cell, on that cell; else
/// a dead card exchanged.
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

/// A group DM where only Ann installed the app (the bot is never a member there): the Activity
/// launched by Discord itself (its own entry point handler: no interaction for the bot), Ann opens a
/// lobby from it, Bob joins, they play from the Activity. The table is casual; nothing is posted as
/// a channel message (Discord would refuse it, 50001) and no follow-up is refused; what the chat is
/// owed is held back and comes with the next interaction there (Ann's launch through the entry
/// point, answered with `LAUNCH_ACTIVITY`, whose token carries it); a turn played by presses in the
/// chat then shows in the Activity.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_group_dm_the_activity_plays_and_the_chat_gets_it_through_interactions() {
    let (h, base) = with_board().await;
    let fail = |e: String| -> ! { panic!("{e}\nbot log:\n{}", h.bot.log_tail(60)) };
    let fake = &h.fake;
    let ann = fake.add_stranger("ann");
    fake.install_for_user(&ann);
    let bob = fake.add_stranger("bob");
    let group = fake.add_group_dm(&[&ann, &bob]);
    let instance = fake.add_activity_instance(group, &[&ann, &bob]);

    let (ann_board, signed) = Board::sign_in(fake, &base, &ann, &instance).await;
    assert_eq!(signed["channel"], group.to_string());
    assert_eq!(signed["token"], Value::Null, "no table yet");
    let (bob_board, _) = Board::sign_in(fake, &base, &bob, &instance).await;
    let (status, opened) = ann_board
        .post("/api/activity/start", json!({ "variant": "classic" }))
        .await;
    assert_eq!(status, 201, "{opened}");
    let token = opened["token"].as_str().expect("a token").to_string();
    let (status, joined) = bob_board.act(&token, json!({ "action": "join" })).await;
    assert_eq!(status, 200, "{joined}");
    let (status, begun) = ann_board.act(&token, json!({ "action": "begin" })).await;
    assert_eq!(status, 200, "{begun}");
    let view = ann_board.view(&token).await;
    assert_eq!(view["game"]["rated"], json!(false), "casual here: {view}");

    // Four moves from the Activity, whoever is to move.
    let boards = [(&ann, &ann_board), (&bob, &bob_board)];
    let mut moves = 0;
    let started = Instant::now();
    while moves < 4 {
        assert!(started.elapsed() < STEP, "the moves took too long");
        for (_, board) in boards {
            let view = board.view(&token).await;
            if view["you"]["your_turn"] == json!(true) {
                let (status, done) = board.act(&token, tapped(&view)).await;
                assert_eq!(status, 200, "{done}");
                if done["ok"] == json!(true) && view["you"]["hand"].as_array().is_some() {
                    moves += 1;
                }
            }
        }
    }
    // Nothing went to the chat yet: no post tried, no interaction to ride on.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let posts = fake.requests_to("POST", &format!("/channels/{group}/messages"));
    assert!(posts.is_empty(), "posts tried: {posts:?}");
    assert!(fake.messages_in(group).is_empty(), "nothing shown yet");

    // Ann (who installed the app) opens the board through the app's entry point, now left to the
    // app: the launch answers her interaction, and what was held back comes on its token, with the
    // latest prompt's buttons.
    fake.set_entry_point_handler(1);
    let used = fake
        .use_entry_point(&ann, group)
        .unwrap_or_else(|e| fail(e))
        .expect("the bot answers it");
    let callback = fake
        .wait_callback(&used, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    assert_eq!(callback.kind, 12, "LAUNCH_ACTIVITY");
    let held = posted_after(fake, group, 0, "what was held back", |m| {
        m.interaction_id == Some(used.id) && play_button(m).is_some()
    })
    .await
    .unwrap_or_else(|e| fail(e));
    assert!(held.content.contains("Held back"), "{}", held.content);
    assert!(
        held.content.contains("begins!"),
        "the start: {}",
        held.content
    );

    // The player to move plays by presses in the chat: the Activity shows it. The prompt of this
    // turn is the held pack's, or a follow-up on the same token when the last Activity move's prompt
    // was still on its way to the Discord face at the launch.
    let now = ann_board.view(&token).await;
    let before = now["board"]["turn"].as_u64().expect("a turn");
    let player = if now["you"]["your_turn"] == json!(true) {
        &ann
    } else {
        &bob
    };
    let prompt = posted_after(fake, group, 0, "the prompt of the turn now", |m| {
        m.id >= held.id && play_button(m).is_some() && mover_of(m).ok() == Some(player.id)
    })
    .await
    .unwrap_or_else(|e| fail(e));
    let open = play_button(&prompt).expect("Play");
    let press = fake
        .click(player, prompt.id, &open)
        .unwrap_or_else(|e| fail(e));
    let picker_id = fake
        .wait_reply(&press, STEP)
        .await
        .unwrap_or_else(|e| fail(e))
        .id;
    let mut dice = Dice::new(47);
    let mut moved = false;
    for _ in 0..12 {
        let picker = fake.message(picker_id).expect("the picker");
        assert!(picker.is_ephemeral(), "the picker is private");
        let options = choices(&picker);
        assert!(!options.is_empty(), "{}", picker.content);
        // A cell where there is one; an exchange only when nothing else is left.
        let pick = options
            .iter()
            .find(|(id, _)| id.contains(":cell:"))
            .or_else(|| options.iter().find(|(id, _)| !id.contains(":swap:")))
            .unwrap_or(&options[dice.below(options.len())])
            .clone();
        let (id, value) = pick;
        let pressed = match &value {
            Some(v) => fake.select(player, picker_id, &id, &[v.as_str()]),
            None => fake.click(player, picker_id, &id),
        }
        .unwrap_or_else(|e| fail(e));
        if id.contains(":cell:") {
            fake.wait_callback(&pressed, STEP)
                .await
                .unwrap_or_else(|e| fail(e));
            moved = true;
            break;
        }
        if id.contains(":swap:") {
            fake.wait_callback(&pressed, STEP)
                .await
                .unwrap_or_else(|e| fail(e));
            continue;
        }
        updated_in_place(fake, &pressed, picker_id)
            .await
            .unwrap_or_else(|e| fail(e));
    }
    assert!(moved, "a move by presses");
    let started = Instant::now();
    loop {
        let view = bob_board.view(&token).await;
        if view["board"]["turn"].as_u64().unwrap_or(0) > before {
            assert_eq!(view["game"]["rated"], json!(false));
            break;
        }
        assert!(
            started.elapsed() < STEP,
            "the Activity did not show the chat's move"
        );
    }
    // Still no channel post, and no follow-up refused.
    let posts = fake.requests_to("POST", &format!("/channels/{group}/messages"));
    assert!(posts.is_empty(), "posts tried: {posts:?}");
    for message in fake.messages_in(group) {
        assert!(
            message.interaction_id.is_some(),
            "on an interaction: {message:?}"
        );
        if let Some(i) = message.interaction_id.and_then(|id| fake.interaction(id)) {
            assert!(i.refused_followups.is_empty(), "{:?}", i.refused_followups);
        }
    }
    assert!(fake.take_openapi_problems().is_empty());
}

/// A server that did not add the bot, where Ann installed the app: the Activity opens a lobby there
/// (rated as the server's games are: the place's rules, not a DM's), nothing is posted as a channel
/// message, the lobby card comes with the next interaction (Ann's launch through the entry point),
/// and Bob's Join pressed on that card shows in the Activity.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_server_without_the_bot_the_lobby_comes_with_the_next_interaction() {
    let (h, base) = with_board().await;
    let fail = |e: String| -> ! { panic!("{e}\nbot log:\n{}", h.bot.log_tail(60)) };
    let fake = &h.fake;
    fake.set_entry_point_handler(1);
    let friends = fake.add_guild_without_bot("friends");
    let channel = fake.add_channel_in(friends, "games");
    let ann = fake.add_stranger("ann");
    fake.install_for_user(&ann);
    let bob = fake.add_stranger("bob");
    let instance = fake.add_activity_instance(channel, &[&ann, &bob]);
    let (ann_board, signed) = Board::sign_in(fake, &base, &ann, &instance).await;
    assert_eq!(signed["token"], Value::Null);
    let (status, opened) = ann_board
        .post("/api/activity/start", json!({ "variant": "classic" }))
        .await;
    assert_eq!(status, 201, "{opened}");
    let token = opened["token"].as_str().expect("a token").to_string();
    let view = ann_board.view(&token).await;
    assert_eq!(
        view["game"]["rated"],
        Value::Null,
        "the server's default: {view}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let posts = fake.requests_to("POST", &format!("/channels/{channel}/messages"));
    assert!(posts.is_empty(), "posts tried: {posts:?}");

    let used = fake
        .use_entry_point(&ann, channel)
        .unwrap_or_else(|e| fail(e))
        .expect("the bot answers it");
    let callback = fake
        .wait_callback(&used, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    assert_eq!(callback.kind, 12, "LAUNCH_ACTIVITY");
    let card = posted_after(fake, channel, 0, "the lobby card", |m| {
        m.interaction_id == Some(used.id) && m.custom_ids().iter().any(|id| id == "sequence:join")
    })
    .await
    .unwrap_or_else(|e| fail(e));
    let join = fake
        .click(&bob, card.id, "sequence:join")
        .unwrap_or_else(|e| fail(e));
    fake.wait_callback(&join, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    let started = Instant::now();
    loop {
        let view = ann_board.view(&token).await;
        if view["seats"].as_array().is_some_and(|s| s.len() == 2) {
            break;
        }
        assert!(started.elapsed() < STEP, "Bob's Join does not show: {view}");
    }
    let posts = fake.requests_to("POST", &format!("/channels/{channel}/messages"));
    assert!(posts.is_empty(), "posts tried: {posts:?}");
    assert!(fake.take_openapi_problems().is_empty());
}
