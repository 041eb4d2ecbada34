//! A server's own page (opt-in by its admins with `/sequence-settings web_page`): `GET /s/{token}`
//! serves the app page while the server's page is on, else the plain 404 page; `GET /api/s/{token}`
//! answers `{"name", "leaderboard": [...], "games": [...]}` ([`crate::service::ServerPage`]: names,
//! never ids), else 404 with `{"error": …}` in the asker's language. The page is looked up on every
//! request: turned off, its next request answers 404.

use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::i18n::{tr, Lang};
use crate::service::Tables;

use super::page;

/// JSON bytes as an answer with `status`, never cached (a page turned off must not linger).
fn json_answer(status: StatusCode, body: Vec<u8>) -> Response {
    (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response()
}

fn error(status: StatusCode, lang: Lang, key: &str) -> Response {
    let body = serde_json::json!({ "error": tr(lang, key) });
    json_answer(status, body.to_string().into_bytes())
}

/// `GET /api/s/{token}`: the page's data.
pub async fn data(tables: Arc<Tables>, token: &str, lang: Lang) -> Response {
    let token = token.to_string();
    // The store is read on a blocking thread, as every store read of the service.
    match tokio::task::spawn_blocking(move || tables.server_page(&token)).await {
        Ok(Some(page)) => match serde_json::to_vec(&page) {
            Ok(body) => json_answer(StatusCode::OK, body),
            Err(e) => {
                tracing::error!("cannot write a server's page as JSON: {e}");
                error(StatusCode::INTERNAL_SERVER_ERROR, lang, "web-replay-failed")
            }
        },
        Ok(None) => error(StatusCode::NOT_FOUND, lang, "web-server-not-found"),
        Err(e) => {
            tracing::error!("the server page's thread failed: {e}");
            error(StatusCode::INTERNAL_SERVER_ERROR, lang, "web-replay-failed")
        }
    }
}

/// `GET /s/{token}`: the app page while the server's page is on, else the plain 404 page.
pub async fn html(tables: Arc<Tables>, token: &str, lang: Lang) -> Response {
    let token = token.to_string();
    let on = tokio::task::spawn_blocking(move || tables.guild_of_page_token(&token).is_some())
        .await
        .unwrap_or(false);
    if on {
        page::index_html()
    } else {
        page::not_found_page(lang)
    }
}
