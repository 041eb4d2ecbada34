//! `sequence-bot console` as a child process speaking JSON lines, for the tests that drive the binary
//! without the Discord stand-in: requests in one server, answers read up to their `done` line, and the
//! lines of no request (timers, computer moves, follow-ups, restart notes) kept in order.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The server every request is sent in.
pub const GUILD: u64 = 5;
/// The longest wait for one line of the bot.
pub const ANSWER: Duration = Duration::from_secs(30);

/// The console process: its stdin, its stdout parsed line by line on a thread of its own, and the
/// lines read that answered no request waited for. Killed when dropped.
pub struct Console {
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
    next_id: u64,
    /// Lines not tied to the request waited for (timers, computer players, restart notes), in order.
    pub spontaneous: Vec<Value>,
    /// When each of `spontaneous` was read, at the same index.
    pub spontaneous_at: Vec<Instant>,
}

impl Console {
    /// Starts `sequence-bot console --config <config>` with `RUST_LOG=rust_log` and `env` (no database
    /// taken from the environment), its log to `stderr`, and waits for its first line, which must say
    /// it is ready: the console and that line.
    pub fn start(
        config: &Path,
        rust_log: &str,
        env: &[(&str, &str)],
        stderr: Stdio,
    ) -> (Console, Value) {
        Console::start_with(config, &[], rust_log, env, stderr)
    }

    /// Starts the console bot with a config of its own in `dir` (its database there, slow timers, no
    /// posting budget in the way), with `args` after `--config <config>`, and waits until it is ready.
    pub fn start_in(dir: &Path, args: &[&std::ffi::OsStr]) -> Console {
        let config = dir.join("config.toml");
        let database = dir.join("bot.sqlite3");
        std::fs::write(
            &config,
            format!(
                "database = {:?}\n[timers]\ntick_secs = 60\nbot_delay_ms = 0\n\
                 [limits]\nserver_posts_per_second = 100000\nserver_post_burst = 100000\n",
                database.display().to_string()
            ),
        )
        .expect("config");
        Console::start_with(&config, args, "warn", &[], Stdio::null()).0
    }

    /// [`Console::start`] with more arguments after `--config <config>` (`--images DIR`).
    pub fn start_with(
        config: &Path,
        args: &[&std::ffi::OsStr],
        rust_log: &str,
        env: &[(&str, &str)],
        stderr: Stdio,
    ) -> (Console, Value) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
            .args(["console", "--config"])
            .arg(config)
            .args(args)
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
        let mut console = Console {
            child,
            stdin,
            lines,
            next_id: 1,
            spontaneous: Vec::new(),
            spontaneous_at: Vec::new(),
        };
        let ready = console.next_line();
        assert_eq!(ready["ready"], true, "{ready}");
        (console, ready)
    }

    /// The next line the console printed, waiting at most [`ANSWER`].
    pub fn next_line(&mut self) -> Value {
        match self.lines.recv_timeout(ANSWER) {
            Ok(value) => value,
            Err(RecvTimeoutError::Timeout) => panic!("the bot did not answer in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("the bot stopped"),
        }
    }

    fn keep(&mut self, line: Value) {
        self.spontaneous.push(line);
        self.spontaneous_at.push(Instant::now());
    }

    /// Sends a request by `user` in `channel` without waiting; its id.
    pub fn send(&mut self, channel: u64, user: u64, mut request: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        request["id"] = json!(id);
        request["guild"] = json!(GUILD);
        request["channel"] = json!(channel);
        request["user"] = json!(user);
        writeln!(self.stdin, "{request}").expect("write a request");
        self.stdin.flush().expect("flush");
        id
    }

    /// A request sent as it is (its place, `guild` or none, as given; only the id is set),
    /// answered: its outputs and whether it was refused.
    pub fn request_as_is(&mut self, mut request: Value) -> (Vec<Value>, bool) {
        let id = self.next_id;
        self.next_id += 1;
        request["id"] = json!(id);
        writeln!(self.stdin, "{request}").expect("write a request");
        self.stdin.flush().expect("flush");
        self.wait_done(id)
    }

    /// Reads until the request `id` is done: its outputs (without the `done` line) and whether it was
    /// refused. Every other line is kept as spontaneous.
    pub fn wait_done(&mut self, id: u64) -> (Vec<Value>, bool) {
        let mut outputs = Vec::new();
        loop {
            let line = self.next_line();
            if line["id"] == json!(id) {
                if line["done"] == true {
                    return (outputs, line["refused"] == true);
                }
                outputs.push(line);
            } else {
                self.keep(line);
            }
        }
    }

    /// A request, answered: its outputs and whether it was refused.
    pub fn request(&mut self, channel: u64, user: u64, request: Value) -> (Vec<Value>, bool) {
        let id = self.send(channel, user, request);
        self.wait_done(id)
    }

    /// A request that must not be refused: its outputs.
    pub fn ask(&mut self, channel: u64, user: u64, request: Value) -> Vec<Value> {
        let (outputs, refused) = self.request(channel, user, request.clone());
        assert!(!refused, "refused: {request} -> {outputs:?}");
        outputs
    }

    /// A press of the button (or menu option `value`) `custom_id`: its outputs and whether it was
    /// refused.
    pub fn press(
        &mut self,
        channel: u64,
        user: u64,
        custom_id: &str,
        value: Option<&str>,
    ) -> (Vec<Value>, bool) {
        let mut request = json!({"command": "press", "custom_id": custom_id});
        if let Some(value) = value {
            request["values"] = json!([value]);
        }
        self.request(channel, user, request)
    }

    /// The channel's table as the bot holds it (`null` without one). The console answers `dump` with
    /// one line.
    pub fn dump(&mut self, channel: u64) -> Value {
        let id = self.send(channel, 0, json!({"command": "dump"}));
        loop {
            let line = self.next_line();
            if line["id"] == json!(id) {
                return line.get("dump").cloned().unwrap_or(Value::Null);
            }
            self.keep(line);
        }
    }

    /// Keeps what arrives within `wait`.
    pub fn drain(&mut self, wait: Duration) {
        let until = Instant::now() + wait;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => self.keep(line),
                Err(_) => break,
            }
        }
    }

    /// Waits for a spontaneous channel message containing `text` (one already kept counts).
    pub fn wait_for(&mut self, channel: u64, text: &str) -> Value {
        let found = |v: &Value| {
            v["channel"] == json!(channel)
                && v["to"] == "channel"
                && v["text"].as_str().is_some_and(|t| t.contains(text))
        };
        if let Some(v) = self.spontaneous.iter().find(|v| found(v)) {
            return v.clone();
        }
        loop {
            let line = self.next_line();
            let hit = found(&line);
            self.keep(line.clone());
            if hit {
                return line;
            }
        }
    }

    /// SIGKILL, no goodbye; the process is reaped.
    pub fn kill(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The record's actions in a dump (none without a game).
pub fn actions(dump: &Value) -> Vec<Value> {
    dump["state"]["live"]["actions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The texts of some outputs, one a line (outputs without text left out).
pub fn text(outputs: &[Value]) -> String {
    outputs
        .iter()
        .filter_map(|o| o["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}
