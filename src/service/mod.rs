//! Game tables: lobbies, seats, turns, timers and permissions, one table per channel.
//!
//! Everything here is plain data and synchronous logic, tested offline: a [`Request`] (who asked what in
//! which channel) goes in, a [`Reply`] (what to post, privately or publicly, and to whom) comes out, and
//! every change is published to the faces (Discord, the console) as an [`Event`]; the faces only
//! translate. Images are returned as descriptors ([`Image`]) that a face renders; a board descriptor
//! can only be built from the public view, so a hand cannot reach a channel.
//!
//! # The map, from the ground up
//!
//! A floor builds on the ones below it (the words and `text/` share their types: a `Reply` carries
//! `Text`s, a `Text` names ids and buttons).
//! - **Words** (every file above uses them): `ids` (ids, `Actor`, `Timestamp`),
//!   `settings` (the bot's settings and limits), `rules` (house constants), `request` (what comes
//!   in: `Request`, `Command` and its one classification `Command::kind`, `Button`, the picker's
//!   `Press`), `reply` (what goes out: `Reply`, `Output`, `Message`, image descriptors), `names`,
//!   `access` (pauses), `bot` (the move picker's trait), `seeds`, `lock`.
//! - **`text/`**: every sentence a player reads, as data (`Text`), rendered per language; no
//!   Discord markup beyond what a chat shows.
//! - **Rules the tables apply**: `daily_cap` (the daily cap on rated games between the same
//!   players), `server` (a server's own settings as data), `budget` (the posting buckets), `deadlines`
//!   (the map of live tables and their timers), `pool` (where computer moves are searched), `replays`
//!   (the replay queue).
//! - **`table/`**: one channel's table, pure (no store, no locks): its own map is in
//!   `table/mod.rs` (lobby, game, moves, what a move says, clock, picker, series, a viewer's view).
//! - **Persistence**: `persist` (`Persist`, `StorePersist`: a table as stored, a finished game),
//!   `save` (what is saved after a table's update, apart from the table), `finished` (the last
//!   game of each channel, for its rematch), `profile` (the profile and versus answers).
//! - **`tables/`**: the registry, `Tables` (`tables/mod.rs`): every table behind its lock, the
//!   limits, timers, computer moves, saving after every change (`Tables::commit`, `Tables::save`);
//!   its children each add one job to `Tables`: `restore` (after a restart), `history` (stats, lists,
//!   records), `server` (settings shown and changed), `budget` (spending the posting budget),
//!   `quick` (the computer's quick answer), `hint`, `rematch`, `challenge`, `review` (the agreement
//!   follow-up), `view` (`Tables::view`: what one viewer may see, built in `table/view.rs`), `host`
//!   (the one front door `Tables::serve`, the clock and computer players the service runs itself,
//!   every change published as an `Event` to the faces).
//! - `tests/`: the service's tests, one file per topic, and `tests/kit.rs`, their shared helpers.
//!
//! # Where to start reading
//! - **A command** (typed or pressed): a face hands it to `Tables::serve` (`tables/host.rs`), which
//!   calls `Tables::handle` (`tables/mod.rs`); that checks it by its kind
//!   (`Command::kind`, `request.rs`), takes the table's lock and calls `Table::handle`
//!   (`table/mod.rs`), which dispatches to the file of its job; `Tables::commit` saves the result
//!   before it is told.
//! - **A timer** (a reminder, a timeout, a lobby or invitation that lapses): the host
//!   (`Tables::spawn_host`, `tables/host.rs`) calls `Tables::tick` (`tables/mod.rs`), which takes
//!   the due tables from `deadlines.rs` and calls `Table::tick` (`table/clock.rs`).
//! - **A computer move**: the host drives `Tables::auto_step` (`tables/mod.rs`), which claims the
//!   turn (`Table::claim_auto_task`, `table/clock.rs`), searches it in the pool (`pool.rs`) and
//!   applies it (`Table::apply_auto`); after a person's move, `tables/quick.rs` posts the
//!   computer's answer with it.
//! - **A hint** (`Command::Hint` or the picker's Hint, through `Tables::serve`): `Tables::hint` and
//!   `Tables::press_hint` (`tables/hint.rs`): the search (in `crate::analysis`), the note in the
//!   record, the private answer (its words in `text/hints.rs`).
//! - **The daily cap** on rated games between the same players: `daily_cap.rs` (the rule, the
//!   window, what counts, what players see).
//! - **King of the Board scoring**: the points are the engine's (`Game::score_sequences` in
//!   `engine/game.rs`, the zone in `engine/zone.rs`); what the channel is told of them is
//!   `describe` and `scores` in `table/report.rs`, worded in `text/play.rs` and `text/end.rs`.

mod access;
mod bot;
mod budget;
mod daily_cap;
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
pub use reply::{
    action_rows, Attachment, BoardImage, Choice, Control, HandImage, Image, Label, Message, Output,
    ProfileImage, ReplayImage, Reply, SelectOption, Style, ACTIVITY_ID,
};
pub use request::{command_for_component, Button, Command, CommandKind, Press, Request, Venue};
// A picker step and a cell as named in it: what a move from the web pages is made of.
pub use request::{CellName, Step};
pub use seeds::{OsSeeds, SeedSource};
pub use server::{OnTimeout, ServerSettings, SettingsRequest};
pub use settings::{Limits, Settings};
pub use table::{picker, series};
pub use table::{
    AgreementView, BoardView, BrokenView, CardView, CellLabel, CellView, GameView, HandCardView,
    LastMoveView, MadeView, OwnView, Phase, PlayerKind, ReplayFrame, ReplaySeat, ReplaySummary,
    ReplayView, SeatView, SequenceView, SeriesView, StatusTexts, TableView, TeamView, ZoneView,
};
pub use table::{Challenge, LobbySeat, Player, Playing, Setup, State, Table};
pub use tables::parse_invite;
pub use tables::{runtime, Tables, AUTO_APPLY_AT_ONCE, MAX_BLOCKING_THREADS};
pub use tables::{Event, Face, FaceId, Origin, Pending, Sent};
pub use tables::{Later, QUICK_ANSWER};
pub use tables::{PageGame, PagePlayer, PageSeat, ServerPage};
pub use text::{Text, Who};
// For the tests in `tests/`, which name service items only as `crate::service::X`.
#[cfg(test)]
pub(crate) use names::clean_name;
#[cfg(test)]
pub(crate) use picker::{
    MAX_BUTTONS_PER_ROW, MAX_BUTTON_LABEL, MAX_CUSTOM_ID, MAX_OPTIONS, MAX_OPTION_TEXT,
    MAX_PLACEHOLDER, MAX_ROWS, MAX_URL,
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
