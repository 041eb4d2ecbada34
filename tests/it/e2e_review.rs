//! Issue 27 end to end, through the real binary against the Discord stand-in: a finished game's final
//! message sums it up, `/sequence replay` posts its animation, and `/sequence hint` is refused in a rated
//! game (two humans on two teams) privately.

use crate::support;

use support::bot::Harness;
use support::table::{TableDriver, TurnEnd, STEP};

#[tokio::test]
async fn a_finished_game_is_summed_up_and_replayed_and_hints_keep_out_of_rated_games() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players = [fake.add_user("alice"), fake.add_user("bob")];
    let channel = fake.add_channel("sequence-table");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));

    // A rated game: the player to move asks for a hint and is told privately why not.
    let seat = table.to_move().expect("someone is to move");
    let asker = table.seats[seat].clone();
    let before = fake.messages_in(channel).len();
    let hint = fake
        .slash(&asker, channel, "sequence hint", &[])
        .expect("/sequence hint is registered");
    let answer = fake.wait_reply(&hint, STEP).await.expect("an answer");
    assert!(answer.is_ephemeral(), "{answer:?}");
    assert!(
        answer.content.contains("only for casual games"),
        "{}",
        answer.content
    );
    let public_after = fake
        .messages_in(channel)
        .iter()
        .skip(before)
        .filter(|m| !m.is_ephemeral())
        .count();
    assert_eq!(public_after, 0, "a refused hint posts nothing");

    let mut final_message = None;
    for _ in 0..400 {
        match table.play_turn().await {
            Ok(TurnEnd::Next) => {}
            Ok(TurnEnd::Over(message)) => {
                final_message = Some(*message);
                break;
            }
            Err(e) => panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)),
        }
    }
    let final_message = final_message.expect("the game ends");
    let moves = table.played.len();
    assert!(
        final_message
            .content
            .contains(&format!("{moves} moves in ")),
        "{moves} moves: {}",
        final_message.content
    );
    assert!(
        final_message.content.contains("Sequence for team"),
        "{}",
        final_message.content
    );

    // The server's `replay_gif` is on by default: the animated replay follows the final message.
    let gif_deadline = std::time::Instant::now() + STEP * 30;
    loop {
        let messages = fake.messages_in(channel);
        let final_at = messages
            .iter()
            .rposition(|m| m.content == final_message.content);
        let gif_at = messages.iter().rposition(|m| {
            !m.is_ephemeral()
                && m.content.contains(", move by move")
                && m.attachments
                    .iter()
                    .any(|a| a.filename == "replay.gif" && a.data.starts_with(b"GIF89a"))
        });
        if let (Some(final_at), Some(gif_at)) = (final_at, gif_at) {
            assert!(
                gif_at > final_at,
                "the replay comes after the final message"
            );
            break;
        }
        assert!(
            std::time::Instant::now() < gif_deadline,
            "no replay GIF after the final message\nbot log:\n{}",
            h.bot.log_tail(40)
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(
        !final_message
            .attachments
            .iter()
            .any(|a| a.filename == "replay.gif"),
        "the final message itself is not held back for the GIF"
    );

    // The replay of the channel's last game: a GIF in the channel, in answer to the command.
    let replay = fake
        .slash(&players[1], channel, "sequence replay", &[])
        .expect("/sequence replay is registered");
    let posted = fake
        .wait_reply(&replay, STEP * 30)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert!(!posted.is_ephemeral(), "{posted:?}");
    assert!(
        posted.content.contains(", move by move"),
        "{}",
        posted.content
    );
    let gif = posted
        .attachments
        .iter()
        .find(|a| a.filename == "replay.gif")
        .unwrap_or_else(|| panic!("no GIF: {posted:?}"));
    assert!(gif.data.starts_with(b"GIF89a"));
    assert!(gif.data.len() < 8_000_000);

    // A game number that does not exist: refused privately.
    let missing = fake
        .slash(&players[1], channel, "sequence replay", &[("game", "9999")])
        .expect("the option exists");
    let refused = fake.wait_reply(&missing, STEP).await.expect("an answer");
    assert!(refused.is_ephemeral(), "{refused:?}");
}
