//! Issue 36, playing where the bot is no member: games outside a server are casual, the lists of a
//! server are not offered outside one, and a table where the bot may only answer interactions is
//! marked so, says so in its lobby and keeps the mark through a restart.

use crate::engine::Variant;
use crate::service::{ChannelId, Command, GuildId, Output, Text, UserId};
use crate::store::tests::sqlite_store;

use super::kit::{lobby_output, refusal, service, start, tables_on, Asker, Start, DM, T0};

const HERE: Asker = Asker::server(GuildId(77));

#[test]
fn outside_a_server_games_are_casual_and_a_servers_lists_are_refused() {
    // A rated game is refused; any other start is made casual.
    let rated = Start {
        rated: Some(true),
        ..Start::of(Variant::Classic)
    };
    assert_eq!(
        rated.command().outside_servers(),
        Err(Text::CasualOutsideServers)
    );
    for asked in [None, Some(false)] {
        let start = Start {
            rated: asked,
            ..Start::of(Variant::Classic)
        };
        match start.command().outside_servers() {
            Ok(Command::Start { rated, .. }) => assert_eq!(rated, Some(false)),
            other => panic!("{other:?}"),
        }
    }
    // The lists of a server and numbered games (any chat's) are refused.
    for command in [
        Command::Leaderboard,
        Command::History,
        Command::Record { game: Some(1) },
        Command::Replay { game: Some(1) },
    ] {
        assert_eq!(
            command.clone().outside_servers(),
            Err(Text::ServerOnlyLists),
            "{command:?}"
        );
    }
    // This chat's last game, stats, profiles and everything else go through unchanged.
    for command in [
        Command::Record { game: None },
        Command::Replay { game: None },
        Command::Stats { user: None },
        Command::Board,
        Command::Leave,
    ] {
        assert_eq!(command.clone().outside_servers(), Ok(command));
    }
}

#[test]
fn a_casual_start_outside_a_server_opens_a_casual_lobby() {
    let tables = service(1);
    let start = Start {
        rated: None,
        ..Start::of(Variant::Classic)
    };
    let command = start.command().outside_servers().expect("a start");
    assert_eq!(refusal(&DM.ask(&tables, 5, 1, command)), None);
    let table = tables.snapshot(ChannelId(5)).expect("a lobby");
    assert_eq!(table.setup.rated, Some(false));
    // This chat's last game, asked outside a server: none yet, said so.
    let t = sqlite_store("anywhere-lists").expect("sqlite");
    let stored = tables_on(t.store.clone(), 1);
    let reply = DM.ask(&stored, 5, 1, Command::Record { game: None });
    assert_eq!(refusal(&reply), Some(&Text::NoGameHere));
}

#[test]
fn a_table_where_the_bot_may_only_answer_is_marked_says_so_and_stays_marked_after_a_restart() {
    let t = sqlite_store("anywhere-mark").expect("sqlite");
    let first = tables_on(t.store.clone(), 1);
    let channel = ChannelId(9);
    assert!(!first.is_answers_only(channel));
    first.note_answers_only(channel, true);
    assert!(first.is_answers_only(channel));
    let reply = DM.ask(&first, 9, 1, start(Variant::Classic, None));
    let lobby = lobby_output(&reply)
        .map(|(_, message)| message)
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
    assert!(!second.is_answers_only(ChannelId(10)));
    // The server installs the bot: the channel is a channel again, and that is saved too.
    second.note_answers_only(channel, false);
    assert!(!second.is_answers_only(channel));
    drop(second);
    let third = tables_on(t.store.clone(), 3);
    third.restore_from_store(T0).expect("restore");
    assert!(!third.is_answers_only(channel));
}

#[test]
fn a_challenge_where_the_bot_may_only_answer_is_marked_like_any_lobby() {
    // Every new lobby is placed the same way (a start, a challenge, a rematch): a challenge in a group
    // DM says so on its card and keeps the mark through a restart.
    let t = sqlite_store("anywhere-challenge").expect("sqlite");
    let first = tables_on(t.store.clone(), 1);
    let channel = ChannelId(11);
    first.note_answers_only(channel, true);
    let challenge = Command::Challenge {
        start: Box::new(start(Variant::Classic, None)),
        invited: vec![UserId(2)],
        bots: Vec::new(),
    };
    let reply = DM.ask(&first, 11, 1, challenge);
    let card = lobby_output(&reply)
        .map(|(_, message)| message)
        .expect("a lobby card");
    assert!(card.lines.contains(&Text::AnswersOnly), "{card:?}");
    assert_eq!(card.mentions, vec![UserId(2)]);
    assert!(first.snapshot(channel).expect("a lobby").answers_only);
    drop(first);
    let second = tables_on(t.store.clone(), 2);
    second.restore_from_store(T0).expect("restore");
    assert!(second.is_answers_only(channel));
}

/// Issue 44, point 19: outside servers `stats`, `profile` and `versus` show the chat's own games
/// only. Ann (1) and Bob (2) finish a game in one DM chat; in another chat neither has a profile,
/// a head to head or a game in their stats, and the chat they played in shows that one game.
#[test]
fn outside_servers_profile_versus_and_stats_are_the_chats_own() {
    use super::kit::play_classic_to_the_end;
    let t = sqlite_store("anywhere-chats").expect("sqlite");
    let tables = tables_on(t.store.clone(), 44);
    let (played, other) = (301, 302);
    play_classic_to_the_end(DM, &tables, played, [1, 2], None, 44);
    let profile = |channel: u64| DM.ask(&tables, channel, 1, Command::Profile { user: None });
    let versus = |channel: u64| DM.ask(&tables, channel, 1, Command::Versus { user: UserId(2) });
    assert_eq!(
        refusal(&profile(other)),
        Some(&Text::NoProfile {
            who: crate::service::Who::User(UserId(1))
        })
    );
    assert_eq!(
        refusal(&versus(other)),
        Some(&Text::NoVersus {
            other: crate::service::Who::User(UserId(2))
        })
    );
    let stats = DM.ask(&tables, other, 1, Command::Stats { user: None });
    assert!(
        matches!(&stats.outputs[..], [Output::Channel(m)]
            if matches!(&m.lines[0], Text::Stats { totals, .. } if totals.games == 0)),
        "{stats:?}"
    );
    // Where they played: the game, and its number in the head to head.
    assert!(refusal(&profile(played)).is_none(), "{:?}", profile(played));
    let shown = versus(played);
    assert!(refusal(&shown).is_none(), "{shown:?}");
    let stats = DM.ask(&tables, played, 1, Command::Stats { user: None });
    assert!(
        matches!(&stats.outputs[..], [Output::Channel(m)]
            if matches!(&m.lines[0], Text::Stats { totals, .. } if totals.games == 1)),
        "{stats:?}"
    );
}
