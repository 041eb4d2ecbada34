//! The store test suite, run against SQLite always and against PostgreSQL when
//! `SEQUENCE_BOT_TEST_POSTGRES_URL` is set; plus tests of one backend's own concerns.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::*;
use crate::engine::record::Record;
use crate::engine::{Config, Options, Variant};

/// A store under test and whatever must outlive it (a temp folder, a schema to drop afterwards).
pub(crate) struct TestStore {
    /// The store.
    pub store: Arc<dyn Store>,
    /// Dropped after the store.
    _guard: Box<dyn Any>,
}

/// A fresh SQLite store in a temp folder.
pub(crate) fn sqlite_store(_name: &str) -> Option<TestStore> {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("bot.db")).expect("open sqlite");
    Some(TestStore {
        store: Arc::new(store),
        _guard: Box::new(dir),
    })
}

/// The test server's URL, or `None` (with a note) to skip.
pub(crate) fn postgres_url() -> Option<String> {
    match std::env::var("SEQUENCE_BOT_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            println!(
                "note: PostgreSQL tests skipped: SEQUENCE_BOT_TEST_POSTGRES_URL is not set \
                 (run `source .ci/postgres.sh` first)"
            );
            None
        }
    }
}

/// Drops a test schema when the test ends.
pub(crate) struct DropSchema {
    /// The server.
    url: String,
    /// The schema.
    schema: String,
}

impl Drop for DropSchema {
    fn drop(&mut self) {
        let (url, schema) = (self.url.clone(), self.schema.clone());
        // On a thread of its own: the client's runtime must not be dropped inside a test's runtime.
        let _ = std::thread::spawn(move || {
            if let Ok(mut client) = ::postgres::Client::connect(&url, ::postgres::NoTls) {
                let _ = client.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
            }
        })
        .join();
    }
}

/// A fresh schema on the test server, named after the test.
pub(crate) fn postgres_schema(name: &str) -> Option<(::postgres::Config, DropSchema)> {
    let url = postgres_url()?;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let schema = format!(
        "t_{name}_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let mut client =
        ::postgres::Client::connect(&url, ::postgres::NoTls).expect("connect to the test server");
    client
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .expect("create schema");
    drop(client);
    let mut config: ::postgres::Config = url.parse().expect("test URL");
    config.options(&format!("-c search_path={schema}"));
    Some((config, DropSchema { url, schema }))
}

/// A fresh PostgreSQL store in a schema of its own, or `None` to skip.
pub(crate) fn postgres_store(name: &str) -> Option<TestStore> {
    let (config, guard) = postgres_schema(name)?;
    let store = PostgresStore::open_config(config).expect("open postgres");
    Some(TestStore {
        store: Arc::new(store),
        _guard: Box::new(guard),
    })
}

/// A complete random game's record.
pub(super) fn full_record(variant: Variant, players: u8, teams: Option<u8>, seed: u64) -> Record {
    let config = Config::new(variant, players, teams, Options::default()).expect("config");
    Record::random_game(config, seed)
}

/// The record of a game in progress: the first `actions` actions of a random game.
pub(super) fn partial_record(seed: u64, actions: usize) -> Record {
    let mut record = full_record(Variant::Classic, 2, None, seed);
    record.actions.truncate(actions);
    record
}

/// JSON of a record.
pub(super) fn json(record: &Record) -> String {
    serde_json::to_string(record).expect("record to JSON")
}

/// A live table for a channel, `actions` actions into its game.
pub(super) fn table(channel_id: u64, guild_id: Option<u64>, actions: usize) -> StoredTable {
    StoredTable {
        channel_id,
        guild_id,
        record_json: json(&partial_record(channel_id, actions)),
        snapshot_json: format!(
            r#"{{"channel":{channel_id},"actions":{actions},"phase":"playing"}}"#
        ),
        updated_at: 1_700_000_000_000 + i64::try_from(actions).expect("small"),
        web_token: None,
    }
}

/// A player result.
pub(super) fn player(
    user_id: u64,
    name: &str,
    team: u8,
    won: bool,
    sequences: u32,
) -> PlayerResult {
    PlayerResult {
        user_id,
        name: name.to_string(),
        team,
        won,
        sequences,
        bot_level: None,
        gave_up: false,
    }
}

/// A finished game of a guild with these players.
pub(super) fn finished(
    guild_id: Option<u64>,
    channel_id: u64,
    finished_at: i64,
    players: Vec<PlayerResult>,
) -> FinishedGame {
    let teams = players.iter().map(|p| p.team).max().unwrap_or(0) + 1;
    let n = u8::try_from(players.len()).expect("few players");
    let variant = Variant::Classic;
    FinishedGame {
        guild_id,
        channel_id,
        variant: variant.to_string(),
        record_json: json(&full_record(variant, n, Some(teams), channel_id)),
        finished_at,
        started_at: None,
        players,
        rated: None,
        aborted: false,
        web_token: None,
    }
}

/// Finished games as stored before ratings existed: (server, players). Server 7: 1 beats 2, 1 beats
/// a computer (its level only in its German name), 2 beats 1; server 8: 1 beats 3.
pub(super) fn old_games() -> Vec<(u64, Vec<PlayerResult>)> {
    let bot = player(BOT_USER_ID, "Computer 1 (leicht)", 1, false, 0);
    vec![
        (
            7,
            vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)],
        ),
        (7, vec![player(1, "Ann", 0, true, 1), bot]),
        (
            7,
            vec![player(2, "Bo", 0, true, 1), player(1, "Ann", 1, false, 0)],
        ),
        (
            8,
            vec![player(1, "Ann", 0, true, 1), player(3, "Cy", 1, false, 0)],
        ),
    ]
}

/// The cases every backend must pass.
pub(super) mod cases {
    use super::*;

    /// A player's agreement with `hard` sums their latest rated games of the server only: not an
    /// unrated or aborted game, not another server's; saved again, a game's row is replaced; a game
    /// that does not exist stores nothing; a member who never played has none (issue 35).
    pub fn agreement(store: &dyn Store) {
        let (g, other) = (Some(70), Some(71));
        let players = || vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)];
        let game = |guild, channel, at, rated: Option<bool>, aborted| {
            let mut game = finished(guild, channel, at, players());
            game.rated = rated;
            game.aborted = aborted;
            store.finish_game(&game).expect("finish")
        };
        let first = game(g, 701, 1, None, false);
        let casual = game(g, 702, 2, Some(false), false);
        let aborted = game(g, 703, 3, None, true);
        let elsewhere = game(other, 711, 4, None, false);
        let last = game(g, 704, 5, None, false);
        for (id, matched) in [
            (first, 3),
            (casual, 100),
            (aborted, 100),
            (elsewhere, 50),
            (last, 4),
        ] {
            store
                .save_agreement(id, &[(1, matched, 10), (2, 1, 10)])
                .expect("save");
        }
        let totals = |guild, user, limit| store.recent_agreement(guild, user, limit).expect("read");
        let sum = |matched, counted, games| AgreementTotals {
            matched,
            counted,
            games,
        };
        assert_eq!(totals(g, 1, 20), sum(7, 20, 2));
        assert_eq!(totals(g, 1, 1), sum(4, 10, 1), "the latest game first");
        assert_eq!(totals(g, 2, 20), sum(2, 20, 2));
        assert_eq!(totals(other, 1, 20), sum(50, 10, 1));
        assert_eq!(totals(g, 3, 20), sum(0, 0, 0), "never played");
        store.save_agreement(last, &[(1, 9, 10)]).expect("again");
        assert_eq!(totals(g, 1, 1), sum(9, 10, 1));
        store
            .save_agreement(GameId(first.0 + 1000), &[(1, 5, 5)])
            .expect("no such game: nothing");
        assert_eq!(totals(g, 1, 20), sum(12, 20, 2));
    }

    /// Saved tables load back exactly, with and without a guild, ids beyond `i64::MAX` included.
    pub fn round_trip(store: &dyn Store) {
        let tables = vec![
            table(11, Some(900), 0),
            table(12, None, 7),
            table(u64::MAX - 5, Some(u64::MAX - 1), 30),
        ];
        for t in &tables {
            store.save_table(t).expect("save");
        }
        let loaded = store.load_tables().expect("load");
        assert!(loaded.quarantined.is_empty(), "{:?}", loaded.quarantined);
        let mut got = loaded.tables;
        got.sort_by_key(|t| t.channel_id);
        assert_eq!(got, tables);
        assert_eq!(store.load_tables().expect("load again").tables.len(), 3);
    }

    /// Saving a channel again replaces its table.
    pub fn upsert_overwrites(store: &dyn Store) {
        store.save_table(&table(21, Some(1), 3)).expect("save");
        store.save_table(&table(22, Some(1), 3)).expect("save");
        let newer = table(21, Some(2), 9);
        store.save_table(&newer).expect("save again");
        let loaded = store.load_tables().expect("load");
        assert_eq!(loaded.tables.len(), 2);
        let got = loaded
            .tables
            .iter()
            .find(|t| t.channel_id == 21)
            .expect("channel 21");
        assert_eq!(got, &newer);
    }

    /// Deleting removes one table and says whether there was one.
    pub fn delete(store: &dyn Store) {
        store.save_table(&table(31, None, 2)).expect("save");
        store.save_table(&table(32, None, 2)).expect("save");
        assert!(store.delete_table(31).expect("delete"));
        assert!(!store.delete_table(31).expect("delete again"));
        assert!(!store.delete_table(999).expect("delete unknown"));
        let loaded = store.load_tables().expect("load");
        let channels: Vec<u64> = loaded.tables.iter().map(|t| t.channel_id).collect();
        assert_eq!(channels, vec![32]);
    }

    /// A live table is found by its web token, and read by its channel, whichever process saved it;
    /// the token follows every save and goes with the table when it is deleted, finished or
    /// quarantined (issue 46: any process answers any game's page).
    pub fn web_token_lookup(store: &dyn Store) {
        let (a, b) = (
            "0123456789abcdef0123456789abcdef",
            "fedcba9876543210fedcba9876543210",
        );
        let with_token = |channel: u64, actions: usize, token: &str| StoredTable {
            web_token: Some(token.to_string()),
            ..table(channel, Some(5), actions)
        };
        assert_eq!(store.channel_of_web_token(a).expect("lookup"), None);
        assert_eq!(store.live_table(51).expect("read"), None);
        let first = with_token(51, 2, a);
        store.save_table(&first).expect("save");
        store
            .save_table(&table(52, None, 2))
            .expect("save one without a token");
        assert_eq!(store.channel_of_web_token(a).expect("lookup"), Some(51));
        assert_eq!(store.channel_of_web_token(b).expect("lookup"), None);
        let read = store.live_table(51).expect("read").expect("there");
        assert_eq!(read.table, first);
        assert_eq!(
            store
                .live_table(52)
                .expect("read")
                .expect("there")
                .table
                .web_token,
            None
        );
        // A later save carries its token (here a new one): the old one names nothing any more.
        let second = with_token(51, 4, b);
        store.save_table(&second).expect("save again");
        assert_eq!(store.channel_of_web_token(a).expect("lookup"), None);
        assert_eq!(store.channel_of_web_token(b).expect("lookup"), Some(51));
        let again = store.live_table(51).expect("read").expect("there");
        assert_eq!(again.table, second);
        assert!(again.version > read.version, "the version grows");
        // Loaded at start with its token.
        let loaded = store.load_tables().expect("load");
        assert_eq!(
            loaded.tables.iter().find(|t| t.channel_id == 51),
            Some(&second)
        );
        // Deleted: nothing found by token or channel.
        assert!(store.delete_table(51).expect("delete"));
        assert_eq!(store.channel_of_web_token(b).expect("lookup"), None);
        assert_eq!(store.live_table(51).expect("read"), None);
        // Finished: the live table and its token go with it.
        store.save_table(&with_token(53, 3, a)).expect("save");
        store
            .finish_game(&finished(
                Some(5),
                53,
                10,
                vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)],
            ))
            .expect("finish");
        assert_eq!(store.channel_of_web_token(a).expect("lookup"), None);
        assert_eq!(store.live_table(53).expect("read"), None);
        // Quarantined: likewise.
        store.save_table(&with_token(54, 3, b)).expect("save");
        assert!(store.quarantine_table(54, "test").expect("quarantine"));
        assert_eq!(store.channel_of_web_token(b).expect("lookup"), None);
    }

    /// Tables that no longer validate are moved aside with a reason, never dropped, and the others
    /// still load.
    pub fn quarantine(store: &dyn Store) {
        let good = table(41, Some(5), 10);
        store.save_table(&good).expect("save");
        let mut not_json = table(42, Some(5), 10);
        not_json.record_json = "{ this is not json".into();
        store.save_table(&not_json).expect("save");
        let mut illegal = partial_record(43, 10);
        let last = illegal.actions.last().cloned().expect("an action");
        illegal.actions.push(last);
        let mut illegal_table = table(43, None, 10);
        illegal_table.record_json = json(&illegal);
        store.save_table(&illegal_table).expect("save");
        let mut bad_snapshot = table(44, Some(5), 4);
        bad_snapshot.snapshot_json = "{\"phase\": ".into();
        store.save_table(&bad_snapshot).expect("save");
        let mut bad_variant = partial_record(45, 0);
        bad_variant.variant = "chess".into();
        let mut bad_variant_table = table(45, Some(5), 0);
        bad_variant_table.record_json = json(&bad_variant);
        store.save_table(&bad_variant_table).expect("save");

        let loaded = store.load_tables().expect("load");
        assert_eq!(loaded.tables, vec![good.clone()]);
        let reasons: Vec<(u64, &str)> = loaded
            .quarantined
            .iter()
            .map(|q| (q.channel_id, q.reason.as_str()))
            .collect();
        assert_eq!(reasons.len(), 4, "{reasons:?}");
        assert!(reasons[0].0 == 42 && reasons[0].1.contains("malformed record"));
        assert!(reasons[1].0 == 43 && reasons[1].1.contains("action 10"));
        assert!(reasons[1].1.contains("not_your_turn"), "{}", reasons[1].1);
        assert!(reasons[2].0 == 44 && reasons[2].1.contains("snapshot is not valid JSON"));
        assert!(
            reasons[3].0 == 45 && reasons[3].1.contains("chess"),
            "{}",
            reasons[3].1
        );
        assert_eq!(loaded.quarantined[1].guild_id, None);
        assert_eq!(loaded.quarantined[0].guild_id, Some(5));

        // Kept aside, not loaded again, not reported twice.
        let again = store.load_tables().expect("load again");
        assert_eq!(again.tables, vec![good]);
        assert!(again.quarantined.is_empty());
        let kept = store.quarantined().expect("list quarantine");
        assert_eq!(kept, loaded.quarantined);
    }

    /// Finished games feed stats and the leaderboard; bots stay out; servers stay apart; the live
    /// table goes.
    /// Ratings follow rated games: 1 vs 1, computer players at fixed ratings (unrated by default,
    /// rated when asked), 2 vs 2, three teams, provisional marks, servers apart.
    pub fn ratings(store: &dyn Store) {
        let g = Some(60);
        let rating = |user: u64| store.player_rating(g, user, 5).expect("rating");
        assert!(rating(1).is_none());
        assert!(store.rating_leaderboard(g, 10).expect("board").is_empty());

        // 1 vs 1.
        store
            .finish_game(&finished(
                g,
                601,
                1,
                vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)],
            ))
            .expect("finish");
        let ann = rating(1).expect("Ann is rated");
        let bo = rating(2).expect("Bo is rated");
        assert!(
            ann.rating.mu > 25.0 && bo.rating.mu < 25.0,
            "{ann:?} {bo:?}"
        );
        assert_eq!((ann.rating.games, bo.rating.games), (1, 1));
        assert_eq!(ann.changes.len(), 1);
        assert!(
            ann.changes[0] > 0.0 && bo.changes[0] < ann.changes[0],
            "{ann:?} {bo:?}"
        );
        assert!(
            (ann.changes[0] - ann.rating.conservative()).abs() < 1e-9,
            "from 0"
        );

        // Against a computer: not rated unless asked; rated, beating `easy` is worth little.
        let easy = PlayerResult {
            bot_level: Some("easy".into()),
            ..player(BOT_USER_ID, "Computer 1 (easy)", 1, false, 0)
        };
        let mut vs_bot = finished(g, 602, 2, vec![player(1, "Ann", 0, true, 1), easy]);
        store.finish_game(&vs_bot).expect("finish");
        assert_eq!(
            rating(1).expect("rated").rating,
            ann.rating,
            "unrated by default"
        );
        vs_bot.channel_id = 603;
        vs_bot.rated = Some(true);
        store.finish_game(&vs_bot).expect("finish");
        let after_bot = rating(1).expect("rated");
        assert_eq!(after_bot.rating.games, 2);
        assert!(
            after_bot.rating.mu - ann.rating.mu < 1.0,
            "{after_bot:?} {ann:?}"
        );
        assert!(after_bot.rating.mu > ann.rating.mu);
        // Two humans, but the host said casual.
        let mut casual = finished(
            g,
            604,
            3,
            vec![player(1, "Ann", 0, false, 0), player(2, "Bo", 1, true, 1)],
        );
        casual.rated = Some(false);
        store.finish_game(&casual).expect("finish");
        assert_eq!(rating(2).expect("rated").rating, bo.rating, "a casual game");

        // 2 vs 2: every player of both teams.
        store
            .finish_game(&finished(
                g,
                605,
                4,
                vec![
                    player(3, "Cy", 0, true, 1),
                    player(4, "Di", 1, false, 0),
                    player(5, "Ed", 0, true, 0),
                    player(6, "Fa", 1, false, 0),
                ],
            ))
            .expect("finish");
        for (user, up) in [(3, true), (4, false), (5, true), (6, false)] {
            let r = rating(user).expect("rated").rating;
            assert_eq!(r.mu > 25.0, up, "user {user}: {r:?}");
            assert_eq!(r.games, 1);
        }

        // Three teams: the winner up, both others down.
        store
            .finish_game(&finished(
                g,
                606,
                5,
                vec![
                    player(7, "Gu", 0, false, 0),
                    player(8, "Ha", 1, true, 1),
                    player(9, "Io", 2, false, 0),
                ],
            ))
            .expect("finish");
        assert!(rating(8).expect("rated").rating.mu > 25.0);
        assert!(rating(7).expect("rated").rating.mu < 25.0);
        assert!(rating(9).expect("rated").rating.mu < 25.0);

        // The leaderboard ranks by conservative rating; everyone is still provisional.
        let board = store.rating_leaderboard(g, 20).expect("board");
        assert_eq!(board.len(), 9);
        assert!(board
            .windows(2)
            .all(|w| w[0].rating.conservative() >= w[1].rating.conservative()));
        assert!(board.iter().all(|row| row.rating.is_provisional()));
        assert_eq!(
            board
                .iter()
                .find(|r| r.user_id == 3)
                .map(|r| r.name.as_str()),
            Some("Cy")
        );

        // Five rated games make a rating no longer provisional; changes come newest first.
        for n in 0..3 {
            store
                .finish_game(&finished(
                    g,
                    610 + n,
                    6 + n as i64,
                    vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)],
                ))
                .expect("finish");
        }
        let ann = rating(1).expect("rated");
        assert_eq!(ann.rating.games, 5);
        assert!(!ann.rating.is_provisional());
        assert_eq!(ann.changes.len(), 5);
        let bo = rating(2).expect("rated");
        assert_eq!(bo.rating.games, 4);
        assert!(bo.rating.is_provisional());
        assert_eq!(store.rating_leaderboard(g, 1).expect("board")[0].user_id, 1);
        assert_eq!(
            store
                .player_rating(g, 1, 2)
                .expect("rating")
                .expect("rated")
                .changes
                .len(),
            2
        );

        // Another server knows none of it.
        assert!(store
            .player_rating(Some(61), 1, 5)
            .expect("rating")
            .is_none());
        assert!(store
            .rating_leaderboard(Some(61), 10)
            .expect("board")
            .is_empty());
    }

    /// After the migration to ratings (games stored before it, written by `insert_old_games`): each
    /// game counts by the default rule, computer levels are read from names, and every rating is what
    /// replaying the games in order gives.
    pub fn migrated_ratings(store: &dyn Store) {
        let r = |g: u64, user: u64| store.player_rating(Some(g), user, 10).expect("rating");
        let one = r(7, 1).expect("user 1 rated");
        let two = r(7, 2).expect("user 2 rated");
        assert_eq!(
            (one.rating.games, two.rating.games),
            (2, 2),
            "the game against a computer is not rated"
        );
        assert_eq!(one.changes.len(), 2);
        assert_eq!(r(8, 1).expect("user 1 on server 8").rating.games, 1);
        assert!(r(7, 3).is_none());
        let games = store.recent_games(Some(7), 10).expect("games");
        let bot = games
            .iter()
            .flat_map(|g| &g.players)
            .find(|p| p.user_id == BOT_USER_ID)
            .expect("the computer player");
        assert_eq!(bot.bot_level.as_deref(), Some("easy"));
        // The same numbers as rating the games one by one.
        let mut current = std::collections::HashMap::new();
        for players in old_games()
            .into_iter()
            .filter(|(g, _)| *g == 7)
            .map(|(_, p)| p)
        {
            if rating::rated_by_default(&players) {
                for u in rating::rate_game(&players, false, &current) {
                    current.insert(u.user_id, u.after);
                }
            }
        }
        assert_eq!(current.get(&1), Some(&one.rating));
        assert_eq!(current.get(&2), Some(&two.rating));
        let board = store.rating_leaderboard(Some(7), 10).expect("board");
        assert_eq!(board.len(), 2);
    }

    /// A server's settings: none until saved, replaced by each save, every change logged with who
    /// made it, servers apart.
    pub fn server_settings(store: &dyn Store) {
        assert_eq!(store.server_settings(70).expect("read"), None);
        assert!(store.settings_log(70, 10).expect("log").is_empty());
        let change = |user_id, change: &str, at| SettingsChange {
            user_id,
            change: change.into(),
            at,
        };
        store
            .save_server_settings(70, r#"{"variant":"dice"}"#, &change(5, "game: dice", 1))
            .expect("save");
        store
            .save_server_settings(
                70,
                r#"{"variant":"dice","turn_timeout_secs":300}"#,
                &change(u64::MAX - 1, "turn_timeout: 300 s", 2),
            )
            .expect("save");
        assert_eq!(
            store.server_settings(70).expect("read").as_deref(),
            Some(r#"{"variant":"dice","turn_timeout_secs":300}"#)
        );
        assert_eq!(
            store.settings_log(70, 10).expect("log"),
            vec![
                change(u64::MAX - 1, "turn_timeout: 300 s", 2),
                change(5, "game: dice", 1)
            ]
        );
        assert_eq!(store.settings_log(70, 1).expect("log").len(), 1);
        assert_eq!(store.server_settings(71).expect("read"), None);
        assert!(store.settings_log(71, 10).expect("log").is_empty());
    }

    /// Issue 24.6: stored ratings that the rating code cannot have written (`damage`, run one by
    /// one as SQL on the database under the store) are noticed when read, by the player's stats,
    /// the leaderboard and the next rated game, and the server's ratings are recomputed from its
    /// stored games: the numbers are exactly those before the damage.
    pub fn damaged_ratings(store: &dyn Store, damage: &dyn Fn(&str), statements: &[&str]) {
        let g = Some(80);
        for (n, winner, loser) in [(1, 1, 2), (2, 2, 3), (3, 1, 3), (4, 1, 2)] {
            store
                .finish_game(&finished(
                    g,
                    800 + n,
                    n as i64,
                    vec![
                        player(winner, "Win", 0, true, 1),
                        player(loser, "Lose", 1, false, 0),
                    ],
                ))
                .expect("finish");
        }
        // Another server's ratings stay as they are.
        store
            .finish_game(&finished(
                Some(81),
                890,
                9,
                vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)],
            ))
            .expect("finish");
        let report = |user| store.player_rating(g, user, 10).expect("rating");
        let clean: Vec<_> = (1..=3).map(report).collect();
        assert!(clean.iter().all(Option::is_some));
        let board = store.rating_leaderboard(g, 10).expect("board");
        assert_eq!(board.len(), 3);
        let elsewhere = store.player_rating(Some(81), 1, 10).expect("rating");
        for sql in statements {
            damage(sql);
            let read: Vec<_> = (1..=3).map(report).collect();
            assert_eq!(read, clean, "after `{sql}`");
            assert_eq!(
                store.rating_leaderboard(g, 10).expect("board"),
                board,
                "after `{sql}`"
            );
            // The leaderboard notices on its own too.
            damage(sql);
            assert_eq!(
                store.rating_leaderboard(g, 10).expect("board"),
                board,
                "the leaderboard after `{sql}`"
            );
            assert_eq!((1..=3).map(report).collect::<Vec<_>>(), clean);
        }
        assert_eq!(
            store.player_rating(Some(81), 1, 10).expect("rating"),
            elsewhere
        );

        // The next rated game starts from the recomputed ratings, not from the damage.
        let next = vec![player(3, "Cy", 0, true, 1), player(1, "Ann", 1, false, 0)];
        let mut current = std::collections::HashMap::new();
        for (user, r) in [(1, &clean[0]), (3, &clean[2])] {
            current.insert(user, r.as_ref().expect("rated").rating);
        }
        let expected = rating::rate_game(&next, false, &current);
        if let Some(sql) = statements.first() {
            damage(sql);
        }
        store
            .finish_game(&finished(g, 899, 20, next))
            .expect("finish");
        for update in expected {
            let after = store
                .player_rating(g, update.user_id, 1)
                .expect("rating")
                .expect("rated");
            assert_eq!(after.rating, update.after, "user {}", update.user_id);
        }
    }

    /// Issue 24.6: a server's settings that are not UTF-8 JSON (`bad`: SQL values written over them,
    /// and the bytes each leaves) read as none, are set aside once with the row kept byte for byte
    /// for the operator, and an admin's next change writes a fresh row. Settings the service cannot
    /// use are set aside on its word, only if they are still what it read.
    pub fn damaged_settings(store: &dyn Store, damage: &dyn Fn(&str), bad: &[(&str, &[u8])]) {
        let change = |at| SettingsChange {
            user_id: 5,
            change: "game: dice".into(),
            at,
        };
        let good = r#"{"variant":"dice"}"#;
        for (n, (value, bytes)) in bad.iter().enumerate() {
            let guild = 90 + n as u64;
            store
                .save_server_settings(guild, good, &change(1))
                .expect("save");
            damage(&format!(
                "UPDATE server_settings SET settings_json = {value} WHERE guild_id = {guild}"
            ));
            assert_eq!(store.server_settings(guild).expect("read"), None, "{value}");
            let aside = store.damaged_settings().expect("aside");
            assert_eq!(aside.len(), n + 1, "{value}: {aside:?}");
            let kept = &aside[n];
            assert_eq!(kept.guild_id, guild);
            assert_eq!(kept.settings, *bytes, "{value}: byte for byte");
            assert!(kept.reason.contains("stored settings"), "{kept:?}");
            // Reported once: read again, nothing more is set aside.
            assert_eq!(store.server_settings(guild).expect("read"), None);
            assert_eq!(store.damaged_settings().expect("aside").len(), n + 1);
            // An admin's change writes a fresh row.
            store
                .save_server_settings(guild, good, &change(2))
                .expect("save");
            assert_eq!(
                store.server_settings(guild).expect("read").as_deref(),
                Some(good)
            );
            assert_eq!(store.settings_log(guild, 10).expect("log").len(), 2);
        }

        // Set aside on the service's word: only what it read.
        let unusable = r#"{"turn_timeout_secs":5}"#;
        store
            .save_server_settings(99, unusable, &change(3))
            .expect("save");
        let before = store.damaged_settings().expect("aside").len();
        assert!(!store
            .set_aside_server_settings(99, good, "not what is stored")
            .expect("set aside"));
        assert_eq!(
            store.server_settings(99).expect("read").as_deref(),
            Some(unusable)
        );
        assert!(store
            .set_aside_server_settings(99, unusable, "turn_timeout_secs out of range")
            .expect("set aside"));
        assert_eq!(store.server_settings(99).expect("read"), None);
        let aside = store.damaged_settings().expect("aside");
        assert_eq!(aside.len(), before + 1);
        assert_eq!(aside[before].settings, unusable.as_bytes());
        assert_eq!(aside[before].reason, "turn_timeout_secs out of range");
        assert!(!store
            .set_aside_server_settings(99, unusable, "again")
            .expect("set aside"));
    }

    pub fn stats_and_leaderboard(store: &dyn Store) {
        let g = Some(7000);
        store.save_table(&table(51, g, 20)).expect("save live");
        // Game 1: 2v2, Ann and Cy win; Ann made 2 sequences.
        store
            .finish_game(&finished(
                g,
                51,
                1000,
                vec![
                    player(1, "Ann", 0, true, 2),
                    player(2, "Bob", 1, false, 1),
                    player(3, "Cy", 0, true, 0),
                    player(4, "Di", 1, false, 0),
                ],
            ))
            .expect("finish 1");
        assert!(
            store.load_tables().expect("load").tables.is_empty(),
            "finishing deletes the live table"
        );
        // Game 2: Bob beats a bot.
        store
            .finish_game(&finished(
                g,
                52,
                2000,
                vec![
                    player(2, "Bobby", 0, true, 2),
                    player(BOT_USER_ID, "Bot (hard)", 1, false, 1),
                ],
            ))
            .expect("finish 2");
        // Game 3: three teams, Di wins, Ann loses.
        store
            .finish_game(&finished(
                g,
                53,
                3000,
                vec![
                    player(4, "Di", 0, true, 1),
                    player(1, "Ann", 1, false, 0),
                    player(5, "Ed", 2, false, 1),
                ],
            ))
            .expect("finish 3");
        // Another server: must not leak into this one.
        store
            .finish_game(&finished(
                Some(8000),
                60,
                4000,
                vec![player(1, "Ann", 0, true, 2), player(5, "Ed", 1, false, 0)],
            ))
            .expect("finish other");
        // A DM game.
        store
            .finish_game(&finished(
                None,
                61,
                5000,
                vec![
                    player(5, "Ed", 0, true, 2),
                    player(BOT_USER_ID, "Bot", 1, false, 0),
                ],
            ))
            .expect("finish dm");

        let stats = |user| store.player_stats(g, user).expect("stats");
        assert_eq!(
            stats(1),
            PlayerStats {
                games: 2,
                wins: 1,
                sequences: 2
            }
        );
        assert_eq!(
            stats(2),
            PlayerStats {
                games: 2,
                wins: 1,
                sequences: 3
            }
        );
        assert_eq!(
            stats(3),
            PlayerStats {
                games: 1,
                wins: 1,
                sequences: 0
            }
        );
        assert_eq!(
            stats(4),
            PlayerStats {
                games: 2,
                wins: 1,
                sequences: 1
            }
        );
        assert_eq!(
            stats(5),
            PlayerStats {
                games: 1,
                wins: 0,
                sequences: 1
            }
        );
        assert_eq!(stats(99), PlayerStats::default());
        assert_eq!(stats(BOT_USER_ID), PlayerStats::default());
        assert_eq!(
            store.player_stats(Some(8000), 1).expect("stats"),
            PlayerStats {
                games: 1,
                wins: 1,
                sequences: 2
            }
        );
        // Outside servers the stats are the chat's (issue 44): nothing is pooled under "no server".
        assert_eq!(
            store
                .player_stats(Some(crate::store::standing_scope(None, 61)), 5)
                .expect("stats"),
            PlayerStats {
                games: 1,
                wins: 1,
                sequences: 2
            }
        );
        assert_eq!(
            store.player_stats(None, 5).expect("stats"),
            PlayerStats::default()
        );
        assert_eq!(
            store
                .player_stats(Some(crate::store::standing_scope(None, 62)), 5)
                .expect("stats"),
            PlayerStats::default()
        );

        // Wins first; Cy's 1/1 beats the 1/2 players; among those, equal rate and games: by id.
        let board = store.leaderboard(g, 10).expect("leaderboard");
        let order: Vec<(u64, &str)> = board.iter().map(|r| (r.user_id, r.name.as_str())).collect();
        assert_eq!(
            order,
            vec![(3, "Cy"), (1, "Ann"), (2, "Bobby"), (4, "Di"), (5, "Ed")],
            "the latest name is shown"
        );
        assert_eq!(
            board[2].stats,
            PlayerStats {
                games: 2,
                wins: 1,
                sequences: 3
            }
        );
        assert_eq!(store.leaderboard(g, 2).expect("top 2").len(), 2);
        assert!(store.leaderboard(Some(1), 10).expect("empty").is_empty());
        // Outside servers the totals are the chat's (and the bot offers no leaderboard there).
        assert!(store.leaderboard(None, 10).expect("no pool").is_empty());
        let dm_board = store
            .leaderboard(Some(crate::store::standing_scope(None, 61)), 10)
            .expect("dm board");
        assert_eq!(dm_board.len(), 1);
        assert_eq!(dm_board[0].user_id, 5);
    }

    /// Ties: wins, then win rate, then games.
    pub fn leaderboard_order(store: &dyn Store) {
        let g = Some(31);
        let mut at = 0;
        let mut game = |players: Vec<PlayerResult>| {
            at += 1;
            store
                .finish_game(&finished(g, 100 + at, at as i64, players))
                .expect("finish");
        };
        // A: 2 wins of 4; B: 2 of 2; C: 1 of 1; D: 0 of 1; E: 0 of 3.
        game(vec![
            player(10, "A", 0, true, 0),
            player(14, "E", 1, false, 0),
        ]);
        game(vec![
            player(10, "A", 0, true, 0),
            player(14, "E", 1, false, 0),
        ]);
        game(vec![
            player(10, "A", 0, false, 0),
            player(11, "B", 1, true, 0),
        ]);
        game(vec![
            player(10, "A", 0, false, 0),
            player(11, "B", 1, true, 0),
        ]);
        game(vec![
            player(12, "C", 0, true, 0),
            player(14, "E", 1, false, 0),
        ]);
        game(vec![
            player(13, "D", 0, false, 0),
            player(BOT_USER_ID, "Bot", 1, true, 0),
        ]);
        let board = store.leaderboard(g, 10).expect("leaderboard");
        let order: Vec<&str> = board.iter().map(|r| r.name.as_str()).collect();
        // B (2/2) before A (2/4); C (1/1); E (0/3) before D (0/1): same wins and rate, more games.
        assert_eq!(order, vec!["B", "A", "C", "E", "D"]);
    }

    /// A finished game's record downloads exactly, only on its own server; recent games list newest
    /// first with their players.
    pub fn records_and_history(store: &dyn Store) {
        let g = Some(4242);
        let first = finished(
            g,
            71,
            100,
            vec![player(1, "Ann", 0, true, 2), player(2, "Bob", 1, false, 0)],
        );
        let second = finished(
            g,
            72,
            300,
            vec![
                player(2, "Bob", 0, true, 2),
                player(BOT_USER_ID, "Bot", 1, false, 1),
            ],
        );
        let third = finished(
            g,
            73,
            200,
            vec![player(3, "Cy", 0, false, 0), player(1, "Ann", 1, true, 2)],
        );
        let id1 = store.finish_game(&first).expect("finish");
        let id2 = store.finish_game(&second).expect("finish");
        let id3 = store.finish_game(&third).expect("finish");
        assert!(id1 != id2 && id2 != id3 && id1 != id3);
        assert_eq!(
            store.game_record(id1, g).expect("record"),
            Some(first.record_json.clone())
        );
        assert_eq!(
            store.game_record(id2, g).expect("record"),
            Some(second.record_json.clone())
        );
        assert_eq!(store.game_record(id1, Some(1)).expect("other guild"), None);
        assert_eq!(store.game_record(id1, None).expect("dm"), None);
        assert_eq!(
            store.game_record(GameId(987_654), g).expect("unknown"),
            None
        );
        let record =
            Record::from_json(&store.game_record(id3, g).expect("record").expect("exists"))
                .expect("parses");
        assert!(record.replay().expect("well formed").is_ok());

        let recent = store.recent_games(g, 10).expect("recent");
        let ids: Vec<GameId> = recent.iter().map(|s| s.id).collect();
        assert_eq!(ids, vec![id2, id3, id1]);
        assert_eq!(recent[0].players, second.players);
        assert_eq!(recent[1].players, third.players);
        assert_eq!(recent[2].channel_id, 71);
        assert_eq!(recent[2].variant, "classic");
        assert_eq!(recent[2].finished_at, 100);
        assert_eq!(recent[2].guild_id, g);
        assert_eq!(store.recent_games(g, 1).expect("recent").len(), 1);
        assert!(store.recent_games(Some(5), 10).expect("recent").is_empty());

        // The latest game of a channel: by finishing time, within the server only.
        let again = finished(
            g,
            71,
            400,
            vec![player(1, "Ann", 0, false, 0), player(2, "Bob", 1, true, 2)],
        );
        let id4 = store.finish_game(&again).expect("finish");
        assert_eq!(
            store.latest_game_in_channel(g, 71).expect("latest"),
            Some(id4)
        );
        assert_eq!(
            store.latest_game_in_channel(g, 73).expect("latest"),
            Some(id3)
        );
        assert_eq!(store.latest_game_in_channel(g, 74).expect("latest"), None);
        assert_eq!(
            store.latest_game_in_channel(Some(1), 71).expect("latest"),
            None
        );

        // A finished game keeps its table's web token: the latest game of a token (a series plays
        // several games at one table), with its server; a game in direct messages has none.
        let token = "0123456789abcdef0123456789abcdef";
        assert_eq!(store.game_of_web_token(token).expect("token"), None);
        let with_token = |channel, at, guild| FinishedGame {
            web_token: Some(token.to_string()),
            ..finished(
                guild,
                channel,
                at,
                vec![player(1, "Ann", 0, true, 2), player(2, "Bob", 1, false, 0)],
            )
        };
        let found = |token| {
            store
                .game_of_web_token(token)
                .expect("token")
                .map(|t| (t.id, t.guild_id, t.players))
        };
        let agreement = |token| {
            store
                .game_of_web_token(token)
                .expect("token")
                .map(|t| t.agreement)
        };
        let fifth = with_token(75, 500, g);
        let id5 = store.finish_game(&fifth).expect("finish");
        assert_eq!(found(token), Some((id5, g, fifth.players.clone())));
        assert_eq!(agreement(token), Some(Vec::new()), "not known yet");
        store
            .save_agreement(id5, &[(2, 4, 9), (1, 7, 10)])
            .expect("agreement");
        assert_eq!(agreement(token), Some(vec![(1, 7, 10), (2, 4, 9)]));
        let id6 = store
            .finish_game(&with_token(76, 450, None))
            .expect("finish");
        assert_eq!(found(token), Some((id6, None, fifth.players)));
        assert_eq!(
            store.game_web_token(id5, g).expect("token").as_deref(),
            Some(token)
        );
        assert_eq!(store.game_web_token(id5, Some(1)).expect("token"), None);
        assert_eq!(store.game_web_token(id4, g).expect("token"), None);
        assert_eq!(
            store
                .game_of_web_token("fedcba9876543210fedcba9876543210")
                .expect("token"),
            None
        );
        assert_eq!(store.game_of_web_token("").expect("token"), None);
    }

    /// A lobby (no game yet) is stored with a `null` record; a table the service cannot restore is
    /// set aside on request, kept and listed, and not loaded again.
    pub fn lobbies_and_set_aside(store: &dyn Store) {
        let lobby = StoredTable {
            channel_id: 91,
            guild_id: Some(8),
            record_json: "null".into(),
            snapshot_json: r#"{"phase":"lobby"}"#.into(),
            updated_at: 5,
            web_token: None,
        };
        store.save_table(&lobby).expect("save lobby");
        let game = table(92, Some(8), 6);
        store.save_table(&game).expect("save game");
        let loaded = store.load_tables().expect("load");
        assert!(loaded.quarantined.is_empty(), "{:?}", loaded.quarantined);
        assert_eq!(loaded.tables, vec![lobby.clone(), game.clone()]);

        assert!(store
            .quarantine_table(92, "the snapshot does not fit this version")
            .expect("set aside"));
        assert!(!store.quarantine_table(92, "again").expect("nothing left"));
        assert!(!store.quarantine_table(999, "unknown").expect("unknown"));
        assert_eq!(store.load_tables().expect("load").tables, vec![lobby]);
        let kept = store.quarantined().expect("list");
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].channel_id, 92);
        assert_eq!(kept[0].guild_id, Some(8));
        assert_eq!(kept[0].reason, "the snapshot does not fit this version");
    }

    /// A finished game whose record does not replay is refused and changes nothing.
    pub fn finish_refuses_bad_record(store: &dyn Store) {
        let live = table(81, Some(3), 5);
        store.save_table(&live).expect("save");
        let mut game = finished(
            Some(3),
            81,
            10,
            vec![player(1, "Ann", 0, true, 1), player(2, "Bob", 1, false, 0)],
        );
        let mut record = Record::from_json(&game.record_json).expect("parses");
        record.actions.swap(0, 1);
        game.record_json = json(&record);
        let err = store.finish_game(&game).expect_err("refused");
        assert!(matches!(err, StoreError::InvalidRecord(_)), "{err}");
        assert!(err.to_string().contains("not_your_turn"), "{err}");
        game.record_json = "[]".into();
        assert!(matches!(
            store.finish_game(&game),
            Err(StoreError::InvalidRecord(_))
        ));
        assert_eq!(
            store.player_stats(Some(3), 1).expect("stats"),
            PlayerStats::default()
        );
        assert!(store.recent_games(Some(3), 5).expect("recent").is_empty());
        assert_eq!(store.load_tables().expect("load").tables, vec![live]);
    }

    /// Hundreds of channels saving at once (and some finishing): no error, every final state right.
    pub fn concurrent_writers(store: Arc<dyn Store>) {
        const CHANNELS: u64 = 300;
        const SAVES: usize = 12;
        let records: Arc<Vec<Record>> =
            Arc::new((0..CHANNELS).map(|c| partial_record(c, SAVES)).collect());
        let handles: Vec<_> = (0..CHANNELS)
            .map(|c| {
                let store = Arc::clone(&store);
                let records = Arc::clone(&records);
                std::thread::spawn(move || -> Result<(), StoreError> {
                    let full = &records[c as usize];
                    let channel = 10_000 + c;
                    let guild = Some(1 + c % 7);
                    for n in 0..=SAVES.min(full.actions.len()) {
                        let mut record = full.clone();
                        record.actions.truncate(n);
                        store.save_table(&StoredTable {
                            channel_id: channel,
                            guild_id: guild,
                            record_json: json(&record),
                            snapshot_json: format!(r#"{{"saves":{n}}}"#),
                            updated_at: n as i64,
                            web_token: None,
                        })?;
                    }
                    if c % 10 == 0 {
                        store.finish_game(&finished(
                            guild,
                            channel,
                            c as i64,
                            vec![
                                player(c + 1, "P", 0, true, 1),
                                player(0, "Bot", 1, false, 0),
                            ],
                        ))?;
                    }
                    Ok(())
                })
            })
            .collect();
        let errors: Vec<String> = handles
            .into_iter()
            .filter_map(|h| match h.join() {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(e.to_string()),
                Err(_) => Some("a writer panicked".into()),
            })
            .collect();
        assert!(
            errors.is_empty(),
            "{} errors, first: {:?}",
            errors.len(),
            errors.first()
        );
        let loaded = store.load_tables().expect("load");
        assert!(loaded.quarantined.is_empty());
        assert_eq!(loaded.tables.len(), (CHANNELS - CHANNELS / 10) as usize);
        for t in &loaded.tables {
            let c = t.channel_id - 10_000;
            assert_ne!(c % 10, 0, "finished channels are gone");
            let full = &records[c as usize];
            let mut expected = full.clone();
            expected.actions.truncate(SAVES);
            assert_eq!(t.record_json, json(&expected));
            assert_eq!(t.guild_id, Some(1 + c % 7));
        }
        let finished_games: usize = (1..=7)
            .map(|g| store.recent_games(Some(g), 1000).expect("recent").len())
            .sum();
        assert_eq!(finished_games, (CHANNELS / 10) as usize);
    }

    /// A finished game is unannounced until marked; marking is kept across a reopen by the caller.
    pub fn unannounced_until_marked(store: &dyn Store) {
        assert!(store.unannounced_games().expect("none").is_empty());
        store.save_table(&table(70, Some(4), 3)).expect("save");
        let game = finished(
            Some(4),
            70,
            123,
            vec![
                player(1, "Ann", 0, true, 2),
                player(BOT_USER_ID, "Bot", 1, false, 0),
            ],
        );
        let first = store.finish_game(&game).expect("finish");
        let second = store
            .finish_game(&finished(
                Some(4),
                71,
                124,
                vec![player(2, "Bo", 0, false, 0), player(3, "Cy", 1, false, 0)],
            ))
            .expect("finish");
        let pending = store.unannounced_games().expect("pending");
        assert_eq!(
            pending.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
            vec![first, second]
        );
        // Stored with whether it counted for ratings (one human: not by default).
        let stored = FinishedGame {
            rated: Some(false),
            aborted: false,
            ..game.clone()
        };
        assert_eq!(pending[0].1, stored, "the whole game, players included");
        store.mark_announced(first).expect("mark");
        store
            .mark_announced(first)
            .expect("marking twice is harmless");
        let pending = store.unannounced_games().expect("pending");
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].0, second);
        store.mark_announced(second).expect("mark");
        assert!(store.unannounced_games().expect("none").is_empty());
        assert_eq!(store.recent_games(Some(4), 10).expect("history").len(), 2);
    }
}

/// Runs every case against a backend, one `#[test]` per case.
macro_rules! suite {
    ($backend:ident, $open:path) => {
        mod $backend {
            use super::*;

            #[test]
            fn round_trip() {
                if let Some(t) = $open("round_trip") {
                    cases::round_trip(&*t.store);
                }
            }

            #[test]
            fn upsert_overwrites() {
                if let Some(t) = $open("upsert") {
                    cases::upsert_overwrites(&*t.store);
                }
            }

            #[test]
            fn delete() {
                if let Some(t) = $open("delete") {
                    cases::delete(&*t.store);
                }
            }

            #[test]
            fn web_token_lookup() {
                if let Some(t) = $open("web_token") {
                    cases::web_token_lookup(&*t.store);
                }
            }

            #[test]
            fn quarantine() {
                if let Some(t) = $open("quarantine") {
                    cases::quarantine(&*t.store);
                }
            }

            #[test]
            fn stats_and_leaderboard() {
                if let Some(t) = $open("stats") {
                    cases::stats_and_leaderboard(&*t.store);
                }
            }

            #[test]
            fn leaderboard_order() {
                if let Some(t) = $open("board") {
                    cases::leaderboard_order(&*t.store);
                }
            }

            #[test]
            fn records_and_history() {
                if let Some(t) = $open("records") {
                    cases::records_and_history(&*t.store);
                }
            }

            #[test]
            fn lobbies_and_set_aside() {
                if let Some(t) = $open("aside") {
                    cases::lobbies_and_set_aside(&*t.store);
                }
            }

            #[test]
            fn finish_refuses_bad_record() {
                if let Some(t) = $open("refuse") {
                    cases::finish_refuses_bad_record(&*t.store);
                }
            }

            #[test]
            fn unannounced_until_marked() {
                if let Some(t) = $open("unannounced") {
                    cases::unannounced_until_marked(&*t.store);
                }
            }

            #[test]
            fn server_settings() {
                if let Some(t) = $open("settings") {
                    cases::server_settings(&*t.store);
                }
            }

            #[test]
            fn ratings() {
                if let Some(t) = $open("ratings") {
                    cases::ratings(&*t.store);
                }
            }

            #[test]
            fn agreement() {
                if let Some(t) = $open("agreement") {
                    cases::agreement(&*t.store);
                }
            }

            #[test]
            fn concurrent_writers() {
                if let Some(t) = $open("concurrent") {
                    cases::concurrent_writers(Arc::clone(&t.store));
                }
            }
        }
    };
}

suite!(sqlite, sqlite_store);
suite!(postgres, postgres_store);

/// The SQL every backend runs for [`cases::damaged_ratings`] (users 1 to 3 of server 80).
const RATING_DAMAGE: [&str; 6] = [
    "UPDATE ratings SET mu = 1e11, conservative = 1e11 - 3 * sigma WHERE guild_id = 80 AND user_id = 1",
    "UPDATE ratings SET sigma = -1 WHERE guild_id = 80 AND user_id = 2",
    "UPDATE ratings SET sigma = 50, conservative = mu - 150 WHERE guild_id = 80 AND user_id = 3",
    "UPDATE ratings SET conservative = 1e11 WHERE guild_id = 80 AND user_id = 3",
    "UPDATE ratings SET games = 0 WHERE guild_id = 80 AND user_id = 2",
    "UPDATE rating_changes SET conservative_after = -1e11 WHERE guild_id = 80 AND user_id = 1",
];

#[test]
fn sqlite_damaged_ratings_are_recomputed_from_the_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bot.db");
    let store = SqliteStore::open(&path).expect("open");
    let raw = rusqlite::Connection::open(&path).expect("open raw");
    let damage = |sql: &str| {
        raw.execute_batch(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    let mut statements = RATING_DAMAGE.to_vec();
    // A column of numbers holding text.
    statements.push("UPDATE ratings SET mu = 'lots' WHERE guild_id = 80 AND user_id = 2");
    cases::damaged_ratings(&store, &damage, &statements);
}

#[test]
fn postgres_damaged_ratings_are_recomputed_from_the_games() {
    let Some((config, _guard)) = postgres_schema("damaged_ratings") else {
        return;
    };
    let store = PostgresStore::open_config(config.clone()).expect("open");
    let raw = std::cell::RefCell::new(config.connect(::postgres::NoTls).expect("connect"));
    let damage = |sql: &str| {
        raw.borrow_mut()
            .batch_execute(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    let mut statements = RATING_DAMAGE.to_vec();
    statements.extend([
        "UPDATE ratings SET mu = 'NaN' WHERE guild_id = 80 AND user_id = 1",
        "UPDATE ratings SET sigma = 'Infinity' WHERE guild_id = 80 AND user_id = 3",
        "UPDATE rating_changes SET conservative_before = 'NaN' WHERE guild_id = 80 AND user_id = 2",
    ]);
    cases::damaged_ratings(&store, &damage, &statements);
}

#[test]
fn sqlite_damaged_settings_are_set_aside_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bot.db");
    let store = SqliteStore::open(&path).expect("open");
    let raw = rusqlite::Connection::open(&path).expect("open raw");
    let damage = |sql: &str| {
        raw.execute_batch(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    };
    cases::damaged_settings(
        &store,
        &damage,
        &[
            // Bytes that are not UTF-8, as bytes and as text (a damaged page keeps the type).
            (
                r#"X'7B2276617269616E74223A22FF227D'"#,
                b"{\"variant\":\"\xFF\"}",
            ),
            (
                r#"CAST(X'7B2276617269616E74223A22FE227D' AS TEXT)"#,
                b"{\"variant\":\"\xFE\"}",
            ),
            // Text, but not JSON any more.
            (r#"'{"variant":"di'"#, br#"{"variant":"di"#),
            ("'not json'", b"not json"),
        ],
    );
}

#[test]
fn postgres_damaged_settings_are_set_aside_once() {
    let Some((config, _guard)) = postgres_schema("damaged_settings") else {
        return;
    };
    let store = PostgresStore::open_config(config.clone()).expect("open");
    let raw = std::cell::RefCell::new(config.connect(::postgres::NoTls).expect("connect"));
    let damage = |sql: &str| {
        raw.borrow_mut()
            .batch_execute(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    // PostgreSQL keeps text UTF-8 and NOT NULL: what can go wrong is the JSON.
    cases::damaged_settings(
        &store,
        &damage,
        &[
            (r#"'{"variant":"di'"#, br#"{"variant":"di"#),
            ("'garbage'", b"garbage"),
        ],
    );
}

#[test]
fn postgres_never_overwrites_a_newer_save_of_another_process() {
    let Some((config, _guard)) = postgres_schema("versions") else {
        return;
    };
    let a = PostgresStore::open_config(config.clone()).expect("open a");
    let b = PostgresStore::open_config(config).expect("open b");
    a.save_table(&table(10, Some(1), 2))
        .expect("a saves its game");
    // B never loaded channel 10: its lobby there must not replace A's game.
    let err = b.save_table(&table(10, Some(1), 0)).expect_err("refused");
    assert!(
        matches!(err, StoreError::Conflict { channel_id: 10 }),
        "{err}"
    );
    assert_eq!(
        b.load_tables().expect("load").tables,
        vec![table(10, Some(1), 2)]
    );
    // B loaded it and saves a newer state; A's older copy is then refused, save and finish alike.
    b.save_table(&table(10, Some(1), 3)).expect("b saves");
    let err = a.save_table(&table(10, Some(1), 4)).expect_err("refused");
    assert!(matches!(err, StoreError::Conflict { .. }), "{err}");
    let err = a
        .finish_game(&finished(
            Some(1),
            10,
            5,
            vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)],
        ))
        .expect_err("refused");
    assert!(matches!(err, StoreError::Conflict { .. }), "{err}");
    assert!(
        a.recent_games(Some(1), 10).expect("history").is_empty(),
        "nothing stored"
    );
    assert!(
        !a.delete_table(10).expect("delete"),
        "an older copy deletes nothing"
    );
    assert_eq!(
        a.load_tables().expect("load").tables,
        vec![table(10, Some(1), 3)]
    );
    // Having loaded it again, A may go on.
    a.save_table(&table(10, Some(1), 5)).expect("a saves again");
    a.finish_game(&finished(
        Some(1),
        10,
        6,
        vec![player(1, "Ann", 0, true, 1), player(2, "Bo", 1, false, 0)],
    ))
    .expect("a finishes");
    assert!(b.load_tables().expect("load").tables.is_empty());
}

#[test]
fn a_read_only_postgres_database_is_refused_at_open() {
    let Some((mut config, _guard)) = postgres_schema("readonly") else {
        return;
    };
    drop(PostgresStore::open_config(config.clone()).expect("migrated while writable"));
    let search_path = config.get_options().unwrap_or_default().to_string();
    config.options(&format!(
        "{search_path} -c default_transaction_read_only=on"
    ));
    let err = PostgresStore::open_config(config).err().expect("refused");
    // Refused by the check at open (the migrations would fail too, with the server's own words).
    assert!(err.to_string().contains("is read-only"), "{err}");
    assert!(err.to_string().contains("saves every move"), "{err}");
}

#[test]
fn open_store_picks_the_backend() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = DatabaseConfig {
        path: dir.path().join("sub/dir/bot.db"),
        database_url: None,
    };
    let store = open_store(&config).expect("sqlite");
    store.save_table(&table(1, None, 1)).expect("save");
    assert!(config.path.exists(), "the file and its folders are created");

    let mysql = DatabaseConfig {
        database_url: Some("mysql://user:secret@y/z".into()),
        ..DatabaseConfig::default()
    };
    let err = open_store(&mysql).err().expect("refused");
    assert!(matches!(err, StoreError::Config(_)), "{err}");
    assert!(err.to_string().contains("postgres://"), "{err}");
    assert!(err.to_string().contains("`mysql://…`"), "{err}");
    assert!(!err.to_string().contains("secret"), "{err}");

    let parsed: DatabaseConfig = toml::from_str("path = \"games.db\"").expect("toml");
    assert_eq!(parsed.path, PathBuf::from("games.db"));
    assert_eq!(parsed.database_url, None);
    let parsed: DatabaseConfig =
        toml::from_str("database_url = \"postgres://u@h/db\"").expect("toml");
    assert_eq!(parsed.database_url.as_deref(), Some("postgres://u@h/db"));
    assert!(toml::from_str::<DatabaseConfig>("pathh = \"x\"").is_err());
}

#[test]
fn stats_deltas_merge_seats_and_skip_bots() {
    let deltas = stats_deltas(&[
        player(1, "Ann", 0, false, 1),
        player(BOT_USER_ID, "Bot", 1, true, 2),
        player(1, "Ann", 2, true, 2),
    ]);
    assert_eq!(deltas.len(), 1);
    assert_eq!(
        (deltas[0].user_id, deltas[0].wins, deltas[0].sequences),
        (1, 1, 3)
    );
}

#[test]
fn ids_round_trip_bit_for_bit() {
    for id in [
        0,
        1,
        1 << 62,
        u64::MAX,
        u64::MAX - 1,
        1_234_567_890_123_456_789,
    ] {
        assert_eq!(from_db_id(to_db_id(id)), id);
    }
    assert_eq!(guild_from_db(guild_to_db(None)), None);
    assert_eq!(guild_from_db(guild_to_db(Some(u64::MAX))), Some(u64::MAX));
}
