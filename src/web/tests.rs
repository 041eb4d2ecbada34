//! The web face's routes, asked in-process (tower's `oneshot` through the app's router, as the
//! listener serves them), against a real service with its host running.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::app::config::BotConfig;
use crate::app::http::Site;
use crate::service::{RandomPicker, Tables};

use super::limit::Limiter;
use super::Web;

/// What the router answered.
#[derive(Debug)]
pub(super) struct Answer {
    pub(super) status: StatusCode,
    pub(super) content_type: String,
    pub(super) cookies: Vec<String>,
    pub(super) text: String,
}

impl Answer {
    pub(super) fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("{e}: {}", self.text))
    }

    /// The web token of a game just opened: the answer is 201 with the token and its page's address.
    pub(super) fn created(&self) -> String {
        assert_eq!(self.status, StatusCode::CREATED, "{self:?}");
        let token = self.json()["token"].as_str().expect("a token").to_string();
        assert_eq!(self.json()["url"], format!("/g/{token}"));
        token
    }

    /// The `error` of a JSON error answer.
    pub(super) fn error(&self) -> String {
        assert_eq!(self.content_type, "application/json", "{self:?}");
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error: {self:?}"))
            .to_string()
    }
}

/// A browser's side of the conversation: its cookies, sent back with every request.
#[derive(Clone, Default)]
pub(super) struct Browser {
    cookies: Vec<String>,
}

impl Browser {
    pub(super) async fn ask(
        &mut self,
        app: &Router,
        method: Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut request = Request::builder().method(method).uri(path);
        if !self.cookies.is_empty() {
            request = request.header(header::COOKIE, self.cookies.join("; "));
        }
        for (key, value) in headers {
            request = request.header(*key, *value);
        }
        let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
        let response = app
            .clone()
            .oneshot(request.body(body).expect("a request"))
            .await
            .expect("an answer");
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let cookies: Vec<String> = response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .map(|v| v.to_str().expect("ascii").to_string())
            .collect();
        for cookie in &cookies {
            let pair = cookie.split(';').next().unwrap_or_default().to_string();
            let name = pair.split('=').next().unwrap_or_default().to_string();
            self.cookies.retain(|c| !c.starts_with(&format!("{name}=")));
            self.cookies.push(pair);
        }
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
            .await
            .expect("the body");
        Answer {
            status,
            content_type,
            cookies,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    pub(super) async fn get(&mut self, app: &Router, path: &str) -> Answer {
        self.ask(app, Method::GET, path, None, &[]).await
    }

    /// A POST as the page sends it (with `X-Sequence: 1`).
    pub(super) async fn post(&mut self, app: &Router, path: &str, body: Value) -> Answer {
        self.ask(app, Method::POST, path, Some(body), &[("x-sequence", "1")])
            .await
    }

    /// Signs in as `name`.
    pub(super) async fn named(app: &Router, name: &str) -> Browser {
        let mut browser = Browser::default();
        let answer = browser.post(app, "/api/me", json!({ "name": name })).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        browser
    }

    pub(super) async fn act(&mut self, app: &Router, token: &str, body: Value) -> Answer {
        self.post(app, &format!("/api/g/{token}/act"), body).await
    }

    pub(super) async fn view(&mut self, app: &Router, token: &str) -> Value {
        let answer = self.get(app, &format!("/api/g/{token}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        answer.json()
    }
}

/// The service (computer players at random, no store) with its host running, and the app's router
/// with the web's routes beside the health routes, as `sequence-bot run` serves them without a token.
fn app_with(config: &BotConfig, limiter: Limiter) -> (Router, Arc<Tables>) {
    let tables = Arc::new(Tables::new(config.settings(), Arc::new(RandomPicker)));
    let web = Arc::new(Web::new(config).with_limiter(limiter));
    web.open(&tables);
    tables.spawn_host(Duration::from_secs(1), Duration::ZERO);
    let health = Arc::new(crate::app::health::Health::with_prometheus(
        metrics_exporter_prometheus::PrometheusBuilder::new()
            .build_recorder()
            .handle(),
    ));
    let router = crate::app::http::router([health as Arc<dyn Site>, web as Arc<dyn Site>]);
    (router, tables)
}

fn app() -> (Router, Arc<Tables>) {
    app_with(&BotConfig::default(), Limiter::new(1000.0, 1000.0))
}

/// Opens a classic game as `browser` against an easy computer and starts it: its token.
async fn game_against_easy(app: &Router, browser: &mut Browser) -> String {
    let opened = browser
        .post(app, "/api/games", json!({ "variant": "classic" }))
        .await;
    let token = opened.created();
    let added = browser
        .act(app, &token, json!({ "action": "add_bot", "level": "easy" }))
        .await;
    assert_eq!(added.status, StatusCode::OK, "{added:?}");
    let begun = browser.act(app, &token, json!({ "action": "begin" })).await;
    assert_eq!(begun.status, StatusCode::OK, "{begun:?}");
    token
}

/// Waits until it is `browser`'s turn in game `token`: the view then.
async fn my_turn(app: &Router, browser: &mut Browser, token: &str) -> Value {
    for _ in 0..200 {
        let game = browser.view(app, token).await;
        if game["view"]["you"]["your_turn"] == json!(true) {
            return game;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("never my turn");
}

/// A legal move for the player whose view is `view`: a card of the hand on a free cell showing it,
/// else a two-eyed jack on any free cell, else an exchange of a card with no free cell.
pub(super) fn a_move(view: &Value) -> Value {
    let hand: Vec<String> = view["you"]["hand"]
        .as_array()
        .expect("a hand")
        .iter()
        .map(|c| c["code"].as_str().expect("a code").to_string())
        .collect();
    let cells = view["board"]["cells"].as_array().expect("cells");
    let free = |code: Option<&str>| {
        cells.iter().find(|cell| {
            cell.get("chip").is_none()
                && cell["label"]["kind"] == "card"
                && code.is_none_or(|code| cell["label"]["code"] == code)
        })
    };
    for card in &hand {
        if let Some(cell) = free(Some(card)) {
            return json!({ "action": "play", "card": card, "cell": cell["name"] });
        }
    }
    if let Some(jack) = hand.iter().find(|c| *c == "JD" || *c == "JC") {
        let cell = free(None).expect("a free cell");
        return json!({ "action": "play", "card": jack, "cell": cell["name"] });
    }
    let team = view["you"]["team"].clone();
    let theirs = cells.iter().find(|cell| {
        cell.get("chip").is_some_and(|chip| *chip != team) && cell.get("in_sequence").is_none()
    });
    if let (Some(jack), Some(cell)) = (hand.iter().find(|c| *c == "JS" || *c == "JH"), theirs) {
        return json!({ "action": "play", "card": jack, "cell": cell["name"] });
    }
    let dead = hand
        .iter()
        .find(|c| !c.starts_with('J'))
        .expect("a dead card");
    json!({ "action": "exchange", "card": dead })
}

/// The first promise, through the API: a guest opens a game against an easy computer and
/// plays; a move made on the right turn is played, the same move sent again with the turn it was
/// made on (now stale) is refused with 409 and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_plays_against_an_easy_computer_and_a_stale_move_changes_nothing() {
    let (app, _tables) = app();
    let mut ann = Browser::named(&app, "Ann").await;
    let token = game_against_easy(&app, &mut ann).await;
    let game = my_turn(&app, &mut ann, &token).await;
    let view = &game["view"];
    assert_eq!(view["phase"], "playing");
    let names: Vec<&str> = view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Ann"), "{names:?}");
    let turn = view["board"]["turn"].as_u64().expect("a turn");
    let mut played = a_move(view);
    played["turn"] = json!(turn);
    let answer = ann.act(&app, &token, played.clone()).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    assert_eq!(answer.json()["ok"], true);
    // The computer answers; then it is Ann's turn again, on a later turn.
    let game = my_turn(&app, &mut ann, &token).await;
    let now = game["view"]["board"]["turn"].as_u64().unwrap();
    assert!(now > turn, "{now} after {turn}");
    let before = game["view"]["board"].clone();
    let version = game["version"].as_u64().unwrap();
    assert!(version > 0, "events were seen");
    // The same move again, with the turn it was made on.
    let stale = ann.act(&app, &token, played).await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{stale:?}");
    let text = stale.error();
    assert!(!text.is_empty());
    for markup in ["<@", "**", "`"] {
        assert!(!text.contains(markup), "{text}");
    }
    let after = ann.view(&app, &token).await;
    assert_eq!(after["view"]["board"], before, "nothing changed");
    assert_eq!(
        after["view"]["you"], game["view"]["you"],
        "the hand as it was"
    );
    // The version only grows (the computer's move may be noted after the view showed it).
    assert!(after["version"].as_u64().unwrap() >= version);
    // A move on the current turn is played.
    let mut next = a_move(&after["view"]);
    next["turn"] = json!(now);
    let answer = ann.act(&app, &token, next).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    assert_eq!(
        answer.json()["message"],
        Value::Null,
        "the page shows the move itself"
    );
    // A hint names a move; giving up ends the game, and its page is gone.
    let game = my_turn(&app, &mut ann, &token).await;
    let hint = ann.act(&app, &token, json!({ "action": "hint" })).await;
    assert_eq!(hint.status, StatusCode::OK, "{hint:?}");
    let hinted = hint.json()["hint"]["cell"].as_str().map(str::to_string);
    let cells: Vec<&str> = game["view"]["board"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        hinted.is_some_and(|cell| cells.contains(&cell.as_str())),
        "{hint:?}"
    );
    assert!(hint.json()["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
    let answer = ann.act(&app, &token, json!({ "action": "forfeit" })).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    // The running table is gone (kept as a replay only where a store keeps finished games).
    let gone = ann.get(&app, &format!("/api/g/{token}")).await;
    assert!(
        gone.status == StatusCode::NOT_FOUND || gone.json()["replay"] == true,
        "{gone:?}"
    );
}

/// `/api/me`: no name before one is chosen; a name sets the guest's cookies (`HttpOnly`,
/// `SameSite=Lax`) and is shown; a bad name or body is 400 and sets nothing; the language follows
/// `?lang=`, the cookie, the browser.
#[tokio::test]
async fn me_tells_and_sets_the_guests_name() {
    let (app, _tables) = app();
    let mut browser = Browser::default();
    let me = browser.get(&app, "/api/me").await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.content_type, "application/json");
    assert_eq!(
        me.json(),
        json!({ "name": null, "local": true, "lang": "en" })
    );
    let de = browser.get(&app, "/api/me?lang=de").await;
    assert_eq!(de.json()["lang"], "de");
    let browser_lang = browser
        .ask(
            &app,
            Method::GET,
            "/api/me",
            None,
            &[("accept-language", "nb-NO")],
        )
        .await;
    assert_eq!(browser_lang.json()["lang"], "no");
    for (body, key) in [
        (json!({ "name": "" }), "web-api-bad-name"),
        (json!({ "name": "a\nb" }), "web-api-bad-name"),
        (json!({ "name": "x".repeat(33) }), "web-api-bad-name"),
        (json!({ "nom": "Ann" }), "web-api-unreadable"),
        (json!([1, 2]), "web-api-unreadable"),
    ] {
        let answer = browser.post(&app, "/api/me", body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(answer.error(), crate::i18n::tr(crate::i18n::Lang::En, key));
        assert!(answer.cookies.is_empty(), "{answer:?}");
    }
    let set = browser
        .post(&app, "/api/me?lang=no", json!({ "name": " Ann <b>x</b> " }))
        .await;
    assert_eq!(set.status, StatusCode::OK, "{set:?}");
    assert_eq!(set.json()["name"], "Ann <b>x</b>");
    assert_eq!(set.cookies.len(), 2, "{set:?}");
    for cookie in &set.cookies {
        assert!(cookie.contains("HttpOnly; SameSite=Lax"), "{cookie}");
        assert!(!cookie.contains("Secure"), "plain http: {cookie}");
    }
    let me = browser.get(&app, "/api/me").await;
    assert_eq!(me.json()["name"], "Ann <b>x</b>");
    // A new name keeps the same guest.
    let guest = browser.cookies[0].clone();
    browser.post(&app, "/api/me", json!({ "name": "Bo" })).await;
    assert!(browser.cookies.contains(&guest), "{:?}", browser.cookies);
    assert_eq!(browser.get(&app, "/api/me").await.json()["name"], "Bo");
}

/// A state-changing request needs `X-Sequence: 1` and, with an `Origin`, this host's: otherwise 403
/// in the asker's language, and nothing is set.
#[tokio::test]
async fn a_post_from_another_site_is_refused() {
    let (app, _tables) = app();
    let mut browser = Browser::default();
    let body = Some(json!({ "name": "Ann" }));
    let bare = browser
        .ask(&app, Method::POST, "/api/me?lang=de", body.clone(), &[])
        .await;
    assert_eq!(bare.status, StatusCode::FORBIDDEN, "{bare:?}");
    assert_eq!(
        bare.error(),
        crate::i18n::tr(crate::i18n::Lang::De, "web-api-forbidden")
    );
    let elsewhere = browser
        .ask(
            &app,
            Method::POST,
            "/api/me",
            body.clone(),
            &[
                ("x-sequence", "1"),
                ("host", "127.0.0.1:8080"),
                ("origin", "https://evil.example"),
            ],
        )
        .await;
    assert_eq!(elsewhere.status, StatusCode::FORBIDDEN);
    assert!(elsewhere.cookies.is_empty());
    let same = browser
        .ask(
            &app,
            Method::POST,
            "/api/me",
            body,
            &[
                ("x-sequence", "1"),
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:8080"),
            ],
        )
        .await;
    assert_eq!(same.status, StatusCode::OK, "{same:?}");
    let games = browser
        .ask(&app, Method::POST, "/api/games", Some(json!({})), &[])
        .await;
    assert_eq!(games.status, StatusCode::FORBIDDEN);
}

/// Opening a game: a name first (401), a readable request (400), options the service accepts (409
/// with its reason), and only where local play is on (404).
#[tokio::test]
async fn opening_a_game_is_checked() {
    let (app, tables) = app();
    let mut stranger = Browser::default();
    let answer = stranger.post(&app, "/api/games", json!({})).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{answer:?}");
    let mut ann = Browser::named(&app, "Ann").await;
    for body in [
        json!({ "variant": "chess" }),
        json!({ "options": { "nope": true } }),
        json!({ "teams": "two" }),
        json!("classic"),
    ] {
        let answer = ann.post(&app, "/api/games", body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}: {answer:?}");
        assert_eq!(
            answer.error(),
            crate::i18n::tr(crate::i18n::Lang::En, "web-api-unreadable")
        );
    }
    for body in [json!({ "series": 4 }), json!({ "turn_time": 1 })] {
        let answer = ann.post(&app, "/api/games", body.clone()).await;
        assert_eq!(answer.status, StatusCode::CONFLICT, "{body}: {answer:?}");
        assert!(!answer.error().contains('`'), "{answer:?}");
    }
    assert_eq!(tables.len(), 0, "nothing opened");
    let opened = ann
        .post(
            &app,
            "/api/games",
            json!({ "variant": "dice", "king_of_the_board": false, "teams": null, "series": 3, "turn_time": 60 }),
        )
        .await;
    let token = opened.created();
    let game = ann.view(&app, &token).await;
    assert_eq!(game["token"], token.as_str());
    assert_eq!(game["replay"], false);
    let view = &game["view"];
    assert_eq!(view["phase"], "lobby");
    assert_eq!(view["game"]["variant"], "dice");
    assert_eq!(view["game"]["rated"], false, "casual");
    assert_eq!(view["game"]["turn_seconds"], 60);
    assert_eq!(view["seats"][0]["name"], "Ann", "the host is seated");
    // A friend with the link joins.
    let mut bo = Browser::named(&app, "Bo").await;
    let joined = bo.act(&app, &token, json!({ "action": "join" })).await;
    assert_eq!(joined.status, StatusCode::OK, "{joined:?}");
    let seats = &ann.view(&app, &token).await["view"]["seats"];
    assert_eq!(seats[1]["name"], "Bo", "{seats}");
    let again = bo.act(&app, &token, json!({ "action": "join" })).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{again:?}");
    assert_eq!(again.error(), "You have already joined this game.");
    // Only the host starts; the host may stop the lobby.
    let begun = bo.act(&app, &token, json!({ "action": "begin" })).await;
    assert_eq!(begun.status, StatusCode::CONFLICT, "{begun:?}");
    assert_eq!(
        begun.error(),
        "Only the host (Ann) or members who may manage messages can do that."
    );
    let left = bo.act(&app, &token, json!({ "action": "leave" })).await;
    assert_eq!(left.status, StatusCode::OK, "{left:?}");
    let seats = &ann.view(&app, &token).await["view"]["seats"];
    assert_eq!(seats.as_array().map(Vec::len), Some(1), "{seats}");
    let stopped = ann.act(&app, &token, json!({ "action": "stop" })).await;
    assert_eq!(stopped.status, StatusCode::OK, "{stopped:?}");
    assert_eq!(
        ann.get(&app, &format!("/api/g/{token}")).await.status,
        StatusCode::NOT_FOUND
    );
    // King of the Board.
    let king = ann
        .post(&app, "/api/games", json!({ "king_of_the_board": true }))
        .await;
    let token = king.created();
    let game = ann.view(&app, &token).await;
    assert_eq!(game["view"]["game"]["king_of_the_board"], true, "{game}");
    // Without local play (a Discord bot with `[web] listen` only): no games opened here.
    let config =
        BotConfig::from_toml("token = \"MTIz.abc.def\"\n[web]\nlisten = \"127.0.0.1:0\"\n")
            .unwrap();
    let (watching, _tables) = app_with(&config, Limiter::default());
    let mut ann = Browser::named(&watching, "Ann").await;
    assert_eq!(ann.get(&watching, "/api/me").await.json()["local"], false);
    let answer = ann.post(&watching, "/api/games", json!({})).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{answer:?}");
}

/// Every bad `act` is a 4xx with a reason and changes nothing: an unknown token (404), no name
/// (401), an unreadable body or unknown action, a move without its turn, a card or cell that is none
/// (400); a player not seated, or not to move (409, the service's refusal in plain words).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_actions_are_refused_and_change_nothing() {
    let (app, _tables) = app();
    let mut ann = Browser::named(&app, "Ann").await;
    let token = game_against_easy(&app, &mut ann).await;
    let game = my_turn(&app, &mut ann, &token).await;
    let before = game["view"]["board"].clone();
    let turn = game["view"]["board"]["turn"].clone();
    let unknown = ann
        .act(&app, "nosuchtoken", json!({ "action": "begin" }))
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(!unknown.error().is_empty());
    let mut stranger = Browser::default();
    let anonymous = stranger
        .act(&app, &token, json!({ "action": "join" }))
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let en = |key: &str| crate::i18n::tr(crate::i18n::Lang::En, key);
    for (body, expected) in [
        (
            json!({ "action": "dance" }),
            "There is no action called “dance”.".to_string(),
        ),
        (json!({ "turn": 1 }), en("web-api-unreadable")),
        (
            json!({ "action": "play", "extra": 1 }),
            en("web-api-unreadable"),
        ),
        (
            json!({ "action": "play", "turn": -1, "card": "7H", "cell": "D6" }),
            en("web-api-unreadable"),
        ),
        (
            json!({ "action": "add_bot", "level": "godlike" }),
            en("web-api-unreadable"),
        ),
        (
            json!({ "action": "play", "card": "7H", "cell": "D6" }),
            en("web-api-turn-needed"),
        ),
        (
            json!({ "action": "play", "turn": turn, "card": "7H" }),
            en("web-api-cell-needed"),
        ),
        (
            json!({ "action": "play", "turn": turn, "cell": "D6" }),
            en("web-api-card-needed"),
        ),
        (
            json!({ "action": "exchange", "turn": turn }),
            en("web-api-card-needed"),
        ),
        (
            json!({ "action": "play", "turn": turn, "card": "ZZ", "cell": "D6" }),
            "ZZ is not a card of this game.".into(),
        ),
        (
            json!({ "action": "play", "turn": turn, "card": "7H", "cell": "K1" }),
            "K1 is not a cell of this board.".into(),
        ),
        (
            json!({ "action": "play", "turn": turn, "card": "7H", "cell": "d6" }),
            "d6 is not a cell of this board.".into(),
        ),
    ] {
        let answer = ann.act(&app, &token, body.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}: {answer:?}");
        assert_eq!(answer.error(), expected, "{body}");
    }
    let empty = ann
        .ask(
            &app,
            Method::POST,
            &format!("/api/g/{token}/act"),
            None,
            &[("x-sequence", "1")],
        )
        .await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST);
    // Bo is not seated: his move is refused by the service.
    let mut bo = Browser::named(&app, "Bo").await;
    let mut move_of_ann = a_move(&game["view"]);
    move_of_ann["turn"] = turn.clone();
    let answer = bo.act(&app, &token, move_of_ann).await;
    assert_eq!(answer.status, StatusCode::CONFLICT, "{answer:?}");
    // Bo sees the game as a watcher: no hand.
    let watched = bo.view(&app, &token).await;
    assert!(watched["view"].get("you").is_none(), "{watched}");
    // Bo may not start or stop Ann's game either.
    let answer = bo.act(&app, &token, json!({ "action": "stop" })).await;
    assert_eq!(answer.status, StatusCode::CONFLICT, "{answer:?}");
    let after = ann.view(&app, &token).await;
    assert_eq!(after["view"]["board"], before, "nothing changed");
    assert_eq!(after["view"]["phase"], "playing");

    // Two people: the one not to move is refused, in plain words naming the other.
    let opened = ann.post(&app, "/api/games", json!({})).await;
    let token = opened.json()["token"].as_str().unwrap().to_string();
    let joined = bo.act(&app, &token, json!({ "action": "join" })).await;
    assert_eq!(joined.status, StatusCode::OK, "{joined:?}");
    let begun = ann.act(&app, &token, json!({ "action": "begin" })).await;
    assert_eq!(begun.status, StatusCode::OK, "{begun:?}");
    let game = ann.view(&app, &token).await;
    let (waiting, to_move) = match game["view"]["you"]["your_turn"] == json!(true) {
        true => (&mut bo, "Ann"),
        false => (&mut ann, "Bo"),
    };
    let view = waiting.view(&app, &token).await["view"].clone();
    let before = view["board"].clone();
    let mut played = a_move(&view);
    played["turn"] = view["board"]["turn"].clone();
    let answer = waiting.act(&app, &token, played).await;
    assert_eq!(answer.status, StatusCode::CONFLICT, "{answer:?}");
    let refusal = answer.error();
    assert!(
        refusal.contains(&format!("it is {to_move}'s turn")),
        "{refusal}"
    );
    for markup in ["<@", "**", "`"] {
        assert!(!refusal.contains(markup), "{refusal}");
    }
    assert_eq!(waiting.view(&app, &token).await["view"]["board"], before);
}

/// The other routes: `/g/{token}` is the page for a known game and a plain 404 page otherwise; the
/// live channel wants a WebSocket (400) of a known game (404); an unknown API path is 404 in JSON,
/// another method 405 in JSON; before the tables are open the API answers 503.
#[tokio::test]
async fn the_page_the_live_channel_and_unknown_addresses() {
    let (app, _tables) = app();
    let mut ann = Browser::named(&app, "Ann").await;
    let opened = ann.post(&app, "/api/games", json!({})).await;
    let token = opened.json()["token"].as_str().unwrap().to_string();
    let page = ann.get(&app, &format!("/g/{token}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.content_type.starts_with("text/html"), "{page:?}");
    let missing = ann.get(&app, "/g/nosuchtoken").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.content_type.starts_with("text/html"), "{missing:?}");
    let live = ann.get(&app, &format!("/api/g/{token}/live")).await;
    assert_eq!(live.status, StatusCode::BAD_REQUEST, "{live:?}");
    assert_eq!(
        live.error(),
        crate::i18n::tr(crate::i18n::Lang::En, "web-api-not-live")
    );
    let live = ann.get(&app, "/api/g/nosuchtoken/live").await;
    assert_eq!(live.status, StatusCode::NOT_FOUND);
    let game = ann.get(&app, "/api/g/nosuchtoken?lang=no").await;
    assert_eq!(game.status, StatusCode::NOT_FOUND);
    assert_eq!(
        game.error(),
        crate::i18n::tr(crate::i18n::Lang::No, "web-api-not-found")
    );
    for path in ["/api/nothing", "/api/g/x/y/z"] {
        let answer = ann.get(&app, path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!answer.error().is_empty());
    }
    for (method, path) in [
        (Method::DELETE, "/api/me".to_string()),
        (Method::GET, "/api/games".to_string()),
        (Method::GET, format!("/api/g/{token}/act")),
        (Method::PUT, format!("/api/g/{token}")),
    ] {
        let answer = ann
            .ask(&app, method.clone(), &path, None, &[("x-sequence", "1")])
            .await;
        assert_eq!(
            answer.status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        assert_eq!(
            answer.error(),
            crate::i18n::tr(crate::i18n::Lang::En, "web-api-method")
        );
    }
    // Before the tables are open.
    let web = Arc::new(Web::new(&BotConfig::default()));
    let starting = crate::app::http::router([web as Arc<dyn Site>]);
    let answer = ann.get(&starting, &format!("/api/g/{token}")).await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        answer.error(),
        crate::i18n::tr(crate::i18n::Lang::En, "web-api-starting")
    );
}

/// Past its burst an address gets 429 (with `Retry-After`) on every route of the pages, while the
/// health routes on the same server still answer.
#[tokio::test]
async fn an_address_past_its_limit_gets_429_but_health_checks_answer() {
    let (app, _tables) = app_with(&BotConfig::default(), Limiter::new(0.001, 3.0));
    let mut browser = Browser::default();
    for _ in 0..3 {
        assert_eq!(browser.get(&app, "/api/me").await.status, StatusCode::OK);
    }
    for path in ["/api/me", "/g/x", "/"] {
        let answer = browser.get(&app, path).await;
        assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{path}");
        assert_eq!(
            answer.error(),
            crate::i18n::tr(crate::i18n::Lang::En, "web-api-too-many")
        );
    }
    for path in ["/healthz", "/readyz", "/metrics"] {
        let answer = browser.get(&app, path).await;
        assert_ne!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{path}");
    }
}

/// Sequence Dice through the API: a roll on the turn, then a chip placed (or removed) on the cell the
/// hint names, each a move with its turn; a second roll in the same turn throws nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dice_is_rolled_then_placed() {
    let (app, _tables) = app();
    let mut ann = Browser::named(&app, "Ann").await;
    let opened = ann
        .post(&app, "/api/games", json!({ "variant": "dice" }))
        .await;
    let token = opened.created();
    for body in [
        json!({ "action": "add_bot", "level": "easy" }),
        json!({ "action": "begin" }),
    ] {
        let answer = ann.act(&app, &token, body).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    }
    for _ in 0..3 {
        let game = my_turn(&app, &mut ann, &token).await;
        let turn = game["view"]["board"]["turn"].clone();
        let rolled = ann
            .act(&app, &token, json!({ "action": "roll", "turn": turn }))
            .await;
        assert_eq!(rolled.status, StatusCode::OK, "{rolled:?}");
        let game = ann.view(&app, &token).await;
        if game["view"]["board"]["roll"].is_null() {
            // A roll with nowhere to go passes the turn.
            continue;
        }
        // Rolling again in the same turn shows the same roll: the dice are not thrown twice.
        let again = ann
            .act(&app, &token, json!({ "action": "roll", "turn": turn }))
            .await;
        assert_eq!(again.status, StatusCode::OK, "{again:?}");
        let seen = ann.view(&app, &token).await;
        assert_eq!(seen["view"]["board"]["roll"], game["view"]["board"]["roll"]);
        let hint = ann.act(&app, &token, json!({ "action": "hint" })).await;
        assert_eq!(hint.status, StatusCode::OK, "{hint:?}");
        let Some(cell) = hint.json()["hint"]["cell"].as_str().map(str::to_string) else {
            // Nothing to place: the roll passes the turn.
            continue;
        };
        let placed = ann
            .act(
                &app,
                &token,
                json!({ "action": "play", "turn": turn, "cell": cell }),
            )
            .await;
        assert_eq!(placed.status, StatusCode::OK, "{placed:?}");
        let board = &ann.view(&app, &token).await["view"]["board"];
        assert!(board["turn"].as_u64() > turn.as_u64(), "{board}");
    }
}

/// A finished game's page opens its rematch, as the final message's Rematch button does: for one
/// of its players, the answer leads to the new lobby's own page (a new token), with the computer
/// seated again; someone who did not play it is refused and nothing opens; a token that names no
/// game is 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_page_opens_its_rematch_for_its_players() {
    let (app, tables) = app();
    let mut ann = Browser::named(&app, "Ann").await;
    let mut bob = Browser::named(&app, "Bob").await;
    let token = game_against_easy(&app, &mut ann).await;
    my_turn(&app, &mut ann, &token).await;
    let answer = ann.act(&app, &token, json!({ "action": "forfeit" })).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    assert_eq!(
        tables.channel_of_web_token(&token),
        None,
        "the game is over"
    );

    let refused = bob.act(&app, &token, json!({ "action": "rematch" })).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{refused:?}");
    assert!(!refused.error().is_empty());
    assert_eq!(tables.len(), 0, "nothing opened");
    let unknown = "0123456789abcdef0123456789abcdef";
    let nothing = ann.act(&app, unknown, json!({ "action": "rematch" })).await;
    assert_eq!(nothing.status, StatusCode::NOT_FOUND, "{nothing:?}");
    // Only a rematch is asked of a finished game's page.
    let stale = ann.act(&app, &token, json!({ "action": "join" })).await;
    assert_eq!(stale.status, StatusCode::NOT_FOUND, "{stale:?}");

    let answer = ann.act(&app, &token, json!({ "action": "rematch" })).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    let url = answer.json()["url"].as_str().expect("a url").to_string();
    let new = url.strip_prefix("/g/").expect("a game's page").to_string();
    assert_ne!(new, token);
    let lobby = ann.view(&app, &new).await;
    assert_eq!(lobby["view"]["phase"], "lobby");
    assert_eq!(lobby["view"]["host"], 0);
    let kinds: Vec<&str> = lobby["view"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["person", "computer"]);
    // Asked again, the same lobby: no second one.
    let again = ann.act(&app, &token, json!({ "action": "rematch" })).await;
    assert_eq!(tables.len(), 1, "{again:?}");
}

/// The service with a store keeping one finished rated classic game of server 7 (Ann won against
/// Bob `<b>`, its replay under `replay_token`), and the router as [`app_with`] builds it.
fn app_with_a_server(replay_token: &str) -> (Router, Arc<Tables>) {
    use crate::engine::{Config, Options, Record, Variant};
    use crate::store::{FinishedGame, PlayerResult, SqliteStore, Store};
    let store = Arc::new(SqliteStore::open_in_memory().expect("store"));
    let config = Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
    let record = Record::random_game(config, 5);
    let seat = |user_id, name: &str, team, won| PlayerResult {
        user_id,
        name: name.to_string(),
        team,
        won,
        sequences: u32::from(won) * 2,
        bot_level: None,
        gave_up: false,
    };
    store
        .finish_game(&FinishedGame {
            guild_id: Some(7),
            channel_id: 70,
            variant: "classic".into(),
            record_json: serde_json::to_string(&record).expect("json"),
            finished_at: 1_700_000_000_000,
            started_at: None,
            players: vec![
                seat(1_000_001, "Ann", 0, true),
                seat(1_000_002, "Bob <b>", 1, false),
            ],
            rated: Some(true),
            aborted: false,
            web_token: Some(replay_token.to_string()),
        })
        .expect("kept");
    let tables = Arc::new(
        Tables::new(BotConfig::default().settings(), Arc::new(RandomPicker)).with_store(store),
    );
    let web = Arc::new(Web::new(&BotConfig::default()).with_limiter(Limiter::new(1000.0, 1000.0)));
    web.open(&tables);
    let router = crate::app::http::router([web as Arc<dyn Site>]);
    (router, tables)
}

/// An admin of server 7 turns its page on or off.
fn server_page(tables: &Tables, on: bool) {
    use crate::service::{Actor, ChannelId, Command, GuildId, ServerSettings, SettingsRequest};
    use crate::service::{Request as Asked, Timestamp, UserId};
    let reply = tables.handle(
        Asked {
            guild: Some(GuildId(7)),
            channel: ChannelId(70),
            actor: Actor {
                user: UserId(1_000_001),
                name: "Ann".into(),
                can_manage: true,
                can_manage_guild: true,
            },
            command: Command::Settings(SettingsRequest {
                changes: ServerSettings {
                    web_page: Some(on),
                    ..ServerSettings::default()
                },
                reset: false,
            }),
        },
        Timestamp::now(),
    );
    assert!(!reply.is_refusal(), "{reply:?}");
}

#[tokio::test]
async fn a_servers_page_answers_while_it_is_on_and_404_once_turned_off() {
    let replay = "00112233445566778899aabbccddeeff";
    let (app, tables) = app_with_a_server(replay);
    let mut browser = Browser::default();
    let guessed = format!("{:016x}{}", 7, "ab".repeat(16));
    // Off by default: nothing answers, not even a guess shaped like a token.
    for path in [
        format!("/api/s/{guessed}"),
        "/api/s/nope".into(),
        "/api/s/".into(),
    ] {
        let answer = browser.get(&app, &path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}: {answer:?}");
        assert!(!answer.error().is_empty());
    }
    let answer = browser.get(&app, &format!("/s/{guessed}?lang=de")).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(answer.content_type.starts_with("text/html"), "{answer:?}");

    server_page(&tables, true);
    let token = tables
        .server_settings(Some(crate::service::GuildId(7)))
        .web_page_token
        .expect("a token");
    let page = browser.get(&app, &format!("/s/{token}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.content_type.starts_with("text/html"), "{page:?}");
    let answer = browser.get(&app, &format!("/api/s/{token}")).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    let json = answer.json();
    assert_eq!(json["name"], Value::Null);
    let board = json["leaderboard"].as_array().expect("a leaderboard");
    assert_eq!(board.len(), 2, "{json}");
    assert_eq!(board[0]["rank"], 1);
    assert_eq!(board[0]["name"], "Ann");
    assert_eq!(board[0]["wins"], 1);
    assert_eq!(board[1]["name"], "Bob <b>", "names are text");
    for key in [
        "rating",
        "games",
        "sequences",
        "best_streak",
        "series_played",
        "achievements",
    ] {
        assert!(board[0][key].is_number(), "{key}: {json}");
    }
    let games = json["games"].as_array().expect("games");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["variant"], "classic");
    assert_eq!(games[0]["finished_at"], 1_700_000_000);
    assert_eq!(games[0]["replay"], format!("/g/{replay}"));
    assert_eq!(games[0]["players"][0]["won"], true);
    assert!(
        !answer.text.contains("1000001") && !answer.text.contains("hand"),
        "{}",
        answer.text
    );
    // The replay the page links to answers.
    let replayed = browser.get(&app, &format!("/api/g/{replay}/replay")).await;
    assert_eq!(replayed.status, StatusCode::OK);

    // Turned off while the page is open: its next request finds nothing.
    server_page(&tables, false);
    let answer = browser.get(&app, &format!("/api/s/{token}?lang=no")).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(answer.error().contains("serverside"), "{answer:?}");
    let page = browser.get(&app, &format!("/s/{token}")).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    // On again: a new link; the old one stays dead.
    server_page(&tables, true);
    let answer = browser.get(&app, &format!("/api/s/{token}")).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    // Only GET.
    let answer = browser
        .post(&app, &format!("/api/s/{token}"), json!({}))
        .await;
    assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED);
}

/// Issue 47: a guest of the pages only watches a table that is not a local game (one opened in a
/// Discord channel): they see it, but joining or any other action is refused with 403 in their
/// language, and nothing changes. A local game stays theirs to play.
#[tokio::test]
async fn a_guest_only_watches_a_table_played_in_discord() {
    use crate::service::{Actor, ChannelId, Command, FaceId, Request as Asked, UserId};
    let (app, tables) = app();
    let channel = ChannelId(555);
    let start = Asked {
        guild: None,
        channel,
        actor: Actor {
            user: UserId(101),
            name: "Ann".into(),
            can_manage: false,
            can_manage_guild: false,
        },
        command: Command::Start {
            variant: crate::engine::Variant::Classic,
            teams: None,
            options: crate::engine::Options::default(),
            rated: Some(false),
            turn_time: None,
            series: None,
        },
    };
    let (reply, pending) = tables.serve(start, FaceId::Discord).await;
    drop(pending);
    assert!(!reply.is_refusal(), "{reply:?}");
    let token = tables.web_token(channel).expect("a token");
    let mut bo = Browser::named(&app, "Bo").await;
    let watched = bo.view(&app, &token).await;
    assert_eq!(watched["view"]["phase"], "lobby");
    assert!(watched["view"].get("you").is_none(), "{watched}");
    let seats = watched["view"]["seats"].clone();
    for action in ["join", "leave", "add_bot", "begin", "cancel", "hint"] {
        let answer = bo.act(&app, &token, json!({ "action": action })).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{action}: {answer:?}");
        assert_eq!(
            answer.error(),
            "This game is played in Discord: watch it here, join it there."
        );
    }
    let german = bo
        .post(
            &app,
            &format!("/api/g/{token}/act?lang=de"),
            json!({ "action": "join" }),
        )
        .await;
    assert_eq!(german.status, StatusCode::FORBIDDEN);
    assert_eq!(
        german.error(),
        crate::i18n::tr(crate::i18n::Lang::De, "web-api-watch-only")
    );
    // Without a name it is the same refusal (not "choose a name").
    let mut nameless = Browser::default();
    let answer = nameless
        .act(&app, &token, json!({ "action": "join" }))
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{answer:?}");
    assert_eq!(bo.view(&app, &token).await["view"]["seats"], seats);
    let table = tables.snapshot(channel).expect("the table");
    assert!(
        matches!(&table.state, crate::service::State::Lobby(lobby) if lobby.seats.len() == 1),
        "nobody joined"
    );
    // The guest's own game is theirs to play.
    let opened = bo.post(&app, "/api/games", json!({})).await;
    let own = opened.json()["token"].as_str().unwrap().to_string();
    let added = bo
        .act(&app, &own, json!({ "action": "add_bot", "level": "easy" }))
        .await;
    assert_eq!(added.status, StatusCode::OK, "{added:?}");
}

/// Each game of a series has a page of its own: the page of a game that ended while its series goes
/// on leads to the game played now (`next`; without a store nothing else is kept of it), whose view
/// names its own page; Next game is pressed there. A token that names no game is still 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_earlier_game_of_a_series_leads_to_the_game_played_now() {
    let (app, tables) = app();
    let mut ann = Browser::named(&app, "Ann").await;
    let opened = ann
        .post(
            &app,
            "/api/games",
            json!({ "variant": "classic", "series": 3 }),
        )
        .await;
    let first = opened.created();
    let added = ann
        .act(
            &app,
            &first,
            json!({ "action": "add_bot", "level": "easy" }),
        )
        .await;
    assert_eq!(added.status, StatusCode::OK, "{added:?}");
    let begun = ann.act(&app, &first, json!({ "action": "begin" })).await;
    assert_eq!(begun.status, StatusCode::OK, "{begun:?}");
    let playing = my_turn(&app, &mut ann, &first).await;
    assert_eq!(
        playing["view"]["token"],
        json!(first),
        "the view names its page"
    );
    let answer = ann.act(&app, &first, json!({ "action": "forfeit" })).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    assert_eq!(tables.channel_of_web_token(&first), None, "game 1 is over");

    let earlier = ann.view(&app, &first).await;
    assert_eq!(earlier["replay"], false, "{earlier}");
    assert_eq!(earlier["view"], Value::Null, "{earlier}");
    let second = earlier["next"]
        .as_str()
        .expect("the game played now")
        .to_string();
    assert_ne!(second, first);
    let now = ann.view(&app, &second).await;
    assert_eq!(now["view"]["phase"], "between_games", "{now}");
    assert_eq!(now["view"]["token"], json!(second));
    assert_eq!(now.get("next"), None, "{now}");
    // A guest who opens the earlier page is led on too.
    let mut guest = Browser::default();
    assert_eq!(guest.view(&app, &first).await["next"], json!(second));

    let dealt = ann
        .act(&app, &second, json!({ "action": "next_game" }))
        .await;
    assert_eq!(dealt.status, StatusCode::OK, "{dealt:?}");
    let game = ann.view(&app, &second).await;
    assert_eq!(game["view"]["phase"], "playing", "{game}");
    // Nothing is done through the earlier page.
    let stale = ann.act(&app, &first, json!({ "action": "forfeit" })).await;
    assert_eq!(stale.status, StatusCode::NOT_FOUND, "{stale:?}");
    let unknown = ann
        .get(&app, "/api/g/0123456789abcdef0123456789abcdef")
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{unknown:?}");
}

/// Keeps games in a store as [`StorePersist`] does, but once `gate` is shut, closing a table waits
/// until it opens again (its table's lock held all the while), after saying so in `closing`.
struct GatedClose {
    inner: crate::service::StorePersist,
    gate: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
    closing: std::sync::atomic::AtomicBool,
}

impl crate::service::Persist for GatedClose {
    fn save(&self, table: &crate::service::Table) -> Result<(), crate::service::ServiceError> {
        self.inner.save(table)
    }
    fn close(
        &self,
        channel: crate::service::ChannelId,
        finished: Option<&crate::service::Table>,
    ) -> Result<Option<i64>, crate::service::ServiceError> {
        self.closing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let mut shut = self.gate.lock().unwrap_or_else(|e| e.into_inner());
        while *shut {
            shut = self.opened.wait(shut).unwrap_or_else(|e| e.into_inner());
        }
        drop(shut);
        self.inner.close(channel, finished)
    }
}

/// A page that asks for its game while the game is ending (found running, closed before its view was
/// taken) is answered with the replay, never with "there is no game at this address" (a CI failure:
/// the player's page asked right after the winning move).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_asking_while_its_game_ends_gets_the_replay() {
    use std::sync::atomic::Ordering;
    let store = Arc::new(crate::store::SqliteStore::open_in_memory().expect("store"));
    let gated = Arc::new(GatedClose {
        inner: crate::service::StorePersist::new(store.clone()),
        gate: std::sync::Mutex::new(false),
        opened: std::sync::Condvar::new(),
        closing: false.into(),
    });
    let tables = Arc::new(
        Tables::new(BotConfig::default().settings(), Arc::new(RandomPicker))
            .with_store(store)
            .with_persist(gated.clone()),
    );
    let web = Arc::new(Web::new(&BotConfig::default()).with_limiter(Limiter::new(1000.0, 1000.0)));
    web.open(&tables);
    tables.spawn_host(Duration::from_secs(1), Duration::ZERO);
    let app = crate::app::http::router([web as Arc<dyn Site>]);

    let mut ann = Browser::named(&app, "Ann").await;
    let mut wes = Browser::named(&app, "Wes").await;
    let token = game_against_easy(&app, &mut ann).await;
    my_turn(&app, &mut ann, &token).await;
    *gated.gate.lock().expect("the gate") = true;
    let forfeit = {
        let (app, token, mut ann) = (app.clone(), token.clone(), ann.clone());
        tokio::spawn(async move { ann.act(&app, &token, json!({ "action": "forfeit" })).await })
    };
    while !gated.closing.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Both ask while the game is being kept, the table's lock held: they find it running and wait.
    let asked: Vec<_> = [ann.clone(), wes.clone()]
        .into_iter()
        .map(|mut who| {
            let (app, token) = (app.clone(), token.clone());
            tokio::spawn(async move { who.get(&app, &format!("/api/g/{token}")).await })
        })
        .collect();
    // A blocking sleep: the runtime's workers may all be waiting for the table's lock, and its
    // timers with them.
    std::thread::sleep(Duration::from_millis(300));
    *gated.gate.lock().expect("the gate") = false;
    gated.opened.notify_all();
    let done = forfeit.await.expect("the forfeit");
    assert_eq!(done.status, StatusCode::OK, "{done:?}");
    for answer in asked {
        let answer = answer.await.expect("an answer");
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        assert_eq!(answer.json()["replay"], json!(true), "{answer:?}");
    }
    // And asked afterwards, the same.
    assert_eq!(wes.view(&app, &token).await["replay"], json!(true));
}
