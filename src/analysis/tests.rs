//! Tests of the analyses on constructed positions and recorded games.

use super::tests_support::kids_record;
use super::*;
use crate::ai::search::History;
use crate::ai::Budget;
use crate::engine::card::full_deck;
use crate::engine::record::Record;
use crate::engine::{Card, Config, Game, Layout, Move, Options, Seat, Variant};

fn card(name: &str, variant: Variant) -> Card {
    Card::parse(name, variant).unwrap()
}

fn cell(name: &str, variant: Variant) -> Cell {
    Layout::standard(variant).parse_cell(name).unwrap()
}

/// A two-player game whose seats are dealt `hand0` and `hand1` (then the rest of the deck in canonical
/// order, or rotated by `shift` to change what nobody sees), with `chips` put on the board.
fn game_with(
    variant: Variant,
    hand0: &[&str],
    hand1: &[&str],
    shift: usize,
    chips: &[(u8, &str)],
) -> Game {
    let config = Config::new(variant, 2, None, Options::default()).unwrap();
    let mut rest = full_deck(variant);
    let mut take = |name: &str| {
        let c = card(name, variant);
        let i = rest.iter().position(|&x| x == c).unwrap();
        rest.remove(i)
    };
    let s0: Vec<Card> = hand0.iter().map(|n| take(n)).collect();
    let s1: Vec<Card> = hand1.iter().map(|n| take(n)).collect();
    let len = rest.len();
    rest.rotate_left(shift % len);
    let (mut s0, mut s1) = (s0.into_iter(), s1.into_iter());
    let mut deck = Vec::new();
    let mut rest = rest.into_iter();
    for _ in 0..config.hand_size() {
        deck.extend(s0.next().or_else(|| rest.next()));
        deck.extend(s1.next().or_else(|| rest.next()));
    }
    deck.extend(s0);
    deck.extend(s1);
    deck.extend(rest);
    let mut game = Game::with_deck(config, &deck, Vec::new(), 7).unwrap();
    for &(team, at) in chips {
        game.put_chip(team, cell(at, variant));
    }
    game
}

fn hint_of(game: &Game) -> Hint {
    hint(&game.view(0), &[]).unwrap()
}

const C: Variant = Variant::Classic;
/// Cards that do little on the boards below.
const FILLER: [&str; 6] = ["2C", "3D", "8S", "KC", "9D", "QH"];

fn hand(first: &[&'static str]) -> Vec<&'static str> {
    let mut hand = first.to_vec();
    hand.extend(FILLER.iter().take(7 - first.len()));
    hand
}

#[test]
fn a_hint_completes_a_sequence() {
    // Row 1: corner A1, 2S B1, 3S C1, 4S D1 are blue's; the 5S goes on E1.
    let game = game_with(
        C,
        &hand(&["5S"]),
        &[],
        0,
        &[(0, "B1"), (0, "C1"), (0, "D1")],
    );
    let hint = hint_of(&game);
    assert_eq!(
        hint.mv,
        Move::Play {
            card: card("5S", C),
            cell: cell("E1", C)
        }
    );
    assert_eq!(hint.reason, Reason::CompletesSequence);
}

#[test]
fn a_hint_blocks_an_opponents_four() {
    // Green has the corner and B1–D1: E1 is the last free cell of its line.
    let game = game_with(
        C,
        &hand(&["5S"]),
        &[],
        0,
        &[(1, "B1"), (1, "C1"), (1, "D1")],
    );
    let hint = hint_of(&game);
    assert_eq!(
        hint.mv,
        Move::Play {
            card: card("5S", C),
            cell: cell("E1", C)
        }
    );
    assert_eq!(
        hint.reason,
        Reason::BlocksLine {
            team: 1,
            cell: cell("E1", C),
            chips: 4
        }
    );
}

#[test]
fn a_hint_breaks_an_opponents_four_with_a_one_eyed_jack() {
    // Green has the corner and B1–D1 and blue cannot block E1 (both 5S are elsewhere): the one-eyed jack
    // takes one of the three chips.
    let game = game_with(
        C,
        &hand(&["JS"]),
        &["5S", "5S"],
        0,
        &[(1, "B1"), (1, "C1"), (1, "D1")],
    );
    let hint = hint_of(&game);
    let Move::Play {
        card: played,
        cell: at,
    } = hint.mv
    else {
        panic!("{hint:?}");
    };
    assert_eq!(played, card("JS", C));
    assert!(
        ["B1", "C1", "D1"].map(|n| cell(n, C)).contains(&at),
        "{hint:?}"
    );
    assert_eq!(
        hint.reason,
        Reason::BreaksLine {
            team: 1,
            cell: at,
            chips: 4
        }
    );
}

#[test]
fn a_hint_makes_four_in_a_row() {
    // Row 5: 7C C5, 6H D5, 5H E5 are blue's; the 4H on F5 makes C5–F5 with B5 and G5 open.
    let game = game_with(
        C,
        &hand(&["4H"]),
        &[],
        0,
        &[(0, "C5"), (0, "D5"), (0, "E5"), (1, "J10"), (1, "A2")],
    );
    let hint = hint_of(&game);
    assert_eq!(
        hint.mv,
        Move::Play {
            card: card("4H", C),
            cell: cell("F5", C)
        }
    );
    assert_eq!(
        hint.reason,
        Reason::MakesLine {
            cells: ["C5", "D5", "E5", "F5"].map(|n| cell(n, C)).to_vec()
        }
    );
}

#[test]
fn a_hint_keeps_a_two_eyed_jack() {
    // Nothing to complete or block: a two-eyed jack is worth more later. The reason says so only
    // when the move builds on the seat's chip with an ordinary card (issue 33).
    let game = game_with(C, &hand(&["JD"]), &[], 0, &[(0, "E5"), (1, "F6")]);
    let hint = hint_of(&game);
    let Move::Play {
        card: played,
        cell: at,
    } = hint.mv
    else {
        panic!("{hint:?}");
    };
    assert_ne!(played, card("JD", C), "{hint:?}");
    // One chip of blue's: no line waits for the jack, so keeping it is not the reason given (issue 44).
    let _ = at;
    assert!(
        !matches!(hint.reason, Reason::KeepsWildCard { .. }),
        "{hint:?}"
    );
    assert_ne!(hint.reason, Reason::BestOnAverage, "{hint:?}");
}

#[test]
fn a_hint_exchanges_a_dead_card_first() {
    // Both 2S cells (B1 and G9) are covered.
    let game = game_with(C, &hand(&["2S"]), &[], 0, &[(1, "B1"), (1, "G9")]);
    let hint = hint_of(&game);
    assert_eq!(
        hint.mv,
        Move::Exchange {
            card: card("2S", C)
        }
    );
    assert_eq!(hint.reason, Reason::ExchangeDeadCard);
}

#[test]
fn the_reason_follows_the_move_asked_about() {
    // The same position, other moves: the classification is the position's, whoever chose the move.
    let game = game_with(
        C,
        &hand(&["5S", "JD"]),
        &[],
        0,
        &[
            (1, "B1"),
            (1, "C1"),
            (1, "D1"),
            (0, "C5"),
            (0, "D5"),
            (0, "E5"),
        ],
    );
    let view = game.view(0);
    let play = |name: &str, at: &str| Move::Play {
        card: card(name, C),
        cell: cell(at, C),
    };
    assert_eq!(
        hint::reason_for(&view, play("JD", "E1"), 1),
        Reason::BlocksLine {
            team: 1,
            cell: cell("E1", C),
            chips: 4
        }
    );
    assert_eq!(
        hint::reason_for(&view, play("JD", "F5"), 1),
        Reason::MakesLine {
            cells: ["C5", "D5", "E5", "F5"].map(|n| cell(n, C)).to_vec()
        }
    );
    // The jack on A5 makes A5, C5, D5, E5 (B5 open): a line one short, too.
    assert_eq!(
        hint::reason_for(&view, play("JD", "A5"), 1),
        Reason::MakesLine {
            cells: ["A5", "C5", "D5", "E5"].map(|n| cell(n, C)).to_vec()
        }
    );
    // The 5S on D9 does none of that and builds on no chip of blue's: keeping the jack is no
    // reason for it (issue 33); it starts a line where no chip of green's is in the way (issue 44).
    let opens = |at: &str| match hint::reason_for(&view, play("5S", at), 1) {
        Reason::OpensLines { cell: c, lines } if c == cell(at, C) => lines,
        other => panic!("{at}: {other:?}"),
    };
    // Green's chips are all on row 1: every window through D9 is open to blue.
    let through = |at: &str| Layout::standard(C).windows_through(cell(at, C), 5).len();
    assert_eq!(usize::from(opens("D9")), through("D9"));
    assert_eq!(
        hint::reason_for(&view, play("JD", "H8"), 1),
        Reason::OpensLines {
            cell: cell("H8", C),
            lines: u8::try_from(through("H8")).unwrap()
        }
    );
}

#[test]
fn a_hint_is_only_for_the_seat_to_move() {
    let game = game_with(C, &hand(&[]), &[], 0, &[]);
    assert!(hint(&game.view(1), &[]).is_none());
    assert!(hint(&game.public_view(), &[]).is_none());
}

#[test]
fn a_hint_never_depends_on_cards_the_seat_cannot_see() {
    // The same view with other cards in the opponent's hand and the draw pile: the same hint.
    let chips = [(0, "E5"), (1, "F6"), (1, "D4"), (0, "E4")];
    let first = game_with(C, &hand(&["TS"]), &["AS", "AD", "KH"], 0, &chips);
    let other = game_with(C, &hand(&["TS"]), &["9H", "2H", "TD"], 31, &chips);
    assert_ne!(first.hand(1), other.hand(1));
    assert!(first.view(0) == other.view(0), "the views differ");
    let budget = Budget::iterations(300);
    assert_eq!(
        hint_with(&first.view(0), &[], &budget),
        hint_with(&other.view(0), &[], &budget)
    );
}

#[test]
fn the_summary_names_each_sequence_and_each_broken_line() {
    let record = kids_record(&[
        (0, "frog", "B2"),
        (1, "lion", "B1"),
        (0, "owl", "C2"),
        (1, "zebra", "C1"),
        (0, "dragon", "C1"),
        (1, "elephant", "E1"),
        (0, "turtle", "D2"),
        (1, "monkey", "F1"),
        (0, "rabbit", "E2"),
    ]);
    assert!(record.replay().unwrap().unwrap().position().is_over());
    let summary = summarize(&record).unwrap();
    assert_eq!(summary.moves, 9);
    assert_eq!(summary.actions, 9);
    let k = |n| cell(n, Variant::Kids);
    assert_eq!(
        summary.broken,
        vec![BrokenLine {
            seat: 0,
            victim: 1,
            cell: k("C1"),
            move_number: 5
        }]
    );
    assert_eq!(
        summary.sequences,
        vec![SequenceMade {
            team: 0,
            seat: 0,
            move_number: 9,
            cells: ["B2", "C2", "D2", "E2"].map(k).to_vec(),
            points: None,
            in_zone: false,
        }]
    );
}

#[test]
fn the_summary_gives_a_long_run_the_points_of_its_window_in_the_zone() {
    // D5 completes the anti-diagonal run B7–G2 (six chips). With the zone around H3 (G2–I4) the five
    // cells that count are C6–G2, which touch it: 2 points. With the zone around F3 (E2–G4) both windows
    // touch it and the first in line order counts, B7–F3, as in classic play: 2 points too.
    let c = |n| cell(n, Variant::Classic);
    for (text, cells) in [
        (
            include_str!("../../tests/golden/kotb_long_run_counts_the_window_in_the_zone.json"),
            ["C6", "D5", "E4", "F3", "G2"],
        ),
        (
            include_str!("../../tests/golden/kotb_long_run_both_windows_in_the_zone.json"),
            ["B7", "C6", "D5", "E4", "F3"],
        ),
    ] {
        let summary = summarize(&Record::from_json(text).unwrap()).unwrap();
        let made: Vec<(Vec<Cell>, Option<u8>, bool)> = summary
            .sequences
            .iter()
            .map(|s| (s.cells.clone(), s.points, s.in_zone))
            .collect();
        assert_eq!(made, vec![(cells.map(c).to_vec(), Some(2), true)]);
    }
}

#[test]
fn the_summary_tells_a_zone_double_from_a_plain_point() {
    // One placement (2♣ on E2) completes two sequences: E2–E6 touches the zone around F6 (E5–G7) and
    // scores 2 points, A2–E2 does not and scores 1.
    let record = Record::from_json(include_str!(
        "../../tests/golden/kotb_two_sequences_one_in_one_out.json"
    ))
    .unwrap();
    let summary = summarize(&record).unwrap();
    let c = |n| cell(n, Variant::Classic);
    let made: Vec<(Vec<Cell>, Option<u8>, bool)> = summary
        .sequences
        .iter()
        .map(|s| (s.cells.clone(), s.points, s.in_zone))
        .collect();
    assert_eq!(
        made,
        vec![
            (
                ["A2", "B2", "C2", "D2", "E2"].map(c).to_vec(),
                Some(1),
                false
            ),
            (
                ["E2", "E3", "E4", "E5", "E6"].map(c).to_vec(),
                Some(2),
                true
            ),
        ]
    );
    assert!(summary
        .sequences
        .iter()
        .all(|s| s.move_number == summary.moves));
    // Outside King of the Board no sequence has points.
    let classic = Record::from_json(include_str!(
        "../../tests/golden/classic_three_players_one_sequence.json"
    ))
    .unwrap();
    let summary = summarize(&classic).unwrap();
    assert!(!summary.sequences.is_empty());
    assert!(summary
        .sequences
        .iter()
        .all(|s| s.points.is_none() && !s.in_zone));
}

#[test]
fn a_removal_from_a_harmless_line_is_not_a_broken_four() {
    let record = kids_record(&[(0, "frog", "B2"), (1, "lion", "B1"), (0, "dragon", "B1")]);
    let summary = summarize(&record).unwrap();
    assert!(summary.broken.is_empty());
    assert_eq!(summary.moves, 3);
}

#[test]
fn the_summary_of_random_games_agrees_with_the_final_position() {
    for (variant, players) in [
        (Variant::Classic, 2),
        (Variant::Classic, 3),
        (Variant::Dice, 2),
    ] {
        for seed in 0..4 {
            let config = Config::new(variant, players, None, Options::default()).unwrap();
            let record = Record::random_game(config, seed);
            let game = record.replay().unwrap().unwrap();
            let summary = summarize(&record).unwrap();
            let made: Vec<(u8, Vec<Cell>)> = summary
                .sequences
                .iter()
                .map(|s| (s.team, s.cells.clone()))
                .collect();
            let standing: Vec<(u8, Vec<Cell>)> = game
                .position()
                .sequences()
                .iter()
                .map(|s| (s.team, s.cells().to_vec()))
                .collect();
            assert_eq!(made, standing, "{variant} {players} seed {seed}");
            for s in &summary.sequences {
                assert_eq!(config.team_of(s.seat), s.team);
                assert!(s.move_number >= 1 && s.move_number <= summary.moves);
            }
            let chip_actions = record
                .actions
                .iter()
                .filter(|a| a.exchange.is_none() && a.pass.is_none())
                .count();
            assert_eq!(summary.moves as usize, chip_actions);
        }
    }
}

#[test]
fn an_illegal_record_is_refused() {
    let mut record = kids_record(&[(0, "frog", "B2")]);
    record.actions[0].cell = Some("C2".into());
    assert!(matches!(
        summarize(&record),
        Err(AnalysisError::Illegal { index: 0, .. })
    ));
    assert!(matches!(
        agreement(&record, &[0]),
        Err(AnalysisError::Illegal { index: 0, .. })
    ));
}

/// A classic game in which seat 0 plays exactly what the analysis asks `hard` for and seat 1 plays at
/// random, as a record.
fn hard_against_easy(seed: u64, budget: &Budget) -> Record {
    let config = Config::new(Variant::Classic, 2, None, Options::default()).unwrap();
    let mut game = Game::new(config, seed);
    let mut record = Record::start_of(&game);
    let layout = game.position().layout();
    let mut history: Vec<(Seat, Move)> = Vec::new();
    let mut rng = crate::engine::GameRng::new(seed);
    while !game.position().is_over() && record.actions.len() < 400 {
        let seat = game.position().to_move();
        let view = game.view(seat);
        let mv = if seat == 0 {
            crate::ai::search::hard(&view, &history as &History, budget, view_seed(&view))
        } else {
            game.random_move(&mut rng).unwrap_or(Move::Pass)
        };
        let events = game.play(seat, mv).unwrap();
        record.push(seat, mv, layout, &events);
        history.push((seat, mv));
    }
    record
}

#[test]
fn agreement_is_full_for_hard_itself_and_low_for_random_moves() {
    let budget = Budget::iterations(150);
    let record = hard_against_easy(11, &budget);
    let result = agreement_with(&record, &[0, 1], &budget).unwrap();
    let (hard, random) = (result[0], result[1]);
    assert_eq!((hard.seat, random.seat), (0, 1));
    assert!(hard.counted >= 10, "{hard:?}");
    assert_eq!(hard.matched, hard.counted, "{hard:?}");
    assert_eq!(hard.percent(), Some(100));
    assert!(random.counted >= 10, "{random:?}");
    assert!(random.percent().unwrap() < 50, "{random:?}");
    // Only the seats asked about.
    let only = agreement_with(&record, &[1], &budget).unwrap();
    assert_eq!(only, vec![random]);
}

#[test]
fn agreement_percent_rounds_and_is_none_without_moves() {
    let a = |matched, counted| SeatAgreement {
        seat: 0,
        matched,
        counted,
    };
    assert_eq!(a(0, 0).percent(), None);
    assert_eq!(a(2, 3).percent(), Some(67));
    assert_eq!(a(1, 3).percent(), Some(33));
    assert_eq!(a(5, 5).percent(), Some(100));
}

/// The card pictured on `at` of the classic board.
fn card_at(at: &str) -> Card {
    match Layout::standard(C).label(cell(at, C)) {
        crate::engine::Label::Card(card) => card,
        other => panic!("{at}: {other:?}"),
    }
}

/// Issue 33: a block of an opponent's open three (two short of a sequence, the rest free) was
/// "it did best over the games the computer played out"; it is named as a block now, and taking a
/// chip out of such a line as a break.
#[test]
fn a_block_of_an_open_three_is_named_as_a_block() {
    // Green has C5, D5, E5 with B5 and F5 free.
    let game = game_with(
        C,
        &hand(&[Box::leak(card_at("F5").code().into_boxed_str()), "JS"]),
        &[],
        0,
        &[(1, "C5"), (1, "D5"), (1, "E5"), (0, "J10")],
    );
    let view = game.view(0);
    assert_eq!(
        hint::reason_for(
            &view,
            Move::Play {
                card: card_at("F5"),
                cell: cell("F5", C)
            },
            1
        ),
        Reason::BlocksLine {
            team: 1,
            cell: cell("F5", C),
            chips: 3
        }
    );
    assert_eq!(
        hint::reason_for(
            &view,
            Move::Play {
                card: card("JS", C),
                cell: cell("D5", C)
            },
            1
        ),
        Reason::BreaksLine {
            team: 1,
            cell: cell("D5", C),
            chips: 3
        }
    );
}

/// Issue 33: "keep your J♦ for later" was given for a move far from every chip while holding two
/// two-eyed jacks. Issue 44: and on a nearly empty board, where no line needs the jack. The jack reason
/// now comes only when the move builds on the seat's own chips with an ordinary card while another
/// line of the seat's, two short of a sequence, waits for a wild card; a one-eyed jack's removal never
/// gets it either.
#[test]
fn the_jack_reason_appears_only_when_it_applies() {
    let layout = Layout::standard(C);
    let own = cell("E5", C);
    let game = game_with(
        C,
        &hand(&["JD", "JC"]),
        &[],
        0,
        &[(0, "E5"), (1, "F6"), (1, "B9")],
    );
    let view = game.view(0);
    let mut far = 0;
    for &name in &FILLER {
        let played = card(name, C);
        for at in crate::engine::BitIter(layout.cells_of_card(played)) {
            if game.position().owner(at).is_some() {
                continue;
            }
            let reason = hint::reason_for(
                &view,
                Move::Play {
                    card: played,
                    cell: at,
                },
                1,
            );
            let beside = layout.adjacent(own) & at.bit() != 0
                && layout
                    .windows_through(at, 5)
                    .iter()
                    .any(|w| w & own.bit() != 0 && w & game.position().chips(1) == 0);
            // One chip of blue's on the board: nothing waits for a jack, the move makes a line.
            assert!(
                !matches!(reason, Reason::KeepsWildCard { .. }),
                "{name} on {}, nothing waits for the jack: {reason:?}",
                layout.cell_name(at)
            );
            if beside {
                assert!(
                    matches!(reason, Reason::MakesLine { .. }),
                    "{name} on {}: {reason:?}",
                    layout.cell_name(at)
                );
            } else {
                far += 1;
                assert!(
                    !matches!(reason, Reason::KeepsWildCard { .. }),
                    "{name} on {}, far from every chip: {reason:?}",
                    layout.cell_name(at)
                );
            }
        }
    }
    assert!(far > 0, "a move away from the chip was tried");
    // Next to E5 with an ordinary card, both jacks in hand, and a line of three of blue's on row 8
    // (B8–F8 open) waiting for a wild card: the jack reason applies.
    let beside = Move::Play {
        card: card_at("E4"),
        cell: cell("E4", C),
    };
    let waiting = [
        (0, "E5"),
        (1, "F6"),
        (1, "B9"),
        (0, "B8"),
        (0, "C8"),
        (0, "D8"),
    ];
    let code = Box::leak(card_at("E4").code().into_boxed_str());
    let game = game_with(C, &hand(&["JD", "JC", code]), &[], 0, &waiting);
    assert!(matches!(
        hint::reason_for(&game.view(0), beside, 1),
        Reason::KeepsWildCard { .. }
    ));
    // Without that line, the same move makes a line of two.
    let game = game_with(
        C,
        &hand(&["JD", "JC", code]),
        &[],
        0,
        &[(0, "E5"), (1, "F6"), (1, "B9")],
    );
    assert_eq!(
        hint::reason_for(&game.view(0), beside, 1),
        Reason::MakesLine {
            cells: ["E4", "E5"].map(|n| cell(n, C)).to_vec()
        }
    );
    // A one-eyed jack's removal does not keep the two-eyed one "for later".
    let game = game_with(
        C,
        &hand(&["JD", "JS"]),
        &[],
        0,
        &[(0, "E5"), (1, "F6"), (1, "B9")],
    );
    let removal = Move::Play {
        card: card("JS", C),
        cell: cell("B9", C),
    };
    assert!(!matches!(
        hint::reason_for(&game.view(0), removal, 1),
        Reason::KeepsWildCard { .. }
    ));
}

/// Issue 33, measured: the share of hints with a concrete reason (anything but "it did best over
/// the games the computer played out") on a fixed set of positions: seeded random games of classic,
/// King of the Board and kids, cut after 8, 20 and 32 actions, the hint of the seat to move with a
/// short search. Also checks that no hint there says "keep your jack" for a move that shares no line
/// with the seat's chips, or while no other line of the seat's waits for the jack. `cargo test --lib hint_reasons_share -- --nocapture` prints the figures.
#[test]
fn hint_reasons_share_on_fixed_positions() {
    let kotb = Options {
        king_of_the_board: true,
        ..Options::default()
    };
    let games = [
        ("classic", Variant::Classic, Options::default()),
        ("king of the board", Variant::Classic, kotb),
        ("kids", Variant::Kids, Options::default()),
    ];
    let budget = Budget::iterations(60);
    let (mut total, mut specific) = (0u32, 0u32);
    let mut by_reason: std::collections::BTreeMap<&str, u32> = Default::default();
    for (name, variant, options) in games {
        let config = Config::new(variant, 2, None, options).unwrap();
        let (mut t, mut s) = (0u32, 0u32);
        for seed in 1..=6u64 {
            let record = Record::random_game(config, seed);
            for cut in [8usize, 20, 32] {
                // The game after `cut` actions (a record cut short would list zones it never used).
                let Ok(Ok(game)) = record.replay_first(cut) else {
                    continue;
                };
                if game.position().is_over() {
                    continue;
                }
                let seat = game.position().to_move();
                let view = game.view(seat);
                let Some(found) = hint_with(&view, &[], &budget) else {
                    continue;
                };
                t += 1;
                let label = match &found.reason {
                    Reason::BestOnAverage => "best on average",
                    Reason::CompletesSequence => "completes",
                    Reason::BreaksLine { .. } => "breaks",
                    Reason::BlocksLine { .. } => "blocks",
                    Reason::MakesLine { .. } => "makes or extends",
                    Reason::TakesZone { .. } => "zone",
                    Reason::KeepsWildCard { .. } => "keeps a jack",
                    Reason::OpensLines { .. } => "opens lines",
                    Reason::ExchangeDeadCard => "dead card",
                    Reason::Pass => "pass",
                };
                *by_reason.entry(label).or_default() += 1;
                if found.reason != Reason::BestOnAverage {
                    s += 1;
                }
                if let (Reason::KeepsWildCard { .. }, Move::Play { cell: at, .. }) =
                    (&found.reason, found.mv)
                {
                    let me = view.team().unwrap();
                    let pos = game.position();
                    let mine = pos.chips(me) | pos.layout().corners;
                    assert!(
                        pos.layout()
                            .windows_through(at, config.line_length())
                            .iter()
                            .any(|w| w & mine & !at.bit() != 0),
                        "{name}, seed {seed}, cut {cut}: {found:?}"
                    );
                    // ...and another line of the seat's, two short and open, waits for the jack.
                    let len = config.line_length();
                    let others: Bits = (0..config.teams)
                        .filter(|&t| t != me)
                        .map(|t| pos.chips(t))
                        .fold(0, |a, b| a | b);
                    let waits = crate::engine::BitIter(pos.chips(me)).any(|chip| {
                        pos.layout().windows_through(chip, len).iter().any(|&w| {
                            w & at.bit() == 0
                                && w & others == 0
                                && (w & mine).count_ones() >= u32::from(len - 2)
                        })
                    });
                    assert!(waits, "{name}, seed {seed}, cut {cut}: {found:?}");
                }
            }
        }
        println!("hint reasons, {name}: {s} of {t} specific");
        total += t;
        specific += s;
    }
    let share = f64::from(specific) / f64::from(total.max(1));
    println!(
        "hint reasons: {specific} of {total} specific ({:.0} %); {by_reason:?}",
        share * 100.0
    );
    assert!(total >= 40, "{total} positions");
    // 34 of 46 (74 %) when issue 33 was written; issue 44 asks for 90 %.
    assert!(share >= 0.9, "{share}");
}
