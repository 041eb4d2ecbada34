//! Command-line tools beside the bot: `replay` (and more as the project grows).

use std::io::{ErrorKind, Read, Write};

use crate::discord::{BotConfig, DiscordError};
use crate::engine::record::{replay_text, Record};
use crate::engine::{Config, Options, Variant};

/// The largest record (or other input file) the command-line tools read: a classic game's record is
/// a few KB, the longest golden game 12 KB, so 4 MiB is generous and still keeps `replay /dev/zero` from
/// reading without end.
pub const MAX_INPUT_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a file, or stdin for `-`, refusing anything above [`MAX_INPUT_BYTES`] or not UTF-8.
pub fn read_input(path: &str) -> Result<String, String> {
    let (what, result) = if path == "-" {
        (
            "standard input".to_string(),
            read_capped(std::io::stdin().lock(), MAX_INPUT_BYTES),
        )
    } else {
        let result = std::fs::File::open(path).and_then(|f| read_capped(f, MAX_INPUT_BYTES));
        (path.to_string(), result)
    };
    match result {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err(format!(
            "{what} is larger than {} MiB: not a game record",
            MAX_INPUT_BYTES / (1024 * 1024)
        )),
        Err(e) if e.kind() == ErrorKind::InvalidData => {
            Err(format!("cannot read {what}: it is not UTF-8 text"))
        }
        Err(e) => Err(format!("cannot read {what}: {e}")),
    }
}

/// Reads at most `cap` bytes of text: `None` when there is more.
pub fn read_capped(reader: impl Read, cap: u64) -> std::io::Result<Option<String>> {
    let mut text = String::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_string(&mut text)?;
    if text.len() as u64 > cap {
        return Ok(None);
    }
    Ok(Some(text))
}

/// Writes `text` and a newline to standard output. A reader that went away (`replay … | head`) is
/// not an error worth a word: `Ok` then, and the caller exits as usual. Other failures come back as
/// a message.
pub fn print_line(text: &str) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write to standard output: {e}")),
    }
}

/// Writes `text` and a newline to standard error; a closed or broken standard error is ignored (there
/// is nowhere left to say so), where `eprintln!` would panic.
pub fn print_error(text: &str) {
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let _ = writeln!(err, "{text}").and_then(|()| err.flush());
}

/// `sequence-bot replay FILE|-`: prints the JSON result and returns the exit code of RECORD.md.
pub fn replay_file(path: &str) -> i32 {
    let text = match read_input(path) {
        Ok(t) => t,
        Err(e) => {
            print_error(&e);
            return 2;
        }
    };
    let out = replay_text(&text);
    if let Some(s) = out.stdout {
        if let Err(e) = print_line(&s) {
            print_error(&e);
            return 2;
        }
    }
    if let Some(s) = out.stderr {
        print_error(&s);
    }
    out.code
}

/// `sequence-bot replay --seed N --players P [--teams T] [--game V]`: prints a random game's record.
pub fn random_record(variant: Variant, players: u8, teams: Option<u8>, seed: u64) -> i32 {
    match Config::new(variant, players, teams, Options::default()) {
        Ok(config) => {
            let record = Record::random_game(config, seed);
            match serde_json::to_string_pretty(&record) {
                Ok(s) => match print_line(&s) {
                    Ok(()) => 0,
                    Err(e) => {
                        print_error(&e);
                        2
                    }
                },
                Err(e) => {
                    print_error(&format!("cannot print the record: {e}"));
                    2
                }
            }
        }
        Err(e) => {
            print_error(&e.to_string());
            2
        }
    }
}

/// `sequence-bot [run] [--config PATH]`: runs the Discord bot. Exit code 2 for a configuration or token
/// problem found before connecting, 1 when Discord refuses or the connection fails.
pub fn run_bot(config_path: Option<&std::path::Path>) -> i32 {
    init_logging();
    let config = match BotConfig::load(config_path, |key| std::env::var(key).ok()) {
        Ok(config) => config,
        Err(e) => {
            print_error(&format!("sequence-bot: {e}"));
            return 2;
        }
    };
    if let Err(e) = config
        .validate()
        .and_then(|()| config.checked_token().map(|_| ()))
    {
        print_error(&format!("sequence-bot: {e}"));
        return 2;
    }
    let runtime = match crate::service::runtime() {
        Ok(runtime) => runtime,
        Err(e) => {
            print_error(&format!(
                "sequence-bot: cannot start the async runtime: {e}"
            ));
            return 1;
        }
    };
    match runtime.block_on(crate::discord::run(config)) {
        Ok(()) => 0,
        Err(e) => {
            print_error(&format!("sequence-bot: {e}"));
            match e {
                DiscordError::MissingToken
                | DiscordError::MalformedToken
                | DiscordError::Config(_) => 2,
                _ => 1,
            }
        }
    }
}

/// Logs to stderr; `RUST_LOG` chooses the detail (default: this crate at info, the rest at warn).
pub(crate) fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,sequence_bot=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// The SQLite file of the configuration, or the exit code and message for a configuration without one.
fn sqlite_database(config_path: Option<&std::path::Path>) -> Result<std::path::PathBuf, i32> {
    let config = match BotConfig::load(config_path, |key| std::env::var(key).ok()) {
        Ok(config) => config,
        Err(e) => {
            print_error(&format!("sequence-bot: {e}"));
            return Err(2);
        }
    };
    let database = config.database_config();
    if database.database_url.is_some() {
        print_error(
            "sequence-bot: the games are in PostgreSQL (`database_url`); back it up with PostgreSQL's \
             own tools (pg_dump, pg_restore), see docs/operating.md",
        );
        return Err(2);
    }
    Ok(database.path)
}

/// Megabytes, for messages.
fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// `sequence-bot backup OUT [--config PATH]`: a consistent copy of the SQLite database, taken while the
/// bot may be running. Exit code 0 with a summary, 2 for a configuration or an `OUT` that cannot be
/// used, 1 when the copy fails.
pub fn backup(out: &std::path::Path, config_path: Option<&std::path::Path>) -> i32 {
    let database = match sqlite_database(config_path) {
        Ok(database) => database,
        Err(code) => return code,
    };
    match crate::store::backup::backup(&database, out) {
        Ok(summary) => {
            let line = format!(
                "backed up {} to {}: {} games in progress, {} finished games, {} (schema {})",
                database.display(),
                out.display(),
                summary.live_tables,
                summary.finished_games,
                megabytes(summary.bytes),
                summary.schema_version
            );
            match print_line(&line) {
                Ok(()) => 0,
                Err(e) => {
                    print_error(&e);
                    1
                }
            }
        }
        Err(e @ (crate::store::StoreError::Io { .. } | crate::store::StoreError::Config(_))) => {
            print_error(&format!("sequence-bot: {e}"));
            2
        }
        Err(e) => {
            print_error(&format!("sequence-bot: the backup failed: {e}"));
            1
        }
    }
}

/// `sequence-bot restore BACKUP [--config PATH]`: puts a backup in place of the SQLite database (the bot
/// must be stopped); the database it replaces is kept beside it. Exit code 0 with a summary, 2 for a
/// backup that does not check out or a configuration without a SQLite file, 1 when the bot is running
/// or the files cannot be moved.
pub fn restore(from: &std::path::Path, config_path: Option<&std::path::Path>) -> i32 {
    use crate::store::StoreError;
    let database = match sqlite_database(config_path) {
        Ok(database) => database,
        Err(code) => return code,
    };
    match crate::store::backup::restore(from, &database) {
        Ok(restored) => {
            let kept = restored.replaced.map_or(String::new(), |kept| {
                format!("; the database it replaced is kept as {}", kept.display())
            });
            let line = format!(
                "restored {} from {}: {} games in progress, {} finished games{kept}. Start the bot to go on.",
                database.display(),
                from.display(),
                restored.summary.live_tables,
                restored.summary.finished_games,
            );
            match print_line(&line) {
                Ok(()) => 0,
                Err(e) => {
                    print_error(&e);
                    1
                }
            }
        }
        Err(
            e @ (StoreError::Corrupt { .. }
            | StoreError::SchemaTooNew { .. }
            | StoreError::Unreadable { .. }),
        ) => {
            print_error(&format!(
                "sequence-bot: {} cannot be restored, nothing was changed: {e}",
                from.display()
            ));
            2
        }
        Err(e) => {
            print_error(&format!("sequence-bot: nothing was restored: {e}"));
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_capped() {
        let read = |bytes: &[u8], cap| read_capped(bytes, cap).expect("reads");
        assert_eq!(read(b"abcd", 4).as_deref(), Some("abcd"));
        assert_eq!(read(b"abcde", 4), None);
        assert_eq!(read(b"", 4).as_deref(), Some(""));
        let err = read_capped(&[0xff, 0xfe][..], 4).expect_err("not UTF-8");
        assert_eq!(err.kind(), ErrorKind::InvalidData);
    }

    #[test]
    fn oversized_and_binary_files_are_refused_clearly() {
        let dir = tempfile::tempdir().expect("tempdir");
        let big = dir.path().join("big.json");
        let size = usize::try_from(MAX_INPUT_BYTES).expect("fits") + 1;
        std::fs::write(&big, vec![b' '; size]).expect("write");
        let err = read_input(&big.display().to_string()).expect_err("too big");
        assert!(err.contains("larger than 4 MiB"), "{err}");
        let exact = dir.path().join("exact.json");
        std::fs::write(&exact, vec![b' '; size - 1]).expect("write");
        assert_eq!(
            read_input(&exact.display().to_string()).map(|t| t.len()),
            Ok(size - 1)
        );
        let binary = dir.path().join("binary.json");
        std::fs::write(&binary, [0xff, 0x00, 0xc3]).expect("write");
        let err = read_input(&binary.display().to_string()).expect_err("binary");
        assert!(err.ends_with("it is not UTF-8 text"), "{err}");
        let err =
            read_input(&dir.path().join("missing").display().to_string()).expect_err("missing");
        assert!(err.starts_with("cannot read "), "{err}");
    }
}
