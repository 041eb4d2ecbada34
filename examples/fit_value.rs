//! Fits the weights of `ai::value` (a logistic model of who wins a two-team game) to the outcomes of
//! `medium` self-play: every position of GAMES games (default 4000, seeds from SEED) is a sample from
//! both teams' sides, labelled with whether that team won. Prints the log loss and the weights to paste
//! into `src/ai/value.rs`. Run with `cargo run --release --example fit_value`.

use sequence_bot::ai::value::{features, FEATURES};
use sequence_bot::ai::{choose_move, Budget, Level};
use sequence_bot::engine::{Config, Game, Options, Status, Variant};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

type Sample = ([f32; FEATURES], f32);

fn play(config: Config, seed: u64, out: &mut Vec<Sample>) {
    let mut game = Game::new(config, seed);
    let mut positions = Vec::new();
    let mut turn = 0u64;
    while !game.position().is_over() && turn < 1000 {
        let seat = game.position().to_move();
        positions.push((features(&game, 0), features(&game, 1)));
        let view = game.view(seat);
        let mv = choose_move(&view, Level::Medium, &Budget::DEFAULT, seed * 7919 + turn);
        if game.play(seat, mv).is_err() {
            return;
        }
        turn += 1;
    }
    let winner = match game.position().status() {
        Status::Won(t) => t,
        _ => return,
    };
    for (a, b) in positions {
        out.push((a, f32::from(winner == 0)));
        out.push((b, f32::from(winner == 1)));
    }
}

/// Solves `a x = b` (Gaussian elimination with partial pivoting).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for i in 0..n {
        let p = (i..n)
            .max_by(|&x, &y| a[x][i].abs().total_cmp(&a[y][i].abs()))
            .unwrap_or(i);
        a.swap(i, p);
        b.swap(i, p);
        for r in i + 1..n {
            let f = a[r][i] / a[i][i];
            let (top, bottom) = a.split_at_mut(r);
            for (x, y) in bottom[0][i..].iter_mut().zip(&top[i][i..]) {
                *x -= f * y;
            }
            b[r] -= f * b[i];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|c| a[i][c] * x[c]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    x
}

fn main() {
    let games: u64 = env("GAMES", 4000);
    let seed: u64 = env("SEED", 1);
    let config = Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
    let mut data: Vec<Sample> = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2u64)
            .map(|t| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for g in (t..games).step_by(2) {
                        play(config, seed + g, &mut out);
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            data.extend(h.join().expect("thread"));
        }
    });
    // Hold out every tenth game-side sample for validation.
    let (train, test): (Vec<_>, Vec<_>) = data.iter().enumerate().partition(|(i, _)| i % 10 != 0);
    let n = FEATURES + 1;
    let x = |s: &Sample| {
        let mut v: Vec<f64> = s.0.iter().map(|&f| f64::from(f)).collect();
        v.push(1.0);
        v
    };
    let mut w = vec![0.0; n];
    let loss = |w: &[f64], set: &[(usize, &Sample)]| {
        let mut l = 0.0;
        let mut right = 0usize;
        for (_, s) in set {
            let z: f64 = x(s).iter().zip(w).map(|(a, b)| a * b).sum();
            let p = (1.0 / (1.0 + (-z).exp())).clamp(1e-9, 1.0 - 1e-9);
            let y = f64::from(s.1);
            l -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
            right += usize::from((p > 0.5) == (y > 0.5));
        }
        (l / set.len() as f64, right as f64 / set.len() as f64)
    };
    for round in 0..12 {
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for (_, s) in &train {
            let v = x(s);
            let z: f64 = v.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let y = f64::from(s.1);
            for ((g, row), &vi) in grad.iter_mut().zip(hess.iter_mut()).zip(&v) {
                *g += (p - y) * vi;
                for (h, &vj) in row.iter_mut().zip(&v) {
                    *h += p * (1.0 - p) * vi * vj;
                }
            }
        }
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] += 1.0;
        }
        let step = solve(hess, grad);
        for (wi, si) in w.iter_mut().zip(&step) {
            *wi -= si;
        }
        let (l, a) = loss(&w, &test);
        eprintln!("round {round}: held-out log loss {l:.4}, accuracy {a:.3}");
    }
    println!("{} samples", data.len());
    let list: Vec<String> = w.iter().map(|v| format!("{v:.4}")).collect();
    println!(
        "const WEIGHTS: [f32; FEATURES + 1] = [{}];",
        list.join(", ")
    );
}
