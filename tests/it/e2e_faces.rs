//! Issue 45: one service, two faces. `sequence-bot run` with the console beside Discord
//! (`SEQUENCE_CONSOLE_BESIDE`): both subscribe to the same host. A game in a Discord channel (a
//! computer opponent, a reminder from the timer, a forfeit) reaches the console as events, each once
//! and in order, while the stand-in gets each channel post once; a game typed on the console's input
//! in a console channel reaches nothing on Discord.

use crate::support;

use std::time::Duration;

use serde_json::Value;
use support::bot::{BotOptions, Harness};
use support::fake_discord::{Config, FakeDiscord, FakeUser};
use support::table::{give_up, lobby_against_easy, play_first_fit, STEP};

/// The console's channel: not one of the stand-in's.
const CONSOLE_CHANNEL: u64 = 777_000;

/// The events the console printed, in the order printed.
fn events(log: &str) -> Vec<Value> {
    log.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line.get("event").is_some())
        .collect()
}

/// Opens a classic game of `human` against an `easy` computer in `channel` and begins it.
async fn start_against_easy(fake: &FakeDiscord, human: &FakeUser, channel: u64) {
    let lobby = lobby_against_easy(fake, human, channel).await;
    let begin = fake.click(human, lobby, "sequence:begin").expect("press");
    fake.wait_callback(&begin, STEP).await.expect("begin");
}

/// Waits until a post after the first `skip` of `channel` tells `user` it is their turn.
async fn their_turn(fake: &FakeDiscord, channel: u64, skip: usize, user: u64) {
    fake.shared()
        .wait_for(STEP, "the player's turn", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .skip(skip)
                .any(|m| m.notified.contains(&user))
                .then_some(())
        })
        .await
        .expect("the player's turn comes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_and_discord_see_every_event_of_one_host_once() {
    let input = tempfile::NamedTempFile::new().expect("a file for the console's input");
    let requests = [
        r#"{"id": 1, "guild": 5, "channel": 777000, "user": 9001, "command": "start"}"#,
        r#"{"id": 2, "guild": 5, "channel": 777000, "user": 9001, "command": "bot_add"}"#,
        r#"{"id": 3, "guild": 5, "channel": 777000, "user": 9001, "command": "begin"}"#,
    ];
    std::fs::write(input.path(), requests.join("\n") + "\n").expect("write the input");
    let options = BotOptions {
        env: vec![("SEQUENCE_CONSOLE_BESIDE".into(), "1".into())],
        stdin: Some(input.path().to_path_buf()),
        // A reminder from the timer two seconds into a turn.
        turn_secs: (2, 6000),
        ..BotOptions::default()
    };
    let h = Harness::start(Config::default(), &options)
        .await
        .expect("the bot connects");
    let fake = &h.fake;
    let human = fake.add_user("alice");
    let channel = fake.add_channel("sequence-faces");
    let skip = fake.messages_in(channel).len();
    start_against_easy(fake, &human, channel).await;
    their_turn(fake, channel, skip, human.id).await;
    for _ in 0..3 {
        let skip = fake.messages_in(channel).len();
        play_first_fit(fake, &human, channel)
            .await
            .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
        their_turn(fake, channel, skip, human.id).await;
    }
    // The timer's reminder, then the game given up (its final message and the agreement follow-up).
    tokio::time::sleep(Duration::from_secs(4)).await;
    give_up(fake, channel, &human)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    tokio::time::sleep(Duration::from_secs(3)).await;

    let printed = events(&h.bot.log());
    assert!(!printed.is_empty(), "bot log:\n{}", h.bot.log_tail(40));
    // Every event once, in order: no gap, no duplicate.
    let numbers: Vec<u64> = printed
        .iter()
        .map(|e| e["event"].as_u64().expect("a sequence number"))
        .collect();
    let expected: Vec<u64> = (1..=numbers.len() as u64).collect();
    assert_eq!(numbers, expected);
    let of = |channel: u64| -> Vec<&Value> {
        printed
            .iter()
            .filter(|e| e["channel"].as_u64() == Some(channel))
            .collect()
    };
    // The Discord game: the members' requests and the host's (computer moves, the reminder).
    let discord = of(channel);
    let origin = |events: &[&Value], origin: &str| events.iter().any(|e| e["origin"] == origin);
    assert!(origin(&discord, "discord"), "{discord:#?}");
    assert!(origin(&discord, "host"), "{discord:#?}");
    assert!(discord.iter().any(|e| e["turn"].as_u64().is_some()));
    // The stand-in got each channel post once: a new message per channel post and new lobby.
    let posts = discord
        .iter()
        .flat_map(|e| e["outputs"].as_array().cloned().unwrap_or_default())
        .filter(|o| o["to"] == "channel" || (o["to"] == "lobby" && o["message_id"].is_null()))
        .count();
    let public = fake
        .messages_in(channel)
        .iter()
        .filter(|m| !m.is_ephemeral())
        .count();
    assert_eq!(public, posts, "{discord:#?}");
    // The console's game: its own events (the begin at least), and nothing of it on Discord.
    let console = of(CONSOLE_CHANNEL);
    assert!(origin(&console, "console"), "{printed:#?}");
    let on_discord = fake
        .requests()
        .into_iter()
        .filter(|r| r.path.contains(&CONSOLE_CHANNEL.to_string()))
        .count();
    assert_eq!(on_discord, 0);
}
