//! The board's geometry and colours as plain data, for a page that draws the board itself (the web
//! page's SVG). Every value is read from the constants and functions the PNG renderer paints with, so
//! the page and the images cannot drift apart; a test samples a rendered board to hold that.

use std::collections::BTreeMap;

use serde::Serialize;

use super::board::{
    chip_proportions, Geometry, CELL_RADIUS, CORNER_BG, GAP, GOLD, GUTTER, HIGHLIGHT, PAD, REMOVED,
    ROLL_CELL, SEQUENCE_LIGHT, TARGET, TARGET_TEXT, ZONE,
};
use super::canvas::Colour;
use super::style::{
    chip_colours, dice_tint, felt, team_dark, CARD_BLACK, CARD_EDGE, CARD_FACE, CARD_RED,
    DICE_EDGE, EDGE_TEXT, KIDS_FACE,
};
use crate::engine::card::{KIDS_NAMES, SUITS};
use crate::engine::{Card, Layout, Variant};

/// Teams a board of each game can have (kids: four, the others: three).
fn team_count(variant: Variant) -> u8 {
    if variant == Variant::Kids {
        4
    } else {
        3
    }
}

/// Everything a page needs to draw the board as the images do: sizes in the images' pixels (a page
/// scales them), colours as `#rrggbb`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardGeometry {
    /// Gap between neighbouring cells.
    pub gap: u32,
    /// Room around the cells for the column letters and row numbers.
    pub gutter: u32,
    /// Outer padding around the gutter.
    pub pad: u32,
    /// A cell's corner radius as a share of its width.
    pub cell_radius: f32,
    /// Column letters and row numbers.
    pub edge_text: String,
    /// Per game (`classic`, `dice`, `kids`): its board's size, felt and chips.
    pub variants: BTreeMap<&'static str, VariantGeometry>,
    /// The free corners.
    pub corner: CornerStyle,
    /// Card cells and the colours of the suits.
    pub cards: CardStyle,
    /// Dice number cells.
    pub dice: DiceStyle,
    /// Outlines and marks drawn over the cells.
    pub marks: MarkStyle,
    /// The kids animals: card code (the English name) and name in each language.
    pub kids: Vec<KidsAnimal>,
}

/// A game's board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantGeometry {
    /// Columns of the printed board.
    pub cols: u32,
    /// Rows of the printed board.
    pub rows: u32,
    /// Distance between cell origins.
    pub pitch: u32,
    /// The area around the cells.
    pub felt: String,
    /// A chip's radius.
    pub chip_r: f32,
    /// How far below the cell centre a chip sits (the label stays visible above it).
    pub chip_dy: f32,
    /// Each team's chips, by team number.
    pub teams: Vec<ChipStyle>,
}

/// A team's chips.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChipStyle {
    /// The chip's body (the team colour).
    pub body: String,
    /// Its rim, also the team's dark shade (sequence lines).
    pub rim: String,
    /// The mark on it: team 0 a dot, 1 a cross, 2 a ring, 3 a square.
    pub mark: String,
}

/// A free corner.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CornerStyle {
    /// Its background.
    pub background: String,
    /// Its frame, star and word.
    pub gold: String,
    /// The star drawn on it.
    pub star: &'static str,
}

/// Card cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardStyle {
    /// The face.
    pub face: String,
    /// The thin edge.
    pub edge: String,
    /// A kids cell's face.
    pub kids_face: String,
    /// Each suit by its code letter (`S`, `H`, `D`, `C`): glyph and colour.
    pub suits: BTreeMap<String, SuitStyle>,
}

/// A suit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuitStyle {
    /// `♠`, `♥`, `♦`, `♣`.
    pub glyph: String,
    /// Red or black.
    pub colour: String,
}

/// Dice number cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiceStyle {
    /// Each number's tint, so equal numbers are easy to find.
    pub tints: BTreeMap<u8, String>,
    /// The thin edge.
    pub edge: String,
    /// The number.
    pub text: String,
    /// The outline of the cells the roll on the table can take.
    pub roll_cell: String,
    /// The numbers drawn as a pair of dice (2 as double one, 12 as double six).
    pub doubles: BTreeMap<u8, u8>,
}

/// Outlines and marks over the cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MarkStyle {
    /// The last move's cell, a chip placed.
    pub last: String,
    /// The last move's cell, a chip removed.
    pub removed: String,
    /// A cell the chosen card may go to.
    pub target: String,
    /// Text on a target label.
    pub target_text: String,
    /// The King of the Board zone.
    pub zone: String,
    /// The light line under a sequence's line.
    pub sequence_light: String,
}

/// A kids animal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KidsAnimal {
    /// The card code (its English name, as `CardView::code` gives it).
    pub code: String,
    /// English.
    pub en: String,
    /// German.
    pub de: String,
    /// Norwegian.
    pub no: String,
}

/// A colour as `#rrggbb` (alpha dropped).
pub fn hex(colour: Colour) -> String {
    let [r, g, b, _] = colour.0;
    format!("#{r:02x}{g:02x}{b:02x}")
}

impl BoardGeometry {
    /// The geometry of the standard boards, from the renderer's own values.
    pub fn standard() -> BoardGeometry {
        let variants = Variant::ALL
            .into_iter()
            .map(|variant| {
                let g = Geometry::of(Layout::standard(variant));
                let (r, dy) = chip_proportions(variant);
                let teams = (0..team_count(variant))
                    .map(|team| {
                        let c = chip_colours(variant, team);
                        debug_assert_eq!(c.rim, team_dark(variant, team));
                        ChipStyle {
                            body: hex(c.body),
                            rim: hex(c.rim),
                            mark: hex(c.mark),
                        }
                    })
                    .collect();
                let geometry = VariantGeometry {
                    cols: g.cols,
                    rows: g.rows,
                    pitch: g.pitch,
                    felt: hex(felt(variant)),
                    chip_r: g.pitch as f32 * r,
                    chip_dy: g.pitch as f32 * dy,
                    teams,
                };
                (variant.name(), geometry)
            })
            .collect();
        let suits = (0..4u8)
            .map(|suit| {
                let card = Card(suit);
                let glyph: String = card.pretty().chars().last().into_iter().collect();
                let colour = if card.is_red() { CARD_RED } else { CARD_BLACK };
                (
                    SUITS[usize::from(suit)].to_string(),
                    SuitStyle {
                        glyph,
                        colour: hex(colour),
                    },
                )
            })
            .collect();
        BoardGeometry {
            gap: GAP,
            gutter: GUTTER,
            pad: PAD,
            cell_radius: CELL_RADIUS,
            edge_text: hex(EDGE_TEXT),
            variants,
            corner: CornerStyle {
                background: hex(CORNER_BG),
                gold: hex(GOLD),
                star: "★",
            },
            cards: CardStyle {
                face: hex(CARD_FACE),
                edge: hex(CARD_EDGE),
                kids_face: hex(KIDS_FACE),
                suits,
            },
            dice: DiceStyle {
                tints: (2..=12).map(|n| (n, hex(dice_tint(n)))).collect(),
                edge: hex(DICE_EDGE),
                text: hex(CARD_BLACK),
                roll_cell: hex(ROLL_CELL),
                doubles: [(2, 1), (12, 6)].into_iter().collect(),
            },
            marks: MarkStyle {
                last: hex(HIGHLIGHT),
                removed: hex(REMOVED),
                target: hex(TARGET),
                target_text: hex(TARGET_TEXT),
                zone: hex(ZONE),
                sequence_light: hex(SEQUENCE_LIGHT),
            },
            kids: KIDS_NAMES
                .iter()
                .map(|[en, de, no]| KidsAnimal {
                    code: (*en).to_string(),
                    en: (*en).to_string(),
                    de: (*de).to_string(),
                    no: (*no).to_string(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::*;
    use crate::engine::{BitIter, Cell, Config, Label, Options, Record};
    use crate::render::board_image;
    use crate::render::cli::game_after;

    fn colour(hex: &str) -> Rgba<u8> {
        let value = u32::from_str_radix(hex.trim_start_matches('#'), 16).expect("a #rrggbb colour");
        super::super::canvas::rgb(value)
    }

    fn close(a: Rgba<u8>, b: Rgba<u8>) -> bool {
        (0..3).all(|i| a.0[i].abs_diff(b.0[i]) <= 3)
    }

    #[test]
    fn the_geometry_has_the_colours_the_board_image_paints() {
        let geometry = BoardGeometry::standard();
        for variant in Variant::ALL {
            let players = if variant == Variant::Kids { 4 } else { 3 };
            let config = Config::new(variant, players, None, Options::default()).expect("set-up");
            let record = Record::random_game(config, 7);
            let game = game_after(&record, Some(record.actions.len() / 2)).expect("replays");
            let position = game.position();
            let layout = position.layout();
            let img = board_image(&game.public_view(), &[]);
            let page = &geometry.variants[variant.name()];
            let g = Geometry::of(layout);
            assert_eq!(
                (page.cols, page.rows, page.pitch),
                (g.cols, g.rows, g.pitch)
            );
            assert_eq!(page.chip_r, g.chip_r);
            assert_eq!(page.chip_dy, g.chip_dy);
            // The felt, outside the cells and the letters.
            let felt_at = *img.get_pixel(2, img.height() - 2);
            assert!(
                close(felt_at, colour(&page.felt)),
                "{variant} felt {felt_at:?}"
            );
            // A chip's body (halfway between its mark and its rim), in its team's colour. Cells of a
            // sequence carry the sequence's dots and line, so they are left out.
            let in_sequence: u128 = position.sequences().iter().fold(0, |a, s| a | s.mask);
            let last = position.last_action().map(|l| l.cell);
            let mut chips = 0;
            for team in 0..position.config().teams {
                for cell in BitIter(position.chips(team) & !in_sequence) {
                    if Some(cell) == last {
                        continue;
                    }
                    let (cx, cy) = g.chip_centre(cell);
                    let at = *img.get_pixel((cx + g.chip_r * 0.55) as u32, cy as u32);
                    let want = colour(&page.teams[usize::from(team)].body);
                    assert!(close(at, want), "{variant} team {team} at {cell:?}: {at:?}");
                    chips += 1;
                }
            }
            assert!(chips > 0, "{variant}: no chip was checked");
            // An empty cell's face, near its top-left corner inside the rounding.
            let empty = (0..layout.len() as u8)
                .map(Cell)
                .find(|&c| position.occupied() & c.bit() == 0 && Some(c) != last);
            for cell in empty.into_iter() {
                let (x, y, w, _) = g.cell_rect(cell);
                let at = *img.get_pixel(x + w / 2, y + 2);
                let want = match layout.label(cell) {
                    Label::Corner => colour(&geometry.corner.background),
                    Label::Card(card) if card.is_kids() => colour(&geometry.cards.kids_face),
                    Label::Card(_) => colour(&geometry.cards.face),
                    Label::Number(n) => colour(&geometry.dice.tints[&n]),
                };
                assert!(
                    close(at, want),
                    "{variant} empty {cell:?}: {at:?} vs {want:?}"
                );
            }
        }
        assert_eq!(geometry.cards.suits["H"].colour, hex(CARD_RED));
        assert_eq!(geometry.cards.suits["S"].glyph, "♠");
        assert_eq!(geometry.kids.len(), KIDS_NAMES.len());
    }

    #[test]
    fn the_geometry_serializes_with_every_game_keyed_by_its_name() {
        let json = serde_json::to_value(BoardGeometry::standard()).expect("serializes");
        for name in ["classic", "dice", "kids"] {
            assert!(json["variants"][name]["pitch"].as_u64().is_some(), "{name}");
        }
        assert_eq!(
            json["variants"]["kids"]["teams"].as_array().map(Vec::len),
            Some(4)
        );
        assert!(json["dice"]["tints"]["7"].as_str().is_some());
    }
}
