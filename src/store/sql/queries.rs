//! The stores' statements written once (SQLite's spelling with `?N` parameters and the tokens of
//! [`super::render`]); [`super::reads`], [`super::ratings`], [`super::writes`] and both stores run
//! them. Every statement the stores run on their tables is defined here, in `statements!`, which
//! also lists them all in [`STATEMENTS`]: the plan tests (`sqlite.rs`) run each against a small and
//! a ten times larger history, so none can be left out of them. Only PostgreSQL's own bookkeeping
//! (shard owners, advisory locks, versioned live tables) and the maintenance of a whole file
//! (migrations, checks, repair, backup) are written where they run.

/// Defines each statement as a `pub const` and lists them all, by name, in [`STATEMENTS`].
macro_rules! statements {
    ($($(#[$attr:meta])* $name:ident = $sql:expr;)*) => {
        $($(#[$attr])* pub const $name: &str = $sql;)*

        /// Every statement above, by name, in the order written (for the plan tests).
        #[cfg(test)]
        pub const STATEMENTS: &[(&str, &str)] = &[$((stringify!($name), $name)),*];
    };
}

statements! {
    /// A finished game's players, in seat order, as [`super::rows::player`] reads them.
    GAME_PLAYERS = "SELECT user_id, name, team, won, sequences, bot_level, gave_up
        FROM game_players WHERE game_id = ?1 ORDER BY seat";
    /// The players of a server's rated games since a time (`games_by_guild` finds the period).
    RATED_SINCE = "SELECT p.game_id, p.user_id, p.team FROM games g
        JOIN game_players p ON p.game_id = g.id
        WHERE g.guild_id = ?1 AND g.finished_at >= ?2 AND g.rated = {true} AND p.user_id <> ?3
        ORDER BY p.game_id, p.seat";
    /// A channel's latest finished game (`games_by_channel`).
    LATEST_IN_CHANNEL = "SELECT id FROM games WHERE guild_id = ?1 AND channel_id = ?2
        ORDER BY finished_at DESC, id DESC LIMIT 1";
    /// A finished game stored; its id.
    INSERT_GAME = "INSERT INTO games (guild_id, channel_id, variant, record_json,
            finished_at, announced, rated, aborted, started_at, web_token)
        VALUES (?1, ?2, ?3, ?4, ?5, {false}, ?6, ?7, ?8, ?9) RETURNING id";
    /// A finished game's agreement with `hard`, per human (the primary key's `game_id` prefix).
    GAME_AGREEMENT = "SELECT user_id, matched, counted FROM game_agreement WHERE game_id = ?1
        ORDER BY user_id";
    /// A finished game's web token, within its server.
    GAME_WEB_TOKEN = "SELECT web_token FROM games WHERE id = ?1 AND guild_id = ?2";
    /// The latest finished game of a table's web token, and its server (`games_by_web_token`).
    GAME_OF_WEB_TOKEN = "SELECT id, guild_id FROM games WHERE web_token = ?1
        ORDER BY id DESC LIMIT 1";
    /// A player of a finished game stored.
    INSERT_PLAYER = "INSERT INTO game_players (game_id, seat, user_id, name, team, won,
            sequences, bot_level, gave_up)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
    /// A player's stats counted up after a game.
    ADD_STATS = "INSERT INTO player_stats (guild_id, user_id, name, games, wins, sequences)
        VALUES (?1, ?2, ?3, 1, ?4, ?5)
        ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,
            games = player_stats.games + 1,
            wins = player_stats.wins + excluded.wins,
            sequences = player_stats.sequences + excluded.sequences";
    /// A player's rating, as [`super::rows::stored_rating`] reads it.
    RATING = "SELECT mu, sigma, conservative, games FROM ratings
        WHERE guild_id = ?1 AND user_id = ?2";
    /// A player's rating stored after a game, with its rank band (`super::ratings::rank_band`).
    WRITE_RATING = "INSERT INTO ratings (guild_id, user_id, name, mu, sigma, conservative,
            games, band)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,
            sigma = excluded.sigma, conservative = excluded.conservative, games = excluded.games,
            band = excluded.band";
    /// A player's rating stored by the replay of the migration that added ratings, before the rank
    /// bands existed (they are counted by their own migration).
    WRITE_RATING_UNBANDED = "INSERT INTO ratings (guild_id, user_id, name, mu, sigma,
            conservative, games)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,
            sigma = excluded.sigma, conservative = excluded.conservative, games = excluded.games";
    /// The rank band of a player's stored rating (before it is overwritten).
    RATING_BAND = "SELECT band FROM ratings WHERE guild_id = ?1 AND user_id = ?2";
    /// `?4` players (1 or -1) added to a band of a server's kept counts (`?2`: 0 for the bands of a
    /// whole point, 1 of a tenth, 2 of a hundredth).
    ADD_TO_BAND = "INSERT INTO rating_bands (guild_id, level, band, players)
        VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (guild_id, level, band) DO UPDATE SET
            players = rating_bands.players + excluded.players";
    /// Every stored rating's conservative value, to fill the rank bands (the migration that added
    /// them).
    ALL_RATINGS = "SELECT guild_id, user_id, conservative FROM ratings";
    /// A rating's rank band set (the migration that added them).
    SET_RATING_BAND = "UPDATE ratings SET band = ?3 WHERE guild_id = ?1 AND user_id = ?2";
    /// Every kept band count removed, to be counted again.
    CLEAR_BANDS = "DELETE FROM rating_bands";
    /// A server's kept band counts removed, to be counted again with its ratings.
    CLEAR_GUILD_BANDS = "DELETE FROM rating_bands WHERE guild_id = ?1";
    /// A rating's change in a game stored.
    WRITE_CHANGE = "INSERT INTO rating_changes
            (game_id, guild_id, user_id, conservative_before, conservative_after)
        VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (game_id, user_id) DO UPDATE SET
            conservative_before = excluded.conservative_before,
            conservative_after = excluded.conservative_after";
    /// The games whose end was not announced (`games_unannounced`).
    UNANNOUNCED = "SELECT id, guild_id, channel_id, variant, record_json, finished_at,
            rated, aborted, started_at
        FROM games WHERE announced = {false} ORDER BY id";
    /// A game's end announced.
    MARK_ANNOUNCED = "UPDATE games SET announced = {true} WHERE id = ?1";
    /// A game's record, if it is of the server.
    GAME_RECORD = "SELECT record_json FROM games WHERE id = ?1 AND guild_id = ?2";
    /// A server's latest games (`games_by_guild`).
    RECENT_GAMES = "SELECT id, guild_id, channel_id, variant, finished_at, aborted
        FROM games WHERE guild_id = ?1 ORDER BY finished_at DESC, id DESC LIMIT ?2";
    /// A player's stats on a server.
    PLAYER_STATS = "SELECT games, wins, sequences FROM player_stats WHERE guild_id = ?1 AND user_id = ?2";
    /// A server's leaderboard by wins (`player_stats_by_wins`).
    LEADERBOARD = "SELECT user_id, name, games, wins, sequences FROM player_stats
        WHERE guild_id = ?1
        ORDER BY wins DESC, CAST(wins AS {real}) / games DESC, games DESC, user_id
        LIMIT ?2";
    /// A player's latest rating changes (`rating_changes_by_player`).
    RATING_CHANGES = "SELECT conservative_before, conservative_after FROM rating_changes
        WHERE guild_id = ?1 AND user_id = ?2 ORDER BY game_id DESC LIMIT ?3";
    /// A server's leaderboard by rating (`ratings_by_conservative`).
    RATING_LEADERBOARD = "SELECT user_id, name, mu, sigma, conservative, games FROM ratings
        WHERE guild_id = ?1
        ORDER BY conservative DESC, games DESC, user_id LIMIT ?2";
    /// A live table removed (its game finished or closed).
    DELETE_LIVE_TABLE = "DELETE FROM live_tables WHERE channel_id = ?1";


    /// A player's agreement with `hard` in their latest rated (not aborted) games of a server, summed
    /// (`game_agreement_by_player`; `SUM` cast back to an integer: PostgreSQL sums integers as
    /// `NUMERIC`).
    RECENT_AGREEMENT = "SELECT CAST(COALESCE(SUM(matched), 0) AS {int}), CAST(COALESCE(SUM(counted), 0) AS {int}),
            COUNT(*)
        FROM (SELECT matched, counted FROM game_agreement
              WHERE guild_id = ?1 AND user_id = ?2 AND counts = {true}
              ORDER BY game_id DESC LIMIT ?3) AS latest";
    /// A game's agreement with `hard` stored (again), with the game's server and whether it counts
    /// (nothing if there is no such game).
    SAVE_AGREEMENT = "INSERT INTO game_agreement (game_id, user_id, matched, counted, guild_id, counts)
        SELECT id, ?2, ?3, ?4, guild_id, {rated = 1 AND aborted = 0|rated AND NOT aborted}
        FROM games WHERE id = ?1
        ON CONFLICT (game_id, user_id)
        DO UPDATE SET matched = excluded.matched, counted = excluded.counted";

    /// The stored finished games of one server (`?1` as stored) or of all (`?1` `NULL`), in the order
    /// they finished, for the rating replay.
    RATED_GAMES = "SELECT id, guild_id, rated, record_json FROM games
        WHERE CAST(?1 AS {int}) IS NULL OR guild_id = ?1 ORDER BY id";
    /// Whether a game counts for ratings (set when ratings were added).
    SET_RATED = "UPDATE games SET rated = ?2 WHERE id = ?1";
    /// A computer player's level (found from its name when ratings were added).
    SET_BOT_LEVEL = "UPDATE game_players SET bot_level = ?3 WHERE game_id = ?1 AND seat = ?2";
    /// Every rating and rating change removed, to be computed again.
    CLEAR_RATINGS = "DELETE FROM ratings; DELETE FROM rating_changes; DELETE FROM rating_bands;";
    /// The same before the rank bands existed (the migration that added ratings).
    CLEAR_RATINGS_UNBANDED = "DELETE FROM ratings; DELETE FROM rating_changes;";
    /// A server's ratings removed, to be computed again.
    CLEAR_GUILD_RATINGS = "DELETE FROM ratings WHERE guild_id = ?1";
    /// A server's rating changes removed, to be computed again.
    CLEAR_GUILD_CHANGES = "DELETE FROM rating_changes WHERE guild_id = ?1";

    /// Every table quarantined, oldest first.
    QUARANTINED = "SELECT channel_id, guild_id, reason, quarantined_at FROM quarantine ORDER BY id";
    /// A live table moved to the quarantine with `?2` as the reason, at `?3`.
    QUARANTINE_TABLE = "INSERT INTO quarantine (channel_id, guild_id, record_json,
            snapshot_json, updated_at, reason, quarantined_at)
        SELECT channel_id, guild_id, record_json, snapshot_json, updated_at, ?2, ?3
        FROM live_tables WHERE channel_id = ?1";

    /// A player's series counts on a server.
    SERIES_STATS = "SELECT played, won FROM series_stats WHERE guild_id = ?1 AND user_id = ?2";
    /// A player's series counts set aside as found, with a reason (`?3`) and when (`?4`).
    SET_ASIDE_SERIES = "INSERT INTO series_stats_damaged
            (guild_id, user_id, played, won, reason, set_aside_at)
        SELECT guild_id, user_id, played, won, ?3, ?4 FROM series_stats
        WHERE guild_id = ?1 AND user_id = ?2";
    /// A player's series counts removed.
    DELETE_SERIES = "DELETE FROM series_stats WHERE guild_id = ?1 AND user_id = ?2";

    /// A server's own settings.
    SERVER_SETTINGS = "SELECT settings_json FROM server_settings WHERE guild_id = ?1";
    /// A server's settings stored (replacing them).
    SAVE_SETTINGS = "INSERT INTO server_settings (guild_id, settings_json, updated_at) VALUES (?1, ?2, ?3)
        ON CONFLICT (guild_id) DO UPDATE SET settings_json = excluded.settings_json,
            updated_at = excluded.updated_at";
    /// A change of a server's settings logged.
    LOG_SETTINGS = "INSERT INTO settings_log (guild_id, user_id, change, at) VALUES (?1, ?2, ?3, ?4)";
    /// A server's latest settings changes.
    SETTINGS_LOG = "SELECT user_id, change, at FROM settings_log WHERE guild_id = ?1
        ORDER BY id DESC LIMIT ?2";
    /// Every server's settings set aside, oldest first, as bytes.
    DAMAGED_SETTINGS = "SELECT guild_id, CAST(settings_json AS {bytes}), reason,
            set_aside_at
        FROM settings_damaged ORDER BY id";

    /// Whether the database answers.
    PING = "SELECT 1";
    /// A live table stored (replacing the channel's); SQLite's (PostgreSQL versions each save).
    SAVE_TABLE = "INSERT INTO live_tables (channel_id, guild_id, record_json, snapshot_json,
            updated_at, web_token)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id,
            record_json = excluded.record_json, snapshot_json = excluded.snapshot_json,
            updated_at = excluded.updated_at, web_token = excluded.web_token";
    /// Every live table, to restore at start (SQLite's; they do not grow with the history).
    LOAD_TABLES = "SELECT channel_id, guild_id, record_json, snapshot_json, updated_at, web_token
        FROM live_tables ORDER BY channel_id";
    /// One live table (SQLite's), for a page.
    LOAD_TABLE = "SELECT channel_id, guild_id, record_json, snapshot_json, updated_at, web_token
        FROM live_tables WHERE channel_id = ?1";
    /// The channel of a live table's web token (`live_tables_by_web_token`).
    CHANNEL_OF_WEB_TOKEN = "SELECT channel_id FROM live_tables
        WHERE web_token = ?1 AND web_token IS NOT NULL LIMIT 1";
    /// A live table that could not be restored moved to the quarantine, with its server as read
    /// (`?2`), a reason (`?3`) and when (`?4`).
    QUARANTINE_LOADED = "INSERT INTO quarantine (channel_id, guild_id, record_json, snapshot_json,
            updated_at, reason, quarantined_at)
        SELECT channel_id, ?2, record_json, snapshot_json, updated_at, ?3, ?4
        FROM live_tables WHERE channel_id = ?1";
    /// A series' result counted for a player.
    ADD_SERIES = "INSERT INTO series_stats (guild_id, user_id, played, won) VALUES (?1, ?2, 1, ?3)
        ON CONFLICT (guild_id, user_id)
        DO UPDATE SET played = series_stats.played + 1, won = series_stats.won + excluded.won";
    /// A server's settings set aside as bytes (only if they still are `?2`, when given), with a
    /// reason (`?3`) and when (`?4`); SQLite's.
    SET_ASIDE_SETTINGS = "INSERT INTO settings_damaged (guild_id, settings_json, updated_at, reason,
            set_aside_at)
        SELECT guild_id, CAST(settings_json AS {bytes}), updated_at, ?3, ?4 FROM server_settings
        WHERE guild_id = ?1 AND (?2 IS NULL OR settings_json = ?2)";
    /// A server's settings removed.
    DELETE_SETTINGS = "DELETE FROM server_settings WHERE guild_id = ?1";
    /// A player's stored figures on a server, both scopes ("figures", "feats").
    PLAYER_FIGURES = "SELECT scope, figures_json FROM player_figures
        WHERE guild_id = ?1 AND user_id = ?2";
    /// A player's figures of one scope stored (replacing them).
    WRITE_FIGURES =
        "INSERT INTO player_figures (guild_id, user_id, scope, figures_json) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (guild_id, user_id, scope) DO UPDATE SET figures_json = excluded.figures_json";
    /// An achievement unlocked by a game, unless it was unlocked before (each once).
    UNLOCK =
        "INSERT INTO achievements (guild_id, user_id, achievement, game_id, unlocked_at)
        VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (guild_id, user_id, achievement) DO NOTHING";
    /// A player's achievements on a server, in the order they were unlocked.
    ACHIEVEMENTS = "SELECT achievement, game_id, unlocked_at FROM achievements
        WHERE guild_id = ?1 AND user_id = ?2 ORDER BY game_id, achievement";
    /// The achievements a game unlocked (`achievements_by_game`).
    UNLOCKED_IN =
        "SELECT user_id, achievement FROM achievements WHERE game_id = ?1 ORDER BY user_id, achievement";
    /// A game counted up in the totals of an ordered pair of humans.
    ADD_PAIR = "INSERT INTO pair_totals (guild_id, user_id, other_id, games,
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
    INSERT_SHARED = "INSERT INTO shared_games (guild_id, user_id, other_id, game_id,
            variant, finished_at, partners, won, other_won)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        ON CONFLICT (guild_id, user_id, other_id, game_id) DO NOTHING";
    /// The totals of an ordered pair of humans on a server.
    PAIR_TOTALS = "SELECT games, partner_games, partner_wins, opponent_games, wins,
            losses, sequences, other_sequences
        FROM pair_totals WHERE guild_id = ?1 AND user_id = ?2 AND other_id = ?3";
    /// The latest games two humans shared on a server, newest first.
    SHARED_RECENT =
        "SELECT game_id, variant, finished_at, partners, won, other_won FROM shared_games
        WHERE guild_id = ?1 AND user_id = ?2 AND other_id = ?3 ORDER BY game_id DESC LIMIT ?4";
    /// A player's finished games of a server that were not aborted, in the order they were stored
    /// (`game_players_by_user`), for rebuilding their profile.
    PLAYER_GAMES =
        "SELECT id, finished_at, started_at, rated, record_json, variant FROM games
        WHERE id IN (SELECT game_id FROM game_players WHERE user_id = ?2)
            AND (guild_id = ?1 OR (guild_id = 0 AND channel_id = ?3)) AND aborted = {false}
        ORDER BY id";
    /// A player's figures removed, to be rebuilt.
    DELETE_PLAYER_FIGURES =
        "DELETE FROM player_figures WHERE guild_id = ?1 AND user_id = ?2";
    /// A player's pair totals removed, to be rebuilt.
    DELETE_PLAYER_PAIRS =
        "DELETE FROM pair_totals WHERE guild_id = ?1 AND user_id = ?2";
    /// A player's shared games removed, to be rebuilt.
    DELETE_PLAYER_SHARED =
        "DELETE FROM shared_games WHERE guild_id = ?1 AND user_id = ?2";
    /// A player's conservative rating after each of their latest rated games, newest first
    /// (`rating_changes_by_player`).
    RATING_CHART = "SELECT conservative_after FROM rating_changes
        WHERE guild_id = ?1 AND user_id = ?2 ORDER BY game_id DESC LIMIT ?3";
    /// How many rated players of a server stand above one and how many there are, from the kept band
    /// counts (`ratings_by_conservative`'s order; `store::rating::rank_bands`): the players of the
    /// whole points above `?2`, of the tenths above `?3` in the same point (below `?5`), of the
    /// hundredths above `?4` in the same tenth (below `?6`), and in the same hundredth those with a
    /// higher rating (`?7`), or the same with more rated games (`?8`). Bounded by the bands, not the
    /// players (issue 44).
    RATING_RANK = "SELECT
            CAST((SELECT COALESCE(SUM(players), 0) FROM rating_bands
                WHERE guild_id = ?1 AND level = 0 AND band > ?2) AS {int})
            + CAST((SELECT COALESCE(SUM(players), 0) FROM rating_bands
                WHERE guild_id = ?1 AND level = 1 AND band > ?3 AND band < ?5) AS {int})
            + CAST((SELECT COALESCE(SUM(players), 0) FROM rating_bands
                WHERE guild_id = ?1 AND level = 2 AND band > ?4 AND band < ?6) AS {int})
            + (SELECT COUNT(*) FROM ratings WHERE guild_id = ?1 AND band = ?4
                AND (conservative > ?7 OR (conservative = ?7 AND games > ?8))),
            CAST((SELECT COALESCE(SUM(players), 0) FROM rating_bands
                WHERE guild_id = ?1 AND level = 0) AS {int})";
    /// The name a player had in their latest game on a server.
    PLAYER_NAME = "SELECT name FROM player_stats WHERE guild_id = ?1 AND user_id = ?2";

    /// The finished games that were not aborted of one server (`?1` as stored) or of all (`?1`
    /// `NULL`) after game `?2`, in the order they were stored, `?3` at a time, for the recomputation of
    /// profiles.
    PROFILE_GAMES =
        "SELECT id, guild_id, finished_at, started_at, rated, record_json, variant, channel_id FROM games
        WHERE (CAST(?1 AS {int}) IS NULL OR guild_id = ?1) AND id > ?2 AND aborted = {false}
        ORDER BY id LIMIT ?3";
    /// The last game a rebuild of every profile in the background added (no row: none under way),
    /// for a profile read.
    REBUILD_STATE = "SELECT after_game FROM profile_rebuild WHERE id = 1";
    /// The same for a step of the rebuild, which holds the row until it commits (PostgreSQL), so
    /// that no game is finished during a step (see `REBUILD_SHARE`).
    REBUILD_LOCK = "SELECT after_game FROM profile_rebuild WHERE id = 1{| FOR UPDATE}";
    /// The same for `finish_game`, before its game gets an id (PostgreSQL: a step waits for the
    /// games being finished, and they for it, so a step never passes over a game whose id was
    /// given but not yet committed).
    REBUILD_SHARE = "SELECT after_game FROM profile_rebuild WHERE id = 1{| FOR SHARE}";
    /// A rebuild of every profile scheduled, from the first game.
    REBUILD_START = "INSERT INTO profile_rebuild (id, after_game) VALUES (1, 0)
        ON CONFLICT (id) DO UPDATE SET after_game = 0";
    /// The rebuild's progress: every game up to `?1` added.
    REBUILD_ADVANCE = "UPDATE profile_rebuild SET after_game = ?1 WHERE id = 1";
    /// The rebuild done.
    REBUILD_DONE = "DELETE FROM profile_rebuild WHERE id = 1";
    /// The latest stored game's id (how far a rebuild has to go).
    LAST_GAME_ID = "SELECT CAST(COALESCE(MAX(id), 0) AS {int}) FROM games";
    /// Every stored figure of one server (`?1`) or of all (`?1` `NULL`) removed, to be recomputed.
    CLEAR_FIGURES =
        "DELETE FROM player_figures WHERE CAST(?1 AS {int}) IS NULL OR guild_id = ?1";
    /// Every pair total of one server or of all removed, to be recomputed.
    CLEAR_PAIRS =
        "DELETE FROM pair_totals WHERE CAST(?1 AS {int}) IS NULL OR guild_id = ?1";
    /// Every shared game of one server or of all removed, to be recomputed.
    CLEAR_SHARED =
        "DELETE FROM shared_games WHERE CAST(?1 AS {int}) IS NULL OR guild_id = ?1";
    /// Every achievement a game unlocks of one server or of all removed, to be recomputed (series won
    /// are kept: they are not in the games).
    CLEAR_ACHIEVEMENTS = "DELETE FROM achievements
        WHERE (CAST(?1 AS {int}) IS NULL OR guild_id = ?1) AND achievement <> 'series_won'";
}
