//! The web pages of the real binary (issue 46). Started without a token: a guest opens a game over
//! HTTP against an easy computer and plays, the bot is stopped and started again and the game is
//! where it was, and it is played to its end, which is stored like any game. Started with a token
//! and `[web] listen`: the pages beside Discord show a Discord game to a watcher, on the web address
//! and on the metrics address alike.

use std::time::Duration;

use serde_json::{json, Value};

use crate::support::bot::{BotOptions, BotProcess, Harness};
use crate::support::fake_discord::Config;
use crate::support::table::{lobby_against_easy, STEP};

/// A guest's side of the conversation: the address and the cookies the bot set.
struct Guest {
    client: reqwest::Client,
    base: String,
    cookies: Vec<String>,
    /// When the last request was sent: requests are paced within the bot's per-address limit.
    last: Option<std::time::Instant>,
}

/// The time between two requests of a guest (the bot allows 20 a second from one address).
const PACE: Duration = Duration::from_millis(60);

impl Guest {
    fn new(address: &str) -> Guest {
        Guest {
            client: reqwest::Client::new(),
            base: format!("http://{address}"),
            cookies: Vec::new(),
            last: None,
        }
    }

    /// `method path` with `body` as the page sends it: its status and JSON.
    async fn ask(
        &mut self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        if let Some(last) = self.last {
            tokio::time::sleep(PACE.saturating_sub(last.elapsed())).await;
        }
        self.last = Some(std::time::Instant::now());
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .timeout(Duration::from_secs(10));
        if !self.cookies.is_empty() {
            request = request.header("cookie", self.cookies.join("; "));
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
        for cookie in response.headers().get_all("set-cookie") {
            let pair = cookie
                .to_str()
                .unwrap()
                .split(';')
                .next()
                .unwrap()
                .to_string();
            let name = pair.split('=').next().unwrap().to_string();
            self.cookies.retain(|c| !c.starts_with(&format!("{name}=")));
            self.cookies.push(pair);
        }
        let text = response.text().await.expect("a body");
        let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
        (status, json)
    }

    async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.ask(reqwest::Method::POST, path, Some(body)).await
    }

    async fn get(&mut self, path: &str) -> (u16, Value) {
        self.ask(reqwest::Method::GET, path, None).await
    }
}

/// A legal move for the player whose view is `view` (a card on a free cell showing it, else a
/// two-eyed jack anywhere free, else an exchange of a dead card), on the view's turn.
fn a_move(view: &Value) -> Value {
    let hand: Vec<String> = view["you"]["hand"]
        .as_array()
        .expect("a hand")
        .iter()
        .map(|c| c["code"].as_str().unwrap().to_string())
        .collect();
    let cells = view["board"]["cells"].as_array().expect("cells");
    let free = |code: Option<&str>| {
        cells.iter().find(|cell| {
            cell.get("chip").is_none()
                && cell["label"]["kind"] == "card"
                && code.is_none_or(|code| cell["label"]["code"] == code)
        })
    };
    let turn = view["board"]["turn"].clone();
    for card in &hand {
        if let Some(cell) = free(Some(card)) {
            return json!({ "action": "play", "turn": turn, "card": card, "cell": cell["name"] });
        }
    }
    if let Some(jack) = hand.iter().find(|c| *c == "JD" || *c == "JC") {
        let cell = free(None).expect("a free cell");
        return json!({ "action": "play", "turn": turn, "card": jack, "cell": cell["name"] });
    }
    let team = view["you"]["team"].clone();
    let theirs = cells.iter().find(|cell| {
        cell.get("chip").is_some_and(|chip| *chip != team) && cell.get("in_sequence").is_none()
    });
    if let (Some(jack), Some(cell)) = (hand.iter().find(|c| *c == "JS" || *c == "JH"), theirs) {
        return json!({ "action": "play", "turn": turn, "card": jack, "cell": cell["name"] });
    }
    let dead = hand
        .iter()
        .find(|c| !c.starts_with('J'))
        .expect("a dead card");
    json!({ "action": "exchange", "turn": turn, "card": dead })
}

/// Waits for Ann's turn in game `token`: the view then, or `None` once the game has ended (its page
/// no longer shows a running table).
async fn my_turn(ann: &mut Guest, token: &str) -> Option<Value> {
    for _ in 0..400 {
        let (status, game) = ann.get(&format!("/api/g/{token}")).await;
        if status == 404 || game["replay"] == json!(true) {
            return None;
        }
        assert_eq!(status, 200, "{game}");
        if game["view"]["you"]["your_turn"] == json!(true) {
            return Some(game["view"].clone());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("never Ann's turn");
}

fn start(dir: &std::path::Path) -> (BotProcess, String) {
    let bot = BotProcess::spawn_local(
        dir,
        "[timers]\nbot_delay_ms = 0\n[web]\nlisten = \"127.0.0.1:0\"\n",
    );
    let address = bot
        .web_address(Duration::from_secs(60))
        .unwrap_or_else(|e| panic!("{e}"));
    (bot, address)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_a_game_is_played_in_the_browser_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (mut bot, address) = start(dir.path());
    let mut ann = Guest::new(&address);
    let (status, me) = ann.get("/api/me").await;
    assert_eq!((status, me["local"].clone()), (200, json!(true)), "{me}");
    let (status, me) = ann.post("/api/me", json!({ "name": "Ann" })).await;
    assert_eq!(status, 200, "{me}");
    let (status, opened) = ann
        .post("/api/games", json!({ "variant": "classic" }))
        .await;
    assert_eq!(status, 201, "{opened}");
    let token = opened["token"].as_str().unwrap().to_string();
    let act = format!("/api/g/{token}/act");
    let (status, added) = ann
        .post(&act, json!({ "action": "add_bot", "level": "easy" }))
        .await;
    assert_eq!(status, 200, "{added}");
    let (status, begun) = ann.post(&act, json!({ "action": "begin" })).await;
    assert_eq!(status, 200, "{begun}");
    // The live channel through the page's route: the first frame is the game as Ann sees it.
    {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{address}/api/g/{token}/live")
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("cookie", ann.cookies.join("; ").parse().unwrap());
        let (mut socket, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("the live channel opens");
        let frame = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a frame in time")
            .expect("a frame")
            .expect("a frame");
        let frame: Value = serde_json::from_str(frame.to_text().unwrap()).unwrap();
        assert!(frame["version"].is_u64(), "{frame}");
        assert!(
            frame["view"]["you"]["hand"].is_array(),
            "Ann's own view: {frame}"
        );
    }
    // A few moves each.
    for _ in 0..3 {
        let view = my_turn(&mut ann, &token).await.expect("the game runs");
        let (status, played) = ann.post(&act, a_move(&view)).await;
        assert_eq!(status, 200, "{played}");
    }
    let before = my_turn(&mut ann, &token).await.expect("the game runs");
    assert!(
        before["board"]["turn"].as_u64().unwrap() >= 6,
        "{}",
        before["board"]
    );

    // Stopped and started again: the game is where it was, Ann still seated with her hand.
    bot.terminate();
    assert_eq!(
        bot.wait_exit(Duration::from_secs(20)),
        Some(0),
        "{}",
        bot.log_tail(20)
    );
    let (mut bot, address) = start(dir.path());
    ann.base = format!("http://{address}");
    let after = my_turn(&mut ann, &token).await.expect("the game is back");
    assert_eq!(after["board"], before["board"], "the board as it was");
    assert_eq!(
        after["you"]["hand"], before["you"]["hand"],
        "the hand as it was"
    );
    // The seats as they were (the clock aside: a restart gives the player to move their time again).
    let seats = |view: &Value| -> Vec<Value> {
        view["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| json!([s["name"], s["kind"], s["team"], s["cards"], s["to_move"]]))
            .collect()
    };
    assert_eq!(seats(&after), seats(&before));

    // Played to its end.
    let mut moves = 0;
    while let Some(view) = my_turn(&mut ann, &token).await {
        let (status, played) = ann.post(&act, a_move(&view)).await;
        // The computer may end the game between the look and the move.
        assert!(status == 200 || status == 404, "{status}: {played}");
        moves += 1;
        assert!(moves < 200, "the game never ended");
    }
    // Its page is now its replay.
    let (status, ended) = ann.get(&format!("/api/g/{token}")).await;
    assert_eq!(
        (status, ended["replay"].clone()),
        (200, json!(true)),
        "{ended}"
    );
    let (status, replay) = ann.get(&format!("/api/g/{token}/replay")).await;
    assert_eq!(status, 200, "{replay}");
    assert!(
        replay["frames"].as_array().is_some_and(|f| f.len() > 6),
        "{replay}"
    );
    bot.terminate();
    assert_eq!(
        bot.wait_exit(Duration::from_secs(20)),
        Some(0),
        "{}",
        bot.log_tail(20)
    );
    // Stored like any finished game, with Ann among its players; no table left running.
    let db = rusqlite::Connection::open(dir.path().join("sequence-bot.sqlite3")).unwrap();
    let names: Vec<String> = db
        .prepare("SELECT name FROM game_players")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(names.contains(&"Ann".to_string()), "{names:?}");
    let live: i64 = db
        .query_row("SELECT COUNT(*) FROM live_tables", [], |row| row.get(0))
        .unwrap();
    assert_eq!(live, 0);
}

/// With a token, `[web] listen` and `[metrics] listen` on two addresses: the same pages on both,
/// `/metrics` only on the metrics address (the figures are the operator's); a
/// Discord game's page shows it to a guest as a watcher (no hand), who cannot act in it; no game can
/// be opened on the pages (local play is off with a token).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beside_discord_the_pages_show_a_discord_game_to_a_watcher() {
    // Two addresses (the same one twice, port 0 included, is one listener).
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let options = BotOptions {
        extra_config: format!(
            "[metrics]\nlisten = \"127.0.0.1:0\"\n[web]\nlisten = \"127.0.0.1:{port}\"\n"
        ),
        ..BotOptions::default()
    };
    let h = Harness::start(Config::default(), &options)
        .await
        .expect("the bot connects");
    let fake = &h.fake;
    let web = h
        .bot
        .web_address(Duration::from_secs(30))
        .expect("the pages");
    let metrics = h
        .bot
        .metrics_address(Duration::from_secs(30))
        .expect("metrics");
    assert_ne!(web, metrics);
    let human = fake.add_user("alice");
    let channel = fake.add_channel("sequence-web");
    let lobby = lobby_against_easy(fake, &human, channel).await;
    let begin = fake.click(&human, lobby, "sequence:begin").expect("press");
    fake.wait_callback(&begin, STEP).await.expect("begin");
    // The game's token, as saved with its table.
    let db = rusqlite::Connection::open(h.dir.path().join("sequence-bot.sqlite3")).unwrap();
    let mut token = None;
    for _ in 0..100 {
        let saved: Option<String> = db
            .query_row("SELECT snapshot_json FROM live_tables", [], |row| {
                row.get(0)
            })
            .ok();
        token = saved
            .and_then(|json| serde_json::from_str::<Value>(&json).ok())
            .and_then(|table| table["web_token"].as_str().map(str::to_string));
        if token.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let token = token.expect("a saved table with its token");
    for address in [&web, &metrics] {
        let mut guest = Guest::new(address);
        let mut game = Value::Null;
        for _ in 0..100 {
            let (status, seen) = guest.get(&format!("/api/g/{token}")).await;
            assert_eq!(status, 200, "{address}: {seen}");
            game = seen;
            if game["view"]["phase"] == "playing" {
                break;
            }
        }
        let view = &game["view"];
        assert_eq!(view["phase"], "playing", "{game}");
        assert!(view.get("you").is_none(), "a watcher has no hand: {view}");
        let names: Vec<&str> = view["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert!(
            names.iter().any(|n| n.eq_ignore_ascii_case("alice")),
            "{names:?}"
        );
        let (status, me) = guest.get("/api/me").await;
        assert_eq!((status, me["local"].clone()), (200, json!(false)), "{me}");
    }
    let mut guest = Guest::new(&web);
    let (status, _) = guest.post("/api/me", json!({ "name": "Eve" })).await;
    assert_eq!(status, 200);
    // A guest only watches a game played in Discord (issue 47).
    let (status, refused) = guest
        .post(&format!("/api/g/{token}/act"), json!({ "action": "join" }))
        .await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(
        refused["error"],
        "This game is played in Discord: watch it here, join it there."
    );
    let (status, refused) = guest.post("/api/games", json!({})).await;
    assert_eq!(status, 404, "{refused}");
    let health = crate::support::bot::get(&web, "/healthz").await;
    assert_eq!(health.0, 200, "{}", health.1);
    let figures = crate::support::bot::get(&web, "/metrics").await;
    assert_eq!(
        figures.0, 404,
        "no /metrics on the web address: {}",
        figures.1
    );
    let figures = crate::support::bot::get(&metrics, "/metrics").await;
    assert_eq!(figures.0, 200, "{}", figures.1);
}
