//! sequence-bot: a Discord bot that hosts games of Sequence.
pub mod ai;
pub mod cli;
pub mod engine;
pub mod store;
