//! The animated replay of whole games (issue 27): a two-player classic game played by `medium` computer
//! players to its end, and a twelve-player one of random legal moves (193 actions). Prints each GIF's size and fails over the targets:
//! at most 8 MB (Discord's upload limit for everyone is 10 MB) and at most 2 s to draw and encode the
//! longest, measured as the CPU time of one run; criterion then measures the wall time.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use sequence_bot::ai::{choose_move, Budget, Level};
use sequence_bot::engine::{Config, Game, Options, Record, Variant};
use sequence_bot::i18n::Lang;
use sequence_bot::render::animate::animate;

/// A whole game between `medium` players, as its record.
fn medium_game(players: u8, teams: Option<u8>, seed: u64) -> Record {
    let config = match Config::new(Variant::Classic, players, teams, Options::default()) {
        Ok(config) => config,
        Err(e) => panic!("bench set-up: {e}"),
    };
    let mut game = Game::new(config, seed);
    let mut record = Record::start_of(&game);
    let layout = game.position().layout();
    let mut turn = 0;
    while !game.position().is_over() {
        let seat = game.position().to_move();
        let mv = choose_move(
            &game.view(seat),
            Level::Medium,
            &Budget::DEFAULT,
            seed ^ turn,
        );
        match game.play(seat, mv) {
            Ok(events) => record.push(seat, mv, layout, &events),
            Err(e) => panic!("bench set-up: medium chose an illegal move: {e}"),
        }
        turn += 1;
    }
    record
}

/// CPU time of this thread so far.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t);
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// A whole game of random legal moves (seed 3 of twelve players in three teams: 193 actions).
fn random_game(players: u8, teams: Option<u8>, seed: u64) -> Record {
    match Config::new(Variant::Classic, players, teams, Options::default()) {
        Ok(config) => Record::random_game(config, seed),
        Err(e) => panic!("bench set-up: {e}"),
    }
}

fn bench_animate(c: &mut Criterion) {
    let names: Vec<String> = (1..=12).map(|i| format!("Player {i}")).collect();
    let games = [
        ("2 players", medium_game(2, None, 3)),
        // `medium` ends a twelve-player game in about 40 moves; random legal moves make the long one.
        ("12 players in 3 teams", random_game(12, Some(3), 3)),
    ];
    let mut group = c.benchmark_group("animated replay");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (name, record) in &games {
        let _ = animate(record, &names, Lang::En);
        let cpu = thread_cpu();
        let animation = match animate(record, &names, Lang::En) {
            Ok(animation) => animation,
            Err(e) => panic!("bench: {e}"),
        };
        let cpu = thread_cpu() - cpu;
        println!(
            "{name}: {} actions, {} frames, {:.2} MB, {:.2} s of CPU",
            record.actions.len(),
            animation.frames,
            animation.gif.len() as f64 / 1e6,
            cpu.as_secs_f64()
        );
        assert!(
            cpu <= Duration::from_secs(2),
            "{name}: {:.2} s of CPU is over 2 s",
            cpu.as_secs_f64()
        );
        assert!(
            animation.gif.len() <= 8_000_000,
            "{name}: {} bytes is over 8 MB",
            animation.gif.len()
        );
        group.bench_function(*name, |b| b.iter(|| animate(record, &names, Lang::En)));
    }
    group.finish();
}

criterion_group!(benches, bench_animate);
criterion_main!(benches);
