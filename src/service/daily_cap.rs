//! The daily cap on rated games between the same players (docs/playing.md, *Ratings*, "Daily limit";
//! `rated_games_per_day` in `[limits]`, default 5, 0 for no cap): the rule, its window and its count,
//! in one place.
//!
//! - **What counts**: rated games of one server in which two human accounts played on opposing
//!   teams, as one meeting of that pair per game (teammates never meet; computer players never
//!   count). A game counts once it finished rated (read from the store), and already while it runs
//!   rated in another channel of the server (`Table::running_rated`), so that games started side by
//!   side are decided one after the other; a running game that ends aborted, or that a hint makes
//!   casual, stops counting.
//! - **When it resets**: never at a fixed hour. The window is the last [`WINDOW`] (24 hours),
//!   rolling: a game stops counting 24 hours after it finished.
//! - **What players see**: a lobby in which any two of the human players have reached the cap says
//!   so on its card, before it starts, and the game then starts casual: the start message and the
//!   final message say it is casual because of the cap (`RatingNote::CasualLimit`, kept as
//!   `Playing::daily_limit`). Casual games still count in the totals.
//! - A store that cannot answer allows the game: the cap is a guard, not a reason to refuse play.
//!
//! The registry reads the meetings before every lobby command ([`recent`], through
//! `Tables::recent_meetings`), and the lobby decides with [`reached`] (`Table::lobby_rating` for the
//! card, `Table::begin` for the game).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::store::{Store, BOT_USER_ID};

use super::ids::GuildId;

/// How far back a rated game counts toward the cap: a rolling day.
pub const WINDOW: Duration = Duration::from_secs(24 * 60 * 60);

/// Rated games between players within the [`WINDOW`], by pair of user ids (smaller first), as
/// [`meetings`] counts them: what the cap is checked against.
pub type Meetings = Arc<HashMap<(u64, u64), u32>>;

/// How many rated games two players played against each other (on different teams) in a list of
/// recent rated games, each given as its human players with their teams. The key is the pair of
/// user ids, smaller first.
pub fn meetings(games: &[Vec<(u64, u8)>]) -> HashMap<(u64, u64), u32> {
    let mut counts: HashMap<(u64, u64), u32> = HashMap::new();
    for game in games {
        let mut pairs: Vec<(u64, u64)> = Vec::new();
        for (i, &(a, team_a)) in game.iter().enumerate() {
            for &(b, team_b) in game.iter().skip(i + 1) {
                if a != b && team_a != team_b && a != BOT_USER_ID && b != BOT_USER_ID {
                    pairs.push((a.min(b), a.max(b)));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for pair in pairs {
            *counts.entry(pair).or_default() += 1;
        }
    }
    counts
}

/// Whether any two of `users` already played `limit` rated games against each other according to
/// `met` (from [`meetings`]); a `limit` of 0 means no cap.
pub fn reached(met: &HashMap<(u64, u64), u32>, users: &[u64], limit: u32) -> bool {
    if limit == 0 {
        return false;
    }
    users.iter().enumerate().any(|(i, &a)| {
        users.iter().skip(i + 1).any(|&b| {
            a != b
                && met
                    .get(&(a.min(b), a.max(b)))
                    .is_some_and(|&count| count >= limit)
        })
    })
}

/// The start of the window that ends at `now_ms` (unix milliseconds).
pub fn window_start(now_ms: i64) -> i64 {
    let window = i64::try_from(WINDOW.as_millis()).unwrap_or(i64::MAX);
    now_ms.saturating_sub(window)
}

/// The meetings a lobby of `guild` is checked against at `now_ms`: the rated games of the server
/// that finished within the [`WINDOW`] (from `store`) and those `running` in its other channels
/// (each as its humans with their teams). Nothing to read without a server or a store, for a lobby
/// asked to be casual, or without a cap; a store that cannot answer counts nothing (logged).
pub fn recent(
    store: Option<&dyn Store>,
    guild: Option<GuildId>,
    casual: bool,
    limit: u32,
    running: impl Iterator<Item = Vec<(u64, u8)>>,
    now_ms: i64,
) -> Meetings {
    let (Some(store), Some(guild)) = (store, guild) else {
        return Meetings::default();
    };
    if casual || limit == 0 {
        return Meetings::default();
    }
    let mut games = store
        .rated_games_since(Some(guild.0), window_start(now_ms))
        .unwrap_or_else(|e| {
            tracing::warn!(guild = guild.0, "cannot read the day's rated games: {e}");
            Vec::new()
        });
    games.extend(running);
    Arc::new(meetings(&games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meetings_count_opponents_once_per_game_and_the_limit_applies_to_any_pair() {
        let games = vec![
            vec![(1, 0), (2, 1)],
            vec![(2, 0), (1, 1), (3, 1)],
            vec![(1, 0), (3, 0), (2, 1), (2, 1)],
            vec![(1, 0), (2, 0)],
        ];
        let met = meetings(&games);
        assert_eq!(met.get(&(1, 2)), Some(&3));
        assert_eq!(met.get(&(2, 3)), Some(&2));
        assert_eq!(met.get(&(1, 3)), None, "teammates never met as opponents");
        assert!(reached(&met, &[2, 1], 3));
        assert!(!reached(&met, &[2, 1], 4));
        assert!(reached(&met, &[3, 4, 2], 2));
        assert!(!reached(&met, &[1, 3, 4], 1));
        assert!(!reached(&met, &[1, 2], 0), "0: no limit");
    }

    #[test]
    fn computer_players_never_meet_anyone() {
        let games = vec![
            vec![(1, 0), (BOT_USER_ID, 1)],
            vec![(BOT_USER_ID, 0), (2, 1)],
        ];
        assert!(meetings(&games).is_empty());
    }

    #[test]
    fn the_window_is_the_last_24_hours() {
        let day_ms = 24 * 60 * 60 * 1000;
        assert_eq!(window_start(10 * day_ms), 9 * day_ms);
        assert_eq!(window_start(5), 5 - day_ms);
        assert_eq!(window_start(i64::MIN), i64::MIN, "no overflow");
    }
}
