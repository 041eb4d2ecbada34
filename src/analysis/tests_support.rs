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
