//! The store behind the bot: opening it at start and restoring every table (with a note in each
//! channel), and the `/sequence stats | leaderboard | history | record` commands.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::service::{ChannelId, Command, Reply, Restored, Tables, Timestamp, UserId};
use crate::store::{open_store, ShardClaim, ShardSet};

use super::commands::run;
use super::{deliver, BotConfig, Context, Data, DiscordError, Error};

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

/// Restart notes taken from the queue per pass: each is charged to its server's budget just before
/// it is posted, so a pass is kept short.
const NOTES_PER_PASS: usize = 16;

/// How long the notes wait when every server with notes left has spent its posting budget.
const NOTES_WAIT: Duration = Duration::from_millis(500);

/// Posts the notes of a restart ("resumed", or "could not be restored"), newest activity first (the
/// order [`Tables::restore_from_store`] gives them), as each server's posting budget allows, and
/// starts the computer players that are due. Runs as a task of its own, one note at a time (one board
/// drawn at a time): moves in restored channels are answered meanwhile, and the timer plays their
/// due computer moves whether or not their note is out yet.
pub(super) async fn post_restart_notes(
    ctx: serenity::Context,
    data: Data,
    notes: Vec<(ChannelId, Reply)>,
) {
    let total = notes.len();
    let mut pending: std::collections::VecDeque<_> = notes.into();
    let started = std::time::Instant::now();
    while !pending.is_empty() {
        let ready = data
            .tables
            .notes_to_post(&mut pending, Timestamp::now(), NOTES_PER_PASS);
        if ready.is_empty() {
            tokio::time::sleep(NOTES_WAIT).await;
            continue;
        }
        for (channel, reply) in ready {
            for output in &reply.outputs {
                deliver::send_output(&ctx, &data, channel, output).await;
            }
            if reply.auto_move {
                deliver::spawn_auto(ctx.clone(), data.clone(), channel);
            }
        }
    }
    if total > 0 {
        tracing::info!(
            notes = total,
            seconds = started.elapsed().as_secs(),
            "restart notes posted"
        );
    }
}

/// A player's games, wins and sequences on this server.
#[poise::command(slash_command, guild_only)]
pub(super) async fn stats(
    ctx: Context<'_>,
    #[description = "Whose stats (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    run(
        ctx,
        Command::Stats {
            user: user.map(|u| UserId(u.id.get())),
        },
    )
    .await
}

/// The best players of this server.
#[poise::command(slash_command, guild_only)]
pub(super) async fn leaderboard(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Leaderboard).await
}

/// The latest finished games of this server, with their numbers.
#[poise::command(slash_command, guild_only)]
pub(super) async fn history(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::History).await
}

/// Download the record of a finished game (default: the last one of this channel).
#[poise::command(slash_command, guild_only)]
pub(super) async fn record(
    ctx: Context<'_>,
    #[description = "The game's number, from /sequence history"]
    #[min = 1]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Record { game }).await
}

/// Post the animated replay of a finished game (default: the last one of this channel).
#[poise::command(slash_command, guild_only)]
pub(super) async fn replay(
    ctx: Context<'_>,
    #[description = "The game's number, from /sequence history"]
    #[min = 1]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Replay { game }).await
}
