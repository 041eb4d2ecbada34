//! Issue 16: games played with buttons and menus only. The real `sequence-bot` binary against the
//! Discord stand-in: after `/sequence start`, a classic game, a dice game and a kids game are played to
//! their end by pressing Join, Start, the turn prompt's Play (dice: Roll) and the private picker's
//! buttons and menus. On the way: strangers are refused privately, old buttons say their turn is over,
//! two presses at once make one move, picker steps are updated in place, and the game record at the end
//! holds every move.

use crate::support;

use support::bot::Harness;
use support::fake_discord::{FakeDiscord, FakeUser, StoredMessage};
use support::table::{
    add_computer, button_id, lobby_of, open_by_buttons, open_more, play_button, posted_after,
    press_turn, private_answer, Dice, PressStats, PressedTurn, STEP,
};

/// Plays a whole game in a new channel by presses; returns what was seen and the final message text.
async fn play(
    fake: &FakeDiscord,
    h: &Harness,
    options: &[(&str, &str)],
    seed: u64,
) -> (PressStats, String) {
    let channel = fake.add_channel(&format!("buttons-{seed}"));
    let players: Vec<FakeUser> = (0..2)
        .map(|i| fake.add_user(&format!("p{seed}x{i}")))
        .collect();
    let stranger = fake.add_user(&format!("stranger{seed}"));
    let started = open_by_buttons(fake, channel, &players[0], &players[1..], options)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(started.content.contains("begins!"));
    let mut dice = Dice::new(seed);
    let mut stats = PressStats::default();
    for turn in 0..2000 {
        let result = press_turn(
            fake,
            channel,
            &players,
            &stranger,
            &mut dice,
            &mut stats,
            turn == 0,
        )
        .await
        .unwrap_or_else(|e| panic!("turn {turn}: {e}\nbot log:\n{}", h.bot.log_tail(40)));
        if let PressedTurn::Over(end) = result {
            let record = end
                .attachments
                .iter()
                .find(|a| a.filename.ends_with(".json"))
                .expect("the record");
            let record: serde_json::Value =
                serde_json::from_slice(&record.data).expect("the record is JSON");
            let actions = record["actions"].as_array().map_or(0, Vec::len);
            assert!(
                actions >= stats.turns,
                "{actions} actions for {} turns",
                stats.turns
            );
            return (stats, end.content);
        }
    }
    panic!("the game did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classic_dice_and_kids_games_are_played_with_buttons_only() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let mut menus = 0;
    let games: [(&[(&str, &str)], u64); 3] = [
        (&[("game", "classic"), ("sequences_to_win", "1")], 1),
        (&[("game", "dice")], 2),
        (&[("game", "kids")], 3),
    ];
    for (options, seed) in games {
        let (stats, end) = play(fake, &h, options, seed).await;
        eprintln!("{options:?}: {stats:?}");
        assert!(end.contains("wins") || end.contains("draw"), "{end}");
        assert!(stats.turns > 4, "{stats:?}");
        let dice = options.contains(&("game", "dice"));
        if dice {
            assert_eq!(stats.hand_pictures, 0, "dice has no hand");
            // Each roll came with its move, one channel message per turn.
            assert!(stats.dice_turns > 2, "{stats:?}");
        } else {
            // Every Play shows the hand; choosing a card updates the picker in place.
            assert_eq!(stats.hand_pictures, stats.turns, "{stats:?}");
            assert!(stats.updates >= stats.turns, "{stats:?}");
            assert!(stats.stale_steps > 0, "{stats:?}");
        }
        menus += stats.menu_choices;
    }
    assert!(
        menus > 0,
        "a row was chosen from a menu in one of the games"
    );
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_button_id_is_refused_politely() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let channel = fake.add_channel("forged");
    let players: Vec<FakeUser> = (0..2).map(|i| fake.add_user(&format!("f{i}"))).collect();
    open_by_buttons(
        fake,
        channel,
        &players[0],
        &players[1..],
        &[("game", "classic")],
    )
    .await
    .expect("a game");
    // A forged message carrying an id the bot never made (a client cannot press anything else).
    let forged = fake.add_bot_button(channel, "Win", "sequence:p:1:2:cell:JD:A0");
    let press = fake
        .click(&players[0], forged, "sequence:p:1:2:cell:JD:A0")
        .expect("press");
    let answer = fake
        .wait_reply(&press, support::table::STEP)
        .await
        .expect("answer");
    assert!(answer.is_ephemeral());
    assert!(
        answer.content.contains("do not know this button"),
        "{}",
        answer.content
    );
    assert!(!h.bot.log().contains("panicked"));
}

// ----- Issue 26: buttons for what was still typed -----

/// The game's key, from a ⋯ menu's Leave button (`sequence:leave:KEY`).
fn game_key(menu: &StoredMessage) -> String {
    button_id(menu, "sequence:leave:")
        .map(|id| id.trim_start_matches("sequence:leave:").to_string())
        .unwrap_or_default()
}

/// Public messages of `channel` so far.
fn public_count(fake: &FakeDiscord, channel: u64) -> usize {
    fake.messages_in(channel)
        .iter()
        .filter(|m| !m.is_ephemeral())
        .count()
}

/// The ⋯ menu as a player, a host and someone watching see it; its Status, Rules and (card games)
/// Hand answer privately, and nothing is posted in the channel.
async fn check_more_menu(
    fake: &FakeDiscord,
    channel: u64,
    host: &FakeUser,
    player: &FakeUser,
    watcher: &FakeUser,
    cards: bool,
) -> Result<(), String> {
    let posts = public_count(fake, channel);
    let menu = open_more(fake, channel, player).await?;
    let key = game_key(&menu);
    let mut expected = vec!["sequence:status".to_string(), "sequence:rules".to_string()];
    if cards {
        expected.push("sequence:hand".into());
    }
    expected.push(format!("sequence:leave:{key}"));
    if menu.custom_ids() != expected {
        return Err(format!("a player's ⋯: {:?}", menu.custom_ids()));
    }
    let host_menu = open_more(fake, channel, host).await?;
    expected.push(format!("sequence:stop:{key}"));
    if host_menu.custom_ids() != expected {
        return Err(format!("the host's ⋯: {:?}", host_menu.custom_ids()));
    }
    let watching = open_more(fake, channel, watcher).await?;
    if watching.custom_ids() != ["sequence:status", "sequence:rules"] {
        return Err(format!("a watcher's ⋯: {:?}", watching.custom_ids()));
    }
    let status = private_answer(fake, player, menu.id, "sequence:status").await?;
    if !status.content.contains("To move:") {
        return Err(format!("Status: {}", status.content));
    }
    let rules = private_answer(fake, watcher, watching.id, "sequence:rules").await?;
    if rules.content.len() < 100 {
        return Err(format!("Rules: {}", rules.content));
    }
    if cards {
        let hand = private_answer(fake, player, menu.id, "sequence:hand").await?;
        if !hand.attachments.iter().any(|a| a.filename == "hand.png") {
            return Err(format!("Hand shows the cards: {hand:?}"));
        }
    }
    if public_count(fake, channel) != posts {
        return Err("the ⋯ menu posted in the channel".into());
    }
    Ok(())
}

/// After a stored game: **My stats** posts the presser's totals; **Game record** gives the record
/// privately, as `/sequence record` does.
async fn check_after_game(
    fake: &FakeDiscord,
    channel: u64,
    end: &StoredMessage,
    user: &FakeUser,
) -> Result<(), String> {
    let record_id = button_id(end, "sequence:record:")?;
    let record = private_answer(fake, user, end.id, &record_id).await?;
    if !record
        .attachments
        .iter()
        .any(|a| a.filename.starts_with("sequence-game-") && a.filename.ends_with(".json"))
    {
        return Err(format!("Game record attaches the record: {record:?}"));
    }
    let posts = public_count(fake, channel);
    let press = fake.click(user, end.id, "sequence:stats")?;
    fake.wait_callback(&press, STEP).await?;
    let mention = format!("<@{}>", user.id);
    posted_after(fake, channel, posts, "the stats", |m| {
        m.content.contains(&mention) && m.content.contains("on this server")
    })
    .await?;
    Ok(())
}

/// Plays by presses until the game ends; at turn `menu_at` checks the ⋯ menu.
async fn play_to_end(
    h: &Harness,
    channel: u64,
    players: &[FakeUser],
    stranger: &FakeUser,
    seed: u64,
    cards: bool,
    stats: &mut PressStats,
) -> StoredMessage {
    let fake = &h.fake;
    let mut dice = Dice::new(seed);
    for turn in 0..2000 {
        if turn == 2 {
            check_more_menu(fake, channel, &players[0], &players[1], stranger, cards)
                .await
                .unwrap_or_else(|e| panic!("⋯ menu: {e}\nbot log:\n{}", h.bot.log_tail(40)));
        }
        let result = press_turn(fake, channel, players, stranger, &mut dice, stats, false)
            .await
            .unwrap_or_else(|e| panic!("turn {turn}: {e}\nbot log:\n{}", h.bot.log_tail(40)));
        if let PressedTurn::Over(end) = result {
            return *end;
        }
    }
    panic!("the game did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classic_and_a_dice_game_with_the_more_menu_and_the_buttons_after_the_game() {
    let h = Harness::started().await;
    let fake = &h.fake;
    for (options, seed, cards) in [
        (
            &[("game", "classic"), ("sequences_to_win", "1")][..],
            26,
            true,
        ),
        (&[("game", "dice")][..], 27, false),
    ] {
        let channel = fake.add_channel(&format!("more-{seed}"));
        let players: Vec<FakeUser> = (0..2)
            .map(|i| fake.add_user(&format!("m{seed}x{i}")))
            .collect();
        let stranger = fake.add_user(&format!("watcher{seed}"));
        open_by_buttons(fake, channel, &players[0], &players[1..], options)
            .await
            .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
        let mut stats = PressStats::default();
        let end = play_to_end(&h, channel, &players, &stranger, seed, cards, &mut stats).await;
        eprintln!("{options:?}: {stats:?}");
        assert!(
            end.content.contains("wins") || end.content.contains("draw"),
            "{}",
            end.content
        );
        check_after_game(fake, channel, &end, &players[1])
            .await
            .unwrap_or_else(|e| panic!("after the game: {e}\nbot log:\n{}", h.bot.log_tail(40)));
    }
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}

/// The team (`team N`) the game's first message gives `user`.
fn team_of(started: &StoredMessage, user: &FakeUser) -> Option<String> {
    let mention = format!("<@{}>", user.id);
    let line = started.content.lines().find(|l| l.contains(&mention))?;
    let at = line.find("team ")?;
    Some(line[at..].chars().take(6).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_against_two_with_computers_chosen_by_level_teams_by_button_then_leave_and_stop() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let fail = |e: String| -> ! { panic!("{e}\nbot log:\n{}", h.bot.log_tail(60)) };
    let channel = fake.add_channel("two-against-two");
    let ann = fake.add_user("ann");
    let bob = fake.add_user("bob");
    let stranger = fake.add_user("carl");
    // The one typed command: open the lobby, two teams.
    let start = fake
        .slash(
            &ann,
            channel,
            "sequence start",
            &[("game", "classic"), ("teams", "2")],
        )
        .expect("start");
    let lobby = lobby_of(fake, &start, channel)
        .await
        .unwrap_or_else(|e| fail(e));
    for id in ["sequence:join:1", "sequence:join:2"] {
        assert!(
            lobby.custom_ids().contains(&id.to_string()),
            "{:?}",
            lobby.custom_ids()
        );
    }
    assert!(!lobby
        .custom_ids()
        .contains(&"sequence:removebot".to_string()));
    // Bob takes a seat on team 1 with one press; Ann, the host (seated without a team), moves to
    // team 1 too: the humans against two computers (so that one of them may leave and the game go
    // on). A second team press by the same member at once would have its lobby edit held back a
    // few seconds, like Join and Leave.
    for (user, id) in [(&bob, "sequence:join:1"), (&ann, "sequence:join:1")] {
        let press = fake.click(user, lobby.id, id).expect("press");
        let shown = fake
            .wait_reply(&press, STEP)
            .await
            .unwrap_or_else(|e| fail(e));
        assert_eq!(
            shown.id, lobby.id,
            "a team press updates the lobby in place"
        );
    }
    // Only the host may add computers: Bob's press is refused privately.
    let refused = private_answer(fake, &bob, lobby.id, "sequence:addbot")
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(
        refused.content.contains("Only the host"),
        "{}",
        refused.content
    );
    // Ann adds a hard and an easy computer from one level menu, removes the easy one, adds a medium.
    let (menu, hard) = add_computer(fake, &ann, channel, lobby.id, None, "hard")
        .await
        .unwrap_or_else(|e| fail(e));
    let (_, easy) = add_computer(fake, &ann, channel, lobby.id, Some(menu), "easy")
        .await
        .unwrap_or_else(|e| fail(e));
    let shown = fake.message(lobby.id).expect("the lobby");
    assert!(shown
        .custom_ids()
        .contains(&"sequence:removebot".to_string()));
    let press = fake
        .click(&ann, lobby.id, "sequence:removebot")
        .expect("press");
    let shown = fake
        .wait_reply(&press, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    assert_eq!(shown.id, lobby.id);
    assert!(!shown.content.contains(&easy), "{}", shown.content);
    assert!(shown.content.contains(&hard), "{}", shown.content);
    let (_, medium) = add_computer(fake, &ann, channel, lobby.id, Some(menu), "medium")
        .await
        .unwrap_or_else(|e| fail(e));
    // Start: Ann and Bob on the teams they chose, the computers filling the rest.
    let before = fake.messages_in(channel).len();
    let begin = fake.click(&ann, lobby.id, "sequence:begin").expect("begin");
    fake.wait_callback(&begin, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    let started = posted_after(fake, channel, before, "the game to start", |m| {
        m.content.contains("begins!")
    })
    .await
    .unwrap_or_else(|e| fail(e));
    assert_eq!(
        team_of(&started, &ann).as_deref(),
        Some("team 1"),
        "{}",
        started.content
    );
    assert_eq!(
        team_of(&started, &bob).as_deref(),
        Some("team 1"),
        "{}",
        started.content
    );
    for computer in [&hard, &medium] {
        let line = started
            .content
            .lines()
            .find(|l| l.contains(computer.as_str()))
            .unwrap_or_default();
        assert!(line.contains("team 2"), "{}", started.content);
    }
    assert!(started.content.contains(&hard) && started.content.contains(&medium));
    // A stale level press (the menu of the lobby that started) changes nothing, politely.
    let stale_id = button_id(&fake.message(menu).expect("menu"), "sequence:addbot:")
        .unwrap_or_else(|e| fail(e));
    let stale = private_answer(fake, &ann, menu, &stale_id)
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(
        stale.content.contains("already started"),
        "{}",
        stale.content
    );
    // A few turns by presses.
    let humans = [ann.clone(), bob.clone()];
    let mut dice = Dice::new(26);
    let mut stats = PressStats::default();
    // Until Ann is to move, so that Bob leaves while it is not his turn (his prompt would keep its
    // Play button until his computer moves).
    let asks = |prompt: &StoredMessage, user: &FakeUser| {
        prompt.allowed_mentions["users"]
            .as_array()
            .and_then(|users| users.first())
            .and_then(|u| u.as_str())
            == Some(user.id.to_string().as_str())
    };
    // A computer may move first: wait for the first prompt with a Play button.
    fake.shared()
        .wait_for(STEP, "the first human turn", &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .find(|m| !m.is_ephemeral() && play_button(m).is_some())
                .map(|_| ())
        })
        .await
        .unwrap_or_else(|e| fail(e));
    let mut ann_to_move = false;
    while stats.turns < 4 || !ann_to_move {
        assert!(stats.turns < 60, "Ann never came to move");
        match press_turn(
            fake, channel, &humans, &stranger, &mut dice, &mut stats, false,
        )
        .await
        .unwrap_or_else(|e| fail(e))
        {
            PressedTurn::Next(prompt) => ann_to_move = asks(&prompt, &ann),
            PressedTurn::Over(end) => panic!("the game ended early: {}", end.content),
        }
    }
    // Bob leaves with ⋯ → Leave the game: asked first; Keep playing changes nothing, Yes gives up.
    let menu = open_more(fake, channel, &bob)
        .await
        .unwrap_or_else(|e| fail(e));
    let key = game_key(&menu);
    let leave = format!("sequence:leave:{key}");
    let question = private_answer(fake, &bob, menu.id, &leave)
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(question
        .custom_ids()
        .contains(&"sequence:leave-keep".to_string()));
    let keep = fake
        .click(&bob, question.id, "sequence:leave-keep")
        .expect("keep");
    let kept = fake
        .wait_reply(&keep, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(kept.content.contains("still playing"), "{}", kept.content);
    let question = private_answer(fake, &bob, menu.id, &leave)
        .await
        .unwrap_or_else(|e| fail(e));
    let posts = public_count(fake, channel);
    let yes = fake
        .click(&bob, question.id, &format!("sequence:leave-confirm:{key}"))
        .expect("yes");
    fake.wait_callback(&yes, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    posted_after(
        fake,
        channel,
        posts,
        "Bob's seat taken by a computer",
        |m| m.content.contains("gave up") && m.content.contains("takes their seat"),
    )
    .await
    .unwrap_or_else(|e| {
        let last: Vec<String> = fake
            .messages_in(channel)
            .iter()
            .rev()
            .take(6)
            .map(|m| format!("{} {}: {}", m.id, m.is_ephemeral(), m.content))
            .collect();
        fail(format!(
            "{e}\n{}\n{}",
            fake.describe(yes.id),
            last.join("\n")
        ))
    });
    // Ann plays on alone with two computers; then stops with ⋯ → Stop the game, asked first.
    let ann_only = [ann.clone()];
    match press_turn(
        fake, channel, &ann_only, &stranger, &mut dice, &mut stats, false,
    )
    .await
    .unwrap_or_else(|e| fail(e))
    {
        PressedTurn::Next(_) => {}
        PressedTurn::Over(end) => panic!("the game ended early: {}", end.content),
    }
    let bob_menu = open_more(fake, channel, &bob)
        .await
        .unwrap_or_else(|e| fail(e));
    assert_eq!(
        bob_menu.custom_ids(),
        ["sequence:status", "sequence:rules"],
        "Bob only watches now"
    );
    let menu = open_more(fake, channel, &ann)
        .await
        .unwrap_or_else(|e| fail(e));
    let question = private_answer(fake, &ann, menu.id, &format!("sequence:stop:{key}"))
        .await
        .unwrap_or_else(|e| fail(e));
    assert!(
        question.content.contains("counts as giving up"),
        "{}",
        question.content
    );
    let posts = public_count(fake, channel);
    let yes = fake
        .click(&ann, question.id, &format!("sequence:stop-confirm:{key}"))
        .expect("yes");
    fake.wait_callback(&yes, STEP)
        .await
        .unwrap_or_else(|e| fail(e));
    let end = posted_after(fake, channel, posts, "the final message", |m| {
        m.attachments.iter().any(|a| a.filename.ends_with(".json"))
    })
    .await
    .unwrap_or_else(|e| fail(e));
    assert!(end.content.contains("stopped by"), "{}", end.content);
    // The answer replaces the question, so its buttons go.
    let question_id = question.id;
    fake.shared()
        .wait_for(STEP, "the question replaced", &[question_id], |s| {
            s.messages
                .get(&question_id)
                .is_some_and(|m| m.custom_ids().is_empty())
                .then_some(())
        })
        .await
        .unwrap_or_else(|e| fail(e));
    // Its Yes pressed again (as a client that has not seen the edit yet still shows it): the game
    // is over, nothing happens, politely.
    let confirm = format!("sequence:stop-confirm:{key}");
    let stale = fake.add_bot_button(channel, "Yes", &confirm);
    let again = private_answer(fake, &ann, stale, &confirm).await;
    fake.remove_message(stale);
    let again = again.unwrap_or_else(|e| fail(e));
    assert!(again.content.contains("no game"), "{}", again.content);
    check_after_game(fake, channel, &end, &ann)
        .await
        .unwrap_or_else(|e| fail(e));
    let problems = fake.take_openapi_problems();
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!h.bot.log().contains("panicked"));
}
