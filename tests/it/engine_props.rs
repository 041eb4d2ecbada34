//! Property tests over thousands of random games of every variant and player count.

use proptest::prelude::*;

use sequence_bot::engine::card::full_deck;
use sequence_bot::engine::{
    is_zone_centre, Card, CardEffect, Cell, Config, Event, Game, GameRng, Move, MoveList, Options,
    Record, Status, Variant,
};

fn configs() -> impl Strategy<Value = Config> {
    let classic = prop_oneof![
        Just((2u8, 2u8)),
        Just((3, 3)),
        Just((4, 2)),
        Just((6, 2)),
        Just((6, 3)),
        Just((8, 2)),
        Just((9, 3)),
        Just((10, 2)),
        Just((12, 2)),
        Just((12, 3)),
    ];
    let options = (any::<bool>(), any::<bool>(), any::<bool>(), 1u8..=3).prop_map(
        |(equal_turns, scoring, capture_pairs, target)| Options {
            equal_turns,
            scoring,
            capture_pairs,
            sequences_to_win: Some(target),
            ..Options::default()
        },
    );
    prop_oneof![
        (classic.clone(), options).prop_map(|((p, t), o)| Config::new(
            Variant::Classic,
            p,
            Some(t),
            o
        )
        .expect("valid")),
        (classic, kotb_options()).prop_map(|((p, t), o)| Config::new(
            Variant::Classic,
            p,
            Some(t),
            o
        )
        .expect("valid")),
        (2u8..=4, any::<bool>(), any::<bool>()).prop_map(|(p, six, eq)| {
            let o = Options {
                sequence_length: six.then_some(6),
                equal_turns: eq,
                ..Options::default()
            };
            Config::new(Variant::Dice, p, None, o).expect("valid")
        }),
        (2u8..=4, any::<bool>()).prop_map(|(p, teams)| {
            let t = if p == 4 && teams { Some(2) } else { None };
            Config::new(Variant::Kids, p, t, Options::default()).expect("valid")
        }),
    ]
}

/// King of the Board options: any target, with or without `equal_turns`.
fn kotb_options() -> impl Strategy<Value = Options> {
    (any::<bool>(), proptest::option::of(2u8..=10)).prop_map(|(equal_turns, points_to_win)| {
        Options {
            king_of_the_board: true,
            points_to_win,
            equal_turns,
            ..Options::default()
        }
    })
}

fn kotb_configs() -> impl Strategy<Value = Config> {
    let seats = prop_oneof![
        Just((2u8, 2u8)),
        Just((3, 3)),
        Just((4, 2)),
        Just((6, 3)),
        Just((9, 3)),
        Just((12, 2)),
    ];
    (seats, kotb_options())
        .prop_map(|((p, t), o)| Config::new(Variant::Classic, p, Some(t), o).expect("valid"))
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort_unstable();
    cards
}

/// Some moves that are probably illegal: random cards, cells and kinds.
fn random_moves(rng: &mut GameRng, cells: u8) -> Vec<Move> {
    (0..6)
        .map(|_| {
            let card = Card(if rng.below(2) == 0 {
                rng.below(52) as u8
            } else {
                64 + rng.below(21) as u8
            });
            let cell = Cell(rng.below(u32::from(cells) + 3) as u8);
            match rng.below(5) {
                0 => Move::Play { card, cell },
                1 => Move::Exchange { card },
                2 => Move::Place { cell },
                3 => Move::Remove { cell },
                _ => Move::Pass,
            }
        })
        .collect()
}

/// One random game: every invariant holds after every move, and the record replays to the same state.
fn keep_every_invariant(config: Config, seed: u64) -> Result<(), TestCaseError> {
    let mut game = Game::new(config, seed);
    let deck = sorted(full_deck(config.variant));
    let mut rng = GameRng::new(seed.rotate_left(17));
    let mut record = Record::start_of(&game);
    let layout = game.position().layout();
    let mut list = MoveList::new();
    let mut plies = 0;
    while !game.position().is_over() {
        plies += 1;
        prop_assert!(plies < 5000, "game does not end");
        let seat = game.position().to_move();
        game.legal_moves(&mut list);
        prop_assert!(!list.is_empty());
        // Every generated move is accepted by `check` (and by `play` on a copy).
        for &mv in list.iter() {
            prop_assert_eq!(game.check(seat, mv), Ok(()), "{:?}", mv);
        }
        // Random moves that are not generated are refused and change nothing.
        let before = game.clone();
        for mv in random_moves(&mut rng, layout.len() as u8) {
            // Jacks of the same kind are listed once: a move with the twin jack is generated too.
            let generated = list.contains(&mv)
                || matches!(mv, Move::Play { card, cell } if card.effect() != CardEffect::Cells
                    && list.iter().any(|m| matches!(m, Move::Play { card: c, cell: at } if c.effect() == card.effect() && *at == cell)));
            let mut copy = game.clone();
            let result = copy.play(seat, mv);
            if !generated {
                prop_assert!(result.is_err(), "{:?} was accepted but not generated", mv);
                prop_assert_eq!(&before, &copy, "{:?} changed the game", mv);
            }
        }
        let other = (seat + 1) % config.players;
        if other != seat {
            let mut copy = game.clone();
            prop_assert!(copy.play(other, list[0]).is_err(), "out of turn accepted");
        }
        let mv = list[rng.below(list.len() as u32) as usize];
        let events = game.play(seat, mv).expect("generated moves are legal");
        record.push(seat, mv, layout, &events);
        // Card conservation: every card of the deck is somewhere, exactly once.
        if config.variant.has_cards() {
            prop_assert_eq!(sorted(game.all_cards()), deck.clone());
        }
        // Chips never overlap and never sit on corners.
        let pos = game.position();
        let mut seen = 0u128;
        for t in 0..config.teams {
            prop_assert_eq!(pos.chips(t) & seen, 0);
            seen |= pos.chips(t);
        }
        prop_assert_eq!(seen & layout.corners, 0);
        prop_assert_eq!(pos.locked() & !seen, 0, "locked cells hold chips");
        for s in pos.sequences() {
            prop_assert_eq!(s.cells().len(), usize::from(config.line_length()));
        }
        // Hands: only the own hand in a view.
        let view = game.view(seat);
        prop_assert_eq!(&view.hand[..], game.hand(seat));
        prop_assert!(game.public_view().hand.is_empty());
    }
    // The record reproduces the final state exactly.
    let json = serde_json::to_string(&record).expect("json");
    let replayed = Record::from_json(&json)
        .expect("parse")
        .replay()
        .expect("well formed")
        .expect("legal");
    prop_assert_eq!(replayed.position(), game.position());
    for seat in 0..config.players {
        prop_assert_eq!(replayed.hand(seat), game.hand(seat));
    }
    if let Status::Won(team) = game.position().status() {
        prop_assert!(team < config.teams);
    }
    Ok(())
}

proptest! {
    // 1,500 random games in all, in two tests of 750 so that they run side by side (each test's games are
    // drawn independently).
    #![proptest_config(ProptestConfig { cases: 750, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(config in configs(), seed in any::<u64>()) {
        keep_every_invariant(config, seed)?;
    }

    #[test]
    fn more_random_games_keep_every_invariant(config in configs(), seed in any::<u64>()) {
        keep_every_invariant(config, seed)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn records_never_panic_on_garbage(actions in proptest::collection::vec((0u8..14, "[A-Za-z0-9♠♥]{0,4}", "[A-Ka-k]?[0-9]{0,2}", 0u8..5), 0..40), variant in 0usize..3, seed in any::<u64>()) {
        let variant = ["classic", "dice", "kids"][variant];
        let actions: Vec<serde_json::Value> = actions
            .into_iter()
            .map(|(seat, card, cell, kind)| match kind {
                0 => serde_json::json!({"seat": seat, "play": card, "cell": cell}),
                1 => serde_json::json!({"seat": seat, "exchange": card}),
                2 => serde_json::json!({"seat": seat, "cell": cell}),
                3 => serde_json::json!({"seat": seat, "remove": cell}),
                _ => serde_json::json!({"seat": seat, "pass": true}),
            })
            .collect();
        let text = serde_json::json!({"variant": variant, "players": 2, "seed": seed, "actions": actions}).to_string();
        let out = sequence_bot::engine::record::replay_text(&text);
        prop_assert!(matches!(out.code, 0..=2));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The unchecked fast path plays only moves that `check` accepts, with the same result as `play`.
    #[test]
    fn play_random_matches_checked_play(config in configs(), seed in any::<u64>()) {
        let mut fast = Game::new(config, seed);
        let mut checked = fast.clone();
        let mut rng = GameRng::new(seed);
        let mut events = sequence_bot::engine::Events::new();
        loop {
            let seat = fast.position().to_move();
            let before = fast.clone();
            let Some(mv) = fast.play_random(&mut rng, &mut events) else { break };
            prop_assert_eq!(before.check(seat, mv), Ok(()));
            let expected = checked.play(seat, mv).expect("legal");
            prop_assert_eq!(&expected, &events);
            prop_assert_eq!(fast.position(), checked.position());
        }
        prop_assert!(checked.position().is_over());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// King of the Board: points never decrease and grow only by the scores announced, the zone is always
    /// one of the nine and moves only to another centre, and the record (with or without its `zones`)
    /// replays to the same final state.
    #[test]
    fn king_of_the_board_games_keep_their_invariants(config in kotb_configs(), seed in any::<u64>()) {
        let mut game = Game::new(config, seed);
        let mut record = Record::start_of(&game);
        let layout = game.position().layout();
        let mut rng = GameRng::new(seed.rotate_left(9));
        let mut list = MoveList::new();
        let mut points = game.position().points_per_team();
        prop_assert!(points.iter().all(|&p| p == 0));
        let mut zone = game.position().zone().expect("a zone at the deal");
        prop_assert!(is_zone_centre(zone));
        while !game.position().is_over() {
            let seat = game.position().to_move();
            game.legal_moves(&mut list);
            let mv = list[rng.below(list.len() as u32) as usize];
            let events = game.play(seat, mv).expect("generated moves are legal");
            record.push(seat, mv, layout, &events);
            let pos = game.position();
            let mut expected = points.clone();
            let mut moved = None;
            for e in &events {
                match *e {
                    Event::Scored { team, points: p, in_zone, index } => {
                        let seq = pos.sequences()[usize::from(index)];
                        prop_assert_eq!(seq.team, team);
                        prop_assert_eq!(in_zone, seq.mask & sequence_bot::engine::zone_cells(zone) != 0);
                        prop_assert_eq!(p, if in_zone { 2 } else { 1 });
                        expected[usize::from(team)] += p;
                    }
                    Event::ZoneMoved { from, to } => {
                        prop_assert_eq!(from, zone);
                        prop_assert_ne!(from, to);
                        moved = Some(to);
                    }
                    _ => {}
                }
            }
            let now = pos.points_per_team();
            prop_assert_eq!(&now, &expected);
            prop_assert!(now.iter().zip(&points).all(|(a, b)| a >= b), "points decreased");
            let scored = now != points;
            // The zone moves after a scoring placement that does not end the game (with `equal_turns` the
            // round's end may still end it after the move), and only then.
            prop_assert!(moved.is_none() || scored, "the zone moved without a score");
            prop_assert!(moved.is_some() || !scored || pos.is_over(), "a score did not move the zone");
            let current = pos.zone().expect("a zone");
            prop_assert!(is_zone_centre(current));
            prop_assert_eq!(Some(current), moved.or(Some(zone)));
            zone = current;
            points = now;
        }
        // A win reaches the target, or (a blocked board, RULES.md) leads on points alone.
        if let Status::Won(team) = game.position().status() {
            let all = game.position().points_per_team();
            let leads = (0..all.len()).all(|t| t == usize::from(team) || all[t] < all[usize::from(team)]);
            prop_assert!(game.position().points(team) >= config.points_to_win() || leads, "{:?}", all);
        }
        let json = serde_json::to_string(&record).expect("json");
        let replayed = Record::from_json(&json).expect("parse").replay().expect("well formed").expect("legal");
        prop_assert_eq!(replayed.position(), game.position());
        prop_assert_eq!(replayed.zones_so_far(), game.zones_so_far());
        let mut from_seed = record.clone();
        from_seed.zones = None;
        let replayed = from_seed.replay().expect("well formed").expect("legal");
        prop_assert_eq!(replayed.position(), game.position());
    }
}
