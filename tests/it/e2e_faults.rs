//! Faults, end to end with the real binary and the Discord stand-in: the gateway connection drops
//! mid-game (the bot resumes; no move is lost or doubled), the REST API answers 429 with `retry-after`
//! and 5xx (serenity's rate limiter waits out the 429s, the bot retries the 5xx, and the player still
//! gets every reply), and the bot process is killed and restarted mid-game (the game goes on from the
//! last accepted move). Everything is bounded and on 127.0.0.1.

use crate::support;

use std::time::Duration;

use serde_json::Value;
use support::bot::{BotOptions, Harness};
use support::fake_discord::{DropMode, FakeDiscord, FakeUser, Fault, InteractionKind};
use support::table::{Played, TableDriver, TurnEnd, STEP};

fn two_players(fake: &FakeDiscord) -> Vec<FakeUser> {
    vec![fake.add_user("alice"), fake.add_user("bob")]
}

async fn turn(table: &mut TableDriver<'_>, h: &Harness) {
    match table.play_turn().await {
        Ok(TurnEnd::Next) => {}
        Ok(TurnEnd::Over(_)) => panic!("the game ended early; play fewer turns"),
        Err(e) => panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)),
    }
}

/// Stops the game and returns the actions of its record, which must replay.
async fn stop_and_record(
    fake: &FakeDiscord,
    host: &FakeUser,
    channel: u64,
    h: &Harness,
) -> Vec<Played> {
    let stop = fake
        .slash(host, channel, "sequence stop", &[])
        .expect("stop");
    let stopped = support::table::record_after(fake, &stop, channel)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    let file = stopped
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".json"))
        .expect("the record is attached");
    let path = h.dir.path().join(format!("record-{channel}.json"));
    std::fs::write(&path, file.data.as_slice()).expect("write");
    let replay = std::process::Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .arg("replay")
        .arg(&path)
        .output()
        .expect("replay");
    assert_eq!(replay.status.code(), Some(0), "the record replays");
    let record: Value = serde_json::from_slice(&file.data).expect("JSON");
    Played::all_in_record(&record)
}

/// Every interaction reached the bot once and was answered once.
fn each_interaction_once(fake: &FakeDiscord) {
    let state = fake.state();
    for i in state.interactions.values() {
        assert_eq!(
            i.deliveries, 1,
            "interaction {} delivered {} times",
            i.id, i.deliveries
        );
        assert!(i.callback.is_some(), "interaction {} not answered", i.id);
        assert!(
            i.refused_callbacks.is_empty(),
            "interaction {} answered twice or late: {:?}",
            i.id,
            i.refused_callbacks
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_gateway_is_resumed_without_losing_or_doubling_moves() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players = two_players(fake);
    let channel = fake.add_channel("sequence-drops");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .expect("a game");
    turn(&mut table, &h).await;
    let modes = [DropMode::Abrupt, DropMode::Close(4000), DropMode::Reconnect];
    for (round, mode) in modes.into_iter().enumerate() {
        fake.wait_ready(STEP).await.expect("connected");
        assert!(fake.drop_gateway(mode), "{mode:?}: a connection to drop");
        // The turn starts while the bot is away: the stand-in holds the bot's RESUME until the turn's
        // first interaction is queued, then replays it, as Discord does with missed dispatches.
        turn(&mut table, &h).await;
        fake.wait_resumed(round + 1, STEP)
            .await
            .unwrap_or_else(|e| panic!("{mode:?}: {e}"));
        turn(&mut table, &h).await;
    }
    let stats = fake.gateway_stats();
    assert_eq!(
        stats.identifies, 1,
        "the bot resumed every time, it never identified again"
    );
    assert_eq!(stats.resumes, 3);
    assert!(stats.replayed >= 3, "dispatches were replayed on RESUME");
    each_interaction_once(fake);
    let recorded = stop_and_record(fake, &players[0], channel, &h).await;
    assert_eq!(recorded, table.played, "no move lost or doubled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_and_server_errors_still_reach_the_player() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players = two_players(fake);
    let channel = fake.add_channel("sequence-faults");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .expect("a game");
    let dm_of = |user: &FakeUser| fake.state().dm_channel_of(user.id).expect("a DM channel");
    let faults: Vec<(&str, Fault, usize, Option<&str>, String)> = vec![
        (
            "429 on interaction callbacks",
            Fault::RateLimited {
                retry_after: 0.3,
                global: false,
            },
            2,
            Some("POST"),
            "/callback".to_string(),
        ),
        (
            "global 429 on the follow-up with the board",
            Fault::RateLimited {
                retry_after: 0.2,
                global: true,
            },
            1,
            Some("POST"),
            "/webhooks/".to_string(),
        ),
        (
            "429 on the hand DMs",
            Fault::RateLimited {
                retry_after: 0.3,
                global: false,
            },
            1,
            None,
            format!("/channels/{}/messages", dm_of(&players[0])),
        ),
        (
            "502 on the follow-up with the board",
            Fault::ServerError(502),
            1,
            Some("POST"),
            "/webhooks/".to_string(),
        ),
        (
            "503 on the hand DMs",
            Fault::ServerError(503),
            2,
            None,
            format!("/channels/{}/messages", dm_of(&players[1])),
        ),
        (
            "500 on opening DMs",
            Fault::ServerError(500),
            1,
            Some("POST"),
            "/users/@me/channels".to_string(),
        ),
    ];
    // Server errors on the answers to commands: the bot tries again. (Autocomplete suggestions are
    // sent by poise and not retried: a failed list is replaced as soon as the user types on.)
    for (what, fault, count) in [
        ("500 on answers to commands", Fault::ServerError(500), 2),
        ("503 on answers to commands", Fault::ServerError(503), 3),
    ] {
        let before = fake.requests().len();
        fake.inject_fault_for(fault, count, InteractionKind::Command);
        match table.play_turn().await {
            Ok(TurnEnd::Next) => {}
            Ok(TurnEnd::Over(_)) => panic!("{what}: the game ended early"),
            Err(e) => panic!("{what}: {e}\nbot log:\n{}", h.bot.log_tail(40)),
        }
        assert_eq!(fake.pending_faults(), 0, "{what}: the faults were met");
        let faulted = fake.requests()[before..].iter().filter(|r| r.fault).count();
        assert_eq!(faulted, count, "{what}");
    }
    for (what, fault, count, method, path) in faults {
        let before = fake.requests().len();
        fake.inject_fault(fault, count, method, Some(path.as_str()));
        // Two turns, so faults aimed at either player's DM are met.
        for _ in 0..2 {
            match table.play_turn().await {
                Ok(TurnEnd::Next) => {}
                Ok(TurnEnd::Over(_)) => panic!("{what}: the game ended early"),
                Err(e) => panic!("{what}: {e}\nbot log:\n{}", h.bot.log_tail(40)),
            }
        }
        assert_eq!(fake.pending_faults(), 0, "{what}: the faults were met");
        let faulted = fake.requests()[before..].iter().filter(|r| r.fault).count();
        assert_eq!(faulted, count, "{what}");
    }
    each_interaction_once(fake);
    // Each move was announced once in the channel (no repeat from a retry).
    let posts = fake
        .messages_in(channel)
        .iter()
        .filter(|m| !m.is_ephemeral() && m.content.contains(" played "))
        .count();
    assert_eq!(posts, table.played.len(), "one announcement per move");
    let recorded = stop_and_record(fake, &players[0], channel, &h).await;
    assert_eq!(recorded, table.played, "no move lost or doubled");
    assert!(
        h.bot.log().contains("trying again"),
        "the bot logged its retries"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_bot_restarts_and_the_game_goes_on_from_the_last_move() {
    let mut h = Harness::started().await;
    let players = two_players(&h.fake);
    let channel = h.fake.add_channel("sequence-restart");
    let played_before = {
        let mut table = TableDriver::open(&h.fake, channel, &players[0], &players[1..], 2)
            .await
            .expect("a game");
        for _ in 0..3 {
            turn(&mut table, &h).await;
        }
        table.played.clone()
    };
    // SIGKILL, as a crash or an out-of-memory kill would; then a new process on the same database.
    let old_pid = h.bot.pid();
    h.respawn(&BotOptions::default());
    assert_ne!(h.bot.pid(), old_pid);
    h.wait_identified(2).await;
    let fake = &h.fake;
    // The table is the same game: continue it with a driver that knows the moves so far.
    let mut table = TableDriver::resume(fake, channel, &players, 2, &played_before)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    for _ in 0..3 {
        turn(&mut table, &h).await;
    }
    let recorded = stop_and_record(fake, &players[0], channel, &h).await;
    assert_eq!(
        recorded, table.played,
        "the game went on from the last accepted move"
    );
    assert!(h.bot.is_running());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_end_was_posted_is_not_announced_again_after_a_restart() {
    let mut h = Harness::started().await;
    let players = two_players(&h.fake);
    let ended = h.fake.add_channel("sequence-ended");
    let lobby = h.fake.add_channel("sequence-lobby");
    {
        let table = TableDriver::open(&h.fake, ended, &players[0], &players[1..], 2)
            .await
            .expect("a game");
        drop(table);
        // Its final message is posted through Discord: the store records it as announced.
        stop_and_record(&h.fake, &players[0], ended, &h).await;
        // A lobby elsewhere: after a restart its note comes after any announcement of ended games.
        let start = h
            .fake
            .slash(&players[1], lobby, "sequence start", &[])
            .expect("start");
        h.fake
            .wait_reply(&start, STEP)
            .await
            .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    }
    h.respawn(&BotOptions::default());
    h.fake
        .shared()
        .wait_for(
            Duration::from_secs(60),
            "the lobby's restart note",
            &[lobby],
            |s| {
                s.messages_in(lobby)
                    .iter()
                    .any(|m| m.content.contains("still open"))
                    .then_some(())
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    let state = h.fake.state();
    let again: Vec<&str> = state
        .messages_in(ended)
        .iter()
        .map(|m| m.content.as_str())
        .filter(|c| c.contains("restarting"))
        .collect();
    assert!(again.is_empty(), "announced twice: {again:?}");
}
