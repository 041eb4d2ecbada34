//! Issue 33, point 4: the replays members ask for (`/sequence replay`) wait for the one animation the
//! bot draws at a time, so they are bounded: at most [`PER_MEMBER`] per member and [`PER_SERVER`]
//! per server wait or are being drawn; past that the asker hears politely that the queue is full.
//! Each accepted replay holds a slot ([`super::ReplayImage::slot`]) that the Discord layer gives back
//! once the animation is posted (or could not be); a slot not given back within [`FORGET_AFTER_MS`]
//! is given up. The replay that follows a game's final message is one per finished game, asked by
//! nobody: it holds no slot.

use std::collections::HashMap;

use super::ids::{GuildId, Timestamp, UserId};
use super::text::Text;

/// Replays one member may have waiting or being drawn.
pub const PER_MEMBER: u32 = 1;

/// Replays members of one server may have waiting or being drawn.
pub const PER_SERVER: u32 = 3;

/// After this long a slot that was not given back is given up (drawing the longest game takes well
/// under a minute).
pub const FORGET_AFTER_MS: u64 = 10 * 60 * 1000;

/// Whose a held slot is, and since when.
#[derive(Debug)]
struct Slot {
    guild: Option<GuildId>,
    user: UserId,
    at: Timestamp,
}

/// The replays waiting or being drawn, by slot.
#[derive(Debug, Default)]
pub(super) struct Replays {
    next: u64,
    held: HashMap<u64, Slot>,
}

impl Replays {
    /// A slot for a replay `user` asks for in `guild`, or the polite refusal when theirs or the
    /// server's are all taken.
    pub(super) fn take(
        &mut self,
        guild: Option<GuildId>,
        user: UserId,
        now: Timestamp,
    ) -> Result<u64, Text> {
        self.held
            .retain(|_, slot| now.0.saturating_sub(slot.at.0) < FORGET_AFTER_MS);
        let count = |keep: &dyn Fn(&Slot) -> bool| self.held.values().filter(|s| keep(s)).count();
        if count(&|s| s.user == user) >= PER_MEMBER as usize {
            return Err(Text::ReplaysWaiting { max: PER_MEMBER });
        }
        if guild.is_some() && count(&|s| s.guild == guild) >= PER_SERVER as usize {
            return Err(Text::ReplaysBusy { max: PER_SERVER });
        }
        self.next += 1;
        self.held.insert(
            self.next,
            Slot {
                guild,
                user,
                at: now,
            },
        );
        Ok(self.next)
    }

    /// Gives a slot back (unknown slots are ignored).
    pub(super) fn give_back(&mut self, slot: u64) {
        self.held.remove(&slot);
    }
}
