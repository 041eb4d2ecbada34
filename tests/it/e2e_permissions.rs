//! Permissions, threads and forum posts, end to end with the real binary and the Discord stand-in,
//! which computes the bot's permissions per channel (its member overwrites; a thread inherits its
//! parent's, with Send Messages in Threads instead of Send Messages), knows thread membership, answers
//! posts it would refuse with 403 50013 Missing Permissions / 50001 Missing Access, and sends the
//! bot's permissions with every interaction (`app_permissions`).
//!
//! * `/sequence start` where the bot cannot post the board is refused at once, privately, naming the
//!   missing permissions (text channel, thread, private thread the bot is not in, in German too).
//! * A game whose channel stops taking the bot's posts pauses (no computer move, reminder or timeout
//!   happens unseen), the players are told why, and the permission coming back resumes it.
//! * Whole games run in a public thread and in a forum post.

use crate::support;

use std::time::Duration;

use serde_json::Value;
use support::bot::{BotOptions, Harness};
use support::fake_discord::{perm, Config, FakeDiscord, FakeUser, StoredMessage};
use support::table::{turn_mention, TableDriver, TurnEnd, STEP};

/// `/sequence start` as `user` in `channel`: the lobby it posted, or its private refusal.
async fn start(h: &Harness, user: &FakeUser, channel: u64) -> StoredMessage {
    let fake = &h.fake;
    let start = fake
        .slash(user, channel, "sequence start", &[("game", "classic")])
        .expect("start");
    match support::table::lobby_of(fake, &start, channel).await {
        Ok(lobby) => lobby,
        Err(_) => fake
            .wait_reply(&start, STEP)
            .await
            .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40))),
    }
}

/// Asserts a refusal of `/sequence start`: private, naming `missing` (and not `present`), and no table
/// was opened (a second start is refused the same way, and `/sequence status` finds no game).
async fn assert_start_refused(
    h: &Harness,
    user: &FakeUser,
    channel: u64,
    missing: &[&str],
    present: &[&str],
) {
    let reply = start(h, user, channel).await;
    assert!(reply.is_ephemeral(), "a refusal is private: {reply:?}");
    assert!(reply.custom_ids().is_empty(), "no lobby buttons: {reply:?}");
    let lacking = reply
        .content
        .split("A member")
        .next()
        .unwrap_or_default()
        .to_string();
    for name in missing {
        assert!(
            lacking.contains(&format!("**{name}**")),
            "`{name}` should be named: {}",
            reply.content
        );
    }
    for name in present {
        assert!(
            !lacking.contains(&format!("**{name}**")),
            "`{name}` is not missing: {}",
            reply.content
        );
    }
    assert!(
        reply.content.contains("channel settings → Permissions"),
        "how to grant them: {}",
        reply.content
    );
    let status = h
        .fake
        .slash(user, channel, "sequence status", &[])
        .expect("status");
    let status = h.fake.wait_reply(&status, STEP).await.expect("status");
    assert!(
        status.content.contains("no game"),
        "no table: {}",
        status.content
    );
    assert!(
        h.fake.messages_in(channel).iter().all(|m| m.is_ephemeral()),
        "nothing was posted publicly"
    );
}

/// The `app_permissions` of an interaction in `channel` as dispatched: a string bitfield.
fn dispatched_app_permissions(fake: &FakeDiscord, user: &FakeUser, channel: u64) -> u64 {
    let asked = fake
        .autocomplete(user, channel, "sequence play", &[("card", "")], "card")
        .expect("autocomplete");
    let payload = fake.dispatched_interaction(asked.id).expect("dispatched");
    let bits = payload["app_permissions"]
        .as_str()
        .expect("app_permissions is a string, as Discord sends it");
    bits.parse().expect("a decimal bitfield")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_is_refused_where_the_board_cannot_be_posted() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let alice = fake.add_user("alice");
    let bot_id = fake.application_id();

    // A text channel where the bot may not attach files.
    let no_files = fake.add_channel("no-files");
    let everything = dispatched_app_permissions(fake, &alice, no_files);
    assert_ne!(everything & perm::ATTACH_FILES, 0);
    fake.set_bot_overwrite(no_files, 0, perm::ATTACH_FILES);
    let granted = dispatched_app_permissions(fake, &alice, no_files);
    assert_eq!(
        granted,
        everything & !perm::ATTACH_FILES,
        "the overwrite applies"
    );
    assert_start_refused(&h, &alice, no_files, &["Attach Files"], &["View Channel"]).await;

    // A text channel where the bot may not send (nor, then, see): every missing one is named.
    let hidden = fake.add_channel("hidden");
    fake.set_bot_overwrite(hidden, 0, perm::VIEW_CHANNEL | perm::SEND_MESSAGES);
    assert_start_refused(
        &h,
        &alice,
        hidden,
        &["View Channel", "Send Messages"],
        &["Attach Files"],
    )
    .await;

    // A thread of a channel where the bot may send messages but not in threads: Send Messages does
    // not count in a thread.
    let parent = fake.add_channel("no-thread-talk");
    fake.set_bot_overwrite(parent, perm::SEND_MESSAGES, perm::SEND_MESSAGES_IN_THREADS);
    let thread = fake.add_thread(parent, "game thread", false, alice.id);
    assert_start_refused(
        &h,
        &alice,
        thread,
        &["Send Messages in Threads"],
        &["Send Messages", "Attach Files"],
    )
    .await;

    // A private thread the bot is not in: posts there would be refused with 50001 although the
    // permission bits (from the parent) allow them; the reply says to add the bot.
    let open = fake.add_channel("open");
    let private = fake.add_thread(open, "secret game", true, alice.id);
    let reply = start(&h, &alice, private).await;
    assert!(reply.is_ephemeral(), "{reply:?}");
    assert!(
        reply.content.contains("**View Channel**")
            && reply.content.contains("private thread, also add me"),
        "{}",
        reply.content
    );
    // Once the bot is a member (the gateway tells it: THREAD_CREATE), the game opens there.
    fake.add_thread_member(private, bot_id);
    let mut lobby = None;
    for _ in 0..20 {
        let reply = start(&h, &alice, private).await;
        if !reply.is_ephemeral() {
            lobby = Some(reply);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let lobby = lobby.expect("the lobby opens in a private thread the bot is in");
    assert!(lobby.custom_ids().contains(&"sequence:join".to_string()));

    // In the user's language.
    let bruno = fake.add_user("bruno");
    fake.set_locale(bruno.id, "de");
    let reply = start(&h, &bruno, no_files).await;
    assert!(
        reply.is_ephemeral() && reply.content.contains("**Dateien anhängen**"),
        "{}",
        reply.content
    );

    // The stand-in refused nothing: the bot never tried to post where it may not.
    let refused: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.status == 403)
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(refused.is_empty(), "refused requests: {refused:?}");
}

/// Asks autocomplete as `user` in `channel` and returns the suggested values.
async fn suggestions(
    fake: &FakeDiscord,
    user: &FakeUser,
    channel: u64,
    options: &[(&str, &str)],
    focused: &str,
) -> Vec<String> {
    let asked = fake
        .autocomplete(user, channel, "sequence play", options, focused)
        .expect("autocomplete");
    let answer = fake.wait_callback(&asked, STEP).await.expect("choices");
    answer.data["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| match &c["value"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

/// Some legal move of `user` (a card and a cell, from autocomplete), played with `/sequence play`;
/// returns the private answer (the move's board is posted as a new message).
async fn play_any(h: &Harness, user: &FakeUser, channel: u64) -> StoredMessage {
    let fake = &h.fake;
    let cards = suggestions(fake, user, channel, &[("card", ""), ("cell", "")], "card").await;
    for card in cards {
        let cells = suggestions(
            fake,
            user,
            channel,
            &[("card", card.as_str()), ("cell", "")],
            "cell",
        )
        .await;
        if let Some(cell) = cells.first() {
            let play = fake
                .slash(
                    user,
                    channel,
                    "sequence play",
                    &[("card", card.as_str()), ("cell", cell.as_str())],
                )
                .expect("play");
            return fake
                .wait_reply(&play, STEP)
                .await
                .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
        }
    }
    panic!("{}: no legal move offered", user.name);
}

/// Posts the bot attempted in `channel` (accepted or refused), and how many were refused.
fn posts(fake: &FakeDiscord, channel: u64) -> (usize, usize) {
    let all = fake.requests_to("POST", &format!("/channels/{channel}/messages"));
    let refused = all
        .iter()
        .filter(|r| r.status == 403 && r.json.is_object())
        .count();
    (all.len(), refused)
}

/// Waits until the bot has stopped posting in `channel` (the rest of an answer, the hands by DM).
async fn settle(fake: &FakeDiscord, channel: u64) {
    let mut last = posts(fake, channel);
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let now = posts(fake, channel);
        if now == last {
            return;
        }
        last = now;
    }
}

/// Waits until the latest public message in `channel` asks `user` to move.
async fn wait_turn_of(h: &Harness, channel: u64, user: &FakeUser) {
    let id = user.id;
    h.fake
        .shared()
        .wait_for(STEP, "the player's turn", &[channel], |s| {
            s.messages_in(channel)
                .iter()
                .rev()
                .filter(|m| !m.is_ephemeral())
                .find_map(|m| turn_mention(&m.content))
                .filter(|&mentioned| mentioned == id)
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_pauses_when_the_bot_may_no_longer_post_and_resumes_when_it_may() {
    // Short turns: unpaused, a reminder would come after 3 s and a computer move for Alice after 6 s.
    let options = BotOptions {
        turn_secs: (3, 6),
        ..BotOptions::default()
    };
    let h = Harness::start(Config::default(), &options)
        .await
        .expect("the bot connects to the stand-in");
    let fake = &h.fake;
    let alice = fake.add_user("alice");
    let channel = fake.add_channel("against-the-computer");
    // Alice against a computer player.
    let lobby = start(&h, &alice, channel).await;
    assert!(!lobby.is_ephemeral(), "{lobby:?}");
    support::table::add_computer(fake, &alice, channel, lobby.id, None, "easy")
        .await
        .expect("a computer added with the level menu");
    let begin = fake
        .click(&alice, lobby.id, "sequence:begin")
        .expect("begin");
    fake.wait_callback(&begin, STEP).await.expect("begun");
    wait_turn_of(&h, channel, &alice).await;
    settle(fake, channel).await;

    // A moderator takes Attach Files from the bot; Alice moves (acknowledged privately), then her
    // move's board, a new message, is refused.
    fake.set_bot_overwrite(channel, 0, perm::ATTACH_FILES);
    let (before, _) = posts(fake, channel);
    let answer = play_any(&h, &alice, channel).await;
    assert!(
        answer.is_ephemeral() && answer.content == support::table::DONE,
        "{answer:?}"
    );
    fake.shared()
        .wait_for(STEP, "a refused post", &[channel], |s| {
            let path = format!("/channels/{channel}/messages");
            s.requests
                .iter()
                .filter(|r| r.method == "POST" && r.path == path)
                .skip(before)
                .find(|r| r.status == 403)
                .cloned()
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    let refused = fake
        .requests_to("POST", &format!("/channels/{channel}/messages"))
        .into_iter()
        .find(|r| r.status == 403)
        .expect("refused");
    assert!(
        !refused.uploads.is_empty(),
        "the board (a file) was refused"
    );
    // Paused: past Alice's reminder and timeout, no reminder or computer move is even tried.
    settle(fake, channel).await;
    let settled = posts(fake, channel);
    tokio::time::sleep(Duration::from_secs(7)).await;
    assert_eq!(
        posts(fake, channel),
        settled,
        "nothing is posted (or tried) while paused\nbot log:\n{}",
        h.bot.log_tail(40)
    );

    // Alice is told why, privately, naming what is missing; her move is not taken.
    let cards = suggestions(fake, &alice, channel, &[("card", ""), ("cell", "")], "card").await;
    let card = cards.first().cloned().unwrap_or_else(|| "AS".into());
    let play = fake
        .slash(
            &alice,
            channel,
            "sequence play",
            &[("card", card.as_str()), ("cell", "A2")],
        )
        .expect("play");
    let told = fake.wait_reply(&play, STEP).await.expect("told");
    assert!(told.is_ephemeral(), "{told:?}");
    assert!(
        told.content.contains("paused") && told.content.contains("**Attach Files**"),
        "{}",
        told.content
    );
    assert_eq!(posts(fake, channel), settled, "nothing posted");

    // The permission comes back; Alice's next command finds out (its `app_permissions`), and the
    // channel is told the game goes on, with the board, and play resumes.
    fake.set_bot_overwrite(channel, 0, 0);
    let status = fake
        .slash(&alice, channel, "sequence status", &[])
        .expect("status");
    let status = fake.wait_reply(&status, STEP).await.expect("status");
    assert!(
        status.is_ephemeral() && !status.content.contains("paused"),
        "{}",
        status.content
    );
    let resumed = fake
        .shared()
        .wait_for(STEP, "the resume note", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .find(|m| m.content.contains("I can post in this channel again"))
                .cloned()
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(
        resumed
            .attachments
            .iter()
            .any(|a| a.filename.starts_with("board")),
        "the board is shown again: {resumed:?}"
    );
    // Alice's move was made before its board was refused, so the computer moves next (now that it
    // may post), and then Alice is asked to move.
    wait_turn_of(&h, channel, &alice).await;
    // And the game goes on: Alice moves, the computer answers with a post that is taken.
    let (after_resume, refused_so_far) = posts(fake, channel);
    play_any(&h, &alice, channel).await;
    let path = format!("/channels/{channel}/messages");
    fake.shared()
        .wait_for(STEP, "the computer's next post", &[channel], |s| {
            s.requests
                .iter()
                .filter(|r| r.method == "POST" && r.path == path)
                .skip(after_resume)
                .find(|r| r.status == 200 && !r.uploads.is_empty())
                .map(|_| ())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    settle(fake, channel).await;
    let (_, refused_now) = posts(fake, channel);
    assert_eq!(
        refused_now, refused_so_far,
        "no refused post after resuming"
    );

    // Missing Access (50001) pauses too: the bot can no longer see the channel.
    wait_turn_of(&h, channel, &alice).await;
    fake.set_bot_overwrite(channel, 0, perm::VIEW_CHANNEL);
    play_any(&h, &alice, channel).await;
    fake.shared()
        .wait_for(STEP, "a post refused for access", &[channel], |s| {
            s.requests
                .iter()
                .filter(|r| r.method == "POST" && r.path == path)
                .filter(|r| r.status == 403)
                .nth(refused_now)
                .map(|_| ())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    settle(fake, channel).await;
    let board = fake
        .slash(&alice, channel, "sequence board", &[])
        .expect("board");
    let told = fake.wait_reply(&board, STEP).await.expect("told");
    assert!(
        told.is_ephemeral()
            && told.content.contains("paused")
            && told.content.contains("**View Channel**"),
        "{}",
        told.content
    );
}

/// Plays a whole two-player game in `channel` (a thread), asserting every post was taken.
async fn whole_game_in(h: &Harness, channel: u64, players: &[FakeUser]) {
    let fake = &h.fake;
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    table.thorough = false;
    let mut over = None;
    for _ in 0..400 {
        match table.play_turn().await {
            Ok(TurnEnd::Next) => {}
            Ok(TurnEnd::Over(message)) => {
                over = Some(message);
                break;
            }
            Err(e) => panic!(
                "turn {}: {e}\nbot log:\n{}",
                table.played.len(),
                h.bot.log_tail(40)
            ),
        }
    }
    let over = over.expect("the game ends");
    assert!(over.content.contains("wins"), "{}", over.content);
    let refused: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.status >= 400 && r.path.contains(&channel.to_string()))
        .map(|r| format!("{} {} {}", r.status, r.method, r.path))
        .collect();
    assert!(refused.is_empty(), "refused requests: {refused:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_run_in_a_public_thread_and_in_a_forum_post() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players = vec![fake.add_user("alice"), fake.add_user("bob")];
    // A public thread of a text channel where the bot may send messages in threads only.
    let parent = fake.add_channel("games");
    fake.set_bot_overwrite(parent, perm::SEND_MESSAGES_IN_THREADS, perm::SEND_MESSAGES);
    let thread = fake.add_thread(parent, "alice vs bob", false, players[0].id);
    whole_game_in(&h, thread, &players).await;
    // The parent channel itself would refuse the bot: the game really ran in the thread.
    assert!(fake.messages_in(parent).is_empty());

    // A forum post: a public thread whose parent is a forum (which itself takes no messages).
    let forum = fake.add_forum("sequence-forum");
    let post = fake.add_thread(forum, "rematch", false, players[1].id);
    let asked = fake
        .autocomplete(&players[1], post, "sequence play", &[("card", "")], "card")
        .expect("autocomplete");
    let payload = fake.dispatched_interaction(asked.id).expect("dispatched");
    assert_eq!(
        payload["channel"]["type"], 11,
        "a forum post is a public thread"
    );
    assert_eq!(
        payload["channel"]["parent_id"],
        Value::String(forum.to_string())
    );
    assert!(payload["channel"]["thread_metadata"].is_object());
    whole_game_in(&h, post, &players).await;
    // One game per thread: a second lobby in the same post is refused, one in a new post is not.
    let next = start(&h, &players[0], post).await;
    assert!(
        !next.is_ephemeral(),
        "the finished game freed the post: {next:?}"
    );
    let busy = start(&h, &players[1], post).await;
    assert!(
        busy.is_ephemeral() && busy.content.contains("already has a game"),
        "{}",
        busy.content
    );
    let other = fake.add_thread(forum, "another", false, players[0].id);
    let lobby = start(&h, &players[1], other).await;
    assert!(!lobby.is_ephemeral(), "{lobby:?}");
}
