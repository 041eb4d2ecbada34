//! Issue 47: the board inside Discord (the Activity) in real headless Chromium. Each browser window
//! plays Discord's side ([`Page::open_activity`]): a page on the bot's origin turned into the Activity's
//! parent, which loads the Activity page in an `<iframe>` with `frame_id`, `instance_id`, `channel_id`,
//! `guild_id` and `platform`, and answers the real Embedded App SDK's handshake (READY, AUTHORIZE with a
//! code the Discord stand-in issued for that user, AUTHENTICATE). The bot exchanges the code with the
//! stand-in, checks the user is in the stand-in's Activity instance and maps it to the channel's table.
//!
//! Two players sign in this way in two sessions and play a whole classic game by tapping (a card, then
//! a marked cell: two taps a move) while a third presses buttons in the chat through the stand-in;
//! every fetch answer and WebSocket message each page receives is kept (a wrapper installed before the
//! page's scripts) and must never hold another player's hand; a tap made on a page that had not yet
//! seen a press in the chat is refused politely and changes nothing; after the game a rematch is
//! followed by both pages, and one of them changes its language; one session is a phone 360 px wide,
//! whose picture is `activity.png`.
//!
//! Without Chromium and chromedriver the test prints a note and passes; with `CI` set it fails
//! instead. The picture goes to `target/tmp/web/`, or with `SEQUENCE_WRITE_EXAMPLES=1` to
//! `assets/examples/activity.png`.

use crate::support;

use std::time::{Duration, Instant};

use sequence_bot::engine::{BitIter, Card, CardEffect, Variant};
use serde_json::{json, Value};
use support::browser::{
    chips_of, fits_width, free_port, http_get, is_over, shows_result, ActivityLaunch, Browser,
    Page, WholeGame, PAGE_STEP,
};
use support::fake_discord::{FakeDiscord, FakeUser};
use support::table::{Dice, Mirror, PressStats, STEP};

/// How many turns (all players') a whole game may take before the test gives up on it.
const MOST_TURNS: usize = 400;

// ---- Helpers ----------------------------------------------------------------------------------------

/// One player's Activity window.
struct Player {
    page: Page,
    user: FakeUser,
}

/// Opens `user`'s Activity in `page` (launched in `channel` of `guild` as instance `instance`) and
/// waits until the page has signed in and drawn what it shows first.
async fn launch(
    page: &mut Page,
    fake: &FakeDiscord,
    base: &str,
    instance: &str,
    channel: u64,
    user: &FakeUser,
) {
    eprintln!("launch: {}", user.name);
    page.install_collector().await;
    // (The stand-in's state is locked once at a time: the guild first, then the codes.)
    let guild = fake.state().guild_of(channel);
    let codes = vec![fake.oauth_code(user), fake.oauth_code(user)];
    let launch = ActivityLaunch {
        application_id: fake.application_id(),
        frame_id: format!("frame-{}", user.id),
        instance_id: instance.to_string(),
        channel_id: channel,
        guild_id: Some(guild),
        user_id: user.id,
        username: user.name.clone(),
        global_name: user.name.clone(),
        codes,
    };
    page.open_activity(base, &launch).await;
    eprintln!("launch: {} in the frame", user.name);
    page.wait_ready().await;
    eprintln!("launch: {} ready", user.name);
    let seen = page
        .in_parent(async |parent| {
            parent
                .eval("return window.__sbParent.seen.join(' ');", vec![])
                .await
        })
        .await;
    let seen = seen.as_str().unwrap_or("");
    assert!(
        seen.starts_with("HANDSHAKE AUTHORIZE AUTHENTICATE"),
        "the SDK's sign-in as Discord's client sees it: {seen}\npage: {}",
        page.describe().await
    );
    let shown = page
        .eval(
            "return document.getElementById('error-view').hidden ? null : document.getElementById('error-text').textContent;",
            vec![],
        )
        .await;
    assert!(
        shown.is_null(),
        "the page signed in without an error: {shown}"
    );
}

/// The weight of the Activity page `page` loaded (its frame's document and every file of the bot's it
/// loaded but its API answers, as decoded; nothing was cached yet): the bytes and the files.
async fn page_weight(page: &Page) -> Value {
    page.eval(
        "const all = performance.getEntriesByType('resource');
         const nav = performance.getEntriesByType('navigation')[0];
         const own = all.filter(e => e.name.startsWith(location.origin) && !e.name.includes('/api/'));
         return {bytes: (nav ? nav.decodedBodySize : 0) + own.reduce((s, e) => s + e.decodedBodySize, 0),
                 files: own.map(e => [new URL(e.name).pathname, e.decodedBodySize])};",
        vec![],
    )
    .await
}

/// `GET /api/g/{token}` as a guest of its own (outside the browsers: nothing the pages receive).
async fn guest_view(base: &str, token: &str) -> Value {
    let (status, body) = http_get(&format!("{base}/api/g/{token}"))
        .await
        .unwrap_or_else(|e| panic!("GET /api/g/{token}: {e}"));
    assert_eq!(status, 200, "GET /api/g/{token}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn turn_of(answer: &Value) -> u64 {
    answer["view"]["board"]["turn"].as_u64().unwrap_or(0)
}

/// The seat of the player the view says is to move.
fn to_move(answer: &Value) -> Option<usize> {
    answer["view"]["seats"]
        .as_array()?
        .iter()
        .position(|s| s["to_move"] == json!(true))
}

/// The seat `page`'s player has (the seat its list marks "you").
async fn my_seat(page: &Page) -> Option<usize> {
    page.eval(
        "const i = [...document.querySelectorAll('#seats li')].findIndex(li => {
           const tags = li.querySelector('.tags');
           return !!tags && tags.textContent.split(' · ').includes('you');
         });
         return i < 0 ? null : i;",
        vec![],
    )
    .await
    .as_u64()
    .map(|i| i as usize)
}

/// Waits until `page` shows version `version` or later of the game (its own view).
async fn shows_version(page: &Page, version: u64) {
    page.wait_for(
        &format!("the page to show version {version}"),
        &format!("return Number(document.body.dataset.version || 0) >= {version};"),
        PAGE_STEP,
    )
    .await;
}

/// The board as `page` shows it, for choosing a move: each team's chips.
async fn mirror_of(page: &Page, teams: usize) -> Mirror {
    let mut mirror = Mirror::new(teams);
    for chip in page.chips().await {
        let Some((cell, team)) = chip.split_once(':') else {
            continue;
        };
        let (Some(cell), Ok(team)) = (mirror.layout.parse_cell(cell), team.parse::<usize>()) else {
            continue;
        };
        if let Some(bits) = mirror.chips.get_mut(team) {
            *bits |= cell.bit();
        }
    }
    mirror
}

/// What a player did with their taps.
#[derive(Debug)]
enum Tapped {
    /// A card and a cell: `taps` taps in all.
    Play { taps: usize },
    /// A dead card exchanged (card, Exchange): the turn goes on.
    Exchange,
}

/// Plays the turn of `page`'s player (of `team`, `teams` teams) by tapping: the best-looking card and
/// cell by the test's own judgment of the board the page shows. Two taps when the card's cells are
/// as the test expects: the card, then the cell (which sends the move at once).
async fn tap_a_move(page: &Page, team: usize, teams: usize) -> Tapped {
    let mirror = mirror_of(page, teams).await;
    let hand = page.hand().await;
    let width = mirror.layout.width;
    let mut ranked: Vec<(i64, String, String)> = Vec::new();
    for (code, dead) in &hand {
        if *dead {
            continue;
        }
        let Some(card) = Card::parse(code, Variant::Classic) else {
            continue;
        };
        let removing = card.effect() == CardEffect::Remove;
        for cell in BitIter(mirror.targets(team, card)) {
            let score = mirror.score(team, cell, removing);
            ranked.push((score, code.clone(), cell.name(width).to_string()));
        }
    }
    ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut taps = 0;
    let mut chosen: Option<String> = None;
    for (_, code, cell) in &ranked {
        if chosen.as_deref() != Some(code.as_str()) {
            page.click_card(code).await;
            taps += 1;
            chosen = Some(code.clone());
        }
        let marked = page.targets().await;
        if marked.contains(cell) {
            page.click_cell(cell).await;
            return Tapped::Play { taps: taps + 1 };
        }
        // The page marks other cells (a sequence the test's reckoning did not lock): its best one.
        if let Some(best) = marked.iter().max_by_key(|name| {
            mirror
                .layout
                .parse_cell(name)
                .map(|c| mirror.score(team, c, false))
                .unwrap_or(i64::MIN)
        }) {
            page.click_cell(best).await;
            return Tapped::Play { taps: taps + 1 };
        }
    }
    // No card has a cell: a dead card is exchanged (the card, then Exchange).
    let Some(dead) = hand
        .iter()
        .find(|(_, dead)| *dead)
        .map(|(code, _)| code.clone())
    else {
        panic!(
            "no move and no dead card: {hand:?}\n{}",
            page.describe().await
        );
    };
    page.click_card(&dead).await;
    page.action("exchange").await;
    Tapped::Exchange
}

/// Waits until the game has moved past `turn` (or is over), as a guest sees it: the answer.
async fn moved_past(base: &str, token: &str, turn: u64, what: &str) -> Value {
    let deadline = Instant::now() + PAGE_STEP;
    loop {
        let now = guest_view(base, token).await;
        if turn_of(&now) > turn || is_over(&now) {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: the game did not move on from turn {turn}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the chat's latest turn prompt asks `user` to move (after an Activity move the Discord
/// face posts it).
async fn prompt_asks(fake: &FakeDiscord, channel: u64, user: &FakeUser) {
    let id = user.id;
    fake.shared()
        .wait_for(STEP, "the chat's prompt for the player", &[channel], |s| {
            let prompt = s
                .messages_in(channel)
                .into_iter()
                .rev()
                .filter(|m| !m.is_ephemeral())
                .find(|m| support::table::play_button(m).is_some())?;
            (support::table::mover_of(prompt).ok() == Some(id)).then_some(())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Every JSON value in what `page` received (each fetch answer's body, each WebSocket message).
fn received_json(received: &[Value]) -> Vec<(String, Value)> {
    received
        .iter()
        .filter_map(|r| {
            let body = r["body"].as_str()?;
            let value: Value = serde_json::from_str(body).ok()?;
            Some((r["url"].as_str().unwrap_or("").to_string(), value))
        })
        .collect()
}

/// Checks that every hand in `value` is under a `you` of `seat`: the `(path, hand)` of each hand.
fn hands_in(value: &Value, path: &str, seat: usize, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let here = format!("{path}.{key}");
                if key == "hand" {
                    assert!(
                        path.ends_with(".you"),
                        "a hand outside the player's own `you`: {here} = {inner}"
                    );
                    found.push(here.clone());
                }
                if key == "you" && inner.is_object() {
                    assert_eq!(
                        inner["seat"].as_u64(),
                        Some(seat as u64),
                        "another seat's `you` was received: {inner}"
                    );
                }
                hands_in(inner, &here, seat, found);
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                hands_in(inner, &format!("{path}[{i}]"), seat, found);
            }
        }
        _ => {}
    }
}

// ---- The test ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_tap_a_whole_game_inside_discord_while_a_third_presses_buttons_in_the_chat() {
    let Some(browser) = Browser::start("activity_browser::a_whole_game_inside_discord").await
    else {
        return;
    };
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    // The app has Activities (and so Discord's entry point); the bot has the stand-in's client secret.
    let fake = FakeDiscord::start(support::fake_discord::Config::default())
        .await
        .expect("the stand-in");
    fake.enable_activities();
    let options = support::bot::BotOptions {
        guild_commands: false,
        extra_config: format!(
            "[web]\nlisten = \"127.0.0.1:{port}\"\npublic_url = \"{base}\"\n\n\
             [activity]\nclient_secret = {secret:?}\n",
            secret = fake.client_secret()
        ),
        ..support::bot::BotOptions::default()
    };
    let dir = tempfile::tempdir().expect("a folder for the bot");
    let bot = support::bot::BotProcess::spawn(&fake, dir.path(), &options);
    let h = support::bot::Harness { fake, bot, dir };
    h.wait_connected()
        .await
        .unwrap_or_else(|e| panic!("the bot connects: {e}"));
    let fake = &h.fake;
    eprintln!("the bot is connected");
    let ann = fake.add_user("ann");
    let ben = fake.add_user("ben");
    let cid = fake.add_user("cid");
    let channel = fake.add_channel("sequence-activity");
    let instance = fake.add_activity_instance(channel, &[&ann, &ben]);

    // Ann opens the Activity where no table is: the lobby form; she opens a lobby there.
    let mut ann_page = browser.open(1024, 800).await;
    launch(&mut ann_page, fake, &base, &instance, channel, &ann).await;
    // The page inside Discord loads the SDK besides the page's own files, all under /.proxy/.
    let weight = page_weight(&ann_page).await;
    eprintln!("the Activity page's weight: {weight}");
    let files = weight["files"].to_string();
    assert!(
        files.contains("/.proxy/assets/vendor/discord-embedded-app-sdk.js")
            && files.contains("/.proxy/assets/app.js"),
        "the page's files come from /.proxy/assets/: {files}"
    );
    assert!(
        weight["bytes"].as_u64().unwrap_or(u64::MAX) <= 300 * 1024,
        "the Activity page is over 300 KB: {weight}"
    );
    ann_page
        .wait_for(
            "the lobby form",
            "const f = document.querySelector('#new-game'); return !!(f && f.offsetParent);",
            PAGE_STEP,
        )
        .await;
    let skip = fake.messages_in(channel).len();
    ann_page.click("#new-game-submit").await;
    let lobby =
        support::table::posted_after(fake, channel, skip, "the lobby card in the chat", |m| {
            m.custom_ids().contains(&"sequence:join".to_string())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    ann_page
        .wait_for(
            "the lobby on Ann's page",
            "return !!document.querySelector('[data-action=begin]');",
            PAGE_STEP,
        )
        .await;
    // The channel's table, as the start's answer named it to Ann's page.
    let token = ann_page
        .received()
        .await
        .into_iter()
        .find(|r| {
            r["url"]
                .as_str()
                .is_some_and(|u| u.contains("/api/activity/start"))
        })
        .and_then(|r| serde_json::from_str::<Value>(r["body"].as_str()?).ok())
        .and_then(|answer| answer["token"].as_str().map(str::to_string))
        .expect("the start's answer names the table");

    // Ben, on a phone 360 px wide, opens the same instance: the channel's lobby, and joins it by a tap.
    let mut ben_page = browser.open_phone(360, 780).await;
    launch(&mut ben_page, fake, &base, &instance, channel, &ben).await;
    ben_page.action("join").await;
    // Cid joins in the chat with the lobby's button.
    let join = fake
        .click(&cid, lobby.id, "sequence:join")
        .expect("Cid's press");
    fake.wait_callback(&join, STEP).await.expect("the join");
    ann_page
        .wait_for(
            "three players in Ann's lobby",
            "return document.querySelectorAll('#seats li').length === 3;",
            PAGE_STEP,
        )
        .await;
    ann_page.action("begin").await;
    let deadline = Instant::now() + PAGE_STEP;
    while guest_view(&base, &token).await["view"]["phase"] != json!("playing") {
        assert!(Instant::now() < deadline, "the game did not start");
        tokio::time::sleep(Duration::from_millis(150)).await;
    }

    let players = [
        Player {
            page: ann_page,
            user: ann.clone(),
        },
        Player {
            page: ben_page,
            user: ben.clone(),
        },
    ];
    let mut seats = [None, None];
    for (i, p) in players.iter().enumerate() {
        shows_version(&p.page, 1).await;
        seats[i] = Some(
            p.page
                .wait_for(
                    "the player's seat",
                    "const i = [...document.querySelectorAll('#seats li')].findIndex(li => { \
                       const t = li.querySelector('.tags'); return !!t && t.textContent.split(' · ').includes('you'); }); \
                     return i < 0 ? null : String(i);",
                    PAGE_STEP,
                )
                .await
                .as_str()
                .and_then(|s| s.parse::<usize>().ok())
                .expect("a seat"),
        );
    }
    let seats = [seats[0].expect("Ann's seat"), seats[1].expect("Ben's seat")];
    assert_eq!(my_seat(&players[0].page).await, Some(seats[0]));

    let mut dice = Dice::new(47);
    let mut stats = PressStats::default();
    let mut activity_moves = 0;
    let mut two_tap_moves = 0;
    let mut exchanges = 0;
    let mut chat_turns = 0;
    let mut stale_checked = false;
    let mut pictured = false;
    let mut game = WholeGame::new(MOST_TURNS);
    let over = loop {
        let now = guest_view(&base, &token).await;
        if game.over(&now) {
            break now;
        }
        let teams = now["view"]["teams"].as_array().map(Vec::len).unwrap_or(3);
        let seat = to_move(&now).expect("somebody is to move");
        let turn = turn_of(&now);
        let version = now["version"].as_u64().unwrap_or(0);
        let team_of = |s: usize| now["view"]["seats"][s]["team"].as_u64().unwrap_or(0) as usize;
        match seats.iter().position(|&s| s == seat) {
            Some(i) if i == 0 && !stale_checked && activity_moves >= 2 => {
                // Ann's page has not yet seen it (its live messages held back) when she moves in
                // the chat; then she taps on the page: refused politely, nothing changes.
                stale_checked = true;
                let p = &players[0];
                shows_version(&p.page, version).await;
                p.page.hold_live(true).await;
                prompt_asks(fake, channel, &p.user).await;
                support::table::press_turn(
                    fake,
                    channel,
                    std::slice::from_ref(&p.user),
                    &cid,
                    &mut dice,
                    &mut stats,
                    false,
                )
                .await
                .unwrap_or_else(|e| panic!("Ann's move in the chat: {e}"));
                let after_chat = moved_past(&base, &token, turn, "Ann's chat move").await;
                let hand = p.page.hand().await;
                let tapped = p.page.tap_first_target(&hand).await;
                assert!(
                    tapped.is_some(),
                    "the stale page offered a move: {}",
                    p.page.describe().await
                );
                let said = p
                    .page
                    .wait_for(
                        "the refusal on the page",
                        "const m = document.querySelector('#message.bad'); return m ? m.textContent.trim() : '';",
                        PAGE_STEP,
                    )
                    .await;
                let said = said.as_str().unwrap_or("").to_string();
                let answered = p
                    .page
                    .received()
                    .await
                    .into_iter()
                    .rev()
                    .find(|r| {
                        r["url"]
                            .as_str()
                            .is_some_and(|u| u.contains("/act?") || u.ends_with("/act"))
                    })
                    .expect("the tap's answer");
                let status = answered["status"].as_u64().unwrap_or(0);
                assert!(
                    (400..500).contains(&status),
                    "a stale tap is refused (4xx): {answered}"
                );
                let error: Value = serde_json::from_str(answered["body"].as_str().unwrap_or(""))
                    .unwrap_or_default();
                assert_eq!(
                    error["error"].as_str(),
                    Some(said.as_str()),
                    "the page shows the bot's sentence"
                );
                assert!(
                    !said.is_empty()
                        && said.len() < 200
                        && !said.contains('{')
                        && !said.contains('\n'),
                    "one clear sentence: {said}"
                );
                let unchanged = guest_view(&base, &token).await;
                assert_eq!(
                    turn_of(&unchanged),
                    turn_of(&after_chat),
                    "the tap changed the game"
                );
                assert_eq!(
                    chips_of(&unchanged["view"]),
                    chips_of(&after_chat["view"]),
                    "the tap changed the board"
                );
                p.page.hold_live(false).await;
                chat_turns += 1;
                eprintln!("a stale tap was refused: {said}");
            }
            Some(i) => {
                let p = &players[i];
                shows_version(&p.page, version).await;
                p.page
                    .wait_for(
                        "the player's cards",
                        "return document.querySelectorAll('#hand [data-card]').length > 0;",
                        PAGE_STEP,
                    )
                    .await;
                if i == 1 && !pictured && activity_moves >= 6 {
                    // Ben's phone at his turn, a card chosen: the README's picture.
                    pictured = true;
                    fits_width(&p.page, 360).await;
                    picture(&p.page).await;
                }
                match tap_a_move(&p.page, team_of(seat), teams).await {
                    Tapped::Play { taps } => {
                        activity_moves += 1;
                        if taps == 2 {
                            two_tap_moves += 1;
                        }
                        moved_past(&base, &token, turn, "a tapped move").await;
                    }
                    Tapped::Exchange => {
                        exchanges += 1;
                        // The same player goes on with the new card.
                        tokio::time::sleep(Duration::from_millis(300)).await;
                    }
                }
            }
            None => {
                prompt_asks(fake, channel, &cid).await;
                support::table::press_turn(
                    fake,
                    channel,
                    std::slice::from_ref(&cid),
                    &ann,
                    &mut dice,
                    &mut stats,
                    false,
                )
                .await
                .unwrap_or_else(|e| {
                    panic!(
                        "Cid's turn in the chat: {e}\nbot log:\n{}",
                        h.bot.log_tail(30)
                    )
                });
                chat_turns += 1;
                moved_past(&base, &token, turn, "Cid's chat move").await;
            }
        }
    };
    assert!(stale_checked, "the stale tap was tried");
    assert!(pictured, "Ben's phone was pictured");
    assert!(activity_moves > 0 && chat_turns > 0, "both sides played");
    eprintln!(
        "activity game: {} turns, {activity_moves} moves tapped ({two_tap_moves} in two taps), \
         {exchanges} exchanges, {chat_turns} turns in the chat ({} picker steps)",
        game.turns, stats.updates
    );
    assert_eq!(
        two_tap_moves, activity_moves,
        "every tapped move took two taps (a card, a cell)"
    );

    // Both pages say how the game ended.
    for p in &players {
        shows_result(&p.page, &over).await;
        // The replay inside Discord, without a download (a plain link carries no session).
        p.page
            .wait_for(
                "the replay without a download link",
                "const box = document.getElementById('replay-box');
                 return !!box && !box.hidden && document.getElementById('record-download').hidden;",
                PAGE_STEP,
            )
            .await;
    }

    // Nobody received another's hand: every hand in everything each page received is in its own
    // `you`, and each page did receive its own hand and the live channel's messages.
    for (i, p) in players.iter().enumerate() {
        let received = p.page.received().await;
        let live = received.iter().filter(|r| r["kind"] == json!("ws")).count();
        let answers = received
            .iter()
            .filter(|r| r["kind"] == json!("fetch"))
            .count();
        assert!(
            live > 10 && answers > 3,
            "{} received little: {live} live messages, {answers} answers",
            p.user.name
        );
        let mut hands = Vec::new();
        for (url, value) in received_json(&received) {
            hands_in(&value, &url, seats[i], &mut hands);
        }
        assert!(
            !hands.is_empty(),
            "{} never received their own hand",
            p.user.name
        );
        let bytes: usize = received
            .iter()
            .map(|r| r["body"].as_str().map(str::len).unwrap_or(0))
            .sum();
        eprintln!(
            "{}: {live} live messages and {answers} answers received ({bytes} bytes), {} hands, all their own",
            p.user.name,
            hands.len()
        );
    }

    // Cid asks for the rematch in the chat: both pages follow the channel's new table (its lobby).
    let last = fake
        .shared()
        .wait_for(STEP, "the final message", &[channel], |st| {
            st.messages_in(channel)
                .into_iter()
                .rev()
                .find(|m| {
                    !m.is_ephemeral() && m.attachments.iter().any(|a| a.filename.ends_with(".json"))
                })
                .cloned()
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let rematch =
        support::table::button_id(&last, "sequence:rematch:").unwrap_or_else(|e| panic!("{e}"));
    let pressed = fake.click(&cid, last.id, &rematch).expect("Cid's press");
    fake.wait_callback(&pressed, STEP)
        .await
        .expect("the rematch");
    for p in &players {
        p.page
            .wait_for(
                "the rematch's lobby on the page",
                "const s = document.getElementById('status');
                 return document.body.dataset.ready === '1' && !!s && s.textContent.trim() === 'Waiting for players'
                   && document.getElementById('replay-box').hidden
                   && !!document.querySelector('[data-action=join], [data-action=leave], [data-action=begin]');",
                Duration::from_secs(30),
            )
            .await;
    }
    // The language menu inside Discord: Norwegian chosen on Ann's page, its own texts come in
    // Norwegian and the lobby is shown again.
    let ann_page = &players[0].page;
    ann_page.select("#lang-select", "no").await;
    ann_page
        .wait_for(
            "Ann's page in Norwegian, the lobby shown again",
            "const s = document.getElementById('status');
             return document.querySelector('[data-t=\"web-language\"]').textContent === 'Språk'
               && document.body.dataset.ready === '1' && !!s && s.textContent.trim() !== ''
               && !!document.querySelector('[data-action=join], [data-action=leave], [data-action=begin]');",
            PAGE_STEP,
        )
        .await;
    for p in players {
        p.page.close().await;
    }
}

/// The picture of `page`'s window (the whole Activity as Discord would show it) with its best card
/// chosen, the card then unchosen again (the picture's taps are no part of a move).
async fn picture(page: &Page) {
    for (code, dead) in page.hand().await {
        if dead {
            continue;
        }
        page.click_card(&code).await;
        if page.targets().await.is_empty() {
            page.click_card(&code).await;
            continue;
        }
        page.eval("window.scrollTo(0, 0); return true;", vec![])
            .await;
        page.in_parent(async |whole| whole.picture("activity").await)
            .await;
        page.click_card(&code).await;
        return;
    }
}
