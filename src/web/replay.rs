//! A finished game's page data: `GET /api/g/{token}/replay` (the replay as JSON: the board after
//! every move, the summary, the teams and the seats, built by the service from the stored record,
//! [`Tables::replay_of_web_token`]) and `GET /api/g/{token}/record` (the record file, as
//! `/sequence record` attaches it). A token that names no kept game, or one of a server that turned
//! `web_links` off, answers 404 with `{"error": "…"}` in the asker's language.

use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::i18n::{tr, Lang};
use crate::service::Tables;

/// JSON bytes as an answer with `status`.
fn json_answer(status: StatusCode, body: Vec<u8>) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// The 404 of a token that names no finished game here.
fn not_found(lang: Lang) -> Response {
    let body = serde_json::json!({ "error": tr(lang, "web-replay-not-found") });
    json_answer(StatusCode::NOT_FOUND, body.to_string().into_bytes())
}

/// The 500 of a store or thread that failed (logged by the service).
fn failed(lang: Lang) -> Response {
    let body = serde_json::json!({ "error": tr(lang, "web-replay-failed") });
    json_answer(
        StatusCode::INTERNAL_SERVER_ERROR,
        body.to_string().into_bytes(),
    )
}

/// `GET /api/g/{token}/replay`: the replay of the kept game whose table had web token `token`, its
/// texts in `lang`.
pub async fn replay(tables: Arc<Tables>, token: &str, lang: Lang) -> Response {
    let token = token.to_string();
    // The store is read on a blocking thread, as every store read of the service.
    let found = tokio::task::spawn_blocking(move || tables.replay_of_web_token(&token, lang)).await;
    match found {
        Ok(Some(view)) => match serde_json::to_vec(&view) {
            Ok(body) => json_answer(StatusCode::OK, body),
            Err(e) => {
                tracing::error!("cannot write a replay as JSON: {e}");
                failed(lang)
            }
        },
        Ok(None) => not_found(lang),
        Err(e) => {
            tracing::error!("the replay's thread failed: {e}");
            failed(lang)
        }
    }
}

/// `GET /api/g/{token}/record`: the record file of that game, as a download
/// (`sequence-game-<number>.json`).
pub async fn record(tables: Arc<Tables>, token: &str) -> Response {
    let token = token.to_string();
    let found = tokio::task::spawn_blocking(move || tables.record_of_web_token(&token)).await;
    match found {
        Ok(Some((id, json))) => {
            let disposition = format!("attachment; filename=\"sequence-game-{}.json\"", id.0);
            let mut answer = json_answer(StatusCode::OK, json.into_bytes());
            if let Ok(value) = HeaderValue::from_str(&disposition) {
                answer
                    .headers_mut()
                    .insert(header::CONTENT_DISPOSITION, value);
            }
            answer
        }
        Ok(None) => not_found(Lang::En),
        Err(e) => {
            tracing::error!("the record's thread failed: {e}");
            failed(Lang::En)
        }
    }
}
