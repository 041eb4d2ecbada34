//! What goes out without answering an interaction: channel posts (a refused one pauses the table),
//! the lobby message, old prompts disarmed, direct messages (said in the channel, once per game, when
//! a member takes none), the follow-ups of a finished game; and what produces them: the timer loop
//! and the computer players' driver. No lock of the service is held while waiting on Discord.
//!
//! Languages: what goes to the channel is in the server's preferred locale; a direct message is in
//! its recipient's last seen locale, else the channel's. Anything else falls back to English.

use std::num::NonZeroU64;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::i18n::Lang;
use crate::service::{
    action_rows, ChannelId, Image, Later, Message, Output, ReplayImage, Reply, Text, Timestamp,
    UserId, Who,
};

use super::localize::channel_lang;
use super::outgoing::{
    component_rows, create_message, discord_channel, discord_user, prepare, Outgoing,
};
use super::relay;
use super::retry::{is_refused_for_permissions, retrying};
use super::Data;

/// Posts a message in a channel, then the rest of a long text. A channel whose permissions no longer
/// let the bot post pauses its table.
pub(super) async fn post(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    out: Outgoing,
) -> Option<serenity::Message> {
    if data.tables.is_answers_only(channel) {
        // No post is possible there: the message rides on an interaction, or waits for one.
        return relay::send(ctx, data, channel, out).await;
    }
    let target = discord_channel(channel)?;
    let more = out.more.clone();
    let posted = match retrying("post in a channel", || {
        target.send_message(ctx, create_message(out.clone()))
    })
    .await
    {
        Ok(message) => message,
        Err(e) if is_refused_for_permissions(&e) => {
            // The channel's permissions changed: the game waits until the bot may post again.
            pause(data, channel).await;
            return None;
        }
        Err(e) => {
            data.tables.log_span(channel).in_scope(|| {
                tracing::warn!(channel = channel.0, "cannot post in the channel: {e}")
            });
            return None;
        }
    };
    for chunk in more {
        let next = serenity::CreateMessage::new()
            .content(chunk)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if let Err(e) = retrying("post in a channel", || {
            target.send_message(ctx, next.clone())
        })
        .await
        {
            data.tables.log_span(channel).in_scope(|| {
                tracing::warn!(channel = channel.0, "cannot post in the channel: {e}")
            });
        }
    }
    Some(posted)
}

/// Pauses the table of a channel that refused a post (on a blocking thread: the pause is saved).
async fn pause(data: &Data, channel: ChannelId) {
    let tables = data.tables.clone();
    let paused = tokio::task::spawn_blocking(move || tables.pause(channel, Timestamp::now())).await;
    if let Err(e) = paused {
        data.tables
            .log_span(channel)
            .in_scope(|| tracing::error!(channel = channel.0, "pausing the table failed: {e}"));
    }
}

/// Sends a reply that answers no interaction (channel posts, DMs), then its computer moves.
pub(super) async fn send_unprompted(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    reply: Reply,
) {
    for output in &reply.outputs {
        send_output(ctx, data, channel, output).await;
    }
    if reply.auto_move {
        spawn_auto(ctx.clone(), data.clone(), channel);
    }
}

/// The language of a direct message to `user`: theirs if seen, else the channel's.
fn user_lang(ctx: &serenity::Context, data: &Data, channel: ChannelId, user: UserId) -> Lang {
    data.tables
        .user_language(user)
        .unwrap_or_else(|| channel_lang(ctx, data, channel))
}

/// Edits the lobby message, or posts it (and tells the service its id) if there is none yet.
async fn show_lobby(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    message_id: Option<u64>,
    message: &Message,
) {
    let out = prepare(data, message, channel_lang(ctx, data, channel)).await;
    if let (Some(id), true) = (message_id, data.tables.is_answers_only(channel)) {
        // Where the bot may only answer, the card is edited through the token that sent it while
        // that lives; else it changes with the next press on it (each answers in place). A new card
        // each time would only clutter.
        let body = serde_json::json!({
            "content": out.content,
            "components": out.components,
            "allowed_mentions": {"parse": []},
        });
        relay::edit(ctx, data, channel, id, body).await;
        return;
    }
    if let (Some(target), Some(id)) = (
        discord_channel(channel),
        message_id.and_then(NonZeroU64::new),
    ) {
        let edit = serenity::EditMessage::new()
            .content(out.content.clone())
            .allowed_mentions(serenity::CreateAllowedMentions::new())
            .components(out.components.clone());
        match retrying("edit the lobby", || {
            target.edit_message(ctx, serenity::MessageId::from(id), edit.clone())
        })
        .await
        {
            Ok(_) => return,
            Err(e) => data
                .tables
                .log_span(channel)
                .in_scope(|| tracing::debug!(channel = channel.0, "lobby message not edited: {e}")),
        }
    }
    if let Some(posted) = post(ctx, data, channel, out).await {
        remember_lobby(data, channel, posted.id.get()).await;
    }
}

/// Tells the service the id of the lobby message it posted, on a blocking thread (the id is saved), and
/// waits until it knows: a press or command that follows at once then edits this lobby instead of
/// posting a second one.
pub(super) async fn remember_lobby(data: &Data, channel: ChannelId, message_id: u64) {
    let tables = data.tables.clone();
    if let Err(e) =
        tokio::task::spawn_blocking(move || tables.set_lobby_message(channel, message_id)).await
    {
        tracing::error!(
            channel = channel.0,
            "cannot remember the lobby message: {e}"
        );
    }
}

/// Sends a direct message; if the user does not take DMs, says so in the channel (revealing nothing)
/// and points them to `/sequence hand`. A hand goes to the game's one hand message of the player,
/// edited in place (an edit does not notify); a new one only when there is none yet in this game or
/// Discord refuses the edit (the player deleted it: 10008 Unknown Message).
async fn direct(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    user: UserId,
    message: &Message,
) {
    let Some(target) = discord_user(user) else {
        return;
    };
    let hand = message
        .lines
        .iter()
        .any(|line| matches!(line, Text::Hand { .. }));
    if hand && !data.tables.is_seated_in_game(channel, user) {
        // The game ended (or they left it) while this hand was on its way.
        return;
    }
    let out = prepare(data, message, user_lang(ctx, data, channel, user)).await;
    // One player's hand messages one at a time: a second change waits for the first message's id
    // instead of sending a second message.
    let _one_at_a_time = match hand {
        true => Some(data.hand_lock(channel, user).lock().await),
        false => None,
    };
    let sent = match retrying("open a DM", || target.create_dm_channel(ctx)).await {
        Ok(dm) => {
            if hand && edit_hand(ctx, data, channel, user, dm.id, &out).await {
                return;
            }
            if hand && !data.tables.is_seated_in_game(channel, user) {
                // The game ended while the hand was drawn: no new message for it.
                return;
            }
            let more = out.more.clone();
            let mut sent = retrying("send a DM", || {
                dm.send_message(ctx, create_message(out.clone()))
            })
            .await;
            if let (true, Ok(posted)) = (hand, &sent) {
                remember_hand(data, channel, user, posted.id.get()).await;
            }
            for chunk in more {
                if sent.is_ok() {
                    sent = retrying("send a DM", || {
                        let next = serenity::CreateMessage::new()
                            .content(chunk.clone())
                            .allowed_mentions(serenity::CreateAllowedMentions::new());
                        dm.send_message(ctx, next)
                    })
                    .await;
                }
            }
            sent.map(|_| ())
        }
        Err(e) => Err(e),
    };
    if let Err(e) = sent {
        tracing::info!(user = user.0, "direct message not delivered: {e}");
        // Only a hand needs another way to the player (the notice points to Show my cards); a note
        // such as a challenge declined is left at that: the lobby shows who is still invited.
        if !hand || !data.tables.note_dm_failed(channel, user) {
            // Told once per game already.
            return;
        }
        let notice = Message {
            lines: vec![Text::DmFailed(Who::User(user))],
            mentions: vec![user],
            ..Message::default()
        };
        let out = prepare(data, &notice, channel_lang(ctx, data, channel)).await;
        post(ctx, data, channel, out).await;
    }
}

/// Edits the player's hand message of this game in their DM channel `dm` to show `out`: whether it
/// was edited. False when there is none yet, the hand needs more than one message, or Discord
/// refuses the edit (the message was deleted, or the DM closed): the caller then sends a new one.
async fn edit_hand(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    user: UserId,
    dm: serenity::ChannelId,
    out: &Outgoing,
) -> bool {
    let Some(id) = data.tables.hand_dm(channel, user).and_then(NonZeroU64::new) else {
        return false;
    };
    if !out.more.is_empty() {
        return false;
    }
    // The new picture replaces the old one (a hand message has no other attachment).
    let mut edit = serenity::EditMessage::new()
        .content(out.content.clone())
        .allowed_mentions(out.mentions.clone())
        .components(out.components.clone())
        .remove_all_attachments();
    for file in &out.files {
        edit = edit.new_attachment(file.clone());
    }
    match retrying("edit a hand DM", || {
        dm.edit_message(ctx, serenity::MessageId::from(id), edit.clone())
    })
    .await
    {
        Ok(_) => true,
        Err(e) => {
            tracing::info!(
                user = user.0,
                "hand message not edited, a new one is sent: {e}"
            );
            false
        }
    }
}

/// Tells the service the id of a player's new hand message, on a blocking thread (the id is saved
/// with the table), and waits until it knows: the next change of the hand edits this message.
async fn remember_hand(data: &Data, channel: ChannelId, user: UserId, message_id: u64) {
    let tables = data.tables.clone();
    if let Err(e) =
        tokio::task::spawn_blocking(move || tables.set_hand_dm(channel, user, message_id)).await
    {
        tracing::error!(channel = channel.0, "cannot remember the hand message: {e}");
    }
}

/// Sends one output that needs no interaction (channel, lobby, DM). Private messages have nobody to
/// go to here and are dropped.
pub(super) async fn send_output(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    output: &Output,
) {
    match output {
        Output::Channel(message) if matches!(message.image, Some(Image::Replay(_))) => {
            // An animation takes a while to draw: posted on its own task, so nothing after it (a
            // private answer, the next prompt) waits for it. It follows the message before it, which
            // is already posted.
            let (ctx, data, message) = (ctx.clone(), data.clone(), message.clone());
            tokio::spawn(async move {
                let out = prepare(&data, &message, channel_lang(&ctx, &data, channel)).await;
                let posted = post(&ctx, &data, channel, out).await.is_some();
                // Posted or not, its slot in the replay queue is free again.
                if let Some(Image::Replay(ReplayImage {
                    slot: Some(slot), ..
                })) = &message.image
                {
                    data.tables.replay_posted(*slot);
                }
                if posted {
                    mark_announced(&data, &message).await;
                }
            });
        }
        Output::Channel(message) => {
            let out = prepare(data, message, channel_lang(ctx, data, channel)).await;
            if let Some(posted) = post(ctx, data, channel, out).await {
                mark_announced(data, message).await;
                spawn_agreement(ctx.clone(), data.clone(), channel, message);
                for edit in data.tables.note_prompt(channel, posted.id.get(), message) {
                    disarm(ctx, data, channel, &edit).await;
                }
            }
        }
        Output::Disarm { .. } => disarm(ctx, data, channel, output).await,
        Output::Lobby {
            message_id,
            message,
        } => show_lobby(ctx, data, channel, *message_id, message).await,
        Output::Direct { user, message } => direct(ctx, data, channel, *user, message).await,
        Output::Ephemeral(_) | Output::Update(_) => {}
    }
}

/// Takes the Play button off an old turn prompt (an [`Output::Disarm`]); a prompt that is gone is left
/// alone.
async fn disarm(ctx: &serenity::Context, data: &Data, channel: ChannelId, output: &Output) {
    let Output::Disarm {
        message_id,
        buttons,
    } = output
    else {
        return;
    };
    let answers_only = data.tables.is_answers_only(channel);
    let (Some(target), Some(id)) = (discord_channel(channel), NonZeroU64::new(*message_id)) else {
        return;
    };
    let message = Message {
        buttons: buttons.clone(),
        ..Message::default()
    };
    let rows = component_rows(&action_rows(&message), channel_lang(ctx, data, channel));
    if answers_only {
        // Through the token that sent the prompt, while it lives (only the buttons change: the
        // board picture stays); past that an old Play button answers that its turn is over.
        let body = serde_json::json!({ "components": rows });
        relay::edit(ctx, data, channel, *message_id, body).await;
        return;
    }
    let edit = serenity::EditMessage::new().components(rows);
    if let Err(e) = retrying("take the Play button off an old prompt", || {
        target.edit_message(ctx, serenity::MessageId::from(id), edit.clone())
    })
    .await
    {
        tracing::info!(
            channel = channel.0,
            message = message_id,
            "cannot edit an old prompt: {e}"
        );
    }
}

/// After a channel message was posted: if it is a game's final message, the store records that the
/// game's end was announced (otherwise it is announced again after a restart).
pub(super) async fn mark_announced(data: &Data, message: &Message) {
    if let Some(id) = message.announced_game() {
        let tables = data.tables.clone();
        if let Err(e) = tokio::task::spawn_blocking(move || tables.mark_announced(id)).await {
            tracing::warn!(
                game = id,
                "cannot record that a game's end was announced: {e}"
            );
        }
    }
}

/// After a game's final message was posted: its follow-up, each human's agreement with the computer,
/// posted in the channel when the analysis is done (it runs between live computer moves).
pub(super) fn spawn_agreement(
    ctx: serenity::Context,
    data: Data,
    channel: ChannelId,
    message: &Message,
) {
    let Some(id) = message.announced_game() else {
        return;
    };
    tokio::spawn(async move {
        let Some(follow_up) = data.tables.agreement_follow_up(id).await else {
            return;
        };
        let out = prepare(&data, &follow_up, channel_lang(&ctx, &data, channel)).await;
        post(&ctx, &data, channel, out).await;
    });
}

/// Posts a computer's move that did not come in time to go with the person's (see
/// [`Tables::with_quick_answer`](crate::service::Tables::with_quick_answer)) once it comes, then plays
/// the computer moves due after it.
pub(super) fn spawn_later(ctx: serenity::Context, data: Data, channel: ChannelId, later: Later) {
    tokio::spawn(async move {
        for reply in later.replies().await {
            for output in &reply.outputs {
                send_output(&ctx, &data, channel, output).await;
            }
        }
        spawn_auto(ctx, data, channel);
    });
}

/// Plays the due computer moves of a channel one by one (one driver per channel at a time).
pub(super) fn spawn_auto(ctx: serenity::Context, data: Data, channel: ChannelId) {
    {
        let mut driving = data.driving.lock().unwrap_or_else(|e| e.into_inner());
        if !driving.insert(channel.0) {
            return;
        }
    }
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(data.bot_delay).await;
            let Some(reply) = data.tables.auto_step(channel, Timestamp::now()).await else {
                break;
            };
            for output in &reply.outputs {
                send_output(&ctx, &data, channel, output).await;
            }
        }
        data.driving
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&channel.0);
    });
}

/// Every `every`: reminders, expired lobbies, timed-out turns and computer players.
pub(super) async fn timer_loop(ctx: serenity::Context, data: Data, every: Duration) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        // On a blocking thread: timers may save tables.
        let tables = data.tables.clone();
        let due = match tokio::task::spawn_blocking(move || tables.tick(Timestamp::now())).await {
            Ok(due) => due,
            Err(e) => {
                tracing::error!("the timers failed: {e}");
                continue;
            }
        };
        for (channel, reply) in due {
            for output in &reply.outputs {
                send_output(&ctx, &data, channel, output).await;
            }
            if reply.auto_move {
                spawn_auto(ctx.clone(), data.clone(), channel);
            }
        }
    }
}
