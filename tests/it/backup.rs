//! Issue 28 (operating): `sequence-bot backup` while the bot runs, and `sequence-bot restore` once it is
//! stopped, through the real binary. The bot is `sequence-bot console` (the service, store, restore and
//! timers of the bot, without Discord) on a SQLite file.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::json;

use crate::support::console::{actions, Console};

use sequence_bot::engine::{Move, MoveList};
use sequence_bot::service::Table;

const CHANNEL: u64 = 10;

/// Starts the console bot on `config` and waits until it is ready.
fn start(config: &Path) -> Console {
    Console::start(config, "error", &[], Stdio::null()).0
}

/// Plays the first legal move of the player to move; returns who moved.
fn play_a_move(bot: &mut Console) -> u64 {
    let dump = bot.dump(CHANNEL);
    let table: Table = serde_json::from_value(dump).expect("a table");
    let playing = table.playing().expect("a game is running");
    let game = playing.live.game();
    let seat = game.position().to_move();
    let user = playing.seats[usize::from(seat)].user().expect("a person").0;
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let layout = game.position().layout();
    let request = moves
        .into_iter()
        .find_map(|mv| match mv {
            Move::Play { card, cell } => Some(
                json!({"command": "play", "card": card.to_string(), "cell": layout.cell_name(cell)}),
            ),
            _ => None,
        })
        .expect("a card to play");
    bot.ask(CHANNEL, user, request);
    user
}

/// Runs a tool of the binary with the configuration.
fn tool(args: &[&str], config: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .args(args)
        .arg("--config")
        .arg(config)
        .env_remove("SEQUENCE_DATABASE")
        .env_remove("SEQUENCE_DATABASE_URL")
        .output()
        .expect("run the tool")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_backup_taken_while_the_bot_plays_restores_that_moment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.db");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, format!("database = {:?}\n", db.to_str().unwrap())).unwrap();
    let backup_path = dir.path().join("backup.db");

    let mut bot = start(&config);
    bot.ask(CHANNEL, 1, json!({"command": "start"}));
    bot.ask(CHANNEL, 2, json!({"command": "join"}));
    bot.ask(CHANNEL, 1, json!({"command": "begin"}));
    play_a_move(&mut bot);
    let at_backup = bot.dump(CHANNEL);

    // Taken while the bot runs (it holds the database and keeps writing).
    let out = tool(&["backup", backup_path.to_str().unwrap()], &config);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("1 games in progress, 0 finished games"),
        "{said}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&backup_path)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "the backup holds hands: mode {mode:o}");
    }

    // A second backup to the same file is refused and leaves the first alone.
    let before = std::fs::read(&backup_path).unwrap();
    let out = tool(&["backup", backup_path.to_str().unwrap()], &config);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&backup_path).unwrap(), before);

    // The game goes on after the backup; a restore while the bot runs is refused.
    play_a_move(&mut bot);
    play_a_move(&mut bot);
    let after = bot.dump(CHANNEL);
    assert_eq!(actions(&after).len(), actions(&at_backup).len() + 2);
    let out = tool(&["restore", backup_path.to_str().unwrap()], &config);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("in use by another sequence-bot process"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        bot.dump(CHANNEL),
        after,
        "a refused restore changes nothing"
    );

    // Killed (its newest moves only in the WAL), then restored: the game is back at the backup.
    drop(bot);
    let out = tool(&["restore", backup_path.to_str().unwrap()], &config);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("before-restore-"), "{said}");
    let kept: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("before-restore-"))
        .collect();
    assert!(!kept.is_empty(), "the replaced database is kept");

    let mut bot = start(&config);
    let restored = bot.dump(CHANNEL);
    assert_eq!(actions(&restored).len(), actions(&at_backup).len());
    assert_eq!(
        restored["state"]["live"]["actions"],
        at_backup["state"]["live"]["actions"]
    );
    // And it plays on from there.
    play_a_move(&mut bot);
    assert_eq!(
        actions(&bot.dump(CHANNEL)).len(),
        actions(&at_backup).len() + 1
    );
    drop(bot);

    // The replaced database, put back, still holds the moves made after the backup.
    let kept_db = dir.path().join(
        kept.iter()
            .find(|name| !name.ends_with("-wal") && !name.ends_with("-shm"))
            .expect("the kept database"),
    );
    let out = tool(&["restore", kept_db.to_str().unwrap()], &config);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut bot = start(&config);
    assert_eq!(
        bot.dump(CHANNEL)["state"]["live"]["actions"],
        after["state"]["live"]["actions"]
    );
    drop(bot);
}

#[test]
fn restore_refuses_what_is_not_a_backup_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.db");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, format!("database = {:?}\n", db.to_str().unwrap())).unwrap();
    let mut bot = start(&config);
    bot.ask(CHANNEL, 1, json!({"command": "start"}));
    drop(bot);
    let before = std::fs::read(&db).unwrap();
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, "certainly not a database").unwrap();
    let out = tool(&["restore", junk.to_str().unwrap()], &config);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot be restored, nothing was changed"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
    let out = tool(
        &["restore", dir.path().join("absent.db").to_str().unwrap()],
        &config,
    );
    assert_ne!(out.status.code(), Some(0));
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn a_postgresql_configuration_points_to_its_own_tools() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "database_url = \"postgres://bot@127.0.0.1:1/none\"\n",
    )
    .unwrap();
    let out = tool(
        &["backup", dir.path().join("b.db").to_str().unwrap()],
        &config,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("pg_dump"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.path().join("b.db").exists());
}
