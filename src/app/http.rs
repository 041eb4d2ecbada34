//! The metrics and health listener (`[metrics] listen`, off by default): `GET /metrics` in the
//! Prometheus text format, `GET /healthz` and `GET /readyz`. It belongs to the process start-up: the
//! metrics themselves are recorded where things happen (service, store, discord) through the `metrics`
//! facade, and only rendered here.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use poise::serenity_prelude as serenity;

use crate::service::Tables;
use crate::store::ShardSet;

use crate::discord::DiscordError;

/// Bucket bounds of every `*_seconds` histogram: from 5 ms (a store save) to 30 s (a slow answer).
const SECONDS_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// How long the health check waits for the store to answer.
const STORE_CHECK_TIMEOUT: Duration = Duration::from_secs(3);

/// Longest request head the listener reads: only three short GETs are served.
const MAX_HEAD_BYTES: usize = 8 * 1024;

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

/// What `/healthz` and `/readyz` look at, filled in as the process starts.
pub struct Health {
    /// The tables, once the store is open (the store check and the table gauges).
    tables: OnceLock<Arc<Tables>>,
    /// This process's shards and their gateway connections, once the client exists.
    gateway: OnceLock<(ShardSet, Arc<serenity::ShardManager>)>,
    /// Set once every stored table is restored.
    restored: AtomicBool,
    /// Renders the metrics.
    prometheus: PrometheusHandle,
}

impl Health {
    /// The tables are open (and restored: see [`Health::set_restored`]).
    pub fn set_tables(&self, tables: Arc<Tables>) {
        let _ = self.tables.set(tables);
    }

    /// Restore is done: `/readyz` may answer 200.
    pub fn set_restored(&self) {
        self.restored.store(true, Ordering::SeqCst);
    }

    /// The gateway client exists: its shards are checked from now on.
    pub fn set_gateway(&self, shards: ShardSet, manager: Arc<serenity::ShardManager>) {
        let _ = self.gateway.set((shards, manager));
    }

    /// Why this process is not healthy (`None`: it is): the store does not answer, a shard of this
    /// process is not connected to the gateway, or its hold on its shards was lost.
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
        let Some((shards, manager)) = self.gateway.get() else {
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
    }

    /// Why this process is not ready: restore is not done, or it is not healthy.
    pub async fn not_ready(&self) -> Option<String> {
        if !self.restored.load(Ordering::SeqCst) {
            return Some("restoring the stored tables".into());
        }
        self.problem().await
    }

    /// The Prometheus text of every metric, after setting the gauges that are read rather than
    /// counted: open tables, the shards' connections and latency, and the process's memory.
    pub async fn render(&self) -> String {
        if let Some(tables) = self.tables.get() {
            // Counting takes each table's lock, which a save may hold for a moment: off the runtime.
            let tables = tables.clone();
            let _ = tokio::task::spawn_blocking(move || tables.record_table_gauges()).await;
        }
        if let Some((shards, manager)) = self.gateway.get() {
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
        }
        if let Some(bytes) = resident_bytes() {
            metrics::gauge!("process_resident_memory_bytes").set(bytes as f64);
        }
        self.prometheus.render()
    }
}

/// Installs the Prometheus recorder behind the `metrics` facade and describes every metric. Without
/// it (no listener) the facade's calls do nothing.
pub fn install() -> Result<Arc<Health>, DiscordError> {
    static INSTALLED: Mutex<Option<Arc<Health>>> = Mutex::new(None);
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(health) = installed.as_ref() {
        return Ok(health.clone());
    }
    let recorder = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS_BUCKETS)
        .map_err(|e| DiscordError::Config(format!("metrics: {e}")))?
        .build_recorder();
    let prometheus = recorder.handle();
    metrics::set_global_recorder(recorder)
        .map_err(|e| DiscordError::Config(format!("metrics: {e}")))?;
    describe();
    let health = Arc::new(Health {
        tables: OnceLock::new(),
        gateway: OnceLock::new(),
        restored: AtomicBool::new(false),
        prometheus,
    });
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

/// Connections the listener keeps open at once. When a new one arrives with this many open, the
/// oldest idle one is closed: idle connections can neither use up the process's file handles nor keep
/// a health check out (issue 33: 300 idle connections used every handle and `/healthz` timed out).
/// Idle means waiting for the client's next byte, and for a connection that has sent nothing yet, for
/// longer than [`GRACE`]: a connection whose request is being answered, or that has just been opened
/// and not sent its request yet, is never closed for a newer one (issue 44.22: under a flood of new
/// connections, health checks waiting for their answer, or just connected, were closed as the oldest).
const MAX_CONNECTIONS: usize = 64;

/// How long a new connection may stay silent before it counts as idle: a health check sends its
/// request at once, a flood's connection sends nothing.
const GRACE: Duration = Duration::from_secs(1);

/// Connections open at once beyond which the oldest that is not being answered is closed even within
/// its [`GRACE`], so that a flood faster than the grace cannot use up the process's file handles. A
/// health check is closed then only if this many connections arrive between its connecting and its
/// request.
const CEILING: usize = 4 * MAX_CONNECTIONS;

/// A connection that neither sends nor receives a byte for this long, with no request being
/// answered, is closed.
const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// A connection is closed after this long whatever it does.
const MAX_CONNECTION_TIME: Duration = Duration::from_secs(30);

/// The listener's bounds on connections (see [`MAX_CONNECTIONS`] and [`IDLE_TIMEOUT`]).
#[derive(Clone, Copy, Debug)]
pub struct ListenerLimits {
    /// Idle connections kept open at once; a new one closes the oldest idle ones beyond it.
    pub max_connections: usize,
    /// A connection idle this long is closed.
    pub idle_timeout: Duration,
    /// How long a new connection may stay silent before it counts as idle.
    pub grace: Duration,
    /// Connections open at once beyond which the oldest not being answered is closed, idle or not.
    pub ceiling: usize,
}

impl Default for ListenerLimits {
    fn default() -> Self {
        ListenerLimits {
            max_connections: MAX_CONNECTIONS,
            idle_timeout: IDLE_TIMEOUT,
            grace: GRACE,
            ceiling: CEILING,
        }
    }
}

/// Binds `address` and serves the three endpoints until the process ends; the histograms' memory is
/// kept in check between scrapes. An address that cannot be bound is a start-up error.
pub async fn serve(address: SocketAddr, health: Arc<Health>) -> Result<SocketAddr, DiscordError> {
    serve_with(address, health, ListenerLimits::default()).await
}

/// [`serve`] with its bounds on connections given.
pub async fn serve_with(
    address: SocketAddr,
    health: Arc<Health>,
    limits: ListenerLimits,
) -> Result<SocketAddr, DiscordError> {
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|e| {
        DiscordError::Config(format!("metrics.listen: cannot listen on {address}: {e}"))
    })?;
    let bound = listener.local_addr().unwrap_or(address);
    tracing::info!(address = %bound, "metrics and health on http://{bound}/metrics, /healthz, /readyz");
    let upkeep = health.prometheus.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(5));
        loop {
            every.tick().await;
            upkeep.run_upkeep();
        }
    });
    let open = Arc::new(Mutex::new(Open::default()));
    tokio::spawn(async move {
        loop {
            let (stream, _) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!("metrics listener: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let health = health.clone();
            let closed = open.clone();
            let activity = Arc::new(Activity::new());
            let watched = activity.clone();
            // Held while the task is spawned: it cannot remove itself before it is added.
            let mut connections = lock_open(&open);
            let id = connections.next_id();
            let task = tokio::spawn(async move {
                serve_connection(stream, health, watched, limits.idle_timeout).await;
                lock_open(&closed).remove(id);
            });
            connections.add(id, task.abort_handle(), activity, &limits);
        }
    });
    Ok(bound)
}

/// One open connection of the listener.
struct Connection {
    id: u64,
    task: tokio::task::AbortHandle,
    activity: Arc<Activity>,
}

/// The listener's open connections, oldest first.
#[derive(Default)]
struct Open {
    next: u64,
    connections: std::collections::VecDeque<Connection>,
}

impl Open {
    fn next_id(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// Keeps a new connection; beyond `max_connections`, closes the oldest idle ones (see
    /// [`MAX_CONNECTIONS`]), and beyond the ceiling the oldest not being answered (see [`CEILING`]).
    /// Connections being answered or within their grace stay; each ends or turns idle soon (an answer
    /// takes at most the store check's 3 s), and the next new connection closes what is idle by then.
    fn add(
        &mut self,
        id: u64,
        task: tokio::task::AbortHandle,
        activity: Arc<Activity>,
        limits: &ListenerLimits,
    ) {
        self.connections
            .push_back(Connection { id, task, activity });
        let max = limits.max_connections.max(1);
        while self.connections.len() > max {
            let oldest_idle = self
                .connections
                .iter()
                .position(|c| c.activity.is_waiting_for_client(limits.grace));
            if !self.close(oldest_idle) {
                break;
            }
        }
        while self.connections.len() > limits.ceiling.max(max) {
            let oldest_unanswered = self
                .connections
                .iter()
                .position(|c| c.activity.busy.load(Ordering::SeqCst) == 0);
            if !self.close(oldest_unanswered) {
                break;
            }
        }
    }

    /// Closes the connection at `index`, if any; whether one was closed.
    fn close(&mut self, index: Option<usize>) -> bool {
        match index.and_then(|i| self.connections.remove(i)) {
            Some(closed) => {
                // Dropping its task closes the socket at once.
                closed.task.abort();
                true
            }
            None => false,
        }
    }

    fn remove(&mut self, id: u64) {
        self.connections.retain(|c| c.id != id);
    }
}

fn lock_open(open: &Mutex<Open>) -> std::sync::MutexGuard<'_, Open> {
    open.lock().unwrap_or_else(|e| e.into_inner())
}

/// Serves one connection until it ends, stays idle for `idle` (no byte either way and no request
/// being answered), or has been open for [`MAX_CONNECTION_TIME`].
async fn serve_connection(
    stream: tokio::net::TcpStream,
    health: Arc<Health>,
    activity: Arc<Activity>,
    idle: Duration,
) {
    let seen = activity.clone();
    let service = hyper::service::service_fn(move |request| {
        let health = health.clone();
        let activity = seen.clone();
        // Counted as soon as hyper hands the request over (before the answer is first polled, while
        // hyper may already read on and find nothing), so the connection is never taken for idle.
        activity.busy.fetch_add(1, Ordering::SeqCst);
        async move {
            let response = answer(&health, request).await;
            // Not idle again until hyper has written the answer and reads on.
            activity.waiting.store(false, Ordering::SeqCst);
            activity.busy.fetch_sub(1, Ordering::SeqCst);
            activity.touch();
            Ok::<_, Infallible>(response)
        }
    });
    let io = hyper_util::rt::TokioIo::new(Watched {
        inner: stream,
        activity: activity.clone(),
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(io, service);
    let watchdog = async {
        loop {
            tokio::time::sleep(idle / 4).await;
            if activity.is_idle_for(idle) {
                break;
            }
        }
    };
    // A scraper that hangs up early is no concern of the bot's.
    tokio::select! {
        _ = tokio::time::timeout(MAX_CONNECTION_TIME, connection) => {}
        () = watchdog => {}
    }
}

/// When a connection last moved a byte, how many of its requests are being answered, and whether
/// it is waiting for the client.
struct Activity {
    started: std::time::Instant,
    /// Milliseconds from `started` to the last byte read or written.
    last_ms: std::sync::atomic::AtomicU64,
    busy: std::sync::atomic::AtomicUsize,
    /// The last read found nothing to read (false until the connection was first read).
    waiting: AtomicBool,
    /// A byte has been read from the client.
    received: AtomicBool,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            started: std::time::Instant::now(),
            last_ms: std::sync::atomic::AtomicU64::new(0),
            busy: std::sync::atomic::AtomicUsize::new(0),
            waiting: AtomicBool::new(false),
            received: AtomicBool::new(false),
        }
    }

    /// Whether the connection only waits for its client: it was read and found nothing more, none of
    /// its requests is being answered, and it has sent a byte or been open longer than `grace`. Only
    /// such a connection may be closed for a newer one below the ceiling.
    fn is_waiting_for_client(&self, grace: Duration) -> bool {
        self.busy.load(Ordering::SeqCst) == 0
            && self.waiting.load(Ordering::SeqCst)
            && (self.received.load(Ordering::SeqCst) || self.started.elapsed() >= grace)
    }

    fn touch(&self) {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(now, Ordering::SeqCst);
    }

    fn is_idle_for(&self, idle: Duration) -> bool {
        let last = Duration::from_millis(self.last_ms.load(Ordering::SeqCst));
        self.busy.load(Ordering::SeqCst) == 0 && self.started.elapsed().saturating_sub(last) >= idle
    }
}

/// A socket that notes each byte it moves in its connection's [`Activity`].
struct Watched {
    inner: tokio::net::TcpStream,
    activity: Arc<Activity>,
}

impl tokio::io::AsyncRead for Watched {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch();
            self.activity.received.store(true, Ordering::SeqCst);
        }
        self.activity
            .waiting
            .store(polled.is_pending(), Ordering::SeqCst);
        polled
    }
}

impl tokio::io::AsyncWrite for Watched {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let polled = std::pin::Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, std::task::Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

async fn answer(health: &Health, request: Request<Incoming>) -> Response<Full<Bytes>> {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return text(StatusCode::METHOD_NOT_ALLOWED, "only GET\n".into());
    }
    match request.uri().path() {
        "/metrics" => {
            let body = health.render().await;
            let mut response = text(StatusCode::OK, body);
            response.headers_mut().insert(
                hyper::header::CONTENT_TYPE,
                hyper::header::HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
            );
            response
        }
        "/healthz" => status(health.problem().await),
        "/readyz" => status(health.not_ready().await),
        _ => text(
            StatusCode::NOT_FOUND,
            "not found: /metrics, /healthz or /readyz\n".into(),
        ),
    }
}

fn status(problem: Option<String>) -> Response<Full<Bytes>> {
    match problem {
        None => text(StatusCode::OK, "ok\n".into()),
        Some(reason) => text(StatusCode::SERVICE_UNAVAILABLE, format!("{reason}\n")),
    }
}

fn text(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
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

    /// A listener on a loopback port with `limits`, without tables (`/healthz` answers 503 at once).
    async fn listener(limits: ListenerLimits) -> SocketAddr {
        let health = Arc::new(Health {
            tables: OnceLock::new(),
            gateway: OnceLock::new(),
            restored: AtomicBool::new(false),
            prometheus: PrometheusBuilder::new().build_recorder().handle(),
        });
        serve_with(([127, 0, 0, 1], 0).into(), health, limits)
            .await
            .expect("bind")
    }

    /// `GET /healthz` on a new connection: the status line, and how long it took.
    async fn healthz(address: SocketAddr) -> (String, Duration) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let started = std::time::Instant::now();
        let mut stream = tokio::net::TcpStream::connect(address)
            .await
            .expect("connect");
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n")
            .await
            .expect("write");
        let mut answer = String::new();
        tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer))
            .await
            .expect("an answer within 5 s")
            .expect("read");
        let status = answer.lines().next().unwrap_or_default().to_string();
        (status, started.elapsed())
    }

    /// Whether the server closed `stream` (it reads the end, not nothing) within `within`.
    async fn closed_by_server(stream: &mut tokio::net::TcpStream, within: Duration) -> bool {
        use tokio::io::AsyncReadExt;
        let mut byte = [0u8; 1];
        matches!(
            tokio::time::timeout(within, stream.read(&mut byte)).await,
            Ok(Ok(0) | Err(_))
        )
    }

    /// Issue 33: 300 idle connections used every file handle and `/healthz` timed out. Now at most
    /// `max_connections` stay open (a new one closes the oldest) and a health check still answers
    /// quickly among many idle connections.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn idle_connections_are_bounded_and_health_checks_still_answer() {
        let limits = ListenerLimits {
            max_connections: 16,
            idle_timeout: Duration::from_secs(60),
            grace: Duration::from_millis(100),
            ceiling: 64,
        };
        let address = listener(limits).await;
        let mut idle = Vec::new();
        for _ in 0..200 {
            idle.push(
                tokio::net::TcpStream::connect(address)
                    .await
                    .expect("connect"),
            );
        }
        // Never more than the ceiling, even while the flood's connections are within their grace
        // (once the listener has accepted the last of them).
        tokio::time::sleep(Duration::from_millis(50)).await;
        let mut open = 0;
        for stream in &mut idle {
            if !closed_by_server(stream, Duration::from_millis(5)).await {
                open += 1;
            }
        }
        assert!(
            open <= limits.ceiling,
            "{open} connections open in the flood"
        );
        // Past the grace, the silent connections are idle: the next ones close them down to the bound.
        tokio::time::sleep(limits.grace * 2).await;
        for _ in 0..5 {
            let (status, took) = healthz(address).await;
            assert!(status.starts_with("HTTP/1.1 503"), "{status}");
            assert!(took < Duration::from_secs(1), "answered in {took:?}");
        }
        // The oldest idle connections were closed; never more than the bound stay open.
        let mut open = 0;
        for stream in &mut idle {
            if !closed_by_server(stream, Duration::from_millis(20)).await {
                open += 1;
            }
        }
        assert!(
            open <= limits.max_connections,
            "{open} idle connections open"
        );
        assert!(
            closed_by_server(&mut idle[0], Duration::from_millis(20)).await,
            "the oldest was closed"
        );
    }

    /// Issue 44.22: under a flood of new connections the listener closed the oldest ones, health
    /// checks waiting for their answer among them (4 of 40 dropped). Now every health check of a
    /// bounded flood (600 connections from 3 tasks at once, 8 kept) is answered, and the flood is
    /// still held to the bound afterwards.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_health_check_is_answered_during_a_connection_flood() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let limits = ListenerLimits {
            max_connections: 8,
            idle_timeout: Duration::from_secs(60),
            grace: Duration::from_millis(300),
            ceiling: 256,
        };
        let address = listener(limits).await;
        let mut floods = Vec::new();
        for _ in 0..3 {
            floods.push(tokio::spawn(async move {
                let mut held = Vec::new();
                for _ in 0..200 {
                    if let Ok(stream) = tokio::net::TcpStream::connect(address).await {
                        held.push(stream);
                    }
                }
                held
            }));
        }
        // The checks are spread over the flood.
        let mut checks = Vec::new();
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(2)).await;
            checks.push(tokio::spawn(async move {
                let mut stream = tokio::net::TcpStream::connect(address).await.ok()?;
                stream
                    .write_all(b"GET /healthz HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n")
                    .await
                    .ok()?;
                let mut answer = String::new();
                tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer))
                    .await
                    .ok()?
                    .ok()?;
                answer.lines().next().map(str::to_string)
            }));
        }
        let mut answered = 0;
        for check in checks {
            if check
                .await
                .expect("the check ran")
                .is_some_and(|status| status.starts_with("HTTP/1.1 503"))
            {
                answered += 1;
            }
        }
        let mut idle = Vec::new();
        for flood in floods {
            idle.extend(flood.await.expect("the flood ran"));
        }
        assert_eq!(answered, 40, "health checks answered during the flood");
        assert_eq!(idle.len(), 600, "the flood's connections");
        // One more connection after the flood, once the flood's connections are past their grace:
        // they are closed down to the bound.
        tokio::time::sleep(limits.grace * 2).await;
        let (status, _) = healthz(address).await;
        assert!(status.starts_with("HTTP/1.1 503"), "{status}");
        let mut open = 0;
        for stream in &mut idle {
            if !closed_by_server(stream, Duration::from_millis(5)).await {
                open += 1;
            }
        }
        assert!(
            open <= limits.max_connections,
            "{open} idle connections open"
        );
    }

    /// Issue 33: an idle connection is closed after the idle timeout (it stayed open for 30 s), a
    /// connection that is being answered is not.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn idle_connections_are_closed_after_the_timeout() {
        let limits = ListenerLimits {
            max_connections: 16,
            idle_timeout: Duration::from_millis(400),
            ..ListenerLimits::default()
        };
        let address = listener(limits).await;
        let mut silent = tokio::net::TcpStream::connect(address)
            .await
            .expect("connect");
        assert!(
            !closed_by_server(&mut silent, Duration::from_millis(200)).await,
            "open before the timeout"
        );
        assert!(
            closed_by_server(&mut silent, Duration::from_secs(2)).await,
            "closed after the timeout"
        );
        let (status, _) = healthz(address).await;
        assert!(status.starts_with("HTTP/1.1 503"), "{status}");
    }

    #[test]
    fn resident_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|b| b > 1024 * 1024));
        }
    }
}
