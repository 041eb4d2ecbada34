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
mod finished;
mod ids;
mod lock;
pub mod names;
mod persist;
mod pool;
mod profile;
pub mod replays;
mod reply;
mod request;
mod rules;
mod save;
mod seeds;
mod server;
mod settings;
mod table;
mod tables;
pub mod text;

#[cfg(test)]
mod tests;

pub use access::{Paused, Permission};
pub use bot::{BotLevel, MovePicker, RandomPicker};
pub use ids::{Actor, ChannelId, GameKey, GuildId, Timestamp, UserId};
pub use persist::{NoPersist, Persist, Restored, ServiceError, StorePersist};
pub use pool::{default_threads, PoolError, PoolStats, SearchPool};
pub use profile::ProfileImage;
pub use reply::{
    action_rows, Attachment, BoardImage, Choice, Control, HandImage, Image, Label, Message, Output,
    ReplayImage, Reply, SelectOption, Style,
};
pub use request::{command_for_component, Button, Command, Press, Request, Venue};
pub use seeds::{OsSeeds, SeedSource};
pub use server::{OnTimeout, ServerSettings, SettingsRequest};
pub use settings::{Limits, Settings};
pub use table::{picker, series};
pub use table::{
    BoardView, CardView, CellLabel, CellView, GameView, LastMoveView, OwnView, Phase, PlayerKind,
    SeatView, SequenceView, SeriesView, StatusTexts, TableView, TeamView, ZoneView,
};
pub use table::{Challenge, LobbySeat, Player, Playing, Setup, State, Table};
pub use tables::parse_invite;
pub use tables::{runtime, Tables, AUTO_APPLY_AT_ONCE, MAX_BLOCKING_THREADS};
pub use tables::{Event, Face, FaceId, Origin, Pending, Sent};
pub use tables::{Later, QUICK_ANSWER};
pub use text::{Text, Who};
// For the tests in `tests/`, which name service items only as `crate::service::X`.
#[cfg(test)]
pub(crate) use names::clean_name;
#[cfg(test)]
pub(crate) use picker::{
    Step, MAX_BUTTONS_PER_ROW, MAX_BUTTON_LABEL, MAX_CUSTOM_ID, MAX_OPTIONS, MAX_OPTION_TEXT,
    MAX_PLACEHOLDER, MAX_ROWS,
};
#[cfg(test)]
pub(crate) use replays::FORGET_AFTER_MS;
#[cfg(test)]
pub(crate) use series::Series;
#[cfg(test)]
pub(crate) use table::{turn_number, LiveGame};
// These are `pub(super)`, so they can only be re-exported within the service.
#[cfg(test)]
use budget::MIN_MEMBER_BURST;
#[cfg(test)]
use deadlines::next_deadline;
#[cfg(test)]
use picker::{explore, explore_targets};
#[cfg(test)]
use table::{card_line, roll_hint};
#[cfg(test)]
use tables::hint_text;

use lock::lock;
use tables::{Shared, MAX_REMEMBERED};
