//! Issue 24, points 1 and 2, through the service on a real store (SQLite, and PostgreSQL when
//! configured): a second account cannot pump a rating (aborted games, computer teammates, the daily
//! limit of rated games between the same players), and a loss cannot be made to disappear (a stop by
//! a player, giving up against a computer, a stop after a forfeit, a moderator's stop).

use super::kit::Start;
use std::collections::HashMap;
use std::sync::Arc;

use crate::engine::{Move, MoveList, Variant};
use crate::store::rating::{rate_game, PlayerRating};
use crate::store::tests::sqlite_store;
use crate::store::{PlayerResult, Store};

use super::kit::{backends, command_for, reply_text, seeded, test_actor, Asker, T0};
use crate::service::{
    Actor, BotLevel, ChannelId, Command, GuildId, Limits, Output, Reply, Settings, Tables,
};

const GUILD: GuildId = GuildId(6);
/// A member who may manage messages but plays in none of these games.
const MODERATOR: u64 = 900;

/// Requests come from server [`GUILD`]; user [`MODERATOR`] may manage games.
const HERE: Asker = Asker::server(GUILD).as_actor(actor);

/// A test actor who may manage games if they are [`MODERATOR`].
fn actor(user: u64) -> Actor {
    Actor {
        can_manage: user == MODERATOR,
        ..test_actor(user)
    }
}

/// The operator's defaults (five rated games a day between the same players), no other limit.
fn settings() -> Settings {
    Settings {
        limits: Limits {
            rated_games_per_day: 5,
            ..Limits::unlimited()
        },
        ..Settings::default()
    }
}

fn rated_tables_on(store: Arc<dyn Store>, seed: u64) -> Tables {
    seeded(settings(), seed).with_store(store)
}

/// The text of the lobby message a reply posts or edits.
fn lobby_text(reply: &Reply) -> String {
    reply
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Lobby { message, .. } => Some(message.to_english()),
            _ => None,
        })
        .unwrap_or_default()
}

/// A lobby in `channel`: `host` starts it (`teams`, `rated`), the others join with their team
/// (1-based), then the host adds computers of these levels.
fn lobby(
    tables: &Tables,
    channel: u64,
    teams: Option<u8>,
    rated: Option<bool>,
    humans: &[(u64, Option<u8>)],
    bots: &[BotLevel],
) -> Reply {
    let (host, _) = humans[0];
    let mut last = HERE.accepted(
        tables,
        channel,
        host,
        Start {
            teams,
            rated,
            ..Start::of(Variant::Classic)
        }
        .command(),
    );
    for &(user, team) in &humans[1..] {
        last = HERE.accepted(tables, channel, user, Command::Join { team });
    }
    for &level in bots {
        last = HERE.accepted(
            tables,
            channel,
            host,
            Command::AddBot { level: Some(level) },
        );
    }
    last
}

/// Plays (humans the first legal move of their own view, computers through the service) until every
/// human seat made `each` moves of their own.
fn play_until_everyone_moved(tables: &Tables, channel: u64, each: u32) {
    for _ in 0..500 {
        let Some(table) = tables.snapshot(ChannelId(channel)) else {
            panic!("the game ended early");
        };
        let playing = table.playing().expect("playing");
        let config = *playing.game().config();
        let done = (0..config.players).all(|seat| {
            playing.seats[usize::from(seat)].user().is_none() || playing.moves_made(seat) >= each
        });
        if done {
            return;
        }
        let seat = playing.game().position().to_move();
        match playing.seats[usize::from(seat)].user() {
            Some(user) => {
                let mut moves = MoveList::new();
                playing.game().view(seat).legal_moves(&mut moves);
                let mv = moves
                    .iter()
                    .copied()
                    .find(|m| matches!(m, Move::Play { .. }))
                    .expect("a card to play");
                let command = command_for(mv, playing.game().position().layout());
                HERE.accepted(tables, channel, user.0, command);
            }
            None => {
                // Computer moves are async (their search and saving run on blocking threads);
                // everything else here is called as the Discord layer calls it, off the runtime,
                // where the PostgreSQL client may block.
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                assert!(!runtime
                    .block_on(tables.run_auto(ChannelId(channel), T0))
                    .is_empty());
            }
        }
    }
    panic!("not every human moved");
}

fn rating(store: &dyn Store, user: u64) -> PlayerRating {
    store
        .player_rating(Some(GUILD.0), user, 5)
        .expect("rating")
        .map(|r| r.rating)
        .unwrap_or_default()
}

/// What five honest wins in a row of user 1 against new players give, with these humans and teams
/// (1-based; `None`: the one of the two that user 1 is not on).
fn five_honest_wins(humans: &[(u64, Option<u8>)]) -> f64 {
    let mut current: HashMap<u64, PlayerRating> = HashMap::new();
    let players: Vec<PlayerResult> = humans
        .iter()
        .map(|&(user_id, team)| {
            let team = team.map_or(u8::from(user_id != 1), |t| t - 1);
            PlayerResult {
                user_id,
                name: String::new(),
                team,
                won: team == 0,
                sequences: 0,
                bot_level: None,
                gave_up: false,
            }
        })
        .collect();
    for _ in 0..5 {
        for update in rate_game(&players, false, &current) {
            current.insert(update.user_id, update.after);
        }
    }
    current[&1].conservative()
}

/// One set-up of the attack: its name, the lobby's `teams`, the humans with their team, the
/// computers.
struct Attack {
    name: &'static str,
    teams: Option<u8>,
    humans: Vec<(u64, Option<u8>)>,
    bots: Vec<BotLevel>,
}

/// The set-ups of the attack.
fn setups() -> Vec<Attack> {
    use BotLevel::{Easy, Hard, Medium};
    vec![
        Attack {
            name: "2 vs 2 (each with computers)",
            teams: Some(2),
            humans: vec![(1, None), (2, Some(2))],
            bots: vec![Easy, Hard, Easy, Hard],
        },
        Attack {
            name: "1 vs 1",
            teams: None,
            humans: vec![(1, None), (2, None)],
            bots: Vec::new(),
        },
        Attack {
            name: "2 vs 2",
            teams: Some(2),
            humans: vec![(1, Some(1)), (3, Some(1)), (2, Some(2)), (4, Some(2))],
            bots: Vec::new(),
        },
        Attack {
            name: "three teams (each with a computer)",
            teams: Some(3),
            humans: vec![(1, Some(1)), (2, Some(2)), (5, Some(3))],
            bots: vec![Easy, Hard, Medium],
        },
    ]
}

#[test]
fn a_second_account_cannot_pump_a_rating() {
    for Attack {
        name: setup,
        teams,
        humans,
        bots,
    } in setups()
    {
        let bound = five_honest_wins(&humans);
        for (backend, t) in backends("pump") {
            let tables = rated_tables_on(t.store.clone(), 24);
            // The script of the issue: twenty games, the second account gives up at once.
            for game in 0..20 {
                let channel = 100 + game;
                lobby(&tables, channel, teams, Some(true), &humans, &bots);
                HERE.accepted(&tables, channel, 1, Command::Begin);
                let mut text = String::new();
                for &(user, _) in humans.iter().filter(|(u, _)| *u != 1 && *u != 3) {
                    let reply =
                        HERE.accepted(&tables, channel, user, Command::Forfeit { game: None });
                    text = reply_text(&reply);
                }
                assert!(text.contains("Aborted"), "{backend} {setup}: {text}");
                assert!(!text.contains("wins"), "{backend} {setup}: {text}");
            }
            let r = rating(&*t.store, 1);
            assert_eq!(r, PlayerRating::default(), "{backend} {setup}: {r:?}");
            let stats = t.store.player_stats(Some(GUILD.0), 1).expect("stats");
            assert_eq!((stats.games, stats.wins), (0, 0), "{backend} {setup}");
            let history = reply_text(&HERE.accepted(&tables, 99, 1, Command::History));
            assert!(history.contains("aborted"), "{backend} {setup}: {history}");

            // The same, but everyone makes two moves first: past the abort window. Five rated
            // games a day between the same players, then casual, and the lobby says so first.
            for game in 0..20 {
                let channel = 200 + game;
                let last = lobby(&tables, channel, teams, Some(true), &humans, &bots);
                let shown = lobby_text(&last);
                if game < 5 {
                    assert!(shown.contains("Rated"), "{backend} {setup} {game}: {shown}");
                } else {
                    assert!(
                        shown.contains("5 rated games against each other"),
                        "{backend} {setup} {game}: {shown}"
                    );
                }
                let started = reply_text(&HERE.accepted(&tables, channel, 1, Command::Begin));
                assert_eq!(
                    started.contains("Casual"),
                    game >= 5,
                    "{backend} {setup} {game}: {started}"
                );
                play_until_everyone_moved(&tables, channel, 2);
                // Every account but user 1's side gives up.
                for &(user, _) in humans.iter().filter(|(u, _)| *u != 1 && *u != 3) {
                    HERE.accepted(&tables, channel, user, Command::Forfeit { game: None });
                }
                assert!(
                    tables.snapshot(ChannelId(channel)).is_none(),
                    "{setup}: over"
                );
            }
            let r = rating(&*t.store, 1);
            assert_eq!(r.games, 5, "{backend} {setup}: {r:?}");
            assert!(
                r.conservative() <= bound + 1e-9,
                "{backend} {setup}: {} above five honest wins ({bound})",
                r.conservative()
            );
        }
    }
}

#[test]
fn a_player_who_stops_a_game_loses_it() {
    for (backend, t) in backends("stop_loses") {
        let tables = rated_tables_on(t.store.clone(), 25);
        lobby(&tables, 1, None, Some(true), &[(1, None), (2, None)], &[]);
        HERE.accepted(&tables, 1, 1, Command::Begin);
        play_until_everyone_moved(&tables, 1, 2);
        let text = reply_text(&HERE.accepted(&tables, 1, 1, Command::Stop));
        assert!(text.contains("counts as giving up"), "{backend}: {text}");
        assert!(text.contains("wins, as everyone else gave up"), "{text}");
        assert!(text.contains("Rated"), "{text}");
        let (host, other) = (rating(&*t.store, 1), rating(&*t.store, 2));
        assert_eq!((host.games, other.games), (1, 1), "{backend}");
        assert!(
            host.mu < 25.0 && other.mu > 25.0,
            "{backend}: {host:?} {other:?}"
        );
        let stats = t.store.player_stats(Some(GUILD.0), 2).expect("stats");
        assert_eq!((stats.games, stats.wins), (1, 1));

        // Before every player made two moves, a stop aborts the game instead.
        lobby(&tables, 2, None, Some(true), &[(1, None), (2, None)], &[]);
        HERE.accepted(&tables, 2, 1, Command::Begin);
        let text = reply_text(&HERE.accepted(&tables, 2, 1, Command::Stop));
        assert!(text.contains("Aborted") && !text.contains("wins"), "{text}");
        assert_eq!(rating(&*t.store, 1), host, "{backend}: unchanged");
    }
}

#[test]
fn a_forfeit_then_a_stop_keeps_every_result() {
    for (backend, t) in backends("forfeit_stop") {
        for (channel, stopper) in [(1, 3), (2, 2)] {
            let tables = rated_tables_on(t.store.clone(), 26 + channel);
            let humans = [(1, Some(1)), (3, Some(1)), (2, Some(2)), (4, Some(2))];
            lobby(&tables, channel, Some(2), Some(true), &humans, &[]);
            HERE.accepted(&tables, channel, 1, Command::Begin);
            play_until_everyone_moved(&tables, channel, 2);
            let before: Vec<PlayerRating> =
                [1, 2, 3, 4].iter().map(|&u| rating(&*t.store, u)).collect();
            HERE.accepted(&tables, channel, 1, Command::Forfeit { game: None });
            let text = reply_text(&HERE.accepted(&tables, channel, stopper, Command::Stop));
            assert!(text.contains("counts as giving up"), "{backend}: {text}");
            let after: Vec<PlayerRating> =
                [1, 2, 3, 4].iter().map(|&u| rating(&*t.store, u)).collect();
            for (b, a) in before.iter().zip(&after) {
                assert_eq!(a.games, b.games + 1, "{backend}: everyone rated: {after:?}");
            }
            // The host gave up: a loss whoever stopped. The stopper's team lost.
            assert!(after[0].mu < before[0].mu, "{backend}: {after:?}");
            let won = |i: usize| after[i].mu > before[i].mu;
            if stopper == 3 {
                // Team 1 (users 1 and 3) stopped: team 2 (users 2 and 4) wins.
                assert!(won(1) && won(3) && !won(2), "{backend}: {after:?}");
            } else {
                // Team 2 stopped: user 3 wins, the host keeps the loss.
                assert!(won(2) && !won(1) && !won(3), "{backend}: {after:?}");
            }
        }
    }
}

#[test]
fn giving_up_against_a_computer_is_a_rated_loss() {
    for (backend, t) in backends("give_up_computer") {
        let tables = rated_tables_on(t.store.clone(), 27);
        lobby(
            &tables,
            1,
            None,
            Some(true),
            &[(1, None)],
            &[BotLevel::Easy],
        );
        HERE.accepted(&tables, 1, 1, Command::Begin);
        play_until_everyone_moved(&tables, 1, 2);
        let text = reply_text(&HERE.accepted(&tables, 1, 1, Command::Forfeit { game: None }));
        assert!(
            text.contains("wins, as everyone else gave up"),
            "{backend}: {text}"
        );
        assert!(!text.contains("Aborted"), "{text}");
        let r = rating(&*t.store, 1);
        assert_eq!(r.games, 1, "{backend}");
        assert!(r.mu < 20.0, "{backend}: losing to easy costs a lot: {r:?}");
    }
}

#[test]
fn a_moderator_who_is_not_playing_ends_a_game_unrated() {
    for (backend, t) in backends("moderator_stop") {
        let tables = rated_tables_on(t.store.clone(), 28);
        lobby(&tables, 1, None, Some(true), &[(1, None), (2, None)], &[]);
        HERE.accepted(&tables, 1, 1, Command::Begin);
        play_until_everyone_moved(&tables, 1, 2);
        let text = reply_text(&HERE.accepted(&tables, 1, MODERATOR, Command::Stop));
        assert!(
            text.contains("Not rated: stopped by someone who is not playing"),
            "{text}"
        );
        assert!(!text.contains("wins"), "{text}");
        assert_eq!(rating(&*t.store, 1), PlayerRating::default(), "{backend}");
        assert_eq!(rating(&*t.store, 2), PlayerRating::default(), "{backend}");

        // With three teams, one player gave up before the moderator stopped: they keep the loss.
        let humans = [(1, Some(1)), (2, Some(2)), (3, Some(3))];
        lobby(&tables, 2, Some(3), Some(true), &humans, &[]);
        HERE.accepted(&tables, 2, 1, Command::Begin);
        play_until_everyone_moved(&tables, 2, 2);
        HERE.accepted(&tables, 2, 3, Command::Forfeit { game: None });
        let text = reply_text(&HERE.accepted(&tables, 2, MODERATOR, Command::Stop));
        assert!(
            text.contains("players who gave up keep their loss"),
            "{text}"
        );
        let quitter = rating(&*t.store, 3);
        assert_eq!(quitter.games, 1, "{backend}");
        assert!(quitter.mu < 25.0);
        assert_eq!(rating(&*t.store, 1), PlayerRating::default(), "{backend}");
    }
}

#[test]
fn the_lobby_the_start_and_the_end_say_whether_a_game_is_rated() {
    let t = sqlite_store("says_rated").expect("sqlite");
    let tables = rated_tables_on(t.store.clone(), 29);
    // Alone so far, by default: casual until an opponent joins.
    let first = HERE.accepted(&tables, 1, 1, Start::of(Variant::Classic).command());
    assert!(
        lobby_text(&first).contains("Casual so far"),
        "{}",
        lobby_text(&first)
    );
    let joined = HERE.accepted(&tables, 1, 2, Command::Join { team: None });
    assert!(
        lobby_text(&joined).contains("Rated"),
        "{}",
        lobby_text(&joined)
    );
    let started = reply_text(&HERE.accepted(&tables, 1, 1, Command::Begin));
    assert!(started.contains("Rated: this game counts"), "{started}");
    // The host's choice: casual, said in the lobby and at the start.
    let last = lobby(&tables, 2, None, Some(false), &[(1, None), (2, None)], &[]);
    assert!(lobby_text(&last).contains("Casual: this game does not count"));
    let started = reply_text(&HERE.accepted(&tables, 2, 1, Command::Begin));
    assert!(started.contains("Casual"), "{started}");
    // A game against computers only, by default: casual.
    let last = lobby(&tables, 3, None, None, &[(3, None)], &[BotLevel::Hard]);
    assert!(
        lobby_text(&last).contains("Casual"),
        "{}",
        lobby_text(&last)
    );
}

/// What five honest wins in a row give a new player, each against a different new player, one
/// against one (13.2).
fn five_wins_against_new_players() -> f64 {
    let seat = |user_id: u64, won: bool| PlayerResult {
        user_id,
        name: String::new(),
        team: u8::from(!won),
        won,
        sequences: 0,
        bot_level: None,
        gave_up: false,
    };
    let mut current: HashMap<u64, PlayerRating> = HashMap::new();
    for opponent in 2..7 {
        for update in rate_game(&[seat(1, true), seat(opponent, false)], false, &current) {
            current.insert(update.user_id, update.after);
        }
    }
    current[&1].conservative()
}

/// Issue 33, point 1: one human with three computers against two teams of four second accounts;
/// everyone makes two moves, then the eight accounts give up. Five such games were 29.9 (first on
/// the leaderboard): a team with fewer humans now counts as many members as the others, at its
/// humans' mean, so the lone human gets one member's share of the win.
#[test]
fn a_lone_human_against_teams_of_alts_gains_no_more_than_honest_wins() {
    let honest = five_wins_against_new_players();
    assert!((honest - 13.2).abs() < 0.05, "{honest}");
    let mut humans = vec![(1, Some(1))];
    humans.extend((2..6).map(|u| (u, Some(2))));
    humans.extend((6..10).map(|u| (u, Some(3))));
    let bots = [BotLevel::Medium; 3];
    for (backend, t) in backends("lone_human") {
        let tables = rated_tables_on(t.store.clone(), 33);
        let mut after = Vec::new();
        for game in 0..5 {
            let channel = 300 + game;
            lobby(&tables, channel, Some(3), Some(true), &humans, &bots);
            let started = reply_text(&HERE.accepted(&tables, channel, 1, Command::Begin));
            assert!(started.contains("Rated"), "{backend} {game}: {started}");
            play_until_everyone_moved(&tables, channel, 2);
            let mut text = String::new();
            for user in 2..10 {
                text = reply_text(&HERE.accepted(
                    &tables,
                    channel,
                    user,
                    Command::Forfeit { game: None },
                ));
            }
            assert!(text.contains("wins"), "{backend} {game}: {text}");
            assert!(tables.snapshot(ChannelId(channel)).is_none(), "{backend}");
            after.push(rating(&*t.store, 1).conservative());
            eprintln!(
                "{backend}: game {}: {:.2}",
                game + 1,
                after[after.len() - 1]
            );
        }
        let r = rating(&*t.store, 1);
        assert_eq!(r.games, 5, "{backend}: {r:?}");
        assert!(
            r.conservative() <= honest,
            "{backend}: {after:?} above five honest wins ({honest})"
        );
        // Each alt is rated as one of four: all of them lost.
        assert!(rating(&*t.store, 2).mu < 25.0, "{backend}");
    }
}

/// Issue 33, point 2: ten games with the same second account opened in ten channels and all
/// started before any ended were all rated (the daily limit counted finished games only). Running
/// rated games count too: the first five are rated, the rest casual for the daily limit; a game
/// that is aborted counts no more.
#[test]
fn games_started_side_by_side_count_toward_the_daily_limit() {
    for (backend, t) in backends("side_by_side") {
        let tables = rated_tables_on(t.store.clone(), 34);
        let pair = [(1, None), (2, None)];
        for channel in 400..410 {
            let last = lobby(&tables, channel, None, Some(true), &pair, &[]);
            assert!(lobby_text(&last).contains("Rated"), "{backend} {channel}");
        }
        for (i, channel) in (400..410).enumerate() {
            let started = reply_text(&HERE.accepted(&tables, channel, 1, Command::Begin));
            if i < 5 {
                assert!(
                    started.contains("Rated: this game counts"),
                    "{backend} {channel}: {started}"
                );
            } else {
                assert!(
                    started.contains("Casual") && started.contains("5 rated games"),
                    "{backend} {channel}: {started}"
                );
            }
            assert!(tables.snapshot(ChannelId(channel)).is_some());
        }
        // A lobby opened now says so before its start.
        let last = lobby(&tables, 410, None, Some(true), &pair, &[]);
        assert!(
            lobby_text(&last).contains("5 rated games against each other"),
            "{backend}: {}",
            lobby_text(&last)
        );
        // The first game is aborted (stopped before everyone made two moves): four rated games
        // run, so the next one is rated again.
        let text = reply_text(&HERE.accepted(&tables, 400, 1, Command::Stop));
        assert!(text.contains("Aborted"), "{backend}: {text}");
        let started = reply_text(&HERE.accepted(&tables, 410, 1, Command::Begin));
        assert!(
            started.contains("Rated: this game counts"),
            "{backend}: {started}"
        );
    }
}
