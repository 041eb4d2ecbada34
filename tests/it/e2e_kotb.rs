//! Issue 25: whole King of the Board games through the real `sequence-bot` binary against the Discord
//! stand-in, with buttons only after `/sequence start mode: king_of_the_board`: two players, two
//! against two, three teams, and one person against a `hard` computer. Each game survives a restart of
//! the bot in the middle (SIGKILL, a new process on the same database) and is played to its end.

use crate::support;

use sequence_bot::engine::{Record, Status};
use support::bot::{BotOptions, Harness};
use support::fake_discord::{FakeUser, StoredMessage};
use support::table::{
    add_computer, lobby_of, play_button, posted_after, press_turn, Dice, PressStats, PressedTurn,
    STEP,
};

/// Computers think briefly: `hard` is slow in a debug build.
fn options() -> BotOptions {
    BotOptions {
        extra_config: "[defaults]\nai_time_ms = 150\n".into(),
        ..BotOptions::default()
    }
}

/// One game: its name, the `/sequence start` options, the people, and the levels of computers added.
struct Setup {
    name: &'static str,
    start: &'static [(&'static str, &'static str)],
    humans: usize,
    computers: &'static [&'static str],
    /// Turns played by people before the restart.
    restart_after: usize,
}

/// Plays `setup` to its end by presses, restarting the bot once; returns the final message and the
/// number of people's turns.
async fn play(
    h: &mut Harness,
    setup: &Setup,
    seed: u64,
    identifies: &mut usize,
) -> (StoredMessage, usize) {
    let fail = |e: String, h: &Harness| -> ! {
        panic!("{}: {e}\nbot log:\n{}", setup.name, h.bot.log_tail(40))
    };
    let channel = h.fake.add_channel(setup.name);
    let players: Vec<FakeUser> = (0..setup.humans)
        .map(|i| h.fake.add_user(&format!("{}-{i}", setup.name)))
        .collect();
    let stranger = h.fake.add_user(&format!("{}-stranger", setup.name));
    // The only typed command; then Join, Add computer and Start are pressed.
    let started = {
        let fake = &h.fake;
        let start = fake
            .slash(&players[0], channel, "sequence start", setup.start)
            .unwrap_or_else(|e| fail(e, h));
        let lobby = lobby_of(fake, &start, channel)
            .await
            .unwrap_or_else(|e| fail(e, h));
        assert!(
            lobby.content.contains("King of the Board"),
            "the lobby names the mode: {}",
            lobby.content
        );
        for user in &players[1..] {
            let press = fake
                .click(user, lobby.id, "sequence:join")
                .unwrap_or_else(|e| fail(e, h));
            fake.wait_reply(&press, STEP)
                .await
                .unwrap_or_else(|e| fail(e, h));
        }
        let mut menu = None;
        for level in setup.computers {
            let (opened, _) = add_computer(fake, &players[0], channel, lobby.id, menu, level)
                .await
                .unwrap_or_else(|e| fail(e, h));
            menu = Some(opened);
        }
        let before = fake.messages_in(channel).len();
        let begin = fake
            .click(&players[0], lobby.id, "sequence:begin")
            .unwrap_or_else(|e| fail(e, h));
        fake.wait_callback(&begin, STEP)
            .await
            .unwrap_or_else(|e| fail(e, h));
        posted_after(fake, channel, before, "the game to start", |m| {
            m.content.contains("begins!")
        })
        .await
        .unwrap_or_else(|e| fail(e, h))
    };
    assert!(started.content.contains("begins!"));
    // The first person's prompt (a computer may move first) names the zone.
    let first = h
        .fake
        .shared()
        .wait_for(STEP, "the first human turn", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .find(|m| !m.is_ephemeral() && play_button(m).is_some())
                .cloned()
        })
        .await
        .unwrap_or_else(|e| fail(e, h));
    assert!(first.content.contains("👑 Zone "), "{}", first.content);
    assert!(first.content.contains(", worth 2"), "{}", first.content);
    let mut dice = Dice::new(seed);
    let mut stats = PressStats::default();
    let mut restarted = false;
    for turn in 0..3000 {
        if turn == setup.restart_after && !restarted {
            restarted = true;
            h.respawn(&options());
            *identifies += 1;
            h.wait_identified(*identifies).await;
            // The game is announced again, with its zone and a new Play prompt.
            let resumed = h
                .fake
                .shared()
                .wait_for(STEP, "the restart note", &[channel], |s| {
                    s.messages_in(channel)
                        .into_iter()
                        .find(|m| m.content.contains("I was restarted") && play_button(m).is_some())
                        .cloned()
                })
                .await
                .unwrap_or_else(|e| fail(e, h));
            assert!(resumed.content.contains("👑 Zone "), "{}", resumed.content);
        }
        let fake = &h.fake;
        // The prompt this turn answers: a pass is followed by a newer one (or the end), which may be
        // posted before `press_turn` returns.
        let answered = support::table::latest_prompt(fake, channel).map_or(0, |m| m.id);
        let result = match press_turn(
            fake, channel, &players, &stranger, &mut dice, &mut stats, false,
        )
        .await
        {
            Ok(r) => r,
            // The exchanged card left no move: the turn was passed ("Done"), which the helper does not
            // expect after an exchange. Go on with the next prompt (or the end).
            Err(e) if e.contains("after an exchange the picker shows the new hand: Done") => {
                let next = h
                    .fake
                    .shared()
                    .wait_for(STEP, "the prompt after a pass", &[channel], |s| {
                        s.messages_in(channel)
                            .into_iter()
                            .find(|m| {
                                m.id > answered
                                    && !m.is_ephemeral()
                                    && (play_button(m).is_some()
                                        || m.attachments
                                            .iter()
                                            .any(|a| a.filename.ends_with(".json")))
                            })
                            .cloned()
                    })
                    .await
                    .unwrap_or_else(|e| fail(format!("turn {turn}: {e}"), h));
                if play_button(&next).is_some() {
                    continue;
                }
                PressedTurn::Over(Box::new(next))
            }
            Err(e) => {
                // What the channel showed last, to tell a refused press from a late post.
                for m in fake.messages_in(channel).iter().rev().take(6) {
                    eprintln!(
                        "message {} (ephemeral: {}): {:?} {:?}",
                        m.id,
                        m.is_ephemeral(),
                        m.content,
                        m.custom_ids()
                    );
                }
                fail(format!("turn {turn}: {e}"), h)
            }
        };
        if let PressedTurn::Over(end) = result {
            assert!(
                restarted,
                "{}: the game ended before the restart",
                setup.name
            );
            return (*end, stats.turns);
        }
    }
    panic!("{}: the game did not end", setup.name);
}

/// The record attached to the final message, replayed.
fn check_end(setup: &Setup, end: &StoredMessage) {
    let record = end
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".json"))
        .expect("the record");
    let text = std::str::from_utf8(&record.data).expect("UTF-8");
    let record = Record::from_json(text).expect("a record");
    assert!(record.options.king_of_the_board, "{}", setup.name);
    let zones = record.zones.clone().expect("the zones are recorded");
    assert!(!zones.is_empty());
    let game = record
        .replay()
        .expect("well formed")
        .expect("every action legal");
    let pos = game.position();
    let target = game.config().points_to_win();
    match pos.status() {
        Status::Won(team) => {
            // RULES.md, King of the Board: the target reached, or a blocked board (every seat passed
            // in one full round) won by the team with the most points, strictly. A dead card exchanged
            // before a pass is part of that seat's turn (RULES.md, classic turn, step 4), so the round
            // of passes is counted over the other actions.
            let players = usize::from(record.players);
            let turns: Vec<_> = record
                .actions
                .iter()
                .filter(|a| a.exchange.is_none())
                .collect();
            let blocked = turns.len() >= players
                && turns[turns.len() - players..]
                    .iter()
                    .all(|a| a.pass == Some(true));
            let points = pos.points_per_team();
            if blocked {
                let others = (0..points.len()).filter(|&t| t != usize::from(team));
                assert!(
                    others.map(|t| points[t]).all(|p| p < pos.points(team)),
                    "{}: a blocked board won without the most points: {points:?}",
                    setup.name
                );
            } else {
                assert!(pos.points(team) >= target, "{}: {points:?}", setup.name);
            }
            assert!(end.content.contains("wins"), "{}", end.content);
        }
        Status::Drawn => assert!(end.content.contains("draw"), "{}", end.content),
        Status::InProgress => panic!("{}: the record does not end the game", setup.name),
    }
    assert!(end.content.contains("Points: "), "{}", end.content);
    // The summary tells each zone double (2 points) from a plain point.
    let summary = sequence_bot::analysis::summarize(&record).expect("a summary");
    let doubles = summary.sequences.iter().filter(|s| s.in_zone).count();
    assert_eq!(
        end.content.matches("touching the zone: 2 points").count(),
        doubles,
        "{}: {}",
        setup.name,
        end.content
    );
    assert_eq!(
        end.content.matches(": 1 point.").count(),
        summary.sequences.len() - doubles,
        "{}: {}",
        setup.name,
        end.content
    );
    assert_eq!(zones.len(), game.zones_so_far().len(), "{}", setup.name);
}

/// One King of the Board game from `/sequence start` to its end, with a restart of the bot in the middle,
/// on a bot of its own (the four games run side by side).
async fn one_game(setup: Setup, seed: u64) {
    // Late answers are accepted (and still recorded as late): these games are about the mode, and the
    // machine that runs the tests may be busy; Discord's deadline is tested in `e2e_discord.rs`.
    let config = support::fake_discord::Config {
        interaction_deadline: None,
        ..support::fake_discord::Config::default()
    };
    let mut h = Harness::start(config, &options())
        .await
        .expect("the bot connects to the stand-in");
    let mut identifies = 1;
    let begun = std::time::Instant::now();
    let (end, turns) = play(&mut h, &setup, seed, &mut identifies).await;
    eprintln!(
        "{}: {turns} turns by presses in {:.1} s: {}",
        setup.name,
        begun.elapsed().as_secs_f64(),
        end.content.lines().next().unwrap_or_default()
    );
    check_end(&setup, &end);
    let problems = h.fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}

// People press random buttons and rarely build a line; the computers on the other side end the games
// in a modest number of turns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn king_of_the_board_two_against_two_is_played_with_buttons_and_survives_a_restart() {
    one_game(
        Setup {
            name: "kotb-two-against-two",
            start: &[
                ("game", "classic"),
                ("mode", "king of the board"),
                ("points_to_win", "2"),
            ],
            humans: 2,
            computers: &["easy", "easy"],
            restart_after: 5,
        },
        1,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn king_of_the_board_three_teams_is_played_with_buttons_and_survives_a_restart() {
    one_game(
        Setup {
            name: "kotb-three-teams",
            start: &[
                ("game", "classic"),
                ("mode", "king of the board"),
                ("points_to_win", "2"),
            ],
            humans: 2,
            computers: &["easy"],
            restart_after: 5,
        },
        2,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn king_of_the_board_one_person_against_hard_is_played_with_buttons_and_survives_a_restart() {
    one_game(
        Setup {
            name: "kotb-against-hard",
            start: &[("game", "classic"), ("mode", "king of the board")],
            humans: 1,
            computers: &["hard"],
            restart_after: 4,
        },
        3,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn king_of_the_board_two_players_is_played_with_buttons_and_survives_a_restart() {
    one_game(
        Setup {
            name: "kotb-two",
            start: &[("game", "classic"), ("mode", "king of the board")],
            humans: 2,
            computers: &[],
            restart_after: 6,
        },
        4,
    )
    .await;
}
