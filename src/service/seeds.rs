//! Where the randomness of games comes from: the operating system's random source, fresh for every
//! game, every dice roll and every computer move. Nothing is drawn from a stream shared between games,
//! so what one game shows (its record's seed, its deck, its rolls) says nothing about any other.

use rand::RngCore;

/// Hands out seeds: one per game, roll or computer move.
pub trait SeedSource: Send + Sync {
    /// A fresh seed, or `None` if no randomness could be had (the caller refuses rather than guess).
    fn seed(&self) -> Option<u64>;
}

/// Seeds from the operating system (`getrandom`), each independent of every other and of the clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsSeeds;

impl SeedSource for OsSeeds {
    fn seed(&self) -> Option<u64> {
        let mut bytes = [0u8; 8];
        match rand::rngs::OsRng.try_fill_bytes(&mut bytes) {
            Ok(()) => Some(u64::from_le_bytes(bytes)),
            Err(e) => {
                tracing::error!("the operating system's random source failed: {e}");
                None
            }
        }
    }
}

/// Tests only: a repeatable stream of seeds, so a test's games are the same on every run.
#[cfg(test)]
pub(crate) struct StreamSeeds(std::sync::Mutex<crate::engine::GameRng>);

#[cfg(test)]
impl StreamSeeds {
    pub(crate) fn new(seed: u64) -> StreamSeeds {
        StreamSeeds(std::sync::Mutex::new(crate::engine::GameRng::new(seed)))
    }
}

#[cfg(test)]
impl SeedSource for StreamSeeds {
    fn seed(&self) -> Option<u64> {
        Some(self.0.lock().unwrap_or_else(|e| e.into_inner()).next_u64())
    }
}
