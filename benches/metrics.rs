//! Issue 33: what a metrics scrape costs in the service. The `sequence_tables` gauge used to be
//! counted at each scrape by locking every live table (at least 9.4 ms of CPU with 50,000 tables);
//! it is kept as tables change now, so `Tables::record_table_gauges` costs the same at 0 and at
//! 50,000 live games (set `METRICS_TABLES` for another size). The Prometheus recorder is installed,
//! as in the bot.
//!
//! `cargo bench --bench metrics`.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};

use sequence_bot::engine::{Options, Variant};
use sequence_bot::service::{
    Actor, ChannelId, Command, GuildId, Limits, RandomPicker, Request, Settings, Tables, Timestamp,
    UserId,
};

const T0: Timestamp = Timestamp(1_700_000_000_000);

fn tables() -> Tables {
    let settings = Settings {
        limits: Limits {
            tables_per_user: u32::MAX,
            tables_per_server: u32::MAX,
            server_posts_per_second: 1_000_000,
            server_post_burst: 1_000_000,
            rated_games_per_day: 0,
            ..Limits::default()
        },
        ..Settings::default()
    };
    Tables::new(settings, Arc::new(RandomPicker))
}

fn ask(tables: &Tables, channel: u64, user: u64, command: Command) {
    tables.handle(
        Request {
            guild: Some(GuildId(1 + channel / 50)),
            channel: ChannelId(channel),
            actor: Actor {
                user: UserId(user),
                name: format!("Player{user}"),
                can_manage: false,
                can_manage_guild: false,
            },
            command,
        },
        T0,
    );
}

/// `n` two-player games, begun.
fn games(n: u64) -> Tables {
    let tables = tables();
    for channel in 0..n {
        let (host, guest) = (channel * 2 + 1, channel * 2 + 2);
        let start = Command::Start {
            variant: Variant::Classic,
            teams: None,
            options: Options::default(),
            rated: Some(false),
            turn_time: None,
            series: None,
        };
        ask(&tables, channel, host, start);
        ask(&tables, channel, guest, Command::Join { team: None });
        ask(&tables, channel, host, Command::Begin);
    }
    assert_eq!(tables.len() as u64, n);
    tables
}

fn scrape(c: &mut Criterion) {
    let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
    metrics::set_global_recorder(recorder).expect("the only recorder");
    let n: u64 = std::env::var("METRICS_TABLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50_000);
    for size in [0, n] {
        let tables = games(size);
        c.bench_function(&format!("record_table_gauges, {size} live games"), |b| {
            b.iter(|| tables.record_table_gauges())
        });
    }
}

criterion_group!(benches, scrape);
criterion_main!(benches);
