//! After a restart: the tables put back from the store (with their timers), the games whose end was
//! never announced announced now, and the players' profiles rebuilt in the background.

use crate::engine::record::Record;
use crate::engine::Variant;
use crate::service::persist::{pretty, table_from_stored, Restored, ServiceError};
use crate::service::text::{unlock_lines, TeamName};
use crate::service::{
    Attachment, BoardImage, ChannelId, Image, Message, Output, Reply, Text, Timestamp, UserId, Who,
};
use crate::store::{FinishedGame, GameId, PlayerResult, StoreError, BOT_USER_ID};

use super::Tables;

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
            if self
                .restoring
                .as_ref()
                .is_some_and(|faces| !faces.contains(&table.face))
            {
                restored.left.push(channel);
                continue;
            }
            let settings = self.settings_for(table.guild);
            // Before `resume`, which may give a turn that ran out while the bot was down new time.
            let activity = table.last_activity();
            let (mut reply, changed) = table.resume(now, &settings);
            let links = self.table_links(&table, &settings);
            crate::service::save::offer_links(&mut reply, &links, false, false);
            // A table saved before its web token had a column of its own (or given one on this
            // load) is saved once, so that other processes find its page.
            let token_unsaved = !table.web_token.is_empty()
                && stored.web_token.as_deref() != Some(&table.web_token);
            if changed || token_unsaved {
                // If it fails, the deadline is recomputed the same way at the next start.
                self.save(&table, "the resumed turn timer");
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
