//! The analyses of issue 27 on a recorded game (two `medium` players, classic, played to its end):
//! the CPU time of a hint at every position where a player had a choice (the median must stay within
//! what a `hard` move costs, 100 ms), and of the whole agreement analysis of both players (within 60 s
//! for a two-player game). Prints the figures and fails over the targets; criterion then measures the
//! wall time of one hint.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use sequence_bot::ai::{choose_move, Budget, Level};
use sequence_bot::analysis::{agreement, hint};
use sequence_bot::engine::{Config, Game, Move, MoveList, Options, Record, Seat, Variant, View};

/// A whole game between `medium` players, as its record.
fn medium_game(seed: u64) -> Record {
    let config = match Config::new(Variant::Classic, 2, None, Options::default()) {
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

/// Every position of the game where the player to move had more than one move, with the history.
fn positions(record: &Record) -> Vec<(View, Vec<(Seat, Move)>)> {
    let mut game = match record.initial_game() {
        Ok(game) => game,
        Err(e) => panic!("bench set-up: {e}"),
    };
    let layout = game.position().layout();
    let mut history = Vec::new();
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    for action in &record.actions {
        let view = game.view(action.seat);
        view.legal_moves(&mut moves);
        if moves.len() > 1 {
            out.push((view, history.clone()));
        }
        let mv = match action.to_move(Variant::Classic, layout) {
            Ok(mv) => mv,
            Err(e) => panic!("bench set-up: {e}"),
        };
        if let Err(e) = game.play(action.seat, mv) {
            panic!("bench set-up: {e}");
        }
        history.push((action.seat, mv));
    }
    out
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

fn bench_analysis(c: &mut Criterion) {
    let record = medium_game(3);
    let positions = positions(&record);
    let mut costs: Vec<Duration> = positions
        .iter()
        .map(|(view, history)| {
            let cpu = thread_cpu();
            let _ = hint(view, history);
            thread_cpu() - cpu
        })
        .collect();
    costs.sort();
    let median = costs[costs.len() / 2];
    let longest = costs[costs.len() - 1];
    // The same positions, as a `hard` computer player's move (its live budget): what a hint should cost.
    let mut hard: Vec<Duration> = positions
        .iter()
        .enumerate()
        .map(|(i, (view, _))| {
            let cpu = thread_cpu();
            let _ = choose_move(view, Level::Hard, &Budget::DEFAULT, i as u64);
            thread_cpu() - cpu
        })
        .collect();
    hard.sort();
    println!(
        "hint: {} positions, median {:.1} ms of CPU, longest {:.1} ms; a hard move on the same positions: median {:.1} ms, longest {:.1} ms",
        costs.len(),
        median.as_secs_f64() * 1e3,
        longest.as_secs_f64() * 1e3,
        hard[hard.len() / 2].as_secs_f64() * 1e3,
        hard[hard.len() - 1].as_secs_f64() * 1e3
    );
    let cpu = thread_cpu();
    let result = match agreement(&record, &[0, 1]) {
        Ok(result) => result,
        Err(e) => panic!("bench: {e}"),
    };
    let cpu = thread_cpu() - cpu;
    println!(
        "agreement of both players: {} actions, {} moves compared, {:.2} s of CPU",
        record.actions.len(),
        result.iter().map(|r| r.counted).sum::<u32>(),
        cpu.as_secs_f64()
    );
    // Both figures are printed before either target is checked.
    assert!(
        median <= Duration::from_millis(100),
        "a hint's median {median:?} is over 100 ms"
    );
    assert!(
        cpu <= Duration::from_secs(60),
        "the agreement analysis took {cpu:?}"
    );
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    let (view, history) = &positions[positions.len() / 2];
    group.bench_function("hint, mid-game", |b| b.iter(|| hint(view, history)));
    group.finish();
}

criterion_group!(benches, bench_analysis);
criterion_main!(benches);
