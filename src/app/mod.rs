//! What every face of the bot (Discord, the console, and the pages to come) starts from, so that no
//! face imports another: the configuration, start-up and shutdown, the painter and the HTTP
//! listener. It uses the layers below (engine, ai, render, store, service) and none above it.
//!
//! From the bottom up: `error` (why a start failed), `config` (the file and the environment; the
//! Discord settings are part of it), `paint` (the images drawn), `http` (the one HTTP server: its
//! connection limits, and the axum router that every part adds its routes to through a `Site`) and `health` (`/metrics`, `/healthz`, `/readyz` served on it, with a face's own
//! [`Probe`](health::Probe)), then `start`: [`launch`](start::launch) runs a [`Program`](start::Program) (a face as the binary starts it), and
//! [`App::start`](start::App::start) opens the listener, the store and the restored tables every face
//! runs on.

pub mod activity;
pub mod config;
pub mod error;
pub mod health;
pub mod http;
pub mod paint;
pub mod start;
