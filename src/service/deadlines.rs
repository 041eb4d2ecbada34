//! Issue 28: what the timers and the table limits need without looking at every table. The live
//! tables with the counts the table limits check ([`Registry`]), and each table's next deadline in a
//! queue ([`Deadlines`]), so that `Tables::tick` touches only the tables that are due.

use std::cmp::Reverse;
use std::collections::hash_map::Entry as MapEntry;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;

use crate::engine::Variant;

use std::sync::{Arc, Mutex};

use super::ids::{ChannelId, GuildId, Timestamp, UserId};
use super::settings::Settings;
use super::table::{Player, State, Table};

/// The states of the `sequence_tables` gauge, in the order of [`TableCounts`].
pub(super) const GAUGE_STATES: [&str; 3] = ["lobby", "playing", "paused"];

/// Open tables by state ([`GAUGE_STATES`]) and game ([`Variant::ALL`]).
pub(super) type TableCounts = [[u32; Variant::ALL.len()]; GAUGE_STATES.len()];

/// Where a table counts in [`TableCounts`] (`None`: closed, it does not).
pub(super) fn gauge_kind(table: &Table) -> Option<(usize, usize)> {
    if table.closed {
        return None;
    }
    let state = match (&table.state, &table.paused) {
        (_, Some(_)) => 2,
        (State::Lobby(_), None) => 0,
        (State::Playing(_), None) => 1,
    };
    let game = Variant::ALL
        .iter()
        .position(|v| *v == table.setup.variant)
        .unwrap_or(0);
    Some((state, game))
}

/// A live table behind its own lock, as the registry shares it.
pub(super) type Shared = Arc<Mutex<Table>>;

/// A live table as the map holds it: the table, whom it is counted for, and where it counts in
/// the gauge (as of its last change).
struct Entry {
    shared: Shared,
    host: UserId,
    guild: Option<GuildId>,
    kind: Option<(usize, usize)>,
    /// Its web token (empty: none).
    token: String,
    /// The web tokens of its series' finished games (see `Series::pages`).
    earlier: Vec<String>,
}

/// Every live table of this process, by channel, with the number each host and each server has
/// (kept as tables come and go, so a new table is checked against the limits without counting).
/// The tables by state and game are kept the same way (issue 33): a metrics scrape reads nine numbers
/// instead of locking every table.
#[derive(Default)]
pub(super) struct Registry {
    tables: HashMap<ChannelId, Entry>,
    /// The channel of each table's web token (see `Table::web_token`).
    by_token: HashMap<String, ChannelId>,
    /// The channel of each finished game of a series still played (`Series::pages`).
    by_earlier: HashMap<String, ChannelId>,
    hosted: HashMap<UserId, u32>,
    in_guild: HashMap<GuildId, u32>,
    by_kind: TableCounts,
}

fn count_up<K: Hash + Eq>(counts: &mut HashMap<K, u32>, key: K) {
    *counts.entry(key).or_insert(0) += 1;
}

fn count_down<K: Hash + Eq>(counts: &mut HashMap<K, u32>, key: K) {
    if let MapEntry::Occupied(mut entry) = counts.entry(key) {
        *entry.get_mut() = entry.get().saturating_sub(1);
        if *entry.get() == 0 {
            // Gone, not kept at zero: a long-lived process sees many hosts come and go.
            entry.remove();
        }
    }
}

impl Registry {
    /// The table of a channel.
    pub(super) fn get(&self, channel: ChannelId) -> Option<&Shared> {
        self.tables.get(&channel).map(|e| &e.shared)
    }

    /// Live tables.
    pub(super) fn len(&self) -> usize {
        self.tables.len()
    }

    /// The channel whose table has the web token `token`.
    pub(super) fn of_token(&self, token: &str) -> Option<ChannelId> {
        self.by_token.get(token).copied()
    }

    /// The channel whose table plays the series that an earlier game with web token `token` was a
    /// game of.
    pub(super) fn of_earlier_token(&self, token: &str) -> Option<ChannelId> {
        self.by_earlier.get(token).copied()
    }

    /// The channel's table has web token `token` now, and its series' finished games `earlier` (the
    /// next game of a series has a page of its own). Called after each change, with the table's lock
    /// held; a token another table has is left out.
    pub(super) fn set_tokens(&mut self, channel: ChannelId, token: &str, earlier: &[String]) {
        let Some(entry) = self.tables.get_mut(&channel) else {
            return;
        };
        if entry.token != token {
            let old = std::mem::replace(&mut entry.token, token.to_string());
            if self.by_token.get(&old) == Some(&channel) {
                self.by_token.remove(&old);
            }
            if !token.is_empty() && !self.by_token.contains_key(token) {
                self.by_token.insert(token.to_string(), channel);
            }
        }
        if entry.earlier.as_slice() != earlier {
            let old = std::mem::replace(&mut entry.earlier, earlier.to_vec());
            for page in old {
                if self.by_earlier.get(&page) == Some(&channel) {
                    self.by_earlier.remove(&page);
                }
            }
            for page in earlier {
                self.by_earlier.entry(page.clone()).or_insert(channel);
            }
        }
    }

    /// Adds a table hosted by `host` in `guild`, its page named by `token` (empty: none); `false` (and
    /// nothing changes) if the channel has one, or another table has that token.
    pub(super) fn insert(
        &mut self,
        channel: ChannelId,
        shared: Shared,
        host: UserId,
        guild: Option<GuildId>,
        token: &str,
    ) -> bool {
        if self.tables.contains_key(&channel)
            || (!token.is_empty() && self.by_token.contains_key(token))
        {
            return false;
        }
        if !token.is_empty() {
            self.by_token.insert(token.to_string(), channel);
        }
        count_up(&mut self.hosted, host);
        if let Some(guild) = guild {
            count_up(&mut self.in_guild, guild);
        }
        self.tables.insert(
            channel,
            Entry {
                shared,
                host,
                guild,
                kind: None,
                token: token.to_string(),
                earlier: Vec::new(),
            },
        );
        true
    }

    /// Removes the channel's table if it is still `shared` (and not a newer one).
    pub(super) fn remove(&mut self, channel: ChannelId, shared: &Shared) -> bool {
        let MapEntry::Occupied(entry) = self.tables.entry(channel) else {
            return false;
        };
        if !std::sync::Arc::ptr_eq(&entry.get().shared, shared) {
            return false;
        }
        let entry = entry.remove();
        self.by_token.remove(&entry.token);
        for page in &entry.earlier {
            if self.by_earlier.get(page) == Some(&channel) {
                self.by_earlier.remove(page);
            }
        }
        self.uncount_kind(entry.kind);
        count_down(&mut self.hosted, entry.host);
        if let Some(guild) = entry.guild {
            count_down(&mut self.in_guild, guild);
        }
        true
    }

    /// The channel's table is hosted by `host` now (the host left the lobby).
    pub(super) fn set_host(&mut self, channel: ChannelId, host: UserId) {
        let Some(entry) = self.tables.get_mut(&channel) else {
            return;
        };
        if entry.host != host {
            let old = std::mem::replace(&mut entry.host, host);
            count_down(&mut self.hosted, old);
            count_up(&mut self.hosted, host);
        }
    }

    /// The channel's table counts as `kind` in the gauge now (called after each change, with the
    /// table's lock held, so the changes of one table are counted in order).
    pub(super) fn set_kind(&mut self, channel: ChannelId, kind: Option<(usize, usize)>) {
        let Some(entry) = self.tables.get_mut(&channel) else {
            return;
        };
        let old = std::mem::replace(&mut entry.kind, kind);
        if old != kind {
            self.uncount_kind(old);
            if let Some((state, game)) = kind {
                self.by_kind[state][game] += 1;
            }
        }
    }

    fn uncount_kind(&mut self, kind: Option<(usize, usize)>) {
        if let Some((state, game)) = kind {
            self.by_kind[state][game] = self.by_kind[state][game].saturating_sub(1);
        }
    }

    /// Open tables by state and game, as kept.
    pub(super) fn table_counts(&self) -> TableCounts {
        self.by_kind
    }

    /// Live tables `user` hosts.
    pub(super) fn hosted_by(&self, user: UserId) -> u32 {
        self.hosted.get(&user).copied().unwrap_or(0)
    }

    /// Live tables of `guild`.
    pub(super) fn in_guild(&self, guild: GuildId) -> u32 {
        self.in_guild.get(&guild).copied().unwrap_or(0)
    }

    /// The tables of `guild` (every table for `None`): for a change of a server's timers, and the metrics.
    pub(super) fn tables_of(&self, guild: Option<GuildId>) -> Vec<Shared> {
        self.tables
            .values()
            .filter(|e| guild.is_none() || e.guild == guild)
            .map(|e| e.shared.clone())
            .collect()
    }

    /// Tests only: the tables by state and game counted from the tables themselves, as each scrape
    /// used to count them.
    #[cfg(test)]
    pub(super) fn recount_kinds(&self) -> TableCounts {
        let mut counts = TableCounts::default();
        for entry in self.tables.values() {
            if let Some((state, game)) = gauge_kind(&super::lock(&entry.shared)) {
                counts[state][game] += 1;
            }
        }
        counts
    }

    /// Tests only: the counts recomputed from the tables themselves, as the limits used to count.
    #[cfg(test)]
    pub(super) fn recount(&self) -> (HashMap<UserId, u32>, HashMap<GuildId, u32>) {
        let (mut hosted, mut in_guild) = (HashMap::new(), HashMap::new());
        for entry in self.tables.values() {
            let table = super::lock(&entry.shared);
            if table.closed {
                continue;
            }
            count_up(&mut hosted, table.host);
            if let Some(guild) = table.guild {
                count_up(&mut in_guild, guild);
            }
        }
        (hosted, in_guild)
    }

    /// Tests only: the counts as kept.
    #[cfg(test)]
    pub(super) fn counts(&self) -> (HashMap<UserId, u32>, HashMap<GuildId, u32>) {
        (self.hosted.clone(), self.in_guild.clone())
    }
}

/// When `table` next needs the timer: its lobby's expiry (or its invitations' lapse), its turn's reminder or timeout, at once
/// for a computer player (or a timed-out turn) to move; `None` when no timer can act on it (closed,
/// paused, over). The same conditions as `Table::tick` and `Table::timed_out_human`; a deadline that
/// is early does no harm (the pass finds nothing and asks again), one that is late would.
pub(super) fn next_deadline(table: &Table, settings: &Settings) -> Option<Timestamp> {
    if table.closed || table.paused.is_some() {
        return None;
    }
    match &table.state {
        State::Lobby(_) => {
            let expiry = table.created.after(settings.lobby_timeout);
            Some(
                table
                    .invitations_lapse()
                    .map_or(expiry, |lapse| lapse.min(expiry)),
            )
        }
        State::Playing(playing) => {
            let pos = playing.game().position();
            if pos.is_over() {
                return None;
            }
            let timeout = playing
                .turn_started
                .after(table.setup.turn_timeout(settings));
            let reminder = table.setup.turn_reminder(settings);
            match playing.player(pos.to_move()) {
                Some(Player::Bot { .. }) => Some(playing.turn_started),
                Some(Player::Human { .. }) if !playing.reminded => {
                    Some(reminder.map_or(timeout, |r| timeout.min(playing.turn_started.after(r))))
                }
                Some(Player::Human { .. }) => Some(timeout),
                None => None,
            }
        }
    }
}

/// Each table's next deadline, in a queue by time. A table's deadline is set anew whenever it
/// changes; the queue keeps the old entry until it comes up and is then skipped as stale (it no
/// longer matches the table's deadline), and is rebuilt when stale entries outnumber the live ones.
#[derive(Default)]
pub(super) struct Deadlines {
    due: HashMap<ChannelId, Timestamp>,
    queue: BinaryHeap<Reverse<(Timestamp, ChannelId)>>,
}

impl Deadlines {
    /// Sets (or with `None` clears) the channel's next deadline.
    pub(super) fn set(&mut self, channel: ChannelId, at: Option<Timestamp>) {
        match at {
            Some(at) => {
                if self.due.insert(channel, at) != Some(at) {
                    self.queue.push(Reverse((at, channel)));
                    self.compact();
                }
            }
            None => {
                self.due.remove(&channel);
            }
        }
    }

    /// Takes the channels whose deadline is `now` or earlier, earliest first (each once; their
    /// deadlines are cleared: whoever handles them sets the next).
    pub(super) fn take_due(&mut self, now: Timestamp) -> Vec<ChannelId> {
        let mut out = Vec::new();
        while let Some(Reverse((at, channel))) = self.queue.peek().copied() {
            if at > now {
                break;
            }
            self.queue.pop();
            if self.due.get(&channel) == Some(&at) {
                self.due.remove(&channel);
                out.push(channel);
            }
        }
        out
    }

    /// Channels with a deadline.
    pub(super) fn len(&self) -> usize {
        self.due.len()
    }

    /// Entries in the queue (live and stale).
    #[cfg(test)]
    pub(super) fn queued(&self) -> usize {
        self.queue.len()
    }

    /// The channel's deadline.
    #[cfg(test)]
    pub(super) fn of(&self, channel: ChannelId) -> Option<Timestamp> {
        self.due.get(&channel).copied()
    }

    fn compact(&mut self) {
        if self.queue.len() > 2 * self.due.len() + 1024 {
            self.queue = self
                .due
                .iter()
                .map(|(channel, at)| Reverse((*at, *channel)))
                .collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_due_and_current_entries_come_out() {
        let mut deadlines = Deadlines::default();
        deadlines.set(ChannelId(1), Some(Timestamp(100)));
        deadlines.set(ChannelId(2), Some(Timestamp(50)));
        // Moved on: the old entry at 100 is stale.
        deadlines.set(ChannelId(1), Some(Timestamp(300)));
        deadlines.set(ChannelId(3), Some(Timestamp(70)));
        deadlines.set(ChannelId(3), None);
        assert!(deadlines.take_due(Timestamp(10)).is_empty());
        assert_eq!(deadlines.take_due(Timestamp(200)), vec![ChannelId(2)]);
        assert!(deadlines.take_due(Timestamp(200)).is_empty(), "taken once");
        assert_eq!(deadlines.take_due(Timestamp(300)), vec![ChannelId(1)]);
        assert_eq!(deadlines.len(), 0);
    }

    #[test]
    fn an_earlier_deadline_is_honoured() {
        let mut deadlines = Deadlines::default();
        deadlines.set(ChannelId(1), Some(Timestamp(500)));
        deadlines.set(ChannelId(1), Some(Timestamp(20)));
        assert_eq!(deadlines.take_due(Timestamp(20)), vec![ChannelId(1)]);
        assert!(
            deadlines.take_due(Timestamp(600)).is_empty(),
            "the later one is stale"
        );
    }

    #[test]
    fn stale_entries_do_not_pile_up() {
        let mut deadlines = Deadlines::default();
        for t in 0..100_000 {
            deadlines.set(ChannelId(t % 10), Some(Timestamp(1_000_000 + t)));
        }
        assert_eq!(deadlines.len(), 10);
        assert!(
            deadlines.queued() <= 2 * 10 + 1025,
            "{}",
            deadlines.queued()
        );
        assert_eq!(deadlines.take_due(Timestamp(u64::MAX)).len(), 10);
    }

    #[test]
    fn counts_follow_the_tables() {
        use std::sync::{Arc, Mutex};
        let actor = crate::service::tests::kit::test_actor(1);
        let setup = super::super::Setup::new(
            crate::engine::Variant::Classic,
            None,
            crate::engine::Options::default(),
        )
        .expect("setup");
        let table = |channel| {
            Arc::new(Mutex::new(Table::new(
                ChannelId(channel),
                &actor,
                setup,
                Timestamp(0),
            )))
        };
        let mut registry = Registry::default();
        let (a, b, c) = (table(1), table(2), table(3));
        assert!(registry.insert(ChannelId(1), a.clone(), UserId(1), Some(GuildId(9)), "a"));
        assert!(registry.insert(ChannelId(2), b.clone(), UserId(1), None, "b"));
        assert!(!registry.insert(ChannelId(2), c.clone(), UserId(1), None, "c"));
        assert_eq!(
            (registry.hosted_by(UserId(1)), registry.in_guild(GuildId(9))),
            (2, 1)
        );
        assert!(!registry.remove(ChannelId(2), &c), "not the table there");
        registry.set_host(ChannelId(1), UserId(2));
        assert_eq!(registry.hosted_by(UserId(1)), 1);
        assert_eq!(registry.hosted_by(UserId(2)), 1);
        assert!(registry.remove(ChannelId(1), &a));
        assert!(registry.remove(ChannelId(2), &b));
        assert_eq!(registry.counts(), (HashMap::new(), HashMap::new()));
    }
}
