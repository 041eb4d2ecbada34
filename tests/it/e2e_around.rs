//! Issue 16, around the game, through the real binary and the stand-in: `/sequence leave` during a
//! game asks first in a private message with Confirm and Keep playing buttons; giving up that ends the
//! game says so without seating a computer; the final message's Rematch button opens a new lobby whose
//! mention of the other player notifies them, and they join with one press. Issue 26: Keep playing
//! replaces the question in place and its old Yes no longer counts; the other player's press of
//! Rematch joins the open rematch lobby.

use crate::support;

use std::time::Duration;

use support::bot::{BotOptions, Harness};
use support::fake_discord::{Config, FakeUser};
use support::table::{button_id, posted_after, updated_in_place, TableDriver, STEP};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leave_asks_first_and_the_rematch_invites_with_a_notifying_mention() {
    let h = Harness::start(Config::default(), &BotOptions::default())
        .await
        .expect("the bot connects to the stand-in");
    let fake = &h.fake;
    let fail = |e: String| -> ! { panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)) };
    let players: Vec<FakeUser> = ["alice", "bob"].iter().map(|n| fake.add_user(n)).collect();
    let (alice, bob) = (&players[0], &players[1]);
    let carol = fake.add_user("carol");
    let channel = fake.add_channel("sequence-rematch");
    TableDriver::open(fake, channel, alice, &players[1..], 2)
        .await
        .unwrap_or_else(|e| fail(e));
    let public = |fake: &support::fake_discord::FakeDiscord| {
        fake.messages_in(channel)
            .iter()
            .filter(|m| !m.is_ephemeral())
            .count()
    };
    let before = public(fake);

    // Leave during the game: a private question with two buttons, nothing public, nothing changes.
    let ask_leave = || async {
        let leave = fake
            .slash(bob, channel, "sequence leave", &[])
            .unwrap_or_else(|e| fail(e));
        let question = fake
            .wait_reply(&leave, STEP)
            .await
            .unwrap_or_else(|e| fail(e));
        assert!(
            question.is_ephemeral(),
            "the question is private: {question:?}"
        );
        assert!(
            question.content.contains("Do you really want to give up"),
            "{}",
            question.content
        );
        let ids = question.custom_ids();
        assert_eq!(ids.len(), 2, "{ids:?}");
        // The Yes button names the game it asks about (the table's key), Keep does not need to.
        let key = ids[0]
            .strip_prefix("sequence:leave-confirm:")
            .unwrap_or_else(|| fail(format!("not a confirmation: {ids:?}")));
        assert!(key.parse::<u64>().is_ok(), "{ids:?}");
        assert_eq!(ids[1], "sequence:leave-keep");
        (question, ids[0].clone())
    };
    let (question, confirm_id) = ask_leave().await;
    // Only bob sees it, so only bob can press its buttons.
    assert!(fake.click(alice, question.id, &confirm_id).is_err());
    let private_count = |fake: &support::fake_discord::FakeDiscord| {
        fake.messages_in(channel)
            .iter()
            .filter(|m| m.is_ephemeral())
            .count()
    };
    let questions = private_count(fake);
    let keep = fake
        .click(bob, question.id, "sequence:leave-keep")
        .unwrap_or_else(|e| fail(e));
    // The answer replaces the question (UPDATE_MESSAGE): the same message, its buttons gone.
    let kept = updated_in_place(fake, &keep, question.id)
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(
        kept.is_ephemeral() && kept.content.contains("still playing") && kept.edits > 0,
        "{kept:?}"
    );
    assert!(kept.custom_ids().is_empty(), "{:?}", kept.custom_ids());
    assert!(fake.click(bob, question.id, &confirm_id).is_err());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(public(fake), before, "asking and keeping post nothing");
    assert_eq!(private_count(fake), questions, "no new private message");

    // The old Yes, pressed anyway (its id on an old message): refused privately, bob still plays.
    let old_yes = fake.add_bot_button(channel, "Yes, give up", &confirm_id);
    let late = fake
        .click(bob, old_yes, &confirm_id)
        .unwrap_or_else(|e| fail(e));
    let refused = fake
        .wait_reply(&late, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(
        refused.is_ephemeral() && refused.content.contains("answered already"),
        "{refused:?}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        public(fake),
        before + 1,
        "nothing posted but the forged message"
    );

    // Asked again and confirmed: bob gives up, and with two players the game ends.
    let (question, confirm_id) = ask_leave().await;
    let skip = fake.messages_in(channel).len();
    let confirm = fake
        .click(bob, question.id, &confirm_id)
        .unwrap_or_else(|e| fail(e));
    fake.wait_callback(&confirm, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    let last = posted_after(fake, channel, skip, "the final message", |m| {
        m.attachments.iter().any(|a| a.filename.ends_with(".json"))
    })
    .await
    .unwrap_or_else(|e| fail(e));
    let gave_up = format!("<@{}> gave up.", bob.id);
    assert!(last.content.contains(&gave_up), "{}", last.content);
    assert!(
        !last.content.contains("takes their seat"),
        "the end contradicts itself: {}",
        last.content
    );
    let rematch_id = button_id(&last, "sequence:rematch:").unwrap_or_else(|e| fail(e));
    assert_eq!(
        rematch_id,
        confirm_id.replace("leave-confirm", "rematch"),
        "both buttons name the same game"
    );

    // Someone who did not play cannot ask for the rematch.
    let outsider = fake
        .click(&carol, last.id, &rematch_id)
        .unwrap_or_else(|e| fail(e));
    let refused = fake
        .wait_reply(&outsider, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(
        refused.is_ephemeral()
            && refused
                .content
                .contains("Only the players of the last game"),
        "{refused:?}"
    );

    // Alice asks for the rematch: a new lobby message that notifies bob (and nobody else).
    let skip = fake.messages_in(channel).len();
    let rematch = fake
        .click(alice, last.id, &rematch_id)
        .unwrap_or_else(|e| fail(e));
    fake.wait_callback(&rematch, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    let lobby = posted_after(fake, channel, skip, "the rematch lobby", |m| {
        m.custom_ids().contains(&"sequence:join".to_string())
    })
    .await
    .unwrap_or_else(|e| fail(e));
    assert_ne!(lobby.id, last.id, "a new message, not the final one edited");
    assert!(lobby.content.contains("Rematch!"), "{}", lobby.content);
    assert_eq!(lobby.notified, vec![bob.id], "the invitation notifies bob");
    let final_now = fake.message(last.id).expect("the final message is kept");
    assert!(final_now.content.contains(&gave_up) && !final_now.attachments.is_empty());

    // Bob's press of Rematch while its lobby is open joins him to it: the lobby message is edited,
    // nothing new is posted.
    let skip = fake.messages_in(channel).len();
    let again = fake
        .click(bob, last.id, &rematch_id)
        .unwrap_or_else(|e| fail(e));
    fake.wait_callback(&again, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    let seated = format!("2. <@{}>", bob.id);
    let updated = fake
        .shared()
        .wait_for(STEP, "bob in the lobby", &[channel], |s| {
            s.messages
                .get(&lobby.id)
                .filter(|m| m.content.contains(&seated))
                .cloned()
        })
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(!updated.content.contains("Invited"), "{}", updated.content);
    assert!(
        !fake
            .messages_in(channel)
            .iter()
            .skip(skip)
            .any(|m| m.content.contains("already has a game")),
        "the press is not refused"
    );
    assert_eq!(
        fake.messages_in(channel)
            .iter()
            .skip(skip)
            .filter(|m| !m.is_ephemeral())
            .count(),
        0
    );
    // Pressed again, or Join: he is in already.
    let join = fake
        .click(bob, lobby.id, "sequence:join")
        .unwrap_or_else(|e| fail(e));
    let answer = fake
        .wait_reply(&join, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(
        answer.is_ephemeral() && answer.content.contains("already joined"),
        "{answer:?}"
    );

    let skip = fake.messages_in(channel).len();
    let begin = fake
        .click(alice, lobby.id, "sequence:begin")
        .unwrap_or_else(|e| fail(e));
    fake.wait_callback(&begin, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    posted_after(fake, channel, skip, "the rematch to start", |m| {
        m.content.contains("begins!")
    })
    .await
    .unwrap_or_else(|e| fail(e));
}
