//! Test support shared by the integration tests (`mod support;`): the local Discord stand-in.

#![allow(dead_code)]

pub mod bot;
pub mod fake_discord;
pub mod table;
