//! The real `sequence-bot` binary as a child process, configured to reach the stand-in: a temporary
//! folder with `config.toml` (token, `[network]` proxy and CA, database, fast timers) and the bot's log.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::fake_discord::FakeDiscord;

/// The environment variables that could point a bot anywhere else than where a test puts it.
pub const BOT_ENV: [&str; 20] = [
    "DISCORD_TOKEN",
    "DISCORD_CLIENT_SECRET",
    "SEQUENCE_DEV_GUILD",
    "SEQUENCE_DATABASE",
    "SEQUENCE_DATABASE_URL",
    "SEQUENCE_SHARDS",
    "SEQUENCE_SHARD_TOTAL",
    "SEQUENCE_METRICS_LISTEN",
    "SEQUENCE_LOG_FORMAT",
    "SEQUENCE_WEB_LISTEN",
    "SEQUENCE_WEB_PUBLIC_URL",
    "SEQUENCE_WEB_LOCAL",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
];

/// A running bot process; killed when dropped.
pub struct BotProcess {
    child: Child,
    dir: PathBuf,
    log: PathBuf,
}

/// Settings of a bot run.
#[derive(Clone, Debug)]
pub struct BotOptions {
    /// Register the commands in the stand-in's guild (instant) rather than globally.
    pub guild_commands: bool,
    /// Milliseconds before each computer move.
    pub bot_delay_ms: u64,
    /// Timer check interval, seconds.
    pub tick_secs: u64,
    /// Seconds before a player to move is reminded, and before the computer plays for them.
    pub turn_secs: (u64, u64),
    /// Seconds before an unanswered invitation to a challenge lapses.
    pub challenge_secs: u64,
    /// `RUST_LOG` for the child.
    pub log_filter: String,
    /// The `[limits]` section. The stand-in has one guild, so by default its tables stand for many
    /// servers: the per-server limits are raised out of the way (tests of the limits set their own).
    pub limits: String,
    /// A PostgreSQL URL to store games in, instead of a SQLite file in the bot's folder.
    pub database_url: Option<String>,
    /// More configuration, appended at the end (whole sections, such as `[sharding]`).
    pub extra_config: String,
    /// The name the process gives the stand-in's proxy (`http://NAME:x@…`), which records it with
    /// each request (`RecordedRequest::client`): tells several bot processes apart.
    pub proxy_user: Option<String>,
    /// Environment variables for the child (after the ones that could point it elsewhere are removed).
    pub env: Vec<(String, String)>,
    /// A file the child reads as its standard input (none: empty).
    pub stdin: Option<PathBuf>,
}

impl Default for BotOptions {
    fn default() -> Self {
        BotOptions {
            guild_commands: true,
            bot_delay_ms: 0,
            tick_secs: 1,
            turn_secs: (3000, 6000),
            challenge_secs: 600,
            log_filter: "info,serenity=warn,poise=warn".into(),
            limits: "tables_per_server = 100000\nserver_posts_per_second = 100000\n\
                     server_post_burst = 100000"
                .into(),
            database_url: None,
            extra_config: String::new(),
            proxy_user: None,
            env: Vec::new(),
            stdin: None,
        }
    }
}

/// Writes the bot's `config.toml` (and the stand-in's CA) into `dir`: its path.
pub fn write_config(fake: &FakeDiscord, dir: &Path, options: &BotOptions) -> PathBuf {
    let ca = dir.join("fake-discord-ca.pem");
    std::fs::write(&ca, fake.ca_pem()).expect("write the stand-in's CA");
    let database = match &options.database_url {
        Some(url) => format!("database_url = {url:?}"),
        None => format!(
            "database = {:?}",
            dir.join("sequence-bot.sqlite3").display().to_string()
        ),
    };
    let proxy = match &options.proxy_user {
        Some(user) => fake
            .rest_url()
            .replacen("http://", &format!("http://{user}:x@"), 1),
        None => fake.rest_url(),
    };
    let dev_guild = if options.guild_commands {
        format!("dev_guild = {}\n", fake.guild_id())
    } else {
        String::new()
    };
    let config = format!(
            "token = {token:?}\n{dev_guild}{database}\n\n\
             [timers]\nturn_reminder_secs = {reminder}\nturn_timeout_secs = {timeout}\nlobby_timeout_secs = 6000\n\
             challenge_timeout_secs = {challenge}\nbot_delay_ms = {delay}\ntick_secs = {tick}\n\n\
             [limits]\n{limits}\n\
             [network]\nhttps_proxy = {proxy:?}\nextra_root_certificates = {ca:?}\n{extra}\n",
            token = fake.token(),
            delay = options.bot_delay_ms,
            tick = options.tick_secs,
            reminder = options.turn_secs.0,
            timeout = options.turn_secs.1,
            challenge = options.challenge_secs,
            limits = options.limits,
            ca = ca.display().to_string(),
            extra = options.extra_config,
        );
    let config_path = dir.join("config.toml");
    std::fs::write(&config_path, config).expect("write config.toml");
    config_path
}

impl BotProcess {
    /// Writes the configuration into `dir` and starts the bot there.
    pub fn spawn(fake: &FakeDiscord, dir: &Path, options: &BotOptions) -> BotProcess {
        let config_path = write_config(fake, dir, options);
        let log = dir.join(format!("bot-{}.log", std::process::id()));
        BotProcess::spawn_with_config(dir, &config_path, options, log)
    }

    /// Starts the bot without a token in `dir` with `config` as its `config.toml` (and a SQLite file
    /// `sequence-bot.sqlite3` there unless `config` names a database): the web pages alone.
    pub fn spawn_local(dir: &Path, config: &str) -> BotProcess {
        let database = format!(
            "database = {:?}\n",
            dir.join("sequence-bot.sqlite3").display().to_string()
        );
        let config = if config.contains("database") {
            config.to_string()
        } else {
            database + config
        };
        let config_path = dir.join("config.toml");
        std::fs::write(&config_path, config).expect("write config.toml");
        // A log of its own for each start, so that what a started bot says is its own.
        static STARTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let start = STARTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let log = dir.join(format!("bot-{}-{start}.log", std::process::id()));
        BotProcess::spawn_with_config(dir, &config_path, &BotOptions::default(), log)
    }

    /// Starts the bot in `dir` with the configuration at `config_path`, logging to `log`.
    fn spawn_with_config(
        dir: &Path,
        config_path: &Path,
        options: &BotOptions,
        log: PathBuf,
    ) -> BotProcess {
        let log_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .expect("log file");
        let mut command = Command::new(env!("CARGO_BIN_EXE_sequence-bot"));
        command
            .arg("run")
            .arg("--config")
            .arg(config_path)
            .current_dir(dir)
            .stdin(match &options.stdin {
                Some(path) => Stdio::from(std::fs::File::open(path).expect("the bot's input")),
                None => Stdio::null(),
            })
            .stdout(log_file.try_clone().expect("log file"))
            .stderr(log_file)
            .env("RUST_LOG", &options.log_filter);
        // Nothing from the environment may point the bot anywhere else.
        for key in BOT_ENV {
            command.env_remove(key);
        }
        for (key, value) in &options.env {
            command.env(key, value);
        }
        let child = command.spawn().expect("start sequence-bot");
        BotProcess {
            child,
            dir: dir.to_path_buf(),
            log,
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The folder the bot runs in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Peak resident memory (VmHWM) in KiB, from /proc.
    pub fn peak_rss_kib(&self) -> Option<u64> {
        status_field(self.pid(), "VmHWM:")
    }

    /// Current resident memory (VmRSS) in KiB, from /proc.
    pub fn rss_kib(&self) -> Option<u64> {
        status_field(self.pid(), "VmRSS:")
    }

    /// Asks the process to stop (SIGTERM, as `docker stop` does).
    pub fn terminate(&self) {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.pid().to_string())
            .status();
    }

    /// Kills the process at once (SIGKILL), as a crash would, and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits up to `limit` for the process to exit; its exit code.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let deadline = std::time::Instant::now() + limit;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// What the bot has logged so far.
    pub fn log(&self) -> String {
        let mut text = String::new();
        if let Ok(mut file) = std::fs::File::open(&self.log) {
            let _ = file.read_to_string(&mut text);
        }
        text
    }

    /// The address of the bot's metrics listener (`[metrics] listen`, port 0 allowed), from the line
    /// the bot logs once it listens: waits up to `limit`.
    pub fn metrics_address(&self, limit: Duration) -> Result<String, String> {
        let deadline = std::time::Instant::now() + limit;
        loop {
            let log = self.log();
            let found = log.lines().find_map(|line| {
                let start = line.find("metrics and health on http://")?
                    + "metrics and health on http://".len();
                let rest = &line[start..];
                Some(rest[..rest.find('/')?].to_string())
            });
            if let Some(address) = found {
                return Ok(address);
            }
            if std::time::Instant::now() >= deadline {
                return Err(format!(
                    "the bot did not say where its metrics are\nbot log:\n{}",
                    self.log_tail(40)
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The address of the web pages, from the line the bot prints once they are served without a
    /// token (`Play Sequence in your browser: http://ADDRESS/`) or logs beside Discord (`web pages
    /// on http://ADDRESS/`): waits up to `limit`.
    pub fn web_address(&self, limit: Duration) -> Result<String, String> {
        const SAID: [&str; 2] = [
            "Play Sequence in your browser: http://",
            "web pages on http://",
        ];
        let deadline = std::time::Instant::now() + limit;
        loop {
            let log = self.log();
            let found = log.lines().find_map(|line| {
                let (at, said) = SAID
                    .iter()
                    .find_map(|said| line.find(said).map(|at| (at, said)))?;
                let rest = &line[at + said.len()..];
                Some(rest[..rest.find('/')?].to_string())
            });
            if let Some(address) = found {
                return Ok(address);
            }
            if std::time::Instant::now() >= deadline {
                return Err(format!(
                    "the bot did not say where its pages are\nbot log:\n{}",
                    self.log_tail(40)
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The last `lines` lines of the log, for failure messages.
    pub fn log_tail(&self, lines: usize) -> String {
        let log = self.log();
        let all: Vec<&str> = log.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

fn status_field(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with(field))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The bot run inside the test process (the library's `run_with_painter`, not the binary), configured
/// as [`BotProcess`] is, with its pictures drawn by `painter`: for tests that hold drawing up. It logs
/// nothing. Stopped when dropped.
pub struct InProcessBot {
    task: tokio::task::JoinHandle<()>,
}

impl InProcessBot {
    /// Writes the configuration into `dir` and starts the bot on the test's runtime.
    pub fn spawn(
        fake: &FakeDiscord,
        dir: &Path,
        options: &BotOptions,
        painter: std::sync::Arc<dyn sequence_bot::app::paint::Painter>,
    ) -> InProcessBot {
        let path = write_config(fake, dir, options);
        let text = std::fs::read_to_string(path).expect("read config.toml");
        let config =
            sequence_bot::app::config::BotConfig::from_toml(&text).expect("config.toml parses");
        let task = tokio::spawn(async move {
            if let Err(e) = sequence_bot::discord::run_with_painter(config, painter).await {
                eprintln!("the in-process bot stopped: {e}");
            }
        });
        InProcessBot { task }
    }
}

impl Drop for InProcessBot {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The stand-in, the bot connected to it (commands registered), and the bot's folder.
pub struct Harness {
    /// The stand-in.
    pub fake: FakeDiscord,
    /// The bot.
    pub bot: BotProcess,
    /// The bot's folder (config, database, log), removed at the end.
    pub dir: tempfile::TempDir,
}

impl Harness {
    /// Starts a stand-in with `config`, then the bot, and waits until the bot has identified and
    /// registered `/sequence`.
    pub async fn start(
        config: super::fake_discord::Config,
        options: &BotOptions,
    ) -> Result<Harness, String> {
        let fake = FakeDiscord::start(config).await?;
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let bot = BotProcess::spawn(&fake, dir.path(), options);
        let harness = Harness { fake, bot, dir };
        harness.wait_connected().await?;
        Ok(harness)
    }

    /// [`Harness::start`] with the stand-in's and the bot's defaults; a bot that does not connect fails
    /// the test.
    pub async fn started() -> Harness {
        Harness::start(
            super::fake_discord::Config::default(),
            &BotOptions::default(),
        )
        .await
        .expect("the bot connects to the stand-in")
    }

    /// Waits until the bot has identified and `/sequence` is registered.
    pub async fn wait_connected(&self) -> Result<(), String> {
        let limit = Duration::from_secs(60);
        self.fake
            .wait_ready(limit)
            .await
            .map_err(|e| format!("{e}\nbot log:\n{}", self.bot.log_tail(40)))?;
        self.fake
            .wait_command("sequence", limit)
            .await
            .map_err(|e| format!("{e}\nbot log:\n{}", self.bot.log_tail(40)))?;
        Ok(())
    }

    /// Waits until the bot has identified `count` times in all (once per process: after a restart).
    pub async fn wait_identified(&self, count: usize) {
        self.fake
            .shared()
            .wait_for(
                Duration::from_secs(60),
                "the restarted bot to identify",
                &[],
                |s| (s.gateway.identifies >= count).then_some(()),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", self.bot.log_tail(40)));
    }

    /// Restarts the bot process in the same folder (same database).
    pub fn respawn(&mut self, options: &BotOptions) {
        self.bot.kill();
        self.bot = BotProcess::spawn(&self.fake, self.dir.path(), options);
    }
}

/// GETs `path` from the bot's metrics and health listener at `address`: status and body.
pub async fn get(address: &str, path: &str) -> (u16, String) {
    let url = format!("http://{address}{path}");
    tokio::task::spawn_blocking(move || {
        sequence_bot::cli::http_get(&url, Duration::from_secs(10))
            .unwrap_or_else(|e| panic!("GET {url}: {e}"))
    })
    .await
    .expect("the GET ran")
}

/// The bot's `/metrics` text (which must answer 200).
pub async fn scrape(address: &str) -> String {
    let (status, body) = get(address, "/metrics").await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The sum of the samples of `name` whose labels include every one of `labels` (Prometheus text).
pub fn prometheus_sample(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let (metric, label_text) = match series.split_once('{') {
                Some((metric, rest)) => (metric, rest.trim_end_matches('}')),
                None => (series, ""),
            };
            let wanted = metric == name
                && labels
                    .iter()
                    .all(|(k, v)| label_text.split(',').any(|l| l == format!("{k}=\"{v}\"")));
            wanted.then(|| value.parse::<f64>().ok()).flatten()
        })
        .sum()
}
