//! Issue 25 through the real binary against the Discord stand-in, with buttons only after the one
//! `/sequence start`: a best-of-3 series to its winner (Next game, the losing side moving first, the
//! bot killed between two games and again during one), and a game on a 15-second clock played to its
//! end (the prompt's `<t:…:R>` deadline, no reminders, one turn that runs out, a restart in the middle).

use crate::support;

use std::time::Duration;

use support::bot::{BotOptions, Harness};
use support::fake_discord::{FakeDiscord, FakeUser, StoredMessage};
use support::table::{
    button_id, latest_prompt, open_by_buttons, open_more, posted_after, press_turn, private_answer,
    Dice, PressStats, PressedTurn, STEP,
};

/// The player a turn prompt asks to move.
fn asked(prompt: &StoredMessage) -> Option<u64> {
    prompt.allowed_mentions["users"]
        .as_array()
        .and_then(|users| users.first())
        .and_then(|u| u.as_str())
        .and_then(|u| u.parse().ok())
}

fn public_count(fake: &FakeDiscord, channel: u64) -> usize {
    fake.messages_in(channel).len()
}

fn is_final(message: &StoredMessage) -> bool {
    message
        .attachments
        .iter()
        .any(|a| a.filename.ends_with(".json"))
}

/// Plays `turns` turns by presses (the game must go on).
async fn play_turns(
    fake: &FakeDiscord,
    h: &Harness,
    channel: u64,
    players: &[FakeUser],
    stranger: &FakeUser,
    dice: &mut Dice,
    turns: usize,
) {
    let mut stats = PressStats::default();
    for turn in 0..turns {
        match press_turn(fake, channel, players, stranger, dice, &mut stats, false).await {
            Ok(PressedTurn::Next(_)) => {}
            Ok(PressedTurn::Over(end)) => panic!("the game ended early: {}", end.content),
            Err(e) => panic!("turn {turn}: {e}\nbot log:\n{}", h.bot.log_tail(60)),
        }
    }
}

/// `user` gives up with ⋯ → Leave the game → Yes: the game ends (two players). Its final message.
async fn give_up(fake: &FakeDiscord, h: &Harness, channel: u64, user: &FakeUser) -> StoredMessage {
    let fail = |e: String| -> ! { panic!("{e}\nbot log:\n{}", h.bot.log_tail(60)) };
    let menu = open_more(fake, channel, user)
        .await
        .unwrap_or_else(|e| fail(e));
    let leave = button_id(&menu, "sequence:leave:").unwrap_or_else(|e| fail(e));
    let key = leave.trim_start_matches("sequence:leave:").to_string();
    let question = private_answer(fake, user, menu.id, &leave)
        .await
        .unwrap_or_else(|e| fail(e));
    let posts = public_count(fake, channel);
    let yes = fake
        .click(user, question.id, &format!("sequence:leave-confirm:{key}"))
        .expect("yes");
    fake.wait_callback(&yes, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    posted_after(fake, channel, posts, "the final message", is_final)
        .await
        .unwrap_or_else(|e| fail(e))
}

/// Kills the bot (SIGKILL) and starts it again on the same database; waits for it to identify.
async fn restart(h: &mut Harness, restarts: &mut usize) {
    // The bot records that a final message is out just after posting it: a kill before that would
    // have it announced again after the restart (as it should), which these tests do not look at.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    h.respawn(&BotOptions::default());
    *restarts += 1;
    h.wait_identified(*restarts + 1).await;
}

/// Presses **Next game** on a final message as `user`: the next game begins at once.
async fn next_game(
    fake: &FakeDiscord,
    h: &Harness,
    channel: u64,
    end: &StoredMessage,
    user: &FakeUser,
) -> StoredMessage {
    let fail = |e: String| -> ! { panic!("{e}\nbot log:\n{}", h.bot.log_tail(60)) };
    let next = button_id(end, "sequence:next:").unwrap_or_else(|e| fail(e));
    let posts = public_count(fake, channel);
    let press = fake.click(user, end.id, &next).expect("press");
    fake.wait_callback(&press, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    let started = posted_after(fake, channel, posts, "the next game", |m| {
        m.content.contains("begins!")
    })
    .await
    .unwrap_or_else(|e| fail(e));
    // The pressed final message keeps its score (it is not written over by the new game).
    let kept = fake.message(end.id).expect("the final message");
    assert!(
        kept.content.contains("Series, best of 3"),
        "{}",
        kept.content
    );
    started
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_best_of_three_series_with_buttons_survives_restarts() {
    let mut h = Harness::started().await;
    let mut restarts = 0;
    let channel = h.fake.add_channel("series");
    let ann = h.fake.add_user("ann");
    let bob = h.fake.add_user("bob");
    let stranger = h.fake.add_user("carl");
    let players = [ann.clone(), bob.clone()];
    let mut dice = Dice::new(25);
    let started = open_by_buttons(
        &h.fake,
        channel,
        &ann,
        std::slice::from_ref(&bob),
        &[("game", "classic"), ("series", "best of 3")],
    )
    .await
    .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(started.content.contains("begins!"));

    // Game 1: two turns each, then Bob gives up: 1–0 for Ann.
    play_turns(&h.fake, &h, channel, &players, &stranger, &mut dice, 4).await;
    let end1 = give_up(&h.fake, &h, channel, &bob).await;
    assert!(
        end1.content.contains("Series, best of 3, after game 1"),
        "{}",
        end1.content
    );
    let ids = end1.custom_ids();
    assert!(
        ids.iter().any(|id| id.starts_with("sequence:next:")),
        "{ids:?}"
    );
    assert!(
        ids.iter().any(|id| id.starts_with("sequence:abandon:")),
        "{ids:?}"
    );
    assert!(
        !ids.iter().any(|id| id.starts_with("sequence:rematch:")),
        "{ids:?}"
    );

    // The bot is killed between the games: the series is still there after the restart, and its
    // note offers Next game again.
    restart(&mut h, &mut restarts).await;
    h.fake
        .shared()
        .wait_for(
            Duration::from_secs(60),
            "the series' restart note",
            &[channel],
            |s| {
                s.messages_in(channel)
                    .iter()
                    .any(|m| m.id > end1.id && m.content.contains("after game 1"))
                    .then_some(())
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    // A stranger cannot start it.
    let next1 = button_id(&end1, "sequence:next:").unwrap();
    let refused = private_answer(&h.fake, &stranger, end1.id, &next1)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(
        refused.content.contains("Only the players of this series"),
        "{}",
        refused.content
    );
    // Bob (who lost) presses Next game on the old final message: the game begins, Bob first.
    let fake = &h.fake;
    let started = next_game(fake, &h, channel, &end1, &bob).await;
    let prompt = latest_prompt(fake, channel).expect("a prompt");
    assert!(prompt.id >= started.id);
    assert_eq!(
        asked(&prompt),
        Some(bob.id),
        "the side that lost moves first"
    );

    // Game 2: killed in the middle; the game comes back and goes on; Ann gives up: 1–1.
    play_turns(fake, &h, channel, &players, &stranger, &mut dice, 2).await;
    let before = public_count(fake, channel);
    restart(&mut h, &mut restarts).await;
    let fake = &h.fake;
    posted_after(fake, channel, before, "the game's restart note", |m| {
        m.content.contains("restarted") || m.content.contains("back")
    })
    .await
    .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    play_turns(fake, &h, channel, &players, &stranger, &mut dice, 2).await;
    let end2 = give_up(fake, &h, channel, &ann).await;
    assert!(
        end2.content.contains("after game 2") && end2.content.contains("1 – "),
        "{}",
        end2.content
    );
    // The first game's button is stale now: answered privately, nothing starts.
    let stale = private_answer(fake, &ann, end1.id, &next1)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(!stale.content.contains("begins!"), "{}", stale.content);

    // Game 3: Ann lost game 2 and moves first; she gives up again: Bob wins the series 2–1.
    next_game(fake, &h, channel, &end2, &ann).await;
    let prompt = latest_prompt(fake, channel).expect("a prompt");
    assert_eq!(
        asked(&prompt),
        Some(ann.id),
        "the side that lost moves first"
    );
    play_turns(fake, &h, channel, &players, &stranger, &mut dice, 4).await;
    let end3 = give_up(fake, &h, channel, &ann).await;
    assert!(end3.content.contains("after game 3"), "{}", end3.content);
    assert!(
        end3.content
            .contains(&format!("<@{}> win the series (best of 3)", bob.id)),
        "{}",
        end3.content
    );
    let ids = end3.custom_ids();
    assert!(
        !ids.iter().any(|id| id.starts_with("sequence:next:")),
        "{ids:?}"
    );
    assert!(
        ids.iter().any(|id| id.starts_with("sequence:rematch:")),
        "{ids:?}"
    );
    // Bob's stats, by the final message's button: three games, one series won.
    let posts = public_count(fake, channel);
    let press = fake.click(&bob, end3.id, "sequence:stats").expect("stats");
    fake.wait_callback(&press, STEP).await.expect("answered");
    let stats = posted_after(fake, channel, posts, "Bob's stats", |m| {
        m.content.contains("on this server")
    })
    .await
    .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(
        stats.content.contains("Series: 1 played, 1 won."),
        "{}",
        stats.content
    );
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifteen_second_game_is_played_to_its_end_with_one_turn_run_out_and_a_restart() {
    let mut h = Harness::started().await;
    let mut restarts = 0;
    let channel = h.fake.add_channel("blitz");
    let ann = h.fake.add_user("ann");
    let bob = h.fake.add_user("bob");
    let stranger = h.fake.add_user("carl");
    let players = [ann.clone(), bob.clone()];
    let mut dice = Dice::new(15);
    let unix_now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    let before = unix_now();
    let started = open_by_buttons(
        &h.fake,
        channel,
        &ann,
        std::slice::from_ref(&bob),
        &[
            ("game", "classic"),
            ("sequences_to_win", "1"),
            ("turn_time", "15 seconds"),
        ],
    )
    .await
    .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    // The prompt counts down by itself: a Discord timestamp 15 s after the deal.
    let now = unix_now();
    let deadline: u64 = started
        .content
        .split("<t:")
        .nth(1)
        .and_then(|rest| rest.split(":R>").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no countdown in {}", started.content));
    assert!(
        deadline >= before + 15 && deadline <= now + 15,
        "deadline {deadline}, dealt between {before} and {now}"
    );
    play_turns(&h.fake, &h, channel, &players, &stranger, &mut dice, 3).await;

    // One turn runs out: nobody moves; about 15 s later the computer plays it, with no reminder on
    // the way.
    let fake = &h.fake;
    let waiting = latest_prompt(fake, channel).expect("a prompt");
    let idle = asked(&waiting).expect("someone to move");
    let before = public_count(fake, channel);
    let timed_out = fake
        .shared()
        .wait_for(
            Duration::from_secs(30),
            "the turn to run out",
            &[channel],
            |s| {
                s.messages_in(channel)
                    .into_iter()
                    .skip(before)
                    .find(|m| !m.is_ephemeral() && m.content.contains("ran out of time"))
                    .cloned()
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(
        timed_out.content.contains(&format!("<@{idle}>")),
        "{}",
        timed_out.content
    );
    let reminders = fake
        .messages_in(channel)
        .iter()
        .filter(|m| m.content.contains("still your turn"))
        .count();
    assert_eq!(reminders, 0, "a 15-second clock sends no reminder");

    // Killed in the middle; the game comes back on its 15-second clock and is played to its end.
    play_turns(fake, &h, channel, &players, &stranger, &mut dice, 2).await;
    let before = public_count(fake, channel);
    restart(&mut h, &mut restarts).await;
    let fake = &h.fake;
    posted_after(fake, channel, before, "the game's restart note", |m| {
        m.content.contains("restarted") || m.content.contains("back")
    })
    .await
    .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    let mut stats = PressStats::default();
    for turn in 0..2000 {
        match press_turn(
            fake, channel, &players, &stranger, &mut dice, &mut stats, false,
        )
        .await
        {
            Ok(PressedTurn::Next(prompt)) => {
                assert!(prompt.content.contains(":R>"), "{}", prompt.content);
            }
            Ok(PressedTurn::Over(end)) => {
                assert!(end.content.contains("wins"), "{}", end.content);
                let problems = fake.take_openapi_problems();
                assert!(problems.is_empty(), "{problems:#?}");
                assert!(!h.bot.log().contains("panicked"));
                return;
            }
            Err(e) => panic!("turn {turn}: {e}\nbot log:\n{}", h.bot.log_tail(60)),
        }
    }
    panic!("the game did not end");
}
