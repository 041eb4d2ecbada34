//! The bot binary refuses to start cleanly, with a clear message and exit code 2, when the token or the
//! configuration is missing or wrong; it never prints the token. (No test here contacts Discord.)

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

#[test]
fn no_token_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, text) = bot(dir.path(), None, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no Discord token"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    let (code, text) = bot(dir.path(), Some("   "), &["run"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("DISCORD_TOKEN"), "{text}");
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
    // The example file is a valid configuration (only the token is missing).
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml");
    let (code, text) = bot(dir.path(), None, &["run", "--config", example]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no Discord token"), "{text}");
}
