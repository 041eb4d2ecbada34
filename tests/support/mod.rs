//! Test support shared by the integration tests (`mod support;`): the local Discord stand-in.

#![allow(dead_code)]

pub mod fake_discord;
pub mod bot;
pub mod table;
