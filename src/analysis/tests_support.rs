//! Test helpers shared with the service's tests.

use crate::engine::card::full_deck;
use crate::engine::record::Record;
use crate::engine::{Card, Config, Game, Layout, Move, Options, Seat, Variant};

/// A kids game as a record: the deck dealt so that each seat holds its cards when it plays them.
pub(crate) fn kids_record(plays: &[(Seat, &str, &str)]) -> Record {
    let variant = Variant::Kids;
    let config = Config::new(variant, 2, None, Options::default()).unwrap();
    let mut rest = full_deck(variant);
    let mut streams: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
    for &(seat, name, _) in plays {
        let c = Card::parse(name, variant).unwrap();
        let i = rest.iter().position(|&x| x == c).unwrap();
        streams[usize::from(seat)].push(rest.remove(i));
    }
    // Two seats taking turns: seat s's i-th card (dealt, then drawn) is deck[2i + s].
    let mut deck = Vec::new();
    let (mut a, mut b) = (streams[0].iter(), streams[1].iter());
    let mut rest = rest.into_iter();
    loop {
        match (a.next(), b.next()) {
            (None, None) => break,
            (x, y) => {
                deck.extend(x.copied().or_else(|| rest.next()));
                deck.extend(y.copied().or_else(|| rest.next()));
            }
        }
    }
    deck.extend(rest);
    let mut game = Game::with_deck(config, &deck, Vec::new(), 5).unwrap();
    let mut record = Record::start_of(&game);
    let layout = Layout::standard(variant);
    for &(seat, name, at) in plays {
        let mv = Move::Play {
            card: Card::parse(name, variant).unwrap(),
            cell: layout.parse_cell(at).unwrap(),
        };
        let events = game.play(seat, mv).unwrap();
        record.push(seat, mv, layout, &events);
    }
    record
}

/// A two-player classic game as a record: the deck stacked so that each seat holds its cards when it
/// plays them (seat `s`'s `i`-th card is `deck[2i + s]`: dealt one card at a time, then drawn in turn).
pub(crate) fn classic_record(plays: &[(Seat, &str, &str)]) -> Record {
    let variant = Variant::Classic;
    let config = Config::new(variant, 2, None, Options::default()).unwrap();
    let mut rest = full_deck(variant);
    let mut streams: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
    for &(seat, name, _) in plays {
        let c = Card::parse(name, variant).unwrap();
        let i = rest.iter().position(|&x| x == c).unwrap();
        streams[usize::from(seat)].push(rest.remove(i));
    }
    let mut deck = Vec::new();
    let (mut a, mut b) = (streams[0].iter(), streams[1].iter());
    let mut rest = rest.into_iter();
    loop {
        match (a.next(), b.next()) {
            (None, None) => break,
            (x, y) => {
                deck.extend(x.copied().or_else(|| rest.next()));
                deck.extend(y.copied().or_else(|| rest.next()));
            }
        }
    }
    deck.extend(rest);
    let mut game = Game::with_deck(config, &deck, Vec::new(), 5).unwrap();
    let mut record = Record::start_of(&game);
    let layout = Layout::standard(variant);
    for &(seat, name, at) in plays {
        let mv = Move::Play {
            card: Card::parse(name, variant).unwrap(),
            cell: layout.parse_cell(at).unwrap(),
        };
        let events = game.play(seat, mv).unwrap();
        record.push(seat, mv, layout, &events);
    }
    record
}

/// Seat 1 lines up B1–D1 beside the corner (one chip short), seat 0 breaks it with a one-eyed jack;
/// seat 1 completes A1–E1 first, then seat 0 completes row 2 and column E with one move and wins.
pub(crate) fn comeback_record() -> Record {
    let record = classic_record(&[
        (0, "6C", "A2"),
        (1, "2S", "B1"),
        (0, "5C", "B2"),
        (1, "3S", "C1"),
        (0, "4C", "C2"),
        (1, "4S", "D1"),
        (0, "JS", "D1"),
        (1, "4S", "D1"),
        (0, "3C", "D2"),
        (1, "5S", "E1"),
        (0, "4D", "E3"),
        (1, "9S", "I1"),
        (0, "4C", "E4"),
        (1, "8S", "H1"),
        (0, "5H", "E5"),
        (1, "QD", "H7"),
        (0, "2H", "E6"),
        (1, "KD", "H8"),
        (0, "2C", "E2"),
    ]);
    let game = record.replay().unwrap().unwrap();
    assert!(game.position().is_over());
    record
}
