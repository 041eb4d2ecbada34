//! Board layouts as data: parsed from the text files in `assets/boards/`, so another printed layout can
//! be dropped in.

use std::sync::OnceLock;

use super::card::{Card, CardEffect, KIDS_ANIMALS};
use super::cell::{Bits, Cell, DIRECTIONS};
use super::variant::Variant;

/// What is printed on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// A free corner: counts for every team, never takes a chip.
    Corner,
    /// A card picture (classic or kids).
    Card(Card),
    /// A dice sum (dice game).
    Number(u8),
}

/// A board: its size, what each cell shows, and lookup tables derived from that.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The variant this layout is for.
    pub variant: Variant,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// One label per cell, row by row.
    pub labels: Vec<Label>,
    /// The free corners.
    pub corners: Bits,
    /// Every cell of the board.
    pub all: Bits,
    /// Cells by card code (classic, kids) or by dice sum (dice).
    cells_by_code: Box<[Bits; 128]>,
    /// Neighbour of each cell in each of the eight directions (`NO_CELL` off the board).
    neighbours: Vec<[u8; 8]>,
    /// The neighbours of each cell as a bitboard.
    adjacent: Vec<Bits>,
    /// For line lengths 4, 5 and 6: every straight window of that length through each cell.
    windows: [Vec<Vec<Bits>>; 3],
}

const NO_CELL: u8 = u8::MAX;

/// Why a layout file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("board layout: {0}")]
pub struct LayoutError(pub String);

impl Layout {
    /// Parses a layout: `#` comments, a header line of column letters, then one line per row starting with
    /// its number. Tokens: `--` for a free corner, a card (classic), an animal name (kids), a number (dice).
    pub fn parse(text: &str, variant: Variant) -> Result<Layout, LayoutError> {
        let err = |m: String| LayoutError(m);
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        let header: Vec<&str> = lines
            .next()
            .ok_or_else(|| err("the layout is empty".into()))?
            .split_whitespace()
            .collect();
        let width = header.len();
        if !(4..=26).contains(&width) {
            return Err(err(format!("{width} columns; a board has 4 to 26")));
        }
        let mut labels = Vec::new();
        let mut height = 0usize;
        for line in lines {
            height += 1;
            let mut tokens = line.split_whitespace();
            let number = tokens.next().unwrap_or_default();
            if number != height.to_string() {
                return Err(err(format!("row {height} starts with `{number}`")));
            }
            let row: Vec<&str> = tokens.collect();
            if row.len() != width {
                return Err(err(format!(
                    "row {height} has {} cells, expected {width}",
                    row.len()
                )));
            }
            for token in row {
                let label = if token == "--" {
                    Label::Corner
                } else if variant == Variant::Dice {
                    match token.parse::<u8>() {
                        Ok(n) if (2..=12).contains(&n) && n != 10 && n != 11 => Label::Number(n),
                        _ => {
                            return Err(err(format!("`{token}` is not a dice sum a cell can show")))
                        }
                    }
                } else {
                    let card = Card::parse(token, variant)
                        .ok_or_else(|| err(format!("`{token}` is not a card of this game")))?;
                    if card.effect() != CardEffect::Cells {
                        return Err(err(format!("`{token}` cannot be printed on the board")));
                    }
                    Label::Card(card)
                };
                labels.push(label);
            }
        }
        if !(4..=12).contains(&height) || width * height > 128 {
            return Err(err(format!("a {width}x{height} board is not supported")));
        }
        let mut layout = Layout {
            variant,
            width: width as u8,
            height: height as u8,
            labels,
            corners: 0,
            all: 0,
            cells_by_code: Box::new([0; 128]),
            neighbours: Vec::new(),
            adjacent: Vec::new(),
            windows: [Vec::new(), Vec::new(), Vec::new()],
        };
        for (i, label) in layout.labels.iter().enumerate() {
            let bit = 1u128 << i;
            layout.all |= bit;
            match *label {
                Label::Corner => layout.corners |= bit,
                Label::Card(c) => layout.cells_by_code[usize::from(c.0)] |= bit,
                Label::Number(n) => layout.cells_by_code[usize::from(n)] |= bit,
            }
        }
        layout.check_counts()?;
        layout.neighbours = (0..layout.len())
            .map(|i| {
                let mut n = [NO_CELL; 8];
                for (d, slot) in n.iter_mut().enumerate() {
                    *slot = layout
                        .step(Cell(i as u8), direction(d))
                        .map_or(NO_CELL, |c| c.0);
                }
                n
            })
            .collect();
        layout.adjacent = layout
            .neighbours
            .iter()
            .map(|n| {
                n.iter()
                    .filter(|&&c| c != NO_CELL)
                    .fold(0, |m, &c| m | Cell(c).bit())
            })
            .collect();
        for len in 4..=6usize {
            let mut through = vec![Vec::new(); layout.len()];
            for start in 0..layout.len() {
                for d in 0..4 {
                    let mut cells = vec![Cell(start as u8)];
                    while cells.len() < len {
                        match layout.step(cells[cells.len() - 1], direction(d)) {
                            Some(next) => cells.push(next),
                            None => break,
                        }
                    }
                    if cells.len() == len {
                        let mask = cells.iter().fold(0, |m, c| m | c.bit());
                        for c in &cells {
                            through[c.index()].push(mask);
                        }
                    }
                }
            }
            layout.windows[len - 4] = through;
        }
        Ok(layout)
    }

    fn check_counts(&self) -> Result<(), LayoutError> {
        let codes: Vec<u8> = match self.variant {
            Variant::Classic => (0..52u8)
                .filter(|&c| Card(c).effect() == CardEffect::Cells)
                .collect(),
            Variant::Kids => (0..KIDS_ANIMALS).map(|i| Card::kids(i).0).collect(),
            Variant::Dice => return Ok(()),
        };
        for code in codes {
            let n = self.cells_by_code[usize::from(code)].count_ones();
            if n != 2 {
                return Err(LayoutError(format!(
                    "{} appears {n} times, expected twice",
                    Card(code)
                )));
            }
        }
        Ok(())
    }

    /// The layout games of a variant use: the built-in one, unless another was installed first.
    pub fn standard(variant: Variant) -> &'static Layout {
        slot(variant).get_or_init(|| match Layout::parse(builtin_text(variant), variant) {
            Ok(layout) => layout,
            // The built-in files are part of the binary and covered by tests.
            Err(e) => panic!("built-in {variant} layout is invalid: {e}"),
        })
    }

    /// Replaces the built-in layout of its variant with another printed board (say, from a file the
    /// admin supplies). Only possible before the first game of that variant; records replay only on the
    /// layout they were played on.
    pub fn install(layout: Layout) -> Result<(), LayoutError> {
        let variant = layout.variant;
        slot(variant).set(layout).map_err(|_| {
            LayoutError(format!(
                "the {variant} board is already in use and cannot be replaced"
            ))
        })
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the board has no cells (never true for a parsed layout).
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The cells that show a card.
    #[inline]
    pub fn cells_of_card(&self, card: Card) -> Bits {
        self.cells_by_code[usize::from(card.0 & 127)]
    }

    /// The cells that show a dice sum.
    #[inline]
    pub fn cells_of_number(&self, sum: u8) -> Bits {
        self.cells_by_code[usize::from(sum & 127)]
    }

    /// The label of a cell.
    pub fn label(&self, cell: Cell) -> Label {
        self.labels[cell.index()]
    }

    /// Parses a cell name on this board.
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        Cell::parse(text, self.width, self.height)
    }

    /// A cell's name on this board.
    pub fn cell_name(&self, cell: Cell) -> String {
        cell.name(self.width).to_string()
    }

    /// The cell one step from `cell` in direction `d`: 0–3 are [`DIRECTIONS`], 4–7 their opposites.
    #[inline]
    pub fn neighbour(&self, cell: Cell, d: usize) -> Option<Cell> {
        match self.neighbours[cell.index()][d & 7] {
            NO_CELL => None,
            n => Some(Cell(n)),
        }
    }

    /// The cells next to `cell` (in all eight directions), as a bitboard.
    #[inline]
    pub fn adjacent(&self, cell: Cell) -> Bits {
        self.adjacent.get(cell.index()).copied().unwrap_or(0)
    }

    /// Every straight window of `len` cells (4 to 6) that contains `cell`, as bitboards.
    #[inline]
    pub fn windows_through(&self, cell: Cell, len: u8) -> &[Bits] {
        self.windows
            .get(usize::from(len).wrapping_sub(4))
            .and_then(|w| w.get(cell.index()))
            .map_or(&[], Vec::as_slice)
    }

    /// The cell one step from `cell` in direction `(dc, dr)`, if still on the board.
    #[inline]
    pub fn step(&self, cell: Cell, (dc, dr): (i8, i8)) -> Option<Cell> {
        let c = cell.col(self.width) as i8 + dc;
        let r = cell.row(self.width) as i8 + dr;
        if c < 0 || r < 0 || c >= self.width as i8 || r >= self.height as i8 {
            None
        } else {
            Some(Cell::at(c as u8, r as u8, self.width))
        }
    }
}

fn slot(variant: Variant) -> &'static OnceLock<Layout> {
    static CLASSIC: OnceLock<Layout> = OnceLock::new();
    static DICE: OnceLock<Layout> = OnceLock::new();
    static KIDS: OnceLock<Layout> = OnceLock::new();
    match variant {
        Variant::Classic => &CLASSIC,
        Variant::Dice => &DICE,
        Variant::Kids => &KIDS,
    }
}

/// The text of a built-in layout (`assets/boards/*.txt`).
pub fn builtin_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Classic => include_str!("../../assets/boards/classic.txt"),
        Variant::Dice => include_str!("../../assets/boards/dice.txt"),
        Variant::Kids => include_str!("../../assets/boards/kids.txt"),
    }
}

/// Direction `d`: 0–3 are [`DIRECTIONS`], 4–7 their opposites.
pub const fn direction(d: usize) -> (i8, i8) {
    let (dc, dr) = DIRECTIONS[d % 4];
    if d < 4 {
        (dc, dr)
    } else {
        (-dc, -dr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_layouts_parse_and_match_the_rules() {
        let classic = Layout::standard(Variant::Classic);
        assert_eq!((classic.width, classic.height), (10, 10));
        assert_eq!(classic.corners.count_ones(), 4);
        assert_eq!(
            classic.label(Cell(1)),
            Label::Card(Card::parse("2S", Variant::Classic).unwrap())
        );
        assert_eq!(classic.label(Cell(99)), Label::Corner);
        let seven_h = Card::parse("7H", Variant::Classic).unwrap();
        let cells: Vec<String> = super::super::cell::BitIter(classic.cells_of_card(seven_h))
            .map(|c| classic.cell_name(c))
            .collect();
        assert_eq!(cells, vec!["I5", "D6"]);

        let dice = Layout::standard(Variant::Dice);
        assert_eq!((dice.width, dice.height), (6, 6));
        assert_eq!(dice.corners, 0);
        for n in 3..=9 {
            assert_eq!(dice.cells_of_number(n).count_ones(), 4, "sum {n}");
        }
        assert_eq!(dice.cells_of_number(2).count_ones(), 4);
        assert_eq!(dice.cells_of_number(12).count_ones(), 4);
        assert_eq!(dice.cells_of_number(10), 0);

        let kids = Layout::standard(Variant::Kids);
        assert_eq!((kids.width, kids.height), (7, 6));
        assert_eq!(kids.corners.count_ones(), 4);
    }

    #[test]
    fn broken_layouts_are_refused_with_a_reason() {
        assert!(Layout::parse("", Variant::Dice).is_err());
        let bad_number = "A B C D\n1 2 3 4 10\n2 2 3 4 5\n3 2 3 4 5\n4 2 3 4 5";
        assert!(Layout::parse(bad_number, Variant::Dice).is_err());
        let short_row = "A B C D\n1 2 3 4\n2 2 3 4 5\n3 2 3 4 5\n4 2 3 4 5";
        assert!(Layout::parse(short_row, Variant::Dice).is_err());
        let ok = "A B C D\n1 2 3 4 5\n2 2 3 4 5\n3 2 3 4 5\n4 2 3 4 12";
        assert!(Layout::parse(ok, Variant::Dice).is_ok());
        let classic = Layout::standard(Variant::Classic);
        // A corner lies on one window of 5 in its row, its column and its diagonal; a centre cell on 20.
        assert_eq!(classic.windows_through(Cell(0), 5).len(), 3);
        assert_eq!(classic.windows_through(Cell(44), 5).len(), 20);
        assert_eq!(classic.neighbour(Cell(0), 4), None);
        assert_eq!(classic.neighbour(Cell(0), 2), Some(Cell(11)));
        assert!(classic.windows_through(Cell(0), 9).is_empty());
        let jack = builtin_text(Variant::Classic).replace("2S", "JS");
        assert!(Layout::parse(&jack, Variant::Classic).is_err());
        let used = Layout::standard(Variant::Classic).clone();
        assert!(
            Layout::install(used).is_err(),
            "a layout in use cannot be swapped"
        );
    }
}
