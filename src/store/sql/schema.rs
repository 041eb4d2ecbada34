//! The schema of both stores, written once: the migrations in order, each as shared SQL (see
//! [`super::render`] for the tokens) plus the part only one engine has.
//!
//! An engine's migration `i` brings its schema from version `i` to `i + 1`; its list is this one
//! without the migrations that have nothing for it. So SQLite (which has no shard owners: one process
//! per file) counts 16 versions and PostgreSQL 17, exactly as databases of each have always been
//! numbered. A new column or table is one more entry at the end, with `both` set.

use super::{render, Engine};

/// One migration: what both engines run, then what only one of them runs.
pub struct Migration {
    /// Run by both engines (empty: this migration is one engine's only).
    pub both: &'static str,
    /// Run by SQLite only, after `both`.
    pub sqlite: &'static str,
    /// Run by PostgreSQL only, after `both`.
    pub postgres: &'static str,
}

impl Migration {
    /// Whether `engine` has anything to run (else the migration is not in its list).
    const fn applies_to(&self, engine: Engine) -> bool {
        !self.both.is_empty()
            || match engine {
                Engine::Sqlite => !self.sqlite.is_empty(),
                Engine::Postgres => !self.postgres.is_empty(),
            }
    }

    /// Its SQL for `engine`.
    fn sql(&self, engine: Engine) -> String {
        let own = match engine {
            Engine::Sqlite => self.sqlite,
            Engine::Postgres => self.postgres,
        };
        let joined = match (self.both.is_empty(), own.is_empty()) {
            (false, false) => format!("{}\n    {own}", self.both),
            (false, true) => self.both.to_string(),
            _ => own.to_string(),
        };
        render(&joined, engine).into_owned()
    }
}

/// A migration both engines run.
const fn both(sql: &'static str) -> Migration {
    Migration {
        both: sql,
        sqlite: "",
        postgres: "",
    }
}

/// Every migration, in order.
const MIGRATIONS: &[Migration] = &[
    // 1: live tables, quarantine, finished games, their players, per-server stats. The quarantine
    // keeps a table's columns as found (untyped in SQLite, so any value stays as it is).
    both(
        "CREATE TABLE live_tables (
        channel_id {int} PRIMARY KEY,
        guild_id {int} NOT NULL,
        record_json TEXT NOT NULL,
        snapshot_json TEXT NOT NULL,
        updated_at {int} NOT NULL
    );
    CREATE TABLE quarantine (
        id {serial},
        channel_id {int} NOT NULL,
        guild_id {int} NOT NULL,
        record_json{| TEXT},
        snapshot_json{| TEXT},
        updated_at {int},
        reason TEXT NOT NULL,
        quarantined_at {int} NOT NULL
    );
    CREATE TABLE games (
        id {serial},
        guild_id {int} NOT NULL,
        channel_id {int} NOT NULL,
        variant TEXT NOT NULL,
        record_json TEXT NOT NULL,
        finished_at {int} NOT NULL
    );
    CREATE INDEX games_by_guild ON games (guild_id, finished_at DESC, id DESC);
    CREATE TABLE game_players (
        game_id {int} NOT NULL REFERENCES games (id),
        seat {int} NOT NULL,
        user_id {int} NOT NULL,
        name TEXT NOT NULL,
        team {int} NOT NULL,
        won {bool} NOT NULL,
        sequences {int} NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE player_stats (
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        name TEXT NOT NULL,
        games {int} NOT NULL,
        wins {int} NOT NULL,
        sequences {int} NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE INDEX player_stats_by_wins ON player_stats (guild_id, wins DESC, games DESC);",
    ),
    // 2: whether a finished game's final message was posted (games stored before count as posted).
    // SQLite: an index keeps each live table's channel on pages apart from the table's, so that if a
    // page of the table is damaged the repair still knows which channels lost their game and tells
    // them. PostgreSQL: a version per live table, raised by every save, so that no process
    // overwrites a newer save.
    Migration {
        both: "ALTER TABLE games ADD COLUMN announced {bool} NOT NULL DEFAULT {true};
    CREATE INDEX games_unannounced ON games (id) WHERE {announced = 0|NOT announced};",
        sqlite: "CREATE INDEX live_tables_channels ON live_tables (guild_id, channel_id);",
        postgres: "ALTER TABLE live_tables ADD COLUMN version BIGINT NOT NULL DEFAULT 0;",
    },
    // 3: ratings. Whether a game counts, computer levels and who gave up; each player's rating per
    // server and its change in every rated game. Filled from the stored games by
    // `ratings::recompute_ratings` (see `super::super::RATINGS_VERSION`).
    both(
        "ALTER TABLE games ADD COLUMN rated {bool} NOT NULL DEFAULT {false};
    ALTER TABLE game_players ADD COLUMN bot_level TEXT;
    ALTER TABLE game_players ADD COLUMN gave_up {bool} NOT NULL DEFAULT {false};
    CREATE TABLE ratings (
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        name TEXT NOT NULL,
        mu {real} NOT NULL,
        sigma {real} NOT NULL,
        conservative {real} NOT NULL,
        games {int} NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE INDEX ratings_by_conservative ON ratings (guild_id, conservative DESC);
    CREATE TABLE rating_changes (
        game_id {int} NOT NULL,
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        conservative_before {real} NOT NULL,
        conservative_after {real} NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, user_id, game_id DESC);",
    ),
    // 4: each server's own settings, and who changed what.
    both(
        "CREATE TABLE server_settings (
        guild_id {int} PRIMARY KEY,
        settings_json TEXT NOT NULL,
        updated_at {int} NOT NULL
    );
    CREATE TABLE settings_log (
        id {serial},
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        change TEXT NOT NULL,
        at {int} NOT NULL
    );
    CREATE INDEX settings_log_by_guild ON settings_log (guild_id, id DESC);",
    ),
    // 5 (PostgreSQL only): who holds each Discord shard: the token of the process that claimed it
    // last (`NULL` once released). Writes for a table check it under a share lock, so that none of a
    // process that lost its shard lands after another process claimed it (see
    // `PostgresStore::claim_shards`).
    Migration {
        both: "",
        sqlite: "",
        postgres: "CREATE TABLE shard_owners (
        total BIGINT NOT NULL,
        shard BIGINT NOT NULL,
        owner BIGINT,
        claimed_at BIGINT NOT NULL,
        PRIMARY KEY (total, shard)
    );",
    },
    // 6: aborted games (ended before every human had made two moves): kept, but they count for
    // nothing.
    both("ALTER TABLE games ADD COLUMN aborted {bool} NOT NULL DEFAULT {false};"),
    // 7: a server's settings that could not be read, set aside for the operator (byte for byte as
    // found, whatever their type: SQLite's columns without a type keep any value as it is).
    both(
        "CREATE TABLE settings_damaged (
        id {serial},
        guild_id {int} NOT NULL,
        settings_json {bytes},
        updated_at{| BIGINT},
        reason TEXT NOT NULL,
        set_aside_at {int} NOT NULL
    );",
    ),
    // 8: a channel's latest game (`/sequence record` without a number) found by an index instead of
    // reading every game of its server (issue 28).
    both("CREATE INDEX games_by_channel ON games (guild_id, channel_id, finished_at DESC, id DESC);"),
    // 9: the day's rated games of a server (the daily limit, read by rated lobbies) from an index that
    // holds all the query needs of `games`, instead of each game's row with its record (8.7 ms at the
    // median with a million stored games in SQLite; issue 28).
    both("CREATE INDEX games_rated_by_guild ON games (guild_id, finished_at) WHERE {rated = 1|rated};"),
    // 10: each human's agreement with the `hard` computer player in a finished game (issue 27).
    both(
        "CREATE TABLE game_agreement (
        game_id {int} NOT NULL REFERENCES games (id),
        user_id {int} NOT NULL,
        matched {int} NOT NULL,
        counted {int} NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX game_agreement_by_user ON game_agreement (user_id);",
    ),
    // 11: series played and won, per player and server (issue 25).
    both(
        "CREATE TABLE series_stats (
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        played {int} NOT NULL,
        won {int} NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );",
    ),
    // 12: a player's series counts that could not be used, set aside for the operator as found
    // (SQLite's columns without a type keep any value as it is; issue 33).
    both(
        "CREATE TABLE series_stats_damaged (
        id {serial},
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        played{| BIGINT},
        won{| BIGINT},
        reason TEXT NOT NULL,
        set_aside_at {int} NOT NULL
    );",
    ),
    // 13: a player's latest agreement with `hard` on a server read from an index instead of walking
    // the server's rated games newest first and probing each for the player's row (363 to 503 ms
    // for a member who never played there, with a million stored games; issue 35). Each row keeps
    // its game's server and whether the game counts (rated, not aborted); existing rows are filled
    // from their games.
    both(
        "ALTER TABLE game_agreement ADD COLUMN guild_id {int} NOT NULL DEFAULT 0;
    ALTER TABLE game_agreement ADD COLUMN counts {bool} NOT NULL DEFAULT {false};
    UPDATE game_agreement SET guild_id = g.guild_id,
        counts = {g.rated = 1 AND g.aborted = 0|g.rated AND NOT g.aborted}
    FROM games g WHERE g.id = game_agreement.game_id;
    DROP INDEX game_agreement_by_user;
    CREATE INDEX game_agreement_by_player
        ON game_agreement (guild_id, user_id, counts, game_id DESC);",
    ),
    // 14: a player's profile (issue 35): when a game started; each player's figures per server as
    // JSON (`scope` "figures": every game not aborted, "feats": the games that count for
    // achievements); the achievements unlocked, each once, with the game that unlocked it; totals per
    // ordered pair of humans and the games they shared. Filled from the stored games by
    // `profiles::recompute_profiles` (see `PROFILES_MIGRATION`).
    both(
        "ALTER TABLE games ADD COLUMN started_at {int};
    CREATE INDEX game_players_by_user ON game_players (user_id, game_id);
    CREATE TABLE player_figures (
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        scope TEXT NOT NULL,
        figures_json{| TEXT} NOT NULL,
        PRIMARY KEY (guild_id, user_id, scope)
    );
    CREATE TABLE achievements (
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        achievement TEXT NOT NULL,
        game_id {int} NOT NULL,
        unlocked_at {int} NOT NULL,
        PRIMARY KEY (guild_id, user_id, achievement)
    );
    CREATE INDEX achievements_by_game ON achievements (game_id);
    CREATE TABLE pair_totals (
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        other_id {int} NOT NULL,
        games{| BIGINT} NOT NULL,
        partner_games{| BIGINT} NOT NULL,
        partner_wins{| BIGINT} NOT NULL,
        opponent_games{| BIGINT} NOT NULL,
        wins{| BIGINT} NOT NULL,
        losses{| BIGINT} NOT NULL,
        sequences{| BIGINT} NOT NULL,
        other_sequences{| BIGINT} NOT NULL,
        PRIMARY KEY (guild_id, user_id, other_id)
    );
    CREATE TABLE shared_games (
        guild_id {int} NOT NULL,
        user_id {int} NOT NULL,
        other_id {int} NOT NULL,
        game_id {int} NOT NULL,
        variant TEXT NOT NULL,
        finished_at {int} NOT NULL,
        partners {bool} NOT NULL,
        won {bool} NOT NULL,
        other_won {bool} NOT NULL,
        PRIMARY KEY (guild_id, user_id, other_id, game_id)
    );
    CREATE TABLE profile_rebuild (
        id {int} PRIMARY KEY,
        after_game {int} NOT NULL
    );",
    ),
    // 15: issue 44. A profile's rank from kept counts of rated players per band of the conservative
    // rating (`rating::rank_band`: bands of a whole point, a tenth and a hundredth), not by
    // counting the server's players; each rating keeps its fine band. Filled from the stored ratings
    // by `ratings::recount_rating_bands` (see `BANDS_MIGRATION`). And the profiles' rebuild in the
    // background: the profiles migration above replayed every stored game before the bot was ready
    // (25 s at 100,000 games); it now creates `profile_rebuild` (one row while a rebuild is under way:
    // the last game added) and leaves the replay to `profiles::rebuild_step`. A database that took
    // that migration before has its profiles and gets the table here, empty.
    both(
        "ALTER TABLE ratings ADD COLUMN band {int} NOT NULL DEFAULT 0;
    CREATE INDEX ratings_by_band ON ratings (guild_id, band, conservative, games);
    CREATE TABLE rating_bands (
        guild_id {int} NOT NULL,
        level {int} NOT NULL,
        band {int} NOT NULL,
        players {int} NOT NULL,
        PRIMARY KEY (guild_id, level, band)
    );
    CREATE TABLE IF NOT EXISTS profile_rebuild (
        id {int} PRIMARY KEY,
        after_game {int} NOT NULL
    );",
    ),
    // 16: issue 46. A finished game keeps its table's web token, so that the table's page (the link
    // of its Watch and Replay buttons) becomes the game's replay; games stored before have none.
    both(
        "ALTER TABLE games ADD COLUMN web_token TEXT;
    CREATE INDEX games_by_web_token ON games (web_token, id);",
    ),
    // 17: issue 46. Each live table's web token in a column of its own, indexed, so that any
    // process finds the table of a page (`/g/<token>`) whichever process holds it. Written by every
    // save; rows saved before have none until their next save (the restore saves them once).
    both(
        "ALTER TABLE live_tables ADD COLUMN web_token TEXT;
    CREATE INDEX live_tables_by_web_token ON live_tables (web_token)
        WHERE web_token IS NOT NULL;",
    ),
];

/// The index in the migration list of the one that added profiles: reaching it, the stores schedule
/// the profiles' rebuild from the stored games (`profiles::schedule_rebuild`).
const PROFILES_MIGRATION: usize = 13;

/// The index in the migration list of the one that added the rank bands: reaching it, the stores
/// count them from the stored ratings (`ratings::recount_rating_bands`) and rebuild the profiles under
/// issue 44's rules of what counts (`profiles::schedule_rebuild`).
const BANDS_MIGRATION: usize = 14;

/// The schema version `engine` reaches with the migration that added profiles.
pub const fn profiles_version(engine: Engine) -> i64 {
    version_after(PROFILES_MIGRATION, engine)
}

/// The schema version `engine` reaches with the migration that added the rank bands.
pub const fn bands_version(engine: Engine) -> i64 {
    version_after(BANDS_MIGRATION, engine)
}

/// The schema version `engine` reaches with the migration at `index`.
const fn version_after(index: usize, engine: Engine) -> i64 {
    let mut n = 0;
    let mut i = 0;
    while i <= index && i < MIGRATIONS.len() {
        if MIGRATIONS[i].applies_to(engine) {
            n += 1;
        }
        i += 1;
    }
    n
}

/// How many migrations `engine` has: the schema version it writes.
const fn count(engine: Engine) -> i64 {
    let mut n = 0;
    let mut i = 0;
    while i < MIGRATIONS.len() {
        if MIGRATIONS[i].applies_to(engine) {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The schema version the SQLite store writes.
pub const SQLITE_VERSION: i64 = count(Engine::Sqlite);

/// The schema version the PostgreSQL store writes.
pub const POSTGRES_VERSION: i64 = count(Engine::Postgres);

/// `engine`'s migrations in order, rendered: its migration `i` brings version `i` to `i + 1`.
pub fn migrations(engine: Engine) -> Vec<String> {
    MIGRATIONS
        .iter()
        .filter(|m| m.applies_to(engine))
        .map(|m| m.sql(engine))
        .collect()
}
