//! Tests of the computer players: legal moves only, no hidden information, strength.

use super::arena::{run, Arena};
use super::*;
use crate::engine::{Card, Config, Game, Options, Seat, Team, Variant};

fn config(variant: Variant, players: u8, options: Options) -> Config {
    Config::new(variant, players, None, options).unwrap()
}

#[test]
fn levels_parse_and_print() {
    for level in Level::ALL {
        assert_eq!(level.to_string().parse::<Level>().unwrap(), level);
        let json = serde_json::to_string(&level).unwrap();
        assert_eq!(json, format!("\"{level}\""));
        assert_eq!(serde_json::from_str::<Level>(&json).unwrap(), level);
    }
    assert_eq!(" Hard ".parse::<Level>().unwrap(), Level::Hard);
    assert!("impossible".parse::<Level>().is_err());
    assert_eq!(Budget::default().time, std::time::Duration::from_secs(1));
}

/// Plays a game with the levels taking turns by seat; every returned move must pass the engine's check.
fn play_checked(config: Config, seed: u64, iterations: u32) -> u32 {
    let mut game = Game::new(config, seed);
    let budget = Budget::iterations(iterations);
    let mut moves = 0;
    while !game.position().is_over() {
        assert!(
            moves < 3000,
            "{config:?} seed {seed}: the game does not end"
        );
        let seat = game.position().to_move();
        let level = Level::ALL[usize::from(seat) % 3];
        let mv = choose_move(&game.view(seat), level, &budget, seed ^ u64::from(moves));
        if let Err(e) = game.check(seat, mv) {
            panic!("{config:?} seed {seed}: {level} chose illegal {mv:?}: {e}");
        }
        game.play(seat, mv).unwrap();
        moves += 1;
    }
    moves
}

#[test]
fn every_level_plays_only_legal_moves_in_every_game() {
    let mut seeds = 0..;
    for variant in Variant::ALL {
        for players in [2, 3, 4] {
            for _ in 0..3 {
                let seed = seeds.next().unwrap();
                let moves = play_checked(config(variant, players, Options::default()), seed, 40);
                assert!(moves > 0);
            }
        }
    }
}

#[test]
fn every_level_plays_only_legal_moves_with_house_rules() {
    let cases = [
        (
            Variant::Classic,
            2,
            Options {
                scoring: true,
                ..Options::default()
            },
        ),
        (
            Variant::Classic,
            2,
            Options {
                capture_pairs: true,
                ..Options::default()
            },
        ),
        (
            Variant::Classic,
            4,
            Options {
                equal_turns: true,
                ..Options::default()
            },
        ),
        (Variant::Classic, 6, Options::default()),
        (Variant::Classic, 12, Options::default()),
        (
            Variant::Dice,
            2,
            Options {
                sequence_length: Some(6),
                ..Options::default()
            },
        ),
        (Variant::Kids, 4, Options::default()),
    ];
    for (i, (variant, players, options)) in cases.into_iter().enumerate() {
        play_checked(config(variant, players, options), 100 + i as u64, 25);
    }
}

#[test]
fn nothing_to_do_out_of_turn() {
    let game = Game::new(config(Variant::Classic, 2, Options::default()), 5);
    for level in Level::ALL {
        assert_eq!(
            choose_move(&game.view(1), level, &Budget::iterations(10), 1),
            Move::Pass
        );
        assert_eq!(
            choose_move(&game.public_view(), level, &Budget::iterations(10), 1),
            Move::Pass
        );
    }
}

/// Asserts that every level picks the same move from two games that differ only in what `seat` cannot see.
/// The same with the game's public actions known (`history`).
fn assert_same_moves(a: &Game, b: &Game, seat: Seat, history: &[(Seat, Move)]) {
    assert_eq!(a.view(seat), b.view(seat), "the seat must see the same");
    for level in Level::ALL {
        for seed in 0..4 {
            let budget = Budget::iterations(150);
            assert_eq!(
                choose_move_after(&a.view(seat), history, level, &budget, seed),
                choose_move_after(&b.view(seat), history, level, &budget, seed),
                "{level} seed {seed}"
            );
        }
    }
}

#[test]
fn hidden_cards_never_change_the_move() {
    // The API takes only a `View`, so an AI cannot read other hands; this checks it end to end: two deals
    // that give seat 0 the same cards but the opponent and the draw pile different ones.
    let config = config(Variant::Classic, 2, Options::default());
    let deck = Game::new(config, 11).initial_deck();
    // Seat 0 gets the even places of the first 14 cards; scramble every other place.
    let others: Vec<usize> = (0..deck.len()).filter(|&i| i >= 14 || i % 2 == 1).collect();
    let mut other = deck.clone();
    for (k, &i) in others.iter().enumerate() {
        other[i] = deck[others[(k + 17) % others.len()]];
    }
    let a = Game::with_deck(config, &deck, Vec::new(), 1).unwrap();
    let b = Game::with_deck(config, &other, Vec::new(), 1).unwrap();
    assert_ne!(a.hand(1), b.hand(1));
    assert_same_moves(&a, &b, 0, &[]);
}

#[test]
fn hidden_cards_and_dice_never_change_the_move_mid_game() {
    for variant in Variant::ALL {
        let mut game = Game::new(config(variant, 3, Options::default()), 21);
        let mut history = Vec::new();
        for i in 0..12 {
            if game.position().is_over() {
                break;
            }
            let seat = game.position().to_move();
            let mv = choose_move(&game.view(seat), Level::Medium, &Budget::DEFAULT, i);
            game.play(seat, mv).unwrap();
            history.push((seat, mv));
        }
        if game.position().is_over() {
            continue;
        }
        let seat = game.position().to_move();
        // Another game the seat cannot tell apart: other hands, draw pile and future dice re-dealt.
        let mut rng = GameRng::new(99);
        let guess = Game::sample_from_view(&game.view(seat), &mut rng);
        if variant.has_cards() {
            let other = (seat + 1) % 3;
            assert_ne!(game.hand(other), guess.hand(other), "{variant}");
        }
        assert_same_moves(&game, &guess, seat, &[]);
        assert_same_moves(&game, &guess, seat, &history);
    }
}

#[test]
fn hard_is_deterministic_for_a_seed_and_an_iteration_limit() {
    let mut game = Game::new(config(Variant::Classic, 2, Options::default()), 8);
    for i in 0..10 {
        let seat = game.position().to_move();
        let mv = choose_move(&game.view(seat), Level::Medium, &Budget::DEFAULT, i);
        game.play(seat, mv).unwrap();
    }
    let view = game.view(game.position().to_move());
    let budget = Budget::iterations(300);
    let first = choose_move(&view, Level::Hard, &budget, 42);
    for _ in 0..3 {
        assert_eq!(choose_move(&view, Level::Hard, &budget, 42), first);
    }
}

/// A classic two-player position `plies` medium moves in, seen by the seat to move.
fn medium_position(seed: u64, plies: u64) -> View {
    let mut game = Game::new(config(Variant::Classic, 2, Options::default()), seed);
    for i in 0..plies {
        if game.position().is_over() {
            break;
        }
        let seat = game.position().to_move();
        let mv = choose_move(&game.view(seat), Level::Medium, &Budget::DEFAULT, i);
        game.play(seat, mv).unwrap();
    }
    game.view(game.position().to_move())
}

#[test]
fn the_default_budget_is_an_iteration_budget_with_an_early_stop_and_a_time_cap() {
    let budget = Budget::default();
    assert_eq!(budget.max_iterations, Some(HARD_ITERATIONS));
    assert!(budget.early_stop);
    assert_eq!(budget.time, std::time::Duration::from_secs(1));
    assert_eq!(
        Budget::capped(std::time::Duration::from_millis(300))
            .time
            .as_millis(),
        300
    );
    assert!(!Budget::time(std::time::Duration::from_secs(1)).early_stop);
    assert_eq!(
        Budget::time(std::time::Duration::from_secs(1)).max_iterations,
        None
    );
}

#[test]
fn medium_beats_easy() {
    let arena = Arena {
        a: Level::Medium.into(),
        b: Level::Easy.into(),
        games: 40,
        seed: 1,
        paired: false,
        config: config(Variant::Classic, 2, Options::default()),
        budget: Budget::iterations(1),
        budget_b: Budget::iterations(1),
        threads: 2,
        zone_a: true,
        zone_b: true,
    };
    let report = run(&arena, &|_| {});
    assert!(report.a_wins() >= 32, "{report}");
}

#[test]
fn medium_beats_easy_at_dice_and_kids() {
    for variant in [Variant::Dice, Variant::Kids] {
        let arena = Arena {
            a: Level::Medium.into(),
            b: Level::Easy.into(),
            games: 30,
            seed: 1,
            paired: false,
            config: config(variant, 2, Options::default()),
            budget: Budget::iterations(1),
            budget_b: Budget::iterations(1),
            threads: 2,
            zone_a: true,
            zone_b: true,
        };
        let report = run(&arena, &|_| {});
        assert!(report.a_wins() > report.b_wins() * 2, "{report}");
    }
}

/// A kids game whose deck starts with `front` (dealt alternately, then drawn), after `plays`.
fn kids_game(front: &[&str], plays: &[(Seat, &str, &str)]) -> Game {
    let config = config(Variant::Kids, 2, Options::default());
    let card = |name: &str| Card::parse(name, Variant::Kids).unwrap();
    let layout = crate::engine::Layout::standard(Variant::Kids);
    let mut rest = crate::engine::card::full_deck(Variant::Kids);
    let mut deck = Vec::new();
    for name in front {
        let i = rest.iter().position(|&x| x == card(name)).unwrap();
        deck.push(rest.remove(i));
    }
    deck.extend(rest);
    let mut game = Game::with_deck(config, &deck, Vec::new(), 3).unwrap();
    for &(seat, name, at) in plays {
        let cell = layout.parse_cell(at).unwrap();
        game.play(
            seat,
            Move::Play {
                card: card(name),
                cell,
            },
        )
        .unwrap();
    }
    game
}

fn kids_play(name: &str, at: &str) -> Move {
    let layout = crate::engine::Layout::standard(Variant::Kids);
    Move::Play {
        card: Card::parse(name, Variant::Kids).unwrap(),
        cell: layout.parse_cell(at).unwrap(),
    }
}

#[test]
fn medium_and_hard_win_when_they_can() {
    // Kids board: row 1 is `-- lion zebra giraffe`, row 2 `panda frog owl turtle rabbit`; lines of 4.
    // Seat 1 has the corner A1, B1 and C1 and holds the giraffe for D1: that wins at once, although
    // seat 0 threatens A2 and E2.
    let game = kids_game(
        &[
            "frog", "lion", "owl", "zebra", "turtle", "giraffe", "panda", "monkey", "rabbit",
            "bear",
        ],
        &[
            (0, "frog", "B2"),
            (1, "lion", "B1"),
            (0, "owl", "C2"),
            (1, "zebra", "C1"),
            (0, "turtle", "D2"),
        ],
    );
    for level in [Level::Medium, Level::Hard] {
        let mv = choose_move(&game.view(1), level, &Budget::iterations(200), 0);
        assert_eq!(mv, kids_play("giraffe", "D1"), "{level}");
    }
}

#[test]
fn medium_and_hard_block_a_line_about_to_be_completed() {
    // Seat 0 has B2, C2, D2 with E2 taken by seat 1: only A2 (panda) completes it. Seat 1 holds the panda.
    let game = kids_game(
        &[
            "frog", "rabbit", "owl", "lion", "turtle", "panda", "elephant", "monkey", "whale",
            "bear",
        ],
        &[
            (0, "frog", "B2"),
            (1, "rabbit", "E2"),
            (0, "owl", "C2"),
            (1, "lion", "B1"),
            (0, "turtle", "D2"),
        ],
    );
    for level in [Level::Medium, Level::Hard] {
        let mv = choose_move(&game.view(1), level, &Budget::iterations(200), 0);
        assert_eq!(mv, kids_play("panda", "A2"), "{level}");
    }
}

#[test]
fn the_medium_model_explains_what_medium_really_held() {
    // Against medium the inference must be true of the real hand: medium plays its best move, so a card
    // ruled out at one of its turns can be in its hand only if a draw since then brought it.
    use super::search::{Inference, Params};
    let config = config(Variant::Classic, 2, Options::default());
    let (mut checked, mut ruled) = (0, 0);
    for seed in 0..10 {
        let mut game = Game::new(config, seed);
        let mut history = Vec::new();
        // Seat 1's cards with the number of its draws when each came (0: dealt).
        let mut entered: Vec<(Card, u32)> = game.hand(1).iter().map(|&c| (c, 0)).collect();
        let mut draws = 0;
        let mut i = 0;
        while !game.position().is_over() && i < 70 {
            let seat = game.position().to_move();
            let mv = choose_move(&game.view(seat), Level::Medium, &Budget::DEFAULT, seed ^ i);
            game.play(seat, mv).unwrap();
            history.push((seat, mv));
            i += 1;
            if seat != 1 {
                continue;
            }
            // Track which card came with this turn's draw.
            let mut now: Vec<Card> = game.hand(1).to_vec();
            let mut kept = Vec::new();
            for &(c, k) in &entered {
                if let Some(j) = now.iter().position(|&x| x == c) {
                    now.swap_remove(j);
                    kept.push((c, k));
                }
            }
            if !now.is_empty() {
                draws += 1;
            }
            kept.extend(now.into_iter().map(|c| (c, draws)));
            entered = kept;
            if game.position().is_over() {
                continue;
            }
            let view = game.view(0);
            let Some(inference) = Inference::new(&view, &history, &Params::DEFAULT) else {
                continue;
            };
            checked += 1;
            for &(c, k) in &entered {
                if let Some(d) = inference.draws_since_ruled_out(1, c) {
                    ruled += 1;
                    assert!(
                        k + d > draws,
                        "seed {seed} move {i}: {c:?} came with draw {k}, ruled out {d} draws before draw {draws}"
                    );
                }
            }
            // Deals fit the view and hold the game's cards.
            let mut rng = GameRng::new(i);
            for _ in 0..10 {
                let deal = inference.sample(&view, &mut rng);
                assert_eq!(deal.view(0), view);
                let mut all = deal.all_cards();
                let mut want = game.all_cards();
                all.sort_unstable();
                want.sort_unstable();
                assert_eq!(all, want);
            }
        }
    }
    assert!(checked > 100, "the model applied {checked} times");
    assert!(
        ruled > 10,
        "real cards were ruled out and explained {ruled} times"
    );
}

#[test]
fn the_learned_value_foresees_the_winner_of_medium_games() {
    // Held-out games (the weights were fitted on seeds from 1): over the last 20 plies of each game the
    // model must name the winner far better than a coin, and beat the coin's log loss (ln 2).
    let config = config(Variant::Classic, 2, Options::default());
    let (mut right, mut total, mut loss) = (0u32, 0u32, 0.0f64);
    for seed in 900_000..900_040u64 {
        let mut game = Game::new(config, seed);
        let mut positions = Vec::new();
        let mut turn = 0;
        while !game.position().is_over() && turn < 1000 {
            positions.push(game.clone());
            let seat = game.position().to_move();
            let mv = choose_move(
                &game.view(seat),
                Level::Medium,
                &Budget::DEFAULT,
                seed + turn,
            );
            game.play(seat, mv).unwrap();
            turn += 1;
        }
        let crate::engine::Status::Won(winner) = game.position().status() else {
            continue;
        };
        let start = positions.len().saturating_sub(20);
        for p in &positions[start..] {
            let chance = value::win_probability(p, 0).clamp(1e-6, 1.0 - 1e-6);
            let won = winner == 0;
            right += u32::from((chance > 0.5) == won);
            total += 1;
            loss -= if won {
                chance.ln()
            } else {
                (1.0 - chance).ln()
            };
        }
    }
    let accuracy = f64::from(right) / f64::from(total.max(1));
    let loss = loss / f64::from(total.max(1));
    assert!(total > 500, "enough positions: {total}");
    assert!(
        accuracy > 0.7,
        "winner foreseen in {accuracy:.2} of positions"
    );
    assert!(loss < 0.6, "log loss {loss:.3}");
}

// King of the Board: the zone knowledge.

/// Seat 0's moves scored by the heuristic with `weights`.
fn scores(view: &View, weights: heuristic::Weights) -> Vec<heuristic::Scored> {
    let scorer = heuristic::Scorer::new(&view.position, weights);
    let mut out = Vec::new();
    let team = view.team().unwrap();
    heuristic::score_groups(&scorer, team, &view.move_groups(), false, None, &mut out);
    out
}

#[test]
fn the_zone_switch_changes_nothing_outside_king_of_the_board() {
    let mut compared = 0;
    for seed in 0..6 {
        for plies in [0, 9, 20, 31] {
            let view = medium_position(seed, plies);
            if !view.is_my_turn() {
                continue;
            }
            assert_eq!(
                scores(&view, heuristic::Weights::DEFAULT),
                scores(&view, heuristic::Weights::NO_ZONE),
                "seed {seed}, {plies} plies"
            );
            for level in [Level::Medium, Level::Hard] {
                let budget = Budget::iterations(60);
                let with = choose_move_knowing(&view, &[], level, &budget, seed, true);
                let without = choose_move_knowing(&view, &[], level, &budget, seed, false);
                assert_eq!(with, without, "{level}, seed {seed}, {plies} plies");
                assert_eq!(with, choose_move(&view, level, &budget, seed));
            }
            compared += 1;
        }
    }
    assert!(compared >= 20, "{compared}");
}

/// A two-player King of the Board game (to `points` points) with the zone around C3 (B2–D4), seat 0
/// holding the three of diamonds (D3, J7) and the ace of diamonds (G8, B10), `team`'s chips on E3, F3,
/// G3 and, turned by half a circle about the board's centre, on F8, E8, D8, plus `extra`: the same shape
/// twice, once touching the zone (through D3) and once not (through G8). Seat 0 is to move.
fn zone_twins(points: u8, team: Team, extra: &[&str]) -> Game {
    let options = Options {
        king_of_the_board: true,
        points_to_win: Some(points),
        ..Options::default()
    };
    let config = config(Variant::Classic, 2, options);
    let card = |name: &str| Card::parse(name, Variant::Classic).unwrap();
    let hands: [[&str; 7]; 2] = [
        ["3D", "AD", "2S", "3S", "4S", "5S", "6S"],
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H"],
    ];
    let mut rest = crate::engine::card::full_deck(Variant::Classic);
    let mut deck = Vec::new();
    for round in 0..7 {
        for hand in &hands {
            let i = rest.iter().position(|&x| x == card(hand[round])).unwrap();
            deck.push(rest.remove(i));
        }
    }
    deck.extend(rest);
    let layout = crate::engine::Layout::standard(Variant::Classic);
    let cell = |name: &str| layout.parse_cell(name).unwrap();
    let mut game = Game::with_deck_zones(
        config,
        &deck,
        Vec::new(),
        vec![cell("C3")],
        1,
        crate::engine::RollMode::AtTurnStart,
    )
    .unwrap();
    for name in ["E3", "F3", "G3", "F8", "E8", "D8"].iter().chain(extra) {
        game.put_chip(team, cell(name));
    }
    game
}

fn zone_play(name: &str, at: &str) -> Move {
    let layout = crate::engine::Layout::standard(Variant::Classic);
    Move::Play {
        card: Card::parse(name, Variant::Classic).unwrap(),
        cell: layout.parse_cell(at).unwrap(),
    }
}

/// The heuristic's score of `mv` in `scored`.
fn score_of(scored: &[heuristic::Scored], mv: Move) -> i32 {
    scored.iter().find(|s| s.0 == mv).map(|s| s.1).unwrap()
}

/// Asserts that without the zone knowledge D3 and G8 score the same, and that with it `medium` plays D3
/// whatever the seed (without it, a tie: each is played for some seed).
fn assert_zone_cell_preferred(game: &Game) {
    let view = game.view(0);
    let (d3, g8) = (zone_play("3D", "D3"), zone_play("AD", "G8"));
    let plain = scores(&view, heuristic::Weights::NO_ZONE);
    assert_eq!(score_of(&plain, d3), score_of(&plain, g8));
    let aware = scores(&view, heuristic::Weights::DEFAULT);
    assert!(score_of(&aware, d3) > score_of(&aware, g8));
    let budget = Budget::iterations(1);
    let mut without = Vec::new();
    for seed in 0..12 {
        assert_eq!(
            choose_move_knowing(&view, &[], Level::Medium, &budget, seed, true),
            d3,
            "seed {seed}"
        );
        without.push(choose_move_knowing(
            &view,
            &[],
            Level::Medium,
            &budget,
            seed,
            false,
        ));
    }
    assert!(
        without.contains(&d3) && without.contains(&g8),
        "{without:?}"
    );
}

#[test]
fn medium_builds_in_the_zone() {
    // Seat 0's own three in a row: D3 makes four touching the zone, G8 the same four outside it.
    let game = zone_twins(3, 0, &[]);
    assert_eq!(game.position().zone_cells().count_ones(), 9);
    assert_zone_cell_preferred(&game);
}

#[test]
fn medium_blocks_in_the_zone() {
    // The opponent's three in a row, twice: blocking the one that reaches into the zone comes first.
    let game = zone_twins(3, 1, &[]);
    assert_zone_cell_preferred(&game);
}

#[test]
fn medium_and_hard_complete_a_zone_sequence_that_wins() {
    // To 2 points, seat 0 has four in a row twice: D3 completes H3–D3, touching the zone (2 points, the
    // win); G8 completes C8–G8 outside it (1 point). Without the knowledge they are the same.
    let mut game = zone_twins(2, 0, &["H3", "C8"]);
    let view = game.view(0);
    let (d3, g8) = (zone_play("3D", "D3"), zone_play("AD", "G8"));
    let aware = scores(&view, heuristic::Weights::DEFAULT);
    assert_eq!(score_of(&aware, d3), heuristic::WIN);
    assert!(score_of(&aware, g8) < heuristic::WIN);
    let plain = scores(&view, heuristic::Weights::NO_ZONE);
    assert_eq!(score_of(&plain, d3), score_of(&plain, g8));
    for level in [Level::Medium, Level::Hard] {
        for seed in 0..4 {
            let mv = choose_move(&view, level, &Budget::iterations(100), seed);
            assert_eq!(mv, d3, "{level}, seed {seed}");
        }
    }
    game.play(0, d3).unwrap();
    assert_eq!(game.position().status(), crate::engine::Status::Won(0));
}

#[test]
fn every_level_plays_king_of_the_board_legally() {
    for (i, points) in [None, Some(5)].into_iter().enumerate() {
        let options = Options {
            king_of_the_board: true,
            points_to_win: points,
            ..Options::default()
        };
        for players in [2, 3] {
            play_checked(
                config(Variant::Classic, players, options),
                200 + i as u64,
                25,
            );
        }
    }
}

#[test]
fn the_zone_knowledge_is_applied_in_dealt_king_of_the_board_games() {
    // Whole games as the arena plays them (medium with the knowledge against medium without): every view
    // shows the mode and a zone of nine cells, and the knowledge changes a fair share of the moves (about
    // a fifth, examples/zone_tune.rs), not only in the constructed positions above.
    let options = Options {
        king_of_the_board: true,
        ..Options::default()
    };
    let config = config(Variant::Classic, 2, options);
    let budget = Budget::default();
    let (mut moves, mut differ) = (0, 0);
    for seed in 0..4 {
        let mut game = Game::new(config, 900 + seed);
        while !game.position().is_over() {
            let seat = game.position().to_move();
            let view = game.view(seat);
            assert!(view.position.config().is_king_of_the_board());
            assert_eq!(view.position.zone_cells().count_ones(), 9);
            let knowing = seat == 0;
            let mv = choose_move_knowing(&view, &[], Level::Medium, &budget, seed, knowing);
            let other = choose_move_knowing(&view, &[], Level::Medium, &budget, seed, !knowing);
            moves += 1;
            if mv != other {
                differ += 1;
            }
            game.play(seat, mv).unwrap();
        }
    }
    assert!(moves >= 80, "{moves}");
    assert!(differ * 10 >= moves, "{differ} of {moves} moves differ");
}

/// King of the Board: a blocked board is won on points (RULES.md), so the search scores such an end
/// as the leader's win, and an equal one as a draw (both ends from the golden records).
#[test]
fn the_search_scores_a_blocked_king_of_the_board_end_by_points() {
    for (text, reward) in [
        (
            include_str!("../../tests/golden/kotb_blocked_board_most_points_win.json"),
            [1.0, 0.0],
        ),
        (
            include_str!("../../tests/golden/kotb_blocked_board_equal_points_draw.json"),
            [0.5, 0.5],
        ),
    ] {
        let record = crate::engine::Record::from_json(text).unwrap();
        let game = record.replay().unwrap().unwrap();
        assert!(game.position().is_over());
        let out = search::evaluate(&game, &search::Params::DEFAULT, 2);
        assert_eq!(out[..2], reward, "{:?}", game.position().points_per_team());
    }
}

/// The moves `who` chooses on fixed positions (classic 2, 3 and 4 players, King of the Board; the game's
/// history given), one line each: `Budget::iterations(200)`, fixed seeds.
fn moves_on_fixed_positions(who: Contender) -> Vec<String> {
    let kotb = Options {
        king_of_the_board: true,
        ..Options::default()
    };
    let setups = [
        (config(Variant::Classic, 2, Options::default()), 11),
        (config(Variant::Classic, 2, Options::default()), 12),
        (config(Variant::Classic, 3, Options::default()), 13),
        (config(Variant::Classic, 4, Options::default()), 14),
        (config(Variant::Classic, 2, kotb), 15),
    ];
    let mut out = Vec::new();
    for (config, seed) in setups {
        let mut game = Game::new(config, seed);
        let mut history: Vec<(Seat, Move)> = Vec::new();
        let mut plies = 0u64;
        while !game.position().is_over() && plies < 40 {
            let seat = game.position().to_move();
            let view = game.view(seat);
            if plies % 8 == 5 {
                let budget = Budget::iterations(200);
                let mv = contender_move(&view, &history, who, &budget, seed ^ plies, true);
                let players = config.players;
                out.push(format!(
                    "{players} players, seed {seed}, ply {plies}: {mv:?}"
                ));
            }
            let mv = choose_move(&view, Level::Medium, &Budget::DEFAULT, seed + plies);
            game.play(seat, mv).unwrap();
            history.push((seat, mv));
            plies += 1;
        }
    }
    out
}

/// FNV-1a of the lines, as a check sum.
fn digest(lines: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in lines.join("\n").bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The digest of [`moves_on_fixed_positions`] of `hard` as it was on 2026-11-29 (commit 9bbc270 of
/// branch `hard`, before issue 48's new design), computed with `Contender::Level(Level::Hard)` then.
const HARD_20261129_DIGEST: u64 = 0xaa5d_89f5_b744_44de;

#[test]
fn hard_20261129_plays_as_hard_did() {
    let lines = moves_on_fixed_positions(Contender::Hard20261129);
    assert_eq!(lines.len(), 22, "{lines:#?}");
    assert_eq!(
        digest(&lines),
        HARD_20261129_DIGEST,
        "the frozen baseline moved: {lines:#?}"
    );
}

/// With every issue-48 option off (as measured, see docs/development.md), `hard` plays the baseline's
/// moves: players meet the `hard` they knew.
#[test]
fn hard_plays_as_the_baseline_while_the_new_options_are_off() {
    let lines = moves_on_fixed_positions(Contender::Level(Level::Hard));
    assert_eq!(digest(&lines), HARD_20261129_DIGEST, "{lines:#?}");
}

#[test]
fn the_baseline_is_for_the_arena_only() {
    for name in ["hard-20261129", " Hard20261129 "] {
        assert_eq!(name.parse::<Contender>().unwrap(), Contender::Hard20261129);
        // Players name a level: the baseline is none.
        assert!(name.parse::<Level>().is_err());
    }
    for level in Level::ALL {
        assert_eq!(
            level.name().parse::<Contender>().unwrap(),
            Contender::Level(level)
        );
        assert_eq!(Contender::from(level).to_string(), level.name());
    }
    assert_eq!(Contender::Hard20261129.to_string(), "hard-20261129");
    let error = "grandmaster".parse::<Contender>().unwrap_err().to_string();
    assert!(
        error.contains("easy, medium or hard") && error.contains("hard-20261129"),
        "{error}"
    );
}

#[test]
fn the_arena_plays_the_baseline_on_either_side_and_pairs_deals() {
    let arena = |a: Contender, b: Contender, paired: bool| Arena {
        a,
        b,
        games: 4,
        seed: 5,
        paired,
        config: config(Variant::Classic, 2, Options::default()),
        budget: Budget::iterations(30),
        budget_b: Budget::iterations(30),
        threads: 2,
        zone_a: true,
        zone_b: true,
    };
    for (a, b) in [
        (Contender::Hard20261129, Level::Medium.into()),
        (Level::Medium.into(), Contender::Hard20261129),
    ] {
        let report = run(&arena(a, b, true), &|_| {});
        assert_eq!(report.results.len(), 4);
        assert!(report.results.iter().all(|r| r.illegal == 0), "{report}");
        assert!(report.to_string().contains("hard-20261129"), "{report}");
        assert!(report.to_string().contains("paired"), "{report}");
    }
    // Paired: the same deal and move seeds twice, seats swapped. Two equal players then play the same
    // game twice, so the same team wins: A in one game, B in the other.
    let easy = Contender::Level(Level::Easy);
    let paired = run(&arena(easy, easy, true), &|_| {});
    for pair in paired.results.chunks(2) {
        assert!(pair[0].a_first && !pair[1].a_first);
        assert_eq!(pair[0].plies, pair[1].plies, "{paired}");
        let swapped = matches!(
            (pair[0].winner, pair[1].winner),
            (arena::Winner::A, arena::Winner::B) | (arena::Winner::B, arena::Winner::A)
        );
        assert!(swapped, "{paired}");
    }
    // Unpaired, every game has its own deal.
    let unpaired = run(&arena(easy, easy, false), &|_| {});
    assert!(
        unpaired
            .results
            .chunks(2)
            .any(|pair| pair[0].plies != pair[1].plies),
        "{unpaired}"
    );
}

/// With `Params::all_hands` on, `players` in two teams: the rollout policy's move for the other team is
/// one the hand-aware heuristic scores best when `knowing` (else the plain heuristic's best), and the
/// other scoring would have chosen differently in some positions (else the check would prove nothing).
fn rollout_policy_of_the_others(players: u8, knowing: bool) {
    let params = search::Params {
        all_hands: true,
        ..search::Params::DEFAULT
    };
    let (mut checked, mut differs) = (0, 0);
    for seed in 1..=4u64 {
        let mut game = Game::new(config(Variant::Classic, players, Options::default()), seed);
        let mut rng = GameRng::new(seed);
        let mut scratch = Vec::new();
        while !game.position().is_over() && game.position().plies() < 60 {
            let seat = game.position().to_move();
            let mover = game.config().team_of(seat);
            let me = 1 - mover;
            let groups = game.move_groups();
            let scorer = heuristic::Scorer::new(game.position(), params.weights);
            let hand = game.hand(seat).to_vec();
            let mut with_hand = Vec::new();
            heuristic::score_groups(&scorer, mover, &groups, true, Some(&hand), &mut with_hand);
            let mut plain = Vec::new();
            heuristic::score_groups(&scorer, mover, &groups, true, None, &mut plain);
            let (expected, other) = match knowing {
                true => (&with_hand, &plain),
                false => (&plain, &with_hand),
            };
            let best = |scores: &[(Move, i32)]| scores.iter().map(|s| s.1).max().unwrap();
            let score_of =
                |scores: &[(Move, i32)], mv: Move| scores.iter().find(|s| s.0 == mv).map(|s| s.1);
            let mv = search::policy(&game, &params, me, &mut rng, &mut scratch);
            assert_eq!(
                score_of(expected, mv),
                Some(best(expected)),
                "seed {seed}, ply {}",
                game.position().plies()
            );
            if score_of(other, mv) != Some(best(other)) {
                differs += 1;
            }
            checked += 1;
            game.play(seat, mv).unwrap();
        }
    }
    assert!(
        checked > 100 && differs > 0,
        "{checked} checked, {differs} differ"
    );
}

/// Issue 48, `Params::all_hands` on (measured, off by default): in the rollouts every side plays
/// knowing its (sampled) hand, as the searching side does.
#[test]
fn every_side_plays_its_rollouts_knowing_its_hand() {
    rollout_policy_of_the_others(2, true);
}

/// Issue 48, `Params::all_hands` on: with partners (2 vs 2) the other team's rollout moves stay the plain
/// heuristic's, as before (knowing their hands measured worse there).
#[test]
fn with_partners_the_others_play_their_rollouts_as_before() {
    rollout_policy_of_the_others(4, false);
}
