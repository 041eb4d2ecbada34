//! Issue 15 through the real binary and the stricter stand-in: a mention pings only on a new message
//! (every turn of a human notifies them exactly once, whatever made it their turn), late and replayed
//! interactions change nothing, and a player whose DMs are closed is told once per game.

use crate::support;

use std::time::Duration;

use support::bot::Harness;
use support::fake_discord::{FakeDiscord, FakeUser, StoredMessage};
use support::table::{lobby_against_easy, lobby_of, play_first_fit, TableDriver, TurnEnd, STEP};

/// How many messages of `channel` after the first `skip` notified `user`.
fn notifications(fake: &FakeDiscord, channel: u64, skip: usize, user: u64) -> usize {
    fake.messages_in(channel)
        .iter()
        .skip(skip)
        .filter(|m| m.notified.contains(&user))
        .count()
}

/// Waits until `user` was notified in `channel` after message `skip`, then a little longer, and
/// returns how many times.
async fn notified_after(fake: &FakeDiscord, channel: u64, skip: usize, user: u64) -> usize {
    let _ = fake
        .shared()
        .wait_for(STEP, "a notification", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .skip(skip)
                .any(|m| m.notified.contains(&user))
                .then_some(())
        })
        .await;
    // Anything sent twice would be out by now.
    tokio::time::sleep(Duration::from_millis(300)).await;
    notifications(fake, channel, skip, user)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_turn_of_a_whole_game_notifies_the_player_to_move_exactly_once() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players: Vec<FakeUser> = ["alice", "bob"].iter().map(|n| fake.add_user(n)).collect();
    let channel = fake.add_channel("sequence-pings");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    table.thorough = false;
    // Started with the Start button: the first player was notified once.
    let first = table.seats[0].id;
    assert_eq!(notifications(fake, channel, 0, first), 1, "the first turn");
    let mut turns = 0;
    loop {
        let skip = fake.messages_in(channel).len();
        let mover = table.to_move().expect("someone is to move");
        match table
            .play_turn()
            .await
            .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)))
        {
            TurnEnd::Next => {}
            TurnEnd::Over(_) => break,
        }
        turns += 1;
        let next = table.seats[table.to_move().expect("next")].id;
        assert_eq!(
            notified_after(fake, channel, skip, next).await,
            1,
            "turn {turns}: the player to move is notified exactly once"
        );
        if next != table.seats[mover].id {
            assert_eq!(
                notifications(fake, channel, skip, table.seats[mover].id),
                0,
                "turn {turns}: the mover is not pinged by their own move"
            );
        }
        assert!(turns < 300, "the game does not end");
    }
    assert!(turns >= 5, "a whole game was played ({turns} turns)");
}

/// Plays the first card of `user`'s hand that has a free cell, exchanging a dead card first if needed.
async fn play_something(fake: &FakeDiscord, user: &FakeUser, channel: u64) {
    play_first_fit(fake, user, channel)
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", user.name));
}

/// Opens a classic game of `human` against an `easy` computer in `channel` and starts it. Add computer
/// opens the level menu; its level button adds the player and updates the lobby. Whoever starts, the
/// human's first turn comes (after the computer's move, if it starts), notifying them once.
async fn start_against_easy(fake: &FakeDiscord, human: &FakeUser, channel: u64) {
    let lobby = lobby_against_easy(fake, human, channel).await;
    let skip = fake.messages_in(channel).len();
    let begin = fake.click(human, lobby, "sequence:begin").expect("press");
    fake.wait_callback(&begin, STEP).await.expect("begin");
    assert_eq!(notified_after(fake, channel, skip, human.id).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_computer_moves_the_human_is_notified_exactly_once() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let human = fake.add_user("alice");
    let channel = fake.add_channel("sequence-computer");
    start_against_easy(fake, &human, channel).await;
    for round in 0..4 {
        let skip = fake.messages_in(channel).len();
        play_something(fake, &human, channel).await;
        // The computer moves, then it is the human's turn again: one notification.
        assert_eq!(
            notified_after(fake, channel, skip, human.id).await,
            1,
            "round {round}"
        );
    }
}

/// The current record's number of actions, from `/sequence status`-free sources: the public posts.
fn board_posts(fake: &FakeDiscord, channel: u64) -> usize {
    fake.messages_in(channel)
        .iter()
        .filter(|m| !m.is_ephemeral() && m.attachments.iter().any(|a| a.filename == "board.png"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_or_replayed_interaction_changes_nothing() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players: Vec<FakeUser> = ["alice", "bob"].iter().map(|n| fake.add_user(n)).collect();
    let channel = fake.add_channel("sequence-late");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    table.thorough = false;
    let mover = table.seats[table.to_move().expect("to move")].clone();
    let hand = table.hand_lines(&mover);
    let card = hand
        .iter()
        .filter_map(|l| l.split(" — ").next())
        .find(|c| !c.starts_with('J'))
        .expect("a plain card")
        .to_string();
    let asked = fake
        .autocomplete(
            &mover,
            channel,
            "sequence play",
            &[("card", card.as_str()), ("cell", "")],
            "cell",
        )
        .expect("autocomplete");
    let answer = fake.wait_callback(&asked, STEP).await.expect("cells");
    let cell = answer.data["choices"][0]["value"]
        .as_str()
        .map(str::to_string);

    // Delivered 4 s after the user acted (as after a gateway resume): Discord refuses the
    // acknowledgement, so the bot must not make the move.
    let posts = board_posts(fake, channel);
    if let Some(cell) = &cell {
        let late = fake
            .slash_aged(
                &mover,
                channel,
                "sequence play",
                &[("card", card.as_str()), ("cell", cell.as_str())],
                Duration::from_secs(4),
            )
            .expect("late play");
        fake.shared()
            .wait_for(STEP, "the refused acknowledgement", &[late.id], |s| {
                let i = s.interactions.get(&late.id)?;
                (!i.refused_callbacks.is_empty()).then_some(())
            })
            .await
            .expect("the bot tried to answer");
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            board_posts(fake, channel),
            posts,
            "the late move was not made"
        );
        assert_eq!(table.hand_lines(&mover), hand, "the hand did not change");
        assert_eq!(
            table.seats[table.to_move().expect("to move")].id,
            mover.id,
            "still the same player's turn"
        );
    }

    // A move made normally, then its interaction delivered again: the replay changes nothing.
    let posts = board_posts(fake, channel);
    let skip = fake.messages_in(channel).len();
    table.play_turn().await.expect("a move");
    assert_eq!(board_posts(fake, channel), posts + 1);
    let played = fake
        .messages_in(channel)
        .into_iter()
        .skip(skip)
        .find_map(|m| m.interaction_id)
        .expect("the move's interaction");
    let replayed = support::fake_discord::Interaction {
        id: played,
        token: fake.interaction(played).expect("known interaction").token,
        user_id: mover.id,
        channel_id: channel,
    };
    let refused_before = fake
        .interaction(played)
        .map_or(0, |i| i.refused_callbacks.len());
    fake.redeliver(&replayed).expect("replay");
    fake.shared()
        .wait_for(
            STEP,
            "the replay's refused acknowledgement",
            &[played],
            |s| {
                let i = s.interactions.get(&played)?;
                (i.refused_callbacks.len() > refused_before).then_some(())
            },
        )
        .await
        .expect("the bot tried to answer the replay");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(board_posts(fake, channel), posts + 1, "no second move");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_dms_are_closed_is_told_once_per_game() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players: Vec<FakeUser> = ["alice", "bob"].iter().map(|n| fake.add_user(n)).collect();
    fake.close_dms(players[1].id);
    let channel = fake.add_channel("sequence-closed-dms");
    let start = fake
        .slash(
            &players[0],
            channel,
            "sequence start",
            &[("game", "classic")],
        )
        .expect("start");
    let lobby = lobby_of(fake, &start, channel).await.expect("lobby");
    let join = fake
        .click(&players[1], lobby.id, "sequence:join")
        .expect("press");
    fake.wait_reply(&join, STEP).await.expect("joined");
    let begin = fake
        .click(&players[0], lobby.id, "sequence:begin")
        .expect("press");
    fake.wait_callback(&begin, STEP).await.expect("begin");
    let told = |fake: &FakeDiscord| {
        fake.messages_in(channel)
            .iter()
            .filter(|m| {
                !m.is_ephemeral()
                    && m.content.contains(&format!("<@{}>", players[1].id))
                    && m.content.contains("could not send you a direct message")
            })
            .count()
    };
    fake.shared()
        .wait_for(STEP, "the closed-DM note", &[channel], |s| {
            s.messages_in(channel)
                .iter()
                .any(|m| m.content.contains("could not send you a direct message"))
                .then_some(())
        })
        .await
        .expect("told");
    // Several moves later (each would DM the mover their new hand): still told only once.
    for _ in 0..6 {
        let mover = fake
            .messages_in(channel)
            .iter()
            .rev()
            .filter(|m| !m.is_ephemeral())
            .find_map(|m| support::table::turn_mention(&m.content))
            .expect("someone to move");
        let user = players.iter().find(|p| p.id == mover).expect("a player");
        play_something(fake, user, channel).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(told(fake), 1, "told once, not after every move");
}

/// Every DM message ever sent to `user`, deleted ones too, oldest first.
fn all_dms(fake: &FakeDiscord, user: &FakeUser) -> Vec<StoredMessage> {
    let state = fake.state();
    let Some(dm) = state.dm_channel_of(user.id) else {
        return Vec::new();
    };
    let mut all: Vec<StoredMessage> = state
        .messages
        .values()
        .filter(|m| m.channel_id == dm)
        .cloned()
        .collect();
    all.sort_by_key(|m| m.id);
    all
}

/// Plays one move of `user` against the computer and waits until it is their turn again (true) or
/// the game is over (false).
async fn move_and_wait(fake: &FakeDiscord, user: &FakeUser, channel: u64) -> bool {
    let posted = play_first_fit(fake, user, channel)
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", user.name));
    let over = |m: &StoredMessage| m.attachments.iter().any(|a| a.filename.ends_with(".json"));
    if over(&posted) {
        return false;
    }
    // A computer that answers within a moment is in the same post, which then pings the person.
    if posted.notified.contains(&user.id) {
        return true;
    }
    let next = fake
        .shared()
        .wait_for(STEP, "the human's turn or the end", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .find(|m| m.id > posted.id && (m.notified.contains(&user.id) || over(m)))
                .cloned()
        })
        .await
        .expect("the computer answers");
    !over(&next)
}

/// Waits until `user`'s one hand message shows `versions` versions or more (each edit one more), and
/// returns it: exactly one visible DM.
async fn hand_message_after(fake: &FakeDiscord, user: &FakeUser, versions: usize) -> StoredMessage {
    let id = user.id;
    fake.shared()
        .wait_for(STEP, "the hand message edited", &[id], |s| {
            let dm = s.dm_channel_of(id)?;
            match s.messages_in(dm).as_slice() {
                [one] if 1 + one.edits >= versions => Some((*one).clone()),
                _ => None,
            }
        })
        .await
        .unwrap_or_else(|e| panic!("{e}: {:?}", fake.dms_to(id)))
}

/// The cards of a hand text, without the cells listed beside them.
fn cards(text: &str) -> Vec<String> {
    cards_of(&card_lines(text))
}

/// The cards of card lines ("• 7♥ — I5, D6" is 7♥).
fn cards_of(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.split(" — ").next().unwrap_or(l).to_string())
        .collect()
}

/// The card lines of a hand text.
fn card_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("• "))
        .map(str::to_string)
        .collect()
}

/// Issue 44.7: a whole game against a computer sends one hand DM per player, edited after every own
/// move (an edit notifies nobody) and showing the hand as `/sequence hand` does; a hand message the
/// player deleted (Discord answers the edit with 10008 Unknown Message) is replaced by exactly one
/// new DM, which is edited from then on, also after a restart (its id is saved with the table).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_hand_message_per_game_is_edited_and_replaced_only_when_deleted() {
    let mut h = Harness::started().await;
    let human = h.fake.add_user("alice");
    let channel = h.fake.add_channel("sequence-hand");
    start_against_easy(&h.fake, &human, channel).await;
    let first = hand_message_after(&h.fake, &human, 1).await;
    let mut moves = 0;
    for _ in 0..3 {
        assert!(
            move_and_wait(&h.fake, &human, channel).await,
            "the game goes on"
        );
        moves += 1;
    }
    let edited = hand_message_after(&h.fake, &human, 1 + moves).await;
    assert_eq!(edited.id, first.id, "the same message, edited");
    assert!(edited.notified.is_empty());
    // It shows the hand as it is now: the same cards (the cells listed beside them are those free
    // when the hand last changed; a computer's move since may have taken one).
    let asked = h
        .fake
        .slash(&human, channel, "sequence hand", &[])
        .expect("hand");
    let shown = card_lines(
        &h.fake
            .wait_reply(&asked, STEP)
            .await
            .expect("the hand")
            .content,
    );
    assert!(!shown.is_empty());
    let id = human.id;
    let now = h
        .fake
        .shared()
        .wait_for(STEP, "the hand message to show the hand", &[id], |s| {
            let dm = s.dm_channel_of(id)?;
            s.messages_in(dm)
                .into_iter()
                .find(|m| m.id == first.id && cards(&m.content) == cards_of(&shown))
                .cloned()
        })
        .await
        .unwrap_or_else(|e| panic!("{e}: {shown:?} {:?}", h.fake.dms_to(id)));
    assert!(now.attachments.iter().any(|a| a.filename == "hand.png"));
    assert_eq!(all_dms(&h.fake, &human).len(), 1, "one DM so far");

    // The player deletes it: the next change sends one new message.
    h.fake.remove_message(first.id);
    assert!(
        move_and_wait(&h.fake, &human, channel).await,
        "the game goes on"
    );
    let second = hand_message_after(&h.fake, &human, 1).await;
    assert_ne!(second.id, first.id);
    assert_eq!(all_dms(&h.fake, &human).len(), 2, "one new DM");
    // One more move edits it: the bot has saved its id by then (it edits a new hand message only
    // after saving the id), so the restart below cannot come between the post and the save.
    assert!(
        move_and_wait(&h.fake, &human, channel).await,
        "the game goes on"
    );
    moves += 1;
    let second = hand_message_after(&h.fake, &human, 2).await;

    // A restart: the same (second) message is edited afterwards.
    h.respawn(&support::bot::BotOptions::default());
    h.wait_identified(2).await;
    let versions = 1 + second.edits;
    let restarted_at = moves;
    let mut over = false;
    for _ in 0..150 {
        if !move_and_wait(&h.fake, &human, channel).await {
            over = true;
            break;
        }
        moves += 1;
        if moves == restarted_at + 2 {
            let after_restart = hand_message_after(&h.fake, &human, versions + 1).await;
            assert_eq!(after_restart.id, second.id, "edited after the restart");
        }
    }
    assert!(over, "the game ends");
    let all = all_dms(&h.fake, &human);
    assert_eq!(
        all.len(),
        2,
        "a whole game: the first hand message and the one after it was deleted, nothing else: {:?}",
        all.iter().map(|m| &m.content).collect::<Vec<_>>()
    );
    assert!(all[1].edits >= 2, "{} edits", all[1].edits);
}
