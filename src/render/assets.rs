//! Fonts and pictures shipped in `assets/`, compiled into the binary and decoded once.

use std::sync::OnceLock;

use ab_glyph::FontRef;
use image::RgbaImage;

use crate::engine::card::KIDS_NAMES;
use crate::engine::Card;

static SANS_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The regular and bold fonts.
pub struct Fonts {
    /// DejaVu Sans.
    pub sans: FontRef<'static>,
    /// DejaVu Sans Bold.
    pub bold: FontRef<'static>,
}

/// The fonts, or `None` if the shipped files could not be parsed (a build problem, tested below).
pub fn fonts() -> Option<&'static Fonts> {
    static FONTS: OnceLock<Option<Fonts>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            Some(Fonts {
                sans: FontRef::try_from_slice(SANS_BYTES).ok()?,
                bold: FontRef::try_from_slice(BOLD_BYTES).ok()?,
            })
        })
        .as_ref()
}

static CJK_BYTES: &[u8] = include_bytes!("../../assets/fonts/NotoSansCJKsc-Regular-subset.otf");
static UNIFONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/Unifont-subset.otf");
static UNIFONT_UPPER_BYTES: &[u8] = include_bytes!("../../assets/fonts/UnifontUpper-subset.otf");

static CJK_BOLD_BYTES: &[u8] = include_bytes!("../../assets/fonts/NotoSansCJKsc-Bold-subset.otf");

/// [`fallback_fonts`] for text in DejaVu Sans Bold: the same, with Noto Sans CJK Bold, so Chinese,
/// Japanese and Korean names in a bold header have the weight of the Latin text around them.
pub fn bold_fallback_fonts() -> &'static [FontRef<'static>] {
    static FALLBACKS: OnceLock<Vec<FontRef<'static>>> = OnceLock::new();
    FALLBACKS.get_or_init(|| {
        [CJK_BOLD_BYTES, UNIFONT_BYTES, UNIFONT_UPPER_BYTES]
            .into_iter()
            .filter_map(|bytes| FontRef::try_from_slice(bytes).ok())
            .collect()
    })
}

/// Whether `font` is the shipped DejaVu Sans Bold (its fallbacks are the bold ones).
pub fn is_bold(font: &FontRef<'static>) -> bool {
    fonts().is_some_and(|f| std::ptr::eq(font, &f.bold))
}

/// The fonts drawing what DejaVu Sans has no glyph for, in the order they are tried: Chinese,
/// Japanese and Korean (Noto Sans CJK, a subset), the rest of the Basic Multilingual Plane and the
/// emoji (GNU Unifont, subsets). A file that does not parse is left out (tested below).
pub fn fallback_fonts() -> &'static [FontRef<'static>] {
    static FALLBACKS: OnceLock<Vec<FontRef<'static>>> = OnceLock::new();
    FALLBACKS.get_or_init(|| {
        [CJK_BYTES, UNIFONT_BYTES, UNIFONT_UPPER_BYTES]
            .into_iter()
            .filter_map(|bytes| FontRef::try_from_slice(bytes).ok())
            .collect()
    })
}

/// The PNG bytes of the kids pictures, in the order of `KIDS_NAMES` (19 animals, dragon, unicorn).
static ANIMAL_PNGS: [&[u8]; 21] = [
    include_bytes!("../../assets/animals/lion.png"),
    include_bytes!("../../assets/animals/zebra.png"),
    include_bytes!("../../assets/animals/giraffe.png"),
    include_bytes!("../../assets/animals/elephant.png"),
    include_bytes!("../../assets/animals/monkey.png"),
    include_bytes!("../../assets/animals/panda.png"),
    include_bytes!("../../assets/animals/frog.png"),
    include_bytes!("../../assets/animals/owl.png"),
    include_bytes!("../../assets/animals/turtle.png"),
    include_bytes!("../../assets/animals/rabbit.png"),
    include_bytes!("../../assets/animals/penguin.png"),
    include_bytes!("../../assets/animals/fox.png"),
    include_bytes!("../../assets/animals/whale.png"),
    include_bytes!("../../assets/animals/bear.png"),
    include_bytes!("../../assets/animals/hippo.png"),
    include_bytes!("../../assets/animals/kangaroo.png"),
    include_bytes!("../../assets/animals/ostrich.png"),
    include_bytes!("../../assets/animals/gorilla.png"),
    include_bytes!("../../assets/animals/crocodile.png"),
    include_bytes!("../../assets/animals/dragon.png"),
    include_bytes!("../../assets/animals/unicorn.png"),
];

/// Index of a kids card in `KIDS_NAMES`, if it is one.
pub fn kids_index(card: Card) -> Option<usize> {
    let index = usize::from(card.0.checked_sub(Card::kids(0).0)?);
    (index < KIDS_NAMES.len()).then_some(index)
}

/// The picture of a kids card at full resolution (160 px), decoded once.
pub fn animal(card: Card) -> Option<&'static RgbaImage> {
    static PICTURES: OnceLock<Vec<Option<RgbaImage>>> = OnceLock::new();
    let pictures = PICTURES.get_or_init(|| {
        ANIMAL_PNGS
            .iter()
            .map(|bytes| {
                image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
                    .ok()
                    .map(|i| i.to_rgba8())
            })
            .collect()
    });
    pictures.get(kids_index(card)?)?.as_ref()
}

/// The picture of a kids card scaled to `size` x `size` pixels (good quality; cache the result).
pub fn animal_scaled(card: Card, size: u32) -> Option<RgbaImage> {
    let picture = animal(card)?;
    Some(image::imageops::resize(
        picture,
        size,
        size,
        image::imageops::FilterType::CatmullRom,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ab_glyph::Font;

    #[test]
    fn fonts_load_and_have_suit_symbols() {
        let fonts = fonts().expect("shipped fonts parse");
        for c in ['♠', '♥', '♦', '♣', '★'] {
            assert_ne!(fonts.bold.glyph_id(c).0, 0, "bold font lacks {c}");
            assert_ne!(fonts.sans.glyph_id(c).0, 0, "font lacks {c}");
        }
    }

    #[test]
    fn fallback_fonts_load_and_cover_names_in_other_scripts() {
        let fallbacks = fallback_fonts();
        assert_eq!(fallbacks.len(), 3, "every shipped fallback parses");
        let fonts = fonts().expect("shipped fonts parse");
        // Chinese, Japanese, Korean, Thai, Devanagari and emoji: none in DejaVu, each in a fallback.
        for c in [
            '王', '李', '明', 'の', 'カ', '한', '국', 'ก', 'क', '🎲', '🦄', '🐉', '👍',
        ] {
            assert_eq!(fonts.sans.glyph_id(c).0, 0, "DejaVu has {c} after all");
            assert!(
                fallbacks.iter().any(|f| f.glyph_id(c).0 != 0),
                "no fallback draws {c}"
            );
        }
    }

    #[test]
    fn bold_text_falls_back_to_the_bold_cjk_face() {
        let bold = bold_fallback_fonts();
        assert_eq!(bold.len(), 3, "every shipped bold fallback parses");
        let fonts = fonts().expect("shipped fonts parse");
        assert!(is_bold(&fonts.bold));
        assert!(!is_bold(&fonts.sans));
        // The same characters as the regular face, drawn with more ink (a heavier weight).
        let ink = |font: &FontRef<'static>, c: char| -> f32 {
            use ab_glyph::{Font, ScaleFont};
            let glyph = font.as_scaled(64.0).scaled_glyph(c);
            let mut covered = 0.0;
            if let Some(outlined) = font.outline_glyph(glyph) {
                outlined.draw(|_, _, v| covered += v);
            }
            covered
        };
        for c in ['李', '雷', 'の', '한'] {
            let regular = fallback_fonts().first().expect("the CJK face");
            let heavy = bold.first().expect("the bold CJK face");
            assert_ne!(heavy.glyph_id(c).0, 0, "bold CJK lacks {c}");
            assert!(
                ink(heavy, c) > ink(regular, c) * 1.2,
                "{c} is not heavier in bold"
            );
        }
    }

    #[test]
    fn every_kids_card_has_a_picture() {
        for i in 0..21u8 {
            let picture = animal(Card::kids(i)).expect("picture decodes");
            assert_eq!(picture.dimensions(), (160, 160));
        }
        assert!(animal(Card(0)).is_none());
    }
}
