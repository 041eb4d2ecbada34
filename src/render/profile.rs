//! The profile card: one image of a player's figures on one server (header, tiles, the two breakdown
//! tables, how they play, the rating chart, achievement icons with the two nearest, head-to-head and a
//! footer), in the board's fonts and colours. Every word on it comes worded in [`ProfileCard`] by the
//! service; this file only lays it out and draws it, so it knows no language.

use std::sync::Mutex;

use image::RgbaImage;

use super::assets::{animal_scaled, fonts, Fonts};
use super::canvas::{
    blit, cap_height, circle, fill_sdf, fit_text, line, mix, rgb, ring, round_rect, sd_round_rect,
    sd_segment, solid_round_rect, text, text_width, Align, Colour,
};
use super::style::{chip_offset, chip_sprite, felt, HEADER_BG, HEADER_DIM, HEADER_TEXT};
use super::texts::cap_name;
use crate::analysis::profile::Achievement;
use crate::engine::{Card, Variant};

/// Everything the card shows, already worded by the service (in the viewer's language).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileCard {
    /// The player's cleaned display name.
    pub name: String,
    /// Under the name: rating, rank, provisional mark.
    pub subtitle: String,
    /// The big figures: (label, value), four to a row.
    pub tiles: Vec<(String, String)>,
    /// The breakdowns (by game, by opponents).
    pub tables: Vec<CardTable>,
    /// Heading of the "how they play" lines (added: the section needs a heading in the viewer's
    /// language, and the render layer words nothing of the card; empty draws none).
    pub style_title: String,
    /// How they play: (label, value) lines, two to a row.
    pub style: Vec<(String, String)>,
    /// The rating chart; `None` leaves it out.
    pub chart: Option<CardChart>,
    /// Heading of the achievements (added, for the same reason as `style_title`; empty draws none).
    pub achievements_title: String,
    /// Every achievement, unlocked or not, in the order drawn.
    pub achievements: Vec<CardAchievement>,
    /// The nearest achievements still locked, with their progress (two are drawn).
    pub nearest: Vec<CardProgress>,
    /// Head-to-head with the viewer, on another player's profile.
    pub versus: Option<CardVersus>,
    /// The last line (server, date).
    pub footer: String,
}

/// A breakdown table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardTable {
    /// Its heading.
    pub title: String,
    /// Column headings; the first names the rows.
    pub header: Vec<String>,
    /// Rows of cells, in the columns of `header`.
    pub rows: Vec<Vec<String>>,
}

/// The rating chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardChart {
    /// Its heading; with fewer than two values it is drawn alone, as the note the service words
    /// ("play two rated games to see the chart").
    pub title: String,
    /// The rating after each game as players see it (1,500 for a new player), oldest first (values
    /// that are not finite are skipped).
    pub values: Vec<f64>,
}

/// One achievement's icon.
#[derive(Clone, Debug, PartialEq)]
pub struct CardAchievement {
    /// Which (chooses the icon).
    pub achievement: Achievement,
    /// Its name, under the icon.
    pub name: String,
    /// Coloured when unlocked, grey when not.
    pub unlocked: bool,
}

/// Progress towards an achievement still locked.
#[derive(Clone, Debug, PartialEq)]
pub struct CardProgress {
    /// Which.
    pub achievement: Achievement,
    /// Its name.
    pub name: String,
    /// Its one-line condition.
    pub condition: String,
    /// How far the player is.
    pub have: u32,
    /// The goal.
    pub goal: u32,
}

/// Head-to-head with another player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardVersus {
    /// Its heading ("You and Ann").
    pub title: String,
    /// (label, value) lines, two to a row.
    pub lines: Vec<(String, String)>,
}

/// Width of the card.
pub const WIDTH: u32 = 1080;
const PAD: f32 = 24.0;
const GAP: f32 = 16.0;
const HEADER: f32 = 132.0;
const AVATAR_R: f32 = 44.0;
const TILES_PER_ROW: usize = 4;
const TILE_H: f32 = 96.0;
const TILE_GAP: f32 = 12.0;
const ROW_H: f32 = 34.0;
const LINE_H: f32 = 34.0;
const CHART_H: f32 = 230.0;
const ICONS_PER_ROW: usize = 8;
const ICON_R: f32 = 34.0;
const ICON_CELL_H: f32 = 134.0;
const NEAR_H: f32 = 92.0;
const NEAR_ICON_R: f32 = 26.0;
const FOOTER_H: f32 = 46.0;
/// Inside a panel: the room left and right of its content.
const INSET: f32 = 18.0;

const WHITE: Colour = rgb(0xFFFFFF);
const GOLD: Colour = rgb(0xFFC400);
/// Panel titles.
const TITLE: Colour = rgb(0xFFD54F);
/// Labels on panels.
const LABEL: Colour = rgb(0xB9CCC3);
/// Tile labels.
const TILE_LABEL: Colour = rgb(0x546E7A);
/// The chart's line.
pub const CHART_LINE: Colour = rgb(0x4FC3F7);
/// The chart's latest point.
pub const CHART_LATEST: Colour = GOLD;

/// The card's background: the classic board's felt.
fn background() -> Colour {
    felt(Variant::Classic)
}

/// The panels on the felt.
fn panel_colour() -> Colour {
    mix(background(), rgb(0x000000), 0.38)
}

/// A band inside a panel (every other row, the nearest achievements).
fn band_colour() -> Colour {
    mix(panel_colour(), WHITE, 0.06)
}

/// One part of the card, in the order drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    Header,
    Tiles,
    Table(usize),
    Style,
    Chart,
    Achievements,
    Versus,
    Footer,
}

/// Where a part is: its top and height (every part but the header and footer spans the width between
/// the paddings).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Slot {
    pub part: Part,
    pub y: f32,
    pub h: f32,
}

fn title_h(title: &str) -> f32 {
    if title.trim().is_empty() {
        INSET
    } else {
        50.0
    }
}

fn rows_of(n: usize, per_row: usize) -> usize {
    n.div_ceil(per_row)
}

/// The finite values of the chart.
fn chart_values(chart: &CardChart) -> Vec<f64> {
    chart
        .values
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .collect()
}

/// The parts of a card and where they are; the last slot ends at the image's height.
pub(super) fn layout(card: &ProfileCard) -> Vec<Slot> {
    let mut slots = vec![Slot {
        part: Part::Header,
        y: 0.0,
        h: HEADER,
    }];
    let mut y = HEADER + GAP;
    let mut push = |part: Part, h: f32| {
        slots.push(Slot { part, y, h });
        y += h + GAP;
    };
    if !card.tiles.is_empty() {
        let rows = rows_of(card.tiles.len(), TILES_PER_ROW) as f32;
        push(Part::Tiles, rows * TILE_H + (rows - 1.0) * TILE_GAP);
    }
    for (i, table) in card.tables.iter().enumerate() {
        let rows = (table.rows.len() + 1) as f32;
        push(Part::Table(i), title_h(&table.title) + rows * ROW_H + INSET);
    }
    if !card.style.is_empty() {
        let rows = rows_of(card.style.len(), 2) as f32;
        push(
            Part::Style,
            title_h(&card.style_title) + rows * LINE_H + INSET,
        );
    }
    if let Some(chart) = &card.chart {
        let plot = if chart_values(chart).len() >= 2 {
            CHART_H
        } else {
            0.0
        };
        push(Part::Chart, title_h(&chart.title) + plot + INSET);
    }
    if !card.achievements.is_empty() || !card.nearest.is_empty() {
        let rows = rows_of(card.achievements.len(), ICONS_PER_ROW) as f32;
        let near = if card.nearest.is_empty() {
            0.0
        } else {
            NEAR_H + 8.0
        };
        push(
            Part::Achievements,
            title_h(&card.achievements_title) + rows * ICON_CELL_H + near + 8.0,
        );
    }
    if let Some(versus) = &card.versus {
        let rows = rows_of(versus.lines.len(), 2) as f32;
        push(Part::Versus, title_h(&versus.title) + rows * LINE_H + INSET);
    }
    let footer = if card.footer.trim().is_empty() {
        PAD - GAP
    } else {
        FOOTER_H
    };
    push(Part::Footer, footer);
    slots
}

/// The card's size in pixels.
pub fn card_size(card: &ProfileCard) -> (u32, u32) {
    let height = layout(card)
        .last()
        .map_or(HEADER, |slot| slot.y + slot.h)
        .ceil();
    (WIDTH, height as u32)
}

/// The chart's plot area (x, y, width, height): the first value is drawn on its left edge, the latest
/// on its right edge, the highest on its top and the lowest on its bottom. `None` without a chart of
/// at least two values.
pub(super) fn chart_plot(card: &ProfileCard) -> Option<(f32, f32, f32, f32)> {
    let chart = card.chart.as_ref()?;
    if chart_values(chart).len() < 2 {
        return None;
    }
    let slot = layout(card).into_iter().find(|s| s.part == Part::Chart)?;
    let label_w = 84.0;
    let x = PAD + INSET + label_w;
    let y = slot.y + title_h(&chart.title) + 14.0;
    let w = WIDTH as f32 - PAD - INSET - 14.0 - x;
    Some((x, y, w, CHART_H - 28.0))
}

/// Draws the card.
pub fn profile_card(card: &ProfileCard) -> RgbaImage {
    let (w, h) = card_size(card);
    let mut img = RgbaImage::from_pixel(w, h, background());
    let Some(fonts) = fonts() else {
        return img;
    };
    for slot in layout(card) {
        match slot.part {
            Part::Header => draw_header(&mut img, fonts, card),
            Part::Tiles => draw_tiles(&mut img, fonts, &card.tiles, slot),
            Part::Table(i) => {
                if let Some(table) = card.tables.get(i) {
                    draw_table(&mut img, fonts, table, slot);
                }
            }
            Part::Style => draw_lines(&mut img, fonts, &card.style_title, &card.style, slot),
            Part::Chart => {
                if let Some(chart) = &card.chart {
                    draw_chart(&mut img, fonts, chart, chart_plot(card), slot);
                }
            }
            Part::Achievements => draw_achievements(&mut img, fonts, card, slot),
            Part::Versus => {
                if let Some(versus) = &card.versus {
                    draw_lines(&mut img, fonts, &versus.title, &versus.lines, slot);
                }
            }
            Part::Footer => {
                let size = 18.0;
                let room = WIDTH as f32 - 2.0 * PAD;
                let footer = fit_text(&fonts.sans, size, card.footer.trim(), room);
                text(
                    &mut img,
                    &fonts.sans,
                    size,
                    (
                        WIDTH as f32 / 2.0,
                        slot.y + slot.h / 2.0 + cap_height(size) / 2.0 - 4.0,
                    ),
                    Align::Centre,
                    HEADER_DIM,
                    &footer,
                );
            }
        }
    }
    img
}

/// The largest size from `size` down to `min` at which `s` fits `max` pixels.
fn fit_size(font: &ab_glyph::FontRef<'static>, size: f32, min: f32, s: &str, max: f32) -> f32 {
    let width = text_width(font, size, s);
    if width > max && width > 0.0 {
        (size * max / width).max(min)
    } else {
        size
    }
}

/// `s` at the largest size from `size` down to `min` that fits `max`, cut with "…" if even `min`
/// does not: the size and the text to draw.
fn shrink_to_fit(
    font: &ab_glyph::FontRef<'static>,
    size: f32,
    min: f32,
    s: &str,
    max: f32,
) -> (f32, String) {
    let size = fit_size(font, size, min, s, max).floor().max(1.0);
    (size, fit_text(font, size, s, max))
}

/// Draws `s` shrunk to fit (see [`shrink_to_fit`]).
#[allow(clippy::too_many_arguments)]
fn fitted(
    img: &mut RgbaImage,
    font: &ab_glyph::FontRef<'static>,
    size: f32,
    min: f32,
    at: (f32, f32),
    align: Align,
    colour: Colour,
    s: &str,
    max: f32,
) {
    let (size, s) = shrink_to_fit(font, size, min, s, max);
    text(img, font, size, at, align, colour, &s);
}

/// A panel spanning the width at `slot`, with its title; returns where its content starts.
fn panel(img: &mut RgbaImage, fonts: &Fonts, title: &str, slot: Slot) -> f32 {
    solid_round_rect(
        img,
        PAD as i32,
        slot.y as i32,
        (WIDTH as f32 - 2.0 * PAD) as i32,
        slot.h as i32,
        14,
        panel_colour(),
    );
    let title = title.trim();
    if !title.is_empty() {
        fitted(
            img,
            &fonts.bold,
            24.0,
            16.0,
            (PAD + INSET, slot.y + 36.0),
            Align::Left,
            TITLE,
            title,
            WIDTH as f32 - 2.0 * (PAD + INSET),
        );
    }
    slot.y + title_h(title)
}

/// The first visible character of the name, upper-cased, for the avatar.
fn initial(name: &str) -> String {
    name.chars()
        .find(|c| !c.is_whitespace() && !c.is_control() && !matches!(c, '\u{200B}'..='\u{200F}'))
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default()
}

fn draw_header(img: &mut RgbaImage, fonts: &Fonts, card: &ProfileCard) {
    solid_round_rect(img, 0, 0, WIDTH as i32, HEADER as i32, 0, HEADER_BG);
    let (cx, cy) = (PAD + AVATAR_R, HEADER / 2.0);
    circle(img, cx, cy, AVATAR_R, GOLD);
    circle(img, cx, cy, AVATAR_R - 4.0, rgb(0x1E6FD9));
    let letter = initial(&card.name);
    if !letter.is_empty() {
        let size = fit_size(&fonts.bold, 44.0, 20.0, &letter, AVATAR_R * 1.4);
        text(
            img,
            &fonts.bold,
            size,
            (cx, cy + cap_height(size) / 2.0),
            Align::Centre,
            WHITE,
            &letter,
        );
    }
    let x = PAD + 2.0 * AVATAR_R + 22.0;
    let room = WIDTH as f32 - PAD - x;
    let name = cap_name(card.name.trim());
    fitted(
        img,
        &fonts.bold,
        44.0,
        30.0,
        (x, 64.0),
        Align::Left,
        HEADER_TEXT,
        &name,
        room,
    );
    fitted(
        img,
        &fonts.sans,
        24.0,
        18.0,
        (x, 104.0),
        Align::Left,
        HEADER_DIM,
        card.subtitle.trim(),
        room,
    );
}

fn draw_tiles(img: &mut RgbaImage, fonts: &Fonts, tiles: &[(String, String)], slot: Slot) {
    let per_row = TILES_PER_ROW as f32;
    let w = ((WIDTH as f32 - 2.0 * PAD - (per_row - 1.0) * TILE_GAP) / per_row).floor();
    for (i, (label, value)) in tiles.iter().enumerate() {
        let (row, col) = ((i / TILES_PER_ROW) as f32, (i % TILES_PER_ROW) as f32);
        let x = PAD + col * (w + TILE_GAP);
        let y = slot.y + row * (TILE_H + TILE_GAP);
        solid_round_rect(img, x as i32, y as i32, w as i32, TILE_H as i32, 12, WHITE);
        let cx = x + w / 2.0;
        let room = w - 20.0;
        fitted(
            img,
            &fonts.bold,
            40.0,
            20.0,
            (cx, y + 52.0),
            Align::Centre,
            rgb(0x1B1B1B),
            value.trim(),
            room,
        );
        fitted(
            img,
            &fonts.bold,
            18.0,
            13.0,
            (cx, y + 82.0),
            Align::Centre,
            TILE_LABEL,
            label.trim(),
            room,
        );
    }
}

fn draw_table(img: &mut RgbaImage, fonts: &Fonts, table: &CardTable, slot: Slot) {
    let top = panel(img, fonts, &table.title, slot);
    let columns = table
        .rows
        .iter()
        .map(Vec::len)
        .chain([table.header.len()])
        .max()
        .unwrap_or(1)
        .max(1);
    let left = PAD + INSET;
    let inner = WIDTH as f32 - 2.0 * (PAD + INSET);
    let first = if columns > 1 { inner * 0.28 } else { inner };
    let other = if columns > 1 {
        (inner - first) / (columns - 1) as f32
    } else {
        0.0
    };
    let column = |i: usize| -> (f32, f32) {
        if i == 0 {
            (left, first)
        } else {
            (left + first + (i - 1) as f32 * other, other)
        }
    };
    let cell = |img: &mut RgbaImage,
                font: &ab_glyph::FontRef<'static>,
                size: f32,
                y: f32,
                i: usize,
                colour: Colour,
                s: &str| {
        let (x, w) = column(i);
        let room = w - 10.0;
        let (at, align) = if i == 0 {
            ((x + 8.0, y), Align::Left)
        } else {
            ((x + w / 2.0, y), Align::Centre)
        };
        fitted(
            img,
            font,
            size,
            size * 0.75,
            at,
            align,
            colour,
            s.trim(),
            room,
        );
    };
    let baseline = |row: f32| top + row * ROW_H + ROW_H / 2.0 + cap_height(19.0) / 2.0;
    for (i, heading) in table.header.iter().enumerate() {
        cell(img, &fonts.bold, 17.0, baseline(0.0), i, LABEL, heading);
    }
    for (r, row) in table.rows.iter().enumerate() {
        let y = top + (r + 1) as f32 * ROW_H;
        if r % 2 == 0 {
            solid_round_rect(
                img,
                left as i32,
                y as i32,
                inner as i32,
                ROW_H as i32,
                6,
                band_colour(),
            );
        }
        for (i, value) in row.iter().enumerate() {
            let font = if i == 0 { &fonts.bold } else { &fonts.sans };
            cell(img, font, 20.0, baseline((r + 1) as f32), i, WHITE, value);
        }
    }
}

/// (label, value) lines two to a row: the label on the left, the value right-aligned in its half.
fn draw_lines(
    img: &mut RgbaImage,
    fonts: &Fonts,
    title: &str,
    lines: &[(String, String)],
    slot: Slot,
) {
    let top = panel(img, fonts, title, slot);
    let left = PAD + INSET;
    let inner = WIDTH as f32 - 2.0 * (PAD + INSET);
    let gutter = 32.0;
    let half = (inner - gutter) / 2.0;
    let size = 20.0;
    for (i, (label, value)) in lines.iter().enumerate() {
        let (row, col) = ((i / 2) as f32, (i % 2) as f32);
        let x = left + col * (half + gutter);
        let y = top + row * LINE_H + LINE_H / 2.0 + cap_height(size) / 2.0;
        let value = fit_text(&fonts.bold, size, value.trim(), half * 0.55);
        let value_w = text(
            img,
            &fonts.bold,
            size,
            (x + half, y),
            Align::Right,
            WHITE,
            &value,
        );
        let room = (half - value_w - 14.0).max(0.0);
        fitted(
            img,
            &fonts.sans,
            size,
            14.0,
            (x, y),
            Align::Left,
            LABEL,
            label.trim(),
            room,
        );
    }
}

/// A number on the chart's axis, rounded (never "-0").
fn axis_label(v: f64) -> String {
    let r = v.round();
    if r.abs() < 0.5 {
        "0".into()
    } else {
        format!("{r:.0}")
    }
}

fn draw_chart(
    img: &mut RgbaImage,
    fonts: &Fonts,
    chart: &CardChart,
    plot: Option<(f32, f32, f32, f32)>,
    slot: Slot,
) {
    panel(img, fonts, &chart.title, slot);
    let values = chart_values(chart);
    let Some((px, py, pw, ph)) = plot else {
        return;
    };
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let flat = hi - lo <= 1e-9;
    // Halves first, so that the range of two huge values cannot overflow.
    let span = hi / 2.0 - lo / 2.0;
    let y_of = |v: f64| -> f32 {
        let t = if flat {
            0.5
        } else {
            (hi / 2.0 - v / 2.0) / span
        };
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.5
        };
        py + t as f32 * ph
    };
    let n = values.len();
    let points: Vec<(f32, f32)> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| (px + pw * i as f32 / (n - 1).max(1) as f32, y_of(v)))
        .collect();
    // Grid: the top and bottom of the range (one line in the middle for a flat chart).
    let grid = mix(panel_colour(), WHITE, 0.18);
    let size = 17.0;
    let label_x = px - 14.0;
    let rule = |img: &mut RgbaImage, y: f32, label: &str| {
        solid_round_rect(img, px as i32, y.round() as i32, pw as i32 + 1, 1, 0, grid);
        let label = fit_text(&fonts.sans, size, label, 76.0);
        text(
            img,
            &fonts.sans,
            size,
            (label_x, y + cap_height(size) / 2.0),
            Align::Right,
            LABEL,
            &label,
        );
    };
    if flat {
        rule(img, py + ph / 2.0, &axis_label(hi));
    } else {
        rule(img, py, &axis_label(hi));
        rule(img, py + ph, &axis_label(lo));
    }
    // A faint area under the line, column by column.
    let bottom = py + ph;
    let fill = super::canvas::with_alpha(CHART_LINE, 46);
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let (xa, xb) = (x0.round() as i32, x1.round() as i32);
        for x in xa..xb {
            let t = if x1 > x0 {
                (x as f32 + 0.5 - x0) / (x1 - x0)
            } else {
                0.0
            };
            let y = y0 + (y1 - y0) * t.clamp(0.0, 1.0);
            for yy in y.round() as i32..bottom.round() as i32 {
                super::canvas::blend(img, x, yy, fill, 1.0);
            }
        }
    }
    for pair in points.windows(2) {
        line(img, pair[0], pair[1], 4.0, CHART_LINE);
    }
    if let (Some(&(lx, ly)), Some(&latest)) = (points.last(), values.last()) {
        circle(img, lx, ly, 10.0, WHITE);
        circle(img, lx, ly, 7.0, CHART_LATEST);
        // The latest value beside its point, on the side with room.
        let label = axis_label(latest);
        let ty = if ly - 18.0 > py + 4.0 {
            ly - 16.0
        } else {
            ly + 34.0
        };
        text(
            img,
            &fonts.bold,
            20.0,
            (lx - 14.0, ty),
            Align::Right,
            WHITE,
            &label,
        );
    }
}

fn draw_achievements(img: &mut RgbaImage, fonts: &Fonts, card: &ProfileCard, slot: Slot) {
    let top = panel(img, fonts, &card.achievements_title, slot);
    let left = PAD + INSET;
    let inner = WIDTH as f32 - 2.0 * (PAD + INSET);
    let cell_w = inner / ICONS_PER_ROW as f32;
    for (i, a) in card.achievements.iter().enumerate() {
        let (row, col) = ((i / ICONS_PER_ROW) as f32, (i % ICONS_PER_ROW) as f32);
        let cx = left + (col + 0.5) * cell_w;
        let y = top + row * ICON_CELL_H;
        let cy = y + 6.0 + ICON_R;
        draw_icon(img, fonts, a.achievement, (cx, cy), ICON_R, a.unlocked);
        let colour = if a.unlocked { WHITE } else { LABEL };
        let size = 15.0;
        let lines = wrap(&fonts.bold, size, a.name.trim(), cell_w - 6.0, 2);
        for (k, l) in lines.iter().enumerate() {
            let ly = cy + ICON_R + 26.0 + k as f32 * 19.0;
            text(img, &fonts.bold, size, (cx, ly), Align::Centre, colour, l);
        }
    }
    let rows = rows_of(card.achievements.len(), ICONS_PER_ROW) as f32;
    let y = top + rows * ICON_CELL_H;
    let box_w = ((inner - GAP) / 2.0).floor();
    for (i, near) in card.nearest.iter().take(2).enumerate() {
        let x = left + i as f32 * (box_w + GAP);
        draw_progress(img, fonts, near, (x, y), box_w);
    }
}

/// One of the nearest achievements: its icon, name and condition, and a bar of its progress.
fn draw_progress(
    img: &mut RgbaImage,
    fonts: &Fonts,
    near: &CardProgress,
    (x, y): (f32, f32),
    w: f32,
) {
    solid_round_rect(
        img,
        x as i32,
        y as i32,
        w as i32,
        NEAR_H as i32,
        10,
        band_colour(),
    );
    let (cx, cy) = (x + 12.0 + NEAR_ICON_R, y + NEAR_H / 2.0);
    draw_icon(img, fonts, near.achievement, (cx, cy), NEAR_ICON_R, false);
    let tx = cx + NEAR_ICON_R + 14.0;
    let right = x + w - 14.0;
    let have = if near.goal == 0 {
        near.have
    } else {
        near.have.min(near.goal)
    };
    let count = format!("{have} / {}", near.goal);
    let count_w = text(
        img,
        &fonts.bold,
        18.0,
        (right, y + 28.0),
        Align::Right,
        WHITE,
        &count,
    );
    let room = (right - tx - count_w - 10.0).max(0.0);
    fitted(
        img,
        &fonts.bold,
        19.0,
        14.0,
        (tx, y + 28.0),
        Align::Left,
        WHITE,
        near.name.trim(),
        room,
    );
    fitted(
        img,
        &fonts.sans,
        16.0,
        12.0,
        (tx, y + 52.0),
        Align::Left,
        LABEL,
        near.condition.trim(),
        right - tx,
    );
    // The bar: the share of the goal reached (a goal of 0 is reached).
    let (bx, by, bw, bh) = (tx, y + 64.0, right - tx, 12.0);
    let share = if near.goal == 0 {
        1.0
    } else {
        (f64::from(near.have) / f64::from(near.goal)).clamp(0.0, 1.0) as f32
    };
    solid_round_rect(
        img,
        bx as i32,
        by as i32,
        bw as i32,
        bh as i32,
        6,
        mix(panel_colour(), rgb(0x000000), 0.3),
    );
    if share > 0.0 {
        let fw = (bw * share).max(bh);
        round_rect(img, bx, by, fw, bh, bh / 2.0, GOLD);
    }
}

/// `s` in at most `max_lines` lines of `max` pixels, broken at spaces; what does not fit ends in "…".
fn wrap(
    font: &ab_glyph::FontRef<'static>,
    size: f32,
    s: &str,
    max: f32,
    max_lines: usize,
) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut words = s.split_whitespace().peekable();
    while let Some(word) = words.next() {
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if current.is_empty() || text_width(font, size, &candidate) <= max {
            current = candidate;
            continue;
        }
        if lines.len() + 1 == max_lines {
            // The last line takes the rest, cut.
            let rest: Vec<&str> = std::iter::once(word).chain(words.by_ref()).collect();
            current = format!("{current} {}", rest.join(" "));
            break;
        }
        lines.push(std::mem::replace(&mut current, word.to_string()));
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
        .into_iter()
        .take(max_lines)
        .map(|l| fit_text(font, size, &l, max))
        .collect()
}

/// The colours of an icon: its disc, its rim, the symbol and two accents.
#[derive(Clone, Copy)]
struct Paint {
    disc: Colour,
    rim: Colour,
    fg: Colour,
    accent: Colour,
    accent2: Colour,
}

/// A locked icon: the same drawing in greys.
const LOCKED: Paint = Paint {
    disc: rgb(0x545454),
    rim: rgb(0x767676),
    fg: rgb(0x9A9A9A),
    accent: rgb(0xBDBDBD),
    accent2: rgb(0x7E7E7E),
};

/// The colours of an unlocked achievement: each its own disc.
fn paint(a: Achievement) -> Paint {
    let (disc, accent, accent2) = match a {
        Achievement::FirstGame => (0x00897B, 0xFFC400, 0xFFFFFF),
        Achievement::Veteran => (0x5D4037, 0xFFC400, 0xFFFFFF),
        Achievement::OnFire => (0xB71C1C, 0xFFB300, 0xFFF176),
        Achievement::Unstoppable => (0x4A148C, 0xFF6D00, 0xFFEB3B),
        Achievement::BeatEasy => (0x2E7D32, 0xFFFFFF, 0x81C784),
        Achievement::BeatMedium => (0xEF6C00, 0xFFFFFF, 0xFFCC80),
        Achievement::BeatHard => (0xC62828, 0xFFFFFF, 0xEF9A9A),
        Achievement::HardTen => (0x7F1A12, 0xFF8A80, 0xFFC400),
        Achievement::WildCards => (0x1565C0, 0xFFFFFF, 0xFFC400),
        Achievement::Quick => (0x0277BD, 0xFFEA00, 0xFFFFFF),
        Achievement::TenHours => (0x3949AB, 0xFFFFFF, 0xFFC400),
        Achievement::Party => (0xC2185B, 0xFFFFFF, 0xF8BBD0),
        Achievement::King => (0x7B1FA2, 0xFFC400, 0xFFFFFF),
        Achievement::SeriesWon => (0x37474F, 0xFFC400, 0xFFE082),
        Achievement::DiceWin => (0x2F2A5A, 0xFFFFFF, 0xC62828),
        Achievement::KidsWin => (0x3A8FD6, 0xFFFFFF, 0xFFFFFF),
        Achievement::ThreeTeams => (0x263238, 0xFFFFFF, 0xFFFFFF),
        Achievement::Breaker => (0x6D4C41, 0xFFFFFF, 0xFF5252),
        Achievement::Double => (0x00695C, 0x64B5F6, 0xA5D6A7),
        Achievement::NoWildCards => (0x00838F, 0xFFFFFF, 0xFF5252),
        Achievement::Comeback => (0xD84315, 0xFFFFFF, 0xFFE082),
        Achievement::Wall => (0x455A64, 0xE64A19, 0xBF360C),
    };
    Paint {
        disc: rgb(disc),
        rim: GOLD,
        fg: WHITE,
        accent: rgb(accent),
        accent2: rgb(accent2),
    }
}

/// Draws an achievement's icon centred on `c` with radius `r`: a disc of its own colour with its own
/// symbol, all in greys while it is locked.
pub(super) fn draw_icon(
    img: &mut RgbaImage,
    fonts: &Fonts,
    a: Achievement,
    (cx, cy): (f32, f32),
    r: f32,
    unlocked: bool,
) {
    let p = if unlocked { paint(a) } else { LOCKED };
    circle(img, cx, cy, r, p.rim);
    circle(img, cx, cy, r * 0.88, p.disc);
    let s = r / 34.0;
    let glyph = |img: &mut RgbaImage,
                 font: &ab_glyph::FontRef<'static>,
                 size: f32,
                 dy: f32,
                 colour: Colour,
                 g: &str| {
        text(
            img,
            font,
            size * s,
            (cx, cy + dy * s + cap_height(size * s) / 2.0),
            Align::Centre,
            colour,
            g,
        );
    };
    match a {
        Achievement::FirstGame => {
            // A flag on a pole.
            line(
                img,
                (cx - 10.0 * s, cy - 17.0 * s),
                (cx - 10.0 * s, cy + 19.0 * s),
                3.5 * s,
                p.fg,
            );
            let (ax, ay) = (cx - 9.0 * s, cy - 17.0 * s);
            fill_sdf(
                img,
                (ax, ay, ax + 24.0 * s, ay + 18.0 * s),
                p.accent,
                |x, y| {
                    // A pennant: inside the triangle (ax, ay), (ax, ay + 18s), (ax + 24s, ay + 9s).
                    let u = (x - ax) / (24.0 * s);
                    let half = 9.0 * s * (1.0 - u);
                    ((y - (ay + 9.0 * s)).abs() - half)
                        .max(ax - x)
                        .max(x - ax - 24.0 * s)
                },
            );
            glyph(img, &fonts.bold, 13.0, 13.0, p.fg, "1");
        }
        Achievement::Veteran => {
            ring(img, cx, cy, 21.0 * s, 2.0 * s, p.accent);
            glyph(img, &fonts.bold, 20.0, 0.0, p.fg, "100");
        }
        Achievement::OnFire | Achievement::Unstoppable => {
            flame(img, (cx, cy + 6.0 * s), 17.0 * s, p.accent);
            flame(img, (cx, cy + 12.0 * s), 10.0 * s, p.accent2);
            let n = if a == Achievement::OnFire { "5" } else { "10" };
            glyph(img, &fonts.bold, 15.0, 12.0, p.disc, n);
        }
        Achievement::BeatEasy | Achievement::BeatMedium | Achievement::BeatHard => {
            let filled = match a {
                Achievement::BeatEasy => 1,
                Achievement::BeatMedium => 2,
                _ => 3,
            };
            bars(img, (cx, cy + 14.0 * s), s, filled, p.fg, p.accent2);
        }
        Achievement::HardTen => {
            bars(img, (cx, cy + 4.0 * s), s, 3, p.fg, p.accent2);
            glyph(img, &fonts.bold, 14.0, 16.0, p.accent2, "×10");
        }
        Achievement::WildCards | Achievement::NoWildCards => {
            // A jack with two eyes; struck through when won without one.
            glyph(img, &fonts.bold, 34.0, 4.0, p.fg, "J");
            circle(img, cx - 9.0 * s, cy - 17.0 * s, 4.0 * s, p.accent);
            circle(img, cx + 9.0 * s, cy - 17.0 * s, 4.0 * s, p.accent);
            if a == Achievement::NoWildCards {
                ring(img, cx, cy, 22.0 * s, 4.0 * s, p.accent2);
                let d = 15.5 * s;
                line(img, (cx - d, cy - d), (cx + d, cy + d), 4.0 * s, p.accent2);
            }
        }
        Achievement::Quick => {
            // A stopwatch.
            ring(img, cx, cy + 3.0 * s, 17.0 * s, 3.5 * s, p.fg);
            round_rect(
                img,
                cx - 4.0 * s,
                cy - 22.0 * s,
                8.0 * s,
                6.0 * s,
                1.5 * s,
                p.fg,
            );
            line(
                img,
                (cx, cy + 3.0 * s),
                (cx + 8.0 * s, cy - 7.0 * s),
                3.5 * s,
                p.accent,
            );
            circle(img, cx, cy + 3.0 * s, 3.0 * s, p.accent);
        }
        Achievement::TenHours => {
            // A clock at ten.
            circle(img, cx, cy, 21.0 * s, p.fg);
            circle(img, cx, cy, 17.5 * s, p.disc);
            for k in 0..12 {
                let t = k as f32 * std::f32::consts::TAU / 12.0;
                let (dx, dy) = (t.sin(), -t.cos());
                circle(img, cx + dx * 14.5 * s, cy + dy * 14.5 * s, 1.3 * s, p.fg);
            }
            let ten = 10.0 * std::f32::consts::TAU / 12.0;
            line(
                img,
                (cx, cy),
                (cx + ten.sin() * 9.0 * s, cy - ten.cos() * 9.0 * s),
                3.5 * s,
                p.accent,
            );
            line(img, (cx, cy), (cx, cy - 13.0 * s), 2.5 * s, p.fg);
        }
        Achievement::Party => {
            // Three people.
            for (dx, dy, size) in [(-14.0f32, 4.0, 0.8), (14.0, 4.0, 0.8), (0.0, 0.0, 1.0)] {
                let (x, y) = (cx + dx * s, cy + dy * s);
                let colour = if dx.abs() < 0.01 { p.fg } else { p.accent2 };
                circle(img, x, y - 9.0 * s * size, 6.5 * s * size, colour);
                fill_sdf(
                    img,
                    (x - 12.0 * s, y, x + 12.0 * s, y + 16.0 * s),
                    colour,
                    |px, py| {
                        let d = ((px - x).powi(2) + (py - (y + 15.0 * s * size)).powi(2)).sqrt()
                            - 11.0 * s * size;
                        d.max(py - (y + 15.0 * s * size))
                    },
                );
                if dx.abs() < 0.01 {
                    // The middle one in front: a thin outline of the disc sets it apart.
                    ring(img, x, y - 9.0 * s, 7.8 * s, 1.6 * s, p.disc);
                }
            }
        }
        Achievement::King => crown(img, (cx, cy), s, p.accent, p.disc),
        Achievement::SeriesWon => trophy(img, (cx, cy), s, p.accent, p.accent2),
        Achievement::DiceWin => {
            let side = 32.0 * s;
            let (x, y) = (cx - side / 2.0, cy - side / 2.0);
            round_rect(img, x, y, side, side, side * 0.2, p.fg);
            for (u, v) in [
                (0.25f32, 0.25f32),
                (0.75, 0.25),
                (0.5, 0.5),
                (0.25, 0.75),
                (0.75, 0.75),
            ] {
                let colour = if (u - 0.5).abs() < 0.01 {
                    p.accent2
                } else {
                    p.disc
                };
                circle(img, x + u * side, y + v * side, side * 0.1, colour);
            }
        }
        Achievement::KidsWin => {
            let size = (r * 1.35).round() as u32;
            if let Some(picture) = kids_picture(size, unlocked) {
                let half = picture.width() as f32 / 2.0;
                blit(
                    img,
                    &picture,
                    (cx - half).round() as i32,
                    (cy - half).round() as i32,
                );
            }
        }
        Achievement::ThreeTeams => {
            let chip_r = 10.5 * s;
            for (team, (dx, dy)) in [(0u8, (0.0, -9.0)), (1, (-10.5, 8.0)), (2, (10.5, 8.0))] {
                let (x, y) = (cx + dx * s, cy + dy * s);
                if unlocked {
                    let sprite = chip_sprite(Variant::Classic, team, chip_r);
                    let off = chip_offset(chip_r);
                    blit(
                        img,
                        &sprite,
                        (x - off).round() as i32,
                        (y - off).round() as i32,
                    );
                } else {
                    circle(
                        img,
                        x,
                        y,
                        chip_r,
                        [p.fg, p.accent, p.accent2][usize::from(team)],
                    );
                    ring(img, x, y, chip_r * 0.6, 1.5 * s, p.disc);
                }
            }
        }
        Achievement::Breaker => {
            // A line of four, the last chip knocked out.
            for k in 0..4 {
                let x = cx + (k as f32 - 1.5) * 11.0 * s;
                if k == 3 {
                    ring(img, x, cy, 4.5 * s, 1.5 * s, p.fg);
                } else {
                    circle(img, x, cy, 5.0 * s, p.fg);
                }
            }
            let (x, d) = (cx + 16.5 * s, 7.5 * s);
            line(img, (x - d, cy - d), (x + d, cy + d), 3.5 * s, p.accent2);
            line(img, (x - d, cy + d), (x + d, cy - d), 3.5 * s, p.accent2);
        }
        Achievement::Double => {
            // Two sequences sharing a chip: the two diagonals of five.
            for k in -2..=2 {
                let t = k as f32 * 9.0 * s;
                circle(img, cx + t, cy + t, 4.2 * s, p.accent);
                circle(img, cx + t, cy - t, 4.2 * s, p.accent2);
            }
            circle(img, cx, cy, 5.0 * s, p.fg);
        }
        Achievement::Comeback => {
            // Down, then up past where it started.
            let pts = [(-19.0, -8.0), (-7.0, 10.0), (3.0, 0.0), (17.0, -14.0)];
            for w in pts.windows(2) {
                let (a0, a1) = (w[0], w[1]);
                line(
                    img,
                    (cx + a0.0 * s, cy + a0.1 * s),
                    (cx + a1.0 * s, cy + a1.1 * s),
                    4.5 * s,
                    p.fg,
                );
            }
            let tip = (cx + 19.0 * s, cy - 16.0 * s);
            line(img, tip, (cx + 7.0 * s, cy - 15.0 * s), 4.5 * s, p.accent2);
            line(img, tip, (cx + 18.0 * s, cy - 4.0 * s), 4.5 * s, p.accent2);
        }
        Achievement::Wall => {
            // Bricks.
            let (bw, bh) = (13.0 * s, 8.0 * s);
            for row in 0..4 {
                let y = cy - 17.0 * s + row as f32 * (bh + 1.5 * s);
                let shift = if row % 2 == 0 { 0.0 } else { bw / 2.0 };
                for k in -2..=2 {
                    let x = cx + k as f32 * (bw + 1.5 * s) - bw / 2.0 + shift;
                    let (x0, x1) = (x.max(cx - 22.0 * s), (x + bw).min(cx + 22.0 * s));
                    if x1 - x0 > 2.0 * s {
                        let colour = if (row + k) % 2 == 0 {
                            p.accent
                        } else {
                            p.accent2
                        };
                        round_rect(img, x0, y, x1 - x0, bh, 1.5 * s, colour);
                    }
                }
            }
        }
    }
}

/// A flame: a teardrop of half-width `r`, its round bottom centred on `c`.
fn flame(img: &mut RgbaImage, (cx, cy): (f32, f32), r: f32, colour: Colour) {
    let apex = cy - 2.2 * r;
    fill_sdf(img, (cx - r, apex, cx + r, cy + r), colour, |x, y| {
        let half = if y >= cy {
            (r * r - (y - cy).powi(2)).max(0.0).sqrt()
        } else {
            r * ((y - apex) / (cy - apex)).clamp(0.0, 1.0).powf(0.8)
        };
        ((x - cx).abs() - half).max(apex - y).max(y - (cy + r))
    });
}

/// Three bars of rising height (a level of difficulty), the first `filled` in `on`.
fn bars(
    img: &mut RgbaImage,
    (cx, base): (f32, f32),
    s: f32,
    filled: usize,
    on: Colour,
    off: Colour,
) {
    let w = 9.0 * s;
    for k in 0..3usize {
        let h = (12.0 + 9.0 * k as f32) * s;
        let x = cx + (k as f32 - 1.0) * (w + 4.0 * s) - w / 2.0;
        let colour = if k < filled { on } else { off };
        round_rect(img, x, base - h, w, h, 2.0 * s, colour);
    }
}

/// A crown of three points with jewels.
fn crown(img: &mut RgbaImage, (cx, cy): (f32, f32), s: f32, gold: Colour, jewel: Colour) {
    let base_y = cy + 10.0 * s;
    round_rect(
        img,
        cx - 18.0 * s,
        base_y - 2.0 * s,
        36.0 * s,
        8.0 * s,
        2.0 * s,
        gold,
    );
    // The band's teeth: three triangles from the base line up to their points.
    for (px, py) in [(-15.0, -14.0), (0.0, -19.0), (15.0, -14.0)] {
        let (tx, ty) = (cx + px * s, cy + py * s);
        let (l, rr) = (tx - 9.0 * s, tx + 9.0 * s);
        fill_sdf(img, (l, ty, rr, base_y), gold, |x, y| {
            let u = ((y - ty) / (base_y - ty)).clamp(0.0, 1.0);
            ((x - tx).abs() - 9.0 * s * u).max(ty - y).max(y - base_y)
        });
        circle(img, tx, ty, 3.2 * s, gold);
    }
    fill_sdf(
        img,
        (cx - 18.0 * s, cy - 2.0 * s, cx + 18.0 * s, base_y),
        gold,
        |x, y| {
            sd_round_rect(
                x,
                y,
                cx,
                (cy - 2.0 * s + base_y) / 2.0,
                18.0 * s,
                (base_y - cy + 2.0 * s) / 2.0,
                0.5,
            )
        },
    );
    for px in [-9.0, 0.0, 9.0] {
        circle(img, cx + px * s, cy + 3.0 * s, 2.6 * s, jewel);
    }
}

/// A cup with two handles on a stand.
fn trophy(img: &mut RgbaImage, (cx, cy): (f32, f32), s: f32, gold: Colour, light: Colour) {
    let top = cy - 18.0 * s;
    // The bowl: the lower half of a disc.
    fill_sdf(
        img,
        (cx - 16.0 * s, top, cx + 16.0 * s, top + 20.0 * s),
        gold,
        |x, y| {
            let d = ((x - cx).powi(2) + (y - top).powi(2)).sqrt() - 16.0 * s;
            d.max(top - y)
        },
    );
    ring(img, cx - 16.0 * s, top + 6.0 * s, 5.5 * s, 2.5 * s, gold);
    ring(img, cx + 16.0 * s, top + 6.0 * s, 5.5 * s, 2.5 * s, gold);
    fill_sdf(
        img,
        (cx - 3.0 * s, top + 12.0 * s, cx + 3.0 * s, top + 28.0 * s),
        gold,
        |x, y| sd_segment(x, y, (cx, top + 14.0 * s), (cx, top + 27.0 * s), 2.5 * s),
    );
    round_rect(
        img,
        cx - 11.0 * s,
        top + 28.0 * s,
        22.0 * s,
        7.0 * s,
        2.0 * s,
        gold,
    );
    line(
        img,
        (cx - 7.0 * s, top + 4.0 * s),
        (cx - 4.0 * s, top + 11.0 * s),
        2.5 * s,
        light,
    );
}

/// The kids game's lion at `size` pixels, in colour or in greys, scaled once per size and kept.
fn kids_picture(size: u32, colour: bool) -> Option<RgbaImage> {
    static CACHE: Mutex<Vec<(u32, RgbaImage, RgbaImage)>> = Mutex::new(Vec::new());
    let mut cache = match CACHE.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some((_, c, g)) = cache.iter().find(|(s, _, _)| *s == size) {
        return Some(if colour { c.clone() } else { g.clone() });
    }
    let picture = animal_scaled(Card::kids(0), size.max(1))?;
    let mut grey = picture.clone();
    for p in grey.pixels_mut() {
        let [r, g, b, a] = p.0;
        let l = (0.30 * f32::from(r) + 0.59 * f32::from(g) + 0.11 * f32::from(b)) * 0.75;
        let l = l.round() as u8;
        p.0 = [l, l, l, a];
    }
    let out = if colour {
        picture.clone()
    } else {
        grey.clone()
    };
    if cache.len() < 8 {
        cache.push((size, picture, grey));
    }
    Some(out)
}

#[cfg(test)]
mod tests;
