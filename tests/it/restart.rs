//! Issue 6: games survive restarts. The real binary (`sequence-bot console`: the service, store,
//! restore and timers of the bot, without Discord) is killed with SIGKILL at several points: right
//! after an acknowledged move, with a move in flight, while computer players move. Started again on the
//! same database, every lobby and game continues from the last acknowledged action (same board, hands,
//! turn and turn deadline), and each channel gets a "resumed" note. SQLite always; PostgreSQL too when
//! `SEQUENCE_BOT_TEST_POSTGRES_URL` is set (`source .ci/postgres.sh`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::console::{actions, Console, ANSWER, GUILD};

use sequence_bot::engine::{GameRng, Move, MoveList};
use sequence_bot::service::Table;

/// The whole scenario must end within this.
const WHOLE: Duration = Duration::from_secs(240);

/// A classic game between users 1 and 2.
const CLASSIC: u64 = 10;
/// A dice game between users 3 and 4.
const DICE: u64 = 20;
/// A lobby of user 5.
const LOBBY: u64 = 30;
/// User 6 against two computer players.
const BOTS: u64 = 40;

/// Starts the binary (its log appended to `log`) and waits until it is ready.
fn start(config: &Path, log: &Path) -> (Console, Value) {
    start_with(config, log, &[])
}

/// [`start`] with extra environment variables.
fn start_with(config: &Path, log: &Path, env: &[(&str, &str)]) -> (Console, Value) {
    let stderr = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .expect("log file");
    Console::start(config, "warn,sequence_bot=info", env, Stdio::from(stderr))
}

/// A table from a dump.
fn table(dump: &Value) -> Table {
    serde_json::from_value(dump.clone()).unwrap_or_else(|e| panic!("not a table ({e}): {dump}"))
}

/// The next human action in a channel (dice: a roll first): who, and the request.
fn next_human_action(dump: &Value, rng: &mut GameRng) -> Option<(u64, Value)> {
    if dump.is_null() {
        return None;
    }
    let table = table(dump);
    let playing = table.playing()?;
    let game = playing.live.game();
    if game.position().is_over() {
        return None;
    }
    let seat = game.position().to_move();
    let user = playing.seats.get(usize::from(seat))?.user()?.0;
    if !game.config().variant.has_cards() && !playing.rolled {
        return Some((user, json!({"command": "roll"})));
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let moves: Vec<Move> = moves.into_iter().filter(|m| *m != Move::Pass).collect();
    let mv = *moves.get(rng.below(moves.len() as u32) as usize)?;
    let layout = game.position().layout();
    let request = match mv {
        Move::Play { card, cell } => {
            json!({"command": "play", "card": card.to_string(), "cell": layout.cell_name(cell)})
        }
        Move::Exchange { card } => json!({"command": "exchange", "card": card.to_string()}),
        Move::Place { cell } => json!({"command": "play", "cell": layout.cell_name(cell)}),
        Move::Remove { cell } => json!({"command": "remove", "cell": layout.cell_name(cell)}),
        Move::Pass => return None,
    };
    Some((user, request))
}

/// The texts of some outputs.
fn texts(outputs: &[Value]) -> Vec<String> {
    outputs
        .iter()
        .map(|v| v["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Plays `n` acknowledged human actions in a channel.
fn play(bot: &mut Console, channel: u64, n: usize, rng: &mut GameRng) {
    for _ in 0..n {
        let dump = bot.dump(channel);
        let Some((user, request)) = next_human_action(&dump, rng) else {
            return;
        };
        bot.ask(channel, user, request);
    }
}

/// Opens the games that are not running (at the start, and again when one ended).
fn open_games(bot: &mut Console) {
    if bot.dump(CLASSIC).is_null() {
        bot.ask(CLASSIC, 1, json!({"command": "start", "game": "classic"}));
        bot.ask(CLASSIC, 2, json!({"command": "join"}));
        bot.ask(CLASSIC, 1, json!({"command": "begin"}));
    }
    if bot.dump(DICE).is_null() {
        bot.ask(DICE, 3, json!({"command": "start", "game": "dice"}));
        bot.ask(DICE, 4, json!({"command": "join"}));
        bot.ask(DICE, 3, json!({"command": "begin"}));
    }
    if bot.dump(BOTS).is_null() {
        bot.ask(BOTS, 6, json!({"command": "start", "game": "classic"}));
        bot.ask(BOTS, 6, json!({"command": "bot_add"}));
        bot.ask(BOTS, 6, json!({"command": "bot_add", "level": "medium"}));
        bot.ask(BOTS, 6, json!({"command": "begin"}));
    }
}

/// Moves of computer players announced in a channel among `outputs`.
fn announced_moves(outputs: &[Value], channel: u64) -> usize {
    outputs
        .iter()
        .filter(|v| v["channel"] == json!(channel) && v["to"] == "channel" && v["id"].is_null())
        .filter(|v| {
            v["text"].as_str().is_some_and(|t| {
                t.contains("**Computer")
                    && (t.contains(" played ")
                        || t.contains(" exchanged ")
                        || t.contains(" removed "))
            })
        })
        .count()
}

/// Waits until the human of the bots' channel is to move (the computer players have moved), or the
/// game has ended (`null`).
fn wait_for_human(bot: &mut Console, deadline: Instant) -> Value {
    loop {
        let dump = bot.dump(BOTS);
        if dump.is_null() {
            return dump;
        }
        let t = table(&dump);
        let playing = t.playing().expect("playing");
        let seat = playing.live.game().position().to_move();
        if playing.seats[usize::from(seat)].user().is_some() {
            return dump;
        }
        assert!(
            Instant::now() < deadline,
            "the computer players never finished"
        );
        bot.drain(Duration::from_millis(30));
    }
}

/// Prints the bot's log if the test fails.
struct ShowLogOnFailure(std::path::PathBuf);

impl Drop for ShowLogOnFailure {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let log = std::fs::read_to_string(&self.0).unwrap_or_default();
            eprintln!("---- the bot's log ----\n{log}");
        }
    }
}

/// The whole scenario on one database configuration.
fn scenario(database: &str) {
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.toml");
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    std::fs::write(
        &config,
        format!(
            "{database}\n[timers]\ntick_secs = 1\nbot_delay_ms = 15\nturn_reminder_secs = 300\nturn_timeout_secs = 900\n[limits]\nserver_posts_per_second = 1000\nserver_post_burst = 1000\n"
        ),
    )
    .expect("config");
    let mut rng = GameRng::new(2024);

    let (mut bot, ready) = start(&config, &log);
    assert_eq!(ready["restored"], json!([]), "a fresh database");
    bot.ask(LOBBY, 5, json!({"command": "start", "game": "kids"}));
    bot.ask(LOBBY, 5, json!({"command": "bot_add"}));

    // Kill points: right after an acknowledged move; a while after one; with a move in flight; while
    // the computer players move.
    for round in 0..6 {
        assert!(started.elapsed() < WHOLE, "the scenario took too long");
        open_games(&mut bot);
        wait_for_human(&mut bot, started + WHOLE);
        play(&mut bot, CLASSIC, 1 + rng.below(4) as usize, &mut rng);
        play(&mut bot, DICE, 1 + rng.below(4) as usize, &mut rng);
        // A game may end early (in dice, two 10s on an empty board draw the game): start it again.
        open_games(&mut bot);
        let mut bots_from = None;
        if round % 3 == 2 {
            // The human moves; the computer players answer while the bot is killed.
            let dump = wait_for_human(&mut bot, started + WHOLE);
            if let Some((user, request)) = next_human_action(&dump, &mut rng) {
                bot.ask(BOTS, user, request);
                let acknowledged = bot.dump(BOTS);
                bots_from = Some((acknowledged, bot.spontaneous.len()));
                bot.drain(Duration::from_millis(u64::from(rng.below(40))));
            }
        }
        let expected: Vec<(u64, Value)> = [CLASSIC, DICE, LOBBY]
            .into_iter()
            .map(|c| (c, bot.dump(c)))
            .collect();
        let hand_of_1 = texts(&bot.ask(CLASSIC, 1, json!({"command": "hand"})));
        let mut in_flight = None;
        if round % 3 == 1 {
            // A move sent and not acknowledged: after the restart it happened or not, nothing between.
            let (user, request) = next_human_action(&expected[0].1, &mut rng).expect("a move");
            bot.send(CLASSIC, user, request);
            in_flight = Some(actions(&expected[0].1).len());
            std::thread::sleep(Duration::from_millis(u64::from(rng.below(4))));
        } else if round % 2 == 1 {
            std::thread::sleep(Duration::from_millis(u64::from(rng.below(30))));
        }
        // Whatever the bot printed before dying counts as announced.
        let spontaneous_before_kill = {
            bot.drain(Duration::from_millis(0));
            bot.spontaneous.clone()
        };
        bot.kill();

        let (mut again, ready) = start(&config, &log);
        assert_eq!(ready["lost"], json!([]), "round {round}: nothing lost");
        let mut restored: Vec<u64> = ready["restored"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        restored.sort_unstable();
        // Every table there was (the bots' game may have ended just before the kill).
        let mut required: Vec<u64> = expected
            .iter()
            .filter(|(_, dump)| !dump.is_null())
            .map(|(c, _)| *c)
            .collect();
        if restored.contains(&BOTS) {
            required.push(BOTS);
        }
        required.sort_unstable();
        assert_eq!(restored, required, "round {round}");
        assert!(
            required.contains(&LOBBY) && required.len() >= 3,
            "{required:?}"
        );
        for (channel, before) in &expected {
            let after = again.dump(*channel);
            match in_flight {
                Some(n) if *channel == CLASSIC => {
                    // The acknowledged state, or it plus the move in flight.
                    let got = actions(&after);
                    assert!(
                        got.len() == n || got.len() == n + 1,
                        "round {round}: {} actions, {n} acknowledged",
                        got.len()
                    );
                    assert_eq!(got[..n], actions(before)[..]);
                    if got.len() == n {
                        assert_eq!(&after, before, "round {round}: not played, nothing changed");
                    }
                }
                _ => assert_eq!(
                    &after, before,
                    "round {round}: channel {channel} is restored exactly"
                ),
            }
        }
        // The turn deadline is kept (it had not passed): same start of the turn.
        let classic = again.dump(CLASSIC);
        if in_flight.is_none() && !classic.is_null() {
            let before = &expected[0].1;
            assert_eq!(
                classic["state"]["turn_started"], before["state"]["turn_started"],
                "round {round}"
            );
            let hand = texts(&again.ask(CLASSIC, 1, json!({"command": "hand"})));
            assert_eq!(hand, hand_of_1, "round {round}: the same hand");
        }
        // The computer players' channel: every move they announced before the kill was saved.
        if let Some((acknowledged, seen)) = bots_from.filter(|_| restored.contains(&BOTS)) {
            let after = again.dump(BOTS);
            let base = actions(&acknowledged).len();
            let got = actions(&after);
            assert!(
                got.len() >= base,
                "round {round}: an acknowledged move is lost"
            );
            assert_eq!(got[..base], actions(&acknowledged)[..]);
            let announced = announced_moves(&spontaneous_before_kill[seen..], BOTS);
            assert!(
                got.len() - base >= announced,
                "round {round}: {announced} computer moves announced, {} saved",
                got.len() - base
            );
        }
        // Each channel hears that its game goes on.
        for channel in required.iter().filter(|c| **c != LOBBY) {
            again.wait_for(*channel, "goes on where it was");
        }
        again.wait_for(LOBBY, "lobby in this channel is still open");
        // And it does: the computer players finish their turns, the humans move on.
        wait_for_human(&mut again, started + WHOLE);
        play(&mut again, CLASSIC, 1, &mut rng);
        bot = again;
    }
    bot.kill();
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!log.contains("database is locked"), "{log}");
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn games_survive_kill_9_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("data/bot.db");
    scenario(&format!("database = {:?}", path.display().to_string()));
}

#[test]
fn games_survive_kill_9_on_postgresql() {
    let Ok(url) = std::env::var("SEQUENCE_BOT_TEST_POSTGRES_URL") else {
        println!(
            "note: PostgreSQL restart test skipped: SEQUENCE_BOT_TEST_POSTGRES_URL is not set"
        );
        return;
    };
    if url.is_empty() {
        return;
    }
    // A schema of its own, through the connection's search path.
    let schema = format!("restart_{}", std::process::id());
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    admin
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .expect("schema");
    let separator = if url.contains('?') { '&' } else { '?' };
    let with_schema = format!("{url}{separator}options=-c%20search_path%3D{schema}");
    let result = std::panic::catch_unwind(|| {
        scenario(&format!("database_url = {with_schema:?}"));
    });
    let _ = admin.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// Runs the binary on a configuration that must not start: its exit code and what it printed on
/// standard error.
fn start_fails(config: &Path) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(["console", "--config"])
        .arg(config)
        .env("RUST_LOG", "warn,sequence_bot=info")
        .env_remove("SEQUENCE_DATABASE")
        .env_remove("SEQUENCE_DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the bot");
    let until = Instant::now() + ANSWER;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            panic!("the bot started instead of refusing");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        !stdout.contains("\"ready\""),
        "it must not be ready: {stdout}"
    );
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A configuration for a SQLite file in `dir`; the config file and the database path. No posting
/// budget to run out of: the edits of old prompts count as posts, as on Discord, and these tests play
/// faster than a server's budget allows.
fn sqlite_config(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let path = dir.join("bot.db");
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "database = {:?}\n[timers]\ntick_secs = 1\nbot_delay_ms = 15\n\
             [limits]\nserver_posts_per_second = 100000\nserver_post_burst = 100000\n",
            path.display().to_string()
        ),
    )
    .expect("config");
    (config, path)
}

/// The files in `dir` whose names contain `part`.
fn files_named(dir: &Path, part: &str) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .expect("list")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(part))
        .collect()
}

/// Two games (classic and dice) with a few moves each, then SIGKILL; their tables as they were.
fn two_live_games(config: &Path, log: &Path) -> Vec<(u64, Value)> {
    let mut rng = GameRng::new(77);
    let (mut bot, _) = start(config, log);
    bot.ask(CLASSIC, 1, json!({"command": "start", "game": "classic"}));
    bot.ask(CLASSIC, 2, json!({"command": "join"}));
    bot.ask(CLASSIC, 1, json!({"command": "begin"}));
    bot.ask(DICE, 3, json!({"command": "start", "game": "dice"}));
    bot.ask(DICE, 4, json!({"command": "join"}));
    bot.ask(DICE, 3, json!({"command": "begin"}));
    play(&mut bot, CLASSIC, 3, &mut rng);
    play(&mut bot, DICE, 2, &mut rng);
    let tables = [CLASSIC, DICE]
        .into_iter()
        .map(|c| (c, bot.dump(c)))
        .collect();
    bot.kill();
    tables
}

/// Adds 30 finished games to a database (through the store, as 30 games played to the end would).
fn thirty_finished_games(path: &Path) {
    use sequence_bot::engine::record::Record;
    use sequence_bot::engine::{Config, Options, Variant};
    use sequence_bot::store::{FinishedGame, PlayerResult, SqliteStore, Store};
    let store = SqliteStore::open(path).expect("open");
    for n in 0..30u64 {
        let config = Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
        let record = Record::random_game(config, 500 + n);
        let player = |user: u64, team: u8| PlayerResult {
            user_id: user,
            name: format!("User{user}"),
            team,
            won: team == (n % 2) as u8,
            sequences: 0,
            bot_level: None,
            gave_up: false,
        };
        store
            .finish_game(&FinishedGame {
                guild_id: Some(GUILD),
                channel_id: 1000 + n,
                variant: "classic".into(),
                record_json: serde_json::to_string(&record).expect("json"),
                finished_at: 1_700_000_000_000 + n as i64,
                started_at: None,
                players: vec![player(1, 0), player(2, 1)],
                rated: None,
                aborted: false,
                web_token: None,
            })
            .expect("finish");
        store
            .mark_announced(sequence_bot::store::GameId(n as i64 + 1))
            .expect("announced");
    }
    close_store(store, path);
}

/// The pages of one b-tree (table or index) of a database, root first.
fn pages_of(path: &Path, name: &str) -> Vec<(i64, String)> {
    let conn = rusqlite::Connection::open(path).expect("open");
    let pages = conn
        .prepare("SELECT pageno, pagetype FROM dbstat WHERE name = ?1 ORDER BY path")
        .expect("dbstat")
        .query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<Vec<_>, _>>()
        .expect("rows");
    pages
}

/// Overwrites 16 bytes at the start of a page (4096 bytes each).
fn damage_page(path: &Path, page: i64) {
    let mut bytes = std::fs::read(path).expect("read");
    let start = usize::try_from(page - 1).expect("page") * 4096;
    for b in &mut bytes[start..start + 16] {
        *b = 0xA5;
    }
    std::fs::write(path, bytes).expect("write");
}

/// Finished games of the test server in a database.
fn finished_games(path: &Path) -> usize {
    use sequence_bot::store::{SqliteStore, Store};
    let store = SqliteStore::open(path).expect("open");
    let games = store.recent_games(Some(GUILD), 1000).expect("games").len();
    close_store(store, path);
    games
}

/// Drops a store this test process opened and waits until nobody holds its lock on `PATH.lock` any
/// more. Another test of this process that starts a program at the same moment holds a copy of every
/// open file from its fork until its exec (microseconds, longer on a busy machine); a bot started
/// while such a copy still held the lock would refuse the database as in use by another process.
fn close_store(store: sequence_bot::store::SqliteStore, path: &Path) {
    drop(store);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let mut lock = path.as_os_str().to_os_string();
        lock.push(".lock");
        let inode = std::fs::metadata(&lock).expect("the lock file").ino();
        // `/proc/locks`: `1: FLOCK  ADVISORY  WRITE 4711 00:2a:123456 0 EOF` (device:inode).
        let held = || {
            std::fs::read_to_string("/proc/locks")
                .unwrap_or_default()
                .lines()
                .any(|l| {
                    l.contains("FLOCK")
                        && l.split_whitespace().any(|f| {
                            f.rsplit_once(':')
                                .is_some_and(|(_, ino)| ino == inode.to_string())
                        })
                })
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while held() {
            assert!(Instant::now() < deadline, "the store's lock stays held");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

#[test]
fn a_damaged_index_page_loses_nothing_and_both_games_go_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, path) = sqlite_config(dir.path());
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    let before = two_live_games(&config, &log);
    thirty_finished_games(&path);
    let index = pages_of(&path, "games_by_guild");
    assert!(!index.is_empty());
    damage_page(&path, index[0].0);
    let damaged = std::fs::read(&path).expect("read");

    let (mut bot, ready) = start(&config, &log);
    assert_eq!(ready["restored"], json!([CLASSIC, DICE]), "{ready}");
    assert_eq!(ready["lost"], json!([]), "{ready}");
    for (channel, dump) in &before {
        assert_eq!(
            &bot.dump(*channel),
            dump,
            "channel {channel} restored exactly"
        );
        bot.wait_for(*channel, "goes on where it was");
    }
    bot.kill();
    assert_eq!(finished_games(&path), 30, "the history is whole");
    let kept: Vec<_> = files_named(dir.path(), "bot.db.damaged-")
        .into_iter()
        .filter(|p| {
            let name = p.to_string_lossy();
            !name.ends_with("-wal") && !name.ends_with("-shm")
        })
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        std::fs::read(&kept[0]).expect("kept"),
        damaged,
        "kept untouched"
    );
    let log = std::fs::read_to_string(&log).expect("log");
    assert!(log.contains("damaged"), "{log}");
    assert!(!log.contains("rows of this table were lost"), "{log}");
}

#[test]
fn damaged_live_tables_get_the_not_restored_note_and_the_history_stays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, path) = sqlite_config(dir.path());
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    let before = two_live_games(&config, &log);
    thirty_finished_games(&path);
    // The live tables' page (both games' rows); their channels are still listed by an index.
    let pages = pages_of(&path, "live_tables");
    damage_page(&path, pages[0].0);

    let (mut bot, ready) = start(&config, &log);
    let ids = |key: &str| -> Vec<u64> {
        ready[key]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(Value::as_u64)
            .collect()
    };
    let (restored, mut lost) = (ids("restored"), ids("lost"));
    lost.sort_unstable();
    assert_eq!(lost, vec![CLASSIC, DICE], "{ready}");
    assert!(restored.is_empty(), "{ready}");
    for (channel, dump) in &before {
        if restored.contains(channel) {
            assert_eq!(
                &bot.dump(*channel),
                dump,
                "channel {channel} restored exactly"
            );
            bot.wait_for(*channel, "goes on where it was");
        } else {
            assert!(bot.dump(*channel).is_null());
            bot.wait_for(*channel, "could not be restored");
        }
    }
    bot.kill();
    assert_eq!(finished_games(&path), 30, "the history is whole");
    let log = std::fs::read_to_string(&log).expect("log");
    assert!(
        log.contains("the live table of this channel was lost"),
        "{log}"
    );
}

#[test]
fn a_database_of_which_nothing_can_be_read_refuses_to_start_and_is_left_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, path) = sqlite_config(dir.path());
    let garbage = b"this is not a SQLite database, whatever its name says".repeat(100);
    std::fs::write(&path, &garbage).expect("write");
    let (code, stderr) = start_fails(&config);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains(&path.display().to_string()), "{stderr}");
    assert!(stderr.contains("nothing in it can be read"), "{stderr}");
    assert_eq!(std::fs::read(&path).expect("kept"), garbage, "untouched");
    assert!(files_named(dir.path(), "bot.db.")
        .iter()
        .all(|p| p.to_string_lossy().ends_with(".lock")));
}

/// Issue 24.5: a `bot.db.lock` planted as a link to the database (or to another file, or to
/// nowhere) no longer truncates what it points to: the bot refuses to start, names the lock file,
/// and leaves every file as it was; once the link is removed it starts with its games.
#[cfg(unix)]
#[test]
fn a_lock_file_that_is_a_link_refuses_to_start_and_truncates_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, path) = sqlite_config(dir.path());
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    thirty_finished_games(&path);
    let lock = dir.path().join("bot.db.lock");
    std::fs::remove_file(&lock).expect("the lock file of the store that wrote the games");
    let database = std::fs::read(&path).expect("read");
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, "keep me").expect("write");
    let nowhere = dir.path().join("nowhere");
    for target in [&path, &other, &nowhere] {
        std::os::unix::fs::symlink(target, &lock).expect("plant the link");
        let (code, stderr) = start_fails(&config);
        assert_eq!(code, 1, "{}: {stderr}", target.display());
        assert!(stderr.contains(&lock.display().to_string()), "{stderr}");
        assert!(stderr.contains("symbolic link"), "{stderr}");
        assert!(!stderr.contains("damaged"), "{stderr}");
        assert_eq!(std::fs::read(&path).expect("read"), database, "untouched");
        assert_eq!(std::fs::read(&other).expect("read"), b"keep me");
        assert!(!nowhere.exists(), "nothing created through the link");
        assert!(
            files_named(dir.path(), "bot.db.damaged").is_empty(),
            "no repair was attempted"
        );
        std::fs::remove_file(&lock).expect("remove the link");
    }
    let (bot, _) = start(&config, &log);
    bot.kill();
    assert_eq!(finished_games(&path), 30, "the history is whole");
}

#[test]
fn a_second_process_on_one_database_refuses_to_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, path) = sqlite_config(dir.path());
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    let (mut first, _) = start(&config, &log);
    first.ask(CLASSIC, 1, json!({"command": "start", "game": "classic"}));
    first.ask(CLASSIC, 2, json!({"command": "join"}));
    first.ask(CLASSIC, 1, json!({"command": "begin"}));
    let game = first.dump(CLASSIC);
    let (code, stderr) = start_fails(&config);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains(&path.display().to_string()), "{stderr}");
    assert!(stderr.contains("another sequence-bot process"), "{stderr}");
    // The first one is undisturbed and keeps its game.
    assert_eq!(first.dump(CLASSIC), game);
    first.ask(CLASSIC, 3, json!({"command": "status"}));
    first.kill();
    let (mut again, ready) = start(&config, &log);
    assert_eq!(
        ready["restored"],
        json!([CLASSIC]),
        "the lock went with the process"
    );
    assert_eq!(again.dump(CLASSIC), game);
    again.kill();
}

#[cfg(unix)]
#[test]
fn a_read_only_database_file_or_folder_refuses_to_start() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    std::fs::create_dir(&data).expect("folder");
    let (config, path) = sqlite_config(&data);
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    let (mut bot, _) = start(&config, &log);
    bot.ask(LOBBY, 5, json!({"command": "start", "game": "kids"}));
    bot.kill();
    let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600, "the database is private");
    let set = |p: &Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod")
    };

    set(&path, 0o400);
    let (code, stderr) = start_fails(&config);
    set(&path, 0o600);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains(&path.display().to_string()), "{stderr}");
    assert!(stderr.contains("cannot be written"), "{stderr}");

    set(&data, 0o500);
    let (code, stderr) = start_fails(&config);
    set(&data, 0o700);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains(&data.display().to_string()), "{stderr}");
    assert!(stderr.contains("cannot be written"), "{stderr}");

    let (bot, ready) = start(&config, &log);
    assert_eq!(
        ready["restored"],
        json!([LOBBY]),
        "writable again: all there"
    );
    bot.kill();
}

#[test]
fn a_game_that_ended_just_before_a_kill_is_announced_after_the_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, path) = sqlite_config(dir.path());
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    let (mut bot, _) = start_with(
        &config,
        &log,
        &[("SEQUENCE_BOT_TEST_DIE_BEFORE_ANNOUNCING", "1")],
    );
    bot.ask(CLASSIC, 1, json!({"command": "start", "game": "classic"}));
    bot.ask(CLASSIC, 2, json!({"command": "join"}));
    bot.ask(CLASSIC, 1, json!({"command": "begin"}));
    play(&mut bot, CLASSIC, 2, &mut GameRng::new(5));
    // The host stops the game: it is stored as finished, and the process dies before saying so.
    bot.send(CLASSIC, 1, json!({"command": "stop"}));
    let status = bot.child.wait().expect("it dies");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(9), "SIGKILL: {status:?}");
    }
    assert!(!status.success());
    bot.drain(Duration::from_millis(200));
    assert!(
        !bot.spontaneous.iter().any(|v| v["text"]
            .as_str()
            .is_some_and(|t| t.contains("Saved as game"))),
        "nothing was announced before the kill: {:?}",
        bot.spontaneous
    );
    assert_eq!(finished_games(&path), 1, "stored as finished");

    let (mut again, ready) = start(&config, &log);
    assert_eq!(ready["restored"], json!([]), "{ready}");
    let note = again.wait_for(CLASSIC, "ended just as I was restarting");
    let text = note["text"].as_str().unwrap_or_default();
    assert!(text.contains("Saved as game #1"), "{text}");
    assert_eq!(note["image"], "board", "{note}");
    assert!(
        note["attachment"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("actions")),
        "{note}"
    );
    assert!(again.dump(CLASSIC).is_null());
    again.kill();

    // Announced once: not again at the next start.
    let (mut third, _) = start(&config, &log);
    third.drain(Duration::from_millis(1500));
    assert!(
        !third
            .spontaneous
            .iter()
            .any(|v| v["text"].as_str().is_some_and(|t| t.contains("restarting"))),
        "{:?}",
        third.spontaneous
    );
    third.kill();
}

#[test]
fn a_game_ended_by_a_timeout_is_not_announced_again_after_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bot.db");
    let config = dir.path().join("config.toml");
    // The human's first timed-out turn hands the seat to a computer: no human is left, the game ends,
    // on the computer players' path (not in answer to a request).
    std::fs::write(
        &config,
        format!(
            "database = {:?}\n[timers]\ntick_secs = 1\nbot_delay_ms = 15\nturn_reminder_secs = 1\n\
             turn_timeout_secs = 2\ntimeouts_before_replaced = 1\n",
            path.display().to_string()
        ),
    )
    .expect("config");
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    let (mut bot, _) = start(&config, &log);
    bot.ask(BOTS, 6, json!({"command": "start", "game": "classic"}));
    bot.ask(BOTS, 6, json!({"command": "bot_add"}));
    bot.ask(BOTS, 6, json!({"command": "begin"}));
    let end = bot.wait_for(BOTS, "Saved as game #1");
    assert!(end["id"].is_null(), "not the answer to a request: {end}");
    assert!(!end["attachment"].is_null(), "the final message: {end}");
    // Whatever the bot still does before the kill, the end was printed, so it counts as announced.
    bot.drain(Duration::from_millis(300));
    bot.kill();
    assert_eq!(finished_games(&path), 1, "stored as finished");

    let (mut again, ready) = start(&config, &log);
    assert_eq!(ready["restored"], json!([]), "{ready}");
    again.drain(Duration::from_millis(1500));
    assert!(
        !again
            .spontaneous
            .iter()
            .any(|v| v["text"].as_str().is_some_and(|t| t.contains("restarting"))),
        "announced twice: {:?}",
        again.spontaneous
    );
    again.kill();
}

#[test]
fn server_settings_from_the_console_are_checked_and_survive_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, _path) = sqlite_config(dir.path());
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    let (mut bot, _) = start(&config, &log);
    // A plain member is refused; an admin (Manage Server) changes the default game.
    let id = bot.send(LOBBY, 5, json!({"command": "settings", "game": "kids"}));
    let (outputs, refused) = bot.wait_done(id);
    assert!(refused, "{outputs:?}");
    assert!(
        texts(&outputs).concat().contains("Manage Server"),
        "{outputs:?}"
    );
    let outputs = bot.ask(
        LOBBY,
        6,
        json!({"command": "settings", "manage_guild": true, "game": "dice", "turn_timeout": 300}),
    );
    assert!(texts(&outputs).concat().contains("Saved"), "{outputs:?}");
    bot.kill();

    // After a restart, a game opened without naming one is dice.
    let (mut bot, _) = start(&config, &log);
    bot.ask(LOBBY, 5, json!({"command": "start"}));
    let dump = bot.dump(LOBBY);
    assert_eq!(dump["setup"]["variant"], "dice", "{dump}");
    let outputs = bot.ask(
        LOBBY,
        6,
        json!({"command": "settings", "manage_guild": true}),
    );
    assert!(
        texts(&outputs).concat().contains("after 300 seconds"),
        "{outputs:?}"
    );
    bot.kill();
    assert!(
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .contains("server settings changed by User6: game: dice, turn_timeout: 300 s"),
        "the change is logged with who made it"
    );
}

/// Issue 24.6 on the running bot: a rating overwritten with 1e11 and a server's settings that are
/// no longer UTF-8 (both inside their rows, where SQLite's check does not look). `stats` shows the
/// rating recomputed from the stored games; the settings give the defaults, are reported once in the
/// log however many timer ticks pass, are kept in `settings_damaged`, and an admin's change writes
/// new ones.
#[test]
fn a_damaged_rating_and_damaged_settings_are_noticed_by_the_running_bot() {
    use sequence_bot::store::{SqliteStore, Store};
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, path) = sqlite_config(dir.path());
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    thirty_finished_games(&path);
    let store = SqliteStore::open(&path).expect("open");
    let clean = store
        .player_rating(Some(GUILD), 1, 10)
        .expect("rating")
        .expect("rated")
        .rating;
    close_store(store, &path);
    let damaged_settings = b"{\"variant\":\"d\xFFce\"}";
    let raw = rusqlite::Connection::open(&path).expect("open raw");
    raw.execute(
        "UPDATE ratings SET mu = 1e11, conservative = 1e11 - 3 * sigma WHERE user_id = 1",
        [],
    )
    .expect("damage the rating");
    raw.execute(
        "INSERT INTO server_settings (guild_id, settings_json, updated_at)
         VALUES (?1, CAST(?2 AS TEXT), 1)",
        rusqlite::params![GUILD as i64, damaged_settings.to_vec()],
    )
    .expect("damage the settings");
    drop(raw);

    let (mut bot, _) = start(&config, &log);
    let stats = texts(&bot.ask(LOBBY, 1, json!({"command": "stats"}))).concat();
    let shown = format!(
        "rating **{}**",
        sequence_bot::store::rating::shown_rating(clean.conservative())
    );
    assert!(stats.contains(&shown), "{shown} in {stats}");
    assert!(!stats.contains("100000000000"), "{stats}");
    // A lobby in the server: every tick reads its settings.
    bot.ask(LOBBY, 5, json!({"command": "start"}));
    bot.drain(Duration::from_secs(4));
    let defaults = bot.dump(LOBBY);
    assert_eq!(defaults["setup"]["variant"], "classic", "{defaults}");
    let outputs = bot.ask(
        LOBBY + 1,
        6,
        json!({"command": "settings", "manage_guild": true, "game": "dice"}),
    );
    assert!(texts(&outputs).concat().contains("Saved"), "{outputs:?}");
    bot.kill();

    let logged = std::fs::read_to_string(&log).expect("log");
    assert_eq!(
        logged.matches("settings_damaged").count(),
        1,
        "reported once: {logged}"
    );
    assert!(logged.contains("not UTF-8"), "{logged}");
    assert_eq!(
        logged.matches("a stored rating was damaged").count(),
        1,
        "{logged}"
    );
    let store = SqliteStore::open(&path).expect("open");
    let aside = store.damaged_settings().expect("aside");
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(aside[0].guild_id, GUILD);
    assert_eq!(aside[0].settings, damaged_settings, "kept byte for byte");
    let fresh = store.server_settings(GUILD).expect("read").expect("saved");
    assert!(fresh.contains("dice"), "{fresh}");
    assert_eq!(
        store
            .player_rating(Some(GUILD), 1, 10)
            .expect("rating")
            .expect("rated")
            .rating,
        clean
    );
}

#[test]
fn sqlite_refuses_part_of_the_shards() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, path) = sqlite_config(dir.path());
    let text = std::fs::read_to_string(&config).expect("config");
    std::fs::write(
        &config,
        format!("{text}\n[sharding]\nshards = \"0-1\"\ntotal = 4\n"),
    )
    .expect("config");
    let (code, stderr) = start_fails(&config);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("serves one process only"), "{stderr}");
    assert!(stderr.contains("shards 0-1 of 4"), "{stderr}");
    // All shards in one process are fine with SQLite.
    std::fs::write(&config, format!("{text}\n[sharding]\ntotal = 4\n")).expect("config");
    let log = dir.path().join("bot.log");
    let _show = ShowLogOnFailure(log.clone());
    let (mut bot, _) = start(&config, &log);
    bot.ask(CLASSIC, 1, json!({"command": "start", "game": "classic"}));
    assert!(path.exists());
}
