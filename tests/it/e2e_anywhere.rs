//! Issue 36 through the real binary against the Discord stand-in, buttons only after the one
//! `/sequence start`: where the bot is no member (a group DM, a server that did not add it) every
//! board, prompt and note rides on the players' interactions: a whole game in a group DM of two
//! people and a computer; a game in a server where only a player installed the app (and `/sequence
//! start` refused plainly where the server keeps external apps private); a turn that runs out with
//! nobody pressing, posted through a still-valid token and, once the tokens expired on Discord's
//! clock, held back and delivered with the next press; and the bot killed in the middle of a
//! group-DM game, which goes on at the next press; and a challenge in a group DM (the invited pinged once
//! by the lobby that rides on the host's command, the lobby filled by their Accept presses).

use crate::support;

use std::time::Duration;

use support::bot::{BotOptions, Harness};
use support::fake_discord::{FakeDiscord, FakeUser, StoredMessage};
use support::table::{
    add_computer, button_id, choices, give_up, latest_prompt, mover_of, play_button, posted_after,
    updated_in_place, Dice, STEP,
};

/// The bot with its commands registered globally (guild commands are for servers only, as on
/// Discord: the user install needs global ones).
fn options() -> BotOptions {
    BotOptions {
        guild_commands: false,
        ..BotOptions::default()
    }
}

/// The bot started against a fresh stand-in, its global commands registered.
async fn started() -> Harness {
    Harness::start(support::fake_discord::Config::default(), &options())
        .await
        .expect("the bot connects to the stand-in")
}

/// Fails with the bot's log.
fn fail(h: &Harness, e: impl std::fmt::Display) -> ! {
    panic!("{e}\nbot log:\n{}", h.bot.log_tail(60))
}

fn is_final(message: &StoredMessage) -> bool {
    message
        .attachments
        .iter()
        .any(|a| a.filename.ends_with(".json"))
}

/// No message was posted to `channel` through the channel route: the bot may not post there, and it
/// knows it, so it never tries.
fn never_posted(fake: &FakeDiscord, channel: u64) {
    let posts = fake.requests_to("POST", &format!("/channels/{channel}/messages"));
    assert!(posts.is_empty(), "posts tried: {posts:?}");
}

/// `/sequence start` by `host` in `channel` (the only command), the lobby (a public follow-up that
/// says the bot only answers there), `others` joining by its button, `computers` easy ones added, and
/// Start pressed: the message that starts the game.
async fn open(
    h: &Harness,
    channel: u64,
    host: &FakeUser,
    others: &[&FakeUser],
    computers: usize,
    options: &[(&str, &str)],
) -> StoredMessage {
    let fake = &h.fake;
    let start = fake
        .slash(host, channel, "sequence start", options)
        .unwrap_or_else(|e| fail(h, e));
    let ack = fake
        .wait_reply(&start, STEP)
        .await
        .unwrap_or_else(|e| fail(h, e));
    assert!(ack.is_ephemeral(), "{ack:?}");
    let lobby = posted_after(fake, channel, 0, "the lobby", |m| {
        m.custom_ids().contains(&"sequence:join".to_string())
    })
    .await
    .unwrap_or_else(|e| fail(h, e));
    assert!(
        lobby
            .content
            .contains("Here I may only answer your presses"),
        "the lobby says what differs here: {}",
        lobby.content
    );
    for user in others {
        let press = fake
            .click(user, lobby.id, "sequence:join")
            .unwrap_or_else(|e| fail(h, e));
        fake.wait_reply(&press, STEP)
            .await
            .unwrap_or_else(|e| fail(h, e));
    }
    let mut menu = None;
    for _ in 0..computers {
        let (id, _) = add_computer(fake, host, channel, lobby.id, menu, "easy")
            .await
            .unwrap_or_else(|e| fail(h, e));
        menu = Some(id);
    }
    let before = fake.messages_in(channel).len();
    let begin = fake
        .click(host, lobby.id, "sequence:begin")
        .unwrap_or_else(|e| fail(h, e));
    fake.wait_callback(&begin, STEP)
        .await
        .unwrap_or_else(|e| fail(h, e));
    posted_after(fake, channel, before, "the game to start", |m| {
        m.content.contains("begins!")
    })
    .await
    .unwrap_or_else(|e| fail(h, e))
}

/// The first public message after interaction `after` that asks the next player or ends the game.
async fn next_prompt_or_end(
    fake: &FakeDiscord,
    channel: u64,
    after: u64,
) -> Result<StoredMessage, String> {
    fake.shared()
        .wait_for(STEP, "the next prompt or the end", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .find(|m| {
                    m.id > after && !m.is_ephemeral() && (play_button(m).is_some() || is_final(m))
                })
                .cloned()
        })
        .await
}

/// Plays the turn the latest prompt asks for by presses (Play, then random picker steps until the
/// move): the next prompt, or the final message.
async fn press_turn(
    fake: &FakeDiscord,
    channel: u64,
    players: &[&FakeUser],
    dice: &mut Dice,
) -> Result<StoredMessage, String> {
    // The latest prompt (when a computer moves first, its move brings the first one).
    let prompt = fake
        .shared()
        .wait_for(STEP, "a prompt with a Play button", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .rev()
                .filter(|m| !m.is_ephemeral())
                .find(|m| play_button(m).is_some())
                .cloned()
        })
        .await?;
    let open = play_button(&prompt).ok_or("no Play button")?;
    let mover = mover_of(&prompt)?;
    let user = players
        .iter()
        .find(|u| u.id == mover)
        .ok_or_else(|| format!("the prompt asks {mover}, who is not playing"))?;
    let press = fake.click(user, prompt.id, &open)?;
    let picker_id = fake.wait_reply(&press, STEP).await?.id;
    let picker = fake.message(picker_id).ok_or("the picker")?;
    if !picker.is_ephemeral() {
        return Err(format!("the picker is private: {picker:?}"));
    }
    let mut last = press.id;
    for _step in 0..12 {
        let picker = fake.message(picker_id).ok_or("the picker")?;
        let options = choices(&picker);
        if options.is_empty() && picker.content.starts_with("Done") {
            // The turn ended with the last step (an exchange that left no move: the turn passes).
            return next_prompt_or_end(fake, channel, last).await;
        }
        if options.is_empty() {
            return Err(format!(
                "a picker step with nothing to press: {}\n(the prompt asked {mover}: {})",
                picker.content, prompt.content
            ));
        }
        let (id, value) = options[dice.below(options.len())].clone();
        let is_move = id.contains(":cell:") || id.contains(":swap:");
        let pressed = match &value {
            Some(v) => fake.select(user, picker_id, &id, &[v.as_str()])?,
            None => fake.click(user, picker_id, &id)?,
        };
        last = pressed.id;
        if !is_move {
            updated_in_place(fake, &pressed, picker_id).await?;
            continue;
        }
        fake.wait_callback(&pressed, STEP).await?;
        if id.contains(":swap:") {
            // The exchange's post rides on this press too (a follow-up before the picker's edit):
            // wait for the picker itself to show the new hand.
            let shown = picker.components.clone();
            fake.shared()
                .wait_for(STEP, "the picker after the exchange", &[picker_id], |s| {
                    s.messages
                        .get(&picker_id)
                        .filter(|m| m.components != shown)
                        .map(|_| ())
                })
                .await?;
            continue;
        }
        return next_prompt_or_end(fake, channel, pressed.id).await;
    }
    Err("the picker did not lead to a move in 12 steps".into())
}

/// Every interaction's follow-ups Discord refused: (interaction, HTTP status, error body).
fn refused_follow_ups(fake: &FakeDiscord, interactions: &[u64]) -> Vec<(u64, u16, String)> {
    interactions
        .iter()
        .filter_map(|&id| fake.interaction(id).map(|i| (id, i)))
        .flat_map(|(id, i)| {
            i.refused_followups
                .into_iter()
                .map(move |(status, body)| (id, status, body))
        })
        .collect()
}

/// The ids of every interaction the stand-in sent so far.
fn interaction_ids(fake: &FakeDiscord) -> Vec<u64> {
    fake.requests()
        .iter()
        .filter_map(|r| {
            let parts: Vec<&str> = r.path.split('/').collect();
            match parts.as_slice() {
                ["", "interactions", id, _, "callback"] => id.parse().ok(),
                _ => None,
            }
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_a_group_dm_of_two_people_and_a_computer() {
    let h = started().await;
    let fake = &h.fake;
    // Ann installed the app to her account; Bob did not and shares no server with the bot.
    let ann = fake.add_stranger("ann");
    fake.install_for_user(&ann);
    let bob = fake.add_stranger("bob");
    let group = fake.add_group_dm(&[&ann, &bob]);
    let started = open(&h, group, &ann, &[&bob], 1, &[("game", "classic")]).await;
    assert!(!started.is_ephemeral());
    let mut dice = Dice::new(36);
    let players = [&ann, &bob];
    let mut end = None;
    for turn in 0..400 {
        let next = press_turn(fake, group, &players, &mut dice)
            .await
            .unwrap_or_else(|e| fail(&h, format!("turn {turn}: {e}")));
        if is_final(&next) {
            end = Some(next);
            break;
        }
    }
    let end = end.unwrap_or_else(|| fail(&h, "the game did not end in 400 turns"));
    assert!(!end.is_ephemeral());
    // Everything went through the players' interactions, within Discord's limits: no post tried,
    // no follow-up refused (the board and the next player's ping go in one message, the computer's
    // move on the press that led to it).
    never_posted(fake, group);
    let refused = refused_follow_ups(fake, &interaction_ids(fake));
    assert!(refused.is_empty(), "{refused:?}");
    // Bob takes no DMs from the bot (no shared server, no install): told once, in the group.
    let told: Vec<String> = fake
        .messages_in(group)
        .iter()
        .filter(|m| !m.is_ephemeral())
        .flat_map(|m| m.content.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|l| l.contains(&format!("<@{}>", bob.id)) && l.contains("direct message"))
        .collect();
    assert_eq!(told.len(), 1, "told once: {told:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_a_server_where_only_a_player_installed_the_app() {
    let h = started().await;
    let fake = &h.fake;
    let guild = fake.add_guild_without_bot("friends");
    let channel = fake.add_channel_in(guild, "games");
    let ann = fake.add_stranger("ann");
    fake.install_for_user(&ann);
    let bob = fake.add_stranger("bob");
    // The server keeps the answers of its members' apps private: no game opens, said plainly.
    fake.allow_external_apps(guild, false);
    let start = fake
        .slash(&ann, channel, "sequence start", &[])
        .unwrap_or_else(|e| fail(&h, e));
    let refused = fake
        .wait_reply(&start, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(refused.is_ephemeral());
    assert!(
        refused.content.contains("Use External Apps"),
        "{}",
        refused.content
    );
    assert!(
        fake.messages_in(channel).iter().all(|m| m.is_ephemeral()),
        "no lobby"
    );
    // Allowed: a game of two, played by presses; Ann gives up after a few turns.
    fake.allow_external_apps(guild, true);
    open(&h, channel, &ann, &[&bob], 0, &[("game", "classic")]).await;
    let mut dice = Dice::new(7);
    for turn in 0..4 {
        let next = press_turn(fake, channel, &[&ann, &bob], &mut dice)
            .await
            .unwrap_or_else(|e| fail(&h, format!("turn {turn}: {e}")));
        assert!(!is_final(&next));
    }
    let end = give_up(fake, channel, &ann)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(!end.is_ephemeral());
    never_posted(fake, channel);
    let refused = refused_follow_ups(fake, &interaction_ids(fake));
    assert!(refused.is_empty(), "{refused:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_that_runs_out_with_nobody_pressing_goes_out_on_a_valid_token_or_with_the_next_press(
) {
    let h = started().await;
    let fake = &h.fake;
    let ann = fake.add_stranger("ann");
    fake.install_for_user(&ann);
    let bob = fake.add_stranger("bob");
    let group = fake.add_group_dm(&[&ann, &bob]);
    open(
        &h,
        group,
        &ann,
        &[&bob],
        0,
        &[("game", "classic"), ("turn_time", "15 seconds")],
    )
    .await;
    // Nobody presses: about 15 s later the turn is played for its player, posted at once through
    // the token of the last press (Start), still valid.
    let before = fake.messages_in(group).len();
    let ran_out = |m: &StoredMessage| m.content.contains("ran out of time");
    fake.shared()
        .wait_for(
            Duration::from_secs(40),
            "the turn to run out",
            &[group],
            |s| {
                s.messages_in(group)
                    .into_iter()
                    .skip(before)
                    .find(|m| !m.is_ephemeral() && ran_out(m))
                    .cloned()
            },
        )
        .await
        .unwrap_or_else(|e| fail(&h, e));
    // Discord's clock moves on past the tokens' 15 minutes (the bot's does not): the next turn that
    // runs out is refused on the old token (401, 50027), held back, and nothing shows.
    fake.advance_clock(Duration::from_secs(16 * 60));
    let before = fake.messages_in(group).len();
    let refused_post = || {
        fake.requests_to("POST", "/webhooks/")
            .into_iter()
            .any(|r| r.status == 401 && r.error.as_ref().is_some_and(|(code, _)| *code == 50027))
    };
    for _ in 0..80 {
        if refused_post() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert!(
        refused_post(),
        "the next run-out turn's follow-up is refused\nbot log:\n{}",
        h.bot.log_tail(40)
    );
    let refused = refused_follow_ups(fake, &interaction_ids(fake));
    assert!(
        refused
            .iter()
            .all(|(_, status, body)| *status == 401 && body.contains("50027")),
        "only expired tokens are refused: {refused:?}"
    );
    assert!(
        fake.messages_in(group)
            .iter()
            .skip(before)
            .all(|m| m.is_ephemeral()),
        "nothing shows without a press"
    );
    // Any press brings it back: Bob looks at his cards, and what was held comes with the answer,
    // said so.
    let prompt = latest_prompt(fake, group).unwrap_or_else(|| fail(&h, "no prompt"));
    let hand = fake
        .click(&bob, prompt.id, "sequence:hand")
        .unwrap_or_else(|e| fail(&h, e));
    let private = fake
        .wait_reply(&hand, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(private.is_ephemeral());
    let held = posted_after(fake, group, before, "what was held back", |m| {
        m.content.contains("Held back")
    })
    .await
    .unwrap_or_else(|e| fail(&h, e));
    assert!(ran_out(&held), "{}", held.content);
    // The game goes on by presses.
    let mut dice = Dice::new(3);
    press_turn(fake, group, &[&ann, &bob], &mut dice)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    never_posted(fake, group);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_dm_game_goes_on_at_the_next_press_after_a_restart() {
    let mut h = started().await;
    let ann = h.fake.add_stranger("ann");
    h.fake.install_for_user(&ann);
    let bob = h.fake.add_stranger("bob");
    let group = h.fake.add_group_dm(&[&ann, &bob]);
    open(&h, group, &ann, &[&bob], 1, &[("game", "classic")]).await;
    let mut dice = Dice::new(11);
    for turn in 0..3 {
        press_turn(&h.fake, group, &[&ann, &bob], &mut dice)
            .await
            .unwrap_or_else(|e| fail(&h, format!("turn {turn}: {e}")));
    }
    // Killed (SIGKILL) and started again: no post is possible at start-up, so nothing shows, and
    // nothing is tried in the group.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = h.fake.messages_in(group).len();
    h.respawn(&options());
    h.wait_identified(2).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let fake = &h.fake;
    assert_eq!(fake.messages_in(group).len(), before, "nothing shows yet");
    never_posted(fake, group);
    // The next press: the picker opens as before, and the restart note comes with it.
    let next = press_turn(fake, group, &[&ann, &bob], &mut dice)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    let note = posted_after(fake, group, before, "the restart note", |m| {
        m.content.contains("Held back")
    })
    .await
    .unwrap_or_else(|e| fail(&h, e));
    assert!(note.content.contains("I was restarted"), "{}", note.content);
    // And the game goes on to a few more turns.
    if !is_final(&next) {
        for turn in 0..2 {
            let next = press_turn(fake, group, &[&ann, &bob], &mut dice)
                .await
                .unwrap_or_else(|e| fail(&h, format!("turn {turn} after: {e}")));
            if is_final(&next) {
                break;
            }
        }
    }
    never_posted(fake, group);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_in_a_group_dm_pings_the_invited_once_and_fills_as_they_accept() {
    let h = started().await;
    let fake = &h.fake;
    let ann = fake.add_stranger("ann");
    fake.install_for_user(&ann);
    let bob = fake.add_stranger("bob");
    let carl = fake.add_stranger("carl");
    let group = fake.add_group_dm(&[&ann, &bob, &carl]);
    let invite = format!("<@{}> <@{}>", bob.id, carl.id);
    let start = fake
        .slash(
            &ann,
            group,
            "sequence start",
            &[("game", "classic"), ("invite", &invite)],
        )
        .unwrap_or_else(|e| fail(&h, e));
    fake.wait_reply(&start, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    // The lobby rides on Ann's command (the bot may not post here) and is a new message: it pings
    // Bob and Carl, and nobody else.
    let lobby = posted_after(fake, group, 0, "the challenge's lobby", |m| {
        m.custom_ids()
            .iter()
            .any(|id| id.starts_with("sequence:accept:"))
    })
    .await
    .unwrap_or_else(|e| fail(&h, e));
    let mut notified = lobby.notified.clone();
    notified.sort_unstable();
    let mut invited = vec![bob.id, carl.id];
    invited.sort_unstable();
    assert_eq!(notified, invited, "{lobby:?}");
    assert!(
        lobby.content.contains("Challenge! Invited:"),
        "{}",
        lobby.content
    );
    let accept = button_id(&lobby, "sequence:accept:").unwrap_or_else(|e| fail(&h, e));
    // Each Accept seats its presser in the lobby shown in place; the edits notify nobody.
    for user in [&bob, &carl] {
        let press = fake
            .click(user, lobby.id, &accept)
            .unwrap_or_else(|e| fail(&h, e));
        let shown = fake
            .wait_reply(&press, STEP)
            .await
            .unwrap_or_else(|e| fail(&h, e));
        assert!(
            shown.content.contains(&format!("<@{}>", user.id)),
            "the lobby lists {}: {}",
            user.name,
            shown.content
        );
    }
    let now = fake.message(lobby.id).expect("the lobby");
    assert!(
        !now.custom_ids()
            .iter()
            .any(|id| id.starts_with("sequence:accept:")),
        "everyone answered: no Accept left: {:?}",
        now.custom_ids()
    );
    // Ann starts: the game of three begins, still without a single channel post.
    let before = fake.messages_in(group).len();
    let begin = fake
        .click(&ann, lobby.id, "sequence:begin")
        .unwrap_or_else(|e| fail(&h, e));
    fake.wait_callback(&begin, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    posted_after(fake, group, before, "the game to start", |m| {
        m.content.contains("begins!")
    })
    .await
    .unwrap_or_else(|e| fail(&h, e));
    never_posted(fake, group);
    let refused = refused_follow_ups(fake, &interaction_ids(fake));
    assert!(refused.is_empty(), "{refused:?}");
}
