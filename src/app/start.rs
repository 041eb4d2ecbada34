//! Start-up and shutdown shared by every face: the computer player, the store opened and every
//! table restored, the stop signal.

use std::sync::Arc;
use std::time::Duration;

use crate::ai;
use crate::discord::DiscordError;
use crate::engine::{Move, Seat, View};
use crate::service::{BotLevel, MovePicker, Restored, Tables, Timestamp};
use crate::store::{open_store, ShardClaim, ShardSet};

use super::config::BotConfig;

/// The computer player behind bot seats and timed-out turns: `crate::ai`, thinking up to `think` per
/// move at the hard level.
pub fn move_picker(think: Duration) -> Arc<dyn MovePicker> {
    Arc::new(AiPicker { think })
}

/// Plays the service's bot seats with `crate::ai`.
struct AiPicker {
    think: Duration,
}

impl MovePicker for AiPicker {
    fn choose(&self, view: &View, history: &[(Seat, Move)], level: BotLevel, seed: u64) -> Move {
        ai::choose_move_after(view, history, level, &ai::Budget::capped(self.think), seed)
    }

    fn choose_thinking(
        &self,
        view: &View,
        history: &[(Seat, Move)],
        level: BotLevel,
        seed: u64,
        think: Option<Duration>,
    ) -> Move {
        let budget = ai::Budget::capped(think.unwrap_or(self.think));
        ai::choose_move_after(view, history, level, &budget, seed)
    }
}

/// Opens the configured store (a damaged SQLite file is repaired, the damaged one kept beside it; one
/// that cannot be read at all, is read-only or is in use by another process is an error), claims
/// `shards` in it (PostgreSQL: waiting up to `[sharding] wait_secs` for a stopping process to let go
/// of them, then an error; SQLite: only the whole set) and puts back every stored lobby and game of
/// those shards. Tables that cannot be restored are set aside in the store's quarantine and logged;
/// games whose end was never announced get their final message. All of it blocks, so it runs on a
/// blocking thread.
pub async fn open_and_restore(
    tables: Tables,
    config: &BotConfig,
    shards: ShardSet,
) -> Result<(Arc<Tables>, Restored, Arc<dyn ShardClaim>), DiscordError> {
    let database = config.database_config();
    let place = match &database.database_url {
        Some(_) => "PostgreSQL (database_url)".to_string(),
        None => database.path.display().to_string(),
    };
    let wait = Duration::from_secs(config.sharding.wait_secs);
    let joined = tokio::task::spawn_blocking(move || {
        let store = open_store(&database).map_err(|e| DiscordError::Store(e.to_string()))?;
        let claim = store
            .claim_shards(shards, wait)
            .map_err(|e| DiscordError::Store(e.to_string()))?;
        let tables = Arc::new(tables.with_store(store).with_claim(claim.clone()));
        let restored = match tables.restore_from_store(Timestamp::now()) {
            Ok(restored) => restored,
            Err(e) => {
                claim.release();
                return Err(DiscordError::Store(e.to_string()));
            }
        };
        // Ready first: an upgraded database's profiles are rebuilt behind the games (issue 44).
        drop(tables.rebuild_profiles_in_background());
        Ok::<_, DiscordError>((tables, restored, claim))
    })
    .await
    .map_err(|e| DiscordError::Store(format!("opening the database failed: {e}")))?;
    let (tables, restored, claim) = joined?;
    tracing::info!(
        database = %place,
        shards = %shards,
        restored = restored.resumed.len(),
        "database open"
    );
    for (channel, reason) in &restored.lost {
        tracing::warn!(
            channel = channel.0,
            "a stored game could not be restored and was set aside in the database's quarantine table: {reason}"
        );
    }
    Ok((tables, restored, claim))
}

/// Waits for Ctrl-C, or SIGTERM (how `docker stop` and systemd stop a process) where there is one.
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM ({e}); only Ctrl-C stops the bot");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
