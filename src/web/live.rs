//! A stand-in for helper A2's `live.rs` (the live channel), with the signature the web's routes call,
//! so that this branch builds on its own: it answers 503. The real file replaces this one when the
//! branches are merged.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::i18n::Lang;
use crate::service::{ChannelId, Tables, UserId};

/// The live channel's state.
pub struct Live {
    _tables: Arc<Tables>,
}

impl Live {
    /// The live channel of `tables`.
    pub fn new(tables: Arc<Tables>) -> Arc<Live> {
        Arc::new(Live { _tables: tables })
    }
}

/// The WebSocket of one page watching `channel` (here: not available).
pub async fn socket(
    _live: Arc<Live>,
    _channel: ChannelId,
    _viewer: Option<UserId>,
    _lang: Lang,
    _peer: IpAddr,
    _ws: WebSocketUpgrade,
) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "the live channel is not built in\n",
    )
        .into_response()
}
