//! The bot's posting budget per server (issue 14.4), shared fairly (issue 24.3).
//!
//! Each server has a token bucket of `server_posts_per_second`, `server_post_burst` deep, that every
//! post in it is taken from. Inside it:
//! - each member has a bucket of their own: the server's rate and burst divided by the members who
//!   posted lately (whose own bucket is not full yet) plus one share kept for the games' own posts, at
//!   least [`MIN_MEMBER_BURST`] posts deep. A member is charged what their request posts (in the
//!   channel, to themselves by direct message, a lobby edit that waits; not the hands dealt to the
//!   other players) and, past their share, is refused ([`Text::SlowDown`]) while everyone else goes
//!   on;
//! - members are answered only while the server's bucket holds more than [`reserve`] posts (a
//!   quarter of the burst): that last part is for what nobody asks for (computer moves, reminders,
//!   timeouts), which is held back only when the server's whole bucket is empty;
//! - a member who changes a lobby by Join or Leave again within [`LOBBY_EDIT_EVERY`] of their last
//!   change there does not make the bot edit the lobby message again at once: the newest card waits
//!   (a later one replaces it) and the next tick, or the next edit that goes out, shows it.

use std::collections::HashMap;
use std::time::Duration;

use super::ids::{ChannelId, GuildId, Timestamp, UserId};
use super::reply::{Message, Output, Reply};
use super::settings::{Limits, MAX_REMEMBERED};
use super::text::Text;

/// One post, in the units the buckets count in (a millionth of a post, so that a rate divided among
/// many members still refills every millisecond).
const POST: i64 = 1_000_000;

/// Fewest posts a member may make in a burst, however many members share the server.
pub(super) const MIN_MEMBER_BURST: i64 = 3;

/// How long after a member's Join or Leave was shown on a lobby their next one waits.
pub(super) const LOBBY_EDIT_EVERY: Duration = Duration::from_secs(2);

/// A token bucket (may go below zero: posts the bot had to make anyway).
#[derive(Clone, Copy, Debug)]
struct Bucket {
    /// Posts available, in [`POST`] units.
    units: i64,
    /// When it was last refilled.
    at: Timestamp,
}

impl Bucket {
    fn full(posts: i64, now: Timestamp) -> Bucket {
        Bucket {
            units: posts.saturating_mul(POST),
            at: now,
        }
    }

    /// Adds `per_second / shares` posts a second since the last refill, up to `cap` posts.
    fn refill(&mut self, now: Timestamp, per_second: u32, shares: i64, cap: i64) {
        let elapsed_ms = i64::try_from(now.0.saturating_sub(self.at.0)).unwrap_or(i64::MAX);
        let gained = elapsed_ms
            .saturating_mul(i64::from(per_second))
            .saturating_mul(POST / 1000)
            / shares.max(1);
        self.units = self
            .units
            .saturating_add(gained)
            .min(cap.saturating_mul(POST));
        self.at = self.at.max(now);
    }

    fn holds(&self, posts: i64) -> bool {
        self.units >= posts.saturating_mul(POST)
    }

    fn is_full(&self, cap: i64) -> bool {
        self.units >= cap.saturating_mul(POST)
    }

    /// Takes `posts`, down to `-floor` posts at most (debt beyond that is forgiven).
    fn spend(&mut self, posts: i64, floor: i64) {
        self.units = self
            .units
            .saturating_sub(posts.saturating_mul(POST))
            .max(floor.saturating_mul(-POST));
    }
}

/// The posts of a server's bucket that members cannot take: a quarter of the burst, at least one.
pub(super) fn reserve(limits: &Limits) -> i64 {
    (i64::from(limits.server_post_burst) / 4).max(1)
}

fn burst(limits: &Limits) -> i64 {
    i64::from(limits.server_post_burst.max(1))
}

/// How deep a member's bucket is when the server is shared `shares` ways.
fn member_burst(limits: &Limits, shares: i64) -> i64 {
    (burst(limits) / shares.max(1)).max(MIN_MEMBER_BURST)
}

/// One server's budget: its own bucket, and the buckets of the members who posted lately.
#[derive(Debug)]
struct ServerBudget {
    server: Bucket,
    /// Only members whose bucket is not full: a full one is the same as none.
    members: HashMap<UserId, Bucket>,
}

impl ServerBudget {
    fn new(limits: &Limits, now: Timestamp) -> ServerBudget {
        ServerBudget {
            server: Bucket::full(burst(limits), now),
            members: HashMap::new(),
        }
    }

    /// How many ways the server's rate is shared: the members who posted lately (and `asker`, if not
    /// among them) and the games' own posts.
    fn shares(&self, asker: Option<UserId>) -> i64 {
        let new = asker.is_some_and(|user| !self.members.contains_key(&user));
        i64::try_from(self.members.len())
            .unwrap_or(i64::MAX)
            .saturating_add(1 + i64::from(new))
    }

    fn refill(&mut self, now: Timestamp, limits: &Limits) {
        let rate = limits.server_posts_per_second;
        self.server.refill(now, rate, 1, burst(limits));
        let shares = self.shares(None);
        let cap = member_burst(limits, shares);
        for bucket in self.members.values_mut() {
            bucket.refill(now, rate, shares, cap);
        }
        self.members.retain(|_, bucket| !bucket.is_full(cap));
    }

    /// Takes `posts` from `user`'s share (a full share if they had none), down to minus `floor`.
    fn spend_member(
        &mut self,
        user: UserId,
        posts: i64,
        floor: i64,
        now: Timestamp,
        limits: &Limits,
    ) {
        let cap = member_burst(limits, self.shares(Some(user)));
        self.members
            .entry(user)
            .or_insert_with(|| Bucket::full(cap, now))
            .spend(posts, floor);
    }
}

/// Whose posting budget pays: a server's; outside servers (DMs, group DMs) one of the host's own
/// for all of them, which only invitations are charged to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Place {
    Server(GuildId),
    Outside(UserId),
}

impl Place {
    pub(super) fn of(guild: Option<GuildId>, host: UserId) -> Place {
        guild.map_or(Place::Outside(host), Place::Server)
    }
}

/// How long after an invitation that pinged someone the same host's invitations do not ping them
/// again, unless they accepted it (took a seat): opening and cancelling challenges in a loop pinged
/// one person 43 times in 31 s (issue 44.18). Longer than an invitation stays open.
pub(crate) const PING_AGAIN_AFTER: Duration = Duration::from_secs(30 * 60);

/// Every server's posting budget, and whom each host's invitations pinged lately.
#[derive(Debug, Default)]
pub(super) struct Budgets {
    places: HashMap<Place, ServerBudget>,
    /// (host, invited) → when an invitation of the host last pinged them.
    pinged: HashMap<(UserId, UserId), Timestamp>,
}

impl Budgets {
    /// Whether `user` may make the bot post in `guild` now: `Err` is the polite refusal.
    pub(super) fn member_may_post(
        &mut self,
        guild: GuildId,
        user: UserId,
        now: Timestamp,
        limits: &Limits,
    ) -> Result<(), Text> {
        self.may_post_in(Place::Server(guild), user, now, limits)
    }

    /// Whether `user` may make the bot post in `place` now (a place without a budget yet has room):
    /// `Err` is the polite refusal.
    fn may_post_in(
        &mut self,
        place: Place,
        user: UserId,
        now: Timestamp,
        limits: &Limits,
    ) -> Result<(), Text> {
        let Some(budget) = self.places.get_mut(&place) else {
            return Ok(());
        };
        budget.refill(now, limits);
        if budget.members.get(&user).is_some_and(|b| !b.holds(1)) {
            return Err(Text::SlowDown);
        }
        if !budget.server.holds(reserve(limits) + 1) {
            return Err(Text::Busy);
        }
        Ok(())
    }

    /// The budget of `place`, made when it has none yet (the memory of places starts afresh past
    /// [`MAX_REMEMBERED`]), refilled up to `now`.
    fn budget_at(&mut self, place: Place, now: Timestamp, limits: &Limits) -> &mut ServerBudget {
        if self.places.len() >= MAX_REMEMBERED && !self.places.contains_key(&place) {
            self.places.clear();
        }
        let budget = self
            .places
            .entry(place)
            .or_insert_with(|| ServerBudget::new(limits, now));
        budget.refill(now, limits);
        budget
    }

    /// Whether `user` may have a search (a hint) in `guild` now: their own share is not spent (what
    /// it costs is a search, not a post in the channel, so the server's bucket is not asked).
    pub(super) fn member_may_search(
        &mut self,
        guild: GuildId,
        user: UserId,
        now: Timestamp,
        limits: &Limits,
    ) -> bool {
        let Some(budget) = self.places.get_mut(&Place::Server(guild)) else {
            return true;
        };
        budget.refill(now, limits);
        budget.members.get(&user).is_none_or(|b| b.holds(1))
    }

    /// Whether the bot may post in `guild` now what nobody asked for (a computer move).
    pub(super) fn may_post_unprompted(
        &mut self,
        guild: GuildId,
        now: Timestamp,
        limits: &Limits,
    ) -> bool {
        self.places
            .get_mut(&Place::Server(guild))
            .is_none_or(|budget| {
                budget.refill(now, limits);
                budget.server.holds(1)
            })
    }

    /// Takes `posts` from `guild`'s bucket (down to minus a burst), and a member's posts from theirs
    /// (down to minus [`MIN_MEMBER_BURST`]: one large request, such as dealing a game of twelve, does not
    /// keep its member waiting long). What was posted was posted.
    pub(super) fn spend(
        &mut self,
        guild: GuildId,
        member: Option<(UserId, i64)>,
        posts: i64,
        now: Timestamp,
        limits: &Limits,
    ) {
        let member = member.filter(|(_, posts)| *posts > 0);
        if posts <= 0 && member.is_none() {
            return;
        }
        let budget = self.budget_at(Place::Server(guild), now, limits);
        budget.server.spend(posts.max(0), burst(limits));
        if let Some((user, posts)) = member {
            budget.spend_member(user, posts, MIN_MEMBER_BURST, now, limits);
        }
    }
    /// Of `invited`, whom an invitation of `host` may ping now (nobody it pinged within
    /// [`PING_AGAIN_AFTER`] who has not accepted since), noted as pinged now; and whether the host's
    /// budget in `place` may pay for those pings (each a post, like the lobby's own post). `Err` is
    /// the polite refusal, and then nobody is noted.
    pub(super) fn ping_invited(
        &mut self,
        place: Place,
        host: UserId,
        invited: &[UserId],
        now: Timestamp,
        limits: &Limits,
    ) -> Result<Vec<UserId>, Text> {
        self.may_post_in(place, host, now, limits)?;
        self.pinged.retain(|_, at| now < at.after(PING_AGAIN_AFTER));
        let pinged: Vec<UserId> = invited
            .iter()
            .copied()
            .filter(|user| !self.pinged.contains_key(&(host, *user)))
            .collect();
        if pinged.is_empty() {
            return Ok(pinged);
        }
        if self.pinged.len() >= MAX_REMEMBERED {
            self.pinged.clear();
        }
        for user in &pinged {
            self.pinged.insert((host, *user), now);
        }
        // Each ping is charged like a post, to the host's share and the place's bucket, and may take
        // the host's share as far below zero as it costs: the next invitation waits until it is paid.
        let pings = i64::try_from(pinged.len()).unwrap_or(i64::MAX);
        let budget = self.budget_at(place, now, limits);
        budget.server.spend(pings, burst(limits));
        budget.spend_member(host, pings, pings.max(MIN_MEMBER_BURST), now, limits);
        Ok(pinged)
    }

    /// `user` took a seat in a lobby of `host`: the host's invitations may ping them again.
    pub(super) fn accepted(&mut self, host: UserId, user: UserId) {
        self.pinged.remove(&(host, user));
    }
}

/// Lobby messages whose newest card waits, and who changed each lobby lately.
#[derive(Debug, Default)]
pub(super) struct LobbyEdits(HashMap<ChannelId, LobbyEdit>);

#[derive(Debug)]
struct LobbyEdit {
    /// The lobby message.
    message_id: u64,
    /// Members whose Join or Leave was shown on it lately, and when.
    shown: Vec<(UserId, Timestamp)>,
    /// The newest card not shown yet.
    waiting: Option<Waiting>,
}

impl LobbyEdit {
    fn new(message_id: u64) -> LobbyEdit {
        LobbyEdit {
            message_id,
            shown: Vec::new(),
            waiting: None,
        }
    }

    /// Forgets the changes shown long enough ago.
    fn forget_before(&mut self, now: Timestamp) {
        self.shown
            .retain(|(_, at)| now < at.after(LOBBY_EDIT_EVERY));
    }
}

/// A lobby card that waits.
#[derive(Debug)]
struct Waiting {
    card: Message,
    /// From when it is shown.
    due: Timestamp,
    /// Whose changes wait in it.
    members: Vec<UserId>,
}

impl LobbyEdits {
    /// Holds back the lobby edit of `reply` (asked by `user`) if `user` changed this lobby by Join or
    /// Leave less than [`LOBBY_EDIT_EVERY`] ago (`join_or_leave`: this request is one). Every other
    /// edit goes out, and one that does makes a waiting card needless.
    pub(super) fn coalesce(
        &mut self,
        channel: ChannelId,
        user: UserId,
        join_or_leave: bool,
        reply: &mut Reply,
        now: Timestamp,
    ) {
        let mut outputs = Vec::with_capacity(reply.outputs.len());
        for output in std::mem::take(&mut reply.outputs) {
            let Output::Lobby {
                message_id: Some(message_id),
                message,
            } = &output
            else {
                if matches!(output, Output::Lobby { .. }) {
                    // A new lobby message: a new lobby.
                    self.0.remove(&channel);
                }
                outputs.push(output);
                continue;
            };
            if message.buttons.is_empty() {
                // The lobby's last card (started, cancelled, abandoned): always shown.
                self.0.remove(&channel);
                outputs.push(output);
                continue;
            }
            if self.0.len() >= MAX_REMEMBERED && !self.0.contains_key(&channel) {
                self.0.clear();
            }
            let edit = self
                .0
                .entry(channel)
                .or_insert_with(|| LobbyEdit::new(*message_id));
            if edit.message_id != *message_id {
                *edit = LobbyEdit::new(*message_id);
            }
            edit.forget_before(now);
            let last = edit
                .shown
                .iter()
                .find(|(who, _)| *who == user)
                .map(|(_, at)| *at);
            match last.filter(|_| join_or_leave) {
                Some(last) => {
                    let waiting = edit.waiting.get_or_insert_with(|| Waiting {
                        card: message.clone(),
                        due: last.after(LOBBY_EDIT_EVERY),
                        members: Vec::new(),
                    });
                    waiting.card = message.clone();
                    if !waiting.members.contains(&user) {
                        waiting.members.push(user);
                    }
                }
                None => {
                    if join_or_leave {
                        edit.shown.push((user, now));
                    }
                    edit.waiting = None;
                    outputs.push(output);
                }
            }
        }
        reply.outputs = outputs;
    }

    /// The waiting cards due by `now`, taken out: (channel, lobby message, card). The changes they
    /// carry count as shown now.
    pub(super) fn due(&mut self, now: Timestamp) -> Vec<(ChannelId, u64, Message)> {
        let mut due = Vec::new();
        for (channel, edit) in &mut self.0 {
            edit.forget_before(now);
            if edit.waiting.as_ref().is_none_or(|w| w.due > now) {
                continue;
            }
            if let Some(waiting) = edit.waiting.take() {
                edit.shown.retain(|(who, _)| !waiting.members.contains(who));
                edit.shown
                    .extend(waiting.members.iter().map(|who| (*who, now)));
                due.push((*channel, edit.message_id, waiting.card));
            }
        }
        self.0
            .retain(|_, edit| edit.waiting.is_some() || !edit.shown.is_empty());
        due
    }
}

/// How many messages a reply makes the bot send or edit in its server (private answers to the asker
/// are not counted: they answer an interaction).
pub(super) fn posts_of(reply: &Reply) -> i64 {
    let posts = reply
        .outputs
        .iter()
        .filter(|o| !matches!(o, Output::Ephemeral(_) | Output::Update(_)))
        .count();
    i64::try_from(posts).unwrap_or(i64::MAX)
}

/// What a member's request is charged: what it posts, but not the direct messages to other players
/// (the hands dealt to everyone at the start are the game's, not the host's) nor taking the Play
/// button off the last prompt (the game's housekeeping after every move, whoever made it). The
/// server's budget pays for both.
pub(super) fn member_posts_of(reply: &Reply, member: UserId) -> i64 {
    let posts = reply
        .outputs
        .iter()
        .filter(|o| match o {
            Output::Ephemeral(_) | Output::Update(_) | Output::Disarm { .. } => false,
            Output::Direct { user, .. } => *user == member,
            _ => true,
        })
        .count();
    i64::try_from(posts).unwrap_or(i64::MAX)
}
