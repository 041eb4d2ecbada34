//! The pure rules engine: boards as data, cards, dice, moves, legality, sequences and per-seat views.
//! No I/O, no async; randomness comes in as a seed.

pub mod card;
pub mod cell;
pub mod error;
pub mod game;
pub mod layout;
pub mod record;
pub mod rng;
pub mod variant;
pub mod zone;

pub use card::{Card, CardEffect};
pub use cell::{BitIter, Bits, Cell};
pub use error::PlayError;
pub use game::{
    Event, Events, Game, GroupKind, Hand, LastAction, Move, MoveGroup, MoveGroups, MoveList,
    Position, RollMode, Seat, Sequence, Status, Team, View,
};
pub use layout::{Label, Layout};
pub use record::{Action, Record, RecordError, Summary};
pub use rng::{roll_off, GameRng};
pub use variant::{Config, Options, SetupError, Variant, DEFAULT_POINTS_TO_WIN};
pub use zone::{is_zone_centre, zone_cells, zone_corners, ZONE_CENTRES};

#[cfg(test)]
mod tests;
