//! A table whose channel refuses posts pauses: no computer moves, reminders or timeouts; players are
//! told why, privately; an interaction showing the permissions back resumes it.

use std::time::Duration;

use crate::engine::Variant;

use super::kit::{lock, seeded, start, test_settings, text_of, timed, Asker, T0};
use crate::i18n::Lang;
use crate::service::{ChannelId, Command, GuildId, Output, Settings, Table, Tables, UserId};

const CHANNEL: ChannelId = ChannelId(77);

/// Requests come from server 1.
const HERE: Asker = Asker::server(GuildId(1));
/// View Channel, Send Messages, Attach Files.
const CAN_POST: u64 = (1 << 10) | (1 << 11) | (1 << 15);
/// View Channel and Send Messages, no Attach Files.
const NO_FILES: u64 = (1 << 10) | (1 << 11);

/// A classic game of `humans` and `bots`, dealt at `T0`.
fn game(humans: &[u64], bots: usize) -> Tables {
    game_with(timed(), humans, bots)
}

/// [`game`] with these settings.
fn game_with(settings: Settings, humans: &[u64], bots: usize) -> Tables {
    let tables = seeded(settings, 7);
    let start = start(Variant::Classic, None);
    HERE.begin(&tables, CHANNEL.0, start, humans, bots);
    tables
}

fn to_move(tables: &Tables) -> Option<UserId> {
    let table = tables.snapshot(CHANNEL)?;
    let playing = table.playing()?;
    let seat = playing.live.game().position().to_move();
    playing.seats.get(usize::from(seat))?.user()
}

#[tokio::test]
async fn a_paused_game_waits_tells_players_why_and_resumes() {
    let tables = game(&[1, 2], 0);
    let mover = to_move(&tables).expect("a human to move");
    assert!(tables.pause(CHANNEL, T0));
    assert!(!tables.pause(CHANNEL, T0), "paused once");
    // Long past the reminder and the timeout: nothing happens, nothing is due.
    let late = T0.after(Duration::from_secs(3600));
    assert!(tables.tick(late).is_empty());
    assert!(tables.auto_step(CHANNEL, late).await.is_none());
    // Still missing Attach Files: the player is told which, privately, and nothing changes.
    assert!(tables.note_access(CHANNEL, NO_FILES, false, late).is_none());
    let before = serde_json::to_string(&tables.snapshot(CHANNEL)).unwrap();
    // The pause survives a save (a restart keeps it).
    let mut saved: Table = serde_json::from_str(&before).unwrap();
    assert!(saved.paused.is_some());
    // After a restart a paused table says nothing (it could not be posted) and stays paused.
    let (note, changed) = saved.resume(late, &test_settings());
    assert!(note.outputs.is_empty() && !note.auto_move && !changed);
    assert!(saved.paused.is_some());
    let refused = HERE.ask_at(&tables, CHANNEL.0, mover.0, Command::Status, late);
    assert!(refused.is_refusal());
    let text = text_of(&refused);
    assert!(
        text.contains("paused") && text.contains("Attach Files"),
        "{text}"
    );
    let lacking = text.split("A member").next().unwrap_or_default();
    assert!(
        !lacking.contains("Send Messages"),
        "only what is missing: {text}"
    );
    let play = Command::Play {
        card: Some("AS".into()),
        cell: "A2".into(),
    };
    assert!(HERE
        .ask_at(&tables, CHANNEL.0, mover.0, play, late)
        .is_refusal());
    assert_eq!(
        serde_json::to_string(&tables.snapshot(CHANNEL)).unwrap(),
        before,
        "a refusal changed the paused table"
    );
    // A hand needs no post: still answered.
    assert!(!HERE
        .ask_at(&tables, CHANNEL.0, mover.0, Command::Hand, late)
        .is_refusal());
    // The permission is back: the channel is told, with the board and a ping for the player to move,
    // whose turn starts afresh.
    let resumed = tables
        .note_access(CHANNEL, CAN_POST, false, late)
        .expect("resumed");
    let text = text_of(&resumed);
    assert!(text.contains("can post in this channel again"), "{text}");
    match resumed.outputs.as_slice() {
        [Output::Channel(m)] => {
            assert!(m.image.is_some());
            assert_eq!(m.mentions, vec![mover]);
        }
        other => panic!("expected one channel message, got {other:?}"),
    }
    assert!(!resumed.auto_move);
    assert!(tables.snapshot(CHANNEL).unwrap().paused.is_none());
    assert!(tables.note_access(CHANNEL, CAN_POST, false, late).is_none());
    assert!(tables.tick(late.after(Duration::from_secs(30))).is_empty());
    let reminded = tables.tick(late.after(Duration::from_secs(61)));
    assert_eq!(reminded.len(), 1, "the turn's clock runs again");
}

#[tokio::test]
async fn a_paused_computer_player_waits_for_the_channel() {
    let tables = game(&[1], 1);
    if to_move(&tables).is_some() {
        // The human starts: make their move by timeout so the computer is to move.
        let late = T0.after(Duration::from_secs(301));
        tables
            .auto_step(CHANNEL, late)
            .await
            .expect("timed-out move");
    }
    assert_eq!(to_move(&tables), None, "the computer is to move");
    tables.pause(CHANNEL, T0);
    assert!(tables.auto_step(CHANNEL, T0).await.is_none());
    assert!(tables.tick(T0).is_empty());
    // Thread rules: Send Messages is not enough in a thread.
    assert!(tables.note_access(CHANNEL, CAN_POST, true, T0).is_none());
    let text = text_of(&HERE.ask_at(&tables, CHANNEL.0, 1, Command::Board, T0));
    assert!(text.contains("Send Messages in Threads"), "{text}");
    let granted = CAN_POST | (1 << 38);
    let resumed = tables
        .note_access(CHANNEL, granted, true, T0)
        .expect("resumed");
    assert!(resumed.auto_move, "the computer moves once the pause ends");
    assert!(tables.auto_step(CHANNEL, T0).await.is_some());
}

#[test]
fn stop_ends_a_paused_game_and_no_table_means_no_pause() {
    let tables = game(&[1, 2], 0);
    assert!(!tables.pause(ChannelId(5), T0), "no table there");
    assert!(tables.note_access(ChannelId(5), 0, false, T0).is_none());
    tables.pause(CHANNEL, T0);
    assert!(!HERE
        .ask_at(&tables, CHANNEL.0, 1, Command::Stop, T0)
        .is_refusal());
    assert!(tables.snapshot(CHANNEL).is_none());
}

#[tokio::test]
async fn a_server_where_timeouts_give_up_keeps_a_paused_players_seat() {
    let settings = Settings {
        timeout_gives_up: true,
        ..timed()
    };
    let tables = game_with(settings, &[1, 2, 3], 0);
    let mover = to_move(&tables).expect("a human to move");
    assert!(tables.pause(CHANNEL, T0));
    let before = serde_json::to_string(&tables.snapshot(CHANNEL)).unwrap();
    // Long past the timeout: the time stands still, so nobody gives up (nor is anything posted).
    let late = T0.after(Duration::from_secs(3600));
    assert!(tables.tick(late).is_empty());
    assert_eq!(
        serde_json::to_string(&tables.snapshot(CHANNEL)).unwrap(),
        before,
        "a paused table changed on its own"
    );
    // Resumed, the turn starts afresh; only a timeout after that gives up.
    tables
        .note_access(CHANNEL, CAN_POST, false, late)
        .expect("resumed");
    let reminded = tables.tick(late.after(Duration::from_secs(299)));
    let text: String = reminded.iter().map(|(_, r)| text_of(r)).collect();
    assert!(!text.contains("gave up"), "only a reminder: {text}");
    assert_eq!(to_move(&tables), Some(mover));
    let gave_up = tables.tick(late.after(Duration::from_secs(301)));
    let text: String = gave_up.iter().map(|(_, r)| text_of(r)).collect();
    assert!(
        text.contains(&format!("<@{}> ran out of time once", mover.0)),
        "{text}"
    );
}

#[tokio::test]
async fn a_computer_move_chosen_while_the_table_paused_is_not_played() {
    let tables = game(&[1], 1);
    let late = T0.after(Duration::from_secs(301));
    if to_move(&tables).is_some() {
        tables
            .auto_step(CHANNEL, late)
            .await
            .expect("timed-out move");
    }
    assert_eq!(to_move(&tables), None, "the computer is to move");
    // The move is claimed, then a post of the channel is refused while it is chosen.
    let shared = tables.get(CHANNEL).expect("the table");
    let settings = tables.settings_for(Some(GuildId(1)));
    let task = lock(&shared)
        .claim_auto_task(late, &settings, 9)
        .expect("due");
    assert!(tables.pause(CHANNEL, late));
    let before = serde_json::to_string(&tables.snapshot(CHANNEL)).unwrap();
    let applied = lock(&shared).apply_auto(&task, None, late, &settings, Lang::default());
    assert!(applied.is_none(), "played while paused: {applied:?}");
    let mut after = tables.snapshot(CHANNEL).expect("the table");
    assert!(!after.auto_busy, "the move can be claimed again");
    after.auto_busy = true;
    assert_eq!(
        serde_json::to_string(&after).unwrap(),
        before,
        "the paused game changed"
    );
    // Once the channel takes posts again, the computer moves.
    let resumed = tables
        .note_access(CHANNEL, CAN_POST, false, late)
        .expect("resumed");
    assert!(resumed.auto_move);
    assert!(tables.auto_step(CHANNEL, late).await.is_some());
}
