//! Skill ratings per server and player: Weng-Lin (the OpenSkill model) from the `skillratings` crate.
//!
//! A rating is a mean `mu` and an uncertainty `sigma`; a new player starts at 25 ± 8.33. What the
//! leaderboard ranks by is the conservative rating `mu - 3 sigma` (the player is at least this strong
//! with about 99.9% certainty), so a lucky first game does not put anyone on top.
//!
//! Computer players take part with fixed ratings ([`bot_rating`]) that never change: beating `easy`
//! (random legal moves) is worth little, losing to it costs a lot. The numbers come from the `arena`
//! figures in docs/development.md: with `sigma = 1` for a computer level, the Weng-Lin win probability
//! `1 / (1 + exp(-(mu_a - mu_b) / c))`, `c = sqrt(sigma_a² + sigma_b² + 2 beta²)` (beta = 25/6, the
//! crate's default), gives `c = 6.06` between two levels. `medium` beat `easy` 397 of 400 times
//! (99.25%), so `medium - easy = c * ln(397 / 3) = 29.6`; `hard` beat `medium` 64.5% of the time, so
//! `hard - medium = c * ln(0.645 / 0.355) = 3.6`. `medium` is anchored at 25, where a new player
//! starts: easy = -4.6, medium = 25.0, hard = 28.6.

use std::collections::HashMap;

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use super::{PlayerResult, BOT_USER_ID};
use crate::engine::record::Record;
use crate::engine::Status;

/// A player with fewer rated games than this is marked provisional.
pub const PROVISIONAL_GAMES: u32 = 5;

/// The uncertainty of a computer level's fixed rating.
const BOT_SIGMA: f64 = 1.0;

/// The largest `|mu|` a stored rating may have. New players start at 25 and computer levels sit
/// between -4.6 and 28.6; each game moves `mu` by at most about `sigma² / c` (under 12 for a new
/// player, less as `sigma` shrinks): a value beyond this is damage, not play.
pub const MU_LIMIT: f64 = 1000.0;

/// A player's rating on one server.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerRating {
    /// The mean skill estimate.
    pub mu: f64,
    /// The uncertainty of `mu` (one standard deviation).
    pub sigma: f64,
    /// Rated games played.
    pub games: u32,
}

impl Default for PlayerRating {
    fn default() -> Self {
        let start = WengLinRating::new();
        PlayerRating {
            mu: start.rating,
            sigma: start.uncertainty,
            games: 0,
        }
    }
}

impl PlayerRating {
    /// The rating the leaderboard ranks by: `mu - 3 sigma`.
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }

    /// Whether the player has too few rated games for the rating to mean much.
    pub fn is_provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES
    }

    /// A rating as stored (`mu`, `sigma`, the conservative value stored beside them for ordering,
    /// rated games), or `None` if it is not one the rating code can have written: `mu` and `sigma`
    /// finite, `|mu|` at most [`MU_LIMIT`], `sigma` above 0 and at most a new player's (a game only
    /// ever lowers it), the conservative value `mu - 3 sigma`, at least one game.
    pub fn from_stored(mu: f64, sigma: f64, conservative: f64, games: i64) -> Option<PlayerRating> {
        let start = PlayerRating::default().sigma;
        let rating = PlayerRating {
            mu,
            sigma,
            games: u32::try_from(games).ok().filter(|&g| g >= 1)?,
        };
        let plausible = mu.is_finite()
            && mu.abs() <= MU_LIMIT
            && sigma.is_finite()
            && sigma > 0.0
            && sigma <= start * (1.0 + 1e-9)
            && (conservative - rating.conservative()).abs() <= 1e-6;
        plausible.then_some(rating)
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: self.mu,
            uncertainty: self.sigma,
        }
    }
}

/// The rating players see for a conservative rating: [`SHOWN_START`] for a new player (conservative
/// 0), [`SHOWN_PER_POINT`] for each point of it, rounded to a whole number. A linear map, so the
/// leaderboard's order (by the conservative rating) is the order of the numbers shown.
pub fn shown_rating(conservative: f64) -> i64 {
    shown_points(SHOWN_START + SHOWN_PER_POINT * conservative)
}

/// A change of the conservative rating as players see it: [`SHOWN_PER_POINT`] for each point.
pub fn shown_change(change: f64) -> i64 {
    shown_points(SHOWN_PER_POINT * change)
}

/// Rounded to a whole number; a value that is not finite (damage) shows as 0.
fn shown_points(x: f64) -> i64 {
    let r = x.round();
    if r.is_finite() {
        r.clamp(-1e12, 1e12) as i64
    } else {
        0
    }
}

/// What a new player's rating shows: a round number people know from chess ratings.
pub const SHOWN_START: f64 = 1500.0;

/// Shown points for each point of the conservative rating. Between two settled players (sigma about
/// 1, as the computer levels) a difference of `d` points of `mu` gives the Weng-Lin win probability
/// `1 / (1 + e^(-d / 6.06))`; Elo's is `1 / (1 + 10^(-D / 400))` for `D` points, the same when
/// `D = d * 400 / (6.06 * ln 10) = 28.7 d`: with 30, a difference of 100 shown points means about
/// the odds it means in chess (63% here, 64% there).
pub const SHOWN_PER_POINT: f64 = 30.0;

/// Fine rank bands in one conservative point: hundredths.
pub const BANDS_PER_POINT: i64 = 100;

/// The fine rank band of a conservative rating: its hundredths, rounded down (0 for a value that is
/// not finite, which only damage writes). The counts kept per band at three levels (a whole point,
/// a tenth, a hundredth) answer a rank by summing the whole-point bands of the server's range, at
/// most 9 tenths and 9 hundredths, then counting the players of one hundredth (a third of a shown
/// point), whatever the number of players (issue 44).
pub fn rank_band(conservative: f64) -> i64 {
    let band = (conservative * BANDS_PER_POINT as f64).floor();
    if band.is_finite() {
        band.clamp(-1e15, 1e15) as i64
    } else {
        0
    }
}

/// The band of a fine band at each level of the kept counts: a whole point (level 0), a tenth
/// (level 1), a hundredth (level 2, the fine band itself).
pub fn band_levels(fine: i64) -> [i64; 3] {
    [fine.div_euclid(BANDS_PER_POINT), fine.div_euclid(10), fine]
}

/// What the rank query (`store/sql/queries.rs`, `RATING_RANK`) takes for a conservative rating:
/// its bands at the three levels (see [`band_levels`]), then the first tenth of the next point and
/// the first hundredth of the next tenth.
pub fn rank_bands(conservative: f64) -> [i64; 5] {
    let [point, tenth, fine] = band_levels(rank_band(conservative));
    [point, tenth, fine, (point + 1) * 10, (tenth + 1) * 10]
}

/// The fixed rating of a computer level (`easy`, `medium`, `hard`; anything else counts as `medium`).
pub fn bot_rating(level: Option<&str>) -> WengLinRating {
    let mu = match level {
        Some("easy") => -4.6,
        Some("hard") => 28.6,
        _ => 25.0,
    };
    WengLinRating {
        rating: mu,
        uncertainty: BOT_SIGMA,
    }
}

/// The level of a computer player stored before levels were kept, read from its name ("Computer 2
/// (medium)" in any of the bot's languages); `None` if the name says nothing.
pub fn level_from_name(name: &str) -> Option<&'static str> {
    let level = name.rsplit_once('(')?.1.trim_end_matches(')').trim();
    match level {
        "easy" | "leicht" | "lett" => Some("easy"),
        "medium" | "mittel" | "middels" => Some("medium"),
        "hard" | "schwer" | "vanskelig" => Some("hard"),
        _ => None,
    }
}

/// Whether a game counts for ratings unless its lobby said otherwise: at least two teams have a human.
pub fn rated_by_default(players: &[PlayerResult]) -> bool {
    let mut teams: Vec<u8> = players
        .iter()
        .filter(|p| p.user_id != BOT_USER_ID)
        .map(|p| p.team)
        .collect();
    teams.sort_unstable();
    teams.dedup();
    teams.len() >= 2
}

/// Whether a finished game without a winner ended in a draw (and not by being stopped): its record
/// replays to a drawn position.
pub fn is_drawn(players: &[PlayerResult], record_json: &str) -> bool {
    if players.iter().any(|p| p.won) {
        return false;
    }
    Record::from_json(record_json)
        .ok()
        .and_then(|record| record.replay().ok())
        .and_then(Result::ok)
        .is_some_and(|game| game.position().status() == Status::Drawn)
}

/// One player's rating before and after a game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    /// The user.
    pub user_id: u64,
    /// Their name in the game.
    pub name: String,
    /// Before the game.
    pub before: PlayerRating,
    /// After the game.
    pub after: PlayerRating,
}

/// The rating changes of one finished game, one per human user in seat order: winners rank first,
/// every other team shares second place, a draw ranks everyone first. A player who gave up keeps the
/// loss even if their team went on to win, and also when the game ended without a winner (stopped by
/// a moderator who was not playing): then only those who gave up are rated. Nothing changes for a
/// user sitting on two teams.
///
/// A team's strength is that of its human players only: computer teammates of humans neither add
/// nor take away (a computer's fixed rating would otherwise turn a win over a second account into a
/// huge upset). A team of computers only plays with the computers' fixed level ratings.
pub fn rate_game(
    players: &[PlayerResult],
    drawn: bool,
    current: &HashMap<u64, PlayerRating>,
) -> Vec<RatingUpdate> {
    let won = players.iter().any(|p| p.won);
    let decided = won || drawn;
    if !decided
        && !players
            .iter()
            .any(|p| p.gave_up && p.user_id != BOT_USER_ID)
    {
        return Vec::new();
    }
    let mut teams: Vec<u8> = players.iter().map(|p| p.team).collect();
    teams.sort_unstable();
    teams.dedup();
    if teams.len() < 2 {
        return Vec::new();
    }
    let humans: Vec<&PlayerResult> = players
        .iter()
        .filter(|p| p.user_id != BOT_USER_ID)
        .collect();
    let on_two_teams = humans.iter().any(|p| {
        humans
            .iter()
            .any(|q| q.user_id == p.user_id && q.team != p.team)
    });
    if on_two_teams {
        return Vec::new();
    }
    let rating_of = |p: &PlayerResult| match p.user_id {
        BOT_USER_ID => bot_rating(p.bot_level.as_deref()),
        user => current.get(&user).copied().unwrap_or_default().weng_lin(),
    };
    let rank_of = |team: u8, lost: Option<u8>| -> usize {
        if Some(team) == lost {
            3
        } else if drawn || players.iter().any(|p| p.team == team && p.won) {
            1
        } else {
            2
        }
    };
    // Each team's roster for the update: its humans, or its computers when it has no human.
    let rosters: Vec<Vec<&PlayerResult>> = teams
        .iter()
        .map(|&t| {
            let seats: Vec<&PlayerResult> = players.iter().filter(|p| p.team == t).collect();
            if seats.iter().any(|p| p.user_id != BOT_USER_ID) {
                seats
                    .into_iter()
                    .filter(|p| p.user_id != BOT_USER_ID)
                    .collect()
            } else {
                seats
            }
        })
        .collect();
    // Every team plays with as many members as the largest team has humans (a team's strength is
    // the sum of its members'): a team with fewer humans is filled up to that count with members at
    // its humans' mean, a team of computers only with members at its levels' mean. So a lone human
    // (with computer teammates or alone) against four humans is measured as one of four members of
    // equal strength, and gets that member's share of the team's update, not the whole of it; and a
    // lone human beside a computer teammate is measured against one computer, not two summed.
    let size = rosters
        .iter()
        .filter(|r| r.iter().any(|p| p.user_id != BOT_USER_ID))
        .map(Vec::len)
        .max();
    let strengths: Vec<Vec<WengLinRating>> = rosters
        .iter()
        .map(|roster| {
            let mut ratings: Vec<WengLinRating> = roster.iter().map(|p| rating_of(p)).collect();
            let Some(size) = size else {
                return ratings;
            };
            let count = ratings.len().max(1) as f64;
            let mean = WengLinRating {
                rating: ratings.iter().map(|r| r.rating).sum::<f64>() / count,
                uncertainty: (ratings.iter().map(|r| r.uncertainty.powi(2)).sum::<f64>() / count)
                    .sqrt(),
            };
            if roster.iter().all(|p| p.user_id == BOT_USER_ID) {
                vec![mean; size]
            } else {
                // The humans first (their updates are read by seat index), then the fillers.
                ratings.resize(size.max(ratings.len()), mean);
                ratings
            }
        })
        .collect();
    // The result with the real ranks and, for each team with a player who gave up, with that team
    // ranked below everyone.
    let config = WengLinConfig::new();
    let run = |lost: Option<u8>| -> Vec<Vec<WengLinRating>> {
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&strengths)
            .map(|(&t, roster)| (roster.as_slice(), MultiTeamOutcome::new(rank_of(t, lost))))
            .collect();
        weng_lin_multi_team(&input, &config)
    };
    let result = run(None);
    let mut gave_up_results: HashMap<u8, Vec<Vec<WengLinRating>>> = HashMap::new();
    let mut updates: Vec<RatingUpdate> = Vec::new();
    for (ti, (&team, roster)) in teams.iter().zip(&rosters).enumerate() {
        for (si, p) in roster.iter().enumerate() {
            if p.user_id == BOT_USER_ID || updates.iter().any(|u| u.user_id == p.user_id) {
                continue;
            }
            // Without a result only those who gave up are rated: as a loss.
            if !decided && !p.gave_up {
                continue;
            }
            let new = if p.gave_up && (!decided || !matches!(rank_of(team, None), 2)) {
                gave_up_results
                    .entry(team)
                    .or_insert_with(|| run(Some(team)))
            } else {
                &result
            }
            .get(ti)
            .and_then(|roster| roster.get(si))
            .copied();
            let before = current.get(&p.user_id).copied().unwrap_or_default();
            let Some(new) = new.filter(|r| r.rating.is_finite() && r.uncertainty.is_finite())
            else {
                continue;
            };
            updates.push(RatingUpdate {
                user_id: p.user_id,
                name: p.name.clone(),
                before,
                after: PlayerRating {
                    mu: new.rating,
                    sigma: new.uncertainty,
                    games: before.games.saturating_add(1),
                },
            });
        }
    }
    updates
}

/// Whether a stored conservative rating (of a rating change) is one the rating code can have
/// written: finite, within what [`PlayerRating::from_stored`] accepts.
pub fn is_plausible_conservative(value: f64) -> bool {
    value.is_finite() && value.abs() <= MU_LIMIT + 3.0 * PlayerRating::default().sigma
}

/// A stored finished game as the rating replay needs it.
pub struct RatedGame {
    /// The game's id.
    pub id: i64,
    /// The server (as stored).
    pub guild: i64,
    /// Whether it counts.
    pub rated: bool,
    /// Whether it ended in a draw.
    pub drawn: bool,
    /// Every seat.
    pub players: Vec<PlayerResult>,
}

/// Every server's ratings from its rated games in the order they finished: the updates of each game
/// (game id, server, update), for the migration that computes ratings for games stored before them.
pub fn replay_all(games: &[RatedGame]) -> Vec<(i64, i64, RatingUpdate)> {
    let mut ratings: HashMap<i64, HashMap<u64, PlayerRating>> = HashMap::new();
    let mut out = Vec::new();
    for game in games.iter().filter(|g| g.rated) {
        let current = ratings.entry(game.guild).or_default();
        for update in rate_game(&game.players, game.drawn, current) {
            current.insert(update.user_id, update.after);
            out.push((game.id, game.guild, update));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use skillratings::weng_lin::expected_score_multi_team;

    use super::*;

    fn seat(user_id: u64, team: u8, won: bool) -> PlayerResult {
        PlayerResult {
            user_id,
            name: format!("p{user_id}"),
            team,
            won,
            sequences: 0,
            bot_level: None,
            gave_up: false,
        }
    }

    fn bot(level: &str, team: u8, won: bool) -> PlayerResult {
        PlayerResult {
            user_id: BOT_USER_ID,
            name: format!("Computer ({level})"),
            bot_level: Some(level.to_string()),
            ..seat(BOT_USER_ID, team, won)
        }
    }

    fn after(updates: &[RatingUpdate], user: u64) -> PlayerRating {
        updates
            .iter()
            .find(|u| u.user_id == user)
            .map(|u| u.after)
            .expect("an update for the user")
    }

    #[test]
    fn computer_levels_reproduce_the_arena_results() {
        let config = WengLinConfig::new();
        let p = |a: &str, b: &str| {
            expected_score_multi_team(&[&[bot_rating(Some(a))], &[bot_rating(Some(b))]], &config)[0]
        };
        assert!(
            (p("medium", "easy") - 397.0 / 400.0).abs() < 0.002,
            "{}",
            p("medium", "easy")
        );
        assert!(
            (p("hard", "medium") - 0.645).abs() < 0.005,
            "{}",
            p("hard", "medium")
        );
    }

    /// The worst a player can do: lose every game to `easy` (the weakest opponent, so each loss costs
    /// the most), `n` games in a row.
    fn losses_to_easy(n: u32) -> Vec<PlayerRating> {
        let mut current = HashMap::new();
        let mut out = Vec::new();
        for _ in 0..n {
            let update = after(
                &rate_game(&[seat(1, 0, false), bot("easy", 1, true)], false, &current),
                1,
            );
            current.insert(1, update);
            out.push(update);
        }
        out
    }

    #[test]
    fn the_shown_scale_starts_at_1500_moves_by_tens_and_is_never_negative_for_a_newcomer() {
        assert_eq!(shown_rating(PlayerRating::default().conservative()), 1500);
        assert_eq!(shown_rating(-3.1), 1407);
        assert_eq!(shown_rating(6.2), 1686);
        assert_eq!(shown_change(-0.51), -15);
        assert_eq!(shown_rating(f64::NAN), 0);
        // The order of the shown numbers is the leaderboard's (a linear map).
        assert!(shown_rating(0.2) > shown_rating(0.1) && shown_rating(-0.1) < 1500);
        // Two wins or two losses against a new player, as in issue 44: the tens, not the thousands.
        let mut current = HashMap::new();
        for _ in 0..2 {
            for u in rate_game(&[seat(1, 0, true), seat(2, 1, false)], false, &current) {
                current.insert(u.user_id, u.after);
            }
        }
        let (won, lost) = (
            shown_rating(current[&1].conservative()),
            shown_rating(current[&2].conservative()),
        );
        assert!(
            (1600..1800).contains(&won) && (1300..1500).contains(&lost),
            "{won} {lost}"
        );
        // A provisional player who lost every game to `easy` is still far above 0, and so is anyone
        // after a hundred such losses.
        let worst = losses_to_easy(100);
        let provisional = worst[PROVISIONAL_GAMES as usize - 2];
        assert!(provisional.is_provisional());
        assert!(
            shown_rating(provisional.conservative()) > 500,
            "{provisional:?}"
        );
        let last = worst.last().copied().unwrap_or_default();
        assert!(shown_rating(last.conservative()) > 0, "{last:?}");
    }

    #[test]
    fn one_vs_one_moves_winner_up_and_loser_down() {
        let updates = rate_game(
            &[seat(1, 0, true), seat(2, 1, false)],
            false,
            &HashMap::new(),
        );
        assert_eq!(updates.len(), 2);
        let (a, b) = (after(&updates, 1), after(&updates, 2));
        assert!(a.mu > 25.0 && b.mu < 25.0, "{a:?} {b:?}");
        assert!(a.sigma < 25.0 / 3.0 && b.sigma < 25.0 / 3.0);
        assert_eq!((a.games, b.games), (1, 1));
    }

    #[test]
    fn beating_easy_is_worth_little_and_losing_to_it_costs_a_lot() {
        let win = after(
            &rate_game(
                &[seat(1, 0, true), bot("easy", 1, false)],
                false,
                &HashMap::new(),
            ),
            1,
        );
        let loss = after(
            &rate_game(
                &[seat(1, 0, false), bot("easy", 1, true)],
                false,
                &HashMap::new(),
            ),
            1,
        );
        let human = after(
            &rate_game(
                &[seat(1, 0, true), seat(2, 1, false)],
                false,
                &HashMap::new(),
            ),
            1,
        );
        assert!(win.mu - 25.0 < 1.0, "{win:?}");
        assert!(win.mu - 25.0 < (human.mu - 25.0) / 3.0, "{win:?} {human:?}");
        assert!(25.0 - loss.mu > 5.0, "{loss:?}");
        assert!(25.0 - loss.mu > 10.0 * (win.mu - 25.0), "{win:?} {loss:?}");
        // Only humans are updated: the computer's rating is fixed.
        assert_eq!(
            rate_game(
                &[seat(1, 0, true), bot("easy", 1, false)],
                false,
                &HashMap::new()
            )
            .len(),
            1
        );
    }

    #[test]
    fn two_vs_two_updates_every_player_and_a_quitter_keeps_the_loss() {
        let mut quitter = seat(2, 0, true);
        quitter.gave_up = true;
        let players = [
            seat(1, 0, true),
            seat(3, 1, false),
            quitter,
            seat(4, 1, false),
        ];
        let updates = rate_game(&players, false, &HashMap::new());
        assert_eq!(updates.len(), 4);
        assert!(after(&updates, 1).mu > 25.0);
        assert!(after(&updates, 2).mu < 25.0, "the player who gave up lost");
        assert!(after(&updates, 3).mu < 25.0 && after(&updates, 4).mu < 25.0);
    }

    #[test]
    fn three_teams_winner_up_and_the_others_down_and_draws_move_little() {
        let players = [seat(1, 0, false), seat(2, 1, true), seat(3, 2, false)];
        let updates = rate_game(&players, false, &HashMap::new());
        assert_eq!(updates.len(), 3);
        assert!(after(&updates, 2).mu > 25.0);
        assert!(after(&updates, 1).mu < 25.0 && after(&updates, 3).mu < 25.0);
        let drawn = rate_game(
            &[seat(1, 0, false), seat(2, 1, false), seat(3, 2, false)],
            true,
            &HashMap::new(),
        );
        assert_eq!(drawn.len(), 3);
        for u in &drawn {
            assert!((u.after.mu - 25.0).abs() < 1e-6, "{u:?}");
            assert!(u.after.sigma < u.before.sigma);
        }
    }

    #[test]
    fn stopped_games_and_one_team_games_change_nothing() {
        let stopped = [seat(1, 0, false), seat(2, 1, false)];
        // Nobody gave up: nobody is rated.
        assert!(rate_game(&stopped, false, &HashMap::new()).is_empty());
        assert!(rate_game(&[seat(1, 0, true)], false, &HashMap::new()).is_empty());
        assert!(rate_game(
            &[seat(1, 0, true), seat(1, 1, false)],
            false,
            &HashMap::new()
        )
        .is_empty());
    }

    #[test]
    fn computer_teammates_of_humans_neither_add_nor_take_away() {
        // The attack of issue 24: user 1 with two `easy` teammates beats user 2 with two `hard` ones.
        let mixed = [
            seat(1, 0, true),
            seat(2, 1, false),
            bot("easy", 0, true),
            bot("hard", 1, false),
            bot("easy", 0, true),
            bot("hard", 1, false),
        ];
        let plain = [seat(1, 0, true), seat(2, 1, false)];
        let with = rate_game(&mixed, false, &HashMap::new());
        let without = rate_game(&plain, false, &HashMap::new());
        assert_eq!(with, without, "computer teammates changed the update");
        // Three teams, computers spread over them: the same as the humans alone.
        let three = [
            seat(1, 0, true),
            seat(2, 1, false),
            bot("hard", 2, false),
            bot("easy", 0, true),
            bot("hard", 1, false),
            bot("medium", 2, false),
        ];
        let humans_and_bot_team = [
            seat(1, 0, true),
            seat(2, 1, false),
            bot("hard", 2, false),
            bot("medium", 2, false),
        ];
        assert_eq!(
            rate_game(&three, false, &HashMap::new()),
            rate_game(&humans_and_bot_team, false, &HashMap::new())
        );
        // A team of computers counts as many members as the largest team of humans, at its mean.
        let pair = [
            seat(1, 0, true),
            bot("hard", 1, false),
            bot("easy", 1, false),
        ];
        let mean = [seat(1, 0, true), bot("hard", 1, false)];
        let one = after(&rate_game(&pair, false, &HashMap::new()), 1);
        let hard_alone = after(&rate_game(&mean, false, &HashMap::new()), 1);
        assert!(
            one.mu < hard_alone.mu,
            "the mean of hard and easy is below hard"
        );
        // A team of computers only still plays with its level's fixed rating.
        let easy = after(
            &rate_game(
                &[seat(1, 0, true), bot("easy", 1, false)],
                false,
                &HashMap::new(),
            ),
            1,
        );
        let hard = after(
            &rate_game(
                &[seat(1, 0, true), bot("hard", 1, false)],
                false,
                &HashMap::new(),
            ),
            1,
        );
        assert!(hard.mu > easy.mu + 1.0, "{easy:?} {hard:?}");
    }

    #[test]
    fn a_game_without_a_result_rates_only_those_who_gave_up_as_a_loss() {
        let mut quitter = seat(1, 0, false);
        quitter.gave_up = true;
        let players = [
            quitter,
            seat(2, 1, false),
            seat(3, 0, false),
            seat(4, 1, false),
        ];
        let updates = rate_game(&players, false, &HashMap::new());
        assert_eq!(updates.len(), 1, "{updates:?}");
        assert!(after(&updates, 1).mu < 25.0);
        // Against a computer alone: the human who gave up loses to it.
        let mut alone = seat(1, 0, false);
        alone.gave_up = true;
        let updates = rate_game(&[alone, bot("easy", 1, true)], false, &HashMap::new());
        assert!(after(&updates, 1).mu < 20.0, "{updates:?}");
    }

    #[test]
    fn defaults_levels_and_provisional_marks() {
        assert!(rated_by_default(&[seat(1, 0, true), seat(2, 1, false)]));
        assert!(!rated_by_default(&[
            seat(1, 0, true),
            bot("easy", 1, false)
        ]));
        assert!(!rated_by_default(&[
            seat(1, 0, true),
            seat(2, 0, true),
            bot("easy", 1, false)
        ]));
        assert_eq!(level_from_name("Computer 2 (leicht)"), Some("easy"));
        assert_eq!(level_from_name("Datamaskin 1 (vanskelig)"), Some("hard"));
        assert_eq!(level_from_name("Computer (for Ada)"), None);
        // A stand-in names its level before the player it plays for: not a computer seat's name.
        assert_eq!(level_from_name("Computer (medium, for Ada)"), None);
        let mut r = PlayerRating::default();
        assert!(r.is_provisional());
        assert!((r.conservative() - 0.0).abs() < 1e-9);
        r.games = PROVISIONAL_GAMES;
        assert!(!r.is_provisional());
    }

    #[test]
    fn stored_ratings_are_accepted_only_as_the_rating_code_writes_them() {
        let played = after(
            &rate_game(
                &[seat(1, 0, true), seat(2, 1, false)],
                false,
                &HashMap::new(),
            ),
            1,
        );
        let stored = |mu: f64, sigma: f64| {
            PlayerRating::from_stored(mu, sigma, mu - 3.0 * sigma, i64::from(played.games))
        };
        assert_eq!(stored(played.mu, played.sigma), Some(played));
        let start = PlayerRating::default();
        assert!(
            stored(start.mu, start.sigma).is_some(),
            "a new player's sigma"
        );
        assert!(stored(-MU_LIMIT, 0.5).is_some());
        for (mu, sigma) in [
            (f64::NAN, played.sigma),
            (played.mu, f64::NAN),
            (f64::INFINITY, played.sigma),
            (1e11, played.sigma),
            (-MU_LIMIT - 1.0, played.sigma),
            (played.mu, -1.0),
            (played.mu, 0.0),
            (played.mu, start.sigma * 1.01),
        ] {
            assert_eq!(stored(mu, sigma), None, "mu {mu}, sigma {sigma}");
        }
        let (mu, sigma) = (played.mu, played.sigma);
        assert_eq!(
            PlayerRating::from_stored(mu, sigma, 1e11, 1),
            None,
            "ordering value"
        );
        assert_eq!(
            PlayerRating::from_stored(mu, sigma, mu - 3.0 * sigma, 0),
            None
        );
        assert_eq!(
            PlayerRating::from_stored(mu, sigma, mu - 3.0 * sigma, -3),
            None
        );
        assert!(is_plausible_conservative(played.conservative()));
        assert!(!is_plausible_conservative(f64::NAN));
        assert!(!is_plausible_conservative(-1e11));
    }

    #[test]
    fn replay_keeps_servers_apart_and_skips_unrated_games() {
        let game = |id, guild, rated| RatedGame {
            id,
            guild,
            rated,
            drawn: false,
            players: vec![seat(1, 0, true), seat(2, 1, false)],
        };
        let out = replay_all(&[
            game(1, 10, true),
            game(2, 20, true),
            game(3, 10, false),
            game(4, 10, true),
        ]);
        assert_eq!(out.len(), 6);
        let last = out
            .iter()
            .rev()
            .find(|(_, g, u)| *g == 10 && u.user_id == 1)
            .expect("u1");
        assert_eq!(last.0, 4);
        assert_eq!(last.2.after.games, 2);
        let other = out
            .iter()
            .find(|(_, g, u)| *g == 20 && u.user_id == 1)
            .expect("g20");
        assert_eq!(other.2.after.games, 1);
    }
}
