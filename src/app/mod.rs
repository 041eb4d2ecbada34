//! What every face of the bot (Discord, the console) starts from: the configuration, the store
//! opened and the tables restored, the painter, and the HTTP listener.

pub mod config;
pub mod http;
pub mod paint;
pub mod start;
