//! The web links of Discord games: with the pages' address set ([`Tables::set_web_base`]) and the
//! server's `web_links` on (the default), the lobby card and every turn prompt carry a *Watch* link
//! button to the table's page and the final message of a kept game a *Replay on the web* one; without
//! the address, or with `web_links` off, none. Every message with a link stays within Discord's
//! limits on buttons and rows.

use super::kit::{ask_in, channel_messages, final_message, lobby_output, Start};
use super::picker::limit_problems;
use super::replay::{play_on, tables as new_tables};
use crate::engine::{Record, Variant};
use crate::i18n::Lang;
use crate::service::text::Text;
use crate::service::{
    action_rows, ChannelId, Command, Control, GuildId, Label, Message, Output, Reply,
    ServerSettings, SettingsRequest, Tables, ACTIVITY_ID,
};
use crate::store::GameId;

const GUILD: GuildId = GuildId(88);
const BASE: &str = "https://sequence.example.org";

/// The link buttons of a message as drawn (label, URL).
fn links(message: &Message) -> Vec<(Label, String)> {
    action_rows(message)
        .into_iter()
        .flatten()
        .filter_map(|c| match c {
            Control::Link { label, url } => Some((label, url)),
            _ => None,
        })
        .collect()
}

/// Every message of a reply that goes to the channel (posts and the lobby card).
fn posted(reply: &Reply) -> Vec<&Message> {
    reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Channel(m) | Output::Lobby { message: m, .. } => Some(m),
            _ => None,
        })
        .collect()
}

/// Opens a kids lobby in `channel`, a second player joins and the game begins: the three replies.
fn open_and_begin(tables: &Tables, channel: u64) -> [Reply; 3] {
    let start = Start::of(Variant::Kids).command();
    let opened = ask_in(tables, GUILD, channel, 1, start);
    let joined = ask_in(tables, GUILD, channel, 2, Command::Join { team: None });
    let begun = ask_in(tables, GUILD, channel, 1, Command::Begin);
    for reply in [&opened, &joined, &begun] {
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    [opened, joined, begun]
}

fn web_links_off() -> Command {
    Command::Settings(SettingsRequest {
        changes: ServerSettings {
            web_links: Some(false),
            ..ServerSettings::default()
        },
        reset: false,
    })
}

#[test]
fn the_lobby_the_prompts_and_the_final_message_link_to_the_tables_page() {
    let tables = new_tables(61);
    tables.set_web_base(Some(format!("{BASE}/")));
    let [opened, joined, begun] = open_and_begin(&tables, 140);
    let token = tables
        .web_token(ChannelId(140))
        .expect("the table has a token");
    let page = format!("{BASE}/g/{token}");
    let watch = vec![(Label::Text(Text::WatchButton), page.clone())];
    for (what, reply) in [
        ("the new lobby", &opened),
        ("the lobby after a join", &joined),
    ] {
        let (_, card) = lobby_output(reply).expect("a lobby card");
        assert_eq!(links(card), watch, "{what}");
        assert!(limit_problems(card).is_empty(), "{what}");
    }
    let prompt = channel_messages(&begun)
        .into_iter()
        .find(|m| m.prompt_turn().is_some())
        .expect("a turn prompt");
    assert_eq!(links(prompt), watch, "the turn prompt");
    assert!(limit_problems(prompt).is_empty());
    // The Watch link comes after the turn's own buttons, in the same row.
    let rows = action_rows(prompt);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(matches!(rows[0].last(), Some(Control::Link { .. })));
    // Nothing private carries it (the picker, a hand).
    for output in &begun.outputs {
        if let Output::Ephemeral(m) | Output::Direct { message: m, .. } = output {
            assert!(links(m).is_empty(), "{m:?}");
        }
    }

    let end = play_on(&tables, 140, 61);
    let last = final_message(&end).expect("the final message");
    assert_eq!(
        links(last),
        vec![(Label::Text(Text::ReplayLinkButton), page.clone())],
        "the final message links to the replay"
    );
    assert!(limit_problems(last).is_empty());
    // No other post of the last move offers to watch a game that is over.
    for message in posted(&end) {
        if !std::ptr::eq(message, last) {
            assert!(links(message).is_empty(), "{message:?}");
        }
    }
}

#[test]
fn no_link_without_the_address_or_where_the_server_turned_them_off() {
    // No address: no link anywhere over a whole game.
    let tables = new_tables(62);
    let replies = open_and_begin(&tables, 141);
    let end = play_on(&tables, 141, 62);
    for reply in replies.iter().chain([&end]) {
        for message in posted(reply) {
            assert!(links(message).is_empty(), "{message:?}");
        }
    }
    assert!(final_message(&end).is_some());

    // The address set, the server's `web_links` off: none either; shown in the settings.
    let tables = new_tables(63);
    tables.set_web_base(Some(BASE.to_string()));
    let changed = ask_in(&tables, GUILD, 142, 1, web_links_off());
    assert!(!changed.is_refusal(), "{changed:?}");
    let shown = changed.outputs[0]
        .message()
        .expect("a message")
        .to_english();
    assert!(
        shown.contains("web pages of the games (Watch button, live board, replay): off"),
        "{shown}"
    );
    let replies = open_and_begin(&tables, 142);
    // Its table's page answers nothing.
    let token = tables.web_token(ChannelId(142)).expect("a token");
    assert_eq!(tables.channel_of_web_token(&token), None);
    let end = play_on(&tables, 142, 63);
    for reply in replies.iter().chain([&end]) {
        for message in posted(reply) {
            assert!(links(message).is_empty(), "{message:?}");
        }
    }
    // Another server keeps its links.
    let other = GuildId(89);
    let opened = ask_in(&tables, other, 143, 1, Start::of(Variant::Kids).command());
    let (_, card) = lobby_output(&opened).expect("a lobby card");
    assert_eq!(links(card).len(), 1);
    let token = tables.web_token(ChannelId(143)).expect("a token");
    assert_eq!(tables.channel_of_web_token(&token), Some(ChannelId(143)));
    // Turned on again: the pages answer at once.
    let open_again = ask_in(&tables, GUILD, 144, 1, Start::of(Variant::Kids).command());
    assert!(!open_again.is_refusal());
    let token = tables.web_token(ChannelId(144)).expect("a token");
    assert_eq!(tables.channel_of_web_token(&token), None);
    let on = Command::Settings(SettingsRequest {
        changes: ServerSettings {
            web_links: Some(true),
            ..ServerSettings::default()
        },
        reset: false,
    });
    assert!(!ask_in(&tables, GUILD, 144, 1, on).is_refusal());
    assert_eq!(tables.channel_of_web_token(&token), Some(ChannelId(144)));
}

/// Whether a message shows **Open the board** as drawn (its custom id and label).
fn opens_the_board(message: &Message) -> bool {
    action_rows(message).into_iter().flatten().any(|c| {
        matches!(c, Control::Button { id, label, .. }
            if id == ACTIVITY_ID && label == Label::Text(Text::ActivityButton))
    })
}

/// With the Activity on ([`Tables::set_activity`]), **Open the board** is on the lobby card (new and
/// edited) and every turn prompt, before the *Watch* link, within Discord's limits, and on nothing
/// private or final; off, or where the server turned its games' pages off, nowhere.
#[test]
fn open_the_board_is_on_the_lobby_and_the_prompts_while_the_activity_is_on() {
    for variant in [Variant::Kids, Variant::Dice] {
        let tables = new_tables(66);
        tables.set_web_base(Some(BASE.to_string()));
        tables.set_activity(true);
        assert!(tables.activity_on());
        let start = Start::of(variant).command();
        let opened = ask_in(&tables, GUILD, 160, 1, start);
        let joined = ask_in(&tables, GUILD, 160, 2, Command::Join { team: None });
        for (what, reply) in [("new", &opened), ("after a join", &joined)] {
            let (_, card) = lobby_output(reply).expect("a lobby card");
            assert!(opens_the_board(card), "{variant:?}: the lobby {what}");
            assert!(limit_problems(card).is_empty(), "{variant:?}: {what}");
        }
        let begun = ask_in(&tables, GUILD, 160, 1, Command::Begin);
        let prompt = channel_messages(&begun)
            .into_iter()
            .find(|m| m.prompt_turn().is_some())
            .expect("a turn prompt");
        assert!(opens_the_board(prompt), "{variant:?}: the prompt");
        assert!(limit_problems(prompt).is_empty(), "{variant:?}");
        // In the prompt's row, just before the Watch link.
        let rows = action_rows(prompt);
        assert_eq!(rows.len(), 1, "{rows:?}");
        let row = &rows[0];
        assert!(matches!(row.last(), Some(Control::Link { .. })), "{row:?}");
        assert_eq!(row[row.len() - 2].id(), ACTIVITY_ID);
        for output in &begun.outputs {
            if let Output::Ephemeral(m) | Output::Direct { message: m, .. } = output {
                assert!(!opens_the_board(m), "{m:?}");
            }
        }
        if variant == Variant::Kids {
            // The game's end: the final message offers a rematch, not the board of a game that is
            // over.
            let end = play_on(&tables, 160, 66);
            assert!(final_message(&end).is_some());
            for message in posted(&end) {
                assert!(!opens_the_board(message), "{message:?}");
            }
        }
    }

    // Off (the default): nowhere, with the web links on.
    let tables = new_tables(67);
    tables.set_web_base(Some(BASE.to_string()));
    assert!(!tables.activity_on());
    let replies = open_and_begin(&tables, 161);
    for reply in &replies {
        for message in posted(reply) {
            assert!(!opens_the_board(message), "{message:?}");
        }
    }
    // On without a web address (the Activity needs none): shown. The server turning its games' web
    // pages off (public links) leaves it: the Activity is inside Discord, for the people in the call.
    let tables = new_tables(68);
    tables.set_activity(true);
    let [opened, ..] = open_and_begin(&tables, 162);
    let (_, card) = lobby_output(&opened).expect("a lobby card");
    assert!(opens_the_board(card) && links(card).is_empty());
    assert!(!ask_in(&tables, GUILD, 163, 1, web_links_off()).is_refusal());
    let replies = open_and_begin(&tables, 163);
    let mut shown = 0;
    for reply in &replies {
        for message in posted(reply) {
            assert!(links(message).is_empty(), "no Watch link: {message:?}");
            shown += usize::from(opens_the_board(message));
        }
    }
    assert!(shown >= 2, "the lobby and the prompt open the board");
}

#[test]
fn an_address_that_is_not_http_gives_no_link() {
    let tables = new_tables(64);
    for base in ["sequence.example.org", "ftp://x.org", "https://a b", ""] {
        tables.set_web_base(Some(base.to_string()));
        assert_eq!(tables.web_base(), None, "{base:?}");
    }
    tables.set_web_base(Some("http://127.0.0.1:8080".into()));
    assert_eq!(tables.web_base().as_deref(), Some("http://127.0.0.1:8080"));
    tables.set_web_base(None);
    let [opened, ..] = open_and_begin(&tables, 144);
    let (_, card) = lobby_output(&opened).expect("a lobby card");
    assert!(links(card).is_empty());
}

/// The links of a reply's private answer (a `/sequence record`).
fn private_links(reply: &Reply) -> Vec<(Label, String)> {
    reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Ephemeral(m) => Some(links(m)),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn a_finished_games_page_becomes_its_replay() {
    let tables = new_tables(65);
    tables.set_web_base(Some(BASE.to_string()));
    open_and_begin(&tables, 150);
    let token = tables.web_token(ChannelId(150)).expect("a token");
    assert_eq!(tables.channel_of_web_token(&token), Some(ChannelId(150)));
    assert_eq!(
        tables.finished_of_web_token(&token, None),
        None,
        "still running"
    );
    let end = play_on(&tables, 150, 65);
    let last = final_message(&end).expect("the final message");
    let id = last
        .lines
        .iter()
        .find_map(|l| match l {
            Text::GameSaved { id } => Some(*id),
            _ => None,
        })
        .expect("kept");
    assert_eq!(tables.channel_of_web_token(&token), None, "closed");
    assert_eq!(tables.finished_of_web_token(&token, None), Some(GameId(id)));

    // The record file: the one the final message attached.
    let attached: Record =
        serde_json::from_slice(&last.attachment.as_ref().expect("a record").data).unwrap();
    let (number, json) = tables
        .record_of_web_token(&token, None)
        .expect("the record");
    assert_eq!(number, GameId(id));
    assert_eq!(Record::from_json(&json).expect("parses"), attached);

    // The replay: the empty board, then the board after every move that placed or removed a chip.
    let replay = tables
        .replay_of_web_token(&token, Lang::De, None)
        .expect("the replay");
    assert_eq!(replay.game, id);
    assert_eq!(replay.variant, "kids");
    let moved: Vec<usize> = attached
        .actions
        .iter()
        .enumerate()
        .filter(|(_, a)| a.cell.is_some())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(replay.frames.len(), moved.len() + 1);
    assert_eq!(replay.summary.moves as usize, moved.len());
    assert!(replay.frames[0].action.is_none());
    assert!(replay.frames[0]
        .board
        .cells
        .iter()
        .all(|c| c.chip.is_none()));
    for (frame, &index) in replay.frames[1..].iter().zip(&moved) {
        assert_eq!(frame.action, Some(index));
        let last_move = frame.board.last_move.as_ref().expect("a last move");
        assert_eq!(
            Some(&last_move.cell),
            attached.actions[index].cell.as_ref(),
            "step {}",
            frame.turn
        );
    }
    // The last step is the board the game ended on.
    let end_game = attached.replay().expect("well formed").expect("legal");
    let layout = end_game.position().layout();
    let board = &replay.frames.last().expect("a step").board;
    for cell in &board.cells {
        let at = layout.parse_cell(&cell.name).expect("a cell");
        assert_eq!(cell.chip, end_game.position().owner(at), "{}", cell.name);
    }
    assert_eq!(
        replay.summary.sequences.len(),
        (0..2)
            .map(|t| end_game.position().sequence_count(t))
            .sum::<usize>()
    );
    let names: Vec<&str> = replay.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert!(
        names.contains(&"User1") && names.contains(&"User2"),
        "{names:?}"
    );
    assert_eq!(replay.teams.len(), 2);
    assert!(
        replay.teams[0].name.contains("Team"),
        "in German: {:?}",
        replay.teams[0]
    );
    let whole = serde_json::to_string(&replay).expect("serializes");
    assert!(!whole.contains("\"hand\""), "no hand in a replay");

    // `/sequence record` names the page too.
    let record = ask_in(&tables, GUILD, 150, 1, Command::Record { game: None });
    assert_eq!(
        private_links(&record),
        vec![(
            Label::Text(Text::ReplayLinkButton),
            format!("{BASE}/g/{token}")
        )]
    );

    // Turned off: the page answers nothing, and the record has no link.
    assert!(!ask_in(&tables, GUILD, 151, 1, web_links_off()).is_refusal());
    assert_eq!(tables.finished_of_web_token(&token, None), None);
    assert!(tables.record_of_web_token(&token, None).is_none());
    assert!(tables.replay_of_web_token(&token, Lang::En, None).is_none());
    // Still for the Activity of the game's own channel (inside Discord, not a public link); not for
    // another channel's.
    let own = Some(ChannelId(150));
    assert_eq!(tables.finished_of_web_token(&token, own), Some(GameId(id)));
    assert!(tables.record_of_web_token(&token, own).is_some());
    assert!(tables.replay_of_web_token(&token, Lang::En, own).is_some());
    assert_eq!(
        tables.finished_of_web_token(&token, Some(ChannelId(151))),
        None
    );
    let record = ask_in(&tables, GUILD, 150, 1, Command::Record { game: None });
    assert!(private_links(&record).is_empty());
    assert!(!record.is_refusal());
    // Not a token at all: nothing either.
    assert_eq!(tables.finished_of_web_token("../../etc", None), None);
}

/// A series: each game's final message links that game's own page, whose replay is that game, while
/// the table (the next game) has a page of its own that the earlier one leads to.
#[test]
fn each_game_of_a_series_links_its_own_replay() {
    let tables = new_tables(64);
    tables.set_web_base(Some(BASE.to_string()));
    let channel = 143;
    let start = Start::of(Variant::Kids).series(Some(3)).command();
    for (user, command) in [
        (1, start),
        (2, Command::Join { team: None }),
        (1, Command::Begin),
    ] {
        let reply = ask_in(&tables, GUILD, channel, user, command);
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    let first = tables.web_token(ChannelId(channel)).expect("a token");
    let end = play_on(&tables, channel, 64);
    // A final message's one link: the replay on the page of `token`.
    let replay_of = |token: &str| {
        vec![(
            Label::Text(Text::ReplayLinkButton),
            format!("{BASE}/g/{token}"),
        )]
    };
    let last = final_message(&end).expect("game 1's final message");
    assert_eq!(links(last), replay_of(&first), "game 1's page");
    let second = tables
        .web_token(ChannelId(channel))
        .expect("the series goes on");
    assert_ne!(second, first);
    let game = tables
        .finished_of_web_token(&first, None)
        .expect("game 1's page is its replay");
    let record = tables
        .record_of_web_token(&first, None)
        .map(|(id, _)| id)
        .expect("its record");
    assert_eq!(record, game);
    assert_eq!(tables.finished_of_web_token(&second, None), None);
    assert_eq!(tables.next_of_web_token(&first), Some(second.clone()));
    // Game 2 is played on its own page: its replay is another game than game 1's.
    let next = ask_in(&tables, GUILD, channel, 1, Command::NextGame);
    assert!(!next.is_refusal(), "{next:?}");
    let end = play_on(&tables, channel, 65);
    let last = final_message(&end).expect("game 2's final message");
    assert_eq!(links(last), replay_of(&second), "game 2's page");
    let later = tables
        .finished_of_web_token(&second, None)
        .expect("game 2's page is its replay");
    assert_ne!(later, game, "each page replays its own game");
    assert_eq!(tables.finished_of_web_token(&first, None), Some(game));
}
