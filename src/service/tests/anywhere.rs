//! Issue 36, playing where the bot is no member: games outside a server are casual, the lists of a
//! server are not offered outside one, and a table where the bot may only answer interactions is
//! marked so, says so in its lobby and keeps the mark through a restart.

use crate::engine::Variant;
use crate::service::{Command, GuildId, Output, Text};
use crate::store::tests::sqlite_store;

use super::kit::{refusal, service, start, tables_on, Asker, Start, DM, T0};

const HERE: Asker = Asker::server(GuildId(77));

#[test]
fn outside_a_server_games_are_casual_and_a_rated_one_is_refused() {
    let tables = service(1);
    let rated = Start {
        rated: Some(true),
        ..Start::of(Variant::Classic)
    };
    let reply = DM.ask(&tables, 5, 1, rated.command());
    assert_eq!(refusal(&reply), Some(&Text::CasualOutsideServers));
    assert!(tables.snapshot(crate::service::ChannelId(5)).is_none(), "nothing opened");
    let reply = DM.ask(&tables, 5, 1, start(Variant::Classic, None));
    assert_eq!(refusal(&reply), None);
    let table = tables.snapshot(crate::service::ChannelId(5)).expect("a lobby");
    assert_eq!(table.setup.rated, Some(false), "casual, whatever the defaults");
    // In a server the choice stays the players' (and the server's default).
    let rated = Start {
        rated: Some(true),
        ..Start::of(Variant::Classic)
    };
    assert_eq!(refusal(&HERE.ask(&tables, 6, 1, rated.command())), None);
    let table = tables.snapshot(crate::service::ChannelId(6)).expect("a lobby");
    assert_eq!(table.setup.rated, Some(true));
}

#[test]
fn outside_a_server_the_lists_and_numbered_games_are_refused_but_this_chats_last_game_is_asked() {
    let t = sqlite_store("anywhere-lists").expect("sqlite");
    let tables = tables_on(t.store.clone(), 1);
    for command in [
        Command::Leaderboard,
        Command::History,
        Command::Record { game: Some(1) },
        Command::Replay { game: Some(1) },
    ] {
        let reply = DM.ask(&tables, 5, 1, command.clone());
        assert_eq!(refusal(&reply), Some(&Text::ServerOnlyLists), "{command:?}");
        // In a server they are what they were.
        let reply = HERE.ask(&tables, 6, 1, command.clone());
        assert_ne!(refusal(&reply), Some(&Text::ServerOnlyLists), "{command:?}");
    }
    // This chat's last game: none yet, said so (not refused as a list).
    for command in [Command::Record { game: None }, Command::Replay { game: None }] {
        let reply = DM.ask(&tables, 5, 1, command.clone());
        assert_eq!(refusal(&reply), Some(&Text::NoGameHere), "{command:?}");
    }
    // A player's own stats outside servers are theirs (casual games counted, no rating).
    let reply = DM.ask(&tables, 5, 1, Command::Stats { user: None });
    assert_eq!(refusal(&reply), None);
}

#[test]
fn a_table_where_the_bot_may_only_answer_is_marked_says_so_and_stays_marked_after_a_restart() {
    let t = sqlite_store("anywhere-mark").expect("sqlite");
    let first = tables_on(t.store.clone(), 1);
    let channel = crate::service::ChannelId(9);
    assert!(!first.is_answers_only(channel));
    first.note_answers_only(channel, true);
    assert!(first.is_answers_only(channel));
    let reply = DM.ask(&first, 9, 1, start(Variant::Classic, None));
    let lobby = reply
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Lobby { message, .. } => Some(message),
            _ => None,
        })
        .expect("a lobby card");
    assert!(lobby.lines.contains(&Text::AnswersOnly), "{lobby:?}");
    assert!(first.snapshot(channel).expect("a lobby").answers_only);
    // A lobby in a channel where the bot posts says nothing of the kind.
    let reply = HERE.ask(&first, 10, 1, start(Variant::Classic, None));
    let plain = reply.outputs.iter().any(|o| {
        matches!(o, Output::Lobby { message, .. } if !message.lines.contains(&Text::AnswersOnly))
    });
    assert!(plain);
    drop(first);

    // After a restart the mark comes from the stored table: nothing may be posted there.
    let second = tables_on(t.store.clone(), 2);
    second.restore_from_store(T0).expect("restore");
    assert!(second.is_answers_only(channel));
    assert!(!second.is_answers_only(crate::service::ChannelId(10)));
    // The server installs the bot: the channel is a channel again, and that is saved too.
    second.note_answers_only(channel, false);
    assert!(!second.is_answers_only(channel));
    drop(second);
    let third = tables_on(t.store.clone(), 3);
    third.restore_from_store(T0).expect("restore");
    assert!(!third.is_answers_only(channel));
}
