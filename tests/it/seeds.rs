//! Issue 14.1 through the real binary: two bot processes started in the same millisecond, with the
//! same process id, deal different games. Each `sequence-bot console` runs in a PID namespace of its own
//! (so both are pid 1, as in a container) and with the wall clock frozen at the same instant by
//! libfaketime, the two inputs the old seed was built from. CI installs faketime (`.ci/run`); without
//! it, or without `unshare`, the test still runs both processes and says what it could not pin.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

const FAKETIME_PATHS: [&str; 3] = [
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
];

fn faketime() -> Option<PathBuf> {
    FAKETIME_PATHS
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn unshare_works() -> bool {
    Command::new("unshare")
        .args(["--pid", "--fork", "sh", "-c", "test $$ -eq 1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Starts a console on its own database, deals a classic game (and a dice game, rolled once) and returns
/// the dumped tables; the process is spawned, not waited for.
fn spawn(dir: &Path, name: &str, pin_pid: bool, faketime: Option<&Path>) -> std::process::Child {
    let bin = env!("CARGO_BIN_EXE_sequence-bot");
    let mut command = if pin_pid {
        let mut c = Command::new("unshare");
        c.args(["--pid", "--fork", bin]);
        c
    } else {
        Command::new(bin)
    };
    command
        .args(["console"])
        .env("SEQUENCE_DATABASE", dir.join(format!("{name}.db")))
        .env_remove("SEQUENCE_DATABASE_URL")
        .env("RUST_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(lib) = faketime {
        command
            .env("LD_PRELOAD", lib)
            .env("FAKETIME", "2026-11-24 12:00:00")
            .env("DONT_FAKE_MONOTONIC", "1");
    }
    command.spawn().expect("start the bot")
}

const SCRIPT: &str = r#"{"id":1,"guild":5,"channel":10,"user":1,"command":"start","game":"classic"}
{"id":2,"guild":5,"channel":10,"user":2,"command":"join"}
{"id":3,"guild":5,"channel":10,"user":1,"command":"begin"}
{"id":4,"guild":5,"channel":10,"user":1,"command":"dump"}
{"id":5,"guild":5,"channel":20,"user":3,"command":"start","game":"dice"}
{"id":6,"guild":5,"channel":20,"user":4,"command":"join"}
{"id":7,"guild":5,"channel":20,"user":3,"command":"begin"}
{"id":8,"guild":5,"channel":20,"user":3,"command":"dump"}
"#;

/// The dumped tables of a finished console run, by request id.
fn dumps(output: &str) -> (Value, Value) {
    let mut classic = Value::Null;
    let mut dice = Value::Null;
    for line in output.lines() {
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        match value["id"].as_u64() {
            Some(4) if value.get("dump").is_some() => classic = value["dump"].clone(),
            Some(8) if value.get("dump").is_some() => dice = value["dump"].clone(),
            _ => {}
        }
    }
    (classic, dice)
}

#[test]
fn two_processes_started_in_the_same_millisecond_with_the_same_pid_deal_different_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let lib = faketime();
    let pin_pid = unshare_works();
    if lib.is_none() {
        eprintln!(
            "note: libfaketime not found (apt-get install faketime): the clocks are not frozen"
        );
    }
    if !pin_pid {
        eprintln!("note: unshare --pid is not available: the two processes have different pids");
    }
    let mut children: Vec<_> = ["a", "b"]
        .iter()
        .map(|name| spawn(dir.path(), name, pin_pid, lib.as_deref()))
        .collect();
    for child in &mut children {
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(SCRIPT.as_bytes()).expect("write requests");
    }
    let outputs: Vec<String> = children
        .into_iter()
        .map(|child| {
            let out = child
                .wait_with_output()
                .expect("the bot ends at the end of its input");
            assert!(
                out.status.success(),
                "exit {:?}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8_lossy(&out.stdout).into_owned()
        })
        .collect();
    let (classic_a, dice_a) = dumps(&outputs[0]);
    let (classic_b, dice_b) = dumps(&outputs[1]);
    let record = |table: &Value| table["state"]["live"].clone();
    for (name, table) in [("a", &classic_a), ("b", &classic_b)] {
        assert!(
            record(table)["deck"]
                .as_array()
                .is_some_and(|d| d.len() == 104),
            "process {name} dealt no classic game: {table}"
        );
    }
    // Neither the clock nor the pid decides the game: different seeds, decks and hands.
    assert_ne!(record(&classic_a)["seed"], record(&classic_b)["seed"]);
    assert_ne!(record(&classic_a)["deck"], record(&classic_b)["deck"]);
    assert_ne!(record(&dice_a)["seed"], record(&dice_b)["seed"]);
    // And the dice games have rolled nothing yet: a roll is made when the player rolls.
    for table in [&dice_a, &dice_b] {
        assert_eq!(
            record(table)["rolls"],
            serde_json::json!([]),
            "a roll exists before anyone rolled: {table}"
        );
    }
}
