//! Issue 44, points 17 and 20, through `sequence-bot console`: with `--images DIR` every image the bot
//! would post is written to DIR, named by message; a request line says where it comes from (a server
//! with the bot, a server without it, a DM, a group DM) and the console applies Discord's rules of
//! that place; a challenge's invited ids are checked by the lobby itself.

use serde_json::{json, Value};

use crate::support::console::{text, Console, GUILD};

/// The outputs with an image, each with the file it names (which must exist and read as `magic`).
fn images(dir: &std::path::Path, outputs: &[Value]) -> Vec<(String, String, Vec<u8>)> {
    outputs
        .iter()
        .filter(|o| !o["image"].is_null())
        .map(|o| {
            let name = o["image_file"]
                .as_str()
                .unwrap_or_else(|| panic!("an image without its file: {o}"))
                .to_string();
            let bytes = std::fs::read(dir.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            (o["to"].as_str().unwrap_or("").to_string(), name, bytes)
        })
        .collect()
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

#[test]
fn the_console_writes_every_image_it_would_post_named_by_message() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("images");
    let mut bot = Console::start_in(dir.path(), &["--images".as_ref(), folder.as_os_str()]);
    let channel = 10;
    bot.ask(channel, 1, json!({"command": "start", "game": "classic"}));
    bot.ask(channel, 2, json!({"command": "join"}));
    let begun = bot.ask(channel, 1, json!({"command": "begin"}));
    let drawn = images(&folder, &begun);
    // The board with the first turn, named by its message id, and each player's hand by DM.
    let board = begun
        .iter()
        .find(|o| o["to"] == "channel" && o["image"] == "board")
        .expect("the board is posted");
    let id = board["message_id"].as_u64().expect("a message id");
    assert_eq!(
        board["image_file"],
        json!(format!("message-{id}-board.png"))
    );
    assert!(
        drawn
            .iter()
            .all(|(_, _, bytes)| bytes.starts_with(PNG) && bytes.len() > 1000),
        "PNG files"
    );
    let dms: Vec<&String> = drawn
        .iter()
        .filter(|(to, _, _)| to == "direct")
        .map(|(_, name, _)| name)
        .collect();
    assert_eq!(dms.len(), 2, "{drawn:?}");
    assert!(dms
        .iter()
        .all(|n| n.starts_with("direct-") && n.ends_with("-hand.png")));
    // A private answer's picture: the asker's hand.
    let hand = bot.ask(channel, 1, json!({"command": "hand"}));
    let drawn = images(&folder, &hand);
    assert_eq!(drawn.len(), 1, "{hand:?}");
    assert!(drawn[0].1.starts_with("ephemeral-") && drawn[0].1.ends_with("-hand.png"));
    // Every file the console wrote is one a line named.
    let written = std::fs::read_dir(&folder).expect("the folder").count();
    assert_eq!(written, 4);
}

#[test]
fn without_images_nothing_is_written_and_no_line_names_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bot = Console::start_in(dir.path(), &[]);
    bot.ask(10, 1, json!({"command": "start", "game": "classic"}));
    bot.ask(10, 2, json!({"command": "join"}));
    let begun = bot.ask(10, 1, json!({"command": "begin"}));
    assert!(begun.iter().any(|o| o["image"] == "board"));
    assert!(
        begun.iter().all(|o| o.get("image_file").is_none()),
        "{begun:?}"
    );
}

/// A request from `place` (no `guild` outside servers).
fn from(place: &str, channel: u64, user: u64, command: Value) -> Value {
    let mut line = command;
    line["place"] = json!(place);
    line["channel"] = json!(channel);
    line["user"] = json!(user);
    if place.starts_with("server") {
        line["guild"] = json!(GUILD);
    }
    line
}

#[test]
fn the_console_applies_the_rules_of_each_place_as_discord_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bot = Console::start_in(dir.path(), &[]);
    for (place, channel) in [("dm", 20), ("group_dm", 21)] {
        // No rated game, no leaderboard, history or numbered game outside servers.
        for command in [
            json!({"command": "start", "rated": true}),
            json!({"command": "leaderboard"}),
            json!({"command": "history"}),
            json!({"command": "record", "game": 1}),
            json!({"command": "replay", "game": 1}),
        ] {
            let (outputs, refused) = bot.request_as_is(from(place, channel, 1, command.clone()));
            assert!(refused, "{place} {command}: {outputs:?}");
            assert!(
                outputs.iter().all(|o| o["to"] == "ephemeral"),
                "privately: {outputs:?}"
            );
            assert_eq!(bot.dump(channel), Value::Null, "nothing opened");
        }
        // A plain start opens a casual lobby that says the bot may only answer there.
        let (lobby, refused) =
            bot.request_as_is(from(place, channel, 1, json!({"command": "start"})));
        assert!(!refused, "{lobby:?}");
        let said = text(&lobby);
        assert!(said.contains("Here I may only answer"), "{said}");
        let dump = bot.dump(channel);
        assert_eq!(dump["answers_only"], true, "{dump}");
        assert_eq!(dump["setup"]["rated"], false, "{dump}");
    }
    // A line without a guild and without a place is a DM.
    let (outputs, refused) = bot.request_as_is(json!({"channel": 22, "user": 1,
        "command": "leaderboard"}));
    assert!(
        refused && text(&outputs).contains("kept per server"),
        "{outputs:?}"
    );
    // A place that cannot be: refused as unreadable, nothing done.
    for line in [
        json!({"channel": 23, "user": 1, "guild": GUILD, "place": "dm", "command": "start"}),
        json!({"channel": 23, "user": 1, "place": "server", "command": "start"}),
        json!({"channel": 23, "user": 1, "guild": GUILD, "external_apps": false,
            "command": "start"}),
    ] {
        let (outputs, refused) = bot.request_as_is(line.clone());
        assert!(refused, "{line}");
        assert!(
            outputs.iter().any(|o| o["error"].is_string()),
            "{outputs:?}"
        );
        assert_eq!(bot.dump(23), Value::Null);
    }
    // A server without the bot that keeps apps' answers private: no game opens.
    let mut private = from("server_without_bot", 24, 1, json!({"command": "start"}));
    private["external_apps"] = json!(false);
    let (outputs, refused) = bot.request_as_is(private);
    assert!(
        refused && text(&outputs).contains("Use External Apps"),
        "{outputs:?}"
    );
    assert_eq!(bot.dump(24), Value::Null);
    // With Use External Apps on, a rated game opens there (it is a server), answers only.
    // (Other hosts: a member may hold only a few tables at once.)
    let (lobby, refused) = bot.request_as_is(from(
        "server_without_bot",
        24,
        3,
        json!({"command": "start", "rated": true}),
    ));
    assert!(!refused, "{lobby:?}");
    let dump = bot.dump(24);
    assert_eq!(dump["answers_only"], true, "{dump}");
    assert_eq!(dump["setup"]["rated"], true, "{dump}");
    // In a server with the bot nothing of that.
    let (lobby, refused) = bot.request_as_is(from(
        "server",
        25,
        4,
        json!({"command": "start", "rated": true}),
    ));
    assert!(
        !refused && !text(&lobby).contains("Here I may only answer"),
        "{lobby:?}"
    );
    assert!(bot.dump(25).get("answers_only").is_none_or(|v| v == false));
}

#[test]
fn invited_ids_are_checked_by_the_lobby_itself() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bot = Console::start_in(dir.path(), &[]);
    for (invite, bots, said) in [
        (json!([2, 3, 2]), json!([]), "named twice"),
        (json!([2, 0]), json!([]), "Only people can be invited"),
        (json!([2, 3]), json!([3]), "is an app, not a person"),
        (json!([1]), json!([]), "You are the host already"),
    ] {
        let (outputs, refused) = bot.request(
            30,
            1,
            json!({"command": "start", "invite": invite, "bots": bots}),
        );
        assert!(
            refused && text(&outputs).contains(said),
            "{invite}: {outputs:?}"
        );
        assert_eq!(bot.dump(30), Value::Null, "nothing opened");
    }
    let (outputs, refused) = bot.request(30, 1, json!({"command": "start", "invite": [2, 3]}));
    assert!(!refused, "{outputs:?}");
}
