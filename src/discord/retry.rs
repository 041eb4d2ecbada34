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
/// other outcome is returned at once.
pub(super) async fn retrying<T, F, Fut>(what: &str, attempt: F) -> Result<T, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    retrying_with(what, FIRST_PAUSE, is_server_error, attempt).await
}

async fn retrying_with<T, E, F, Fut>(
    what: &str,
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
