//! Metrics, health and JSON logs, end to end with the real binary and the Discord stand-in: the bot
//! listens on `[metrics] listen` (set through `SEQUENCE_METRICS_LISTEN`, port 0); `/metrics` counts the
//! game as it is played; `/healthz` answers 503 while the gateway connection is down and 200 again once
//! the bot has resumed; with `SEQUENCE_LOG_FORMAT=json` every log line is a JSON object, and the lines
//! about the game carry its guild, channel and game ids.

use crate::support;

use std::time::{Duration, Instant};

use serde_json::Value;
use support::bot::{get, prometheus_sample as sample, scrape, BotOptions, Harness};
use support::fake_discord::{Config, DropMode};
use support::table::{TableDriver, TurnEnd, STEP};

/// Polls `path` until it answers `status` (up to `limit`); the last body.
async fn wait_status(address: &str, path: &str, status: u16, limit: Duration) -> String {
    let deadline = Instant::now() + limit;
    loop {
        let (got, body) = get(address, path).await;
        if got == status {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "{path} still answers {got} ({}) after {limit:?}; expected {status}",
            body.trim()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_follow_the_game_and_health_follows_the_gateway() {
    let options = BotOptions {
        env: vec![
            ("SEQUENCE_METRICS_LISTEN".into(), "127.0.0.1:0".into()),
            ("SEQUENCE_LOG_FORMAT".into(), "json".into()),
        ],
        ..BotOptions::default()
    };
    let h = Harness::start(Config::default(), &options)
        .await
        .expect("the bot connects to the stand-in");
    let fake = &h.fake;
    let address = h
        .bot
        .metrics_address(Duration::from_secs(30))
        .expect("a listener");
    wait_status(&address, "/readyz", 200, Duration::from_secs(30)).await;
    wait_status(&address, "/healthz", 200, Duration::from_secs(30)).await;
    assert_eq!(get(&address, "/nothing").await.0, 404);

    let before = scrape(&address).await;
    assert_eq!(
        sample(&before, "sequence_gateway_shards_connected", &[]),
        1.0
    );
    assert!(sample(&before, "process_resident_memory_bytes", &[]) > 1e6);
    let moves_before = sample(&before, "sequence_moves_total", &[("game", "classic")]);

    let players = [fake.add_user("alice"), fake.add_user("bob")];
    let channel = fake.add_channel("sequence-metrics");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .expect("a game");
    for _ in 0..3 {
        match table.play_turn().await {
            Ok(TurnEnd::Next) => {}
            Ok(TurnEnd::Over(_)) => panic!("the game ended early"),
            Err(e) => panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)),
        }
    }
    let during = scrape(&address).await;
    let game = [("game", "classic")];
    assert_eq!(
        sample(&during, "sequence_games_started_total", &game)
            - sample(&before, "sequence_games_started_total", &game),
        1.0,
        "{during}"
    );
    assert_eq!(
        sample(&during, "sequence_moves_total", &game) - moves_before,
        3.0,
        "{during}"
    );
    assert_eq!(
        sample(
            &during,
            "sequence_tables",
            &[("state", "playing"), ("game", "classic")]
        ),
        1.0,
        "{during}"
    );
    assert!(
        sample(
            &during,
            "sequence_interaction_seconds_count",
            &[("command", "sequence play")]
        ) >= 1.0
            || sample(
                &during,
                "sequence_interaction_seconds_count",
                &[("command", "button")]
            ) >= 1.0,
        "answers are timed: {during}"
    );
    assert!(
        sample(
            &during,
            "sequence_interaction_seconds_count",
            &[("command", "sequence start")]
        ) >= 1.0,
        "{during}"
    );
    assert!(
        sample(
            &during,
            "sequence_discord_requests_total",
            &[("status", "2xx")]
        ) >= 3.0,
        "{during}"
    );
    assert!(
        sample(&during, "sequence_store_seconds_count", &[("op", "save")])
            > sample(&before, "sequence_store_seconds_count", &[("op", "save")]),
        "{during}"
    );
    assert!(during.contains("sequence_store_seconds_bucket{op=\"save\",le=\"0.005\"}"));
    assert!(
        !during.contains(&fake.guild_id().to_string()),
        "no per-server label: {during}"
    );

    // The gateway drops: the stand-in holds the bot's RESUME until the next dispatch, so the shard
    // stays disconnected until a player acts.
    assert!(fake.drop_gateway(DropMode::Abrupt), "a connection to drop");
    let deadline = Instant::now() + STEP;
    let reason = loop {
        let (status, body) = get(&address, "/healthz").await;
        if status == 503 {
            break body;
        }
        assert!(
            Instant::now() < deadline,
            "/healthz still answers {status} with the gateway down\nbot log:\n{}",
            h.bot.log_tail(30)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(reason.contains("shard 0"), "{reason}");
    assert_eq!(get(&address, "/readyz").await.0, 503);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(["healthcheck", &format!("http://{address}/healthz")])
        .output()
        .expect("healthcheck runs");
    assert_eq!(
        status.status.code(),
        Some(1),
        "the healthcheck command fails"
    );
    match table.play_turn().await {
        Ok(TurnEnd::Next) => {}
        Ok(TurnEnd::Over(_)) => panic!("the game ended early"),
        Err(e) => panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)),
    }
    fake.wait_resumed(1, STEP).await.expect("resumed");
    wait_status(&address, "/healthz", 200, STEP).await;
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(["healthcheck", &format!("http://{address}/healthz")])
        .output()
        .expect("healthcheck runs");
    assert_eq!(
        status.status.code(),
        Some(0),
        "the healthcheck command passes"
    );
    let resumed = scrape(&address).await;
    assert_eq!(
        sample(
            &resumed,
            "sequence_gateway_reconnects_total",
            &[("shard", "0")]
        ),
        1.0,
        "{resumed}"
    );
    assert_eq!(
        sample(&resumed, "sequence_moves_total", &game) - moves_before,
        4.0
    );

    let stop = fake
        .slash(&players[0], channel, "sequence stop", &[])
        .expect("stop");
    support::table::record_after(fake, &stop, channel)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    let after = scrape(&address).await;
    assert_eq!(
        sample(&after, "sequence_games_finished_total", &game)
            - sample(&before, "sequence_games_finished_total", &game),
        1.0,
        "{after}"
    );
    assert_eq!(
        sample(&after, "sequence_tables", &[("state", "playing")]),
        0.0,
        "{after}"
    );

    // JSON logs: one object a line; lines about the game carry its ids.
    let log = h.bot.log();
    let mut about_games = 0;
    let mut messages = Vec::new();
    for line in log.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not a JSON log line ({e}): {line}"));
        let message = entry["message"].as_str().unwrap_or_default().to_string();
        let span = &entry["span"];
        if span["name"] == "game" || entry.get("channel").is_some() {
            about_games += 1;
            assert_eq!(span["name"], "game", "{line}");
            assert_eq!(span["guild"], fake.guild_id(), "{line}");
            assert_eq!(span["channel"], channel, "{line}");
            assert!(span["game"].as_u64().is_some_and(|g| g > 0), "{line}");
        }
        messages.push(message);
    }
    for expected in ["game started", "game ended"] {
        assert!(
            messages.iter().any(|m| m == expected),
            "a `{expected}` line: {messages:?}"
        );
    }
    assert!(about_games >= 2, "{log}");
}

/// The listener is part of the start every face shares (`src/app/`), not Discord's: the console
/// serves `/readyz`, `/healthz` and `/metrics` on `[metrics] listen` too, healthy with its store and
/// no gateway to ask, and `/metrics` counts its tables.
#[test]
fn the_console_serves_the_same_listener() {
    use std::process::Stdio;
    use support::console::Console;
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("config.toml");
    let database = dir.path().join("bot.sqlite3").display().to_string();
    std::fs::write(&config, format!("database = {database:?}\n")).expect("config");
    let log = dir.path().join("console.log");
    let stderr = std::fs::File::create(&log).expect("log file");
    let (mut console, _) = Console::start(
        &config,
        "warn,sequence_bot=info",
        &[("SEQUENCE_METRICS_LISTEN", "127.0.0.1:0")],
        Stdio::from(stderr),
    );
    // The listener is up before the restore, and the console says where once ready.
    let text = std::fs::read_to_string(&log).expect("the console's log");
    let address = text
        .lines()
        .find_map(|line| {
            let start =
                line.find("metrics and health on http://")? + "metrics and health on http://".len();
            let rest = &line[start..];
            Some(rest[..rest.find('/')?].to_string())
        })
        .unwrap_or_else(|| panic!("the console did not say where it listens:\n{text}"));
    let get = |path: &str| {
        sequence_bot::cli::http_get(&format!("http://{address}{path}"), Duration::from_secs(10))
            .unwrap_or_else(|e| panic!("GET {path}: {e}"))
    };
    assert_eq!(get("/readyz"), (200, "ok\n".to_string()));
    assert_eq!(get("/healthz"), (200, "ok\n".to_string()));
    console.ask(10, 1, serde_json::json!({"command": "start"}));
    let (status, metrics) = get("/metrics");
    assert_eq!(status, 200, "{metrics}");
    assert_eq!(
        sample(
            &metrics,
            "sequence_tables",
            &[("state", "lobby"), ("game", "classic")]
        ),
        1.0,
        "{metrics}"
    );
    assert_eq!(get("/nothing").0, 404);
    console.kill();
}
