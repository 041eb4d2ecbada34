//! Render + encode of a mid-game classic board (target: at most 20 ms median), and of a full profile
//! card (target: at most 30 ms to draw).

use criterion::{criterion_group, criterion_main, Criterion};

use sequence_bot::analysis::profile::Achievement;
use sequence_bot::engine::{Config, Options, Record, Variant};
use sequence_bot::render::{
    board_image, board_png, cli::game_after, profile_card, profile_png, CardAchievement, CardChart,
    CardProgress, CardTable, CardVersus, ProfileCard,
};

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

fn words(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn lines(n: usize, label: &str) -> Vec<(String, String)> {
    (0..n)
        .map(|i| (format!("{label} {i}"), format!("{}", 17 * i + 3)))
        .collect()
}

/// A card with everything: 8 tiles, two tables of 4 rows, 8 style lines, a 50-point chart, every
/// achievement (half unlocked), two nearest and a head-to-head.
fn full_card() -> ProfileCard {
    let header = words(&["", "Games", "Wins", "Win rate", "Avg. moves", "Fastest win"]);
    let table = |title: &str, rows: [&str; 4]| CardTable {
        title: title.into(),
        header: header.clone(),
        rows: rows
            .iter()
            .map(|r| words(&[r, "201", "112", "56%", "31", "14"]))
            .collect(),
    };
    ProfileCard {
        name: "Margarethe".into(),
        subtitle: "Rating 1,214 · #3 of 57 on this server".into(),
        tiles: lines(8, "Figure"),
        tables: vec![
            table("By game", ["Classic", "King of the Board", "Dice", "Kids"]),
            table("By opponents", ["Humans", "easy", "medium", "hard"]),
        ],
        style_title: "How they play".into(),
        style: lines(8, "Habit"),
        chart: Some(CardChart {
            title: "Rating, last 50 rated games".into(),
            values: (0..50)
                .map(|i| 800.0 + 9.0 * f64::from(i) + 60.0 * (f64::from(i) * 0.7).sin())
                .collect(),
        }),
        achievements_title: "Achievements".into(),
        achievements: Achievement::ALL
            .iter()
            .enumerate()
            .map(|(i, &achievement)| CardAchievement {
                achievement,
                name: format!("{achievement:?}"),
                unlocked: i % 2 == 0,
            })
            .collect(),
        nearest: [Achievement::Wall, Achievement::Party]
            .map(|achievement| CardProgress {
                achievement,
                name: format!("{achievement:?}"),
                condition: "Break 25 of the opponents' lines".into(),
                have: 21,
                goal: 25,
            })
            .to_vec(),
        versus: Some(CardVersus {
            title: "You and Ann".into(),
            lines: lines(6, "Together"),
        }),
        footer: "Sequence · The Card Room · 27 Nov 2026".into(),
    }
}

fn bench_profile(c: &mut Criterion) {
    let card = full_card();
    // Fonts and the kids picture are loaded once; warm them up outside the measurement.
    let _ = profile_card(&card);
    c.bench_function("profile card render only", |b| {
        b.iter(|| profile_card(&card))
    });
    c.bench_function("profile card render+png", |b| b.iter(|| profile_png(&card)));
}

criterion_group!(benches, bench_render, bench_profile);
criterion_main!(benches);
