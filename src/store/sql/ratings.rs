//! The ratings in the database, written once for both stores: replaying the stored games to rebuild
//! them (when ratings were added, after a repair, or when a stored rating is found damaged),
//! reading a game's players' current ratings and storing a rating after a game (telling a damaged
//! stored rating from a good one is in [`super::rows`]). The caller holds the transaction (and, in
//! PostgreSQL, the server's rating lock).

use std::collections::HashMap;

use super::queries::{
    ADD_TO_BAND, ALL_RATINGS, CLEAR_BANDS, CLEAR_GUILD_BANDS, CLEAR_GUILD_CHANGES,
    CLEAR_GUILD_RATINGS, CLEAR_RATINGS, CLEAR_RATINGS_UNBANDED, GAME_PLAYERS, RATED_GAMES, RATING,
    RATING_BAND, SET_BOT_LEVEL, SET_RATED, SET_RATING_BAND, WRITE_CHANGE, WRITE_RATING,
    WRITE_RATING_UNBANDED,
};
use super::rows::{player, stored_rating};
use super::{params, Db, DbError, Value};
use crate::store::rating::{self, band_levels, rank_band, PlayerRating, RatedGame, RatingUpdate};
use crate::store::{to_db_id, PlayerResult, BOT_USER_ID};

/// The stored finished games of one server (`Some(guild)`, as stored) or of all, in the order they
/// finished, with their players, as the rating replay needs them.
fn rated_games(db: &mut dyn Db, guild: Option<i64>) -> Result<Vec<RatedGame>, DbError> {
    let rows = db.query(RATED_GAMES, params![guild])?;
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let id = row.int(0)?;
        let players = db
            .query(GAME_PLAYERS, params![id])?
            .iter()
            .map(player)
            .collect::<Result<Vec<_>, _>>()?;
        games.push(RatedGame {
            id,
            guild: row.int(1)?,
            rated: row.bool(2)?,
            drawn: rating::is_drawn(&players, &row.text(3)?),
            players,
        });
    }
    Ok(games)
}

/// Rebuilds every rating from the stored finished games in the order they finished. `first` (the
/// migration that added ratings, or a repair of a file from before it): games stored before it get
/// whether they count from [`rating::rated_by_default`] and their computer players' levels from
/// their names, and the ratings are written without their rank bands (that migration comes before
/// the bands: [`recount_rating_bands`] counts them).
pub fn recompute_ratings(db: &mut dyn Db, first: bool) -> Result<(), DbError> {
    let mut games = rated_games(db, None)?;
    if first {
        for game in &mut games {
            game.rated = rating::rated_by_default(&game.players);
            db.execute(SET_RATED, params![game.id, game.rated])?;
            for (seat, p) in game.players.iter_mut().enumerate() {
                if p.user_id == BOT_USER_ID && p.bot_level.is_none() {
                    p.bot_level = rating::level_from_name(&p.name).map(str::to_string);
                    let seat = i64::try_from(seat).unwrap_or(i64::MAX);
                    db.execute(
                        SET_BOT_LEVEL,
                        params![game.id, seat, p.bot_level.as_deref()],
                    )?;
                }
            }
        }
    }
    db.batch(if first {
        CLEAR_RATINGS_UNBANDED
    } else {
        CLEAR_RATINGS
    })?;
    for (game_id, guild, update) in rating::replay_all(&games) {
        if first {
            write_unbanded(db, game_id, guild, &update)?;
        } else {
            write_rating(db, game_id, guild, &update)?;
        }
    }
    Ok(())
}

/// The change of `update`'s player's rating in game `game_id`, stored.
fn write_change(
    db: &mut dyn Db,
    game_id: i64,
    guild: i64,
    update: &RatingUpdate,
) -> Result<(), DbError> {
    db.execute(
        WRITE_CHANGE,
        params![
            game_id,
            guild,
            to_db_id(update.user_id),
            update.before.conservative(),
            update.after.conservative()
        ],
    )?;
    Ok(())
}

/// [`write_rating`] before the rank bands existed.
fn write_unbanded(
    db: &mut dyn Db,
    game_id: i64,
    guild: i64,
    update: &RatingUpdate,
) -> Result<(), DbError> {
    let after = update.after;
    db.execute(
        WRITE_RATING_UNBANDED,
        params![
            guild,
            to_db_id(update.user_id),
            update.name.as_str(),
            after.mu,
            after.sigma,
            after.conservative(),
            i64::from(after.games)
        ],
    )?;
    write_change(db, game_id, guild, update)
}

/// Rebuilds one server's ratings (and their changes) from its stored finished games, as
/// [`recompute_ratings`] does for all; how many games it read.
pub fn recompute_guild_ratings(db: &mut dyn Db, guild: i64) -> Result<usize, DbError> {
    let games = rated_games(db, Some(guild))?;
    db.execute(CLEAR_GUILD_RATINGS, params![guild])?;
    db.execute(CLEAR_GUILD_CHANGES, params![guild])?;
    db.execute(CLEAR_GUILD_BANDS, params![guild])?;
    for (game_id, guild, update) in rating::replay_all(&games) {
        write_rating(db, game_id, guild, &update)?;
    }
    Ok(games.len())
}

/// `players` (1 or -1) added to the kept counts of a fine band and of the bands holding it.
fn count_in_band(db: &mut dyn Db, guild: i64, fine: i64, players: i64) -> Result<(), DbError> {
    for (level, band) in (0i64..).zip(band_levels(fine)) {
        db.execute(ADD_TO_BAND, params![guild, level, band, players])?;
    }
    Ok(())
}

/// Counts every stored rating's rank band again (the migration that added them): each rating's
/// band, and the kept counts per server and band.
pub fn recount_rating_bands(db: &mut dyn Db) -> Result<(), DbError> {
    db.execute(CLEAR_BANDS, params![])?;
    let mut counts: HashMap<(i64, i64), i64> = HashMap::new();
    for row in db.query(ALL_RATINGS, params![])? {
        let (guild, user) = (row.int(0)?, row.int(1)?);
        let conservative = match row.value(2) {
            Value::Real(x) => *x,
            Value::Int(n) => *n as f64,
            _ => f64::NAN,
        };
        let band = rank_band(conservative);
        db.execute(SET_RATING_BAND, params![guild, user, band])?;
        *counts.entry((guild, band)).or_default() += 1;
    }
    for ((guild, band), players) in counts {
        count_in_band(db, guild, band, players)?;
    }
    Ok(())
}

/// Stores one player's rating after a game, and its change; the kept band counts follow it.
pub fn write_rating(
    db: &mut dyn Db,
    game_id: i64,
    guild: i64,
    update: &RatingUpdate,
) -> Result<(), DbError> {
    let after = update.after;
    let before = db
        .query_opt(RATING_BAND, params![guild, to_db_id(update.user_id)])?
        .map(|row| match row.value(0) {
            Value::Int(band) => Some(*band),
            _ => None,
        });
    let band = rank_band(after.conservative());
    db.execute(
        WRITE_RATING,
        params![
            guild,
            to_db_id(update.user_id),
            update.name.as_str(),
            after.mu,
            after.sigma,
            after.conservative(),
            i64::from(after.games),
            band
        ],
    )?;
    match before {
        Some(Some(old)) if old == band => {}
        Some(Some(old)) => {
            count_in_band(db, guild, old, -1)?;
            count_in_band(db, guild, band, 1)?;
        }
        // A damaged band (not a number) was never counted where it stands; a new rating is counted.
        Some(None) | None => count_in_band(db, guild, band, 1)?,
    }
    write_change(db, game_id, guild, update)
}

/// The stored ratings of a game's human players on a server, and what was damaged among them
/// (damaged ratings are left out).
pub fn current_ratings(
    db: &mut dyn Db,
    guild: i64,
    players: &[PlayerResult],
) -> Result<(HashMap<u64, PlayerRating>, Option<String>), DbError> {
    let mut current = HashMap::new();
    let mut damage = None;
    for p in players.iter().filter(|p| p.user_id != BOT_USER_ID) {
        match db
            .query_opt(RATING, params![guild, to_db_id(p.user_id)])?
            .map(|row| stored_rating(&row, 0))
        {
            Some(Ok(rating)) => {
                current.insert(p.user_id, rating);
            }
            Some(Err(what)) => damage = Some(format!("user {}: {what}", p.user_id)),
            None => {}
        }
    }
    Ok((current, damage))
}
