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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = store_benches
}
criterion_main!(benches);
