//! A finished game's page data: `GET /api/g/{token}/replay` (the replay as JSON: the board after
//! every move, the summary, the teams and the seats, built by the service from the stored record,
//! [`Tables::replay_of_web_token`]) and `GET /api/g/{token}/record` (the record file, as
//! `/sequence record` attaches it). A token that names no kept game, or one of a server that turned
//! `web_links` off, answers 404 with `{"error": "…"}` in the asker's language; but the Activity of
//! the game's own channel still gets its replay (the setting is about public links).

use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::i18n::{tr, Lang};
use crate::service::{ChannelId, Tables};

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
/// texts in `lang` (`activity`: the channel of the Activity session asking, whose own game answers
/// it even with `web_links` off).
pub async fn replay(
    tables: Arc<Tables>,
    token: &str,
    lang: Lang,
    activity: Option<ChannelId>,
) -> Response {
    let token = token.to_string();
    // The store is read on a blocking thread, as every store read of the service.
    let found =
        tokio::task::spawn_blocking(move || tables.replay_of_web_token(&token, lang, activity))
            .await;
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
/// (`sequence-game-<number>.json`), found as [`replay`] finds it.
pub async fn record(tables: Arc<Tables>, token: &str, activity: Option<ChannelId>) -> Response {
    let token = token.to_string();
    let found =
        tokio::task::spawn_blocking(move || tables.record_of_web_token(&token, activity)).await;
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

#[cfg(test)]
mod tests {
    use super::*;

    use axum::body::to_bytes;

    use crate::engine::{Config, Options, Record, Variant};
    use crate::service::{RandomPicker, Settings};
    use crate::store::{FinishedGame, PlayerResult, SqliteStore, Store, BOT_USER_ID};

    const TOKEN: &str = "00112233445566778899aabbccddeeff";

    /// A service whose store keeps one finished classic game of server 7 under [`TOKEN`].
    fn tables_with_a_game() -> (Arc<Tables>, Record) {
        let store = Arc::new(SqliteStore::open_in_memory().expect("store"));
        let config = Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
        let record = Record::random_game(config, 5);
        let seat = |user_id, name: &str, team| PlayerResult {
            user_id,
            name: name.to_string(),
            team,
            won: false,
            sequences: 0,
            bot_level: (user_id == BOT_USER_ID).then(|| "easy".to_string()),
            gave_up: false,
        };
        store
            .finish_game(&FinishedGame {
                guild_id: Some(7),
                channel_id: 70,
                variant: "classic".into(),
                record_json: serde_json::to_string(&record).expect("json"),
                finished_at: 1_000,
                started_at: None,
                players: vec![seat(1, "Ann <b>", 0), seat(BOT_USER_ID, "Computer", 1)],
                rated: Some(false),
                aborted: false,
                web_token: Some(TOKEN.to_string()),
            })
            .expect("kept");
        store
            .save_agreement(crate::store::GameId(1), &[(1, 3, 8)])
            .expect("agreement");
        let tables = Tables::new(Settings::default(), Arc::new(RandomPicker)).with_store(store);
        (Arc::new(tables), record)
    }

    async fn body(answer: Response) -> (StatusCode, Vec<u8>) {
        let status = answer.status();
        let bytes = to_bytes(answer.into_body(), usize::MAX)
            .await
            .expect("a body");
        (status, bytes.to_vec())
    }

    #[tokio::test]
    async fn the_replay_answers_its_frames_and_summary_as_json() {
        let (tables, record) = tables_with_a_game();
        let answer = replay(tables.clone(), TOKEN, Lang::No, None).await;
        assert_eq!(answer.headers()[header::CONTENT_TYPE], "application/json");
        let (status, bytes) = body(answer).await;
        assert_eq!(status, StatusCode::OK);
        let json: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        let moves = record.actions.iter().filter(|a| a.cell.is_some()).count();
        assert_eq!(json["frames"].as_array().expect("frames").len(), moves + 1);
        assert_eq!(json["frames"][0]["turn"], 0);
        // Each step's scores: none at the start, the teams' final counts at the end.
        assert_eq!(json["frames"][0]["scores"], serde_json::json!([0, 0]));
        let last = &json["frames"][moves]["scores"];
        let finals: Vec<_> = json["teams"]
            .as_array()
            .expect("teams")
            .iter()
            .map(|t| t["sequences"].clone())
            .collect();
        assert_eq!(last, &serde_json::Value::Array(finals));
        assert!(json["frames"][1]["board"]["last_move"]["cell"].is_string());
        assert_eq!(json["seats"][0]["name"], "Ann <b>", "names are text");
        assert_eq!(json["seats"][1]["kind"], "computer");
        assert!(json["summary"]["sequences"].is_array());
        assert!(json["summary"]["broken"].is_array());
        assert_eq!(
            json["summary"]["agreement"],
            serde_json::json!([{"seat": 0, "matched": 3, "counted": 8}])
        );
        assert_eq!(json["teams"].as_array().expect("teams").len(), 2);
        assert!(
            json["to_win"].as_u64().is_some_and(|n| n >= 1),
            "{}",
            json["to_win"]
        );
        // The summary's sentences, in Norwegian, with the names as text and no Discord markup: the
        // game's length, then Ann's agreement (3 of 8).
        let lines: Vec<&str> = json["summary"]["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .map(|l| l.as_str().expect("a sentence"))
            .collect();
        let sequences = json["summary"]["sequences"].as_array().map_or(0, Vec::len);
        let broken = json["summary"]["broken"].as_array().map_or(0, Vec::len);
        assert_eq!(lines.len(), sequences + broken + 2, "{lines:?}");
        assert!(
            lines[lines.len() - 1].starts_with("Ann <b>") && lines[lines.len() - 1].contains("3"),
            "{lines:?}"
        );
        for line in &lines {
            assert!(!line.contains("<@") && !line.contains("**"), "{line}");
        }
        assert!(!String::from_utf8_lossy(&bytes).contains("\"hand\""));

        // Unknown, malformed: 404 with a sentence in the asker's language.
        for token in ["ffeeddccbbaa99887766554433221100", "../../etc/passwd", ""] {
            let (status, bytes) = body(replay(tables.clone(), token, Lang::De, None).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{token:?}");
            let json: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
            assert!(
                json["error"].as_str().is_some_and(|e| e.contains("Spiel")),
                "{json}"
            );
        }
    }

    #[tokio::test]
    async fn the_record_is_a_download() {
        let (tables, record) = tables_with_a_game();
        let answer = super::record(tables.clone(), TOKEN, None).await;
        assert_eq!(
            answer.headers()[header::CONTENT_DISPOSITION],
            "attachment; filename=\"sequence-game-1.json\""
        );
        let (status, bytes) = body(answer).await;
        assert_eq!(status, StatusCode::OK);
        let got = Record::from_json(&String::from_utf8(bytes).expect("text")).expect("a record");
        assert_eq!(got, record);
        let (status, _) = body(super::record(tables, "nope", None).await).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
}
