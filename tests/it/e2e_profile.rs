//! Issue 35 through the real binary against the Discord stand-in: after a rated game between two
//! people (played by presses, then given up), its final message names what the winner unlocked (their
//! first game, once, on one line) and offers **My profile**; the profile card comes as a PNG with its text
//! version by that button, by `/sequence profile`, and by the user command on a member's context
//! menu ("Apps → Sequence profile", registered beside `/sequence` and named in every language),
//! which on another member's profile adds the asker's games with them; `/sequence versus` lists the
//! shared games by number; a member without games gets a polite private line.

use crate::support;

use std::time::Duration;

use support::bot::Harness;
use support::fake_discord::StoredMessage;
use support::table::{
    give_up, open_by_buttons, posted_after, press_turn, Dice, PressStats, PressedTurn, STEP,
};

/// The PNG signature.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

fn fail(h: &Harness, e: String) -> ! {
    panic!("{e}\nbot log:\n{}", h.bot.log_tail(60))
}

/// Whether a message carries the profile card as a PNG image.
fn has_card(message: &StoredMessage) -> bool {
    message
        .attachments
        .iter()
        .any(|a| a.filename == "profile.png" && a.data.starts_with(PNG))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_card_comes_by_command_button_and_context_menu() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let channel = fake.add_channel("profiles");
    let ann = fake.add_user("ann");
    let bob = fake.add_user("bob");
    let carl = fake.add_user("carl");

    // The user command is registered beside `/sequence`: type 2, named in German and Norwegian.
    let menu = fake
        .wait_command("Sequence profile", Duration::from_secs(60))
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert_eq!(menu["type"], 2, "{menu}");
    assert_eq!(
        menu["name_localizations"]["de"], "Sequence-Profil",
        "{menu}"
    );
    assert_eq!(
        menu["name_localizations"]["no"], "Sequence-profil",
        "{menu}"
    );

    // A rated game between Ann and Bob: ten turns each (a real game, issue 44), then Bob gives up.
    open_by_buttons(
        fake,
        channel,
        &ann,
        std::slice::from_ref(&bob),
        &[("game", "classic")],
    )
    .await
    .unwrap_or_else(|e| fail(&h, e));
    let players = [ann.clone(), bob.clone()];
    let mut dice = Dice::new(35);
    let mut stats = PressStats::default();
    for turn in 0..20 {
        match press_turn(fake, channel, &players, &carl, &mut dice, &mut stats, false).await {
            Ok(PressedTurn::Next(_)) => {}
            Ok(PressedTurn::Over(end)) => panic!("the game ended early: {}", end.content),
            Err(e) => fail(&h, format!("turn {turn}: {e}")),
        }
    }
    let end = give_up(fake, channel, &bob)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    // Ann unlocked her first game (a rated game counts), on one line with whatever else she
    // unlocked; Bob gave up, so no count of his grows: no line for him.
    let ann_line = format!("🏅 <@{}> unlocked ", ann.id);
    let lines: Vec<&str> = end
        .content
        .lines()
        .filter(|l| l.starts_with(&ann_line))
        .collect();
    assert_eq!(lines.len(), 1, "{}", end.content);
    assert!(lines[0].contains("*First game*"), "{}", end.content);
    assert!(
        !end.content.contains(&format!("🏅 <@{}>", bob.id)),
        "{}",
        end.content
    );
    assert!(
        end.custom_ids().contains(&"sequence:profile".to_string()),
        "{:?}",
        end.custom_ids()
    );
    let game = end
        .content
        .split("Saved as game #")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .map(str::to_string)
        .expect("the game's number");

    // My profile, pressed by Ann: her card and its text, in the channel.
    let posts = fake.messages_in(channel).len();
    let press = fake
        .click(&ann, end.id, "sequence:profile")
        .expect("My profile");
    fake.wait_callback(&press, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    let mention = format!("<@{}>", ann.id);
    let card = posted_after(fake, channel, posts, "Ann's profile", |m| {
        m.content.contains("**Profile** of") && m.content.contains(&mention)
    })
    .await
    .unwrap_or_else(|e| fail(&h, e));
    assert!(has_card(&card), "{card:?}");
    assert!(card.content.contains("1 game, "), "{}", card.content);
    assert!(card.content.contains("First game"), "{}", card.content);
    assert!(
        card.notified.is_empty(),
        "a profile pings nobody: {:?}",
        card.notified
    );

    // `/sequence profile` by Bob: the answer is his card.
    let asked = fake
        .slash(&bob, channel, "sequence profile", &[])
        .expect("profile");
    let answer = fake
        .wait_reply(&asked, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(has_card(&answer), "{answer:?}");
    assert!(
        answer
            .content
            .contains(&format!("**Profile** of <@{}>", bob.id)),
        "{}",
        answer.content
    );

    // The context menu on Bob, used by Ann: Bob's card, with their game together from Ann's side.
    let used = fake
        .user_command(&ann, channel, "Sequence profile", &bob)
        .expect("the user command");
    let answer = fake
        .wait_reply(&used, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(has_card(&answer), "{answer:?}");
    assert!(
        answer
            .content
            .contains(&format!("**Profile** of <@{}>", bob.id)),
        "{}",
        answer.content
    );
    assert!(
        answer.content.contains(&format!(
            "<@{}> and <@{}> on this server: 1 game together",
            ann.id, bob.id
        )),
        "{}",
        answer.content
    );

    // `/sequence versus`: the shared game by its number.
    let asked = fake
        .slash(
            &ann,
            channel,
            "sequence versus",
            &[("user", &bob.id.to_string())],
        )
        .expect("versus");
    let answer = fake
        .wait_reply(&asked, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(!answer.is_ephemeral(), "{answer:?}");
    assert!(
        answer.content.contains("1 game together"),
        "{}",
        answer.content
    );
    assert!(
        answer.content.contains(&format!("#{game} Sequence: ")),
        "{}",
        answer.content
    );

    // Carl has played nothing: a polite private line, no card, from the command and the menu.
    let asked = fake
        .slash(&carl, channel, "sequence profile", &[])
        .expect("profile");
    let answer = fake
        .wait_reply(&asked, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(answer.is_ephemeral() && !has_card(&answer), "{answer:?}");
    assert!(
        answer
            .content
            .contains("has not finished a game on this server yet"),
        "{}",
        answer.content
    );
    let used = fake
        .user_command(&ann, channel, "Sequence profile", &carl)
        .expect("the user command");
    let answer = fake
        .wait_reply(&used, STEP)
        .await
        .unwrap_or_else(|e| fail(&h, e));
    assert!(answer.is_ephemeral() && !has_card(&answer), "{answer:?}");

    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}
