//! Issue 16 through `sequence-bot console`: a whole game of each kind driven by button presses and menu
//! choices only (by the custom ids and values the bot printed), after `start`. Forged and outdated ids
//! are refused politely and change nothing.

use serde_json::{json, Value};

use crate::support::console::{text, Console};

const CHANNEL: u64 = 10;

/// Every (id, menu value) a user may press on an output: enabled buttons and each menu option.
fn choices(output: &Value) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for row in output["components"].as_array().into_iter().flatten() {
        for control in row.as_array().into_iter().flatten() {
            let id = control["id"].as_str().unwrap_or("").to_string();
            if control["type"] == "select" {
                for option in control["options"].as_array().into_iter().flatten() {
                    out.push((id.clone(), option["value"].as_str().map(str::to_string)));
                }
            } else if control["disabled"] != true && control["label"] != "Back" {
                out.push((id, None));
            }
        }
    }
    out
}

fn is_turn_button(id: &str) -> bool {
    id.ends_with(":play") || id.ends_with(":roll")
}

/// The Play (or Roll) button among a reply's channel posts, whom it is for and the post's message id.
fn prompt(outputs: &[Value]) -> Option<(String, u64, u64)> {
    outputs.iter().rev().find_map(|o| {
        let id = choices(o)
            .into_iter()
            .map(|(id, _)| id)
            .find(|id| is_turn_button(id))?;
        let user = o["mentions"].as_array()?.first()?.as_u64()?;
        let message = o["message_id"].as_u64()?;
        (o["to"] == "channel").then_some((id, user, message))
    })
}

/// The edit of an older turn prompt in `outputs`: it keeps no Play (or Roll) button.
fn assert_prompt_disarmed(outputs: &[Value], message_id: u64) {
    let edit = outputs
        .iter()
        .find(|o| o["to"] == "edit" && o["message_id"] == json!(message_id))
        .unwrap_or_else(|| panic!("no edit of the prompt {message_id} in {outputs:?}"));
    assert!(
        edit["id"].is_u64(),
        "the edit belongs to the request: {edit}"
    );
    let ids: Vec<String> = edit["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row.as_array().into_iter().flatten())
        .filter_map(|c| c["id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(edit["buttons"], json!(ids), "{edit}");
    assert!(!ids.iter().any(|id| is_turn_button(id)), "{edit}");
}

fn play_game(game: &str, seed: u64) -> (usize, usize) {
    let dir = tempfile::tempdir().expect("dir");
    let mut console = Console::start_in(dir.path(), &[]);
    let (_, refused) = console.request(CHANNEL, 1, json!({"command": "start", "game": game}));
    assert!(!refused);
    let (outputs, refused) = console.press(CHANNEL, 2, "sequence:join", None);
    assert!(!refused, "{outputs:?}");
    let (mut outputs, refused) = console.press(CHANNEL, 1, "sequence:begin", None);
    assert!(!refused, "{outputs:?}");
    let mut state = seed | 1;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let (mut turns, mut menus) = (0, 0);
    for _ in 0..2000 {
        if outputs.iter().any(|o| !o["attachment"].is_null()) {
            let end = outputs
                .iter()
                .find(|o| !o["attachment"].is_null())
                .expect("the final message");
            let text = end["text"].as_str().unwrap_or("");
            assert!(text.contains("wins") || text.contains("draw"), "{text}");
            return (turns, menus);
        }
        let (open, user, posted) =
            prompt(&outputs).unwrap_or_else(|| panic!("no prompt in {outputs:?}"));
        let other = 3 - user;
        // Not the other player's buttons; a forged id: refused, and nothing is posted.
        let (refusal, refused) = console.press(CHANNEL, other, &open, None);
        assert!(refused && refusal.len() == 1, "{refusal:?}");
        assert_eq!(refusal[0]["to"], "ephemeral");
        let forged = format!("{open}:x");
        let (refusal, refused) = console.press(CHANNEL, user, &forged, None);
        assert!(refused, "{refusal:?}");
        assert!(refusal[0]["text"]
            .as_str()
            .unwrap_or("")
            .contains("do not know this button"));
        let (mut reply, refused) = console.press(CHANNEL, user, &open, None);
        assert!(!refused, "{reply:?}");
        turns += 1;
        loop {
            let picker = reply
                .iter()
                .find(|o| (o["to"] == "ephemeral" || o["to"] == "update") && !choices(o).is_empty())
                .cloned();
            let Some(picker) = picker else {
                // Dice: the roll left no move, the turn passed (the new prompt is in the reply).
                break;
            };
            let options = choices(&picker);
            let (id, value) = options[below(options.len())].clone();
            menus += usize::from(value.is_some());
            let (next, refused) = console.press(CHANNEL, user, &id, value.as_deref());
            assert!(!refused, "{id} {value:?}: {next:?}");
            let done = next.iter().any(|o| {
                o["to"] == "update" && o["text"].as_str().is_some_and(|t| t.starts_with("Done"))
            });
            reply = next;
            if done {
                break;
            }
        }
        // The turn is over: its prompt lost its Play button, and pressing it anyway is refused.
        assert_prompt_disarmed(&reply, posted);
        let (stale, refused) = console.press(CHANNEL, user, &open, None);
        assert!(refused, "{stale:?}");
        outputs = reply;
    }
    panic!("{game}: the game did not end");
}

#[test]
fn games_are_played_by_presses_in_the_console() {
    let mut menus = 0;
    for (game, seed) in [("kids", 11), ("dice", 12), ("classic", 13)] {
        let (turns, used) = play_game(game, seed);
        assert!(turns > 3, "{game}: {turns} turns");
        menus += used;
    }
    assert!(menus > 0, "a menu was used");
}

#[test]
fn stats_are_asked_by_user_for_of_or_player() {
    let dir = tempfile::tempdir().expect("dir");
    let mut console = Console::start_in(dir.path(), &[]);
    for (request, whose) in [
        (json!({"command": "stats"}), "<@1>"),
        (json!({"command": "stats", "of": 2}), "<@2>"),
        (json!({"command": "stats", "player": 3}), "<@3>"),
    ] {
        let (outputs, refused) = console.request(CHANNEL, 1, request.clone());
        assert!(!refused, "{request}: {outputs:?}");
        let text = outputs
            .iter()
            .filter_map(|o| o["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(text.contains(whose), "{request}: `{text}`");
        for other in ["<@1>", "<@2>", "<@3>"].into_iter().filter(|o| *o != whose) {
            assert!(!text.contains(other), "{request}: `{text}`");
        }
    }
}

/// The ids of every button and menu on the outputs sent `to` (`"lobby"`, `"ephemeral"`...).
fn ids_to(outputs: &[Value], to: &str) -> Vec<String> {
    outputs
        .iter()
        .filter(|o| o["to"] == to)
        .flat_map(|o| choices(o).into_iter().map(|(id, _)| id))
        .collect()
}

/// Issue 26 through the console: the level menu, Remove computer, the team buttons, the ⋯ menu with
/// Stop (asked first), and the buttons after a stored game, all by presses after `start`.
#[test]
fn lobby_game_menu_and_after_game_buttons_are_pressed_in_the_console() {
    let dir = tempfile::tempdir().expect("dir");
    let mut console = Console::start_in(dir.path(), &[]);
    let (outputs, refused) = console.request(
        CHANNEL,
        1,
        json!({"command": "start", "game": "classic", "teams": 2}),
    );
    assert!(!refused, "{outputs:?}");
    let lobby = ids_to(&outputs, "lobby");
    assert!(lobby.contains(&"sequence:join:1".to_string()), "{lobby:?}");
    assert!(lobby.contains(&"sequence:join:2".to_string()), "{lobby:?}");
    // Add computer: the level menu, privately; its Hard adds a hard computer and stays open.
    let (menu, refused) = console.press(CHANNEL, 1, "sequence:addbot", None);
    assert!(!refused, "{menu:?}");
    let levels = ids_to(&menu, "ephemeral");
    assert_eq!(levels.len(), 3, "{menu:?}");
    let (added, refused) = console.press(CHANNEL, 1, &levels[2], None);
    assert!(!refused, "{added:?}");
    assert!(text(&added).contains("(hard) has joined"), "{added:?}");
    assert_eq!(ids_to(&added, "update"), levels, "the menu stays open");
    assert!(ids_to(&added, "lobby").contains(&"sequence:removebot".to_string()));
    // Not the host: refused.
    let (_, refused) = console.press(CHANNEL, 2, &levels[0], None);
    assert!(refused);
    // Remove computer, then an easy and a medium one; player 2 joins team 2, the host moves to team 1.
    let (removed, refused) = console.press(CHANNEL, 1, "sequence:removebot", None);
    assert!(!refused, "{removed:?}");
    assert!(!ids_to(&removed, "lobby").contains(&"sequence:removebot".to_string()));
    for level in [&levels[0], &levels[1]] {
        let (_, refused) = console.press(CHANNEL, 1, level, None);
        assert!(!refused);
    }
    let (_, refused) = console.press(CHANNEL, 2, "sequence:join:2", None);
    assert!(!refused);
    let (moved, refused) = console.press(CHANNEL, 1, "sequence:join:1", None);
    assert!(!refused, "{moved:?}");
    // ⋯ for the host: Status, Rules, Hand, Leave, Stop; Stop asks first.
    let (begun, refused) = console.press(CHANNEL, 1, "sequence:begin", None);
    assert!(!refused, "{begun:?}");
    let more_id = ids_to(&begun, "channel")
        .into_iter()
        .find(|id| id.starts_with("sequence:more:"))
        .expect("⋯ on the game's first message");
    let (more, refused) = console.press(CHANNEL, 2, &more_id, None);
    assert!(!refused, "{more:?}");
    let player = ids_to(&more, "ephemeral");
    assert_eq!(player.len(), 4, "{player:?}");
    let (more, _) = console.press(CHANNEL, 1, &more_id, None);
    let host = ids_to(&more, "ephemeral");
    assert_eq!(host.len(), 5, "{host:?}");
    let stop = host
        .iter()
        .find(|id| id.starts_with("sequence:stop:"))
        .expect("Stop")
        .clone();
    let (status, refused) = console.press(CHANNEL, 1, "sequence:status", None);
    assert!(!refused && text(&status).contains("To move:"), "{status:?}");
    let (asked, refused) = console.press(CHANNEL, 1, &stop, None);
    assert!(!refused, "{asked:?}");
    let confirm = ids_to(&asked, "ephemeral")
        .into_iter()
        .find(|id| id.starts_with("sequence:stop-confirm:"))
        .expect("the confirmation");
    let (_, refused) = console.press(CHANNEL, 2, &stop, None);
    assert!(refused, "only the host may stop");
    let (ended, refused) = console.press(CHANNEL, 1, &confirm, None);
    assert!(!refused, "{ended:?}");
    let end = ended
        .iter()
        .find(|o| !o["attachment"].is_null())
        .expect("the final message");
    let buttons: Vec<String> = end["buttons"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b.as_str().map(str::to_string))
        .collect();
    assert!(
        buttons.contains(&"sequence:stats".to_string()),
        "{buttons:?}"
    );
    let record = buttons
        .iter()
        .find(|id| id.starts_with("sequence:record:"))
        .expect("Game record");
    let (file, refused) = console.press(CHANNEL, 2, record, None);
    assert!(!refused && !file[0]["attachment"].is_null(), "{file:?}");
    let (stats, refused) = console.press(CHANNEL, 2, "sequence:stats", None);
    assert!(!refused && text(&stats).contains("<@2>"), "{stats:?}");
    // The stop question again, the game over: refused, nothing happens.
    let (again, refused) = console.press(CHANNEL, 1, &confirm, None);
    assert!(refused, "{again:?}");
}

/// Issue 33: the console speaks `hint` as `/sequence hint` (it was an unreadable line with no id and
/// no `done` line, so a client waiting for its answer hung), answers any unreadable line with its id
/// and a refused `done` line, and prints the follow-up of a game's final message (each human's
/// agreement with the computer) as Discord posts it.
#[test]
fn hints_unreadable_lines_and_the_agreement_follow_up_in_the_console() {
    let dir = tempfile::tempdir().expect("dir");
    let mut console = Console::start_in(dir.path(), &[]);
    let (_, refused) = console.request(CHANNEL, 1, json!({"command": "start", "rated": false}));
    assert!(!refused);
    assert!(!console.press(CHANNEL, 2, "sequence:join", None).1);
    let (outputs, refused) = console.press(CHANNEL, 1, "sequence:begin", None);
    assert!(!refused, "{outputs:?}");
    let (_, to_move, _) = prompt(&outputs).expect("a turn prompt");
    // The player to move gets a hint, privately; the other player is told it is not their turn.
    let (hint, refused) = console.request(CHANNEL, to_move, json!({"command": "hint"}));
    assert!(!refused, "{hint:?}");
    let text = text(&hint);
    assert!(text.contains("Hint"), "{text}");
    assert!(hint.iter().all(|o| o["to"] == "ephemeral"), "{hint:?}");
    assert_eq!(hint[0]["user"], json!(to_move));
    let (other, refused) = console.request(CHANNEL, 3 - to_move, json!({"command": "hint"}));
    assert!(refused, "{other:?}");
    // An unknown command: an error line and a refused `done` line, both with the id.
    let (error, refused) = console.request(CHANNEL, 1, json!({"command": "no such command"}));
    assert!(refused);
    assert!(
        error[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("unreadable request")),
        "{error:?}"
    );
    // The game ends (given up): the final message, then its follow-up with `"id": null`.
    let (end, refused) = console.request(CHANNEL, 3 - to_move, json!({"command": "forfeit"}));
    assert!(!refused, "{end:?}");
    assert!(!end.iter().any(|o| o["text"]
        .as_str()
        .is_some_and(|t| t.contains("Agreement with the computer"))));
    // It may come before the `done` line of the forfeit or after it.
    let mut unasked = std::mem::take(&mut console.spontaneous).into_iter();
    let follow_up = loop {
        let line = unasked.next().unwrap_or_else(|| console.next_line());
        if line["text"]
            .as_str()
            .is_some_and(|t| t.contains("Agreement with the computer"))
        {
            break line;
        }
    };
    assert_eq!(follow_up["to"], "channel", "{follow_up}");
    assert!(follow_up["id"].is_null(), "{follow_up}");
    assert!(follow_up["message_id"].is_u64(), "{follow_up}");
    let text = follow_up["text"].as_str().unwrap_or("");
    assert!(text.contains("<@1>") && text.contains("<@2>"), "{text}");
}
