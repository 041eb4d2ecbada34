//! The stores' statements written once (SQLite's spelling with `?N` parameters and the tokens of
//! [`super::render`]); [`super::reads`], [`super::ratings`] and both stores' write paths run them.
//! Those on what grows with the history (games, their players, stats and ratings) are listed in
//! [`HISTORY_QUERIES`], whose plans the SQLite tests check.

/// A finished game's players, in seat order, as [`super::rows::player`] reads them.
pub const GAME_PLAYERS: &str = "SELECT user_id, name, team, won, sequences, bot_level, gave_up
    FROM game_players WHERE game_id = ?1 ORDER BY seat";
/// The players of a server's rated games since a time (`games_by_guild` finds the period).
pub const RATED_SINCE: &str = "SELECT p.game_id, p.user_id, p.team FROM games g
    JOIN game_players p ON p.game_id = g.id
    WHERE g.guild_id = ?1 AND g.finished_at >= ?2 AND g.rated = {true} AND p.user_id <> ?3
    ORDER BY p.game_id, p.seat";
/// A channel's latest finished game (`games_by_channel`).
pub const LATEST_IN_CHANNEL: &str = "SELECT id FROM games WHERE guild_id = ?1 AND channel_id = ?2
    ORDER BY finished_at DESC, id DESC LIMIT 1";
/// A finished game stored; its id.
pub const INSERT_GAME: &str = "INSERT INTO games (guild_id, channel_id, variant, record_json,
        finished_at, announced, rated, aborted, started_at)
    VALUES (?1, ?2, ?3, ?4, ?5, {false}, ?6, ?7, ?8) RETURNING id";
/// A player of a finished game stored.
pub const INSERT_PLAYER: &str = "INSERT INTO game_players (game_id, seat, user_id, name, team, won,
        sequences, bot_level, gave_up)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
/// A player's stats counted up after a game.
pub const ADD_STATS: &str =
    "INSERT INTO player_stats (guild_id, user_id, name, games, wins, sequences)
    VALUES (?1, ?2, ?3, 1, ?4, ?5)
    ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,
        games = player_stats.games + 1,
        wins = player_stats.wins + excluded.wins,
        sequences = player_stats.sequences + excluded.sequences";
/// A player's rating, as [`super::rows::stored_rating`] reads it.
pub const RATING: &str = "SELECT mu, sigma, conservative, games FROM ratings
    WHERE guild_id = ?1 AND user_id = ?2";
/// A player's rating stored after a game.
pub const WRITE_RATING: &str =
    "INSERT INTO ratings (guild_id, user_id, name, mu, sigma, conservative,
        games)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
    ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,
        sigma = excluded.sigma, conservative = excluded.conservative, games = excluded.games";
/// A rating's change in a game stored.
pub const WRITE_CHANGE: &str = "INSERT INTO rating_changes
        (game_id, guild_id, user_id, conservative_before, conservative_after)
    VALUES (?1, ?2, ?3, ?4, ?5)
    ON CONFLICT (game_id, user_id) DO UPDATE SET
        conservative_before = excluded.conservative_before,
        conservative_after = excluded.conservative_after";
/// The games whose end was not announced (`games_unannounced`).
pub const UNANNOUNCED: &str = "SELECT id, guild_id, channel_id, variant, record_json, finished_at,
        rated, aborted, started_at
    FROM games WHERE announced = {false} ORDER BY id";
/// A game's end announced.
pub const MARK_ANNOUNCED: &str = "UPDATE games SET announced = {true} WHERE id = ?1";
/// A game's record, if it is of the server.
pub const GAME_RECORD: &str = "SELECT record_json FROM games WHERE id = ?1 AND guild_id = ?2";
/// A server's latest games (`games_by_guild`).
pub const RECENT_GAMES: &str = "SELECT id, guild_id, channel_id, variant, finished_at, aborted
    FROM games WHERE guild_id = ?1 ORDER BY finished_at DESC, id DESC LIMIT ?2";
/// A player's stats on a server.
pub const PLAYER_STATS: &str =
    "SELECT games, wins, sequences FROM player_stats WHERE guild_id = ?1 AND user_id = ?2";
/// A server's leaderboard by wins (`player_stats_by_wins`).
pub const LEADERBOARD: &str = "SELECT user_id, name, games, wins, sequences FROM player_stats
    WHERE guild_id = ?1
    ORDER BY wins DESC, CAST(wins AS {real}) / games DESC, games DESC, user_id
    LIMIT ?2";
/// A player's latest rating changes (`rating_changes_by_player`).
pub const RATING_CHANGES: &str =
    "SELECT conservative_before, conservative_after FROM rating_changes
    WHERE guild_id = ?1 AND user_id = ?2 ORDER BY game_id DESC LIMIT ?3";
/// A server's leaderboard by rating (`ratings_by_conservative`).
pub const RATING_LEADERBOARD: &str =
    "SELECT user_id, name, mu, sigma, conservative, games FROM ratings
    WHERE guild_id = ?1
    ORDER BY conservative DESC, games DESC, user_id LIMIT ?2";
/// A live table removed (its game finished or closed).
pub const DELETE_LIVE_TABLE: &str = "DELETE FROM live_tables WHERE channel_id = ?1";

/// Every query on the history, named, for the plan test.
#[cfg(test)]
pub const HISTORY_QUERIES: [(&str, &str); 34] = [
    ("game players", GAME_PLAYERS),
    ("rated games since", RATED_SINCE),
    ("latest in channel", LATEST_IN_CHANNEL),
    ("insert game", INSERT_GAME),
    ("insert player", INSERT_PLAYER),
    ("add stats", ADD_STATS),
    ("rating", RATING),
    ("write rating", WRITE_RATING),
    ("write change", WRITE_CHANGE),
    ("unannounced", UNANNOUNCED),
    ("mark announced", MARK_ANNOUNCED),
    ("game record", GAME_RECORD),
    ("recent games", RECENT_GAMES),
    ("player stats", PLAYER_STATS),
    ("leaderboard", LEADERBOARD),
    ("rating changes", RATING_CHANGES),
    ("rating leaderboard", RATING_LEADERBOARD),
    ("delete live table", DELETE_LIVE_TABLE),
    ("player figures", PLAYER_FIGURES),
    ("write figures", WRITE_FIGURES),
    ("unlock", UNLOCK),
    ("achievements", ACHIEVEMENTS),
    ("unlocked in", UNLOCKED_IN),
    ("add pair", ADD_PAIR),
    ("insert shared", INSERT_SHARED),
    ("pair totals", PAIR_TOTALS),
    ("shared recent", SHARED_RECENT),
    ("player games", PLAYER_GAMES),
    ("delete player figures", DELETE_PLAYER_FIGURES),
    ("delete player pairs", DELETE_PLAYER_PAIRS),
    ("delete player shared", DELETE_PLAYER_SHARED),
    ("rating chart", RATING_CHART),
    ("rating rank", RATING_RANK),
    ("player name", PLAYER_NAME),
];

/// A player's latest rated games of a server with an agreement, summed (`SUM` cast back to an
/// integer: PostgreSQL sums integers as `NUMERIC`).
pub const RECENT_AGREEMENT: &str =
    "SELECT CAST(COALESCE(SUM(matched), 0) AS {int}), CAST(COALESCE(SUM(counted), 0) AS {int}),
        COUNT(*)
    FROM (SELECT a.matched, a.counted FROM game_agreement a JOIN games g ON g.id = a.game_id
          WHERE a.user_id = ?2 AND g.guild_id = ?1 AND g.rated = {true} AND g.aborted = {false}
          ORDER BY g.finished_at DESC, g.id DESC LIMIT ?3) AS latest";
/// A game's agreement with `hard` stored (again).
pub const SAVE_AGREEMENT: &str = "INSERT INTO game_agreement (game_id, user_id, matched, counted)
    VALUES (?1, ?2, ?3, ?4)
    ON CONFLICT (game_id, user_id)
    DO UPDATE SET matched = excluded.matched, counted = excluded.counted";

/// The stored finished games of one server (`?1` as stored) or of all (`?1` `NULL`), in the order
/// they finished, for the rating replay.
pub const RATED_GAMES: &str = "SELECT id, guild_id, rated, record_json FROM games
    WHERE CAST(?1 AS {int}) IS NULL OR guild_id = ?1 ORDER BY id";
/// Whether a game counts for ratings (set when ratings were added).
pub const SET_RATED: &str = "UPDATE games SET rated = ?2 WHERE id = ?1";
/// A computer player's level (found from its name when ratings were added).
pub const SET_BOT_LEVEL: &str =
    "UPDATE game_players SET bot_level = ?3 WHERE game_id = ?1 AND seat = ?2";
/// Every rating and rating change removed, to be computed again.
pub const CLEAR_RATINGS: &str = "DELETE FROM ratings; DELETE FROM rating_changes;";
/// A server's ratings removed, to be computed again.
pub const CLEAR_GUILD_RATINGS: &str = "DELETE FROM ratings WHERE guild_id = ?1";
/// A server's rating changes removed, to be computed again.
pub const CLEAR_GUILD_CHANGES: &str = "DELETE FROM rating_changes WHERE guild_id = ?1";

/// Every table quarantined, oldest first.
pub const QUARANTINED: &str =
    "SELECT channel_id, guild_id, reason, quarantined_at FROM quarantine ORDER BY id";
/// A live table moved to the quarantine with `?2` as the reason, at `?3`.
pub const QUARANTINE_TABLE: &str = "INSERT INTO quarantine (channel_id, guild_id, record_json,
        snapshot_json, updated_at, reason, quarantined_at)
    SELECT channel_id, guild_id, record_json, snapshot_json, updated_at, ?2, ?3
    FROM live_tables WHERE channel_id = ?1";

/// A player's series counts on a server.
pub const SERIES_STATS: &str =
    "SELECT played, won FROM series_stats WHERE guild_id = ?1 AND user_id = ?2";
/// A player's series counts set aside as found, with a reason (`?3`) and when (`?4`).
pub const SET_ASIDE_SERIES: &str = "INSERT INTO series_stats_damaged
        (guild_id, user_id, played, won, reason, set_aside_at)
    SELECT guild_id, user_id, played, won, ?3, ?4 FROM series_stats
    WHERE guild_id = ?1 AND user_id = ?2";
/// A player's series counts removed.
pub const DELETE_SERIES: &str = "DELETE FROM series_stats WHERE guild_id = ?1 AND user_id = ?2";

/// A server's own settings.
pub const SERVER_SETTINGS: &str = "SELECT settings_json FROM server_settings WHERE guild_id = ?1";
/// A server's settings stored (replacing them).
pub const SAVE_SETTINGS: &str =
    "INSERT INTO server_settings (guild_id, settings_json, updated_at) VALUES (?1, ?2, ?3)
    ON CONFLICT (guild_id) DO UPDATE SET settings_json = excluded.settings_json,
        updated_at = excluded.updated_at";
/// A change of a server's settings logged.
pub const LOG_SETTINGS: &str =
    "INSERT INTO settings_log (guild_id, user_id, change, at) VALUES (?1, ?2, ?3, ?4)";
/// A server's latest settings changes.
pub const SETTINGS_LOG: &str = "SELECT user_id, change, at FROM settings_log WHERE guild_id = ?1
    ORDER BY id DESC LIMIT ?2";
/// Every server's settings set aside, oldest first, as bytes.
pub const DAMAGED_SETTINGS: &str = "SELECT guild_id, CAST(settings_json AS {bytes}), reason,
        set_aside_at
    FROM settings_damaged ORDER BY id";

/// A player's stored figures on a server, both scopes ("figures", "feats").
pub const PLAYER_FIGURES: &str = "SELECT scope, figures_json FROM player_figures
    WHERE guild_id = ?1 AND user_id = ?2";
/// A player's figures of one scope stored (replacing them).
pub const WRITE_FIGURES: &str =
    "INSERT INTO player_figures (guild_id, user_id, scope, figures_json) VALUES (?1, ?2, ?3, ?4)
    ON CONFLICT (guild_id, user_id, scope) DO UPDATE SET figures_json = excluded.figures_json";
/// An achievement unlocked by a game, unless it was unlocked before (each once).
pub const UNLOCK: &str =
    "INSERT INTO achievements (guild_id, user_id, achievement, game_id, unlocked_at)
    VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (guild_id, user_id, achievement) DO NOTHING";
/// A player's achievements on a server, in the order they were unlocked.
pub const ACHIEVEMENTS: &str = "SELECT achievement, game_id, unlocked_at FROM achievements
    WHERE guild_id = ?1 AND user_id = ?2 ORDER BY game_id, achievement";
/// The achievements a game unlocked (`achievements_by_game`).
pub const UNLOCKED_IN: &str =
    "SELECT user_id, achievement FROM achievements WHERE game_id = ?1 ORDER BY user_id, achievement";
/// A game counted up in the totals of an ordered pair of humans.
pub const ADD_PAIR: &str = "INSERT INTO pair_totals (guild_id, user_id, other_id, games,
        partner_games, partner_wins, opponent_games, wins, losses, sequences, other_sequences)
    VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
    ON CONFLICT (guild_id, user_id, other_id) DO UPDATE SET games = pair_totals.games + 1,
        partner_games = pair_totals.partner_games + excluded.partner_games,
        partner_wins = pair_totals.partner_wins + excluded.partner_wins,
        opponent_games = pair_totals.opponent_games + excluded.opponent_games,
        wins = pair_totals.wins + excluded.wins,
        losses = pair_totals.losses + excluded.losses,
        sequences = pair_totals.sequences + excluded.sequences,
        other_sequences = pair_totals.other_sequences + excluded.other_sequences";
/// A game two humans shared, from the first one's side.
pub const INSERT_SHARED: &str = "INSERT INTO shared_games (guild_id, user_id, other_id, game_id,
        variant, finished_at, partners, won, other_won)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
    ON CONFLICT (guild_id, user_id, other_id, game_id) DO NOTHING";
/// The totals of an ordered pair of humans on a server.
pub const PAIR_TOTALS: &str = "SELECT games, partner_games, partner_wins, opponent_games, wins,
        losses, sequences, other_sequences
    FROM pair_totals WHERE guild_id = ?1 AND user_id = ?2 AND other_id = ?3";
/// The latest games two humans shared on a server, newest first.
pub const SHARED_RECENT: &str =
    "SELECT game_id, variant, finished_at, partners, won, other_won FROM shared_games
    WHERE guild_id = ?1 AND user_id = ?2 AND other_id = ?3 ORDER BY game_id DESC LIMIT ?4";
/// A player's finished games of a server that were not aborted, in the order they were stored
/// (`game_players_by_user`), for rebuilding their profile.
pub const PLAYER_GAMES: &str =
    "SELECT id, finished_at, started_at, rated, record_json, variant FROM games
    WHERE id IN (SELECT game_id FROM game_players WHERE user_id = ?2)
        AND guild_id = ?1 AND aborted = {false}
    ORDER BY id";
/// A player's figures removed, to be rebuilt.
pub const DELETE_PLAYER_FIGURES: &str =
    "DELETE FROM player_figures WHERE guild_id = ?1 AND user_id = ?2";
/// A player's pair totals removed, to be rebuilt.
pub const DELETE_PLAYER_PAIRS: &str =
    "DELETE FROM pair_totals WHERE guild_id = ?1 AND user_id = ?2";
/// A player's shared games removed, to be rebuilt.
pub const DELETE_PLAYER_SHARED: &str =
    "DELETE FROM shared_games WHERE guild_id = ?1 AND user_id = ?2";
/// A player's conservative rating after each of their latest rated games, newest first
/// (`rating_changes_by_player`).
pub const RATING_CHART: &str = "SELECT conservative_after FROM rating_changes
    WHERE guild_id = ?1 AND user_id = ?2 ORDER BY game_id DESC LIMIT ?3";
/// How many rated players of a server stand above one (rating `?2`, `?3` rated games, user `?4`) on
/// the rating leaderboard, and how many there are (`ratings_by_conservative`).
pub const RATING_RANK: &str = "SELECT
        COUNT(CASE WHEN conservative > ?2 OR (conservative = ?2 AND (games > ?3
            OR (games = ?3 AND user_id < ?4))) THEN 1 END),
        COUNT(*)
    FROM ratings WHERE guild_id = ?1";
/// The name a player had in their latest game on a server.
pub const PLAYER_NAME: &str = "SELECT name FROM player_stats WHERE guild_id = ?1 AND user_id = ?2";

/// The finished games that were not aborted of one server (`?1` as stored) or of all (`?1`
/// `NULL`) after game `?2`, in the order they were stored, `?3` at a time, for the recomputation of
/// profiles.
pub const PROFILE_GAMES: &str =
    "SELECT id, guild_id, finished_at, started_at, rated, record_json, variant FROM games
    WHERE (CAST(?1 AS {int}) IS NULL OR guild_id = ?1) AND id > ?2 AND aborted = {false}
    ORDER BY id LIMIT ?3";
/// Every stored figure of one server (`?1`) or of all (`?1` `NULL`) removed, to be recomputed.
pub const CLEAR_FIGURES: &str =
    "DELETE FROM player_figures WHERE CAST(?1 AS {int}) IS NULL OR guild_id = ?1";
/// Every pair total of one server or of all removed, to be recomputed.
pub const CLEAR_PAIRS: &str =
    "DELETE FROM pair_totals WHERE CAST(?1 AS {int}) IS NULL OR guild_id = ?1";
/// Every shared game of one server or of all removed, to be recomputed.
pub const CLEAR_SHARED: &str =
    "DELETE FROM shared_games WHERE CAST(?1 AS {int}) IS NULL OR guild_id = ?1";
/// Every achievement a game unlocks of one server or of all removed, to be recomputed (series won
/// are kept: they are not in the games).
pub const CLEAR_ACHIEVEMENTS: &str = "DELETE FROM achievements
    WHERE (CAST(?1 AS {int}) IS NULL OR guild_id = ?1) AND achievement <> 'series_won'";
