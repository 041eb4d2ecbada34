//! The health routes of the HTTP server: `GET /metrics` in the Prometheus text format, `GET /healthz`
//! and `GET /readyz` (each also `HEAD`; another method is answered 405). It belongs to the process
//! start-up: the metrics themselves are recorded where things happen (service, store, the faces)
//! through the `metrics` facade, and only rendered here. A face adds its own check and gauges through
//! a [`Probe`] (Discord: its gateway shards).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use axum::Router;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::service::Tables;

use super::error::StartError;
use super::http::{only_get, text, BoxFuture, Site};

/// Bucket bounds of every `*_seconds` histogram: from 5 ms (a store save) to 30 s (a slow answer).
const SECONDS_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// How long the health check waits for the store to answer.
const STORE_CHECK_TIMEOUT: Duration = Duration::from_secs(3);

/// What a face adds to the health check and the metrics: its own connections (Discord: whether
/// each of this process's gateway shards is connected, and their latency).
pub trait Probe: Send + Sync + 'static {
    /// Why the face is not healthy (`None`: it is).
    fn problem(&self) -> BoxFuture<'_, Option<String>>;
    /// Sets the face's gauges, just before the metrics are rendered.
    fn record(&self) -> BoxFuture<'_, ()>;
    /// Describes the face's own metrics (called once the recorder is installed).
    fn describe(&self) {}
}

/// What `/healthz` and `/readyz` look at, filled in as the process starts.
pub struct Health {
    /// The tables, once the store is open (the store check and the table gauges).
    tables: OnceLock<Arc<Tables>>,
    /// The face's own check, once the face has set it.
    probe: OnceLock<Arc<dyn Probe>>,
    /// Set once every stored table is restored.
    restored: AtomicBool,
    /// Renders the metrics.
    prometheus: PrometheusHandle,
}

impl Health {
    /// Nothing known yet, the metrics rendered by `prometheus`.
    pub(crate) fn with_prometheus(prometheus: PrometheusHandle) -> Health {
        Health {
            tables: OnceLock::new(),
            probe: OnceLock::new(),
            restored: AtomicBool::new(false),
            prometheus,
        }
    }

    /// The tables are open (and restored: see [`Health::set_restored`]).
    pub fn set_tables(&self, tables: Arc<Tables>) {
        let _ = self.tables.set(tables);
    }

    /// Restore is done: `/readyz` may answer 200.
    pub fn set_restored(&self) {
        self.restored.store(true, Ordering::SeqCst);
    }

    /// The face's own check, asked after the store's from now on; its metrics are described.
    pub fn set_probe(&self, probe: Arc<dyn Probe>) {
        probe.describe();
        let _ = self.probe.set(probe);
    }

    /// Why this process is not healthy (`None`: it is): the store does not answer, its hold on its
    /// shards was lost, or the face's probe finds a problem (Discord: a shard of this process is not
    /// connected to the gateway).
    pub async fn problem(&self) -> Option<String> {
        let Some(tables) = self.tables.get() else {
            return Some("the database is not open yet".into());
        };
        if !tables.holds_shards() {
            return Some(format!(
                "the hold on {} in the database was lost",
                tables.shards()
            ));
        }
        let checked = tables.clone();
        let answer = tokio::time::timeout(
            STORE_CHECK_TIMEOUT,
            tokio::task::spawn_blocking(move || checked.check_store()),
        )
        .await;
        match answer {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => return Some(format!("the database does not answer: {e}")),
            Ok(Err(_)) => return Some("the database check failed".into()),
            Err(_) => {
                return Some(format!(
                    "the database did not answer within {} s",
                    STORE_CHECK_TIMEOUT.as_secs()
                ))
            }
        }
        match self.probe.get() {
            Some(probe) => probe.problem().await,
            None => None,
        }
    }

    /// Why this process is not ready: restore is not done, or it is not healthy.
    pub async fn not_ready(&self) -> Option<String> {
        if !self.restored.load(Ordering::SeqCst) {
            return Some("restoring the stored tables".into());
        }
        self.problem().await
    }

    /// The Prometheus text of every metric, after setting the gauges that are read rather than
    /// counted: open tables, the face's own (the shards' connections and latency), and the process's
    /// memory.
    pub async fn render(&self) -> String {
        if let Some(tables) = self.tables.get() {
            // Counting takes each table's lock, which a save may hold for a moment: off the runtime.
            let tables = tables.clone();
            let _ = tokio::task::spawn_blocking(move || tables.record_table_gauges()).await;
        }
        if let Some(probe) = self.probe.get() {
            probe.record().await;
        }
        if let Some(bytes) = resident_bytes() {
            metrics::gauge!("process_resident_memory_bytes").set(bytes as f64);
        }
        self.prometheus.render()
    }

    /// Keeps the histograms' memory in check between scrapes, as long as the process runs.
    pub(super) fn keep_up(&self) {
        let upkeep = self.prometheus.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(5));
            loop {
                every.tick().await;
                upkeep.run_upkeep();
            }
        });
    }
}

/// Installs the metrics recorder ([`install`]) and serves `/metrics`, `/healthz` and `/readyz`, with
/// the routes of `sites` beside them, on `address` until the process ends, the histograms' memory
/// kept in check between scrapes.
pub async fn listen(
    address: SocketAddr,
    sites: Vec<Arc<dyn Site>>,
) -> Result<Arc<Health>, StartError> {
    let (health, _) = listen_on(&[(address, "metrics.listen")], sites).await?;
    Ok(health)
}

/// [`listen`] on several addresses (`[metrics] listen`, then `[web] listen` when it is another), each
/// named by its setting for the error when it cannot be bound. `metrics.listen` serves `/metrics`;
/// another the same routes without it (the figures are the operator's, not the players'). The
/// addresses as bound (a port 0 replaced by the one given), in the same order.
pub async fn listen_on(
    addresses: &[(SocketAddr, &str)],
    sites: Vec<Arc<dyn Site>>,
) -> Result<(Arc<Health>, Vec<SocketAddr>), StartError> {
    let health = install()?;
    let everything = super::http::router(
        std::iter::once(health.clone() as Arc<dyn Site>).chain(sites.iter().cloned()),
    );
    let without_metrics = super::http::router(
        std::iter::once(Arc::new(Checks(health.clone())) as Arc<dyn Site>).chain(sites),
    );
    let mut bound = Vec::with_capacity(addresses.len());
    for (address, setting) in addresses {
        let metrics = *setting == "metrics.listen";
        let app = match metrics {
            true => everything.clone(),
            false => without_metrics.clone(),
        };
        let served = super::http::serve(*address, app)
            .await
            .map_err(|e| match e {
                StartError::Config(m) => {
                    StartError::Config(m.replacen("metrics.listen", setting, 1))
                }
                other => other,
            })?;
        match metrics {
            true => tracing::info!(
                address = %served,
                "metrics and health on http://{served}/metrics, /healthz, /readyz"
            ),
            false => tracing::info!(
                address = %served,
                "{setting}: health on http://{served}/healthz, /readyz (no /metrics)"
            ),
        }
        bound.push(served);
    }
    health.keep_up();
    Ok((health, bound))
}

/// The health checks without `/metrics`: what an address other than `[metrics] listen` serves.
struct Checks(Arc<Health>);

impl Site for Checks {
    fn routes(self: Arc<Self>) -> Router {
        Router::new()
            .route("/healthz", only_get(healthz))
            .route("/readyz", only_get(readyz))
            .with_state(self.0.clone())
    }

    fn paths(&self) -> &'static [&'static str] {
        &["/healthz", "/readyz"]
    }
}

impl Site for Health {
    fn routes(self: Arc<Self>) -> Router {
        Router::new()
            .route("/metrics", only_get(metrics))
            .route("/healthz", only_get(healthz))
            .route("/readyz", only_get(readyz))
            .with_state(self)
    }

    fn paths(&self) -> &'static [&'static str] {
        &["/metrics", "/healthz", "/readyz"]
    }
}

/// Installs the Prometheus recorder behind the `metrics` facade and describes every metric but the
/// face's own (its [`Probe::describe`]). Without
/// it (no listener) the facade's calls do nothing.
pub fn install() -> Result<Arc<Health>, StartError> {
    static INSTALLED: Mutex<Option<Arc<Health>>> = Mutex::new(None);
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(health) = installed.as_ref() {
        return Ok(health.clone());
    }
    let recorder = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS_BUCKETS)
        .map_err(|e| StartError::Config(format!("metrics: {e}")))?
        .build_recorder();
    let prometheus = recorder.handle();
    metrics::set_global_recorder(recorder)
        .map_err(|e| StartError::Config(format!("metrics: {e}")))?;
    describe();
    let health = Arc::new(Health::with_prometheus(prometheus));
    *installed = Some(health.clone());
    Ok(health)
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_gauge!(
        "sequence_tables",
        "Open tables of this process, by state (lobby, playing, paused) and game"
    );
    describe_counter!("sequence_moves_total", "Moves played, by game");
    describe_counter!("sequence_games_started_total", "Games started, by game");
    describe_counter!(
        "sequence_games_finished_total",
        "Games that ended (won, drawn, stopped or abandoned), by game"
    );
    describe_histogram!(
        "sequence_interaction_seconds",
        Unit::Seconds,
        "From a slash command or button press reaching the bot to the end of its answer, by command"
    );
    describe_gauge!(
        "sequence_search_queue_length",
        "Computer moves waiting for a thread of the search pool"
    );
    describe_histogram!(
        "sequence_search_wait_seconds",
        Unit::Seconds,
        "Time a computer move waited for a thread of the search pool, by level"
    );
    describe_histogram!(
        "sequence_search_run_seconds",
        Unit::Seconds,
        "Time a computer move's search ran, by level"
    );
    describe_counter!(
        "sequence_posting_refusals_total",
        "Requests refused or computer moves held back by a server's posting budget, by budget (member, server, computer)"
    );
    describe_histogram!(
        "sequence_store_seconds",
        Unit::Seconds,
        "Time of a table write to the store, by op (save, finish, delete)"
    );
    describe_counter!(
        "sequence_store_errors_total",
        "Failed table writes to the store, by op"
    );
    describe_gauge!(
        "process_resident_memory_bytes",
        Unit::Bytes,
        "Resident memory of the process"
    );
}

/// The process's resident memory, from /proc/self/statm (Linux).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

#[cfg(unix)]
fn page_size() -> u64 {
    // SAFETY: sysconf only reads a system constant.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).unwrap_or(4096)
}

#[cfg(not(unix))]
fn page_size() -> u64 {
    4096
}

/// `GET /metrics`: every metric in the Prometheus text format.
async fn metrics(State(health): State<Arc<Health>>) -> Response {
    let body = health.render().await;
    let mut response = text(StatusCode::OK, body);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    response
}

/// `GET /healthz`: 200 while the process is healthy, 503 with the reason when not.
async fn healthz(State(health): State<Arc<Health>>) -> Response {
    status(health.problem().await)
}

/// `GET /readyz`: 200 once the process is ready, 503 with the reason until then.
async fn readyz(State(health): State<Arc<Health>>) -> Response {
    status(health.not_ready().await)
}

fn status(problem: Option<String>) -> Response {
    match problem {
        None => text(StatusCode::OK, "ok\n".into()),
        Some(reason) => text(StatusCode::SERVICE_UNAVAILABLE, format!("{reason}\n")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::http::router;
    use crate::app::http::test_kit::ask;
    use crate::service::{RandomPicker, Settings};
    use axum::http::Method;

    /// The app's router with only the health routes, nothing known yet.
    fn app() -> (Arc<Health>, Router) {
        let health = Arc::new(Health::with_prometheus(
            PrometheusBuilder::new().build_recorder().handle(),
        ));
        (health.clone(), router([health as Arc<dyn Site>]))
    }

    /// `/healthz` and `/readyz` answer 503 with the reason until the tables are open and restored,
    /// then 200 `ok`; in plain text, for GET and for HEAD (without the body).
    #[tokio::test]
    async fn health_and_readiness_follow_the_start() {
        let (health, app) = app();
        let answer = ask(&app, Method::GET, "/healthz").await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(answer.body, "the database is not open yet\n");
        assert_eq!(
            answer.content_type.as_deref(),
            Some("text/plain; charset=utf-8")
        );
        let answer = ask(&app, Method::GET, "/readyz").await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(answer.body, "restoring the stored tables\n");
        health.set_tables(Arc::new(Tables::new(
            Settings::default(),
            Arc::new(RandomPicker),
        )));
        let answer = ask(&app, Method::GET, "/healthz").await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.body, "ok\n");
        assert_eq!(
            ask(&app, Method::GET, "/readyz").await.status,
            StatusCode::SERVICE_UNAVAILABLE
        );
        health.set_restored();
        for path in ["/healthz", "/readyz"] {
            let answer = ask(&app, Method::GET, path).await;
            assert_eq!(
                (answer.status, answer.body.as_str()),
                (StatusCode::OK, "ok\n")
            );
            let head = ask(&app, Method::HEAD, path).await;
            assert_eq!(head.status, StatusCode::OK, "HEAD {path}");
            assert_eq!(head.body, "", "HEAD {path}");
            assert_eq!(
                head.headers
                    .get(header::CONTENT_LENGTH)
                    .and_then(|v| v.to_str().ok()),
                Some("3"),
                "HEAD {path}"
            );
        }
    }

    /// `/metrics` is 200 in the Prometheus text format, with the tables' gauges once they are open.
    #[tokio::test]
    async fn metrics_are_served_in_the_prometheus_text_format() {
        let (health, app) = app();
        let answer = ask(&app, Method::GET, "/metrics").await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(
            answer.content_type.as_deref(),
            Some("text/plain; version=0.0.4; charset=utf-8")
        );
        health.set_tables(Arc::new(Tables::new(
            Settings::default(),
            Arc::new(RandomPicker),
        )));
        let head = ask(&app, Method::HEAD, "/metrics").await;
        assert_eq!(head.status, StatusCode::OK);
        assert_eq!(head.body, "");
    }

    /// Every health route answers GET and HEAD only: another method is 405 `only GET`.
    #[tokio::test]
    async fn the_health_routes_refuse_other_methods() {
        let (_, app) = app();
        for path in ["/metrics", "/healthz", "/readyz"] {
            for method in [Method::POST, Method::PUT, Method::DELETE, Method::OPTIONS] {
                let answer = ask(&app, method.clone(), path).await;
                assert_eq!(
                    answer.status,
                    StatusCode::METHOD_NOT_ALLOWED,
                    "{method} {path}"
                );
                assert_eq!(answer.body, "only GET\n", "{method} {path}");
                assert_eq!(
                    answer.content_type.as_deref(),
                    Some("text/plain; charset=utf-8")
                );
            }
        }
    }

    #[test]
    fn resident_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|b| b > 1024 * 1024));
        }
    }
}
