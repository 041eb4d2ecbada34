//! The hand image: a seat's cards drawn as cards, with the cells each can take now and dead cards
//! marked. Only for the seat's owner (DM or ephemeral message).

use image::RgbaImage;

use super::assets::{animal_scaled, fonts, Fonts};
use super::canvas::{
    blit, fill_fitting, fill_rect, fit_text, rgb, round_rect, round_rect_outline, text, text_width,
    with_alpha, Align, Colour,
};
use super::style::{
    chip_offset, chip_sprite, die, felt, CARD_BLACK, CARD_RED, HEADER_BG, HEADER_DIM, HEADER_TEXT,
};
use super::texts::{fill, Texts};
use crate::engine::{BitIter, Card, CardEffect, GroupKind, Variant, View};

/// Width of the hand image.
pub const WIDTH: u32 = 1080;
const PAD: f32 = 24.0;
const GAP: f32 = 14.0;
const TOP: f32 = 84.0;
const DEAD: Colour = rgb(0xC62828);
const YOUR_TURN: Colour = rgb(0xFFEA00);

/// Card size for a hand of `n` cards.
fn card_size(variant: Variant, n: usize) -> (f32, f32) {
    let n = n.max(1) as f32;
    let max_card = if variant == Variant::Kids {
        230.0
    } else {
        140.0
    };
    let w = ((WIDTH as f32 - 2.0 * PAD - (n - 1.0) * GAP) / n)
        .min(max_card)
        .floor();
    let ratio = if variant == Variant::Kids { 1.25 } else { 1.4 };
    (w, (w * ratio).round())
}

/// Where each card of the hand is drawn: x, y, width, height.
pub fn card_rects(view: &View) -> Vec<(f32, f32, f32, f32)> {
    let n = view.hand.len();
    let (w, h) = card_size(view.position.config().variant, n);
    let total = n as f32 * w + (n as f32 - 1.0).max(0.0) * GAP;
    let x0 = (WIDTH as f32 - total) / 2.0;
    (0..n)
        .map(|i| (x0 + i as f32 * (w + GAP), TOP + PAD, w, h))
        .collect()
}

/// Draws the hand of `view.seat` (an empty hand for the public view).
pub fn draw(view: &View, seat_names: &[String], texts: &Texts) -> RgbaImage {
    let variant = view.position.config().variant;
    let (_, card_h) = card_size(variant, view.hand.len());
    let body = if variant.has_cards() && !view.hand.is_empty() {
        card_h + 16.0 + 2.0 * 28.0
    } else {
        150.0
    };
    let height = (TOP + PAD + body + PAD) as u32;
    let mut img = RgbaImage::from_pixel(WIDTH, height, felt(variant));
    fill_rect(&mut img, 0, 0, WIDTH as i32, TOP as i32, HEADER_BG);
    let Some(fonts) = fonts() else {
        return img;
    };
    draw_header(&mut img, view, seat_names, texts, fonts);
    if !variant.has_cards() {
        draw_dice_hint(&mut img, view, texts, fonts);
        return img;
    }
    for (&card, rect) in view.hand.iter().zip(card_rects(view)) {
        let (x, y, card_w, card_h) = rect;
        draw_card(&mut img, fonts, card, rect, texts);
        let dead = view.position.is_dead(card);
        if dead {
            draw_dead(&mut img, fonts, rect, texts);
        }
        let size = if card_w < 120.0 { 18.0 } else { 21.0 };
        let mut ty = y + card_h + 16.0 + 20.0;
        let lines = wrap(
            fonts,
            size,
            &targets_text(view, card, dead, texts),
            card_w + GAP,
        );
        for line in lines.iter().take(2) {
            let line = fit_text(&fonts.bold, size, line, card_w + GAP);
            let colour = if dead { rgb(0xFFCDD2) } else { HEADER_TEXT };
            text(
                &mut img,
                &fonts.bold,
                size,
                (x + card_w / 2.0, ty),
                Align::Centre,
                colour,
                &line,
            );
            ty += 28.0;
        }
    }
    img
}

fn draw_header(
    img: &mut RgbaImage,
    view: &View,
    seat_names: &[String],
    texts: &Texts,
    fonts: &Fonts,
) {
    let variant = view.position.config().variant;
    let mut x = PAD;
    if let Some(team) = view.team() {
        let r = 16.0;
        let icon = chip_sprite(variant, team, r);
        let off = chip_offset(r);
        blit(img, &icon, (x + r - off) as i32, (42.0 - off) as i32);
        x += 2.0 * r + 12.0;
    }
    let title = match view.team() {
        Some(team) if !variant.has_cards() => {
            fill(texts.you_play, &[("team", texts.team(variant, team))])
        }
        Some(team) => format!("{} · {}", texts.your_hand, texts.team(variant, team)),
        None => texts.your_hand.to_string(),
    };
    let title_width = text(
        img,
        &fonts.bold,
        32.0,
        (x, 54.0),
        Align::Left,
        HEADER_TEXT,
        &title,
    );
    let right = WIDTH as f32 - PAD;
    // What is said on the right keeps clear of the title (a long name is cut to the room left).
    let room = (right - (x + title_width + 24.0)).max(0.0);
    if view.position.is_over() {
        return;
    }
    if view.is_my_turn() {
        text(
            img,
            &fonts.bold,
            28.0,
            (right, 52.0),
            Align::Right,
            YOUR_TURN,
            texts.your_turn,
        );
    } else if view.seat.is_some() {
        let seat = view.position.to_move();
        let name = texts.seat_name(seat_names, seat);
        let s = fill_fitting(
            &fonts.sans,
            24.0,
            texts.waiting,
            &[("name", &name)],
            "name",
            room,
        );
        text(
            img,
            &fonts.sans,
            24.0,
            (right, 52.0),
            Align::Right,
            HEADER_DIM,
            &s,
        );
    }
}

/// A card face: corner index, big suit (or jack, or animal picture), caption for special cards.
fn draw_card(
    img: &mut RgbaImage,
    fonts: &Fonts,
    card: Card,
    (x, y, w, h): (f32, f32, f32, f32),
    texts: &Texts,
) {
    let r = w * 0.08;
    round_rect(
        img,
        x + 2.0,
        y + 4.0,
        w,
        h,
        r,
        with_alpha(rgb(0x000000), 80),
    );
    round_rect(img, x, y, w, h, r, rgb(0xFFFFFF));
    round_rect_outline(img, x, y, w, h, r, 1.5, rgb(0x90A4AE));
    let cx = x + w / 2.0;
    let caption = match card.effect() {
        CardEffect::Wild => Some((texts.wild, rgb(0x2E7D32))),
        CardEffect::Remove => Some((texts.remove, rgb(0xC62828))),
        CardEffect::Cells => None,
    };
    if card.is_kids() {
        let size = (w * 0.78) as u32;
        if let Some(picture) = animal_scaled(card, size) {
            blit(
                img,
                &picture,
                (cx - size as f32 / 2.0) as i32,
                (y + h * 0.06) as i32,
            );
        }
        let name = capitalised(texts.animal(card));
        let font_size = (w * 0.13).min(30.0);
        let name = fit_text(&fonts.bold, font_size, &name, w * 0.9);
        text(
            img,
            &fonts.bold,
            font_size,
            (cx, y + h * 0.88),
            Align::Centre,
            CARD_BLACK,
            &name,
        );
    } else {
        let colour = if card.is_red() { CARD_RED } else { CARD_BLACK };
        let pretty = card.pretty();
        let (rank, suit) = match pretty.char_indices().last() {
            Some((i, _)) => pretty.split_at(i),
            None => (pretty.as_str(), ""),
        };
        let index = w * 0.20;
        text(
            img,
            &fonts.bold,
            index,
            (x + w * 0.16, y + h * 0.16),
            Align::Centre,
            colour,
            rank,
        );
        text(
            img,
            &fonts.sans,
            index,
            (x + w * 0.16, y + h * 0.30),
            Align::Centre,
            colour,
            suit,
        );
        if caption.is_some() {
            text(
                img,
                &fonts.bold,
                w * 0.55,
                (cx, y + h * 0.62),
                Align::Centre,
                colour,
                rank,
            );
            text(
                img,
                &fonts.sans,
                w * 0.30,
                (cx + w * 0.28, y + h * 0.30),
                Align::Centre,
                colour,
                suit,
            );
        } else {
            text(
                img,
                &fonts.sans,
                w * 0.62,
                (cx, y + h * 0.70),
                Align::Centre,
                colour,
                suit,
            );
        }
    }
    if let Some((caption, colour)) = caption {
        let band = h * 0.16;
        let by = y + h - band - h * 0.06;
        round_rect(img, x + w * 0.08, by, w * 0.84, band, band * 0.3, colour);
        let size = (band * 0.62).min(26.0);
        let size = if text_width(&fonts.bold, size, caption) > w * 0.8 {
            size * w * 0.8 / text_width(&fonts.bold, size, caption)
        } else {
            size
        };
        text(
            img,
            &fonts.bold,
            size,
            (cx, by + band / 2.0 + super::canvas::cap_height(size) / 2.0),
            Align::Centre,
            HEADER_TEXT,
            caption,
        );
    }
}

/// Greys a dead card and stamps it.
fn draw_dead(
    img: &mut RgbaImage,
    fonts: &Fonts,
    (x, y, w, h): (f32, f32, f32, f32),
    texts: &Texts,
) {
    let r = w * 0.08;
    round_rect(img, x, y, w, h, r, with_alpha(rgb(0x90A4AE), 150));
    round_rect_outline(img, x, y, w, h, r, 4.0, DEAD);
    let band = h * 0.18;
    let by = y + h / 2.0 - band / 2.0;
    fill_rect(img, x as i32, by as i32, w as i32, band as i32, DEAD);
    let size = (band * 0.6).min(30.0);
    text(
        img,
        &fonts.bold,
        size,
        (
            x + w / 2.0,
            by + band / 2.0 + super::canvas::cap_height(size) / 2.0,
        ),
        Align::Centre,
        HEADER_TEXT,
        texts.dead,
    );
}

/// Breaks `s` into lines of at most `max` pixels at spaces (the caller shows at most two).
fn wrap(fonts: &Fonts, size: f32, s: &str, max: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in s.split(' ') {
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if text_width(&fonts.bold, size, &candidate) <= max || current.is_empty() {
            current = candidate;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_string()));
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// What a card can do now, as a short text.
fn targets_text(view: &View, card: Card, dead: bool, texts: &Texts) -> String {
    if dead {
        return texts.exchange_it.to_string();
    }
    let targets = view.targets(card);
    let layout = view.position.layout();
    match card.effect() {
        CardEffect::Wild => texts.any_empty.to_string(),
        CardEffect::Remove if targets == 0 => texts.nothing_to_remove.to_string(),
        CardEffect::Remove => texts.any_opponent.to_string(),
        CardEffect::Cells => {
            let names: Vec<String> = BitIter(targets).map(|c| layout.cell_name(c)).collect();
            if names.is_empty() {
                texts.no_cell.to_string()
            } else {
                names.join(" · ")
            }
        }
    }
}

/// The dice game has no cards: show the roll and the cells it allows, when it is the seat's turn.
fn draw_dice_hint(img: &mut RgbaImage, view: &View, texts: &Texts, fonts: &Fonts) {
    let y = TOP + PAD;
    text(
        img,
        &fonts.sans,
        26.0,
        (PAD, y + 30.0),
        Align::Left,
        HEADER_DIM,
        texts.no_cards,
    );
    if !view.is_my_turn() {
        return;
    }
    let Some([a, b]) = view.position.roll() else {
        return;
    };
    let s = 56.0;
    die(img, PAD, y + 52.0, s, a);
    die(img, PAD + s + 10.0, y + 52.0, s, b);
    let layout = view.position.layout();
    let mut cells = Vec::new();
    let mut remove = false;
    for group in view.move_groups() {
        if matches!(group.kind, GroupKind::Remove) {
            remove = true;
        }
        cells.extend(BitIter(group.cells).map(|c| layout.cell_name(c)));
    }
    let x = PAD + 2.0 * s + 30.0;
    // A free roll (11) allows nearly every cell: say so instead of listing them.
    let list = if cells.len() > 10 && !remove {
        texts.any_empty.to_string()
    } else {
        cells.join(" · ")
    };
    let line = if remove {
        format!("{} {list}", texts.remove)
    } else {
        format!("{} {list}", texts.you_may)
    };
    let line = fit_text(&fonts.bold, 24.0, &line, WIDTH as f32 - x - PAD);
    text(
        img,
        &fonts.bold,
        24.0,
        (x, y + 90.0),
        Align::Left,
        HEADER_TEXT,
        &line,
    );
}

/// `owl` gives `Owl`.
pub fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
