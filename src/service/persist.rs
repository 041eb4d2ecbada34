//! The service on top of a [`Store`]: tables saved after every accepted action, finished games with
//! their results, and a table as stored and read back. The registry restores every table after a
//! restart in `tables/restore.rs` and answers the stats, profile and history commands in
//! `tables/history.rs`.

use std::sync::Arc;

use crate::analysis::profile::Achievement;
use crate::store::{
    FinishedGame, GameId, PlayerResult, Store, StoreError, StoredTable, BOT_USER_ID,
};

use super::ids::{ChannelId, GuildId, Timestamp, UserId};
use super::reply::{Message, Reply};
use super::table::Stop;
use super::table::{series, Player, State, Table};
use super::text::Text;

/// Errors of the service layer (the store's, mostly).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A table could not be written as JSON.
    #[error("cannot write the table as JSON: {0}")]
    Encode(#[from] serde_json::Error),
}

/// Called with a table each time an action is accepted, and when a table closes, before anyone is
/// told about it. If it fails, the service undoes the action in memory and apologises, so memory and
/// database never disagree. Blocking: with a real store, call the service from a blocking thread.
pub trait Persist: Send + Sync {
    /// The table changed (lobby or game); store it.
    fn save(&self, table: &Table) -> Result<(), ServiceError>;
    /// The table closed; `finished` holds the final table if a game was played. Returns the number
    /// under which the finished game was kept, if it was.
    fn close(
        &self,
        channel: ChannelId,
        finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError>;
    /// The achievements each player unlocked with the finished game kept as `game`, for its final
    /// message (read once the game and its series are stored). None by default.
    fn unlocked_in(&self, _game: i64) -> Result<Vec<(UserId, Achievement)>, ServiceError> {
        Ok(Vec::new())
    }
    /// A series ended (decided or not): its players' series stats, kept where their games' stats
    /// are (`scope`: the server, or outside servers the chat, see [`crate::store::standing_scope`]).
    /// Nothing by default.
    fn series_ended(&self, _scope: u64, _series: &series::Series) -> Result<(), ServiceError> {
        Ok(())
    }
}

/// A [`Persist`] that keeps nothing.
pub struct NoPersist;

impl Persist for NoPersist {
    fn save(&self, _table: &Table) -> Result<(), ServiceError> {
        Ok(())
    }
    fn close(
        &self,
        _channel: ChannelId,
        _finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError> {
        Ok(None)
    }
}

/// [`Persist`] through a [`Store`]: each change of a table is one `save_table` (the game record and
/// the table snapshot in one transaction); the end of a game is one `finish_game` (record, results,
/// stats, and the live table deleted together).
pub struct StorePersist {
    store: Arc<dyn Store>,
}

impl StorePersist {
    /// Saves into `store`.
    pub fn new(store: Arc<dyn Store>) -> StorePersist {
        StorePersist { store }
    }
}

impl Persist for StorePersist {
    fn save(&self, table: &Table) -> Result<(), ServiceError> {
        let stored = stored_table(table)?;
        timed("save", || self.store.save_table(&stored))?;
        Ok(())
    }

    fn close(
        &self,
        channel: ChannelId,
        finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError> {
        match finished.and_then(finished_game) {
            Some(game) => {
                let game = game?;
                let id = timed("finish", || self.store.finish_game(&game))?;
                die_before_announcing_if_asked();
                Ok(Some(id.0))
            }
            None => {
                timed("delete", || self.store.delete_table(channel.0))?;
                Ok(None)
            }
        }
    }

    fn unlocked_in(&self, game: i64) -> Result<Vec<(UserId, Achievement)>, ServiceError> {
        let unlocked = self.store.unlocked_in(GameId(game))?;
        Ok(unlocked
            .into_iter()
            .map(|(user, achievement)| (UserId(user), achievement))
            .collect())
    }

    fn series_ended(&self, scope: u64, series: &super::series::Series) -> Result<(), ServiceError> {
        let results: Vec<(u64, bool)> = series
            .results()
            .into_iter()
            .map(|(user, won)| (user.0, won))
            .collect();
        timed("series", || self.store.finish_series(Some(scope), &results))?;
        Ok(())
    }
}

/// Runs one write of the store, recording how long it took (`sequence_store_seconds`) and whether it
/// failed (`sequence_store_errors_total`), by operation.
fn timed<T>(
    op: &'static str,
    write: impl FnOnce() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let started = std::time::Instant::now();
    let result = write();
    metrics::histogram!("sequence_store_seconds", "op" => op).record(started.elapsed());
    if result.is_err() {
        metrics::counter!("sequence_store_errors_total", "op" => op).increment(1);
    }
    result
}

/// The environment variable that makes the process die right after a finished game is stored and
/// before its end is announced, as a crash at the worst moment would (for `tests/restart.rs`).
pub const DIE_BEFORE_ANNOUNCING: &str = "SEQUENCE_BOT_TEST_DIE_BEFORE_ANNOUNCING";

/// The test hook of [`DIE_BEFORE_ANNOUNCING`]: only when it is set to `1`; SIGKILL where the
/// platform has it (no unwinding, no destructors), otherwise an abort.
fn die_before_announcing_if_asked() {
    if std::env::var_os(DIE_BEFORE_ANNOUNCING).is_some_and(|v| v == "1") {
        tracing::error!("{DIE_BEFORE_ANNOUNCING}=1: dying before the end of a game is announced");
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: kill(2) on this very process, no memory involved.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
        std::process::abort();
    }
}

/// A table as stored: its record (`null` for a lobby) and its whole snapshot.
pub fn stored_table(table: &Table) -> Result<StoredTable, ServiceError> {
    let record_json = match table.playing() {
        Some(playing) => serde_json::to_string(playing.live.record())?,
        None => "null".to_string(),
    };
    Ok(StoredTable {
        channel_id: table.channel.0,
        guild_id: table.guild.map(|g| g.0),
        record_json,
        snapshot_json: serde_json::to_string(table)?,
        updated_at: now_ms(),
        web_token: (!table.web_token.is_empty()).then(|| table.web_token.clone()),
    })
}

/// The finished game of a closed table that was playing: every seat's result (a player who gave up
/// keeps their seat's result, computer players count as [`BOT_USER_ID`]).
fn finished_game(table: &Table) -> Option<Result<FinishedGame, ServiceError>> {
    let playing = table.playing()?;
    let game = playing.live.game();
    let config = game.config();
    // An aborted game is kept but counts for nothing: nobody won or lost it.
    let aborted = playing.is_aborted();
    let winners = if aborted {
        Vec::new()
    } else {
        playing.winners()
    };
    let counts = playing.counts_for_ratings(&table.setup);
    // Stopped by someone not playing: no result; only those who gave up keep a (rated) loss.
    let rated = match playing.stopped {
        Some(Stop::Moderator) => counts && playing.anyone_gave_up(),
        _ => counts,
    };
    let players = (0..config.players)
        .map(|seat| {
            let team = config.team_of(seat);
            let (user_id, name, bot_level) = match playing.original_player(seat) {
                Some(Player::Human { user, name }) => (user.0, name.clone(), None),
                Some(Player::Bot { name, level }) => {
                    (BOT_USER_ID, name.clone(), Some(level.to_string()))
                }
                None => (BOT_USER_ID, format!("seat {}", seat + 1), None),
            };
            PlayerResult {
                user_id,
                name,
                team,
                won: winners.contains(&team),
                sequences: u32::try_from(game.position().sequence_count(team)).unwrap_or(u32::MAX),
                bot_level,
                gave_up: playing.forfeited.iter().any(|(s, _)| *s == seat)
                    || playing.stopped == Some(Stop::Player(seat)),
            }
        })
        .collect();
    let record_json = match serde_json::to_string(playing.live.record()) {
        Ok(json) => json,
        Err(e) => return Some(Err(e.into())),
    };
    Some(Ok(FinishedGame {
        guild_id: table.guild.map(|g| g.0),
        channel_id: table.channel.0,
        variant: config.variant.to_string(),
        record_json,
        finished_at: now_ms(),
        started_at: playing
            .started
            .map(|at| i64::try_from(at.0).unwrap_or(i64::MAX)),
        players,
        rated: Some(rated),
        aborted,
        web_token: (!table.web_token.is_empty()).then(|| table.web_token.clone()),
    }))
}

/// The table of a stored row, or why it cannot be restored.
pub(super) fn table_from_stored(stored: &StoredTable) -> Result<Table, String> {
    let mut table: Table = serde_json::from_str(&stored.snapshot_json)
        .map_err(|e| format!("the table snapshot cannot be read: {e}"))?;
    if table.channel.0 != stored.channel_id {
        return Err(format!(
            "the snapshot is of channel {}, stored for channel {}",
            table.channel.0, stored.channel_id
        ));
    }
    let record: serde_json::Value = serde_json::from_str(&stored.record_json)
        .map_err(|e| format!("the record cannot be read: {e}"))?;
    let agrees = match &table.state {
        State::Playing(playing) => {
            if playing.live.game().position().is_over() {
                return Err("the game had already ended".into());
            }
            serde_json::to_value(playing.live.record()).ok() == Some(record)
        }
        State::Lobby(_) => record.is_null(),
    };
    if !agrees {
        return Err("the record and the table snapshot disagree".into());
    }
    if let Some(series) = &table.series {
        // A damaged series would be restored as if valid and garble the score (issue 33).
        let teams = match &table.state {
            State::Playing(playing) => Some(usize::from(playing.game().config().teams)),
            State::Lobby(_) => None,
        };
        if let Some(problem) = series.problem(teams) {
            return Err(format!("its series cannot be used: {problem}"));
        }
    }
    if table.guild.is_none() {
        table.guild = stored.guild_id.map(GuildId);
    }
    Ok(table)
}

/// What [`super::Tables::restore_from_store`] found.
#[derive(Debug, Default)]
pub struct Restored {
    /// What to post in each channel: notes of games whose end was not announced and of tables that
    /// could not be restored, then "resumed" notes (with the board), newest activity first.
    pub notes: Vec<(ChannelId, Reply)>,
    /// Channels whose table is back.
    pub resumed: Vec<ChannelId>,
    /// Channels whose table was set aside (kept in the store's quarantine), and why.
    pub lost: Vec<(ChannelId, String)>,
    /// Channels whose table belongs to a face this process does not run ([`super::Tables::restoring_only`]):
    /// left in the store as they are.
    pub left: Vec<ChannelId>,
}

impl Message {
    /// The finished game this message announces (the final message of a game, with its
    /// [`Text::GameSaved`] line): once it is posted, see [`super::Tables::mark_announced`].
    pub fn announced_game(&self) -> Option<i64> {
        self.lines.iter().find_map(|line| match line {
            Text::GameSaved { id } => Some(*id),
            _ => None,
        })
    }
}

/// A stored record, indented for people (as it was stored if it does not parse).
pub(super) fn pretty(json: &str) -> Vec<u8> {
    serde_json::from_str::<serde_json::Value>(json)
        .ok()
        .and_then(|v| serde_json::to_vec_pretty(&v).ok())
        .unwrap_or_else(|| json.as_bytes().to_vec())
}

/// The current time in unix milliseconds.
fn now_ms() -> i64 {
    i64::try_from(Timestamp::now().0).unwrap_or(i64::MAX)
}
