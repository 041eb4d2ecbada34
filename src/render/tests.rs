//! Image tests that check what a person would: sizes, colours where chips are, corners, highlights,
//! and that a channel image never shows a hand.

use image::{Rgba, RgbaImage};

use super::board::StaticBoard;
use super::cli::game_after;
use super::*;
use crate::engine::{BitIter, Cell, Config, Game, Label, Move, Options, Record, Status, Variant};

fn record(variant: Variant, players: u8, seed: u64) -> Record {
    let config = Config::new(variant, players, None, Options::default()).expect("valid set-up");
    Record::random_game(config, seed)
}

/// A game part-way through its record.
fn game_at(variant: Variant, players: u8, seed: u64, fraction: f32) -> Game {
    let record = record(variant, players, seed);
    let k = (record.actions.len() as f32 * fraction) as usize;
    game_after(&record, Some(k)).expect("the record replays")
}

fn names() -> Vec<String> {
    vec!["Ada".into(), "Bo".into(), "Cy".into(), "Di".into()]
}

fn pixel(img: &RgbaImage, (x, y): (f32, f32)) -> Rgba<u8> {
    *img.get_pixel(x as u32, y as u32)
}

#[test]
fn images_are_phone_sized() {
    for variant in Variant::ALL {
        let game = game_at(variant, 2, 11, 0.5);
        let board = board_image(&game.public_view(), &names());
        assert!(
            (1000..=1200).contains(&board.width()),
            "{variant} board is {} wide",
            board.width()
        );
        assert!((1000..=1300).contains(&board.height()));
        let hand = hand_image(&game.view(0));
        assert!((1000..=1200).contains(&hand.width()));
        assert!(hand.height() >= 200 && hand.height() < 700);
    }
}

#[test]
fn placed_chips_show_their_team_colour_at_their_cell() {
    for (variant, players) in [
        (Variant::Classic, 3),
        (Variant::Dice, 3),
        (Variant::Kids, 4),
    ] {
        let game = game_at(variant, players, 5, 0.6);
        let position = game.position();
        let layout = position.layout();
        let img = board_image(&game.public_view(), &[]);
        let in_sequence: u128 = position
            .sequences()
            .iter()
            .map(|s| s.mask)
            .fold(0, |a, m| a | m);
        let mut checked = 0;
        for team in 0..position.config().teams {
            for cell in BitIter(position.chips(team) & !in_sequence) {
                let ((cx, cy), r) = chip_position(layout, cell);
                // Halfway out from the centre: the chip's body, clear of the white mark.
                let p = pixel(&img, (cx + r * 0.5, cy));
                assert_eq!(
                    p,
                    team_colour(variant, team),
                    "{variant}: chip of team {team} on {}",
                    layout.cell_name(cell)
                );
                checked += 1;
            }
        }
        assert!(
            checked >= 4,
            "{variant}: too few chips to check ({checked})"
        );
        // An empty cell has no team colour there.
        for cell in BitIter(position.empty() & !layout.corners).take(5) {
            let ((cx, cy), r) = chip_position(layout, cell);
            let p = pixel(&img, (cx + r * 0.5, cy));
            for team in 0..position.config().teams {
                assert_ne!(p, team_colour(variant, team));
            }
        }
    }
}

#[test]
fn chips_of_different_teams_differ_by_mark_as_well_as_colour() {
    // Colour-blind check: turn each chip into grey levels and compare the centre (the mark) patterns.
    let variant = Variant::Kids;
    let r = 40.0;
    let sprites: Vec<RgbaImage> = (0..4).map(|t| style::chip_sprite(variant, t, r)).collect();
    let luma = |img: &RgbaImage, x: u32, y: u32| {
        let p = img.get_pixel(x, y).0;
        (u32::from(p[0]) * 3 + u32::from(p[1]) * 6 + u32::from(p[2])) / 10
    };
    let c = style::chip_offset(r) as u32;
    // Sample a small grid over the mark of each chip; binarize relative to the chip's own body.
    let pattern = |img: &RgbaImage| -> Vec<bool> {
        let body = luma(img, c + (r * 0.5) as u32, c);
        let mut bits = Vec::new();
        for dy in [-10i32, -6, 0, 6, 10] {
            for dx in [-10i32, -6, 0, 6, 10] {
                let v = luma(img, (c as i32 + dx) as u32, (c as i32 + dy) as u32);
                bits.push(v.abs_diff(body) > 40);
            }
        }
        bits
    };
    let patterns: Vec<Vec<bool>> = sprites.iter().map(pattern).collect();
    for a in 0..4 {
        for b in a + 1..4 {
            assert_ne!(
                patterns[a], patterns[b],
                "teams {a} and {b} have the same mark"
            );
        }
    }
}

#[test]
fn free_corners_look_different_from_cards() {
    for variant in [Variant::Classic, Variant::Kids] {
        let game = Game::new(
            Config::new(variant, 2, None, Options::default()).expect("set-up"),
            1,
        );
        let img = board_image(&game.public_view(), &[]);
        let layout = game.position().layout();
        let board = StaticBoard::of(layout);
        let mean = |cell: Cell| {
            let (x, y, w, h) = board.geometry.cell_rect(cell);
            let mut sum = 0u64;
            for yy in y..y + h {
                for xx in x..x + w {
                    let p = img.get_pixel(xx, yy).0;
                    sum += u64::from(p[0]) + u64::from(p[1]) + u64::from(p[2]);
                }
            }
            sum / u64::from(3 * w * h)
        };
        for (i, label) in layout.labels.iter().enumerate() {
            let m = mean(Cell(i as u8));
            match label {
                Label::Corner => assert!(m < 110, "{variant} corner {i} too light: {m}"),
                _ => assert!(m > 170, "{variant} card cell {i} too dark: {m}"),
            }
        }
    }
}

#[test]
fn different_positions_give_different_images_and_the_last_move_is_highlighted() {
    for variant in Variant::ALL {
        let record = record(variant, 2, 21);
        let k = record.actions.len() / 2;
        let before = game_after(&record, Some(k)).expect("replays");
        let after = game_after(&record, Some(k + 1)).expect("replays");
        let a = board_image(&before.public_view(), &[]);
        let b = board_image(&after.public_view(), &[]);
        assert_eq!(a.dimensions(), b.dimensions());
        assert_ne!(a, b, "{variant}: action {k} changed nothing visible");
        if let Some(last) = after.position().last_action() {
            let board = StaticBoard::of(after.position().layout());
            let (x, y, w, _) = board.geometry.cell_rect(last.cell);
            // The frame around the cell, a few pixels above its top edge.
            let p = b.get_pixel(x + w / 2, y - 2).0;
            let want = if last.removed {
                [0xFF, 0x57, 0x22]
            } else {
                [0xFF, 0xEA, 0x00]
            };
            assert_eq!(&p[..3], &want, "{variant}: last move frame");
        }
    }
}

#[test]
fn completed_sequences_are_drawn_as_a_line() {
    // Play random classic games to the end until one finishes with a sequence.
    for seed in 0..20 {
        let record = record(Variant::Classic, 2, seed);
        let game = game_after(&record, None).expect("replays");
        let Some(sequence) = game.position().sequences().first().copied() else {
            continue;
        };
        let img = board_image(&game.public_view(), &[]);
        let layout = game.position().layout();
        for &cell in sequence.cells() {
            let ((cx, cy), _) = chip_position(layout, cell);
            assert_eq!(
                pixel(&img, (cx, cy)),
                style::team_dark(Variant::Classic, sequence.team),
                "sequence dot on {}",
                layout.cell_name(cell)
            );
        }
        assert!(matches!(
            game.position().status(),
            Status::Won(_) | Status::Drawn
        ));
        return;
    }
    panic!("no random game made a sequence");
}

#[test]
fn the_channel_image_never_depends_on_a_hand() {
    for variant in Variant::ALL {
        let game = game_at(variant, 3, 8, 0.4);
        let public = board_image(&game.public_view(), &names());
        for seat in 0..3 {
            let view = game.view(seat);
            if variant.has_cards() {
                assert!(!view.hand.is_empty());
            }
            assert_eq!(
                board_image(&view, &names()),
                public,
                "{variant} seat {seat}"
            );
        }
        // A view with a different hand draws the same board.
        let mut view = game.view(0);
        view.hand.reverse();
        view.hand.truncate(1);
        assert_eq!(board_image(&view, &names()), public);
    }
}

#[test]
fn hands_are_drawn_and_differ_between_seats() {
    for variant in [Variant::Classic, Variant::Kids] {
        let game = game_at(variant, 2, 4, 0.3);
        let a = hand_image(&game.view(0));
        let b = hand_image(&game.view(1));
        assert_ne!(a, b);
        // Naming the seat to move changes only the header.
        let waiting = if game.position().to_move() == 0 { 1 } else { 0 };
        let plain = hand_image(&game.view(waiting));
        let named = hand_image_named(&game.view(waiting), &names());
        assert_eq!(plain.dimensions(), named.dimensions());
        assert_ne!(plain, named);
        // The public view has no hand to draw.
        let public = hand_image(&game.public_view());
        assert!(public.height() < a.height());
    }
}

#[test]
fn dead_cards_are_marked() {
    // Search random games for a hand holding a dead card.
    for seed in 0..40 {
        let config = Config::new(Variant::Classic, 2, None, Options::default()).expect("set-up");
        let mut game = Game::new(config, seed);
        let mut rng = crate::engine::GameRng::new(seed);
        while let Some(mv) = game.random_move(&mut rng) {
            let seat = game.position().to_move();
            let view = game.view(seat);
            if let Some(i) = view.hand.iter().position(|&c| view.position.is_dead(c)) {
                let img = hand_image(&view);
                let rects = hand::card_rects(&view);
                let (x, y, w, h) = rects[i];
                let p = img.get_pixel((x + 6.0) as u32, (y + h / 2.0) as u32).0;
                assert_eq!(&p[..3], &[0xC6, 0x28, 0x28], "dead band colour");
                // A live card has no band there.
                if let Some(j) = view.hand.iter().position(|&c| !view.position.is_dead(c)) {
                    let (x, y, _, h) = rects[j];
                    let q = img.get_pixel((x + 6.0) as u32, (y + h / 2.0) as u32).0;
                    assert_ne!(&q[..3], &[0xC6, 0x28, 0x28]);
                }
                let _ = w;
                return;
            }
            if game.play(seat, mv).is_err() || matches!(mv, Move::Pass) {
                break;
            }
        }
    }
    panic!("no dead card found in 40 random games");
}

#[test]
fn pngs_are_small_and_decode_to_the_same_pixels() {
    for variant in Variant::ALL {
        for fraction in [0.5, 1.0] {
            let game = game_at(variant, 2, 13, fraction);
            let view = game.public_view();
            let png = board_png(&view, &names()).expect("encodes");
            assert!(png.len() < 500 * 1024, "{variant}: {} bytes", png.len());
            let decoded = image::load_from_memory(&png).expect("decodes").to_rgba8();
            assert_eq!(decoded, board_image(&view, &names()));
            let hand = hand_png(&game.view(0)).expect("encodes");
            assert!(hand.len() < 500 * 1024);
            assert!(image::load_from_memory(&hand).is_ok());
        }
    }
}

#[test]
fn long_names_and_missing_names_do_not_break_the_header() {
    let game = game_at(Variant::Classic, 2, 3, 0.5);
    let long = vec!["A".repeat(300), "😀".repeat(50)];
    let img = board_image(&game.public_view(), &long);
    assert!((1000..=1200).contains(&img.width()));
    let none = board_image(&game.public_view(), &[]);
    assert_ne!(img, none);
}

#[test]
fn transparent_images_keep_their_alpha_in_png() {
    let mut img = RgbaImage::from_pixel(4, 3, Rgba([10, 20, 30, 255]));
    let opaque = image::load_from_memory(&encode_png(&img).expect("encodes")).expect("decodes");
    assert_eq!(opaque.color(), image::ColorType::Rgb8);
    assert_eq!(opaque.to_rgba8(), img);
    img.put_pixel(1, 1, Rgba([1, 2, 3, 128]));
    let png = encode_png(&img).expect("encodes");
    assert_eq!(
        image::load_from_memory(&png).expect("decodes").to_rgba8(),
        img
    );
}

/// The shortening rule, measured the slow way: drop one character at a time until "prefix…" fits.
fn fit_text_by_trial(font: &ab_glyph::FontRef<'static>, size: f32, text: &str, max: f32) -> String {
    use super::canvas::text_width;
    if text_width(font, size, text) <= max {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while chars.pop().is_some() {
        let candidate: String = chars.iter().collect::<String>() + "…";
        if text_width(font, size, &candidate) <= max {
            return candidate;
        }
    }
    String::new()
}

#[test]
fn text_fitting_keeps_the_longest_prefix_that_fits() {
    use super::canvas::{fit_text, text_width};
    let fonts = assets::fonts().expect("fonts");
    for text in [
        "",
        "Ada",
        "AVAVAVA Wolfgang Amadeus",
        "Ærøskøbing ÿ 🂡 Straße",
        "WWWWWWWWWW",
    ] {
        for max in [0.0, 5.0, 20.0, 60.0, 150.0, 400.0] {
            for font in [&fonts.sans, &fonts.bold] {
                let fitted = fit_text(font, 22.0, text, max);
                assert_eq!(
                    fitted,
                    fit_text_by_trial(font, 22.0, text, max),
                    "{text:?} in {max}"
                );
                assert!(fitted.is_empty() || text_width(font, 22.0, &fitted) <= max);
            }
        }
    }
    // A very long text is cut to what fits (about 20 wide letters in 400 px), in one pass.
    let long = "W".repeat(10_000);
    let fitted = fit_text(&fonts.bold, 22.0, &long, 400.0);
    assert!(fitted.ends_with('…'));
    assert!((10..40).contains(&fitted.chars().count()), "{fitted}");
}

#[test]
fn a_very_long_seat_name_is_drawn_cut() {
    // Seat 0 to move, with a 10,000-character name: both images are drawn, and the name on them is
    // the capped one (the same words as with that name given already cut).
    let game = game_at(Variant::Classic, 2, 11, 0.3);
    let long = vec!["W".repeat(10_000), "Bo".into()];
    let cut = vec![texts::cap_name(&long[0]), "Bo".into()];
    assert_eq!(cut[0].chars().count(), texts::MAX_NAME_CHARS);
    let view = game.public_view();
    assert_eq!(board_image(&view, &long), board_image(&view, &cut));
    assert_ne!(board_image(&view, &long), board_image(&view, &names()));
    let seat = game.view(0);
    assert_eq!(
        hand_image_named(&seat, &long),
        hand_image_named(&seat, &cut)
    );
}

#[test]
fn a_long_name_is_cut_before_the_words_around_it() {
    use super::canvas::{fill_fitting, text_width};
    let fonts = assets::fonts().expect("fonts");
    let turn = texts::Texts::english().turn;
    let name = texts::cap_name(&"W".repeat(100));
    let fitted = fill_fitting(&fonts.bold, 34.0, turn, &[("name", &name)], "name", 600.0);
    assert!(fitted.ends_with("… to play"), "{fitted}");
    assert!(text_width(&fonts.bold, 34.0, &fitted) <= 600.0);
    // Short names are left alone; with no room at all, the whole is cut.
    let short = fill_fitting(&fonts.bold, 34.0, turn, &[("name", "Ada")], "name", 600.0);
    assert_eq!(short, "Ada to play");
    let tiny = fill_fitting(&fonts.bold, 34.0, turn, &[("name", "Ada")], "name", 80.0);
    assert!(
        tiny.ends_with('…') && text_width(&fonts.bold, 34.0, &tiny) <= 80.0,
        "{tiny}"
    );
}

/// One character drawn alone, black on white, 60 px high.
fn drawn(font: &ab_glyph::FontRef<'static>, text: &str) -> RgbaImage {
    use super::canvas::{text as draw_text, Align};
    let mut img = RgbaImage::from_pixel(120, 80, Rgba([255, 255, 255, 255]));
    draw_text(
        &mut img,
        font,
        48.0,
        (10.0, 60.0),
        Align::Left,
        Rgba([0, 0, 0, 255]),
        text,
    );
    img
}

/// The empty box (`.notdef`) of `font` drawn where [`drawn`] draws a character.
fn notdef_box(font: &ab_glyph::FontRef<'static>) -> RgbaImage {
    use ab_glyph::{point, Font, GlyphId, PxScale};
    let mut img = RgbaImage::from_pixel(120, 80, Rgba([255, 255, 255, 255]));
    let glyph = GlyphId(0).with_scale_and_position(PxScale::from(48.0), point(10.0, 60.0));
    if let Some(outlined) = font.outline_glyph(glyph) {
        let bounds = outlined.px_bounds();
        outlined.draw(|x, y, cov| {
            super::canvas::blend(
                &mut img,
                bounds.min.x as i32 + x as i32,
                bounds.min.y as i32 + y as i32,
                Rgba([0, 0, 0, 255]),
                cov,
            );
        });
    }
    img
}

fn ink(img: &RgbaImage) -> usize {
    img.pixels().filter(|p| p.0[0] < 128).count()
}

#[test]
fn names_in_other_scripts_and_emoji_draw_glyphs_not_empty_boxes() {
    let fonts = assets::fonts().expect("fonts");
    for font in [&fonts.sans, &fonts.bold] {
        let empty_box = notdef_box(font);
        assert!(ink(&empty_box) > 0, "the box itself is drawn");
        for c in [
            "王", "明", "李", "の", "カ", "한", "국", "ก", "क", "😀", "🎲", "🦄", "🐉", "👍",
        ] {
            let img = drawn(font, c);
            assert!(ink(&img) > 20, "{c} draws nothing");
            assert!(img != empty_box, "{c} is drawn as an empty box");
        }
        // Joiners and variation selectors draw nothing (not a box, not a question mark).
        assert_eq!(drawn(font, "👍\u{FE0F}"), drawn(font, "👍"));
        assert_eq!(drawn(font, "A\u{200D}"), drawn(font, "A"));
        // What no shipped font has is drawn as a readable question mark.
        assert_eq!(drawn(font, "\u{10FFFD}"), drawn(font, "?"));
    }
}

#[test]
fn different_cjk_and_emoji_names_draw_different_boards() {
    // Were their characters drawn as empty boxes, two names of the same length would look the same.
    let game = game_at(Variant::Classic, 2, 11, 0.3);
    let view = game.public_view();
    let board = |a: &str, b: &str| board_image(&view, &[a.to_string(), b.to_string()]);
    assert!(
        board("Ada", "Bo") != board("Cy", "Bo"),
        "names are on the board"
    );
    assert!(board("王小明", "Bo") != board("李小明", "Bo"));
    assert!(board("Ada", "김민준") != board("Ada", "박민준"));
    assert!(board("🙂 Ada", "Bo") != board("🎲 Ada", "Bo"));
    // The hand of the player waiting names the player to move (seat 0).
    let waiting = game.view(1);
    assert!(
        hand_image_named(&waiting, &["さくら".into(), "Bo".into()])
            != hand_image_named(&waiting, &["ひかり".into(), "Bo".into()])
    );
}

// ----- issue 26: the picker's board, the header's players by colour -----

/// A few free cells of a game, as a cells step of the picker would offer them.
fn some_free_cells(game: &Game, n: usize) -> Vec<Cell> {
    let position = game.position();
    let layout = position.layout();
    let corners: u128 = layout.corners;
    BitIter(layout.all & !position.occupied() & !corners)
        .step_by(3)
        .take(n)
        .collect()
}

fn close(a: Rgba<u8>, b: Rgba<u8>, tolerance: i32) -> bool {
    (0..3).all(|i| (i32::from(a.0[i]) - i32::from(b.0[i])).abs() <= tolerance)
}

#[test]
fn picker_board_marks_exactly_the_candidate_cells_with_their_names() {
    for (variant, players) in [
        (Variant::Classic, 2),
        (Variant::Dice, 3),
        (Variant::Kids, 4),
    ] {
        let game = game_at(variant, players, 8, 0.3);
        let view = game.public_view();
        let layout = game.position().layout();
        let targets = some_free_cells(&game, 5);
        assert!(targets.len() >= 3, "{variant}: free cells to offer");
        let plain = board_image_in(&view, &names(), Lang::En);
        let marked = board_image_with_targets(&view, &names(), Lang::En, &targets);
        assert_eq!(plain.dimensions(), marked.dimensions());
        let g = Geometry::of(layout);
        for &cell in &targets {
            let (x, y, w, h) = g.cell_rect(cell);
            // The outline, just outside the cell's left edge, halfway down.
            let edge = pixel(&marked, (x as f32 - 3.0, (y + h / 2) as f32));
            assert!(
                close(edge, TARGET, 8),
                "{variant} {cell:?}: outline {edge:?}"
            );
            // The name label on the lower edge: the label colour and dark letters on it.
            let mut label = 0;
            let mut letters = 0;
            for yy in (y + h - h / 4)..(y + h + 2) {
                for xx in (x + w / 4)..(x + 3 * w / 4) {
                    let p = *marked.get_pixel(xx, yy);
                    label += usize::from(close(p, TARGET, 8));
                    letters += usize::from(close(p, TARGET_TEXT, 40));
                }
            }
            assert!(label > 100, "{variant} {cell:?}: no label ({label} pixels)");
            assert!(
                letters > 15,
                "{variant} {cell:?}: no name on the label ({letters})"
            );
            // The cell itself is not dimmed: its centre looks as on the plain board.
            let centre = g.cell_centre(cell);
            assert_eq!(pixel(&marked, centre), pixel(&plain, centre), "{variant}");
        }
        // Every other cell is dimmed (darker than on the plain board), none carries the label colour.
        for cell in (0..layout.len() as u8).map(Cell) {
            if targets.contains(&cell) {
                continue;
            }
            let c = g.cell_centre(cell);
            let (a, b) = (pixel(&plain, c), pixel(&marked, c));
            let sum = |p: Rgba<u8>| u32::from(p.0[0]) + u32::from(p.0[1]) + u32::from(p.0[2]);
            assert!(
                sum(b) < sum(a) || sum(a) < 60,
                "{variant} {cell:?} not dimmed"
            );
        }
        // With no targets the picture is the channel's board.
        assert_eq!(
            board_image_with_targets(&view, &names(), Lang::En, &[]),
            plain
        );
    }
}

#[test]
fn header_names_every_player_next_to_a_swatch_of_their_colour() {
    let game = game_at(Variant::Classic, 4, 3, 0.2);
    let view = game.public_view();
    let seats: Vec<String> = ["Ann", "李雷", "Bo", "王小明"].map(String::from).to_vec();
    let named = board_image_in(&view, &seats, Lang::En);
    let unnamed = board_image_in(&view, &[], Lang::En);
    // Line 2 (the teams) differs: names instead of colour words.
    let differs = |y0: u32, y1: u32| {
        (y0..y1)
            .any(|y| (0..named.width()).any(|x| named.get_pixel(x, y) != unnamed.get_pixel(x, y)))
    };
    assert!(differs(75, 108), "the team line does not name the players");
    // Each team's swatch (its chip colour) is on that line, before its names.
    for team in 0..2u8 {
        let colour = team_colour(Variant::Classic, team);
        let found = (75..105)
            .any(|y| (0..named.width() / 2).any(|x| close(*named.get_pixel(x, y), colour, 12)));
        assert!(found, "no swatch of team {team}");
    }
    // A long set of names still fits: nothing is drawn past the header's right padding.
    let long: Vec<String> = (0..4)
        .map(|i| format!("Player with a very long name {i}"))
        .collect();
    let img = board_image_in(&view, &long, Lang::En);
    let bg = *img.get_pixel(img.width() - 2, 90);
    for y in 75..108 {
        for x in img.width() - 12..img.width() {
            assert_eq!(*img.get_pixel(x, y), bg, "the team line runs off the image");
        }
    }
}

/// Writes the example images of `assets/examples` that show issue 26's pictures (run by hand:
/// `cargo test --lib render::tests::write_issue_26_examples -- --ignored`).
#[test]
#[ignore]
fn write_issue_26_examples() {
    let game = game_at(Variant::Classic, 4, 3, 0.25);
    let view = game.public_view();
    let seats: Vec<String> = ["Ann", "李雷", "Bo", "王小明"].map(String::from).to_vec();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples");
    let header = board_png_in(&view, &seats, Lang::En).expect("encodes");
    std::fs::write(dir.join("players-by-colour.png"), header).expect("writes");
    // The cells of one card of the player to move, as its picker step shows them.
    let seat = game.position().to_move();
    let team = game.config().team_of(seat);
    let targets: Vec<Cell> = game
        .hand(seat)
        .iter()
        .map(|&card| BitIter(game.position().card_targets(team, card)).collect::<Vec<_>>())
        .find(|cells| (2..=20).contains(&cells.len()))
        .unwrap_or_else(|| some_free_cells(&game, 4));
    let picker = board_png_with_targets(&view, &seats, Lang::En, &targets).expect("encodes");
    std::fs::write(dir.join("picker-cells.png"), picker).expect("writes");
}

/// The golden King of the Board game of three teams (points 2, 1, 1; the zone on C8).
fn kotb_three_teams(after: Option<usize>) -> Game {
    let text = include_str!("../../tests/golden/kotb_three_teams.json");
    let record = Record::from_json(text).expect("a record");
    game_after(&record, after).expect("the record replays")
}

/// The point in the middle of the zone frame's left edge, beside the centre's row.
fn zone_frame_point(centre: Cell) -> (f32, f32) {
    let layout = crate::engine::Layout::standard(Variant::Classic);
    let (top_left, _) = crate::engine::zone_corners(centre);
    let g = Geometry::of(layout);
    let (x, _, _, _) = g.cell_rect(top_left);
    let (_, y, _, h) = g.cell_rect(centre);
    // The frame is 6 px wide, in the gap left of the block's first cell.
    (x as f32 - 3.0, (y + h / 2) as f32)
}

#[test]
fn the_king_of_the_board_zone_is_framed_and_tinted_where_it_is() {
    let start = kotb_three_teams(Some(0));
    let end = kotb_three_teams(None);
    let (from, to) = (
        start.position().zone().expect("zone"),
        end.position().zone().expect("zone"),
    );
    assert_ne!(from, to, "the zone moved during the game");
    let start_img = board_image(&start.public_view(), &names());
    let end_img = board_image(&end.public_view(), &names());
    assert_eq!(pixel(&start_img, zone_frame_point(from)), ZONE);
    assert_eq!(pixel(&end_img, zone_frame_point(to)), ZONE);
    assert_ne!(pixel(&start_img, zone_frame_point(to)), ZONE);
    assert_ne!(pixel(&end_img, zone_frame_point(from)), ZONE);
    // The tint: a cell inside the zone is no longer the card's white.
    let layout = end.position().layout();
    let g = Geometry::of(layout);
    let (x, y, _, h) = g.cell_rect(to);
    let inside = pixel(&end_img, ((x + 3) as f32, (y + h - 3) as f32));
    let (x, y, _, _) = g.cell_rect(from);
    let outside = pixel(&end_img, ((x + 3) as f32, (y + h - 3) as f32));
    assert_ne!(inside, outside, "{inside:?}");
    assert!(
        inside[0] < 250 && inside[2] > inside[1],
        "tinted violet: {inside:?}"
    );
    // A classic game without the mode has no zone.
    let plain = game_at(Variant::Classic, 3, 5, 0.2);
    let plain_img = board_image(&plain.public_view(), &[]);
    for centre in crate::engine::ZONE_CENTRES {
        assert_ne!(pixel(&plain_img, zone_frame_point(centre)), ZONE);
    }
}

#[test]
fn the_zone_tag_covers_no_cell_and_stands_in_the_header() {
    let text = include_str!("../../tests/golden/kotb_zone_moves_twice.json");
    let record = Record::from_json(text).expect("a record");
    let game = game_after(&record, None).expect("the record replays");
    let centre = game.position().zone().expect("zone");
    let img = board_image(&game.public_view(), &names());
    let layout = game.position().layout();
    let g = Geometry::of(layout);
    let (top_left, bottom_right) = crate::engine::zone_corners(centre);
    let (left, top) = (top_left.0 % 10, top_left.0 / 10);
    assert!(top > 0, "the golden zone has a row above it");
    // The cells next to the zone (above, below, beside) show no zone colour: the tag sits elsewhere.
    let (right, bottom) = (bottom_right.0 % 10, bottom_right.0 / 10);
    for row in top.saturating_sub(1)..=(bottom + 1).min(9) {
        for col in left.saturating_sub(1)..=(right + 1).min(9) {
            if (top..=bottom).contains(&row) && (left..=right).contains(&col) {
                continue;
            }
            let (x, y, w, h) = g.cell_rect(Cell(row * 10 + col));
            for py in y..y + h {
                for px in x..x + w {
                    assert_ne!(
                        *img.get_pixel(px, py),
                        ZONE,
                        "zone colour on cell {} at ({px}, {py})",
                        layout.cell_name(Cell(row * 10 + col))
                    );
                }
            }
        }
    }
    // The header carries the tag, in the zone's colour.
    let (_, board_top, _, _) = g.cell_rect(Cell(0));
    let in_header = (0..board_top.saturating_sub(40))
        .any(|y| (0..img.width()).any(|x| *img.get_pixel(x, y) == ZONE));
    assert!(in_header, "the zone tag is in the header");
}

#[test]
fn the_header_never_shows_points_past_the_target() {
    for lang in Lang::ALL {
        let texts = Texts::of(lang);
        let past = super::board::points_against_target(4, 3, texts);
        assert!(
            past.contains('4') && !past.contains('3'),
            "{lang:?}: {past}"
        );
        let short = super::board::points_against_target(2, 3, texts);
        assert!(
            short.contains('2') && short.contains('3'),
            "{lang:?}: {short}"
        );
    }
    assert_eq!(
        super::board::points_against_target(4, 3, Texts::english()),
        "4 pts"
    );
}

#[test]
fn the_header_shows_points_against_the_target_in_king_of_the_board() {
    let en = Texts::english();
    assert_eq!(
        texts::fill(en.points_of, &[("have", "2"), ("need", "3")]),
        "2/3 pts"
    );
    // The team line (the header's second band) changes with the points.
    let before = kotb_three_teams(Some(12));
    let after = kotb_three_teams(Some(13));
    assert_eq!(before.position().points_per_team(), [0, 0, 0]);
    assert_eq!(after.position().points_per_team(), [2, 0, 0]);
    let a = board_image(&before.public_view(), &names());
    let b = board_image(&after.public_view(), &names());
    let band = |img: &RgbaImage| -> Vec<Rgba<u8>> {
        (75..108)
            .flat_map(|y| (0..img.width()).map(move |x| (x, y)))
            .map(|(x, y)| *img.get_pixel(x, y))
            .collect()
    };
    assert_ne!(band(&a), band(&b));
}

/// Writes `assets/examples/king-of-the-board.png` (run by hand:
/// `cargo test --lib render::tests::write_king_of_the_board_example -- --ignored`).
#[test]
#[ignore]
fn write_king_of_the_board_example() {
    let game = kotb_three_teams(None);
    let seats: Vec<String> = ["Ada", "Bo", "Cy"].map(String::from).to_vec();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples");
    let png = board_png_in(&game.public_view(), &seats, Lang::En).expect("encodes");
    std::fs::write(dir.join("king-of-the-board.png"), png).expect("writes");
}
