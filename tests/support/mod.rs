//! The integration tests' kit, shared by `tests/it` and `tests/e2e_load.rs`: the local Discord stand-in,
//! the bot as a child process (or on the test's runtime), the console driver, the table driver, and
//! headless Chromium on the web pages (with the bot started in local mode).

#![allow(dead_code)]

pub mod bot;
pub mod browser;
pub mod console;
pub mod fake_discord;
pub mod table;
