//! Command-line tools beside the bot: `replay` (and more as the project grows).

use std::io::Read;

use crate::discord::{BotConfig, DiscordError};
use crate::engine::record::{replay_text, Record};
use crate::engine::{Config, Options, Variant};

/// Reads a file, or stdin for `-`.
pub fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
    }
}

/// `sequence-bot replay FILE|-`: prints the JSON result and returns the exit code of RECORD.md.
pub fn replay_file(path: &str) -> i32 {
    let text = match read_input(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let out = replay_text(&text);
    if let Some(s) = out.stdout {
        println!("{s}");
    }
    if let Some(s) = out.stderr {
        eprintln!("{s}");
    }
    out.code
}

/// `sequence-bot replay --seed N --players P [--teams T] [--game V]`: prints a random game's record.
pub fn random_record(variant: Variant, players: u8, teams: Option<u8>, seed: u64) -> i32 {
    match Config::new(variant, players, teams, Options::default()) {
        Ok(config) => {
            let record = Record::random_game(config, seed);
            match serde_json::to_string_pretty(&record) {
                Ok(s) => {
                    println!("{s}");
                    0
                }
                Err(e) => {
                    eprintln!("cannot print the record: {e}");
                    2
                }
            }
        }
        Err(e) => {
            eprintln!("{e}");
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
            eprintln!("sequence-bot: {e}");
            return 2;
        }
    };
    if let Err(e) = config
        .validate()
        .and_then(|()| config.checked_token().map(|_| ()))
    {
        eprintln!("sequence-bot: {e}");
        return 2;
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("sequence-bot: cannot start the async runtime: {e}");
            return 1;
        }
    };
    match runtime.block_on(crate::discord::run(config)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("sequence-bot: {e}");
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
