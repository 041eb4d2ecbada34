//! A stand-in for helper B's `page.rs` (the page, its files, `/api/texts`, `/api/geometry`), with the
//! three functions the web's routes call, so that this branch builds on its own. The real file
//! replaces this one when the branches are merged.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::i18n::Lang;

/// The page's own routes (`/`, `/assets/…`, `/api/texts`, `/api/geometry`).
pub fn page_routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/", axum::routing::get(|| async { index_html() }))
}

/// The app page.
pub fn index_html() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        "<!doctype html><title>Sequence</title><p>Sequence</p>\n",
    )
        .into_response()
}

/// The plain page of an unknown address.
pub fn not_found_page(_lang: Lang) -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        "<!doctype html><title>Not found</title><p>Not found</p>\n",
    )
        .into_response()
}
