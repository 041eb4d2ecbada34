//! A service [`Message`] made ready for Discord ([`Outgoing`]): its text in one language, split at
//! Discord's 2,000 characters; its buttons and menus within Discord's limits; its picture drawn on a
//! blocking thread (one per core, replays one at a time). Nothing here talks to Discord.

use std::num::NonZeroU64;

use poise::serenity_prelude as serenity;

use crate::i18n::Lang;
use crate::service::picker::{
    MAX_BUTTONS_PER_ROW, MAX_BUTTON_LABEL, MAX_OPTIONS, MAX_OPTION_TEXT, MAX_PLACEHOLDER, MAX_ROWS,
};
use crate::service::{action_rows, ChannelId, Control, Image, Message, Style, UserId};

use crate::app::paint::draw;

use super::Data;

/// Discord's limit on message text.
const MAX_CONTENT: usize = 2000;

/// A message ready for Discord.
#[derive(Clone)]
pub(super) struct Outgoing {
    /// The message's text, at most [`MAX_CONTENT`] characters.
    pub content: String,
    /// Text past Discord's limit, sent as further plain messages.
    pub more: Vec<String>,
    /// Who may be pinged: the users the message names as mentions.
    pub mentions: serenity::CreateAllowedMentions,
    /// Those users (to pack two messages into one, see `relay`).
    pub pinged: Vec<serenity::UserId>,
    /// Buttons and menus.
    pub components: Vec<serenity::CreateActionRow>,
    /// The drawn picture and any attachment.
    pub files: Vec<serenity::CreateAttachment>,
}

/// Splits a long text into messages of at most [`MAX_CONTENT`] characters, at line breaks, before a
/// heading (`#`) where one is near; a single overlong line is clipped.
pub(super) fn split_content(text: &str) -> Vec<String> {
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

pub(super) fn clip(text: String) -> String {
    if text.chars().count() <= MAX_CONTENT {
        return text;
    }
    let mut clipped: String = text.chars().take(MAX_CONTENT - 1).collect();
    clipped.push('…');
    clipped
}

pub(super) fn discord_user(user: UserId) -> Option<serenity::UserId> {
    NonZeroU64::new(user.0).map(serenity::UserId::from)
}

pub(super) fn discord_channel(channel: ChannelId) -> Option<serenity::ChannelId> {
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
pub(super) fn component_rows(rows: &[Vec<Control>], lang: Lang) -> Vec<serenity::CreateActionRow> {
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
                    // A link button: style 5, its URL and no custom id.
                    Control::Link { label, url } => Some(
                        serenity::CreateButton::new_link(url.clone())
                            .label(clip_to(label.render(lang), MAX_BUTTON_LABEL)),
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
        draw(painter.as_ref(), &image, lang)
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

/// A service message made ready for Discord in `lang`: its picture drawn, its text split, its
/// buttons and menus built.
pub(super) async fn prepare(data: &Data, message: &Message, lang: Lang) -> Outgoing {
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
    let pinged: Vec<serenity::UserId> = message
        .mentions
        .iter()
        .filter_map(|&u| discord_user(u))
        .collect();
    Outgoing {
        content: chunks.next().unwrap_or_default(),
        more: chunks.collect(),
        mentions: serenity::CreateAllowedMentions::new().users(pinged.iter().copied()),
        pinged,
        components: component_rows(&action_rows(message), lang),
        files,
    }
}

/// A channel message (or DM) of a prepared message.
pub(super) fn create_message(out: Outgoing) -> serenity::CreateMessage {
    serenity::CreateMessage::new()
        .content(out.content)
        .allowed_mentions(out.mentions)
        .components(out.components)
        .add_files(out.files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Variant;
    use crate::service::Text;

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
