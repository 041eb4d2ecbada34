//! Discord shards: which tables a process may touch, and the claim by which it holds them.
//!
//! Discord splits a bot's servers into `total` shards by `(guild_id >> 22) % total` (direct messages
//! on shard 0). A process runs a range of them; a table belongs to the shard of its server. Several
//! processes agree on who runs which shard through the database, never through configuration alone:
//! see [`super::Store::claim_shards`].

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// The shards one process runs: `first..=last` of `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShardSet {
    /// How many shards the bot has in all (at least 1).
    total: u32,
    /// The first shard of this process.
    first: u32,
    /// The last shard of this process (inclusive).
    last: u32,
}

/// A shard range that cannot be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardSetError {
    /// `total` is 0.
    #[error("the shard total must be at least 1")]
    NoShards,
    /// The range is empty or reaches past the total.
    #[error("shards {first}-{last} are not a range within 0-{max} (the total is {total})", max = .total.saturating_sub(1))]
    OutOfRange {
        /// The first shard asked for.
        first: u32,
        /// The last shard asked for.
        last: u32,
        /// The total.
        total: u32,
    },
}

impl ShardSet {
    /// One process with every shard of one: the bot without sharding.
    pub const SINGLE: ShardSet = ShardSet {
        total: 1,
        first: 0,
        last: 0,
    };

    /// Shards `first..=last` of `total`.
    pub fn new(first: u32, last: u32, total: u32) -> Result<ShardSet, ShardSetError> {
        if total == 0 {
            return Err(ShardSetError::NoShards);
        }
        if first > last || last >= total {
            return Err(ShardSetError::OutOfRange { first, last, total });
        }
        Ok(ShardSet { total, first, last })
    }

    /// Every shard of `total` (one process runs them all).
    pub fn all(total: u32) -> Result<ShardSet, ShardSetError> {
        ShardSet::new(0, total.saturating_sub(1), total)
    }

    /// How many shards the bot has in all.
    pub const fn total(self) -> u32 {
        self.total
    }

    /// The first shard of this process.
    pub const fn first(self) -> u32 {
        self.first
    }

    /// The last shard of this process (inclusive).
    pub const fn last(self) -> u32 {
        self.last
    }

    /// The shard ids of this process, in order.
    pub fn ids(self) -> impl Iterator<Item = u32> {
        self.first..=self.last
    }

    /// Whether this process runs every shard (as one process, alone, must).
    pub const fn is_whole(self) -> bool {
        self.first == 0 && self.last + 1 == self.total
    }

    /// Discord's shard of a server (`(guild_id >> 22) % total`); direct messages (`None`) are on
    /// shard 0.
    pub fn shard_of(self, guild: Option<u64>) -> u32 {
        match guild {
            // The remainder is below `total`, a u32.
            Some(id) => u32::try_from((id >> 22) % u64::from(self.total)).unwrap_or(0),
            None => 0,
        }
    }

    /// Whether a server's tables (or the direct messages', for `None`) belong to this process.
    pub fn owns(self, guild: Option<u64>) -> bool {
        (self.first..=self.last).contains(&self.shard_of(guild))
    }
}

impl fmt::Display for ShardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "shard {} of {}", self.first, self.total)
        } else {
            write!(f, "shards {}-{} of {}", self.first, self.last, self.total)
        }
    }
}

/// A process's hold on its shards, taken before it restores or acts on any of their tables (see
/// [`super::Store::claim_shards`]). Checked before every action: once lost or released, the process
/// leaves the tables alone.
pub trait ShardClaim: Send + Sync {
    /// The shards held.
    fn shards(&self) -> ShardSet;
    /// Whether they are still held (false once the hold was lost or released).
    fn is_held(&self) -> bool;
    /// Gives the shards up, for a graceful stop: after it returns, the service acts on none of their
    /// tables, the database (PostgreSQL) accepts no save of this process for them, and another
    /// process may claim them. Blocking.
    fn release(&self);
}

/// The claim of a store only one process can open at all (SQLite's lock file): held until released.
#[derive(Debug)]
pub struct ExclusiveClaim {
    shards: ShardSet,
    held: AtomicBool,
}

impl ExclusiveClaim {
    /// Holds `shards`.
    pub fn new(shards: ShardSet) -> ExclusiveClaim {
        ExclusiveClaim {
            shards,
            held: AtomicBool::new(true),
        }
    }
}

impl ShardClaim for ExclusiveClaim {
    fn shards(&self) -> ShardSet {
        self.shards
    }

    fn is_held(&self) -> bool {
        self.held.load(Ordering::SeqCst)
    }

    fn release(&self) {
        self.held.store(false, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A snowflake whose shard of `total` is `shard`.
    fn guild_on(shard: u64, total: u64) -> u64 {
        let base = 1_100_000_000_000_000_000u64 >> 22;
        let high = base - base % total + shard;
        (high << 22) | 12345
    }

    #[test]
    fn guilds_fall_on_discords_shard() {
        // Discord's own example (topics/gateway#sharding): 197038439483310086 with 2 shards is on 0.
        let set = ShardSet::all(2).unwrap();
        assert_eq!(set.shard_of(Some(197_038_439_483_310_086)), 0);
        assert_eq!(set.shard_of(Some(guild_on(1, 2))), 1);
        assert_eq!(set.shard_of(None), 0, "direct messages are on shard 0");
        let first = ShardSet::new(0, 1, 4).unwrap();
        let second = ShardSet::new(2, 3, 4).unwrap();
        for shard in 0..4 {
            let guild = Some(guild_on(shard, 4));
            assert_eq!(first.shard_of(guild), u32::try_from(shard).unwrap());
            // Exactly one of the two processes owns each server.
            assert_ne!(first.owns(guild), second.owns(guild), "shard {shard}");
            assert_eq!(first.owns(guild), shard < 2);
        }
        assert!(first.owns(None) && !second.owns(None));
        // One shard of one owns everything.
        assert!(ShardSet::SINGLE.owns(Some(guild_on(3, 4))) && ShardSet::SINGLE.is_whole());
        // The highest bits do not overflow.
        assert!(ShardSet::all(7).unwrap().shard_of(Some(u64::MAX)) < 7);
    }

    #[test]
    fn ranges_are_checked_and_shown() {
        assert_eq!(ShardSet::new(0, 0, 0), Err(ShardSetError::NoShards));
        assert!(ShardSet::new(2, 1, 4).is_err());
        assert!(ShardSet::new(0, 4, 4).is_err());
        let set = ShardSet::new(2, 3, 4).unwrap();
        assert!(!set.is_whole());
        assert_eq!(set.ids().collect::<Vec<_>>(), vec![2, 3]);
        assert_eq!(set.to_string(), "shards 2-3 of 4");
        assert_eq!(ShardSet::new(1, 1, 2).unwrap().to_string(), "shard 1 of 2");
        assert!(ShardSet::all(4).unwrap().is_whole());
        let e = ShardSet::new(3, 5, 4).unwrap_err().to_string();
        assert!(e.contains("0-3"), "{e}");
    }

    #[test]
    fn an_exclusive_claim_holds_until_released() {
        let claim = ExclusiveClaim::new(ShardSet::SINGLE);
        assert!(claim.is_held());
        claim.release();
        assert!(!claim.is_held());
    }
}
