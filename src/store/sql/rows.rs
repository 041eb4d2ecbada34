//! Reading single stored rows into the store's types, shared by the reads ([`super::reads`]) and the
//! rating recomputation ([`super::ratings`]): a finished game's player, a stored rating and a stored
//! rating change (telling a damaged stored rating from a good one).

use super::{DbError, Row, Value};
use crate::store::rating::{self, PlayerRating};
use crate::store::{count_from_db, from_db_id, PlayerResult};

/// A player of a finished game, from a row of [`super::queries::GAME_PLAYERS`].
pub fn player(row: &Row) -> Result<PlayerResult, DbError> {
    Ok(PlayerResult {
        user_id: from_db_id(row.int(0)?),
        name: row.text(1)?,
        team: u8::try_from(row.int(2)?).unwrap_or(u8::MAX),
        won: row.bool(3)?,
        sequences: count_from_db(row.int(4)?),
        bot_level: row.opt_text(5)?,
        gave_up: row.bool(6)?,
    })
}

/// A rating as stored (mu, sigma, conservative, games from column `at`), or what is wrong with it:
/// values the rating code cannot have written (see [`PlayerRating::from_stored`]; in SQLite a NaN
/// reads as `NULL`, and any column may hold text).
pub fn stored_rating(row: &Row, at: usize) -> Result<PlayerRating, String> {
    let values = [
        row.value(at),
        row.value(at + 1),
        row.value(at + 2),
        row.value(at + 3),
    ];
    let rating = match values {
        [mu, sigma, conservative, Value::Int(games)] => {
            match (real(mu), real(sigma), real(conservative)) {
                (Some(mu), Some(sigma), Some(conservative)) => {
                    PlayerRating::from_stored(mu, sigma, conservative, *games)
                }
                _ => None,
            }
        }
        _ => None,
    };
    rating.ok_or_else(|| {
        format!(
            "mu {}, sigma {}, conservative {}, games {}",
            values[0].describe(),
            values[1].describe(),
            values[2].describe(),
            values[3].describe()
        )
    })
}

/// A rating change as stored (conservative rating before and after, columns 0 and 1), or what is
/// wrong with it.
pub fn stored_change(row: &Row) -> Result<f64, String> {
    let (before, after) = (row.value(0), row.value(1));
    let plausible = |v| real(v).filter(|&x| rating::is_plausible_conservative(x));
    match (plausible(before), plausible(after)) {
        (Some(before), Some(after)) => Ok(after - before),
        _ => Err(format!(
            "a change from {} to {}",
            before.describe(),
            after.describe()
        )),
    }
}

/// A stored number as `f64` (`None` for text, bytes or `NULL`, which a NaN reads as in SQLite).
fn real(value: &Value) -> Option<f64> {
    match value {
        Value::Real(x) => Some(*x),
        // SQLite keeps a whole REAL as an integer when it can.
        Value::Int(n) => Some(*n as f64),
        _ => None,
    }
}
