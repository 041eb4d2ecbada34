//! Persistence: live tables (lobbies and games in progress), finished games and per-server stats.
//!
//! Everything goes through the [`Store`] trait. [`SqliteStore`] (an embedded file, the default: a fresh
//! machine needs no server) and [`PostgresStore`] (for several bot processes sharing one database)
//! implement it; [`open_store`] picks one from the [`DatabaseConfig`].
//!
//! The API is blocking. Call it from `tokio::task::spawn_blocking` (or a thread of its own), never
//! directly on an async task: the PostgreSQL client runs its own small runtime and refuses to be driven
//! from inside another one.
//!
//! Ids: Discord snowflakes (`u64`) are stored bit for bit as signed 64-bit integers. A table or game
//! outside any server (a DM) has `guild_id: None`, kept as guild 0 in the database (no snowflake is 0);
//! its players' stats and profile figures are kept in its chat's scope ([`standing_scope`]).
//! Computer players are stored with `user_id` [`BOT_USER_ID`] (0): they appear in a game's player list
//! but never in stats or the leaderboard.

pub mod backup;
mod postgres;
pub mod rating;
mod repair;
pub mod shards;
mod sql;
mod sqlite;
mod sqlite_file;
#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_profile;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Deserialize;

use crate::analysis::profile::{Achievement, Figures};
use crate::engine::record::Record;

pub use self::postgres::PostgresStore;
pub use self::rating::PlayerRating;
pub use self::repair::{Repair, TableSalvage};
pub use self::shards::{ExclusiveClaim, ShardClaim, ShardSet};
pub use self::sqlite::SqliteStore;

/// The schema version that added ratings (the same in both backends): the games stored before are
/// rated when it is reached.
const RATINGS_VERSION: i64 = 3;

/// The `user_id` of a computer player: kept in a game's player list, left out of stats.
pub const BOT_USER_ID: u64 = 0;

/// One channel's live table (lobby or game in progress), as the service saves it after every action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTable {
    /// The channel the table lives in (one table per channel).
    pub channel_id: u64,
    /// The server, or `None` in a DM.
    pub guild_id: Option<u64>,
    /// The game record (RECORD.md) as JSON, validated by replaying it on load; `null` for a lobby
    /// (no game dealt yet).
    pub record_json: String,
    /// The service's own snapshot of the table as JSON; stored as it is, checked to be JSON on load.
    pub snapshot_json: String,
    /// When it was saved, in unix milliseconds.
    pub updated_at: i64,
    /// The table's web token (`Table::web_token`, the page `/g/<token>`), kept in a column of its
    /// own so that any process finds the table of a page ([`Store::channel_of_web_token`]); `None`
    /// for a table without one (and for rows saved before the column existed).
    pub web_token: Option<String>,
}

/// What [`Store::listen_table_changes`] hears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableChange {
    /// The live table of this channel was saved, deleted, finished or quarantined.
    Changed(u64),
    /// The listening connection was (re)made: changes made before it may have been missed.
    Resync,
    /// Nothing was heard for a while (the sink may end the listening by returning false).
    Quiet,
}

/// One live table read by itself ([`Store::live_table`]), for a page shown by a process that does
/// not hold the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveTableRead {
    /// The table as stored.
    pub table: StoredTable,
    /// A number that grows with every save of the table: PostgreSQL's version of the row (raised
    /// by every save, whichever process made it); SQLite's `updated_at` (one process per file).
    pub version: i64,
}

/// What [`Store::load_tables`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// Tables that validated, ordered by channel.
    pub tables: Vec<StoredTable>,
    /// Tables that did not validate: moved to the quarantine table (kept, not deleted) by this load.
    pub quarantined: Vec<Quarantined>,
}

/// A live table set aside because it no longer validates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quarantined {
    /// The channel of the table.
    pub channel_id: u64,
    /// The server of the table.
    pub guild_id: Option<u64>,
    /// Why it was set aside, in English for the log and the channel.
    pub reason: String,
    /// When it was set aside, in unix milliseconds.
    pub quarantined_at: i64,
}

/// A game that ended (won, drawn or abandoned), with each player's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// The server, or `None` in a DM.
    pub guild_id: Option<u64>,
    /// The channel it was played in; its live table is deleted with the same transaction.
    pub channel_id: u64,
    /// `classic`, `dice` or `kids`.
    pub variant: String,
    /// The full game record (RECORD.md) as JSON; refused unless every action replays legally.
    pub record_json: String,
    /// When it ended, in unix milliseconds.
    pub finished_at: i64,
    /// When it started, in unix milliseconds, where known (the profile's play time).
    pub started_at: Option<i64>,
    /// Every seat in order (computer players with `user_id` [`BOT_USER_ID`]).
    pub players: Vec<PlayerResult>,
    /// Whether the game counts for ratings (`None`: if at least two teams have a human,
    /// [`rating::rated_by_default`]).
    pub rated: Option<bool>,
    /// Whether the game was aborted: it ended (by giving up or a stop) before every human player had
    /// made two moves. Kept in the history, but it counts for nothing: no rating change, no game
    /// won or lost in the totals.
    pub aborted: bool,
    /// The web token of its table (`/g/<token>`): the page that becomes the game's replay.
    pub web_token: Option<String>,
}

/// A finished game found by its table's web token ([`Store::game_of_web_token`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenGame {
    /// Its number.
    pub id: GameId,
    /// Its server, or `None` in a DM.
    pub guild_id: Option<u64>,
    /// Every seat in order.
    pub players: Vec<PlayerResult>,
    /// Each human's agreement with `hard` in this game, once known: `(user, matched, counted)`.
    pub agreement: Vec<(u64, u32, u32)>,
}

/// One seat's result in a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerResult {
    /// The Discord user, or [`BOT_USER_ID`] for a computer player.
    pub user_id: u64,
    /// The name shown for the player at the end of the game.
    pub name: String,
    /// The player's team.
    pub team: u8,
    /// Whether the player's team won.
    pub won: bool,
    /// Sequences the player completed.
    pub sequences: u32,
    /// A computer player's level (`easy`, `medium`, `hard`); `None` for a human.
    pub bot_level: Option<String>,
    /// Whether the player gave up (keeps the loss for ratings even if their team won).
    pub gave_up: bool,
}

/// The id of a finished game, as shown to users for downloading its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A finished game in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Its id.
    pub id: GameId,
    /// The server, or `None` in a DM.
    pub guild_id: Option<u64>,
    /// The channel it was played in.
    pub channel_id: u64,
    /// `classic`, `dice` or `kids`.
    pub variant: String,
    /// When it ended, in unix milliseconds.
    pub finished_at: i64,
    /// Every seat in order.
    pub players: Vec<PlayerResult>,
    /// Whether it was aborted (counts for nothing).
    pub aborted: bool,
}

/// A player's agreement with the `hard` computer player over some games (see
/// [`crate::analysis::agreement`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgreementTotals {
    /// Moves on which `hard` chose the same.
    pub matched: u32,
    /// Moves compared.
    pub counted: u32,
    /// Games they come from.
    pub games: u32,
}

/// A player's totals on one server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Finished games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Sequences completed.
    pub sequences: u32,
}

impl PlayerStats {
    /// Wins per game, 0 without games.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            f64::from(self.wins) / f64::from(self.games)
        }
    }
}

/// A player's series on one server (issue 25).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeriesStats {
    /// Series played to their end (won, lost, abandoned or stopped).
    pub played: u32,
    /// Series won.
    pub won: u32,
}

/// A player's profile on one server (issue 35): their figures, achievements, rating and more.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// Totals of every finished game that was not aborted.
    pub figures: Figures,
    /// Totals of the games that count for achievements (what achievements read).
    pub feats: Figures,
    /// Achievements unlocked, in the order they were unlocked.
    pub unlocked: Vec<Unlocked>,
    /// The rating, `None` before the first rated game.
    pub rating: Option<PlayerRating>,
    /// Place on the server's rating leaderboard, of how many rated players.
    pub rank: Option<(u32, u32)>,
    /// The conservative rating after each of the latest (at most [`CHART_GAMES`]) rated games,
    /// oldest first.
    pub chart: Vec<f64>,
    /// Series played and won.
    pub series: SeriesStats,
    /// Agreement with `hard` over the latest [`AGREEMENT_GAMES`] rated games.
    pub agreement: AgreementTotals,
    /// The name the player had in their latest game here.
    pub name: Option<String>,
}

/// Rated games the profile's rating chart shows at most.
pub const CHART_GAMES: u32 = 50;
/// Rated games a player's agreement with `hard` is summed over (`/sequence stats` and the profile).
pub const AGREEMENT_GAMES: u32 = 20;
/// Shared games a head-to-head lists at most.
pub const VERSUS_GAMES: u32 = 10;

/// An achievement a player unlocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unlocked {
    /// Which.
    pub achievement: Achievement,
    /// The game that unlocked it (for a series won: the series' last game).
    pub game_id: i64,
    /// When, in unix milliseconds (the game's end).
    pub at: i64,
}

/// Two players' games together on a server, from the first one's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Versus {
    /// Finished games (not aborted) they both played.
    pub games: u32,
    /// Of those, on the same team.
    pub partner_games: u32,
    /// Of those, won.
    pub partner_wins: u32,
    /// Games on opposing teams.
    pub opponent_games: u32,
    /// Games on opposing teams the user's side won.
    pub wins: u32,
    /// Games on opposing teams the other's side won.
    pub losses: u32,
    /// Sequences the user completed in their games together.
    pub sequences: u32,
    /// Sequences the other completed in them.
    pub other_sequences: u32,
    /// The latest (at most [`VERSUS_GAMES`]) games together, newest first.
    pub recent: Vec<SharedGame>,
}

/// A game two players shared, from the first one's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedGame {
    /// The game's id (for `/sequence replay`).
    pub id: i64,
    /// `classic`, `dice` or `kids`.
    pub variant: String,
    /// When it ended, in unix milliseconds.
    pub finished_at: i64,
    /// Whether they were on the same team.
    pub partners: bool,
    /// Whether the user won.
    pub won: bool,
    /// Whether the other won.
    pub other_won: bool,
}

/// One line of a server's leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderboardRow {
    /// The Discord user.
    pub user_id: u64,
    /// The name the player had in their latest game.
    pub name: String,
    /// Their totals.
    pub stats: PlayerStats,
}

/// A player's rating on a server, with its latest changes.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingReport {
    /// The rating now.
    pub rating: PlayerRating,
    /// How the conservative rating changed in the latest rated games, newest first.
    pub changes: Vec<f64>,
}

/// One line of a server's rating leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The Discord user.
    pub user_id: u64,
    /// The name the player had in their latest rated game.
    pub name: String,
    /// Their rating.
    pub rating: PlayerRating,
}

/// One change of a server's settings, as logged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsChange {
    /// Who made it.
    pub user_id: u64,
    /// What changed, in English (`turn_timeout: 300 s`).
    pub change: String,
    /// When, in unix milliseconds.
    pub at: i64,
}

/// A server's settings row set aside because it could not be read (kept for the operator in the
/// `settings_damaged` table; the server uses the operator's defaults until an admin saves new ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedSettings {
    /// The server.
    pub guild_id: u64,
    /// The stored settings, byte for byte as they were found.
    pub settings: Vec<u8>,
    /// What was wrong with them, in English for the log.
    pub reason: String,
    /// When they were set aside, in unix milliseconds.
    pub set_aside_at: i64,
}

/// Errors of the store layer.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The SQLite file is not a database or is damaged.
    #[error("the database file {path} is corrupt or not a SQLite database: {detail}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        detail: String,
    },
    /// The database was written by a newer version of the bot.
    #[error(
        "the database has schema version {found}, but this build of sequence-bot only knows versions \
         up to {known}; run a newer sequence-bot (the database was left untouched)"
    )]
    SchemaTooNew {
        /// The database's version.
        found: i64,
        /// The newest version this code knows.
        known: i64,
    },
    /// A SQLite error other than corruption.
    #[error("SQLite database {path}: {source}")]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: rusqlite::Error,
    },
    /// A PostgreSQL error (connection, query).
    #[error("PostgreSQL: {}", describe_postgres(.0))]
    Postgres(#[from] ::postgres::Error),
    /// A file-system error around the database file.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// Another process (or another store of this one) uses the SQLite file.
    #[error(
        "the database {path} is in use by another sequence-bot process (it holds {lock}); stop that \
         process first: two processes on one SQLite file would overwrite each other's games (several \
         processes need PostgreSQL, `database_url`)"
    )]
    Locked {
        /// The database file.
        path: PathBuf,
        /// The lock file beside it.
        lock: PathBuf,
    },
    /// The lock file beside the SQLite file is a link or another file's second name: writing the
    /// process id into it would overwrite that file.
    #[error(
        "the lock file {lock} {detail}; the bot writes its process id into its lock file, so it does \
         not start rather than overwrite another file. Remove {lock} (removing a link or a second \
         name leaves the file it points to alone) and start again: the bot creates a lock file of \
         its own"
    )]
    UnsafeLock {
        /// The lock file.
        lock: PathBuf,
        /// What it is instead of a lock file of its own.
        detail: String,
    },
    /// The database file or its folder cannot be written.
    #[error(
        "the database {path} cannot be written ({detail}); the bot saves every move, so it does not \
         start: make it writable for the user running the bot"
    )]
    ReadOnly {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        detail: String,
    },
    /// The players' profiles are being rebuilt from the stored games in the background (after the
    /// upgrade that added them); a profile read waits for the end.
    #[error("the profiles are being rebuilt from the stored games ({percent}% done)")]
    ProfilesRebuilding {
        /// How far the rebuild is.
        percent: u32,
    },
    /// A damaged SQLite file of which nothing at all can be read.
    #[error(
        "the database file {path} is damaged and nothing in it can be read ({detail}); it was left \
         untouched: move it away (or put a backup in its place) to start with an empty database"
    )]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        detail: String,
    },
    /// A save that would overwrite a newer save of the same table by another process (PostgreSQL).
    #[error(
        "the table of channel {channel_id} was saved by another process in the meantime; this \
         process's older copy was not written"
    )]
    Conflict {
        /// The table's channel.
        channel_id: u64,
    },
    /// A finished game whose record does not replay.
    #[error("the game record cannot be stored: {0}")]
    InvalidRecord(String),
    /// A database setting that cannot be used.
    #[error("database configuration: {0}")]
    Config(String),
    /// Sharding asked of a store that only one process can use.
    #[error(
        "the SQLite database serves one process only, and this one is configured for {shards}: run \
         every shard in one process (leave [sharding] out, or `auto`), or use PostgreSQL \
         (`database_url`) for several processes"
    )]
    SingleProcess {
        /// The shards configured.
        shards: ShardSet,
    },
    /// Another process holds some of this process's shards.
    #[error(
        "{shards} cannot be claimed: shard(s) {held:?} are held by another sequence-bot process on \
         this database (waited {waited_secs} s). Two processes must never run the same shard: stop \
         the other one first, or give this one other shards ([sharding] in config.toml, \
         SEQUENCE_SHARDS)"
    )]
    ShardsHeld {
        /// The shards this process asked for.
        shards: ShardSet,
        /// The shards another process holds.
        held: Vec<u32>,
        /// How long it waited for them.
        waited_secs: u64,
    },
    /// Another process runs the bot with another shard total on this database.
    #[error(
        "another sequence-bot process on this database runs with {other} shards in all, this one \
         with {total}: every process of a bot must use the same total (stop the others before \
         changing it)"
    )]
    OtherTotal {
        /// This process's total.
        total: u32,
        /// The other process's total.
        other: u32,
    },
    /// A write for a table of a shard this process no longer holds (refused by the database).
    #[error(
        "shard {shard} is no longer held by this process (its PostgreSQL lock was lost or \
         released); the change was not written"
    )]
    NotOwner {
        /// The table's shard.
        shard: u32,
    },
}

/// The persistence layer: live tables, finished games and stats. Every method is one transaction.
pub trait Store: Send + Sync {
    /// Saves (inserts or replaces) one channel's live table.
    fn save_table(&self, table: &StoredTable) -> Result<(), StoreError>;
    /// Runs a trivial query: whether the database answers (the health check).
    fn ping(&self) -> Result<(), StoreError>;

    /// Deletes one channel's live table; whether there was one.
    fn delete_table(&self, channel_id: u64) -> Result<bool, StoreError>;

    /// The channel of the live table whose web token is `token` (an index on the live tables: the
    /// token column is written by every [`Store::save_table`] and goes with the row when the table
    /// is deleted, finished or quarantined). `None`: no live table has it.
    fn channel_of_web_token(&self, token: &str) -> Result<Option<u64>, StoreError>;

    /// Calls `sink` on a thread of its own with every change of a live table that any process
    /// saves, deletes, finishes or quarantines, for as long as `sink` returns true; whether there is
    /// anything to listen to. PostgreSQL: a dedicated connection LISTENing to the NOTIFY every
    /// process sends once it runs a part of the shards (reconnecting with backoff). Others: nothing
    /// (`false`; one process has every table).
    fn listen_table_changes(
        &self,
        sink: Box<dyn FnMut(TableChange) -> bool + Send>,
    ) -> Result<bool, StoreError> {
        drop(sink);
        Ok(false)
    }

    /// One channel's live table as stored, with its version, whichever process saves it (read only:
    /// not validated, nothing is quarantined or claimed). `None`: the channel has no live table.
    fn live_table(&self, channel_id: u64) -> Result<Option<LiveTableRead>, StoreError>;

    /// Loads every live table. Tables that no longer validate are moved to the quarantine table and
    /// reported in [`Loaded::quarantined`].
    fn load_tables(&self) -> Result<Loaded, StoreError> {
        self.load_tables_of(ShardSet::SINGLE)
    }

    /// Loads the live tables of `shards` (see [`ShardSet::owns`]), as [`Store::load_tables`]; the
    /// tables of other shards are neither loaded nor quarantined.
    fn load_tables_of(&self, shards: ShardSet) -> Result<Loaded, StoreError>;

    /// Claims `shards` for this process before it restores or acts on their tables, waiting up to
    /// `wait` for a process that is stopping to let go of them. The default, for a store only one
    /// process can open at all (SQLite): the whole set is held at once, part of it is refused
    /// ([`StoreError::SingleProcess`]).
    fn claim_shards(
        &self,
        shards: ShardSet,
        wait: std::time::Duration,
    ) -> Result<Arc<dyn ShardClaim>, StoreError> {
        let _ = wait;
        if shards.is_whole() {
            Ok(Arc::new(ExclusiveClaim::new(shards)))
        } else {
            Err(StoreError::SingleProcess { shards })
        }
    }

    /// Every table ever quarantined, oldest first (they are kept for inspection).
    fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError>;

    /// Moves one channel's live table to the quarantine table with `reason` (for a table that passed
    /// [`Store::load_tables`] but that the service cannot restore); whether there was one.
    fn quarantine_table(&self, channel_id: u64, reason: &str) -> Result<bool, StoreError>;

    /// Stores a finished game (not yet announced), adds it to the players' stats and deletes the
    /// channel's live table.
    fn finish_game(&self, game: &FinishedGame) -> Result<GameId, StoreError>;

    /// Finished games whose end was never announced (the process died between storing the game and
    /// posting its final message), oldest first. A stored game counts as unannounced until
    /// [`Store::mark_announced`].
    fn unannounced_games(&self) -> Result<Vec<(GameId, FinishedGame)>, StoreError>;

    /// Records that a finished game's final message was posted.
    fn mark_announced(&self, id: GameId) -> Result<(), StoreError>;

    /// The record (JSON) of a finished game of this server (`None` for another server's game).
    fn game_record(&self, id: GameId, guild_id: Option<u64>) -> Result<Option<String>, StoreError>;

    /// The latest finished game whose table had the web token `token`: its number, server and players.
    fn game_of_web_token(&self, token: &str) -> Result<Option<TokenGame>, StoreError>;

    /// The web token of a finished game of this server (`None`: another server's game, or one kept
    /// before games kept their tokens).
    fn game_web_token(
        &self,
        id: GameId,
        guild_id: Option<u64>,
    ) -> Result<Option<String>, StoreError>;

    /// The human players (user and team) of every rated game of a server that finished at or after
    /// `since` (unix milliseconds), for the daily cap on rated games between the same players
    /// (`service/daily_cap.rs`). Reads only the server's games of that period (by its index).
    fn rated_games_since(
        &self,
        guild_id: Option<u64>,
        since: i64,
    ) -> Result<Vec<Vec<(u64, u8)>>, StoreError>;

    /// The latest finished game played in a channel of this server, if any.
    fn latest_game_in_channel(
        &self,
        guild_id: Option<u64>,
        channel_id: u64,
    ) -> Result<Option<GameId>, StoreError>;

    /// The latest finished games of a server, newest first.
    fn recent_games(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError>;

    /// A player's totals on a server (zeros if they never finished a game there).
    fn player_stats(&self, guild_id: Option<u64>, user_id: u64) -> Result<PlayerStats, StoreError>;
    /// A series ended on a server: each human player (`user_id`, whether their side won it) counts
    /// one more series played, and the winners one more won.
    fn finish_series(
        &self,
        guild_id: Option<u64>,
        results: &[(u64, bool)],
    ) -> Result<(), StoreError>;
    /// A player's series on a server (zero if none).
    fn series_stats(&self, guild_id: Option<u64>, user_id: u64) -> Result<SeriesStats, StoreError>;

    /// Keeps the agreement with `hard` of each human of finished game `game`: `(user, matched,
    /// counted)`. Saving it again replaces it.
    fn save_agreement(&self, game: GameId, rows: &[(u64, u32, u32)]) -> Result<(), StoreError>;

    /// A player's agreement with `hard` summed over their latest `limit` rated (not aborted) games of a
    /// server that have one; `games` is 0 when none has.
    fn recent_agreement(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        limit: u32,
    ) -> Result<AgreementTotals, StoreError>;

    /// The best players of a server: most wins, then best win rate, then most games.
    fn leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<LeaderboardRow>, StoreError>;

    /// A player's rating on a server and the changes of its conservative value in their latest
    /// `recent` rated games, newest first; `None` before their first rated game.
    fn player_rating(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        recent: u32,
    ) -> Result<Option<RatingReport>, StoreError>;

    /// The rated players of a server by conservative rating (`mu - 3 sigma`), best first.
    fn rating_leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<RatingRow>, StoreError>;

    /// A server's own settings (JSON, as the service wrote them), `None` if it never changed any.
    /// Settings that are not UTF-8 JSON (damaged) are set aside with one warning, as
    /// [`Store::set_aside_server_settings`] does, and read as `None`.
    fn server_settings(&self, guild_id: u64) -> Result<Option<String>, StoreError>;

    /// Moves a server's settings to the `settings_damaged` table with `reason` (for settings the
    /// service cannot use), if they are still `settings_json`; whether they were moved.
    fn set_aside_server_settings(
        &self,
        guild_id: u64,
        settings_json: &str,
        reason: &str,
    ) -> Result<bool, StoreError>;

    /// Every server's settings ever set aside, oldest first (they are kept for the operator).
    fn damaged_settings(&self) -> Result<Vec<DamagedSettings>, StoreError>;

    /// Replaces a server's settings and logs the change with who made it, in one transaction.
    fn save_server_settings(
        &self,
        guild_id: u64,
        settings_json: &str,
        change: &SettingsChange,
    ) -> Result<(), StoreError>;

    /// The latest changes of a server's settings, newest first.
    fn settings_log(&self, guild_id: u64, limit: u32) -> Result<Vec<SettingsChange>, StoreError>;

    /// A player's profile on a server (empty figures if they never finished a game there). Damaged
    /// stored figures are rebuilt from the player's games first (one warning).
    fn profile(&self, guild_id: Option<u64>, user_id: u64) -> Result<Profile, StoreError>;

    /// `user_id`'s games with `other_id` on a server, from `user_id`'s side (zeros if none). A
    /// damaged stored total has `user_id`'s rows rebuilt from their games first (one warning).
    fn versus(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        other_id: u64,
    ) -> Result<Versus, StoreError>;

    /// The achievements finished game `game` unlocked, by player (for its final message).
    fn unlocked_in(&self, game: GameId) -> Result<Vec<(u64, Achievement)>, StoreError>;

    /// One step of the profiles' rebuild in the background (issue 44), in a transaction of its own:
    /// up to `games` more stored games added. `Ok(true)` while more remain, `Ok(false)` when none is
    /// under way (any more). A rebuild stopped halfway resumes at the next call, in this process or
    /// the next.
    fn rebuild_profiles_step(&self, games: u32) -> Result<bool, StoreError> {
        let _ = games;
        Ok(false)
    }
}

/// The `[database]` section of the configuration.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// The SQLite file (created with its folder on first start); used unless `database_url` is set.
    pub path: PathBuf,
    /// `postgres://user:password@host:port/dbname` to use PostgreSQL instead of SQLite.
    pub database_url: Option<String>,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            path: PathBuf::from("sequence-bot.db"),
            database_url: None,
        }
    }
}

/// Opens the configured store: PostgreSQL for a `postgres://` URL, otherwise the SQLite file (a
/// damaged file is repaired, the damaged one kept beside it, see [`SqliteStore::open_or_repair`]).
pub fn open_store(config: &DatabaseConfig) -> Result<Arc<dyn Store>, StoreError> {
    match config.database_url.as_deref().map(str::trim) {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            Ok(Arc::new(PostgresStore::open(url)?))
        }
        // Only the scheme is repeated: the rest may hold a password.
        Some(url) if !url.is_empty() => {
            Err(StoreError::Config(format!(
            "database_url must start with postgres:// or postgresql:// (got {}); leave it out to \
             use the SQLite file `path`",
            url.split_once("://")
                .map_or("no scheme".to_string(), |(scheme, _)| format!("`{scheme}://…`"))
        )))
        }
        _ => Ok(Arc::new(SqliteStore::open_or_repair(&config.path)?.0)),
    }
}

/// Why a stored table does not validate, or `None` if it does: the record must parse and every action
/// replay legally (or be `null`, a lobby without a game yet), and the snapshot must be JSON.
pub fn table_problem(record_json: &str, snapshot_json: &str) -> Option<String> {
    if record_json.trim() != "null" {
        if let Err(problem) = record_problem(record_json) {
            return Some(problem);
        }
    }
    serde_json::from_str::<serde::de::IgnoredAny>(snapshot_json)
        .err()
        .map(|e| format!("the table snapshot is not valid JSON: {e}"))
}

/// Stored settings as text, or why they cannot be used: they must be UTF-8 and parse as JSON (what
/// they mean is the service's to check).
fn settings_text(stored: Vec<u8>) -> Result<String, String> {
    let text = String::from_utf8(stored)
        .map_err(|e| format!("the stored settings are not UTF-8 text: {}", e.utf8_error()))?;
    match serde_json::from_str::<serde::de::IgnoredAny>(&text) {
        Ok(_) => Ok(text),
        Err(e) => Err(format!("the stored settings are not valid JSON: {e}")),
    }
}

/// A player's stored series counts, or why they cannot be used (a damaged row, issue 33): neither
/// may be negative, and no more series won than played.
fn series_counts(played: i64, won: i64) -> Result<SeriesStats, String> {
    if played < 0 || won < 0 || won > played {
        return Err(format!("{won} series won of {played} played"));
    }
    Ok(SeriesStats {
        played: count_from_db(played),
        won: count_from_db(won),
    })
}

/// Logs the one warning for a player's series counts set aside.
fn warn_series_stats_set_aside(guild: i64, user: i64, reason: &str) {
    tracing::warn!(
        guild = from_db_id(guild),
        user = from_db_id(user),
        "a player's series counts could not be read and were moved to the database's \
         series_stats_damaged table; they count from zero again: {reason}"
    );
}

/// The one warning for a server's ratings recomputed because a stored one was damaged.
fn warn_ratings_recomputed(guild: i64, damage: &str, games: usize) {
    tracing::warn!(
        guild = from_db_id(guild),
        "a stored rating was damaged ({damage}); this server's ratings were recomputed from its \
         {games} stored games"
    );
}

/// Logs the one warning for a server's settings set aside.
fn warn_settings_set_aside(guild_id: u64, reason: &str) {
    tracing::warn!(
        guild = guild_id,
        "this server's settings could not be read and were moved to the database's settings_damaged \
         table; the server uses the operator's defaults until an admin changes a setting: {reason}"
    );
}

/// Checks that a record parses and that every action replays legally.
pub fn record_problem(record_json: &str) -> Result<(), String> {
    let record = Record::from_json(record_json).map_err(|e| format!("malformed record: {e}"))?;
    match record.replay() {
        Err(e) => Err(format!("malformed record: {e}")),
        Ok(Err(failure)) => Err(format!(
            "action {} of the record is illegal ({}): {}",
            failure.index,
            failure.error.code(),
            failure.error
        )),
        Ok(Ok(_)) => Ok(()),
    }
}

/// A PostgreSQL error with its cause (the client's own text is only "db error" for a server error).
fn describe_postgres(e: &::postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// A Discord id as stored: the same 64 bits, signed.
fn to_db_id(id: u64) -> i64 {
    i64::from_ne_bytes(id.to_ne_bytes())
}

/// A stored id back to a Discord id.
fn from_db_id(id: i64) -> u64 {
    u64::from_ne_bytes(id.to_ne_bytes())
}

/// The top bit of a chat's [`standing_scope`]: Discord's ids stay below 2^63, so a chat's key is
/// never a server's id, nor 0 (where games outside servers were once pooled).
pub const CHAT_SCOPE: u64 = 1 << 63;

/// Where a finished game's stats and profile figures (achievements, head to head) are kept and read:
/// its server, or, for a game outside servers (a DM, a group DM), its chat, so that no chat sees
/// another chat's games (issue 44). The game itself keeps `guild_id` 0 there (shards and locks are
/// by server).
pub fn standing_scope(guild: Option<u64>, channel: u64) -> u64 {
    guild.unwrap_or(channel | CHAT_SCOPE)
}

/// The channel of a stored chat's scope ([`standing_scope`]), `None` for a server's.
fn chat_of_scope(scope: i64) -> Option<i64> {
    let scope = from_db_id(scope);
    (scope & CHAT_SCOPE != 0).then(|| to_db_id(scope & !CHAT_SCOPE))
}

/// A guild as stored: 0 for none.
fn guild_to_db(guild: Option<u64>) -> i64 {
    to_db_id(guild.unwrap_or(0))
}

/// A stored guild back: 0 is none.
fn guild_from_db(guild: i64) -> Option<u64> {
    Some(from_db_id(guild)).filter(|&g| g != 0)
}

/// A stored count as `u32`, saturating.
fn count_from_db(value: i64) -> u32 {
    u32::try_from(value.max(0)).unwrap_or(u32::MAX)
}

/// The current time in unix milliseconds.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A player's contribution to the stats of one game, several seats of one user merged.
struct StatsDelta {
    /// The user.
    user_id: u64,
    /// Their name.
    name: String,
    /// 1 if any of their seats won.
    wins: i64,
    /// Sequences over all their seats.
    sequences: i64,
}

/// The stats changes of a finished game: one per human user (bots left out), in seat order.
fn stats_deltas(players: &[PlayerResult]) -> Vec<StatsDelta> {
    let mut deltas: Vec<StatsDelta> = Vec::new();
    for p in players.iter().filter(|p| p.user_id != BOT_USER_ID) {
        match deltas.iter_mut().find(|d| d.user_id == p.user_id) {
            Some(d) => {
                d.wins = d.wins.max(i64::from(p.won));
                d.sequences += i64::from(p.sequences);
            }
            None => deltas.push(StatsDelta {
                user_id: p.user_id,
                name: p.name.clone(),
                wins: i64::from(p.won),
                sequences: i64::from(p.sequences),
            }),
        }
    }
    deltas
}

/// The SQL `LIMIT` for a listing: at least 1.
fn limit_to_db(limit: u32) -> i64 {
    i64::from(limit.max(1))
}
