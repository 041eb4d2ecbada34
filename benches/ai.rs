//! Speed of the computer players: a `medium` move, and `hard` search iterations on a mid-game position
//! (iterations per second = the iteration count divided by the time shown).

use criterion::{criterion_group, criterion_main, Criterion};

use sequence_bot::ai::{choose_move, Budget, Level};
use sequence_bot::engine::{Config, Game, Options, Variant, View};

/// A classic two-player position twenty medium moves in.
fn mid_game(variant: Variant) -> View {
    let config =
        Config::new(variant, 2, None, Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut game = Game::new(config, 3);
    for i in 0..20 {
        if game.position().is_over() {
            break;
        }
        let seat = game.position().to_move();
        let mv = choose_move(&game.view(seat), Level::Medium, &Budget::DEFAULT, i);
        if game.play(seat, mv).is_err() {
            break;
        }
    }
    game.view(game.position().to_move())
}

fn bench(c: &mut Criterion) {
    let view = mid_game(Variant::Classic);
    c.bench_function("medium move (classic)", |b| {
        b.iter(|| choose_move(&view, Level::Medium, &Budget::DEFAULT, 1))
    });
    c.bench_function("easy move (classic)", |b| {
        b.iter(|| choose_move(&view, Level::Easy, &Budget::DEFAULT, 1))
    });
    let mut group = c.benchmark_group("hard");
    group.sample_size(10);
    group.bench_function("1000 iterations (classic)", |b| {
        b.iter(|| choose_move(&view, Level::Hard, &Budget::iterations(1000), 1))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
