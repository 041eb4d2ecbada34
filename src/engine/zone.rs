//! King of the Board: the nine centres of the moving 3 x 3 zone on the classic board.

use super::cell::{Bits, Cell};

/// Width of the classic board the zone lives on.
const WIDTH: u8 = 10;

/// The nine zone centres, in reading order: `C3 F3 H3 C6 F6 H6 C8 F8 H8`.
pub const ZONE_CENTRES: [Cell; 9] = [
    Cell::at(2, 2, WIDTH),
    Cell::at(5, 2, WIDTH),
    Cell::at(7, 2, WIDTH),
    Cell::at(2, 5, WIDTH),
    Cell::at(5, 5, WIDTH),
    Cell::at(7, 5, WIDTH),
    Cell::at(2, 7, WIDTH),
    Cell::at(5, 7, WIDTH),
    Cell::at(7, 7, WIDTH),
];

/// Points a new sequence touching the zone scores.
pub const ZONE_POINTS: u8 = 2;
/// Points any other new sequence scores.
pub const PLAIN_POINTS: u8 = 1;

/// Whether a cell is one of the nine zone centres.
pub fn is_zone_centre(cell: Cell) -> bool {
    ZONE_CENTRES.contains(&cell)
}

/// The nine cells of the zone around `centre` (empty for a cell that is not a centre).
pub fn zone_cells(centre: Cell) -> Bits {
    if !is_zone_centre(centre) {
        return 0;
    }
    let (col, row) = (centre.col(WIDTH), centre.row(WIDTH));
    let mut bits = 0;
    for r in row - 1..=row + 1 {
        for c in col - 1..=col + 1 {
            bits |= Cell::at(c, r, WIDTH).bit();
        }
    }
    bits
}

/// The zone's corners, top-left and bottom-right (`E5`, `G7` for the centre `F6`).
pub fn zone_corners(centre: Cell) -> (Cell, Cell) {
    let (col, row) = (centre.col(WIDTH), centre.row(WIDTH));
    (
        Cell::at(col.saturating_sub(1), row.saturating_sub(1), WIDTH),
        Cell::at(col + 1, row + 1, WIDTH),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(cell: Cell) -> String {
        cell.name(WIDTH).to_string()
    }

    #[test]
    fn the_nine_centres_and_their_blocks() {
        let names: Vec<String> = ZONE_CENTRES.iter().map(|&c| name(c)).collect();
        assert_eq!(
            names,
            ["C3", "F3", "H3", "C6", "F6", "H6", "C8", "F8", "H8"]
        );
        let c3 = zone_cells(ZONE_CENTRES[0]);
        assert_eq!(c3.count_ones(), 9);
        let (top_left, bottom_right) = zone_corners(ZONE_CENTRES[0]);
        assert_eq!(
            (name(top_left), name(bottom_right)),
            ("B2".into(), "D4".into())
        );
        assert!(c3 & top_left.bit() != 0 && c3 & bottom_right.bit() != 0);
        let (e5, g7) = zone_corners(ZONE_CENTRES[4]);
        assert_eq!((name(e5), name(g7)), ("E5".into(), "G7".into()));
        // No zone reaches a free corner or the edge.
        for &centre in &ZONE_CENTRES {
            let bits = zone_cells(centre);
            assert_eq!(bits.count_ones(), 9, "{}", name(centre));
            for cell in [Cell(0), Cell(9), Cell(90), Cell(99)] {
                assert_eq!(bits & cell.bit(), 0);
            }
        }
        assert_eq!(zone_cells(Cell(0)), 0);
        assert!(!is_zone_centre(Cell::at(4, 4, WIDTH)));
    }
}
