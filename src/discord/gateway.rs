//! The Discord face's part of the health check and the metrics: which of this process's shards are
//! connected ([`Gateway`], the probe `/healthz` asks, which also describes the Discord metrics), the
//! log event that tells a resume has begun ([`GatewayWatch`]), and what serenity tells event handlers
//! only ([`GatewayMetrics`]).

use std::sync::{Arc, Mutex, OnceLock};

use poise::serenity_prelude as serenity;

use crate::app::health::Probe;
use crate::app::http::BoxFuture;
use crate::app::start::LogLayer;
use crate::store::ShardSet;

/// Shards whose gateway connection was lost and that are resuming. serenity 0.12 reports a resume to
/// its shard manager only once it has succeeded (the stage it keeps goes from `Connected` to
/// `Connected`), so the loss is seen in its log event instead ([`GatewayWatch`]) and cleared when
/// the shard is connected again ([`GatewayMetrics`]).
static RESUMING: Mutex<std::collections::BTreeSet<u32>> =
    Mutex::new(std::collections::BTreeSet::new());

fn resuming() -> std::sync::MutexGuard<'static, std::collections::BTreeSet<u32>> {
    RESUMING.lock().unwrap_or_else(|e| e.into_inner())
}

/// A tracing layer that watches serenity's gateway events for the start of a resume (`Attempting to
/// resume`, logged by every resume path: a broken connection, a close frame, an op 7 RECONNECT) and
/// marks that shard as not connected. Installed with its own filter, whatever `RUST_LOG` says.
/// `tests/e2e_metrics.rs` checks it still sees serenity's event.
pub struct GatewayWatch;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for GatewayWatch {
    fn on_event(
        &self,
        event: &tracing::Event<'_>,
        _ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        struct Message(Option<String>);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = Some(format!("{value:?}"));
                }
            }
        }
        let mut message = Message(None);
        event.record(&mut message);
        let Some(text) = message.0 else { return };
        if !(text.contains("Attempting to resume") || text.contains("Attempting to reconnect")) {
            return;
        }
        // serenity writes the shard as `[ShardInfo { id: ShardId(N), total: T }]`.
        let shard = text
            .split_once("ShardId(")
            .and_then(|(_, rest)| rest.split_once(')'))
            .and_then(|(id, _)| id.parse::<u32>().ok());
        if let Some(shard) = shard {
            resuming().insert(shard);
        }
    }
}

/// The filter of [`GatewayWatch`]: serenity's gateway events down to debug.
pub fn gateway_watch_filter() -> tracing_subscriber::filter::Targets {
    tracing_subscriber::filter::Targets::new()
        .with_target("serenity::gateway", tracing::Level::DEBUG)
}

/// [`GatewayWatch`] with its filter: the Discord face's layer of the log set-up.
pub fn watch_layer() -> LogLayer {
    use tracing_subscriber::Layer;
    Box::new(GatewayWatch.with_filter(gateway_watch_filter()))
}

/// Whether shard `id` is connected: serenity's runner says so and no resume is under way.
fn is_connected(
    runners: &std::collections::HashMap<serenity::ShardId, serenity::ShardRunnerInfo>,
    id: u32,
) -> bool {
    runners
        .get(&serenity::ShardId(id))
        .is_some_and(|r| r.stage == serenity::ConnectionStage::Connected)
        && !resuming().contains(&id)
}

/// This process's shards and their gateway connections, once the client exists: the probe the
/// health check asks after the store.
#[derive(Default)]
pub struct Gateway {
    connections: OnceLock<(ShardSet, Arc<serenity::ShardManager>)>,
}

impl Gateway {
    /// The gateway client exists: its shards are checked from now on.
    pub fn set(&self, shards: ShardSet, manager: Arc<serenity::ShardManager>) {
        let _ = self.connections.set((shards, manager));
    }
}

impl Probe for Gateway {
    fn problem(&self) -> BoxFuture<'_, Option<String>> {
        Box::pin(async move {
            let Some((shards, manager)) = self.connections.get() else {
                return Some("not connected to Discord yet".into());
            };
            let runners = manager.runners.lock().await;
            let down: Vec<String> = shards
                .ids()
                .filter(|id| !is_connected(&runners, *id))
                .map(|id| id.to_string())
                .collect();
            match down.as_slice() {
                [] => None,
                [one] => Some(format!("shard {one} is not connected to Discord")),
                many => Some(format!(
                    "shards {} are not connected to Discord",
                    many.join(", ")
                )),
            }
        })
    }

    fn record(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let Some((shards, manager)) = self.connections.get() else {
                return;
            };
            let runners = manager.runners.lock().await;
            let mut connected = 0u32;
            for id in shards.ids() {
                let runner = runners.get(&serenity::ShardId(id));
                let up = is_connected(&runners, id);
                connected += u32::from(up);
                let shard = id.to_string();
                metrics::gauge!("sequence_gateway_shard_connected", "shard" => shard.clone())
                    .set(if up { 1.0 } else { 0.0 });
                if let Some(latency) = runner.and_then(|r| r.latency) {
                    metrics::gauge!("sequence_gateway_latency_seconds", "shard" => shard)
                        .set(latency.as_secs_f64());
                }
            }
            metrics::gauge!("sequence_gateway_shards_connected").set(f64::from(connected));
            metrics::gauge!("sequence_gateway_shards").set(f64::from(shards.ids().count() as u32));
        })
    }

    fn describe(&self) {
        use metrics::{describe_counter, describe_gauge, Unit};
        describe_counter!(
        "sequence_discord_requests_total",
        "REST requests to Discord made for answers and posts, by route and status (2xx, or the error's HTTP status, or error)"
    );
        describe_counter!(
            "sequence_discord_retries_total",
            "REST requests repeated after a server error (5xx), by route"
        );
        describe_counter!(
        "sequence_discord_ratelimited_total",
        "Times serenity's rate limiter held a request back (a 429 answer, or a bucket known to be empty), by scope (route or global)"
    );
        describe_gauge!(
            "sequence_gateway_shards",
            "Gateway shards this process runs"
        );
        describe_gauge!(
            "sequence_gateway_shards_connected",
            "Gateway shards of this process connected now"
        );
        describe_gauge!(
            "sequence_gateway_shard_connected",
            "1 while the shard is connected to the gateway, by shard"
        );
        describe_gauge!(
            "sequence_gateway_latency_seconds",
            Unit::Seconds,
            "The shard's last heartbeat round trip, by shard"
        );
        describe_counter!(
        "sequence_gateway_reconnects_total",
        "Times a shard connected again after having been connected (resumed or identified anew), by shard"
    );
    }
}

/// Counts what serenity tells event handlers only (not poise): rate-limit waits and the shards'
/// connection changes.
#[derive(Default)]
pub struct GatewayMetrics {
    /// Shards seen connected at least once: a later connection is a reconnect.
    seen: Mutex<std::collections::HashSet<u32>>,
}

#[serenity::async_trait]
impl serenity::EventHandler for GatewayMetrics {
    async fn ratelimit(&self, data: serenity::RatelimitInfo) {
        let scope = if data.global { "global" } else { "route" };
        metrics::counter!("sequence_discord_ratelimited_total", "scope" => scope).increment(1);
    }

    async fn shard_stage_update(
        &self,
        _ctx: serenity::Context,
        event: serenity::ShardStageUpdateEvent,
    ) {
        let shard = event.shard_id.0;
        match event.new {
            serenity::ConnectionStage::Connected => {
                resuming().remove(&shard);
                let again = !self
                    .seen
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(shard);
                if again {
                    metrics::counter!("sequence_gateway_reconnects_total", "shard" => shard.to_string())
                        .increment(1);
                    tracing::info!(shard, "shard {shard} connected again");
                }
            }
            stage if event.old == serenity::ConnectionStage::Connected => {
                tracing::warn!(
                    shard,
                    "shard {shard} lost its gateway connection ({stage:?})"
                );
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt;

    #[test]
    fn a_resume_in_serenitys_log_marks_its_shard_as_not_connected() {
        let subscriber = tracing_subscriber::registry().with(GatewayWatch);
        tracing::subscriber::with_default(subscriber, || {
            tracing::debug!(
                target: "serenity::gateway::shard",
                "[{:?}] Attempting to resume",
                "ShardInfo { id: ShardId(7), total: 8 }"
            );
            tracing::debug!(target: "serenity::gateway::shard", "[ShardInfo {{ id: ShardId(6), total: 8 }}] Received Ready");
        });
        assert!(resuming().contains(&7));
        assert!(!resuming().contains(&6), "only a resume counts");
        resuming().remove(&7);
    }
}
