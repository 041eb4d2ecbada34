//! Repairing a damaged SQLite file instead of starting empty.
//!
//! The damaged file is never written: the work happens on a copy. First `REINDEX` (a damaged index
//! is rebuilt from its table, nothing is lost); if the copy still fails SQLite's check, every row that
//! can be read is copied, table by table and by rowid, into a fresh database (tables are read with
//! `NOT INDEXED`, so a broken index does not matter; a damaged page is skipped by seeking past it).
//! Live tables whose channel is known but whose row cannot be read are put in the quarantine table,
//! so their channels hear that the game could not be restored; lost stats are rebuilt from the
//! salvaged finished games. The damaged file (and its `-wal`) is then kept as `PATH.damaged-<ms>`
//! and the repaired file takes its place. When nothing can be read (not even the schema), nothing is
//! changed and the caller refuses to start.

use std::path::{Path, PathBuf};

use rusqlite::types::{Value, ValueRef};
use rusqlite::{params_from_iter, Connection, OptionalExtension};

use super::sql::profiles::recompute_profiles;
use super::sql::ratings::{recompute_ratings, recount_rating_bands};
use super::sql::{DbError, Lite};
use super::sqlite_file::{companion, create_private, migrate, Migration, SCHEMA_VERSION};
use super::{from_db_id, guild_from_db, now_ms, Quarantined, StoreError};

/// The tables copied, parents before children.
const TABLES: [&str; 8] = [
    "games",
    "game_players",
    "player_stats",
    "quarantine",
    "live_tables",
    "server_settings",
    "settings_log",
    "settings_damaged",
];

/// What a repair did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// Where the damaged file (and its `-wal`) was kept, byte for byte as it was found.
    pub damaged_copy: PathBuf,
    /// Whether `REINDEX` alone repaired it (only indexes were damaged: nothing lost).
    pub reindexed: bool,
    /// Per table copied: what was kept and lost (empty when `reindexed`).
    pub tables: Vec<TableSalvage>,
    /// Live tables whose channel is known but whose contents were lost: in the quarantine table now,
    /// and reported by the first `load_tables`.
    pub lost_tables: Vec<Quarantined>,
}

impl Repair {
    /// Whether every row was kept.
    pub fn is_lossless(&self) -> bool {
        self.tables
            .iter()
            .all(|t| t.lost == 0 && t.unreadable_runs == 0)
    }
}

/// What was salvaged of one table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableSalvage {
    /// The table.
    pub table: String,
    /// Rows copied.
    pub kept: u64,
    /// Rows whose key was read but whose contents could not be (or could not be stored again).
    pub lost: u64,
    /// Runs of rows in damaged pages that could not be read at all (how many rows is unknown).
    pub unreadable_runs: u64,
}

/// Repairs the damaged database at `path` (see the module documentation). `detail` is what SQLite's
/// check said. The caller holds the file's lock.
pub(super) fn repair(path: &Path, detail: &str) -> Result<Repair, StoreError> {
    let stamp = now_ms();
    let work = companion(path, &format!(".repair-{stamp}"));
    let fresh = companion(path, &format!(".repaired-{stamp}"));
    let damaged = companion(path, &format!(".damaged-{stamp}"));
    let result = repair_via(path, detail, &work, &fresh, &damaged);
    for leftover in [&work, &fresh] {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(companion(leftover, suffix));
        }
    }
    let report = result?;
    log(path, detail, &report);
    Ok(report)
}

/// [`repair`] with its scratch files named.
fn repair_via(
    path: &Path,
    detail: &str,
    work: &Path,
    fresh: &Path,
    damaged: &Path,
) -> Result<Repair, StoreError> {
    let unreadable = |why: String| StoreError::Unreadable {
        path: path.to_path_buf(),
        detail: format!("{detail}; {why}"),
    };
    copy(path, work)?;
    if companion(path, "-wal").exists() {
        copy(&companion(path, "-wal"), &companion(work, "-wal"))?;
    }
    let source = Connection::open(work).map_err(|e| unreadable(e.to_string()))?;
    // Lets SQLite read a file shorter than its header says (a truncated file) and a schema it would
    // otherwise refuse; nothing writes the schema of this copy.
    source
        .execute_batch("PRAGMA writable_schema = ON")
        .map_err(|e| unreadable(e.to_string()))?;
    let version: i64 = source
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|e| unreadable(format!("the schema cannot be read: {e}")))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    let present: Vec<String> = source
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut stmt| stmt.query_map([], |row| row.get(0))?.collect())
        .map_err(|e| unreadable(format!("the schema cannot be read: {e}")))?;
    if !TABLES.iter().any(|t| present.iter().any(|p| p == t)) {
        return Err(unreadable("none of the bot's tables is in it".into()));
    }

    // Only indexes damaged: rebuilding them is a complete repair.
    let reindexed = source.execute_batch("REINDEX").is_ok()
        && source
            .query_row("PRAGMA quick_check", [], |row| row.get::<_, String>(0))
            .is_ok_and(|check| check == "ok");
    let mut report = Repair {
        damaged_copy: damaged.to_path_buf(),
        reindexed,
        tables: Vec::new(),
        lost_tables: Vec::new(),
    };
    if reindexed {
        source
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
            .map_err(|e| sqlite(work, e))?;
        drop(source);
        put_in_place(path, work, damaged)?;
        return Ok(report);
    }

    create_private(fresh)?;
    let mut target = Connection::open(fresh).map_err(|e| sqlite(fresh, e))?;
    migrate(&mut target).map_err(|e| match e {
        Migration::TooNew(found) => StoreError::SchemaTooNew {
            found,
            known: SCHEMA_VERSION,
        },
        Migration::Sqlite(e) => sqlite(fresh, e),
    })?;
    let tx = target.transaction().map_err(|e| sqlite(fresh, e))?;
    let mut stats_lost = false;
    for table in TABLES.iter().filter(|t| present.iter().any(|p| p == *t)) {
        let columns = shared_columns(&source, &tx, table).map_err(|e| sqlite(fresh, e))?;
        let (salvage, failed) = copy_table(&source, &tx, table, &columns);
        if *table == "player_stats" && (salvage.lost > 0 || salvage.unreadable_runs > 0) {
            stats_lost = true;
        }
        if *table == "live_tables" {
            let mut lost: Vec<(i64, i64, String)> = failed
                .into_iter()
                .map(|(channel, reason)| (channel, 0, reason))
                .collect();
            // Channels whose rows were in unreadable pages, from the index that lists them.
            for (channel, guild) in indexed_channels(&source) {
                let known = lost.iter_mut().find(|(c, ..)| *c == channel);
                match known {
                    Some(entry) => entry.1 = guild,
                    None if !table_has_row(&tx, channel) => lost.push((
                        channel,
                        guild,
                        "its row is in a damaged page of the database file".into(),
                    )),
                    None => {}
                }
            }
            for (channel, guild, reason) in lost {
                report.lost_tables.push(
                    quarantine_lost(&tx, channel, guild, &reason).map_err(|e| sqlite(fresh, e))?,
                );
            }
        }
        report.tables.push(salvage);
    }
    finish_copy(&source, &tx, stats_lost).map_err(|e| sqlite(fresh, e))?;
    tx.commit().map_err(|e| sqlite(fresh, e))?;
    target
        .execute_batch("PRAGMA journal_mode = DELETE")
        .map_err(|e| sqlite(fresh, e))?;
    drop(target);
    drop(source);
    put_in_place(path, fresh, damaged)?;
    Ok(report)
}

/// Moves the damaged file (with its `-wal` and `-shm`) aside as `damaged`, then `repaired` to `path`.
fn put_in_place(path: &Path, repaired: &Path, damaged: &Path) -> Result<(), StoreError> {
    for suffix in ["", "-wal", "-shm"] {
        let from = companion(path, suffix);
        if from.exists() {
            rename(&from, &companion(damaged, suffix))?;
        }
    }
    rename(repaired, path)
}

/// `std::fs::rename` with the store's error.
fn rename(from: &Path, to: &Path) -> Result<(), StoreError> {
    std::fs::rename(from, to).map_err(|source| StoreError::Io {
        path: from.to_path_buf(),
        source,
    })
}

/// Copies a file to a new owner-only file.
fn copy(from: &Path, to: &Path) -> Result<(), StoreError> {
    let _ = std::fs::remove_file(to);
    create_private(to)?;
    let mut source = std::fs::File::open(from).map_err(|source| StoreError::Io {
        path: from.to_path_buf(),
        source,
    })?;
    let mut target = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(to)
        .map_err(|source| StoreError::Io {
            path: to.to_path_buf(),
            source,
        })?;
    std::io::copy(&mut source, &mut target)
        .and_then(|_| target.sync_all())
        .map(|_| ())
        .map_err(|source| StoreError::Io {
            path: to.to_path_buf(),
            source,
        })
}

/// A SQLite error on a scratch file.
fn sqlite(path: &Path, source: rusqlite::Error) -> StoreError {
    StoreError::Sqlite {
        path: path.to_path_buf(),
        source,
    }
}

/// The columns of `table` that both databases have (an older damaged file lacks newer columns, which
/// then take their defaults).
fn shared_columns(
    source: &Connection,
    target: &Connection,
    table: &str,
) -> rusqlite::Result<Vec<String>> {
    let columns = |conn: &Connection| -> rusqlite::Result<Vec<String>> {
        conn.prepare(&format!("PRAGMA table_info(\"{table}\")"))?
            .query_map([], |row| row.get::<_, String>(1))?
            .collect()
    };
    let wanted = columns(target)?;
    let have = columns(source)?;
    Ok(wanted.into_iter().filter(|c| have.contains(c)).collect())
}

/// Copies every readable row of `table`, keeping rowids (a finished game keeps its number). Returns
/// what was kept and lost, and the rowids whose contents were lost with why.
fn copy_table(
    source: &Connection,
    target: &Connection,
    table: &str,
    columns: &[String],
) -> (TableSalvage, Vec<(i64, String)>) {
    let mut salvage = TableSalvage {
        table: table.to_string(),
        ..TableSalvage::default()
    };
    let mut failed = Vec::new();
    let list = columns
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let holes = (2..=columns.len() + 1)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let read = format!("SELECT {list} FROM \"{table}\" NOT INDEXED WHERE rowid = ?1");
    let write = format!("INSERT INTO \"{table}\" (rowid, {list}) VALUES (?1, {holes})");
    let mut from = Some(i64::MIN);
    while let Some(start) = from {
        let (ids, broken) = rowids_from(source, table, start);
        for &id in &ids {
            let row = source
                .query_row(&read, [id], |row| {
                    (0..columns.len())
                        .map(|i| row.get_ref(i).map(owned))
                        .collect::<rusqlite::Result<Vec<Value>>>()
                })
                .map_err(|e| format!("the row cannot be read: {e}"))
                .and_then(|values| {
                    target
                        .execute(
                            &write,
                            params_from_iter(std::iter::once(Value::Integer(id)).chain(values)),
                        )
                        .map_err(|e| format!("the row as read cannot be stored: {e}"))
                });
            match row {
                Ok(_) => salvage.kept += 1,
                Err(reason) => {
                    salvage.lost += 1;
                    failed.push((id, reason));
                }
            }
        }
        let after = ids.last().map_or(Some(start), |last| last.checked_add(1));
        from = match (broken, after) {
            (false, _) | (true, None) => None,
            (true, Some(after)) => {
                salvage.unreadable_runs += 1;
                next_readable(source, table, after)
            }
        };
    }
    (salvage, failed)
}

/// A column's value as read, kept as it is: text that is not UTF-8 is kept as its bytes (rusqlite's own
/// conversion would panic on it).
fn owned(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Text(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => Value::Text(text.to_string()),
            Err(_) => Value::Blob(bytes.to_vec()),
        },
        ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Null => Value::Null,
    }
}

/// The rowids of `table` from `start` on, in order, up to the first error; whether one stopped it.
fn rowids_from(source: &Connection, table: &str, start: i64) -> (Vec<i64>, bool) {
    let mut ids = Vec::new();
    let sql = format!("SELECT rowid FROM \"{table}\" NOT INDEXED WHERE rowid >= ?1 ORDER BY rowid");
    let mut stmt = match source.prepare(&sql) {
        Ok(stmt) => stmt,
        Err(_) => return (ids, true),
    };
    let mut rows = match stmt.query([start]) {
        Ok(rows) => rows,
        Err(_) => return (ids, true),
    };
    loop {
        match rows.next() {
            Ok(Some(row)) => match row.get::<_, i64>(0) {
                Ok(id) => ids.push(id),
                Err(_) => return (ids, true),
            },
            Ok(None) => return (ids, false),
            Err(_) => return (ids, true),
        }
    }
}

/// The first rowid at or after `from` whose page can be read again, past a damaged page: seeks
/// further and further ahead until one succeeds, then back to the lowest start that still does.
/// `None` when nothing after it can be read.
fn next_readable(source: &Connection, table: &str, from: i64) -> Option<i64> {
    let sql = format!(
        "SELECT rowid FROM \"{table}\" NOT INDEXED WHERE rowid >= ?1 ORDER BY rowid LIMIT 1"
    );
    let probe = |at: i64| -> Result<Option<i64>, ()> {
        source
            .query_row(&sql, [at], |row| row.get::<_, i64>(0))
            .optional()
            .map_err(|_| ())
    };
    // Ids are spread over the whole `i64` range but are mostly small and positive: once the
    // search from a negative start reaches 0, it doubles again from there.
    let (mut base, mut step) = (i128::from(from), 1_i128);
    let mut failed = base;
    let (mut good, mut found) = loop {
        let at = base + step;
        match probe(i64::try_from(at).ok()?) {
            Ok(found) => break (at, found),
            Err(()) => {
                failed = at;
                if base < 0 && at >= 0 {
                    (base, step) = (at, 1);
                } else {
                    step *= 2;
                }
            }
        }
    };
    while good - failed > 1 {
        let mid = failed + (good - failed) / 2;
        match probe(i64::try_from(mid).ok()?) {
            Ok(at_mid) => (good, found) = (mid, at_mid),
            Err(()) => failed = mid,
        }
    }
    found
}

/// The channels (and servers) of the live tables as the damaged file's `live_tables_channels` index
/// lists them, as far as it can be read (nothing for a file from before the index).
fn indexed_channels(source: &Connection) -> Vec<(i64, i64)> {
    let mut found = Vec::new();
    let Ok(mut stmt) = source.prepare(
        "SELECT channel_id, guild_id FROM live_tables INDEXED BY live_tables_channels
         WHERE guild_id IS NOT NULL",
    ) else {
        return found;
    };
    let Ok(mut rows) = stmt.query([]) else {
        return found;
    };
    while let Ok(Some(row)) = rows.next() {
        if let (Ok(channel), Ok(guild)) = (row.get::<_, i64>(0), row.get::<_, i64>(1)) {
            found.push((channel, guild));
        }
    }
    found
}

/// Whether the repaired file holds a live table for this channel.
fn table_has_row(target: &Connection, channel_id: i64) -> bool {
    target
        .query_row(
            "SELECT 1 FROM live_tables WHERE channel_id = ?1",
            [channel_id],
            |_| Ok(()),
        )
        .optional()
        .is_ok_and(|row| row.is_some())
}

/// Puts a live table whose contents were lost in the quarantine table; the report of it.
fn quarantine_lost(
    target: &Connection,
    channel_id: i64,
    guild_id: i64,
    reason: &str,
) -> rusqlite::Result<Quarantined> {
    let reason = format!("damaged in the database file: {reason}");
    let now = now_ms();
    target.execute(
        "INSERT INTO quarantine (channel_id, guild_id, reason, quarantined_at)
         VALUES (?1, ?2, ?3, ?4)",
        rusqlite::params![channel_id, guild_id, reason, now],
    )?;
    Ok(Quarantined {
        channel_id: from_db_id(channel_id),
        guild_id: guild_from_db(guild_id),
        reason,
        quarantined_at: now,
    })
}

/// After the copy: drops players of lost games, rebuilds the stats from the salvaged games if stats
/// were lost, and carries the id counters over (a lost newest game's number is not reused).
fn finish_copy(source: &Connection, target: &Connection, stats_lost: bool) -> rusqlite::Result<()> {
    let orphans = target.execute(
        "DELETE FROM game_players WHERE game_id NOT IN (SELECT id FROM games)",
        [],
    )?;
    if orphans > 0 {
        tracing::error!(
            rows = orphans,
            "repair: players of finished games that were lost were dropped"
        );
    }
    if stats_lost {
        target.execute_batch(
            "DELETE FROM player_stats;
             INSERT INTO player_stats (guild_id, user_id, name, games, wins, sequences)
             SELECT per_game.guild_id, per_game.user_id,
                 (SELECT p.name FROM game_players p JOIN games g ON g.id = p.game_id
                  WHERE p.user_id = per_game.user_id AND g.guild_id = per_game.guild_id
                  ORDER BY g.finished_at DESC, g.id DESC, p.seat LIMIT 1),
                 COUNT(*), SUM(per_game.won), SUM(per_game.sequences)
             FROM (SELECT g.guild_id, g.id, p.user_id, MAX(p.won) AS won,
                       SUM(p.sequences) AS sequences
                   FROM games g JOIN game_players p ON p.game_id = g.id
                   WHERE p.user_id != 0 AND g.aborted = 0 GROUP BY g.id, p.user_id) AS per_game
             GROUP BY per_game.guild_id, per_game.user_id",
        )?;
        tracing::error!(
            "repair: the players' stats were damaged; rebuilt from the salvaged finished games"
        );
    }
    // Ratings are not copied: they are rebuilt from the salvaged games (a file from before ratings
    // gets them as its migration would have).
    let had_ratings = source
        .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = 'rated'")
        .and_then(|mut stmt| stmt.exists([]))
        .unwrap_or(false);
    recompute_ratings(&mut Lite(target), !had_ratings).map_err(DbError::into_sqlite)?;
    recount_rating_bands(&mut Lite(target)).map_err(DbError::into_sqlite)?;
    // Profiles likewise (series won, which the games do not hold, are lost with the series counts).
    recompute_profiles(&mut Lite(target), None).map_err(DbError::into_sqlite)?;
    let counters: Vec<(String, i64)> = source
        .prepare("SELECT name, seq FROM sqlite_sequence")
        .and_then(|mut stmt| {
            stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect()
        })
        .unwrap_or_default();
    for (name, seq) in counters {
        target.execute(
            "UPDATE sqlite_sequence SET seq = MAX(seq, ?2) WHERE name = ?1",
            rusqlite::params![name, seq],
        )?;
    }
    Ok(())
}

/// Says loudly what happened.
fn log(path: &Path, detail: &str, report: &Repair) {
    if report.reindexed {
        tracing::warn!(
            path = %path.display(),
            damaged_copy = %report.damaged_copy.display(),
            "the database was damaged ({detail}); only its indexes were, and REINDEX rebuilt them: nothing was lost. The damaged file was kept"
        );
        return;
    }
    tracing::error!(
        path = %path.display(),
        damaged_copy = %report.damaged_copy.display(),
        "the database was damaged ({detail}); every readable row was copied into a repaired file, which the bot uses now. The damaged file was kept untouched"
    );
    for t in &report.tables {
        if t.lost > 0 || t.unreadable_runs > 0 {
            tracing::error!(
                table = %t.table,
                kept = t.kept,
                lost = t.lost,
                unreadable_runs = t.unreadable_runs,
                "repair: rows of this table were lost (unreadable runs: damaged pages whose rows could not be counted)"
            );
        } else {
            tracing::info!(table = %t.table, kept = t.kept, "repair: every row of this table was kept");
        }
    }
    for q in &report.lost_tables {
        tracing::error!(
            channel = q.channel_id,
            "repair: the live table of this channel was lost ({}); it gets the \"could not be restored\" note",
            q.reason
        );
    }
}
