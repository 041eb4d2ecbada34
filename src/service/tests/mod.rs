//! The service's tests, offline and without Discord: [`kit`] holds the helpers they share; each other
//! module tests one concern of the tables (the module names say which).

pub(super) mod kit;

mod anywhere;
mod budget;
mod button;
mod challenge;
mod clock;
mod elsewhere;
mod fair;
mod hint;
mod host;
mod i18n;
mod kind;
mod limit;
mod message;
mod name;
mod pause;
mod persist;
mod picker;
mod profile;
mod quick;
mod rematch;
mod replay;
mod scale;
mod seed;
mod series;
mod server_page;
mod summary;
mod table;
mod text;
mod view;
mod watch;
mod zone;
