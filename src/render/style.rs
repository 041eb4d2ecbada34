//! Colours, chip sprites and dice faces shared by the board and hand images.

use image::RgbaImage;

use super::canvas::{
    circle, fill_sdf, mix, rgb, ring, round_rect, round_rect_outline, sd_round_rect, sd_segment,
    with_alpha, Colour,
};
use crate::engine::Variant;

/// Body and rim colour of each team's chips, and the colour of the mark on them.
pub(super) struct ChipColours {
    pub(super) body: Colour,
    pub(super) rim: Colour,
    pub(super) mark: Colour,
}

const WHITE: Colour = rgb(0xFFFFFF);

/// Background of the area around the cells (board) and of the hand image.
pub fn felt(variant: Variant) -> Colour {
    match variant {
        Variant::Classic => rgb(0x1F4D3A),
        Variant::Dice => rgb(0x2F2A5A),
        Variant::Kids => rgb(0x3A8FD6),
    }
}

/// Header band of the board and hand images.
pub const HEADER_BG: Colour = rgb(0x17212B);
/// Main header text.
pub const HEADER_TEXT: Colour = rgb(0xFFFFFF);
/// Secondary header text.
pub const HEADER_DIM: Colour = rgb(0xB0BEC5);
/// Hearts and diamonds.
pub const CARD_RED: Colour = rgb(0xD32F2F);
/// Spades and clubs.
pub const CARD_BLACK: Colour = rgb(0x1B1B1B);
/// The face of a card cell.
pub const CARD_FACE: Colour = rgb(0xFFFFFF);
/// The thin edge around a card cell.
pub const CARD_EDGE: Colour = rgb(0xB0BEC5);
/// The face of a kids cell (a warm white behind the animal).
pub const KIDS_FACE: Colour = rgb(0xFFFDF6);
/// The thin edge around a dice number cell.
pub const DICE_EDGE: Colour = rgb(0x9FA8DA);
/// Column letters and row numbers around the cells.
pub const EDGE_TEXT: Colour = rgb(0xE8EEF2);

/// The colours of a team's chips.
pub(super) fn chip_colours(variant: Variant, team: u8) -> ChipColours {
    let (body, rim, mark) = match (variant, team) {
        (Variant::Kids, 0) => (0xE53935, 0x8E1B18, WHITE),
        (Variant::Kids, 1) => (0xFDD835, 0xA88A00, rgb(0x4E3B00)),
        (Variant::Kids, 2) => (0x43A047, 0x1B5E20, WHITE),
        (Variant::Kids, _) => (0x1E88E5, 0x0D47A1, WHITE),
        (_, 0) => (0x1E6FD9, 0x0B3C8C, WHITE),
        (_, 1) => (0x2E9E48, 0x145A26, WHITE),
        (_, 2) => (0xD93025, 0x7F1A12, WHITE),
        (_, _) => (0x8E44AD, 0x4A235A, WHITE),
    };
    ChipColours {
        body: rgb(body),
        rim: rgb(rim),
        mark,
    }
}

/// The main colour of a team's chips: classic and dice blue, green, red; kids red, yellow, green, blue.
pub fn team_colour(variant: Variant, team: u8) -> Colour {
    chip_colours(variant, team).body
}

/// A darker shade of the team colour, for lines and text on light backgrounds.
pub fn team_dark(variant: Variant, team: u8) -> Colour {
    chip_colours(variant, team).rim
}

/// A chip of radius `r` as a sprite with transparent surroundings (room for a shadow). The chip's centre
/// is at `chip_offset(r)` in the sprite. Each team has its own white mark, so colour is never the only
/// cue: team 0 a dot, team 1 a cross, team 2 a ring, team 3 a square.
pub fn chip_sprite(variant: Variant, team: u8, r: f32) -> RgbaImage {
    let size = (2.0 * r + 8.0).ceil() as u32;
    let mut img = RgbaImage::new(size, size);
    let c = chip_offset(r);
    let colours = chip_colours(variant, team);
    // Soft shadow below right: the distance is stretched so the edge fades over a few pixels.
    fill_sdf(
        &mut img,
        (c - r, c - r, c + r + 4.0, c + r + 5.0),
        with_alpha(rgb(0x000000), 80),
        |x, y| (((x - c - 1.5).powi(2) + (y - c - 2.5).powi(2)).sqrt() - r) / 2.5,
    );
    circle(&mut img, c, c, r, colours.rim);
    circle(&mut img, c, c, r * 0.86, colours.body);
    ring(
        &mut img,
        c,
        c,
        r * 0.70,
        (r * 0.05).max(1.2),
        with_alpha(colours.rim, 110),
    );
    circle(
        &mut img,
        c - r * 0.28,
        c - r * 0.32,
        r * 0.40,
        with_alpha(WHITE, 40),
    );
    let mark = with_alpha(colours.mark, 240);
    match team {
        0 => circle(&mut img, c, c, r * 0.30, mark),
        1 => {
            let a = r * 0.30;
            let half = r * 0.095;
            fill_sdf(
                &mut img,
                (c - a - half, c - a - half, c + a + half, c + a + half),
                mark,
                |x, y| {
                    sd_segment(x, y, (c - a, c - a), (c + a, c + a), half).min(sd_segment(
                        x,
                        y,
                        (c - a, c + a),
                        (c + a, c - a),
                        half,
                    ))
                },
            );
        }
        2 => ring(&mut img, c, c, r * 0.27, r * 0.12, mark),
        _ => {
            let h = r * 0.27;
            fill_sdf(&mut img, (c - h, c - h, c + h, c + h), mark, |x, y| {
                sd_round_rect(x, y, c, c, h, h, r * 0.05)
            });
        }
    }
    img
}

/// Where the chip centre lies inside a sprite of radius `r`.
pub fn chip_offset(r: f32) -> f32 {
    r + 3.0
}

/// Pip positions of a die face in a unit square.
fn pips(value: u8) -> &'static [(f32, f32)] {
    const L: f32 = 0.26;
    const M: f32 = 0.5;
    const H: f32 = 0.74;
    match value {
        1 => &[(M, M)],
        2 => &[(L, L), (H, H)],
        3 => &[(L, L), (M, M), (H, H)],
        4 => &[(L, L), (H, L), (L, H), (H, H)],
        5 => &[(L, L), (H, L), (M, M), (L, H), (H, H)],
        6 => &[(L, L), (H, L), (L, M), (H, M), (L, H), (H, H)],
        _ => &[],
    }
}

/// A die face `size` pixels wide with its top-left at (x, y).
pub fn die(img: &mut RgbaImage, x: f32, y: f32, size: f32, value: u8) {
    round_rect(
        img,
        x + 1.0,
        y + 2.0,
        size,
        size,
        size * 0.18,
        with_alpha(rgb(0x000000), 70),
    );
    round_rect(img, x, y, size, size, size * 0.18, rgb(0xFFFFFF));
    round_rect_outline(
        img,
        x,
        y,
        size,
        size,
        size * 0.18,
        (size * 0.04).max(1.0),
        rgb(0x37474F),
    );
    let pip = if value == 1 {
        rgb(0xC62828)
    } else {
        rgb(0x212121)
    };
    for &(px, py) in pips(value) {
        circle(img, x + px * size, y + py * size, size * 0.095, pip);
    }
}

/// A soft pastel tint for the dice board's numbers, so equal numbers are easy to find.
pub fn dice_tint(sum: u8) -> Colour {
    let hue = match sum {
        2 => 0xFFE0E0,
        3 => 0xFFF0D6,
        4 => 0xFFFBD1,
        5 => 0xE6F7D9,
        6 => 0xD9F2EE,
        7 => 0xDCEBFF,
        8 => 0xE8E0FF,
        9 => 0xF6DFF5,
        12 => 0xFFE0E0,
        _ => 0xF5F5F5,
    };
    mix(rgb(hue), rgb(0xFFFFFF), 0.15)
}
