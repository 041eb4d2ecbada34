//! Issue 16: games played with buttons and menus only. The real `sequence-bot` binary against the
//! Discord stand-in: after `/sequence start`, a classic game, a dice game and a kids game are played to
//! their end by pressing Join, Start, the turn prompt's Play (dice: Roll) and the private picker's
//! buttons and menus. On the way: strangers are refused privately, old buttons say their turn is over,
//! two presses at once make one move, picker steps are updated in place, and the game record at the end
//! holds every move.

mod support;

use support::bot::Harness;
use support::fake_discord::{FakeDiscord, FakeUser};
use support::table::{open_by_buttons, press_turn, Dice, PressStats, PressedTurn};

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
