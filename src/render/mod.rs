//! Images of the board (for the channel), of a hand (for its owner only) and of a player's profile card,
//! and their PNG encoding. Pure functions of a [`View`]: the board image never reads `view.hand`, so it
//! cannot leak a hand.

pub mod animate;
mod assets;
mod board;
mod canvas;
pub mod cli;
pub mod geometry;
mod hand;
mod profile;
mod style;
pub mod texts;

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder, RgbaImage};

use crate::engine::{Cell, Layout, View};
use crate::i18n::Lang;

pub use board::{Geometry, TARGET, TARGET_TEXT, ZONE};
pub use geometry::BoardGeometry;
pub use profile::{
    card_size, profile_card, CardAchievement, CardChart, CardProgress, CardTable, CardVersus,
    ProfileCard,
};
pub use style::team_colour;
pub use texts::Texts;

/// Why an image could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// PNG encoding failed.
    #[error("could not encode the image as PNG: {0}")]
    Encode(#[from] image::ImageError),
    /// The record could not be read (command line); the message names the file and the reason.
    #[error("{0}")]
    Read(String),
    /// A file could not be written (command line).
    #[error("cannot {action} {path}: {source}")]
    File {
        /// What was tried (`write`).
        action: &'static str,
        /// The path.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The record is malformed (command line).
    #[error("{0}")]
    Record(#[from] crate::engine::RecordError),
    /// An action of the record is illegal (command line).
    #[error("action {index} of the record is illegal: {reason}")]
    Illegal {
        /// Index of the action (from 0).
        index: usize,
        /// Why.
        reason: crate::engine::PlayError,
    },
    /// `--after` asks for more actions than the record has.
    #[error("the record has only {actions} actions, so --after {after} is too far")]
    TooFar {
        /// Asked for.
        after: usize,
        /// Available.
        actions: usize,
    },
    /// `--seat` is not a seat of the game.
    #[error("seat {seat} is not in this game: its seats are 0 to {last}")]
    Seat {
        /// Asked for.
        seat: u8,
        /// The last seat.
        last: u8,
    },
}

/// The board as everyone may see it (for the channel), in English: never shows `view.hand`.
pub fn board_image(view: &View, seat_names: &[String]) -> RgbaImage {
    board_image_in(view, seat_names, Lang::En)
}

/// [`board_image`] with its words in `lang`.
pub fn board_image_in(view: &View, seat_names: &[String], lang: Lang) -> RgbaImage {
    board::draw(view, seat_names, Texts::of(lang))
}

/// [`board_image_in`] as PNG bytes.
pub fn board_png_in(
    view: &View,
    seat_names: &[String],
    lang: Lang,
) -> Result<Vec<u8>, RenderError> {
    encode_png(&board_image_in(view, seat_names, lang))
}

/// The board with the cells a picker step offers dimmed around, outlined and labelled with their names
/// (for the player to move, privately; still the public view: no hand).
pub fn board_image_with_targets(
    view: &View,
    seat_names: &[String],
    lang: Lang,
    targets: &[Cell],
) -> RgbaImage {
    board::draw_with_targets(view, seat_names, Texts::of(lang), targets)
}

/// [`board_image_with_targets`] as PNG bytes.
pub fn board_png_with_targets(
    view: &View,
    seat_names: &[String],
    lang: Lang,
    targets: &[Cell],
) -> Result<Vec<u8>, RenderError> {
    encode_png(&board_image_with_targets(view, seat_names, lang, targets))
}

/// [`board_image`] as PNG bytes.
pub fn board_png(view: &View, seat_names: &[String]) -> Result<Vec<u8>, RenderError> {
    encode_png(&board_image(view, seat_names))
}

/// The seat's own hand, for a DM or an ephemeral message only (English).
pub fn hand_image(view: &View) -> RgbaImage {
    hand_image_in(view, &[], Lang::En)
}

/// The seat's own hand with its words in `lang`; `seat_names` name the seat to move (may be empty).
pub fn hand_image_in(view: &View, seat_names: &[String], lang: Lang) -> RgbaImage {
    hand::draw(view, seat_names, Texts::of(lang))
}

/// [`hand_image_in`] as PNG bytes.
pub fn hand_png_in(view: &View, seat_names: &[String], lang: Lang) -> Result<Vec<u8>, RenderError> {
    encode_png(&hand_image_in(view, seat_names, lang))
}

/// [`hand_image`] as PNG bytes.
pub fn hand_png(view: &View) -> Result<Vec<u8>, RenderError> {
    encode_png(&hand_image(view))
}

/// [`hand_image`] that names the seat to move ("Waiting for Ada") instead of "Seat N".
pub fn hand_image_named(view: &View, seat_names: &[String]) -> RgbaImage {
    hand_image_in(view, seat_names, Lang::En)
}

/// [`hand_image_named`] as PNG bytes.
pub fn hand_png_named(view: &View, seat_names: &[String]) -> Result<Vec<u8>, RenderError> {
    encode_png(&hand_image_named(view, seat_names))
}

/// [`profile_card`] as PNG bytes.
pub fn profile_png(card: &ProfileCard) -> Result<Vec<u8>, RenderError> {
    encode_png(&profile_card(card))
}

/// Encodes an image as PNG: zlib level 1 without filters, measured as both fast (about 6 ms of CPU) and
/// small (under 300 KB on a full board), where the `Fast` setting gave over 500 KB. The images are opaque,
/// so they are written as RGB (the same time, a tenth smaller); an image with transparency keeps it.
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(384 * 1024);
    let encoder =
        PngEncoder::new_with_quality(&mut out, CompressionType::Level(1), FilterType::NoFilter);
    let raw = img.as_raw();
    let mut rgb = Vec::with_capacity(raw.len() / 4 * 3);
    let mut opaque = true;
    for p in raw.chunks_exact(4) {
        rgb.extend_from_slice(&p[..3]);
        opaque &= p[3] == 255;
    }
    if opaque {
        encoder.write_image(&rgb, img.width(), img.height(), ExtendedColorType::Rgb8)?;
    } else {
        encoder.write_image(raw, img.width(), img.height(), ExtendedColorType::Rgba8)?;
    }
    Ok(out)
}

/// Where a chip on `cell` is drawn on the board image of `layout`: its centre and radius in pixels.
pub fn chip_position(layout: &Layout, cell: Cell) -> ((f32, f32), f32) {
    let g = Geometry::of(layout);
    (g.chip_centre(cell), g.chip_r)
}

#[cfg(test)]
mod tests;
