//! Issue 24, point 4, through the real binary and the Discord stand-in: a player whose display name is
//! a masked link with `@everyone` gives up; the channel post names the computer that takes the seat
//! with the name escaped (no link, no mention), and no message the bot sent (posts, DMs, private
//! answers, the refusal of a forged button) lets Discord ping `@everyone`, `@here` or a role.

use crate::support;

use serde_json::Value;
use support::bot::Harness;
use support::fake_discord::{FakeUser, StoredMessage};
use support::table::{public_result, TableDriver};

/// At most Discord's 32 characters, so the whole name reaches the message.
const HOSTILE: &str = "[gift](https://x.yz)@everyone";

/// Whether a message's `allowed_mentions` keep Discord from pinging `@everyone`, `@here` and roles:
/// present (without it Discord parses every mention), `parse` without "everyone" and "roles", no
/// role listed.
fn pings_no_crowd(message: &StoredMessage) -> bool {
    let allowed = &message.allowed_mentions;
    let parse: Vec<&str> = allowed["parse"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    allowed.is_object()
        && !parse.contains(&"everyone")
        && !parse.contains(&"roles")
        && allowed["roles"].as_array().is_none_or(Vec::is_empty)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_name_is_posted_as_text_and_nothing_pings_everyone() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let fail = |e: String| -> ! { panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)) };
    let players: Vec<FakeUser> = ["alice", HOSTILE, "carol", "dave"]
        .iter()
        .map(|n| fake.add_user(n))
        .collect();
    let channel = fake.add_channel("sequence-names");
    TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .unwrap_or_else(|e| fail(e));

    // Two teams of two: the hostile player gives up and a computer takes the seat.
    let quitter = &players[1];
    let forfeit = fake
        .slash(quitter, channel, "sequence forfeit", &[])
        .unwrap_or_else(|e| fail(e));
    let post = public_result(fake, &forfeit, channel, "the forfeit", |m| {
        m.content.contains("gave up")
    })
    .await
    .unwrap_or_else(|e| fail(e));
    let expected = format!(
        "<@{}> gave up. The computer player **Computer (easy, for \\[gift\\](https\\://x.yz)@\u{200B}everyone)** takes their seat.",
        quitter.id
    );
    assert!(post.content.contains(&expected), "{}", post.content);
    assert!(!post.content.contains(HOSTILE), "{}", post.content);
    assert!(!post.content.contains("@everyone"), "{}", post.content);
    // It pings nobody (the player who gave up is named, not called), least of all a crowd.
    assert!(pings_no_crowd(&post), "{:?}", post.allowed_mentions);
    assert!(post.notified.is_empty(), "{:?}", post.notified);

    // A press of a button the bot never made is refused privately, also saying whom it may ping.
    let forged = fake.add_bot_button(channel, "Win", "sequence:p:1:2:cell:JD:A0");
    let press = fake
        .click(&players[2], forged, "sequence:p:1:2:cell:JD:A0")
        .unwrap_or_else(|e| fail(e));
    let refusal = fake
        .wait_reply(&press, support::table::STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(
        refusal.content.contains("do not know this button"),
        "{refusal:?}"
    );
    assert!(pings_no_crowd(&refusal), "{:?}", refusal.allowed_mentions);

    // Every message of the game (lobby, start, prompts, hands by DM, private answers) says whom it
    // may ping.
    // (The forged message was made by the test, not sent by the bot.)
    let mut sent: Vec<StoredMessage> = fake
        .messages_in(channel)
        .into_iter()
        .filter(|m| m.id != forged)
        .collect();
    for player in &players {
        sent.extend(fake.dms_to(player.id));
    }
    assert!(sent.len() > 5, "{}", sent.len());
    let crowd: Vec<_> = sent
        .iter()
        .filter(|m| !pings_no_crowd(m))
        .map(|m| (&m.content, &m.allowed_mentions))
        .collect();
    assert!(crowd.is_empty(), "{crowd:#?}");
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}
