//! What an interaction brings before the service handles it, the same for a command and a press:
//! its languages ([`Langs`]), what the bot may do in its channel (a paused table resumes once it may
//! post again), and the service's reply, asked for on a blocking thread.

use poise::serenity_prelude as serenity;

use crate::i18n::Lang;
use crate::service::{
    Actor, ChannelId, FaceId, GuildId, Pending, Reply, Request, Timestamp, UserId,
};

use super::localize::channel_lang;

use super::relay::Place;
use super::Data;

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

/// Who asks in an interaction, as Discord tells it (a command's and a press's alike).
pub(super) struct Asker<'a> {
    /// The user.
    pub user: &'a serenity::User,
    /// Their membership of the server (none in a DM).
    pub member: Option<&'a serenity::Member>,
    /// Their Discord locale.
    pub locale: Option<&'a str>,
    /// The server's preferred locale.
    pub guild_locale: Option<&'a str>,
    /// The server.
    pub guild: Option<serenity::GuildId>,
    /// The channel.
    pub channel: ChannelId,
}

/// The actor behind an interaction (their display name, whether they may manage messages and the
/// server) and the languages of its answer, the user's and the channel's (the server's choice in
/// its settings over its Discord locale), remembered by the service for messages sent later to
/// either. One place for commands and presses.
pub(super) fn asker(ctx: &serenity::Context, data: &Data, asker: &Asker<'_>) -> (Actor, Langs) {
    let permissions = asker.member.and_then(|m| m.permissions);
    let actor = Actor {
        user: UserId(asker.user.id.get()),
        name: asker
            .member
            .map_or_else(|| asker.user.display_name(), |m| m.display_name())
            .to_string(),
        can_manage: permissions.is_some_and(|p| p.manage_messages()),
        can_manage_guild: permissions.is_some_and(|p| p.manage_guild()),
    };
    let user = Lang::from_optional(asker.locale);
    let guild = data
        .tables
        .known_server_language(asker.guild.map(|g| GuildId(g.get())))
        .or(Lang::from_optional(asker.guild_locale));
    data.tables
        .note_languages(asker.channel, actor.user, user, guild);
    let langs = Langs::choose(user, guild, Some(channel_lang(ctx, data, asker.channel)));
    (actor, langs)
}

/// Hands a request to the service's one door ([`Tables::serve`](crate::service::Tables::serve)):
/// on a blocking thread, a hint searched in the pool, a person's move with a computer to move next
/// waiting up to [`QUICK_ANSWER`](crate::service::QUICK_ANSWER) for the computer's move to post both
/// in one message. What follows (a late computer move, the next ones) the service publishes once the
/// [`Pending`] is dropped, after the answer.
pub(super) async fn serve(data: &Data, request: Request) -> (Reply, Pending) {
    data.tables.serve(request, FaceId::Discord).await
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

/// Tells the relay and the service where an interaction happened ([`Place`]): where the bot may
/// only answer, its token is noted (used once the interaction is answered) and the channel's table
/// marked (saved, on a blocking thread, so that a restart knows).
pub(super) async fn note_place(data: &Data, channel: ChannelId, token: &str, place: Place) {
    let answers_only = match place {
        Place::Channel => false,
        Place::AnswersOnly { limited, .. } => {
            data.relays
                .note(channel, token, limited, std::time::Instant::now());
            true
        }
    };
    if answers_only == data.tables.is_answers_only(channel) && !answers_only {
        return;
    }
    let tables = data.tables.clone();
    if let Err(e) =
        tokio::task::spawn_blocking(move || tables.note_answers_only(channel, answers_only)).await
    {
        tracing::error!(
            channel = channel.0,
            "noting where the bot may post failed: {e}"
        );
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
