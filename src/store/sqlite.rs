//! The SQLite store: one file, WAL mode, one connection behind a mutex (so writers in this process queue
//! for the mutex and never see "database is locked"). One process per file: the store holds an exclusive
//! lock on `PATH.lock` for its life, and a second store on the file is refused. The file and its
//! `-wal`/`-shm` are readable by their owner only; a read-only file or folder is refused at open; a
//! damaged file is repaired (see `repair.rs`).
//!
//! Commits use `synchronous = NORMAL`: a committed action survives the process being killed at any
//! moment (`kill -9`); after a power cut the last few commits may be lost, never the file's integrity.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{params, Connection, DatabaseName, OpenFlags, TransactionBehavior};

use super::rating;
use super::repair::{self, Repair};
use super::sql::queries::{
    ADD_SERIES, CHANNEL_OF_WEB_TOKEN, DELETE_LIVE_TABLE, DELETE_SERIES, DELETE_SETTINGS,
    LOAD_TABLE, LOAD_TABLES, LOG_SETTINGS, MARK_ANNOUNCED, PING, QUARANTINE_LOADED,
    QUARANTINE_TABLE, SAVE_AGREEMENT, SAVE_SETTINGS, SAVE_TABLE, SET_ASIDE_SERIES,
    SET_ASIDE_SETTINGS,
};
use super::sql::writes::{add_stats, insert_game};
use super::sql::{
    params as sql_params, profiles, ratings, reads, render, Db, DbError, Engine, Lite,
};
use super::sqlite_file::{
    check_header, classify, companion, create_private, migrate, not_writable, prepare, tighten,
    Migration, SCHEMA_VERSION,
};
use super::{
    from_db_id, guild_from_db, guild_to_db, now_ms, record_problem, series_counts, settings_text,
    standing_scope, table_problem, to_db_id, warn_ratings_recomputed, warn_series_stats_set_aside,
    warn_settings_set_aside, AgreementTotals, DamagedSettings, FinishedGame, GameId, GameSummary,
    LeaderboardRow, LiveTableRead, Loaded, PlayerStats, Profile, Quarantined, RatingReport,
    RatingRow, SeriesStats, SettingsChange, ShardSet, Store, StoreError, StoredTable, TokenGame,
    Versus,
};
use crate::analysis::profile::Achievement;

/// How long a statement waits for another connection's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Files up to this size are checked whole at start (SQLite's quick check reads every page: about
/// half a second for 32 MiB from a cold disk). A larger file gets the start check (the schema and
/// [`START_TABLES`]) and its whole check in the background after restore (see
/// [`SqliteStore::open_or_repair`]).
const FULL_CHECK_MAX_BYTES: u64 = 32 << 20;

/// The tables start-up reads besides the history, checked whole (with their indexes) at every start.
/// They grow with the live games and the servers, not with the history.
const START_TABLES: [&str; 5] = [
    "live_tables",
    "quarantine",
    "server_settings",
    "settings_damaged",
    "sqlite_sequence",
];

/// How much of the file start-up checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// Nothing (the caller just did).
    None,
    /// The schema and [`START_TABLES`].
    Start,
    /// Every page (SQLite's quick check).
    Full,
}

/// The SQLite implementation of [`Store`].
pub struct SqliteStore {
    /// The file (`:memory:` for an in-memory store).
    path: PathBuf,
    /// The one connection.
    conn: Mutex<Connection>,
    /// The lock on `PATH.lock`, held for the store's life: one store per file (`None` in memory).
    _lock: Option<File>,
    /// Live tables lost when the file was repaired at open; the first [`Store::load_tables`]
    /// reports them (they are in the quarantine table).
    repair_lost: Mutex<Vec<Quarantined>>,
    /// Damage met while running (by a query or the background check): recorded once, for the
    /// next start to check the whole file and repair it.
    damage_met: AtomicBool,
    /// The whole-file check still to run in the background (the start checked only part of it):
    /// started by the first `load_tables` (after restore).
    full_check_due: AtomicBool,
    /// The background check, stopped when the store is dropped.
    background: StopOnDrop,
}

/// The store's hold on its background check: dropping it stops the check.
#[derive(Default)]
struct StopOnDrop(Arc<BackgroundCheck>);

/// What the background check and the store share.
#[derive(Default)]
struct BackgroundCheck {
    /// Set when the store is dropped; the interrupt of the check's connection once it runs.
    state: Mutex<(bool, Option<rusqlite::InterruptHandle>)>,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let mut state = lock_ignoring_poison(&self.0.state);
        state.0 = true;
        if let Some(interrupt) = &state.1 {
            interrupt.interrupt();
        }
    }
}

impl SqliteStore {
    /// Opens (creating it and its folder if needed) and migrates the database at `path`, and locks it
    /// for the store's life. A file that is not a database or fails SQLite's quick check gives
    /// [`StoreError::Corrupt`]; a file another store holds, [`StoreError::Locked`]; a read-only file or
    /// folder, [`StoreError::ReadOnly`]. A new file is readable by its owner only.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        let lock = prepare(&path)?;
        let mut store = SqliteStore::open_unlocked(path, Check::Full)?;
        store._lock = Some(lock);
        Ok(store)
    }

    /// [`SqliteStore::open`] once the caller holds the lock, checking as much as `check` says.
    fn open_unlocked(path: PathBuf, check: Check) -> Result<SqliteStore, StoreError> {
        check_header(&path)?;
        create_private(&path)?;
        let conn = Connection::open(&path).map_err(|e| classify(&path, e))?;
        let store = SqliteStore::set_up(path, conn, true, check)?;
        for suffix in ["-wal", "-shm"] {
            tighten(&companion(&store.path, suffix))?;
        }
        Ok(store)
    }

    /// A store in memory, for tests of other layers (nothing survives the process).
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| classify(&path, e))?;
        SqliteStore::set_up(path, conn, false, Check::Full)
    }

    /// Opens the database at `path`; if it is damaged, repairs it (see [`repair`]): the damaged file
    /// (with its `-wal`) is kept untouched as `PATH.damaged-<unix ms>`, and the store starts on a
    /// repaired file holding every row that could be read. Returns the store and what the repair
    /// did. Fails with [`StoreError::Unreadable`] (the file left as it was) when nothing can be read;
    /// any other error (a newer schema, a read-only file, another process) is returned as it is.
    ///
    /// A file of up to 32 MiB is checked whole. A larger one (the history grows without bound) is
    /// checked where start-up reads it: the schema and the tables of [`START_TABLES`]; its whole
    /// check runs in the background after the first `load_tables`. Damage met later, by that check
    /// or by a query, fails what met it, is logged, and is recorded in `PATH.damage-found`: the
    /// next start checks the whole file and repairs it.
    pub fn open_or_repair(
        path: impl AsRef<Path>,
    ) -> Result<(SqliteStore, Option<Repair>), StoreError> {
        SqliteStore::open_or_repair_checking(path.as_ref(), FULL_CHECK_MAX_BYTES)
    }

    /// [`SqliteStore::open_or_repair`], checking a file larger than `full_check_max` bytes only
    /// where start-up reads it.
    fn open_or_repair_checking(
        path: &Path,
        full_check_max: u64,
    ) -> Result<(SqliteStore, Option<Repair>), StoreError> {
        let path = path.to_path_buf();
        let lock = prepare(&path)?;
        let marker = companion(&path, DAMAGE_MARKER);
        let damage_found = std::fs::read_to_string(&marker).ok();
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        let check = if damage_found.is_some() || size <= full_check_max {
            Check::Full
        } else {
            Check::Start
        };
        if let Some(detail) = &damage_found {
            tracing::warn!(
                path = %path.display(),
                "damage was found in the database while the bot ran ({}); checking the whole file",
                detail.trim()
            );
        }
        // Checked read-only first, so that a damaged file is kept exactly as it was found (opening it
        // for writing could checkpoint its WAL into it).
        let opened = match check_header(&path).and_then(|()| SqliteStore::check_only(&path, check))
        {
            Err(corrupt @ StoreError::Corrupt { .. }) => Err(corrupt),
            Ok(()) => SqliteStore::open_unlocked(path.clone(), Check::None),
            // Not checked read-only (say, a WAL without its `-shm`): checked when opened.
            Err(_) => SqliteStore::open_unlocked(path.clone(), check),
        };
        let (mut store, report) = match opened {
            Err(StoreError::Corrupt { detail, .. }) => {
                let report = repair::repair(&path, &detail)?;
                let store = SqliteStore::open_unlocked(path, Check::Full)?;
                *lock_ignoring_poison(&store.repair_lost) = report.lost_tables.clone();
                (store, Some(report))
            }
            other => (other?, None),
        };
        if damage_found.is_some() {
            // Checked whole (and repaired if it was damaged): the record has served.
            let _ = std::fs::remove_file(&marker);
        }
        store
            .full_check_due
            .store(check == Check::Start && report.is_none(), Ordering::Relaxed);
        store._lock = Some(lock);
        Ok((store, report))
    }

    /// Checks a file as `check` says on a read-only connection (a missing or empty file passes).
    fn check_only(path: &Path, check: Check) -> Result<(), StoreError> {
        if check == Check::None || std::fs::metadata(path).map_or(true, |m| m.len() == 0) {
            return Ok(());
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| classify(path, e))?;
        run_check(path, &conn, check)
    }

    /// Starts the whole-file check on a connection of its own, if the start checked only part of
    /// the file; what it finds is recorded as damage met ([`SqliteStore::damage_met`]).
    fn start_full_check(&self) {
        if !self.full_check_due.swap(false, Ordering::Relaxed) {
            return;
        }
        let path = self.path.clone();
        let background = Arc::clone(&self.background.0);
        let spawned = std::thread::Builder::new()
            .name("sqlite-check".into())
            .spawn(move || {
                let started = std::time::Instant::now();
                let Ok(conn) = Connection::open_with_flags(
                    &path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                ) else {
                    return;
                };
                {
                    let mut state = lock_ignoring_poison(&background.state);
                    if state.0 {
                        return;
                    }
                    state.1 = Some(conn.get_interrupt_handle());
                }
                let result = quick_check(&path, &conn);
                // Reported under the lock: once the store is dropped, nothing is recorded (the next
                // start may already have checked and repaired the file).
                let state = lock_ignoring_poison(&background.state);
                if state.0 {
                    return;
                }
                match result {
                    Ok(()) => tracing::info!(
                        path = %path.display(),
                        seconds = started.elapsed().as_secs_f64(),
                        "the background check of the whole database found nothing wrong"
                    ),
                    Err(StoreError::Corrupt { detail, .. }) => record_damage(&path, &detail),
                    Err(e) => tracing::warn!(
                        path = %path.display(),
                        "the background check of the whole database could not run: {e}"
                    ),
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("cannot start the background check of the database: {e}");
        }
    }

    /// Records damage met while running (once per store): logged, and checked whole and repaired
    /// at the next start.
    fn damage_met(&self, detail: &str) {
        if !self.damage_met.swap(true, Ordering::Relaxed) {
            record_damage(&self.path, detail);
        }
    }

    /// Applies the settings, checks integrity and runs the migrations.
    fn set_up(
        path: PathBuf,
        mut conn: Connection,
        wal: bool,
        check: Check,
    ) -> Result<SqliteStore, StoreError> {
        let err = |e| classify(&path, e);
        conn.busy_timeout(BUSY_TIMEOUT).map_err(err)?;
        if wal {
            let mode: String = conn
                .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
                .map_err(err)?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(StoreError::Config(format!(
                    "{}: SQLite refused WAL mode (journal mode is `{mode}`)",
                    path.display()
                )));
            }
        }
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
            .map_err(err)?;
        if conn.is_readonly(DatabaseName::Main).map_err(err)? {
            return Err(StoreError::ReadOnly {
                path,
                detail: "SQLite could only open it read-only".into(),
            });
        }
        run_check(&path, &conn, check)?;
        migrate(&mut conn).map_err(|e| match e {
            Migration::TooNew(found) => StoreError::SchemaTooNew {
                found,
                known: SCHEMA_VERSION,
            },
            Migration::Sqlite(e) => classify(&path, e),
        })?;
        Ok(SqliteStore {
            path,
            conn: Mutex::new(conn),
            _lock: None,
            repair_lost: Mutex::new(Vec::new()),
            damage_met: AtomicBool::new(false),
            full_check_due: AtomicBool::new(false),
            background: StopOnDrop::default(),
        })
    }

    /// The connection (a panic elsewhere while holding it leaves SQLite consistent, so poison is
    /// ignored).
    fn conn(&self) -> MutexGuard<'_, Connection> {
        lock_ignoring_poison(&self.conn)
    }

    /// The error for this store's file; damage met is recorded for the next start.
    fn err(&self, e: rusqlite::Error) -> StoreError {
        let err = classify(&self.path, e);
        if let StoreError::Corrupt { detail, .. } = &err {
            self.damage_met(detail);
        }
        err
    }

    /// The error of the shared layer for this store's file (see [`SqliteStore::err`]).
    fn db_err(&self, e: DbError) -> StoreError {
        self.err(e.into_sqlite())
    }

    /// Runs shared SQL on the connection (one statement or a read of a few, no transaction).
    fn read<T>(&self, f: impl FnOnce(&mut dyn Db) -> Result<T, DbError>) -> Result<T, StoreError> {
        let conn = self.conn();
        f(&mut Lite(&conn)).map_err(|e| self.db_err(e))
    }

    /// The file this store uses.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A mutex's guard, poison ignored (what it guards stays consistent).
fn lock_ignoring_poison<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The file beside the database that records damage met while the bot ran (what was found), for
/// the next start to check the whole file and repair it.
const DAMAGE_MARKER: &str = ".damage-found";

/// Logs damage met while running and records it in `PATH.damage-found` for the next start.
fn record_damage(path: &Path, detail: &str) {
    let marker = companion(path, DAMAGE_MARKER);
    let written = create_private(&marker)
        .and_then(|()| std::fs::write(&marker, detail).map_err(|e| not_writable(&marker, e)));
    match written {
        Ok(()) => tracing::error!(
            path = %path.display(),
            "the database file is damaged ({detail}); what reads the damaged part fails until the \
             bot restarts: the next start checks the whole file and repairs it (keeping the damaged \
             file). Restart the bot to repair it now"
        ),
        Err(e) => tracing::error!(
            path = %path.display(),
            "the database file is damaged ({detail}), and the record of it for the next start \
             cannot be written ({e}); stop the bot and start it again with the file checked: \
             create {} by hand",
            marker.display()
        ),
    }
}

/// Checks as much as `check` says: [`StoreError::Corrupt`] for damage.
fn run_check(path: &Path, conn: &Connection, check: Check) -> Result<(), StoreError> {
    match check {
        Check::None => Ok(()),
        Check::Full => quick_check(path, conn),
        Check::Start => start_check(path, conn),
    }
}

/// The start check: the schema (read to list the tables) and each of [`START_TABLES`] present,
/// whole with its indexes (`PRAGMA quick_check(table)`).
fn start_check(path: &Path, conn: &Connection) -> Result<(), StoreError> {
    let present: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut stmt| stmt.query_map([], |row| row.get(0))?.collect())
        .map_err(|e| classify(path, e))?;
    for table in START_TABLES
        .iter()
        .filter(|t| present.iter().any(|p| p == *t))
    {
        check_rows(path, conn, &format!("PRAGMA quick_check(\"{table}\")"))?;
    }
    Ok(())
}

/// SQLite's quick check: [`StoreError::Corrupt`] unless it says `ok`.
fn quick_check(path: &Path, conn: &Connection) -> Result<(), StoreError> {
    check_rows(path, conn, "PRAGMA quick_check")
}

/// Runs a check pragma: [`StoreError::Corrupt`] unless it says `ok`.
fn check_rows(path: &Path, conn: &Connection, pragma: &str) -> Result<(), StoreError> {
    let check: Vec<String> = conn
        .prepare(pragma)
        .and_then(|mut stmt| {
            stmt.query_map([], |row| row.get::<_, String>(0))?
                .collect::<Result<_, _>>()
        })
        .map_err(|e| classify(path, e))?;
    if check == ["ok"] {
        Ok(())
    } else {
        Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: check.join("; "),
        })
    }
}

/// A live-table row as read, before validation.
struct RawRow {
    /// The channel.
    channel_id: i64,
    /// The guild, if it reads as an integer.
    guild_id: Option<i64>,
    /// The table, or why a column cannot be read.
    table: Result<StoredTable, String>,
}

/// A text column, or why it is not text.
fn text_column(
    row: &rusqlite::Row<'_>,
    index: usize,
    name: &str,
) -> rusqlite::Result<Result<String, String>> {
    Ok(match row.get_ref(index)? {
        ValueRef::Text(bytes) => String::from_utf8(bytes.to_vec())
            .map_err(|_| format!("the {name} column is not valid UTF-8")),
        other => Err(format!(
            "the {name} column holds {:?} instead of text",
            other.data_type()
        )),
    })
}

/// Reads one live-table row without failing on odd column contents.
fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawRow> {
    let channel_id: i64 = row.get(0)?;
    let guild_id = match row.get_ref(1)? {
        ValueRef::Integer(g) => Some(g),
        _ => None,
    };
    let updated_at = match row.get_ref(4)? {
        ValueRef::Integer(t) => Some(t),
        _ => None,
    };
    let record = text_column(row, 2, "record")?;
    let snapshot = text_column(row, 3, "snapshot")?;
    // A token that does not read as text is as good as none: the table is found by its channel.
    let web_token = text_column(row, 5, "web token")?.ok();
    let table = match (guild_id, record, snapshot, updated_at) {
        (None, ..) => Err("the guild column is not an integer".to_string()),
        (_, _, _, None) => Err("the updated_at column is not an integer".to_string()),
        (_, Err(e), _, _) | (_, _, Err(e), _) => Err(e),
        (Some(g), Ok(record_json), Ok(snapshot_json), Some(updated_at)) => Ok(StoredTable {
            channel_id: from_db_id(channel_id),
            guild_id: guild_from_db(g),
            record_json,
            snapshot_json,
            updated_at,
            web_token,
        }),
    };
    Ok(RawRow {
        channel_id,
        guild_id,
        table,
    })
}

/// Recomputes a server's ratings found damaged (`damage` says how, for the log) in a transaction of
/// its own, with one warning.
fn repair_guild_ratings(conn: &mut Connection, guild: i64, damage: &str) -> Result<(), DbError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let games = ratings::recompute_guild_ratings(&mut Lite(&tx), guild)?;
    tx.commit()?;
    warn_ratings_recomputed(guild, damage, games);
    Ok(())
}

/// Moves a server's settings to `settings_damaged` with `reason` (only if they still are
/// `expected`, when given); whether there were any to move.
fn set_aside_settings(
    conn: &mut Connection,
    guild: i64,
    expected: Option<&str>,
    reason: &str,
) -> rusqlite::Result<bool> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let moved = tx.execute(
        &render(SET_ASIDE_SETTINGS, Engine::Sqlite),
        params![guild, expected, reason, now_ms()],
    )?;
    if moved > 0 {
        tx.execute(DELETE_SETTINGS, [guild])?;
    }
    tx.commit()?;
    Ok(moved > 0)
}

impl Store for SqliteStore {
    fn ping(&self) -> Result<(), StoreError> {
        self.conn()
            .query_row(PING, [], |_| Ok(()))
            .map_err(|e| self.err(e))
    }

    fn save_table(&self, table: &StoredTable) -> Result<(), StoreError> {
        self.conn()
            .prepare_cached(SAVE_TABLE)
            .and_then(|mut stmt| {
                stmt.execute(params![
                    to_db_id(table.channel_id),
                    guild_to_db(table.guild_id),
                    table.record_json,
                    table.snapshot_json,
                    table.updated_at,
                    table.web_token
                ])
            })
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    fn channel_of_web_token(&self, token: &str) -> Result<Option<u64>, StoreError> {
        use rusqlite::OptionalExtension;
        self.conn()
            .prepare_cached(CHANNEL_OF_WEB_TOKEN)
            .and_then(|mut stmt| {
                stmt.query_row([token], |row| row.get::<_, i64>(0))
                    .optional()
            })
            .map(|channel| channel.map(from_db_id))
            .map_err(|e| self.err(e))
    }

    fn live_table(&self, channel_id: u64) -> Result<Option<LiveTableRead>, StoreError> {
        use rusqlite::OptionalExtension;
        let row = self
            .conn()
            .prepare_cached(LOAD_TABLE)
            .and_then(|mut stmt| stmt.query_row([to_db_id(channel_id)], read_row).optional())
            .map_err(|e| self.err(e))?;
        Ok(row
            .and_then(|row| row.table.ok())
            .map(|table| LiveTableRead {
                version: table.updated_at,
                table,
            }))
    }

    fn finish_series(
        &self,
        guild_id: Option<u64>,
        results: &[(u64, bool)],
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let run = |conn: &mut Connection| -> rusqlite::Result<()> {
            let tx = conn.transaction()?;
            for (user, won) in results {
                tx.execute(
                    ADD_SERIES,
                    params![guild_to_db(guild_id), to_db_id(*user), i64::from(*won)],
                )?;
            }
            for (user, _) in results.iter().filter(|(_, won)| *won) {
                profiles::series_won(&mut Lite(&tx), guild_to_db(guild_id), *user)
                    .map_err(DbError::into_sqlite)?;
            }
            tx.commit()
        };
        run(&mut conn).map_err(|e| self.err(e))
    }

    fn series_stats(&self, guild_id: Option<u64>, user_id: u64) -> Result<SeriesStats, StoreError> {
        let (guild, user) = (guild_to_db(guild_id), to_db_id(user_id));
        let mut conn = self.conn();
        let run = |conn: &mut Connection| -> Result<SeriesStats, DbError> {
            let problem = match reads::series_counts(&mut Lite(conn), guild, user)? {
                None => return Ok(SeriesStats::default()),
                Some((Ok(played), Ok(won))) => match series_counts(played, won) {
                    Ok(stats) => return Ok(stats),
                    Err(problem) => problem,
                },
                Some((Err(problem), _)) => format!("played is {problem}"),
                Some((_, Err(problem))) => format!("won is {problem}"),
            };
            // Set aside as found, so that this player's stats answer again (issue 33).
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut db = Lite(&tx);
            db.execute(
                SET_ASIDE_SERIES,
                sql_params![guild, user, problem.as_str(), now_ms()],
            )?;
            db.execute(DELETE_SERIES, sql_params![guild, user])?;
            tx.commit()?;
            warn_series_stats_set_aside(guild, user, &problem);
            Ok(SeriesStats::default())
        };
        run(&mut conn).map_err(|e| self.db_err(e))
    }

    fn delete_table(&self, channel_id: u64) -> Result<bool, StoreError> {
        self.conn()
            .execute(DELETE_LIVE_TABLE, [to_db_id(channel_id)])
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    fn load_tables_of(&self, shards: ShardSet) -> Result<Loaded, StoreError> {
        let mut conn = self.conn();
        let run = |conn: &mut Connection| -> rusqlite::Result<Loaded> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let rows: Vec<RawRow> = tx
                .prepare(LOAD_TABLES)?
                .query_map([], read_row)?
                .filter(|row| {
                    row.as_ref()
                        .map_or(true, |r| shards.owns(r.guild_id.and_then(guild_from_db)))
                })
                .collect::<Result<_, _>>()?;
            let mut loaded = Loaded::default();
            let now = now_ms();
            for row in rows {
                let problem = match &row.table {
                    Ok(t) => table_problem(&t.record_json, &t.snapshot_json),
                    Err(e) => Some(e.clone()),
                };
                match (row.table, problem) {
                    (Ok(table), None) => loaded.tables.push(table),
                    (_, problem) => {
                        let reason = problem.unwrap_or_default();
                        tx.execute(
                            QUARANTINE_LOADED,
                            params![row.channel_id, row.guild_id.unwrap_or(0), reason, now],
                        )?;
                        tx.execute(DELETE_LIVE_TABLE, [row.channel_id])?;
                        loaded.quarantined.push(Quarantined {
                            channel_id: from_db_id(row.channel_id),
                            guild_id: row.guild_id.and_then(guild_from_db),
                            reason,
                            quarantined_at: now,
                        });
                    }
                }
            }
            tx.commit()?;
            Ok(loaded)
        };
        let mut loaded = run(&mut conn).map_err(|e| self.err(e))?;
        drop(conn);
        loaded
            .quarantined
            .append(&mut lock_ignoring_poison(&self.repair_lost));
        // Restored: the rest of the file is checked while the bot runs.
        self.start_full_check();
        Ok(loaded)
    }

    fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        self.read(reads::quarantined)
    }

    fn quarantine_table(&self, channel_id: u64, reason: &str) -> Result<bool, StoreError> {
        let mut conn = self.conn();
        let run = |conn: &mut Connection| -> Result<bool, DbError> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut db = Lite(&tx);
            let channel = to_db_id(channel_id);
            let moved = db.execute(QUARANTINE_TABLE, sql_params![channel, reason, now_ms()])?;
            db.execute(DELETE_LIVE_TABLE, sql_params![channel])?;
            tx.commit()?;
            Ok(moved > 0)
        };
        run(&mut conn).map_err(|e| self.db_err(e))
    }

    fn rated_games_since(
        &self,
        guild_id: Option<u64>,
        since: i64,
    ) -> Result<Vec<Vec<(u64, u8)>>, StoreError> {
        self.read(|db| reads::rated_games_since(db, guild_id, since))
    }

    fn latest_game_in_channel(
        &self,
        guild_id: Option<u64>,
        channel_id: u64,
    ) -> Result<Option<GameId>, StoreError> {
        self.read(|db| reads::latest_game_in_channel(db, guild_id, channel_id))
    }

    fn finish_game(&self, game: &FinishedGame) -> Result<GameId, StoreError> {
        record_problem(&game.record_json).map_err(StoreError::InvalidRecord)?;
        let guild = guild_to_db(game.guild_id);
        let standing = to_db_id(standing_scope(game.guild_id, game.channel_id));
        let rated = !game.aborted
            && game
                .rated
                .unwrap_or_else(|| rating::rated_by_default(&game.players));
        let drawn = rated && rating::is_drawn(&game.players, &game.record_json);
        let mut conn = self.conn();
        let mut repaired = None;
        let mut rebuilt = Vec::new();
        let mut run = |conn: &mut Connection| -> Result<GameId, DbError> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut db = Lite(&tx);
            // The players' ratings before the game, checked first: a damaged one has the server's
            // ratings recomputed from its stored games (this one not yet among them).
            let current = if rated {
                match ratings::current_ratings(&mut db, guild, &game.players)? {
                    (current, None) => current,
                    (_, Some(damage)) => {
                        repaired =
                            Some((damage, ratings::recompute_guild_ratings(&mut db, guild)?));
                        ratings::current_ratings(&mut db, guild, &game.players)?.0
                    }
                }
            } else {
                HashMap::new()
            };
            let id = insert_game(&mut db, guild, game, rated)?;
            if rated {
                for update in rating::rate_game(&game.players, drawn, &current) {
                    ratings::write_rating(&mut db, id, guild, &update)?;
                }
            }
            add_stats(&mut db, standing, game)?;
            // While the profiles are rebuilt in the background, the rebuild adds this game too.
            if !profiles::rebuild_under_way(&mut db)? {
                rebuilt = profiles::add_finished_game(&mut db, standing, id, game, rated)?;
            }
            db.execute(DELETE_LIVE_TABLE, sql_params![to_db_id(game.channel_id)])?;
            tx.commit()?;
            Ok(GameId(id))
        };
        let id = run(&mut conn).map_err(|e| self.db_err(e))?;
        if let Some((damage, games)) = repaired {
            warn_ratings_recomputed(guild, &damage, games);
        }
        for (user, damage) in rebuilt {
            profiles::warn_rebuilt(standing, user, &damage);
        }
        Ok(id)
    }

    fn unannounced_games(&self) -> Result<Vec<(GameId, FinishedGame)>, StoreError> {
        self.read(reads::unannounced_games)
    }

    fn mark_announced(&self, id: GameId) -> Result<(), StoreError> {
        self.read(|db| db.execute(MARK_ANNOUNCED, sql_params![id.0]).map(|_| ()))
    }

    fn game_record(&self, id: GameId, guild_id: Option<u64>) -> Result<Option<String>, StoreError> {
        self.read(|db| reads::game_record(db, id, guild_id))
    }

    fn game_of_web_token(&self, token: &str) -> Result<Option<TokenGame>, StoreError> {
        self.read(|db| reads::game_of_web_token(db, token))
    }

    fn game_web_token(
        &self,
        id: GameId,
        guild_id: Option<u64>,
    ) -> Result<Option<String>, StoreError> {
        self.read(|db| reads::game_web_token(db, id, guild_id))
    }

    fn recent_games(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        self.read(|db| reads::recent_games(db, guild_id, limit))
    }

    fn player_stats(&self, guild_id: Option<u64>, user_id: u64) -> Result<PlayerStats, StoreError> {
        self.read(|db| reads::player_stats(db, guild_id, user_id))
    }

    fn save_agreement(&self, game: GameId, rows: &[(u64, u32, u32)]) -> Result<(), StoreError> {
        self.read(|db| {
            for &(user, matched, counted) in rows {
                db.execute(
                    SAVE_AGREEMENT,
                    sql_params![
                        game.0,
                        to_db_id(user),
                        i64::from(matched),
                        i64::from(counted)
                    ],
                )?;
            }
            Ok(())
        })
    }

    fn recent_agreement(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        limit: u32,
    ) -> Result<AgreementTotals, StoreError> {
        self.read(|db| reads::recent_agreement(db, guild_id, user_id, limit))
    }

    fn leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<LeaderboardRow>, StoreError> {
        self.read(|db| reads::leaderboard(db, guild_id, limit))
    }

    fn player_rating(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        recent: u32,
    ) -> Result<Option<RatingReport>, StoreError> {
        let mut conn = self.conn();
        let guild = guild_to_db(guild_id);
        let user = to_db_id(user_id);
        let run = |conn: &mut Connection| -> Result<Option<RatingReport>, DbError> {
            match reads::player_rating(&mut Lite(conn), guild, user, recent)? {
                None => Ok(None),
                Some(Ok(report)) => Ok(Some(report)),
                Some(Err(damage)) => {
                    repair_guild_ratings(conn, guild, &format!("user {user_id}: {damage}"))?;
                    Ok(reads::player_rating(&mut Lite(conn), guild, user, recent)?
                        .and_then(Result::ok))
                }
            }
        };
        run(&mut conn).map_err(|e| self.db_err(e))
    }

    fn rating_leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let mut conn = self.conn();
        let guild = guild_to_db(guild_id);
        let run = |conn: &mut Connection| -> Result<Vec<RatingRow>, DbError> {
            let rows = reads::rating_leaderboard(&mut Lite(conn), guild, limit)?;
            if let Some(Err(damage)) = rows.iter().find(|row| row.is_err()) {
                repair_guild_ratings(conn, guild, damage)?;
                let rows = reads::rating_leaderboard(&mut Lite(conn), guild, limit)?;
                return Ok(rows.into_iter().filter_map(Result::ok).collect());
            }
            Ok(rows.into_iter().filter_map(Result::ok).collect())
        };
        run(&mut conn).map_err(|e| self.db_err(e))
    }

    fn server_settings(&self, guild_id: u64) -> Result<Option<String>, StoreError> {
        let mut conn = self.conn();
        let guild = to_db_id(guild_id);
        let stored = reads::server_settings(&mut Lite(&conn), guild).map_err(|e| self.db_err(e))?;
        let reason = match stored.map(|stored| stored.and_then(settings_text)) {
            None => return Ok(None),
            Some(Ok(text)) => return Ok(Some(text)),
            Some(Err(reason)) => reason,
        };
        // Read as none either way, so that the service remembers the defaults and does not read
        // (and report) the same damage again at every tick.
        match set_aside_settings(&mut conn, guild, None, &reason) {
            Ok(_) => warn_settings_set_aside(guild_id, &reason),
            Err(e) => tracing::error!(
                guild = guild_id,
                "this server's settings could not be read ({reason}) nor set aside ({}); the \
                 server uses the operator's defaults",
                self.err(e)
            ),
        }
        Ok(None)
    }

    fn set_aside_server_settings(
        &self,
        guild_id: u64,
        settings_json: &str,
        reason: &str,
    ) -> Result<bool, StoreError> {
        let moved = set_aside_settings(
            &mut self.conn(),
            to_db_id(guild_id),
            Some(settings_json),
            reason,
        )
        .map_err(|e| self.err(e))?;
        if moved {
            warn_settings_set_aside(guild_id, reason);
        }
        Ok(moved)
    }

    fn damaged_settings(&self) -> Result<Vec<DamagedSettings>, StoreError> {
        self.read(reads::damaged_settings)
    }

    fn save_server_settings(
        &self,
        guild_id: u64,
        settings_json: &str,
        change: &SettingsChange,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let run = |conn: &mut Connection| -> Result<(), DbError> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut db = Lite(&tx);
            let guild = to_db_id(guild_id);
            db.execute(SAVE_SETTINGS, sql_params![guild, settings_json, change.at])?;
            db.execute(
                LOG_SETTINGS,
                sql_params![
                    guild,
                    to_db_id(change.user_id),
                    change.change.as_str(),
                    change.at
                ],
            )?;
            Ok(tx.commit()?)
        };
        run(&mut conn).map_err(|e| self.db_err(e))
    }

    fn settings_log(&self, guild_id: u64, limit: u32) -> Result<Vec<SettingsChange>, StoreError> {
        self.read(|db| reads::settings_log(db, guild_id, limit))
    }

    fn profile(&self, guild_id: Option<u64>, user_id: u64) -> Result<Profile, StoreError> {
        profiles::read_profile(self, guild_id, user_id)
    }

    fn versus(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        other_id: u64,
    ) -> Result<Versus, StoreError> {
        profiles::read_versus(self, guild_id, user_id, other_id)
    }

    fn unlocked_in(&self, game: GameId) -> Result<Vec<(u64, Achievement)>, StoreError> {
        self.read(|db| profiles::unlocked_in(db, game.0))
    }

    fn rebuild_profiles_step(&self, games: u32) -> Result<bool, StoreError> {
        let mut conn = self.conn();
        let step = |conn: &mut Connection| -> Result<profiles::RebuildStep, DbError> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let step = profiles::rebuild_step(&mut Lite(&tx), i64::from(games))?;
            tx.commit()?;
            Ok(step)
        };
        let step = step(&mut conn).map_err(|e| self.db_err(e))?;
        Ok(matches!(step, profiles::RebuildStep::Added(_)))
    }
}

impl profiles::ProfileSource for SqliteStore {
    fn read_db<T>(
        &self,
        f: impl FnOnce(&mut dyn Db) -> Result<T, DbError>,
    ) -> Result<T, StoreError> {
        self.read(f)
    }

    /// In a transaction of its own, with one warning.
    fn rebuild_profile(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        damage: &str,
    ) -> Result<(), StoreError> {
        let guild = guild_to_db(guild_id);
        let mut conn = self.conn();
        let rebuild = |conn: &mut Connection| -> Result<(), DbError> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            profiles::rebuild_player(&mut Lite(&tx), guild, user_id)?;
            tx.commit()?;
            Ok(())
        };
        rebuild(&mut conn).map_err(|e| self.db_err(e))?;
        profiles::warn_rebuilt(guild, user_id, damage);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::store::sql::queries::{LATEST_IN_CHANNEL, STATEMENTS};
    use crate::store::sql::schema::migrations;
    use crate::store::tests::{finished, player, table};
    use rusqlite::types::Value as SqlValue;
    use rusqlite::StatementStatus;

    #[test]
    fn ratings_are_computed_from_games_stored_before_them() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        {
            let conn = Connection::open(&path).expect("open");
            for sql in &migrations(Engine::Sqlite)[..2] {
                conn.execute_batch(sql).expect("old schema");
            }
            conn.execute_batch("PRAGMA user_version = 2")
                .expect("version");
            for (n, (guild, players)) in crate::store::tests::old_games().into_iter().enumerate() {
                let id = i64::try_from(n).expect("few") + 1;
                let record = crate::store::tests::json(&crate::store::tests::full_record(
                    crate::engine::Variant::Classic,
                    2,
                    None,
                    n as u64,
                ));
                conn.execute(
                    "INSERT INTO games (id, guild_id, channel_id, variant, record_json, finished_at)
                     VALUES (?1, ?2, ?3, 'classic', ?4, ?5)",
                    params![id, to_db_id(guild), 100 + id, record, 1_000 + id],
                )
                .expect("old game");
                for (seat, p) in players.iter().enumerate() {
                    conn.execute(
                        "INSERT INTO game_players (game_id, seat, user_id, name, team, won, sequences)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                        params![id, seat as i64, to_db_id(p.user_id), p.name, p.team, p.won, p.sequences],
                    )
                    .expect("old player");
                }
            }
        }
        let store = SqliteStore::open(&path).expect("upgrade");
        crate::store::tests::cases::migrated_ratings(&store);
        // Opened again, nothing is recomputed twice.
        drop(store);
        let store = SqliteStore::open(&path).expect("reopen");
        crate::store::tests::cases::migrated_ratings(&store);
    }

    /// Issue 35: agreement rows stored before they kept their game's server and whether it counts
    /// are filled from their games by the migration, and read as before.
    #[test]
    fn agreement_rows_stored_before_are_filled_from_their_games() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        {
            let store = SqliteStore::open(&path).expect("open");
            let game = |guild, channel, rated| {
                let mut game = finished(
                    Some(guild),
                    channel,
                    channel as i64,
                    vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)],
                );
                game.rated = Some(rated);
                store.finish_game(&game).expect("finish").0
            };
            let games = [
                game(5, 1, true),
                game(5, 2, false),
                game(6, 3, true),
                game(5, 4, true),
            ];
            drop(store);
            // Back to the schema before the migration (and the profiles', the rank bands' and the
            // web tokens' migrations after it), the rows as it stored them.
            let conn = Connection::open(&path).expect("open");
            conn.execute_batch(&format!(
                "DROP INDEX live_tables_by_web_token; ALTER TABLE live_tables DROP COLUMN web_token;
                 DROP INDEX games_by_web_token; ALTER TABLE games DROP COLUMN web_token;
                 DROP TABLE rating_bands; DROP INDEX ratings_by_band;
                 ALTER TABLE ratings DROP COLUMN band;
                 DROP TABLE profile_rebuild;
                 DROP TABLE player_figures; DROP TABLE achievements; DROP TABLE pair_totals;
                 DROP TABLE shared_games; DROP INDEX game_players_by_user;
                 ALTER TABLE games DROP COLUMN started_at;
                 DROP INDEX game_agreement_by_player;
                 ALTER TABLE game_agreement DROP COLUMN guild_id;
                 ALTER TABLE game_agreement DROP COLUMN counts;
                 CREATE INDEX game_agreement_by_user ON game_agreement (user_id);
                 PRAGMA user_version = {};",
                SCHEMA_VERSION - 5
            ))
            .expect("old schema");
            for (id, matched) in games.into_iter().zip([1, 100, 50, 2]) {
                conn.execute(
                    "INSERT INTO game_agreement (game_id, user_id, matched, counted)
                     VALUES (?1, 1, ?2, 10)",
                    params![id, matched],
                )
                .expect("old row");
            }
        }
        let store = SqliteStore::open(&path).expect("upgrade");
        let totals = |guild| store.recent_agreement(Some(guild), 1, 20).expect("read");
        assert_eq!(
            totals(5),
            AgreementTotals {
                matched: 3,
                counted: 20,
                games: 2
            }
        );
        assert_eq!(
            totals(6),
            AgreementTotals {
                matched: 50,
                counted: 10,
                games: 1
            }
        );
    }

    /// A database file with `games` finished games and as many live tables.
    fn filled(path: &Path, games: u64) {
        let store = SqliteStore::open(path).expect("open");
        for c in 0..games {
            store.save_table(&table(c, Some(1), 20)).expect("save");
            store
                .finish_game(&finished(
                    Some(1),
                    1000 + c,
                    0,
                    vec![player(1, "Ann", 0, true, 1), player(2, "Bob", 1, false, 0)],
                ))
                .expect("finish");
        }
    }

    #[test]
    fn a_new_instance_loads_what_a_killed_one_saved() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let first = SqliteStore::open(&path).expect("open");
        let saved = vec![
            table(1, Some(9), 0),
            table(2, Some(9), 13),
            table(3, None, 40),
        ];
        for t in &saved {
            first.save_table(t).expect("save");
        }
        first.delete_table(1).expect("delete");
        // No clean close: the WAL is not checkpointed into the main file. The lock goes, as it does
        // when a process dies.
        let SqliteStore { conn, _lock, .. } = first;
        std::mem::forget(conn);
        drop(_lock);
        let wal = PathBuf::from(format!("{}-wal", path.display()));
        assert!(
            wal.metadata().map(|m| m.len() > 0).unwrap_or(false),
            "the WAL holds the commits"
        );

        let second = SqliteStore::open(&path).expect("reopen");
        let loaded = second.load_tables().expect("load");
        assert!(loaded.quarantined.is_empty());
        assert_eq!(loaded.tables, saved[1..].to_vec());
    }

    #[test]
    fn migrations_run_once_and_set_the_version() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        filled(&path, 2);
        let store = SqliteStore::open(&path).expect("reopen");
        let version: i64 = store
            .conn()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, SCHEMA_VERSION);
        let mode: String = store
            .conn()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .expect("mode");
        assert_eq!(mode, "wal");
        assert_eq!(store.load_tables().expect("load").tables.len(), 2);
        assert_eq!(store.recent_games(Some(1), 10).expect("games").len(), 2);
    }

    #[test]
    fn a_newer_schema_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        filled(&path, 1);
        {
            let conn = Connection::open(&path).expect("raw open");
            conn.execute_batch("PRAGMA user_version = 99")
                .expect("bump");
        }
        let before = std::fs::read(&path).expect("read");
        let err = SqliteStore::open(&path).err().expect("refused");
        assert!(
            matches!(err, StoreError::SchemaTooNew { found: 99, known } if known == SCHEMA_VERSION),
            "{err}"
        );
        assert!(err.to_string().contains("newer sequence-bot"), "{err}");
        let err = SqliteStore::open_or_repair(&path)
            .err()
            .expect("still refused");
        assert!(matches!(err, StoreError::SchemaTooNew { .. }), "{err}");
        assert_eq!(std::fs::read(&path).expect("read"), before, "not touched");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.contains("damaged")), "{names:?}");
    }

    /// The files in a folder whose names contain `part`.
    fn files_named(dir: &Path, part: &str) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("list")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().contains(part))
            .collect();
        found.sort();
        found
    }

    /// Checks that an unreadable file is refused, left exactly as it was, and named in the error.
    fn refused_and_untouched(path: &Path) {
        let bad = std::fs::read(path).expect("read");
        let err = SqliteStore::open(path).err().expect("refused");
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
        let err = SqliteStore::open_or_repair(path).err().expect("refused");
        match &err {
            StoreError::Unreadable { path: p, .. } => assert_eq!(p, path),
            other => panic!("expected Unreadable, got {other}"),
        }
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert!(err.to_string().contains("left untouched"), "{err}");
        assert_eq!(std::fs::read(path).expect("read"), bad, "left alone");
        let dir = path.parent().expect("folder");
        assert!(files_named(dir, ".damaged-").is_empty());
        assert!(
            files_named(dir, ".repair").is_empty(),
            "no scratch files left"
        );
    }

    #[test]
    fn random_bytes_are_refused_and_left_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let mut rng = crate::engine::GameRng::new(7);
        let bytes: Vec<u8> = (0..8192).map(|_| rng.below(256) as u8).collect();
        std::fs::write(&path, bytes).expect("write");
        refused_and_untouched(&path);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_with_its_wal_kept() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        std::fs::write(
            &path,
            b"definitely not a database, but long enough to have a header ...",
        )
        .expect("write");
        let wal = companion(&path, "-wal");
        std::fs::write(&wal, b"stale wal").expect("write wal");
        refused_and_untouched(&path);
        assert_eq!(std::fs::read(wal).expect("wal kept"), b"stale wal");
    }

    #[test]
    fn a_database_with_a_damaged_schema_page_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        filled(&path, 3);
        let mut bytes = std::fs::read(&path).expect("read");
        // Page 1 after the 100-byte file header: the schema's b-tree page.
        for b in &mut bytes[100..4096] {
            *b = 0xA5;
        }
        std::fs::write(&path, bytes).expect("write");
        refused_and_untouched(&path);
    }

    /// A damaged file repaired: the damaged bytes kept beside it, the store working on the repair.
    fn repaired(path: &Path) -> (SqliteStore, Repair) {
        let bad = std::fs::read(path).expect("read");
        assert!(matches!(
            SqliteStore::open(path).err().expect("damaged"),
            StoreError::Corrupt { .. }
        ));
        assert_eq!(
            std::fs::read(path).expect("read"),
            bad,
            "open leaves it alone"
        );
        let (store, report) = SqliteStore::open_or_repair(path).expect("repaired");
        let report = report.expect("a repair");
        assert!(report
            .damaged_copy
            .to_string_lossy()
            .starts_with(&format!("{}.damaged-", path.display())));
        assert_eq!(
            std::fs::read(&report.damaged_copy).expect("kept"),
            bad,
            "the damaged file is kept byte for byte"
        );
        let dir = path.parent().expect("folder");
        assert!(
            files_named(dir, ".repair").is_empty(),
            "no scratch files left"
        );
        (store, report)
    }

    #[test]
    fn a_truncated_database_keeps_what_can_be_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        filled(&path, 40);
        let len = std::fs::metadata(&path).expect("size").len();
        assert!(len > 16 * 4096, "a database of many pages ({len} bytes)");
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .expect("open");
        file.set_len(len / 2).expect("truncate");
        drop(file);
        let (store, report) = repaired(&path);
        assert!(!report.reindexed);
        assert!(!report.is_lossless(), "{report:?}");
        store
            .save_table(&table(5, None, 3))
            .expect("the repaired file works");
        let kept = store.recent_games(Some(1), 100).expect("games").len();
        assert!(kept < 40, "{kept}");
        drop(store);
        let (_store, again) = SqliteStore::open_or_repair(&path).expect("reopen");
        assert_eq!(again, None, "the repaired database is sound");
    }

    /// 30 finished games, 2 live games and a set-aside table.
    fn thirty_and_two(path: &Path) {
        let store = SqliteStore::open(path).expect("open");
        for c in 0..30u64 {
            store
                .finish_game(&finished(
                    Some(1),
                    1000 + c,
                    i64::try_from(c).expect("small"),
                    vec![
                        player(1 + c % 7, "Ann", 0, c % 2 == 0, 1),
                        player(100 + c % 5, "Bob", 1, c % 2 == 1, 0),
                    ],
                ))
                .expect("finish");
        }
        // Live tables as long as real ones (a snapshot of a few pages).
        for (channel, actions) in [(10, 20), (20, 30)] {
            let mut live = table(channel, Some(1), actions);
            live.snapshot_json = format!(
                r#"{{"channel":{channel},"padding":"{}"}}"#,
                "x".repeat(12_000)
            );
            store.save_table(&live).expect("save");
        }
        store.save_table(&table(30, Some(1), 0)).expect("save");
        store
            .quarantine_table(30, "set aside before")
            .expect("quarantine");
    }

    /// The b-trees of the file: name, and its pages (root first), from SQLite's `dbstat`.
    fn btrees(path: &Path) -> Vec<(String, Vec<(i64, String)>)> {
        let conn = Connection::open(path).expect("open");
        let rows: Vec<(String, i64, String)> = conn
            .prepare("SELECT name, pageno, pagetype FROM dbstat ORDER BY name, path")
            .expect("dbstat")
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows");
        let mut trees: Vec<(String, Vec<(i64, String)>)> = Vec::new();
        for (name, page, kind) in rows {
            match trees.last_mut() {
                Some((n, pages)) if *n == name => pages.push((page, kind)),
                _ => trees.push((name, vec![(page, kind)])),
            }
        }
        trees
    }

    /// Overwrites 16 bytes at the start of a page's b-tree header (page 1's header follows the file's).
    fn damage_page(path: &Path, page: i64) {
        let mut bytes = std::fs::read(path).expect("read");
        let start =
            usize::try_from(page - 1).expect("page") * 4096 + if page == 1 { 100 } else { 0 };
        for b in &mut bytes[start..start + 16] {
            *b = 0xA5;
        }
        std::fs::write(path, bytes).expect("write");
    }

    #[test]
    fn a_damaged_page_of_each_table_and_index_is_repaired() {
        let dir = tempfile::tempdir().expect("temp dir");
        let clean = dir.path().join("clean.db");
        thirty_and_two(&clean);
        let page_size: i64 = Connection::open(&clean)
            .expect("open")
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .expect("page size");
        assert_eq!(page_size, 4096);
        let expected_stats = SqliteStore::open(&clean)
            .expect("open")
            .leaderboard(Some(1), 100)
            .expect("stats");
        let expected_ratings = SqliteStore::open(&clean)
            .expect("open")
            .rating_leaderboard(Some(1), 100)
            .expect("ratings");
        assert!(!expected_ratings.is_empty(), "the games are rated");
        let trees = btrees(&clean);
        let names: Vec<&str> = trees.iter().map(|(n, _)| n.as_str()).collect();
        for wanted in [
            "live_tables",
            "quarantine",
            "games",
            "game_players",
            "player_stats",
            "games_by_guild",
            "player_stats_by_wins",
            "sqlite_autoindex_game_players_1",
            "sqlite_autoindex_player_stats_1",
        ] {
            assert!(names.contains(&wanted), "{wanted} in {names:?}");
        }
        let mut cases = 0;
        for (name, pages) in trees.iter().filter(|(n, _)| n != "sqlite_schema") {
            // A leaf (or overflow) page other than the root where there is one: the damage the issue
            // describes; then the root too.
            let leaf = pages
                .iter()
                .skip(1)
                .find(|(_, kind)| kind != "internal")
                .map(|(p, _)| *p);
            for page in leaf.into_iter().chain([pages[0].0]) {
                cases += 1;
                let path = dir.path().join(format!("case{cases}.db"));
                std::fs::copy(&clean, &path).expect("copy");
                damage_page(&path, page);
                let what = format!("{name}, page {page}");
                let (store, report) = repaired(&path);
                let index = !matches!(
                    name.as_str(),
                    "live_tables"
                        | "quarantine"
                        | "games"
                        | "game_players"
                        | "player_stats"
                        | "sqlite_sequence"
                        | "server_settings"
                        | "settings_log"
                        | "settings_damaged"
                );
                let loaded = store.load_tables().expect("load");
                let games = store.recent_games(Some(1), 100).expect("games");
                if index || name == "sqlite_sequence" {
                    assert!(report.is_lossless(), "{what}: {report:?}");
                    assert_eq!(games.len(), 30, "{what}");
                    assert_eq!(loaded.tables.len(), 2, "{what}");
                    assert_eq!(
                        store.leaderboard(Some(1), 100).expect("stats"),
                        expected_stats,
                        "{what}"
                    );
                    assert_eq!(store.quarantined().expect("q").len(), 1, "{what}");
                    // Ratings are rebuilt from the games (a damaged ratings page included).
                    assert_eq!(
                        store.rating_leaderboard(Some(1), 100).expect("ratings"),
                        expected_ratings,
                        "{what}"
                    );
                    continue;
                }
                // A table's page: that table lost rows, the others are whole.
                let salvage = report
                    .tables
                    .iter()
                    .find(|t| t.table == *name)
                    .expect("the table");
                assert!(
                    salvage.lost > 0 || salvage.unreadable_runs > 0,
                    "{what}: {report:?}"
                );
                // Players of lost games go with them.
                let dependent = |t: &str| name == "games" && t == "game_players";
                for other in report
                    .tables
                    .iter()
                    .filter(|t| t.table != *name && !dependent(&t.table))
                {
                    assert_eq!(
                        (other.lost, other.unreadable_runs),
                        (0, 0),
                        "{what}: {report:?}"
                    );
                }
                match name.as_str() {
                    "live_tables" => {
                        // Each live table is back, or its channel is told (the index names it).
                        let back: Vec<u64> = loaded.tables.iter().map(|t| t.channel_id).collect();
                        let lost: Vec<u64> =
                            loaded.quarantined.iter().map(|q| q.channel_id).collect();
                        let mut all: Vec<u64> = back.iter().chain(&lost).copied().collect();
                        all.sort_unstable();
                        assert_eq!(all, vec![10, 20], "{what}: every channel back or told");
                        assert!(back.len() < 2, "{what}");
                        assert!(
                            loaded.quarantined.iter().all(|q| q.guild_id == Some(1)),
                            "{what}: the server is known too"
                        );
                        assert_eq!(games.len(), 30, "{what}");
                    }
                    "games" => {
                        assert!(games.len() < 30, "{what}");
                        if page != pages[0].0 {
                            assert!(!games.is_empty(), "{what}: only one page lost");
                        }
                        assert_eq!(loaded.tables.len(), 2, "{what}");
                        // Stats were not damaged: they still count every game.
                        assert_eq!(
                            store.leaderboard(Some(1), 100).expect("stats"),
                            expected_stats,
                            "{what}"
                        );
                    }
                    "player_stats" => {
                        // Rebuilt from the history, which is whole.
                        assert_eq!(games.len(), 30, "{what}");
                        assert_eq!(
                            store.leaderboard(Some(1), 100).expect("stats"),
                            expected_stats,
                            "{what}"
                        );
                    }
                    _ => {
                        assert_eq!(loaded.tables.len(), 2, "{what}");
                    }
                }
            }
        }
        assert!(cases >= 12, "{cases} cases");
    }

    /// The tables (and the aliases the queries give them) that grow with the history.
    const HISTORY_TABLES: [&str; 7] = [
        "games",
        "game_players",
        "player_stats",
        "ratings",
        "rating_changes",
        "g",
        "p",
    ];

    /// The steps of a statement's plan that read a whole table of the history (`SCAN games`, also
    /// through an index: `SCAN g USING INDEX ...` visits every entry).
    fn history_scans(conn: &Connection, sql: &str) -> Vec<String> {
        let mut stmt = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .expect("explain");
        let mut rows = stmt.raw_query();
        let mut scans = Vec::new();
        while let Some(row) = rows.next().expect("plan") {
            let detail: String = row.get(3).expect("detail");
            let table = detail
                .strip_prefix("SCAN ")
                .and_then(|rest| rest.split_whitespace().next());
            // A partial index holds only what it names (the games not announced yet).
            let bounded = detail.ends_with("USING INDEX games_unannounced");
            if table.is_some_and(|t| HISTORY_TABLES.contains(&t)) && !bounded {
                scans.push(detail);
            }
        }
        scans
    }

    /// A statement's plan, step by step.
    fn plan_of(conn: &Connection, sql: &str) -> Vec<String> {
        let mut stmt = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .expect("explain");
        let mut rows = stmt.raw_query();
        let mut plan = Vec::new();
        while let Some(row) = rows.next().expect("plan") {
            plan.push(row.get(3).expect("detail"));
        }
        plan
    }

    /// Issue 28: no query of the store reads every row of what grows with the history; each finds
    /// its rows through a key or an index.
    #[test]
    fn no_query_scans_the_history() {
        let store = SqliteStore::open_in_memory().expect("open");
        let conn = store.conn();
        // The check catches a scan (it can fail).
        assert_eq!(
            history_scans(&conn, "SELECT id FROM games WHERE variant = ?1"),
            ["SCAN games"]
        );
        assert!(!history_scans(
            &conn,
            "SELECT id FROM games INDEXED BY games_by_guild ORDER BY guild_id"
        )
        .is_empty());
        // A search by part of the key reads every row of that part: these must use the index
        // made for them (the latest game of a channel read every game of its server before).
        let expected = [
            ("LATEST_IN_CHANNEL", "games_by_channel"),
            ("RECENT_GAMES", "games_by_guild"),
            ("RATED_SINCE", "games_rated_by_guild"),
            ("LEADERBOARD", "player_stats_by_wins"),
            ("RATING_LEADERBOARD", "ratings_by_conservative"),
            ("RATING_CHANGES", "rating_changes_by_player"),
            ("RECENT_AGREEMENT", "game_agreement_by_player"),
        ];
        let mut failures = Vec::new();
        for &(name, sql) in STATEMENTS {
            if WHOLE_HISTORY.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let scans = history_scans(&conn, &render(sql, Engine::Sqlite));
            if !scans.is_empty() {
                failures.push(format!("{name}: {scans:?}"));
            }
            let plan = plan_of(&conn, &render(sql, Engine::Sqlite));
            for (_, index) in expected.iter().filter(|(n, _)| *n == name) {
                if !plan
                    .iter()
                    .any(|step| step.contains(&format!("INDEX {index} ")))
                {
                    failures.push(format!("{name}: not through {index}: {plan:?}"));
                }
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
        // Without the index the latest game of a channel is found by reading its server's games.
        conn.execute_batch("DROP INDEX games_by_channel")
            .expect("drop");
        let plan = plan_of(&conn, &render(LATEST_IN_CHANNEL, Engine::Sqlite));
        assert!(
            !plan.iter().any(|s| s.contains("INDEX games_by_channel ")),
            "{plan:?}"
        );
    }

    /// The statements that read a whole server's history, or all of it, by design, and why. Every
    /// other statement of [`STATEMENTS`] must cost the same whatever the size of the history.
    const WHOLE_HISTORY: [(&str, &str); 16] = [
        (
            "RATED_GAMES",
            "the rating replay (a migration, a repair, a damaged rating) reads every game",
        ),
        (
            "CLEAR_RATINGS",
            "the rating replay removes every rating first",
        ),
        (
            "CLEAR_GUILD_RATINGS",
            "a server's rating replay removes its ratings first",
        ),
        (
            "CLEAR_GUILD_CHANGES",
            "a server's rating replay removes its rating changes first",
        ),
        (
            "PROFILE_GAMES",
            "the profiles' recomputation (the migration, a repair) reads every game, a batch at a time",
        ),
        (
            "CLEAR_FIGURES",
            "the profiles' recomputation removes the figures first",
        ),
        (
            "CLEAR_PAIRS",
            "the profiles' recomputation removes the pair totals first",
        ),
        (
            "CLEAR_SHARED",
            "the profiles' recomputation removes the shared games first",
        ),
        (
            "CLEAR_ACHIEVEMENTS",
            "the profiles' recomputation removes the achievements games unlock first",
        ),
        (
            "PLAYER_GAMES",
            "rebuilding one player's damaged profile reads that player's games",
        ),
        (
            "DELETE_PLAYER_PAIRS",
            "rebuilding one player's damaged profile removes their pair totals first",
        ),
        (
            "DELETE_PLAYER_SHARED",
            "rebuilding one player's damaged profile removes their shared games first",
        ),
        (
            "CLEAR_GUILD_BANDS",
            "a server's rating replay removes its kept band counts first",
        ),
        (
            "CLEAR_RATINGS_UNBANDED",
            "the rating replay of the migration that added ratings removes every rating first",
        ),
        (
            "ALL_RATINGS",
            "the migration that added the rank bands counts every stored rating once",
        ),
        (
            "CLEAR_BANDS",
            "counting the rank bands again (the migration, the rating replay) removes them all first",
        ),
    ];

    /// The busy server of [`history`], another one, the busy server's most active player and a
    /// member of it who never played.
    const BUSY: i64 = 1;
    const OTHER: i64 = 2;
    const ACTIVE: i64 = 7;
    const NEWCOMER: i64 = 99_999;

    /// A store with `100 * scale` finished games (half in [`BUSY`], [`ACTIVE`] in half of those,
    /// `10 * scale` other players), their players, stats, ratings, rating changes, agreement with
    /// `hard`, series and settings log; the last 2 games not announced yet. What does not grow with
    /// the history (live tables, quarantine, settings set aside) is the same at every scale.
    fn history(scale: i64) -> SqliteStore {
        let store = SqliteStore::open_in_memory().expect("open");
        let total = 100 * scale;
        {
            let conn = store.conn();
            conn.execute_batch("BEGIN").expect("begin");
            for n in 0..total {
                let id = n + 1;
                let guild = if n % 2 == 0 { BUSY } else { OTHER };
                let (rated, aborted) = (n % 3 != 0, n % 17 == 5);
                conn.execute(
                    "INSERT INTO games (id, guild_id, channel_id, variant, record_json,
                         finished_at, announced, rated, aborted)
                     VALUES (?1, ?2, ?3, 'classic', '{}', ?4, ?5, ?6, ?7)",
                    params![
                        id,
                        guild,
                        guild * 100 + n % 5,
                        1_000_000 + n * 1000,
                        n < total - 2,
                        rated,
                        aborted
                    ],
                )
                .expect("game");
                let first = if n % 4 == 0 {
                    ACTIVE
                } else {
                    100 + (n * 7) % (10 * scale)
                };
                let users = [first, 100 + (n * 7 + 3) % (10 * scale)];
                for (seat, user) in users.into_iter().enumerate() {
                    let won = seat == n as usize % 2;
                    conn.execute(
                        "INSERT INTO game_players (game_id, seat, user_id, name, team, won,
                             sequences)
                         VALUES (?1, ?2, ?3, 'Name', ?2, ?4, ?5)",
                        params![id, seat as i64, user, won, i64::from(won)],
                    )
                    .expect("player");
                    conn.execute(
                        "INSERT INTO game_agreement (game_id, user_id, matched, counted,
                             guild_id, counts)
                         VALUES (?1, ?2, 5, 10, ?3, ?4)",
                        params![id, user, guild, rated && !aborted],
                    )
                    .expect("agreement");
                    if aborted {
                        continue;
                    }
                    conn.execute(
                        "INSERT INTO player_stats (guild_id, user_id, name, games, wins, sequences)
                         VALUES (?1, ?2, 'Name', 1, ?3, ?3)
                         ON CONFLICT (guild_id, user_id) DO UPDATE SET games = games + 1,
                             wins = wins + excluded.wins",
                        params![guild, user, i64::from(won)],
                    )
                    .expect("stats");
                    if rated {
                        let conservative = (user % 1000) as f64 / 100.0 + n as f64 / 1e6;
                        conn.execute(
                            "INSERT INTO ratings (guild_id, user_id, name, mu, sigma,
                                 conservative, games)
                             VALUES (?1, ?2, 'Name', ?3 + 6.0, 2.0, ?3, 1)
                             ON CONFLICT (guild_id, user_id) DO UPDATE SET
                                 conservative = excluded.conservative, games = games + 1",
                            params![guild, user, conservative],
                        )
                        .expect("rating");
                        conn.execute(
                            "INSERT INTO rating_changes (game_id, guild_id, user_id,
                                 conservative_before, conservative_after)
                             VALUES (?1, ?2, ?3, 0.0, ?4)",
                            params![id, guild, user, conservative],
                        )
                        .expect("change");
                    }
                }
                if n % 10 == 0 {
                    conn.execute(
                        "INSERT INTO series_stats (guild_id, user_id, played, won)
                         VALUES (?1, ?2, 1, 1)
                         ON CONFLICT (guild_id, user_id) DO UPDATE SET played = played + 1",
                        params![guild, users[1]],
                    )
                    .expect("series");
                    conn.execute(
                        "INSERT INTO settings_log (guild_id, user_id, change, at)
                         VALUES (?1, ?2, 'a change', ?3)",
                        params![guild, users[1], n],
                    )
                    .expect("log");
                }
            }
            // The kept rank bands of the ratings written above, as the migration counts them.
            crate::store::sql::ratings::recount_rating_bands(&mut Lite(&conn)).expect("bands");
            conn.execute_batch(
                "INSERT INTO series_stats (guild_id, user_id, played, won) VALUES (1, 7, 3, 2);
                 INSERT INTO server_settings (guild_id, settings_json, updated_at)
                     VALUES (1, '{}', 0);
                 INSERT INTO settings_damaged (guild_id, settings_json, reason, set_aside_at)
                     VALUES (2, '{', 'damaged', 0);
                 INSERT INTO live_tables (channel_id, guild_id, record_json, snapshot_json,
                     updated_at)
                     VALUES (100, 1, '{}', '{}', 0), (101, 1, '{}', '{}', 0), (200, 2, '{}', '{}', 0);
                 INSERT INTO quarantine (channel_id, guild_id, reason, quarantined_at)
                     VALUES (102, 1, 'damaged', 0);
                 COMMIT;",
            )
            .expect("the rest");
        }
        store
    }

    /// The arguments a statement of [`STATEMENTS`] runs with on [`history`] of `total` games, for
    /// `user` of [`BUSY`]; `None` for a statement this test does not know yet.
    fn arguments(name: &str, user: i64, total: i64) -> Option<Vec<SqlValue>> {
        use SqlValue::{Integer as I, Null, Real as R, Text as T};
        let text = |s: &str| T(s.to_string());
        let latest = I(total);
        Some(match name {
            "GAME_PLAYERS" | "MARK_ANNOUNCED" => vec![latest],
            "RATED_SINCE" => vec![I(BUSY), I(1_000_000 + (total - 20) * 1000), I(0)],
            "LATEST_IN_CHANNEL" => vec![I(BUSY), I(BUSY * 100 + 2)],
            "INSERT_GAME" => vec![
                I(BUSY),
                I(BUSY * 100),
                text("classic"),
                text("{}"),
                I(9_000_000_000),
                I(1),
                I(0),
                I(8_000_000_000),
                text("0123456789abcdef0123456789abcdef"),
            ],
            "INSERT_PLAYER" => vec![
                latest,
                I(5),
                I(user),
                text("Name"),
                I(0),
                I(1),
                I(1),
                Null,
                I(0),
            ],
            "ADD_STATS" => vec![I(BUSY), I(user), text("Name"), I(1), I(1)],
            "RATING" | "PLAYER_STATS" | "SERIES_STATS" | "SET_ASIDE_SERIES" | "DELETE_SERIES"
            | "ADD_SERIES" => {
                let mut args = vec![I(BUSY), I(user)];
                match name {
                    "SET_ASIDE_SERIES" => args.extend([text("damaged"), I(0)]),
                    "ADD_SERIES" => args.push(I(1)),
                    _ => {}
                }
                args
            }
            "WRITE_RATING" => vec![
                I(BUSY),
                I(user),
                text("Name"),
                R(25.0),
                R(8.0),
                R(1.0),
                I(1),
                I(100),
            ],
            "WRITE_RATING_UNBANDED" => vec![
                I(BUSY),
                I(user),
                text("Name"),
                R(25.0),
                R(8.0),
                R(1.0),
                I(1),
            ],
            "RATING_BAND" => vec![I(BUSY), I(user)],
            "REBUILD_STATE" | "REBUILD_LOCK" | "REBUILD_SHARE" | "REBUILD_START"
            | "REBUILD_DONE" | "LAST_GAME_ID" => vec![],
            "REBUILD_ADVANCE" => vec![latest],
            "SET_RATING_BAND" => vec![I(BUSY), I(user), I(100)],
            "ADD_TO_BAND" => vec![I(BUSY), I(1), I(100), I(1)],
            "WRITE_CHANGE" => vec![latest, I(BUSY), I(user), R(0.0), R(1.0)],
            "UNANNOUNCED" | "QUARANTINED" | "DAMAGED_SETTINGS" | "PING" | "LOAD_TABLES" => {
                vec![]
            }
            "GAME_RECORD" | "GAME_WEB_TOKEN" => vec![latest, I(BUSY)],
            "GAME_AGREEMENT" => vec![latest],
            "GAME_OF_WEB_TOKEN" => vec![text("0123456789abcdef0123456789abcdef")],
            "RECENT_GAMES" | "LEADERBOARD" | "RATING_LEADERBOARD" | "SETTINGS_LOG" => {
                vec![I(BUSY), I(10)]
            }
            "RATING_CHANGES" => vec![I(BUSY), I(user), I(5)],
            "DELETE_LIVE_TABLE" => vec![I(100)],
            "RECENT_AGREEMENT" => vec![I(BUSY), I(user), I(20)],
            "SAVE_AGREEMENT" => vec![latest, I(user), I(3), I(10)],
            "SET_RATED" => vec![latest, I(1)],
            "SET_BOT_LEVEL" => vec![latest, I(1), text("hard")],
            "QUARANTINE_TABLE" => vec![I(100), text("damaged"), I(0)],
            "QUARANTINE_LOADED" => vec![I(100), I(BUSY), text("damaged"), I(0)],
            "SERVER_SETTINGS" | "DELETE_SETTINGS" => vec![I(BUSY)],
            "SAVE_SETTINGS" => vec![I(BUSY), text("{}"), I(1)],
            "LOG_SETTINGS" => vec![I(BUSY), I(user), text("a change"), I(1)],
            "SET_ASIDE_SETTINGS" => vec![I(BUSY), Null, text("damaged"), I(0)],
            "SAVE_TABLE" => vec![I(100), I(BUSY), text("{}"), text("{}"), I(1), Null],
            "LOAD_TABLE" => vec![I(100)],
            "CHANNEL_OF_WEB_TOKEN" => vec![text("0123456789abcdef0123456789abcdef")],
            "PLAYER_FIGURES"
            | "ACHIEVEMENTS"
            | "PLAYER_NAME"
            | "DELETE_PLAYER_FIGURES"
            | "DELETE_PLAYER_PAIRS"
            | "DELETE_PLAYER_SHARED" => {
                vec![I(BUSY), I(user)]
            }
            "PLAYER_GAMES" => vec![I(BUSY), I(user), Null],
            "WRITE_FIGURES" => vec![I(BUSY), I(user), text("figures"), text("{}")],
            "UNLOCK" => vec![I(BUSY), I(user), text("first_game"), latest, I(0)],
            "UNLOCKED_IN" => vec![latest],
            "ADD_PAIR" => vec![
                I(BUSY),
                I(user),
                I(ACTIVE + 1),
                I(1),
                I(1),
                I(0),
                I(1),
                I(0),
                I(1),
                I(1),
            ],
            "INSERT_SHARED" => vec![
                I(BUSY),
                I(user),
                I(ACTIVE + 1),
                latest,
                text("classic"),
                I(0),
                I(1),
                I(1),
                I(0),
            ],
            "PAIR_TOTALS" => vec![I(BUSY), I(user), I(ACTIVE + 1)],
            "SHARED_RECENT" => vec![I(BUSY), I(user), I(ACTIVE + 1), I(10)],
            // Fewer than the chart's 50, so that both histories fill the limit.
            "RATING_CHART" => vec![I(BUSY), I(user), I(5)],
            // The most a rank reads: the first hundredth of a point (9 tenths, 9 hundredths after it).
            "RATING_RANK" => vec![I(BUSY), I(1), I(10), I(100), I(20), I(110), R(1.0), I(1)],
            "RATING_RANK_BEFORE_44" => vec![I(BUSY), R(1.0), I(1), I(user)],
            "PROFILE_GAMES" => vec![I(BUSY), I(0), I(100)],
            "CLEAR_FIGURES" | "CLEAR_PAIRS" | "CLEAR_SHARED" | "CLEAR_ACHIEVEMENTS" => {
                vec![I(BUSY)]
            }
            _ => return None,
        })
    }

    /// The virtual machine steps and full-scan steps of one run of `sql` with `args`, whose
    /// changes are undone.
    fn steps(conn: &Connection, sql: &str, args: &[SqlValue]) -> (i32, i32) {
        conn.execute_batch("SAVEPOINT measure").expect("savepoint");
        let mut stmt = conn.prepare(&render(sql, Engine::Sqlite)).expect(sql);
        assert_eq!(stmt.parameter_count(), args.len(), "{sql}");
        for (i, arg) in args.iter().enumerate() {
            stmt.raw_bind_parameter(i + 1, arg).expect("bind");
        }
        let mut rows = stmt.raw_query();
        while rows.next().expect(sql).is_some() {}
        drop(rows);
        let counts = (
            stmt.get_status(StatementStatus::VmStep),
            stmt.get_status(StatementStatus::FullscanStep),
        );
        drop(stmt);
        conn.execute_batch("ROLLBACK TO measure; RELEASE measure")
            .expect("undo");
        counts
    }

    /// Whether the work grew with the history: the larger history's steps against the small's
    /// (ten times as many games; a statement that costs the same whatever the history's size
    /// takes about as many steps on both).
    fn grows(small: (i32, i32), large: (i32, i32)) -> bool {
        large.0 > 2 * small.0 + 100 || large.1 > small.1
    }

    /// The agreement query before issue 35: the server's rated games newest first, each probed
    /// for the player's row.
    const WALKING_AGREEMENT: &str =
        "SELECT CAST(COALESCE(SUM(matched), 0) AS {int}), CAST(COALESCE(SUM(counted), 0) AS {int}),
            COUNT(*)
        FROM (SELECT a.matched, a.counted FROM game_agreement a JOIN games g ON g.id = a.game_id
              WHERE a.user_id = ?2 AND g.guild_id = ?1 AND g.rated = {true} AND g.aborted = {false}
              ORDER BY g.finished_at DESC, g.id DESC LIMIT ?3) AS latest";

    /// The rank before issue 44: every rated player of the server counted.
    const COUNTING_RANK: &str = "SELECT
            COUNT(CASE WHEN conservative > ?2 OR (conservative = ?2 AND (games > ?3
                OR (games = ?3 AND user_id < ?4))) THEN 1 END),
            COUNT(*)
        FROM ratings WHERE guild_id = ?1";

    /// Issue 35: every statement of the store costs the same whatever the size of the history
    /// (but those of [`WHOLE_HISTORY`]): run for the busy server's most active player and for a
    /// member who never played there, on a history and on one ten times as large, none takes
    /// more steps on the larger one (a walk through the history grows with it even where its plan
    /// names an index).
    #[test]
    fn no_statement_grows_with_the_history() {
        let (small, large) = (history(1), history(10));
        let (small, large) = (small.conn(), large.conn());
        let measure = |sql: &str, name: &str, user: i64| {
            let at = |conn: &Connection, total| {
                let args = arguments(name, user, total).expect("arguments");
                steps(conn, sql, &args)
            };
            (at(&small, 100), at(&large, 1000))
        };
        // The check can fail: the agreement query before issue 35 walked the history.
        let (before_small, before_large) = measure(WALKING_AGREEMENT, "RECENT_AGREEMENT", NEWCOMER);
        assert!(
            grows(before_small, before_large),
            "{before_small:?} -> {before_large:?}"
        );
        // And the rank before issue 44 counted the server's rated players.
        let (before_small, before_large) = measure(COUNTING_RANK, "RATING_RANK_BEFORE_44", ACTIVE);
        assert!(
            grows(before_small, before_large),
            "{before_small:?} -> {before_large:?}"
        );
        let mut failures = Vec::new();
        let mut report = Vec::new();
        for &(name, sql) in STATEMENTS {
            if WHOLE_HISTORY.iter().any(|(n, _)| *n == name) {
                continue;
            }
            if arguments(name, ACTIVE, 100).is_none() {
                failures.push(format!("{name}: no arguments in this test: add them"));
                continue;
            }
            for (who, user) in [("most active player", ACTIVE), ("newcomer", NEWCOMER)] {
                let (s, l) = measure(sql, name, user);
                report.push(format!("{name} ({who}): {s:?} -> {l:?}"));
                if grows(s, l) {
                    failures.push(format!(
                        "{name} ({who}): (steps, full-scan steps) {s:?} with 100 games, \
                         {l:?} with 1000"
                    ));
                }
            }
        }
        println!("{}", report.join("\n"));
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// Issue 35: the stores run no statement on their tables but those of [`STATEMENTS`] (so
    /// that the plan tests check each): no SQL is written in the code of the SQLite store or of the
    /// shared layer, but the start-up check's listing of the tables.
    #[test]
    fn every_statement_is_in_the_list() {
        let untested = |source: &'static str| {
            source
                .find("#[cfg(test)]\nmod tests")
                .map_or(source, |end| &source[..end])
        };
        let sources = [
            ("sqlite.rs", untested(include_str!("sqlite.rs"))),
            ("sql/mod.rs", untested(include_str!("sql/mod.rs"))),
            ("sql/reads.rs", include_str!("sql/reads.rs")),
            ("sql/writes.rs", include_str!("sql/writes.rs")),
            ("sql/ratings.rs", include_str!("sql/ratings.rs")),
            ("sql/rows.rs", include_str!("sql/rows.rs")),
        ];
        let allowed = ["\"SELECT name FROM sqlite_master WHERE type = 'table'\""];
        let mut found = Vec::new();
        for (file, source) in sources {
            for keyword in [
                "SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WITH ", "REPLACE ",
            ] {
                let quoted = format!("\"{keyword}");
                for (at, _) in source.match_indices(&quoted) {
                    if !allowed.iter().any(|a| source[at..].starts_with(a)) {
                        let line = source[..at].lines().count();
                        found.push(format!("{file}:{line}"));
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "SQL outside sql/queries.rs (define it there): {found:?}"
        );
        // The check can fail.
        assert!(untested(include_str!("repair.rs")).contains("\"SELECT "));
    }

    /// A leaf page of a b-tree of the file.
    fn leaf_of(path: &Path, tree: &str) -> i64 {
        let trees = btrees(path);
        let (_, pages) = trees.iter().find(|(n, _)| n == tree).expect("the tree");
        pages
            .iter()
            .skip(1)
            .find(|(_, kind)| kind == "leaf")
            .map(|(p, _)| *p)
            .expect("a leaf page besides the root")
    }

    /// Issue 28: a file larger than the whole-check limit (none here) is checked at start only where
    /// start-up reads it. Damage in the history is met by the query that reads it (an error, not a
    /// panic) and recorded; the next start checks the whole file and repairs it.
    #[test]
    fn damage_in_the_history_of_a_large_file_is_met_later_and_repaired_at_the_next_start() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        thirty_and_two(&path);
        damage_page(&path, leaf_of(&path, "games"));
        let marker = companion(&path, DAMAGE_MARKER);
        let (store, report) = SqliteStore::open_or_repair_checking(&path, 0).expect("opens");
        assert_eq!(report, None, "the history is not read at start");
        assert_eq!(store.load_tables().expect("restore").tables.len(), 2);
        let err = store.recent_games(Some(1), 100).expect_err("damage met");
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
        assert!(marker.exists(), "recorded for the next start");
        drop(store);
        let (store, report) = SqliteStore::open_or_repair_checking(&path, 0).expect("repaired");
        let report = report.expect("a repair at the next start");
        assert!(!report.is_lossless(), "{report:?}");
        assert!(!marker.exists(), "the record has served");
        let games = store.recent_games(Some(1), 100).expect("games").len();
        assert!((1..30).contains(&games), "{games}");
        assert_eq!(store.load_tables().expect("restore").tables.len(), 2);
        drop(store);
        let (_store, again) = SqliteStore::open_or_repair_checking(&path, 0).expect("reopen");
        assert_eq!(again, None, "sound now");
    }

    /// Issue 28: damage that no query meets is found by the whole check that runs in the background
    /// after restore, and repaired at the next start.
    #[test]
    fn the_background_check_finds_damage_no_query_met() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        thirty_and_two(&path);
        damage_page(&path, leaf_of(&path, "games"));
        let marker = companion(&path, DAMAGE_MARKER);
        let (store, report) = SqliteStore::open_or_repair_checking(&path, 0).expect("opens");
        assert_eq!(report, None);
        assert!(!marker.exists());
        store.load_tables().expect("restore");
        // Waits for the check (not a timing assertion: it normally takes milliseconds).
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while !marker.exists() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(marker.exists(), "the background check recorded the damage");
        drop(store);
        let (_store, report) = SqliteStore::open_or_repair_checking(&path, 0).expect("repaired");
        assert!(report.is_some(), "repaired at the next start");
        assert!(!marker.exists());
    }

    /// Issue 28: with the start check only, damage in what start-up reads (the live tables) is
    /// still found and repaired at start, as before.
    #[test]
    fn the_start_check_of_a_large_file_still_repairs_damaged_live_tables() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        thirty_and_two(&path);
        let trees = btrees(&path);
        let (_, pages) = trees
            .iter()
            .find(|(n, _)| n == "live_tables")
            .expect("live tables");
        damage_page(&path, pages[0].0);
        let (store, report) = SqliteStore::open_or_repair_checking(&path, 0).expect("repaired");
        assert!(report.is_some(), "repaired at start");
        let loaded = store.load_tables().expect("restore");
        assert_eq!(loaded.tables.len() + loaded.quarantined.len(), 2);
        assert_eq!(store.recent_games(Some(1), 100).expect("games").len(), 30);
    }

    #[test]
    fn an_overflow_page_of_a_live_table_loses_that_table_only_and_names_its_channel() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        thirty_and_two(&path);
        let conn = Connection::open(&path).expect("open");
        // The overflow pages of channel 20's row (its record is several pages long).
        let overflow: Vec<i64> = conn
            .prepare(
                "SELECT pageno FROM dbstat WHERE name = 'live_tables' AND pagetype = 'overflow'",
            )
            .expect("dbstat")
            .query_map([], |r| r.get(0))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows");
        drop(conn);
        assert!(!overflow.is_empty(), "records overflow their page");
        damage_page(&path, *overflow.last().expect("one"));
        let (store, report) = repaired(&path);
        let loaded = store.load_tables().expect("load");
        assert_eq!(
            loaded.tables.len() + loaded.quarantined.len(),
            2,
            "{report:?}"
        );
        assert_eq!(loaded.quarantined.len(), 1, "{report:?}");
        // Whether the row could not be read or read as garbage, the channel is named.
        assert!([10, 20].contains(&loaded.quarantined[0].channel_id));
        assert!(!loaded.quarantined[0].reason.is_empty());
        assert_eq!(store.recent_games(Some(1), 100).expect("games").len(), 30);
        // Reported once.
        assert!(store.load_tables().expect("again").quarantined.is_empty());
    }

    #[test]
    fn a_second_store_on_one_file_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let first = SqliteStore::open(&path).expect("open");
        first.save_table(&table(10, Some(1), 4)).expect("save");
        let before = first.load_tables().expect("load");
        for second in [
            SqliteStore::open(&path).err(),
            SqliteStore::open_or_repair(&path).err(),
        ] {
            let err = second.expect("refused");
            assert!(matches!(err, StoreError::Locked { .. }), "{err}");
            let text = err.to_string();
            assert!(text.contains(&path.display().to_string()), "{text}");
            assert!(text.contains("another sequence-bot process"), "{text}");
        }
        assert_eq!(
            first.load_tables().expect("load"),
            before,
            "nothing changed"
        );
        drop(first);
        let again = SqliteStore::open(&path).expect("free again once closed");
        assert_eq!(again.load_tables().expect("load").tables.len(), 1);
    }

    /// Issue 24.5: a lock file planted as a link (to the database, to another file, to nowhere) or
    /// as a second name of another file is refused before anything is written, with a message that
    /// names it; once it is removed the bot starts on the database as it was.
    #[cfg(unix)]
    #[test]
    fn a_lock_file_that_is_a_link_or_a_second_name_is_refused_and_nothing_is_written() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let lock = companion(&path, ".lock");
        let store = SqliteStore::open(&path).expect("open");
        store.save_table(&table(10, Some(1), 4)).expect("save");
        let before = store.load_tables().expect("load");
        drop(store);
        // The lock file stays after the process; removed here to plant another in its place.
        std::fs::remove_file(&lock).expect("remove the lock file");
        let database = std::fs::read(&path).expect("read");
        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "the operator's notes\n").expect("write");
        let nowhere = dir.path().join("nowhere");
        type Plant = fn(&Path, &Path) -> std::io::Result<()>;
        let cases: [(&str, &Path, Plant, &str); 4] = [
            (
                "a link to the database",
                &path,
                |t, l| std::os::unix::fs::symlink(t, l),
                "symbolic link",
            ),
            (
                "a link to another file",
                &other,
                |t, l| std::os::unix::fs::symlink(t, l),
                "symbolic link",
            ),
            (
                "a dangling link",
                &nowhere,
                |t, l| std::os::unix::fs::symlink(t, l),
                "symbolic link",
            ),
            (
                "a hard link to another file",
                &other,
                |t, l| std::fs::hard_link(t, l),
                "hard links",
            ),
        ];
        for (case, target, plant, says) in cases {
            plant(target, &lock).expect("plant the lock file");
            for opened in [
                SqliteStore::open(&path).err(),
                SqliteStore::open_or_repair(&path).err(),
            ] {
                let err = opened.unwrap_or_else(|| panic!("{case}: opened"));
                assert!(
                    matches!(err, StoreError::UnsafeLock { .. }),
                    "{case}: {err}"
                );
                let text = err.to_string();
                assert!(text.contains(&lock.display().to_string()), "{case}: {text}");
                assert!(text.contains(says), "{case}: {text}");
                assert!(text.contains("Remove"), "{case}: {text}");
            }
            assert_eq!(std::fs::read(&path).expect("read"), database, "{case}");
            assert_eq!(
                std::fs::read_to_string(&other).expect("read"),
                "the operator's notes\n",
                "{case}"
            );
            assert!(
                !nowhere.exists(),
                "{case}: nothing created through the link"
            );
            std::fs::remove_file(&lock).expect("remove the planted lock");
        }
        // A hard link to the database: the database is untouched, and not even opened by SQLite.
        std::fs::hard_link(&path, &lock).expect("hard link");
        let err = SqliteStore::open_or_repair(&path).err().expect("refused");
        assert!(matches!(err, StoreError::UnsafeLock { .. }), "{err}");
        assert_eq!(std::fs::read(&path).expect("read"), database);
        std::fs::remove_file(&lock).expect("remove");

        // Removed: the bot starts on the database as it was, with a lock file of its own.
        let (store, repair) = SqliteStore::open_or_repair(&path).expect("open");
        assert!(repair.is_none(), "{repair:?}");
        assert_eq!(store.load_tables().expect("load"), before);
        let pid = std::fs::read_to_string(&lock).expect("lock file");
        assert_eq!(pid.trim(), std::process::id().to_string());
    }

    /// Issue 24.6 as reported: 16 bytes overwritten inside a ratings page (a rating's `mu` and
    /// `sigma`, side by side in its row) pass SQLite's check, so the file opens without a repair;
    /// the damage is noticed when the rating is read, and it is recomputed from the stored games.
    /// A NaN reads as `NULL`, which SQLite's check does see (`NOT NULL`): the repair rebuilds the
    /// ratings from the games then, to the same numbers.
    #[test]
    fn sixteen_bytes_overwritten_in_a_rating_are_recomputed_from_the_games() {
        let dir = tempfile::tempdir().expect("temp dir");
        let clean_path = dir.path().join("clean.db");
        let store = SqliteStore::open(&clean_path).expect("open");
        for n in 0..3 {
            store
                .finish_game(&finished(
                    Some(1),
                    n,
                    n as i64,
                    vec![
                        player(1, "Ann", 0, n != 1, 1),
                        player(2, "Bo", 1, n == 1, 0),
                    ],
                ))
                .expect("finish");
        }
        let clean = store
            .player_rating(Some(1), 1, 10)
            .expect("rating")
            .expect("rated");
        let board = store.rating_leaderboard(Some(1), 10).expect("board");
        drop(store);
        let file = std::fs::read(&clean_path).expect("read");
        let needle: Vec<u8> = [clean.rating.mu, clean.rating.sigma]
            .iter()
            .flat_map(|x| x.to_be_bytes())
            .collect();
        let at: Vec<usize> = file
            .windows(needle.len())
            .enumerate()
            .filter(|(_, w)| *w == needle.as_slice())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(at.len(), 1, "the row's mu and sigma, once in the file");
        for (case, mu, repaired) in [("1e11", 1e11, false), ("NaN", f64::NAN, true)] {
            let path = dir.path().join(format!("{case}.db"));
            let mut bytes = file.clone();
            bytes[at[0]..at[0] + 8].copy_from_slice(&mu.to_be_bytes());
            // A pattern where sigma was: a tiny negative number.
            bytes[at[0] + 8..at[0] + 16].fill(0xA5);
            std::fs::write(&path, bytes).expect("write");

            let (store, repair) = SqliteStore::open_or_repair(&path).expect("open");
            assert_eq!(repair.is_some(), repaired, "{case}: {repair:?}");
            let read = store
                .player_rating(Some(1), 1, 10)
                .expect("rating")
                .expect("rated");
            assert_eq!(read, clean, "{case}");
            assert_eq!(
                store.rating_leaderboard(Some(1), 10).expect("board"),
                board,
                "{case}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_database_is_readable_by_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let store = SqliteStore::open(&path).expect("open");
        store.save_table(&table(1, None, 3)).expect("save");
        for suffix in ["", "-wal", "-shm", ".lock"] {
            assert_eq!(mode(&companion(&path, suffix)), 0o600, "{suffix}");
        }
        drop(store);
        // An existing world-readable file is tightened.
        for suffix in ["", "-wal", "-shm"] {
            let file = companion(&path, suffix);
            if file.exists() {
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644))
                    .expect("chmod");
            }
        }
        let _store = SqliteStore::open(&path).expect("open");
        for suffix in ["", "-wal", "-shm"] {
            let file = companion(&path, suffix);
            if file.exists() {
                assert_eq!(mode(&file), 0o600, "{suffix}");
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_file_or_folder_is_refused_at_open() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        drop(SqliteStore::open(&path).expect("create"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o400)).expect("chmod");
        let err = SqliteStore::open_or_repair(&path).err().expect("refused");
        assert!(matches!(err, StoreError::ReadOnly { .. }), "{err}");
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");

        let folder = dir.path().join("ro");
        std::fs::create_dir(&folder).expect("folder");
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o500)).expect("chmod");
        let err = SqliteStore::open(folder.join("bot.db"))
            .err()
            .expect("refused");
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        assert!(matches!(err, StoreError::ReadOnly { .. }), "{err}");
        assert!(
            err.to_string().contains(&folder.display().to_string()),
            "{err}"
        );
    }

    #[test]
    fn an_unreadable_column_is_quarantined_not_dropped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let store = SqliteStore::open(&path).expect("open");
        store.save_table(&table(1, Some(2), 5)).expect("save");
        store.save_table(&table(2, Some(2), 5)).expect("save");
        store
            .conn()
            .execute(
                "UPDATE live_tables SET record_json = X'FF00FE' WHERE channel_id = 2",
                [],
            )
            .expect("damage");
        let loaded = store.load_tables().expect("load");
        assert_eq!(loaded.tables.len(), 1);
        assert_eq!(loaded.quarantined.len(), 1);
        assert!(
            loaded.quarantined[0].reason.contains("instead of text"),
            "{}",
            loaded.quarantined[0].reason
        );
        let kept: Vec<u8> = store
            .conn()
            .query_row(
                "SELECT record_json FROM quarantine WHERE channel_id = 2",
                [],
                |r| r.get(0),
            )
            .expect("kept");
        assert_eq!(kept, vec![0xFF, 0x00, 0xFE]);
    }

    #[test]
    fn threads_sharing_one_store_never_see_locked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let store = Arc::new(SqliteStore::open(&path).expect("open"));
        let handles: Vec<_> = (0..60u64)
            .map(|c| {
                let store = Arc::clone(&store);
                std::thread::spawn(move || -> Result<(), StoreError> {
                    for n in 0..10 {
                        store.save_table(&table(c, Some(1), n))?;
                    }
                    if c % 6 == 0 {
                        store.finish_game(&finished(
                            Some(1),
                            c,
                            0,
                            vec![
                                player(c + 1, "P", 0, true, 1),
                                player(0, "Bot", 1, false, 0),
                            ],
                        ))?;
                    }
                    store.load_tables().map(|_| ())
                })
            })
            .collect();
        for h in handles {
            h.join().expect("no panic").expect("no error");
        }
        let loaded = store.load_tables().expect("load");
        assert_eq!(loaded.tables.len(), 50);
        assert!(loaded
            .tables
            .iter()
            .all(|t| t.updated_at == table(0, None, 9).updated_at));
        assert_eq!(store.recent_games(Some(1), 100).expect("games").len(), 10);
    }

    #[test]
    fn in_memory_store_works() {
        let store = SqliteStore::open_in_memory().expect("open");
        store.save_table(&table(1, None, 2)).expect("save");
        assert_eq!(store.load_tables().expect("load").tables.len(), 1);
    }
}
