//! Issue 28: the counts the table limits read stay exact as tables come and go, and the deadline
//! queue fires every timer as a pass over every table did (a changed deadline is honoured, a stale
//! one skipped, nothing looked at when nothing is due).

use std::sync::Arc;
use std::time::Duration;

use crate::engine::{Move, MoveList, Variant};

use super::kit::{command_for, lock, seeded, test_actor, timed, Asker, Start, T0};
use crate::service::{
    next_deadline, Actor, ChannelId, Command, GuildId, Limits, Output, Reply, Restored,
    ServerSettings, Settings, SettingsRequest, Tables, Text, Timestamp, UserId,
};

/// Requests from `guild`, where users from 900 on may manage it.
fn server(guild: u64) -> Asker {
    Asker::server(GuildId(guild)).as_actor(|user| Actor {
        can_manage_guild: user >= 900,
        ..test_actor(user)
    })
}

fn game(tables: &Tables, guild: u64, channel: u64, host: u64, now: Timestamp) {
    let users = [host, host + 1];
    server(guild).begin_at(
        tables,
        channel,
        Start::of(Variant::Classic).rated(Some(false)).command(),
        &users,
        0,
        now,
    );
}

/// The player to move makes a move (a card played) at `now`.
fn play(tables: &Tables, guild: u64, channel: u64, now: Timestamp) {
    let table = tables.snapshot(ChannelId(channel)).expect("a game");
    let playing = table.playing().expect("playing");
    let game = playing.live.game();
    let seat = game.position().to_move();
    let user = playing.seats[usize::from(seat)].user().expect("a human");
    let mut legal = MoveList::new();
    game.view(seat).legal_moves(&mut legal);
    let mv = legal
        .iter()
        .copied()
        .find(|m| matches!(m, Move::Play { .. }))
        .expect("a card to play");
    let command = command_for(mv, game.position().layout());
    let reply = server(guild).ask_at(tables, channel, user.0, command, now);
    assert!(!reply.is_refusal(), "{reply:?}");
}

fn reminded(due: &[(ChannelId, Reply)], channel: u64) -> bool {
    due.iter().any(|(c, reply)| {
        *c == ChannelId(channel)
            && reply.outputs.iter().any(|o| {
                matches!(o, Output::Channel(m) if m.lines.iter().any(|l| matches!(l, Text::Reminder { .. })))
            })
    })
}

fn assert_counts_exact(tables: &Tables) {
    let registry = lock(&tables.tables);
    assert_eq!(registry.counts(), registry.recount());
}

#[test]
fn counts_stay_right_through_open_begin_finish_stop_and_restore() {
    let tables = seeded(timed(), 5);
    // Lobbies and games in two servers, one host with three tables.
    game(&tables, 1, 10, 1, T0);
    game(&tables, 1, 11, 1, T0);
    assert!(!server(2)
        .ask_at(
            &tables,
            12,
            1,
            Start::of(Variant::Classic).rated(Some(false)).command(),
            T0
        )
        .is_refusal());
    assert!(!server(2)
        .ask_at(
            &tables,
            13,
            5,
            Start::of(Variant::Classic).rated(Some(false)).command(),
            T0
        )
        .is_refusal());
    assert_counts_exact(&tables);
    assert_eq!(lock(&tables.tables).hosted_by(UserId(1)), 3);
    assert_eq!(lock(&tables.tables).in_guild(GuildId(2)), 2);
    // The host of a lobby leaves: the next player hosts it.
    let join = Command::Join { team: None };
    assert!(!server(2).ask_at(&tables, 13, 6, join, T0).is_refusal());
    assert!(!server(2)
        .ask_at(&tables, 13, 5, Command::Leave, T0)
        .is_refusal());
    assert_eq!(
        tables.snapshot(ChannelId(13)).map(|t| t.host),
        Some(UserId(6))
    );
    assert_counts_exact(&tables);
    // A game given up (ended), a game stopped by its host.
    assert!(!server(1)
        .ask_at(&tables, 10, 2, Command::Forfeit { game: None }, T0)
        .is_refusal());
    assert!(tables.snapshot(ChannelId(10)).is_none());
    assert!(!server(1)
        .ask_at(&tables, 11, 1, Command::Stop, T0)
        .is_refusal());
    assert!(tables.snapshot(ChannelId(11)).is_none());
    assert_counts_exact(&tables);
    assert_eq!(lock(&tables.tables).hosted_by(UserId(1)), 1);
    assert_eq!(lock(&tables.tables).in_guild(GuildId(1)), 0);
    // Restored elsewhere (after a restart): counted there, refused twice.
    let fresh = seeded(timed(), 6);
    for channel in [12, 13] {
        let table = tables.snapshot(ChannelId(channel)).expect("open");
        assert!(fresh.restore(table.clone()));
        assert!(!fresh.restore(table));
    }
    assert_counts_exact(&fresh);
    assert_eq!(lock(&fresh.tables).in_guild(GuildId(2)), 2);
    // The lobbies expire on the timer: nothing left to count.
    let late = T0.after(Duration::from_secs(3600));
    let due = fresh.tick(late);
    assert_eq!(due.len(), 2);
    assert!(fresh.is_empty());
    assert_eq!(lock(&fresh.tables).counts(), Default::default());
    assert_eq!(fresh.timers_set(), 0);
}

#[test]
fn the_limits_read_the_counts() {
    let settings = Settings {
        limits: Limits {
            tables_per_user: 2,
            tables_per_server: 3,
            ..Limits::unlimited()
        },
        ..timed()
    };
    let tables = seeded(settings, 5);
    assert!(!server(1)
        .ask_at(
            &tables,
            1,
            1,
            Start::of(Variant::Classic).rated(Some(false)).command(),
            T0
        )
        .is_refusal());
    assert!(!server(1)
        .ask_at(
            &tables,
            2,
            1,
            Start::of(Variant::Classic).rated(Some(false)).command(),
            T0
        )
        .is_refusal());
    assert!(
        server(2)
            .ask_at(
                &tables,
                3,
                1,
                Start::of(Variant::Classic).rated(Some(false)).command(),
                T0
            )
            .is_refusal(),
        "a third for the host"
    );
    assert!(!server(1)
        .ask_at(
            &tables,
            3,
            2,
            Start::of(Variant::Classic).rated(Some(false)).command(),
            T0
        )
        .is_refusal());
    assert!(
        server(1)
            .ask_at(
                &tables,
                4,
                3,
                Start::of(Variant::Classic).rated(Some(false)).command(),
                T0
            )
            .is_refusal(),
        "a fourth for the server"
    );
    assert!(!server(1)
        .ask_at(&tables, 1, 1, Command::Stop, T0)
        .is_refusal());
    assert!(
        !server(1)
            .ask_at(
                &tables,
                4,
                3,
                Start::of(Variant::Classic).rated(Some(false)).command(),
                T0
            )
            .is_refusal(),
        "room again"
    );
    assert_counts_exact(&tables);
}

#[test]
fn nothing_due_means_no_table_is_looked_at() {
    let tables = seeded(timed(), 5);
    for channel in 0..50 {
        game(&tables, 1 + channel / 10, channel, 100 + channel * 2, T0);
    }
    assert_eq!(tables.timers_set(), 50);
    // A table held by someone else would stop a pass that looked at it; one that is not due is not.
    let held = tables.get(ChannelId(7)).expect("a table");
    let guard = lock(&held);
    assert!(tables.tick(T0.after(Duration::from_secs(59))).is_empty());
    drop(guard);
    assert_eq!(tables.timers_set(), 50, "the deadlines are still set");
    // Every reminder comes when due, once.
    let due = tables.tick(T0.after(Duration::from_secs(60)));
    assert_eq!(due.len(), 50);
    assert!((0..50).all(|c| reminded(&due, c)));
    assert!(tables.tick(T0.after(Duration::from_secs(61))).is_empty());
}

#[test]
fn a_move_moves_the_deadline_and_the_old_one_is_skipped() {
    let tables = seeded(timed(), 5);
    game(&tables, 1, 20, 1, T0);
    let queued = lock(&tables.deadlines).of(ChannelId(20));
    assert_eq!(queued, Some(T0.after(Duration::from_secs(60))));
    // A move at 50 s: the next player's reminder is due at 110 s, not at 60 s.
    play(&tables, 1, 20, T0.after(Duration::from_secs(50)));
    assert!(tables.tick(T0.after(Duration::from_secs(60))).is_empty());
    assert!(tables.tick(T0.after(Duration::from_secs(109))).is_empty());
    let due = tables.tick(T0.after(Duration::from_secs(110)));
    assert!(reminded(&due, 20), "{due:?}");
    // Then its timeout, at 350 s: a computer move is due (and stays due until it is played).
    assert!(tables.tick(T0.after(Duration::from_secs(349))).is_empty());
    let due = tables.tick(T0.after(Duration::from_secs(350)));
    assert!(matches!(due.as_slice(), [(ChannelId(20), r)] if r.auto_move));
    let due = tables.tick(T0.after(Duration::from_secs(355)));
    assert!(matches!(due.as_slice(), [(ChannelId(20), r)] if r.auto_move));
}

#[test]
fn a_move_after_a_reminder_brings_the_deadline_forward() {
    let tables = seeded(timed(), 5);
    game(&tables, 1, 21, 1, T0);
    // Reminded at 60 s: its next deadline is the timeout at 300 s.
    assert!(reminded(
        &tables.tick(T0.after(Duration::from_secs(60))),
        21
    ));
    // A move at 200 s: the next reminder (260 s) is earlier than the old timeout.
    play(&tables, 1, 21, T0.after(Duration::from_secs(200)));
    assert!(reminded(
        &tables.tick(T0.after(Duration::from_secs(260))),
        21
    ));
}

#[tokio::test]
async fn a_pause_holds_the_timers_and_resuming_sets_them_again() {
    const CAN_POST: u64 = (1 << 10) | (1 << 11) | (1 << 15);
    let tables = seeded(timed(), 5);
    game(&tables, 1, 30, 1, T0);
    assert!(tables.pause(ChannelId(30), T0.after(Duration::from_secs(10))));
    assert_eq!(tables.timers_set(), 0);
    assert!(tables.tick(T0.after(Duration::from_secs(3600))).is_empty());
    let resumed = T0.after(Duration::from_secs(4000));
    assert!(tables
        .note_access(ChannelId(30), CAN_POST, false, resumed)
        .is_some());
    assert_eq!(tables.timers_set(), 1);
    let table = tables.snapshot(ChannelId(30)).expect("a game");
    let started = table.playing().expect("playing").turn_started;
    let at = next_deadline(&table, &timed()).expect("a deadline");
    assert!(at > resumed || started < resumed, "the turn's time resumes");
    assert!(!tables.tick(at).is_empty());
}

#[test]
fn a_shorter_server_timeout_is_honoured_at_once() {
    let tables = seeded(timed(), 5);
    game(&tables, 1, 40, 1, T0);
    assert!(reminded(
        &tables.tick(T0.after(Duration::from_secs(60))),
        40
    ));
    // The timeout was due at 300 s; the server's admin makes it 120 s.
    let change = Command::Settings(SettingsRequest {
        changes: ServerSettings {
            turn_timeout_secs: Some(120),
            ..ServerSettings::default()
        },
        reset: false,
    });
    let now = T0.after(Duration::from_secs(100));
    assert!(!server(1).ask_at(&tables, 40, 900, change, now).is_refusal());
    let due = tables.tick(T0.after(Duration::from_secs(120)));
    assert!(
        matches!(due.as_slice(), [(ChannelId(40), r)] if r.auto_move),
        "{due:?}"
    );
}

#[test]
fn a_computer_to_move_is_due_at_every_pass_until_it_moves() {
    let tables = seeded(timed(), 5);
    assert!(!server(1)
        .ask_at(
            &tables,
            50,
            1,
            Start::of(Variant::Classic).rated(Some(false)).command(),
            T0
        )
        .is_refusal());
    let add = Command::AddBot { level: None };
    assert!(!server(1).ask_at(&tables, 50, 1, add, T0).is_refusal());
    assert!(!server(1)
        .ask_at(&tables, 50, 1, Command::Begin, T0)
        .is_refusal());
    let table = tables.snapshot(ChannelId(50)).expect("a game");
    let playing = table.playing().expect("playing");
    let bot_first = playing.seats[usize::from(playing.live.game().position().to_move())]
        .user()
        .is_none();
    if !bot_first {
        play(&tables, 1, 50, T0);
    }
    for s in 1..4 {
        let due = tables.tick(T0.after(Duration::from_secs(s)));
        assert!(
            matches!(due.as_slice(), [(ChannelId(50), r)] if r.auto_move),
            "{due:?}"
        );
    }
}

#[test]
fn a_burst_of_timeouts_in_one_pass_all_complete_on_a_small_blocking_pool() {
    const GAMES: u64 = 200;
    let tables = Arc::new(seeded(timed(), 5));
    for channel in 0..GAMES {
        game(&tables, 1 + channel / 20, channel, 1000 + channel * 2, T0);
    }
    let timeout = T0.after(Duration::from_secs(300));
    let due = tables.tick(timeout);
    assert_eq!(due.len() as u64, GAMES);
    assert!(due.iter().all(|(_, reply)| reply.auto_move));
    // Far fewer blocking threads than timeouts: they wait their turn, and every one is played.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let played = runtime.block_on(async {
        let steps: Vec<_> = due
            .into_iter()
            .map(|(channel, _)| {
                let tables = tables.clone();
                tokio::spawn(async move { tables.auto_step(channel, timeout).await })
            })
            .collect();
        let mut played = 0;
        for step in steps {
            played += usize::from(matches!(step.await, Ok(Some(_))));
        }
        played
    });
    assert_eq!(played as u64, GAMES);
    // Each turn moved on: nothing is due until the next players' reminders.
    assert!(tables
        .tick(timeout.after(Duration::from_secs(59)))
        .is_empty());
    assert_eq!(
        tables.tick(timeout.after(Duration::from_secs(60))).len() as u64,
        GAMES
    );
}

/// Tables opened in channels 1..=6 (one a minute, the later the newer; the even ones begun as games
/// and one move played in channel 2 at 10 minutes, its newest activity), in server 1 (channels 1..=4)
/// and server 2; then restored by a second service with `limits` on the same store.
fn restored_service(limits: Limits) -> (Tables, Restored, crate::store::tests::TestStore) {
    let t = crate::store::tests::sqlite_store("restart notes").expect("sqlite");
    let first = seeded(timed(), 5).with_store(t.store.clone());
    for channel in 1..=6u64 {
        let guild = if channel <= 4 { 1 } else { 2 };
        let now = T0.after(Duration::from_secs(60 * channel));
        if channel % 2 == 0 {
            game(&first, guild, channel, channel * 10, now);
        } else {
            assert!(!server(guild)
                .ask_at(
                    &first,
                    channel,
                    channel * 10,
                    Start::of(Variant::Classic).rated(Some(false)).command(),
                    now
                )
                .is_refusal());
        }
    }
    play(&first, 1, 2, T0.after(Duration::from_secs(600)));
    drop(first);
    let settings = Settings { limits, ..timed() };
    let second = seeded(settings, 6).with_store(t.store.clone());
    let restored = second
        .restore_from_store(T0.after(Duration::from_secs(620)))
        .expect("restore");
    (second, restored, t)
}

#[test]
fn restart_notes_come_newest_activity_first() {
    let (_tables, restored, _store) = restored_service(Limits::unlimited());
    let order: Vec<u64> = restored.notes.iter().map(|(c, _)| c.0).collect();
    assert_eq!(order, vec![2, 6, 5, 4, 3, 1]);
}

#[test]
fn restart_notes_wait_for_their_servers_budget_and_others_go_on() {
    let limits = Limits {
        server_posts_per_second: 1,
        server_post_burst: 2,
        ..Limits::unlimited()
    };
    let (tables, restored, _store) = restored_service(limits);
    let mut pending: std::collections::VecDeque<_> = restored.notes.into();
    let now = T0.after(Duration::from_secs(620));
    // Server 1 (channels 1..=4) has room for two posts, server 2 (5 and 6) too: 2 and 6, 5, 4 go out.
    let first: Vec<u64> = tables
        .notes_to_post(&mut pending, now, 16)
        .iter()
        .map(|(c, _)| c.0)
        .collect();
    assert_eq!(first, vec![2, 6, 5, 4]);
    assert!(tables.notes_to_post(&mut pending, now, 16).is_empty());
    // Server 1's budget refills: the rest, in order.
    let later = now.after(Duration::from_secs(10));
    let rest: Vec<u64> = tables
        .notes_to_post(&mut pending, later, 16)
        .iter()
        .map(|(c, _)| c.0)
        .collect();
    assert_eq!(rest, vec![3, 1]);
    assert!(pending.is_empty());
}

#[tokio::test]
async fn a_move_in_a_restored_channel_is_answered_while_notes_are_still_posted() {
    let (tables, restored, _store) = restored_service(Limits::unlimited());
    let tables = Arc::new(tables);
    let now = T0.after(Duration::from_secs(620));
    // The notes go out one at a time, each post taking as long as the test likes (a slow board).
    let (posting, mut posted) = tokio::sync::mpsc::channel::<u64>(1);
    let (release, released) = tokio::sync::watch::channel(false);
    let poster = {
        let tables = tables.clone();
        let mut pending: std::collections::VecDeque<_> = restored.notes.into();
        tokio::spawn(async move {
            while !pending.is_empty() {
                for (channel, _) in tables.notes_to_post(&mut pending, now, 1) {
                    let _ = posting.send(channel.0).await;
                    let mut released = released.clone();
                    let _ = released.wait_for(|r| *r).await;
                }
            }
        })
    };
    // The first note (channel 2) is being posted; channel 4's is still waiting: its game goes on.
    assert_eq!(posted.recv().await, Some(2));
    play(&tables, 1, 4, now);
    release.send(true).expect("the poster waits");
    let mut rest = Vec::new();
    while let Some(channel) = posted.recv().await {
        rest.push(channel);
    }
    poster.await.expect("the notes task");
    assert_eq!(rest, vec![6, 5, 4, 3, 1]);
}

#[test]
fn finished_games_are_remembered_only_while_a_rematch_may_open() {
    // Lobbies (and so rematches) time out after 1800 s; a game ends every second.
    let tables = seeded(timed(), 5);
    for channel in 0..5000u64 {
        let now = T0.after(Duration::from_secs(channel));
        game(&tables, 1, channel, 10_000 + channel * 2, now);
        let give_up = Command::Forfeit { game: None };
        assert!(!server(1)
            .ask_at(&tables, channel, 10_001 + channel * 2, give_up, now)
            .is_refusal());
    }
    assert!(tables.is_empty());
    let kept = tables.finished.len();
    assert!((1800..=2 * 1800 + 2).contains(&kept), "{kept}");
    // The newest game's rematch still opens.
    let last = 4999u64;
    let key = tables
        .finished
        .get_key(ChannelId(last))
        .expect("remembered");
    let now = T0.after(Duration::from_secs(last + 10));
    let reply = server(1).ask_at(
        &tables,
        last,
        10_000 + last * 2,
        Command::Rematch { game: key },
        now,
    );
    assert!(!reply.is_refusal(), "{reply:?}");
}

/// Issue 33: the `sequence_tables` gauge is kept as tables change instead of counted at each scrape
/// by locking every table; it stays equal to a full count through open, begin, pause, resume,
/// finish, stop, cancel, restore and expiry.
#[test]
fn the_table_gauge_stays_equal_to_a_full_count() {
    let exact = |tables: &Tables, step: &str| {
        let registry = lock(&tables.tables);
        assert_eq!(registry.table_counts(), registry.recount_kinds(), "{step}");
    };
    let count = |tables: &Tables, state: &str, variant: Variant| {
        tables
            .table_counts()
            .into_iter()
            .find(|(s, v, _)| *s == state && *v == variant)
            .map(|(.., n)| n)
    };
    let tables = seeded(timed(), 7);
    exact(&tables, "empty");
    game(&tables, 1, 10, 1, T0);
    game(&tables, 1, 11, 3, T0);
    game(&tables, 1, 12, 5, T0);
    assert!(!server(2)
        .ask_at(
            &tables,
            20,
            7,
            Start::of(Variant::Classic).rated(Some(false)).command(),
            T0
        )
        .is_refusal());
    let dice = Start {
        rated: Some(false),
        ..Start::of(Variant::Dice)
    }
    .command();
    assert!(!server(2).ask_at(&tables, 21, 8, dice, T0).is_refusal());
    exact(&tables, "opened and begun");
    assert_eq!(count(&tables, "playing", Variant::Classic), Some(3));
    assert_eq!(count(&tables, "lobby", Variant::Classic), Some(1));
    assert_eq!(count(&tables, "lobby", Variant::Dice), Some(1));
    // A move; a game paused (the bot may not post), then resumed.
    play(&tables, 1, 10, T0);
    assert!(tables.pause(ChannelId(11), T0));
    exact(&tables, "paused");
    assert_eq!(count(&tables, "paused", Variant::Classic), Some(1));
    assert_eq!(count(&tables, "playing", Variant::Classic), Some(2));
    let can_post = (1 << 10) | (1 << 11) | (1 << 15);
    assert!(tables
        .note_access(
            ChannelId(11),
            can_post,
            false,
            T0.after(Duration::from_secs(5))
        )
        .is_some());
    exact(&tables, "resumed");
    assert_eq!(count(&tables, "paused", Variant::Classic), Some(0));
    // Finished (given up), stopped, a lobby cancelled.
    assert!(!server(1)
        .ask_at(&tables, 10, 2, Command::Forfeit { game: None }, T0)
        .is_refusal());
    assert!(!server(1)
        .ask_at(&tables, 11, 3, Command::Stop, T0)
        .is_refusal());
    assert!(!server(2)
        .ask_at(&tables, 21, 8, Command::Cancel, T0)
        .is_refusal());
    exact(&tables, "finished, stopped, cancelled");
    assert_eq!(count(&tables, "playing", Variant::Classic), Some(1));
    assert_eq!(count(&tables, "lobby", Variant::Dice), Some(0));
    // Restored elsewhere: counted there.
    let fresh = seeded(timed(), 8);
    for channel in [12, 20] {
        assert!(fresh.restore(tables.snapshot(ChannelId(channel)).expect("open")));
    }
    exact(&fresh, "restored");
    assert_eq!(count(&fresh, "playing", Variant::Classic), Some(1));
    assert_eq!(count(&fresh, "lobby", Variant::Classic), Some(1));
    // The timers run: the lobby expires, the game's players time out.
    let mut now = T0;
    for _ in 0..12 {
        now = now.after(Duration::from_secs(600));
        fresh.tick(now);
        exact(&fresh, "timers");
    }
    assert_eq!(count(&fresh, "lobby", Variant::Classic), Some(0));
}
