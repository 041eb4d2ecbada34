//! One test (or a few) per rule of RULES.md, on positions set up by hand.

use super::card::{full_deck, DRAGON, UNICORN};
use super::*;

fn card(text: &str, variant: Variant) -> Card {
    Card::parse(text, variant).unwrap_or_else(|| panic!("bad test card {text}"))
}

fn cell(game: &Game, text: &str) -> Cell {
    game.position()
        .layout()
        .parse_cell(text)
        .unwrap_or_else(|| panic!("bad test cell {text}"))
}

/// A deck that deals the given hands (round-robin from seat 0), then `next` as the next draws, then the
/// rest of the deck.
fn deck_dealing(variant: Variant, hands: &[&[&str]], next: &[&str]) -> Vec<Card> {
    let mut rest = full_deck(variant);
    let mut take = |text: &str| {
        let c = card(text, variant);
        let i = rest
            .iter()
            .position(|&x| x == c)
            .expect("card used too often in test deck");
        rest.remove(i)
    };
    let size = hands[0].len();
    let mut deck = Vec::new();
    for round in 0..size {
        for hand in hands {
            deck.push(take(hand[round]));
        }
    }
    for text in next {
        deck.push(take(text));
    }
    // Keep jacks away from the top of the rest so that draws stay predictable in tests.
    rest.sort_by_key(|c| c.effect() != CardEffect::Cells);
    deck.extend(rest);
    deck
}

fn game_with(
    variant: Variant,
    teams: Option<u8>,
    options: Options,
    hands: &[&[&str]],
    next: &[&str],
) -> Game {
    let config = Config::new(variant, hands.len() as u8, teams, options).expect("test config");
    let deck = deck_dealing(variant, hands, next);
    Game::with_deck(config, &deck, Vec::new(), 1).expect("test deck")
}

fn classic(hands: &[&[&str]]) -> Game {
    game_with(Variant::Classic, None, Options::default(), hands, &[])
}

fn play(
    game: &mut Game,
    seat: Seat,
    card_text: &str,
    cell_text: &str,
) -> Result<Events, PlayError> {
    let variant = game.config().variant;
    let mv = Move::Play {
        card: card(card_text, variant),
        cell: cell(game, cell_text),
    };
    game.play(seat, mv)
}

fn put(game: &mut Game, team: Team, cells: &[&str]) {
    for text in cells {
        let c = cell(game, text);
        game.put_chip(team, c);
    }
}

fn sequences_of(game: &Game) -> Vec<(Team, Vec<String>)> {
    let layout = game.position().layout();
    game.position()
        .sequences()
        .iter()
        .map(|s| {
            (
                s.team,
                s.cells().iter().map(|&c| layout.cell_name(c)).collect(),
            )
        })
        .collect()
}

const FILLER: [&str; 7] = ["2S", "3S", "4S", "5S", "6S", "7S", "8S"];
const FILLER2: [&str; 7] = ["2H", "3H", "4H", "5H", "6H", "7H", "8H"];

/// A two-player classic game where seat 0 holds `first` plus filler cards.
fn two_player(first: &[&str]) -> Game {
    let mut hand0: Vec<&str> = first.to_vec();
    hand0.extend(
        FILLER
            .iter()
            .filter(|c| !first.contains(c))
            .take(7 - first.len()),
    );
    classic(&[&hand0, &FILLER2])
}

#[test]
fn every_error_has_a_distinct_code() {
    let mut codes: Vec<&str> = PlayError::ALL.iter().map(|e| e.code()).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), PlayError::ALL.len());
}

#[test]
fn dealing_is_round_robin_from_seat_zero() {
    let game = classic(&[&FILLER, &FILLER2]);
    let names = |seat| {
        game.hand(seat)
            .iter()
            .map(Card::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(names(0), FILLER);
    assert_eq!(names(1), FILLER2);
    assert_eq!(game.draw_pile_len(), 104 - 14);
    assert_eq!(game.position().to_move(), 0);
}

#[test]
fn a_card_goes_on_one_of_its_two_cells_and_is_replaced() {
    let mut g = two_player(&["7H"]);
    assert_eq!(
        play(&mut g, 0, "7H", "A2"),
        Err(PlayError::CardDoesNotMatch)
    );
    assert_eq!(play(&mut g, 1, "2H", "E6"), Err(PlayError::NotYourTurn));
    assert_eq!(play(&mut g, 0, "9C", "A5"), Err(PlayError::CardNotInHand));
    assert_eq!(play(&mut g, 0, "7H", "A1"), Err(PlayError::FreeCorner));
    let before = g.position().clone();
    let events = play(&mut g, 0, "7H", "D6").expect("legal");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Placed { team: 0, .. })));
    assert!(events.contains(&Event::Drew { seat: 0 }));
    assert_ne!(&before, g.position());
    assert_eq!(g.hand(0).len(), 7);
    assert_eq!(g.position().owner(cell(&g, "D6")), Some(0));
    assert_eq!(g.position().to_move(), 1);
    // The other 7H cell is I5; D6 is taken now.
    let mut g2 = g.clone();
    g2.put_chip(1, cell(&g, "I5"));
    assert!(g2.position().is_dead(card("7H", Variant::Classic)));
}

#[test]
fn errors_leave_the_game_unchanged() {
    let mut g = two_player(&["7H", "JS", "JC"]);
    put(&mut g, 1, &["D6"]);
    let before = format!("{:?}", g);
    for (c, at) in [
        ("7H", "D6"),
        ("JS", "A1"),
        ("JS", "E5"),
        ("JC", "D6"),
        ("KD", "B2"),
    ] {
        assert!(play(&mut g, 0, c, at).is_err(), "{c} {at}");
    }
    assert_eq!(g.play(0, Move::Pass), Err(PlayError::PassNotAllowed));
    assert_eq!(
        g.play(0, Move::Place { cell: Cell(3) }),
        Err(PlayError::WrongActionForRoll)
    );
    assert_eq!(
        g.play(
            0,
            Move::Play {
                card: card("7H", Variant::Classic),
                cell: Cell(200)
            }
        ),
        Err(PlayError::BadCell)
    );
    assert_eq!(g.play(7, Move::Pass), Err(PlayError::NotYourTurn));
    assert_eq!(before, format!("{:?}", g));
}

#[test]
fn two_eyed_jacks_go_anywhere_empty_but_corners() {
    let mut g = two_player(&["JC", "JD"]);
    put(&mut g, 1, &["E5"]);
    assert_eq!(play(&mut g, 0, "JC", "J10"), Err(PlayError::FreeCorner));
    assert_eq!(play(&mut g, 0, "JD", "E5"), Err(PlayError::CellOccupied));
    assert!(play(&mut g, 0, "JD", "F5").is_ok());
    assert_eq!(g.position().owner(cell(&g, "F5")), Some(0));
}

#[test]
fn one_eyed_jacks_remove_an_opponent_chip_not_in_a_sequence() {
    let mut g = two_player(&["JS", "JH"]);
    put(&mut g, 0, &["B2"]);
    put(&mut g, 1, &["E5"]);
    assert_eq!(play(&mut g, 0, "JS", "C3"), Err(PlayError::NoOpponentChip));
    assert_eq!(play(&mut g, 0, "JS", "B2"), Err(PlayError::NoOpponentChip));
    assert_eq!(play(&mut g, 0, "JS", "A1"), Err(PlayError::FreeCorner));
    let events = play(&mut g, 0, "JH", "E5").expect("legal");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Removed { team: 1, .. })));
    assert_eq!(g.position().owner(cell(&g, "E5")), None);
    let last = g.position().last_action().expect("last action");
    assert!(last.removed);
    // Nothing is placed: the cell stays empty and it is the other player's turn.
    assert_eq!(g.position().occupied().count_ones(), 1);
    assert_eq!(g.position().to_move(), 1);
}

#[test]
fn locked_chips_cannot_be_removed_and_corners_count_for_everyone() {
    // Seat 1 (team 1) completes A1-E1 with 5S at E1: A1 is a free corner.
    let mut g = classic(&[
        &["JS", "2C", "3C", "4C", "5C", "6C", "7C"],
        &["5S", "2H", "3H", "4H", "5H", "6H", "7H"],
    ]);
    put(&mut g, 1, &["B1", "C1", "D1"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    let events = play(&mut g, 1, "5S", "E1").expect("legal");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::SequenceCompleted { team: 1, .. })));
    assert_eq!(
        sequences_of(&g),
        vec![(
            1,
            vec!["A1", "B1", "C1", "D1", "E1"]
                .into_iter()
                .map(String::from)
                .collect()
        )]
    );
    assert_eq!(play(&mut g, 0, "JS", "C1"), Err(PlayError::ChipLocked));
    assert_eq!(
        g.position().locked().count_ones(),
        4,
        "the corner is not a chip"
    );
}

#[test]
fn a_corner_completes_sequences_for_both_teams() {
    let mut g = classic(&[
        &["9C", "2C", "3C", "4C", "5C", "6C", "7C"],
        &["5S", "QC", "3H", "4H", "5H", "6H", "7H"],
    ]);
    put(&mut g, 0, &["A2", "A3", "A4"]);
    put(&mut g, 1, &["B1", "C1", "D1"]);
    let e0 = play(&mut g, 0, "9C", "A5").expect("legal");
    assert!(e0
        .iter()
        .any(|e| matches!(e, Event::SequenceCompleted { team: 0, .. })));
    let e1 = play(&mut g, 1, "5S", "E1").expect("legal");
    assert!(e1
        .iter()
        .any(|e| matches!(e, Event::SequenceCompleted { team: 1, .. })));
    let seqs = sequences_of(&g);
    assert_eq!(seqs.len(), 2);
    assert!(seqs
        .iter()
        .all(|(_, cells)| cells.contains(&"A1".to_string())));
}

#[test]
fn a_run_of_nine_completed_in_the_middle_is_two_sequences_and_wins() {
    // Row 2: A2 6C, B2 5C, C2 4C, D2 3C, E2 2C, F2 AH, G2 KH, H2 QH, I2 TH, J2 TS.
    let mut g = two_player(&["2C"]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2", "F2", "G2", "H2", "I2"]);
    let events = play(&mut g, 0, "2C", "E2").expect("legal");
    let completed = events
        .iter()
        .filter(|e| matches!(e, Event::SequenceCompleted { .. }))
        .count();
    assert_eq!(completed, 2);
    let seqs = sequences_of(&g);
    assert_eq!(seqs[0].1, ["A2", "B2", "C2", "D2", "E2"]);
    assert_eq!(seqs[1].1, ["E2", "F2", "G2", "H2", "I2"]);
    assert!(events.contains(&Event::Won { team: 0 }));
    assert_eq!(g.position().status(), Status::Won(0));
    assert_eq!(play(&mut g, 1, "2H", "E6"), Err(PlayError::GameOver));
}

#[test]
fn runs_of_six_to_eight_are_one_sequence_and_ten_is_two() {
    let mut g = two_player(&["2C"]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2", "F2", "G2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    assert_eq!(
        g.position().sequence_count(0),
        1,
        "a run of 7 is one sequence"
    );
    assert_eq!(g.position().status(), Status::InProgress);

    // A2-E2 is a sequence; with F2-I2 taken, J2 makes the run of 10, which is two sequences, not three.
    let mut g = classic(&[&["2C", "TS", "3S", "4S", "5S", "6S", "7S"], &FILLER2]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    play(&mut g, 1, "2H", "E6").expect("legal");
    put(&mut g, 0, &["F2", "G2", "H2", "I2"]);
    play(&mut g, 0, "TS", "J2").expect("legal");
    let seqs = sequences_of(&g);
    assert_eq!(seqs.len(), 2);
    assert_eq!(seqs[1].1, ["F2", "G2", "H2", "I2", "J2"]);
}

#[test]
fn extending_a_sequence_to_nine_makes_the_second() {
    let mut g = classic(&[&["2C", "TH", "TS", "3S", "4S", "5S", "6S"], &FILLER2]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    assert_eq!(g.position().sequence_count(0), 1);
    play(&mut g, 1, "2H", "E6").expect("legal");
    put(&mut g, 0, &["F2", "G2", "H2"]);
    let events = play(&mut g, 0, "TH", "I2").expect("legal");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::SequenceCompleted { .. })));
    assert_eq!(sequences_of(&g)[1].1, ["E2", "F2", "G2", "H2", "I2"]);
    assert_eq!(g.position().status(), Status::Won(0));
}

#[test]
fn a_sixth_chip_next_to_a_sequence_is_not_a_new_sequence() {
    let mut g = classic(&[&["2C", "AH", "TS", "3S", "4S", "5S", "6S"], &FILLER2]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    play(&mut g, 1, "2H", "E6").expect("legal");
    play(&mut g, 0, "AH", "F2").expect("legal");
    assert_eq!(
        g.position().sequence_count(0),
        1,
        "B2-F2 shares four cells with A2-E2"
    );
}

#[test]
fn one_chip_can_complete_two_directions() {
    // C3 (2D): row A3..E3 and column C1..C5.
    let mut g = two_player(&["2D"]);
    put(&mut g, 0, &["A3", "B3", "D3", "E3", "C1", "C2", "C4", "C5"]);
    let events = play(&mut g, 0, "2D", "C3").expect("legal");
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::SequenceCompleted { .. }))
            .count(),
        2
    );
    assert_eq!(g.position().status(), Status::Won(0));
}

#[test]
fn diagonal_sequences_are_found() {
    // Diagonal B2 C3 D4 E5 F6 and anti-diagonal.
    let mut g = two_player(&["3H"]);
    put(&mut g, 0, &["B2", "C3", "D4", "E5"]);
    play(&mut g, 0, "3H", "F6").expect("legal");
    assert_eq!(
        sequences_of(&g),
        vec![(0, ["B2", "C3", "D4", "E5", "F6"].map(String::from).to_vec())]
    );
    // Anti-diagonal from the A10 corner: B9 C8 D7 E6 (2H).
    let mut g = two_player(&["2H"]);
    put(&mut g, 0, &["B9", "C8", "D7"]);
    play(&mut g, 0, "2H", "E6").expect("legal");
    assert_eq!(
        sequences_of(&g),
        vec![(
            0,
            ["A10", "B9", "C8", "D7", "E6"].map(String::from).to_vec()
        )]
    );
}

#[test]
fn three_teams_need_one_sequence() {
    let hands: [&[&str]; 3] = [
        &["2C", "3S", "4S", "5S", "6S", "7S"],
        &["2H", "3H", "4H", "5H", "6H", "7H"],
        &["2D", "3D", "4D", "5D", "6D", "7D"],
    ];
    let mut g = classic(&hands);
    assert_eq!(g.config().teams, 3);
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    assert_eq!(g.position().status(), Status::Won(0));
}

#[test]
fn sequences_to_win_is_an_option() {
    let opts = Options {
        sequences_to_win: Some(1),
        ..Options::default()
    };
    let mut g = game_with(
        Variant::Classic,
        None,
        opts,
        &[&["2C", "3S", "4S", "5S", "6S", "7S", "8S"], &FILLER2],
        &[],
    );
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    assert_eq!(g.position().status(), Status::Won(0));
}

#[test]
fn team_members_share_chips() {
    // Four players, two teams: seats 0 and 2 are team 0.
    let hands: [&[&str]; 4] = [
        &["2C", "3S", "4S", "5S", "6S", "7S"],
        &["2H", "3H", "4H", "5H", "6H", "7H"],
        &["3C", "3D", "4D", "5D", "6D", "7D"],
        &["8H", "9H", "TH", "QH", "KH", "AH"],
    ];
    let mut g = classic(&hands);
    put(&mut g, 0, &["A2", "B2", "C2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    play(&mut g, 1, "2H", "E6").expect("legal");
    let events = play(&mut g, 2, "3C", "D2").expect("legal");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::SequenceCompleted { team: 0, .. })));
    assert_eq!(g.position().to_move(), 3);
}

#[test]
fn dead_cards_are_exchanged_once_per_turn() {
    let mut g = classic(&[
        &["7H", "8H", "4S", "5S", "6S", "7S", "8S"],
        &FILLER2.map(|c| {
            if c == "7H" {
                "9H"
            } else if c == "8H" {
                "TH"
            } else {
                c
            }
        }),
    ]);
    let seven = card("7H", Variant::Classic);
    assert_eq!(
        g.play(0, Move::Exchange { card: seven }),
        Err(PlayError::NotDead)
    );
    put(&mut g, 1, &["I5", "D6", "I4", "D7"]); // both 7H cells and both 8H cells
    assert!(g.position().is_dead(seven));
    let before_hand = g.hand(0).to_vec();
    let events = g.play(0, Move::Exchange { card: seven }).expect("legal");
    assert_eq!(
        events[0],
        Event::Exchanged {
            seat: 0,
            card: seven
        }
    );
    assert_eq!(g.hand(0).len(), 7);
    assert!(!g.hand(0).contains(&seven));
    assert_ne!(g.hand(0), &before_hand[..]);
    assert_eq!(
        g.position().to_move(),
        0,
        "the turn goes on after an exchange"
    );
    assert_eq!(
        g.play(
            0,
            Move::Exchange {
                card: card("8H", Variant::Classic)
            }
        ),
        Err(PlayError::ExchangeTwice)
    );
    assert_eq!(g.discard_pile(), &[seven]);
    play(&mut g, 0, "4S", "D1").expect("legal");
    assert!(!g.position().has_exchanged());
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert!(
        list.iter().all(|m| !matches!(m, Move::Exchange { .. })),
        "seat 1 has no dead card"
    );
}

#[test]
fn a_jack_is_never_dead() {
    let mut g = two_player(&["JC", "JS"]);
    for i in 0..100u8 {
        if g.position().layout().corners & Cell(i).bit() == 0 {
            g.put_chip(0, Cell(i));
        }
    }
    assert!(!g.position().is_dead(card("JC", Variant::Classic)));
    assert_eq!(
        g.play(
            0,
            Move::Exchange {
                card: card("JC", Variant::Classic)
            }
        ),
        Err(PlayError::NotDead)
    );
}

#[test]
fn pass_only_when_nothing_is_legal_and_a_round_of_passes_is_a_draw() {
    // Ten players hold three cards each; seat 0 holds only one-eyed jacks and there is no chip to take.
    let mut hands: Vec<Vec<&str>> = vec![vec!["JS", "JH", "JS"]];
    let pool = [
        "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC", "KC", "AC", "2D", "3D", "4D",
        "5D", "6D", "7D", "8D", "9D", "TD", "QD", "KD", "AD", "2S", "3S", "4S",
    ];
    for s in 0..9 {
        hands.push(pool[s * 3..s * 3 + 3].to_vec());
    }
    let refs: Vec<&[&str]> = hands.iter().map(Vec::as_slice).collect();
    let mut g = classic(&refs);
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert_eq!(list.as_slice(), &[Move::Pass]);
    let events = g.play(0, Move::Pass).expect("legal");
    assert_eq!(events[0], Event::Passed { seat: 0 });
    assert_eq!(g.position().to_move(), 1);
    assert_eq!(g.play(1, Move::Pass), Err(PlayError::PassNotAllowed));

    // A full board with no jacks in hand: every seat exchanges once, then passes; the game is drawn.
    let mut g = classic(&[&["2S", "3S", "4S", "5S", "6S", "7S", "8S"], &FILLER2]);
    for i in 0..100u8 {
        if g.position().layout().corners & Cell(i).bit() == 0 {
            g.put_chip(u8::from(i % 3 == 0), Cell(i));
        }
    }
    for seat in 0..2 {
        assert_eq!(
            g.play(seat, Move::Pass),
            Err(PlayError::PassNotAllowed),
            "an exchange is still possible"
        );
        let dead = g.hand(seat)[0];
        g.play(seat, Move::Exchange { card: dead })
            .expect("dead card");
        assert!(
            g.hand(seat)
                .iter()
                .all(|&c| c.effect() == CardEffect::Cells),
            "test deck draws no jack"
        );
        let events = g.play(seat, Move::Pass).expect("nothing else is legal");
        if seat == 1 {
            assert!(events.contains(&Event::Drawn));
        }
    }
    assert_eq!(g.position().status(), Status::Drawn);
}

#[test]
fn the_discard_pile_is_reshuffled_when_the_draw_pile_is_empty() {
    let mut g = two_player(&["7H"]);
    g.move_draw_to_discard();
    assert_eq!(g.draw_pile_len(), 0);
    let events = play(&mut g, 0, "7H", "D6").expect("legal");
    assert!(events.contains(&Event::Reshuffled));
    assert_eq!(g.hand(0).len(), 7);
    assert_eq!(g.draw_pile_len() + g.discard_pile().len() + 14, 104);
    assert_eq!(g.all_cards().len(), 104);
}

#[test]
fn equal_turns_makes_a_provisional_win_and_a_second_winner_draws() {
    let opts = Options {
        sequences_to_win: Some(1),
        equal_turns: true,
        ..Options::default()
    };
    let hands: [&[&str]; 2] = [
        &["2C", "3S", "4S", "5S", "6S", "7S", "8S"],
        &["3D", "3H", "4H", "5H", "6H", "7H", "8H"],
    ];
    let mut g = game_with(Variant::Classic, None, opts, &hands, &[]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    put(&mut g, 1, &["D4", "D5", "D6", "D7"]); // D3 is 3D
    let events = play(&mut g, 0, "2C", "E2").expect("legal");
    assert!(events.contains(&Event::ProvisionalWin { team: 0 }));
    assert_eq!(g.position().status(), Status::InProgress);
    let mut other = g.clone();
    let events = play(&mut g, 1, "3D", "D3").expect("legal");
    assert!(events.contains(&Event::Drawn));
    assert_eq!(g.position().status(), Status::Drawn);
    // Without a second winner, the win stands at the end of the round.
    let events = play(&mut other, 1, "3H", "F6").expect("legal");
    assert!(events.contains(&Event::Won { team: 0 }));
    assert_eq!(other.position().status(), Status::Won(0));
}

#[test]
fn equal_turns_win_by_the_last_seat_is_immediate() {
    let opts = Options {
        sequences_to_win: Some(1),
        equal_turns: true,
        ..Options::default()
    };
    let hands: [&[&str]; 2] = [
        &["3S", "4S", "5S", "6S", "7S", "8S", "9S"],
        &["2C", "3H", "4H", "5H", "6H", "7H", "8H"],
    ];
    let mut g = game_with(Variant::Classic, None, opts, &hands, &[]);
    put(&mut g, 1, &["A2", "B2", "C2", "D2"]);
    play(&mut g, 0, "3S", "C1").expect("legal");
    play(&mut g, 1, "2C", "E2").expect("legal");
    assert_eq!(g.position().status(), Status::Won(1));
}

#[test]
fn scoring_lets_jacks_break_sequences_and_ends_on_points() {
    let opts = Options {
        scoring: true,
        ..Options::default()
    };
    let hands: [&[&str]; 2] = [
        &["2C", "3S", "4S", "5S", "6S", "7S", "8S"],
        &["JS", "3H", "4H", "5H", "6H", "7H", "8H"],
    ];
    let mut g = game_with(Variant::Classic, None, opts, &hands, &[]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2", "F2", "G2", "H2", "I2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    assert_eq!(g.position().sequence_count(0), 2);
    assert_eq!(
        g.position().status(),
        Status::InProgress,
        "scoring games do not end on a target"
    );
    let events = play(&mut g, 1, "JS", "B2").expect("locked chips can be taken in scoring games");
    assert!(events.contains(&Event::SequenceBroken { team: 0 }));
    assert_eq!(g.position().scores(), vec![1, 0]);
    assert_eq!(g.position().locked().count_ones(), 5);
    // No reshuffle in scoring games.
    g.move_draw_to_discard();
    play(&mut g, 0, "3S", "C1").expect("legal");
    assert_eq!(g.hand(0).len(), 6);
    assert_eq!(g.draw_pile_len(), 0);
}

#[test]
fn scoring_game_ends_when_nobody_can_move() {
    let opts = Options {
        scoring: true,
        ..Options::default()
    };
    let hands: [&[&str]; 2] = [&["2C", "3S", "4S", "5S", "6S", "7S", "8S"], &FILLER2];
    let mut g = game_with(Variant::Classic, None, opts, &hands, &[]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    for i in 0..100u8 {
        if g.position().layout().corners & Cell(i).bit() == 0
            && g.position().owner(Cell(i)).is_none()
        {
            g.put_chip(1, Cell(i));
        }
    }
    g.move_draw_to_discard();
    // Seat 1: every card dead, nothing to draw: exchange (draws nothing), then pass; seat 0 the same.
    for seat in [1, 0] {
        let dead = g.hand(seat)[0];
        g.play(seat, Move::Exchange { card: dead }).expect("dead");
        g.play(seat, Move::Pass).expect("nothing legal");
    }
    assert_eq!(g.position().status(), Status::Won(0));
}

#[test]
fn capture_pairs_removes_flanked_pairs_and_five_pairs_win() {
    let opts = Options {
        capture_pairs: true,
        ..Options::default()
    };
    // E5 is 5H. Flank five pairs around it: left, right, up, down, and one diagonal.
    let hands: [&[&str]; 2] = [
        &["5H", "3S", "4S", "5S", "6S", "7S", "8S"],
        &FILLER2.map(|c| if c == "5H" { "9H" } else { c }),
    ];
    let mut g = game_with(Variant::Classic, None, opts, &hands, &[]);
    put(
        &mut g,
        1,
        &["D5", "C5", "F5", "G5", "E4", "E3", "E6", "E7", "D4", "C3"],
    );
    put(&mut g, 0, &["B5", "H5", "E2", "E8", "B2"]);
    // A pair of another shape is not captured: one chip only (F6), or three in a row.
    put(&mut g, 1, &["F6"]);
    put(&mut g, 0, &["G7"]);
    let events = play(&mut g, 0, "5H", "E5").expect("legal");
    let captured = events
        .iter()
        .filter(|e| matches!(e, Event::Captured { .. }))
        .count();
    assert_eq!(captured, 5);
    assert_eq!(g.position().captures(0), 5);
    assert_eq!(
        g.position().owner(cell(&g, "F6")),
        Some(1),
        "a single chip is not captured"
    );
    assert_eq!(g.position().owner(cell(&g, "D5")), None);
    assert_eq!(g.position().status(), Status::Won(0));
}

#[test]
fn capture_pairs_is_off_by_default() {
    let mut g = two_player(&["5H"]);
    put(&mut g, 1, &["D5", "C5"]);
    put(&mut g, 0, &["B5"]);
    play(&mut g, 0, "5H", "E5").expect("legal");
    assert_eq!(g.position().owner(cell(&g, "D5")), Some(1));
}

#[test]
fn views_show_only_the_own_hand() {
    let g = two_player(&["7H"]);
    let v0 = g.view(0);
    assert_eq!(v0.hand, g.hand(0));
    assert_eq!(v0.hand_sizes, vec![7, 7]);
    let public = g.public_view();
    assert!(public.hand.is_empty());
    assert_eq!(public.seat, None);
    assert_eq!(
        g.view(9).hand,
        Vec::<Card>::new(),
        "a seat outside the game sees nothing"
    );
    let mut list = MoveList::new();
    g.view(1).legal_moves(&mut list);
    assert!(list.is_empty(), "not seat 1's turn");
    g.view(0).legal_moves(&mut list);
    assert!(list.contains(&Move::Play {
        card: card("7H", Variant::Classic),
        cell: cell(&g, "D6")
    }));
}

/// A three-player classic game from `seed` after `moves` random moves, and the generator that chose them.
fn three_players_after(seed: u64, rng_seed: u64, moves: usize) -> (Game, GameRng) {
    let mut g = Game::new(
        Config::new(Variant::Classic, 3, None, Options::default()).expect("config"),
        seed,
    );
    let mut rng = GameRng::new(rng_seed);
    for _ in 0..moves {
        let mv = g.random_move(&mut rng).expect("in progress");
        let seat = g.position().to_move();
        g.play(seat, mv).expect("legal");
    }
    (g, rng)
}

#[test]
fn a_sampled_game_keeps_the_own_hand_and_everything_public() {
    let (g, mut rng) = three_players_after(5, 9, 20);
    let view = g.view(1);
    let sample = Game::sample_from_view(&view, &mut rng);
    assert_eq!(sample.hand(1), g.hand(1));
    assert_eq!(sample.position(), g.position());
    let mut all = sample.all_cards();
    let mut real = g.all_cards();
    all.sort_unstable();
    real.sort_unstable();
    assert_eq!(all, real, "a sample holds exactly the game's cards");
    assert_eq!(sample.hand(0).len(), g.hand(0).len());
}

#[test]
fn a_deal_from_view_gives_the_other_seats_the_end_of_the_arrangement_in_seat_order() {
    let (g, mut rng) = three_players_after(6, 4, 7);
    let view = g.view(2);
    let mut unseen = Game::unseen_cards(&view);
    let mut expected = g.all_cards();
    for c in g.hand(2).iter().chain(g.discard_pile()) {
        let i = expected
            .iter()
            .position(|x| x == c)
            .expect("a card of the game");
        expected.swap_remove(i);
    }
    expected.sort_unstable();
    unseen.sort_unstable();
    assert_eq!(
        unseen, expected,
        "unseen: everything but the own hand and the discards"
    );
    let n = unseen.len();
    let (s0, s1) = (g.hand(0).len(), g.hand(1).len());
    let deal = Game::deal_from_view(&view, unseen.clone(), &mut rng);
    let mut hand0 = deal.hand(0).to_vec();
    let mut hand1 = deal.hand(1).to_vec();
    hand0.sort_unstable();
    hand1.sort_unstable();
    let mut want0 = unseen[n - s0..].to_vec();
    let mut want1 = unseen[n - s0 - s1..n - s0].to_vec();
    want0.sort_unstable();
    want1.sort_unstable();
    assert_eq!((hand0, hand1), (want0, want1));
    assert_eq!(deal.hand(2), g.hand(2));
    assert_eq!(deal.position(), g.position());
    assert_eq!(deal.draw_pile_len(), n - s0 - s1);
}

#[test]
fn the_position_before_a_move() {
    let mut g = two_player(&["9S", "JS", "6D"]);
    let start = g.position().clone();
    play(&mut g, 0, "9S", "I1").expect("legal");
    let nine = Move::Play {
        card: card("9S", Variant::Classic),
        cell: cell(&g, "I1"),
    };
    let before = g.position().before(0, nine).expect("a placement");
    assert_eq!(before.to_move(), 0);
    assert_eq!(before.occupied(), start.occupied());
    // Seat 0's hand before the move (the played card back) can make that move there.
    let mut hand = g.hand(0).to_vec();
    hand.push(card("9S", Variant::Classic));
    let groups = before.move_groups(&hand);
    assert!(groups.iter().any(
        |gr| gr.kind == GroupKind::Play(card("9S", Variant::Classic))
            && gr.cells & cell(&g, "I1").bit() != 0
    ));
    // A move that does not fit the position.
    let elsewhere = Move::Play {
        card: card("9S", Variant::Classic),
        cell: cell(&g, "B7"),
    };
    assert_eq!(g.position().before(0, elsewhere), None);

    // A removal puts the opponent's chip back (two teams).
    play(&mut g, 1, "2H", "H9").expect("legal");
    play(&mut g, 0, "JS", "H9").expect("legal");
    let jack = Move::Play {
        card: card("JS", Variant::Classic),
        cell: cell(&g, "H9"),
    };
    let before = g.position().before(0, jack).expect("a removal");
    assert_eq!(before.owner(cell(&g, "H9")), Some(1));

    // A placement that completed a sequence: the sequence goes too.
    put(&mut g, 0, &["C3", "D3", "E3", "F3"]);
    play(&mut g, 1, "3H", "I9").expect("legal");
    play(&mut g, 0, "6D", "G3").expect("legal");
    assert_eq!(
        g.position().sequences().len(),
        1,
        "the test makes a sequence"
    );
    let six = Move::Play {
        card: card("6D", Variant::Classic),
        cell: cell(&g, "G3"),
    };
    let before = g.position().before(0, six).expect("a placement");
    assert!(before.sequences().is_empty());
    assert_eq!(before.locked(), 0);
    assert_eq!(before.sequence_count(0), 0);
    assert_eq!(before.owner(cell(&g, "G3")), None);
}

// ---------------------------------------------------------------- dice

fn dice_game(players: u8, rolls: &[[u8; 2]], options: Options) -> Game {
    let config = Config::new(Variant::Dice, players, None, options).expect("config");
    Game::with_deck(config, &[], rolls.to_vec(), 3).expect("rolls")
}

fn place(g: &mut Game, seat: Seat, at: &str) -> Result<Events, PlayError> {
    let c = cell(g, at);
    g.play(seat, Move::Place { cell: c })
}

#[test]
fn dice_place_on_an_empty_cell_of_the_sum() {
    // 7 cells: C2, E3, B4, D5.
    let mut g = dice_game(2, &[[3, 4], [5, 2]], Options::default());
    assert_eq!(g.position().roll(), Some([3, 4]));
    assert_eq!(place(&mut g, 0, "A1"), Err(PlayError::CardDoesNotMatch));
    assert_eq!(
        g.play(0, Move::Remove { cell: Cell(0) }),
        Err(PlayError::WrongActionForRoll)
    );
    assert_eq!(
        g.play(
            0,
            Move::Play {
                card: Card(0),
                cell: Cell(0)
            }
        ),
        Err(PlayError::WrongActionForRoll)
    );
    let events = place(&mut g, 0, "C2").expect("legal");
    assert!(events.contains(&Event::Rolled {
        seat: 1,
        dice: [5, 2]
    }));
    assert_eq!(g.position().to_move(), 1);
    assert_eq!(place(&mut g, 1, "C2"), Err(PlayError::CellOccupied));
}

#[test]
fn dice_replace_an_opponent_when_all_four_are_covered_or_lose_the_turn() {
    let mut g = dice_game(2, &[[3, 4], [3, 4], [3, 4]], Options::default());
    put(&mut g, 0, &["C2", "E3", "B4"]);
    put(&mut g, 1, &["D5"]);
    assert_eq!(place(&mut g, 0, "C2"), Err(PlayError::CellOccupied));
    let events = place(&mut g, 0, "D5").expect("replace");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Placed {
            replaced: Some(1),
            ..
        }
    )));
    // Now all four 7s are team 0's: seat 1 may replace one, then seat 0 has lost its turn.
    place(&mut g, 1, "E3").expect("replace");
    put(&mut g, 0, &["E3"]);
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert_eq!(list.as_slice(), &[Move::Pass]);
    g.play(0, Move::Pass).expect("lost turn");
    assert_eq!(g.position().to_move(), 1);
}

#[test]
fn dice_ten_removes_except_on_two_and_twelve() {
    let mut g = dice_game(2, &[[4, 6], [5, 5], [6, 4]], Options::default());
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert_eq!(
        list.as_slice(),
        &[Move::Pass],
        "no opponent chip: the turn passes"
    );
    g.play(0, Move::Pass).expect("legal");
    put(&mut g, 0, &["A1", "C3", "B2"]); // 2, 12, 6
    assert_eq!(place(&mut g, 1, "B1"), Err(PlayError::WrongActionForRoll));
    assert_eq!(
        g.play(
            1,
            Move::Remove {
                cell: cell(&g, "A1")
            }
        ),
        Err(PlayError::ChipLocked)
    );
    assert_eq!(
        g.play(
            1,
            Move::Remove {
                cell: cell(&g, "C3")
            }
        ),
        Err(PlayError::ChipLocked)
    );
    assert_eq!(
        g.play(
            1,
            Move::Remove {
                cell: cell(&g, "D1")
            }
        ),
        Err(PlayError::NoOpponentChip)
    );
    g.play(
        1,
        Move::Remove {
            cell: cell(&g, "B2"),
        },
    )
    .expect("legal");
    assert_eq!(g.position().owner(cell(&g, "B2")), None);
}

#[test]
fn dice_a_round_of_passes_is_no_draw() {
    let mut g = dice_game(2, &[[4, 6], [5, 5], [3, 4]], Options::default());
    g.play(0, Move::Pass)
        .expect("a 10 on an empty board passes");
    g.play(1, Move::Pass).expect("so does the second");
    assert_eq!(g.position().status(), Status::InProgress);
    assert_eq!(g.position().roll(), Some([3, 4]));
    place(&mut g, 0, "C2").expect("the next roll plays");
}

#[test]
fn dice_eleven_is_free_and_replaces_when_the_board_is_full() {
    let mut g = dice_game(2, &[[5, 6], [6, 5]], Options::default());
    place(&mut g, 0, "C3").expect("any empty cell");
    for i in 0..36u8 {
        if g.position().owner(Cell(i)).is_none() {
            g.put_chip(if i % 2 == 0 { 0 } else { 1 }, Cell(i));
        }
    }
    assert_eq!(
        place(&mut g, 1, "F1"),
        Err(PlayError::CellOccupied),
        "own chip"
    );
    let target = (0..36u8)
        .map(Cell)
        .find(|&c| {
            g.position().owner(c) == Some(0) && g.position().layout().label(c) != Label::Number(12)
        })
        .expect("a chip");
    g.play(1, Move::Place { cell: target })
        .expect("replace on a full board");
}

#[test]
fn dice_two_and_twelve_roll_again() {
    let mut g = dice_game(2, &[[1, 1], [6, 6], [2, 3]], Options::default());
    let events = place(&mut g, 0, "A1").expect("snake eyes");
    assert!(events.contains(&Event::Rolled {
        seat: 0,
        dice: [6, 6]
    }));
    assert_eq!(g.position().to_move(), 0);
    place(&mut g, 0, "C3").expect("double six");
    assert_eq!(g.position().to_move(), 0, "twelve rolls again too");
    assert_eq!(g.position().roll(), Some([2, 3]));
    place(&mut g, 0, "E1").expect("five");
    assert_eq!(g.position().to_move(), 1);
}

#[test]
fn dice_five_in_a_row_wins_and_six_is_an_option() {
    // Row 1: 2 3 4 8 5 2: E1 is 5.
    let mut g = dice_game(2, &[[2, 3]], Options::default());
    put(&mut g, 0, &["A1", "B1", "C1", "D1"]);
    let events = place(&mut g, 0, "E1").expect("legal");
    assert!(events.contains(&Event::Won { team: 0 }));
    let six = Options {
        sequence_length: Some(6),
        ..Options::default()
    };
    let mut g = dice_game(2, &[[2, 3], [1, 1]], six);
    put(&mut g, 0, &["A1", "B1", "C1", "D1"]);
    place(&mut g, 0, "E1").expect("legal");
    assert_eq!(g.position().status(), Status::InProgress);
    put(&mut g, 1, &["A2"]);
    place(&mut g, 1, "F1").expect("snake eyes for seat 1");
    assert_eq!(g.position().to_move(), 1, "rolls again");
}

#[test]
fn dice_has_no_free_corners_and_four_players_are_two_teams() {
    let g = dice_game(4, &[[1, 2]], Options::default());
    assert_eq!(g.position().layout().corners, 0);
    assert_eq!(g.config().teams, 2);
    assert_eq!(g.config().team_of(2), 0);
    assert!(g.hand(0).is_empty());
}

// ---------------------------------------------------------------- kids

fn kids(hands: &[&[&str]]) -> Game {
    game_with(Variant::Kids, None, Options::default(), hands, &[])
}

#[test]
fn kids_four_in_a_row_with_a_corner_wins() {
    // Row 1: corner, lion, zebra, giraffe.
    let mut g = kids(&[&["giraffe", "owl", "frog"], &["fox", "bear", "whale"]]);
    assert_eq!(g.hand(0).len(), 3);
    put(&mut g, 0, &["B1", "C1"]);
    let events = play(&mut g, 0, "giraffe", "D1").expect("legal");
    assert!(events.contains(&Event::Won { team: 0 }));
    assert_eq!(sequences_of(&g)[0].1, ["A1", "B1", "C1", "D1"]);
}

#[test]
fn kids_unicorn_is_wild_and_dragon_removes() {
    let mut g = kids(&[&["unicorn", "dragon", "frog"], &["fox", "bear", "whale"]]);
    assert_eq!(play(&mut g, 0, "unicorn", "A1"), Err(PlayError::FreeCorner));
    put(&mut g, 1, &["D3"]);
    assert_eq!(
        play(&mut g, 0, "unicorn", "D3"),
        Err(PlayError::CellOccupied)
    );
    assert_eq!(
        play(&mut g, 0, "dragon", "D4"),
        Err(PlayError::NoOpponentChip)
    );
    play(&mut g, 0, "dragon", "D3").expect("legal");
    assert_eq!(g.position().owner(cell(&g, "D3")), None);
    play(&mut g, 1, "fox", "G2").expect("legal");
    play(&mut g, 0, "unicorn", "D3").expect("legal");
    assert_eq!(g.hand(0).len(), 3, "hands are refilled to three");
    assert!(g.hand(0).contains(&card("frog", Variant::Kids)));
    assert!(
        !g.hand(0).contains(&UNICORN) || g.hand(0).iter().filter(|&&c| c == UNICORN).count() == 1
    );
    assert_ne!(DRAGON, UNICORN);
}

#[test]
fn kids_dead_cards_are_exchanged() {
    let mut g = kids(&[&["lion", "owl", "frog"], &["fox", "bear", "whale"]]);
    put(&mut g, 1, &["B1", "F6"]);
    g.play(
        0,
        Move::Exchange {
            card: card("lion", Variant::Kids),
        },
    )
    .expect("dead");
    assert_eq!(g.hand(0).len(), 3);
    assert_eq!(
        g.play(
            0,
            Move::Exchange {
                card: card("owl", Variant::Kids)
            }
        ),
        Err(PlayError::ExchangeTwice)
    );
}

#[test]
fn kids_four_players_alone_or_in_two_teams() {
    let hands: [&[&str]; 4] = [
        &["lion", "owl", "frog"],
        &["fox", "bear", "whale"],
        &["zebra", "hippo", "panda"],
        &["turtle", "rabbit", "penguin"],
    ];
    let g = kids(&hands);
    assert_eq!(g.config().teams, 4);
    let g = game_with(Variant::Kids, Some(2), Options::default(), &hands, &[]);
    assert_eq!(g.config().team_of(3), 1);
}

// ---------------------------------------------------------------- random games

#[test]
fn random_games_finish_conserve_cards_and_replay_identically() {
    for variant in Variant::ALL {
        for players in [2u8, 3, 4] {
            for seed in 0..20u64 {
                let config =
                    Config::new(variant, players, None, Options::default()).expect("config");
                let record = Record::random_game(config, seed);
                let game = record.replay().expect("well formed").expect("legal");
                assert!(game.position().is_over(), "{variant} {players} {seed}");
                if variant.has_cards() {
                    assert_eq!(game.all_cards().len(), card::full_deck(variant).len());
                }
                let again = record.replay().expect("well formed").expect("legal");
                assert_eq!(again.position(), game.position());
                let json = serde_json::to_string(&record).expect("json");
                let parsed = Record::from_json(&json).expect("parse");
                assert_eq!(parsed, record);
            }
        }
    }
}

#[test]
fn a_random_move_is_the_legal_move_drawn_from_the_same_generator() {
    // `random_move` counts moves without listing them; it must draw exactly what a uniform draw from
    // the listed legal moves would, so self-play, rollouts and `replay --seed` agree with the list.
    let scoring = Options {
        scoring: true,
        ..Options::default()
    };
    let capture = Options {
        capture_pairs: true,
        ..Options::default()
    };
    let setups = [
        (Variant::Classic, 2, Options::default()),
        (Variant::Classic, 3, Options::default()),
        (Variant::Classic, 2, scoring),
        (Variant::Classic, 2, capture),
        (Variant::Kids, 2, Options::default()),
        (Variant::Dice, 2, Options::default()),
    ];
    let mut list = MoveList::new();
    let mut checked = [0u32; 4];
    for (variant, players, options) in setups {
        let config = Config::new(variant, players, None, options).expect("config");
        for seed in 0..40 {
            let mut g = Game::new(config, seed);
            let mut rng = GameRng::new(seed + 1000);
            loop {
                let seat = g.position().to_move();
                let mut expected_rng = rng.clone();
                g.position().legal_moves(g.hand(seat), &mut list);
                let Some(mv) = g.random_move(&mut rng) else {
                    assert!(g.position().is_over());
                    break;
                };
                // A forced pass draws nothing.
                let expected = if list[..] == [Move::Pass] {
                    Move::Pass
                } else {
                    list[expected_rng.below(list.len() as u32) as usize]
                };
                assert_eq!(mv, expected, "{variant} seed {seed}");
                assert_eq!(rng, expected_rng, "one draw from the generator, or none");
                checked[match mv {
                    Move::Exchange { .. } => 0,
                    Move::Play { card, .. } if card.effect() != CardEffect::Cells => 1,
                    Move::Pass => 2,
                    _ => 3,
                }] += 1;
                g.play(seat, mv).expect("legal");
            }
        }
    }
    assert!(
        checked.iter().all(|&n| n > 0),
        "exchanges, jacks, passes and plain moves all drawn: {checked:?}"
    );
}

/// A two-player dice game rolling on demand, with the given seed.
fn dice_on_demand(seed: u64) -> Game {
    let config = Config::new(Variant::Dice, 2, None, Options::default()).expect("config");
    Game::new_rolling(config, seed, RollMode::OnDemand)
}

#[test]
fn on_demand_dice_have_no_roll_until_the_player_rolls() {
    let mut game = dice_on_demand(3);
    assert!(game.needs_roll());
    assert_eq!(game.position().roll(), None);
    assert!(game.rolls_so_far().is_empty());
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty(), "moves before the roll: {moves:?}");
    // Nothing may be played before the roll, passing included; nothing changes.
    let before = game.position().clone();
    assert_eq!(game.play(0, Move::Pass), Err(PlayError::WrongActionForRoll));
    assert_eq!(game.random_move(&mut GameRng::new(1)), None);
    assert_eq!(game.position(), &before);
    // A die outside 1..6 is refused and changes nothing.
    assert_eq!(game.roll_with([0, 3]), Err(PlayError::WrongActionForRoll));
    assert_eq!(game.roll_with([3, 7]), Err(PlayError::WrongActionForRoll));
    assert!(game.needs_roll());
    assert_eq!(game.roll_with([3, 4]), Ok([3, 4]));
    assert_eq!(game.position().roll(), Some([3, 4]));
    assert_eq!(game.rolls_so_far(), &[[3, 4]]);
    // Rolled once: a second roll this turn is refused.
    assert_eq!(game.roll_with([5, 5]), Err(PlayError::WrongActionForRoll));
    assert_eq!(game.roll(), Err(PlayError::WrongActionForRoll));
    let mv = game.random_move(&mut GameRng::new(1)).expect("a move");
    game.play(0, mv).expect("legal");
    // The next turn starts unrolled.
    assert!(game.needs_roll());
    assert_eq!(game.position().roll(), None);
}

#[test]
fn on_demand_records_replay_to_the_same_game_with_a_pending_roll() {
    let mut game = dice_on_demand(11);
    let mut record = Record::start_of(&game);
    let layout = game.position().layout();
    let mut rng = GameRng::new(5);
    for _ in 0..30 {
        if game.position().is_over() {
            break;
        }
        let dice = [rng.die(), rng.die()];
        game.roll_with(dice).expect("roll");
        record.push_roll(dice);
        // Every few turns, stop after the roll: the replay must show the roll made but unused.
        let replayed = record
            .replay_rolling(RollMode::OnDemand)
            .expect("well formed")
            .expect("legal");
        assert_eq!(replayed.position(), game.position());
        let seat = game.position().to_move();
        let mv = game.random_move(&mut rng).expect("a move");
        let events = game.play(seat, mv).expect("legal");
        record.push(seat, mv, layout, &events);
        let replayed = record
            .replay_rolling(RollMode::OnDemand)
            .expect("well formed")
            .expect("legal");
        assert_eq!(replayed.position(), game.position());
        assert!(replayed.position().is_over() || replayed.needs_roll());
    }
    // The same record replayed the usual way (a roll at each turn's start) reaches the same board.
    let eager = record.replay().expect("well formed").expect("legal");
    assert_eq!(eager.position().occupied(), game.position().occupied());
}

#[test]
fn a_record_saved_with_the_turns_roll_made_replays_on_demand_with_it() {
    // Games saved before rolls were made on demand listed the roll of the player to move.
    let config = Config::new(Variant::Dice, 2, None, Options::default()).expect("config");
    let eager = Game::new(config, 21);
    let record = Record::start_of(&eager);
    assert_eq!(record.rolls.as_ref().map(Vec::len), Some(1));
    let game = record
        .replay_rolling(RollMode::OnDemand)
        .expect("well formed")
        .expect("legal");
    assert_eq!(game.position().roll(), eager.position().roll());
    assert!(!game.needs_roll());
}

#[test]
fn an_impossible_roll_in_a_record_is_named_as_a_roll_not_a_deck() {
    let config = Config::new(Variant::Dice, 2, None, Options::default()).expect("config");
    let refused = Game::with_deck(config, &[], vec![[3, 7]], 3).map(|_| ());
    assert_eq!(refused, Err(SetupError::Roll(7)));
    let text = SetupError::Roll(7).to_string();
    assert!(!text.contains("deck"), "{text}");
}

// King of the Board.

fn kotb_options(points_to_win: Option<u8>, equal_turns: bool) -> Options {
    Options {
        king_of_the_board: true,
        points_to_win,
        equal_turns,
        ..Options::default()
    }
}

/// A two-player King of the Board game with the given hands and zone centres (the deal's first).
fn kotb_game(options: Options, hands: &[&[&str]], zones: &[&str]) -> Game {
    let config = Config::new(Variant::Classic, hands.len() as u8, None, options).expect("config");
    let deck = deck_dealing(Variant::Classic, hands, &[]);
    let layout = Layout::standard(Variant::Classic);
    let zones = zones
        .iter()
        .map(|z| layout.parse_cell(z).expect("test zone"))
        .collect();
    Game::with_deck_zones(config, &deck, Vec::new(), zones, 1, RollMode::AtTurnStart)
        .expect("test game")
}

fn scored(events: &Events) -> Vec<(Team, u8, bool)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Scored {
                team,
                points,
                in_zone,
                ..
            } => Some((team, points, in_zone)),
            _ => None,
        })
        .collect()
}

fn zone_name(game: &Game) -> String {
    let pos = game.position();
    pos.layout().cell_name(pos.zone().expect("a zone"))
}

#[test]
fn kotb_a_sequence_outside_the_zone_scores_one_and_the_zone_moves() {
    let hands: [&[&str]; 2] = [&["2C", "3S", "4S", "5S", "6S", "7S", "8S"], &FILLER2];
    let mut g = kotb_game(kotb_options(None, false), &hands, &["F6", "C8"]);
    assert_eq!(zone_name(&g), "F6");
    assert_eq!(g.position().points_per_team(), [0, 0]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    let events = play(&mut g, 0, "2C", "E2").expect("legal");
    assert_eq!(scored(&events), [(0, 1, false)]);
    assert_eq!(g.position().points(0), 1);
    let f6 = cell(&g, "F6");
    let c8 = cell(&g, "C8");
    assert!(events.contains(&Event::ZoneMoved { from: f6, to: c8 }));
    assert_eq!(zone_name(&g), "C8");
    assert_eq!(g.zones_so_far(), [f6, c8]);
    assert_eq!(g.position().status(), Status::InProgress);
}

#[test]
fn kotb_a_sequence_touching_or_inside_the_zone_scores_two() {
    // Column E: E1 5S, E2 2C, E3 4D, E4 4C, E5 5H; the zone F6 is E5–G7: only E5 touches it.
    let hands: [&[&str]; 2] = [&["5H", "3S", "4S", "6S", "7S", "8S", "9S"], &FILLER2];
    let mut g = kotb_game(kotb_options(None, false), &hands, &["F6", "H3"]);
    put(&mut g, 0, &["E1", "E2", "E3", "E4"]);
    let events = play(&mut g, 0, "5H", "E5").expect("legal");
    assert_eq!(scored(&events), [(0, 2, true)]);
    assert_eq!(g.position().points_per_team(), [2, 0]);
    assert_eq!(zone_name(&g), "H3");
    // Inside: row 6 E6–I6 with the zone H6 (G5–I7) holding three of its cells.
    let hands: [&[&str]; 2] = [&["2H", "3S", "4S", "5S", "6S", "7S", "8S"], &FILLER];
    let mut g = kotb_game(kotb_options(None, false), &hands, &["H6"]);
    put(&mut g, 0, &["F6", "G6", "H6", "I6"]);
    let events = play(&mut g, 0, "2H", "E6").expect("legal");
    assert_eq!(scored(&events), [(0, 2, true)]);
    // The zone moved to a centre drawn from the seed, never the same one.
    assert_ne!(zone_name(&g), "H6");
}

#[test]
fn kotb_two_sequences_in_one_placement_each_score_and_three_points_win() {
    // E2 completes row A2–E2 (outside the zone F6) and column E2–E6 (E5, E6 inside): 1 + 2 = 3.
    let hands: [&[&str]; 2] = [&["2C", "3S", "4S", "5S", "6S", "7S", "8S"], &FILLER2];
    let mut g = kotb_game(kotb_options(None, false), &hands, &["F6"]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2", "E3", "E4", "E5", "E6"]);
    let events = play(&mut g, 0, "2C", "E2").expect("legal");
    let mut got = scored(&events);
    got.sort();
    assert_eq!(got, [(0, 1, false), (0, 2, true)]);
    assert_eq!(g.position().points(0), 3);
    assert_eq!(g.position().status(), Status::Won(0));
    assert!(events.contains(&Event::Won { team: 0 }));
    // A winning placement does not move the zone.
    assert!(!events.iter().any(|e| matches!(e, Event::ZoneMoved { .. })));
    assert_eq!(zone_name(&g), "F6");
    // Two sequences do not win on their own: the target is points.
    assert_eq!(g.position().sequence_count(0), 2);
}

#[test]
fn kotb_points_to_win_is_the_target() {
    let hands: [&[&str]; 2] = [&["2C", "3S", "4S", "5S", "6S", "7S", "8S"], &FILLER2];
    let mut g = kotb_game(kotb_options(Some(4), false), &hands, &["F6", "C3"]);
    assert_eq!(g.position().target(), 4);
    put(&mut g, 0, &["A2", "B2", "C2", "D2", "E3", "E4", "E5", "E6"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    assert_eq!(g.position().points(0), 3);
    assert_eq!(g.position().status(), Status::InProgress);
    assert_eq!(zone_name(&g), "C3");
}

#[test]
fn kotb_equal_turns_makes_a_provisional_win_and_a_second_winner_draws() {
    let hands: [&[&str]; 2] = [
        &["2C", "3S", "4S", "5S", "6S", "7S", "8S"],
        &["3D", "3H", "4H", "5H", "6H", "7H", "8H"],
    ];
    let mut g = kotb_game(kotb_options(Some(2), true), &hands, &["C3", "F6"]);
    // Seat 0: row A2–E2 touches the zone C3 (B2–D4): 2 points, the target.
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    // Seat 1: D3 completes column D3–D7 and row D3–H3, both outside the zone F6 (E5–G7): 1 + 1.
    put(&mut g, 1, &["D4", "D5", "D6", "D7", "E3", "F3", "G3", "H3"]);
    let events = play(&mut g, 0, "2C", "E2").expect("legal");
    assert_eq!(scored(&events), [(0, 2, true)]);
    assert!(events.contains(&Event::ProvisionalWin { team: 0 }));
    assert_eq!(g.position().status(), Status::InProgress);
    // The game goes on, so the zone moved.
    assert_eq!(zone_name(&g), "F6");
    let mut other = g.clone();
    let events = play(&mut g, 1, "3D", "D3").expect("legal");
    assert_eq!(scored(&events), [(1, 1, false), (1, 1, false)]);
    assert_eq!(g.position().points(1), 2);
    assert!(events.contains(&Event::Drawn), "{events:?}");
    assert_eq!(g.position().status(), Status::Drawn);
    let events = play(&mut other, 1, "3H", "F6").expect("legal");
    assert!(events.contains(&Event::Won { team: 0 }));
}

#[test]
fn kotb_locked_chips_stay_and_a_scoring_placement_has_no_position_before() {
    let hands: [&[&str]; 2] = [
        &["2C", "3S", "4S", "5S", "6S", "7S", "8S"],
        &["JS", "2H", "3H", "4H", "5H", "6H", "7H"],
    ];
    let mut g = kotb_game(kotb_options(Some(5), false), &hands, &["F6"]);
    put(&mut g, 0, &["A2", "B2", "C2", "D2"]);
    play(&mut g, 0, "2C", "E2").expect("legal");
    let e2 = cell(&g, "E2");
    let mv = Move::Play {
        card: card("2C", Variant::Classic),
        cell: e2,
    };
    assert!(g.position().before(0, mv).is_none());
    assert_eq!(play(&mut g, 1, "JS", "C2"), Err(PlayError::ChipLocked));
    // A placement that scored nothing has a position before it, with the same points and zone.
    let events = play(&mut g, 1, "2H", "H9").expect("legal");
    assert!(scored(&events).is_empty());
    let h9 = cell(&g, "H9");
    let mv = Move::Play {
        card: card("2H", Variant::Classic),
        cell: h9,
    };
    let before = g.position().before(1, mv).expect("a position before");
    assert_eq!(before.points_per_team(), g.position().points_per_team());
    assert_eq!(before.zone(), g.position().zone());
}

#[test]
fn kotb_bad_zones_are_refused() {
    let config = Config::new(Variant::Classic, 2, None, kotb_options(None, false)).expect("config");
    let deck = Game::new(config, 1).initial_deck();
    let layout = Layout::standard(Variant::Classic);
    let zones = |names: &[&str]| -> Vec<Cell> {
        names
            .iter()
            .map(|n| layout.parse_cell(n).expect("cell"))
            .collect()
    };
    let build = |z: Vec<Cell>, config: Config| {
        Game::with_deck_zones(config, &deck, Vec::new(), z, 1, RollMode::AtTurnStart)
    };
    let err = build(zones(&["E5"]), config).unwrap_err().to_string();
    assert_eq!(
        err,
        "the zones are wrong: E5 is not one of the nine centres C3 F3 H3 C6 F6 H6 C8 F8 H8"
    );
    let err = build(zones(&["F6", "C3", "C3"]), config)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "the zones are wrong: the zone cannot move from C3 to C3: it always moves to another centre"
    );
    let plain = Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
    let err = build(zones(&["F6"]), plain).unwrap_err().to_string();
    assert_eq!(
        err,
        "the zones are wrong: only king_of_the_board games have zones"
    );
    assert!(build(zones(&["F6", "C3", "F6"]), config).is_ok());
    // Other games have no zone and no points.
    let g = Game::new(plain, 1);
    assert_eq!(g.position().zone(), None);
    assert_eq!(g.position().zone_cells(), 0);
    assert!(g.zones_so_far().is_empty());
}

#[test]
fn kotb_random_games_move_the_zone_to_another_centre_and_points_only_grow() {
    let mut deals = [0u32; 9];
    let mut moves = 0;
    for (seed, (players, teams)) in (0..60).zip([(2, 2), (4, 2), (3, 3), (6, 3)].iter().cycle()) {
        let config = Config::new(
            Variant::Classic,
            *players,
            Some(*teams),
            kotb_options(None, false),
        )
        .expect("config");
        let mut g = Game::new(config, seed);
        let first = g.position().zone().expect("a zone at the deal");
        let index = ZONE_CENTRES
            .iter()
            .position(|&c| c == first)
            .expect("a centre");
        deals[index] += 1;
        let mut rng = GameRng::new(seed);
        let mut events = Events::new();
        let mut points = g.position().points_per_team();
        while g.play_random(&mut rng, &mut events).is_some() {
            for e in &events {
                if let Event::ZoneMoved { from, to } = *e {
                    assert_ne!(from, to);
                    assert!(is_zone_centre(to));
                    moves += 1;
                }
            }
            let now = g.position().points_per_team();
            assert!(now.iter().zip(&points).all(|(a, b)| a >= b));
            points = now;
        }
        let zones = g.zones_so_far();
        assert!(zones.windows(2).all(|p| p[0] != p[1]));
        // A win reaches the target, or (a blocked board) leads on points alone.
        if let Status::Won(team) = g.position().status() {
            let all = g.position().points_per_team();
            let leads =
                (0..all.len()).all(|t| t == usize::from(team) || all[t] < all[usize::from(team)]);
            assert!(g.position().points(team) >= 3 || leads, "{all:?}");
        }
    }
    assert!(moves > 20, "the zone moved only {moves} times");
    assert!(deals.iter().filter(|&&n| n > 0).count() >= 7, "{deals:?}");
}

/// RECORD.md `zones`: a centre in lower case, or more zones than the game's scoring placements moved
/// (or fewer), is malformed; exactly the zones used replays, and so does any earlier position.
#[test]
fn a_record_lists_exactly_the_zones_its_game_used_in_upper_case() {
    let text = include_str!("../../tests/golden/kotb_sequence_outside_zone.json");
    let good = Record::from_json(text).expect("parses");
    assert!(good.replay().expect("well formed").is_ok());
    let zone_error = |record: &Record| match record.replay() {
        Err(RecordError::Setup(SetupError::Zone(reason))) => reason,
        other => panic!("{other:?}"),
    };
    let mut more = good.clone();
    more.zones = Some(vec!["H8".into(), "C3".into(), "F6".into()]);
    assert!(zone_error(&more).starts_with("3 zones are listed, but the game has 2"));
    let mut fewer = good.clone();
    fewer.zones = Some(vec!["H8".into()]);
    assert!(zone_error(&fewer).starts_with("1 zone is listed, but the game has 2"));
    for bad in [["h8", "C3"], ["H8", "c3"], ["H8 ", "C3"]] {
        let mut lower = good.clone();
        lower.zones = Some(bad.iter().map(|z| z.to_string()).collect());
        let reason = zone_error(&lower);
        assert!(
            reason.contains("is not written as records write a centre"),
            "{reason}"
        );
    }
    // An earlier position of a good record: the zones after it are not "too many"; of a bad record, the
    // whole record is refused.
    let before_the_score = good.replay_first(8).expect("well formed").expect("legal");
    assert_eq!(before_the_score.zones_so_far().len(), 1);
    assert!(matches!(more.replay_first(3), Err(RecordError::Setup(_))));
}
