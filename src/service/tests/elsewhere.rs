//! Tables another process holds (several processes on one database, each with some shards): a page
//! asked of this process finds the table by its web token in the store and shows it read-only with
//! the same rules per viewer as the process that holds it; acting on it from a page is refused and
//! changes nothing; it follows the owner's saves when read again, and is gone once the game is.

use std::sync::Arc;

use super::kit::{backends, join, random_human_action, start, tables_on, text_of, Asker, T0};
use crate::engine::{GameRng, Variant};
use crate::i18n::Lang;
use crate::service::{
    ChannelId, Command, FaceId, GuildId, Reply, Request, TableView, Tables, Text, UserId,
};
use crate::store::{ExclusiveClaim, ShardSet};

fn json(view: &TableView) -> serde_json::Value {
    serde_json::to_value(view).expect("a view serializes")
}

/// The views of `channel` for a watcher, each seated player and a stranger, as `tables` shows them.
fn views(tables: &Tables, channel: ChannelId) -> Vec<Option<serde_json::Value>> {
    [None, Some(UserId(1)), Some(UserId(2)), Some(UserId(999))]
        .into_iter()
        .map(|viewer| tables.view(channel, viewer, Lang::En, T0).map(|v| json(&v)))
        .collect()
}

#[test]
fn another_process_shows_a_table_it_does_not_hold_read_only() {
    // Shard 0 of 2 (server 77) is the owner's; the other process runs shard 1.
    let guild = GuildId(77);
    let here = Asker::server(guild);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    for (name, test) in backends("elsewhere") {
        let claim = |shard| {
            Arc::new(ExclusiveClaim::new(
                ShardSet::new(shard, shard, 2).expect("set"),
            ))
        };
        let owner = Arc::new(tables_on(test.store.clone(), 1).with_claim(claim(0)));
        let other = Arc::new(tables_on(test.store.clone(), 2).with_claim(claim(1)));
        let alone = Arc::new(tables_on(test.store.clone(), 3));
        assert!(owner.shares_store() && other.shares_store() && !alone.shares_store());
        let channel = ChannelId(10);
        assert!(!here
            .ask(&owner, 10, 1, start(Variant::Classic, None))
            .is_refusal());
        assert!(!here.ask(&owner, 10, 2, join(None)).is_refusal());
        let token = owner.web_token(channel).expect("a token");
        // Not held here, and not looked for in the store by a process that runs every shard.
        assert_eq!(other.channel_of_web_token(&token), None, "{name}");
        assert_eq!(
            runtime.block_on(alone.find_web_token(&token)),
            None,
            "{name}"
        );
        assert_eq!(
            runtime.block_on(other.find_web_token(&token)),
            Some(channel),
            "{name}"
        );
        assert!(other.held_elsewhere(channel) && !owner.held_elsewhere(channel));
        assert_eq!(
            views(&other, channel),
            views(&owner, channel),
            "{name}: the lobby"
        );
        assert!(!here.ask(&owner, 10, 1, Command::Begin).is_refusal());
        assert!(other.read_elsewhere(channel), "{name}");
        let before = other.version_elsewhere(channel).expect("a version");
        // The same views for everyone: a watcher and a stranger see no hand, each player their own.
        let shown = views(&other, channel);
        assert_eq!(shown, views(&owner, channel), "{name}: the game");
        assert!(shown[0].as_ref().expect("a view")["you"].is_null());
        assert!(shown[3].as_ref().expect("a view")["you"].is_null());
        assert!(!shown[1].as_ref().expect("a view")["you"].is_null());
        assert!(other.is_seated_in_game(channel, UserId(1)));
        assert!(!other.is_seated_in_game(channel, UserId(999)));
        // A move from a page of the other process: refused in words, nothing changes anywhere.
        let stored = test.store.live_table(10).expect("read").expect("there");
        let request = Request {
            guild: None,
            channel,
            actor: super::kit::test_actor(1),
            command: Command::Stop,
        };
        let (reply, pending) = runtime.block_on(other.serve(request, FaceId::Web));
        drop(pending);
        assert!(reply.is_refusal(), "{name}: {reply:?}");
        assert_eq!(
            text_of(&reply),
            text_of(&Reply::ephemeral(Text::PlayedElsewhere))
        );
        assert_eq!(
            test.store.live_table(10).expect("read").expect("there"),
            stored
        );
        assert!(
            other.snapshot(channel).is_none(),
            "{name}: never restored here"
        );
        // The owner's moves show once read again, with a greater version.
        let mut rng = GameRng::new(5);
        for _ in 0..3 {
            let (user, command) = random_human_action(&owner, 10, &mut rng).expect("a move");
            assert!(!here.ask(&owner, 10, user, command).is_refusal());
        }
        assert_ne!(
            views(&other, channel),
            views(&owner, channel),
            "{name}: not read yet"
        );
        assert!(other.read_elsewhere(channel));
        assert_eq!(
            views(&other, channel),
            views(&owner, channel),
            "{name}: read again"
        );
        assert!(other.version_elsewhere(channel).expect("a version") > before);
        // Stopped by its host: gone here too once read again.
        assert!(!here.ask(&owner, 10, 1, Command::Stop).is_refusal());
        assert!(!other.read_elsewhere(channel), "{name}");
        assert_eq!(other.view(channel, None, Lang::En, T0), None, "{name}");
        assert_eq!(
            runtime.block_on(other.find_web_token(&token)),
            None,
            "{name}"
        );
    }
}
