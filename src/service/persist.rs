//! The service on top of a [`Store`]: tables saved after every accepted action, finished games with
//! their results, restoring every table after a restart, and the stats, profile and history commands.

use std::sync::Arc;

use crate::analysis::profile::Achievement;
use crate::engine::record::Record;
use crate::engine::Variant;
use crate::store::{
    FinishedGame, GameId, PlayerResult, Store, StoreError, StoredTable, BOT_USER_ID,
};

use super::table::Stop;
use super::text::{unlock_lines, HistoryLine, LeaderLine, RatingInfo, TeamName, Totals};
use super::{
    series, Actor, Attachment, BoardImage, ChannelId, Command, GuildId, Image, Message, Output,
    Player, ReplayImage, Reply, State, Table, Tables, Text, Timestamp, UserId, Who,
};

/// Errors of the service layer (the store's, mostly).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A table could not be written as JSON.
    #[error("cannot write the table as JSON: {0}")]
    Encode(#[from] serde_json::Error),
}

/// Called with a table each time an action is accepted, and when a table closes, before anyone is
/// told about it. If it fails, the service undoes the action in memory and apologises, so memory and
/// database never disagree. Blocking: with a real store, call the service from a blocking thread.
pub trait Persist: Send + Sync {
    /// The table changed (lobby or game); store it.
    fn save(&self, table: &Table) -> Result<(), ServiceError>;
    /// The table closed; `finished` holds the final table if a game was played. Returns the number
    /// under which the finished game was kept, if it was.
    fn close(
        &self,
        channel: ChannelId,
        finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError>;
    /// The achievements each player unlocked with the finished game kept as `game`, for its final
    /// message (read once the game and its series are stored). None by default.
    fn unlocked_in(&self, _game: i64) -> Result<Vec<(UserId, Achievement)>, ServiceError> {
        Ok(Vec::new())
    }
    /// A series ended (decided or not): its players' series stats, kept where their games' stats
    /// are (`scope`: the server, or outside servers the chat, see [`crate::store::standing_scope`]).
    /// Nothing by default.
    fn series_ended(&self, _scope: u64, _series: &series::Series) -> Result<(), ServiceError> {
        Ok(())
    }
}

/// A [`Persist`] that keeps nothing.
pub struct NoPersist;

impl Persist for NoPersist {
    fn save(&self, _table: &Table) -> Result<(), ServiceError> {
        Ok(())
    }
    fn close(
        &self,
        _channel: ChannelId,
        _finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError> {
        Ok(None)
    }
}

/// Lines of the leaderboard and of the history.
const LIST_LENGTH: u32 = 10;

/// Rating changes shown by `stats`.
const RECENT_CHANGES: u32 = 5;

/// [`Persist`] through a [`Store`]: each change of a table is one `save_table` (the game record and
/// the table snapshot in one transaction); the end of a game is one `finish_game` (record, results,
/// stats, and the live table deleted together).
pub struct StorePersist {
    store: Arc<dyn Store>,
}

impl StorePersist {
    /// Saves into `store`.
    pub fn new(store: Arc<dyn Store>) -> StorePersist {
        StorePersist { store }
    }
}

impl Persist for StorePersist {
    fn save(&self, table: &Table) -> Result<(), ServiceError> {
        let stored = stored_table(table)?;
        timed("save", || self.store.save_table(&stored))?;
        Ok(())
    }

    fn close(
        &self,
        channel: ChannelId,
        finished: Option<&Table>,
    ) -> Result<Option<i64>, ServiceError> {
        match finished.and_then(finished_game) {
            Some(game) => {
                let game = game?;
                let id = timed("finish", || self.store.finish_game(&game))?;
                die_before_announcing_if_asked();
                Ok(Some(id.0))
            }
            None => {
                timed("delete", || self.store.delete_table(channel.0))?;
                Ok(None)
            }
        }
    }

    fn unlocked_in(&self, game: i64) -> Result<Vec<(UserId, Achievement)>, ServiceError> {
        let unlocked = self.store.unlocked_in(GameId(game))?;
        Ok(unlocked
            .into_iter()
            .map(|(user, achievement)| (UserId(user), achievement))
            .collect())
    }

    fn series_ended(&self, scope: u64, series: &super::series::Series) -> Result<(), ServiceError> {
        let results: Vec<(u64, bool)> = series
            .results()
            .into_iter()
            .map(|(user, won)| (user.0, won))
            .collect();
        timed("series", || self.store.finish_series(Some(scope), &results))?;
        Ok(())
    }
}

/// Runs one write of the store, recording how long it took (`sequence_store_seconds`) and whether it
/// failed (`sequence_store_errors_total`), by operation.
fn timed<T>(
    op: &'static str,
    write: impl FnOnce() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let started = std::time::Instant::now();
    let result = write();
    metrics::histogram!("sequence_store_seconds", "op" => op).record(started.elapsed());
    if result.is_err() {
        metrics::counter!("sequence_store_errors_total", "op" => op).increment(1);
    }
    result
}

/// The environment variable that makes the process die right after a finished game is stored and
/// before its end is announced, as a crash at the worst moment would (for `tests/restart.rs`).
pub const DIE_BEFORE_ANNOUNCING: &str = "SEQUENCE_BOT_TEST_DIE_BEFORE_ANNOUNCING";

/// The test hook of [`DIE_BEFORE_ANNOUNCING`]: only when it is set to `1`; SIGKILL where the
/// platform has it (no unwinding, no destructors), otherwise an abort.
fn die_before_announcing_if_asked() {
    if std::env::var_os(DIE_BEFORE_ANNOUNCING).is_some_and(|v| v == "1") {
        tracing::error!("{DIE_BEFORE_ANNOUNCING}=1: dying before the end of a game is announced");
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: kill(2) on this very process, no memory involved.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
        std::process::abort();
    }
}

/// A table as stored: its record (`null` for a lobby) and its whole snapshot.
pub fn stored_table(table: &Table) -> Result<StoredTable, ServiceError> {
    let record_json = match table.playing() {
        Some(playing) => serde_json::to_string(playing.live.record())?,
        None => "null".to_string(),
    };
    Ok(StoredTable {
        channel_id: table.channel.0,
        guild_id: table.guild.map(|g| g.0),
        record_json,
        snapshot_json: serde_json::to_string(table)?,
        updated_at: now_ms(),
    })
}

/// The finished game of a closed table that was playing: every seat's result (a player who gave up
/// keeps their seat's result, computer players count as [`BOT_USER_ID`]).
fn finished_game(table: &Table) -> Option<Result<FinishedGame, ServiceError>> {
    let playing = table.playing()?;
    let game = playing.live.game();
    let config = game.config();
    // An aborted game is kept but counts for nothing: nobody won or lost it.
    let aborted = playing.is_aborted();
    let winners = if aborted {
        Vec::new()
    } else {
        playing.winners()
    };
    let counts = playing.counts_for_ratings(&table.setup);
    // Stopped by someone not playing: no result; only those who gave up keep a (rated) loss.
    let rated = match playing.stopped {
        Some(Stop::Moderator) => counts && playing.anyone_gave_up(),
        _ => counts,
    };
    let players = (0..config.players)
        .map(|seat| {
            let team = config.team_of(seat);
            let (user_id, name, bot_level) = match playing.original_player(seat) {
                Some(Player::Human { user, name }) => (user.0, name.clone(), None),
                Some(Player::Bot { name, level }) => {
                    (BOT_USER_ID, name.clone(), Some(level.to_string()))
                }
                None => (BOT_USER_ID, format!("seat {}", seat + 1), None),
            };
            PlayerResult {
                user_id,
                name,
                team,
                won: winners.contains(&team),
                sequences: u32::try_from(game.position().sequence_count(team)).unwrap_or(u32::MAX),
                bot_level,
                gave_up: playing.forfeited.iter().any(|(s, _)| *s == seat)
                    || playing.stopped == Some(Stop::Player(seat)),
            }
        })
        .collect();
    let record_json = match serde_json::to_string(playing.live.record()) {
        Ok(json) => json,
        Err(e) => return Some(Err(e.into())),
    };
    Some(Ok(FinishedGame {
        guild_id: table.guild.map(|g| g.0),
        channel_id: table.channel.0,
        variant: config.variant.to_string(),
        record_json,
        finished_at: now_ms(),
        started_at: playing
            .started
            .map(|at| i64::try_from(at.0).unwrap_or(i64::MAX)),
        players,
        rated: Some(rated),
        aborted,
    }))
}

/// The table of a stored row, or why it cannot be restored.
fn table_from_stored(stored: &StoredTable) -> Result<Table, String> {
    let mut table: Table = serde_json::from_str(&stored.snapshot_json)
        .map_err(|e| format!("the table snapshot cannot be read: {e}"))?;
    if table.channel.0 != stored.channel_id {
        return Err(format!(
            "the snapshot is of channel {}, stored for channel {}",
            table.channel.0, stored.channel_id
        ));
    }
    let record: serde_json::Value = serde_json::from_str(&stored.record_json)
        .map_err(|e| format!("the record cannot be read: {e}"))?;
    let agrees = match &table.state {
        State::Playing(playing) => {
            if playing.live.game().position().is_over() {
                return Err("the game had already ended".into());
            }
            serde_json::to_value(playing.live.record()).ok() == Some(record)
        }
        State::Lobby(_) => record.is_null(),
    };
    if !agrees {
        return Err("the record and the table snapshot disagree".into());
    }
    if let Some(series) = &table.series {
        // A damaged series would be restored as if valid and garble the score (issue 33).
        let teams = match &table.state {
            State::Playing(playing) => Some(usize::from(playing.game().config().teams)),
            State::Lobby(_) => None,
        };
        if let Some(problem) = series.problem(teams) {
            return Err(format!("its series cannot be used: {problem}"));
        }
    }
    if table.guild.is_none() {
        table.guild = stored.guild_id.map(GuildId);
    }
    Ok(table)
}

/// What [`Tables::restore_from_store`] found.
#[derive(Debug, Default)]
pub struct Restored {
    /// What to post in each channel: notes of games whose end was not announced and of tables that
    /// could not be restored, then "resumed" notes (with the board), newest activity first.
    pub notes: Vec<(ChannelId, Reply)>,
    /// Channels whose table is back.
    pub resumed: Vec<ChannelId>,
    /// Channels whose table was set aside (kept in the store's quarantine), and why.
    pub lost: Vec<(ChannelId, String)>,
}

/// Stored games the profiles' rebuild adds per step (one transaction: moves wait for it at most
/// that long, about 15 ms).
const REBUILD_GAMES_PER_STEP: u32 = 64;

/// How long the profiles' rebuild waits after a step that failed before it tries again.
const REBUILD_RETRY: std::time::Duration = std::time::Duration::from_secs(10);

impl Tables {
    /// Rebuilds the players' profiles from the stored games on a thread of its own, a step at a
    /// time, if the store has a rebuild under way (after the upgrade that added profiles; issue 44:
    /// the bot is ready first, and profile reads say "being rebuilt" until it is done). A rebuild
    /// stopped halfway (the bot stopped) resumes at the next start. Without a store, nothing.
    pub fn rebuild_profiles_in_background(&self) -> Option<std::thread::JoinHandle<()>> {
        let store = self.store.clone()?;
        let spawned = std::thread::Builder::new()
            .name("profile-rebuild".into())
            .spawn(move || {
                let started = std::time::Instant::now();
                let mut steps = 0u64;
                loop {
                    match store.rebuild_profiles_step(REBUILD_GAMES_PER_STEP) {
                        Ok(true) => {
                            if steps == 0 {
                                tracing::info!(
                                    "rebuilding the players' profiles from the stored games in                                      the background; profiles answer 'being rebuilt' until done"
                                );
                            }
                            steps += 1;
                            // Lets a waiting move through between two steps.
                            std::thread::yield_now();
                        }
                        Ok(false) => {
                            if steps > 0 {
                                tracing::info!(
                                    secs = started.elapsed().as_secs_f64(),
                                    "the players' profiles are rebuilt"
                                );
                            }
                            return;
                        }
                        Err(e) => {
                            tracing::warn!(
                                "a step of the profiles' rebuild failed; trying again in {} s: {e}",
                                REBUILD_RETRY.as_secs()
                            );
                            std::thread::sleep(REBUILD_RETRY);
                        }
                    }
                }
            });
        match spawned {
            Ok(handle) => Some(handle),
            Err(e) => {
                tracing::error!("the profiles' rebuild could not be started: {e}");
                None
            }
        }
    }

    /// After a restart: loads every live table of this process's shards (all without a claim, see
    /// [`Tables::with_claim`]) from the store and puts it back, with its timers
    /// (see `Table::resume`). Tables that do not validate or cannot be read are set aside in the
    /// store's quarantine (never dropped) and reported. Blocking; without a store, restores nothing.
    pub fn restore_from_store(&self, now: Timestamp) -> Result<Restored, ServiceError> {
        let Some(store) = &self.store else {
            return Ok(Restored::default());
        };
        let shards = self.shards();
        if self.claim.as_ref().is_some_and(|c| !c.is_held()) {
            return Err(StoreError::NotOwner {
                shard: shards.first(),
            }
            .into());
        }
        let loaded = store.load_tables_of(shards)?;
        let mut restored = Restored::default();
        // Games that ended just before the restart and were never announced: announced now, in
        // their channels (marked once the message is out, see `Tables::mark_announced`).
        match store.unannounced_games() {
            Ok(games) => {
                let ours = games.into_iter().filter(|(_, g)| shards.owns(g.guild_id));
                for (id, game) in ours {
                    tracing::warn!(
                        channel = game.channel_id,
                        game = id.0,
                        "a game ended just before the restart and its end was never announced; announcing it now"
                    );
                    let mut message = unannounced_message(id, &game);
                    // The achievements it unlocked, which its final message would have named.
                    match store.unlocked_in(id) {
                        Ok(unlocked) => message.lines.extend(unlock_lines(
                            unlocked
                                .into_iter()
                                .map(|(user, achievement)| (Who::User(UserId(user)), achievement)),
                        )),
                        Err(e) => tracing::error!(
                            game = id.0,
                            "cannot read the achievements of a game: {e}"
                        ),
                    }
                    restored.notes.push((
                        ChannelId(game.channel_id),
                        Reply {
                            outputs: vec![Output::Channel(message)],
                            auto_move: false,
                        },
                    ));
                }
            }
            Err(e) => tracing::error!("cannot read the games whose end was not announced: {e}"),
        }
        let mut lost = |channel: ChannelId, reason: String| {
            restored.notes.push((
                channel,
                Reply {
                    outputs: vec![Output::Channel(Message::text(Text::NotRestored))],
                    auto_move: false,
                },
            ));
            restored.lost.push((channel, reason));
        };
        for q in loaded.quarantined {
            lost(ChannelId(q.channel_id), q.reason);
        }
        let mut resumed = Vec::new();
        for stored in loaded.tables {
            let channel = ChannelId(stored.channel_id);
            let mut table = match table_from_stored(&stored) {
                Ok(table) => table,
                Err(reason) => {
                    store.quarantine_table(stored.channel_id, &reason)?;
                    lost(channel, reason);
                    continue;
                }
            };
            let settings = self.settings_for(table.guild);
            // Before `resume`, which may give a turn that ran out while the bot was down new time.
            let activity = table.last_activity();
            let (reply, changed) = table.resume(now, &settings);
            if changed {
                if let Err(e) = self.persist.save(&table) {
                    // The deadline is recomputed the same way at the next start.
                    tracing::warn!(
                        channel = channel.0,
                        "cannot save the resumed turn timer: {e}"
                    );
                }
            }
            if self.restore(table) {
                resumed.push((activity, channel, reply));
            } else {
                tracing::warn!(
                    channel = channel.0,
                    "a table was already open; kept that one"
                );
            }
        }
        // Newest activity first: with thousands restored, the notes go out as the posting budget
        // allows (see `Tables::notes_to_post`), and the games played last are the likeliest to have
        // players waiting. The few notes of ended or lost games stay first.
        // (The channels themselves stay in the store's order.)
        restored.resumed = resumed.iter().map(|(_, channel, _)| *channel).collect();
        resumed.sort_by_key(|note| std::cmp::Reverse(note.0));
        for (_, channel, reply) in resumed {
            if !reply.outputs.is_empty() || reply.auto_move {
                restored.notes.push((channel, reply));
            }
        }
        Ok(restored)
    }

    /// Records that the final message of finished game `id` (the one with its [`Text::GameSaved`]
    /// line) was posted, so that it is not announced again after a restart. Blocking; errors are
    /// logged (the game is then announced once more at the next start).
    pub fn mark_announced(&self, id: i64) {
        if let Some(store) = &self.store {
            if let Err(e) = store.mark_announced(GameId(id)) {
                tracing::warn!(
                    game = id,
                    "cannot record that a game's end was announced: {e}"
                );
            }
        }
    }

    /// Stats, profiles, leaderboard, history and records of finished games, from the store
    /// (blocking).
    pub(super) fn history(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: &Actor,
        command: Command,
    ) -> Reply {
        let Some(store) = &self.store else {
            return Reply::ephemeral(Text::NoHistory);
        };
        let guild_id = guild.map(|g| g.0);
        // A player's own figures (stats, profile, head to head) are kept per server, and outside
        // servers per chat: no chat sees another's games.
        let standing = Some(crate::store::standing_scope(guild_id, channel.0));
        let public = |text: Text| Reply {
            outputs: vec![Output::Channel(Message::text(text))],
            auto_move: false,
        };
        let result = match command {
            Command::Stats { user } => {
                let user = user.unwrap_or(actor.user);
                store.player_stats(standing, user.0).and_then(|s| {
                    let rating = store.player_rating(standing, user.0, RECENT_CHANGES)?;
                    let agreement =
                        store.recent_agreement(standing, user.0, crate::store::AGREEMENT_GAMES)?;
                    let series = store.series_stats(standing, user.0)?;
                    let mut lines = vec![Text::Stats {
                        who: Who::User(user),
                        totals: Totals {
                            games: s.games,
                            wins: s.wins,
                            sequences: s.sequences,
                        },
                        rating: rating.map(|r| RatingInfo::of(&r.rating, &r.changes)),
                        agreement: (agreement.games > 0).then_some(agreement),
                    }];
                    if series.played > 0 {
                        lines.push(Text::SeriesStats {
                            played: series.played,
                            won: series.won,
                        });
                    }
                    Ok(Reply {
                        outputs: vec![Output::Channel(Message::text_lines(lines))],
                        auto_move: false,
                    })
                })
            }
            Command::Profile { user } => super::profile::profile(&**store, standing, actor, user),
            Command::Versus { user } => super::profile::versus(&**store, standing, actor, user),
            Command::Leaderboard => {
                store
                    .rating_leaderboard(guild_id, LIST_LENGTH)
                    .and_then(|rows| {
                        let lines = rows
                            .into_iter()
                            .map(|row| {
                                let s = store.player_stats(guild_id, row.user_id)?;
                                Ok(LeaderLine {
                                    who: Who::User(UserId(row.user_id)),
                                    totals: Totals {
                                        games: s.games,
                                        wins: s.wins,
                                        sequences: s.sequences,
                                    },
                                    rating: RatingInfo::of(&row.rating, &[]),
                                })
                            })
                            .collect::<Result<Vec<_>, StoreError>>()?;
                        Ok(public(Text::Leaderboard(lines)))
                    })
            }
            Command::History => store.recent_games(guild_id, LIST_LENGTH).map(|games| {
                public(Text::History(
                    games
                        .into_iter()
                        .map(|game| {
                            let who = |p: &PlayerResult| match p.user_id {
                                BOT_USER_ID => Who::Bot(p.name.clone()),
                                id => Who::User(UserId(id)),
                            };
                            HistoryLine {
                                id: game.id.0,
                                variant: game.variant.parse::<Variant>().ok(),
                                finished_at: game.finished_at.div_euclid(1000),
                                players: game.players.iter().map(who).collect(),
                                winners: game.players.iter().filter(|p| p.won).map(who).collect(),
                                aborted: game.aborted,
                            }
                        })
                        .collect(),
                ))
            }),
            Command::Record { game } => {
                let id = match game {
                    Some(id) => Ok(Some(crate::store::GameId(id))),
                    None => store.latest_game_in_channel(guild_id, channel.0),
                };
                id.and_then(|id| match id {
                    None => Ok(Reply::ephemeral(Text::NoGameHere)),
                    Some(id) => store.game_record(id, guild_id).map(|record| match record {
                        None => Reply::ephemeral(Text::NoSuchGame(id.0)),
                        Some(json) => Reply {
                            outputs: vec![Output::Ephemeral(Message {
                                lines: vec![Text::GameRecord { id: id.0 }],
                                attachment: Some(Attachment {
                                    filename: format!("sequence-game-{}.json", id.0),
                                    data: pretty(&json),
                                }),
                                ..Message::default()
                            })],
                            auto_move: false,
                        },
                    }),
                })
            }
            Command::Replay { game } => {
                let id = match game {
                    Some(id) => Ok(Some(crate::store::GameId(id))),
                    None => store.latest_game_in_channel(guild_id, channel.0),
                };
                id.and_then(|id| match id {
                    None => Ok(Reply::ephemeral(Text::NoGameHere)),
                    Some(id) => store.game_record(id, guild_id).map(|record| {
                        match record.as_deref().map(Record::from_json) {
                            None => Reply::ephemeral(Text::NoSuchGame(id.0)),
                            Some(Err(e)) => {
                                tracing::error!(game = id.0, "a stored record is unreadable: {e}");
                                Reply::ephemeral(Text::HistoryFailed)
                            }
                            Some(Ok(record)) => Reply {
                                outputs: vec![Output::Channel(Message {
                                    lines: vec![Text::GameReplay { id: id.0 }],
                                    image: Some(Image::Replay(ReplayImage { record, slot: None })),
                                    ..Message::default()
                                })],
                                auto_move: false,
                            },
                        }
                    }),
                })
            }
            _ => return Reply::ephemeral(Text::Internal),
        };
        result.unwrap_or_else(|e| {
            tracing::error!(channel = channel.0, "cannot read the history: {e}");
            Reply::ephemeral(Text::HistoryFailed)
        })
    }
}

impl Message {
    /// The finished game this message announces (the final message of a game, with its
    /// [`Text::GameSaved`] line): once it is posted, see [`Tables::mark_announced`].
    pub fn announced_game(&self) -> Option<i64> {
        self.lines.iter().find_map(|line| match line {
            Text::GameSaved { id } => Some(*id),
            _ => None,
        })
    }
}

/// The message for a game whose end was never announced: what its final message would have said
/// (the result, or nothing for a stopped game), the final board and the record.
fn unannounced_message(id: GameId, game: &FinishedGame) -> Message {
    let mut lines = vec![Text::EndedWhileRestarting];
    let variant = game.variant.parse::<Variant>().ok();
    let ended = Record::from_json(&game.record_json)
        .ok()
        .and_then(|record| record.replay().ok())
        .and_then(Result::ok);
    let who = |p: &PlayerResult| match p.user_id {
        BOT_USER_ID => Who::Bot(p.name.clone()),
        user => Who::User(UserId(user)),
    };
    let winners: Vec<&PlayerResult> = game.players.iter().filter(|p| p.won).collect();
    match (winners.first(), variant) {
        (Some(first), Some(variant)) => lines.push(Text::Won {
            team: TeamName::of(variant, first.team),
            members: winners.iter().map(|p| who(p)).collect(),
        }),
        _ if ended.as_ref().is_some_and(|g| g.position().is_over()) => lines.push(Text::Drawn),
        _ => {}
    }
    lines.push(Text::RecordAttached);
    lines.push(Text::GameSaved { id: id.0 });
    let names = game.players.iter().map(|p| p.name.clone()).collect();
    Message {
        lines,
        image: ended.map(|g| Image::Board(BoardImage::of(&g, names))),
        attachment: Some(Attachment {
            filename: format!("sequence-{}.json", game.channel_id),
            data: pretty(&game.record_json),
        }),
        ..Message::default()
    }
}

/// A stored record, indented for people (as it was stored if it does not parse).
fn pretty(json: &str) -> Vec<u8> {
    serde_json::from_str::<serde_json::Value>(json)
        .ok()
        .and_then(|v| serde_json::to_vec_pretty(&v).ok())
        .unwrap_or_else(|| json.as_bytes().to_vec())
}

/// The current time in unix milliseconds.
fn now_ms() -> i64 {
    i64::try_from(Timestamp::now().0).unwrap_or(i64::MAX)
}
