//! A game clock per lobby (issue 25): `turn_time` at start, the deadline on the prompt, the reminder at
//! half time (none for a blitz clock), the timeout, and what survives a restart.

use std::sync::Arc;
use std::time::Duration;

use crate::engine::Variant;

use super::kit::{ask, command_for, reply_text, seeded, test_actor, test_settings, Start, DM, T0};
use crate::service::{
    BotLevel, ChannelId, Message, MovePicker, Output, RandomPicker, Reply, Request, Settings,
    Table, Tables, Text,
};

/// A two-person classic game on a `turn_time` clock in channel 30; the server's timers are 120 s /
/// 600 s. Returns the deal's reply.
fn begin(tables: &Tables, turn_time: Option<u32>) -> Reply {
    DM.begin(
        tables,
        30,
        Start::of(Variant::Classic).turn_time(turn_time).command(),
        &[1, 2],
        0,
    )
}

/// The deadline (Unix seconds) of the turn line in the reply's channel posts.
fn deadline_of(reply: &Reply) -> Option<u64> {
    reply.outputs.iter().find_map(|o| match o {
        Output::Channel(m) => m.lines.iter().find_map(|l| match l {
            Text::Turn { deadline, .. } => *deadline,
            _ => None,
        }),
        _ => None,
    })
}

#[test]
fn turn_time_out_of_range_is_refused_politely_and_opens_nothing() {
    let tables = seeded(test_settings(), 5);
    for bad in [0, 9, 3601, u32::MAX] {
        let reply = ask(
            &tables,
            30,
            1,
            Start::of(Variant::Classic).turn_time(Some(bad)).command(),
        );
        assert!(reply.is_refusal(), "{bad}: {reply:?}");
        let text = reply.outputs[0].message().unwrap().to_english();
        assert!(
            text.contains("between 10 and 3600 seconds"),
            "{bad}: {text}"
        );
        assert!(tables.is_empty(), "{bad}: a lobby opened");
    }
    for good in [10, 15, 3600] {
        let channel = 40 + u64::from(good);
        let reply = tables.handle(
            Request {
                guild: None,
                channel: ChannelId(channel),
                actor: test_actor(u64::from(good)),
                command: Start::of(Variant::Classic).turn_time(Some(good)).command(),
            },
            T0,
        );
        assert!(!reply.is_refusal(), "{good}: {reply:?}");
        let table = tables.snapshot(ChannelId(channel)).unwrap();
        assert_eq!(table.setup.turn_time, Some(good));
    }
}

#[test]
fn the_prompt_shows_the_lobby_clock_as_its_deadline() {
    let tables = seeded(test_settings(), 5);
    let reply = begin(&tables, Some(15));
    assert_eq!(deadline_of(&reply), Some(T0.0 / 1000 + 15));
    let text = reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Channel(m) => Some(m.to_english()),
            _ => None,
        })
        .collect::<String>();
    assert!(
        text.contains(&format!("<t:{}:R>", T0.0 / 1000 + 15)),
        "{text}"
    );
    // Without a clock: the server's timeout (600 s).
    let tables = seeded(test_settings(), 5);
    let reply = begin(&tables, None);
    assert_eq!(deadline_of(&reply), Some(T0.0 / 1000 + 600));
}

#[test]
fn the_lobby_shows_the_clock_and_whether_it_reminds() {
    let tables = seeded(test_settings(), 5);
    let reply = ask(
        &tables,
        30,
        1,
        Start::of(Variant::Classic).turn_time(Some(15)).command(),
    );
    let text = reply.outputs[0].message().unwrap().to_english();
    assert!(text.contains("no reminder"), "{text}");
    assert!(text.contains("after 15 s"), "{text}");
    let tables = seeded(test_settings(), 5);
    let reply = ask(
        &tables,
        30,
        1,
        Start::of(Variant::Classic).turn_time(Some(60)).command(),
    );
    let text = reply.outputs[0].message().unwrap().to_english();
    assert!(text.contains("turn reminder after 30 s"), "{text}");
    assert!(text.contains("after 1 min"), "{text}");
}

#[tokio::test]
async fn a_one_minute_clock_reminds_at_half_time_and_times_out_at_a_minute() {
    let tables = seeded(test_settings(), 5);
    begin(&tables, Some(60));
    let channel = ChannelId(30);
    // The timer is due at half time, not at the server's 120 s.
    assert!(tables.tick(T0.after(Duration::from_secs(29))).is_empty());
    let ticks = tables.tick(T0.after(Duration::from_secs(30)));
    assert_eq!(ticks.len(), 1, "{ticks:?}");
    let text = ticks[0].1.outputs[0].message().unwrap().to_english();
    assert!(text.contains("still your turn"), "{text}");
    assert!(!ticks[0].1.auto_move);
    // Once only; then the turn runs out at 60 s, not at the server's 600 s.
    assert!(tables.tick(T0.after(Duration::from_secs(45))).is_empty());
    let late = T0.after(Duration::from_secs(60));
    let ticks = tables.tick(late);
    assert!(ticks.iter().any(|(c, r)| *c == channel && r.auto_move));
    let reply = tables.auto_step(channel, late).await.expect("a move");
    let text = reply
        .outputs
        .iter()
        .filter_map(Output::message)
        .map(Message::to_english)
        .collect::<String>();
    assert!(text.contains("ran out of time"), "{text}");
    // The next turn's deadline is a minute after the timed-out one.
    assert_eq!(deadline_of(&reply), Some(late.0 / 1000 + 60));
}

#[tokio::test]
async fn a_blitz_clock_sends_no_reminder_and_times_out_at_15_seconds() {
    let tables = seeded(test_settings(), 5);
    begin(&tables, Some(15));
    let channel = ChannelId(30);
    for secs in [1, 5, 7, 8, 10, 14] {
        assert!(
            tables
                .tick(T0.after(Duration::from_millis(secs * 1000 + 999)))
                .is_empty(),
            "something posted at {secs} s"
        );
    }
    let late = T0.after(Duration::from_secs(15));
    let ticks = tables.tick(late);
    assert_eq!(ticks.len(), 1);
    assert!(ticks[0].1.auto_move);
    assert!(ticks[0].1.outputs.is_empty(), "{:?}", ticks[0].1);
    assert!(tables.auto_step(channel, late).await.is_some());
}

#[test]
fn the_server_gives_up_rule_applies_to_the_lobby_clock() {
    let settings = Settings {
        timeout_gives_up: true,
        ..test_settings()
    };
    let tables = seeded(settings, 5);
    begin(&tables, Some(15));
    let table = tables.snapshot(ChannelId(30)).unwrap();
    let playing = table.playing().unwrap();
    let mover = playing.seats[usize::from(playing.game().position().to_move())]
        .user()
        .unwrap();
    assert!(tables.tick(T0.after(Duration::from_secs(14))).is_empty());
    let ticks = tables.tick(T0.after(Duration::from_secs(15)));
    let text = ticks[0]
        .1
        .outputs
        .iter()
        .filter_map(Output::message)
        .map(Message::to_english)
        .collect::<String>();
    // Announced as running out of time, not as giving up.
    assert!(
        text.contains(&format!(
            "<@{}> ran out of time once: their side loses.",
            mover.0
        )),
        "{text}"
    );
    assert!(!text.contains("gave up"), "{text}");
}

/// On a server whose timed-out players give up, the game says so at its start (the first timeout
/// decides), and the result after the last other side ran out of time says it was won on time, not
/// that everyone else gave up (issue 44.11).
#[test]
fn a_give_up_server_warns_at_the_start_and_a_win_on_time_is_called_so() {
    let settings = Settings {
        timeout_gives_up: true,
        ..test_settings()
    };
    let tables = seeded(settings, 6);
    let start = reply_text(&begin(&tables, Some(15)));
    assert!(
        start.contains(
            "⚠️ On this server running out of time means giving up: whoever lets a turn run out (15 seconds) leaves the game at once"
        ),
        "{start}"
    );
    // Without the rule, no such warning.
    let plain = seeded(test_settings(), 6);
    assert!(!reply_text(&begin(&plain, Some(15))).contains("means giving up"));
    // Two moves each (so the game is not aborted), then a turn runs out.
    let channel = ChannelId(30);
    let mut now = T0;
    for _ in 0..4 {
        let table = tables.snapshot(channel).unwrap();
        let playing = table.playing().unwrap();
        let game = playing.game();
        let seat = game.position().to_move();
        let user = playing.seats[usize::from(seat)].user().unwrap();
        let mut legal = crate::engine::MoveList::new();
        game.view(seat).legal_moves(&mut legal);
        let mv = *legal
            .iter()
            .find(|m| matches!(m, crate::engine::Move::Play { .. }))
            .unwrap();
        now = now.after(Duration::from_secs(1));
        let reply = tables.handle(
            Request {
                guild: None,
                channel,
                actor: test_actor(user.0),
                command: command_for(mv, game.position().layout()),
            },
            now,
        );
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    let ticks = tables.tick(now.after(Duration::from_secs(15)));
    let text = ticks
        .iter()
        .map(|(_, r)| reply_text(r))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        text.contains("ran out of time once: their side loses."),
        "{text}"
    );
    assert!(
        text.contains("wins on time: the other side ran out of time."),
        "{text}"
    );
    assert!(!text.contains("as everyone else gave up"), "{text}");
    assert!(tables.snapshot(channel).is_none(), "the game ended");
}

/// The lobby of a game where one person plays a side: after the timeouts that cost the seat, that
/// side loses (nobody is left on it), and the lobby's rules say so.
#[test]
fn the_lobby_says_a_side_left_to_the_computer_loses() {
    let tables = seeded(test_settings(), 7);
    let text = reply_text(&ask(
        &tables,
        31,
        1,
        Start::of(Variant::Classic).turn_time(None).command(),
    ));
    assert!(
        text.contains(
            "it takes the seat for the rest of the game (if nobody else plays on that side, the side loses)"
        ),
        "{text}"
    );
}

/// Remembers the level of every move it is asked for (and plays at random).
#[derive(Default)]
struct Levels(std::sync::Mutex<Vec<BotLevel>>);

impl MovePicker for Levels {
    fn choose(
        &self,
        view: &crate::engine::View,
        history: &[(crate::engine::Seat, crate::engine::Move)],
        level: BotLevel,
        seed: u64,
    ) -> crate::engine::Move {
        self.0.lock().unwrap().push(level);
        RandomPicker.choose(view, history, level, seed)
    }
}

#[tokio::test]
async fn running_out_of_time_twice_is_announced_as_such_after_a_warning_in_the_prompt() {
    // The server's default: a timed-out turn is played by an `easy` computer, two in a row cost
    // the seat.
    assert_eq!(test_settings().default_bot_level, BotLevel::Easy);
    assert_eq!(test_settings().replace_after_timeouts, 2);
    let levels = Arc::new(Levels::default());
    let tables = Tables::seeded(test_settings(), levels.clone(), 5);
    begin(&tables, Some(15));
    let channel = ChannelId(30);
    let table = tables.snapshot(channel).unwrap();
    let playing = table.playing().unwrap();
    let mover = playing.seats[usize::from(playing.game().position().to_move())]
        .user()
        .unwrap();
    let other = if mover.0 == 1 { 2 } else { 1 };
    // The first timeout: the turn is played at `medium`, not at random.
    let late = T0.after(Duration::from_secs(15));
    assert!(tables.tick(late).iter().any(|(_, r)| r.auto_move));
    let reply = tables.auto_step(channel, late).await.expect("a move");
    assert!(
        reply_text(&reply).contains(&format!(
            "<@{}> ran out of time, so the computer (medium) played this turn.",
            mover.0
        )),
        "{reply:?}"
    );
    assert_eq!(*levels.0.lock().unwrap(), vec![BotLevel::Medium]);
    // The other player moves: the prompt of the player who timed out warns them (a 15-second
    // clock has no reminder).
    let table = tables.snapshot(channel).unwrap();
    let game = table.playing().unwrap().game();
    let mut legal = crate::engine::MoveList::new();
    game.view(game.position().to_move()).legal_moves(&mut legal);
    let moved = late.after(Duration::from_secs(1));
    let reply = tables.handle(
        Request {
            guild: None,
            channel,
            actor: test_actor(other),
            command: command_for(legal[0], game.position().layout()),
        },
        moved,
    );
    assert!(!reply.is_refusal(), "{reply:?}");
    let prompt = reply_text(&reply);
    assert!(
        prompt.contains(&format!(
            "<@{}>, you ran out of time on your last turn: if it happens again, your side loses.",
            mover.0
        )),
        "{prompt}"
    );
    // The second timeout in a row decides: said as it is, not "gave up".
    let later = moved.after(Duration::from_secs(15));
    assert!(tables.tick(later).iter().any(|(_, r)| r.auto_move));
    let reply = tables.auto_step(channel, later).await.expect("the end");
    let text = reply_text(&reply);
    assert!(
        text.contains(&format!(
            "<@{}> ran out of time twice in a row: their side loses.",
            mover.0
        )),
        "{text}"
    );
    assert!(!text.contains("gave up"), "{text}");
    assert!(tables.snapshot(channel).is_none(), "the game ended");
    assert!(levels
        .0
        .lock()
        .unwrap()
        .iter()
        .all(|l| *l == BotLevel::Medium));
}

#[test]
fn the_clock_survives_a_restart_and_a_run_out_turn_gets_half_of_it() {
    let tables = seeded(test_settings(), 5);
    begin(&tables, Some(60));
    let json = serde_json::to_string(&tables.snapshot(ChannelId(30)).unwrap()).unwrap();
    assert!(json.contains("\"turn_time\":60"), "{json}");
    let mut table: Table = serde_json::from_str(&json).unwrap();
    assert_eq!(table.setup.turn_time, Some(60));
    // Down for ten minutes: the player gets what a reminded player has left (30 s), not 600 s.
    let now = T0.after(Duration::from_secs(600));
    let (reply, changed) = table.resume(now, &test_settings());
    assert!(changed);
    let text = reply.outputs[0].message().unwrap().to_english();
    assert!(
        text.contains("30 s") || text.contains("30 seconds"),
        "{text}"
    );
    // A table saved before the clock existed has none.
    let old = json.replace(",\"turn_time\":60", "");
    assert_ne!(old, json);
    let table: Table = serde_json::from_str(&old).unwrap();
    assert_eq!(table.setup.turn_time, None);
}

#[test]
fn german_and_norwegian_refusals_of_a_bad_clock() {
    let text = Text::BadTurnTime {
        secs: 5,
        min: 10,
        max: 3600,
    };
    let en = text.render(crate::i18n::Lang::En);
    let de = text.render(crate::i18n::Lang::De);
    let no = text.render(crate::i18n::Lang::No);
    assert!(de.contains("Zugzeit"), "{de}");
    assert!(no.contains("turtid"), "{no}");
    assert!(en != de && de != no && en != no);
}
