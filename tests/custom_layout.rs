//! Another printed board can be dropped in (its own test binary, not a module of `tests/it`: a layout is
//! installed once per process, before the first game of its variant).

use sequence_bot::engine::{Cell, Config, Game, Label, Layout, Move, Options, Variant};

#[test]
fn an_installed_dice_layout_is_used_by_new_games() {
    // The pinwheel board mirrored left to right.
    let text = "   A  B  C  D  E  F
 1  2  5  8  4  3  2
 2  3  6  9  7  6  5
 3  4  7 12 12  9  8
 4  8  9 12 12  7  4
 5  5  6  7  9  6  3
 6  2  3  4  8  5  2";
    let layout = Layout::parse(text, Variant::Dice).expect("valid layout");
    Layout::install(layout).expect("installed before the first dice game");
    let config = Config::new(Variant::Dice, 2, None, Options::default()).expect("config");
    let mut game = Game::with_deck(config, &[], vec![[2, 3]], 1).expect("rolls");
    let b1 = game.position().layout().parse_cell("B1").expect("cell");
    assert_eq!(game.position().layout().label(b1), Label::Number(5));
    game.play(0, Move::Place { cell: b1 })
        .expect("B1 is a 5 on this board");
    assert_eq!(game.position().owner(Cell(1)), Some(0));
    let bad = Layout::parse(text, Variant::Dice).expect("valid");
    assert!(Layout::install(bad).is_err(), "too late once games use it");
}
