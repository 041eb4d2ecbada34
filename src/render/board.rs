//! The board image: a static picture of the printed board (drawn once per layout and cached), with the
//! chips, sequences, last move and a header drawn on a copy for each position.

use std::sync::OnceLock;

use image::RgbaImage;

use super::assets::{animal_scaled, fonts, kids_index, Fonts};
use super::canvas::{
    blit, cap_height, circle, copy_rect, dashed_ring, fill_fitting, fill_rect, fit_text, line, mix,
    rgb, round_rect, round_rect_outline, text, text_width, with_alpha, Align, Colour,
};
use super::style::{
    chip_offset, chip_sprite, dice_tint, die, felt, team_dark, CARD_BLACK, CARD_EDGE, CARD_FACE,
    CARD_RED, DICE_EDGE, EDGE_TEXT, HEADER_BG, HEADER_DIM, HEADER_TEXT, KIDS_FACE,
};
use super::texts::{fill, Texts};
use crate::engine::{zone_corners, BitIter, Card, Cell, Label, Layout, Status, Variant, View};

/// Outer padding around everything.
pub(super) const PAD: u32 = 16;
/// Room for the column letters and row numbers.
pub(super) const GUTTER: u32 = 36;
/// Height of the header band.
pub const HEADER: u32 = 150;
/// Gap between neighbouring cells.
pub(super) const GAP: u32 = 6;
/// A cell's corner radius, as a share of its width.
pub(super) const CELL_RADIUS: f32 = 0.09;

/// Where things are on a board image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// The game.
    pub variant: Variant,
    /// Columns.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// Distance between cell origins.
    pub pitch: u32,
    /// Top-left of cell A1.
    pub origin: (u32, u32),
    /// Image size.
    pub size: (u32, u32),
    /// Chip radius.
    pub chip_r: f32,
    /// How far below the cell centre a chip sits (the label stays visible above it).
    pub chip_dy: f32,
}

impl Geometry {
    /// The geometry of a layout's board image.
    pub fn of(layout: &Layout) -> Geometry {
        let variant = layout.variant;
        let cols = u32::from(layout.width);
        let rows = u32::from(layout.height);
        // About 1000 px of cells, whatever the board's size.
        let pitch = (1000 / cols.max(rows).max(1)).clamp(40, 170);
        let (r, dy) = chip_proportions(variant);
        let (chip_r, chip_dy) = (pitch as f32 * r, pitch as f32 * dy);
        let origin = (PAD + GUTTER, HEADER + PAD + GUTTER);
        let size = (
            2 * (PAD + GUTTER) + cols * pitch,
            HEADER + 2 * (PAD + GUTTER) + rows * pitch,
        );
        Geometry {
            variant,
            cols,
            rows,
            pitch,
            origin,
            size,
            chip_r,
            chip_dy,
        }
    }

    /// The visible rectangle of a cell: x, y, width, height.
    pub fn cell_rect(&self, cell: Cell) -> (u32, u32, u32, u32) {
        let col = u32::from(cell.0) % self.cols.max(1);
        let row = u32::from(cell.0) / self.cols.max(1);
        (
            self.origin.0 + col * self.pitch + GAP / 2,
            self.origin.1 + row * self.pitch + GAP / 2,
            self.pitch - GAP,
            self.pitch - GAP,
        )
    }

    /// The centre of a cell.
    pub fn cell_centre(&self, cell: Cell) -> (f32, f32) {
        let (x, y, w, h) = self.cell_rect(cell);
        (x as f32 + w as f32 / 2.0, y as f32 + h as f32 / 2.0)
    }

    /// Where a chip on `cell` has its centre.
    pub fn chip_centre(&self, cell: Cell) -> (f32, f32) {
        let (x, y) = self.cell_centre(cell);
        (x, y + self.chip_dy)
    }
}

/// A chip's radius and how far below the cell centre it sits, as shares of the cell pitch.
pub(super) fn chip_proportions(variant: Variant) -> (f32, f32) {
    match variant {
        Variant::Classic => (0.34, 0.12),
        Variant::Dice => (0.32, 0.14),
        Variant::Kids => (0.29, 0.17),
    }
}

/// The picture of an empty board, the same board with every cell drawn in its "has a chip" style, and
/// the chip sprites: all drawn once per layout.
pub struct StaticBoard {
    /// Where things are.
    pub geometry: Geometry,
    layout: &'static Layout,
    empty: RgbaImage,
    occupied: RgbaImage,
    chips: Vec<RgbaImage>,
    icons: Vec<RgbaImage>,
}

/// A free corner's background.
pub(super) const CORNER_BG: Colour = rgb(0x263238);
/// A free corner's frame, star and word.
pub(super) const GOLD: Colour = rgb(0xFFC400);
/// The outline of the last move's cell when a chip was placed.
pub(super) const HIGHLIGHT: Colour = rgb(0xFFEA00);
/// The outline of the last move's cell when a chip was removed.
pub(super) const REMOVED: Colour = rgb(0xFF5722);
/// The outline of the cells the dice roll on the table can take.
pub(super) const ROLL_CELL: Colour = rgb(0xFFFFFF);
/// The light line under a sequence's line and around its dots.
pub(super) const SEQUENCE_LIGHT: Colour = rgb(0xFFFFFF);
/// The outline and label of a cell the picker offers (a colour no chip, felt or last move has).
pub const TARGET: Colour = rgb(0x00E5FF);
/// The King of the Board zone: its tint, frame and tag.
pub const ZONE: Colour = rgb(0xB24DFF);
/// The label text on a [`TARGET`] cell.
pub const TARGET_TEXT: Colour = rgb(0x002B33);

/// Header icon radius.
const ICON_R: f32 = 15.0;

impl StaticBoard {
    /// Draws the static parts of a layout's board.
    pub fn build(layout: &'static Layout) -> StaticBoard {
        let geometry = Geometry::of(layout);
        let (w, h) = geometry.size;
        let mut empty = RgbaImage::from_pixel(w, h, felt(layout.variant));
        fill_rect(&mut empty, 0, 0, w as i32, HEADER as i32, HEADER_BG);
        if let Some(fonts) = fonts() {
            draw_edges(&mut empty, &geometry, fonts);
        }
        let mut occupied = empty.clone();
        let kids_big = (geometry.pitch as f32 * 0.78) as u32;
        let kids_small = (geometry.pitch as f32 * 0.35) as u32;
        let mut pictures: Vec<Option<(RgbaImage, RgbaImage)>> = vec![None; 21];
        for index in 0..layout.labels.len() {
            let cell = Cell(index as u8);
            let label = layout.label(cell);
            if let Label::Card(card) = label {
                if let Some(i) = kids_index(card) {
                    if pictures.get(i).is_some_and(Option::is_none) {
                        pictures[i] =
                            animal_scaled(card, kids_big).zip(animal_scaled(card, kids_small));
                    }
                }
            }
            let picture = |card: Card| {
                kids_index(card).and_then(|i| pictures.get(i).and_then(Option::as_ref))
            };
            draw_cell(&mut empty, &geometry, cell, label, false, picture);
            draw_cell(&mut occupied, &geometry, cell, label, true, picture);
        }
        let teams = if layout.variant == Variant::Kids {
            4
        } else {
            3
        };
        StaticBoard {
            geometry,
            layout,
            empty,
            occupied,
            chips: (0..teams)
                .map(|t| chip_sprite(layout.variant, t, geometry.chip_r))
                .collect(),
            icons: (0..teams)
                .map(|t| chip_sprite(layout.variant, t, ICON_R))
                .collect(),
        }
    }

    /// The cached static board of a layout (built on first use).
    pub fn of(layout: &'static Layout) -> &'static StaticBoard {
        static CACHE: [OnceLock<StaticBoard>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let slot = match layout.variant {
            Variant::Classic => &CACHE[0],
            Variant::Dice => &CACHE[1],
            Variant::Kids => &CACHE[2],
        };
        let board = slot.get_or_init(|| StaticBoard::build(Layout::standard(layout.variant)));
        if std::ptr::eq(board.layout, layout) || board.layout == layout {
            board
        } else {
            // Another printed layout: draw it once and keep it (layouts are static too).
            static OTHERS: std::sync::Mutex<Vec<&'static StaticBoard>> =
                std::sync::Mutex::new(Vec::new());
            let mut others = match OTHERS.lock() {
                Ok(guard) => guard,
                Err(poisoned) => poisoned.into_inner(),
            };
            if let Some(found) = others.iter().find(|b| b.layout == layout) {
                return found;
            }
            let built: &'static StaticBoard = Box::leak(Box::new(StaticBoard::build(layout)));
            others.push(built);
            built
        }
    }

    /// The sprite of a team's chip.
    fn chip(&self, team: u8) -> Option<&RgbaImage> {
        self.chips.get(usize::from(team))
    }

    /// The small chip of a team for the header.
    pub fn icon(&self, team: u8) -> Option<&RgbaImage> {
        self.icons.get(usize::from(team))
    }
}

/// Column letters and row numbers around the cells, as in the command notation (`A1` top-left).
fn draw_edges(img: &mut RgbaImage, g: &Geometry, fonts: &Fonts) {
    let colour = EDGE_TEXT;
    let size = 24.0;
    let cap = super::canvas::cap_height(size);
    let (ox, oy) = (g.origin.0 as f32, g.origin.1 as f32);
    let board_w = (g.cols * g.pitch) as f32;
    let board_h = (g.rows * g.pitch) as f32;
    for col in 0..g.cols {
        let letter = char::from(b'A' + (col % 26) as u8).to_string();
        let x = ox + (col as f32 + 0.5) * g.pitch as f32;
        for y in [oy - GUTTER as f32 / 2.0, oy + board_h + GUTTER as f32 / 2.0] {
            text(
                img,
                &fonts.bold,
                size,
                (x, y + cap / 2.0),
                Align::Centre,
                colour,
                &letter,
            );
        }
    }
    for row in 0..g.rows {
        let number = (row + 1).to_string();
        let y = oy + (row as f32 + 0.5) * g.pitch as f32 + cap / 2.0;
        text(
            img,
            &fonts.bold,
            size,
            (ox - GUTTER as f32 / 2.0, y),
            Align::Centre,
            colour,
            &number,
        );
        text(
            img,
            &fonts.bold,
            size,
            (ox + board_w + GUTTER as f32 / 2.0, y),
            Align::Centre,
            colour,
            &number,
        );
    }
}

/// Draws one cell in its empty style, or (`with_chip`) in the style that leaves room for a chip below
/// its label.
fn draw_cell<'a>(
    img: &mut RgbaImage,
    g: &Geometry,
    cell: Cell,
    label: Label,
    with_chip: bool,
    picture: impl Fn(Card) -> Option<&'a (RgbaImage, RgbaImage)>,
) {
    let (x, y, w, h) = g.cell_rect(cell);
    let (x, y, w, h) = (x as f32, y as f32, w as f32, h as f32);
    let radius = w * CELL_RADIUS;
    let cx = x + w / 2.0;
    let Some(fonts) = fonts() else {
        round_rect(img, x, y, w, h, radius, CARD_FACE);
        return;
    };
    // A faint shadow under every cell lifts it off the felt.
    round_rect(
        img,
        x + 1.0,
        y + 2.0,
        w,
        h,
        radius,
        with_alpha(rgb(0x000000), 60),
    );
    match label {
        Label::Corner => {
            round_rect(img, x, y, w, h, radius, CORNER_BG);
            round_rect_outline(img, x + 3.0, y + 3.0, w - 6.0, h - 6.0, radius, 2.0, GOLD);
            let star = w * 0.50;
            text(
                img,
                &fonts.sans,
                star,
                (cx, y + h * 0.58),
                Align::Centre,
                GOLD,
                "★",
            );
            // The word under the star is drawn per image, in the image's language.
        }
        Label::Card(card) if card.is_kids() => {
            round_rect(img, x, y, w, h, radius, KIDS_FACE);
            if let Some((big, small)) = picture(card) {
                let pic = if with_chip { small } else { big };
                let px = cx - pic.width() as f32 / 2.0;
                let py = if with_chip {
                    y + h * 0.04
                } else {
                    y + (h - pic.height() as f32) / 2.0
                };
                blit(img, pic, px.round() as i32, py.round() as i32);
            } else {
                let name = super::hand::capitalised(super::texts::Texts::english().animal(card));
                let size = fit_size(fonts, w * 0.2, &name, w * 0.9);
                text(
                    img,
                    &fonts.bold,
                    size,
                    (cx, y + h * 0.55),
                    Align::Centre,
                    CARD_BLACK,
                    &name,
                );
            }
        }
        Label::Card(card) => {
            round_rect(img, x, y, w, h, radius, CARD_FACE);
            round_rect_outline(img, x, y, w, h, radius, 1.0, CARD_EDGE);
            let colour = if card.is_red() { CARD_RED } else { CARD_BLACK };
            let pretty = card.pretty();
            let (rank, suit) = split_pretty(&pretty);
            if with_chip {
                let size = w * 0.26;
                text(
                    img,
                    &fonts.bold,
                    size,
                    (cx, y + h * 0.27),
                    Align::Centre,
                    colour,
                    &pretty,
                );
            } else {
                let size = if rank.chars().count() > 1 {
                    w * 0.40
                } else {
                    w * 0.46
                };
                text(
                    img,
                    &fonts.bold,
                    size,
                    (cx, y + h * 0.47),
                    Align::Centre,
                    colour,
                    rank,
                );
                text(
                    img,
                    &fonts.sans,
                    w * 0.46,
                    (cx, y + h * 0.90),
                    Align::Centre,
                    colour,
                    suit,
                );
            }
        }
        Label::Number(sum) => {
            round_rect(img, x, y, w, h, radius, dice_tint(sum));
            round_rect_outline(img, x, y, w, h, radius, 1.0, DICE_EDGE);
            let number = sum.to_string();
            let double = match sum {
                2 => Some(1),
                12 => Some(6),
                _ => None,
            };
            if with_chip {
                match double {
                    Some(v) => {
                        let s = w * 0.22;
                        die(img, cx - s - 3.0, y + h * 0.05, s, v);
                        die(img, cx + 3.0, y + h * 0.05, s, v);
                    }
                    None => {
                        text(
                            img,
                            &fonts.bold,
                            w * 0.26,
                            (cx, y + h * 0.25),
                            Align::Centre,
                            CARD_BLACK,
                            &number,
                        );
                    }
                }
            } else {
                match double {
                    Some(v) => {
                        let s = w * 0.36;
                        die(img, cx - s - 4.0, y + h * 0.14, s, v);
                        die(img, cx + 4.0, y + h * 0.14, s, v);
                        text(
                            img,
                            &fonts.bold,
                            w * 0.26,
                            (cx, y + h * 0.86),
                            Align::Centre,
                            CARD_BLACK,
                            &number,
                        );
                    }
                    None => {
                        text(
                            img,
                            &fonts.bold,
                            w * 0.55,
                            (cx, y + h * 0.72),
                            Align::Centre,
                            CARD_BLACK,
                            &number,
                        );
                    }
                }
            }
        }
    }
}

/// Splits `10♥` into `10` and `♥`.
fn split_pretty(pretty: &str) -> (&str, &str) {
    match pretty.char_indices().last() {
        Some((i, _)) => pretty.split_at(i),
        None => (pretty, ""),
    }
}

/// The largest size up to `size` at which `text` fits `max` pixels.
fn fit_size(fonts: &Fonts, size: f32, s: &str, max: f32) -> f32 {
    let width = super::canvas::text_width(&fonts.bold, size, s);
    if width > max && width > 0.0 {
        size * max / width
    } else {
        size
    }
}

/// The word for the free corners under their star.
fn draw_corner_words(img: &mut RgbaImage, g: &Geometry, layout: &Layout, texts: &Texts) {
    let Some(fonts) = fonts() else {
        return;
    };
    for cell in BitIter(layout.corners) {
        let (x, y, w, h) = g.cell_rect(cell);
        let (x, y, w, h) = (x as f32, y as f32, w as f32, h as f32);
        let size = fit_size(fonts, w * 0.15, texts.free, w * 0.9);
        text(
            img,
            &fonts.bold,
            size,
            (x + w / 2.0, y + h * 0.86),
            Align::Centre,
            GOLD,
            texts.free,
        );
    }
}

/// Draws a view's board: chips, sequences, the last move and the header. Never looks at `view.hand`.
pub fn draw(view: &View, seat_names: &[String], texts: &Texts) -> RgbaImage {
    draw_with_targets(view, seat_names, texts, &[])
}

/// [`draw`] with the cells a picker step offers marked: every other cell dimmed, each target outlined
/// in [`TARGET`] with its name (the name on its button) on a label, so "E2" is found at a glance.
pub fn draw_with_targets(
    view: &View,
    seat_names: &[String],
    texts: &Texts,
    targets: &[Cell],
) -> RgbaImage {
    let position = &view.position;
    let layout = position.layout();
    let board = StaticBoard::of(layout);
    let g = &board.geometry;
    let mut img = board.empty.clone();
    let teams = position.config().teams;
    draw_corner_words(&mut img, g, layout, texts);

    // Cells with chips switch to their "label above the chip" style.
    // A cell whose chip was just removed keeps that style too, so the ghost of the chip has room.
    let removed = match position.last_action() {
        Some(last) if last.removed => last.cell.bit(),
        _ => 0,
    };
    for cell in BitIter(position.occupied() | removed) {
        let (x, y, w, h) = g.cell_rect(cell);
        copy_rect(&mut img, &board.occupied, x, y, w, h);
    }

    // Dice: outline the cells the current roll can take.
    if layout.variant == Variant::Dice && !position.is_over() {
        if let Some([a, b]) = position.roll() {
            let cells = layout.cells_of_number(a + b);
            for cell in BitIter(cells) {
                let (x, y, w, h) = g.cell_rect(cell);
                round_rect_outline(
                    &mut img,
                    x as f32 - 2.0,
                    y as f32 - 2.0,
                    w as f32 + 4.0,
                    h as f32 + 4.0,
                    w as f32 * 0.1,
                    4.0,
                    ROLL_CELL,
                );
            }
        }
    }

    if let Some(centre) = position.zone() {
        draw_zone(&mut img, g, centre);
    }

    for team in 0..teams {
        if let Some(sprite) = board.chip(team) {
            let off = chip_offset(g.chip_r);
            for cell in BitIter(position.chips(team)) {
                let (cx, cy) = g.chip_centre(cell);
                blit(
                    &mut img,
                    sprite,
                    (cx - off).round() as i32,
                    (cy - off).round() as i32,
                );
            }
        }
    }

    for sequence in position.sequences() {
        let cells = sequence.cells();
        if let (Some(&first), Some(&last)) = (cells.first(), cells.last()) {
            let a = g.chip_centre(first);
            let b = g.chip_centre(last);
            let width = g.chip_r * 0.30;
            line(&mut img, a, b, width + 6.0, with_alpha(SEQUENCE_LIGHT, 230));
            line(
                &mut img,
                a,
                b,
                width,
                team_dark(layout.variant, sequence.team),
            );
            for &cell in cells {
                let (cx, cy) = g.chip_centre(cell);
                circle(&mut img, cx, cy, width * 0.9, SEQUENCE_LIGHT);
                circle(
                    &mut img,
                    cx,
                    cy,
                    width * 0.55,
                    team_dark(layout.variant, sequence.team),
                );
            }
        }
    }

    if let Some(last) = position.last_action() {
        let (x, y, w, h) = g.cell_rect(last.cell);
        let (x, y, w, h) = (x as f32, y as f32, w as f32, h as f32);
        let colour = if last.removed { REMOVED } else { HIGHLIGHT };
        round_rect_outline(
            &mut img,
            x - 4.0,
            y - 4.0,
            w + 8.0,
            h + 8.0,
            w * 0.12,
            8.0,
            rgb(0x000000),
        );
        round_rect_outline(
            &mut img,
            x - 3.0,
            y - 3.0,
            w + 6.0,
            h + 6.0,
            w * 0.12,
            6.0,
            colour,
        );
        if last.removed {
            let (cx, cy) = g.chip_centre(last.cell);
            dashed_ring(&mut img, cx, cy, g.chip_r * 0.92, 4.0, 12, REMOVED);
            let a = g.chip_r * 0.35;
            line(&mut img, (cx - a, cy - a), (cx + a, cy + a), 6.0, REMOVED);
            line(&mut img, (cx - a, cy + a), (cx + a, cy - a), 6.0, REMOVED);
        }
    }

    if !targets.is_empty() {
        draw_targets(&mut img, g, layout, targets);
    }

    if let Some(fonts) = fonts() {
        draw_header(&mut img, board, view, seat_names, texts, fonts);
    }
    img
}

/// The King of the Board zone: the 3 x 3 block around `centre` tinted and framed (the header's tag
/// says what a sequence touching it scores).
fn draw_zone(img: &mut RgbaImage, g: &Geometry, centre: Cell) {
    let (top_left, bottom_right) = zone_corners(centre);
    let (x0, y0, w, _) = g.cell_rect(top_left);
    let (x1, y1, w1, h1) = g.cell_rect(bottom_right);
    let (x, y) = (x0 as f32 - 5.0, y0 as f32 - 5.0);
    let (bw, bh) = ((x1 + w1) as f32 + 5.0 - x, (y1 + h1) as f32 + 5.0 - y);
    round_rect(img, x, y, bw, bh, w as f32 * 0.15, with_alpha(ZONE, 70));
    round_rect_outline(
        img,
        x - 2.0,
        y - 2.0,
        bw + 4.0,
        bh + 4.0,
        w as f32 * 0.16,
        9.0,
        rgb(0x000000),
    );
    round_rect_outline(
        img,
        x - 1.0,
        y - 1.0,
        bw + 2.0,
        bh + 2.0,
        w as f32 * 0.16,
        6.0,
        ZONE,
    );
}

/// A team's King of the Board points in the header: "2/3 pts", or past the target (a move that
/// scored 2 with one missing) just "4 pts", never "4/3 pts".
pub(super) fn points_against_target(points: u8, target: u8, texts: &Texts) -> String {
    let have = points.to_string();
    if points > target {
        fill(texts.points, &[("n", &have)])
    } else {
        fill(
            texts.points_of,
            &[("have", &have), ("need", &target.to_string())],
        )
    }
}

/// The King of the Board legend in the header, right-aligned at `right` on the line of the teams: a
/// tag in the zone's colour saying what a sequence touching it scores (drawn off the board, so it
/// covers no cell). Returns its width.
fn draw_zone_tag(img: &mut RgbaImage, fonts: &Fonts, right: f32, texts: &Texts) -> f32 {
    let size = 22.0;
    let tag_w = text_width(&fonts.bold, size, texts.zone) + size * 0.8;
    let tag_h = size * 1.3;
    let (tx, ty) = (right - tag_w, 90.0 - tag_h / 2.0);
    round_rect(img, tx, ty, tag_w, tag_h, tag_h * 0.4, ZONE);
    text(
        img,
        &fonts.bold,
        size,
        (tx + tag_w / 2.0, ty + tag_h * 0.5 + cap_height(size) / 2.0),
        Align::Centre,
        rgb(0xFFFFFF),
        texts.zone,
    );
    tag_w
}

/// Dims every cell but `targets`, and outlines and labels each target with its name.
fn draw_targets(img: &mut RgbaImage, g: &Geometry, layout: &Layout, targets: &[Cell]) {
    let cells = u8::try_from(layout.len()).unwrap_or(u8::MAX);
    for cell in (0..cells).map(Cell) {
        if targets.contains(&cell) {
            continue;
        }
        let (x, y, w, h) = g.cell_rect(cell);
        round_rect(
            img,
            x as f32 - 1.0,
            y as f32 - 1.0,
            w as f32 + 2.0,
            h as f32 + 2.0,
            w as f32 * 0.08,
            with_alpha(rgb(0x000000), 140),
        );
    }
    for &cell in targets {
        let (x, y, w, h) = g.cell_rect(cell);
        let (x, y, w, h) = (x as f32, y as f32, w as f32, h as f32);
        round_rect_outline(
            img,
            x - 4.0,
            y - 4.0,
            w + 8.0,
            h + 8.0,
            w * 0.12,
            8.0,
            TARGET,
        );
        let Some(fonts) = fonts() else {
            continue;
        };
        let name = layout.cell_name(cell);
        let size = (w * 0.26).clamp(12.0, 30.0);
        let label_w = text_width(&fonts.bold, size, &name) + size * 0.7;
        let label_h = size * 1.25;
        // Centred on the cell's lower edge: the card's own label at the top stays readable.
        let (lx, ly) = (x + (w - label_w) / 2.0, y + h - label_h * 0.45);
        round_rect(img, lx, ly, label_w, label_h, label_h * 0.4, TARGET);
        text(
            img,
            &fonts.bold,
            size,
            (x + w / 2.0, ly + label_h * 0.5 + cap_height(size) / 2.0),
            Align::Centre,
            TARGET_TEXT,
            &name,
        );
    }
}

/// The header: whose turn (or the result), each team's sequences, the draw pile or dice, the last move.
fn draw_header(
    img: &mut RgbaImage,
    board: &StaticBoard,
    view: &View,
    seat_names: &[String],
    texts: &Texts,
    fonts: &Fonts,
) {
    let position = &view.position;
    let config = position.config();
    let variant = config.variant;
    let width = img.width() as f32;
    let left = PAD as f32 + 4.0;
    let right = width - PAD as f32 - 4.0;
    let icon_off = chip_offset(ICON_R);
    let put_icon = |img: &mut RgbaImage, team: u8, x: f32, y: f32| {
        if let Some(icon) = board.icon(team) {
            blit(
                img,
                icon,
                (x - icon_off).round() as i32,
                (y - icon_off).round() as i32,
            );
        }
    };

    // Right column: draw pile, or the dice (whose caption is on the line of the teams).
    let mut right_room = right;
    let mut teams_right = right;
    if variant == Variant::Dice {
        if let (Some([a, b]), false) = (position.roll(), position.is_over()) {
            let s = 52.0;
            die(img, right - s, 16.0, s, b);
            die(img, right - 2.0 * s - 10.0, 16.0, s, a);
            let sum = a + b;
            let caption = match sum {
                10 => texts.roll_ten.to_string(),
                11 => texts.roll_eleven.to_string(),
                _ => fill(texts.roll, &[("sum", &sum.to_string())]),
            };
            text(
                img,
                &fonts.bold,
                24.0,
                (right, 100.0),
                Align::Right,
                HEADER_TEXT,
                &caption,
            );
            right_room = right - 2.0 * s - 30.0;
            teams_right = right_room;
        }
    } else {
        let pile = fill(texts.draw_pile, &[("n", &view.draw_pile.to_string())]);
        let w = text(
            img,
            &fonts.sans,
            24.0,
            (right, 50.0),
            Align::Right,
            HEADER_DIM,
            &pile,
        );
        right_room = right - w - 24.0;
        if position.zone().is_some() {
            let tag_w = draw_zone_tag(img, fonts, right, texts);
            teams_right = right - tag_w - 24.0;
        }
    }

    // Line 1: whose turn, or the result.
    let team = match position.status() {
        Status::InProgress => Some(config.team_of(position.to_move())),
        Status::Won(team) => Some(team),
        Status::Drawn => None,
    };
    let mut x = left;
    if let Some(team) = team {
        put_icon(img, team, x + ICON_R, 40.0);
        x += 2.0 * ICON_R + 12.0;
    }
    let room = right_room - x;
    let headline = match position.status() {
        Status::InProgress => {
            let name = texts.seat_name(seat_names, position.to_move());
            fill_fitting(
                &fonts.bold,
                34.0,
                texts.turn,
                &[("name", &name)],
                "name",
                room,
            )
        }
        Status::Won(team) => {
            let won = fill(texts.won, &[("team", texts.team(variant, team))]);
            fit_text(&fonts.bold, 34.0, &won, room)
        }
        Status::Drawn => fit_text(&fonts.bold, 34.0, texts.drawn, room),
    };
    text(
        img,
        &fonts.bold,
        34.0,
        (x, 52.0),
        Align::Left,
        HEADER_TEXT,
        &headline,
    );

    // Line 2: every team's colour, its players by name (so nobody needs the hand image to learn their
    // colour) and its sequences (or points) against the target. Without names: the team's colour word.
    let need = position.target().to_string();
    let size = 24.0;
    let teams: Vec<(u8, String, String)> = (0..config.teams)
        .map(|team| {
            let names: Vec<String> = (0..config.players)
                .filter(|&seat| config.team_of(seat) == team)
                .filter(|&seat| {
                    seat_names
                        .get(usize::from(seat))
                        .is_some_and(|n| !n.trim().is_empty())
                })
                .map(|seat| texts.seat_name(seat_names, seat))
                .collect();
            let label = if names.is_empty() {
                texts.team(variant, team).to_string()
            } else {
                names.join(", ")
            };
            let have = position.sequence_count(team).to_string();
            let mut score = String::from(" ");
            if config.is_king_of_the_board() {
                score += &points_against_target(position.points(team), position.target(), texts);
            } else if config.options.scoring {
                score += &fill(texts.points, &[("n", &have)]);
            } else {
                score += &fill(texts.sequences, &[("have", &have), ("need", &need)]);
            }
            if config.options.capture_pairs {
                score += " · ";
                score += &fill(texts.pairs, &[("n", &position.captures(team).to_string())]);
            }
            (team, label, score)
        })
        .collect();
    let icon_room = 2.0 * ICON_R + 8.0;
    let spacing = 28.0;
    let fixed: f32 = teams
        .iter()
        .map(|(_, _, score)| icon_room + text_width(&fonts.bold, size, score) + spacing)
        .sum();
    let labels: f32 = teams
        .iter()
        .map(|(_, label, _)| text_width(&fonts.bold, size, label))
        .sum();
    // Too long for one line: every team's names get an equal share of what is left.
    let room = teams_right - left;
    let share = (room - fixed).max(0.0) / f32::from(config.teams.max(1));
    let mut x = left;
    for (team, label, score) in &teams {
        put_icon(img, *team, x + ICON_R, 90.0);
        x += icon_room;
        let label = if fixed + labels > room {
            fit_text(&fonts.bold, size, label, share)
        } else {
            label.clone()
        };
        let w = text(
            img,
            &fonts.bold,
            size,
            (x, 99.0),
            Align::Left,
            HEADER_TEXT,
            &format!("{label}{score}"),
        );
        x += w + spacing;
    }

    // Line 3: the last move.
    if let Some(last) = position.last_action() {
        let name = texts.seat_name(seat_names, last.seat);
        let cell = position.layout().cell_name(last.cell);
        let card = last.card.map(|c| {
            if c.is_kids() {
                super::hand::capitalised(texts.animal(c))
            } else {
                c.pretty()
            }
        });
        let card = card.unwrap_or_default();
        let template = match (last.card.is_some(), last.removed) {
            (true, false) => texts.last_placed,
            (true, true) => texts.last_removed,
            (false, false) => texts.last_placed_dice,
            (false, true) => texts.last_removed_dice,
        };
        let values = [("name", name.as_str()), ("card", &card), ("cell", &cell)];
        let colour = if last.removed {
            mix(REMOVED, rgb(0xFFFFFF), 0.3)
        } else {
            mix(HIGHLIGHT, rgb(0xFFFFFF), 0.3)
        };
        let s = fill_fitting(&fonts.sans, 22.0, template, &values, "name", right - left);
        text(
            img,
            &fonts.sans,
            22.0,
            (left, 136.0),
            Align::Left,
            colour,
            &s,
        );
    }
}
