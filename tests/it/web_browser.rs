//! Issue 46: the web page in a real browser. Headless Chromium (through chromedriver, see
//! `tests/support/browser.rs`) opens the pages of the real bot started without a Discord token and plays
//! on them by clicking what a person clicks: a card of `#hand`, a cell marked `.target`, `#confirm`. A
//! second browser session watches the same game; the page is tried 360 px wide, and in German; the bot
//! is restarted under an open page; the finished game is stepped through as a replay; a Discord game
//! (through the stand-in) is watched from its Watch link.
//!
//! Without Chromium and chromedriver the tests print a note and pass; with `CI` set they fail instead.
//! They save screenshots under `target/tmp/web/`; with `SEQUENCE_WRITE_EXAMPLES=1` the ones README
//! shows are written to `assets/examples/web-*.png` instead (docs/development.md, *Screenshots*).

use crate::support;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use sequence_bot::i18n::{self, Lang};
use serde_json::{json, Value};
use support::browser::{
    chips_of, fits_width, is_over, scratch_screenshot, shows_result, Browser, LocalBot,
    LocalOptions, Page, WholeGame, PAGE_STEP,
};

/// How many of the player's turns a whole game may take before the test gives up on it.
const MOST_TURNS: usize = 200;

/// Gives the guest of `page` the name `name` if the page asks for one (`#name-input`).
async fn name_if_asked(page: &Page, name: &str) {
    let asked = page
        .eval(
            "const e = document.querySelector('#name-input'); return !!(e && e.offsetParent);",
            vec![],
        )
        .await;
    if asked == json!(true) {
        page.type_into("#name-input", name).await;
        page.click("#name-save").await;
        page.wait_for(
            "the name to be taken",
            "const e = document.querySelector('#name-input'); return !(e && e.offsetParent);",
            PAGE_STEP,
        )
        .await;
    }
}

/// On the home page of `base`: names the guest `name`, opens a new game of `variant` (`classic`,
/// `dice`, `kids`; King of the Board when `king`) with the form, and waits for its page: its token.
async fn new_game(page: &mut Page, base: &str, name: &str, variant: &str, king: bool) -> String {
    new_game_with(page, base, name, variant, king, None).await
}

/// [`new_game`], a series of `series` games (`3`, `5`, `7`) when one is given.
async fn new_game_with(
    page: &mut Page,
    base: &str,
    name: &str,
    variant: &str,
    king: bool,
    series: Option<&str>,
) -> String {
    page.goto(&format!("{base}/")).await;
    page.wait_for(
        "the home page (a name form or the new game form)",
        "const shown = s => { const e = document.querySelector(s); return !!(e && e.offsetParent); };
         return shown('#name-input') || shown('#new-game');",
        PAGE_STEP,
    )
    .await;
    name_if_asked(page, name).await;
    page.wait_for(
        "the new game form",
        "const e = document.querySelector('#new-game'); return !!(e && e.offsetParent);",
        PAGE_STEP,
    )
    .await;
    page.select("#new-game select[name=variant]", variant).await;
    let checked = page
        .eval(
            "return document.querySelector('#new-game input[name=king_of_the_board]').checked;",
            vec![],
        )
        .await;
    if checked != json!(king) {
        page.click("#new-game input[name=king_of_the_board]").await;
    }
    if let Some(series) = series {
        page.select("#new-game select[name=series]", series).await;
    }
    page.click("#new-game-submit").await;
    page.wait_for(
        "the new game's page",
        "return location.pathname.startsWith('/g/') && document.body.dataset.ready === '1';",
        PAGE_STEP,
    )
    .await;
    page.game_token()
        .await
        .expect("the game's address has its token")
}

/// `GET /api/g/{token}` as `page`'s guest.
async fn api(page: &Page, token: &str) -> Value {
    page.fetch_json(&format!("/api/g/{token}")).await
}

/// The gist of an answer of `GET /api/g/{token}` for failure messages (not the whole board).
fn brief(answer: &Value) -> String {
    let view = &answer["view"];
    json!({
        "replay": answer["replay"],
        "version": answer["version"],
        "phase": view["phase"],
        "turn": view["board"]["turn"],
        "texts": view["texts"],
        "you": view["you"],
        "chips": chips_of(view).len(),
    })
    .to_string()
}

/// Waits until `page` shows what the server has: its `data-version` is the API's and its chips are the
/// API's (or the game has become a replay). The API's answer.
async fn settled(page: &Page, token: &str) -> Value {
    let deadline = Instant::now() + PAGE_STEP;
    loop {
        let answer = api(page, token).await;
        if answer["replay"] == json!(true) {
            return answer;
        }
        let version = answer["version"].as_u64().unwrap_or(0);
        let shown: BTreeSet<String> = page.chips().await.into_iter().collect();
        if page.version().await == version && shown == chips_of(&answer["view"]) {
            return answer;
        }
        if Instant::now() >= deadline {
            panic!(
                "the page did not come to show version {version} of the game\nthe API's chips: \
                 {:?}\nthe page's: {shown:?}\npage: {}",
                chips_of(&answer["view"]),
                page.describe().await
            );
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// Waits until it is the turn of `page`'s guest or the game is over: the API's answer, drawn.
async fn my_turn_or_over(page: &Page, token: &str) -> Value {
    let deadline = Instant::now() + PAGE_STEP;
    loop {
        let answer = settled(page, token).await;
        if is_over(&answer) || answer["view"]["you"]["your_turn"] == json!(true) {
            return answer;
        }
        if Instant::now() >= deadline {
            panic!(
                "neither the player's turn nor the end came\nAPI: {}\npage: {}",
                brief(&answer),
                page.describe().await
            );
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// Adds an easy computer player with the page's button and starts the game with it.
async fn add_computer_and_start(page: &Page, token: &str) {
    let version = page.version().await;
    // An easy computer: the level menu beside the button, where the page has one.
    if page.exists("select.level").await {
        page.select("select.level", "easy").await;
    }
    page.action("add_bot").await;
    page.wait_version_above(version).await;
    page.wait_for(
        "the computer player in the lobby",
        "return document.querySelectorAll('#seats li').length >= 2;",
        PAGE_STEP,
    )
    .await;
    page.action("begin").await;
    let deadline = Instant::now() + PAGE_STEP;
    while api(page, token).await["view"]["phase"] != json!("playing") {
        assert!(
            Instant::now() < deadline,
            "the game did not start: {}",
            page.describe().await
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// What the player did on a turn.
#[derive(Debug, PartialEq, Eq)]
enum Did {
    /// A card on a cell (`card` empty in Dice).
    Play { card: String, cell: String },
    /// A dead card exchanged.
    Exchange(String),
    /// The dice rolled (Dice), nothing placed yet.
    Roll,
}

/// Plays the turn of `page`'s guest by clicking: in Dice the roll button, then the first cell marked;
/// with cards, the first card of `#hand` that marks cells, its first cell, `#confirm`; when no card
/// marks a cell, a dead card exchanged with the `exchange` action. Waits until the server took it.
async fn play_turn(page: &Page, token: &str) -> Did {
    let before = api(page, token).await;
    let turn = before["view"]["board"]["turn"].as_u64().unwrap_or(0);
    let did = choose_and_click(page).await;
    // The move is taken when the game's turn has moved on (or, after a roll, the view changed).
    let deadline = Instant::now() + PAGE_STEP;
    loop {
        let now = api(page, token).await;
        let moved = now["view"]["board"]["turn"].as_u64().unwrap_or(0) > turn
            || is_over(&now)
            || (did == Did::Roll && now["view"]["you"]["roll_needed"] != json!(true));
        if moved {
            break;
        }
        if Instant::now() >= deadline {
            panic!(
                "the move {did:?} was not taken\nAPI: {}\npage: {}",
                brief(&now),
                page.describe().await
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    did
}

async fn choose_and_click(page: &Page) -> Did {
    if page.exists("[data-action=\"roll\"]").await {
        page.action("roll").await;
        return Did::Roll;
    }
    // Dice after the roll: the cells are marked without a card.
    let marked = page.targets().await;
    if page.hand().await.is_empty() {
        let cell = marked
            .first()
            .cloned()
            .unwrap_or_else(|| panic!("no cell marked after the roll"));
        page.click_cell(&cell).await;
        page.confirm().await;
        return Did::Play {
            card: String::new(),
            cell,
        };
    }
    let hand = page.hand().await;
    if let Some((card, cell)) = page.tap_first_target(&hand).await {
        page.confirm().await;
        return Did::Play { card, cell };
    }
    let dead = hand
        .iter()
        .find(|(_, dead)| *dead)
        .map(|(card, _)| card.clone())
        .unwrap_or_else(|| panic!("no card marks a cell and none is dead: {hand:?}"));
    page.click_card(&dead).await;
    page.action("exchange").await;
    Did::Exchange(dead)
}

/// The draw timer's figures of the page loaded last (`Page::install_draw_timer`), once it has painted.
async fn drawn_figures(page: &Page) -> Value {
    page.wait_for(
        "the draw timer's figures",
        "return window.__sbDraw && window.__sbDraw.painted !== null;",
        PAGE_STEP,
    )
    .await;
    page.draw_figures().await.expect("the draw timer's figures")
}

/// Checks what the watching session shows against the player's, once both are still (the player's
/// turn): the same version and chips, a version above `last`, and never a hand. The version shown.
async fn watcher_sees(watcher: &Page, player: &Page, last: u64) -> u64 {
    let version = player.version().await;
    watcher
        .wait_for(
            &format!("the watcher to draw version {version}"),
            &format!("return Number(document.body.dataset.version || 0) >= {version};"),
            PAGE_STEP,
        )
        .await;
    let seen = watcher.version().await;
    assert!(
        seen > last,
        "the watcher's view did not move on from {last}"
    );
    assert_eq!(
        watcher.chips().await,
        player.chips().await,
        "the watcher's board differs from the player's at version {version}"
    );
    assert_eq!(
        watcher.count("#hand [data-card]").await,
        0,
        "a watcher is shown a hand: {}",
        watcher.describe().await
    );
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_classic_game_is_played_to_the_end_by_clicking_watched_live_and_replayed() {
    let Some(browser) = Browser::start("web_browser::a_local_classic_game").await else {
        return;
    };
    let bot = LocalBot::start(LocalOptions::default()).await;
    let mut player = browser.open(1280, 900).await;
    let token = new_game(&mut player, &bot.base(), "Ann", "classic", false).await;
    add_computer_and_start(&player, &token).await;

    // The second session: another guest, not seated, on the game's link.
    let mut watcher = browser.open(1280, 900).await;
    watcher.install_draw_timer().await;
    let link = format!("{}/g/{token}", bot.base());
    watcher.goto(&link).await;
    watcher.wait_ready().await;
    // The page's own weight, from its first load (nothing cached yet).
    let first = drawn_figures(&watcher).await;
    let bytes = first["page_bytes"].as_u64().unwrap_or(u64::MAX);
    assert!(
        bytes <= 300 * 1024,
        "the page (HTML, scripts, styles) is {bytes} bytes, more than 300 KB: {first}"
    );
    name_if_asked(&watcher, "Wes").await;
    // Loaded again with the name set: how long the game's first full draw took once its data had come.
    watcher.goto(&link).await;
    watcher.wait_ready().await;
    watcher.wait_version_above(0).await;
    let again = drawn_figures(&watcher).await;
    eprintln!("web page figures: first load {first}\ngame page loaded again, named: {again}");
    assert!(
        api(&watcher, &token).await["view"].get("you").is_none(),
        "the watcher is not seated"
    );
    watcher
        .eval("window.__sbSamePage = true; return true;", vec![])
        .await;

    let mut watched = 0;
    let mut game = WholeGame::new(MOST_TURNS);
    let mut plays = 0;
    let over = loop {
        let answer = my_turn_or_over(&player, &token).await;
        if answer["replay"] != json!(true) {
            watched = watcher_sees(&watcher, &player, watched).await;
        }
        if game.over(&answer) {
            break answer;
        }
        if let Did::Play { .. } = play_turn(&player, &token).await {
            plays += 1;
        }
        if game.turns == 12 {
            player.picture("web-classic").await;
        }
    };
    assert!(plays > 0, "no card was played");
    // The result shows on the page.
    shows_result(&player, &over).await;
    // The page turns to the replay, with the record to download.
    player
        .wait_for(
            "the replay with the record's link",
            "const box = document.getElementById('replay-box');
             const link = document.getElementById('record-download');
             return !!box && !box.hidden && !link.hidden && link.getAttribute('href').endsWith('/record');",
            PAGE_STEP,
        )
        .await;
    assert_eq!(watcher.count("#hand [data-card]").await, 0);
    assert_eq!(
        watcher
            .eval("return window.__sbSamePage === true;", vec![])
            .await,
        json!(true),
        "the watcher followed the whole game without a reload"
    );
    eprintln!(
        "the classic game ended after {} turns of the player ({plays} cards played)",
        game.turns
    );

    replay_is_stepped_through(&mut player, &bot, &token).await;
    player.close().await;
    watcher.close().await;
}

/// Waits until `page` shows a replay (its slider), for at most `within`: its number of steps.
async fn replay_steps(page: &Page, what: &str, within: Duration) -> u64 {
    page.wait_for(
        what,
        "const e = document.querySelector('#replay-slider'); return !!(e && e.offsetParent);",
        within,
    )
    .await;
    page.eval(
        "return Number(document.querySelector('#replay-slider').max);",
        vec![],
    )
    .await
    .as_u64()
    .unwrap_or(0)
}

/// The finished game's page is its replay: `#replay-turn` follows the step buttons and the slider.
async fn replay_is_stepped_through(page: &mut Page, bot: &LocalBot, token: &str) {
    // The page reloads the game once its table closed; a fresh load must show the replay as well.
    replay_steps(page, "the replay controls", Duration::from_secs(60)).await;
    page.goto(&format!("{}/g/{token}", bot.base())).await;
    page.wait_ready().await;
    let max = replay_steps(page, "the replay controls after a reload", PAGE_STEP).await;
    assert!(max > 2, "the replay has {max} steps");
    let turn_text = || async { page.text("#replay-turn").await };
    let first = turn_text().await;
    page.click("#replay-prev").await;
    let after_prev = turn_text().await;
    page.click("#replay-next").await;
    let after_next = turn_text().await;
    assert!(
        first != after_prev || after_prev != after_next,
        "the step buttons do not change #replay-turn ({first:?}, {after_prev:?}, {after_next:?})"
    );
    // The slider, by keyboard as a person may: Home goes to the start.
    page.click("#replay-slider").await;
    let slider = page
        .client()
        .find(fantoccini::Locator::Css("#replay-slider"))
        .await
        .expect("the slider");
    slider
        .send_keys(&char::from(fantoccini::key::Key::Home).to_string())
        .await
        .expect("Home on the slider");
    let at_start = turn_text().await;
    let value = page
        .eval(
            "return Number(document.querySelector('#replay-slider').value);",
            vec![],
        )
        .await;
    assert_eq!(value, json!(0), "Home moved the slider to the start");
    slider
        .send_keys(&char::from(fantoccini::key::Key::End).to_string())
        .await
        .expect("End on the slider");
    let at_end = turn_text().await;
    assert_ne!(at_start, at_end, "#replay-turn follows the slider");
    // Half way through, for the picture.
    page.eval(
        "const s = document.querySelector('#replay-slider');
         s.value = String(Math.floor(Number(s.max) * 2 / 3));
         s.dispatchEvent(new Event('input', {bubbles: true}));
         s.dispatchEvent(new Event('change', {bubbles: true}));
         return true;",
        vec![],
    )
    .await;
    let record = page
        .eval(
            "const a = document.querySelector('#record-download'); \
             return a && a.offsetParent ? a.getAttribute('href') : null;",
            vec![],
        )
        .await;
    assert!(
        record.as_str().is_some_and(|href| href.contains(token)),
        "the record's link is shown: {record}"
    );
    page.picture("web-replay").await;
    // A player of the game opens its rematch from its page, and the page goes to the new lobby.
    page.action("rematch").await;
    page.wait_for(
        "the rematch's lobby",
        &format!(
            "return location.pathname !== '/g/{token}' && document.body.dataset.ready === '1' \
             && !!document.querySelector('[data-action=begin]');"
        ),
        PAGE_STEP,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_page_fits_a_phone_360_px_wide() {
    let Some(browser) = Browser::start("web_browser::the_game_page_fits_a_phone").await else {
        return;
    };
    let bot = LocalBot::start(LocalOptions::default()).await;
    let mut phone = browser.open_phone(360, 780).await;
    // What the page receives is kept (the live channel's address, for the language menu's check).
    phone.install_collector().await;
    let token = new_game(&mut phone, &bot.base(), "Pia", "classic", false).await;
    add_computer_and_start(&phone, &token).await;
    my_turn_or_over(&phone, &token).await;
    // A move by tapping, then the page once it is the player's turn again.
    play_turn(&phone, &token).await;
    my_turn_or_over(&phone, &token).await;
    let fit = fits_width(&phone, 360).await;
    assert!(
        fit["board"]["height"].as_f64().unwrap_or(f64::NAN)
            <= fit["inner_height"].as_f64().unwrap_or(0.0),
        "the board is taller than the screen: {fit}"
    );
    // Scrolled into view, the whole board is on the screen.
    let seen = phone
        .eval(
            "const e = document.querySelector('#board'); e.scrollIntoView({block: 'nearest'});
             const b = e.getBoundingClientRect();
             return b.top >= 0 && b.bottom <= window.innerHeight;",
            vec![],
        )
        .await;
    assert_eq!(seen, json!(true), "the board is not wholly visible");
    phone
        .eval("window.scrollTo(0, 0); return true;", vec![])
        .await;
    phone.picture("web-phone").await;
    language_is_chosen(&phone, &token).await;
    phone.close().await;
}

/// The language menu on the game's page of `page` (at its player's turn): German chosen, the page's
/// own texts come in German, the game is read again in German (`#status` says the API's German
/// sentence) and its live channel is opened again in German (a socket asking `lang=de` sends a frame;
/// the page's collector must be installed): after a move, the computer's answer comes to the page with
/// its sentence in German.
async fn language_is_chosen(page: &Page, token: &str) {
    let status = || async { page.text("#status").await };
    let english = status().await;
    page.select("#lang-select", "de").await;
    page.wait_for(
        "the page's own texts in German",
        "return document.querySelector('[data-t=\"web-language\"]').textContent === 'Sprache';",
        PAGE_STEP,
    )
    .await;
    // What the page's headline says: the result, else "Your turn." to the player to move (in the
    // page's language), else whose turn it is as the API words it.
    let said = |answer: &Value, lang: Lang| {
        let view = &answer["view"];
        let texts = &view["texts"];
        if let Some(result) = texts["result"].as_str().filter(|s| !s.is_empty()) {
            return result.to_string();
        }
        if view["you"]["your_turn"] == json!(true) && view["phase"] == json!("playing") {
            return i18n::tr(lang, "web-your-turn");
        }
        texts["turn"].as_str().unwrap_or("").to_string()
    };
    let german = said(&api(page, token).await, Lang::De);
    assert!(
        !german.is_empty() && german != english,
        "the view in German ({german:?}) differs from the English one ({english:?})"
    );
    page.wait_for(
        "the game read again in German",
        &format!(
            "return document.querySelector('#status').textContent.trim() === {};",
            json!(german)
        ),
        PAGE_STEP,
    )
    .await;
    page.wait_for(
        "the live channel open again in German",
        "return !!document.querySelector('#live.connected') && (window.__sbReceived || [])
           .some(r => r.kind === 'ws' && new URL(r.url).searchParams.get('lang') === 'de');",
        PAGE_STEP,
    )
    .await;
    play_turn(page, token).await;
    let answer = my_turn_or_over(page, token).await;
    if !is_over(&answer) {
        assert_eq!(
            status().await,
            said(&answer, Lang::De),
            "after the computer's move the page speaks German: {}",
            page.describe().await
        );
        // The computer's move as the bot words it, in German.
        let last = answer["view"]["texts"]["last_move"].as_str().unwrap_or("");
        assert!(!last.is_empty(), "the view says the last move");
        assert_eq!(
            page.text("#last-line").await,
            last,
            "the computer's move in German on the page: {}",
            page.describe().await
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_page_reconnects_after_the_bot_restarts_and_the_game_goes_on() {
    let Some(browser) = Browser::start("web_browser::an_open_page_reconnects").await else {
        return;
    };
    let mut bot = LocalBot::start(LocalOptions::default()).await;
    let mut page = browser.open(1024, 800).await;
    let token = new_game(&mut page, &bot.base(), "Rita", "classic", false).await;
    add_computer_and_start(&page, &token).await;
    my_turn_or_over(&page, &token).await;
    play_turn(&page, &token).await;
    let before = my_turn_or_over(&page, &token).await;
    page.wait_for(
        "the live channel",
        "return !!document.querySelector('#live.connected');",
        PAGE_STEP,
    )
    .await;

    bot.kill();
    page.wait_for(
        "the page to notice the bot is gone",
        "return !document.querySelector('#live.connected');",
        PAGE_STEP,
    )
    .await;
    bot.restart().await;
    page.wait_for(
        "the page to reconnect",
        "return !!document.querySelector('#live.connected');",
        Duration::from_secs(60),
    )
    .await;
    let after = my_turn_or_over(&page, &token).await;
    assert_eq!(
        chips_of(&after["view"]),
        chips_of(&before["view"]),
        "the restarted game is where it was"
    );
    // The game goes on: a move by clicking, and the computer's answer reaches the page live.
    let turn = after["view"]["board"]["turn"].as_u64().unwrap_or(0);
    play_turn(&page, &token).await;
    let next = my_turn_or_over(&page, &token).await;
    assert!(
        next["view"]["board"]["turn"].as_u64().unwrap_or(0) >= turn + 2 || is_over(&next),
        "the player's move and the computer's answer came after the restart: {}",
        brief(&next)
    );
    assert!(page.exists("#live.connected").await);
    page.close().await;
}

/// Opens a game of `variant` against an easy computer and plays `turns` of the player's turns by
/// clicking, checking the page follows; a screenshot named `picture` at the end.
async fn a_game_in_progress(test: &str, variant: &str, king: bool, turns: usize, picture: &str) {
    let Some(browser) = Browser::start(test).await else {
        return;
    };
    let bot = LocalBot::start(LocalOptions::default()).await;
    let mut page = browser.open(1280, 900).await;
    let token = new_game(&mut page, &bot.base(), "Kim", variant, king).await;
    add_computer_and_start(&page, &token).await;
    let started = api(&page, &token).await;
    assert_eq!(
        started["view"]["game"]["variant"],
        json!(variant),
        "the form opened a {variant} game"
    );
    assert_eq!(
        started["view"]["game"]["king_of_the_board"],
        json!(king),
        "King of the Board as chosen"
    );
    let mut placed = 0;
    for _ in 0..turns {
        if is_over(&my_turn_or_over(&page, &token).await) {
            break;
        }
        if let Did::Play { .. } = play_turn(&page, &token).await {
            placed += 1;
        }
    }
    let now = my_turn_or_over(&page, &token).await;
    assert!(placed > 0, "nothing was placed in {turns} turns");
    assert!(
        !chips_of(&now["view"]).is_empty(),
        "the board shows chips after {turns} turns"
    );
    if king {
        assert!(
            now["view"]["board"]["zone"].is_object(),
            "the King of the Board zone is in the view"
        );
    }
    page.picture(picture).await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dice_game_is_played_on_the_page() {
    a_game_in_progress("web_browser::a_dice_game", "dice", false, 8, "web-dice").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kids_game_is_played_on_the_page() {
    a_game_in_progress("web_browser::a_kids_game", "kids", false, 3, "web-kids").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_king_of_the_board_game_is_played_on_the_page() {
    a_game_in_progress(
        "web_browser::a_king_of_the_board_game",
        "classic",
        true,
        10,
        "web-kotb",
    )
    .await;
}

/// A series played on the page: the guest gives up game 1 with the page's Leave (after two moves,
/// so that it counts), and the page goes on by itself to the series' next game, which has a page of
/// its own (its address changes); Next game is pressed there and game 2 is played. Game 1's page,
/// opened afresh, is its replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_series_on_the_page_goes_on_to_its_next_game_and_keeps_each_games_replay() {
    let Some(browser) = Browser::start("web_browser::a_series_on_the_page").await else {
        return;
    };
    let bot = LocalBot::start(LocalOptions::default()).await;
    let mut page = browser.open(1280, 900).await;
    let first = new_game_with(&mut page, &bot.base(), "Kim", "classic", false, Some("3")).await;
    add_computer_and_start(&page, &first).await;
    for _ in 0..2 {
        my_turn_or_over(&page, &first).await;
        play_turn(&page, &first).await;
    }
    my_turn_or_over(&page, &first).await;
    // The plain page asks with the browser's dialog: answered yes.
    page.eval("window.confirm = () => true; return true;", vec![])
        .await;
    page.action("leave").await;
    page.wait_for(
        "the page to go on to the series' next game",
        &format!(
            "return location.pathname.startsWith('/g/') && location.pathname !== '/g/{first}'
               && !!document.querySelector('[data-action=\"next_game\"]');"
        ),
        PAGE_STEP,
    )
    .await;
    let second = page.game_token().await.expect("the next game's address");
    assert_ne!(second, first, "the next game has a page of its own");
    let between = api(&page, &second).await;
    assert_eq!(
        between["view"]["phase"],
        json!("between_games"),
        "{}",
        brief(&between)
    );
    let score = page.text("#series-line").await;
    assert!(
        score.contains("1"),
        "the series line shows the score: {score:?}"
    );
    page.action("next_game").await;
    let deadline = Instant::now() + PAGE_STEP;
    while api(&page, &second).await["view"]["phase"] != json!("playing") {
        assert!(
            Instant::now() < deadline,
            "game 2 did not start: {}",
            page.describe().await
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let turn = my_turn_or_over(&page, &second).await;
    assert!(!is_over(&turn), "game 2 is played: {}", brief(&turn));
    play_turn(&page, &second).await;
    // Game 1's own page is its replay.
    page.goto(&format!("{}/g/{first}", bot.base())).await;
    page.wait_ready().await;
    let steps = replay_steps(&page, "game 1's replay", PAGE_STEP).await;
    assert!(steps >= 4, "game 1's replay has its moves: {steps}");
    page.close().await;
}

/// The address of the first link button (`style` 5) to a game's page in `message`'s components.
fn watch_link(components: &Value) -> Option<String> {
    components
        .as_array()?
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|button| {
            button["style"] == json!(5) && button["url"].as_str().is_some_and(|u| u.contains("/g/"))
        })
        .and_then(|button| button["url"].as_str().map(str::to_string))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discord_game_is_watched_live_from_its_watch_link() {
    let Some(browser) = Browser::start("web_browser::a_discord_game_is_watched").await else {
        return;
    };
    let port = support::browser::free_port();
    let options = support::bot::BotOptions {
        extra_config: format!(
            "[web]\nlisten = \"127.0.0.1:{port}\"\npublic_url = \"http://127.0.0.1:{port}\"\n"
        ),
        ..support::bot::BotOptions::default()
    };
    let h = support::bot::Harness::start(support::fake_discord::Config::default(), &options)
        .await
        .expect("the bot connects");
    let fake = &h.fake;
    let human = fake.add_user("alice");
    let channel = fake.add_channel("sequence-watched");
    let lobby = support::table::lobby_against_easy(fake, &human, channel).await;
    let begin = fake.click(&human, lobby, "sequence:begin").expect("press");
    fake.wait_callback(&begin, support::table::STEP)
        .await
        .expect("begin");
    // The turn prompt (or the lobby card) carries the Watch link.
    let link = fake
        .shared()
        .wait_for(support::table::STEP, "a Watch link", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .rev()
                .find_map(|m| watch_link(&m.components))
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(
        link.starts_with(&format!("http://127.0.0.1:{port}/g/")),
        "the link is made from public_url: {link}"
    );
    let mut watcher = browser.open(1280, 900).await;
    watcher.goto(&link).await;
    watcher.wait_ready().await;
    name_if_asked(&watcher, "Wes").await;
    watcher.wait_version_above(0).await;
    let token = watcher.game_token().await.expect("the link's token");
    let mut seen = settled(&watcher, &token).await;
    assert!(seen["view"].get("you").is_none(), "a watcher has no hand");
    // A mark in the page's window: gone if the page were loaded again.
    watcher
        .eval("window.__sbSamePage = true; return true;", vec![])
        .await;
    for _ in 0..3 {
        let version = watcher.version().await;
        let turn = seen["view"]["board"]["turn"].as_u64().unwrap_or(0);
        support::table::play_first_fit(fake, &human, channel)
            .await
            .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
        // The move appears on the page without a reload.
        watcher.wait_version_above(version).await;
        let deadline = Instant::now() + PAGE_STEP;
        loop {
            seen = settled(&watcher, &token).await;
            if seen["view"]["board"]["turn"].as_u64().unwrap_or(0) > turn {
                break;
            }
            assert!(Instant::now() < deadline, "the move did not reach the page");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(
            watcher.exists("#live.connected").await,
            "the page's live channel is open"
        );
        assert_eq!(
            watcher
                .eval("return window.__sbSamePage === true;", vec![])
                .await,
            json!(true),
            "the move came to the page without a reload"
        );
        assert_eq!(watcher.count("#hand [data-card]").await, 0, "no hand shown");
    }
    watcher
        .screenshot(&scratch_screenshot("web-discord-watch"))
        .await;
    watcher.close().await;
}
