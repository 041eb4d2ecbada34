//! Issue 14.4 through the real binary (`sequence-bot console` with a `[limits]` section): tables per
//! user and per server, computer players per table, the posting budget per server, and a host who gave
//! up. Each refusal is private and changes nothing.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// Runs the console with `limits` on a fresh database, feeds it `requests` (ids are added in order)
/// and returns, per request, (refused, the texts of its outputs).
fn run(limits: &str, requests: &[Value]) -> Vec<(bool, Vec<String>)> {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, format!("[limits]\n{limits}\n")).expect("config");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(["console", "--config"])
        .arg(&config)
        .env("SEQUENCE_DATABASE", dir.path().join("bot.db"))
        .env_remove("SEQUENCE_DATABASE_URL")
        .env("RUST_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the bot");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for (i, request) in requests.iter().enumerate() {
            let mut request = request.clone();
            request["id"] = json!(i + 1);
            writeln!(stdin, "{request}").expect("write");
        }
    }
    let out = child.wait_with_output().expect("the bot ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut results = vec![(false, Vec::new()); requests.len()];
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let Some(i) = value["id"].as_u64().and_then(|i| usize::try_from(i).ok()) else {
            continue;
        };
        let Some(slot) = results.get_mut(i - 1) else {
            continue;
        };
        if value["done"] == true {
            slot.0 = value["refused"] == true;
        } else if let Some(text) = value["text"].as_str() {
            slot.1.push(text.to_string());
        }
    }
    results
}

fn req(guild: u64, channel: u64, user: u64, command: &str) -> Value {
    json!({"guild": guild, "channel": channel, "user": user, "command": command})
}

#[test]
fn tables_per_user_and_per_server_and_bots_per_table() {
    let results = run(
        "tables_per_user = 2\ntables_per_server = 3\nbots_per_table = 1",
        &[
            req(5, 1, 1, "start"),
            req(5, 2, 1, "start"),
            req(5, 3, 1, "start"), // a third for user 1: refused
            req(5, 3, 2, "start"),
            req(5, 4, 3, "start"), // a fourth in server 5: refused
            req(6, 4, 3, "start"), // another server: fine
            req(5, 1, 1, "bot_add"),
            req(5, 1, 1, "bot_add"), // a second computer: refused
            req(5, 4, 3, "dump"),
        ],
    );
    let refused: Vec<bool> = results.iter().map(|r| r.0).collect();
    assert_eq!(
        refused,
        [false, false, true, false, true, false, false, true, false]
    );
    assert!(results[2].1.join(" ").contains("already have 2 open games"));
    assert!(results[4]
        .1
        .join(" ")
        .contains("server already has 3 open games"));
    assert!(results[7].1.join(" ").contains("at most 1 computer"));
}

#[test]
fn past_the_posting_budget_the_player_is_asked_to_wait() {
    let mut requests = vec![
        req(5, 1, 1, "start"),
        req(5, 1, 2, "join"),
        req(5, 1, 1, "begin"),
    ];
    requests.extend((0..10).map(|_| req(5, 1, 1, "board")));
    requests.push(req(5, 1, 1, "status"));
    let results = run(
        "server_posts_per_second = 1\nserver_post_burst = 8",
        &requests,
    );
    assert!(results[..3].iter().all(|r| !r.0), "{results:?}");
    let boards = &results[3..13];
    let first_busy = boards
        .iter()
        .position(|r| r.0)
        .expect("the budget runs out");
    assert!(first_busy < 8);
    assert!(boards[first_busy]
        .1
        .join(" ")
        .contains("try again in a few seconds"));
    // Private answers are not posts.
    assert!(!results[13].0);
}

#[test]
fn a_host_who_gave_up_cannot_stop_the_game_but_a_player_can() {
    let results = run(
        "",
        &[
            req(5, 1, 1, "start"),
            req(5, 1, 2, "join"),
            req(5, 1, 3, "join"),
            req(5, 1, 1, "begin"),
            req(5, 1, 1, "forfeit"),
            req(5, 1, 1, "stop"), // the host who gave up: refused
            req(5, 1, 2, "stop"), // a player still in it: stops it
        ],
    );
    let refused: Vec<bool> = results.iter().map(|r| r.0).collect();
    assert_eq!(refused, [false, false, false, false, false, true, false]);
    assert!(results[5].1.join(" ").contains("The host has given up"));
}

/// Issue 24.1, the script of the report through the binary: twenty times, user 1 starts a two-team
/// lobby, user 2 joins team 2, user 1 adds `easy`, `hard`, `easy`, `hard` (two `easy` teammates for
/// user 1, two `hard` ones for user 2), starts, and user 2 gives up at once. Every game is aborted:
/// nobody wins, and user 1 has no rated game, no game and no win afterwards.
#[test]
fn twenty_forfeits_by_a_second_account_move_no_rating() {
    let mut requests = Vec::new();
    for channel in 1..=20 {
        let mut start = req(6, channel, 1, "start");
        start["teams"] = json!(2);
        let mut join = req(6, channel, 2, "join");
        join["team"] = json!(2);
        requests.extend([start, join]);
        for level in ["easy", "hard", "easy", "hard"] {
            let mut add = req(6, channel, 1, "bot_add");
            add["level"] = json!(level);
            requests.push(add);
        }
        requests.push(req(6, channel, 1, "begin"));
        requests.push(req(6, channel, 2, "forfeit"));
    }
    requests.push(req(6, 99, 1, "stats"));
    requests.push(req(6, 99, 1, "leaderboard"));
    requests.push(req(6, 99, 1, "history"));
    // A budget that lets the script run at full speed, as it would over minutes.
    let results = run(
        "server_posts_per_second = 100000\nserver_post_burst = 100000",
        &requests,
    );
    for (i, (refused, texts)) in results.iter().enumerate() {
        assert!(
            !refused,
            "request {i} ({}) was refused: {texts:?}",
            requests[i]
        );
    }
    for game in 0..20 {
        let forfeit = results[game * 8 + 7].1.join("\n");
        assert!(forfeit.contains("Aborted"), "game {game}: {forfeit}");
        assert!(!forfeit.contains("wins"), "game {game}: {forfeit}");
        let lobby = results[game * 8 + 5].1.join("\n");
        assert!(lobby.contains("Rated"), "game {game}: {lobby}");
    }
    let n = requests.len();
    let stats = results[n - 3].1.join("\n");
    assert!(stats.contains("has not finished a game"), "{stats}");
    let leaderboard = results[n - 2].1.join("\n");
    assert!(!leaderboard.contains("<@1>"), "{leaderboard}");
    let history = results[n - 1].1.join("\n");
    assert_eq!(history.matches("aborted").count(), 10, "{history}");
}
