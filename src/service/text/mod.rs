//! Every user-facing sentence of the bot, in one place. A [`Text`] is a message with its arguments;
//! [`Text::render`] renders it in a language through the Fluent files of [`crate::i18n`], and `Display`
//! gives the English text (for logs and tests).
//!
//! - `catalogue.rs`: the [`Text`] enum, every message as data, in sections by topic;
//! - `payload.rs`: the types its variants carry ([`Who`], [`TeamName`], [`LobbyCard`], [`StatusInfo`], ...);
//! - `render.rs`: [`Text::render`], which hands a text to the topic file that renders it;
//! - one file per topic, each rendering its section of the catalogue: `refusals`, `lobby`, `play`,
//!   `status`, `turns`, `picker`, `hints`, `end`, `series`, `records`, `profile`, `settings`,
//!   `channel`;
//! - `labels.rs`: how buttons, cards, games, teams and durations are named ([`button_label`], ...).
//!
//! A new text: a variant in the catalogue's section, its arm in that topic's `render`, its Fluent
//! key in `assets/locales/*/sequence.ftl`, and a sample in `service/tests/i18n.rs` (which renders every
//! variant in every language, so a variant no topic renders fails there).
//!
//! The folder depends on the engine, the i18n layer and a few words of the service below the table
//! (ids, buttons, permissions, bot levels, computer names, `service/rules.rs`), and shows two
//! rows of the store; never on the table.

mod catalogue;
mod channel;
mod end;
mod hints;
mod labels;
mod lobby;
mod payload;
mod picker;
mod play;
mod profile;
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
    LobbyRules, ProfileInfo, RatingInfo, RatingNote, RollHint, SeatLine, SettingName, SettingsInfo,
    SharedLine, StatusInfo, TeamName, Totals, VersusInfo, Who, ZoneInfo,
};
pub use profile::{achievement_condition, achievement_name, profile_card, unlock_lines};
