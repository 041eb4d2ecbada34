//! Tests of a player's figures and achievements ([`super::profile`]): what each human seat of a
//! scripted or golden game adds, worked out by hand, the running totals and every achievement's goal.

use super::profile::*;
use super::tests_support::comeback_record;
use crate::ai::Level;
use crate::engine::record::Record;

fn golden(name: &str) -> Record {
    let path = format!("{}/tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    Record::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn human(user: u64, team: u8, won: bool) -> SeatResult {
    SeatResult {
        user_id: Some(user),
        level: None,
        team,
        won,
        gave_up: false,
    }
}

fn computer(level: Level, team: u8, won: bool) -> SeatResult {
    SeatResult {
        user_id: None,
        level: Some(level),
        team,
        won,
        gave_up: false,
    }
}

fn info(game_id: i64, rated: bool) -> GameInfo {
    GameInfo {
        game_id,
        finished_at: 1_000_000,
        started_at: Some(1_000_000 - 600_000),
        rated,
        aborted: false,
    }
}

#[test]
fn a_comeback_with_a_broken_four_and_a_double_sequence() {
    let seats = [human(1, 0, true), human(2, 1, false)];
    let games = seat_games(&info(7, true), &seats, &comeback_record()).unwrap();
    let ann = SeatGame {
        user_id: 1,
        game_id: 7,
        finished_at: 1_000_000,
        won: true,
        kind: Some(GameKind::Classic),
        opposition: vec![Opposition::Humans],
        counts_for_achievements: true,
        humans: 2,
        teams: 2,
        players: 2,
        moves: 10,
        sequences: 2,
        two_eyed_jacks: 0,
        one_eyed_jacks: 1,
        lines_broken: 1,
        fours_broken_with_one_eyed: 1,
        dead_cards: 0,
        double_sequence: true,
        moved_first: true,
        comeback: true,
        gave_up: false,
        mostly_computer: false,
        ended_off_board: false,
        early: false,
        team_moves: 10,
        play: vec![(1_000_000 - 600_000, 1_000_000)],
    };
    let bob = SeatGame {
        user_id: 2,
        won: false,
        moves: 9,
        sequences: 1,
        one_eyed_jacks: 0,
        lines_broken: 0,
        fours_broken_with_one_eyed: 0,
        double_sequence: false,
        moved_first: false,
        comeback: false,
        team_moves: 9,
        ..ann.clone()
    };
    assert_eq!(games, vec![ann, bob]);
}

#[test]
fn a_casual_game_against_a_human_does_not_count_for_achievements() {
    let seats = [human(1, 0, true), human(2, 1, false)];
    let games = seat_games(&info(7, false), &seats, &comeback_record()).unwrap();
    assert!(games.iter().all(|g| !g.counts_for_achievements));
    // Against a computer it counts, rated or not.
    let seats = [human(1, 0, true), computer(Level::Medium, 1, false)];
    let games = seat_games(&info(7, false), &seats, &comeback_record()).unwrap();
    assert_eq!(games.len(), 1);
    assert!(games[0].counts_for_achievements);
    assert_eq!(games[0].opposition, vec![Opposition::Medium]);
}

#[test]
fn an_aborted_game_adds_nothing() {
    let seats = [human(1, 0, true), human(2, 1, false)];
    let aborted = GameInfo {
        aborted: true,
        ..info(7, true)
    };
    assert_eq!(
        seat_games(&aborted, &seats, &comeback_record()).unwrap(),
        Vec::new()
    );
}

#[test]
fn giving_up_is_a_loss_and_an_unknown_start_has_no_length() {
    let mut seats = [human(1, 0, true), human(2, 1, false)];
    seats[0].gave_up = true;
    let unknown = GameInfo {
        started_at: None,
        ..info(7, true)
    };
    let games = seat_games(&unknown, &seats, &comeback_record()).unwrap();
    assert!(!games[0].won);
    assert!(!games[0].comeback);
    assert_eq!(games[0].play, Vec::new());
    assert!(games[0].gave_up);
    assert_eq!(games[0].feats(), Feats::BreakStreak);
}

#[test]
fn king_of_the_board_is_its_own_kind() {
    // Seat 0's ninth move, E2, completes row 2 and column E at once.
    let seats = [human(1, 0, true), human(2, 1, false)];
    let games = seat_games(&info(3, false), &seats, &golden("kotb_win_at_three")).unwrap();
    assert_eq!(games[0].kind, Some(GameKind::KingOfTheBoard));
    assert_eq!((games[0].moves, games[0].sequences), (9, 2));
    assert!(games[0].double_sequence && games[0].moved_first && !games[0].comeback);
    assert_eq!((games[1].moves, games[1].sequences), (8, 0));
}

#[test]
fn three_teams_with_a_hard_computer() {
    // Seat 1 completes B1–E1 beside the corner on its fourth move.
    let seats = [
        human(1, 0, false),
        human(2, 1, true),
        computer(Level::Hard, 2, false),
    ];
    let record = golden("classic_three_players_one_sequence");
    let games = seat_games(&info(4, true), &seats, &record).unwrap();
    assert_eq!(games.len(), 2);
    let bob = &games[1];
    assert_eq!(bob.user_id, 2);
    assert_eq!((bob.teams, bob.players, bob.humans), (3, 3, 2));
    assert_eq!(bob.opposition, vec![Opposition::Humans, Opposition::Hard]);
    assert_eq!((bob.moves, bob.sequences), (4, 1));
    assert!(bob.won && !bob.moved_first && !bob.comeback);
    assert!(games[0].moved_first);
    assert_eq!(games[0].moves, 4);
}

#[test]
fn jacks_and_dead_cards_are_counted_per_seat() {
    // Seat 1 plays JC, JD, JC, JD; seat 0 four plain cards, then exchanges 7H (the golden record's
    // second exchange in the same turn is refused, so it is left out).
    let seats = [human(1, 0, false), human(2, 1, false)];
    let mut record = golden("classic_dead_card_exchange_twice");
    record.actions.truncate(9);
    let games = seat_games(&info(5, true), &seats, &record).unwrap();
    assert_eq!(
        (games[0].moves, games[0].dead_cards, games[0].two_eyed_jacks),
        (4, 1, 0)
    );
    assert_eq!(
        (games[1].moves, games[1].dead_cards, games[1].two_eyed_jacks),
        (4, 0, 4)
    );
    assert_eq!(games[1].one_eyed_jacks, 0);
}

#[test]
fn dice_and_kids_games() {
    let seats = [human(1, 0, true), human(2, 1, false)];
    let dice = seat_games(&info(1, true), &seats, &golden("dice_win_five_in_a_row")).unwrap();
    assert_eq!(dice[0].kind, Some(GameKind::Dice));
    assert_eq!((dice[0].moves, dice[0].sequences), (5, 1));
    assert_eq!(dice[1].moves, 3);
    // The dragon and the unicorn are no jacks.
    let kids = seat_games(&info(2, true), &seats, &golden("kids_dragon_unicorn_win")).unwrap();
    assert_eq!(kids[0].kind, Some(GameKind::Kids));
    assert_eq!((kids[0].moves, kids[0].sequences), (4, 1));
    assert_eq!((kids[1].moves, kids[1].two_eyed_jacks), (3, 0));
    assert_eq!(kids[0].one_eyed_jacks, 0);
}

/// A game of user 1 with the fields the totals read.
fn game(id: i64, won: bool, moves: u32) -> SeatGame {
    SeatGame {
        user_id: 1,
        game_id: id,
        finished_at: 1000 * id,
        won,
        kind: Some(GameKind::Classic),
        opposition: vec![Opposition::Humans],
        counts_for_achievements: true,
        humans: 2,
        teams: 2,
        players: 2,
        moves,
        team_moves: moves,
        sequences: u32::from(won) * 2,
        ..SeatGame::default()
    }
}

#[test]
fn figures_add_every_counter() {
    let mut f = Figures::default();
    // 1: a classic win against a human in 20 moves, moving first, 2 two-eyed and 1 one-eyed jacks.
    f.add(&SeatGame {
        two_eyed_jacks: 2,
        one_eyed_jacks: 1,
        lines_broken: 1,
        fours_broken_with_one_eyed: 1,
        dead_cards: 1,
        moved_first: true,
        play: vec![(0, 60_000)],
        ..game(1, true, 20)
    });
    // 2: a loss to `hard` and `easy` in a three-team game of 3 humans, 15 moves, moving first.
    f.add(&SeatGame {
        opposition: vec![Opposition::Easy, Opposition::Hard],
        humans: 3,
        teams: 3,
        moved_first: true,
        lines_broken: 2,
        ..game(2, false, 15)
    });
    // 3: a King of the Board win in 9 moves with a double sequence, a comeback, no two-eyed jack.
    f.add(&SeatGame {
        kind: Some(GameKind::KingOfTheBoard),
        double_sequence: true,
        comeback: true,
        play: vec![(100_000, 130_000)],
        ..game(3, true, 9)
    });
    // 4: a dice win in a three-team game.
    f.add(&SeatGame {
        kind: Some(GameKind::Dice),
        teams: 3,
        ..game(4, true, 11)
    });
    let mut expected = Figures {
        games: 4,
        wins: 3,
        current_streak: 2,
        best_streak: 2,
        sequences: 6,
        two_eyed_jacks: 2,
        one_eyed_jacks: 1,
        lines_broken: 3,
        fours_broken_with_one_eyed: 1,
        dead_cards: 1,
        first_move_games: 2,
        first_move_wins: 1,
        moves: 55,
        play_ms: 90_000,
        timed_games: 2,
        first_game_at: Some(1000),
        last_game_id: 4,
        crowd_games: 1,
        three_team_wins: 1,
        double_sequences: 1,
        wins_without_two_eyed: 1,
        comebacks: 1,
        fastest_win: Some(9),
        fastest_team_win: Some(9),
        play_spans: vec![(0, 60_000), (100_000, 130_000)],
        ..Figures::default()
    };
    expected.by_game[GameKind::Classic.index()] = Breakdown {
        games: 2,
        wins: 1,
        moves: 35,
        fastest_win: Some(20),
    };
    expected.by_game[GameKind::KingOfTheBoard.index()] = Breakdown {
        games: 1,
        wins: 1,
        moves: 9,
        fastest_win: Some(9),
    };
    expected.by_game[GameKind::Dice.index()] = Breakdown {
        games: 1,
        wins: 1,
        moves: 11,
        fastest_win: Some(11),
    };
    expected.by_opposition[Opposition::Humans.index()] = Breakdown {
        games: 3,
        wins: 3,
        moves: 40,
        fastest_win: Some(9),
    };
    for level in [Opposition::Easy, Opposition::Hard] {
        expected.by_opposition[level.index()] = Breakdown {
            games: 1,
            wins: 0,
            moves: 15,
            fastest_win: None,
        };
    }
    assert_eq!(f, expected);
    assert_eq!(f.problem(), None);
    assert_eq!(f.win_rate(), 0.75);
    assert_eq!(f.first_move_win_rate(), 0.5);
    assert_eq!(f.average_moves(), 13.75);
    assert_eq!(f.by_game[0].win_rate(), 0.5);
    assert_eq!(f.by_game[0].average_moves(), 17.5);
    // Adding a game again, or an older one, changes nothing.
    f.add(&game(4, true, 11));
    f.add(&game(2, true, 5));
    assert_eq!(f, expected);
    // A loss ends the streak, the best stays.
    f.add(&game(5, false, 30));
    assert_eq!((f.current_streak, f.best_streak), (0, 2));
    for id in 6..9 {
        f.add(&game(id, true, 30));
    }
    assert_eq!((f.current_streak, f.best_streak), (3, 3));
    assert_eq!(f.problem(), None);
}

#[test]
fn figures_survive_json_and_damage_is_found() {
    let mut f = Figures::default();
    f.add(&game(1, true, 10));
    let json = serde_json::to_string(&f).unwrap();
    assert_eq!(serde_json::from_str::<Figures>(&json).unwrap(), f);
    // Fields added later read as their defaults.
    assert_eq!(
        serde_json::from_str::<Figures>("{\"games\": 0}").unwrap(),
        Figures::default()
    );
    let damaged = [
        Figures {
            wins: 2,
            ..f.clone()
        },
        Figures {
            best_streak: 0,
            ..f.clone()
        },
        Figures {
            first_move_wins: 1,
            ..f.clone()
        },
        Figures {
            games: 2,
            ..f.clone()
        },
        Figures {
            last_game_id: 0,
            ..f.clone()
        },
        Figures {
            fastest_win: None,
            ..f.clone()
        },
        Figures {
            comebacks: 5,
            ..f.clone()
        },
        Figures {
            fours_broken_with_one_eyed: 1,
            ..f.clone()
        },
    ];
    for d in damaged {
        assert!(d.problem().is_some(), "{d:?}");
    }
}

/// Feats with `games` wins in a row of `moves` each, added through [`Figures::add`].
fn feats_of(games: &[SeatGame]) -> Figures {
    let mut f = Figures::default();
    for g in games {
        f.add(g);
    }
    f
}

#[test]
fn achievements_have_stable_keys() {
    let keys: std::collections::HashSet<&str> = Achievement::ALL.iter().map(|a| a.key()).collect();
    assert_eq!(keys.len(), Achievement::ALL.len());
    assert!(Achievement::ALL.len() >= 20);
    for a in Achievement::ALL {
        assert_eq!(Achievement::from_key(a.key()), Some(a));
        assert!(a.key().chars().all(|c| c.is_ascii_lowercase() || c == '_'));
    }
    assert_eq!(Achievement::from_key("first game"), None);
    assert_eq!(Achievement::OnFire.key(), "on_fire");
}

/// The game that takes `a` from one short of its goal to its goal, and the feats before it.
fn just_before_and_at(a: Achievement) -> (Figures, SeatGame) {
    let many = |n: i64, make: &dyn Fn(i64) -> SeatGame| -> (Figures, SeatGame) {
        let games: Vec<SeatGame> = (1..n).map(make).collect();
        (feats_of(&games), make(n))
    };
    let win = |id| game(id, true, 20);
    let against = |o: Opposition| {
        move |id| SeatGame {
            opposition: vec![o],
            ..game(id, true, 20)
        }
    };
    match a {
        Achievement::FirstGame => many(1, &|id| game(id, false, 20)),
        Achievement::Veteran => many(100, &|id| game(id, false, 20)),
        Achievement::OnFire => many(5, &win),
        Achievement::Unstoppable => many(10, &win),
        Achievement::BeatEasy => many(1, &against(Opposition::Easy)),
        Achievement::BeatMedium => many(1, &against(Opposition::Medium)),
        Achievement::BeatHard => many(1, &against(Opposition::Hard)),
        Achievement::HardTen => many(10, &against(Opposition::Hard)),
        Achievement::WildCards => many(5, &|id| SeatGame {
            two_eyed_jacks: 10,
            ..game(id, false, 20)
        }),
        Achievement::Quick => (
            feats_of(&[game(1, true, 13), game(2, false, 5)]),
            game(3, true, 12),
        ),
        Achievement::TenHours => many(10, &|id| SeatGame {
            play: vec![(id * 3_600_000, (id + 1) * 3_600_000)],
            ..game(id, false, 20)
        }),
        Achievement::Party => many(10, &|id| SeatGame {
            humans: 3,
            ..game(id, false, 20)
        }),
        Achievement::King => (
            feats_of(&[SeatGame {
                kind: Some(GameKind::KingOfTheBoard),
                ..game(1, false, 20)
            }]),
            SeatGame {
                kind: Some(GameKind::KingOfTheBoard),
                ..game(2, true, 20)
            },
        ),
        Achievement::DiceWin | Achievement::KidsWin => {
            let kind = if a == Achievement::DiceWin {
                GameKind::Dice
            } else {
                GameKind::Kids
            };
            (
                feats_of(&[win(1)]),
                SeatGame {
                    kind: Some(kind),
                    ..win(2)
                },
            )
        }
        Achievement::ThreeTeams => (feats_of(&[win(1)]), SeatGame { teams: 3, ..win(2) }),
        Achievement::Breaker => (
            feats_of(&[SeatGame {
                lines_broken: 3,
                one_eyed_jacks: 1,
                ..win(1)
            }]),
            SeatGame {
                lines_broken: 1,
                fours_broken_with_one_eyed: 1,
                one_eyed_jacks: 1,
                ..game(2, false, 20)
            },
        ),
        Achievement::Double => (
            feats_of(&[win(1)]),
            SeatGame {
                double_sequence: true,
                ..game(2, false, 20)
            },
        ),
        Achievement::NoWildCards => (
            // A dice win has no jacks to do without; a classic loss without one is no win.
            feats_of(&[
                SeatGame {
                    kind: Some(GameKind::Dice),
                    ..win(1)
                },
                game(2, false, 20),
                SeatGame {
                    two_eyed_jacks: 1,
                    ..win(3)
                },
            ]),
            win(4),
        ),
        Achievement::Comeback => (
            feats_of(&[win(1)]),
            SeatGame {
                comeback: true,
                ..win(2)
            },
        ),
        Achievement::Wall => many(5, &|id| SeatGame {
            lines_broken: 6,
            ..game(id, false, 20)
        }),
        Achievement::SeriesWon => (Figures::default(), game(1, false, 20)),
    }
}

#[test]
fn every_achievement_unlocks_exactly_at_its_goal() {
    for a in Achievement::ALL {
        let (before, last) = just_before_and_at(a);
        assert!(!a.is_unlocked(&before, 0), "{a:?} before");
        assert!(a.have(&before, 0) < a.goal(), "{a:?}");
        let mut after = before.clone();
        after.add(&last);
        assert_eq!(after.problem(), None, "{a:?}");
        if a == Achievement::SeriesWon {
            // Only series won count, whatever the games.
            assert!(!a.is_unlocked(&after, 0));
            assert!(a.is_unlocked(&after, 1));
            assert!(!Achievement::unlocked_between(&before, &after).contains(&a));
            continue;
        }
        assert!(a.is_unlocked(&after, 0), "{a:?} at {:?}", a.have(&after, 0));
        assert_eq!(a.have(&after, 0), a.goal());
        assert!(
            Achievement::unlocked_between(&before, &after).contains(&a),
            "{a:?}"
        );
        // Once only: a further game unlocks it again never.
        let mut later = after.clone();
        later.add(&SeatGame {
            game_id: last.game_id + 1,
            ..last.clone()
        });
        assert!(!Achievement::unlocked_between(&after, &later).contains(&a));
    }
}

#[test]
fn goals_are_as_documented() {
    let goals: Vec<(Achievement, u32)> = Achievement::ALL.iter().map(|a| (*a, a.goal())).collect();
    for (a, goal) in goals {
        let expected = match a {
            Achievement::Veteran => 100,
            Achievement::OnFire => 5,
            Achievement::Unstoppable | Achievement::HardTen | Achievement::Party => 10,
            Achievement::WildCards => 50,
            Achievement::TenHours => 36_000_000,
            Achievement::Wall => 25,
            _ => 1,
        };
        assert_eq!(goal, expected, "{a:?}");
    }
    // Quick: at most 12 own moves; 13 is not quick.
    let thirteen = feats_of(&[game(1, true, 13)]);
    assert_eq!(Achievement::Quick.have(&thirteen, 0), 0);
}

/// Issue 44: Lightning counts the moves of the player's whole team, so it means the same for a
/// player alone and for a team of two (5 and 6 own moves of a 2 vs 2 of 21 moves is no fast game).
#[test]
fn lightning_counts_the_team_s_moves() {
    let config = crate::engine::Config::new(
        crate::engine::Variant::Classic,
        4,
        Some(2),
        crate::engine::Options::default(),
    )
    .unwrap();
    let record = Record::random_game(config, 21);
    let seats = [
        human(1, 0, true),
        human(2, 1, false),
        human(3, 0, true),
        human(4, 1, false),
    ];
    let games = seat_games(&info(5, true), &seats, &record).unwrap();
    assert_eq!(games[0].team_moves, games[0].moves + games[2].moves);
    assert_eq!(games[1].team_moves, games[1].moves + games[3].moves);
    let quick_after = |moves: u32, team_moves: u32| {
        let mut feats = Figures::default();
        feats.add(&SeatGame {
            team_moves,
            ..game(1, true, moves)
        });
        Achievement::Quick.is_unlocked(&feats, 0)
    };
    assert!(!quick_after(6, 21), "a partner's moves count too");
    assert!(quick_after(6, 12));
    assert!(quick_after(12, 12), "a player alone: their own 12");
    assert!(!quick_after(13, 13));
}

/// Issue 44, point 1: a game the other side gave up (or that stopped, ran out of time or was
/// blocked) is not won on the board: no Lightning, Purist, Comeback or Double, and no fastest win,
/// however few moves it took; and given up after two moves each, it counts for no one.
#[test]
fn a_game_not_won_on_the_board_says_nothing_about_how() {
    let mut record = comeback_record();
    record.actions.truncate(4);
    let mut seats = [human(1, 0, true), human(2, 1, false)];
    seats[1].gave_up = true;
    let games = seat_games(&info(7, true), &seats, &record).unwrap();
    assert!(games[0].won && games[0].ended_off_board && games[0].early);
    assert!(!games[0].won_on_board());
    assert_eq!(games[0].feats(), Feats::Nothing, "too early for anyone");
    assert!(!games[0].counts_on_profile());
    assert_eq!(
        games[1].feats(),
        Feats::BreakStreak,
        "the quitter's run ends"
    );
    assert!(games[1].counts_on_profile(), "the quitter keeps the loss");
    // Even counted, a win off the board unlocks none of those that say how it was won.
    let mut feats = Figures::default();
    feats.add(&games[0]);
    for how in [
        Achievement::Quick,
        Achievement::NoWildCards,
        Achievement::Comeback,
        Achievement::Double,
    ] {
        assert!(!how.is_unlocked(&feats, 0), "{how:?}");
    }
    assert_eq!((feats.fastest_win, feats.fastest_team_win), (None, None));
    // The whole game, won on the board: all four.
    let seats = [human(1, 0, true), human(2, 1, false)];
    let games = seat_games(&info(8, true), &seats, &comeback_record()).unwrap();
    let mut feats = Figures::default();
    feats.add(&games[0]);
    for how in [
        Achievement::Quick,
        Achievement::NoWildCards,
        Achievement::Comeback,
        Achievement::Double,
    ] {
        assert!(how.is_unlocked(&feats, 0), "{how:?}");
    }
}

/// Issue 44, point 2: turns a computer played for a player are not theirs; play time is the time
/// of their own turns (at most three minutes a turn), each minute once across games side by side.
#[test]
fn only_the_player_s_own_turns_count() {
    let mut record = comeback_record();
    // Seat 0 chose its first two moves; a computer played its other eight (turns that ran out).
    record.own = Some(Vec::new());
    record.push_own(0, 10_000, 8_000);
    record.push_own(2, 400_000, 600_000);
    let seats = [human(1, 0, true), computer(Level::Hard, 1, false)];
    let games = seat_games(&info(7, false), &seats, &record).unwrap();
    let ann = &games[0];
    assert!(ann.mostly_computer);
    assert!(!ann.won, "the computer's win is not hers");
    assert_eq!((ann.moves, ann.sequences, ann.one_eyed_jacks), (2, 0, 0));
    assert_eq!(ann.feats(), Feats::BreakStreak);
    // 8 s, and a turn left for 10 minutes counts 3.
    assert_eq!(
        ann.play,
        vec![(2_000, 10_000), (400_000 - 180_000, 400_000)]
    );
    // The same spans from another game add nothing more.
    let mut f = Figures::default();
    f.add(ann);
    let once = f.play_ms;
    assert_eq!(once, 8_000 + 180_000);
    f.add(&SeatGame {
        game_id: 8,
        ..ann.clone()
    });
    assert_eq!(f.play_ms, once, "the same minutes twice");
    assert_eq!(f.timed_games, 2);
}
