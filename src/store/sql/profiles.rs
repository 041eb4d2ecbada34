//! Players' profiles in the database, written once for both stores: what a finished game adds to each
//! human's figures, feats, achievements and head-to-head totals (inside `finish_game`'s transaction),
//! rebuilding one player's rows from their stored games when they are damaged, recomputing a server's
//! (or every server's) from the stored games, and reading them back. The caller holds the
//! transaction (and, in PostgreSQL, the server's lock, so that a server's games are added in the
//! order of their ids).
//!
//! Figures are kept as JSON of [`Figures`] per (server, player, scope): "figures" counts the games on
//! the profile ([`SeatGame::counts_on_profile`]), "feats" only those that count for achievements
//! ([`SeatGame::feats`]). An achievement row is written once, by the game that
//! reached its goal (`unlocked_at` is that game's end, so a recomputation writes the same row).

use super::queries::{
    ACHIEVEMENTS, ADD_PAIR, CLEAR_ACHIEVEMENTS, CLEAR_FIGURES, CLEAR_PAIRS, CLEAR_SHARED,
    DELETE_PLAYER_FIGURES, DELETE_PLAYER_PAIRS, DELETE_PLAYER_SHARED, GAME_PLAYERS, INSERT_SHARED,
    LAST_GAME_ID, PAIR_TOTALS, PLAYER_FIGURES, PLAYER_GAMES, PLAYER_NAME, PROFILE_GAMES,
    RATING_CHART, RATING_RANK, REBUILD_ADVANCE, REBUILD_DONE, REBUILD_LOCK, REBUILD_SHARE,
    REBUILD_START, REBUILD_STATE, SHARED_RECENT, UNLOCK, UNLOCKED_IN, WRITE_FIGURES,
};
use super::reads::opt_int;
use super::rows::player;
use super::{params, Db, DbError, Row, Value};
use crate::analysis::profile::{
    seat_games, Achievement, Feats, Figures, GameInfo, SeatGame, SeatResult,
};
use crate::engine::record::Record;
use crate::store::rating::PlayerRating;
use crate::store::{
    chat_of_scope, count_from_db, from_db_id, guild_to_db, limit_to_db, standing_scope, to_db_id,
    FinishedGame, PlayerResult, Profile, SharedGame, Store, StoreError, Unlocked, Versus,
    AGREEMENT_GAMES, BOT_USER_ID, CHART_GAMES, VERSUS_GAMES,
};

/// The scope of the figures of every game.
const FIGURES: &str = "figures";
/// The scope of the figures of the games that count for achievements.
const FEATS: &str = "feats";
/// Games read at a time by a recomputation.
const PAGE: i64 = 256;

/// A player's two totals on a server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Every game not aborted.
    pub figures: Figures,
    /// The games that count for achievements.
    pub feats: Figures,
}

/// One human seat of a game, as the head-to-head needs it.
#[derive(Clone, Copy, Debug)]
struct Human {
    user: u64,
    team: u8,
    won: bool,
    sequences: u32,
}

/// A stored game's seats as [`seat_games`] reads them.
pub fn seat_results(players: &[PlayerResult]) -> Vec<SeatResult> {
    players
        .iter()
        .map(|p| SeatResult {
            user_id: (p.user_id != BOT_USER_ID).then_some(p.user_id),
            level: p.bot_level.as_deref().and_then(|l| l.parse().ok()),
            team: p.team,
            won: p.won,
            gave_up: p.gave_up,
        })
        .collect()
}

/// A game ready to be added: what it is, its seats and what each human seat adds.
struct ProfileGame {
    variant: String,
    seats: Vec<SeatResult>,
    games: Vec<SeatGame>,
}

impl ProfileGame {
    /// The game, or `None` when its record cannot be read (a stored record always can: it was
    /// replayed before it was stored).
    fn new(
        info: GameInfo,
        variant: &str,
        players: &[PlayerResult],
        record_json: &str,
    ) -> Option<ProfileGame> {
        let seats = seat_results(players);
        let record = Record::from_json(record_json).ok()?;
        match seat_games(&info, &seats, &record) {
            Ok(games) => Some(ProfileGame {
                variant: variant.to_string(),
                seats,
                games,
            }),
            Err(e) => {
                tracing::warn!(
                    game = info.game_id,
                    "a stored game's record cannot be read for the profiles; it counts nowhere: {e}"
                );
                None
            }
        }
    }

    /// Each human seat with its results, in seat order.
    fn humans(&self) -> Vec<Human> {
        self.seats
            .iter()
            .filter_map(|s| s.user_id.map(|u| (u, s)))
            .zip(&self.games)
            .map(|((user, seat), game)| Human {
                user,
                team: seat.team,
                won: game.won,
                sequences: game.sequences,
            })
            .collect()
    }
}

/// A player's stored totals, or what is damaged in them; `None` without any row.
pub fn load_totals(
    db: &mut dyn Db,
    guild: i64,
    user: u64,
) -> Result<Result<Option<Totals>, String>, DbError> {
    let rows = db.query(PLAYER_FIGURES, params![guild, to_db_id(user)])?;
    if rows.is_empty() {
        return Ok(Ok(None));
    }
    let mut totals = Totals::default();
    let (mut figures, mut feats) = (false, false);
    for row in &rows {
        let scope = row.text(0)?;
        let read = match row.value(1) {
            Value::Text(json) => serde_json::from_str::<Figures>(json)
                .map_err(|e| format!("the {scope} are not readable: {e}")),
            other => Err(format!("the {scope} are {}", other.describe())),
        };
        let read = read.and_then(|f| match f.problem() {
            Some(problem) => Err(format!("the {scope} cannot be: {problem}")),
            None => Ok(f),
        });
        let value = match read {
            Ok(value) => value,
            Err(damage) => return Ok(Err(damage)),
        };
        match scope.as_str() {
            FIGURES => (totals.figures, figures) = (value, true),
            FEATS => (totals.feats, feats) = (value, true),
            other => return Ok(Err(format!("a row of unknown scope {other:?}"))),
        }
    }
    if !figures || !feats {
        return Ok(Err("one of the two scopes is missing".into()));
    }
    if totals.feats.games > totals.figures.games
        || totals.feats.last_game_id > totals.figures.last_game_id
    {
        return Ok(Err(format!(
            "{} feats games (latest {}) of {} games (latest {})",
            totals.feats.games,
            totals.feats.last_game_id,
            totals.figures.games,
            totals.figures.last_game_id
        )));
    }
    Ok(Ok(Some(totals)))
}

/// Stores a player's totals.
fn write_totals(db: &mut dyn Db, guild: i64, user: u64, totals: &Totals) -> Result<(), DbError> {
    for (scope, figures) in [(FIGURES, &totals.figures), (FEATS, &totals.feats)] {
        let json = serde_json::to_string(figures).unwrap_or_default();
        db.execute(
            WRITE_FIGURES,
            params![guild, to_db_id(user), scope, json.as_str()],
        )?;
    }
    Ok(())
}

/// Adds one game to one player's totals (in memory) and to their rows of achievements and head to
/// head; the achievements it unlocked. A game already added (not above the figures' latest game)
/// changes nothing.
fn add_to_player(
    db: &mut dyn Db,
    guild: i64,
    totals: &mut Totals,
    game: &ProfileGame,
    mine: &SeatGame,
) -> Result<Vec<Achievement>, DbError> {
    if mine.game_id <= totals.figures.last_game_id {
        return Ok(Vec::new());
    }
    let mut unlocked = Vec::new();
    match mine.feats() {
        Feats::Nothing => {}
        Feats::BreakStreak => totals.feats.break_streak(),
        Feats::Add => {
            let before = totals.feats.clone();
            totals.feats.add(mine);
            for a in Achievement::unlocked_between(&before, &totals.feats) {
                let written = db.execute(
                    UNLOCK,
                    params![
                        guild,
                        to_db_id(mine.user_id),
                        a.key(),
                        mine.game_id,
                        mine.finished_at
                    ],
                )?;
                if written > 0 {
                    unlocked.push(a);
                }
            }
        }
    }
    if !mine.counts_on_profile() {
        return Ok(unlocked);
    }
    totals.figures.add(mine);
    let humans = game.humans();
    let Some(me) = humans.iter().find(|h| h.user == mine.user_id).copied() else {
        return Ok(unlocked);
    };
    let mut seen = Vec::new();
    for other in humans.iter().filter(|h| h.user != me.user) {
        if seen.contains(&other.user) {
            continue;
        }
        seen.push(other.user);
        let partners = other.team == me.team;
        let opponents = !partners;
        db.execute(
            ADD_PAIR,
            params![
                guild,
                to_db_id(me.user),
                to_db_id(other.user),
                i64::from(partners),
                i64::from(partners && me.won),
                i64::from(opponents),
                i64::from(opponents && me.won),
                i64::from(opponents && other.won),
                i64::from(me.sequences),
                i64::from(other.sequences)
            ],
        )?;
        db.execute(
            INSERT_SHARED,
            params![
                guild,
                to_db_id(me.user),
                to_db_id(other.user),
                mine.game_id,
                game.variant.as_str(),
                mine.finished_at,
                partners,
                me.won,
                other.won
            ],
        )?;
    }
    Ok(unlocked)
}

/// Adds a stored game to every human player's rows. A player whose rows are damaged has them
/// rebuilt from their stored games first (this one among them); their damage is returned for the
/// log. The achievements unlocked are returned with the player.
fn add_game(
    db: &mut dyn Db,
    guild: i64,
    game: &ProfileGame,
    damaged: &mut Vec<(u64, String)>,
) -> Result<Vec<(u64, Achievement)>, DbError> {
    let mut unlocked = Vec::new();
    let mut done: Vec<u64> = Vec::new();
    for mine in &game.games {
        if done.contains(&mine.user_id) {
            // A second seat of the same player: the game counts once, for the first.
            continue;
        }
        done.push(mine.user_id);
        let mut totals = match load_totals(db, guild, mine.user_id)? {
            Ok(totals) => totals.unwrap_or_default(),
            Err(damage) => {
                damaged.push((mine.user_id, damage));
                rebuild_player(db, guild, mine.user_id)?
            }
        };
        for a in add_to_player(db, guild, &mut totals, game, mine)? {
            unlocked.push((mine.user_id, a));
        }
        write_totals(db, guild, mine.user_id, &totals)?;
    }
    Ok(unlocked)
}

/// Adds a finished game just stored (as `game_id`) to its players' profiles, in `finish_game`'s
/// transaction; the players whose rows were found damaged and rebuilt, for the log.
pub fn add_finished_game(
    db: &mut dyn Db,
    guild: i64,
    game_id: i64,
    game: &FinishedGame,
    rated: bool,
) -> Result<Vec<(u64, String)>, DbError> {
    let info = GameInfo {
        game_id,
        finished_at: game.finished_at,
        started_at: game.started_at,
        rated,
        aborted: game.aborted,
    };
    let mut damaged = Vec::new();
    if game.aborted {
        return Ok(damaged);
    }
    if let Some(game) = ProfileGame::new(info, &game.variant, &game.players, &game.record_json) {
        add_game(db, guild, &game, &mut damaged)?;
    }
    Ok(damaged)
}

/// A stored game as [`ProfileGame`] from a row of id, finished_at, started_at, rated, record_json,
/// variant starting at column `at`.
fn stored_game(db: &mut dyn Db, row: &Row, at: usize) -> Result<Option<ProfileGame>, DbError> {
    let id = row.int(at)?;
    let info = GameInfo {
        game_id: id,
        finished_at: row.int(at + 1)?,
        started_at: opt_int(row, at + 2)?,
        rated: row.bool(at + 3)?,
        aborted: false,
    };
    let players = db
        .query(GAME_PLAYERS, params![id])?
        .iter()
        .map(player)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ProfileGame::new(
        info,
        &row.text(at + 5)?,
        &players,
        &row.text(at + 4)?,
    ))
}

/// Rebuilds one player's figures, feats and head-to-head rows on a server from their stored games
/// (achievements they had stay; those the replay reaches that they had not are written); their
/// totals.
pub fn rebuild_player(db: &mut dyn Db, guild: i64, user: u64) -> Result<Totals, DbError> {
    let stored = to_db_id(user);
    db.execute(DELETE_PLAYER_FIGURES, params![guild, stored])?;
    db.execute(DELETE_PLAYER_PAIRS, params![guild, stored])?;
    db.execute(DELETE_PLAYER_SHARED, params![guild, stored])?;
    let mut totals = Totals::default();
    // A chat's scope (outside servers) reads the games of that chat, kept with server 0.
    for row in db.query(PLAYER_GAMES, params![guild, stored, chat_of_scope(guild)])? {
        let Some(game) = stored_game(db, &row, 0)? else {
            continue;
        };
        if let Some(mine) = game.games.iter().find(|g| g.user_id == user).cloned() {
            add_to_player(db, guild, &mut totals, &game, &mine)?;
        }
    }
    write_totals(db, guild, user, &totals)?;
    Ok(totals)
}

/// Removes the profiles of one server (`Some(guild)`, as stored) or of all, to be recomputed (series
/// won are kept: the games do not hold them).
fn clear_profiles(db: &mut dyn Db, guild: Option<i64>) -> Result<(), DbError> {
    db.execute(CLEAR_FIGURES, params![guild])?;
    db.execute(CLEAR_PAIRS, params![guild])?;
    db.execute(CLEAR_SHARED, params![guild])?;
    db.execute(CLEAR_ACHIEVEMENTS, params![guild])?;
    Ok(())
}

/// Adds one row of [`PROFILE_GAMES`] to its players' profiles; whether it could be read.
fn add_profile_row(
    db: &mut dyn Db,
    row: &Row,
    damaged: &mut Vec<(u64, String)>,
) -> Result<bool, DbError> {
    // Outside servers (server 0) the game counts in its chat's scope.
    let game_guild = match row.int(1)? {
        0 => to_db_id(standing_scope(None, from_db_id(row.int(7)?))),
        guild => guild,
    };
    // Columns as `stored_game` reads them, the server's id skipped.
    let shifted = Row(std::iter::once(row.value(0).clone())
        .chain(row.0.iter().skip(2).cloned())
        .collect());
    match stored_game(db, &shifted, 0)? {
        Some(game) => {
            add_game(db, game_guild, &game, damaged)?;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Recomputes the profiles of one server (`Some(guild)`, as stored) or of all from the stored games
/// (those of games outside servers in their chats' scopes, see [`standing_scope`]), in the order they
/// were stored (series won are kept: the games do not hold them); how many games
/// were added.
pub fn recompute_profiles(db: &mut dyn Db, guild: Option<i64>) -> Result<usize, DbError> {
    clear_profiles(db, guild)?;
    let mut after = 0;
    let mut added = 0;
    let mut damaged = Vec::new();
    loop {
        let rows = db.query(PROFILE_GAMES, params![guild, after, PAGE])?;
        let Some(last) = rows.last() else {
            break;
        };
        after = last.int(0)?;
        for row in &rows {
            if add_profile_row(db, row, &mut damaged)? {
                added += 1;
            }
        }
    }
    Ok(added)
}

/// Schedules a rebuild of every profile from the stored games, done in the background a page at a
/// time by [`rebuild_step`] (the migration that added profiles: replaying 100,000 games took 25 s
/// before the bot was ready, issue 44). Until it is done the profiles are cleared, profile reads
/// answer [`StoreError::ProfilesRebuilding`], and finished games are left to the rebuild.
pub fn schedule_rebuild(db: &mut dyn Db) -> Result<(), DbError> {
    clear_profiles(db, None)?;
    let stored = match db.query_opt(LAST_GAME_ID, params![])? {
        Some(row) => row.int(0)? > 0,
        None => false,
    };
    // A database without games (a new one) has nothing to rebuild.
    if stored {
        db.execute(REBUILD_START, params![])?;
    }
    Ok(())
}

/// Whether a rebuild is under way, for `finish_game` (which then leaves its game to the rebuild);
/// run before the game gets its id (see [`REBUILD_SHARE`]).
pub fn rebuild_under_way(db: &mut dyn Db) -> Result<bool, DbError> {
    Ok(db.query_opt(REBUILD_SHARE, params![])?.is_some())
}

/// A rebuild under way: how far it is, in percent of the stored games' ids; `None` without one.
pub fn rebuild_progress(db: &mut dyn Db) -> Result<Option<u32>, DbError> {
    let Some(row) = db.query_opt(REBUILD_STATE, params![])? else {
        return Ok(None);
    };
    let after = row.int(0)?.max(0);
    let last = match db.query_opt(LAST_GAME_ID, params![])? {
        Some(row) => row.int(0)?.max(1),
        None => 1,
    };
    Ok(Some(
        u32::try_from((after.min(last) * 100) / last)
            .unwrap_or(99)
            .min(99),
    ))
}

/// What one step of the rebuild left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RebuildStep {
    /// No rebuild is under way (any more).
    Done,
    /// Games up to this id are added; more may follow.
    Added(i64),
}

/// One step of a rebuild of every profile, in the caller's transaction: the next `page` stored
/// games after the last one added, and the progress kept with them, so that a rebuild stopped
/// halfway resumes where it was; the rebuild ends (its row removed) when no game is left.
pub fn rebuild_step(db: &mut dyn Db, page: i64) -> Result<RebuildStep, DbError> {
    let Some(row) = db.query_opt(REBUILD_LOCK, params![])? else {
        return Ok(RebuildStep::Done);
    };
    let after = row.int(0)?;
    let rows = db.query(PROFILE_GAMES, params![None::<i64>, after, page.max(1)])?;
    let Some(last) = rows.last() else {
        db.execute(REBUILD_DONE, params![])?;
        return Ok(RebuildStep::Done);
    };
    let last = last.int(0)?;
    let mut damaged = Vec::new();
    for row in &rows {
        add_profile_row(db, row, &mut damaged)?;
    }
    for (user, damage) in damaged {
        tracing::warn!(
            user,
            "a player's stored profile was damaged during the rebuild ({damage}); rebuilt"
        );
    }
    db.execute(REBUILD_ADVANCE, params![last])?;
    Ok(RebuildStep::Added(last))
}

/// A series won: unlocks [`Achievement::SeriesWon`] for a player whose latest game counted for
/// achievements, with that game (a series of casual games against people does not count).
pub fn series_won(db: &mut dyn Db, guild: i64, user: u64) -> Result<bool, DbError> {
    let Ok(Some(totals)) = load_totals(db, guild, user)? else {
        return Ok(false);
    };
    let last = totals.figures.last_game_id;
    if last <= 0 || totals.feats.last_game_id != last {
        return Ok(false);
    }
    let written = db.execute(
        UNLOCK,
        params![
            guild,
            to_db_id(user),
            Achievement::SeriesWon.key(),
            last,
            crate::store::now_ms()
        ],
    )?;
    Ok(written > 0)
}

/// A player's achievements on a server, in the order they were unlocked (rows of unknown keys, from
/// a newer version, left out).
pub fn unlocked(db: &mut dyn Db, guild: i64, user: u64) -> Result<Vec<Unlocked>, DbError> {
    let mut out = Vec::new();
    for row in db.query(ACHIEVEMENTS, params![guild, to_db_id(user)])? {
        if let Some(achievement) = Achievement::from_key(&row.text(0)?) {
            out.push(Unlocked {
                achievement,
                game_id: row.int(1)?,
                at: row.int(2)?,
            });
        }
    }
    Ok(out)
}

/// See [`crate::store::Store::unlocked_in`].
pub fn unlocked_in(db: &mut dyn Db, game_id: i64) -> Result<Vec<(u64, Achievement)>, DbError> {
    let mut out = Vec::new();
    for row in db.query(UNLOCKED_IN, params![game_id])? {
        if let Some(a) = Achievement::from_key(&row.text(1)?) {
            out.push((from_db_id(row.int(0)?), a));
        }
    }
    Ok(out)
}

/// The name a player had in their latest game on a server.
pub fn player_name(db: &mut dyn Db, guild: i64, user: u64) -> Result<Option<String>, DbError> {
    db.query_opt(PLAYER_NAME, params![guild, to_db_id(user)])?
        .map(|row| row.text(0))
        .transpose()
}

/// A place on a leaderboard, of how many.
pub type Rank = (u32, u32);

/// A player's place on the server's rating leaderboard (players of the same rating and rated games
/// share it) and how many rated players it has, and
/// their conservative rating after each of their latest `games` rated games, oldest first
/// (implausible stored values left out).
pub fn rank_and_chart(
    db: &mut dyn Db,
    guild: i64,
    user: u64,
    rating: Option<&PlayerRating>,
    games: u32,
) -> Result<(Option<Rank>, Vec<f64>), DbError> {
    let Some(rating) = rating else {
        return Ok((None, Vec::new()));
    };
    let stored = to_db_id(user);
    let conservative = rating.conservative();
    let [point, tenth, fine, next_tenth, next_fine] =
        crate::store::rating::rank_bands(conservative);
    let rank = db
        .query_opt(
            RATING_RANK,
            params![
                guild,
                point,
                tenth,
                fine,
                next_tenth,
                next_fine,
                conservative,
                i64::from(rating.games)
            ],
        )?
        .map(|row| -> Result<Rank, DbError> {
            let above = count_from_db(row.int(0)?);
            let of = count_from_db(row.int(1)?);
            Ok((above.saturating_add(1).min(of.max(1)), of.max(1)))
        })
        .transpose()?;
    let mut chart: Vec<f64> = db
        .query(RATING_CHART, params![guild, stored, limit_to_db(games)])?
        .iter()
        .filter_map(|row| match row.value(0) {
            Value::Real(x) if crate::store::rating::is_plausible_conservative(*x) => Some(*x),
            Value::Int(n) if crate::store::rating::is_plausible_conservative(*n as f64) => {
                Some(*n as f64)
            }
            _ => None,
        })
        .collect();
    chart.reverse();
    Ok((rank, chart))
}

/// The head-to-head totals of `user` against `other` as stored, or what is damaged in them.
pub fn versus(
    db: &mut dyn Db,
    guild: i64,
    user: u64,
    other: u64,
    recent: u32,
) -> Result<Result<Versus, String>, DbError> {
    let (a, b) = (to_db_id(user), to_db_id(other));
    let Some(row) = db.query_opt(PAIR_TOTALS, params![guild, a, b])? else {
        return Ok(Ok(Versus::default()));
    };
    let mut counts = [0u32; 8];
    for (i, count) in counts.iter_mut().enumerate() {
        match row.value(i) {
            Value::Int(n) if *n >= 0 => *count = count_from_db(*n),
            other => return Ok(Err(format!("a head-to-head count is {}", other.describe()))),
        }
    }
    let [games, partner_games, partner_wins, opponent_games, wins, losses, sequences, other_sequences] =
        counts;
    if partner_games + opponent_games != games
        || partner_wins > partner_games
        || wins + losses > opponent_games
    {
        return Ok(Err(format!(
            "{games} games, {partner_games} as partners ({partner_wins} won), {opponent_games} as \
             opponents ({wins} won, {losses} lost)"
        )));
    }
    let mut shared = Vec::new();
    for row in db.query(SHARED_RECENT, params![guild, a, b, limit_to_db(recent)])? {
        shared.push(SharedGame {
            id: row.int(0)?,
            variant: row.text(1)?,
            finished_at: row.int(2)?,
            partners: row.bool(3)?,
            won: row.bool(4)?,
            other_won: row.bool(5)?,
        });
    }
    Ok(Ok(Versus {
        games,
        partner_games,
        partner_wins,
        opponent_games,
        wins,
        losses,
        sequences,
        other_sequences,
        recent: shared,
    }))
}

/// The profile rows of a player as stored (totals, achievements), or what is damaged in them.
pub fn profile_rows(
    db: &mut dyn Db,
    guild: i64,
    user: u64,
) -> Result<Result<(Totals, Vec<Unlocked>), String>, DbError> {
    let totals = match load_totals(db, guild, user)? {
        Ok(totals) => totals.unwrap_or_default(),
        Err(damage) => return Ok(Err(damage)),
    };
    Ok(Ok((totals, unlocked(db, guild, user)?)))
}

/// Logs the one warning for a player's profile rows rebuilt from their games.
pub fn warn_rebuilt(guild: i64, user: u64, damage: &str) {
    tracing::warn!(
        guild = from_db_id(guild),
        user,
        "a player's stored profile was damaged ({damage}); it was rebuilt from their stored games"
    );
}

/// What an engine lends the shared profile reads below: a read over one of its connections, and its
/// own way of rebuilding a player's damaged rows (a write, locked differently per engine).
pub trait ProfileSource: Store {
    /// Runs shared SQL on a connection.
    fn read_db<T>(
        &self,
        f: impl FnOnce(&mut dyn Db) -> Result<T, DbError>,
    ) -> Result<T, StoreError>;

    /// Rebuilds the profile rows of `user_id` found damaged (`damage` says how, for the log).
    fn rebuild_profile(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        damage: &str,
    ) -> Result<(), StoreError>;
}

/// [`StoreError::ProfilesRebuilding`] while the profiles are rebuilt in the background: what they
/// hold then is only part of the games.
fn refuse_while_rebuilding<S: ProfileSource>(store: &S) -> Result<(), StoreError> {
    match store.read_db(rebuild_progress)? {
        Some(percent) => Err(StoreError::ProfilesRebuilding { percent }),
        None => Ok(()),
    }
}

/// [`Store::profile`], the same on both engines: the stored rows (rebuilt first if damaged), the
/// rating, series, agreement, rank, chart and name.
pub fn read_profile<S: ProfileSource>(
    store: &S,
    guild_id: Option<u64>,
    user_id: u64,
) -> Result<Profile, StoreError> {
    let guild = guild_to_db(guild_id);
    refuse_while_rebuilding(store)?;
    let rows = || store.read_db(|db| profile_rows(db, guild, user_id));
    let (totals, unlocked) = match rows()? {
        Ok(rows) => rows,
        Err(damage) => {
            store.rebuild_profile(guild_id, user_id, &damage)?;
            rows()?.unwrap_or_default()
        }
    };
    let rating = store.player_rating(guild_id, user_id, 1)?.map(|r| r.rating);
    let series = store.series_stats(guild_id, user_id)?;
    let agreement = store.recent_agreement(guild_id, user_id, AGREEMENT_GAMES)?;
    let ((rank, chart), name) = store.read_db(|db| {
        Ok((
            rank_and_chart(db, guild, user_id, rating.as_ref(), CHART_GAMES)?,
            player_name(db, guild, user_id)?,
        ))
    })?;
    Ok(Profile {
        figures: totals.figures,
        feats: totals.feats,
        unlocked,
        rating,
        rank,
        chart,
        series,
        agreement,
        name,
    })
}

/// [`Store::versus`], the same on both engines: the head-to-head rows (rebuilt first if damaged).
pub fn read_versus<S: ProfileSource>(
    store: &S,
    guild_id: Option<u64>,
    user_id: u64,
    other_id: u64,
) -> Result<Versus, StoreError> {
    let guild = guild_to_db(guild_id);
    refuse_while_rebuilding(store)?;
    let read = || store.read_db(|db| versus(db, guild, user_id, other_id, VERSUS_GAMES));
    match read()? {
        Ok(versus) => Ok(versus),
        Err(damage) => {
            store.rebuild_profile(guild_id, user_id, &damage)?;
            Ok(read()?.unwrap_or_default())
        }
    }
}
