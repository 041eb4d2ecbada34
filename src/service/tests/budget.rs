//! Issue 24.3: one member must not silence a server. Each member has a share of the server's posting
//! budget, the games' own posts keep a reserve, a member's repeated Join/Leave edits of a lobby card
//! wait, and stats, leaderboard and history are posted within the budget. All on a clock the tests
//! set (the service takes the time of every request).

use std::sync::Arc;
use std::time::Duration;

use crate::engine::{Move, MoveList, Variant};
use crate::store::SqliteStore;

use super::kit::{refusal, seeded, start, test_settings, Asker, T0};
use crate::service::{
    ChannelId, Command, GuildId, Message, Output, Reply, Settings, State, Tables, Text, Timestamp,
    UserId, MIN_MEMBER_BURST,
};

const GUILD: u64 = 7;
/// The lobby message of channel 1, as the Discord layer would report it.
const LOBBY_MESSAGE: u64 = 555;

/// Requests come from server [`GUILD`].
const HERE: Asker = Asker::server(GuildId(GUILD));

/// The lobby cards a reply shows on the lobby message of channel 1.
fn lobby_edits(reply: &Reply) -> Vec<Message> {
    reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Lobby {
                message_id: Some(LOBBY_MESSAGE),
                message,
            } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// User 2's lobby in channel 1, its message posted as [`LOBBY_MESSAGE`].
fn lobby(tables: &Tables, now: Timestamp) {
    assert!(!HERE
        .ask_at(tables, 1, 2, start(Variant::Classic, None), now)
        .is_refusal());
    tables.set_lobby_message(ChannelId(1), LOBBY_MESSAGE);
}

/// `user` against one computer in `channel`, dealt at `now`; the computer's first move, if it starts.
async fn game_against_computer(tables: &Tables, channel: u64, user: u64, now: Timestamp) {
    for command in [
        start(Variant::Classic, None),
        Command::AddBot { level: None },
        Command::Begin,
    ] {
        let reply = HERE.ask_at(tables, channel, user, command, now);
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    tables.run_auto(ChannelId(channel), now).await;
}

/// A legal move for `user` in `channel` if it is their turn.
fn move_of(tables: &Tables, channel: u64, user: u64) -> Option<Command> {
    let table = tables.snapshot(ChannelId(channel))?;
    let playing = table.playing()?;
    let game = playing.live.game();
    let to_move = usize::from(game.position().to_move());
    if playing.seats.get(to_move)?.user() != Some(UserId(user)) {
        return None;
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    Some(match moves.first()? {
        Move::Play { card, cell } => Command::Play {
            card: Some(card.to_string()),
            cell: game.position().layout().cell_name(*cell),
        },
        Move::Exchange { card } => Command::Exchange {
            card: card.to_string(),
        },
        _ => return None,
    })
}

/// Whether `user` has a seat in the lobby of `channel`.
fn seated(tables: &Tables, channel: u64, user: u64) -> bool {
    tables
        .snapshot(ChannelId(channel))
        .is_some_and(|t| match &t.state {
            State::Lobby(lobby) => lobby
                .seats
                .iter()
                .any(|s| s.player.user() == Some(UserId(user))),
            _ => false,
        })
}

/// Whether a computer player is to move in the game of `channel`.
fn computer_to_move(tables: &Tables, channel: u64) -> bool {
    tables.snapshot(ChannelId(channel)).is_some_and(|t| {
        t.playing().is_some_and(|p| {
            let position = p.live.game().position();
            !position.is_over()
                && p.seats
                    .get(usize::from(position.to_move()))
                    .is_some_and(|s| s.user().is_none())
        })
    })
}

/// What the acceptance run saw.
#[derive(Debug, Default)]
struct Seen {
    /// Requests of user 1 that were refused, with the refusal.
    refused_user_1: Vec<(u64, Text)>,
    /// Moves user 1 made, and computer moves that followed at the same moment.
    moves: u32,
    computer_moves: u32,
    /// A computer was due after user 1's move but did not move then (ms into the run).
    computer_held: Vec<u64>,
    /// User 99's presses answered, and refused (with the refusal).
    pressed: u32,
    refused_99: Vec<Text>,
    /// The cards shown on the lobby message, by presses and by ticks.
    lobby_cards: Vec<Message>,
}

/// What user 99 does all minute long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spam {
    /// Nothing (the usual, to compare with).
    Nothing,
    /// Presses Join and Leave on user 2's lobby in channel 1.
    JoinLeave,
    /// Asks for the board of their own game (against a computer, in channel 3).
    Board,
}

/// Sixty seconds of user 99 doing `spam` twenty times a second, while user 1 plays against a
/// computer in channel 2 of the same server (a move every two seconds, the board every three) and the
/// timer ticks every five seconds. A move costs user 1 two posts (the board, their new hand by DM),
/// the computer's answer one more.
async fn a_minute(tables: &Tables, spam: Spam) -> Seen {
    let mut seen = Seen::default();
    lobby(tables, T0);
    game_against_computer(tables, 2, 1, T0).await;
    if spam == Spam::Board {
        game_against_computer(tables, 3, 99, T0).await;
    }
    for ms in (50..=60_000).step_by(50) {
        let now = T0.after(Duration::from_millis(ms));
        let spammed = match spam {
            Spam::Nothing => None,
            // Join when not seated, else Leave: every press answered changes the lobby.
            Spam::JoinLeave if seated(tables, 1, 99) => Some((1, Command::Leave)),
            Spam::JoinLeave => Some((1, Command::Join { team: None })),
            Spam::Board => Some((3, Command::Board)),
        };
        if let Some((channel, command)) = spammed {
            let reply = HERE.ask_at(tables, channel, 99, command, now);
            match refusal(&reply) {
                Some(text) => seen.refused_99.push(text.clone()),
                None => seen.pressed += 1,
            }
            seen.lobby_cards.extend(lobby_edits(&reply));
        }
        if ms % 2000 == 0 {
            if tables.snapshot(ChannelId(2)).is_none() {
                // The game ended: another one.
                game_against_computer(tables, 2, 1, now).await;
            }
            if let Some(command) = move_of(tables, 2, 1) {
                let reply = HERE.ask_at(tables, 2, 1, command, now);
                match refusal(&reply) {
                    Some(text) => seen.refused_user_1.push((ms, text.clone())),
                    None => {
                        seen.moves += 1;
                        // Unless user 1 exchanged a dead card (and plays again) or the game ended,
                        // the computer is to move.
                        let due = computer_to_move(tables, 2);
                        let replies = tables.run_auto(ChannelId(2), now).await;
                        if due && replies.is_empty() {
                            seen.computer_held.push(ms);
                        }
                        seen.computer_moves += u32::try_from(replies.len()).unwrap_or(0);
                    }
                }
            }
        }
        if ms % 3000 == 0 && tables.snapshot(ChannelId(2)).is_some() {
            let reply = HERE.ask_at(tables, 2, 1, Command::Board, now);
            if let Some(text) = refusal(&reply) {
                seen.refused_user_1.push((ms, text.clone()));
            }
        }
        if ms % 5000 == 0 {
            for (channel, reply) in tables.tick(now) {
                if channel == ChannelId(1) {
                    seen.lobby_cards.extend(lobby_edits(&reply));
                }
            }
        }
    }
    // After the last tick the lobby message shows the lobby as it is.
    for (channel, reply) in tables.tick(T0.after(Duration::from_secs(65))) {
        if channel == ChannelId(1) {
            seen.lobby_cards.extend(lobby_edits(&reply));
        }
    }
    seen
}

#[tokio::test]
async fn one_member_pressing_join_and_leave_for_a_minute_silences_nobody_else() {
    // The server's default budget: 5 posts a second, bursts of 20.
    let tables = seeded(Settings::default(), 11);
    let seen = a_minute(&tables, Spam::JoinLeave).await;
    // User 1 is never refused, and every computer move follows user 1's move at once.
    assert!(seen.refused_user_1.is_empty(), "{seen:?}");
    assert!(seen.moves >= 25, "{seen:?}");
    assert!(seen.computer_held.is_empty(), "{seen:?}");
    assert!(seen.computer_moves >= 25, "{seen:?}");
    // User 99 got their share, and past it a polite private refusal about themselves.
    assert!(seen.pressed >= 60, "{seen:?}");
    assert!(!seen.refused_99.is_empty(), "{seen:?}");
    assert!(
        seen.refused_99.iter().all(|t| *t == Text::SlowDown),
        "{:?}",
        seen.refused_99
    );
    // Their presses edited the lobby message at most once per two seconds (at once or by a tick), not
    // once per press; the last card shows the lobby as it is.
    assert!(
        seen.lobby_cards.len() <= 31,
        "{} lobby edits for {} presses",
        seen.lobby_cards.len(),
        seen.pressed
    );
    let table = tables.snapshot(ChannelId(1)).expect("the lobby is open");
    let settings = tables.settings_for(Some(GuildId(GUILD)));
    assert_eq!(
        seen.lobby_cards.last(),
        Some(&table.lobby_message(&settings))
    );
}

#[tokio::test]
async fn without_the_presses_user_1_sees_the_same_minute() {
    // The comparison: the same minute with nobody pressing. User 1's load alone is within the
    // budget, so the test above measures what user 99 adds (nothing, for user 1).
    let tables = seeded(Settings::default(), 11);
    let seen = a_minute(&tables, Spam::Nothing).await;
    assert!(seen.refused_user_1.is_empty(), "{seen:?}");
    assert!(seen.computer_held.is_empty(), "{seen:?}");
}

#[tokio::test]
async fn one_member_asking_for_the_board_for_a_minute_silences_nobody_else() {
    // Boards are posts that cannot wait like a lobby card: here only the member's share protects
    // the others. User 99's own computer opponent still moves too.
    let tables = seeded(Settings::default(), 13);
    let seen = a_minute(&tables, Spam::Board).await;
    assert!(seen.refused_user_1.is_empty(), "{seen:?}");
    assert!(seen.moves >= 25, "{seen:?}");
    assert!(seen.computer_held.is_empty(), "{seen:?}");
    // User 99 had boards posted, fewer than three a second, and was refused politely past that.
    assert!(
        (60..=180).contains(&seen.pressed),
        "{} boards posted",
        seen.pressed
    );
    assert!(
        seen.refused_99.iter().all(|t| *t == Text::SlowDown) && !seen.refused_99.is_empty(),
        "{:?}",
        seen.refused_99
    );
    assert!(tables
        .auto_step(ChannelId(3), T0.after(Duration::from_secs(61)))
        .await
        .is_none());
}

#[test]
fn a_member_past_their_share_is_refused_while_another_still_posts() {
    let tables = seeded(Settings::default(), 3);
    lobby(&tables, T0);
    // User 99 presses at one instant until refused: their share is a few posts, far below the
    // server's burst of 20.
    let mut answered = 0;
    let refused = loop {
        let press = if answered % 2 == 0 {
            Command::Join { team: None }
        } else {
            Command::Leave
        };
        let reply = HERE.ask_at(&tables, 1, 99, press, T0);
        match refusal(&reply) {
            Some(text) => break text.clone(),
            None => answered += 1,
        }
        assert!(answered < 20, "never refused");
    };
    assert_eq!(refused, Text::SlowDown);
    assert!((MIN_MEMBER_BURST..=10).contains(&answered), "{answered}");
    // Nothing changed by the refused press; another member is answered at the same instant.
    let reply = HERE.ask_at(&tables, 3, 1, start(Variant::Classic, None), T0);
    assert!(!reply.is_refusal(), "{reply:?}");
    // User 99's share refills in a few seconds.
    let later = T0.after(Duration::from_secs(5));
    assert!(!HERE
        .ask_at(&tables, 1, 99, Command::Join { team: None }, later)
        .is_refusal());
}

#[test]
fn a_members_repeated_join_and_leave_wait_and_the_newest_card_is_shown_by_the_tick() {
    let tables = seeded(test_settings(), 3);
    lobby(&tables, T0);
    let at = |ms: u64| T0.after(Duration::from_millis(ms));
    // User 99's first change is shown at once.
    let reply = HERE.ask_at(&tables, 1, 99, Command::Join { team: None }, at(0));
    assert_eq!(lobby_edits(&reply).len(), 1);
    // Their next one within two seconds waits: only their private confirmation.
    let reply = HERE.ask_at(&tables, 1, 99, Command::Leave, at(200));
    assert!(!reply.is_refusal());
    assert!(lobby_edits(&reply).is_empty(), "{reply:?}");
    assert_eq!(reply.outputs.len(), 1, "{reply:?}");
    // Someone else's join is shown at once, with 99's leave in it.
    let reply = HERE.ask_at(&tables, 1, 3, Command::Join { team: None }, at(400));
    let shown = lobby_edits(&reply);
    assert_eq!(shown.len(), 1);
    let settings = tables.settings_for(Some(GuildId(GUILD)));
    let lobby_now = |t: &Tables| {
        t.snapshot(ChannelId(1))
            .expect("lobby")
            .lobby_message(&settings)
    };
    assert_eq!(shown[0], lobby_now(&tables));
    // 99 joins again: it waits, and nothing is due before two seconds after their shown change.
    let reply = HERE.ask_at(&tables, 1, 99, Command::Join { team: None }, at(600));
    assert!(lobby_edits(&reply).is_empty(), "{reply:?}");
    assert!(tables.tick(at(1_000)).is_empty());
    let ticked = tables.tick(at(2_000));
    assert_eq!(ticked.len(), 1, "{ticked:?}");
    assert_eq!(ticked[0].0, ChannelId(1));
    assert_eq!(lobby_edits(&ticked[0].1), vec![lobby_now(&tables)]);
    // Shown once.
    assert!(tables.tick(at(7_000)).is_empty());
    // A waiting card is dropped when the lobby's last card goes out (cancelled by the host).
    assert!(!HERE
        .ask_at(&tables, 1, 99, Command::Leave, at(7_100))
        .is_refusal());
    assert!(!HERE
        .ask_at(&tables, 1, 99, Command::Join { team: None }, at(7_200))
        .is_refusal());
    let reply = HERE.ask_at(&tables, 1, 2, Command::Cancel, at(7_300));
    assert!(!reply.is_refusal(), "{reply:?}");
    assert!(tables.tick(at(20_000)).is_empty());
}

#[tokio::test]
async fn stats_leaderboard_and_history_are_posted_within_the_budget() {
    let store = Arc::new(SqliteStore::open_in_memory().expect("store"));
    let tables = seeded(Settings::default(), 5).with_store(store);
    game_against_computer(&tables, 2, 1, T0).await;
    // Forty stats by one member at once: a few are posted, the rest refused politely.
    let mut posted = 0;
    let mut refused = Vec::new();
    for _ in 0..40 {
        let reply = HERE.ask_at(&tables, 1, 3, Command::Stats { user: None }, T0);
        match refusal(&reply) {
            Some(text) => refused.push(text.clone()),
            None => {
                assert!(matches!(reply.outputs.as_slice(), [Output::Channel(_)]));
                posted += 1;
            }
        }
    }
    assert!((1..=10).contains(&posted), "{posted} of 40 stats posted");
    assert!(refused.iter().all(|t| *t == Text::SlowDown), "{refused:?}");
    // Leaderboard and history are charged the same way.
    for command in [Command::Leaderboard, Command::History] {
        let reply = HERE.ask_at(&tables, 1, 3, command, T0);
        assert_eq!(refusal(&reply), Some(&Text::SlowDown));
    }
    // Meanwhile user 1 still gets the board of their game.
    let reply = HERE.ask_at(&tables, 2, 1, Command::Board, T0);
    assert!(!reply.is_refusal(), "{reply:?}");
}
