//! The server setting `replay_gif` (on by default): the animated replay of every finished, kept game
//! follows its final message; off, none is posted.

use super::kit::Start;
use std::sync::Arc;

use crate::engine::{MoveList, Variant};

use super::kit::{
    ask_in, channel_messages, command_for, refusal, seeded, test_settings, Asker, T0,
};
use crate::service::text::Text;
use crate::service::{
    ChannelId, Command, GuildId, Image, Output, Reply, ServerSettings, SettingsRequest, Tables,
    Timestamp, FORGET_AFTER_MS,
};

const GUILD: GuildId = GuildId(88);

/// Requests come from server [`GUILD`].
const HERE: Asker = Asker::server(GUILD);

/// Plays a two-player kids game in `channel` to its end with random legal moves: the last reply.
pub(super) fn play_to_the_end(tables: &Tables, channel: u64, seed: u64) -> Reply {
    let start = Start::of(Variant::Kids).command();
    assert!(!ask_in(tables, GUILD, channel, 1, start).is_refusal());
    assert!(!ask_in(tables, GUILD, channel, 2, Command::Join { team: None }).is_refusal());
    assert!(!ask_in(tables, GUILD, channel, 1, Command::Begin).is_refusal());
    play_on(tables, channel, seed)
}

/// Plays the game of people running in `channel` (server [`GUILD`]) to its end with random legal
/// moves: the last reply.
pub(super) fn play_on(tables: &Tables, channel: u64, seed: u64) -> Reply {
    let mut rng = crate::engine::GameRng::new(seed);
    for _ in 0..400 {
        let table = tables.snapshot(ChannelId(channel)).expect("the game runs");
        let game = table.playing().expect("playing");
        let live = game.live.game();
        let seat = live.position().to_move();
        let user = game.seats[usize::from(seat)].user().expect("a human");
        let mut legal = MoveList::new();
        live.view(seat).legal_moves(&mut legal);
        let mv = legal[rng.below(legal.len() as u32) as usize];
        let reply = ask_in(
            tables,
            GUILD,
            channel,
            user.0,
            command_for(mv, live.position().layout()),
        );
        assert!(!reply.is_refusal(), "{reply:?}");
        // Over: the table is gone, or waits for the next game of its series.
        if tables
            .snapshot(ChannelId(channel))
            .is_none_or(|t| t.is_between_games())
        {
            return reply;
        }
    }
    panic!("the game did not end");
}

pub(super) fn tables(seed: u64) -> Tables {
    let store: Arc<dyn crate::store::Store> =
        Arc::new(crate::store::SqliteStore::open_in_memory().expect("store"));
    seeded(test_settings(), seed).with_store(store)
}

#[test]
fn the_replay_gif_follows_the_final_message_by_default_and_not_when_turned_off() {
    let tables = tables(31);
    let reply = play_to_the_end(&tables, 120, 31);
    let posts = channel_messages(&reply);
    let at = posts
        .iter()
        .position(|m| m.attachment.is_some())
        .expect("the final message");
    let id = posts[at]
        .lines
        .iter()
        .find_map(|l| match l {
            Text::GameSaved { id } => Some(*id),
            _ => None,
        })
        .expect("the game was kept");
    // Right after the final message (which itself carries no picture to draw: it goes out at once).
    let follow_up = posts.get(at + 1).expect("a follow-up");
    assert_eq!(follow_up.lines, vec![Text::GameReplay { id }]);
    let Some(Image::Replay(replay)) = &follow_up.image else {
        panic!("no replay: {follow_up:?}");
    };
    let record: crate::engine::Record =
        serde_json::from_slice(&posts[at].attachment.as_ref().unwrap().data).unwrap();
    assert_eq!(replay.record, record);
    assert!(!matches!(posts[at].image, Some(Image::Replay(_))));
    // The GIF it stands for draws (what the Discord layer does on a blocking thread).
    let gif =
        crate::render::animate::animate(&replay.record, &[], crate::i18n::Lang::En).expect("drawn");
    assert!(gif.gif.starts_with(b"GIF89a"));

    // Turned off by an admin: shown in the settings, and no replay after the next game.
    let off = Command::Settings(SettingsRequest {
        changes: ServerSettings {
            replay_gif: Some(false),
            ..ServerSettings::default()
        },
        reset: false,
    });
    let changed = ask_in(&tables, GUILD, 121, 1, off);
    assert!(!changed.is_refusal(), "{changed:?}");
    let shown: String = changed
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Ephemeral(m) => Some(m.to_english()),
            _ => None,
        })
        .collect();
    assert!(
        shown.contains("animated replay after every game: no"),
        "{shown}"
    );
    let reply = play_to_the_end(&tables, 121, 32);
    let posts = channel_messages(&reply);
    assert!(posts.iter().any(|m| m.attachment.is_some()), "{posts:?}");
    assert!(
        posts
            .iter()
            .all(|m| !matches!(m.image, Some(Image::Replay(_)))),
        "{posts:?}"
    );
}

/// The slot of the replay a reply posts, if it posts one.
fn replay_slot(reply: &Reply) -> Option<Option<u64>> {
    channel_messages(reply).iter().find_map(|m| match &m.image {
        Some(Image::Replay(replay)) => Some(replay.slot),
        _ => None,
    })
}

/// Issue 33, point 4: `/sequence replay` was accepted 2.9 times a second from one member while one
/// animation is drawn at a time. At most one waits per member and three per server; a full queue is
/// answered politely; a slot is free again once the Discord layer posted the animation, or after
/// [`FORGET_AFTER_MS`].
#[test]
fn replays_asked_for_are_bounded_per_member_and_per_server() {
    let tables = tables(33);
    let reply = play_to_the_end(&tables, 130, 33);
    // The replay after the final message holds no slot.
    assert_eq!(replay_slot(&reply), Some(None));
    let replay = || Command::Replay { game: None };
    let first = ask_in(&tables, GUILD, 130, 1, replay());
    let slot = replay_slot(&first).flatten().expect("a slot");
    assert_eq!(
        refusal(&ask_in(&tables, GUILD, 130, 1, replay())).cloned(),
        Some(Text::ReplaysWaiting { max: 1 })
    );
    // A replay of a game that does not exist holds nothing.
    assert_eq!(
        refusal(&ask_in(
            &tables,
            GUILD,
            130,
            2,
            Command::Replay { game: Some(9999) }
        ))
        .cloned(),
        Some(Text::NoSuchGame(9999))
    );
    for user in [2, 3] {
        assert!(replay_slot(&ask_in(&tables, GUILD, 130, user, replay())).is_some());
    }
    let full = ask_in(&tables, GUILD, 130, 4, replay());
    assert_eq!(refusal(&full).cloned(), Some(Text::ReplaysBusy { max: 3 }));
    assert!(Text::ReplaysBusy { max: 3 }
        .render(crate::i18n::Lang::No)
        .contains("repriser"));
    // The first one was posted: its member may ask again (and the server has room for one).
    tables.replay_posted(slot);
    assert!(replay_slot(&ask_in(&tables, GUILD, 130, 1, replay())).is_some());
    assert_eq!(
        refusal(&ask_in(&tables, GUILD, 130, 4, replay())).cloned(),
        Some(Text::ReplaysBusy { max: 3 })
    );
    // Slots never given back are given up after a while.
    let later = Timestamp(T0.0 + FORGET_AFTER_MS);
    assert!(replay_slot(&HERE.ask_at(&tables, 130, 4, replay(), later)).is_some());
}

/// Issue 33, point 4: an aborted game (stopped before everyone made two moves) is kept in the
/// history, but no animation of it is queued.
#[test]
fn an_aborted_game_has_no_replay() {
    let tables = tables(34);
    let start = Start::of(Variant::Kids).command();
    assert!(!ask_in(&tables, GUILD, 131, 1, start).is_refusal());
    assert!(!ask_in(&tables, GUILD, 131, 2, Command::Join { team: None }).is_refusal());
    assert!(!ask_in(&tables, GUILD, 131, 1, Command::Begin).is_refusal());
    let reply = ask_in(&tables, GUILD, 131, 1, Command::Stop);
    let posts = channel_messages(&reply);
    let text: String = posts.iter().map(|m| m.to_english()).collect();
    assert!(text.contains("Aborted"), "{text}");
    assert!(
        posts
            .iter()
            .any(|m| m.lines.iter().any(|l| matches!(l, Text::GameSaved { .. }))),
        "kept: {posts:?}"
    );
    assert_eq!(replay_slot(&reply), None, "{posts:?}");
}
