//! The store's profile tests (issue 35), run against SQLite always and against PostgreSQL when
//! `SEQUENCE_BOT_TEST_POSTGRES_URL` is set: figures and feats after a scripted history whose numbers
//! are worked out by hand, achievements unlocked once at the right game (never by aborted games or
//! casual games against people), head to head both ways, the backfill of games stored before
//! profiles, a server's recomputation and damaged rows rebuilt.

use std::collections::BTreeSet;

use super::sql::profiles::recompute_profiles;
use super::sql::schema::{bands_version, migrations, profiles_version};
use super::sql::{Db, Engine, Lite, Pg};
use super::tests::{full_record, json, player, postgres_schema};
use super::*;
use crate::analysis::profile::{Breakdown, GameKind, Opposition};
use crate::analysis::tests_support::comeback_record;
use crate::engine::record::Record;
use crate::engine::Variant;

/// The server of the history.
const G: Option<u64> = Some(50);
/// The store's scopes of two chats outside servers (issue 44), 901 and 902.
const CHAT_A: Option<u64> = Some(CHAT_SCOPE | 901);
const CHAT_B: Option<u64> = Some(CHAT_SCOPE | 902);
/// Ann, Bo and Cy.
const ANN: u64 = 1;
const BO: u64 = 2;
const CY: u64 = 3;
/// When the first game ended.
const T0: i64 = 1_700_000_000_000;

fn computer(level: &str, team: u8, won: bool) -> PlayerResult {
    PlayerResult {
        bot_level: Some(level.to_string()),
        ..player(BOT_USER_ID, &format!("Computer ({level})"), team, won, 0)
    }
}

/// A game of the history: the comeback record (seat 0 wins with 10 moves: 2 sequences at once, a
/// four broken with a one-eyed jack, after seat 1's sequence; seat 1 loses with 9 moves and 1
/// sequence).
fn game(n: i64, rated: bool, players: Vec<PlayerResult>) -> FinishedGame {
    FinishedGame {
        guild_id: G,
        channel_id: 500 + u64::try_from(n).expect("positive"),
        variant: "classic".into(),
        record_json: json(&comeback_record()),
        finished_at: T0 + n * 1000,
        started_at: None,
        players,
        rated: Some(rated),
        aborted: false,
        web_token: None,
    }
}

/// The history, in order (ids 1 to 8 in a fresh store): `(game, series after it)`.
/// 1 rated Ann beats Bo (10 minutes long); 2 casual Ann beats Bo; 3 casual `hard` beats Ann;
/// 4 aborted Ann–Bo; 5 casual Ann beats `medium`, then Ann wins a series against Bo; 6 casual Ann
/// beats Bo, then Bo wins a series; 7 rated, four seats of a random game: Ann and Bo beat Cy and
/// `easy`; 8 on another server: Bo beats Ann.
fn history() -> Vec<(FinishedGame, Vec<(u64, bool)>)> {
    let ann_bo = || {
        vec![
            player(ANN, "Ann", 0, true, 2),
            player(BO, "Bo", 1, false, 1),
        ]
    };
    let first = FinishedGame {
        started_at: Some(T0 + 1000 - 600_000),
        ..game(1, true, ann_bo())
    };
    let aborted = FinishedGame {
        aborted: true,
        ..game(4, true, ann_bo())
    };
    let four = FinishedGame {
        record_json: json(&full_record(Variant::Classic, 4, Some(2), 7)),
        ..game(
            7,
            true,
            vec![
                player(ANN, "Ann", 0, true, 1),
                player(CY, "Cy", 1, false, 0),
                player(BO, "Bo", 0, true, 1),
                computer("easy", 1, false),
            ],
        )
    };
    let elsewhere = FinishedGame {
        guild_id: Some(51),
        ..game(
            8,
            true,
            vec![
                player(BO, "Bo", 0, true, 2),
                player(ANN, "Ann", 1, false, 1),
            ],
        )
    };
    vec![
        (first, vec![]),
        (game(2, false, ann_bo()), vec![]),
        (
            game(
                3,
                false,
                vec![computer("hard", 0, true), player(ANN, "Ann", 1, false, 1)],
            ),
            vec![],
        ),
        (aborted, vec![]),
        (
            game(
                5,
                false,
                vec![player(ANN, "Ann", 0, true, 2), computer("medium", 1, false)],
            ),
            vec![(ANN, true), (BO, false)],
        ),
        (game(6, false, ann_bo()), vec![(BO, true), (ANN, false)]),
        (four, vec![]),
        (elsewhere, vec![]),
    ]
}

/// Stores the history up to game `upto` (with its series).
fn store_history(store: &dyn Store, upto: usize, series: bool) {
    store_games(store, history(), upto, series);
}

/// The history as a store before profiles kept it: without when game 1 started.
fn untimed_history() -> Vec<(FinishedGame, Vec<(u64, bool)>)> {
    let mut games = history();
    for (game, _) in &mut games {
        game.started_at = None;
    }
    games
}

/// The history as a store before profiles kept it, then the attacks of issue 44 (their records with
/// the turns people chose themselves): what the backfill and the recomputation must count as
/// storing the games one by one does.
fn old_history() -> Vec<(FinishedGame, Vec<(u64, bool)>)> {
    let mut games = untimed_history();
    games.extend(attack_history().into_iter().map(|mut game| {
        game.channel_id += 100;
        (game, Vec::new())
    }));
    games
}

/// Stores `games` up to game `upto` (with their series).
fn store_games(
    store: &dyn Store,
    games: Vec<(FinishedGame, Vec<(u64, bool)>)>,
    upto: usize,
    series: bool,
) {
    for (n, (game, won)) in games.into_iter().enumerate().take(upto) {
        let id = store.finish_game(&game).expect("finish");
        assert_eq!(id, GameId(i64::try_from(n).expect("few") + 1));
        if series && !won.is_empty() {
            store.finish_series(game.guild_id, &won).expect("series");
        }
    }
}

fn row(games: u32, wins: u32, moves: u32, fastest_win: Option<u32>) -> Breakdown {
    Breakdown {
        games,
        wins,
        moves,
        fastest_win,
    }
}

/// Ann's figures after games 1 to 6, worked out by hand: wins 1, 2, 5, 6 as seat 0 (10 moves, 2
/// sequences, 1 one-eyed jack breaking a four, a double sequence, a comeback, moving first), the loss
/// 3 as seat 1 (9 moves, 1 sequence); game 4 aborted.
fn ann_figures() -> Figures {
    let mut f = Figures {
        games: 5,
        wins: 4,
        current_streak: 2,
        best_streak: 2,
        sequences: 9,
        one_eyed_jacks: 4,
        lines_broken: 4,
        fours_broken_with_one_eyed: 4,
        first_move_games: 4,
        first_move_wins: 4,
        moves: 49,
        play_ms: 600_000,
        timed_games: 1,
        first_game_at: Some(T0 + 1000),
        last_game_id: 6,
        double_sequences: 4,
        wins_without_two_eyed: 4,
        comebacks: 4,
        fastest_win: Some(10),
        fastest_team_win: Some(10),
        play_spans: vec![(T0 + 1000 - 600_000, T0 + 1000)],
        ..Figures::default()
    };
    f.by_game[GameKind::Classic.index()] = row(5, 4, 49, Some(10));
    f.by_opposition[Opposition::Humans.index()] = row(3, 3, 30, Some(10));
    f.by_opposition[Opposition::Hard.index()] = row(1, 0, 9, None);
    f.by_opposition[Opposition::Medium.index()] = row(1, 1, 10, Some(10));
    f
}

/// Ann's feats after games 1 to 6: games 1 (rated), 3 and 5 (against computers).
fn ann_feats() -> Figures {
    let mut f = Figures {
        games: 3,
        wins: 2,
        current_streak: 1,
        best_streak: 1,
        sequences: 5,
        one_eyed_jacks: 2,
        lines_broken: 2,
        fours_broken_with_one_eyed: 2,
        first_move_games: 2,
        first_move_wins: 2,
        moves: 29,
        play_ms: 600_000,
        timed_games: 1,
        first_game_at: Some(T0 + 1000),
        last_game_id: 5,
        double_sequences: 2,
        wins_without_two_eyed: 2,
        comebacks: 2,
        fastest_win: Some(10),
        fastest_team_win: Some(10),
        play_spans: vec![(T0 + 1000 - 600_000, T0 + 1000)],
        ..Figures::default()
    };
    f.by_game[GameKind::Classic.index()] = row(3, 2, 29, Some(10));
    f.by_opposition[Opposition::Humans.index()] = row(1, 1, 10, Some(10));
    f.by_opposition[Opposition::Hard.index()] = row(1, 0, 9, None);
    f.by_opposition[Opposition::Medium.index()] = row(1, 1, 10, Some(10));
    f
}

fn set(items: &[(u64, Achievement)]) -> BTreeSet<(u64, Achievement)> {
    items.iter().copied().collect()
}

/// `record` with the actions `own` picks marked as chosen by their person, the `i`-th action played
/// at `start + i * 10 s` after a turn of 8 s.
fn with_own(mut record: Record, start: i64, own: impl Fn(usize, u8) -> bool) -> Record {
    record.own = Some(Vec::new());
    for (index, action) in record.actions.clone().iter().enumerate() {
        if own(index, action.seat) {
            let at = start + i64::try_from(index).expect("few") * 10_000;
            record.push_own(index, at, 8_000);
        }
    }
    record
}

/// A game of the farming attacks, stored as the bot stores one (its record with own turns).
fn attack_game(n: i64, record: Record, players: Vec<PlayerResult>) -> FinishedGame {
    FinishedGame {
        guild_id: G,
        channel_id: 900 + u64::try_from(n).expect("positive"),
        variant: "classic".into(),
        record_json: json(&record),
        finished_at: T0 + n * 60_000,
        started_at: Some(T0 + n * 60_000 - 600_000),
        players,
        rated: Some(true),
        aborted: false,
        web_token: None,
    }
}

/// The attacks of issue 44, in order, and then one honest game each way: Ann's second account Bo
/// gives up after 2 moves (5 rated games), Ann gives up on `easy` after 2 moves (3 games), `hard`
/// plays 8 of Ann's 10 moves for her (the server's absent-player settings) and her side wins, three
/// games against `easy` played side by side (the same minutes), a game Bo gives up after each side
/// made 12 moves (a real game, not won on the board).
fn attack_history() -> Vec<FinishedGame> {
    let mut games = Vec::new();
    let mut n = 0;
    let mut next = || {
        n += 1;
        n
    };
    let early = |start| {
        let mut record = comeback_record();
        record.actions.truncate(4);
        with_own(record, start, |_, _| true)
    };
    for _ in 0..5 {
        let n = next();
        let mut quitter = player(BO, "Bo", 1, false, 0);
        quitter.gave_up = true;
        games.push(attack_game(
            n,
            early(T0 + n * 60_000),
            vec![player(ANN, "Ann", 0, true, 0), quitter],
        ));
    }
    for _ in 0..3 {
        let n = next();
        let mut ann = player(ANN, "Ann", 0, false, 0);
        ann.gave_up = true;
        games.push(attack_game(
            n,
            early(T0 + n * 60_000),
            vec![ann, computer("easy", 1, true)],
        ));
    }
    // Ann's seat 0 chose only its first two moves (actions 0 and 2); the computer the rest, among
    // them both sequences.
    let n = next();
    games.push(attack_game(
        n,
        with_own(comeback_record(), T0 + n * 60_000, |i, seat| {
            seat == 0 && i < 4
        }),
        vec![player(ANN, "Ann", 0, true, 2), computer("hard", 1, false)],
    ));
    let side_by_side = T0 + 100 * 60_000;
    for _ in 0..3 {
        let n = next();
        games.push(attack_game(
            n,
            with_own(comeback_record(), side_by_side, |_, seat| seat == 0),
            vec![player(ANN, "Ann", 0, true, 2), computer("easy", 1, false)],
        ));
    }
    let n = next();
    let mut resigned = full_record(Variant::Classic, 2, None, 11);
    resigned.actions.truncate(24);
    let mut quitter = player(BO, "Bo", 1, false, 0);
    quitter.gave_up = true;
    games.push(attack_game(
        n,
        with_own(resigned, T0 + n * 60_000, |_, _| true),
        vec![player(ANN, "Ann", 0, true, 0), quitter],
    ));
    games
}

/// The cases both engines run.
pub(super) mod cases {
    use super::*;

    /// Issue 44: the farming attacks unlock nothing that was not earned; what was earned counts.
    pub fn farming_unlocks_nothing(store: &dyn Store) {
        let games = attack_history();
        // Stores the games of `range` and returns what they unlocked.
        let unlocked_by = |range: std::ops::Range<usize>| -> Vec<(u64, Achievement)> {
            games[range]
                .iter()
                .map(|game| store.finish_game(game).expect("finish"))
                .flat_map(|id| store.unlocked_in(id).expect("unlocked"))
                .collect()
        };
        // Five wins over a second account that gave up after two moves: nothing for anyone, and
        // not on Ann's profile; Bo keeps five losses and no count grows.
        assert_eq!(unlocked_by(0..5), vec![], "alts that give up");
        let bo = store.profile(G, BO).expect("profile");
        assert_eq!((bo.figures.games, bo.figures.wins), (5, 0));
        assert_eq!(bo.feats, Figures::default());
        // Giving up on `easy` after two moves, three times: Veteran and First game do not grow.
        assert_eq!(unlocked_by(5..8), vec![], "an easy computer given up on");
        let ann = store.profile(G, ANN).expect("profile");
        assert_eq!(ann.feats.games, 0, "{:?}", ann.feats);
        assert_eq!((ann.figures.games, ann.figures.wins), (3, 0));
        // `hard` played most of Ann's moves: not her win, moves or sequences; no Giant slayer.
        assert_eq!(unlocked_by(8..9), vec![], "a computer playing for her");
        let ann = store.profile(G, ANN).expect("profile");
        assert_eq!((ann.figures.games, ann.figures.wins), (4, 0));
        assert_eq!(ann.figures.moves, 3 * 2 + 2, "only the moves she chose");
        assert_eq!(ann.figures.sequences, 0);
        assert_eq!(ann.feats.games, 0);
        // Three games side by side in the same minutes: the play time of one, and what each
        // earned (they are real games against `easy`, won on the board).
        let earned: BTreeSet<(u64, Achievement)> = unlocked_by(9..12).into_iter().collect();
        assert!(
            earned.contains(&(ANN, Achievement::FirstGame)),
            "{earned:?}"
        );
        assert!(earned.contains(&(ANN, Achievement::BeatEasy)), "{earned:?}");
        assert!(earned.contains(&(ANN, Achievement::Quick)), "{earned:?}");
        let ann = store.profile(G, ANN).expect("profile");
        let one_game: u64 = 10 * 8_000;
        assert_eq!(
            ann.figures.play_ms,
            4 * 2 * 8_000 + one_game,
            "each minute once"
        );
        assert_eq!(ann.feats.play_ms, one_game);
        // Bo gave up after a real game: a win for Ann, but not one won on the board, so nothing
        // that says how it was won and no fastest win from it.
        let last = unlocked_by(12..13);
        for how in [
            Achievement::Quick,
            Achievement::NoWildCards,
            Achievement::Comeback,
            Achievement::Double,
        ] {
            assert!(!last.iter().any(|(_, a)| *a == how), "{last:?}");
        }
        let ann = store.profile(G, ANN).expect("profile");
        assert_eq!((ann.feats.games, ann.feats.wins), (4, 4));
        assert_eq!(ann.feats.fastest_win, Some(10), "from the board wins only");
    }

    /// Figures, feats and achievements after the scripted history.
    pub fn figures_and_achievements(store: &dyn Store) {
        store_history(store, 6, true);
        let ann = store.profile(G, ANN).expect("profile");
        assert_eq!(ann.figures, ann_figures());
        assert_eq!(ann.feats, ann_feats());
        assert_eq!(ann.name.as_deref(), Some("Ann"));
        assert_eq!(ann.series, SeriesStats { played: 2, won: 1 });
        let unlocked: Vec<(Achievement, i64, i64)> = ann
            .unlocked
            .iter()
            .map(|u| (u.achievement, u.game_id, u.at))
            .collect();
        let at = |n: i64| T0 + n * 1000;
        let mut expected: Vec<(Achievement, i64, i64)> = [
            Achievement::FirstGame,
            Achievement::Quick,
            Achievement::Breaker,
            Achievement::Double,
            Achievement::NoWildCards,
            Achievement::Comeback,
        ]
        .into_iter()
        .map(|a| (a, 1, at(1)))
        .collect();
        expected.push((Achievement::BeatMedium, 5, at(5)));
        let series = ann
            .unlocked
            .iter()
            .find(|u| u.achievement == Achievement::SeriesWon)
            .expect("a series won after a game against a computer");
        assert_eq!(series.game_id, 5);
        expected.push((Achievement::SeriesWon, 5, series.at));
        let sorted = |mut v: Vec<(Achievement, i64, i64)>| {
            v.sort();
            v
        };
        assert_eq!(sorted(unlocked), sorted(expected));
        // Exactly once, at the right game; never by the aborted game 4 nor the casual games 2 and 6
        // against a person.
        assert_eq!(
            set(&store.unlocked_in(GameId(1)).expect("unlocked")),
            set(&[
                (ANN, Achievement::FirstGame),
                (ANN, Achievement::Quick),
                (ANN, Achievement::Breaker),
                (ANN, Achievement::Double),
                (ANN, Achievement::NoWildCards),
                (ANN, Achievement::Comeback),
                (BO, Achievement::FirstGame),
            ])
        );
        for casual in [2, 3, 4, 6] {
            assert_eq!(
                store.unlocked_in(GameId(casual)).expect("unlocked"),
                vec![],
                "game {casual}"
            );
        }
        assert_eq!(
            set(&store.unlocked_in(GameId(5)).expect("unlocked")),
            set(&[
                (ANN, Achievement::BeatMedium),
                (ANN, Achievement::SeriesWon)
            ])
        );
        // Bo won a series whose last game was casual against Ann: no achievement for it.
        let bo = store.profile(G, BO).expect("profile");
        assert_eq!(bo.figures.games, 3);
        assert_eq!(bo.figures.wins, 0);
        assert_eq!(bo.feats.games, 1);
        assert_eq!(
            bo.unlocked
                .iter()
                .map(|u| u.achievement)
                .collect::<Vec<_>>(),
            vec![Achievement::FirstGame]
        );
        assert_eq!(bo.series, SeriesStats { played: 2, won: 1 });
        // Only game 1 was rated: a chart of one point, Ann first of two.
        let rating = ann.rating.expect("rated");
        assert_eq!(ann.chart, vec![rating.conservative()]);
        assert_eq!(ann.rank, Some((1, 2)));
        assert_eq!(bo.rank, Some((2, 2)));

        // The four-seat rated game: Ann and Bo partners, both win, against Cy and `easy`.
        let (four, _) = history().swap_remove(6);
        assert_eq!(store.finish_game(&four).expect("finish"), GameId(7));
        let ann = store.profile(G, ANN).expect("profile");
        assert_eq!((ann.figures.games, ann.figures.wins), (6, 5));
        assert_eq!((ann.feats.games, ann.feats.wins), (4, 3));
        assert_eq!(ann.figures.crowd_games, 1);
        assert_eq!(
            ann.feats.by_opposition[Opposition::Easy.index()].wins,
            1,
            "{:?}",
            ann.feats
        );
        assert_eq!(
            ann.figures.by_opposition[Opposition::Humans.index()].games,
            4
        );
        assert_eq!(ann.chart.len(), 2);
        assert_eq!(ann.chart[1], ann.rating.expect("rated").conservative());
        let in_seven = store.unlocked_in(GameId(7)).expect("unlocked");
        assert!(in_seven.contains(&(ANN, Achievement::BeatEasy)));
        assert!(in_seven.contains(&(CY, Achievement::FirstGame)));
        assert!(!in_seven.contains(&(ANN, Achievement::FirstGame)));
        let board = store.rating_leaderboard(G, 10).expect("board");
        for (place, line) in board.iter().enumerate() {
            let rank = store.profile(G, line.user_id).expect("profile").rank;
            assert_eq!(rank, Some((u32::try_from(place).expect("few") + 1, 3)));
        }

        // Another server's game counts there only.
        let (elsewhere, _) = history().swap_remove(7);
        store.finish_game(&elsewhere).expect("finish");
        assert_eq!(store.profile(G, ANN).expect("profile").figures.games, 6);
        let there = store.profile(Some(51), ANN).expect("profile");
        assert_eq!((there.figures.games, there.figures.wins), (1, 0));

        // A newcomer has an empty profile.
        let new = store.profile(G, 99).expect("profile");
        assert_eq!(new, Profile::default());
    }

    /// Head to head, both ways.
    pub fn head_to_head(store: &dyn Store) {
        store_history(store, 6, true);
        let ann_bo = store.versus(G, ANN, BO).expect("versus");
        let shared = |id: i64| SharedGame {
            id,
            variant: "classic".into(),
            finished_at: T0 + id * 1000,
            partners: false,
            won: true,
            other_won: false,
        };
        assert_eq!(
            ann_bo,
            Versus {
                games: 3,
                partner_games: 0,
                partner_wins: 0,
                opponent_games: 3,
                wins: 3,
                losses: 0,
                sequences: 6,
                other_sequences: 3,
                recent: vec![shared(6), shared(2), shared(1)],
            }
        );
        let bo_ann = store.versus(G, BO, ANN).expect("versus");
        let mirrored = |s: SharedGame| SharedGame {
            won: s.other_won,
            other_won: s.won,
            ..s
        };
        assert_eq!(
            bo_ann,
            Versus {
                wins: 0,
                losses: 3,
                sequences: 3,
                other_sequences: 6,
                recent: ann_bo.recent.iter().cloned().map(mirrored).collect(),
                ..ann_bo.clone()
            }
        );
        assert_eq!(store.versus(G, ANN, CY).expect("versus"), Versus::default());
        assert_eq!(
            store.versus(G, ANN, ANN).expect("versus"),
            Versus::default()
        );
        // Partners in game 7, both winning.
        let (four, _) = history().swap_remove(6);
        store.finish_game(&four).expect("finish");
        let after = store.versus(G, ANN, BO).expect("versus");
        assert_eq!(
            (
                after.games,
                after.partner_games,
                after.partner_wins,
                after.opponent_games,
                after.wins,
                after.losses
            ),
            (4, 1, 1, 3, 3, 0)
        );
        assert_eq!(
            after
                .recent
                .first()
                .map(|s| (s.id, s.partners, s.won, s.other_won)),
            Some((7, true, true, true))
        );
        let ann_cy = store.versus(G, ANN, CY).expect("versus");
        assert_eq!(
            (
                ann_cy.games,
                ann_cy.opponent_games,
                ann_cy.wins,
                ann_cy.losses
            ),
            (1, 1, 1, 0)
        );
        let cy_ann = store.versus(G, CY, ANN).expect("versus");
        assert_eq!((cy_ann.wins, cy_ann.losses), (0, 1));
        // At most the latest ten shared games, newest first.
        for n in 0..12 {
            let mut g = game(
                20 + n,
                false,
                vec![
                    player(ANN, "Ann", 0, true, 2),
                    player(BO, "Bo", 1, false, 1),
                ],
            );
            g.channel_id = 700 + u64::try_from(n).expect("small");
            store.finish_game(&g).expect("finish");
        }
        let many = store.versus(G, BO, ANN).expect("versus");
        assert_eq!(many.games, 16);
        assert_eq!(many.recent.len(), 10);
        assert!(many.recent.windows(2).all(|w| w[0].id > w[1].id));
        // Another server's games are not among them.
        assert_eq!(store.versus(Some(51), ANN, BO).expect("versus").games, 0);
    }

    /// Issue 44: outside servers (no server) a game counts in its chat only: no chat's profile or
    /// head to head shows another chat's games or their numbers, and nothing is pooled as "no
    /// server". Ann beats Bo twice in chat 901, Bo beats Ann in chat 902.
    pub fn chats_keep_their_own(store: &dyn Store) {
        store_chat_games(store);
        let figures = |scope: Option<u64>| store.profile(scope, ANN).expect("profile").figures;
        assert_eq!((figures(CHAT_A).games, figures(CHAT_A).wins), (2, 2));
        assert_eq!((figures(CHAT_B).games, figures(CHAT_B).wins), (1, 0));
        assert_eq!(figures(None).games, 0, "nothing pooled outside servers");
        assert_eq!(figures(G).games, 0);
        let shown = |scope: Option<u64>| {
            let v = store.versus(scope, ANN, BO).expect("versus");
            (
                v.games,
                v.wins,
                v.recent.iter().map(|g| g.id).collect::<Vec<_>>(),
            )
        };
        assert_eq!(shown(CHAT_A), (2, 2, vec![2, 1]));
        assert_eq!(shown(CHAT_B), (1, 0, vec![3]));
        assert_eq!(shown(None), (0, 0, vec![]));
        assert_eq!(store.player_stats(CHAT_B, BO).expect("stats").wins, 1);
        assert_eq!(store.player_stats(CHAT_A, BO).expect("stats").wins, 0);
        assert_eq!(
            store.profile(CHAT_A, BO).expect("profile").name.as_deref(),
            Some("Bo")
        );
    }

    /// Three games outside servers: Ann beats Bo twice in chat 901, Bo beats Ann in chat 902.
    pub fn store_chat_games(store: &dyn Store) {
        for (n, channel, ann_wins) in [(40, 901, true), (41, 901, true), (42, 902, false)] {
            let chat = FinishedGame {
                guild_id: None,
                channel_id: channel,
                ..game(
                    n,
                    false,
                    vec![
                        player(ANN, "Ann", 0, ann_wins, 2),
                        player(BO, "Bo", 1, !ann_wins, 1),
                    ],
                )
            };
            store.finish_game(&chat).expect("finish");
        }
    }

    /// Everything a player sees of their profile and head to head, for comparing two stores.
    pub fn snapshot(store: &dyn Store) -> Vec<String> {
        let mut out = Vec::new();
        for guild in [G, Some(51), CHAT_A, CHAT_B, None] {
            for user in [ANN, BO, CY] {
                let p = store.profile(guild, user).expect("profile");
                out.push(format!(
                    "{guild:?} {user}: {:?} {:?} {:?}",
                    p.figures, p.feats, p.unlocked
                ));
                for other in [ANN, BO, CY] {
                    let v = store.versus(guild, user, other).expect("versus");
                    out.push(format!("{guild:?} {user}-{other}: {v:?}"));
                }
            }
        }
        for id in 1..=i64::try_from(old_history().len()).expect("few") {
            let mut unlocked = store.unlocked_in(GameId(id)).expect("unlocked");
            unlocked.sort();
            out.push(format!("game {id}: {unlocked:?}"));
        }
        out
    }

    /// Recomputing a server (`recompute`, on the database under the store) gives the same numbers;
    /// and a damaged row (`damage`, SQL run on that database) is rebuilt from the games when read,
    /// by the profile, the head to head and the next game.
    pub fn recompute_and_damage(
        store: &dyn Store,
        recompute: &dyn Fn(Option<i64>),
        damage: &dyn Fn(&str),
        statements: &[&str],
    ) {
        store_history(store, 8, true);
        store_chat_games(store);
        let clean = snapshot(store);
        recompute(Some(50));
        assert_eq!(snapshot(store), clean, "one server recomputed");
        recompute(None);
        assert_eq!(snapshot(store), clean, "every server recomputed");
        for sql in statements {
            damage(sql);
            assert_eq!(snapshot(store), clean, "after `{sql}`");
        }
        // The next game of a damaged player starts from their rebuilt rows.
        let before = store.profile(G, ANN).expect("profile");
        if let Some(sql) = statements.first() {
            damage(sql);
        }
        let next = FinishedGame {
            channel_id: 777,
            ..game(
                30,
                false,
                vec![
                    player(ANN, "Ann", 0, true, 2),
                    player(BO, "Bo", 1, false, 1),
                ],
            )
        };
        store.finish_game(&next).expect("finish");
        let after = store.profile(G, ANN).expect("profile");
        assert_eq!(after.figures.games, before.figures.games + 1);
        assert_eq!(after.figures.wins, before.figures.wins + 1);
        assert_eq!(after.figures.problem(), None);
        assert_eq!(store.versus(G, ANN, BO).expect("versus").games, 5);
    }
}

/// The damage both engines can hold: JSON that does not read, totals that cannot be, a scope
/// missing, head-to-head counts that cannot be.
const DAMAGE: [&str; 6] = [
    "UPDATE player_figures SET figures_json = 'not json' WHERE guild_id = 50 AND user_id = 1
        AND scope = 'figures'",
    "UPDATE player_figures SET figures_json = '{\"games\": 2, \"wins\": 7}' WHERE guild_id = 50
        AND user_id = 1 AND scope = 'feats'",
    "DELETE FROM player_figures WHERE guild_id = 50 AND user_id = 2 AND scope = 'feats'",
    "UPDATE pair_totals SET wins = 99 WHERE guild_id = 50 AND user_id = 1 AND other_id = 2",
    "UPDATE pair_totals SET games = -1 WHERE guild_id = 50 AND user_id = 2 AND other_id = 1",
    // Chat 901's scope (`CHAT_A`, stored as a negative number): rebuilt from that chat's games.
    "DELETE FROM player_figures WHERE guild_id = -9223372036854774907 AND user_id = 1
        AND scope = 'feats'",
];

macro_rules! suite {
    ($backend:ident, $open:path) => {
        mod $backend {
            use super::*;

            #[test]
            fn figures_and_achievements() {
                if let Some(t) = $open("profile") {
                    cases::figures_and_achievements(&*t.store);
                }
            }

            #[test]
            fn farming_unlocks_nothing() {
                if let Some(t) = $open("farming") {
                    cases::farming_unlocks_nothing(&*t.store);
                }
            }

            #[test]
            fn head_to_head() {
                if let Some(t) = $open("versus") {
                    cases::head_to_head(&*t.store);
                }
            }

            #[test]
            fn chats_keep_their_own() {
                if let Some(t) = $open("chats") {
                    cases::chats_keep_their_own(&*t.store);
                }
            }
        }
    };
}

suite!(sqlite, super::tests::sqlite_store);
suite!(postgres, super::tests::postgres_store);

#[test]
fn sqlite_profiles_are_recomputed_and_rebuilt() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bot.db");
    let store = SqliteStore::open(&path).expect("open");
    let raw = rusqlite::Connection::open(&path).expect("open raw");
    let recompute = |guild: Option<i64>| {
        let tx = raw.unchecked_transaction().expect("transaction");
        recompute_profiles(&mut Lite(&tx), guild).expect("recompute");
        tx.commit().expect("commit");
    };
    let damage = |sql: &str| {
        raw.execute_batch(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    let mut statements = DAMAGE.to_vec();
    // SQLite keeps any value in any column.
    statements.extend([
        "UPDATE player_figures SET figures_json = X'00FF' WHERE guild_id = 50 AND user_id = 1
            AND scope = 'figures'",
        "UPDATE pair_totals SET losses = 'many' WHERE guild_id = 50 AND user_id = 1 AND other_id = 2",
    ]);
    cases::recompute_and_damage(&store, &recompute, &damage, &statements);
}

#[test]
fn postgres_profiles_are_recomputed_and_rebuilt() {
    let Some((config, _guard)) = postgres_schema("profiles_rebuilt") else {
        return;
    };
    let store = PostgresStore::open_config(config.clone()).expect("open");
    let raw = std::cell::RefCell::new(config.connect(::postgres::NoTls).expect("connect"));
    let recompute = |guild: Option<i64>| {
        let mut client = raw.borrow_mut();
        let mut tx = client.transaction().expect("transaction");
        recompute_profiles(&mut Pg(&mut tx), guild).expect("recompute");
        tx.commit().expect("commit");
    };
    let damage = |sql: &str| {
        raw.borrow_mut()
            .batch_execute(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    cases::recompute_and_damage(&store, &recompute, &damage, &DAMAGE);
}

/// Writes the history's games the way a store before profiles did (schema of `migrations`
/// applied, no profile rows), with ids 1, 2, ...
fn write_old_games(db: &mut dyn Db) {
    for (n, (game, _)) in old_history().into_iter().enumerate() {
        let id = i64::try_from(n).expect("few") + 1;
        let rated = !game.aborted && game.rated.unwrap_or(false);
        db.execute(
            "INSERT INTO games (id, guild_id, channel_id, variant, record_json, finished_at,
                announced, rated, aborted)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, {true}, ?7, ?8)",
            super::sql::params![
                id,
                guild_to_db(game.guild_id),
                to_db_id(game.channel_id),
                game.variant.as_str(),
                game.record_json.as_str(),
                game.finished_at,
                rated,
                game.aborted
            ],
        )
        .expect("old game");
        for (seat, p) in game.players.iter().enumerate() {
            db.execute(
                "INSERT INTO game_players (game_id, seat, user_id, name, team, won, sequences,
                    bot_level, gave_up)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                super::sql::params![
                    id,
                    i64::try_from(seat).expect("few"),
                    to_db_id(p.user_id),
                    p.name.as_str(),
                    i64::from(p.team),
                    p.won,
                    i64::from(p.sequences),
                    p.bot_level.as_deref(),
                    p.gave_up
                ],
            )
            .expect("old player");
        }
    }
}

/// Issue 44: a store with a profiles' rebuild under way answers profile reads "being rebuilt" and
/// leaves finished games to the rebuild; a few steps (`upto`: how many games in all) run.
fn rebuild_steps(store: &dyn Store, steps: usize) -> bool {
    let mut more = true;
    for _ in 0..steps {
        more = store.rebuild_profiles_step(2).expect("step");
        if !more {
            break;
        }
    }
    more
}

/// Whether profile reads say the profiles are being rebuilt.
fn rebuilding(store: &dyn Store) -> bool {
    let profile = store.profile(G, ANN);
    let versus = store.versus(G, ANN, BO);
    match (profile, versus) {
        (
            Err(StoreError::ProfilesRebuilding { .. }),
            Err(StoreError::ProfilesRebuilding { .. }),
        ) => true,
        (Ok(_), Ok(_)) => false,
        other => panic!("profile and versus disagree: {other:?}"),
    }
}

/// Games stored before profiles existed get them after the store is opened, in the background
/// (issue 44: the store opens at once and the profiles are rebuilt a step at a time, profile reads
/// answering "being rebuilt" meanwhile); stopped halfway and opened again, the rebuild resumes; at
/// the end the same rows as storing the games one by one (series won are not in the games: none
/// are stored here).
#[test]
fn sqlite_profiles_are_backfilled_from_older_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = dir.path().join("old.db");
    {
        let conn = rusqlite::Connection::open(&old).expect("open");
        let before = usize::try_from(profiles_version(Engine::Sqlite) - 1).expect("version");
        for sql in &migrations(Engine::Sqlite)[..before] {
            conn.execute_batch(sql).expect("old schema");
        }
        conn.execute_batch(&format!("PRAGMA user_version = {before}"))
            .expect("version");
        write_old_games(&mut Lite(&conn));
    }
    let upgraded = SqliteStore::open(&old).expect("upgrade");
    assert!(rebuilding(&upgraded));
    // Two steps of two games, then the bot stops.
    assert!(rebuild_steps(&upgraded, 2));
    assert!(rebuilding(&upgraded));
    drop(upgraded);
    let upgraded = SqliteStore::open(&old).expect("reopen halfway");
    assert!(rebuilding(&upgraded));
    assert!(!rebuild_steps(&upgraded, 100), "the rebuild ends");
    assert!(!rebuilding(&upgraded));
    assert!(!upgraded.rebuild_profiles_step(2).expect("step"));
    let fresh = SqliteStore::open(dir.path().join("new.db")).expect("open");
    store_games(&fresh, old_history(), usize::MAX, false);
    assert_eq!(cases::snapshot(&upgraded), cases::snapshot(&fresh));
    // Games 1 to 6 as worked out by hand, then the won game 7; then the attacks: three games given
    // up, one a computer played for her (losses on her profile only), four real wins (three side
    // by side, one given up by Bo), the five wins over Bo's early give-ups nowhere.
    let ann = upgraded.profile(G, ANN).expect("profile");
    assert_eq!((ann.figures.games, ann.figures.wins), (6 + 8, 5 + 4));
    assert_eq!((ann.feats.games, ann.feats.wins), (4 + 4, 3 + 4));
    assert_eq!(
        ann.figures.last_game_id,
        i64::try_from(old_history().len()).expect("few")
    );
    // Opened again, nothing is counted twice.
    drop(upgraded);
    let again = SqliteStore::open(&old).expect("reopen");
    assert_eq!(cases::snapshot(&again), cases::snapshot(&fresh));
}

/// Issue 44: a database whose profiles were counted under the old rules (here an achievement that
/// no game earns under the new ones) takes the migration that added the rank bands and rebuilds its
/// profiles in the background under the new rules: the unearned achievement goes, and the profiles
/// equal storing the games one by one.
#[test]
fn sqlite_profiles_counted_under_the_old_rules_are_rebuilt() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = dir.path().join("old.db");
    {
        let conn = rusqlite::Connection::open(&old).expect("open");
        let before = usize::try_from(bands_version(Engine::Sqlite) - 1).expect("version");
        for sql in &migrations(Engine::Sqlite)[..before] {
            conn.execute_batch(sql).expect("old schema");
        }
        conn.execute_batch(&format!("PRAGMA user_version = {before}"))
            .expect("version");
        write_old_games(&mut Lite(&conn));
        conn.execute(
            "INSERT INTO achievements (guild_id, user_id, achievement, game_id, unlocked_at)
             VALUES (?1, ?2, ?3, 1, 0)",
            rusqlite::params![guild_to_db(G), to_db_id(BO), Achievement::Veteran.key()],
        )
        .expect("an achievement of the old rules");
    }
    let upgraded = SqliteStore::open(&old).expect("upgrade");
    assert!(rebuilding(&upgraded));
    assert!(!rebuild_steps(&upgraded, 100), "the rebuild ends");
    let bo = upgraded.profile(G, BO).expect("profile");
    assert!(
        bo.unlocked
            .iter()
            .all(|u| u.achievement != Achievement::Veteran),
        "{:?}",
        bo.unlocked
    );
    let fresh = SqliteStore::open(dir.path().join("new.db")).expect("open");
    store_games(&fresh, old_history(), usize::MAX, false);
    assert_eq!(cases::snapshot(&upgraded), cases::snapshot(&fresh));
}

#[test]
fn postgres_profiles_are_backfilled_from_older_games() {
    let Some((config, _guard)) = postgres_schema("profiles_backfill") else {
        return;
    };
    {
        let mut client = config.connect(::postgres::NoTls).expect("connect");
        let before = usize::try_from(profiles_version(Engine::Postgres) - 1).expect("version");
        let mut tx = client.transaction().expect("transaction");
        for sql in &migrations(Engine::Postgres)[..before] {
            tx.batch_execute(sql).expect("old schema");
        }
        tx.batch_execute(&format!(
            "CREATE TABLE schema_version (version BIGINT NOT NULL);
             INSERT INTO schema_version (version) VALUES ({before});"
        ))
        .expect("version");
        write_old_games(&mut Pg(&mut tx));
        tx.batch_execute(&format!(
            "SELECT setval('games_id_seq', {})",
            old_history().len()
        ))
        .expect("sequence");
        tx.commit().expect("commit");
    }
    let upgraded = PostgresStore::open_config(config.clone()).expect("upgrade");
    assert!(rebuilding(&upgraded));
    assert!(rebuild_steps(&upgraded, 2));
    drop(upgraded);
    let upgraded = PostgresStore::open_config(config.clone()).expect("reopen halfway");
    assert!(rebuilding(&upgraded));
    assert!(!rebuild_steps(&upgraded, 100), "the rebuild ends");
    assert!(!rebuilding(&upgraded));
    let Some((fresh_config, _fresh_guard)) = postgres_schema("profiles_fresh") else {
        return;
    };
    let fresh = PostgresStore::open_config(fresh_config).expect("open");
    store_games(&fresh, old_history(), usize::MAX, false);
    assert_eq!(cases::snapshot(&upgraded), cases::snapshot(&fresh));
    drop(upgraded);
    let again = PostgresStore::open_config(config).expect("reopen");
    assert_eq!(cases::snapshot(&again), cases::snapshot(&fresh));
}
