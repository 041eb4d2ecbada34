//! Tests of the profile card: its size, that any card draws, the icons, the chart's points, names that
//! fit. (The example cards of `assets/examples` are drawn from the service's words: see
//! `service::tests::profile::write_profile_examples`.)

use image::{Rgba, RgbaImage};

use super::*;
use crate::render::encode_png;

/// English names, as the service words them.
const NAMES: [&str; 22] = [
    "First game",
    "Veteran",
    "On fire",
    "Unstoppable",
    "Beat easy",
    "Beat medium",
    "Beat hard",
    "Hard ten",
    "Wild cards",
    "Quick",
    "Ten hours",
    "Party",
    "King of the Board",
    "Series won",
    "Dice win",
    "Kids win",
    "Three teams",
    "Breaker",
    "Double",
    "No wild cards",
    "Comeback",
    "Wall",
];

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// A rating history of `n` games that wanders upwards from about 800.
fn history(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 12.0 + 0.35 * i as f64 + 1.8 * ((i as f64) * 0.7).sin())
        .collect()
}

/// A card with everything: eight tiles, both tables, eight style lines, a 50-game chart, every
/// achievement (`unlocked` of them unlocked), two nearest and a head-to-head.
pub(super) fn full_card(name: &str, unlocked: usize) -> ProfileCard {
    let header = strings(&["", "Games", "Wins", "Win rate", "Avg. moves", "Fastest win"]);
    ProfileCard {
        name: name.to_string(),
        subtitle: "Rating 29.6 · #3 of 57 on this server".into(),
        tiles: pairs(&[
            ("Games", "312"),
            ("Wins", "171"),
            ("Win rate", "55%"),
            ("Streak", "4"),
            ("Best streak", "11"),
            ("Sequences", "498"),
            ("Series played", "14"),
            ("Series won", "9"),
        ]),
        tables: vec![
            CardTable {
                title: "By game".into(),
                header: header.clone(),
                rows: vec![
                    strings(&["Classic", "201", "112", "56%", "31", "14"]),
                    strings(&["King of the Board", "38", "19", "50%", "35", "18"]),
                    strings(&["Dice", "52", "27", "52%", "40", "21"]),
                    strings(&["Kids", "21", "13", "62%", "12", "7"]),
                ],
            },
            CardTable {
                title: "By opponents".into(),
                header,
                rows: vec![
                    strings(&["Humans", "187", "92", "49%", "32", "15"]),
                    strings(&["easy", "41", "39", "95%", "24", "11"]),
                    strings(&["medium", "52", "30", "58%", "29", "13"]),
                    strings(&["hard", "44", "15", "34%", "33", "16"]),
                ],
            },
        ],
        style_title: "How they play".into(),
        style: pairs(&[
            ("Two-eyed jacks", "402"),
            ("One-eyed jacks", "377"),
            ("Lines broken", "61"),
            ("Dead cards exchanged", "88"),
            ("First-move win rate", "58%"),
            ("Moves a game", "30.4"),
            ("Play time", "41 h 12 min"),
            ("First game here", "3 Mar 2025"),
            ("Agreement with hard", "71% (last 20)"),
        ]),
        chart: Some(CardChart {
            title: "Rating, last 50 rated games".into(),
            values: history(50),
        }),
        achievements_title: format!("Achievements · {unlocked} of 22"),
        achievements: Achievement::ALL
            .iter()
            .zip(NAMES)
            .enumerate()
            .map(|(i, (&achievement, name))| CardAchievement {
                achievement,
                name: name.into(),
                unlocked: i < unlocked,
            })
            .collect(),
        nearest: vec![
            CardProgress {
                achievement: Achievement::Wall,
                name: "Wall".into(),
                condition: "Break 25 of the opponents' lines".into(),
                have: 21,
                goal: 25,
            },
            CardProgress {
                achievement: Achievement::Comeback,
                name: "Comeback".into(),
                condition: "Win after the opponents made the first sequence".into(),
                have: 0,
                goal: 1,
            },
        ],
        versus: Some(CardVersus {
            title: "You and Ann".into(),
            lines: pairs(&[
                ("Games together", "27"),
                ("As partners", "9 (6 won)"),
                ("As opponents", "18"),
                ("Your wins", "10"),
                ("Ann's wins", "8"),
                ("Sequences", "31 – 26"),
            ]),
        }),
        footer: "Sequence · The Card Room · 27 Nov 2026".into(),
    }
}

/// A player with one casual game: no chart yet, nothing unlocked but the first game.
pub(super) fn new_player() -> ProfileCard {
    let mut card = full_card("Ada", 1);
    card.subtitle = "Not rated yet".into();
    card.tiles = pairs(&[
        ("Games", "1"),
        ("Wins", "0"),
        ("Win rate", "0%"),
        ("Streak", "0"),
    ]);
    for table in &mut card.tables {
        table.rows.truncate(1);
        table.rows[0] = strings(&[&table.rows[0][0], "1", "0", "0%", "27", "–"]);
    }
    card.style = pairs(&[
        ("Two-eyed jacks", "1"),
        ("One-eyed jacks", "0"),
        ("Play time", "14 min"),
        ("First game here", "27 Nov 2026"),
    ]);
    card.chart = Some(CardChart {
        title: "The rating chart starts after two rated games".into(),
        values: vec![],
    });
    card.versus = None;
    card.nearest[0] = CardProgress {
        achievement: Achievement::OnFire,
        name: "On fire".into(),
        condition: "Win 5 games in a row".into(),
        have: 0,
        goal: 5,
    };
    card.nearest[1] = CardProgress {
        achievement: Achievement::BeatEasy,
        name: "Beat easy".into(),
        condition: "Win a game against easy".into(),
        have: 0,
        goal: 1,
    };
    card
}

fn pixel(img: &RgbaImage, (x, y): (f32, f32)) -> Rgba<u8> {
    *img.get_pixel(x as u32, y as u32)
}

fn is_grey(p: Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    r.max(g).max(b) - r.min(g).min(b) <= 8
}

#[test]
fn a_card_is_phone_wide_and_as_tall_as_its_parts() {
    let full = full_card("Ada", 12);
    let img = profile_card(&full);
    assert_eq!(img.dimensions(), card_size(&full));
    assert_eq!(img.width(), WIDTH);
    assert!((1600..=2600).contains(&img.height()), "{}", img.height());
    // Each part adds its height: one more table row adds a row.
    let mut longer = full.clone();
    longer.tables[0]
        .rows
        .push(strings(&["More", "1", "1", "100%", "9", "9"]));
    assert_eq!(card_size(&longer).1, card_size(&full).1 + ROW_H as u32);
    // Without a versus block the card is shorter, and an empty card is just a header and a footer.
    let mut alone = full.clone();
    alone.versus = None;
    assert!(card_size(&alone).1 < card_size(&full).1);
    let empty = profile_card(&ProfileCard::default());
    assert_eq!(empty.dimensions(), (WIDTH, (HEADER + PAD) as u32));
}

#[test]
fn empty_full_and_odd_cards_draw() {
    let long = "A very long label that no column can hold without being cut ".repeat(4);
    let mut cards = vec![ProfileCard::default(), full_card("Ada", 22), new_player()];
    for values in [
        vec![],
        vec![1500.0],
        history(50),
        vec![1000.0; 50],
        vec![-250.0, -80.5, -300.0, -12.0],
        vec![f64::NAN, 3.0, f64::INFINITY, -1e308, 1e308],
        vec![f64::NAN],
    ] {
        let mut card = full_card("Bo", 5);
        card.chart = Some(CardChart {
            title: "Rating".into(),
            values,
        });
        cards.push(card);
    }
    let mut odd = full_card(&"W".repeat(200), 3);
    odd.subtitle = long.clone();
    odd.tiles = vec![(long.clone(), long.clone()); 9];
    odd.tables[0].header = vec![long.clone()];
    odd.tables[0].rows.push(vec![long.clone(); 9]);
    odd.tables[1].rows.push(vec![]);
    odd.style = vec![(long.clone(), long.clone()); 5];
    odd.nearest.push(odd.nearest[0].clone());
    odd.nearest[0].have = 99;
    odd.nearest[1].goal = 0;
    odd.nearest[0].condition = long.clone();
    odd.achievements[0].name = long.clone();
    odd.footer = long.clone();
    odd.versus = Some(CardVersus {
        title: long.clone(),
        lines: vec![],
    });
    cards.push(odd);
    cards.push(full_card("王小明", 8));
    cards.push(full_card(&"李".repeat(200), 8));
    cards.push(full_card("   ", 0));
    cards.push(full_card("\u{200B}🎲\u{FE0F}", 0));
    for card in &cards {
        let img = profile_card(card);
        assert_eq!(img.dimensions(), card_size(card));
        assert!(encode_png(&img).is_ok());
    }
}

/// Whether the column of pixels at `x` (below the header) is the bare felt: nothing was drawn into
/// the card's padding.
fn padding_is_bare(img: &RgbaImage, x: u32) -> bool {
    (HEADER as u32..img.height()).all(|y| *img.get_pixel(x, y) == background())
}

#[test]
fn long_texts_stay_inside_the_card() {
    let long = "Überlänge ".repeat(30);
    let mut card = full_card(&"M".repeat(200), 22);
    card.tiles = vec![(long.clone(), "9".repeat(60)); 8];
    card.style = vec![(long.clone(), long.clone()); 6];
    card.tables[0].rows[0] = vec![long.clone(); 6];
    card.nearest[1].condition = long.clone();
    card.nearest[1].name = long.clone();
    card.footer = long.clone();
    let img = profile_card(&card);
    for x in [0, 3, PAD as u32 - 3, WIDTH - PAD as u32 + 2, WIDTH - 1] {
        assert!(padding_is_bare(&img, x), "something was drawn at x = {x}");
    }
    // The header's right padding too: a 200-character name is cut or shrunk to fit.
    for y in 0..HEADER as u32 {
        for x in WIDTH - PAD as u32 + 2..WIDTH {
            assert_eq!(
                *img.get_pixel(x, y),
                HEADER_BG,
                "the name runs to ({x}, {y})"
            );
        }
    }
}

/// The ink of the name in the header: pixels of the name's area that are not the header's colour.
fn name_ink(img: &RgbaImage) -> Vec<(u32, u32)> {
    let x0 = (PAD + 2.0 * AVATAR_R + 22.0) as u32;
    (20..72)
        .flat_map(|y| (x0..WIDTH).map(move |x| (x, y)))
        .filter(|&(x, y)| *img.get_pixel(x, y) != HEADER_BG)
        .collect()
}

#[test]
fn cjk_names_are_drawn_with_their_own_glyphs() {
    let cjk = profile_card(&full_card("王小明", 3));
    let unknown = profile_card(&full_card("???", 3));
    let latin = profile_card(&full_card("Ada", 3));
    let ink = name_ink(&cjk);
    assert!(ink.len() > 300, "the CJK name drew {} pixels", ink.len());
    assert_ne!(
        ink,
        name_ink(&unknown),
        "the CJK name was drawn as question marks"
    );
    assert_ne!(ink, name_ink(&latin));
    // Two CJK names differ, and the avatar shows the first character.
    let other = profile_card(&full_card("李雷", 3));
    assert_ne!(name_ink(&other), ink);
    assert_eq!(initial("王小明"), "王");
    assert_eq!(initial("  ada"), "A");
    assert_eq!(initial(""), "");
}

/// An achievement's icon alone on the panel's colour.
fn icon(a: Achievement, unlocked: bool) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(80, 80, panel_colour());
    let fonts = fonts().expect("shipped fonts parse");
    draw_icon(&mut img, fonts, a, (40.0, 40.0), ICON_R, unlocked);
    img
}

#[test]
fn locked_icons_are_grey_and_unlocked_ones_coloured_and_each_its_own() {
    let within = |img: &RgbaImage, radius: f32| -> Vec<Rgba<u8>> {
        (0..80u32)
            .flat_map(|y| (0..80u32).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let (dx, dy) = (x as f32 + 0.5 - 40.0, y as f32 + 0.5 - 40.0);
                (dx * dx + dy * dy).sqrt() < radius
            })
            .map(|(x, y)| *img.get_pixel(x, y))
            .collect()
    };
    let mut unlocked_icons = Vec::new();
    for a in Achievement::ALL {
        let on = icon(a, true);
        let off = icon(a, false);
        assert_ne!(on, off, "{a:?}");
        // The rim too is grey when locked; the disc alone is coloured when unlocked.
        assert!(
            within(&off, ICON_R - 1.5).into_iter().all(is_grey),
            "locked {a:?} has colour"
        );
        let disc = ICON_R * 0.88 - 1.5;
        let coloured = within(&on, disc)
            .into_iter()
            .filter(|&p| !is_grey(p))
            .count();
        assert!(
            coloured > 400,
            "unlocked {a:?} has {coloured} coloured pixels"
        );
        // Something is drawn on the disc: not one flat colour.
        let mut colours: Vec<Rgba<u8>> = within(&off, disc);
        colours.sort_by_key(|p| p.0);
        colours.dedup();
        assert!(colours.len() > 3, "locked {a:?} shows no symbol");
        unlocked_icons.push((a, on, off));
    }
    // Each icon is its own, in colour and in grey.
    for (i, (a, on, off)) in unlocked_icons.iter().enumerate() {
        for (b, other_on, other_off) in &unlocked_icons[i + 1..] {
            let differ = |x: &RgbaImage, y: &RgbaImage| {
                x.pixels().zip(y.pixels()).filter(|(p, q)| p != q).count()
            };
            assert!(differ(on, other_on) > 100, "{a:?} and {b:?} look alike");
            assert!(
                differ(off, other_off) > 40,
                "locked {a:?} and {b:?} look alike"
            );
        }
    }
}

fn card_with_chart(values: Vec<f64>) -> ProfileCard {
    let mut card = full_card("Ada", 4);
    card.chart = Some(CardChart {
        title: "Rating".into(),
        values,
    });
    card
}

#[test]
fn the_chart_marks_the_latest_point_where_it_belongs() {
    // Rising: the latest is the highest, top right; the first the lowest, bottom left.
    let rising = card_with_chart((0..50).map(|i| 900.0 + 4.0 * f64::from(i)).collect());
    let img = profile_card(&rising);
    let (x, y, w, h) = chart_plot(&rising).expect("a chart of 50 values");
    assert_eq!(pixel(&img, (x + w, y)), CHART_LATEST);
    assert_eq!(pixel(&img, (x, y + h)), CHART_LINE);
    assert_ne!(pixel(&img, (x + w, y + h)), CHART_LATEST);
    // The middle of the line is on the line; well above it is not.
    assert_eq!(pixel(&img, (x + w * 0.5, y + h * 0.5)), CHART_LINE);
    assert_ne!(pixel(&img, (x + w * 0.25, y + h * 0.2)), CHART_LINE);
    // Falling, with negative ratings: the latest is the lowest, bottom right.
    let falling = card_with_chart((0..20).map(|i| -10.0 - 7.5 * f64::from(i)).collect());
    let img = profile_card(&falling);
    let (x, y, w, h) = chart_plot(&falling).expect("a chart of 20 values");
    assert_eq!(pixel(&img, (x + w, y + h)), CHART_LATEST);
    assert_ne!(pixel(&img, (x + w, y)), CHART_LATEST);
    assert_eq!(pixel(&img, (x, y)), CHART_LINE);
    // Flat: one line across the middle, the latest point at its end.
    let flat = card_with_chart(vec![1200.0; 30]);
    let img = profile_card(&flat);
    let (x, y, w, h) = chart_plot(&flat).expect("a chart of 30 values");
    assert_eq!(pixel(&img, (x + w, y + h / 2.0)), CHART_LATEST);
    assert_eq!(pixel(&img, (x + w / 3.0, y + h / 2.0)), CHART_LINE);
    // Fewer than two values: no plot, the heading alone (the service's note); a shorter card.
    for values in [vec![], vec![1500.0], vec![f64::NAN, 1.0]] {
        let card = card_with_chart(values);
        assert_eq!(chart_plot(&card), None);
        assert_eq!(
            card_size(&card).1 + CHART_H as u32,
            card_size(&rising).1,
            "the note takes the heading's room only"
        );
    }
}

#[test]
fn progress_bars_show_the_share_reached() {
    let card = full_card("Ada", 4);
    let img = profile_card(&card);
    let slot = layout(&card)
        .into_iter()
        .find(|s| s.part == Part::Achievements)
        .expect("achievements");
    let top = slot.y + title_h(&card.achievements_title);
    let y = top + rows_of(card.achievements.len(), ICONS_PER_ROW) as f32 * ICON_CELL_H;
    let inner = WIDTH as f32 - 2.0 * (PAD + INSET);
    let box_w = ((inner - GAP) / 2.0).floor();
    // The first bar (21 of 25) is gold at 80% of its length and not at 95%.
    let x = PAD + INSET;
    let tx = x + 12.0 + 2.0 * NEAR_ICON_R + 14.0;
    let bar_w = x + box_w - 14.0 - tx;
    let bar_y = y + 64.0 + 6.0;
    assert_eq!(pixel(&img, (tx + bar_w * 0.80, bar_y)), GOLD);
    assert_ne!(pixel(&img, (tx + bar_w * 0.95, bar_y)), GOLD);
}

#[test]
fn small_helpers() {
    assert_eq!(axis_label(-0.2), "0");
    assert_eq!(axis_label(-12.6), "-13");
    assert_eq!(axis_label(1499.5), "1500");
    let fonts = fonts().expect("fonts");
    let lines = wrap(&fonts.bold, 15.0, "King of the Board", 119.0, 2);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let lines = wrap(&fonts.bold, 15.0, &"word ".repeat(40), 119.0, 2);
    assert_eq!(lines.len(), 2);
    assert!(lines[1].ends_with('…'));
    assert!(wrap(&fonts.bold, 15.0, "", 119.0, 2).is_empty());
}
