//! Command-line tools beside the bot: `replay` (and more as the project grows).

use std::io::Read;

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
