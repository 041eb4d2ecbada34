//! The bot binary refuses to start cleanly, with a clear message and exit code 2, when the token or the
//! configuration is wrong; it never prints the token. Without a token it starts the web pages alone.
//! (No test here contacts Discord.)

use std::process::Command;

fn bot(dir: &std::path::Path, token: Option<&str>, args: &[&str]) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sequence-bot"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("SEQUENCE_DEV_GUILD")
        .env_remove("SEQUENCE_DATABASE");
    if let Some(token) = token {
        command.env("DISCORD_TOKEN", token);
    }
    let output = command.output().expect("the binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), text)
}

/// Without a token `run` (and the bare binary) starts the web pages alone (issue 46): one line says
/// where, and the pages answer there. The example configuration is enough for it.
#[test]
fn no_token_starts_the_web_pages_alone() {
    let dir = tempfile::tempdir().unwrap();
    let example = include_str!("../../config.example.toml")
        .replace("# listen = \"127.0.0.1:8080\"", "listen = \"127.0.0.1:0\"");
    assert!(
        example.contains("\nlisten = \"127.0.0.1:0\""),
        "the example names [web] listen"
    );
    let mut bot = crate::support::bot::BotProcess::spawn_local(dir.path(), &example);
    let address = bot
        .web_address(std::time::Duration::from_secs(60))
        .unwrap_or_else(|e| panic!("{e}"));
    let url = format!("http://{address}/api/me");
    let (status, body) = sequence_bot::cli::http_get(&url, std::time::Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"local\":true"), "{body}");
    assert!(!bot.log().contains("no Discord token"), "{}", bot.log());
    bot.terminate();
    assert_eq!(bot.wait_exit(std::time::Duration::from_secs(20)), Some(0));
}

#[test]
fn a_malformed_token_is_refused_without_printing_it() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "not-a-token-SECRET123";
    let (code, text) = bot(dir.path(), Some(secret), &[]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("does not look like a bot token"), "{text}");
    assert!(!text.contains("SECRET123"), "the token was printed: {text}");
}

#[test]
fn configuration_files_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (code, text) = bot(dir.path(), None, &["run", "--config", "missing.toml"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("missing.toml"), "{text}");
    // A config.toml in the working directory is read by default.
    std::fs::write(dir.path().join("config.toml"), "tokn = \"x\"\n").unwrap();
    let (code, text) = bot(dir.path(), None, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("tokn"), "{text}");
    std::fs::write(
        dir.path().join("config.toml"),
        "token = \"abc\"\n[timers]\nturn_reminder_secs = 900\nturn_timeout_secs = 60\n",
    )
    .unwrap();
    let (code, text) = bot(dir.path(), None, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("turn_reminder_secs"), "{text}");
    // The example file is a valid configuration (only the token is missing: a malformed one is the
    // first thing refused).
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml");
    let (code, text) = bot(dir.path(), Some("x"), &["run", "--config", example]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("does not look like a bot token"), "{text}");
    // A malformed [web] listen is a clear start-up error, with or without a token.
    std::fs::write(
        dir.path().join("config.toml"),
        "[web]\nlisten = \"localhost\"\n",
    )
    .unwrap();
    let (code, text) = bot(dir.path(), None, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("web.listen"), "{text}");
    std::fs::write(
        dir.path().join("config.toml"),
        "[web]\npublic_url = \"sequence.example.org\"\n",
    )
    .unwrap();
    let (code, text) = bot(dir.path(), None, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("web.public_url"), "{text}");
}

/// Runs the binary with `stdin` as its standard input and its standard output a pipe whose reading
/// end is closed before the binary writes anything (it is closed before stdin is written, and the
/// commands read stdin to the end first); returns the exit code and standard error.
fn with_closed_stdout(args: &[&str], stdin: &[u8]) -> (i32, String) {
    use std::io::Write;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let mut input = child.stdin.take().expect("stdin");
    // The child may stop reading early (an oversized input): a failed write is fine.
    let _ = input.write_all(stdin);
    drop(input);
    let output = child.wait_with_output().expect("waits");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A random game's record, from the binary itself.
fn random_record() -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(["replay", "--seed", "5", "--players", "2"])
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(0));
    output.stdout
}

#[test]
fn a_closed_standard_output_ends_quietly() {
    let record = random_record();
    let (code, err) = with_closed_stdout(&["replay", "-"], &record);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "nothing to say: {err}");
    // An illegal record keeps its exit code (1) when its report cannot be printed.
    let text = String::from_utf8(record.clone()).unwrap();
    let illegal = text.replacen("\"cell\": \"", "\"cell\": \"Z9", 1);
    assert_ne!(illegal, text);
    let (code, err) = with_closed_stdout(&["replay", "-"], illegal.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.png");
    let out = out.to_str().unwrap();
    let (code, err) = with_closed_stdout(&["render", "-", "--out", out], &record);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(dir.path().join("board.png").exists());
    for args in [
        &["replay", "--seed", "1", "--players", "2"][..],
        &["arena", "--a", "easy", "--b", "easy", "--games", "2"][..],
    ] {
        let (code, err) = with_closed_stdout(args, b"");
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn endless_or_huge_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let huge = vec![b' '; 5 * 1024 * 1024];
    let (code, err) = with_closed_stdout(&["replay", "-"], &huge);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("standard input is larger than 4 MiB"), "{err}");
    if std::path::Path::new("/dev/zero").exists() {
        for args in [
            &["replay", "/dev/zero"][..],
            &["render", "/dev/zero", "--out", "b.png"][..],
        ] {
            let (code, text) = bot(dir.path(), None, args);
            assert_eq!(code, 2, "{args:?}: {text}");
            assert!(text.contains("/dev/zero is larger than 4 MiB"), "{text}");
            assert!(!text.contains("panicked"), "{text}");
        }
        assert!(!dir.path().join("b.png").exists());
        // The configuration file too (console reads it like `run`): refused, not read for ever.
        let (code, text) = bot(dir.path(), None, &["console", "--config", "/dev/zero"]);
        assert_eq!(code, 2, "{text}");
        assert!(text.contains("larger than 1 MiB"), "{text}");
    }
}

#[test]
fn render_draws_a_very_long_name() {
    // A 10,000-character name took minutes (the text was re-measured once per character cut); names
    // are now capped at 32 characters before drawing, and the fitting is one pass.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.json"), random_record()).unwrap();
    let long = "W".repeat(10_000);
    let names = format!("{long},{long}");
    let (code, text) = bot(
        dir.path(),
        None,
        &[
            "render",
            "game.json",
            "--out",
            "b.png",
            "--after",
            "5",
            "--seat",
            "0",
            "--names",
            &names,
        ],
    );
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("wrote b.png") && text.contains("wrote b.hand.png"),
        "{text}"
    );
    for file in ["b.png", "b.hand.png"] {
        let size = std::fs::metadata(dir.path().join(file)).unwrap().len();
        assert!(size > 10_000, "{file}: {size} bytes");
    }
}

#[test]
fn a_failing_standard_output_is_reported() {
    // /dev/full refuses every write (ENOSPC): unlike a closed pipe, that is worth a message.
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let output = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(["replay", "--seed", "1", "--players", "2"])
        .stdout(full)
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("cannot write to standard output: "),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn render_animates_a_game_and_says_what_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    // A short kids game: 22 actions.
    let record = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(["replay", "--seed", "1", "--players", "2", "--game", "kids"])
        .output()
        .expect("a record");
    std::fs::write(dir.path().join("kids.json"), &record.stdout).unwrap();
    let (code, text) = bot(
        dir.path(),
        None,
        &[
            "render",
            "kids.json",
            "--animate",
            "kids.gif",
            "--out",
            "kids.png",
        ],
    );
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("wrote kids.gif") && text.contains("wrote kids.png"),
        "{text}"
    );
    let gif = std::fs::read(dir.path().join("kids.gif")).unwrap();
    assert!(gif.starts_with(b"GIF89a"), "not a GIF");
    // Neither --out nor --animate: nothing to write.
    let (code, text) = bot(dir.path(), None, &["render", "kids.json"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("--animate"), "{text}");
    // An illegal action: refused like `replay` (exit 1), no file left.
    let mut bad: serde_json::Value = serde_json::from_slice(&record.stdout).unwrap();
    bad["actions"][0]["seat"] = serde_json::json!(1);
    std::fs::write(dir.path().join("bad.json"), bad.to_string()).unwrap();
    let (code, text) = bot(
        dir.path(),
        None,
        &["render", "bad.json", "--animate", "bad.gif"],
    );
    assert_eq!(code, 1, "{text}");
    assert!(!dir.path().join("bad.gif").exists());
}

/// A King of the Board record with a zone more than its scoring placements moved, or a centre in lower
/// case, is malformed for `replay`, `render` (also of an earlier position, `--after`) and `--animate`
/// alike: exit 2, the reason named, no file written (RECORD.md `zones`).
#[test]
fn king_of_the_board_records_with_wrong_zones_are_refused_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    // One scoring placement (the zone moves H8 -> C3), then one more move.
    let good: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(golden.join("kotb_sequence_outside_zone.json")).unwrap(),
    )
    .unwrap();
    let (code, text) = bot(
        &golden,
        None,
        &["replay", "kotb_sequence_outside_zone.json"],
    );
    assert_eq!(code, 0, "the record as the game used it: {text}");
    let mut more = good.clone();
    more["zones"] = serde_json::json!(["H8", "C3", "F6"]);
    let mut lower = good.clone();
    lower["zones"] = serde_json::json!(["H8", "c3"]);
    let mut lower_first = good;
    lower_first["zones"] = serde_json::json!(["f6", "C3"]);
    let cases = [
        (more, "3 zones are listed, but the game has 2"),
        (lower, "`c3` is not written as records write a centre: `C3`"),
        (
            lower_first,
            "`f6` is not written as records write a centre: `F6`",
        ),
    ];
    for (i, (record, reason)) in cases.iter().enumerate() {
        let name = format!("bad{i}.json");
        std::fs::write(dir.path().join(&name), record.to_string()).unwrap();
        let runs: [&[&str]; 4] = [
            &["replay", &name],
            &["render", &name, "--out", "board.png"],
            &["render", &name, "--after", "3", "--out", "board.png"],
            &["render", &name, "--animate", "game.gif"],
        ];
        for args in runs {
            let (code, text) = bot(dir.path(), None, args);
            assert_eq!(code, 2, "{args:?}: {text}");
            assert!(text.contains(reason), "{args:?}: {text}");
            assert!(text.contains("zones are wrong"), "{args:?}: {text}");
        }
        assert!(!dir.path().join("board.png").exists());
        assert!(!dir.path().join("game.gif").exists());
    }
}
