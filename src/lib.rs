//! sequence-bot: a Discord bot that hosts games of Sequence.
pub mod ai;
pub mod analysis;
pub mod app;
pub mod cli;
pub mod console;
pub mod discord;
pub mod engine;
pub mod files;
pub mod i18n;
#[cfg(test)]
mod layers;
pub mod render;
pub mod service;
pub mod store;
pub mod web;
