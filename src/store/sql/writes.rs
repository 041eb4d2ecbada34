//! The writes of a finished game both stores make the same way, inside the transaction (and, in
//! PostgreSQL, behind the owner check and the server's rating lock) their store holds.

use super::queries::{ADD_STATS, INSERT_GAME, INSERT_PLAYER};
use super::{params, Db, DbError};
use crate::store::{stats_deltas, to_db_id, FinishedGame};

/// Stores a finished game (not yet announced) and its players; its id.
pub fn insert_game(
    db: &mut dyn Db,
    guild: i64,
    game: &FinishedGame,
    rated: bool,
) -> Result<i64, DbError> {
    let id = db
        .query_opt(
            INSERT_GAME,
            params![
                guild,
                to_db_id(game.channel_id),
                game.variant.as_str(),
                game.record_json.as_str(),
                game.finished_at,
                rated,
                game.aborted,
                game.started_at,
                game.web_token.as_deref()
            ],
        )?
        .ok_or(DbError::Column {
            index: 0,
            wanted: "the new game's id",
            found: "no row",
        })?
        .int(0)?;
    for (seat, p) in game.players.iter().enumerate() {
        db.execute(
            INSERT_PLAYER,
            params![
                id,
                i64::try_from(seat).unwrap_or(i64::MAX),
                to_db_id(p.user_id),
                p.name.as_str(),
                i64::from(p.team),
                p.won,
                i64::from(p.sequences),
                p.bot_level.as_deref(),
                p.gave_up
            ],
        )?;
    }
    Ok(id)
}

/// Adds a finished game to its human players' stats (an aborted game is kept in the history only).
pub fn add_stats(db: &mut dyn Db, guild: i64, game: &FinishedGame) -> Result<(), DbError> {
    if game.aborted {
        return Ok(());
    }
    for d in stats_deltas(&game.players) {
        db.execute(
            ADD_STATS,
            params![
                guild,
                to_db_id(d.user_id),
                d.name.as_str(),
                d.wins,
                d.sequences
            ],
        )?;
    }
    Ok(())
}
