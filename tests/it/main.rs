//! The integration tests, one binary: one module per topic, all sharing the test kit in `tests/support`
//! (the Discord stand-in, the bot as a child process, the console driver, the table driver). Linking the
//! whole bot once instead of once per file is what keeps a clean build short.
//!
//! The tests run on parallel threads of this one process, so none may rely on being alone in it: each
//! bot runs as a child process with its own folder, environment and ports (or, for `e2e_deadline`, on
//! the test's own runtime), and nothing here sets process-wide state. Two tests keep binaries of
//! their own (see `Cargo.toml`): `tests/e2e_load.rs`, the load test, which must run alone (it measures answer times), and
//! `tests/custom_layout.rs`, which installs a board layout (process-wide, once per process). The frozen
//! clock of `seeds` needs no process of its own: libfaketime is preloaded into the bots it starts only.

#[path = "../support/mod.rs"]
mod support;

mod activity_browser;
mod backup;
mod bot_cli;
mod budget;
mod console_places;
mod console_presses;
mod e2e_activity;
mod e2e_anywhere;
mod e2e_around;
mod e2e_buttons;
mod e2e_challenge;
mod e2e_deadline;
mod e2e_discord;
mod e2e_faces;
mod e2e_faults;
mod e2e_game;
mod e2e_kotb;
mod e2e_metrics;
mod e2e_names;
mod e2e_permissions;
mod e2e_profile;
mod e2e_review;
mod e2e_series;
mod e2e_settings;
mod e2e_shards;
mod e2e_watch;
mod e2e_web;
mod engine_props;
mod fake_discord;
mod golden;
mod limits;
mod restart;
mod search;
mod seeds;
mod web_browser;
