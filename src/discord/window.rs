//! Discord's answer window for one interaction: it must be answered or acknowledged (deferred) within
//! three seconds of the user's action, or Discord forgets it (`10062 Unknown interaction`) and the
//! player's press is lost. Whatever the bot waits for before answering (a blocking thread, a table's
//! lock, the database, a picture behind the drawing queue) is raced against [`DEFER_AFTER`]: what is
//! not ready by then is deferred first and delivered by an edit or a follow-up when it is.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

/// How long after an interaction arrives the bot waits for its answer before deferring it: with the
/// deferral's own round trip the interaction is acknowledged within 1.5 s of arrival, half of
/// Discord's three seconds (the rest is the network and a gateway that delivers late).
pub(crate) const DEFER_AFTER: Duration = Duration::from_millis(1000);

/// The answer window of one interaction, opened when it arrived.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window {
    defer_at: Instant,
}

/// How an interaction stood when a piece of work raced against its window was done.
#[derive(Debug)]
pub(crate) enum Ack<E> {
    /// Still unanswered: the answer can be the interaction's response.
    InTime,
    /// Deferred while the work went on: the answer goes out as an edit or a follow-up.
    Deferred,
    /// The deferral was refused (the interaction is gone): nothing can answer it any more.
    Lost(E),
}

impl Window {
    /// The window of an interaction that arrived just now.
    pub(crate) fn opened_now() -> Window {
        Window {
            defer_at: Instant::now() + DEFER_AFTER,
        }
    }

    /// Runs `work`. If it is not done when the window is about to close, `defer` runs first (the
    /// work goes on meanwhile: what it waits for runs elsewhere), then the work is awaited. The work
    /// always finishes, so what it changed is never dropped halfway.
    pub(crate) async fn race<T, E, W, D>(self, work: W, defer: D) -> (T, Ack<E>)
    where
        W: Future<Output = T>,
        D: Future<Output = Result<(), E>>,
    {
        tokio::pin!(work);
        tokio::select! {
            biased;
            done = &mut work => (done, Ack::InTime),
            () = tokio::time::sleep_until(self.defer_at) => {
                let ack = match defer.await {
                    Ok(()) => Ack::Deferred,
                    Err(e) => Ack::Lost(e),
                };
                (work.await, ack)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window_in(ms: u64) -> Window {
        Window {
            defer_at: Instant::now() + Duration::from_millis(ms),
        }
    }

    #[tokio::test]
    async fn work_done_in_time_is_not_deferred() {
        let deferred = std::cell::Cell::new(false);
        let (value, ack) = window_in(2000)
            .race(
                async {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    7
                },
                async {
                    deferred.set(true);
                    Ok::<(), ()>(())
                },
            )
            .await;
        assert_eq!(value, 7);
        assert!(matches!(ack, Ack::InTime));
        assert!(!deferred.get());
    }

    #[tokio::test]
    async fn slow_work_is_deferred_at_the_window_and_still_finishes() {
        let started = Instant::now();
        let deferred_at = std::cell::Cell::new(None);
        let (value, ack) = window_in(100)
            .race(
                async {
                    tokio::time::sleep(Duration::from_millis(600)).await;
                    "drawn"
                },
                async {
                    deferred_at.set(Some(started.elapsed()));
                    Ok::<(), ()>(())
                },
            )
            .await;
        assert_eq!(value, "drawn");
        assert!(matches!(ack, Ack::Deferred));
        // Deferred at the window (not before it, and long before the work was done), and the
        // work was awaited to its end.
        let deferred_at = deferred_at.get().expect("deferred");
        assert!(deferred_at >= Duration::from_millis(100), "{deferred_at:?}");
        assert!(deferred_at < Duration::from_millis(600), "{deferred_at:?}");
        assert!(started.elapsed() >= Duration::from_millis(600));
    }

    #[tokio::test]
    async fn a_refused_deferral_is_reported_and_the_work_still_finishes() {
        let (value, ack) = window_in(10)
            .race(
                async {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    1
                },
                async { Err::<(), _>("10062 Unknown interaction") },
            )
            .await;
        assert_eq!(value, 1);
        assert!(matches!(ack, Ack::Lost("10062 Unknown interaction")));
    }
}
