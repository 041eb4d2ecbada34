//! Backing up a SQLite database while the bot runs, and putting a backup back.
//!
//! A backup is one consistent snapshot (`VACUUM INTO` inside one read transaction): the bot keeps
//! saving moves while it is taken (the database is in WAL mode, where a reader and the writer do not
//! wait for each other), and it holds every save committed before it began and none after. Copying the
//! file with `cp` is not safe: the newest moves may be in `-wal`, and a copy taken during a checkpoint
//! can be torn. A restore refuses while a bot holds the database, checks the backup first, and keeps
//! the database it replaces (with its `-wal` and `-shm`) beside it.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::sqlite_file::{
    check_header, classify, companion, prepare, private_file, SCHEMA_VERSION,
};
use super::StoreError;

/// What a backup file holds, read back from it once written (or before it is restored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupSummary {
    /// The lobbies and games in progress.
    pub live_tables: u64,
    /// The finished games.
    pub finished_games: u64,
    /// The schema version.
    pub schema_version: i64,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// What the restored database holds.
    pub summary: BackupSummary,
    /// Where the database it replaced was moved (`PATH.before-restore-<unix ms>`), if there was one.
    pub replaced: Option<PathBuf>,
}

/// How long a backup waits for the bot's writer before giving up (it only waits during a checkpoint
/// that restarts the WAL).
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Writes a consistent copy of the SQLite database at `database` to `dest`, a new file readable by its
/// owner only (it holds every player's hand), while a bot may be using the database. `dest` must not
/// exist. The copy is checked (SQLite's quick check) and summarised once written; if anything fails, no
/// file is left at `dest`.
pub fn backup(database: &Path, dest: &Path) -> Result<BackupSummary, StoreError> {
    if !database.exists() {
        return Err(StoreError::Config(format!(
            "there is no database at {} to back up (check `database` in the configuration)",
            database.display()
        )));
    }
    check_header(database)?;
    // Created empty first, owner-only and never over an existing file: `VACUUM INTO` accepts an
    // empty file and keeps its mode.
    private_file()
        .write(true)
        .create_new(true)
        .open(dest)
        .map_err(|source| StoreError::Io {
            path: dest.to_path_buf(),
            source,
        })?;
    let written = copy_into(database, dest).and_then(|()| summarise(dest));
    if written.is_err() {
        let _ = std::fs::remove_file(dest);
    }
    written
}

/// `VACUUM INTO` from a read-only connection to the live database.
fn copy_into(database: &Path, dest: &Path) -> Result<(), StoreError> {
    let conn = Connection::open_with_flags(
        database,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| classify(database, e))?;
    conn.busy_timeout(BUSY_TIMEOUT)
        .map_err(|e| classify(database, e))?;
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|e| classify(database, e))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    let dest_text = dest.to_str().ok_or_else(|| {
        StoreError::Config(format!(
            "the backup's path {} is not valid UTF-8",
            dest.display()
        ))
    })?;
    conn.execute("VACUUM INTO ?1", [dest_text])
        .map_err(|e| classify(database, e))?;
    Ok(())
}

/// Checks a database file (SQLite's quick check, a schema this build knows, the bot's tables) and
/// counts what it holds. Opened read-only: nothing in it changes.
pub fn summarise(path: &Path) -> Result<BackupSummary, StoreError> {
    check_header(path)?;
    let bytes = std::fs::metadata(path)
        .map_err(|source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    if bytes == 0 {
        return Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: "the file is empty".into(),
        });
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| classify(path, e))?;
    let check: String = conn
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .map_err(|e| classify(path, e))?;
    if check != "ok" {
        return Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: check,
        });
    }
    let schema_version: i64 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|e| classify(path, e))?;
    if schema_version > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found: schema_version,
            known: SCHEMA_VERSION,
        });
    }
    let count = |table: &str| -> Result<u64, StoreError> {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
            row.get::<_, i64>(0)
        })
        .map(|n| u64::try_from(n).unwrap_or(0))
        .map_err(|e| StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: format!("not a sequence-bot database ({e})"),
        })
    };
    Ok(BackupSummary {
        live_tables: count("live_tables")?,
        finished_games: count("games")?,
        schema_version,
        bytes,
    })
}

/// Puts the backup `from` in place of the database at `database`. Refused while a bot holds the
/// database (its lock), and for a backup that does not check out; the database it replaces is moved,
/// with its `-wal` and `-shm`, to `DATABASE.before-restore-<unix ms>`, so nothing is lost. The next
/// start restores the backup's games in progress as after any restart.
pub fn restore(from: &Path, database: &Path) -> Result<Restored, StoreError> {
    let summary = summarise(from)?;
    // Held until the copy is in place: a bot starting meanwhile waits for nothing, it is refused.
    let _lock = prepare(database)?;
    // Copied beside the database first (through SQLite, so a backup that still has its `-wal`, such as
    // a database kept by an earlier restore, comes whole), then moved into place.
    let staging = companion(database, ".restoring");
    let _ = std::fs::remove_file(&staging);
    private_file()
        .write(true)
        .create_new(true)
        .open(&staging)
        .map_err(|source| StoreError::Io {
            path: staging.clone(),
            source,
        })?;
    if let Err(e) = copy_into(from, &staging) {
        let _ = std::fs::remove_file(&staging);
        return Err(e);
    }
    let replaced = if database.exists() {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let kept = companion(database, &format!(".before-restore-{stamp}"));
        for suffix in ["", "-wal", "-shm"] {
            let file = companion(database, suffix);
            if file.exists() {
                let target = companion(&kept, suffix);
                std::fs::rename(&file, &target).map_err(|source| StoreError::Io {
                    path: file.clone(),
                    source,
                })?;
            }
        }
        Some(kept)
    } else {
        // A stale journal without its database would be applied to the restored file.
        for suffix in ["-wal", "-shm"] {
            let file = companion(database, suffix);
            if file.exists() {
                std::fs::remove_file(&file).map_err(|source| StoreError::Io {
                    path: file.clone(),
                    source,
                })?;
            }
        }
        None
    };
    std::fs::rename(&staging, database).map_err(|source| StoreError::Io {
        path: database.to_path_buf(),
        source,
    })?;
    Ok(Restored { summary, replaced })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{SqliteStore, Store};

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "sequence-bot-backup-{name}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_backup_is_refused_over_an_existing_file_and_leaves_it_alone() {
        let dir = temp_dir("exists");
        let db = dir.join("games.db");
        drop(SqliteStore::open(&db).unwrap());
        let dest = dir.join("backup.db");
        std::fs::write(&dest, b"keep me").unwrap();
        assert!(matches!(
            backup(&db, &dest),
            Err(StoreError::Io { ref source, .. }) if source.kind() == std::io::ErrorKind::AlreadyExists
        ));
        assert_eq!(std::fs::read(&dest).unwrap(), b"keep me");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_backup_of_a_missing_database_is_refused_and_writes_nothing() {
        let dir = temp_dir("missing");
        let dest = dir.join("backup.db");
        assert!(matches!(
            backup(&dir.join("nothing.db"), &dest),
            Err(StoreError::Config(_))
        ));
        assert!(!dest.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_backup_taken_while_the_store_is_open_is_private_and_holds_its_tables() {
        let dir = temp_dir("open");
        let db = dir.join("games.db");
        let store = SqliteStore::open(&db).unwrap();
        assert!(store.load_tables().unwrap().tables.is_empty());
        let dest = dir.join("backup.db");
        let summary = backup(&db, &dest).unwrap();
        assert_eq!(summary.live_tables, 0);
        assert_eq!(summary.schema_version, SCHEMA_VERSION);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&dest).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "mode {mode:o}");
        }
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_restore_is_refused_while_a_store_holds_the_database() {
        let dir = temp_dir("held");
        let db = dir.join("games.db");
        let backup_path = dir.join("backup.db");
        drop(SqliteStore::open(&db).unwrap());
        backup(&db, &backup_path).unwrap();
        let store = SqliteStore::open(&db).unwrap();
        assert!(matches!(
            restore(&backup_path, &db),
            Err(StoreError::Locked { .. })
        ));
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_or_foreign_backup_is_refused_and_the_database_is_untouched() {
        let dir = temp_dir("bad");
        let db = dir.join("games.db");
        drop(SqliteStore::open(&db).unwrap());
        let before = std::fs::read(&db).unwrap();
        let text = dir.join("notes.txt");
        std::fs::write(&text, "not a database").unwrap();
        assert!(matches!(
            restore(&text, &db),
            Err(StoreError::Corrupt { .. })
        ));
        let foreign = dir.join("foreign.db");
        Connection::open(&foreign)
            .unwrap()
            .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
        assert!(matches!(
            restore(&foreign, &db),
            Err(StoreError::Corrupt { .. })
        ));
        let empty = dir.join("empty.db");
        std::fs::write(&empty, b"").unwrap();
        assert!(matches!(
            restore(&empty, &db),
            Err(StoreError::Corrupt { .. })
        ));
        assert_eq!(std::fs::read(&db).unwrap(), before);
        let kept: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("before-restore"))
            .collect();
        assert!(kept.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
