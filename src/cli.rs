//! Command-line tools beside the bot: `replay`, `healthcheck`, `backup`, `restore` (and more as the
//! project grows). The bot's faces are started by [`crate::app::start::launch`].

use std::io::{ErrorKind, Read, Write};

use crate::app::config::BotConfig;
use crate::engine::record::{replay_text, Record};
use crate::engine::{Config, Options, Variant};
use crate::files::read_capped;

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

/// `sequence-bot healthcheck [URL]`: GETs the URL (default: `/healthz` on the configured
/// `[metrics] listen`, through the loopback when it listens on every address) and exits 0 on 200,
/// 1 otherwise, printing the answer's reason. For container health checks, where there is no curl.
pub fn healthcheck(url: Option<&str>, config_path: Option<&std::path::Path>) -> i32 {
    let target = match url {
        Some(url) => url.to_string(),
        None => {
            let config = match BotConfig::load(config_path, |key| std::env::var(key).ok()) {
                Ok(config) => config,
                Err(e) => {
                    print_error(&format!("sequence-bot healthcheck: {e}"));
                    return 2;
                }
            };
            match config.metrics.address() {
                Ok(Some(mut address)) => {
                    if address.ip().is_unspecified() {
                        address.set_ip(if address.is_ipv4() {
                            std::net::Ipv4Addr::LOCALHOST.into()
                        } else {
                            std::net::Ipv6Addr::LOCALHOST.into()
                        });
                    }
                    format!("http://{address}/healthz")
                }
                Ok(None) => {
                    print_error("sequence-bot healthcheck: no [metrics] listen address (or SEQUENCE_METRICS_LISTEN) is configured");
                    return 2;
                }
                Err(e) => {
                    print_error(&format!("sequence-bot healthcheck: {e}"));
                    return 2;
                }
            }
        }
    };
    match http_get(&target, std::time::Duration::from_secs(5)) {
        Ok((200, _)) => 0,
        Ok((status, body)) => {
            print_error(&format!(
                "sequence-bot healthcheck: {status} {}",
                body.trim()
            ));
            1
        }
        Err(e) => {
            print_error(&format!("sequence-bot healthcheck: {target}: {e}"));
            1
        }
    }
}

/// A plain `GET` over HTTP/1.1 of an `http://host:port/path` URL: the status code and the body
/// (at most 64 KiB).
pub fn http_get(url: &str, timeout: std::time::Duration) -> Result<(u16, String), String> {
    use std::net::ToSocketAddrs;
    let rest = url
        .strip_prefix("http://")
        .ok_or("only http:// URLs are supported")?;
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let address = host
        .to_socket_addrs()
        .map_err(|e| e.to_string())?
        .next()
        .ok_or("the host has no address")?;
    let mut stream =
        std::net::TcpStream::connect_timeout(&address, timeout).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| e.to_string())?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    stream
        .take(64 * 1024)
        .read_to_end(&mut answer)
        .map_err(|e| e.to_string())?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or("not an HTTP answer")?;
    Ok((status, body.to_string()))
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
