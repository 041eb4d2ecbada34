//! Random self-play of complete games, single thread: games per second (criterion's throughput) and,
//! printed before each benchmark, the average plies per game to turn it into plies per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use sequence_bot::engine::{Config, Game, GameRng, Options, Variant};

/// Plays one game with uniformly random legal moves; returns the number of plies.
fn self_play(config: Config, seed: u64) -> u32 {
    let mut game = Game::new(config, seed);
    let mut rng = GameRng::new(seed ^ 0xABCD);
    let mut plies = 0;
    while let Some(mv) = game.random_move(&mut rng) {
        let seat = game.position().to_move();
        if game.play(seat, mv).is_err() {
            break;
        }
        plies += 1;
    }
    plies
}

fn bench_self_play(c: &mut Criterion) {
    let mut group = c.benchmark_group("self_play");
    group.throughput(Throughput::Elements(1));
    for (name, variant, players) in [
        ("classic_2p", Variant::Classic, 2),
        ("classic_4p", Variant::Classic, 4),
        ("dice_2p", Variant::Dice, 2),
        ("kids_2p", Variant::Kids, 2),
    ] {
        let config = Config::new(variant, players, None, Options::default()).expect("valid set-up");
        let sample = 2000u64;
        let plies: u64 = (0..sample).map(|s| u64::from(self_play(config, s))).sum();
        println!(
            "{name}: {:.1} plies per game on average",
            plies as f64 / sample as f64
        );
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(self_play(config, seed))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_self_play);
criterion_main!(benches);
