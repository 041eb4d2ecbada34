//! The *Watch* link through the Discord stand-in: with `[web] public_url` set (here by its environment
//! variable), the lobby card and the turn prompt carry a link button to the table's page, drawn as
//! Discord draws links (style 5, a URL, no custom id), which the stand-in checks as Discord does.

use serde_json::Value;

use crate::support;

use support::bot::{BotOptions, Harness};
use support::fake_discord::{Config, FakeDiscord};
use support::table::{lobby_against_easy, notified_prompt_after, STEP};

const BASE: &str = "https://sequence.example.org";

/// The link buttons of a message: their URLs (each checked to be a link as Discord draws it).
fn link_urls(fake: &FakeDiscord, message: u64) -> Vec<String> {
    let shown = fake.message(message).expect("the message");
    let buttons: Vec<Value> = shown
        .components
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .collect();
    buttons
        .iter()
        .filter(|b| b["style"] == 5)
        .map(|b| {
            assert!(b["custom_id"].is_null(), "a link has no custom id: {b}");
            assert!(!b["label"].as_str().unwrap_or("").is_empty(), "{b}");
            b["url"].as_str().expect("a link has a url").to_string()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_and_the_turn_prompt_carry_a_watch_link() {
    let options = BotOptions {
        env: vec![("SEQUENCE_WEB_PUBLIC_URL".into(), format!("{BASE}/"))],
        ..BotOptions::default()
    };
    let h = Harness::start(Config::default(), &options)
        .await
        .expect("the bot connects to the stand-in");
    let fake = &h.fake;
    let human = fake.add_user("alice");
    let channel = fake.add_channel("sequence-watch");
    let lobby = lobby_against_easy(fake, &human, channel).await;
    let urls = link_urls(fake, lobby);
    assert_eq!(urls.len(), 1, "the lobby's Watch link: {urls:?}");
    let token = urls[0]
        .strip_prefix(&format!("{BASE}/g/"))
        .unwrap_or_else(|| panic!("the table's page: {}", urls[0]))
        .to_string();
    assert!(
        token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()),
        "{token}"
    );

    let skip = fake.messages_in(channel).len();
    let begin = fake.click(&human, lobby, "sequence:begin").expect("press");
    fake.wait_callback(&begin, STEP).await.expect("begin");
    let prompt = notified_prompt_after(fake, channel, human.id, skip)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert_eq!(
        link_urls(fake, prompt),
        urls,
        "the prompt links to the same page"
    );
    // The link sends nothing to the bot: there is nothing to press.
    assert!(fake.click(&human, prompt, "").is_err());
    assert!(
        fake.take_openapi_problems().is_empty(),
        "Discord's OpenAPI takes the links"
    );
}
