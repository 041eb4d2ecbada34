//! Render + encode of a mid-game classic board (target: at most 20 ms median).

use criterion::{criterion_group, criterion_main, Criterion};

use sequence_bot::engine::{Config, Options, Record, Variant};
use sequence_bot::render::{board_image, board_png, cli::game_after};

fn bench_render(c: &mut Criterion) {
    let config = match Config::new(Variant::Classic, 3, None, Options::default()) {
        Ok(config) => config,
        Err(e) => panic!("bench set-up: {e}"),
    };
    let record = Record::random_game(config, 42);
    let game = match game_after(&record, Some(record.actions.len() * 2 / 3)) {
        Ok(game) => game,
        Err(e) => panic!("bench set-up: {e}"),
    };
    let view = game.public_view();
    let names = vec!["Ada".to_string(), "Bo".to_string(), "Cy".to_string()];
    // The static board is drawn once and cached; warm it up outside the measurement.
    let _ = board_image(&view, &names);
    c.bench_function("classic board render+png", |b| {
        b.iter(|| board_png(&view, &names))
    });
    c.bench_function("classic board render only", |b| {
        b.iter(|| board_image(&view, &names))
    });
}

criterion_group!(benches, bench_render);
criterion_main!(benches);
