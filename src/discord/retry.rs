//! Retries of Discord requests answered with a server error (5xx). serenity's rate limiter waits out
//! and repeats 429 answers itself, but hands 5xx answers straight back; Discord gives them now and then,
//! and a player should still get their reply.

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;

/// Attempts after the first.
const RETRIES: u32 = 3;
/// The first pause; each next one is three times longer: 0.1 s, 0.3 s, 0.9 s, within the three seconds
/// Discord waits for the answer to an interaction.
const FIRST_PAUSE: Duration = Duration::from_millis(100);

/// Whether Discord answered with a server error (worth another try).
pub(super) fn is_server_error(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(e) => e.status_code().is_some_and(|s| s.is_server_error()),
        _ => false,
    }
}

/// Whether Discord refused a post for the channel's permissions: 50013 Missing Permissions, or 50001
/// Missing Access (no View Channel, or a private thread the bot is not in). Not worth another try.
pub(super) fn is_refused_for_permissions(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            matches!(response.error.code, 50001 | 50013)
        }
        _ => false,
    }
}

/// Runs `attempt` again after a server error, up to [`RETRIES`] more times with growing pauses; any
/// other outcome is returned at once. Every attempt is counted in `sequence_discord_requests_total`
/// with `what` as its route and its outcome's status, every repeat in `sequence_discord_retries_total`.
pub(super) async fn retrying<T, F, Fut>(
    what: &'static str,
    mut attempt: F,
) -> Result<T, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    retrying_with(what, FIRST_PAUSE, is_server_error, || {
        let answer = attempt();
        async move {
            let answer = answer.await;
            metrics::counter!(
                "sequence_discord_requests_total",
                "route" => what,
                "status" => status_label(&answer)
            )
            .increment(1);
            answer
        }
    })
    .await
}

/// The status label of a request's outcome: `2xx`, the HTTP status of an error answer, or `error`
/// when there was no answer (a connection failure).
fn status_label<T>(answer: &Result<T, serenity::Error>) -> &'static str {
    let status = match answer {
        Ok(_) => return "2xx",
        Err(serenity::Error::Http(e)) => e.status_code().map(|s| s.as_u16()),
        Err(_) => None,
    };
    match status {
        Some(400) => "400",
        Some(401) => "401",
        Some(403) => "403",
        Some(404) => "404",
        Some(429) => "429",
        Some(500) => "500",
        Some(502) => "502",
        Some(503) => "503",
        Some(504) => "504",
        Some(400..=499) => "4xx",
        Some(500..=599) => "5xx",
        _ => "error",
    }
}

async fn retrying_with<T, E, F, Fut>(
    what: &'static str,
    first_pause: Duration,
    transient: impl Fn(&E) -> bool,
    mut attempt: F,
) -> Result<T, E>
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut pause = first_pause;
    for _ in 0..RETRIES {
        match attempt().await {
            Err(e) if transient(&e) => {
                tracing::warn!("{what}: Discord answered with a server error ({e}); trying again");
                metrics::counter!("sequence_discord_retries_total", "route" => what).increment(1);
                tokio::time::sleep(pause).await;
                pause *= 3;
            }
            other => return other,
        }
    }
    attempt().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn server_errors_are_retried_a_few_times_and_others_not_at_all() {
        let transient = |e: &String| e.starts_with("5");
        let mut calls = 0;
        let result: Result<u8, String> = retrying_with("test", Duration::ZERO, transient, || {
            calls += 1;
            let answer = if calls < 3 {
                Err("500".to_string())
            } else {
                Ok(7)
            };
            async move { answer }
        })
        .await;
        assert_eq!(result, Ok(7));
        assert_eq!(calls, 3);

        let mut calls = 0;
        let result: Result<u8, String> = retrying_with("test", Duration::ZERO, transient, || {
            calls += 1;
            async { Err("500".to_string()) }
        })
        .await;
        assert!(result.is_err());
        assert_eq!(calls, 1 + RETRIES, "gives up after the retries");

        let mut calls = 0;
        let result: Result<u8, String> = retrying_with("test", Duration::ZERO, transient, || {
            calls += 1;
            async { Err("404".to_string()) }
        })
        .await;
        assert!(result.is_err());
        assert_eq!(calls, 1, "a client error is final");
    }
}
