//! End-to-end test of `/sequence-settings` through the real binary and the Discord stand-in: an admin
//! (Manage Server) changes this server's defaults, a plain member is refused, a reminder that does not
//! come before the timeout is refused, and the games that follow use the settings (default game,
//! computer level, casual games, the language of channel posts).

use crate::support;

use support::bot::Harness;
use support::fake_discord::{FakeDiscord, FakeUser, Interaction};
use support::table::{lobby_of, TableDriver, TurnEnd};

use std::time::Duration;

const STEP: Duration = Duration::from_secs(20);

/// `/sequence-settings` with `options` by `user`; the private answer (`None` if Discord's client
/// would not even offer the command to this user).
async fn settings(
    fake: &FakeDiscord,
    user: &FakeUser,
    channel: u64,
    options: &[(&str, &str)],
) -> Option<String> {
    let asked: Interaction = fake
        .slash(user, channel, "sequence-settings", options)
        .ok()?;
    let answer = fake
        .wait_reply(&asked, STEP)
        .await
        .unwrap_or_else(|e| panic!("the settings answer: {e}"));
    assert!(
        answer.is_ephemeral(),
        "settings are answered privately: {answer:?}"
    );
    Some(answer.content)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_changes_the_settings_a_member_is_refused_and_games_use_them() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let admin = fake.add_moderator("admin");
    let bob = fake.add_user("bob");
    let carol = fake.add_user("carol");
    let channel = fake.add_channel("sequence-table");

    // Registered as a command of its own, hidden from members without Manage Server (1 << 5).
    let registered = fake
        .wait_command("sequence-settings", STEP)
        .await
        .expect("the settings command is registered");
    assert_eq!(
        registered["default_member_permissions"], "32",
        "{registered}"
    );

    // The admin makes dice the default game, hard the default computer, and games casual.
    let saved = settings(
        fake,
        &admin,
        channel,
        &[("game", "dice"), ("level", "hard"), ("rated", "false")],
    )
    .await
    .expect("an admin may use the command");
    assert!(saved.contains("Saved"), "{saved}");
    assert!(saved.contains("Sequence Dice"), "{saved}");
    assert!(saved.contains("none (casual)"), "{saved}");
    let log = h.bot.log();
    assert!(
        log.contains("server settings changed by")
            && log.contains("game: dice, computer_level: hard, rated: false")
            && log.contains(&admin.id.to_string()),
        "the change is logged with who made it:\n{}",
        h.bot.log_tail(20)
    );

    // A plain member is refused (should their client offer the command at all), and nothing changes.
    if let Some(refused) = settings(fake, &bob, channel, &[("game", "kids")]).await {
        assert!(refused.contains("Manage Server"), "{refused}");
    }
    let shown = settings(fake, &admin, channel, &[])
        .await
        .expect("the admin looks");
    assert!(
        shown.contains("Sequence Dice"),
        "the member changed nothing: {shown}"
    );

    // A reminder that does not come before the timeout: a clear private error, nothing changed.
    let refused = settings(
        fake,
        &admin,
        channel,
        &[("turn_reminder", "600"), ("turn_timeout", "300")],
    )
    .await
    .expect("the admin asks");
    assert!(
        refused.contains("must come before the turn timeout"),
        "{refused}"
    );
    let after = settings(fake, &admin, channel, &[])
        .await
        .expect("the admin looks");
    assert_eq!(after, shown, "nothing changed");

    // A game opened without naming one is dice; a computer added without a level is hard.
    let start = fake
        .slash(&bob, channel, "sequence start", &[])
        .expect("start");
    let lobby = lobby_of(fake, &start, channel).await.expect("the lobby");
    assert!(lobby.content.contains("Sequence Dice"), "{}", lobby.content);
    let add = fake
        .slash(&bob, channel, "sequence bot add", &[])
        .expect("add a computer");
    fake.wait_reply(&add, STEP).await.expect("added");
    let lobby_now = fake
        .shared()
        .wait_for(STEP, "the lobby with the computer", &[channel], |s| {
            s.message_json(lobby.id)
                .and_then(|m| m["content"].as_str().map(str::to_string))
                .filter(|c| c.contains("(hard)"))
        })
        .await
        .expect("a hard computer in the lobby");
    assert!(lobby_now.contains("(hard)"), "{lobby_now}");
    let cancel = fake
        .slash(&bob, channel, "sequence cancel", &[])
        .expect("cancel");
    fake.wait_reply(&cancel, STEP).await.expect("cancelled");

    // A whole classic game between two members: casual by the server's setting, so nobody is rated.
    let mut table = TableDriver::open(fake, channel, &bob, std::slice::from_ref(&carol), 2)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    let mut over = false;
    for _ in 0..400 {
        match table.play_turn().await {
            Ok(TurnEnd::Next) => {}
            Ok(TurnEnd::Over(_)) => {
                over = true;
                break;
            }
            Err(e) => panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)),
        }
    }
    assert!(over, "the game ends within 400 turns");
    let stats = fake
        .slash(&carol, channel, "sequence stats", &[])
        .expect("stats");
    let stats = fake.wait_reply(&stats, STEP).await.expect("the stats");
    assert!(stats.content.contains("1 game"), "{}", stats.content);
    assert!(
        stats.content.contains("No rated game yet"),
        "{}",
        stats.content
    );
    let board = fake
        .slash(&carol, channel, "sequence leaderboard", &[])
        .expect("leaderboard");
    let board = fake
        .wait_reply(&board, STEP)
        .await
        .expect("the leaderboard");
    assert!(
        board.content.contains("No rated games"),
        "{}",
        board.content
    );

    // The language of channel posts: German from now on, though the server's locale is English.
    let saved = settings(fake, &admin, channel, &[("language", "german")])
        .await
        .expect("the admin sets the language");
    assert!(saved.contains("Deutsch"), "{saved}");
    let start = fake
        .slash(&bob, channel, "sequence start", &[("game", "classic")])
        .expect("start");
    let lobby = lobby_of(fake, &start, channel).await.expect("the lobby");
    assert!(
        lobby.content.contains("ein neues Spiel, Gastgeber"),
        "the lobby is posted in German: {}",
        lobby.content
    );
}
