//! Tables another process holds (several processes on PostgreSQL, each running some shards): a page
//! may be asked of any process, and this one shows such a table from the store. It is read only:
//! never restored here, never timed, played or saved back; its copy in memory serves the views of
//! pages (with the same rules per viewer as a table held here) and is read again when the store says
//! that the table changed (`web::live` follows [`Tables::listen_elsewhere`]). Acting on it from a
//! page is refused ([`Text::PlayedElsewhere`](crate::service::Text::PlayedElsewhere)): its
//! players play where it runs.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use crate::service::persist::table_from_stored;
use crate::service::{lock, ChannelId, Table, UserId};
use crate::store::TableChange;

use super::Tables;

/// Tables of other processes kept in memory at most (the least recently used one goes first).
pub const ELSEWHERE_KEPT: usize = 4096;

/// Another process's table as last read.
pub(in crate::service) struct Elsewhere {
    /// The table, as stored.
    pub(in crate::service) table: Table,
    /// The store's version of it (grows with every save).
    pub(in crate::service) version: u64,
    /// When a page last looked at it.
    used: Instant,
}

/// The tables of other processes read so far.
#[derive(Default)]
pub(in crate::service) struct ElsewhereTables {
    by_channel: HashMap<ChannelId, Elsewhere>,
}

impl Tables {
    /// Whether other processes may hold tables of this store: this one runs a part of the shards.
    pub fn shares_store(&self) -> bool {
        self.store.is_some() && !self.shards().is_whole()
    }

    /// The channel of the table whose web token is `token`, held here or, when other processes
    /// share the store, by one of them (read from the store, on a blocking thread, and kept for
    /// [`Tables::view`]). `None`: no running table has it.
    pub async fn find_web_token(self: &Arc<Self>, token: &str) -> Option<ChannelId> {
        if let Some(channel) = self.channel_of_web_token(token) {
            return Some(channel);
        }
        if !self.shares_store() || !crate::service::seeds::is_web_token(token) {
            return None;
        }
        let tables = self.clone();
        let token = token.to_string();
        tokio::task::spawn_blocking(move || tables.read_web_token_elsewhere(&token))
            .await
            .ok()
            .flatten()
    }

    /// The web token of `channel`'s running table, held here or, when other processes share the
    /// store, by one of them (read from the store on a blocking thread and kept for
    /// [`Tables::view`], as [`Tables::find_web_token`] does): what an Activity in that channel
    /// shows, wherever the table runs. `None`: no running table there, or it has no token.
    pub async fn web_token_anywhere(self: &Arc<Self>, channel: ChannelId) -> Option<String> {
        if self.get(channel).is_some() || !self.shares_store() {
            return self.web_token(channel);
        }
        let tables = self.clone();
        tokio::task::spawn_blocking(move || {
            if !tables.read_elsewhere(channel) {
                return None;
            }
            tables
                .with_elsewhere(channel, |table| {
                    (!table.closed && !table.web_token.is_empty()).then(|| table.web_token.clone())
                })
                .flatten()
        })
        .await
        .ok()
        .flatten()
    }

    /// Blocking: [`Tables::find_web_token`] in the store.
    fn read_web_token_elsewhere(&self, token: &str) -> Option<ChannelId> {
        let store = self.store.as_ref()?;
        let channel = match store.channel_of_web_token(token) {
            Ok(found) => ChannelId(found?),
            Err(e) => {
                tracing::warn!("cannot look a page's table up in the store: {e}");
                return None;
            }
        };
        if self.get(channel).is_some() {
            return Some(channel);
        }
        self.read_elsewhere(channel).then_some(channel)
    }

    /// Blocking: reads `channel`'s table from the store when another process holds it, for the
    /// pages showing it; whether it is there (kept in memory until it is gone, or replaced by a
    /// newer read). A table held here is left alone (false); one the store no longer has is
    /// forgotten.
    pub fn read_elsewhere(&self, channel: ChannelId) -> bool {
        let Some(store) = &self.store else {
            return false;
        };
        if self.get(channel).is_some() {
            lock(&self.elsewhere).by_channel.remove(&channel);
            return false;
        }
        let read = match store.live_table(channel.0) {
            Ok(read) => read,
            Err(e) => {
                tracing::warn!(
                    channel = channel.0,
                    "cannot read another process's table: {e}"
                );
                // What was read before still shows (the next change reads it again).
                return lock(&self.elsewhere).by_channel.contains_key(&channel);
            }
        };
        let table = read.and_then(|read| match table_from_stored(&read.table) {
            Ok(table) => Some((table, read.version)),
            Err(e) => {
                tracing::warn!(
                    channel = channel.0,
                    "another process's table cannot be shown: {e}"
                );
                None
            }
        });
        let mut elsewhere = lock(&self.elsewhere);
        match table {
            Some((table, version)) => {
                let version = u64::try_from(version).unwrap_or(0);
                // An older read finishing late never replaces a newer one.
                let newer = elsewhere
                    .by_channel
                    .get(&channel)
                    .is_none_or(|kept| kept.version <= version);
                if newer {
                    elsewhere.by_channel.insert(
                        channel,
                        Elsewhere {
                            table,
                            version,
                            used: Instant::now(),
                        },
                    );
                }
                if elsewhere.by_channel.len() > ELSEWHERE_KEPT {
                    let oldest = elsewhere
                        .by_channel
                        .iter()
                        .min_by_key(|(_, kept)| kept.used)
                        .map(|(channel, _)| *channel);
                    if let Some(oldest) = oldest {
                        elsewhere.by_channel.remove(&oldest);
                    }
                }
                true
            }
            None => {
                elsewhere.by_channel.remove(&channel);
                false
            }
        }
    }

    /// Whether `channel`'s table is another process's, as last read (not held here).
    pub fn held_elsewhere(&self, channel: ChannelId) -> bool {
        self.get(channel).is_none() && lock(&self.elsewhere).by_channel.contains_key(&channel)
    }

    /// The store's version of another process's table as last read (`None`: not such a table).
    pub fn version_elsewhere(&self, channel: ChannelId) -> Option<u64> {
        lock(&self.elsewhere)
            .by_channel
            .get(&channel)
            .map(|kept| kept.version)
    }

    /// Runs `f` on another process's table of `channel` as last read, noting that a page used it.
    pub(in crate::service) fn with_elsewhere<T>(
        &self,
        channel: ChannelId,
        f: impl FnOnce(&Table) -> T,
    ) -> Option<T> {
        let mut elsewhere = lock(&self.elsewhere);
        let kept = elsewhere.by_channel.get_mut(&channel)?;
        kept.used = Instant::now();
        Some(f(&kept.table))
    }

    /// Whether `user` sits in the running game of another process's table of `channel`.
    pub(in crate::service) fn seated_elsewhere(&self, channel: ChannelId, user: UserId) -> bool {
        self.with_elsewhere(channel, |table| {
            table
                .playing()
                .is_some_and(|playing| playing.seat_of(user).is_some())
        })
        .unwrap_or(false)
    }

    /// Follows the changes other processes make to their tables, when they share the store:
    /// `changed` is called (on a thread of the store's) with each channel whose table changed,
    /// and with `None` when changes may have been missed (the listening connection was made
    /// again), for as long as it returns true. Whether there is anything to follow.
    pub fn listen_elsewhere(
        &self,
        mut changed: impl FnMut(Option<ChannelId>) -> bool + Send + 'static,
    ) -> bool {
        let Some(store) = &self.store else {
            return false;
        };
        if !self.shares_store() {
            return false;
        }
        let sink = Box::new(move |change: TableChange| match change {
            TableChange::Changed(channel) => changed(Some(ChannelId(channel))),
            TableChange::Resync => changed(None),
            // Asked whether to go on: the caller says so at the next change.
            TableChange::Quiet => true,
        });
        match store.listen_table_changes(sink) {
            Ok(listening) => listening,
            Err(e) => {
                tracing::error!("cannot follow the other processes' tables: {e}");
                false
            }
        }
    }
}
