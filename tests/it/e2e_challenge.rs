//! Issue 36, challenge a friend, through the real binary against the Discord stand-in, by buttons
//! after one command: `/sequence start invite:` with two mentions (refused politely when it names
//! anything but other people), its lobby pinging exactly the invited once, a stranger's Accept
//! refused, both accepting and the game started; the user command "Challenge to Sequence" (named in
//! every language; refused on oneself and on an app) declined, told to the host alone by DM; and an
//! invitation left unanswered that lapses after the bot's `challenge_timeout_secs`, the lobby post
//! edited to say so and the lobby still open. Who each message notified is checked throughout.

use crate::support;

use std::time::Duration;

use support::bot::{BotOptions, Harness};
use support::fake_discord::{Config, FakeDiscord, FakeUser, StoredMessage};
use support::table::{button_id, lobby_of, posted_after, updated_in_place, STEP};

fn fail(h: &Harness, e: String) -> ! {
    panic!("{e}\nbot log:\n{}", h.bot.log_tail(60))
}

/// The ids of `users`, sorted.
fn ids(users: &[&FakeUser]) -> Vec<u64> {
    let mut ids: Vec<u64> = users.iter().map(|u| u.id).collect();
    ids.sort_unstable();
    ids
}

/// Who `message` notified, sorted.
fn notified(message: &StoredMessage) -> Vec<u64> {
    let mut ids = message.notified.clone();
    ids.sort_unstable();
    ids
}

/// Everyone notified by the messages of `channel` after the first `skip`.
fn notified_after(fake: &FakeDiscord, channel: u64, skip: usize) -> Vec<u64> {
    fake.messages_in(channel)
        .iter()
        .skip(skip)
        .flat_map(|m| m.notified.clone())
        .collect()
}

/// The private message in `channel` shown to `user` whose text contains `contains`, once there.
async fn private_to(
    fake: &FakeDiscord,
    channel: u64,
    user: &FakeUser,
    contains: &str,
) -> Result<StoredMessage, String> {
    fake.shared()
        .wait_for(STEP, contains, &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .find(|m| m.is_ephemeral() && m.content.contains(contains))
                .cloned()
        })
        .await
        .and_then(|m| {
            // Private answers to presses are follow-ups of the user's own interaction.
            if m.interaction_id
                .is_some_and(|id| fake.interaction(id).is_some_and(|i| i.user_id != user.id))
            {
                Err(format!("{contains:?} was shown to someone else"))
            } else {
                Ok(m)
            }
        })
}

/// `/sequence start` with `options` by `host` is refused privately with `contains`, and nothing is
/// posted in the channel.
async fn refused_start(
    fake: &FakeDiscord,
    channel: u64,
    host: &FakeUser,
    options: &[(&str, &str)],
    contains: &str,
) -> Result<(), String> {
    let before = fake
        .messages_in(channel)
        .iter()
        .filter(|m| !m.is_ephemeral())
        .count();
    let start = fake.slash(host, channel, "sequence start", options)?;
    let answer = fake.wait_reply(&start, STEP).await?;
    if !answer.is_ephemeral() || !answer.content.contains(contains) {
        return Err(format!(
            "{options:?}: expected a private {contains:?}, got {answer:?}"
        ));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = fake
        .messages_in(channel)
        .iter()
        .filter(|m| !m.is_ephemeral())
        .count();
    if after != before {
        return Err(format!("{options:?}: something was posted"));
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_by_invite_is_accepted_by_both_and_the_game_starts() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let channel = fake.add_channel("challenges");
    let ann = fake.add_user("ann");
    let bob = fake.add_user("bob");
    let carl = fake.add_user("carl");
    let dave = fake.add_user("dave");
    let app = fake.add_app("otherbot");

    // What is not an invitation of other people opens nothing.
    let (b, c) = (bob.id, carl.id);
    for (invite, says) in [
        ("bob", "Name the players to invite as mentions"),
        ("<@&5>", "Only people can be invited"),
        ("@everyone", "Only people can be invited"),
        (&*format!("<@{b}> <@!{b}>"), "is named twice"),
        (&*format!("<@{}>", ann.id), "You are the host already"),
    ] {
        refused_start(fake, channel, &ann, &[("invite", invite)], says)
            .await
            .unwrap_or_else(|e| fail(&h, e));
    }
    // Kids seats four: the host and three more.
    let five = format!("<@{b}> <@{c}> <@{}> <@{}>", dave.id, app.id);
    refused_start(
        fake,
        channel,
        &ann,
        &[("game", "kids"), ("invite", &five)],
        "room for 3 more",
    )
    .await
    .unwrap_or_else(|e| fail(&h, e));

    // Discord's client writes each @name picked from the list as a mention (old clients `<@!id>`).
    let skip = fake.messages_in(channel).len();
    let start = fake
        .slash(
            &ann,
            channel,
            "sequence start",
            &[("game", "classic"), ("invite", &format!("<@{b}>, <@!{c}>"))],
        )
        .expect("start");
    let lobby = lobby_of(fake, &start, channel)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(
        lobby
            .content
            .contains(&format!("Challenge! Invited: <@{b}> and <@{c}>.")),
        "{}",
        lobby.content
    );
    let accept = button_id(&lobby, "sequence:accept:").unwrap_or_else(|e| fail(&h, e));
    let decline = button_id(&lobby, "sequence:decline:").unwrap_or_else(|e| fail(&h, e));
    // The lobby pinged exactly the two invited, once; nothing else in the channel notified anyone.
    assert_eq!(
        notified(&lobby),
        ids(&[&bob, &carl]),
        "{:?}",
        lobby.allowed_mentions
    );
    assert_eq!(notified_after(fake, channel, skip), ids(&[&bob, &carl]));

    // A stranger's Accept or Decline: refused privately, the lobby unchanged.
    for button in [&accept, &decline] {
        let press = fake.click(&dave, lobby.id, button).expect("press");
        let answer = fake
            .wait_reply(&press, STEP)
            .await
            .unwrap_or_else(|e| fail(&h, e));
        assert!(
            answer.is_ephemeral() && answer.content.contains("This invitation is not for you"),
            "{answer:?}"
        );
    }
    assert_eq!(
        fake.message(lobby.id).expect("lobby").content,
        lobby.content
    );

    // Bob accepts: seated, still waiting for Carl; the edit notifies nobody.
    let press = fake.click(&bob, lobby.id, &accept).expect("press");
    let shown = updated_in_place(fake, &press, lobby.id)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(
        shown.content.contains("Players (2/12)"),
        "{}",
        shown.content
    );
    assert!(
        shown.content.contains(&format!("Invited: <@{c}>.")),
        "{}",
        shown.content
    );
    let press = fake.click(&carl, lobby.id, &accept).expect("press");
    let shown = updated_in_place(fake, &press, lobby.id)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(
        shown.content.contains("Players (3/12)"),
        "{}",
        shown.content
    );
    assert!(!shown.content.contains("Invited"), "{}", shown.content);
    assert!(!shown
        .custom_ids()
        .iter()
        .any(|id| id.starts_with("sequence:accept")));
    assert_eq!(
        notified_after(fake, channel, skip),
        ids(&[&bob, &carl]),
        "edits notify nobody"
    );

    // Ann starts: the game begins with the three of them.
    let before = fake.messages_in(channel).len();
    let begin = fake.click(&ann, lobby.id, "sequence:begin").expect("begin");
    fake.wait_callback(&begin, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    let started = posted_after(fake, channel, before, "the game to start", |m| {
        m.content.contains("begins!")
    })
    .await
    .unwrap_or_else(|e| fail(&h, e));
    for user in [&ann, &bob, &carl] {
        assert!(
            started.content.contains(&format!("<@{}>", user.id)),
            "{}",
            started.content
        );
    }
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_from_the_context_menu_declined_is_told_to_the_host_alone() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let channel = fake.add_channel("duels");
    let ann = fake.add_user("ann");
    let bob = fake.add_user("bob");
    let carl = fake.add_user("carl");
    let app = fake.add_app("otherbot");

    let menu = fake
        .wait_command("Challenge to Sequence", Duration::from_secs(60))
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert_eq!(menu["type"], 2, "{menu}");
    assert_eq!(
        menu["name_localizations"]["de"], "Zu Sequence herausfordern",
        "{menu}"
    );
    assert_eq!(
        menu["name_localizations"]["no"], "Utfordre til Sequence",
        "{menu}"
    );

    // Oneself, or an app: refused privately, nothing opened.
    for (target, says) in [
        (&ann, "You are the host already"),
        (&app, "is an app, not a person"),
    ] {
        let used = fake
            .user_command(&ann, channel, "Challenge to Sequence", target)
            .expect("the user command");
        let answer = fake
            .wait_reply(&used, STEP)
            .await
            .unwrap_or_else(|e| fail(&h, e));
        assert!(
            answer.is_ephemeral() && answer.content.contains(says),
            "{answer:?}"
        );
    }
    assert!(fake
        .messages_in(channel)
        .iter()
        .all(StoredMessage::is_ephemeral));

    let skip = fake.messages_in(channel).len();
    let used = fake
        .user_command(&ann, channel, "Challenge to Sequence", &bob)
        .expect("the user command");
    let lobby = lobby_of(fake, &used, channel)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    // The server's default game, as a plain `/sequence start`, with Bob invited and pinged once.
    assert!(
        lobby.content.starts_with("**Sequence** — a new game"),
        "{}",
        lobby.content
    );
    assert!(
        lobby
            .content
            .contains(&format!("Challenge! Invited: <@{}>.", bob.id)),
        "{}",
        lobby.content
    );
    assert_eq!(notified(&lobby), vec![bob.id]);
    let decline = button_id(&lobby, "sequence:decline:").unwrap_or_else(|e| fail(&h, e));

    let press = fake.click(&bob, lobby.id, &decline).expect("press");
    let shown = updated_in_place(fake, &press, lobby.id)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    // The others see only that nobody is invited any more.
    assert!(
        !shown.content.contains(&format!("<@{}>", bob.id)),
        "{}",
        shown.content
    );
    assert!(!shown.content.contains("declined"), "{}", shown.content);
    assert!(!shown
        .custom_ids()
        .iter()
        .any(|id| id.starts_with("sequence:decline")));
    private_to(
        fake,
        channel,
        &bob,
        "You declined the invitation. Nobody else at the table is told; the host is, by direct message, if their DMs are open.",
    )
    .await
    .unwrap_or_else(|e| fail(&h, e));
    // The host is told by DM, and nobody else anywhere.
    let told = fake
        .shared()
        .wait_for(STEP, "the host's DM", &[], |s| {
            let dm = s.dm_channel_of(ann.id)?;
            s.messages_in(dm)
                .into_iter()
                .find(|m| m.content.contains("declined"))
                .cloned()
        })
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert_eq!(
        told.content,
        format!(
            "<@{}> declined your invitation to Sequence in <#{channel}>.",
            bob.id
        )
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    for m in fake.messages_in(channel) {
        let shown_to_bob = m
            .interaction_id
            .is_some_and(|id| fake.interaction(id).is_some_and(|i| i.user_id == bob.id));
        assert!(
            !m.content.contains("declined") || (m.is_ephemeral() && shown_to_bob),
            "{m:?}"
        );
    }
    assert!(fake.dms_to(carl.id).is_empty() && fake.dms_to(bob.id).is_empty());
    assert_eq!(
        notified_after(fake, channel, skip),
        vec![bob.id],
        "only the invitation pinged"
    );

    // The lobby is still open: Carl joins by the Join button.
    let press = fake.click(&carl, lobby.id, "sequence:join").expect("join");
    let shown = updated_in_place(fake, &press, lobby.id)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(
        shown.content.contains("Players (2/12)"),
        "{}",
        shown.content
    );
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_invitation_lapses_and_the_lobby_stays_open() {
    let options = BotOptions {
        challenge_secs: 3,
        ..BotOptions::default()
    };
    let h = Harness::start(Config::default(), &options)
        .await
        .expect("the bot connects to the stand-in");
    let fake = &h.fake;
    let channel = fake.add_channel("lapses");
    let ann = fake.add_user("ann");
    let bob = fake.add_user("bob");
    let carl = fake.add_user("carl");
    let skip = fake.messages_in(channel).len();
    let invite = format!("<@{}> <@{}>", bob.id, carl.id);
    let start = fake
        .slash(&ann, channel, "sequence start", &[("invite", &invite)])
        .expect("start");
    let lobby = lobby_of(fake, &start, channel)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert_eq!(notified(&lobby), ids(&[&bob, &carl]));
    let accept = button_id(&lobby, "sequence:accept:").unwrap_or_else(|e| fail(&h, e));
    // Carl accepts in time; Bob does not answer.
    let press = fake.click(&carl, lobby.id, &accept).expect("press");
    updated_in_place(fake, &press, lobby.id)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    let lapsed = fake
        .shared()
        .wait_for(Duration::from_secs(15), "the lapse", &[channel], |s| {
            s.messages
                .get(&lobby.id)
                .filter(|m| m.content.contains("No answer from"))
                .cloned()
        })
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(
        lapsed.content.contains(&format!(
            "No answer from <@{}>: the invitation lapsed.",
            bob.id
        )),
        "{}",
        lapsed.content
    );
    assert!(
        !lapsed.content.contains("Challenge! Invited"),
        "{}",
        lapsed.content
    );
    let buttons = lapsed.custom_ids();
    assert!(
        !buttons
            .iter()
            .any(|id| id.starts_with("sequence:accept") || id.starts_with("sequence:decline")),
        "{buttons:?}"
    );
    assert!(
        buttons.contains(&"sequence:join".to_string()),
        "an ordinary lobby: {buttons:?}"
    );
    assert_eq!(
        notified_after(fake, channel, skip),
        ids(&[&bob, &carl]),
        "the edit notified nobody"
    );
    // Bob may still join the open lobby.
    let press = fake.click(&bob, lobby.id, "sequence:join").expect("join");
    let shown = updated_in_place(fake, &press, lobby.id)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(
        shown.content.contains("Players (3/12)"),
        "{}",
        shown.content
    );
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}
