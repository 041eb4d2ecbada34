//! Sends what the service answered: the interaction response (private or public), channel messages,
//! lobby edits and direct messages; renders images on a blocking thread; runs the timer loop and the
//! computer players. No lock of the service is held while waiting on Discord.
//!
//! Languages: what answers an interaction privately is in the user's Discord locale; what goes to the
//! channel is in the server's preferred locale; a direct message is in its recipient's last seen
//! locale, else the channel's. Anything else falls back to English.

use std::num::NonZeroU64;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::i18n::Lang;
use crate::service::picker::{
    MAX_BUTTONS_PER_ROW, MAX_BUTTON_LABEL, MAX_OPTIONS, MAX_OPTION_TEXT, MAX_PLACEHOLDER, MAX_ROWS,
};
use crate::service::{
    action_rows, command_for_component, Actor, ChannelId, Command, Control, GuildId, Image,
    Message, Output, ReplayImage, Reply, Request, Style, Text, Timestamp, UserId, Who,
};

use super::retry::{is_refused_for_permissions, retrying};
use super::window::{Ack, Window};
use super::{Context, Data, Error};

/// Discord's limit on message text.
const MAX_CONTENT: usize = 2000;

/// The languages of an interaction: the user's and the channel's (its server's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Langs {
    /// For private answers.
    pub user: Lang,
    /// For channel posts and the lobby.
    pub channel: Lang,
}

impl Langs {
    /// The languages of an interaction from the user's locale, the server's preferred locale and the
    /// channel's language as remembered: the channel follows the server (else what was remembered, else
    /// English), the user follows their own locale (else the channel).
    pub fn choose(user: Option<Lang>, guild: Option<Lang>, remembered: Option<Lang>) -> Langs {
        let channel = guild.or(remembered).unwrap_or_default();
        Langs {
            user: user.unwrap_or(channel),
            channel,
        }
    }
}

/// A message ready for Discord.
#[derive(Clone)]
struct Outgoing {
    content: String,
    /// Text past Discord's limit, sent as further plain messages.
    more: Vec<String>,
    mentions: serenity::CreateAllowedMentions,
    components: Vec<serenity::CreateActionRow>,
    files: Vec<serenity::CreateAttachment>,
}

/// Splits a long text into messages of at most [`MAX_CONTENT`] characters, at line breaks, before a
/// heading (`#`) where one is near; a single overlong line is clipped.
fn split_content(text: &str) -> Vec<String> {
    let mut chunks: Vec<String> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut length = 0;
    for line in text.split('\n') {
        let line = clip(line.to_string());
        let size = line.chars().count() + 1;
        if !current.is_empty() && length + size > MAX_CONTENT + 1 {
            // Start the next message at the last heading of this one, if it has one past its start.
            let cut = current
                .iter()
                .rposition(|l| l.starts_with('#'))
                .filter(|&i| i > 0)
                .unwrap_or(current.len());
            let carried = current.split_off(cut);
            chunks.push(current.join("\n"));
            current = carried;
            length = current.iter().map(|l| l.chars().count() + 1).sum();
        }
        length += size;
        current.push(line);
    }
    chunks.push(current.join("\n"));
    chunks
}

fn clip(text: String) -> String {
    if text.chars().count() <= MAX_CONTENT {
        return text;
    }
    let mut clipped: String = text.chars().take(MAX_CONTENT - 1).collect();
    clipped.push('…');
    clipped
}

fn discord_user(user: UserId) -> Option<serenity::UserId> {
    NonZeroU64::new(user.0).map(serenity::UserId::from)
}

fn discord_channel(channel: ChannelId) -> Option<serenity::ChannelId> {
    NonZeroU64::new(channel.0).map(serenity::ChannelId::from)
}

/// Text cut to `max` characters (the limits are met by the service; this only keeps a surprise from
/// making Discord refuse the whole message).
fn clip_to(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut clipped: String = text.chars().take(max.saturating_sub(1)).collect();
    clipped.push('…');
    clipped
}

/// The service's action rows as Discord components, labels in `lang`.
fn component_rows(rows: &[Vec<Control>], lang: Lang) -> Vec<serenity::CreateActionRow> {
    rows.iter()
        .take(MAX_ROWS)
        .filter_map(|row| {
            if let [Control::Select {
                id,
                placeholder,
                options,
            }] = row.as_slice()
            {
                let options = options
                    .iter()
                    .take(MAX_OPTIONS)
                    .map(|o| {
                        let label = clip_to(o.label.render(lang), MAX_OPTION_TEXT);
                        let option = serenity::CreateSelectMenuOption::new(label, o.value.clone());
                        match &o.description {
                            Some(d) => option.description(clip_to(d.render(lang), MAX_OPTION_TEXT)),
                            None => option,
                        }
                    })
                    .collect();
                let menu = serenity::CreateSelectMenu::new(
                    id.clone(),
                    serenity::CreateSelectMenuKind::String { options },
                )
                .placeholder(clip_to(placeholder.render(lang), MAX_PLACEHOLDER));
                return Some(serenity::CreateActionRow::SelectMenu(menu));
            }
            let buttons: Vec<serenity::CreateButton> = row
                .iter()
                .take(MAX_BUTTONS_PER_ROW)
                .filter_map(|control| match control {
                    Control::Button {
                        id,
                        label,
                        style,
                        disabled,
                    } => Some(
                        serenity::CreateButton::new(id.clone())
                            .label(clip_to(label.render(lang), MAX_BUTTON_LABEL))
                            .style(match style {
                                Style::Primary => serenity::ButtonStyle::Primary,
                                Style::Secondary => serenity::ButtonStyle::Secondary,
                                Style::Success => serenity::ButtonStyle::Success,
                                Style::Danger => serenity::ButtonStyle::Danger,
                            })
                            .disabled(*disabled),
                    ),
                    Control::Select { .. } => None,
                })
                .collect();
            (!buttons.is_empty()).then_some(serenity::CreateActionRow::Buttons(buttons))
        })
        .collect()
}

/// Draws an image on a blocking thread, its words in `lang`; `None` (text only) if drawing fails.
async fn render(data: &Data, image: &Image, lang: Lang) -> Option<serenity::CreateAttachment> {
    let painter = data.painter.clone();
    let image = image.clone();
    // A replay waits for the one replay slot first, then (like every image) for a free core; the
    // semaphores are never closed, so the permits are always granted.
    let replay = match image {
        Image::Replay(_) => data.replays.clone().acquire_owned().await.ok(),
        _ => None,
    };
    let permit = data.drawing.clone().acquire_owned().await.ok();
    let drawn = tokio::task::spawn_blocking(move || {
        let _permits = (permit, replay);
        match &image {
            Image::Board(board) => painter
                .board(board.view(), board.names(), lang, board.targets())
                .map(|png| (png, "board.png")),
            Image::Hand(hand) => painter.hand(hand.view(), lang).map(|png| (png, "hand.png")),
            Image::Replay(replay) => crate::render::animate::animate(&replay.record, &[], lang)
                .map(|animation| (animation.gif, "replay.gif"))
                .map_err(|e| e.to_string()),
        }
    })
    .await;
    match drawn {
        Ok(Ok((png, name))) => Some(serenity::CreateAttachment::bytes(png, name)),
        Ok(Err(e)) => {
            tracing::debug!("image not drawn: {e}");
            None
        }
        Err(e) => {
            tracing::error!("image drawing failed: {e}");
            None
        }
    }
}

async fn prepare(data: &Data, message: &Message, lang: Lang) -> Outgoing {
    let mut files = Vec::new();
    if let Some(image) = &message.image {
        files.extend(render(data, image, lang).await);
    }
    if let Some(attachment) = &message.attachment {
        files.push(serenity::CreateAttachment::bytes(
            attachment.data.clone(),
            attachment.filename.clone(),
        ));
    }
    let mut chunks = split_content(&message.render(lang)).into_iter();
    Outgoing {
        content: chunks.next().unwrap_or_default(),
        more: chunks.collect(),
        mentions: serenity::CreateAllowedMentions::new()
            .users(message.mentions.iter().filter_map(|&u| discord_user(u))),
        components: component_rows(&action_rows(message), lang),
        files,
    }
}

fn create_message(out: Outgoing) -> serenity::CreateMessage {
    serenity::CreateMessage::new()
        .content(out.content)
        .allowed_mentions(out.mentions)
        .components(out.components)
        .add_files(out.files)
}

fn private_message(out: Outgoing) -> serenity::CreateInteractionResponseMessage {
    serenity::CreateInteractionResponseMessage::new()
        .content(out.content)
        .ephemeral(true)
        .allowed_mentions(out.mentions)
        .components(out.components)
        .add_files(out.files)
}

fn private_followup(out: Outgoing) -> serenity::CreateInteractionResponseFollowup {
    serenity::CreateInteractionResponseFollowup::new()
        .content(out.content)
        .ephemeral(true)
        .allowed_mentions(out.mentions)
        .components(out.components)
        .add_files(out.files)
}

async fn post(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    out: Outgoing,
) -> Option<serenity::Message> {
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

/// What the bot may do where an interaction happened: the permission bits Discord sends with it
/// (`app_permissions`), and whether the channel is a thread (or forum post). In a private thread the
/// bot has not joined, posts fail with 50001 Missing Access although the bits come from the parent
/// channel; the gateway only tells the bot of private threads it is in, so one missing from the cache
/// counts as lacking View Channel. `None` without `app_permissions` (nothing is known).
pub(super) fn channel_access(
    ctx: &serenity::Context,
    guild: Option<serenity::GuildId>,
    channel: serenity::ChannelId,
    granted: Option<serenity::Permissions>,
    kind: Option<serenity::ChannelType>,
) -> Option<(u64, bool)> {
    let mut granted = granted?.bits();
    let thread = kind.is_some_and(is_thread);
    if kind == Some(serenity::ChannelType::PrivateThread) {
        let joined = guild
            .and_then(|g| ctx.cache.guild(g))
            .is_some_and(|g| g.threads.iter().any(|t| t.id == channel));
        if !joined {
            granted &= !serenity::Permissions::VIEW_CHANNEL.bits();
        }
    }
    Some((granted, thread))
}

/// Tells the service what the bot may do where an interaction happened ([`channel_access`]); it
/// resumes a paused table once the bot may post again. The returned reply (a note and the board) is
/// to be sent once the interaction is answered.
pub(super) async fn note_access(
    data: &Data,
    channel: ChannelId,
    access: Option<(u64, bool)>,
) -> Option<Reply> {
    let (granted, thread) = access?;
    let tables = data.tables.clone();
    let now = Timestamp::now();
    tokio::task::spawn_blocking(move || tables.note_access(channel, granted, thread, now))
        .await
        .ok()
        .flatten()
}

/// Whether a channel type is a thread (a forum post is a public thread).
pub(super) fn is_thread(kind: serenity::ChannelType) -> bool {
    matches!(
        kind,
        serenity::ChannelType::PublicThread
            | serenity::ChannelType::PrivateThread
            | serenity::ChannelType::NewsThread
    )
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

/// The language of a channel: as last seen on an interaction there, else its server's preferred
/// locale from the cache, else English.
fn channel_lang(ctx: &serenity::Context, data: &Data, channel: ChannelId) -> Lang {
    if let Some(lang) = data.tables.channel_language(channel) {
        return lang;
    }
    // Which server holds the channel: only asked once per channel (the answer is remembered).
    let guild = discord_channel(channel).and_then(|id| {
        ctx.cache.guilds().into_iter().find_map(|guild| {
            let guild = ctx.cache.guild(guild)?;
            guild
                .channels
                .contains_key(&id)
                .then(|| guild.preferred_locale.clone())
        })
    });
    match Lang::from_optional(guild.as_deref()) {
        Some(lang) => {
            data.tables
                .note_languages(channel, UserId(0), None, Some(lang));
            lang
        }
        None => Lang::En,
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
async fn remember_lobby(data: &Data, channel: ChannelId, message_id: u64) {
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
/// and points them to `/sequence hand`.
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
    let out = prepare(data, message, user_lang(ctx, data, channel, user)).await;
    let sent = match retrying("open a DM", || target.create_dm_channel(ctx)).await {
        Ok(dm) => {
            let more = out.more.clone();
            let mut sent = retrying("send a DM", || {
                dm.send_message(ctx, create_message(out.clone()))
            })
            .await
            .map(|_| ());
            for chunk in more {
                if sent.is_ok() {
                    sent = retrying("send a DM", || {
                        let next = serenity::CreateMessage::new()
                            .content(chunk.clone())
                            .allowed_mentions(serenity::CreateAllowedMentions::new());
                        dm.send_message(ctx, next)
                    })
                    .await
                    .map(|_| ());
                }
            }
            sent
        }
        Err(e) => Err(e),
    };
    if let Err(e) = sent {
        tracing::info!(user = user.0, "direct message not delivered: {e}");
        if !data.tables.note_dm_failed(channel, user) {
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
    let (Some(target), Some(id)) = (discord_channel(channel), NonZeroU64::new(*message_id)) else {
        return;
    };
    let message = Message {
        buttons: buttons.clone(),
        ..Message::default()
    };
    let rows = component_rows(&action_rows(&message), channel_lang(ctx, data, channel));
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
async fn mark_announced(data: &Data, message: &Message) {
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
fn spawn_agreement(ctx: serenity::Context, data: Data, channel: ChannelId, message: &Message) {
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

fn is_ack(message: &Message) -> bool {
    message.lines.first().is_some_and(Text::is_ack)
}

/// Which output answers a slash command: private content first, then a public post, then a new lobby
/// message, then a confirmation.
fn primary_for_command(outputs: &[Output]) -> Option<usize> {
    let find = |f: &dyn Fn(&Output) -> bool| outputs.iter().position(f);
    find(&|o| matches!(o, Output::Ephemeral(m) | Output::Update(m) if !is_ack(m)))
        .or_else(|| find(&|o| matches!(o, Output::Channel(_))))
        .or_else(|| {
            find(&|o| {
                matches!(
                    o,
                    Output::Lobby {
                        message_id: None,
                        ..
                    }
                )
            })
        })
        .or_else(|| find(&|o| matches!(o, Output::Ephemeral(_))))
}

/// Answers a slash command with the service's reply, then sends everything else.
pub(super) async fn respond_to_command(
    ctx: Context<'_>,
    channel: ChannelId,
    reply: Reply,
    langs: Langs,
) -> Result<(), Error> {
    let data = ctx.data();
    let discord = ctx.serenity_context();
    // A replay the member asked for holds its slot in the replay queue until this answer is done.
    let _replays = data.tables.replays_held(&reply);
    let primary = primary_for_command(&reply.outputs);
    let answer = primary
        .and_then(|i| reply.outputs.get(i))
        .and_then(|output| {
            Some(match output {
                Output::Ephemeral(m) | Output::Update(m) => (output, m, true, false),
                Output::Channel(m) => (output, m, false, false),
                Output::Lobby { message, .. } => (output, message, false, true),
                Output::Direct { message, .. } => (output, message, true, false),
                Output::Disarm { .. } => return None,
            })
        });
    if let Some((output, message, private, lobby)) = answer {
        if message.image.is_some() || message.attachment.is_some() {
            // Drawing may take longer than the three seconds Discord waits for an answer.
            if private {
                retrying("defer", || ctx.defer_ephemeral()).await?;
            } else {
                retrying("defer", || ctx.defer()).await?;
            }
        }
        let lang = if private { langs.user } else { langs.channel };
        let out = prepare(data, message, lang).await;
        let more = out.more.clone();
        let mut builder = poise::CreateReply::default()
            .content(out.content)
            .ephemeral(private)
            .allowed_mentions(out.mentions)
            .components(out.components);
        for file in out.files {
            builder = builder.attachment(file);
        }
        let handle = retrying("answer", || ctx.send(builder.clone())).await?;
        if lobby {
            let posted = retrying("read the answer", || handle.message()).await?;
            remember_lobby(data, channel, posted.id.get()).await;
        }
        send_more(ctx, more, private).await?;
        if matches!(output, Output::Channel(_)) {
            mark_announced(data, message).await;
            spawn_agreement(discord.clone(), data.clone(), channel, message);
        }
    } else {
        say_private(ctx, &Text::Internal).await;
    }
    for (i, output) in reply.outputs.iter().enumerate() {
        if Some(i) == primary {
            continue;
        }
        match output {
            Output::Ephemeral(m) if is_ack(m) => {}
            Output::Ephemeral(m) | Output::Update(m) => {
                let out = prepare(data, m, langs.user).await;
                let more = out.more.clone();
                let mut builder = poise::CreateReply::default()
                    .content(out.content)
                    .ephemeral(true)
                    .allowed_mentions(out.mentions)
                    .components(out.components);
                for file in out.files {
                    builder = builder.attachment(file);
                }
                retrying("answer privately", || ctx.send(builder.clone())).await?;
                send_more(ctx, more, true).await?;
            }
            other => send_output(discord, data, channel, other).await,
        }
    }
    if reply.auto_move {
        spawn_auto(discord.clone(), data.clone(), channel);
    }
    Ok(())
}

/// Hands a request to the service on a blocking thread (it saves to the database before answering).
pub(super) async fn handle(data: &Data, request: Request) -> Reply {
    let channel = request.channel;
    let tables = data.tables.clone();
    let now = Timestamp::now();
    match tokio::task::spawn_blocking(move || tables.handle(request, now)).await {
        Ok(reply) => reply,
        Err(e) => {
            data.tables
                .log_span(channel)
                .in_scope(|| tracing::error!(channel = channel.0, "a request failed: {e}"));
            Reply::ephemeral(Text::Internal)
        }
    }
}

/// The private answers of a reply to the one who asked: what the service said to them, else its
/// confirmation, else [`Text::Done`].
fn private_answers(reply: &Reply) -> Vec<Message> {
    let private: Vec<&Message> = reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Ephemeral(m) | Output::Update(m) => Some(m),
            _ => None,
        })
        .collect();
    let said: Vec<Message> = private
        .iter()
        .filter(|m| !is_ack(m))
        .map(|m| (*m).clone())
        .collect();
    if !said.is_empty() {
        return said;
    }
    vec![private
        .first()
        .map_or_else(|| Message::text(Text::Done), |m| (*m).clone())]
}

/// Acknowledges a command that changes a table, privately ("thinking…"), before anything else; the
/// service acts only if Discord took the acknowledgement. Discord refuses it for an interaction that is
/// too old (its three seconds count from the user's action, and a resumed gateway can deliver old
/// ones) or already answered (a replay): then nothing happens, so nothing the user was told failed has
/// happened. `false` then.
pub(super) async fn acknowledge(ctx: Context<'_>) -> bool {
    match retrying("acknowledge", || ctx.defer_ephemeral()).await {
        Ok(()) => true,
        Err(e) => {
            tracing::info!(
                channel = ctx.channel_id().get(),
                "a command was not acknowledged in time, so it was not carried out: {e}"
            );
            false
        }
    }
}

/// Answers a command that was acknowledged privately ([`acknowledge`], or deferred when its answer
/// was late): the private answer fills in the acknowledgement, and everything public goes out as new
/// messages, so the mention of the next player notifies them (an edited or deferred answer notifies
/// nobody).
pub(super) async fn answer_acknowledged(
    ctx: Context<'_>,
    reply: Reply,
    langs: Langs,
) -> Result<(), Error> {
    let channel = ChannelId(ctx.channel_id().get());
    let data = ctx.data();
    let discord = ctx.serenity_context();
    for message in private_answers(&reply) {
        let out = prepare(data, &message, langs.user).await;
        let more = out.more.clone();
        let mut builder = poise::CreateReply::default()
            .content(out.content)
            .ephemeral(true)
            .allowed_mentions(serenity::CreateAllowedMentions::new())
            .components(out.components);
        for file in out.files {
            builder = builder.attachment(file);
        }
        if let Err(e) = retrying("answer privately", || ctx.send(builder.clone())).await {
            data.tables
                .log_span(channel)
                .in_scope(|| tracing::warn!(channel = channel.0, "cannot answer privately: {e}"));
        }
        send_more(ctx, more, true).await?;
    }
    for output in &reply.outputs {
        send_output(discord, data, channel, output).await;
    }
    if reply.auto_move {
        spawn_auto(discord.clone(), data.clone(), channel);
    }
    Ok(())
}

/// The rest of a long answer, as further messages.
async fn send_more(ctx: Context<'_>, more: Vec<String>, private: bool) -> Result<(), Error> {
    for chunk in more {
        let builder = poise::CreateReply::default()
            .content(chunk)
            .ephemeral(private)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        retrying("answer", || ctx.send(builder.clone())).await?;
    }
    Ok(())
}

/// A private message in answer to a command, in the user's language (errors are logged, not
/// returned).
pub(super) async fn say_private(ctx: Context<'_>, text: &Text) {
    let lang = Lang::from_optional(ctx.locale()).unwrap_or_default();
    let reply = poise::CreateReply::default()
        .content(clip(text.render(lang)))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Err(e) = retrying("answer privately", || ctx.send(reply.clone())).await {
        tracing::warn!("cannot answer privately: {e}");
    }
}

/// Button presses (every other event is left to poise).
pub(super) async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    {
        let values = match &press.data.kind {
            serenity::ComponentInteractionDataKind::StringSelect { values } => values.clone(),
            _ => Vec::new(),
        };
        let started = std::time::Instant::now();
        let window = Window::opened_now();
        match command_for_component(&press.data.custom_id, &values) {
            Ok(command) => on_button(ctx, data, press, command, window).await,
            Err(text) => refuse_press(ctx, press, &text).await,
        }
        metrics::histogram!("sequence_interaction_seconds", "command" => "button")
            .record(started.elapsed());
    }
    Ok(())
}

/// A press of a component whose id is not one of ours, answered privately; nothing changes.
async fn refuse_press(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    text: &Text,
) {
    let lang = Lang::from_locale(&press.locale);
    let answer = serenity::CreateInteractionResponseMessage::new()
        .content(clip(text.render(lang)))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Err(e) = retrying("refuse a button", || {
        press.create_response(
            ctx,
            serenity::CreateInteractionResponse::Message(answer.clone()),
        )
    })
    .await
    {
        tracing::warn!("cannot refuse a button press: {e}");
    }
}

/// Updates the pressed picker in place (UPDATE_MESSAGE). Without a new image the body names no
/// attachments, so Discord keeps the hand picture the picker showed (serenity's builder would send an
/// empty list, which removes it).
async fn update_picker(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    out: Outgoing,
) -> Result<(), serenity::Error> {
    if out.files.is_empty() {
        let body = serde_json::json!({
            "type": 7,
            "data": {
                "content": out.content,
                "components": out.components,
                "allowed_mentions": out.mentions,
            },
        });
        return retrying("update the picker", || {
            ctx.http
                .create_interaction_response(press.id, &press.token, &body, Vec::new())
        })
        .await;
    }
    let update = serenity::CreateInteractionResponseMessage::new()
        .content(out.content)
        .allowed_mentions(out.mentions)
        .components(out.components)
        .files(out.files);
    update_pressed(ctx, press, "update the picker", update).await
}

/// Prepares the message that answers a press in place. If it is not ready (its picture still being
/// drawn) when the press's window closes, the press is deferred first (a deferred update: nothing
/// changes on screen yet). Returns the message and whether the press has been deferred, by then or
/// before (`deferred`).
async fn prepare_in_window(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    window: Window,
    deferred: bool,
    message: &Message,
    lang: Lang,
) -> Result<(Outgoing, bool), serenity::Error> {
    if deferred {
        return Ok((prepare(data, message, lang).await, true));
    }
    let (out, ack) = window
        .race(
            prepare(data, message, lang),
            retrying("defer", || press.defer(ctx)),
        )
        .await;
    match ack {
        Ack::InTime => Ok((out, false)),
        Ack::Deferred => Ok((out, true)),
        Ack::Lost(e) => Err(e),
    }
}

/// Edits the pressed message after a deferral (its answer went out as a deferred update). Without
/// new files the message keeps its pictures, unless `clear` (a picker whose hand is played).
async fn edit_pressed(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    what: &'static str,
    out: Outgoing,
    clear: bool,
) -> Result<(), serenity::Error> {
    let mut edit = serenity::EditInteractionResponse::new()
        .content(out.content)
        .allowed_mentions(serenity::CreateAllowedMentions::new())
        .components(out.components);
    if clear {
        edit = edit.clear_attachments();
    }
    for file in out.files {
        edit = edit.new_attachment(file);
    }
    retrying(what, || press.edit_response(ctx, edit.clone()))
        .await
        .map(|_| ())
}

/// Answers a press by editing the pressed message (UPDATE_MESSAGE), retried like every call.
async fn update_pressed(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    what: &'static str,
    update: serenity::CreateInteractionResponseMessage,
) -> Result<(), serenity::Error> {
    retrying(what, || {
        press.create_response(
            ctx,
            serenity::CreateInteractionResponse::UpdateMessage(update.clone()),
        )
    })
    .await
}

enum ButtonAnswer {
    /// Update the pressed (picker) message.
    Picker(usize),
    /// Replace the pressed (lobby) message.
    Update(usize),
    /// Answer privately.
    Private(usize),
    /// Nothing to say to the presser.
    Acknowledge,
}

fn answer_for_button(outputs: &[Output], pressed: u64) -> ButtonAnswer {
    if let Some(i) = outputs.iter().position(|o| matches!(o, Output::Update(_))) {
        return ButtonAnswer::Picker(i);
    }
    if let Some(i) = outputs.iter().position(|o| {
        matches!(o, Output::Lobby { message_id, .. } if message_id.is_none_or(|id| id == pressed))
    }) {
        return ButtonAnswer::Update(i);
    }
    match outputs
        .iter()
        .position(|o| matches!(o, Output::Ephemeral(m) if !is_ack(m)))
    {
        Some(i) => ButtonAnswer::Private(i),
        None => ButtonAnswer::Acknowledge,
    }
}

/// A button press or menu choice. Nothing that can wait runs before the press is acknowledged: a
/// press that changes a table is deferred first; any other is answered in place if its answer (the
/// service's reply, and the picture it shows) is ready within its [`Window`], and deferred otherwise.
async fn on_button(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    command: Command,
    window: Window,
) {
    let channel = ChannelId(press.channel_id.get());
    let member = press.member.as_ref();
    let actor = Actor {
        user: UserId(press.user.id.get()),
        name: member
            .map_or_else(|| press.user.display_name(), |m| m.display_name())
            .to_string(),
        can_manage: member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_messages()),
        can_manage_guild: member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
    };
    let user_lang = Lang::from_locale(&press.locale);
    // The language the server chose in its settings, over its Discord locale.
    let guild_lang = data
        .tables
        .known_server_language(press.guild_id.map(|g| GuildId(g.get())))
        .or(Lang::from_optional(press.guild_locale.as_deref()));
    data.tables
        .note_languages(channel, actor.user, Some(user_lang), guild_lang);
    let langs = Langs {
        user: user_lang,
        channel: channel_lang(ctx, data, channel),
    };
    let access = channel_access(
        ctx,
        press.guild_id,
        press.channel_id,
        press.app_permissions,
        press.channel.as_ref().map(|c| c.kind),
    );
    if let Command::Press(hint) = &command {
        if hint.is_hint() {
            on_hint_press(ctx, data, press, *hint, actor.user, langs.user).await;
            if let Some(resumed) = note_access(data, channel, access).await {
                send_unprompted(ctx, data, channel, resumed).await;
            }
            return;
        }
    }
    let request = Request {
        guild: press.guild_id.map(|g| GuildId(g.get())),
        channel,
        actor,
        command,
    };
    if request.command.changes_table() {
        on_acknowledged_press(ctx, data, press, request, langs, access).await;
        return;
    }
    // The access is noted first (a paused table resumes before the press is handled), but like the
    // request itself it may wait for a blocking thread or the table's lock: both race the window.
    let ((resumed, reply), ack) = window
        .race(
            async {
                let resumed = note_access(data, channel, access).await;
                (resumed, handle(data, request).await)
            },
            retrying("defer", || press.defer(ctx)),
        )
        .await;
    let deferred = match ack {
        Ack::InTime => false,
        Ack::Deferred => true,
        Ack::Lost(e) => {
            // Nothing this press asked for changes a table: nothing is lost but the answer.
            tracing::info!(
                channel = channel.0,
                "a button press was not acknowledged in time: {e}"
            );
            if let Some(resumed) = resumed {
                send_unprompted(ctx, data, channel, resumed).await;
            }
            return;
        }
    };
    let pressed = press.message.id.get();
    // A refusal answers privately; on the picker it replaces the picker (so its old buttons go).
    let answer = if reply.is_refusal() && !matches!(reply.outputs.first(), Some(Output::Update(_)))
    {
        ButtonAnswer::Private(0)
    } else {
        answer_for_button(&reply.outputs, pressed)
    };
    let answered = match answer {
        ButtonAnswer::Picker(i) => {
            let Some(Output::Update(message)) = reply.outputs.get(i) else {
                return;
            };
            // The picker's picture (the board with the step's cells) may be behind the drawing
            // queue: past the window the press is deferred and the picker edited once it is drawn.
            match prepare_in_window(ctx, data, press, window, deferred, message, langs.user).await {
                Ok((out, false)) => update_picker(ctx, press, out).await.map(|()| Some(i)),
                Ok((out, true)) => edit_pressed(ctx, press, "update the picker", out, false)
                    .await
                    .map(|()| Some(i)),
                Err(e) => Err(e),
            }
        }
        ButtonAnswer::Update(i) => {
            let Some(Output::Lobby { message, .. }) = reply.outputs.get(i) else {
                return;
            };
            match prepare_in_window(ctx, data, press, window, deferred, message, langs.channel)
                .await
            {
                Ok((out, false)) => {
                    let update = serenity::CreateInteractionResponseMessage::new()
                        .content(out.content)
                        .allowed_mentions(serenity::CreateAllowedMentions::new())
                        .components(out.components);
                    update_pressed(ctx, press, "update the lobby", update)
                        .await
                        .map(|()| Some(i))
                }
                Ok((out, true)) => edit_pressed(ctx, press, "update the lobby", out, false)
                    .await
                    .map(|()| Some(i)),
                Err(e) => Err(e),
            }
        }
        ButtonAnswer::Private(i) => {
            let Some(Output::Ephemeral(message)) = reply.outputs.get(i) else {
                return;
            };
            let early = if deferred {
                Ok(true)
            } else if message.image.is_some() {
                // A picture takes a while: the private answer is a follow-up to a deferral.
                retrying("defer", || press.defer_ephemeral(ctx))
                    .await
                    .map(|()| true)
            } else {
                Ok(false)
            };
            match early {
                Ok(true) => {
                    let out = prepare(data, message, langs.user).await;
                    let more = out.more.clone();
                    let sent = retrying("answer privately", || {
                        press.create_followup(ctx, private_followup(out.clone()))
                    })
                    .await;
                    private_more(ctx, press, more).await;
                    sent.map(|_| Some(i))
                }
                Ok(false) => {
                    let out = prepare(data, message, langs.user).await;
                    let more = out.more.clone();
                    let sent = retrying("answer privately", || {
                        press.create_response(
                            ctx,
                            serenity::CreateInteractionResponse::Message(private_message(
                                out.clone(),
                            )),
                        )
                    })
                    .await;
                    private_more(ctx, press, more).await;
                    sent.map(|_| Some(i))
                }
                Err(e) => Err(e),
            }
        }
        // Deferred already: that was the acknowledgement.
        ButtonAnswer::Acknowledge if deferred => Ok(None),
        ButtonAnswer::Acknowledge => retrying("acknowledge", || {
            press.create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
        })
        .await
        .map(|_| None),
    };
    // The new lobby message is the pressed one: remembered once the press is answered.
    if let Some(Output::Lobby {
        message_id: None, ..
    }) = answered
        .as_ref()
        .ok()
        .copied()
        .flatten()
        .and_then(|i| reply.outputs.get(i))
    {
        remember_lobby(data, channel, pressed).await;
    }
    let primary = match answered {
        Ok(primary) => primary,
        Err(e) => {
            data.tables.log_span(channel).in_scope(|| {
                tracing::warn!(channel = channel.0, "cannot answer a button press: {e}")
            });
            None
        }
    };
    for (i, output) in reply.outputs.iter().enumerate() {
        if Some(i) == primary {
            continue;
        }
        match output {
            Output::Ephemeral(m) if is_ack(m) => {}
            Output::Ephemeral(m) | Output::Update(m) => {
                follow_up_privately(ctx, data, press, m, langs.user).await;
            }
            other => send_output(ctx, data, channel, other).await,
        }
    }
    if reply.auto_move {
        spawn_auto(ctx.clone(), data.clone(), channel);
    }
    if let Some(resumed) = resumed {
        send_unprompted(ctx, data, channel, resumed).await;
    }
}

/// The picker's **Hint** button: acknowledged privately first (the search may take longer than the
/// three seconds Discord waits), then answered as `/sequence hint` answers, in a new private message
/// (the picker stays).
async fn on_hint_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    hint: crate::service::Press,
    user: UserId,
    lang: Lang,
) {
    let channel = ChannelId(press.channel_id.get());
    // The Yes of the question before a hint in a rated game: its answer replaces the question.
    let in_place = hint.step == crate::service::picker::Step::HintUnrated;
    let deferred = if in_place {
        retrying("defer", || press.defer(ctx)).await
    } else {
        retrying("defer", || press.defer_ephemeral(ctx)).await
    };
    if let Err(e) = deferred {
        tracing::info!(
            channel = channel.0,
            "a hint press was not acknowledged: {e}"
        );
        return;
    }
    let reply = data
        .tables
        .press_hint(channel, user, hint, Timestamp::now())
        .await;
    // The note in the channel that a hint made the game casual.
    for output in &reply.outputs {
        if let Output::Channel(_) = output {
            send_output(ctx, data, channel, output).await;
        }
    }
    for output in &reply.outputs {
        match output {
            Output::Update(m) if in_place => {
                let out = prepare(data, m, lang).await;
                if let Err(e) = edit_pressed(ctx, press, "answer the question", out, false).await {
                    tracing::warn!(channel = channel.0, "cannot answer the question: {e}");
                }
            }
            Output::Ephemeral(m) | Output::Update(m) => {
                follow_up_privately(ctx, data, press, m, lang).await;
            }
            _ => {}
        }
    }
}

/// A press that changes a table: acknowledged first (a deferred update: nothing changes on screen
/// yet), and handed to the service only if Discord took the acknowledgement (see
/// [`acknowledge`]). The pressed lobby message is then edited, private answers go out as
/// private follow-ups, and public posts as new messages (so their mentions notify).
async fn on_acknowledged_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    request: Request,
    langs: Langs,
    access: Option<(u64, bool)>,
) {
    let channel = request.channel;
    // A rematch opens a new lobby: posted as a new message (so its invitation notifies), not written
    // over the final message of the last game that carries the button.
    let new_lobby = matches!(request.command, Command::Rematch { .. });
    if let Err(e) = retrying("acknowledge", || press.defer(ctx)).await {
        tracing::info!(
            channel = channel.0,
            "a button press was not acknowledged in time, so it was not carried out: {e}"
        );
        return;
    }
    // A paused table resumes (now that the bot may post again) before the press is handled.
    let resumed = note_access(data, channel, access).await;
    let reply = handle(data, request).await;
    let pressed = press.message.id.get();
    for output in &reply.outputs {
        match output {
            Output::Ephemeral(m) if is_ack(m) => {}
            Output::Ephemeral(m) => follow_up_privately(ctx, data, press, m, langs.user).await,
            Output::Update(m) => {
                // The pressed picker: its new step (a new hand after an exchange) or the note that
                // the move was made, whose old hand picture goes away.
                let out = prepare(data, m, langs.user).await;
                if let Err(e) = edit_pressed(ctx, press, "update the picker", out, true).await {
                    data.tables.log_span(channel).in_scope(|| {
                        tracing::warn!(channel = channel.0, "cannot update the picker: {e}")
                    });
                }
            }
            Output::Lobby {
                message_id,
                message,
            } if !new_lobby && message_id.is_none_or(|id| id == pressed) => {
                if message_id.is_none() {
                    remember_lobby(data, channel, pressed).await;
                }
                let out = prepare(data, message, langs.channel).await;
                if let Err(e) = edit_pressed(ctx, press, "update the lobby", out, false).await {
                    data.tables.log_span(channel).in_scope(|| {
                        tracing::warn!(channel = channel.0, "cannot update the lobby: {e}")
                    });
                }
            }
            other => send_output(ctx, data, channel, other).await,
        }
    }
    if reply.auto_move {
        spawn_auto(ctx.clone(), data.clone(), channel);
    }
    if let Some(resumed) = resumed {
        send_unprompted(ctx, data, channel, resumed).await;
    }
}

/// A private answer to a button press as follow-ups (the press was answered already).
async fn follow_up_privately(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    message: &Message,
    lang: Lang,
) {
    let out = prepare(data, message, lang).await;
    let more = out.more.clone();
    if let Err(e) = retrying("answer privately", || {
        press.create_followup(ctx, private_followup(out.clone()))
    })
    .await
    {
        tracing::warn!(
            channel = press.channel_id.get(),
            "cannot answer privately: {e}"
        );
    }
    private_more(ctx, press, more).await;
}

/// The rest of a long private answer to a button press, as follow-ups.
async fn private_more(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    more: Vec<String>,
) {
    for chunk in more {
        let followup = serenity::CreateInteractionResponseFollowup::new()
            .content(chunk)
            .ephemeral(true)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if let Err(e) = retrying("answer privately", || {
            press.create_followup(ctx, followup.clone())
        })
        .await
        {
            tracing::warn!("cannot answer privately: {e}");
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Variant;

    fn ephemeral(text: Text) -> Output {
        Output::Ephemeral(Message::text(text))
    }

    #[test]
    fn the_right_output_answers_the_interaction() {
        let lobby_edit = Output::Lobby {
            message_id: Some(5),
            message: Message::text(Text::Joined),
        };
        let new_lobby = Output::Lobby {
            message_id: None,
            message: Message::text(Text::Joined),
        };
        let board = Output::Channel(Message::text(Text::Reshuffled));
        // Join by command: the confirmation answers; by button: the lobby message is updated.
        let join = vec![lobby_edit.clone(), ephemeral(Text::Joined)];
        assert_eq!(primary_for_command(&join), Some(1));
        assert!(matches!(
            answer_for_button(&join, 5),
            ButtonAnswer::Update(0)
        ));
        assert!(matches!(
            answer_for_button(&join, 6),
            ButtonAnswer::Acknowledge
        ));
        // Start: the new lobby message is the public answer.
        let start = vec![new_lobby, ephemeral(Text::LobbyOpened)];
        assert_eq!(primary_for_command(&start), Some(0));
        // A move: the board post answers.
        let play = vec![board.clone(), ephemeral(Text::BegunAck)];
        assert_eq!(primary_for_command(&play), Some(0));
        // Private content wins over public posts.
        let hand = vec![board, ephemeral(Text::NoBot)];
        assert_eq!(primary_for_command(&hand), Some(1));
        assert!(matches!(
            answer_for_button(&hand, 1),
            ButtonAnswer::Private(1)
        ));
    }

    #[test]
    fn interactions_pick_the_user_and_server_languages() {
        let de = Some(Lang::De);
        let no = Some(Lang::No);
        let chosen = Langs::choose(Lang::from_optional(Some("nb")), de, None);
        assert_eq!((chosen.user, chosen.channel), (Lang::No, Lang::De));
        let chosen = Langs::choose(Lang::from_optional(Some("fr")), None, no);
        assert_eq!((chosen.user, chosen.channel), (Lang::En, Lang::No));
        let chosen = Langs::choose(None, None, no);
        assert_eq!((chosen.user, chosen.channel), (Lang::No, Lang::No));
        let chosen = Langs::choose(None, None, None);
        assert_eq!((chosen.user, chosen.channel), (Lang::En, Lang::En));
    }

    #[test]
    fn rules_fit_in_messages_split_before_headings() {
        for lang in Lang::ALL {
            for variant in [Variant::Classic, Variant::Dice, Variant::Kids] {
                let text = Text::Rules(variant).render(lang);
                let chunks = split_content(&text);
                assert_eq!(chunks.join("\n"), text, "{lang} {variant}: nothing lost");
                assert!(
                    chunks.len() <= 2,
                    "{lang} {variant}: {} messages",
                    chunks.len()
                );
                for (i, chunk) in chunks.iter().enumerate() {
                    assert!(chunk.chars().count() <= MAX_CONTENT, "{lang} {variant}");
                    assert!(
                        chunk.starts_with('#'),
                        "{lang} {variant}: part {i} `{chunk}`"
                    );
                }
            }
        }
        let long = format!("{}\n{}", "a".repeat(1500), "b".repeat(1500));
        let chunks = split_content(&long);
        assert_eq!(chunks.len(), 2);
        assert_eq!(split_content("short"), vec!["short".to_string()]);
        let huge = split_content(&"x".repeat(5000));
        assert_eq!(huge.len(), 1);
        assert_eq!(huge[0].chars().count(), MAX_CONTENT);
    }

    #[test]
    fn messages_are_clipped_and_mentions_limited() {
        let long = "x".repeat(5000);
        assert_eq!(clip(long).chars().count(), MAX_CONTENT);
        assert_eq!(clip("short".into()), "short");
        assert_eq!(discord_user(UserId(0)), None);
        assert!(discord_user(UserId(7)).is_some());
        let message = Message {
            buttons: crate::service::Button::FIXED.to_vec(),
            ..Message::default()
        };
        let rows = component_rows(&action_rows(&message), Lang::De);
        assert_eq!(
            rows.len(),
            crate::service::Button::FIXED
                .len()
                .div_ceil(MAX_BUTTONS_PER_ROW),
            "at most five buttons per row"
        );
    }
}
