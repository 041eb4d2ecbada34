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

/// A fresh web token: 128 bits from the operating system's random source, as 32 lowercase hex digits.
/// It names a table's web page (`/g/<token>`): unguessable, and unrelated to the channel, the game's
/// number or any other token. `None` if no randomness could be had.
pub fn web_token() -> Option<String> {
    let mut bytes = [0u8; 16];
    match rand::rngs::OsRng.try_fill_bytes(&mut bytes) {
        Ok(()) => Some(bytes.iter().map(|b| format!("{b:02x}")).collect()),
        Err(e) => {
            tracing::error!("the operating system's random source failed: {e}");
            None
        }
    }
}

/// Whether `text` is shaped like a web token (32 lowercase hex digits): anything else is looked up
/// nowhere.
pub fn is_web_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
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
