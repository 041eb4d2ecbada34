//! End-to-end tests of the real `sequence-bot` binary against the local Discord stand-in
//! (tests/support/fake_discord): a scripted 2-team classic game from `/sequence start` to the win,
//! autocomplete, and bad input through the real protocol.

use crate::support;

use std::collections::HashSet;
use std::process::Command;

use serde_json::Value;
use support::bot::Harness;
use support::fake_discord::{FakeDiscord, FakeUser, StoredMessage};
use support::table::{Played, TableDriver, TurnEnd};

/// Board images are required (the renderer is wired in); without one, only present images are checked.
const BOARD_PNG_REQUIRED: bool = true;

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
                assert_eq!(
                    *size.get_or_insert(found),
                    found,
                    "every board image has one size"
                );
            }
            count += 1;
        }
    }
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classic_two_team_game_from_start_to_win() {
    let h = Harness::started().await;
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
                final_message = Some(*message);
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
    assert!(
        final_message.content.contains("wins"),
        "{}",
        final_message.content
    );

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
    assert_eq!(
        replay.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let state: Value = serde_json::from_slice(&replay.stdout).expect("replay prints JSON");
    assert_eq!(state["status"], "won");
    let winner = state["winner"].as_u64().expect("a winning team") as usize;
    assert!(
        final_message
            .content
            .to_lowercase()
            .contains(&format!("team {} (", winner + 1)),
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
    assert_eq!(
        rows,
        table.mirror.rows(),
        "the replayed board is the board we played"
    );
    let recorded: Vec<Played> = Played::all_in_record(&record);
    assert_eq!(
        recorded, table.played,
        "the record holds exactly the moves made"
    );
    assert_eq!(record["players"], 4);
    assert_eq!(record["teams"], 2);

    // Hands went only to their owners, by DM; nothing of a hand appeared in the channel.
    let state = fake.state();
    let seated: HashSet<u64> = players.iter().map(|p| p.id).collect();
    for (id, channel) in &state.channels {
        if let Some(user) = channel.dm_with {
            assert!(seated.contains(&user), "a DM to a non-player ({id})");
            for message in state.messages_in(*id) {
                for content in message.all_contents() {
                    assert!(
                        content.starts_with(&format!("Your cards in <#{}>", table.channel)),
                        "a DM that is not a hand: {content}"
                    );
                }
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
            m.all_contents()
                .flat_map(str::lines)
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
                    let pretty = sequence_bot::engine::Card::parse(
                        card,
                        sequence_bot::engine::Variant::Classic,
                    )
                    .expect("card")
                    .pretty();
                    assert!(
                        dms.iter()
                            .any(|m| m.all_contents().any(|c| c.contains(&format!("• {pretty}")))),
                        "{} played {card} without it being in a hand DM",
                        user.name
                    );
                }
            }
        }
    }

    // Images decode and every board has the size of the classic board image; the final board shows
    // each chip the game placed in its team's colour.
    let geometry = sequence_bot::render::Geometry::of(table.mirror.layout);
    let mut size = None;
    let boards = check_images(&channel_messages, &mut size);
    if BOARD_PNG_REQUIRED {
        assert!(boards > table.played.len() / 2, "board images are attached");
        assert_eq!(
            size,
            Some(geometry.size),
            "the board image has the classic board's size"
        );
        let final_board = final_message
            .attachments
            .iter()
            .find(|a| a.filename.starts_with("board") && a.filename.ends_with(".png"))
            .expect("the final message shows the board");
        let image = image::load_from_memory(&final_board.data)
            .expect("PNG")
            .to_rgba8();
        for (team, &chips) in table.mirror.chips.iter().enumerate() {
            let colour = sequence_bot::render::team_colour(
                sequence_bot::engine::Variant::Classic,
                team as u8,
            );
            for cell in sequence_bot::engine::BitIter(chips) {
                let (cx, cy) = geometry.chip_centre(cell);
                // Around the chip's white mark and any sequence line: most of a ring of samples shows
                // the team colour.
                let near = (0..16)
                    .filter(|k| {
                        let angle = *k as f32 * std::f32::consts::TAU / 16.0;
                        let (x, y) = (
                            cx + angle.cos() * geometry.chip_r * 0.7,
                            cy + angle.sin() * geometry.chip_r * 0.7,
                        );
                        let pixel = image.get_pixel(x as u32, y as u32);
                        (0..3).all(|c| (i32::from(pixel[c]) - i32::from(colour[c])).abs() < 60)
                    })
                    .count();
                assert!(
                    near >= 5,
                    "the chip of team {team} on {} is not drawn in its colour ({near}/16)",
                    table.mirror.layout.cell_name(cell)
                );
            }
        }
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
    // Every request was checked against Discord's OpenAPI description, the command registration
    // against Discord's limits too (the stand-in's `Drop` fails the test on any problem).
    {
        let state = fake.state();
        let report = &state.openapi;
        assert_eq!(report.requests, requests.len(), "every request was checked");
        assert!(report.problems().is_empty(), "{:#?}", report.problems());
        let (name, size) = report
            .largest_command
            .clone()
            .expect("the registered commands were measured");
        // Discord allows 8,000 characters per command (its docs); issue 15 asked for 4,000, the
        // figure Discord documented before: the bot keeps within the stricter one.
        assert!(size <= 4000, "/{name} has {size} characters");
    }
    println!("{}", fake.openapi_summary());
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

/// Cards (the part before " — ") of a user's latest hand DM.
fn hand_cards(table: &TableDriver<'_>, user: &FakeUser) -> HashSet<String> {
    table
        .hand_lines(user)
        .iter()
        .map(|l| l.split(" — ").next().unwrap_or("").to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_offers_only_the_callers_cards_and_legal_cells() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players = users(fake, &["alice", "bob"]);
    let outsider = fake.add_user("eve");
    let channel = fake.add_channel("sequence-autocomplete");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .unwrap_or_else(|e| panic!("{e}\nbot log:\n{}", h.bot.log_tail(40)));
    let public = || {
        fake.messages_in(channel)
            .iter()
            .filter(|m| !m.is_ephemeral())
            .count()
    };
    let messages_before = public();
    for round in 0..6 {
        for (seat, user) in table.seats.clone().iter().enumerate() {
            let team = table.team_of[seat];
            let own = hand_cards(&table, user);
            let cards = table
                .suggest(user, "sequence play", &[("card", ""), ("cell", "")], "card")
                .await
                .expect("card suggestions");
            let suggested: HashSet<String> = cards
                .iter()
                .map(|c| c.label.split(" — ").next().unwrap_or("").to_string())
                .collect();
            assert_eq!(
                suggested, own,
                "round {round}: {} sees exactly their own cards",
                user.name
            );
            // Typing narrows the list to matching cards.
            let first = cards[0].value.clone();
            let prefix: String = first.chars().take(1).collect();
            let narrowed = table
                .suggest(
                    user,
                    "sequence play",
                    &[("card", prefix.as_str()), ("cell", "")],
                    "card",
                )
                .await
                .expect("narrowed suggestions");
            assert!(!narrowed.is_empty());
            assert!(
                narrowed.iter().all(|c| c.value.starts_with(&prefix)),
                "typing {prefix:?} gave {narrowed:?}"
            );
            for card in &cards {
                let parsed = sequence_bot::engine::Card::parse(
                    &card.value,
                    sequence_bot::engine::Variant::Classic,
                )
                .expect("suggested card parses");
                let legal = table.mirror.targets(team, parsed);
                let cells = table
                    .suggest(
                        user,
                        "sequence play",
                        &[("card", card.value.as_str()), ("cell", "")],
                        "cell",
                    )
                    .await
                    .expect("cell suggestions");
                assert!(cells.len() <= 25);
                for cell in &cells {
                    let at = table
                        .mirror
                        .layout
                        .parse_cell(&cell.value)
                        .expect("a cell name");
                    assert!(
                        legal & at.bit() != 0,
                        "{} is not a legal cell for {}",
                        cell.value,
                        card.value
                    );
                }
                if parsed.effect() == sequence_bot::engine::CardEffect::Cells {
                    assert_eq!(
                        cells.len() as u32,
                        legal.count_ones(),
                        "every free cell of {}",
                        card.value
                    );
                }
            }
            // A card the caller does not hold gets no cells, even if the other player holds it.
            let other = &table.seats[1 - seat];
            for card in hand_cards(&table, other).difference(&own) {
                let code =
                    sequence_bot::engine::card::full_deck(sequence_bot::engine::Variant::Classic)
                        .into_iter()
                        .find(|c| c.pretty() == *card)
                        .expect("a card of the deck")
                        .to_string();
                let cells = table
                    .suggest(
                        user,
                        "sequence play",
                        &[("card", code.as_str()), ("cell", "")],
                        "cell",
                    )
                    .await
                    .expect("cell suggestions");
                assert!(
                    cells.is_empty(),
                    "{} gets cells for {code}, which they do not hold",
                    user.name
                );
            }
        }
        // Someone who is not playing gets nothing.
        let none = table
            .suggest(
                &outsider,
                "sequence play",
                &[("card", ""), ("cell", "")],
                "card",
            )
            .await
            .expect("suggestions");
        assert!(none.is_empty(), "a non-player sees {none:?}");
        assert_eq!(
            public(),
            messages_before + round,
            "autocomplete posts nothing (one public post per move)"
        );
        match table.play_turn().await.expect("a turn") {
            TurnEnd::Next => {}
            TurnEnd::Over(_) => break,
        }
    }
    assert!(fake.state().unknown_routes().is_empty());
}

/// Waits for the answer to a bad action: it must be private (ephemeral) and say something.
async fn refused(
    fake: &FakeDiscord,
    interaction: &support::fake_discord::Interaction,
    what: &str,
) -> String {
    let reply = fake
        .wait_reply(interaction, support::table::STEP)
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        reply.is_ephemeral(),
        "{what}: the refusal must be private: {reply:?}"
    );
    assert!(
        !reply.content.trim().is_empty(),
        "{what}: the refusal says why"
    );
    reply.content
}

/// Channel messages and DMs so far (each edit of a DM counted): nothing may be added or changed by a
/// refused action.
fn visible(fake: &FakeDiscord, channel: u64, users: &[FakeUser]) -> (usize, Vec<usize>) {
    (
        fake.messages_in(channel)
            .iter()
            .filter(|m| !m.is_ephemeral())
            .count(),
        users
            .iter()
            .map(|u| support::table::hand_versions(fake, u.id))
            .collect(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_privately_and_changes_nothing() {
    let h = Harness::started().await;
    let fake = &h.fake;
    let players = users(fake, &["alice", "bob"]);
    let outsider = fake.add_user("eve");
    let everyone: Vec<FakeUser> = players.iter().cloned().chain([outsider.clone()]).collect();

    // Spamming the Join button seats a player once; every extra press is refused privately.
    let lobby_channel = fake.add_channel("sequence-spam");
    let start = fake
        .slash(
            &players[0],
            lobby_channel,
            "sequence start",
            &[("game", "classic")],
        )
        .expect("start");
    let lobby = support::table::lobby_of(fake, &start, lobby_channel)
        .await
        .expect("lobby");
    let presses: Vec<_> = (0..8)
        .map(|_| {
            fake.click(&players[1], lobby.id, "sequence:join")
                .expect("press")
        })
        .collect();
    let mut updates = 0;
    for press in &presses {
        // Each press is acknowledged first (a deferred update); the one that seats the player then
        // edits the lobby, the others are refused privately.
        let answer = fake
            .wait_reply(press, support::table::STEP)
            .await
            .expect("answer");
        if answer.id == lobby.id {
            updates += 1;
        } else {
            refused(fake, press, "a repeated Join").await;
        }
    }
    assert_eq!(
        updates, 1,
        "one press seats the player, the others are refused"
    );
    let lobby_now = fake.message(lobby.id).expect("lobby");
    assert_eq!(
        lobby_now
            .content
            .matches(&format!("<@{}>", players[1].id))
            .count(),
        1
    );
    assert!(lobby_now.content.contains("(2/"), "{}", lobby_now.content);
    // Start pressed by a non-host is refused; pressed twice by the host starts one game.
    let press = fake
        .click(&outsider, lobby.id, "sequence:begin")
        .expect("press");
    refused(fake, &press, "Start by a non-host").await;
    let a = fake
        .click(&players[0], lobby.id, "sequence:begin")
        .expect("press");
    let b = fake
        .click(&players[0], lobby.id, "sequence:begin")
        .expect("press");
    let (ra, rb) = (
        fake.wait_reply(&a, support::table::STEP)
            .await
            .expect("answer"),
        fake.wait_reply(&b, support::table::STEP)
            .await
            .expect("answer"),
    );
    assert_eq!(
        [ra.id, rb.id].iter().filter(|&&id| id == lobby.id).count(),
        1,
        "one start: the other press is refused privately"
    );
    let started = fake
        .shared()
        .wait_for(
            support::table::STEP,
            "one start message",
            &[lobby_channel],
            |s| {
                let n = s
                    .messages_in(lobby_channel)
                    .iter()
                    .filter(|m| m.content.contains("begins!"))
                    .count();
                (n >= 1).then_some(n)
            },
        )
        .await
        .expect("started");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(started, 1);
    assert_eq!(
        fake.messages_in(lobby_channel)
            .iter()
            .filter(|m| m.content.contains("begins!"))
            .count(),
        1,
        "exactly one game started"
    );

    // A game where every kind of bad move is tried.
    let channel = fake.add_channel("sequence-bad-input");
    let mut table = TableDriver::open(fake, channel, &players[0], &players[1..], 2)
        .await
        .expect("a game");
    table.play_turn().await.expect("a first move");
    let mover_seat = table.to_move().expect("someone to move");
    let mover = table.seats[mover_seat].clone();
    let waiting = table.seats[1 - mover_seat].clone();
    let team = table.team_of[mover_seat];
    let own = table
        .suggest(
            &mover,
            "sequence play",
            &[("card", ""), ("cell", "")],
            "card",
        )
        .await
        .expect("cards");
    let own_codes: HashSet<String> = own.iter().map(|c| c.value.clone()).collect();
    let layout = table.mirror.layout;
    let deck = sequence_bot::engine::card::full_deck(sequence_bot::engine::Variant::Classic);
    // An ordinary card the mover holds, with a free cell, and a free cell that does not match it.
    let (card, cell, wrong_cell) = own
        .iter()
        .filter_map(|c| {
            let parsed = sequence_bot::engine::Card::parse(
                &c.value,
                sequence_bot::engine::Variant::Classic,
            )?;
            if parsed.effect() != sequence_bot::engine::CardEffect::Cells {
                return None;
            }
            let legal = table.mirror.targets(team, parsed);
            let cell = sequence_bot::engine::BitIter(legal).next()?;
            let wrong = sequence_bot::engine::BitIter(table.mirror.empty() & !legal).next()?;
            Some((
                c.value.clone(),
                layout.cell_name(cell),
                layout.cell_name(wrong),
            ))
        })
        .next()
        .expect("a playable ordinary card");
    // A card the mover does not hold (an ordinary one, with a free cell).
    let (foreign, foreign_cell) = deck
        .iter()
        .filter(|c| {
            c.effect() == sequence_bot::engine::CardEffect::Cells
                && !own_codes.contains(&c.to_string())
        })
        .find_map(|c| {
            let cell = sequence_bot::engine::BitIter(table.mirror.targets(team, *c)).next()?;
            Some((c.to_string(), layout.cell_name(cell)))
        })
        .expect("a card not in hand");
    let waiting_card = table
        .suggest(
            &waiting,
            "sequence play",
            &[("card", ""), ("cell", "")],
            "card",
        )
        .await
        .expect("cards")[0]
        .value
        .clone();
    let occupied = sequence_bot::engine::BitIter(table.mirror.occupied())
        .next()
        .map(|c| layout.cell_name(c))
        .expect("a chip on the board");
    let before = visible(fake, channel, &everyone);
    let to_move_before = table.to_move();
    type Attempt<'a> = (&'a FakeUser, Vec<(&'a str, String)>, &'a str);
    let attempts: Vec<Attempt> = vec![
        (
            &mover,
            vec![("card", card.clone()), ("cell", "Z99".into())],
            "an unknown cell",
        ),
        (
            &mover,
            vec![("card", card.clone()), ("cell", "".into())],
            "no cell",
        ),
        (
            &mover,
            vec![
                ("card", card.clone()),
                ("cell", "'; DROP TABLE games; --".into()),
            ],
            "garbage cell",
        ),
        (
            &mover,
            vec![("card", card.clone()), ("cell", wrong_cell.clone())],
            "a cell that does not match the card",
        ),
        (
            &mover,
            vec![("card", card.clone()), ("cell", occupied.clone())],
            "an occupied cell",
        ),
        (
            &mover,
            vec![("card", foreign.clone()), ("cell", foreign_cell.clone())],
            "a card not in hand",
        ),
        (
            &mover,
            vec![("card", "banana".into()), ("cell", cell.clone())],
            "a card that does not exist",
        ),
        (
            &mover,
            vec![("card", "🂡".repeat(50)), ("cell", cell.clone())],
            "a long odd card",
        ),
        (
            &waiting,
            vec![("card", waiting_card.clone()), ("cell", cell.clone())],
            "out of turn",
        ),
        (
            &outsider,
            vec![("card", card.clone()), ("cell", cell.clone())],
            "a non-player",
        ),
    ];
    for (user, options, what) in &attempts {
        let options: Vec<(&str, &str)> = options.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let attempt = fake
            .slash(user, channel, "sequence play", &options)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let text = refused(fake, &attempt, what).await;
        println!("{what}: {text}");
    }
    // Other commands that do not apply now.
    for (user, path, options, what) in [
        (
            &mover,
            "sequence exchange",
            vec![("card", card.as_str())],
            "exchanging a live card",
        ),
        (&mover, "sequence roll", vec![], "rolling in a card game"),
        (
            &waiting,
            "sequence begin",
            vec![],
            "starting a started game",
        ),
        (
            &outsider,
            "sequence stop",
            vec![],
            "stopping someone else's game",
        ),
        (
            &outsider,
            "sequence hand",
            vec![],
            "a hand for a non-player",
        ),
        (
            &outsider,
            "sequence leave",
            vec![],
            "leaving a game one is not in",
        ),
    ] {
        let attempt = fake
            .slash(user, channel, path, &options)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        refused(fake, &attempt, what).await;
    }
    // The longest text Discord lets through in a string option.
    let long = "x".repeat(6000);
    let attempt = fake
        .slash(
            &mover,
            channel,
            "sequence play",
            &[("card", card.as_str()), ("cell", long.as_str())],
        )
        .expect("long");
    let text = refused(fake, &attempt, "a 6000-character cell").await;
    assert!(text.chars().count() <= 2000);
    // The same button spammed: the Hand button answers each press privately and changes nothing.
    let begin_message = fake
        .messages_in(channel)
        .into_iter()
        .find(|m| m.custom_ids().contains(&"sequence:hand".to_string()))
        .expect("the start message has a Hand button");
    let presses: Vec<_> = (0..6)
        .map(|_| {
            fake.click(&waiting, begin_message.id, "sequence:hand")
                .expect("press")
        })
        .collect();
    for press in &presses {
        let text = refused(fake, press, "the Hand button").await;
        assert!(text.contains("Your cards"), "{text}");
    }
    let press = fake
        .click(&outsider, begin_message.id, "sequence:hand")
        .expect("press");
    refused(fake, &press, "the Hand button for a non-player").await;

    assert_eq!(
        visible(fake, channel, &everyone),
        before,
        "nothing was posted or sent"
    );
    assert_eq!(table.to_move(), to_move_before, "the turn did not move");
    // The game goes on as if nothing happened, and its record holds only the moves made.
    table
        .play_turn()
        .await
        .expect("a legal move after the bad ones");
    let stop = fake
        .slash(&players[0], channel, "sequence stop", &[])
        .expect("stop");
    let stopped = support::table::record_after(fake, &stop, channel)
        .await
        .expect("stopped");
    let record = stopped
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".json"))
        .expect("the record");
    let record: Value = serde_json::from_slice(&record.data).expect("JSON");
    let actions = record["actions"].as_array().expect("actions");
    assert_eq!(
        actions.len(),
        table.played.len(),
        "{actions:?} vs {:?}",
        table.played
    );
    let statuses: Vec<u16> = fake
        .requests()
        .iter()
        .map(|r| r.status)
        .filter(|s| *s >= 400)
        .collect();
    assert!(
        statuses.is_empty(),
        "the bot's requests were all accepted: {statuses:?}"
    );
}
