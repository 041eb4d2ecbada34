//! End-to-end tests of the real `sequence-bot` binary against the local Discord stand-in
//! (tests/support/fake_discord): a scripted 2-team classic game from `/sequence start` to the win,
//! autocomplete, and bad input through the real protocol.

mod support;

use std::collections::HashSet;
use std::process::Command;

use serde_json::Value;
use support::bot::{BotOptions, Harness};
use support::fake_discord::{Config, FakeDiscord, FakeUser, StoredMessage};
use support::table::{Played, TableDriver, TurnEnd};

/// The board and hand images: the bot attaches them once a renderer is wired into `discord::painter()`.
/// Until then messages are text only and the image checks below only run on images that are present.
const BOARD_PNG_REQUIRED: bool = false;

async fn harness() -> Harness {
    Harness::start(Config::default(), &BotOptions::default())
        .await
        .expect("the bot connects to the stand-in")
}

fn users(fake: &FakeDiscord, names: &[&str]) -> Vec<FakeUser> {
    names.iter().map(|n| fake.add_user(n)).collect()
}

/// Every PNG attachment decodes; board images all have one size. Returns how many PNGs there were.
fn check_images(messages: &[StoredMessage], size: &mut Option<(u32, u32)>) -> usize {
    let mut count = 0;
    for message in messages {
        for attachment in &message.attachments {
            if !attachment.filename.ends_with(".png") {
                continue;
            }
            let image = image::load_from_memory(&attachment.data)
                .unwrap_or_else(|e| panic!("{} does not decode: {e}", attachment.filename));
            assert!(image.width() > 0 && image.height() > 0);
            if attachment.filename.starts_with("board") {
                let found = (image.width(), image.height());
                assert_eq!(*size.get_or_insert(found), found, "every board image has one size");
            }
            count += 1;
        }
    }
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classic_two_team_game_from_start_to_win() {
    let h = harness().await;
    let fake = &h.fake;
    let players = users(fake, &["alice", "bob", "carol", "dave"]);
    let outsider = fake.add_user("eve");
    let channel = fake.add_channel("sequence-table");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    assert_eq!(table.team_of.iter().filter(|&&t| t == 0).count(), 2);
    assert_eq!(table.team_of.iter().filter(|&&t| t == 1).count(), 2);

    let mut final_message = None;
    for _ in 0..400 {
        match table.play_turn().await {
            Ok(TurnEnd::Next) => {}
            Ok(TurnEnd::Over(message)) => {
                final_message = Some(message);
                break;
            }
            Err(e) => panic!(
                "turn {}: {e}\nbot log:\n{}",
                table.played.len(),
                h.bot.log_tail(40)
            ),
        }
    }
    let final_message = final_message.expect("the game ends within 400 turns");
    println!(
        "game over after {} moves: {}",
        table.played.len(),
        final_message.content
    );
    assert!(!final_message.is_ephemeral());
    assert!(final_message.content.contains("wins"), "{}", final_message.content);

    // The record replays to the same result, move for move.
    let record_file = final_message
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".json"))
        .expect("the record is attached");
    let record: Value = serde_json::from_slice(&record_file.data).expect("the record is JSON");
    let path = h.dir.path().join("final-record.json");
    std::fs::write(&path, record_file.data.as_slice()).expect("write the record");
    let replay = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .arg("replay")
        .arg(&path)
        .output()
        .expect("run replay");
    assert_eq!(replay.status.code(), Some(0), "{}", String::from_utf8_lossy(&replay.stderr));
    let state: Value = serde_json::from_slice(&replay.stdout).expect("replay prints JSON");
    assert_eq!(state["status"], "won");
    let winner = state["winner"].as_u64().expect("a winning team") as usize;
    assert!(
        final_message
            .content
            .contains(&format!("Team {} (", winner + 1)),
        "the channel names team {} as the winner: {}",
        winner + 1,
        final_message.content
    );
    let rows: Vec<String> = state["board"]
        .as_array()
        .expect("board")
        .iter()
        .map(|r| r.as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(rows, table.mirror.rows(), "the replayed board is the board we played");
    let recorded: Vec<Played> = record["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .filter(|a| a.get("pass").is_none())
        .map(|a| {
            let seat = a["seat"].as_u64().unwrap_or(99) as usize;
            match a.get("exchange") {
                Some(card) => Played::Exchange {
                    seat,
                    card: card.as_str().unwrap_or("").to_string(),
                },
                None => Played::Play {
                    seat,
                    card: a["play"].as_str().unwrap_or("").to_string(),
                    cell: a["cell"].as_str().unwrap_or("").to_string(),
                },
            }
        })
        .collect();
    assert_eq!(recorded, table.played, "the record holds exactly the moves made");
    assert_eq!(record["players"], 4);
    assert_eq!(record["teams"], 2);

    // Hands went only to their owners, by DM; nothing of a hand appeared in the channel.
    let state = fake.state();
    let seated: HashSet<u64> = players.iter().map(|p| p.id).collect();
    for (id, channel) in &state.channels {
        if let Some(user) = channel.dm_with {
            assert!(seated.contains(&user), "a DM to a non-player ({id})");
            for message in state.messages_in(*id) {
                assert!(
                    message.content.starts_with(&format!("Your cards in <#{}>", table.channel)),
                    "a DM that is not a hand: {}",
                    message.content
                );
            }
        }
    }
    assert!(state.dm_channel_of(outsider.id).is_none());
    drop(state);
    let channel_messages = fake.messages_in(channel);
    let hand_lines: HashSet<String> = players
        .iter()
        .flat_map(|p| fake.dms_to(p.id))
        .flat_map(|m| {
            m.content
                .lines()
                .filter(|l| l.starts_with("• "))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(hand_lines.len() > 20);
    for message in &channel_messages {
        assert!(
            !message.content.contains("Your cards in")
                && !message.content.lines().any(|l| hand_lines.contains(l)),
            "hand text in the channel: {}",
            message.content
        );
    }
    // Every hand DM of a player lists that player's cards only: the cards they played came from it.
    for (seat, user) in table.seats.iter().enumerate() {
        let dms = fake.dms_to(user.id);
        assert!(!dms.is_empty());
        for played in &table.played {
            if let Played::Play { seat: s, card, .. } = played {
                if *s == seat {
                    let pretty = sequence_bot::engine::Card::parse(card, sequence_bot::engine::Variant::Classic)
                        .expect("card")
                        .pretty();
                    assert!(
                        dms.iter().any(|m| m.content.contains(&format!("• {pretty}"))),
                        "{} played {card} without it being in a hand DM",
                        user.name
                    );
                }
            }
        }
    }

    // Images, where the bot sends them, decode; every board has one size.
    let mut size = None;
    let boards = check_images(&channel_messages, &mut size);
    if BOARD_PNG_REQUIRED {
        assert!(boards > 0, "board images are attached");
    }
    println!("{boards} PNG images in the channel, board size {size:?}");

    // Nothing unexpected went over the wire.
    let requests = fake.requests();
    let odd: Vec<String> = requests
        .iter()
        .filter(|r| r.status >= 400 || !r.known_route || !r.via_tls)
        .map(|r| format!("{} {} -> {}", r.method, r.path, r.status))
        .collect();
    assert!(odd.is_empty(), "unexpected requests: {odd:?}");
    let latencies = fake.latencies();
    assert!(latencies.len() > table.played.len());
    let mut sorted = latencies.clone();
    sorted.sort();
    println!(
        "{} interactions answered; median {:?}, slowest {:?}",
        sorted.len(),
        sorted[sorted.len() / 2],
        sorted.last()
    );
}
