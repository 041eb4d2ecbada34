//! Challenge a friend: `/sequence start invite: @Ann @Bob` and the user command "Challenge to
//! Sequence" open a lobby with those players invited. The invitation is read here from what
//! Discord's client puts in a string option (each `@Ann` picked from the list becomes `<@id>`, in
//! older clients `<@!id>`), strictly: anything but mentions of people is refused politely and nothing
//! opens. The lobby post pings the invited players once; what they answer is in `table/challenge.rs`.

use super::lobby_opened;
use crate::service::budget::Place;
use crate::service::lock;
use crate::service::table::Table;
use crate::service::{Actor, ChannelId, Command, GuildId, Reply, Tables, Text, Timestamp};
use crate::service::{Message, Setup, UserId};

/// The users mentioned in an `invite:` option, in order: only mentions of users (`<@id>`,
/// `<@!id>`), separated by spaces or commas. A role or channel mention, `@everyone` or `@here` is
/// refused as [`Text::InviteNotPeople`], anything else (and nothing at all) as
/// [`Text::InviteNotMentions`], a user named twice as [`Text::InviteTwice`].
pub fn parse_invite(text: &str) -> Result<Vec<UserId>, Text> {
    let mut invited: Vec<UserId> = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() {
            break;
        }
        if rest.starts_with("<@&")
            || rest.starts_with("<#")
            || rest.starts_with("@everyone")
            || rest.starts_with("@here")
        {
            return Err(Text::InviteNotPeople);
        }
        let Some(body) = rest.strip_prefix("<@") else {
            return Err(Text::InviteNotMentions);
        };
        let Some((id, after)) = body.split_once('>') else {
            return Err(Text::InviteNotMentions);
        };
        let id = id.strip_prefix('!').unwrap_or(id);
        let user = snowflake(id).ok_or(Text::InviteNotMentions)?;
        if invited.contains(&user) {
            return Err(Text::InviteTwice(user));
        }
        invited.push(user);
        rest = after;
    }
    if invited.is_empty() {
        return Err(Text::InviteNotMentions);
    }
    Ok(invited)
}

/// A Discord id as written in a mention: digits only, no leading zero, not 0, within `u64`.
fn snowflake(text: &str) -> Option<UserId> {
    if text.is_empty() || text.len() > 20 || text.starts_with('0') {
        return None;
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().map(UserId)
}

impl Tables {
    /// A challenge: the lobby `start` asks for, with `invited` invited until the bot's challenge
    /// timeout (`bots`: those of them Discord says are apps); its post pings them (a new message:
    /// the invitation notifies once).
    pub(in crate::service) fn challenge(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: &Actor,
        start: Command,
        (invited, bots): (&[UserId], &[UserId]),
        now: Timestamp,
    ) -> Reply {
        let setup = match self.setup_for(guild, start) {
            Ok(setup) => setup,
            Err(text) => return Reply::ephemeral(text),
        };
        let settings = self.settings_for(guild);
        let mut table = Table::new(channel, actor, setup, now);
        self.place(&mut table, guild);
        let _span = table.span().entered();
        if let Err(text) = table.invite(invited, bots, now.after(settings.challenge_timeout)) {
            return Reply::ephemeral(text);
        }
        let message = table.lobby_message(&settings);
        self.open_inviting(guild, actor, table, message, invited, now)
    }

    /// Opens `table`'s lobby with its card `message`, which pings those of `invited` the host's
    /// invitations may ping now (see [`Tables::ping_invited`]); if the lobby does not open, nobody
    /// was pinged.
    pub(in crate::service) fn open_inviting(
        &self,
        guild: Option<GuildId>,
        actor: &Actor,
        table: Table,
        mut message: Message,
        invited: &[UserId],
        now: Timestamp,
    ) -> Reply {
        message.mentions = match self.ping_invited(guild, actor.user, invited, now) {
            Ok(pinged) => pinged,
            Err(text) => return Reply::ephemeral(text),
        };
        let pinged = message.mentions.clone();
        let reply = self.open(guild, actor, table, lobby_opened(message));
        if reply.is_refusal() {
            self.not_pinged(actor.user, &pinged);
        }
        reply
    }

    /// Of `invited`, whom the host's invitation pings: see
    /// [`crate::service::budget::Budgets::ping_invited`] (charged to the host's posting budget in the server,
    /// or outside servers to a budget of the host's own).
    fn ping_invited(
        &self,
        guild: Option<GuildId>,
        host: UserId,
        invited: &[UserId],
        now: Timestamp,
    ) -> Result<Vec<UserId>, Text> {
        let place = Place::of(guild, host);
        let pinged =
            lock(&self.budgets).ping_invited(place, host, invited, now, &self.settings.limits);
        if pinged.is_err() {
            metrics::counter!("sequence_posting_refusals_total", "budget" => "member").increment(1);
        }
        pinged
    }

    /// The lobby whose invitation was to ping `pinged` did not open: nobody was pinged.
    fn not_pinged(&self, host: UserId, pinged: &[UserId]) {
        let mut budgets = lock(&self.budgets);
        for user in pinged {
            budgets.accepted(host, *user);
        }
    }

    /// The setup a [`Command::Start`] asks for, checked (the server's rated default applied).
    pub(in crate::service) fn setup_for(
        &self,
        guild: Option<GuildId>,
        start: Command,
    ) -> Result<Setup, Text> {
        let Command::Start {
            variant,
            teams,
            options,
            rated,
            turn_time,
            series,
        } = start
        else {
            return Err(Text::Internal);
        };
        let rated = rated.or(self.server_settings(guild).rated);
        Setup::new(variant, teams, options)
            .and_then(|s| s.with_turn_time(turn_time))
            .and_then(|s| s.with_series(series))
            .map(|s| Setup { rated, ..s })
    }
}
