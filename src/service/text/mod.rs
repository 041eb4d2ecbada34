//! Every user-facing sentence of the bot, in one place. A [`Text`] is a message with its arguments;
//! [`Text::render`] renders it in a language through the Fluent files of [`crate::i18n`], and `Display`
//! gives the English text (for logs and tests).
//!
//! - `catalogue.rs`: the [`Text`] enum, every message as data, in sections by topic;
//! - `payload.rs`: the types its variants carry ([`Who`], [`TeamName`], [`LobbyCard`], [`StatusInfo`], ...);
//! - `render.rs`: [`Text::render`], which hands a text to the topic file that renders it;
//! - one file per topic, each rendering its section of the catalogue: `refusals`, `lobby`, `play`,
//!   `status`, `turns`, `picker`, `hints`, `end`, `series`, `records`, `settings`, `channel`;
//! - `labels.rs`: how buttons, cards, games, teams and durations are named ([`button_label`], ...).
//!
//! A new text: a variant in the catalogue's section, its arm in that topic's `render`, its Fluent
//! key in `locales/`, and a sample in `i18n_tests.rs` (which renders every variant in every language).
//! This folder depends on the engine, the i18n layer and the service's ids only, never on the table.

mod catalogue;
mod channel;
mod end;
mod hints;
mod labels;
mod lobby;
mod payload;
mod picker;
mod play;
mod records;
mod refusals;
mod render;
mod series;
mod settings;
mod status;
mod turns;

pub use catalogue::Text;
pub use labels::{button_label, card_label, discord_timestamp, game_name};
pub use payload::{
    AgreementLine, CardLine, CardUse, HintMove, HintWhy, HistoryLine, LeaderLine, LobbyCard,
    LobbyRules, RatingInfo, RatingNote, RollHint, SeatLine, SettingName, SettingsInfo, StatusInfo,
    TeamName, Totals, Who, ZoneInfo,
};
