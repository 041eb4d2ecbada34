//! Cells, directions and bitboards (`u128`, one bit per cell; every board has at most 100 cells).

use std::fmt;

/// A cell index: `row * width + column`, `A1` (top-left) is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub u8);

/// A set of cells.
pub type Bits = u128;

impl Cell {
    /// The cell's bit in a bitboard.
    #[inline]
    pub const fn bit(self) -> Bits {
        1u128 << self.0
    }

    /// The index as usize.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column (0-based) on a board of `width` columns.
    #[inline]
    pub const fn col(self, width: u8) -> u8 {
        self.0 % width
    }

    /// Row (0-based) on a board of `width` columns.
    #[inline]
    pub const fn row(self, width: u8) -> u8 {
        self.0 / width
    }

    /// The cell at a column and row.
    #[inline]
    pub const fn at(col: u8, row: u8, width: u8) -> Cell {
        Cell(row * width + col)
    }

    /// Parses `A1`-style notation (case-insensitive) for a board of the given size.
    pub fn parse(text: &str, width: u8, height: u8) -> Option<Cell> {
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let col = letter as u8 - b'A';
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        if col >= width || row == 0 || row > height {
            return None;
        }
        Some(Cell::at(col, row - 1, width))
    }

    /// The cell's name (`A1`) on a board of `width` columns.
    pub fn name(self, width: u8) -> CellName {
        CellName {
            col: self.col(width),
            row: self.row(width),
        }
    }
}

/// A displayable cell name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName {
    col: u8,
    row: u8,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.col), self.row + 1)
    }
}

/// The four line directions as (column step, row step): row, column, diagonal, anti-diagonal.
pub const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Iterates over the cells of a bitboard, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter(pub Bits);

impl Iterator for BitIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Cell(i as u8))
    }
}

/// The `n`-th set cell (0-based) of a bitboard with more than `n` cells.
#[inline]
pub fn nth_cell(bits: Bits, n: u32) -> Cell {
    if n == 0 {
        return Cell(bits.trailing_zeros() as u8);
    }
    if n == 1 {
        return Cell((bits & bits.wrapping_sub(1)).trailing_zeros() as u8);
    }
    let low = bits as u64;
    let low_count = low.count_ones();
    if n < low_count {
        Cell(select64(low, n) as u8)
    } else {
        Cell(64 + select64((bits >> 64) as u64, n - low_count) as u8)
    }
}

/// Index of the `n`-th set bit of `x`: skip whole 16-bit chunks by their counts, then clear bits.
#[inline]
fn select64(x: u64, mut n: u32) -> u32 {
    let mut shift = 0;
    while shift < 48 {
        let count = ((x >> shift) & 0xFFFF).count_ones();
        if n < count {
            break;
        }
        n -= count;
        shift += 16;
    }
    let mut chunk = x >> shift;
    for _ in 0..n {
        chunk &= chunk - 1;
    }
    shift + chunk.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_name_round_trip() {
        assert_eq!(Cell::parse("a1", 10, 10), Some(Cell(0)));
        assert_eq!(Cell::parse("J10", 10, 10), Some(Cell(99)));
        assert_eq!(Cell::parse(" c2 ", 10, 10), Some(Cell(12)));
        assert_eq!(Cell::parse("K1", 10, 10), None);
        assert_eq!(Cell::parse("A0", 10, 10), None);
        assert_eq!(Cell::parse("A11", 10, 10), None);
        assert_eq!(Cell::parse("G6", 7, 6), Some(Cell(41)));
        assert_eq!(Cell::parse("", 10, 10), None);
        assert_eq!(Cell::parse("A+1", 10, 10), None);
        assert_eq!(Cell::parse("1A", 10, 10), None);
        for i in 0..100u8 {
            let name = Cell(i).name(10).to_string();
            assert_eq!(Cell::parse(&name, 10, 10), Some(Cell(i)));
        }
    }

    #[test]
    fn bit_iteration() {
        let bits = Cell(3).bit() | Cell(99).bit() | Cell(64).bit();
        let cells: Vec<_> = BitIter(bits).collect();
        assert_eq!(cells, vec![Cell(3), Cell(64), Cell(99)]);
        assert_eq!(nth_cell(bits, 1), Cell(64));
        let all: Bits = (1u128 << 100) - 1 - (1 << 5) - (1 << 70);
        let cells: Vec<Cell> = BitIter(all).collect();
        for (n, &c) in cells.iter().enumerate() {
            assert_eq!(nth_cell(all, n as u32), c);
        }
    }
}
