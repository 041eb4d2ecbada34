//! Issue 14.4: limits against abuse. Tables per user and per server, computer players per table, the
//! bot's posting rate per server, and who may manage a game whose host gave up. Every refusal is a
//! polite private message that changes nothing. Also what keeps a channel quiet: overlong names are cut,
//! and a player whose DMs are closed is told so once per game (issue 15).

use std::sync::Arc;
use std::time::Duration;

use crate::engine::Variant;

use super::kit::{refusal, seeded, start, test_actor, Asker, T0};
use crate::service::{
    Actor, ChannelId, Command, GuildId, Limits, Persist, Reply, Request, ServiceError, Settings,
    Table, Tables, Text, UserId,
};

/// Requests from `guild`, where users from 900 on may manage games.
fn server(guild: u64) -> Asker {
    Asker::server(GuildId(guild)).as_actor(|user| Actor {
        can_manage: user >= 900,
        ..test_actor(user)
    })
}

fn tables_with(limits: Limits) -> Tables {
    let settings = Settings {
        limits,
        ..Settings::default()
    };
    seeded(settings, 3)
}

#[test]
fn a_user_may_host_only_so_many_tables() {
    let tables = tables_with(Limits {
        tables_per_user: 3,
        ..Limits::default()
    });
    for channel in 1..=3 {
        assert!(!server(7)
            .ask(&tables, channel, 1, start(Variant::Classic, None))
            .is_refusal());
    }
    // The fourth, in this server or another, is refused and opens nothing.
    for guild in [7, 8] {
        let reply = server(guild).ask(&tables, 4, 1, start(Variant::Classic, None));
        assert_eq!(refusal(&reply), Some(&Text::TooManyTables { max: 3 }));
        assert!(tables.snapshot(ChannelId(4)).is_none());
    }
    // Someone else still may; and once one of the three closes, the host may again.
    assert!(!server(7)
        .ask(&tables, 5, 2, start(Variant::Classic, None))
        .is_refusal());
    assert!(!server(7).ask(&tables, 1, 1, Command::Cancel).is_refusal());
    assert!(!server(7)
        .ask(&tables, 4, 1, start(Variant::Classic, None))
        .is_refusal());
}

#[test]
fn a_server_may_have_only_so_many_tables() {
    let tables = tables_with(Limits {
        tables_per_server: 2,
        ..Limits::default()
    });
    assert!(!server(7)
        .ask(&tables, 1, 1, start(Variant::Classic, None))
        .is_refusal());
    assert!(!server(7)
        .ask(&tables, 2, 2, start(Variant::Classic, None))
        .is_refusal());
    let reply = server(7).ask(&tables, 3, 3, start(Variant::Classic, None));
    assert_eq!(refusal(&reply), Some(&Text::ServerFull { max: 2 }));
    assert!(tables.snapshot(ChannelId(3)).is_none());
    // Another server is not affected.
    assert!(!server(8)
        .ask(&tables, 3, 3, start(Variant::Classic, None))
        .is_refusal());
}

/// Saves nothing, but saving the table of `slow` takes a while once `on`: a save in progress, its
/// table's lock held, while other requests arrive (what widens any gap between a check and an act).
struct SlowSave {
    slow: ChannelId,
    on: std::sync::atomic::AtomicBool,
}

impl Persist for SlowSave {
    fn save(&self, table: &Table) -> Result<(), ServiceError> {
        if table.channel == self.slow && self.on.load(std::sync::atomic::Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(400));
        }
        Ok(())
    }
    fn close(&self, _: ChannelId, _: Option<&Table>) -> Result<Option<i64>, ServiceError> {
        Ok(None)
    }
}

/// Issue 24.7: user 1 hosts two tables in guild 7 (channels 1 and 2); while the table of channel 1 is
/// being saved, eight starts arrive at once in channels 10 to 17, by `starter(channel)`. Returns the
/// replies of the starts and how many tables are open afterwards.
async fn simultaneous_starts(limits: Limits, starter: fn(u64) -> u64) -> (Vec<Reply>, usize) {
    let persist = Arc::new(SlowSave {
        slow: ChannelId(1),
        on: false.into(),
    });
    let tables = Arc::new(tables_with(limits).with_persist(persist.clone()));
    for channel in [1, 2] {
        assert!(!server(7)
            .ask(&tables, channel, 1, start(Variant::Classic, None))
            .is_refusal());
    }
    persist.on.store(true, std::sync::atomic::Ordering::SeqCst);
    let saving = {
        let tables = tables.clone();
        tokio::task::spawn_blocking(move || {
            server(7).ask(&tables, 1, 2, Command::Join { team: None })
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let starts = (10..18).map(|channel| {
        let tables = tables.clone();
        tokio::task::spawn_blocking(move || {
            server(7).ask(
                &tables,
                channel,
                starter(channel),
                start(Variant::Classic, None),
            )
        })
    });
    let replies: Vec<Reply> = futures_util::future::join_all(starts)
        .await
        .into_iter()
        .map(|r| r.expect("the start ran"))
        .collect();
    assert!(!saving.await.expect("the join ran").is_refusal());
    let open = tables.len();
    (replies, open)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_starts_by_one_user_open_only_up_to_the_limit() {
    let limits = Limits {
        tables_per_user: 3,
        ..Limits::default()
    };
    let (replies, open) = simultaneous_starts(limits, |_| 1).await;
    let opened = replies.iter().filter(|r| !r.is_refusal()).count();
    let refusals: Vec<Option<&Text>> = replies.iter().map(refusal).collect();
    assert_eq!(opened, 1, "{refusals:?}");
    assert_eq!(open, 3);
    for reply in replies.iter().filter(|r| r.is_refusal()) {
        assert_eq!(refusal(reply), Some(&Text::TooManyTables { max: 3 }));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_starts_in_one_server_open_only_up_to_the_limit() {
    let limits = Limits {
        tables_per_server: 3,
        ..Limits::default()
    };
    let (replies, open) = simultaneous_starts(limits, |channel| 100 + channel).await;
    let opened = replies.iter().filter(|r| !r.is_refusal()).count();
    let refusals: Vec<Option<&Text>> = replies.iter().map(refusal).collect();
    assert_eq!(opened, 1, "{refusals:?}");
    assert_eq!(open, 3);
    for reply in replies.iter().filter(|r| r.is_refusal()) {
        assert_eq!(refusal(reply), Some(&Text::ServerFull { max: 3 }));
    }
}

#[test]
fn a_table_takes_only_so_many_computer_players() {
    let tables = tables_with(Limits {
        bots_per_table: 2,
        ..Limits::default()
    });
    assert!(!server(7)
        .ask(&tables, 1, 1, start(Variant::Classic, None))
        .is_refusal());
    for _ in 0..2 {
        assert!(!server(7)
            .ask(&tables, 1, 1, Command::AddBot { level: None })
            .is_refusal());
    }
    let before = serde_json::to_string(&tables.snapshot(ChannelId(1))).ok();
    let reply = server(7).ask(&tables, 1, 1, Command::AddBot { level: None });
    assert_eq!(refusal(&reply), Some(&Text::TooManyBots { max: 2 }));
    assert_eq!(
        serde_json::to_string(&tables.snapshot(ChannelId(1))).ok(),
        before
    );
}

/// A two-player game between users 1 and 2 in `channel` of guild 7, dealt at T0.
fn game(tables: &Tables, channel: u64) {
    server(7).begin(tables, channel, start(Variant::Classic, None), &[1, 2], 0);
}

#[test]
fn past_the_posting_budget_players_are_asked_to_wait_and_nothing_changes() {
    let tables = tables_with(Limits {
        server_posts_per_second: 1,
        server_post_burst: 8,
        ..Limits::default()
    });
    // Opening, joining and dealing post a few messages; then the board is asked for, by a different
    // member each time (so that no member's own share runs out first), until the server's budget is
    // spent.
    game(&tables, 1);
    let mut busy = None;
    for i in 0..20 {
        let reply = server(7).ask(&tables, 1, 10 + i, Command::Board);
        if reply.is_refusal() {
            busy = Some((i, reply));
            break;
        }
    }
    let (i, reply) = busy.expect("the budget runs out");
    assert!(i < 8, "{i} boards were posted past a burst of 8");
    assert_eq!(refusal(&reply), Some(&Text::Busy));
    // Private answers are not posts: still answered.
    assert!(!server(7).ask(&tables, 1, 1, Command::Status).is_refusal());
    // Another server has its own budget.
    assert!(!server(8)
        .ask(&tables, 2, 1, start(Variant::Classic, None))
        .is_refusal());
    // A few seconds later the budget has refilled.
    let later = T0.after(Duration::from_secs(3));
    assert!(!server(7)
        .ask_at(&tables, 1, 1, Command::Board, later)
        .is_refusal());
}

#[test]
fn stats_leaderboard_and_history_post_so_they_count_against_the_budget() {
    for command in [
        Command::Stats { user: None },
        Command::Leaderboard,
        Command::History,
    ] {
        assert!(command.posts(), "{command:?}");
        assert!(!command.changes_table(), "{command:?}");
    }
    assert!(
        !Command::Record { game: None }.posts(),
        "the record is private"
    );
}

#[tokio::test]
async fn past_the_posting_budget_computer_moves_wait_then_go_on() {
    let tables = tables_with(Limits {
        server_posts_per_second: 1,
        server_post_burst: 4,
        ..Limits::default()
    });
    // One human and five computers, set up slowly enough for the budget; dealing spends most of it.
    assert!(!server(7)
        .ask(&tables, 1, 1, start(Variant::Classic, None))
        .is_refusal());
    for i in 1..=5 {
        let now = T0.after(Duration::from_secs(2 * i));
        let reply = server(7).ask_at(&tables, 1, 1, Command::AddBot { level: None }, now);
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    let dealt = T0.after(Duration::from_secs(20));
    assert!(!server(7)
        .ask_at(&tables, 1, 1, Command::Begin, dealt)
        .is_refusal());
    let playing = |t: &Tables| {
        t.snapshot(ChannelId(1))
            .and_then(|t| t.playing().cloned())
            .expect("playing")
    };
    let refilled = dealt.after(Duration::from_secs(8));
    // If the human deals first, they play (a legal card), and the five computers are due.
    let p = playing(&tables);
    let game = p.live.game();
    if p.seats[usize::from(game.position().to_move())]
        .user()
        .is_some()
    {
        let mut moves = crate::engine::MoveList::new();
        game.legal_moves(&mut moves);
        let command = match moves.first() {
            Some(crate::engine::Move::Play { card, cell }) => Command::Play {
                card: Some(card.to_string()),
                cell: game.position().layout().cell_name(*cell),
            },
            Some(crate::engine::Move::Exchange { card }) => Command::Exchange {
                card: card.to_string(),
            },
            other => panic!("unexpected first move {other:?}"),
        };
        let reply = server(7).ask_at(&tables, 1, 1, command, refilled);
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    let mut moved = 0;
    while tables.auto_step(ChannelId(1), refilled).await.is_some() {
        moved += 1;
    }
    // The budget (four posts) ran out before the five computers had all moved.
    assert!(moved < 5, "{moved} computer moves on a budget of 4");
    let held = playing(&tables);
    let plies = held.live.game().position().plies();
    let to_move = held.live.game().position().to_move();
    assert!(
        held.seats[usize::from(to_move)].user().is_none(),
        "a computer is to move but waits"
    );
    assert!(tables.auto_step(ChannelId(1), refilled).await.is_none());
    // Once the budget refills, the computers go on.
    let later = refilled.after(Duration::from_secs(10));
    assert!(tables.auto_step(ChannelId(1), later).await.is_some());
    assert!(playing(&tables).live.game().position().plies() > plies);
}

#[test]
fn a_host_who_gave_up_can_no_longer_stop_the_game() {
    // Everything at one instant: no posting budget in the way.
    let tables = tables_with(Limits::unlimited());
    // Host 1 and users 2 and 3 in three teams of one: the host gives up, the game goes on.
    assert!(!server(7)
        .ask(&tables, 1, 1, start(Variant::Classic, None))
        .is_refusal());
    for user in [2, 3] {
        assert!(!server(7)
            .ask(&tables, 1, user, Command::Join { team: None })
            .is_refusal());
    }
    assert!(!server(7).ask(&tables, 1, 1, Command::Begin).is_refusal());
    assert!(!server(7)
        .ask(&tables, 1, 1, Command::Forfeit { game: None })
        .is_refusal());
    assert!(tables.snapshot(ChannelId(1)).is_some(), "the game goes on");
    let before = serde_json::to_string(&tables.snapshot(ChannelId(1))).ok();
    // The former host, and someone who is not playing, are refused.
    for user in [1, 50] {
        let reply = server(7).ask(&tables, 1, user, Command::Stop);
        assert_eq!(refusal(&reply), Some(&Text::HostGaveUp), "user {user}");
    }
    assert_eq!(
        serde_json::to_string(&tables.snapshot(ChannelId(1))).ok(),
        before
    );
    // A player still in the game may stop it.
    assert!(!server(7).ask(&tables, 1, 2, Command::Stop).is_refusal());
    assert!(tables.snapshot(ChannelId(1)).is_none());
}

#[test]
fn a_moderator_may_stop_a_game_whose_host_gave_up() {
    let tables = tables_with(Limits::unlimited());
    assert!(!server(7)
        .ask(&tables, 1, 1, start(Variant::Classic, None))
        .is_refusal());
    for user in [2, 3] {
        assert!(!server(7)
            .ask(&tables, 1, user, Command::Join { team: None })
            .is_refusal());
    }
    assert!(!server(7).ask(&tables, 1, 1, Command::Begin).is_refusal());
    assert!(!server(7)
        .ask(&tables, 1, 1, Command::Forfeit { game: None })
        .is_refusal());
    // User 900 may manage messages (see `ask_at`).
    assert!(!server(7).ask(&tables, 1, 900, Command::Stop).is_refusal());
    assert!(tables.snapshot(ChannelId(1)).is_none());
}

#[test]
fn a_very_long_name_is_cut_before_it_reaches_the_table() {
    let tables = tables_with(Limits::default());
    let reply = tables.handle(
        Request {
            guild: Some(GuildId(7)),
            channel: ChannelId(1),
            actor: Actor {
                user: UserId(1),
                name: "W".repeat(10_000),
                can_manage: false,
                can_manage_guild: false,
            },
            command: start(Variant::Classic, None),
        },
        T0,
    );
    assert!(!reply.is_refusal());
    let json = serde_json::to_string(&tables.snapshot(ChannelId(1))).expect("json");
    assert!(json.len() < 2_000, "{} bytes saved", json.len());
    assert!(json.contains(&format!("{}…", "W".repeat(31))));
}

#[test]
fn a_player_whose_dms_are_closed_is_told_once_per_game() {
    let tables = tables_with(Limits::unlimited());
    assert!(
        !tables.note_dm_failed(ChannelId(1), UserId(2)),
        "no game yet"
    );
    game(&tables, 1);
    assert!(tables.note_dm_failed(ChannelId(1), UserId(2)));
    assert!(!tables.note_dm_failed(ChannelId(1), UserId(2)));
    assert!(tables.note_dm_failed(ChannelId(1), UserId(1)));
    // A new game in the channel tells them again, once.
    assert!(!server(7).ask(&tables, 1, 1, Command::Stop).is_refusal());
    game(&tables, 1);
    assert!(tables.note_dm_failed(ChannelId(1), UserId(2)));
    assert!(!tables.note_dm_failed(ChannelId(1), UserId(2)));
}
