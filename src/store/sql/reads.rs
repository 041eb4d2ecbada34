//! The stores' reads, written once over [`Db`]: each runs queries of [`super::queries`] and maps the
//! rows to the store's types. What a store does when a read finds damage (recompute ratings, set
//! settings or series counts aside) happens in its own transaction, in `sqlite.rs` / `postgres.rs`.

use super::queries::{
    DAMAGED_SETTINGS, GAME_AGREEMENT, GAME_OF_WEB_TOKEN, GAME_PLAYERS, GAME_RECORD, GAME_WEB_TOKEN,
    LATEST_IN_CHANNEL, LEADERBOARD, PLAYER_STATS, QUARANTINED, RATED_SINCE, RATING, RATING_CHANGES,
    RATING_LEADERBOARD, RECENT_AGREEMENT, RECENT_GAMES, SERIES_STATS, SERVER_SETTINGS,
    SETTINGS_LOG, UNANNOUNCED,
};
use super::rows::{player, stored_change, stored_rating};
use super::{params, Db, DbError, Row, Value};
use crate::store::{
    count_from_db, from_db_id, guild_from_db, guild_to_db, limit_to_db, to_db_id, AgreementTotals,
    DamagedSettings, FinishedGame, GameId, GameSummary, LeaderboardRow, PlayerResult, PlayerStats,
    Quarantined, RatingReport, RatingRow, SettingsChange, TokenGame, BOT_USER_ID,
};

/// A finished game's players, in seat order.
fn players(db: &mut dyn Db, game: i64) -> Result<Vec<PlayerResult>, DbError> {
    db.query(GAME_PLAYERS, params![game])?
        .iter()
        .map(player)
        .collect()
}

/// An integer column that may be `NULL`.
pub(crate) fn opt_int(row: &Row, i: usize) -> Result<Option<i64>, DbError> {
    match row.value(i) {
        Value::Null => Ok(None),
        _ => row.int(i).map(Some),
    }
}

/// Totals from three count columns starting at `first`.
fn stats(row: &Row, first: usize) -> Result<PlayerStats, DbError> {
    Ok(PlayerStats {
        games: count_from_db(row.int(first)?),
        wins: count_from_db(row.int(first + 1)?),
        sequences: count_from_db(row.int(first + 2)?),
    })
}

/// See [`crate::store::Store::rated_games_since`].
pub fn rated_games_since(
    db: &mut dyn Db,
    guild_id: Option<u64>,
    since: i64,
) -> Result<Vec<Vec<(u64, u8)>>, DbError> {
    let rows = db.query(
        RATED_SINCE,
        params![guild_to_db(guild_id), since, to_db_id(BOT_USER_ID)],
    )?;
    let mut games: Vec<(i64, Vec<(u64, u8)>)> = Vec::new();
    for row in &rows {
        let game = row.int(0)?;
        let user = from_db_id(row.int(1)?);
        let team = u8::try_from(row.int(2)?).unwrap_or(u8::MAX);
        match games.last_mut() {
            Some((id, players)) if *id == game => players.push((user, team)),
            _ => games.push((game, vec![(user, team)])),
        }
    }
    Ok(games.into_iter().map(|(_, players)| players).collect())
}

/// See [`crate::store::Store::latest_game_in_channel`].
pub fn latest_game_in_channel(
    db: &mut dyn Db,
    guild_id: Option<u64>,
    channel_id: u64,
) -> Result<Option<GameId>, DbError> {
    db.query_opt(
        LATEST_IN_CHANNEL,
        params![guild_to_db(guild_id), to_db_id(channel_id)],
    )?
    .map(|row| row.int(0).map(GameId))
    .transpose()
}

/// See [`crate::store::Store::unannounced_games`].
pub fn unannounced_games(db: &mut dyn Db) -> Result<Vec<(GameId, FinishedGame)>, DbError> {
    let rows = db.query(UNANNOUNCED, &[])?;
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let id = row.int(0)?;
        games.push((
            GameId(id),
            FinishedGame {
                guild_id: guild_from_db(row.int(1)?),
                channel_id: from_db_id(row.int(2)?),
                variant: row.text(3)?,
                record_json: row.text(4)?,
                finished_at: row.int(5)?,
                started_at: opt_int(&row, 8)?,
                players: players(db, id)?,
                rated: Some(row.bool(6)?),
                aborted: row.bool(7)?,
                web_token: None,
            },
        ));
    }
    Ok(games)
}

/// See [`crate::store::Store::game_record`].
pub fn game_record(
    db: &mut dyn Db,
    id: GameId,
    guild_id: Option<u64>,
) -> Result<Option<String>, DbError> {
    db.query_opt(GAME_RECORD, params![id.0, guild_to_db(guild_id)])?
        .map(|row| row.text(0))
        .transpose()
}

/// See [`crate::store::Store::game_web_token`].
pub fn game_web_token(
    db: &mut dyn Db,
    id: GameId,
    guild_id: Option<u64>,
) -> Result<Option<String>, DbError> {
    match db.query_opt(GAME_WEB_TOKEN, params![id.0, guild_to_db(guild_id)])? {
        Some(row) => row.opt_text(0),
        None => Ok(None),
    }
}

/// See [`crate::store::Store::game_of_web_token`].
pub fn game_of_web_token(db: &mut dyn Db, token: &str) -> Result<Option<TokenGame>, DbError> {
    let Some(row) = db.query_opt(GAME_OF_WEB_TOKEN, params![token])? else {
        return Ok(None);
    };
    let (id, guild_id) = (row.int(0)?, guild_from_db(row.int(1)?));
    let agreement = db
        .query(GAME_AGREEMENT, params![id])?
        .iter()
        .map(|row| {
            Ok((
                from_db_id(row.int(0)?),
                count_from_db(row.int(1)?),
                count_from_db(row.int(2)?),
            ))
        })
        .collect::<Result<_, DbError>>()?;
    Ok(Some(TokenGame {
        id: GameId(id),
        guild_id,
        players: players(db, id)?,
        agreement,
    }))
}

/// See [`crate::store::Store::recent_games`].
pub fn recent_games(
    db: &mut dyn Db,
    guild_id: Option<u64>,
    limit: u32,
) -> Result<Vec<GameSummary>, DbError> {
    let rows = db.query(
        RECENT_GAMES,
        params![guild_to_db(guild_id), limit_to_db(limit)],
    )?;
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let id = row.int(0)?;
        games.push(GameSummary {
            id: GameId(id),
            guild_id: guild_from_db(row.int(1)?),
            channel_id: from_db_id(row.int(2)?),
            variant: row.text(3)?,
            finished_at: row.int(4)?,
            players: players(db, id)?,
            aborted: row.bool(5)?,
        });
    }
    Ok(games)
}

/// See [`crate::store::Store::player_stats`].
pub fn player_stats(
    db: &mut dyn Db,
    guild_id: Option<u64>,
    user_id: u64,
) -> Result<PlayerStats, DbError> {
    db.query_opt(
        PLAYER_STATS,
        params![guild_to_db(guild_id), to_db_id(user_id)],
    )?
    .map(|row| stats(&row, 0))
    .transpose()
    .map(Option::unwrap_or_default)
}

/// See [`crate::store::Store::recent_agreement`].
pub fn recent_agreement(
    db: &mut dyn Db,
    guild_id: Option<u64>,
    user_id: u64,
    limit: u32,
) -> Result<AgreementTotals, DbError> {
    let row = db
        .query_opt(
            RECENT_AGREEMENT,
            params![guild_to_db(guild_id), to_db_id(user_id), limit_to_db(limit)],
        )?
        .unwrap_or(Row(Vec::new()));
    Ok(AgreementTotals {
        matched: count_from_db(row.int(0)?),
        counted: count_from_db(row.int(1)?),
        games: count_from_db(row.int(2)?),
    })
}

/// See [`crate::store::Store::leaderboard`].
pub fn leaderboard(
    db: &mut dyn Db,
    guild_id: Option<u64>,
    limit: u32,
) -> Result<Vec<LeaderboardRow>, DbError> {
    db.query(
        LEADERBOARD,
        params![guild_to_db(guild_id), limit_to_db(limit)],
    )?
    .iter()
    .map(|row| {
        Ok(LeaderboardRow {
            user_id: from_db_id(row.int(0)?),
            name: row.text(1)?,
            stats: stats(row, 2)?,
        })
    })
    .collect()
}

/// A player's rating and its latest `recent` changes (see [`crate::store::Store::player_rating`]),
/// or what is damaged in them; `None` before their first rated game.
pub fn player_rating(
    db: &mut dyn Db,
    guild: i64,
    user: i64,
    recent: u32,
) -> Result<Option<Result<RatingReport, String>>, DbError> {
    let Some(row) = db.query_opt(RATING, params![guild, user])? else {
        return Ok(None);
    };
    let changes: Result<Vec<f64>, String> = db
        .query(RATING_CHANGES, params![guild, user, limit_to_db(recent)])?
        .iter()
        .map(stored_change)
        .collect();
    Ok(Some(stored_rating(&row, 0).and_then(|rating| {
        Ok(RatingReport {
            rating,
            changes: changes?,
        })
    })))
}

/// A server's rating leaderboard (see [`crate::store::Store::rating_leaderboard`]), each row read
/// or what is damaged in it.
pub fn rating_leaderboard(
    db: &mut dyn Db,
    guild: i64,
    limit: u32,
) -> Result<Vec<Result<RatingRow, String>>, DbError> {
    db.query(RATING_LEADERBOARD, params![guild, limit_to_db(limit)])?
        .iter()
        .map(|row| {
            let user_id = from_db_id(row.int(0)?);
            let name = row.text(1)?;
            Ok(stored_rating(row, 2)
                .map(|rating| RatingRow {
                    user_id,
                    name,
                    rating,
                })
                .map_err(|damage| format!("user {user_id}: {damage}")))
        })
        .collect()
}

/// See [`crate::store::Store::quarantined`].
pub fn quarantined(db: &mut dyn Db) -> Result<Vec<Quarantined>, DbError> {
    db.query(QUARANTINED, &[])?
        .iter()
        .map(|row| {
            Ok(Quarantined {
                channel_id: from_db_id(row.int(0)?),
                guild_id: guild_from_db(row.int(1)?),
                reason: row.text(2)?,
                quarantined_at: row.int(3)?,
            })
        })
        .collect()
}

/// A player's stored series counts (played, won), each a whole number or what it is instead (a
/// damaged row, issue 33); `None` without a row.
#[allow(clippy::type_complexity)]
pub fn series_counts(
    db: &mut dyn Db,
    guild: i64,
    user: i64,
) -> Result<Option<(Result<i64, String>, Result<i64, String>)>, DbError> {
    Ok(db
        .query_opt(SERIES_STATS, params![guild, user])?
        .map(|row| (stored_count(row.value(0)), stored_count(row.value(1)))))
}

/// A count as stored, or what it is instead of a whole number (SQLite keeps any value in any
/// column: a damaged page or a hand edit can leave text there).
fn stored_count(value: &Value) -> Result<i64, String> {
    match value {
        Value::Int(n) => Ok(*n),
        Value::Real(r) => Err(format!("the real number {r}, not a whole number")),
        Value::Text(t) => Err(format!("the text {t:?}, not a number")),
        Value::Bytes(b) => Err(format!("{} bytes of blob, not a number", b.len())),
        Value::Bool(b) => Err(format!("the flag {b}, not a number")),
        Value::Null => Err("missing".into()),
    }
}

/// A server's stored settings as bytes (text or, in SQLite, whatever a damaged row holds), or what
/// they are instead; `None` if the server has none.
pub fn server_settings(
    db: &mut dyn Db,
    guild: i64,
) -> Result<Option<Result<Vec<u8>, String>>, DbError> {
    Ok(db
        .query_opt(SERVER_SETTINGS, params![guild])?
        .map(|row| match row.value(0) {
            Value::Text(text) => Ok(text.clone().into_bytes()),
            Value::Bytes(bytes) => Ok(bytes.clone()),
            other => Err(format!(
                "the stored settings are {} instead of text",
                other.describe()
            )),
        }))
}

/// See [`crate::store::Store::damaged_settings`].
pub fn damaged_settings(db: &mut dyn Db) -> Result<Vec<DamagedSettings>, DbError> {
    db.query(DAMAGED_SETTINGS, &[])?
        .iter()
        .map(|row| {
            Ok(DamagedSettings {
                guild_id: from_db_id(row.int(0)?),
                settings: row.opt_bytes(1)?.unwrap_or_default(),
                reason: row.text(2)?,
                set_aside_at: row.int(3)?,
            })
        })
        .collect()
}

/// See [`crate::store::Store::settings_log`].
pub fn settings_log(
    db: &mut dyn Db,
    guild_id: u64,
    limit: u32,
) -> Result<Vec<SettingsChange>, DbError> {
    db.query(
        SETTINGS_LOG,
        params![to_db_id(guild_id), limit_to_db(limit)],
    )?
    .iter()
    .map(|row| {
        Ok(SettingsChange {
            user_id: from_db_id(row.int(0)?),
            change: row.text(1)?,
            at: row.int(2)?,
        })
    })
    .collect()
}
