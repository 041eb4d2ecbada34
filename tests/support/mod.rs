//! The integration tests' kit, shared by `tests/it` and `tests/e2e_load.rs`: the local Discord stand-in,
//! the bot as a child process (or on the test's runtime), the console driver and the table driver.

#![allow(dead_code)]

pub mod bot;
pub mod console;
pub mod fake_discord;
pub mod table;
