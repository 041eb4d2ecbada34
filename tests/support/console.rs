//! `sequence-bot console` as a child process speaking JSON lines, for the tests that drive the binary
//! without the Discord stand-in.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use serde_json::Value;

/// The console process: its stdin, and its stdout parsed line by line on a thread of its own.
pub struct Process {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<Value>,
}

impl Process {
    /// Starts `sequence-bot console --config <config>` with `RUST_LOG=rust_log` and `env` (no database
    /// taken from the environment), its log to `stderr`.
    pub fn spawn(config: &Path, rust_log: &str, env: &[(&str, &str)], stderr: Stdio) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
            .args(["console", "--config"])
            .arg(config)
            .env("RUST_LOG", rust_log)
            .env_remove("SEQUENCE_DATABASE")
            .env_remove("SEQUENCE_DATABASE_URL")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start the console");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("not JSON from the bot ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        Process {
            child,
            stdin,
            lines,
        }
    }
}

/// The next line the console printed, waiting at most `limit`.
pub fn next_line(lines: &Receiver<Value>, limit: Duration) -> Value {
    match lines.recv_timeout(limit) {
        Ok(value) => value,
        Err(RecvTimeoutError::Timeout) => panic!("the bot did not answer in time"),
        Err(RecvTimeoutError::Disconnected) => panic!("the bot stopped"),
    }
}
