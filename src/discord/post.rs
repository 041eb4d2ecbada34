//! What goes out without answering an interaction: the Discord adapter as a [`Face`] of the service,
//! which sends one output at a time: channel posts (a refused one pauses the table), the lobby
//! message, old prompts disarmed, direct messages (a hand edited in place). What is owed after posting
//! (ids kept, prompts disarmed, a refused hand said in the channel, a game's end announced and its
//! follow-up) is the service's ([`Tables::acknowledge`](crate::service::Tables::acknowledge)), and
//! so are the timers and the computer players (the host publishes them; [`Discord`] subscribes).
//! No lock of the service is held while waiting on Discord.
//!
//! Languages: what goes to the channel is in the server's preferred locale; a direct message is in
//! its recipient's last seen locale, else the channel's. Anything else falls back to English.

use std::num::NonZeroU64;

use poise::serenity_prelude as serenity;

use crate::i18n::Lang;
use crate::service::{
    action_rows, ChannelId, Face, FaceId, Message, Output, Reply, Sent, Text, Timestamp, UserId,
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

/// The Discord adapter as a face of the service: it sends one output (see the module's words).
#[derive(Clone)]
pub(super) struct Discord {
    ctx: serenity::Context,
    data: Data,
}

impl Discord {
    /// The face, from a handler's context and state.
    pub(super) fn new(ctx: &serenity::Context, data: &Data) -> Discord {
        Discord {
            ctx: ctx.clone(),
            data: data.clone(),
        }
    }
}

impl Face for Discord {
    fn id(&self) -> FaceId {
        FaceId::Discord
    }

    async fn send(&self, channel: ChannelId, output: &Output) -> Sent {
        let (ctx, data) = (&self.ctx, &self.data);
        match output {
            Output::Channel(message) => {
                let out = prepare(data, message, channel_lang(ctx, data, channel)).await;
                match post(ctx, data, channel, out).await {
                    Some(posted) => Sent::Posted(posted.id.get()),
                    None => Sent::Nothing,
                }
            }
            Output::Disarm { .. } => {
                disarm(ctx, data, channel, output).await;
                Sent::Nothing
            }
            Output::Lobby {
                message_id,
                message,
            } => show_lobby(ctx, data, channel, *message_id, message).await,
            Output::Direct { user, message } => direct(ctx, data, channel, *user, message).await,
            // Private answers have nobody to go to here.
            Output::Ephemeral(_) | Output::Update(_) => Sent::Nothing,
        }
    }

    fn sends_replays_aside(&self) -> bool {
        true
    }
}

/// Sends a reply that answers no interaction (a restart's note, a resumed table's board) through
/// the service, which plays the computer moves it calls for.
pub(super) async fn send_unprompted(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    reply: Reply,
) {
    let face = Discord::new(ctx, data);
    data.tables.deliver_reply(&face, channel, &reply).await;
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
) -> Sent {
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
        return Sent::Nothing;
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
            Ok(_) => return Sent::Nothing,
            Err(e) => data
                .tables
                .log_span(channel)
                .in_scope(|| tracing::debug!(channel = channel.0, "lobby message not edited: {e}")),
        }
    }
    match post(ctx, data, channel, out).await {
        Some(posted) => Sent::Lobby(posted.id.get()),
        None => Sent::Nothing,
    }
}

/// Sends a direct message: [`Sent::Hand`] for a new hand message, [`Sent::DmRefused`] when the user
/// takes no DMs (the service then says so in the channel, revealing nothing, and points them to
/// `/sequence hand`). A hand goes to the game's one hand message of the player, edited in place (an
/// edit does not notify); a new one only when there is none yet in this game or Discord refuses the
/// edit (the player deleted it: 10008 Unknown Message). The service sends one player's hand messages
/// one at a time.
async fn direct(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    user: UserId,
    message: &Message,
) -> Sent {
    let Some(target) = discord_user(user) else {
        return Sent::Nothing;
    };
    let hand = message
        .lines
        .iter()
        .any(|line| matches!(line, Text::Hand { .. }));
    if hand && !data.tables.is_seated_in_game(channel, user) {
        // The game ended (or they left it) while this hand was on its way.
        return Sent::Nothing;
    }
    let out = prepare(data, message, user_lang(ctx, data, channel, user)).await;
    let dm = match retrying("open a DM", || target.create_dm_channel(ctx)).await {
        Ok(dm) => dm,
        Err(e) => {
            tracing::info!(user = user.0, "direct message not delivered: {e}");
            return Sent::DmRefused;
        }
    };
    if hand && edit_hand(ctx, data, channel, user, dm.id, &out).await {
        return Sent::Nothing;
    }
    if hand && !data.tables.is_seated_in_game(channel, user) {
        // The game ended while the hand was drawn: no new message for it.
        return Sent::Nothing;
    }
    let more = out.more.clone();
    let sent = retrying("send a DM", || {
        dm.send_message(ctx, create_message(out.clone()))
    })
    .await;
    let posted = match sent {
        Ok(posted) => posted,
        Err(e) => {
            tracing::info!(user = user.0, "direct message not delivered: {e}");
            return Sent::DmRefused;
        }
    };
    for chunk in more {
        let next = serenity::CreateMessage::new()
            .content(chunk.clone())
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if let Err(e) = retrying("send a DM", || dm.send_message(ctx, next.clone())).await {
            tracing::info!(user = user.0, "direct message not delivered: {e}");
            break;
        }
    }
    if hand {
        Sent::Hand(posted.id.get())
    } else {
        Sent::Nothing
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

/// Sends one output that needs no interaction (channel, lobby, DM) through the service, which
/// makes what is owed after it. Private messages have nobody to go to here and are dropped.
pub(super) async fn send_output(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    output: &Output,
) {
    let face = Discord::new(ctx, data);
    data.tables
        .deliver(&face, channel, std::slice::from_ref(output))
        .await;
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
