//! The plain ids the service speaks in: users, channels, servers, times, who asks, and which game of a
//! channel a button belongs to.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A Discord user id, as a plain number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UserId(pub u64);

/// A Discord channel id, as a plain number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChannelId(pub u64);

/// A Discord guild (server) id, as a plain number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GuildId(pub u64);

/// Milliseconds since the Unix epoch: deadlines are stored as plain numbers so tables serialize.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// The current wall-clock time.
    pub fn now() -> Timestamp {
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        Timestamp(u64::try_from(ms).unwrap_or(u64::MAX))
    }

    /// This time plus a duration.
    pub fn after(self, duration: Duration) -> Timestamp {
        let ms = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        Timestamp(self.0.saturating_add(ms))
    }

    /// Whole seconds from `self` until `later` (0 if `later` has passed).
    pub fn seconds_until(self, later: Timestamp) -> u64 {
        later.0.saturating_sub(self.0) / 1000
    }
}

/// Who asks: a user, their display name, and whether they may manage messages in the channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// The user.
    pub user: UserId,
    /// Their display name (used on the board image and in the seat list).
    pub name: String,
    /// Whether they have the Manage Messages permission here (may stop any game).
    pub can_manage: bool,
    /// Whether they have the Manage Server permission (may change the server's settings).
    pub can_manage_guild: bool,
}

/// Which game of a channel a button belongs to: when its table opened, in milliseconds.
pub type GameKey = u64;
