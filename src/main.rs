//! The `sequence-bot` binary: the Discord bot, and command-line tools around the engine.

use clap::{Parser, Subcommand};

use sequence_bot::ai::arena;
use sequence_bot::app::config::BotConfig;
use sequence_bot::app::start::{add_beside, launch, LogLayer, Program};
use sequence_bot::cli;
use sequence_bot::console::ConsoleFace;
use sequence_bot::discord::{Bot, DiscordError};
use sequence_bot::engine::Variant;
use sequence_bot::web::{LocalFace, WebBeside};

#[derive(Parser)]
#[command(
    name = "sequence-bot",
    version,
    about = "A Discord bot for Sequence, Sequence Dice and Sequence for Kids"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the bot (the default): on Discord with a token, plus the web pages if `[web] listen` is
    /// set; without a token, the web pages alone (local play, http://127.0.0.1:8080/ by default).
    /// Config from `config.toml` in the working directory if present, or from --config; the
    /// DISCORD_TOKEN environment variable overrides the token.
    Run {
        /// The configuration file (see config.example.toml).
        #[arg(long)]
        config: Option<std::path::PathBuf>,
    },
    /// Exit 0 if the running bot's `/healthz` answers 200, 1 otherwise (for container health checks):
    /// the URL, or `/healthz` on the configured `[metrics] listen` address.
    Healthcheck {
        /// The URL to check (default: from the configuration).
        url: Option<String>,
        /// The configuration file (see config.example.toml).
        #[arg(long)]
        config: Option<std::path::PathBuf>,
    },
    /// Development and tests: the bot without Discord, driven by JSON lines on stdin (see
    /// `src/console.rs`); same service, database, restore and timers as `run`.
    #[command(hide = true)]
    Console {
        /// The configuration file (see config.example.toml).
        #[arg(long)]
        config: Option<std::path::PathBuf>,
        /// Write every image the bot would post to this folder, named by message.
        #[arg(long)]
        images: Option<std::path::PathBuf>,
    },
    /// Check a game record (FILE or - for stdin) and print the final state as JSON; or, with --seed and
    /// --players, play a random game and print its record.
    Replay {
        /// The record file, or `-` for standard input.
        file: Option<String>,
        /// Seed of a random game to generate.
        #[arg(long)]
        seed: Option<u64>,
        /// Players of the random game.
        #[arg(long)]
        players: Option<u8>,
        /// Teams of the random game.
        #[arg(long)]
        teams: Option<u8>,
        /// Game of the random game: classic, dice or kids.
        #[arg(long, default_value = "classic")]
        game: String,
    },
    /// Draw a recorded game's board as PNG after K actions (default: all); with --seat N also that seat's
    /// hand, written to --hand-out or next to --out as NAME.hand.png; with --animate, the whole game as an
    /// animated GIF.
    Render {
        /// The record file, or `-` for standard input.
        record: String,
        /// Where to write the board PNG.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Where to write the whole game as an animated GIF (one frame per move).
        #[arg(long)]
        animate: Option<std::path::PathBuf>,
        /// Also draw this seat's hand (seats count from 0).
        #[arg(long)]
        seat: Option<u8>,
        /// Replay only the first K actions.
        #[arg(long)]
        after: Option<usize>,
        /// Where to write the hand PNG (default: OUT with `.hand.png`).
        #[arg(long)]
        hand_out: Option<std::path::PathBuf>,
        /// Seat names, comma-separated, in seat order.
        #[arg(long, value_delimiter = ',')]
        names: Vec<String>,
        /// Language of the words on the images: en-US, de or no.
        #[arg(long, default_value = "en-US")]
        lang: String,
    },
    /// Write a consistent copy of the SQLite database to OUT (a new file), safe while the bot runs.
    Backup {
        /// The backup file to write; it must not exist.
        out: std::path::PathBuf,
        /// The configuration file naming the database (see config.example.toml).
        #[arg(long)]
        config: Option<std::path::PathBuf>,
    },
    /// Put a backup in place of the SQLite database (stop the bot first); the replaced database is kept
    /// beside it as DATABASE.before-restore-<unix ms>.
    Restore {
        /// The backup file to restore.
        backup: std::path::PathBuf,
        /// The configuration file naming the database (see config.example.toml).
        #[arg(long)]
        config: Option<std::path::PathBuf>,
    },
    /// Play seeded matches between two computer levels, seats swapped every game, and print wins, draws
    /// and a 95% confidence interval.
    Arena {
        /// Player A: easy, medium or hard, or the frozen baseline hard-20261129 (`hard` as it played on
        /// 2026-11-29; only the arena plays it).
        #[arg(long)]
        a: String,
        /// Player B: the same choices as A.
        #[arg(long)]
        b: String,
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Seed of the first game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Game: classic, dice or kids.
        #[arg(long, default_value = "classic")]
        game: String,
        /// Players.
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// Longest thinking time of `hard` per move, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        budget_ms: u64,
        /// Search iterations of `hard` per move (default 3000; 0: no limit, only the time counts). It
        /// stops at whichever limit comes first.
        #[arg(long)]
        iterations: Option<u32>,
        /// `hard` spends its whole budget instead of stopping once one move is clearly best.
        #[arg(long)]
        no_early_stop: bool,
        /// B's own `--budget-ms`.
        #[arg(long)]
        b_budget_ms: Option<u64>,
        /// B's own `--iterations`.
        #[arg(long)]
        b_iterations: Option<u32>,
        /// B spends its whole budget (`--no-early-stop` for B only).
        #[arg(long)]
        b_no_early_stop: bool,
        /// Game mode: classic or king_of_the_board (classic game only).
        #[arg(long)]
        mode: Option<String>,
        /// Points that win a king_of_the_board game (2 to 10; default 3).
        #[arg(long)]
        points_to_win: Option<u8>,
        /// A plays king_of_the_board games without knowing the zone (as if they were classic).
        #[arg(long)]
        a_no_zone: bool,
        /// B plays king_of_the_board games without knowing the zone (as if they were classic).
        #[arg(long)]
        b_no_zone: bool,
        /// Play each deal twice, seats swapped (games 2k and 2k+1 share a deal): paired comparisons.
        #[arg(long)]
        paired: bool,
        /// Games played at once (1 or 2).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

/// glibc gives threads that allocate their own malloc arenas (up to eight per core) and keeps what they
/// held: with boards drawn on blocking threads, the bot's peak memory under load was twice what it is with
/// two arenas (165 MB against 82 MB with 200 games at once, tests/e2e_load.rs). The environment variable
/// MALLOC_ARENA_MAX, if set, still wins.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn limit_malloc_arenas() {
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    // glibc's M_ARENA_MAX parameter number (malloc.h).
    const M_ARENA_MAX: libc::c_int = -8;
    // SAFETY: mallopt only sets an allocator parameter; it is called before any other thread exists.
    unsafe {
        libc::mallopt(M_ARENA_MAX, 2);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn limit_malloc_arenas() {}

/// `sequence-bot run`: the Discord face with a token (the web pages beside it when `[web] listen` is
/// set), the web pages alone ([`LocalFace`]) without one.
struct Run;

impl Program for Run {
    type Error = DiscordError;

    fn log_layer(&self) -> Option<LogLayer> {
        Bot.log_layer()
    }

    fn check(&self, config: &BotConfig) -> Result<(), String> {
        match config.has_token() {
            true => Bot.check(config),
            false => LocalFace.check(config),
        }
    }

    async fn run(self, config: BotConfig) -> Result<(), DiscordError> {
        if !config.has_token() {
            return LocalFace.run(config).await.map_err(DiscordError::from);
        }
        add_beside(std::sync::Arc::new(WebBeside::default()));
        Bot.run(config).await
    }

    fn exit_code(error: &DiscordError) -> i32 {
        Bot::exit_code(error)
    }
}

fn main() {
    limit_malloc_arenas();
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Replay {
            file,
            seed,
            players,
            teams,
            game,
        }) => match (file, seed, players) {
            (Some(file), None, None) => cli::replay_file(&file),
            (None, Some(seed), Some(players)) => match game.parse::<Variant>() {
                Ok(variant) => cli::random_record(variant, players, teams, seed),
                Err(e) => {
                    cli::print_error(&e.to_string());
                    2
                }
            },
            _ => {
                cli::print_error("usage: sequence-bot replay FILE|-   or   sequence-bot replay --seed N --players P [--teams T] [--game classic|dice|kids]");
                2
            }
        },
        Some(Command::Render {
            record,
            out,
            animate,
            seat,
            after,
            hand_out,
            names,
            lang,
        }) => sequence_bot::render::cli::run(&sequence_bot::render::cli::RenderArgs {
            record,
            out,
            animate,
            seat,
            after,
            hand_out,
            names,
            lang: sequence_bot::i18n::Lang::from_locale(&lang),
        }),
        Some(Command::Run { config }) => {
            if std::env::var_os(sequence_bot::console::BESIDE).is_some() {
                // Tests only: the console as a second face beside Discord.
                let _ = sequence_bot::discord::BESIDE.set(sequence_bot::console::spawn_beside);
            }
            launch(config.as_deref(), Run)
        }
        Some(Command::Healthcheck { url, config }) => {
            cli::healthcheck(url.as_deref(), config.as_deref())
        }
        Some(Command::Backup { out, config }) => cli::backup(&out, config.as_deref()),
        Some(Command::Restore { backup, config }) => cli::restore(&backup, config.as_deref()),
        Some(Command::Console { config, images }) => {
            launch(config.as_deref(), ConsoleFace { images })
        }
        Some(Command::Arena {
            a,
            b,
            games,
            seed,
            game,
            players,
            budget_ms,
            iterations,
            no_early_stop,
            b_budget_ms,
            b_iterations,
            b_no_early_stop,
            threads,
            mode,
            points_to_win,
            a_no_zone,
            b_no_zone,
            paired,
        }) => arena::run_cli(&arena::Args {
            a,
            b,
            games,
            seed,
            game,
            players,
            budget_ms,
            iterations,
            no_early_stop,
            b_budget_ms,
            b_iterations,
            b_no_early_stop,
            threads,
            mode,
            points_to_win,
            a_no_zone,
            b_no_zone,
            paired,
        }),
        None => launch(None, Run),
    };
    std::process::exit(code);
}
