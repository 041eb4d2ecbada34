//! Every straight window of `line_length` cells on a board, computed once per variant and length, and
//! the windows through each cell: the raw material of the line-potential heuristic.

use std::sync::OnceLock;

use crate::engine::cell::DIRECTIONS;
use crate::engine::{Bits, Cell, Layout, Variant};

/// The windows of one board and line length.
#[derive(Debug)]
pub struct Windows {
    /// Cells in a window.
    pub len: u8,
    /// Every window as a bitboard.
    pub all: Vec<Bits>,
    /// `by_cell[start[c]..start[c + 1]]` are the windows through cell `c`.
    by_cell: Vec<Bits>,
    start: Vec<u16>,
}

impl Windows {
    fn build(layout: &Layout, len: u8) -> Windows {
        let mut all = Vec::new();
        for index in 0..layout.len() {
            let first = Cell(index as u8);
            for &dir in &DIRECTIONS {
                let mut mask = first.bit();
                let mut cell = first;
                let mut count = 1;
                while count < len {
                    match layout.step(cell, dir) {
                        Some(next) => {
                            mask |= next.bit();
                            cell = next;
                            count += 1;
                        }
                        None => break,
                    }
                }
                if count == len {
                    all.push(mask);
                }
            }
        }
        let mut by_cell = Vec::new();
        let mut start = Vec::with_capacity(layout.len() + 1);
        for index in 0..layout.len() {
            start.push(by_cell.len() as u16);
            let bit = Cell(index as u8).bit();
            by_cell.extend(all.iter().copied().filter(|w| w & bit != 0));
        }
        start.push(by_cell.len() as u16);
        Windows {
            len,
            all,
            by_cell,
            start,
        }
    }

    /// The table of a variant's standard board for a line length (4 to 6).
    pub fn of(variant: Variant, len: u8) -> &'static Windows {
        static TABLES: [OnceLock<Windows>; 9] = [const { OnceLock::new() }; 9];
        let len = len.clamp(4, 6);
        let v = match variant {
            Variant::Classic => 0,
            Variant::Dice => 1,
            Variant::Kids => 2,
        };
        TABLES[v * 3 + usize::from(len - 4)]
            .get_or_init(|| Windows::build(Layout::standard(variant), len))
    }

    /// The windows through a cell.
    #[inline]
    pub fn through(&self, cell: Cell) -> &[Bits] {
        let i = cell.index();
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.by_cell[usize::from(a)..usize::from(b)],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_counts_match_the_boards() {
        // 10x10, length 5: 6 per row and column, 36 per diagonal direction.
        let classic = Windows::of(Variant::Classic, 5);
        assert_eq!(classic.all.len(), 60 + 60 + 36 + 36);
        assert!(classic.all.iter().all(|w| w.count_ones() == 5));
        // A centre cell lies in 5 windows per direction.
        assert_eq!(classic.through(Cell(44)).len(), 20);
        // A corner lies in one window per direction but the anti-diagonal that leaves the board.
        assert_eq!(classic.through(Cell(0)).len(), 3);
        let kids = Windows::of(Variant::Kids, 4);
        assert_eq!(kids.all.len(), 4 * 6 + 7 * 3 + 4 * 3 * 2);
        let dice6 = Windows::of(Variant::Dice, 6);
        assert_eq!(dice6.all.len(), 6 + 6 + 1 + 1);
    }
}
