//! Store latency: what one accepted action costs before the bot may reply (`save_table`), and what
//! finishing a game and a restart (`load_tables`) cost, on SQLite in a temp folder.

use criterion::{criterion_group, criterion_main, Criterion};

use sequence_bot::engine::record::Record;
use sequence_bot::engine::{Config, Options, Variant};
use sequence_bot::store::{FinishedGame, PlayerResult, SqliteStore, Store, StoredTable};

/// A classic 2-player game's record, cut to `actions` actions.
fn record_json(seed: u64, actions: usize) -> String {
    let config = Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
    let mut record = Record::random_game(config, seed);
    record.actions.truncate(actions);
    serde_json::to_string(&record).expect("json")
}

fn store_benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("bench.db")).expect("open");
    let table = StoredTable {
        channel_id: 1,
        guild_id: Some(2),
        record_json: record_json(1, 60),
        snapshot_json: format!("{{\"pad\":\"{}\"}}", "x".repeat(2000)),
        updated_at: 0,
        web_token: None,
    };
    c.bench_function("sqlite save_table (60-action record)", |b| {
        b.iter(|| store.save_table(&table).expect("save"))
    });

    let game = FinishedGame {
        guild_id: Some(2),
        channel_id: 1,
        variant: "classic".into(),
        record_json: record_json(3, usize::MAX),
        finished_at: 0,
        started_at: None,
        players: vec![
            PlayerResult {
                user_id: 10,
                name: "Ann".into(),
                team: 0,
                won: true,
                sequences: 2,
                bot_level: None,
                gave_up: false,
            },
            PlayerResult {
                user_id: 11,
                name: "Bob".into(),
                team: 1,
                won: false,
                sequences: 0,
                bot_level: None,
                gave_up: false,
            },
        ],
        rated: None,
        aborted: false,
        web_token: None,
    };
    c.bench_function("sqlite finish_game (full record, validated)", |b| {
        b.iter(|| store.finish_game(&game).expect("finish"))
    });

    for channel in 0..100 {
        let mut t = table.clone();
        t.channel_id = 1000 + channel;
        t.record_json = record_json(channel, 60);
        store.save_table(&t).expect("save");
    }
    c.bench_function("sqlite load_tables (100 live games, replayed)", |b| {
        b.iter(|| store.load_tables().expect("load"))
    });
}

/// The rank on a profile (issue 44) on a server of `players` rated players: their ratings written
/// straight into a store's file (conservative ratings spread over -10 to 40, a tenth of them on a
/// few shared values, as new players' are), then a player in the middle's rank read through
/// `Store::profile` (with the rest of the profile), and, for comparison, by the statement before
/// issue 44, which counted the server's rated players.
fn rank_benches(c: &mut Criterion) {
    use sequence_bot::store::rating::{band_levels, rank_band};
    use std::collections::HashMap;
    const GUILD: i64 = 2;
    for players in [2_000i64, 20_000, 200_000] {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("rank.db");
        drop(SqliteStore::open(&path).expect("create"));
        {
            let mut conn = rusqlite::Connection::open(&path).expect("raw");
            let tx = conn.transaction().expect("tx");
            let mut counts: HashMap<(i64, i64), i64> = HashMap::new();
            for user in 1..=players {
                // A spread from a fixed hash of the id; every tenth player on one of five values.
                let h = (user.wrapping_mul(2_654_435_761) % 1_000_003) as f64 / 1_000_003.0;
                let conservative = if user % 10 == 0 {
                    (user % 5) as f64 * 2.5
                } else {
                    -10.0 + 50.0 * h
                };
                let sigma = 2.0;
                let band = rank_band(conservative);
                tx.execute(
                    "INSERT INTO ratings (guild_id, user_id, name, mu, sigma, conservative, games, band)
                     VALUES (?1, ?2, 'Name', ?3, ?4, ?5, ?6, ?7)",
                    rusqlite::params![
                        GUILD,
                        user,
                        conservative + 3.0 * sigma,
                        sigma,
                        conservative,
                        1 + user % 40,
                        band
                    ],
                )
                .expect("rating");
                for (level, band) in (0i64..).zip(band_levels(band)) {
                    *counts.entry((level, band)).or_default() += 1;
                }
            }
            for ((level, band), n) in counts {
                tx.execute(
                    "INSERT INTO rating_bands (guild_id, level, band, players) VALUES (?1, ?2, ?3, ?4)",
                    rusqlite::params![GUILD, level, band, n],
                )
                .expect("band");
            }
            tx.commit().expect("commit");
        }
        let store = SqliteStore::open(&path).expect("open");
        let middle = players / 2 + 1;
        let expected = {
            let conn = rusqlite::Connection::open(&path).expect("raw");
            let (c, g): (f64, i64) = conn
                .query_row(
                    "SELECT conservative, games FROM ratings WHERE guild_id = ?1 AND user_id = ?2",
                    rusqlite::params![GUILD, middle],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
                .expect("middle");
            let above: i64 = conn
                .query_row(
                    "SELECT COUNT(*) FROM ratings WHERE guild_id = ?1
                         AND (conservative > ?2 OR (conservative = ?2 AND games > ?3))",
                    rusqlite::params![GUILD, c, g],
                    |row| row.get(0),
                )
                .expect("count");
            u32::try_from(above + 1).expect("rank")
        };
        let rank = store
            .profile(Some(GUILD as u64), middle as u64)
            .expect("profile")
            .rank;
        assert_eq!(
            rank,
            Some((expected, players as u32)),
            "the kept counts agree"
        );
        c.bench_function(
            &format!("profile with its rank, {players} rated players"),
            |b| {
                b.iter(|| {
                    store
                        .profile(Some(GUILD as u64), middle as u64)
                        .expect("profile")
                })
            },
        );
        let conn = rusqlite::Connection::open(&path).expect("raw");
        let mut before = conn
            .prepare(
                "SELECT
                    COUNT(CASE WHEN conservative > ?2 OR (conservative = ?2 AND (games > ?3
                        OR (games = ?3 AND user_id < ?4))) THEN 1 END),
                    COUNT(*)
                FROM ratings WHERE guild_id = ?1",
            )
            .expect("statement before issue 44");
        c.bench_function(
            &format!("rank counted as before issue 44, {players} rated players"),
            |b| {
                b.iter(|| {
                    before
                        .query_row(rusqlite::params![GUILD, 10.0, 3, middle], |row| {
                            row.get::<_, i64>(0)
                        })
                        .expect("rank")
                })
            },
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = store_benches, rank_benches
}
criterion_main!(benches);
