//! Drawing the images the service asks for: the [`Painter`] a face draws with, and [`draw`], one
//! image descriptor to the file's bytes.

use std::sync::Arc;

use crate::engine::{Cell, View};
use crate::i18n::Lang;
use crate::service::Image;

/// Draws the images the service asks for ([`RenderPainter`] in the bot). When drawing fails, the
/// message goes out as text only.
pub trait Painter: Send + Sync + 'static {
    /// The board as PNG, its words in `lang`, with `targets` (a picker step's cells) marked.
    fn board(
        &self,
        view: &View,
        names: &[String],
        lang: Lang,
        targets: &[Cell],
    ) -> Result<Vec<u8>, String>;
    /// A hand as PNG, its words in `lang`.
    fn hand(&self, view: &View, lang: Lang) -> Result<Vec<u8>, String>;
    /// A profile card as PNG, its words already in the reader's language.
    fn profile(&self, card: &crate::render::ProfileCard) -> Result<Vec<u8>, String> {
        crate::render::profile_png(card).map_err(|e| e.to_string())
    }
}

/// The painter that draws with `crate::render`.
pub struct RenderPainter;

impl Painter for RenderPainter {
    fn board(
        &self,
        view: &View,
        names: &[String],
        lang: Lang,
        targets: &[Cell],
    ) -> Result<Vec<u8>, String> {
        crate::render::board_png_with_targets(view, names, lang, targets).map_err(|e| e.to_string())
    }
    fn hand(&self, view: &View, lang: Lang) -> Result<Vec<u8>, String> {
        crate::render::hand_png_in(view, &[], lang).map_err(|e| e.to_string())
    }
}

/// The image painter used by the bot.
pub fn painter() -> Arc<dyn Painter> {
    Arc::new(RenderPainter)
}

/// Draws an image, its words in `lang` (blocking): the file's bytes and its name as posted
/// (`board.png`, `hand.png`, `replay.gif`, `profile.png`). The console draws with it too.
pub fn draw(
    painter: &dyn Painter,
    image: &Image,
    lang: Lang,
) -> Result<(Vec<u8>, &'static str), String> {
    match image {
        Image::Board(board) => painter
            .board(board.view(), board.names(), lang, board.targets())
            .map(|png| (png, "board.png")),
        Image::Hand(hand) => painter.hand(hand.view(), lang).map(|png| (png, "hand.png")),
        Image::Replay(replay) => crate::render::animate::animate(&replay.record, &[], lang)
            .map(|animation| (animation.gif, "replay.gif"))
            .map_err(|e| e.to_string()),
        Image::Profile(profile) => painter
            .profile(&profile.card(lang))
            .map(|png| (png, "profile.png")),
    }
}
