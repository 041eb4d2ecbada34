//! Channels where the bot may only answer interactions: a group DM, a DM, a server channel where a
//! player installed the app but the server did not. Discord lets the app speak there only through an
//! interaction's token (its response, then follow-ups: 15 minutes, and for an app only a user
//! installed at most 5 follow-ups per interaction), so every message that would be posted in such a
//! channel goes out here instead: as a follow-up on the freshest usable token of the channel, or, if
//! there is none, held back and delivered (packed into one message, headed by a line saying it was
//! held back) with the answer to the next interaction there. See docs/development.md, "Playing where
//! the bot may only answer".

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::Builder as _;

use crate::service::{ChannelId, Text};

use super::localize::channel_lang;
use super::outgoing::{split_content, Outgoing};
use super::retry::retrying;
use super::Data;

/// How long a token is used after its interaction arrived: Discord's 15 minutes, less a margin for
/// the request on its way (by the bot's clock; Discord counts from the interaction).
pub(super) const TOKEN_LIFE: Duration = Duration::from_secs(15 * 60 - 30);

/// Follow-ups Discord takes per interaction of an app that only a user installed (receiving and
/// responding, "Create Followup Message").
pub(super) const FOLLOW_UP_LIMIT: u8 = 5;

/// Text held back per channel, at most (the oldest lines go first past it; the board and buttons of
/// the newest message are always kept).
const MAX_HELD_CHARS: usize = 8_000;

/// Where an interaction happened, as far as posting there goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// The bot is a member (the server installed it): it posts in the channel as it always did.
    Channel,
    /// The bot may only answer interactions.
    AnswersOnly {
        /// Only a user installed the app (no server install applies): 5 follow-ups per interaction.
        limited: bool,
        /// The server lets apps its members installed answer only privately (Use External Apps off).
        private: bool,
    },
}

/// Where an interaction happened, from what Discord sends with it: `authorizing_integration_owners`
/// has the key `GUILD_INSTALL` with the server's id only when the app is installed to that server
/// (receiving and responding, "Authorizing Integration Owners Object"); without it the bot is no
/// member there and may only answer. An interaction that names no owners at all is taken as before
/// this existed (a server install). `member_permissions`: the invoking member's, which lack Use
/// External Apps when the server turned it off for them (then Discord makes the answers private).
pub(super) fn place_of(
    guild: Option<serenity::GuildId>,
    owners: &serenity::AuthorizingIntegrationOwners,
    member_permissions: Option<serenity::Permissions>,
) -> Place {
    use serenity::AuthorizingIntegrationOwner as Owner;
    if owners.0.is_empty() {
        return Place::Channel;
    }
    let server_installed = guild.is_some()
        && owners
            .0
            .iter()
            .any(|o| matches!(o, Owner::GuildInstall(Some(g)) if Some(*g) == guild));
    if server_installed {
        return Place::Channel;
    }
    let limited = !owners.0.iter().any(|o| matches!(o, Owner::GuildInstall(_)));
    let private = guild.is_some()
        && limited
        && member_permissions
            .is_some_and(|p| !p.contains(serenity::Permissions::USE_EXTERNAL_APPS));
    Place::AnswersOnly { limited, private }
}

/// An interaction's token, as the relay keeps it.
#[derive(Clone, Debug)]
struct Token {
    token: String,
    /// When its interaction arrived, by the bot's clock.
    received: Instant,
    /// Follow-ups sent (or being sent) through it.
    follow_ups: u8,
    /// 5 follow-ups at most.
    limited: bool,
}

impl Token {
    /// Whether `more` follow-ups may still go through it at `now`.
    fn takes(&self, more: u8, now: Instant) -> bool {
        now.saturating_duration_since(self.received) < TOKEN_LIFE
            && (!self.limited || self.follow_ups.saturating_add(more) <= FOLLOW_UP_LIMIT)
    }
}

/// One channel's tokens and what waits for one.
#[derive(Default)]
struct Relay {
    /// The freshest token whose interaction is answered (a follow-up before the answer would be
    /// refused, and one before a private "thinking…" is filled in would fill it in privately).
    token: Option<Token>,
    /// Interactions noted but not answered yet, by token.
    pending: Vec<Token>,
    /// What was held back: one packed message.
    held: Option<Outgoing>,
    /// The latest messages sent through a token (id, token, when its interaction arrived), to edit
    /// them while the token lives (the lobby card, an old prompt's buttons).
    sent: Vec<(u64, String, Instant)>,
}

/// Messages remembered per channel for editing.
const MAX_SENT: usize = 16;

/// Every answers-only channel's relay.
#[derive(Default)]
pub(super) struct Relays {
    channels: Mutex<HashMap<u64, Relay>>,
}

/// Most channels kept (past it the map starts afresh: held messages of idle channels go, their game
/// is shown again with the next press's board).
const MAX_CHANNELS: usize = 100_000;

impl Relays {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Relay>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An interaction arrived in an answers-only `channel` at `now`: its token is used once it is
    /// answered ([`Relays::answered`]).
    pub(super) fn note(&self, channel: ChannelId, token: &str, limited: bool, now: Instant) {
        let mut channels = self.lock();
        if channels.len() >= MAX_CHANNELS && !channels.contains_key(&channel.0) {
            channels.clear();
        }
        let relay = channels.entry(channel.0).or_default();
        relay.pending.retain(|t| t.takes(0, now));
        relay.pending.push(Token {
            token: token.to_string(),
            received: now,
            follow_ups: 0,
            limited,
        });
    }

    /// The interaction with `token` is answered: its token becomes the channel's, if it is fresher.
    pub(super) fn answered(&self, channel: ChannelId, token: &str) {
        let mut channels = self.lock();
        let Some(relay) = channels.get_mut(&channel.0) else {
            return;
        };
        let Some(i) = relay.pending.iter().position(|t| t.token == token) else {
            return;
        };
        let answered = relay.pending.remove(i);
        if relay
            .token
            .as_ref()
            .is_none_or(|t| t.received <= answered.received)
        {
            relay.token = Some(answered);
        }
    }

    /// Takes the channel's token for `count` follow-ups at `now` (counted at once), with what was
    /// held back: `None` if no token takes them.
    fn take(
        &self,
        channel: ChannelId,
        count: u8,
        now: Instant,
    ) -> Option<(Token, Option<Outgoing>)> {
        let mut channels = self.lock();
        let relay = channels.get_mut(&channel.0)?;
        let token = relay.token.as_mut().filter(|t| t.takes(count, now))?;
        token.follow_ups += count;
        let token = token.clone();
        Some((token, relay.held.take()))
    }

    /// Remembers that `message_id` was sent through `token`, taken for it: even if a fresher
    /// interaction's token became the channel's while it was on its way (a press right after the
    /// lobby card showed), the message is edited through the token that sent it while that lives.
    fn note_sent(&self, channel: ChannelId, message_id: u64, token: &Token) {
        let mut channels = self.lock();
        let relay = channels.entry(channel.0).or_default();
        if relay.sent.len() >= MAX_SENT {
            relay.sent.remove(0);
        }
        relay
            .sent
            .push((message_id, token.token.clone(), token.received));
    }

    /// The token that sent `message_id`, while it lives at `now`.
    fn editor_of(&self, channel: ChannelId, message_id: u64, now: Instant) -> Option<String> {
        let channels = self.lock();
        channels
            .get(&channel.0)?
            .sent
            .iter()
            .find(|(id, _, received)| {
                *id == message_id && now.saturating_duration_since(*received) < TOKEN_LIFE
            })
            .map(|(_, token, _)| token.clone())
    }

    /// Holds `out` back (packed after what is held already).
    fn hold(&self, channel: ChannelId, out: Outgoing) {
        let mut channels = self.lock();
        let relay = channels.entry(channel.0).or_default();
        relay.held = Some(match relay.held.take() {
            Some(held) => pack(held, out),
            None => out,
        });
    }

    /// Puts a message that could not go back in front of what is held, and forgets `token` if
    /// Discord refused it (expired, its follow-ups used up, unknown).
    fn put_back(&self, channel: ChannelId, out: Outgoing, token: &str, refused: bool) {
        let mut channels = self.lock();
        let relay = channels.entry(channel.0).or_default();
        if refused && relay.token.as_ref().is_some_and(|t| t.token == token) {
            relay.token = None;
        }
        relay.held = Some(match relay.held.take() {
            Some(later) => pack(out, later),
            None => out,
        });
    }

    /// Whether something is held back in `channel`.
    pub(super) fn is_holding(&self, channel: ChannelId) -> bool {
        self.lock()
            .get(&channel.0)
            .is_some_and(|r| r.held.is_some())
    }
}

/// Two messages as one: the text of both (the oldest lines dropped past [`MAX_HELD_CHARS`]), the
/// pictures and buttons of the later one (else the earlier one's), everyone either pings.
pub(super) fn pack(earlier: Outgoing, later: Outgoing) -> Outgoing {
    let mut text: Vec<String> = std::iter::once(earlier.content)
        .chain(earlier.more)
        .chain(std::iter::once(later.content))
        .chain(later.more)
        .filter(|t| !t.is_empty())
        .collect();
    let mut length: usize = text.iter().map(|t| t.chars().count() + 1).sum();
    while length > MAX_HELD_CHARS && text.len() > 1 {
        length -= text[0].chars().count() + 1;
        text.remove(0);
    }
    let mut chunks = split_content(&text.join("\n")).into_iter();
    // The later message's pings first: its first is the player to move now.
    let mut pinged = later.pinged;
    for user in earlier.pinged {
        if !pinged.contains(&user) {
            pinged.push(user);
        }
    }
    Outgoing {
        content: chunks.next().unwrap_or_default(),
        more: chunks.collect(),
        mentions: serenity::CreateAllowedMentions::new().users(pinged.iter().copied()),
        pinged,
        components: if later.components.is_empty() {
            earlier.components
        } else {
            later.components
        },
        files: if later.files.is_empty() {
            earlier.files
        } else {
            later.files
        },
    }
}

/// What was held back, headed by the line that says so.
fn headed(ctx: &serenity::Context, data: &Data, channel: ChannelId, held: Outgoing) -> Outgoing {
    let head = Text::HeldBack.render(channel_lang(ctx, data, channel));
    let mut chunks = split_content(&format!("{head}\n{}", held.content)).into_iter();
    let content = chunks.next().unwrap_or_default();
    let mut more: Vec<String> = chunks.collect();
    more.extend(held.more);
    Outgoing {
        content,
        more,
        ..held
    }
}

/// Whether Discord refused a follow-up for good (the token expired or is unknown, its follow-ups are
/// used up): any refusal but a server error or a rate limit.
fn is_refused(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            let status = response.status_code.as_u16();
            (400..500).contains(&status) && status != 429
        }
        _ => false,
    }
}

/// Sends `out` to an answers-only channel: with what was held back (packed into one message, said
/// so) as follow-ups on the freshest usable token, else held back. The message sent, if it went now.
pub(super) async fn send(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    out: Outgoing,
) -> Option<serenity::Message> {
    let count = u8::try_from(1 + out.more.len()).unwrap_or(u8::MAX);
    let Some((token, held)) = data.relays.take(channel, count, Instant::now()) else {
        data.relays.hold(channel, out);
        return None;
    };
    let out = match held {
        Some(held) => {
            // The packed message may be longer than the two were: its extra parts are counted too.
            let packed = pack(headed(ctx, data, channel, held), out);
            data.relays
                .count_rest(channel, &token.token, packed, count)?
        }
        None => out,
    };
    follow_up(ctx, data, channel, &token, out).await
}

/// Delivers what is held back in `channel`, if a token takes it (after an interaction there was
/// answered, so what waited comes with that answer).
pub(super) async fn flush(ctx: &serenity::Context, data: &Data, channel: ChannelId) {
    if !data.relays.is_holding(channel) {
        return;
    }
    let Some((token, Some(held))) = data.relays.take(channel, 1, Instant::now()) else {
        return;
    };
    let headed = headed(ctx, data, channel, held);
    let Some(out) = data.relays.count_rest(channel, &token.token, headed, 1) else {
        return;
    };
    follow_up(ctx, data, channel, &token, out).await;
}

impl Relays {
    /// `out`, to go as follow-ups on `token`, which counted `counted` of them already: its parts
    /// past those are counted too if the token still takes them; else `out` is held back again
    /// (`None`).
    fn count_rest(
        &self,
        channel: ChannelId,
        token: &str,
        out: Outgoing,
        counted: u8,
    ) -> Option<Outgoing> {
        let parts = u8::try_from(1 + out.more.len()).unwrap_or(u8::MAX);
        let more = parts.saturating_sub(counted);
        if more == 0 {
            return Some(out);
        }
        let taken = {
            let mut channels = self.lock();
            let current = channels
                .get_mut(&channel.0)
                .and_then(|relay| relay.token.as_mut())
                .filter(|t| t.token == token && t.takes(more, Instant::now()));
            match current {
                Some(current) => {
                    current.follow_ups += more;
                    true
                }
                None => false,
            }
        };
        if !taken {
            self.put_back(channel, out, token, false);
            return None;
        }
        Some(out)
    }
}

/// Sends `out` (and the rest of a long text) as public follow-ups on `token`; what Discord refuses is
/// held back again, and a token it refuses is forgotten.
async fn follow_up(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    taken: &Token,
    out: Outgoing,
) -> Option<serenity::Message> {
    let token = taken.token.as_str();
    let more = out.more.clone();
    let builder = serenity::CreateInteractionResponseFollowup::new()
        .content(out.content.clone())
        .allowed_mentions(out.mentions.clone())
        .components(out.components.clone())
        .add_files(out.files.clone());
    let sent = retrying("follow up in an answers-only channel", || {
        builder.clone().execute(ctx, (None, token))
    })
    .await;
    let message = match sent {
        Ok(message) => message,
        Err(e) => {
            let refused = is_refused(&e);
            data.tables.log_span(channel).in_scope(|| {
                tracing::info!(
                    channel = channel.0,
                    "a follow-up was not taken, held back for the next interaction: {e}"
                )
            });
            data.relays.put_back(channel, out, token, refused);
            return None;
        }
    };
    data.relays.note_sent(channel, message.id.get(), taken);
    for chunk in more {
        let next = serenity::CreateInteractionResponseFollowup::new()
            .content(chunk)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if let Err(e) = retrying("follow up in an answers-only channel", || {
            next.clone().execute(ctx, (None, token))
        })
        .await
        {
            data.tables.log_span(channel).in_scope(|| {
                tracing::warn!(channel = channel.0, "the rest of a follow-up was lost: {e}")
            });
        }
    }
    Some(message)
}

/// Edits a message the bot sent in an answers-only channel (the lobby card, an old prompt's buttons)
/// through the token that sent it, while that token lives; `body` holds only the fields to change
/// (a prompt keeps its board picture). Whether it was edited: without a living token the message
/// stays as it is (it changes when its own buttons are pressed).
pub(super) async fn edit(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    message_id: u64,
    body: serde_json::Value,
) -> bool {
    let Some(id) = std::num::NonZeroU64::new(message_id) else {
        return false;
    };
    let Some(token) = data.relays.editor_of(channel, message_id, Instant::now()) else {
        return false;
    };
    match retrying("edit in an answers-only channel", || {
        ctx.http
            .edit_followup_message(&token, serenity::MessageId::from(id), &body, Vec::new())
    })
    .await
    {
        Ok(_) => true,
        Err(e) => {
            data.tables
                .log_span(channel)
                .in_scope(|| tracing::info!(channel = channel.0, "a message was not edited: {e}"));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(text: &str, pinged: &[u64], with_file: bool) -> Outgoing {
        let pinged: Vec<serenity::UserId> =
            pinged.iter().map(|&u| serenity::UserId::new(u)).collect();
        Outgoing {
            content: text.to_string(),
            more: Vec::new(),
            mentions: serenity::CreateAllowedMentions::new().users(pinged.iter().copied()),
            pinged,
            components: Vec::new(),
            files: if with_file {
                vec![serenity::CreateAttachment::bytes(
                    vec![1, 2, 3],
                    "board.png",
                )]
            } else {
                Vec::new()
            },
        }
    }

    fn owners(json: serde_json::Value) -> serenity::AuthorizingIntegrationOwners {
        serde_json::from_value(json).expect("owners")
    }

    #[test]
    fn the_place_comes_from_the_authorizing_owners() {
        let guild = Some(serenity::GuildId::new(42));
        let everyone = Some(serenity::Permissions::all());
        // Installed to this server: the bot posts.
        let server = owners(serde_json::json!({"0": "42", "1": "7"}));
        assert_eq!(place_of(guild, &server, everyone), Place::Channel);
        // Nothing said (as before user installs): as a server install.
        assert_eq!(
            place_of(guild, &owners(serde_json::json!({})), everyone),
            Place::Channel
        );
        // Only the player installed it, in a server: answers only, 5 follow-ups.
        let user = owners(serde_json::json!({"1": "7"}));
        assert_eq!(
            place_of(guild, &user, everyone),
            Place::AnswersOnly {
                limited: true,
                private: false
            }
        );
        // ... and without Use External Apps the answers are private.
        let without = serenity::Permissions::all() - serenity::Permissions::USE_EXTERNAL_APPS;
        assert_eq!(
            place_of(guild, &user, Some(without)),
            Place::AnswersOnly {
                limited: true,
                private: true
            }
        );
        // A group DM: answers only.
        assert_eq!(
            place_of(None, &user, None),
            Place::AnswersOnly {
                limited: true,
                private: false
            }
        );
        // The bot's DM of an app installed to some server: answers only, not limited.
        let bot_dm = owners(serde_json::json!({"0": "0", "1": "7"}));
        assert_eq!(
            place_of(None, &bot_dm, None),
            Place::AnswersOnly {
                limited: false,
                private: false
            }
        );
    }

    #[test]
    fn a_token_serves_fifteen_minutes_and_five_follow_ups_once_answered() {
        let relays = Relays::default();
        let channel = ChannelId(5);
        let start = Instant::now();
        relays.note(channel, "a", true, start);
        assert!(relays.take(channel, 1, start).is_none(), "not answered yet");
        relays.answered(channel, "a");
        for _ in 0..FOLLOW_UP_LIMIT {
            assert!(relays.take(channel, 1, start).is_some());
        }
        assert!(relays.take(channel, 1, start).is_none(), "five used");
        // A fresher interaction's token takes over once answered; an older one answered later does
        // not replace it.
        relays.note(channel, "b", true, start + Duration::from_secs(60));
        relays.note(channel, "c", false, start + Duration::from_secs(30));
        relays.answered(channel, "b");
        relays.answered(channel, "c");
        let (token, held) = relays
            .take(channel, 1, start + Duration::from_secs(61))
            .unwrap();
        assert_eq!((token.token.as_str(), held.is_none()), ("b", true));
        // Expired by the bot's clock.
        assert!(relays
            .take(channel, 1, start + Duration::from_secs(60) + TOKEN_LIFE)
            .is_none());
    }

    #[test]
    fn a_message_is_edited_through_the_token_that_sent_it_while_it_lives() {
        let relays = Relays::default();
        let channel = ChannelId(8);
        let start = Instant::now();
        relays.note(channel, "lobby", true, start);
        relays.answered(channel, "lobby");
        let (lobby, _) = relays.take(channel, 1, start).expect("the token");
        // A press on the card is answered while the card's follow-up is still on its way back: its
        // token becomes the channel's, and the card is still edited through the token that sent it
        // (before, the card was forgotten, and a computer added from the level menu never showed on
        // it: the e2e_anywhere failure).
        relays.note(channel, "join", true, start + Duration::from_millis(300));
        relays.answered(channel, "join");
        relays.note_sent(channel, 77, &lobby);
        assert_eq!(
            relays.editor_of(channel, 77, start).as_deref(),
            Some("lobby")
        );
        assert_eq!(relays.editor_of(channel, 78, start), None, "not ours");
        assert_eq!(
            relays.editor_of(channel, 77, start + TOKEN_LIFE),
            None,
            "the token is too old"
        );
    }

    #[test]
    fn held_messages_pack_into_one_and_come_with_the_next_token() {
        let relays = Relays::default();
        let channel = ChannelId(6);
        relays.hold(channel, out("first move", &[1], true));
        relays.hold(channel, out("second move", &[2], false));
        assert!(relays.is_holding(channel));
        let now = Instant::now();
        relays.note(channel, "t", true, now);
        relays.answered(channel, "t");
        let (_, held) = relays.take(channel, 1, now).unwrap();
        let held = held.expect("held back");
        assert_eq!(held.content, "first move\nsecond move");
        assert_eq!(held.files.len(), 1, "the last picture is kept");
        assert_eq!(
            held.pinged,
            vec![serenity::UserId::new(2), serenity::UserId::new(1)],
            "the newest ping first (the player to move)"
        );
        assert!(!relays.is_holding(channel));
        // A refused token is forgotten and its message held again.
        relays.put_back(channel, out("again", &[], false), "t", true);
        assert!(relays.take(channel, 1, now).is_none());
        assert!(relays.is_holding(channel));
    }

    #[test]
    fn a_long_message_counts_its_extra_parts_or_is_held_again() {
        let relays = Relays::default();
        let channel = ChannelId(9);
        let now = Instant::now();
        relays.note(channel, "t", true, now);
        relays.answered(channel, "t");
        let (token, _) = relays.take(channel, 3, now).unwrap();
        let mut long = out("part 1", &[], false);
        long.more = vec!["part 2".into(), "part 3".into()];
        // Three parts, three counted: nothing more to count.
        let same = relays.count_rest(channel, &token.token, long.clone(), 3);
        assert_eq!(same.map(|o| o.more.len()), Some(2));
        // One counted: two more, and the token (3 of 5 used) takes them.
        assert!(relays
            .count_rest(channel, &token.token, long.clone(), 1)
            .is_some());
        assert!(!relays.is_holding(channel));
        // Five used now: the message is held back again, and the token kept.
        assert!(relays.count_rest(channel, &token.token, long, 1).is_none());
        assert!(relays.is_holding(channel));
        assert!(relays.take(channel, 0, now).is_some(), "the token is kept");
    }

    #[test]
    fn what_is_held_stays_bounded_keeping_the_newest() {
        let mut packed = out("start", &[], false);
        for i in 0..500 {
            packed = pack(
                packed,
                out(&format!("move {i} {}", "x".repeat(40)), &[], false),
            );
        }
        let text: String = std::iter::once(packed.content.clone())
            .chain(packed.more.clone())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            text.chars().count() <= MAX_HELD_CHARS + 10,
            "{}",
            text.len()
        );
        assert!(text.contains("move 499"));
        assert!(!text.contains("start"));
    }
}
