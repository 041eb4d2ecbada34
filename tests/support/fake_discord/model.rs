//! Discord's JSON objects as the real API shapes them (users, members, channels, guilds, messages,
//! interactions), built from the stand-in's state. Every shape is checked against serenity's own
//! deserializers in `tests/it/fake_discord.rs`.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

/// Milliseconds from the Unix epoch to Discord's epoch (2015-01-01).
pub const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Permissions of an ordinary member in a game channel: view, send, embed, attach, history, reactions,
/// external emoji, application commands, threads.
pub const MEMBER_PERMISSIONS: u64 = (1 << 6)
    | (1 << 10)
    | (1 << 11)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 18)
    | (1 << 31)
    | (1 << 35)
    | (1 << 38);

/// Extra permissions of a moderator: manage channels, manage messages, manage guild.
pub const MODERATOR_PERMISSIONS: u64 = MEMBER_PERMISSIONS | (1 << 4) | (1 << 5) | (1 << 13);

/// What the bot may do in the game channels.
pub const BOT_PERMISSIONS: u64 = MEMBER_PERMISSIONS | (1 << 13);

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(DISCORD_EPOCH_MS)
}

/// The ISO 8601 timestamp embedded in a snowflake, as Discord writes them.
pub fn timestamp_of(snowflake: u64) -> String {
    let ms = (snowflake >> 22) + DISCORD_EPOCH_MS;
    let secs = (ms / 1000) as i64;
    let micros = (ms % 1000) * 1000;
    match serenity::model::Timestamp::from_unix_timestamp(secs) {
        Ok(ts) => {
            // serenity prints `YYYY-MM-DDTHH:MM:SS.mmmZ`; Discord sends microseconds and an offset.
            let text = ts.to_string();
            let base = text.get(..19).unwrap_or("2024-01-01T00:00:00");
            format!("{base}.{micros:06}+00:00")
        }
        Err(_) => "2024-01-01T00:00:00.000000+00:00".to_string(),
    }
}

/// A user of the fake guild.
#[derive(Clone, Debug)]
pub struct FakeUser {
    /// Snowflake.
    pub id: u64,
    /// Username (unique, lowercase).
    pub name: String,
    /// Locale of the user's client, e.g. `en-US`, `de`, `no`.
    pub locale: String,
    /// Guild permissions (bit set).
    pub permissions: u64,
    /// Whether this is a bot account.
    pub bot: bool,
    /// Whether the user refuses DMs from the bot (the API answers 50007 to messages in their DM).
    pub dms_closed: bool,
    /// Whether the user installed the app to their account (a user install: its commands follow them
    /// into group DMs and servers without the bot).
    pub installed: bool,
    /// Whether the user is a member of the bot's servers (false: shares no server with the bot).
    pub in_bot_guilds: bool,
}

impl FakeUser {
    /// The user object.
    pub fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "discriminator": "0",
            "global_name": if self.bot { Value::Null } else { Value::String(capitalised(&self.name)) },
            "avatar": null,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": null,
            "avatar_decoration_data": null,
        })
    }

    /// The guild member object (with the user), as in `GUILD_CREATE` and interactions.
    pub fn member_json(&self, joined_at: &str, with_permissions: bool) -> Value {
        let mut member = json!({
            "user": self.json(),
            "nick": null,
            "avatar": null,
            "roles": [],
            "joined_at": joined_at,
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "communication_disabled_until": null,
        });
        if with_permissions {
            member["permissions"] = Value::String(self.permissions.to_string());
        }
        member
    }
}

fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Permission bits the stand-in checks (Discord's `topics/permissions`).
pub mod perm {
    /// ADMINISTRATOR: every permission, overwrites do not apply.
    pub const ADMINISTRATOR: u64 = 1 << 3;
    /// VIEW_CHANNEL.
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    /// SEND_MESSAGES (no effect in threads).
    pub const SEND_MESSAGES: u64 = 1 << 11;
    /// EMBED_LINKS.
    pub const EMBED_LINKS: u64 = 1 << 14;
    /// ATTACH_FILES.
    pub const ATTACH_FILES: u64 = 1 << 15;
    /// MENTION_EVERYONE.
    pub const MENTION_EVERYONE: u64 = 1 << 17;
    /// USE_EXTERNAL_EMOJIS.
    pub const USE_EXTERNAL_EMOJIS: u64 = 1 << 18;
    /// USE_EXTERNAL_APPS: user-installed apps may answer in public (off: their answers are ephemeral).
    pub const USE_EXTERNAL_APPS: u64 = 1 << 50;
    /// What an app without a bot user in the place may use in its answers (change log "Calculated
    /// Permissions in Interaction Payloads", 2022-06-29).
    pub const RESPONSE: u64 = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS;
    /// MANAGE_THREADS: sees private threads without being a member.
    pub const MANAGE_THREADS: u64 = 1 << 34;
    /// SEND_MESSAGES_IN_THREADS.
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
}

/// Discord's channel types the stand-in models (`resources/channel`, channel types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    /// GUILD_TEXT (0).
    Text,
    /// DM (1).
    Dm,
    /// GROUP_DM (3): a DM between several users; a bot is never a recipient.
    GroupDm,
    /// PUBLIC_THREAD (11): a thread of a text channel, or a forum post (its parent is a forum).
    PublicThread,
    /// PRIVATE_THREAD (12): only members (or those with Manage Threads) see it.
    PrivateThread,
    /// GUILD_FORUM (15): holds posts (threads); no messages of its own.
    Forum,
}

impl ChannelKind {
    /// The channel type number.
    pub fn code(self) -> u8 {
        match self {
            ChannelKind::Text => 0,
            ChannelKind::Dm => 1,
            ChannelKind::GroupDm => 3,
            ChannelKind::PublicThread => 11,
            ChannelKind::PrivateThread => 12,
            ChannelKind::Forum => 15,
        }
    }

    /// Whether it is a thread (or forum post).
    pub fn is_thread(self) -> bool {
        matches!(self, ChannelKind::PublicThread | ChannelKind::PrivateThread)
    }
}

/// A permission overwrite for one member (`type` 1), as Discord stores it on a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overwrite {
    /// The member.
    pub user_id: u64,
    /// Bits allowed.
    pub allow: u64,
    /// Bits denied.
    pub deny: u64,
}

impl Overwrite {
    /// The overwrite object.
    pub fn json(&self) -> Value {
        json!({
            "id": self.user_id.to_string(),
            "type": 1,
            "allow": self.allow.to_string(),
            "deny": self.deny.to_string(),
        })
    }
}

/// A channel: a guild text channel, a forum, a thread (or forum post), or a DM.
#[derive(Clone, Debug)]
pub struct FakeChannel {
    /// Snowflake.
    pub id: u64,
    /// Name (guild channels).
    pub name: String,
    /// The other user, for a DM.
    pub dm_with: Option<u64>,
    /// The channel type.
    pub kind: ChannelKind,
    /// The parent channel of a thread (a text channel or a forum).
    pub parent_id: Option<u64>,
    /// Member overwrites (threads have none: they inherit their parent's).
    pub overwrites: Vec<Overwrite>,
    /// Members of a thread.
    pub members: Vec<u64>,
    /// Who created a thread.
    pub owner_id: Option<u64>,
    /// The users of a group DM (the first created it).
    pub recipients: Vec<u64>,
}

impl FakeChannel {
    /// A guild channel of `kind` (not a thread).
    pub fn guild(id: u64, name: &str, kind: ChannelKind) -> FakeChannel {
        FakeChannel {
            id,
            name: name.to_string(),
            dm_with: None,
            kind,
            parent_id: None,
            overwrites: Vec::new(),
            members: Vec::new(),
            owner_id: None,
            recipients: Vec::new(),
        }
    }

    /// A group DM of `recipients` (the first one owns it).
    pub fn group_dm(id: u64, recipients: &[u64]) -> FakeChannel {
        FakeChannel {
            recipients: recipients.to_vec(),
            owner_id: recipients.first().copied(),
            ..FakeChannel::guild(id, "", ChannelKind::GroupDm)
        }
    }

    /// Whether it is a DM or a group DM (no server).
    pub fn is_private(&self) -> bool {
        matches!(self.kind, ChannelKind::Dm | ChannelKind::GroupDm)
    }

    /// A DM channel with `user`.
    pub fn dm(id: u64, user: u64) -> FakeChannel {
        FakeChannel {
            dm_with: Some(user),
            ..FakeChannel::guild(id, "", ChannelKind::Dm)
        }
    }

    /// A thread of `parent`, created by `owner`.
    pub fn thread(id: u64, name: &str, private: bool, parent: u64, owner: u64) -> FakeChannel {
        let kind = if private {
            ChannelKind::PrivateThread
        } else {
            ChannelKind::PublicThread
        };
        FakeChannel {
            parent_id: Some(parent),
            owner_id: Some(owner),
            members: vec![owner],
            ..FakeChannel::guild(id, name, kind)
        }
    }

    /// The object of a group DM, with its recipients' user objects.
    pub fn group_dm_json(&self, recipients: &[&FakeUser]) -> Value {
        json!({
            "id": self.id.to_string(),
            "type": 3,
            "last_message_id": null,
            "flags": 0,
            "name": null,
            "icon": null,
            "owner_id": self.owner_id.map(|o| o.to_string()),
            "recipients": recipients.iter().map(|u| u.json()).collect::<Vec<_>>(),
        })
    }

    /// The channel object (a guild channel or thread, or a DM with `recipient`).
    pub fn json(&self, guild_id: u64, position: usize, recipient: Option<&FakeUser>) -> Value {
        if let (Some(_), Some(user)) = (self.dm_with, recipient) {
            return json!({
                "id": self.id.to_string(),
                "type": 1,
                "last_message_id": null,
                "flags": 0,
                "recipients": [user.json()],
            });
        }
        if self.kind.is_thread() {
            let created = timestamp_of(self.id);
            let mut metadata = json!({
                "archived": false,
                "auto_archive_duration": 1440,
                "archive_timestamp": created,
                "locked": false,
                "create_timestamp": created,
            });
            if self.kind == ChannelKind::PrivateThread {
                metadata["invitable"] = json!(true);
            }
            return json!({
                "id": self.id.to_string(),
                "type": self.kind.code(),
                "guild_id": guild_id.to_string(),
                "parent_id": self.parent_id.map(|p| p.to_string()),
                "owner_id": self.owner_id.map(|o| o.to_string()),
                "name": self.name,
                "last_message_id": null,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": self.members.len().min(50),
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": metadata,
            });
        }
        let mut channel = json!({
            "id": self.id.to_string(),
            "type": self.kind.code(),
            "guild_id": guild_id.to_string(),
            "name": self.name,
            "position": position,
            "permission_overwrites": self.overwrites.iter().map(Overwrite::json).collect::<Vec<_>>(),
            "nsfw": false,
            "topic": null,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "parent_id": null,
            "flags": 0,
        });
        if self.kind == ChannelKind::Forum {
            channel["available_tags"] = json!([]);
            channel["default_reaction_emoji"] = Value::Null;
            channel["default_sort_order"] = Value::Null;
            channel["default_forum_layout"] = json!(0);
            channel["default_thread_rate_limit_per_user"] = json!(0);
        }
        channel
    }

    /// The partial channel object carried by interactions.
    pub fn interaction_json(&self, guild_id: u64, position: usize) -> Value {
        let mut channel = self.json(guild_id, position, None);
        if !self.is_private() {
            channel["permissions"] = Value::String(MEMBER_PERMISSIONS.to_string());
        }
        channel
    }
}

/// The guild object of `GUILD_CREATE`.
pub fn guild_json(
    guild_id: u64,
    name: &str,
    owner_id: u64,
    bot: &FakeUser,
    members: &[&FakeUser],
    member_count: usize,
    channels: &[Value],
) -> Value {
    let joined = timestamp_of(guild_id);
    let everyone = json!({
        "id": guild_id.to_string(),
        "name": "@everyone",
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": 0,
        "permissions": MEMBER_PERMISSIONS.to_string(),
        "managed": false,
        "mentionable": false,
        "flags": 0,
    });
    let mut member_list: Vec<Value> = vec![bot.member_json(&joined, false)];
    member_list.extend(members.iter().map(|m| m.member_json(&joined, false)));
    let mut guild = json!({
        "id": guild_id.to_string(),
        "name": name,
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": owner_id.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 1,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [everyone],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
    });
    let more = json!({
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "approximate_member_count": null,
        "approximate_presence_count": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
        "joined_at": joined,
        "large": member_count > 250,
        "unavailable": false,
        "member_count": member_count,
        "voice_states": [],
        "members": member_list,
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "lazy": true,
    });
    if let (Some(base), Some(more)) = (guild.as_object_mut(), more.as_object()) {
        base.extend(more.clone());
    }
    guild
}

/// Width and height from a PNG's IHDR chunk, if `bytes` is a PNG.
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || !bytes.starts_with(SIGNATURE) || bytes.get(12..16) != Some(b"IHDR") {
        return None;
    }
    let width = u32::from_be_bytes(bytes.get(16..20)?.try_into().ok()?);
    let height = u32::from_be_bytes(bytes.get(20..24)?.try_into().ok()?);
    Some((width, height))
}

/// User mentions (`<@id>` or `<@!id>`) in a message's text, in order, without repeats.
pub fn mentioned_ids(content: &str) -> Vec<u64> {
    let mut ids = Vec::new();
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let body = rest.strip_prefix('!').unwrap_or(rest);
        let digits: String = body.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() && body[digits.len()..].starts_with('>') {
            if let Ok(id) = digits.parse::<u64>() {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
    }
    ids
}

/// Components as Discord answers them: it gives every component (rows included) that has no `id` a
/// number, counting from 1 in document order, so answers always carry one.
pub fn numbered_components(components: &Value) -> Value {
    fn number(value: &mut Value, next: &mut u64, used: &[u64]) {
        let Some(list) = value.as_array_mut() else {
            return;
        };
        for component in list {
            if component.get("id").is_none_or(Value::is_null) {
                while used.contains(next) {
                    *next += 1;
                }
                component["id"] = json!(*next);
                *next += 1;
            }
            // Discord answers a string select with its value counts filled in (1 and 1 by default).
            if component["type"] == 3 {
                for key in ["min_values", "max_values"] {
                    if component.get(key).is_none_or(Value::is_null) {
                        component[key] = json!(1);
                    }
                }
            }
            if let Some(children) = component.get_mut("components") {
                number(children, next, used);
            }
        }
    }
    fn collect_ids(value: &Value, used: &mut Vec<u64>) {
        for component in value.as_array().into_iter().flatten() {
            if let Some(id) = component.get("id").and_then(Value::as_u64) {
                used.push(id);
            }
            collect_ids(&component["components"], used);
        }
    }
    let mut used = Vec::new();
    collect_ids(components, &mut used);
    let mut numbered = components.clone();
    number(&mut numbered, &mut 1, &used);
    numbered
}
