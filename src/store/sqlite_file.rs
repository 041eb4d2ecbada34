//! The SQLite file on disk, apart from the store that uses it: its companions (`-wal`, `-shm`,
//! `.lock`, …), the lock and permission checks before opening, the header check, how SQLite's errors
//! are classified (damage or not), and the migrations. `sqlite.rs` (the store), `repair.rs` and
//! `backup.rs` all build on it, so none of them imports another.

use std::fs::File;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode, TransactionBehavior};

use super::sql::profiles::schedule_rebuild;
use super::sql::ratings::{recompute_ratings, recount_rating_bands};
use super::sql::schema::{bands_version, migrations, profiles_version, SQLITE_VERSION};
use super::sql::{DbError, Engine, Lite};
use super::StoreError;

/// The schema version this code writes.
pub(super) const SCHEMA_VERSION: i64 = SQLITE_VERSION;

/// `PATH` with `suffix` appended (`-wal`, `-shm`, `.lock`, …).
pub(super) fn companion(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// Before opening: creates the folder, refuses a read-only folder or file, and takes the lock on
/// `PATH.lock` (held as long as the returned file is open; the OS drops it when the process dies).
pub(super) fn prepare(path: &Path) -> Result<File, StoreError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let metadata = |p: &Path| std::fs::metadata(p).ok();
    if metadata(dir).is_some_and(|m| is_read_only(&m)) {
        return Err(StoreError::ReadOnly {
            path: dir.to_path_buf(),
            detail:
                "the folder is read-only, and SQLite creates its journal files beside the database"
                    .into(),
        });
    }
    for suffix in ["", "-wal", "-shm"] {
        let file = companion(path, suffix);
        if metadata(&file).is_some_and(|m| is_read_only(&m)) {
            return Err(StoreError::ReadOnly {
                path: file,
                detail: "the file is read-only".into(),
            });
        }
        // The mode allows writing; the file system or the owner may still refuse it.
        if file.exists() {
            std::fs::OpenOptions::new()
                .append(true)
                .open(&file)
                .map_err(|e| not_writable(&file, e))?;
        }
    }
    let lock_path = companion(path, ".lock");
    let mut lock = open_lock(path, &lock_path)?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(StoreError::Locked {
                path: path.to_path_buf(),
                lock: lock_path,
            })
        }
        Err(std::fs::TryLockError::Error(source)) => {
            return Err(StoreError::Io {
                path: lock_path,
                source,
            })
        }
    }
    // For whoever looks: which process holds it. Emptied only now: the lock is held (no other
    // process is reading it) and the file is known to be a lock file of its own.
    let pid = format!("{}\n", std::process::id());
    let _ = lock
        .set_len(0)
        .and_then(|()| std::io::Write::write_all(&mut lock, pid.as_bytes()));
    Ok(lock)
}

/// Opens (creating it, owner-only) the lock file `lock_path` of the database `path` without following
/// a link and without emptying it, and makes sure it is a lock file of its own: a regular file with
/// no other name, not the database or one of its journals. The process id is written into it, so a
/// link (or a second name) planted there would turn starting the bot into overwriting another file.
fn open_lock(path: &Path, lock_path: &Path) -> Result<File, StoreError> {
    let unsafe_lock = |detail: String| StoreError::UnsafeLock {
        lock: lock_path.to_path_buf(),
        detail,
    };
    let link = |p: &Path| {
        std::fs::symlink_metadata(p)
            .is_ok_and(|m| m.file_type().is_symlink())
            .then(|| match std::fs::read_link(p) {
                Ok(target) => format!("is a symbolic link (to {})", target.display()),
                Err(_) => "is a symbolic link".to_string(),
            })
    };
    let mut options = private_file();
    options.read(true).write(true).create(true).truncate(false);
    // The kernel refuses the link itself (no window between a check and the open).
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    #[cfg(not(unix))]
    if let Some(detail) = link(lock_path) {
        return Err(unsafe_lock(detail));
    }
    let lock = match options.open(lock_path) {
        Ok(lock) => lock,
        // `ELOOP` on Linux, other codes elsewhere: whatever the code, a link is named as one.
        Err(e) => {
            return Err(link(lock_path).map_or_else(|| not_writable(lock_path, e), unsafe_lock))
        }
    };
    let opened = lock.metadata().map_err(|source| StoreError::Io {
        path: lock_path.to_path_buf(),
        source,
    })?;
    if !opened.is_file() {
        return Err(unsafe_lock("is not a regular file".into()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let same = |m: &std::fs::Metadata| m.dev() == opened.dev() && m.ino() == opened.ino();
        for suffix in ["", "-wal", "-shm"] {
            let file = companion(path, suffix);
            if std::fs::metadata(&file).is_ok_and(|m| same(&m)) {
                return Err(unsafe_lock(format!(
                    "is the same file as {}",
                    file.display()
                )));
            }
        }
        if opened.nlink() > 1 {
            return Err(unsafe_lock(format!(
                "is one of {} names of the same file (hard links)",
                opened.nlink()
            )));
        }
    }
    Ok(lock)
}

/// A file-system error on a file the store must write: [`StoreError::ReadOnly`] for a permission or
/// read-only-file-system refusal.
pub(super) fn not_writable(path: &Path, source: std::io::Error) -> StoreError {
    /// `EROFS` on Linux and the BSDs.
    const READ_ONLY_FILE_SYSTEM: i32 = 30;
    if source.kind() == std::io::ErrorKind::PermissionDenied
        || source.raw_os_error() == Some(READ_ONLY_FILE_SYSTEM)
    {
        StoreError::ReadOnly {
            path: path.to_path_buf(),
            detail: source.to_string(),
        }
    } else {
        StoreError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Whether the permission bits forbid the owner to write (as root too: a file made read-only on
/// purpose is not written).
fn is_read_only(metadata: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.permissions().mode() & 0o200 == 0
    }
    #[cfg(not(unix))]
    {
        metadata.permissions().readonly()
    }
}

/// Options that create a file readable and writable by its owner only.
pub(super) fn private_file() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// Creates the database file, owner-only, if it does not exist (SQLite gives its `-wal` and `-shm`
/// the same mode), and tightens an existing one: it holds every live hand.
pub(super) fn create_private(path: &Path) -> Result<(), StoreError> {
    match private_file().write(true).create_new(true).open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => tighten(path),
        Err(e) => Err(not_writable(path, e)),
    }
}

/// Takes the group and others' permissions off an existing file, with a warning.
pub(super) fn tighten(path: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(metadata) = std::fs::metadata(path) else {
            return Ok(());
        };
        let mode = metadata.permissions().mode();
        if mode & 0o077 != 0 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o7700))
                .map_err(|e| not_writable(path, e))?;
            tracing::warn!(
                path = %path.display(),
                "the database file was readable by others (mode {:o}); it holds every player's hand, so it is now readable by its owner only",
                mode & 0o777
            );
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// A migration failure.
pub(super) enum Migration {
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
pub(super) fn migrate(conn: &mut Connection) -> Result<(), Migration> {
    let migrations = migrations(Engine::Sqlite);
    loop {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(Migration::TooNew(version));
        }
        let Some(sql) = usize::try_from(version)
            .ok()
            .and_then(|v| migrations.get(v))
        else {
            return Ok(());
        };
        tx.execute_batch(sql)?;
        if version + 1 == super::RATINGS_VERSION {
            recompute_ratings(&mut Lite(&tx), true).map_err(DbError::into_sqlite)?;
        }
        if version + 1 == profiles_version(Engine::Sqlite) {
            schedule_rebuild(&mut Lite(&tx)).map_err(DbError::into_sqlite)?;
        }
        if version + 1 == bands_version(Engine::Sqlite) {
            recount_rating_bands(&mut Lite(&tx)).map_err(DbError::into_sqlite)?;
            // Issue 44's rules of what counts (a player's own moves, wins on the board, games
            // outside servers in their chats' own profiles) apply to the stored games too: the
            // profiles are rebuilt once more, in the background.
            schedule_rebuild(&mut Lite(&tx)).map_err(DbError::into_sqlite)?;
        }
        tx.execute_batch(&format!("PRAGMA user_version = {}", version + 1))?;
        tx.commit()?;
    }
}

/// Refuses a file that is not empty and does not start like a SQLite database, before SQLite opens it:
/// SQLite would delete a `-wal` file beside it on closing, and that file may hold what can be saved.
pub(super) fn check_header(path: &Path) -> Result<(), StoreError> {
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
pub(super) fn classify(path: &Path, e: rusqlite::Error) -> StoreError {
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
