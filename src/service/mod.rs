//! Game tables: lobbies, seats, turns, timers and permissions, one table per channel.
//!
//! Everything here is plain data and synchronous logic, tested offline: a [`Request`] (who asked what in
//! which channel) goes in, a [`Reply`] (what to post, privately or publicly, and to whom) comes out. The
//! Discord layer only translates. Images are returned as descriptors ([`Image`]) that the Discord layer
//! renders; a board descriptor can only be built from the public view, so a hand cannot reach a channel.

mod access;
mod bot;
mod budget;
mod deadlines;
mod hint;
mod ids;
pub mod names;
mod persist;
mod pool;
mod rematch;
pub mod replays;
mod reply;
mod request;
mod review;
mod rules;
mod save;
mod seeds;
mod server;
mod settings;
mod table;
mod tables;
pub mod text;

#[cfg(test)]
mod budget_tests;
#[cfg(test)]
mod button_tests;
#[cfg(test)]
mod clock_tests;
#[cfg(test)]
mod fair_tests;
#[cfg(test)]
mod hint_tests;
#[cfg(test)]
mod i18n_tests;
#[cfg(test)]
mod limit_tests;
#[cfg(test)]
mod message_tests;
#[cfg(test)]
mod name_tests;
#[cfg(test)]
mod pause_tests;
#[cfg(test)]
mod picker_tests;
#[cfg(test)]
mod rematch_tests;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod scale_tests;
#[cfg(test)]
mod seed_tests;
#[cfg(test)]
mod series_tests;
#[cfg(test)]
mod summary_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod text_tests;
#[cfg(test)]
mod zone_tests;

// Names the service's tests reach through `use super::*` (they were imported here before the split).
#[cfg(test)]
use crate::i18n::Lang;
#[cfg(test)]
use crate::store::ShardClaim;

pub use access::{Paused, Permission};
pub use bot::{BotLevel, MovePicker, RandomPicker};
pub use ids::{Actor, ChannelId, GameKey, GuildId, Timestamp, UserId};
pub use persist::{NoPersist, Persist, Restored, ServiceError, StorePersist};
pub use pool::{default_threads, PoolError, PoolStats, SearchPool};
pub use reply::{
    action_rows, Attachment, BoardImage, Choice, Control, HandImage, Image, Label, Message, Output,
    ReplayImage, Reply, SelectOption, Style,
};
pub use request::{command_for_component, Button, Command, Press, Request};
pub use seeds::{OsSeeds, SeedSource};
pub use server::{OnTimeout, ServerSettings, SettingsRequest};
pub use settings::{Limits, Settings};
pub use table::{picker, series};
pub use table::{LobbySeat, Player, Playing, Setup, State, Table};
pub use tables::{runtime, Tables, AUTO_APPLY_AT_ONCE, MAX_BLOCKING_THREADS};
pub use text::{Text, Who};

use tables::{lock, Shared, MAX_REMEMBERED};

/// Settings with [`Limits::unlimited`], for tests of everything but the limits.
#[cfg(test)]
pub(crate) fn test_settings() -> Settings {
    Settings {
        limits: Limits::unlimited(),
        ..Settings::default()
    }
}

/// `Player{id}`, with no moderator rights, for tests.
#[cfg(test)]
pub(crate) fn test_actor(id: u64) -> Actor {
    Actor {
        user: UserId(id),
        name: format!("Player{id}"),
        can_manage: false,
        can_manage_guild: false,
    }
}

/// The command a player gives for `mv`, for tests (a pass has none: it asks for the status).
#[cfg(test)]
pub(crate) fn command_for(mv: crate::engine::Move, layout: &crate::engine::Layout) -> Command {
    use crate::engine::Move;
    match mv {
        Move::Play { card, cell } => Command::Play {
            card: Some(card.to_string()),
            cell: layout.cell_name(cell),
        },
        Move::Exchange { card } => Command::Exchange {
            card: card.to_string(),
        },
        Move::Place { cell } => Command::Play {
            card: None,
            cell: layout.cell_name(cell),
        },
        Move::Remove { cell } => Command::Remove {
            cell: layout.cell_name(cell),
        },
        Move::Pass => Command::Status,
    }
}
