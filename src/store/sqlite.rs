//! The SQLite store: one file, WAL mode, one connection behind a mutex (so writers in this process queue
//! for the mutex and never see "database is locked"; `busy_timeout` covers another process reading).
//!
//! Commits use `synchronous = NORMAL`: a committed action survives the process being killed at any
//! moment (`kill -9`); after a power cut the last few commits may be lost, never the file's integrity.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{params, Connection, ErrorCode, OptionalExtension, TransactionBehavior};

use super::{
    count_from_db, from_db_id, guild_from_db, guild_to_db, limit_to_db, now_ms, record_problem,
    stats_deltas, table_problem, to_db_id, FinishedGame, GameId, GameSummary, LeaderboardRow,
    Loaded, PlayerResult, PlayerStats, Quarantined, Store, StoreError, StoredTable,
};

/// How long a statement waits for another connection's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The migrations, in order: migration `i` brings the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: live tables, quarantine, finished games, their players, per-server stats.
    "CREATE TABLE live_tables (
        channel_id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        record_json TEXT NOT NULL,
        snapshot_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE TABLE quarantine (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        record_json,
        snapshot_json,
        updated_at INTEGER,
        reason TEXT NOT NULL,
        quarantined_at INTEGER NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        variant TEXT NOT NULL,
        record_json TEXT NOT NULL,
        finished_at INTEGER NOT NULL
    );
    CREATE INDEX games_by_guild ON games (guild_id, finished_at DESC, id DESC);
    CREATE TABLE game_players (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        team INTEGER NOT NULL,
        won INTEGER NOT NULL,
        sequences INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE player_stats (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        sequences INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE INDEX player_stats_by_wins ON player_stats (guild_id, wins DESC, games DESC);",
];

/// The schema version this code writes.
pub(super) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The SQLite implementation of [`Store`].
pub struct SqliteStore {
    /// The file (`:memory:` for an in-memory store).
    path: PathBuf,
    /// The one connection.
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating it and its folder if needed) and migrates the database at `path`.
    /// A file that is not a database or fails SQLite's quick check gives [`StoreError::Corrupt`].
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        check_header(&path)?;
        let conn = Connection::open(&path).map_err(|e| classify(&path, e))?;
        SqliteStore::set_up(path, conn, true)
    }

    /// A store in memory, for tests of other layers (nothing survives the process).
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| classify(&path, e))?;
        SqliteStore::set_up(path, conn, false)
    }

    /// Opens the database at `path`; if it is corrupt, renames it (and its `-wal`/`-shm` files) to
    /// `PATH.corrupt-<unix ms>`, logs a warning and starts a fresh database there. Returns the store
    /// and where the bad file went. Any other error (a newer schema, a folder without permission) is
    /// returned as it is: renaming would not help.
    pub fn open_or_quarantine(
        path: impl AsRef<Path>,
    ) -> Result<(SqliteStore, Option<PathBuf>), StoreError> {
        let path = path.as_ref();
        match SqliteStore::open(path) {
            Err(StoreError::Corrupt { detail, .. }) => {
                let aside = PathBuf::from(format!("{}.corrupt-{}", path.display(), now_ms()));
                for suffix in ["-wal", "-shm", ""] {
                    let from = PathBuf::from(format!("{}{suffix}", path.display()));
                    let to = PathBuf::from(format!("{}{suffix}", aside.display()));
                    if from.exists() {
                        std::fs::rename(&from, &to)
                            .map_err(|source| StoreError::Io { path: from, source })?;
                    }
                }
                tracing::warn!(
                    path = %path.display(),
                    moved_to = %aside.display(),
                    "the database is corrupt ({detail}); it was moved aside and a fresh database started"
                );
                Ok((SqliteStore::open(path)?, Some(aside)))
            }
            other => other.map(|store| (store, None)),
        }
    }

    /// Applies the settings, checks integrity and runs the migrations.
    fn set_up(path: PathBuf, mut conn: Connection, wal: bool) -> Result<SqliteStore, StoreError> {
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
        let check: Vec<String> = conn
            .prepare("PRAGMA quick_check")
            .and_then(|mut stmt| {
                stmt.query_map([], |row| row.get::<_, String>(0))?
                    .collect::<Result<_, _>>()
            })
            .map_err(err)?;
        if check != ["ok"] {
            return Err(StoreError::Corrupt {
                path,
                detail: check.join("; "),
            });
        }
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
        })
    }

    /// The connection (a panic elsewhere while holding it leaves SQLite consistent, so poison is
    /// ignored).
    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The error for this store's file.
    fn err(&self, e: rusqlite::Error) -> StoreError {
        classify(&self.path, e)
    }

    /// The file this store uses.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A migration failure.
enum Migration {
    /// The database is newer than the code.
    TooNew(i64),
    /// SQLite failed.
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for Migration {
    fn from(e: rusqlite::Error) -> Self {
        Migration::Sqlite(e)
    }
}

/// Brings the schema to [`SCHEMA_VERSION`], one migration per transaction.
fn migrate(conn: &mut Connection) -> Result<(), Migration> {
    loop {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(Migration::TooNew(version));
        }
        let Some(sql) = usize::try_from(version)
            .ok()
            .and_then(|v| MIGRATIONS.get(v))
        else {
            return Ok(());
        };
        tx.execute_batch(sql)?;
        tx.execute_batch(&format!("PRAGMA user_version = {}", version + 1))?;
        tx.commit()?;
    }
}

/// Refuses a file that is not empty and does not start like a SQLite database, before SQLite opens it:
/// SQLite would delete a `-wal` file beside it on closing, and that file may hold what can be saved.
fn check_header(path: &Path) -> Result<(), StoreError> {
    const MAGIC: &[u8; 16] = b"SQLite format 3\0";
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(StoreError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let mut head = Vec::with_capacity(MAGIC.len());
    std::io::Read::read_to_end(&mut std::io::Read::take(&mut file, 100), &mut head).map_err(
        |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        },
    )?;
    if head.is_empty() || (head.len() == 100 && head.starts_with(MAGIC)) {
        Ok(())
    } else {
        Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: "the file does not start with a SQLite database header".into(),
        })
    }
}

/// Turns SQLite's "not a database" and "malformed" into [`StoreError::Corrupt`].
fn classify(path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: e.to_string(),
        },
        _ => StoreError::Sqlite {
            path: path.to_path_buf(),
            source: e,
        },
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
        }),
    };
    Ok(RawRow {
        channel_id,
        guild_id,
        table,
    })
}

/// Reads a player of a finished game.
fn player_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<PlayerResult> {
    let team: i64 = row.get(2)?;
    let sequences: i64 = row.get(4)?;
    Ok(PlayerResult {
        user_id: from_db_id(row.get(0)?),
        name: row.get(1)?,
        team: u8::try_from(team).unwrap_or(u8::MAX),
        won: row.get(3)?,
        sequences: count_from_db(sequences),
    })
}

impl Store for SqliteStore {
    fn save_table(&self, table: &StoredTable) -> Result<(), StoreError> {
        self.conn()
            .prepare_cached(
                "INSERT INTO live_tables (channel_id, guild_id, record_json, snapshot_json, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id,
                     record_json = excluded.record_json, snapshot_json = excluded.snapshot_json,
                     updated_at = excluded.updated_at",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    to_db_id(table.channel_id),
                    guild_to_db(table.guild_id),
                    table.record_json,
                    table.snapshot_json,
                    table.updated_at
                ])
            })
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    fn delete_table(&self, channel_id: u64) -> Result<bool, StoreError> {
        self.conn()
            .execute(
                "DELETE FROM live_tables WHERE channel_id = ?1",
                [to_db_id(channel_id)],
            )
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    fn load_tables(&self) -> Result<Loaded, StoreError> {
        let mut conn = self.conn();
        let run = |conn: &mut Connection| -> rusqlite::Result<Loaded> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let rows: Vec<RawRow> = tx
                .prepare(
                    "SELECT channel_id, guild_id, record_json, snapshot_json, updated_at
                     FROM live_tables ORDER BY channel_id",
                )?
                .query_map([], read_row)?
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
                            "INSERT INTO quarantine (channel_id, guild_id, record_json, snapshot_json,
                                 updated_at, reason, quarantined_at)
                             SELECT channel_id, ?2, record_json, snapshot_json, updated_at, ?3, ?4
                             FROM live_tables WHERE channel_id = ?1",
                            params![row.channel_id, row.guild_id.unwrap_or(0), reason, now],
                        )?;
                        tx.execute(
                            "DELETE FROM live_tables WHERE channel_id = ?1",
                            [row.channel_id],
                        )?;
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
        run(&mut conn).map_err(|e| self.err(e))
    }

    fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        let conn = self.conn();
        let run = || -> rusqlite::Result<Vec<Quarantined>> {
            conn.prepare(
                "SELECT channel_id, guild_id, reason, quarantined_at FROM quarantine ORDER BY id",
            )?
            .query_map([], |row| {
                Ok(Quarantined {
                    channel_id: from_db_id(row.get(0)?),
                    guild_id: guild_from_db(row.get(1)?),
                    reason: row.get(2)?,
                    quarantined_at: row.get(3)?,
                })
            })?
            .collect()
        };
        run().map_err(|e| self.err(e))
    }

    fn finish_game(&self, game: &FinishedGame) -> Result<GameId, StoreError> {
        record_problem(&game.record_json).map_err(StoreError::InvalidRecord)?;
        let guild = guild_to_db(game.guild_id);
        let mut conn = self.conn();
        let run = |conn: &mut Connection| -> rusqlite::Result<GameId> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO games (guild_id, channel_id, variant, record_json, finished_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    guild,
                    to_db_id(game.channel_id),
                    game.variant,
                    game.record_json,
                    game.finished_at
                ],
            )?;
            let id = tx.last_insert_rowid();
            for (seat, p) in game.players.iter().enumerate() {
                tx.execute(
                    "INSERT INTO game_players (game_id, seat, user_id, name, team, won, sequences)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![
                        id,
                        i64::try_from(seat).unwrap_or(i64::MAX),
                        to_db_id(p.user_id),
                        p.name,
                        p.team,
                        p.won,
                        p.sequences
                    ],
                )?;
            }
            for d in stats_deltas(&game.players) {
                tx.execute(
                    "INSERT INTO player_stats (guild_id, user_id, name, games, wins, sequences)
                     VALUES (?1, ?2, ?3, 1, ?4, ?5)
                     ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,
                         games = player_stats.games + 1,
                         wins = player_stats.wins + excluded.wins,
                         sequences = player_stats.sequences + excluded.sequences",
                    params![guild, to_db_id(d.user_id), d.name, d.wins, d.sequences],
                )?;
            }
            tx.execute(
                "DELETE FROM live_tables WHERE channel_id = ?1",
                [to_db_id(game.channel_id)],
            )?;
            tx.commit()?;
            Ok(GameId(id))
        };
        run(&mut conn).map_err(|e| self.err(e))
    }

    fn game_record(&self, id: GameId, guild_id: Option<u64>) -> Result<Option<String>, StoreError> {
        self.conn()
            .query_row(
                "SELECT record_json FROM games WHERE id = ?1 AND guild_id = ?2",
                params![id.0, guild_to_db(guild_id)],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    fn recent_games(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.conn();
        let run = || -> rusqlite::Result<Vec<GameSummary>> {
            let mut games: Vec<GameSummary> = conn
                .prepare_cached(
                    "SELECT id, guild_id, channel_id, variant, finished_at FROM games
                     WHERE guild_id = ?1 ORDER BY finished_at DESC, id DESC LIMIT ?2",
                )?
                .query_map(params![guild_to_db(guild_id), limit_to_db(limit)], |row| {
                    Ok(GameSummary {
                        id: GameId(row.get(0)?),
                        guild_id: guild_from_db(row.get(1)?),
                        channel_id: from_db_id(row.get(2)?),
                        variant: row.get(3)?,
                        finished_at: row.get(4)?,
                        players: Vec::new(),
                    })
                })?
                .collect::<Result<_, _>>()?;
            let mut stmt = conn.prepare_cached(
                "SELECT user_id, name, team, won, sequences FROM game_players
                 WHERE game_id = ?1 ORDER BY seat",
            )?;
            for game in &mut games {
                game.players = stmt
                    .query_map([game.id.0], player_from_row)?
                    .collect::<Result<_, _>>()?;
            }
            Ok(games)
        };
        run().map_err(|e| self.err(e))
    }

    fn player_stats(&self, guild_id: Option<u64>, user_id: u64) -> Result<PlayerStats, StoreError> {
        self.conn()
            .query_row(
                "SELECT games, wins, sequences FROM player_stats WHERE guild_id = ?1 AND user_id = ?2",
                params![guild_to_db(guild_id), to_db_id(user_id)],
                |row| {
                    Ok(PlayerStats {
                        games: count_from_db(row.get(0)?),
                        wins: count_from_db(row.get(1)?),
                        sequences: count_from_db(row.get(2)?),
                    })
                },
            )
            .optional()
            .map(Option::unwrap_or_default)
            .map_err(|e| self.err(e))
    }

    fn leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<LeaderboardRow>, StoreError> {
        let conn = self.conn();
        let run = || -> rusqlite::Result<Vec<LeaderboardRow>> {
            conn.prepare_cached(
                "SELECT user_id, name, games, wins, sequences FROM player_stats WHERE guild_id = ?1
                 ORDER BY wins DESC, CAST(wins AS REAL) / games DESC, games DESC, user_id
                 LIMIT ?2",
            )?
            .query_map(params![guild_to_db(guild_id), limit_to_db(limit)], |row| {
                Ok(LeaderboardRow {
                    user_id: from_db_id(row.get(0)?),
                    name: row.get(1)?,
                    stats: PlayerStats {
                        games: count_from_db(row.get(2)?),
                        wins: count_from_db(row.get(3)?),
                        sequences: count_from_db(row.get(4)?),
                    },
                })
            })?
            .collect()
        };
        run().map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::store::tests::{finished, player, table};

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
        // No clean close: the WAL is not checkpointed into the main file.
        std::mem::forget(first);
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
        let err = SqliteStore::open_or_quarantine(&path)
            .err()
            .expect("still refused");
        assert!(matches!(err, StoreError::SchemaTooNew { .. }), "{err}");
        assert_eq!(std::fs::read(&path).expect("read"), before, "not touched");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.contains("corrupt")), "{names:?}");
    }

    /// Checks that `path` is refused as corrupt, then moved aside by `open_or_quarantine` with its
    /// bytes kept, and that a fresh database works in its place.
    fn corrupt_file_is_quarantined(path: &Path) {
        let bad = std::fs::read(path).expect("read");
        let err = SqliteStore::open(path).err().expect("refused");
        match &err {
            StoreError::Corrupt { path: p, .. } => assert_eq!(p, path),
            other => panic!("expected Corrupt, got {other}"),
        }
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert_eq!(
            std::fs::read(path).expect("read"),
            bad,
            "open leaves it alone"
        );

        let (store, aside) = SqliteStore::open_or_quarantine(path).expect("fresh start");
        let aside = aside.expect("moved aside");
        assert!(aside
            .to_string_lossy()
            .starts_with(&format!("{}.corrupt-", path.display())));
        assert_eq!(std::fs::read(&aside).expect("kept"), bad);
        store.save_table(&table(5, None, 3)).expect("save");
        assert_eq!(store.load_tables().expect("load").tables.len(), 1);
        drop(store);
        let (_store, aside) = SqliteStore::open_or_quarantine(path).expect("reopen");
        assert_eq!(aside, None, "the fresh database is fine");
    }

    #[test]
    fn random_bytes_are_corrupt() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let mut rng = crate::engine::GameRng::new(7);
        let bytes: Vec<u8> = (0..8192).map(|_| rng.below(256) as u8).collect();
        std::fs::write(&path, bytes).expect("write");
        corrupt_file_is_quarantined(&path);
    }

    #[test]
    fn a_truncated_database_is_corrupt() {
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
        corrupt_file_is_quarantined(&path);
    }

    #[test]
    fn a_damaged_page_is_corrupt() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        filled(&path, 40);
        let mut bytes = std::fs::read(&path).expect("read");
        // Overwrite the middle of the file (b-tree pages), keeping the header valid.
        let mid = bytes.len() / 2;
        for b in &mut bytes[mid..mid + 8192] {
            *b = 0xA5;
        }
        std::fs::write(&path, bytes).expect("write");
        corrupt_file_is_quarantined(&path);
    }

    #[test]
    fn a_corrupt_file_moves_aside_with_its_wal() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        std::fs::write(
            &path,
            b"definitely not a database, but long enough to have a header ...",
        )
        .expect("write");
        let wal = PathBuf::from(format!("{}-wal", path.display()));
        std::fs::write(&wal, b"stale wal").expect("write wal");
        let (_store, aside) = SqliteStore::open_or_quarantine(&path).expect("fresh start");
        let aside = aside.expect("moved");
        let aside_wal = PathBuf::from(format!("{}-wal", aside.display()));
        assert_eq!(std::fs::read(aside_wal).expect("wal kept"), b"stale wal");
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
    fn two_connections_on_one_file_never_see_locked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bot.db");
        let stores: Vec<Arc<SqliteStore>> = (0..2)
            .map(|_| Arc::new(SqliteStore::open(&path).expect("open")))
            .collect();
        let handles: Vec<_> = (0..60u64)
            .map(|c| {
                let store = Arc::clone(&stores[(c % 2) as usize]);
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
        let loaded = stores[0].load_tables().expect("load");
        assert_eq!(loaded.tables.len(), 50);
        assert!(loaded
            .tables
            .iter()
            .all(|t| t.updated_at == table(0, None, 9).updated_at));
        assert_eq!(
            stores[1].recent_games(Some(1), 100).expect("games").len(),
            10
        );
    }

    #[test]
    fn in_memory_store_works() {
        let store = SqliteStore::open_in_memory().expect("open");
        store.save_table(&table(1, None, 2)).expect("save");
        assert_eq!(store.load_tables().expect("load").tables.len(), 1);
    }
}
