//! The service on a real store (SQLite always, PostgreSQL when `SEQUENCE_BOT_TEST_POSTGRES_URL` is set):
//! restore after a restart, saving before replying (and undoing when saving fails), finished games,
//! stats and history, and hundreds of games at once.

use super::kit::Start;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::engine::{GameRng, Move, MoveList, Options, Record, Variant};
use crate::store::tests::{postgres_store, sqlite_store, TestStore};
use crate::store::{
    ExclusiveClaim, FinishedGame, GameId, GameSummary, LeaderboardRow, Loaded, PlayerStats,
    Quarantined, ShardSet, Store, StoreError, StoredTable,
};

use crate::store::ShardClaim;

use super::kit::{
    backends, command_for, lock, seeded, start, tables_on, test_actor, test_settings, text_of,
    Asker, T0,
};
use crate::i18n::Lang;
use crate::service::{
    Actor, BotLevel, ChannelId, Command, GuildId, Image, Message, MovePicker, OnTimeout, Output,
    Player, RandomPicker, Reply, Request, ServerSettings, SettingsRequest, Tables, Text, Timestamp,
    UserId,
};

const GUILD: GuildId = GuildId(77);

/// Requests come from server [`GUILD`].
const HERE: Asker = Asker::server(GUILD);

fn at(seconds: u64) -> Timestamp {
    T0.after(Duration::from_secs(seconds))
}

/// The table in memory, as JSON.
fn table_json(tables: &Tables, channel: u64) -> Option<String> {
    tables
        .snapshot(ChannelId(channel))
        .map(|t| serde_json::to_string(&t).expect("json"))
}

/// The table as stored.
fn stored(store: &dyn Store, channel: u64) -> Option<String> {
    store
        .load_tables()
        .expect("load")
        .tables
        .into_iter()
        .find(|t| t.channel_id == channel)
        .map(|t| t.snapshot_json)
}

/// The next human action in a channel (a roll first in dice): who and what; `None` when a computer
/// player is to move or the table is not playing.
fn next_human_action(tables: &Tables, channel: u64, rng: &mut GameRng) -> Option<(u64, Command)> {
    let table = tables.snapshot(ChannelId(channel))?;
    let playing = table.playing()?;
    let game = playing.live.game();
    let seat = game.position().to_move();
    let user = playing.seats.get(usize::from(seat))?.user()?;
    if !game.config().variant.has_cards() && !playing.rolled {
        return Some((user.0, Command::Roll));
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let playable: Vec<Move> = moves.into_iter().filter(|m| *m != Move::Pass).collect();
    let mv = *playable.get(rng.below(playable.len() as u32) as usize)?;
    if mv == Move::Pass {
        return None;
    }
    Some((user.0, command_for(mv, game.position().layout())))
}

/// Plays `n` human actions in a channel; each must be accepted.
fn play_humans(tables: &Tables, channel: u64, n: usize, rng: &mut GameRng) {
    for _ in 0..n {
        let Some((user, command)) = next_human_action(tables, channel, rng) else {
            return;
        };
        let reply = HERE.ask(tables, channel, user, command);
        assert!(!reply.is_refusal(), "{reply:?}");
    }
}

/// Plays human actions until every human of the channel's game made two moves of their own.
fn play_until_everyone_moved(tables: &Tables, channel: u64, rng: &mut GameRng) {
    for _ in 0..100 {
        let table = tables.snapshot(ChannelId(channel)).expect("playing");
        let playing = table.playing().expect("playing");
        let seats = playing.live.game().config().players;
        if (0..seats).all(|s| playing.moves_made(s) >= 2) {
            return;
        }
        play_humans(tables, channel, 1, rng);
    }
    panic!("not every player moved");
}

#[test]
fn a_restart_restores_every_table_exactly() {
    for (backend, t) in backends("restore") {
        let first = tables_on(t.store.clone(), 1);
        let mut rng = GameRng::new(5);
        // A lobby, a classic game, a dice game (rolled, mid-turn), a kids game with a computer player.
        assert!(!HERE
            .ask(&first, 1, 1, start(Variant::Classic, None))
            .is_refusal());
        assert!(!HERE
            .ask(&first, 1, 2, Command::Join { team: Some(2) })
            .is_refusal());
        HERE.begin(&first, 2, start(Variant::Classic, None), &[1, 2], 0);
        play_humans(&first, 2, 7, &mut rng);
        HERE.begin(&first, 3, start(Variant::Dice, None), &[1, 2, 3], 0);
        play_humans(&first, 3, 5, &mut rng);
        assert!(!HERE
            .ask(&first, 4, 4, start(Variant::Kids, None))
            .is_refusal());
        assert!(!HERE
            .ask(&first, 4, 4, Command::AddBot { level: None })
            .is_refusal());
        assert!(!HERE.ask(&first, 4, 4, Command::Begin).is_refusal());
        let channels = [1u64, 2, 3, 4];
        let before: Vec<Option<String>> = channels.iter().map(|&c| table_json(&first, c)).collect();
        assert!(before.iter().all(Option::is_some));
        // Memory and database agree after every accepted action.
        for (&c, s) in channels.iter().zip(&before) {
            assert_eq!(&stored(&*t.store, c), s, "{backend}: channel {c}");
        }
        let hand_before = text_of(&HERE.ask(&first, 2, 1, Command::Hand));
        drop(first);

        let second = tables_on(t.store.clone(), 2);
        let restored = second.restore_from_store(at(60)).expect("restore");
        assert!(restored.lost.is_empty(), "{backend}: {:?}", restored.lost);
        let mut resumed = restored.resumed.clone();
        resumed.sort();
        assert_eq!(resumed, channels.map(ChannelId).to_vec(), "{backend}");
        let after: Vec<Option<String>> = channels.iter().map(|&c| table_json(&second, c)).collect();
        assert_eq!(after, before, "{backend}: the same tables, timers included");
        assert_eq!(
            text_of(&HERE.ask(&second, 2, 1, Command::Hand)),
            hand_before
        );

        // A note in every channel: the lobby is open, the games go on (with the board).
        let note = |c: u64| {
            restored
                .notes
                .iter()
                .find(|(ch, _)| *ch == ChannelId(c))
                .map(|(_, r)| r.clone())
                .unwrap_or_else(|| panic!("{backend}: no note in channel {c}"))
        };
        assert!(text_of(&note(1)).contains("lobby in this channel is still open"));
        let game_note = note(2);
        let text = text_of(&game_note);
        assert!(text.contains("goes on where it was"), "{text}");
        let table = second.snapshot(ChannelId(2)).expect("table");
        let playing = table.playing().expect("playing");
        let to_move = playing.seats[usize::from(playing.live.game().position().to_move())]
            .user()
            .expect("human");
        assert!(text.contains(&format!("<@{}>'s turn", to_move.0)), "{text}");
        assert!(text.contains("about 9 minutes left"), "{text}");
        match &game_note.outputs[0] {
            Output::Channel(m) => {
                assert_eq!(m.mentions, vec![to_move]);
                assert!(matches!(m.image, Some(Image::Board(_))));
            }
            other => panic!("{other:?}"),
        }
        // The kids game has the computer to move or the human: either way it is noted.
        note(4);
        // The game goes on, saved as before.
        play_humans(&second, 2, 2, &mut rng);
        assert_eq!(stored(&*t.store, 2), table_json(&second, 2));
    }
}

/// A store that fails on demand, around a real one.
struct Flaky {
    inner: Arc<dyn Store>,
    down: AtomicBool,
    /// How often a server's settings were read.
    settings_reads: AtomicUsize,
    /// Takes its time to save a server's settings, as a busy database would.
    slow_settings: AtomicBool,
}

impl Flaky {
    fn check(&self) -> Result<(), StoreError> {
        if self.down.load(Ordering::SeqCst) {
            Err(StoreError::Config("simulated outage".into()))
        } else {
            Ok(())
        }
    }
}

impl Store for Flaky {
    fn ping(&self) -> Result<(), StoreError> {
        self.check()?;
        self.inner.ping()
    }
    fn save_table(&self, table: &StoredTable) -> Result<(), StoreError> {
        self.check()?;
        self.inner.save_table(table)
    }
    fn delete_table(&self, channel_id: u64) -> Result<bool, StoreError> {
        self.check()?;
        self.inner.delete_table(channel_id)
    }
    fn channel_of_web_token(&self, token: &str) -> Result<Option<u64>, StoreError> {
        self.inner.channel_of_web_token(token)
    }
    fn live_table(
        &self,
        channel_id: u64,
    ) -> Result<Option<crate::store::LiveTableRead>, StoreError> {
        self.inner.live_table(channel_id)
    }
    fn finish_series(
        &self,
        guild_id: Option<u64>,
        results: &[(u64, bool)],
    ) -> Result<(), StoreError> {
        self.check()?;
        self.inner.finish_series(guild_id, results)
    }
    fn series_stats(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
    ) -> Result<crate::store::SeriesStats, StoreError> {
        self.check()?;
        self.inner.series_stats(guild_id, user_id)
    }
    fn load_tables_of(&self, shards: ShardSet) -> Result<Loaded, StoreError> {
        self.check()?;
        self.inner.load_tables_of(shards)
    }
    fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        self.check()?;
        self.inner.quarantined()
    }
    fn quarantine_table(&self, channel_id: u64, reason: &str) -> Result<bool, StoreError> {
        self.check()?;
        self.inner.quarantine_table(channel_id, reason)
    }
    fn finish_game(&self, game: &FinishedGame) -> Result<GameId, StoreError> {
        self.check()?;
        self.inner.finish_game(game)
    }
    fn unannounced_games(&self) -> Result<Vec<(GameId, FinishedGame)>, StoreError> {
        self.check()?;
        self.inner.unannounced_games()
    }
    fn mark_announced(&self, id: GameId) -> Result<(), StoreError> {
        self.check()?;
        self.inner.mark_announced(id)
    }
    fn save_agreement(&self, game: GameId, rows: &[(u64, u32, u32)]) -> Result<(), StoreError> {
        self.check()?;
        self.inner.save_agreement(game, rows)
    }
    fn recent_agreement(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        limit: u32,
    ) -> Result<crate::store::AgreementTotals, StoreError> {
        self.check()?;
        self.inner.recent_agreement(guild_id, user_id, limit)
    }
    fn game_record(&self, id: GameId, guild_id: Option<u64>) -> Result<Option<String>, StoreError> {
        self.check()?;
        self.inner.game_record(id, guild_id)
    }
    fn game_web_token(
        &self,
        id: GameId,
        guild_id: Option<u64>,
    ) -> Result<Option<String>, StoreError> {
        self.check()?;
        self.inner.game_web_token(id, guild_id)
    }
    fn game_of_web_token(
        &self,
        token: &str,
    ) -> Result<Option<crate::store::TokenGame>, StoreError> {
        self.check()?;
        self.inner.game_of_web_token(token)
    }
    fn rated_games_since(
        &self,
        guild_id: Option<u64>,
        since: i64,
    ) -> Result<Vec<Vec<(u64, u8)>>, StoreError> {
        self.check()?;
        self.inner.rated_games_since(guild_id, since)
    }
    fn latest_game_in_channel(
        &self,
        guild_id: Option<u64>,
        channel_id: u64,
    ) -> Result<Option<GameId>, StoreError> {
        self.check()?;
        self.inner.latest_game_in_channel(guild_id, channel_id)
    }
    fn recent_games(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        self.check()?;
        self.inner.recent_games(guild_id, limit)
    }
    fn player_stats(&self, guild_id: Option<u64>, user_id: u64) -> Result<PlayerStats, StoreError> {
        self.check()?;
        self.inner.player_stats(guild_id, user_id)
    }
    fn leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<LeaderboardRow>, StoreError> {
        self.check()?;
        self.inner.leaderboard(guild_id, limit)
    }
    fn player_rating(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        recent: u32,
    ) -> Result<Option<crate::store::RatingReport>, StoreError> {
        self.check()?;
        self.inner.player_rating(guild_id, user_id, recent)
    }
    fn rating_leaderboard(
        &self,
        guild_id: Option<u64>,
        limit: u32,
    ) -> Result<Vec<crate::store::RatingRow>, StoreError> {
        self.check()?;
        self.inner.rating_leaderboard(guild_id, limit)
    }
    fn server_settings(&self, guild_id: u64) -> Result<Option<String>, StoreError> {
        self.check()?;
        self.settings_reads.fetch_add(1, Ordering::SeqCst);
        self.inner.server_settings(guild_id)
    }
    fn set_aside_server_settings(
        &self,
        guild_id: u64,
        settings_json: &str,
        reason: &str,
    ) -> Result<bool, StoreError> {
        self.check()?;
        self.inner
            .set_aside_server_settings(guild_id, settings_json, reason)
    }
    fn damaged_settings(&self) -> Result<Vec<crate::store::DamagedSettings>, StoreError> {
        self.check()?;
        self.inner.damaged_settings()
    }
    fn save_server_settings(
        &self,
        guild_id: u64,
        settings_json: &str,
        change: &crate::store::SettingsChange,
    ) -> Result<(), StoreError> {
        self.check()?;
        if self.slow_settings.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(200));
        }
        self.inner
            .save_server_settings(guild_id, settings_json, change)
    }
    fn settings_log(
        &self,
        guild_id: u64,
        limit: u32,
    ) -> Result<Vec<crate::store::SettingsChange>, StoreError> {
        self.check()?;
        self.inner.settings_log(guild_id, limit)
    }
    fn profile(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
    ) -> Result<crate::store::Profile, StoreError> {
        self.check()?;
        self.inner.profile(guild_id, user_id)
    }
    fn versus(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
        other_id: u64,
    ) -> Result<crate::store::Versus, StoreError> {
        self.check()?;
        self.inner.versus(guild_id, user_id, other_id)
    }
    fn unlocked_in(
        &self,
        game: GameId,
    ) -> Result<Vec<(u64, crate::analysis::profile::Achievement)>, StoreError> {
        self.check()?;
        self.inner.unlocked_in(game)
    }
}

fn flaky(t: &TestStore) -> Arc<Flaky> {
    flaky_over(t.store.clone())
}

fn flaky_over(inner: Arc<dyn Store>) -> Arc<Flaky> {
    Arc::new(Flaky {
        inner,
        down: AtomicBool::new(false),
        settings_reads: AtomicUsize::new(0),
        slow_settings: AtomicBool::new(false),
    })
}

#[test]
fn when_saving_fails_nothing_changes_and_the_user_gets_an_apology() {
    for (backend, t) in backends("savefail") {
        let store = flaky(&t);
        let tables = tables_on(store.clone(), 3);
        // A lobby that cannot be saved is not opened.
        store.down.store(true, Ordering::SeqCst);
        let reply = HERE.ask(&tables, 1, 1, start(Variant::Classic, None));
        assert!(reply.is_refusal(), "{backend}");
        assert!(text_of(&reply).contains("could not save"), "{reply:?}");
        assert_eq!(table_json(&tables, 1), None);
        store.down.store(false, Ordering::SeqCst);
        assert_eq!(stored(&*t.store, 1), None);

        HERE.begin(&tables, 1, start(Variant::Classic, None), &[1, 2], 0);
        let mut rng = GameRng::new(9);
        play_humans(&tables, 1, 3, &mut rng);
        let before = table_json(&tables, 1);
        assert_eq!(stored(&*t.store, 1), before);

        // A move that cannot be saved is not made: same table in memory and in the database.
        store.down.store(true, Ordering::SeqCst);
        let (user, command) = next_human_action(&tables, 1, &mut rng).expect("a move");
        let reply = HERE.ask(&tables, 1, user, command.clone());
        assert!(reply.is_refusal(), "{backend}: {reply:?}");
        assert!(text_of(&reply).contains("could not save"));
        assert_eq!(
            table_json(&tables, 1),
            before,
            "{backend}: memory unchanged"
        );
        // Reading works without saving.
        assert!(!HERE.ask(&tables, 1, 1, Command::Status).is_refusal());
        // The reminder is not posted while it cannot be saved.
        assert!(tables.tick(at(150)).is_empty(), "{backend}");
        assert_eq!(table_json(&tables, 1), before);
        // Stop cannot close the game either.
        assert!(HERE.ask(&tables, 1, 1, Command::Stop).is_refusal());
        assert_eq!(table_json(&tables, 1), before);
        store.down.store(false, Ordering::SeqCst);
        assert_eq!(
            stored(&*t.store, 1),
            before,
            "{backend}: database unchanged"
        );

        // Once the database is back, the same move works, and the reminder comes.
        let reply = HERE.ask(&tables, 1, user, command);
        assert!(!reply.is_refusal(), "{backend}: {reply:?}");
        assert_eq!(stored(&*t.store, 1), table_json(&tables, 1));
        let due = tables.tick(at(150));
        assert!(
            due.iter()
                .any(|(_, r)| text_of(r).contains("still your turn")),
            "{backend}: {due:?}"
        );
        assert_eq!(stored(&*t.store, 1), table_json(&tables, 1));
    }
}

/// Issue 45.5: what the registry notes on a table outside a command (the lobby message's id, a hand
/// message's id, where the bot may post, a pause) is saved once when it changes it and not at all when
/// it changes nothing; a note the store refuses stays in memory, is logged as an error naming it, and
/// reaches the store with the table's next save.
#[test]
fn a_note_is_saved_once_and_one_the_store_refuses_stays_in_memory_until_the_next_save() {
    let recorder = Arc::new(super::kit::Recorder::default());
    let tables = seeded(test_settings(), 3).with_persist(recorder.clone());
    HERE.begin(&tables, 1, start(Variant::Classic, None), &[1, 2], 0);
    let channel = ChannelId(1);
    let saves = || lock(&recorder.saved).len();
    let notes: [(&str, &dyn Fn() -> bool); 4] = [
        ("lobby message", &|| {
            tables.set_lobby_message(channel, 5);
            true
        }),
        ("hand message", &|| {
            tables.set_hand_dm(channel, UserId(1), 6);
            true
        }),
        ("answers only", &|| {
            tables.note_answers_only(channel, true);
            true
        }),
        ("pause", &|| tables.pause(channel, at(10))),
    ];
    for (what, note) in notes {
        let before = saves();
        assert!(note(), "{what}");
        assert_eq!(saves(), before + 1, "{what}: saved once");
        note();
        assert_eq!(
            saves(),
            before + 1,
            "{what}: the same note again saves nothing"
        );
    }
    assert!(!tables.pause(channel, at(11)), "paused already");
    // Nothing is noted on a channel without a table.
    let before = saves();
    tables.set_lobby_message(ChannelId(2), 5);
    tables.set_hand_dm(ChannelId(2), UserId(1), 6);
    tables.note_answers_only(ChannelId(2), true);
    assert!(!tables.pause(ChannelId(2), at(10)));
    assert_eq!(saves(), before);

    for (backend, t) in backends("notefail") {
        let store = flaky(&t);
        let tables = tables_on(store.clone(), 3);
        HERE.begin(&tables, 1, start(Variant::Classic, None), &[1, 2], 0);
        let saved = stored(&*t.store, 1);
        assert_eq!(saved, table_json(&tables, 1), "{backend}");
        store.down.store(true, Ordering::SeqCst);
        let logged = warnings_of(|| {
            tables.set_lobby_message(channel, 77);
            tables.set_hand_dm(channel, UserId(1), 88);
            tables.note_answers_only(channel, true);
            assert!(tables.pause(channel, at(10)), "{backend}");
        });
        for what in [
            "the lobby message id",
            "the hand message id",
            "where the bot may post",
            "the pause",
        ] {
            let lines: Vec<&str> = logged
                .lines()
                .filter(|l| l.contains(&format!("cannot save {what}: ")))
                .collect();
            assert_eq!(lines.len(), 1, "{backend}: {what}: {logged}");
            assert!(lines[0].contains("ERROR"), "{backend}: {what}: {logged}");
        }
        let table = tables.snapshot(channel).expect("a table");
        assert_eq!(table.lobby_message, Some(77), "{backend}");
        assert!(table.answers_only, "{backend}");
        assert!(table.paused.is_some(), "{backend}");
        let playing = table.playing().expect("playing");
        assert!(playing.hand_dms.contains(&(UserId(1), 88)), "{backend}");
        store.down.store(false, Ordering::SeqCst);
        assert_eq!(
            stored(&*t.store, 1),
            saved,
            "{backend}: nothing reached the store"
        );
        // The next note that is saved carries them all.
        tables.set_lobby_message(channel, 78);
        assert_eq!(stored(&*t.store, 1), table_json(&tables, 1), "{backend}");
        let stored_table = stored(&*t.store, 1).expect("stored");
        assert!(stored_table.contains("\"answers_only\":true"), "{backend}");
    }
}

#[test]
fn a_computer_move_that_cannot_be_saved_is_undone_and_played_later() {
    for (backend, t) in backends("autofail") {
        let store = flaky(&t);
        let tables = tables_on(store.clone(), 4);
        assert!(!HERE
            .ask(&tables, 1, 1, start(Variant::Classic, None))
            .is_refusal());
        assert!(!HERE
            .ask(&tables, 1, 1, Command::AddBot { level: None })
            .is_refusal());
        assert!(!HERE.ask(&tables, 1, 1, Command::Begin).is_refusal());
        let mut rng = GameRng::new(2);
        // The human plays until the computer is to move (an exchange keeps the turn).
        for _ in 0..10 {
            let Some((user, command)) = next_human_action(&tables, 1, &mut rng) else {
                break;
            };
            assert!(!HERE.ask(&tables, 1, user, command).is_refusal());
        }
        let before = table_json(&tables, 1);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        store.down.store(true, Ordering::SeqCst);
        let reply = runtime.block_on(tables.auto_step(ChannelId(1), T0));
        assert!(reply.is_none(), "{backend}: {reply:?}");
        assert_eq!(table_json(&tables, 1), before, "{backend}");
        store.down.store(false, Ordering::SeqCst);
        assert_eq!(stored(&*t.store, 1), before);
        let reply = runtime
            .block_on(tables.auto_step(ChannelId(1), T0))
            .expect("the computer moves once the database is back");
        assert!(text_of(&reply).contains("Computer 1"), "{reply:?}");
        assert_ne!(table_json(&tables, 1), before);
        assert_eq!(stored(&*t.store, 1), table_json(&tables, 1), "{backend}");
        drop(runtime);
    }
}

/// Plays a two-player classic game (one sequence wins) to its end; returns the final reply.
fn play_to_the_end(tables: &Tables, channel: u64, users: [u64; 2], seed: u64) -> Reply {
    play_rated(tables, channel, users, seed, None)
}

/// [`play_to_the_end`] with the lobby's `rated` option.
fn play_rated(
    tables: &Tables,
    channel: u64,
    users: [u64; 2],
    seed: u64,
    rated: Option<bool>,
) -> Reply {
    let command = Start {
        options: Options {
            sequences_to_win: Some(1),
            ..Options::default()
        },
        rated,
        ..Start::of(Variant::Classic)
    }
    .command();
    assert!(!HERE.ask(tables, channel, users[0], command).is_refusal());
    assert!(!HERE
        .ask(tables, channel, users[1], Command::Join { team: None })
        .is_refusal());
    assert!(!HERE
        .ask(tables, channel, users[0], Command::Begin)
        .is_refusal());
    let mut rng = GameRng::new(seed);
    for _ in 0..1000 {
        let (user, command) = next_human_action(tables, channel, &mut rng).expect("a move");
        let reply = HERE.ask(tables, channel, user, command);
        assert!(!reply.is_refusal(), "{reply:?}");
        if tables.snapshot(ChannelId(channel)).is_none() {
            return reply;
        }
    }
    panic!("the game did not end");
}

#[test]
fn ratings_show_in_stats_and_rank_the_leaderboard_and_casual_games_do_not_count() {
    for (backend, t) in backends("ratings") {
        let tables = tables_on(t.store.clone(), 7);
        let stats = |user: u64| {
            text_of(&HERE.ask(
                &tables,
                30,
                user,
                Command::Stats {
                    user: Some(UserId(user)),
                },
            ))
        };
        // A casual game between two humans: stats count it, ratings do not.
        play_rated(&tables, 31, [1, 2], 3, Some(false));
        let text = stats(1);
        assert!(text.contains("1 game"), "{backend}: {text}");
        assert!(text.contains("No rated game yet"), "{backend}: {text}");
        assert!(text_of(&HERE.ask(&tables, 30, 1, Command::Leaderboard)).contains("No rated games"));

        // A rated game (the default between humans): the winner leads, both provisional.
        play_to_the_end(&tables, 32, [1, 2], 4);
        let game = t.store.recent_games(Some(GUILD.0), 1).expect("games");
        let winner = game[0]
            .players
            .iter()
            .find(|p| p.won)
            .expect("a winner")
            .user_id;
        let loser = 3 - winner;
        let text = stats(winner);
        assert!(text.contains("after 1 rated game"), "{backend}: {text}");
        assert!(text.contains("(provisional)"), "{text}");
        assert!(
            text.contains("change in the latest rated game: +"),
            "{text}"
        );
        let board = text_of(&HERE.ask(&tables, 30, 1, Command::Leaderboard));
        assert!(
            board.contains(&format!("1. <@{winner}> — rating **")),
            "{backend}: {board}"
        );
        assert!(
            board.contains(&format!("2. <@{loser}> — rating **")),
            "{board}"
        );
        assert!(
            board.contains("(provisional) after 1 rated game · "),
            "{board}"
        );
        // The numbers are the store's on the shown scale: 1,500 for a new player, whole numbers; the
        // loser of a first game stays well above 0 (issue 44: "Rating −3.1 (provisional)").
        for (user, text) in [(winner, &text), (loser, &stats(loser))] {
            let r = t
                .store
                .player_rating(Some(GUILD.0), user, 5)
                .expect("rating")
                .expect("rated");
            let points = crate::store::rating::shown_rating(r.rating.conservative());
            assert!((1000..2000).contains(&points), "{points}: {text}");
            assert!(
                (user == winner) == (points > 1500),
                "{user} {winner}: {points}"
            );
            let shown = format!("rating **{points}** (provisional)");
            assert!(text.contains(&shown), "{shown} in {text}");
            assert!(
                board.contains(&format!("<@{user}> — {shown}")),
                "{shown} in {board}"
            );
        }
    }
}

#[test]
fn finished_games_feed_stats_history_and_records() {
    for (backend, t) in backends("finished") {
        let tables = tables_on(t.store.clone(), 5);
        let last = play_to_the_end(&tables, 10, [1, 2], 1);
        let text = text_of(&last);
        assert!(text.contains("Saved as game #"), "{backend}: {text}");
        assert!(stored(&*t.store, 10).is_none(), "the live table is gone");
        let games = t.store.recent_games(Some(GUILD.0), 10).expect("games");
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert!(text.contains(&format!("game #{}", game.id.0)), "{text}");
        assert_eq!(game.channel_id, 10);
        let winners: Vec<u64> = game
            .players
            .iter()
            .filter(|p| p.won)
            .map(|p| p.user_id)
            .collect();
        assert_eq!(winners.len(), 1, "{:?}", game.players);
        let winner = winners[0];
        assert!(game.players.iter().any(|p| p.won && p.sequences >= 1));

        // A second game in another channel, given up by user 2: user 1 wins it and user 2 keeps the loss.
        HERE.begin(&tables, 11, start(Variant::Classic, None), &[1, 2], 0);
        // Past the abort window: both made two moves.
        play_until_everyone_moved(&tables, 11, &mut GameRng::new(11));
        let reply = HERE.ask(&tables, 11, 2, Command::Forfeit { game: None });
        assert!(text_of(&reply).contains("Saved as game #"), "{reply:?}");
        let games = t.store.recent_games(Some(GUILD.0), 10).expect("games");
        assert_eq!(games.len(), 2);
        let forfeit = games.iter().find(|g| g.channel_id == 11).expect("game 2");
        let seat_of = |user: u64| {
            forfeit
                .players
                .iter()
                .find(|p| p.user_id == user)
                .unwrap_or_else(|| panic!("user {user} in {:?}", forfeit.players))
        };
        assert!(seat_of(1).won);
        assert!(!seat_of(2).won);

        // Stats, publicly in the channel.
        let reply = HERE.ask(&tables, 12, 1, Command::Stats { user: None });
        assert!(matches!(&reply.outputs[..], [Output::Channel(_)]));
        let wins1 = 1 + u32::from(winner == 1);
        let text = text_of(&reply);
        assert!(
            text.contains(&format!("<@1> on this server: 2 games, {wins1} win")),
            "{text}"
        );
        let text = text_of(&HERE.ask(
            &tables,
            12,
            1,
            Command::Stats {
                user: Some(UserId(9)),
            },
        ));
        assert!(text.contains("<@9> has not finished a game"), "{text}");
        let text = text_of(&HERE.ask(&tables, 12, 1, Command::Leaderboard));
        assert!(text.contains("1. <@1>"), "{text}");
        assert!(text.contains("2. <@2>"), "{text}");
        let text = text_of(&HERE.ask(&tables, 12, 1, Command::History));
        assert!(text.contains(&format!("#{}", forfeit.id.0)), "{text}");
        assert!(text.contains("won by <@1>"), "{text}");
        assert!(
            text.contains("<@1> and <@2>") || text.contains("<@2> and <@1>"),
            "{text}"
        );

        // Records: the latest of the channel by default, privately, as the game was played.
        let reply = HERE.ask(&tables, 11, 2, Command::Record { game: None });
        let [Output::Ephemeral(message)] = &reply.outputs[..] else {
            panic!("{reply:?}");
        };
        let attachment = message.attachment.as_ref().expect("the record");
        let record =
            Record::from_json(std::str::from_utf8(&attachment.data).expect("utf-8")).expect("json");
        assert!(record.replay().expect("well formed").is_ok());
        assert!(message
            .to_english()
            .contains(&format!("game #{}", forfeit.id.0)));
        let reply = HERE.ask(
            &tables,
            12,
            2,
            Command::Record {
                game: Some(game.id.0),
            },
        );
        assert!(!reply.is_refusal(), "{reply:?}");
        assert_refusal(
            &HERE.ask(&tables, 12, 2, Command::Record { game: None }),
            "No finished game of this channel",
        );
        assert_refusal(
            &HERE.ask(
                &tables,
                12,
                2,
                Command::Record {
                    game: Some(999_999),
                },
            ),
            "no finished game #999999",
        );
        // Another server sees none of it.
        let elsewhere = tables.handle(
            Request {
                guild: Some(GuildId(5)),
                channel: ChannelId(10),
                actor: test_actor(1),
                command: Command::Record {
                    game: Some(game.id.0),
                },
            },
            T0,
        );
        assert!(elsewhere.is_refusal());
    }
    // Without a database there is nothing to show, politely.
    let tables = seeded(test_settings(), 1);
    assert_refusal(
        &HERE.ask(&tables, 1, 1, Command::Leaderboard),
        "without a database",
    );
}

fn assert_refusal(reply: &Reply, contains: &str) {
    assert!(reply.is_refusal(), "{reply:?}");
    assert!(text_of(reply).contains(contains), "{}", text_of(reply));
}

#[test]
fn timers_resume_and_a_turn_that_ran_out_while_down_gets_time() {
    for (backend, t) in backends("timers") {
        let first = tables_on(t.store.clone(), 6);
        HERE.begin(&first, 1, start(Variant::Classic, None), &[1, 2], 0);
        HERE.begin(&first, 2, start(Variant::Classic, None), &[3, 4], 0);
        assert!(!HERE
            .ask(&first, 3, 5, start(Variant::Dice, None))
            .is_refusal());
        drop(first);

        // Back after an hour: channel 1's turn ran out while down.
        let later = at(3600);
        let second = tables_on(t.store.clone(), 7);
        let restored = second.restore_from_store(later).expect("restore");
        assert_eq!(restored.resumed.len(), 3, "{backend}");
        let table = second.snapshot(ChannelId(1)).expect("table");
        let playing = table.playing().expect("playing");
        let settings = test_settings();
        assert_eq!(
            playing.turn_started.after(settings.turn_timeout),
            later.after(settings.turn_timeout - settings.turn_reminder),
            "the player gets the time a reminded player has"
        );
        assert!(playing.reminded);
        let note = restored
            .notes
            .iter()
            .find(|(c, _)| *c == ChannelId(1))
            .expect("note");
        assert!(
            text_of(&note.1).contains("about 8 minutes left"),
            "{note:?}"
        );
        assert!(!note.1.auto_move, "no computer move at once");
        // Saved, so a second restart keeps the new deadline.
        assert_eq!(stored(&*t.store, 1), table_json(&second, 1), "{backend}");
        // The expired lobby gets no note; the next tick closes it (and forgets it in the database).
        assert!(!restored.notes.iter().any(|(c, _)| *c == ChannelId(3)));
        let due = second.tick(later);
        assert!(due
            .iter()
            .any(|(c, r)| *c == ChannelId(3) && text_of(r).contains("did not start in time")));
        assert_eq!(stored(&*t.store, 3), None);
        // Nothing else is due yet; after the grace, the computer plays the turn.
        assert!(!due.iter().any(|(_, r)| r.auto_move));
        let due = second.tick(later.after(Duration::from_secs(481)));
        assert!(due.iter().any(|(c, r)| *c == ChannelId(1) && r.auto_move));
    }
}

#[test]
fn a_restart_within_the_turn_keeps_the_deadline() {
    let t = sqlite_store("deadline").expect("sqlite");
    let first = tables_on(t.store.clone(), 8);
    HERE.begin(&first, 1, start(Variant::Classic, None), &[1, 2], 0);
    let turn_started = first
        .snapshot(ChannelId(1))
        .and_then(|t| t.playing().map(|p| p.turn_started))
        .expect("playing");
    drop(first);
    let second = tables_on(t.store.clone(), 9);
    second.restore_from_store(at(200)).expect("restore");
    let table = second.snapshot(ChannelId(1)).expect("table");
    assert_eq!(table.playing().expect("playing").turn_started, turn_started);
    // The reminder (due at 120 s) comes with the next tick, the timeout at 600 s.
    let due = second.tick(at(201));
    assert!(due
        .iter()
        .any(|(_, r)| text_of(r).contains("still your turn")));
    assert!(!due.iter().any(|(_, r)| r.auto_move));
    assert!(second.tick(at(600)).iter().any(|(_, r)| r.auto_move));
}

#[test]
fn tables_that_cannot_be_restored_are_set_aside_with_a_note() {
    for (backend, t) in backends("setaside") {
        let first = tables_on(t.store.clone(), 10);
        HERE.begin(&first, 1, start(Variant::Classic, None), &[1, 2], 0);
        let good = table_json(&first, 1);
        drop(first);
        let record = Record::random_game(
            crate::engine::Config::new(Variant::Classic, 2, None, Options::default())
                .expect("config"),
            3,
        );
        let mut partial = record.clone();
        partial.actions.truncate(4);
        let record_json = serde_json::to_string(&partial).expect("json");
        // A snapshot this version cannot read; a record that does not replay.
        t.store
            .save_table(&StoredTable {
                channel_id: 2,
                guild_id: Some(GUILD.0),
                record_json: record_json.clone(),
                snapshot_json: r#"{"phase":"from the future"}"#.into(),
                updated_at: 1,
                web_token: None,
            })
            .expect("save");
        let mut illegal = partial.clone();
        let last = illegal.actions.last().cloned().expect("action");
        illegal.actions.push(last);
        t.store
            .save_table(&StoredTable {
                channel_id: 3,
                guild_id: Some(GUILD.0),
                record_json: serde_json::to_string(&illegal).expect("json"),
                snapshot_json: "{}".into(),
                updated_at: 1,
                web_token: None,
            })
            .expect("save");

        let second = tables_on(t.store.clone(), 11);
        let restored = second.restore_from_store(at(10)).expect("restore");
        assert_eq!(restored.resumed, vec![ChannelId(1)], "{backend}");
        assert_eq!(table_json(&second, 1), good);
        let mut lost: Vec<u64> = restored.lost.iter().map(|(c, _)| c.0).collect();
        lost.sort();
        assert_eq!(lost, vec![2, 3], "{backend}");
        for channel in [2, 3] {
            let note = restored
                .notes
                .iter()
                .find(|(c, _)| *c == ChannelId(channel))
                .expect("a note");
            assert!(text_of(&note.1).contains("could not be restored"));
            assert!(table_json(&second, channel).is_none());
        }
        // Kept in the quarantine, with the reason; not loaded again.
        let kept = t.store.quarantined().expect("quarantine");
        assert_eq!(kept.len(), 2, "{backend}: {kept:?}");
        assert!(kept
            .iter()
            .any(|q| q.channel_id == 2 && q.reason.contains("snapshot cannot be read")));
        let third = tables_on(t.store.clone(), 12);
        let again = third.restore_from_store(at(20)).expect("restore");
        assert!(again.lost.is_empty());
        assert_eq!(again.resumed, vec![ChannelId(1)]);
    }
}

#[test]
fn hundreds_of_games_at_once_save_without_errors_and_restore_exactly() {
    const GAMES: u64 = 300;
    const THREADS: u64 = 12;
    const ACTIONS: usize = 10;
    for (backend, t) in backends("concurrent") {
        let tables = Arc::new(tables_on(t.store.clone(), 13));
        let workers: Vec<_> = (0..THREADS)
            .map(|w| {
                let tables = Arc::clone(&tables);
                std::thread::spawn(move || -> Vec<String> {
                    let mine: Vec<u64> = (0..GAMES).filter(|c| c % THREADS == w).collect();
                    let mut problems = Vec::new();
                    let mut check = |channel: u64, reply: Reply| {
                        if reply.is_refusal() {
                            problems.push(format!("channel {channel}: {}", text_of(&reply)));
                        }
                    };
                    let variant = |c: u64| match c % 3 {
                        0 => Variant::Classic,
                        1 => Variant::Dice,
                        _ => Variant::Kids,
                    };
                    // Every game opens, fills and starts, interleaved with the others of this thread.
                    for &c in &mine {
                        check(
                            c,
                            HERE.ask(&tables, 1000 + c, 2 * c + 1, start(variant(c), None)),
                        );
                    }
                    for &c in &mine {
                        check(
                            c,
                            HERE.ask(&tables, 1000 + c, 2 * c + 2, Command::Join { team: None }),
                        );
                    }
                    for &c in &mine {
                        check(c, HERE.ask(&tables, 1000 + c, 2 * c + 1, Command::Begin));
                    }
                    let mut rng = GameRng::new(w);
                    for _ in 0..ACTIONS {
                        for &c in &mine {
                            if let Some((user, command)) =
                                next_human_action(&tables, 1000 + c, &mut rng)
                            {
                                check(c, HERE.ask(&tables, 1000 + c, user, command));
                            }
                        }
                    }
                    // Every tenth game is stopped: a finished game stored while others write.
                    for &c in mine.iter().filter(|c| *c % 10 == 0) {
                        if tables.snapshot(ChannelId(1000 + c)).is_none() {
                            continue; // won already
                        }
                        check(c, HERE.ask(&tables, 1000 + c, 2 * c + 1, Command::Stop));
                    }
                    problems
                })
            })
            .collect();
        let problems: Vec<String> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("no panic"))
            .collect();
        assert!(
            problems.is_empty(),
            "{backend}: {} refused, first: {:?}",
            problems.len(),
            problems.first()
        );
        // Every game is either still live or finished (stopped, or, rarely, won already).
        let games = t.store.recent_games(Some(GUILD.0), 1000).expect("games");
        let finished = games.len() as u64;
        assert!(finished >= GAMES / 10, "{backend}: {finished}");
        assert_eq!(tables.len() as u64, GAMES - finished, "{backend}");

        // A fresh service on the same database restores every game exactly as it is in memory.
        let fresh = tables_on(t.store.clone(), 14);
        let restored = fresh.restore_from_store(at(30)).expect("restore");
        assert!(restored.lost.is_empty(), "{backend}: {:?}", restored.lost);
        assert_eq!(restored.resumed.len() as u64, GAMES - finished);
        for c in 0..GAMES {
            let channel = 1000 + c;
            assert_eq!(
                table_json(&fresh, channel),
                table_json(&tables, channel),
                "{backend}: channel {channel}"
            );
        }
    }
}

#[test]
fn a_game_whose_end_was_not_posted_is_announced_after_a_restart_once() {
    for (backend, t) in backends("unannounced") {
        let tables = tables_on(t.store.clone(), 9);
        // Won, and the process dies before the final message is posted (nothing marks it).
        let last = play_to_the_end(&tables, 10, [1, 2], 3);
        let final_message = last
            .outputs
            .iter()
            .find_map(|o| match o {
                Output::Channel(m) if m.announced_game().is_some() => Some(m.clone()),
                _ => None,
            })
            .expect("the final message names the game");
        let id = final_message.announced_game().expect("id");
        // Stopped by the host, and posted: marked.
        HERE.begin(&tables, 20, start(Variant::Classic, None), &[3, 4], 0);
        let stopped = HERE.ask(&tables, 20, 3, Command::Stop);
        for output in &stopped.outputs {
            if let Output::Channel(m) = output {
                if let Some(posted) = m.announced_game() {
                    tables.mark_announced(posted);
                }
            }
        }
        drop(tables);

        let second = tables_on(t.store.clone(), 10);
        let restored = second.restore_from_store(at(60)).expect("restore");
        let notes: Vec<&(ChannelId, Reply)> = restored
            .notes
            .iter()
            .filter(|(_, reply)| text_of(reply).contains("restarting"))
            .collect();
        assert_eq!(notes.len(), 1, "{backend}: only the unposted game");
        let (channel, reply) = notes[0];
        assert_eq!(*channel, ChannelId(10), "{backend}");
        let Some(Output::Channel(message)) = reply.outputs.first() else {
            panic!("{backend}: a channel message");
        };
        assert_eq!(message.announced_game(), Some(id), "{backend}");
        assert!(
            matches!(message.image, Some(Image::Board(_))),
            "{backend}: the final board"
        );
        assert!(message.attachment.is_some(), "{backend}: the record");
        // The same result as the final message would have said.
        let won = |m: &Message| {
            m.lines
                .iter()
                .find(|l| matches!(l, Text::Won { .. }))
                .cloned()
        };
        assert!(won(message).is_some(), "{backend}: {:?}", message.lines);
        assert_eq!(won(message), won(&final_message), "{backend}");
        // Posted now: not again.
        second.mark_announced(id);
        let third = tables_on(t.store.clone(), 11);
        let again = third.restore_from_store(at(90)).expect("restore");
        assert!(
            again
                .notes
                .iter()
                .all(|(_, reply)| !text_of(reply).contains("restarting")),
            "{backend}"
        );
    }
}

fn admin(id: u64) -> Actor {
    Actor {
        can_manage_guild: true,
        ..test_actor(id)
    }
}

/// A request that changes `changes` (no reset).
fn change(changes: ServerSettings) -> SettingsRequest {
    SettingsRequest {
        changes,
        reset: false,
    }
}

fn settings_as(tables: &Tables, who: Actor, request: SettingsRequest) -> Reply {
    tables.handle(
        Request {
            guild: Some(GUILD),
            channel: ChannelId(1),
            actor: who,
            command: Command::Settings(request),
        },
        T0,
    )
}

#[test]
fn server_settings_need_manage_server_are_checked_logged_kept_and_used() {
    for (backend, t) in backends("server_settings") {
        let tables = tables_on(t.store.clone(), 3);
        let unchanged = |tables: &Tables| {
            assert_eq!(
                t.store.server_settings(GUILD.0).expect("read"),
                None,
                "{backend}"
            );
            assert!(t.store.settings_log(GUILD.0, 10).expect("log").is_empty());
            assert_eq!(tables.settings_for(Some(GUILD)), *tables.settings());
        };
        // A plain member may neither look nor change (the service checks again what Discord hides).
        let timeout = change(ServerSettings {
            turn_timeout_secs: Some(300),
            ..ServerSettings::default()
        });
        for request in [SettingsRequest::default(), timeout.clone()] {
            assert_refusal(
                &settings_as(&tables, test_actor(2), request),
                "Manage Server",
            );
        }
        let in_dm = tables.handle(
            Request {
                guild: None,
                channel: ChannelId(1),
                actor: admin(1),
                command: Command::Settings(timeout),
            },
            T0,
        );
        assert!(in_dm.is_refusal(), "{in_dm:?}");
        unchanged(&tables);

        // An admin sees the operator's defaults, privately.
        let shown = settings_as(&tables, admin(1), SettingsRequest::default());
        assert!(
            matches!(&shown.outputs[..], [Output::Ephemeral(_)]),
            "{shown:?}"
        );
        let text = text_of(&shown);
        for part in [
            "turn reminder after 120 seconds",
            "after 600 seconds",
            "lobby closes after 1800 seconds",
            "games with humans on at least two teams",
            "the server's language",
            "thinking time per move: the bot's default",
        ] {
            assert!(text.contains(part), "{part} in {text}");
        }

        // Values out of range, and a reminder not before the timeout: clear refusals, nothing changed.
        let refused = [
            (
                change(ServerSettings {
                    turn_reminder_secs: Some(5),
                    ..ServerSettings::default()
                }),
                "`turn_reminder` must be between 10 and 86400 s",
            ),
            (
                change(ServerSettings {
                    turn_timeout_secs: Some(10),
                    ..ServerSettings::default()
                }),
                "`turn_timeout` must be between 30 and 604800 s",
            ),
            (
                change(ServerSettings {
                    lobby_timeout_secs: Some(100_000),
                    ..ServerSettings::default()
                }),
                "`lobby_timeout` must be between 60 and 86400 s",
            ),
            (
                change(ServerSettings {
                    thinking_ms: Some(60_000),
                    ..ServerSettings::default()
                }),
                "`thinking_time` must be between 100 and 5000 ms",
            ),
            (
                change(ServerSettings {
                    turn_reminder_secs: Some(600),
                    ..ServerSettings::default()
                }),
                "The turn reminder (600 s) must come before the turn timeout (600 s)",
            ),
            (
                // Below the reminder in force (the operator's 120 s).
                change(ServerSettings {
                    turn_timeout_secs: Some(100),
                    variant: Some(Variant::Dice),
                    ..ServerSettings::default()
                }),
                "The turn reminder (120 s) must come before the turn timeout (100 s)",
            ),
        ];
        for (request, says) in refused {
            assert_refusal(&settings_as(&tables, admin(1), request), says);
            unchanged(&tables);
        }

        // Every setting at once.
        let reply = settings_as(
            &tables,
            admin(1),
            change(ServerSettings {
                variant: Some(Variant::Dice),
                bot_level: Some(BotLevel::Hard),
                turn_reminder_secs: Some(30),
                turn_timeout_secs: Some(60),
                lobby_timeout_secs: Some(120),
                thinking_ms: Some(250),
                on_timeout: None,
                timeouts_before_replaced: Some(3),
                rated: Some(false),
                language: Some(Lang::De),
                hints: Some(true),
                replay_gif: Some(false),
                web_links: Some(false),
                web_page: None,
                web_page_token: None,
            }),
        );
        assert!(!reply.is_refusal(), "{reply:?}");
        assert!(
            matches!(&reply.outputs[..], [Output::Ephemeral(_)]),
            "{reply:?}"
        );
        assert!(text_of(&reply).contains("Saved"), "{}", text_of(&reply));
        assert!(
            text_of(&reply)
                .contains("web pages of the games (Watch button, live board, replay): off"),
            "{}",
            text_of(&reply)
        );
        let log = t.store.settings_log(GUILD.0, 10).expect("log");
        assert_eq!(log.len(), 1, "{backend}");
        assert_eq!(log[0].user_id, 1);
        for part in [
            "game: dice",
            "computer_level: hard",
            "turn_reminder: 30 s",
            "turn_timeout: 60 s",
            "lobby_timeout: 120 s",
            "thinking_time: 250 ms",
            "rated: false",
            "language: de",
            "hints: true",
            "replay_gif: false",
            "web_links: false",
        ] {
            assert!(log[0].change.contains(part), "{part} in {:?}", log[0]);
        }

        // Kept: a new process on the same database uses them.
        let again = tables_on(t.store.clone(), 4);
        let s = again.settings_for(Some(GUILD));
        assert_eq!(s.default_variant, Variant::Dice);
        assert_eq!(s.default_bot_level, BotLevel::Hard);
        assert_eq!(s.turn_reminder, Duration::from_secs(30));
        assert_eq!(s.turn_timeout, Duration::from_secs(60));
        assert_eq!(s.lobby_timeout, Duration::from_secs(120));
        assert_eq!(s.bot_think, Some(Duration::from_millis(250)));
        assert!(s.hints);
        assert!(!s.replay_gif);
        assert!(!s.web_links);
        assert_eq!(again.server_language(Some(GUILD)), Some(Lang::De));
        // Another server keeps the operator's.
        assert_eq!(again.settings_for(Some(GuildId(78))), *again.settings());

        // Used: the rules default to dice; a computer added without a level is hard; games are casual.
        let rules = HERE.ask(&again, 39, 1, Command::Rules { variant: None });
        assert!(
            matches!(&rules.outputs[..], [Output::Ephemeral(m)] if m.lines == [Text::Rules(Variant::Dice)]),
            "{rules:?}"
        );
        assert!(!HERE
            .ask(&again, 40, 1, start(Variant::Classic, None))
            .is_refusal());
        assert!(!HERE
            .ask(&again, 40, 1, Command::AddBot { level: None })
            .is_refusal());
        let lobby = again.snapshot(ChannelId(40)).expect("the lobby");
        assert_eq!(lobby.setup.rated, Some(false));
        let json = serde_json::to_string(&lobby).expect("json");
        assert!(json.contains("\"hard\""), "{json}");
        // The lobby closes after the server's 120 s, not the operator's 1800 s.
        assert!(again.tick(at(119)).iter().all(|(c, _)| c.0 != 40));
        assert!(again.snapshot(ChannelId(40)).is_some());
        again.tick(at(121));
        assert!(again.snapshot(ChannelId(40)).is_none(), "the lobby expired");
        // A player to move is reminded after the server's 30 s (not the operator's 120 s).
        HERE.begin(&again, 41, start(Variant::Classic, None), &[1, 2], 0);
        assert!(again
            .tick(at(29))
            .iter()
            .all(|(c, r)| c.0 != 41 || r.outputs.is_empty()));
        let reminded = again.tick(at(31));
        let (_, reply) = reminded
            .iter()
            .find(|(c, _)| c.0 == 41)
            .expect("a reminder in channel 41");
        assert!(
            reply.outputs.iter().any(|o| matches!(o, Output::Channel(m)
                if matches!(m.lines.first(), Some(Text::Reminder { seconds_left: 29, .. })))),
            "{reply:?}"
        );

        // Back to the operator's defaults; logged with who did it.
        let reply = settings_as(
            &again,
            admin(5),
            SettingsRequest {
                reset: true,
                ..SettingsRequest::default()
            },
        );
        assert!(!reply.is_refusal(), "{reply:?}");
        assert_eq!(again.settings_for(Some(GUILD)), *again.settings());
        let log = t.store.settings_log(GUILD.0, 10).expect("log");
        assert_eq!(log.len(), 2);
        assert_eq!(
            (log[0].user_id, log[0].change.as_str()),
            (5, "reset to the defaults")
        );
    }
}

/// A random player that records the thinking time it was given.
struct ThinkRecorder(std::sync::Mutex<Vec<Option<Duration>>>);

impl MovePicker for ThinkRecorder {
    fn choose(
        &self,
        view: &crate::engine::View,
        history: &[(crate::engine::Seat, Move)],
        level: BotLevel,
        seed: u64,
    ) -> Move {
        RandomPicker.choose(view, history, level, seed)
    }

    fn choose_thinking(
        &self,
        view: &crate::engine::View,
        history: &[(crate::engine::Seat, Move)],
        level: BotLevel,
        seed: u64,
        think: Option<Duration>,
    ) -> Move {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(think);
        RandomPicker.choose(view, history, level, seed)
    }
}

#[tokio::test]
async fn a_servers_thinking_time_reaches_its_computer_players() {
    let recorder = Arc::new(ThinkRecorder(std::sync::Mutex::new(Vec::new())));
    let tables = Tables::seeded(test_settings(), recorder.clone(), 5);
    let thinks = || recorder.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let reply = settings_as(
        &tables,
        admin(1),
        change(ServerSettings {
            thinking_ms: Some(300),
            ..ServerSettings::default()
        }),
    );
    assert!(!reply.is_refusal(), "{reply:?}");
    assert!(!HERE
        .ask(&tables, 50, 1, start(Variant::Classic, None))
        .is_refusal());
    assert!(!HERE
        .ask(&tables, 50, 1, Command::AddBot { level: None })
        .is_refusal());
    assert!(!HERE.ask(&tables, 50, 1, Command::Begin).is_refusal());
    let mut rng = GameRng::new(9);
    for _ in 0..4 {
        tables.run_auto(ChannelId(50), T0).await;
        if !thinks().is_empty() {
            break;
        }
        let (user, command) = next_human_action(&tables, 50, &mut rng).expect("a move");
        assert!(!HERE.ask(&tables, 50, user, command).is_refusal());
    }
    let seen = thinks();
    assert!(!seen.is_empty(), "the computer moved");
    assert!(
        seen.iter().all(|t| *t == Some(Duration::from_millis(300))),
        "{seen:?}"
    );
    // Another server's computers think for the operator's time (here: the picker's own).
    assert_eq!(tables.settings_for(Some(GuildId(78))).bot_think, None);
}

#[test]
fn where_a_timeout_means_giving_up_the_idle_player_gives_up_and_keeps_the_loss() {
    for (backend, t) in backends("on_timeout") {
        let tables = tables_on(t.store.clone(), 6);
        let reply = settings_as(
            &tables,
            admin(1),
            change(ServerSettings {
                on_timeout: Some(OnTimeout::GiveUp),
                ..ServerSettings::default()
            }),
        );
        assert!(
            text_of(&reply).contains("the player gives up"),
            "{}",
            text_of(&reply)
        );
        HERE.begin(&tables, 60, start(Variant::Classic, None), &[1, 2], 0);
        let table = tables.snapshot(ChannelId(60)).expect("the game");
        let playing = table.playing().expect("playing");
        let seat = playing.live.game().position().to_move();
        let idle = playing
            .seats
            .get(usize::from(seat))
            .and_then(Player::user)
            .expect("a human to move");
        let timeout = tables.settings_for(Some(GUILD)).turn_timeout.as_secs();
        // Before the timeout nothing happens; after it the idle player gives up and, two players
        // being two teams, the other wins.
        // The reminder says what will happen.
        let reminded = tables.tick(at(timeout - 1));
        assert!(
            reminded.iter().any(|(c, r)| c.0 == 60
                && r.outputs.iter().any(|o| matches!(o, Output::Channel(m)
                    if matches!(m.lines.first(), Some(Text::Reminder { gives_up: true, .. }))))),
            "{reminded:?}"
        );
        let still = tables.snapshot(ChannelId(60)).expect("still playing");
        assert!(still.playing().expect("playing").forfeited.is_empty());
        let ticked = tables.tick(at(timeout + 1));
        let (_, reply) = ticked
            .iter()
            .find(|(c, _)| c.0 == 60)
            .expect("the timeout in channel 60");
        assert!(reply
            .outputs
            .iter()
            .all(|o| !matches!(o, Output::Ephemeral(_))));
        let text = text_of(reply);
        assert!(
            text.contains(&format!(
                "<@{}> ran out of time once: their side loses",
                idle.0
            )),
            "{backend}: {text}"
        );
        assert!(tables.snapshot(ChannelId(60)).is_none(), "the game ended");
        let game = t.store.recent_games(Some(GUILD.0), 1).expect("games");
        let seat = game[0]
            .players
            .iter()
            .find(|p| p.user_id == idle.0)
            .expect("the idle player's seat");
        assert!(seat.gave_up && !seat.won, "{seat:?}");
        // Elsewhere a computer still plays the turn.
        assert!(!tables.settings_for(Some(GuildId(78))).timeout_gives_up);
    }
}

#[test]
fn a_process_restores_and_acts_only_on_its_shards_while_it_holds_them() {
    // Discord's shard of a server: (id >> 22) % total.
    let (on0, on1) = (GuildId(77), GuildId((1 << 22) | 77));
    for (name, test) in backends("shards") {
        let before = tables_on(test.store.clone(), 3);
        for (guild, channel) in [(on0, 1), (on1, 2)] {
            assert!(!Asker::server(guild)
                .ask(&before, channel, 1, start(Variant::Classic, None))
                .is_refusal());
        }
        drop(before);
        // The process of shard 1 of 2: only the table of its server comes back.
        let claim = Arc::new(ExclusiveClaim::new(ShardSet::new(1, 1, 2).expect("set")));
        let tables = tables_on(test.store.clone(), 4).with_claim(claim.clone());
        let restored = tables.restore_from_store(T0).expect("restore");
        assert_eq!(restored.resumed, vec![ChannelId(2)], "{name}");
        assert!(restored.lost.is_empty(), "{name}");
        assert_eq!(
            test.store.load_tables().expect("load").tables.len(),
            2,
            "{name}: the other shard's table is left alone"
        );
        assert!(!Asker::server(on1)
            .ask(&tables, 2, 2, Command::Join { team: None })
            .is_refusal());
        // A server of another shard is not this process's to act on.
        let refused = Asker::server(on0).ask(&tables, 3, 1, start(Variant::Classic, None));
        assert_eq!(
            text_of(&refused),
            text_of(&Reply::ephemeral(Text::SaveFailed))
        );
        assert!(tables.snapshot(ChannelId(3)).is_none());
        // Reading stays possible; acting stops once the claim is gone.
        claim.release();
        let seated = table_json(&tables, 2);
        let refused = Asker::server(on1).ask(&tables, 2, 2, Command::Leave);
        assert!(refused.is_refusal(), "{name}: {refused:?}");
        assert_eq!(
            text_of(&refused),
            text_of(&Reply::ephemeral(Text::SaveFailed))
        );
        assert_eq!(table_json(&tables, 2), seated, "{name}: nothing changed");
        assert!(tables.tick(at(100_000)).is_empty(), "{name}: no timers");
        assert!(!Asker::server(on1)
            .ask(&tables, 2, 2, Command::Status)
            .is_refusal());
        assert!(tables.restore_from_store(T0).is_err(), "{name}");
    }
}

/// Runs `f` with warnings and errors logged into a string (this thread only), and returns it.
fn warnings_of(f: impl FnOnce()) -> String {
    #[derive(Clone, Default)]
    struct Capture(Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Capture {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            lock(&self.0).extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let capture = Capture::default();
    let writer = capture.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, f);
    let text = String::from_utf8_lossy(&lock(&capture.0)).into_owned();
    text
}

/// Issue 24.6: a server's stored settings that cannot be used (not UTF-8, not JSON, a number out of
/// range) give the operator's defaults; the timer's ticks do not read them again, the warning is
/// logged once, the row is kept in `settings_damaged` for the operator, and an admin's next change
/// writes a fresh row.
#[test]
fn damaged_server_settings_give_the_defaults_are_reported_once_and_kept_aside() {
    /// One way the settings can be damaged.
    struct Case {
        name: &'static str,
        store: Arc<dyn Store>,
        /// The settings as the damage leaves them.
        bytes: &'static [u8],
        /// SQL that writes them where the store API cannot (bytes that are not UTF-8).
        damage: Option<&'static str>,
        /// What the warning and the kept row say.
        says: &'static str,
    }
    let sqlite_dir = tempfile::tempdir().expect("temp dir");
    let sqlite_path = sqlite_dir.path().join("bot.db");
    let sqlite: Arc<dyn Store> =
        Arc::new(crate::store::SqliteStore::open(&sqlite_path).expect("open"));
    let raw = rusqlite::Connection::open(&sqlite_path).expect("open raw");
    let out_of_range: &[u8] = br#"{"variant":"dice","turn_timeout_secs":5}"#;
    let range_says = "turn_timeout_secs is 5, outside 30..=604800";
    let mut cases = vec![
        Case {
            name: "sqlite, out of range",
            store: sqlite.clone(),
            bytes: out_of_range,
            damage: None,
            says: range_says,
        },
        // Bytes that are not UTF-8 (as a damaged page leaves them: text that is not text).
        Case {
            name: "sqlite, not UTF-8",
            store: sqlite.clone(),
            bytes: b"{\"variant\":\"d\xFFce\"}",
            damage: Some(
                "UPDATE server_settings
                 SET settings_json = CAST(X'7B2276617269616E74223A2264FF6365227D' AS TEXT)",
            ),
            says: "not UTF-8",
        },
    ];
    let pg = postgres_store("damaged_settings_service");
    if let Some(pg) = &pg {
        cases.push(Case {
            name: "postgres, out of range",
            store: pg.store.clone(),
            bytes: out_of_range,
            damage: None,
            says: range_says,
        });
        cases.push(Case {
            name: "postgres, not JSON",
            store: pg.store.clone(),
            bytes: br#"{"variant":"dice","#,
            damage: None,
            says: "not valid JSON",
        });
    }
    for Case {
        name: case,
        store,
        bytes,
        damage,
        says,
    } in cases
    {
        let before = store.damaged_settings().expect("aside").len();
        // Written as the damage leaves it: through the store where the store can write it.
        let written = String::from_utf8_lossy(bytes).into_owned();
        let saved_by = crate::store::SettingsChange {
            user_id: 1,
            change: "game: dice".into(),
            at: 1,
        };
        store
            .save_server_settings(GUILD.0, &written, &saved_by)
            .expect("save");
        if let Some(sql) = damage {
            raw.execute_batch(sql).expect("damage");
        }
        let counted = flaky_over(store.clone());
        let tables = tables_on(counted.clone(), 9);
        let log = warnings_of(|| {
            assert_eq!(
                tables.settings_for(Some(GUILD)),
                *tables.settings(),
                "{case}"
            );
            assert!(!HERE
                .ask(&tables, 60, 1, start(Variant::Classic, None))
                .is_refusal());
            for second in 1..=10 {
                tables.tick(at(second));
                assert_eq!(tables.settings_for(Some(GUILD)), *tables.settings());
            }
        });
        assert_eq!(
            counted.settings_reads.load(Ordering::SeqCst),
            1,
            "{case}: read once, then remembered"
        );
        assert_eq!(
            log.matches("settings_damaged").count(),
            1,
            "{case}: reported once: {log}"
        );
        assert!(log.contains(says), "{case}: {log}");
        let aside = store.damaged_settings().expect("aside");
        assert_eq!(aside.len(), before + 1, "{case}");
        let kept = aside.last().expect("kept");
        assert_eq!(
            (kept.guild_id, kept.settings.as_slice()),
            (GUILD.0, bytes),
            "{case}"
        );
        assert!(kept.reason.contains(says), "{case}: {kept:?}");
        assert_eq!(
            store.server_settings(GUILD.0).expect("read"),
            None,
            "{case}"
        );

        // An admin's change writes a fresh row, which a new process uses.
        let reply = settings_as(
            &tables,
            admin(1),
            change(ServerSettings {
                variant: Some(Variant::Kids),
                ..ServerSettings::default()
            }),
        );
        assert!(!reply.is_refusal(), "{case}: {reply:?}");
        let fresh = store
            .server_settings(GUILD.0)
            .expect("read")
            .expect("saved");
        assert_eq!(
            ServerSettings::from_stored(&fresh),
            Ok(ServerSettings {
                variant: Some(Variant::Kids),
                ..ServerSettings::default()
            }),
            "{case}"
        );
        let again = tables_on(store.clone(), 10);
        assert_eq!(
            again.settings_for(Some(GUILD)).default_variant,
            Variant::Kids
        );
        // Cleared for the next case.
        let clear = crate::store::SettingsChange {
            user_id: 1,
            change: "reset".into(),
            at: 2,
        };
        store
            .save_server_settings(GUILD.0, "{}", &clear)
            .expect("save");
    }
}

/// Issue 24.7: two admins change different settings at the same moment, while the database takes its
/// time to save: both changes survive, in memory and in the store, and both are logged.
#[test]
fn two_settings_changes_at_once_both_survive() {
    for (backend, t) in backends("settings_race") {
        let store = flaky(&t);
        let tables = Arc::new(tables_on(store.clone(), 3));
        // Read once, so both changes start from what is remembered.
        assert_eq!(
            tables.server_settings(Some(GUILD)),
            ServerSettings::default()
        );
        store.slow_settings.store(true, Ordering::SeqCst);
        let requests = [
            (
                1,
                change(ServerSettings {
                    turn_timeout_secs: Some(900),
                    ..ServerSettings::default()
                }),
            ),
            (
                2,
                change(ServerSettings {
                    variant: Some(Variant::Dice),
                    ..ServerSettings::default()
                }),
            ),
        ];
        // On threads of their own, as the Discord layer runs requests (the PostgreSQL client may
        // not block inside an async runtime).
        let replies: Vec<Reply> = std::thread::scope(|scope| {
            let changes: Vec<_> = requests
                .into_iter()
                .map(|(admin_id, request)| {
                    let tables = &tables;
                    scope.spawn(move || settings_as(tables, admin(admin_id), request))
                })
                .collect();
            changes
                .into_iter()
                .map(|change| change.join().expect("the change ran"))
                .collect()
        });
        for reply in replies {
            assert!(!reply.is_refusal(), "{backend}: {reply:?}");
        }
        store.slow_settings.store(false, Ordering::SeqCst);
        let both = ServerSettings {
            turn_timeout_secs: Some(900),
            variant: Some(Variant::Dice),
            ..ServerSettings::default()
        };
        assert_eq!(
            tables.server_settings(Some(GUILD)),
            both,
            "{backend}: in memory"
        );
        let stored: ServerSettings = serde_json::from_str(
            &t.store
                .server_settings(GUILD.0)
                .expect("read")
                .expect("saved"),
        )
        .expect("json");
        assert_eq!(stored, both, "{backend}: in the store");
        assert_eq!(
            t.store.settings_log(GUILD.0, 10).expect("log").len(),
            2,
            "{backend}"
        );
    }
}

/// A store with a raw connection beside it: SQL writes what the store API never would.
struct RawBackend {
    name: &'static str,
    store: Arc<dyn Store>,
    damage: Box<dyn Fn(&str)>,
    /// Rows of `series_stats_damaged` (what was set aside).
    aside: Box<dyn Fn() -> i64>,
    _guard: Box<dyn std::any::Any>,
}

/// SQLite always, PostgreSQL when configured, each with a raw connection.
fn raw_backends(name: &str) -> Vec<RawBackend> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bot.db");
    let sqlite: Arc<dyn Store> = Arc::new(crate::store::SqliteStore::open(&path).expect("open"));
    let raw = Arc::new(std::sync::Mutex::new(
        rusqlite::Connection::open(&path).expect("open raw"),
    ));
    let raw2 = raw.clone();
    let mut all = vec![RawBackend {
        name: "sqlite",
        store: sqlite,
        damage: Box::new(move |sql: &str| {
            lock(&raw)
                .execute_batch(sql)
                .unwrap_or_else(|e| panic!("{sql}: {e}"))
        }),
        aside: Box::new(move || {
            lock(&raw2)
                .query_row("SELECT COUNT(*) FROM series_stats_damaged", [], |r| {
                    r.get(0)
                })
                .expect("count")
        }),
        _guard: Box::new(dir),
    }];
    if let Some((config, guard)) = crate::store::tests::postgres_schema(name) {
        let store: Arc<dyn Store> =
            Arc::new(crate::store::PostgresStore::open_config(config.clone()).expect("open"));
        let raw = Arc::new(std::sync::Mutex::new(
            config.connect(::postgres::NoTls).expect("connect"),
        ));
        let raw2 = raw.clone();
        all.push(RawBackend {
            name: "postgres",
            store,
            damage: Box::new(move |sql: &str| {
                lock(&raw)
                    .batch_execute(sql)
                    .unwrap_or_else(|e| panic!("{sql}: {e}"))
            }),
            aside: Box::new(move || {
                lock(&raw2)
                    .query_one("SELECT COUNT(*) FROM series_stats_damaged", &[])
                    .expect("count")
                    .get(0)
            }),
            _guard: Box::new(guard),
        });
    }
    all
}

/// Issue 33: a series row damaged in the store (best of 0 or 255, a side without players, a team
/// playing for a side out of range, two teams for one side) was restored as if valid and garbled the
/// score. Now each such table is set aside in the quarantine with the reason, its channel hears it
/// could not be restored, and the sound series beside them comes back as it was.
#[test]
fn damaged_series_rows_are_set_aside_at_restore() {
    type Damage = fn(&mut serde_json::Value);
    let damages: [(&str, Damage, &str); 5] = [
        ("best of 0", |s| s["best_of"] = 0.into(), "best of 0"),
        ("best of 255", |s| s["best_of"] = 255.into(), "best of 255"),
        (
            "empty side",
            |s| s["sides"][1] = serde_json::json!([]),
            "side 2 of the series has no players",
        ),
        (
            "team out of range",
            |s| s["team_side"][1] = 7.into(),
            "out of range",
        ),
        (
            "two teams, one side",
            |s| s["team_side"] = serde_json::json!([0, 0]),
            "two teams",
        ),
    ];
    for backend in raw_backends("damaged_series") {
        let name = backend.name;
        let first = tables_on(backend.store.clone(), 30);
        let series = |tables: &Tables, channel: u64| {
            let mut command = start(Variant::Classic, None);
            if let Command::Start { series, .. } = &mut command {
                *series = Some(3);
            }
            assert!(!HERE.ask(tables, channel, 1, command).is_refusal());
            assert!(!HERE
                .ask(tables, channel, 2, Command::Join { team: None })
                .is_refusal());
            assert!(!HERE.ask(tables, channel, 1, Command::Begin).is_refusal());
        };
        for channel in 1..=6 {
            series(&first, channel);
        }
        let sound = table_json(&first, 6);
        drop(first);
        for (i, (_, damage, _)) in damages.iter().enumerate() {
            let channel = i as u64 + 1;
            let mut snapshot: serde_json::Value =
                serde_json::from_str(&stored(backend.store.as_ref(), channel).expect("stored"))
                    .expect("json");
            damage(&mut snapshot["series"]);
            let text = serde_json::to_string(&snapshot)
                .expect("json")
                .replace('\'', "''");
            (backend.damage)(&format!(
                "UPDATE live_tables SET snapshot_json = '{text}' WHERE channel_id = {channel}"
            ));
        }
        let second = tables_on(backend.store.clone(), 31);
        let restored = second.restore_from_store(at(10)).expect("restore");
        assert_eq!(restored.resumed, vec![ChannelId(6)], "{name}");
        assert_eq!(
            table_json(&second, 6),
            sound,
            "{name}: the sound series is back"
        );
        let kept = backend.store.quarantined().expect("quarantine");
        for (i, (what, _, says)) in damages.iter().enumerate() {
            let channel = i as u64 + 1;
            let lost = restored
                .lost
                .iter()
                .find(|(c, _)| c.0 == channel)
                .unwrap_or_else(|| panic!("{name}, {what}: not set aside: {restored:?}"));
            assert!(lost.1.contains(says), "{name}, {what}: {}", lost.1);
            assert!(table_json(&second, channel).is_none(), "{name}, {what}");
            assert!(
                kept.iter()
                    .any(|q| q.channel_id == channel && q.reason.contains(says)),
                "{name}, {what}: {kept:?}"
            );
            let note = restored
                .notes
                .iter()
                .find(|(c, _)| c.0 == channel)
                .expect("a note");
            assert!(text_of(&note.1).contains("could not be restored"));
        }
        // Set aside once: the next start restores the sound one only, and loses nothing more.
        let third = tables_on(backend.store.clone(), 32);
        let again = third.restore_from_store(at(20)).expect("restore");
        assert!(again.lost.is_empty(), "{name}");
        assert_eq!(again.resumed, vec![ChannelId(6)], "{name}");
    }
}

/// Issue 33: a player's series counts damaged in the store (text where a number belongs, or more
/// won than played) broke that player's `stats` on every call. Now the row is set aside in
/// `series_stats_damaged` with one warning, `stats` answers (without the series line), and the next
/// series counts from zero.
#[test]
fn damaged_series_counts_are_set_aside_and_stats_answer() {
    for backend in raw_backends("damaged_series_stats") {
        let name = backend.name;
        let tables = tables_on(backend.store.clone(), 33);
        backend
            .store
            .finish_series(Some(GUILD.0), &[(1, true), (2, false)])
            .expect("series");
        let line = |user: u64| {
            let reply = HERE.ask(
                &tables,
                9,
                1,
                Command::Stats {
                    user: Some(UserId(user)),
                },
            );
            assert!(!reply.is_refusal(), "{name}: {reply:?}");
            text_of(&reply)
        };
        assert!(line(1).contains("Series: 1 played, 1 won."), "{name}");
        // SQLite keeps any value in any column; PostgreSQL keeps numbers, but any numbers.
        let damage = if name == "sqlite" {
            "UPDATE series_stats SET won = 'lots' WHERE user_id = 1;
             UPDATE series_stats SET played = 1, won = 5 WHERE user_id = 2"
        } else {
            "UPDATE series_stats SET won = -3 WHERE user_id = 1;
             UPDATE series_stats SET played = 1, won = 5 WHERE user_id = 2"
        };
        (backend.damage)(damage);
        let log = warnings_of(|| {
            for _ in 0..3 {
                for user in [1, 2] {
                    let text = line(user);
                    assert!(text.contains("has not finished a game"), "{name}: {text}");
                    assert!(!text.contains("Series:"), "{name}: {text}");
                }
            }
        });
        assert_eq!(
            log.matches("series_stats_damaged").count(),
            2,
            "{name}: one warning per damaged row: {log}"
        );
        assert!(log.contains("5 series won of 1 played"), "{name}: {log}");
        assert_eq!((backend.aside)(), 2, "{name}: both rows kept aside");
        // The next series counts from zero.
        backend
            .store
            .finish_series(Some(GUILD.0), &[(1, true)])
            .expect("series");
        assert!(line(1).contains("Series: 1 played, 1 won."), "{name}");
    }
}

/// A process without Discord (the pages alone, no token) restores only its own tables: Discord's
/// stay in the store untouched (no clock of theirs runs, no computer moves) and come back whole in
/// the next process that restores everything.
#[test]
fn a_process_without_discord_leaves_discords_tables_in_the_store() {
    use crate::service::FaceId;
    // The stores are opened and read outside the runtime (PostgreSQL's client blocks); only the
    // requests are served on it, as a face serves them.
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    for (backend, t) in backends("restore_only_faces") {
        let first = Arc::new(tables_on(t.store.clone(), 11));
        for (channel, face) in [(1u64, FaceId::Discord), (2, FaceId::Web)] {
            for (user, command) in [
                (1, start(Variant::Classic, None)),
                (2, Command::Join { team: None }),
                (1, Command::Begin),
            ] {
                let request = Request {
                    guild: Some(GUILD),
                    channel: ChannelId(channel),
                    actor: test_actor(user),
                    command,
                };
                let (reply, pending) = runtime.block_on(first.serve(request, face));
                assert!(!reply.is_refusal(), "{backend}: {reply:?}");
                drop(pending);
            }
        }
        let discord_before = stored(&*t.store, 1).expect("discord's table stored");
        drop(first);

        let web_only = tables_on(t.store.clone(), 12).restoring_only(&[FaceId::Web]);
        let restored = web_only.restore_from_store(at(7200)).expect("restore");
        assert_eq!(restored.resumed, vec![ChannelId(2)], "{backend}");
        assert_eq!(restored.left, vec![ChannelId(1)], "{backend}");
        assert!(web_only.snapshot(ChannelId(1)).is_none(), "{backend}");
        assert!(
            restored.notes.iter().all(|(c, _)| *c != ChannelId(1)),
            "{backend}: nothing said in Discord's channel"
        );
        assert_eq!(
            web_only
                .tick(at(7200 * 10))
                .iter()
                .find(|(c, _)| *c == ChannelId(1)),
            None,
            "{backend}: no clock of Discord's tables runs here"
        );
        drop(web_only);
        assert_eq!(
            stored(&*t.store, 1).as_deref(),
            Some(discord_before.as_str()),
            "{backend}: untouched"
        );

        let everything = tables_on(t.store.clone(), 13);
        let restored = everything.restore_from_store(at(7200)).expect("restore");
        let mut resumed = restored.resumed.clone();
        resumed.sort();
        assert_eq!(resumed, vec![ChannelId(1), ChannelId(2)], "{backend}");
        assert!(restored.left.is_empty(), "{backend}");
        assert_eq!(everything.face_of(ChannelId(1)), FaceId::Discord);
        assert_eq!(everything.face_of(ChannelId(2)), FaceId::Web);
    }
}
