//! The bot's HTTP listener (`[metrics] listen`, off by default): one socket, its connections kept
//! within bounds (idle ones closed, a flood held to a ceiling), each request answered by a [`Site`].
//! Today the site is [`Health`](super::health::Health) (`/metrics`, `/healthz`, `/readyz`); a face
//! that serves pages of its own answers through a site of its own and hands these paths on.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};

use super::error::StartError;

/// Longest request head the listener reads: it serves short GETs only.
const MAX_HEAD_BYTES: usize = 8 * 1024;

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

/// Binds `address` and serves `site` until the process ends. An address that cannot be bound is a
/// start-up error.
pub async fn serve(address: SocketAddr, site: Arc<dyn Site>) -> Result<SocketAddr, StartError> {
    serve_with(address, site, ListenerLimits::default()).await
}

/// [`serve`] with its bounds on connections given.
pub async fn serve_with(
    address: SocketAddr,
    site: Arc<dyn Site>,
    limits: ListenerLimits,
) -> Result<SocketAddr, StartError> {
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|e| {
        StartError::Config(format!("metrics.listen: cannot listen on {address}: {e}"))
    })?;
    let bound = listener.local_addr().unwrap_or(address);
    tracing::info!(address = %bound, "metrics and health on http://{bound}/metrics, /healthz, /readyz");
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
            let site = site.clone();
            let closed = open.clone();
            let activity = Arc::new(Activity::new());
            let watched = activity.clone();
            // Held while the task is spawned: it cannot remove itself before it is added.
            let mut connections = lock_open(&open);
            let id = connections.next_id();
            let task = tokio::spawn(async move {
                serve_connection(stream, site, watched, limits.idle_timeout).await;
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
    site: Arc<dyn Site>,
    activity: Arc<Activity>,
    idle: Duration,
) {
    let seen = activity.clone();
    let service = hyper::service::service_fn(move |request| {
        let site = site.clone();
        let activity = seen.clone();
        // Counted as soon as hyper hands the request over (before the answer is first polled, while
        // hyper may already read on and find nothing), so the connection is never taken for idle.
        activity.busy.fetch_add(1, Ordering::SeqCst);
        async move {
            let response = site.answer(request).await;
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

/// A future on the heap, as a trait object's method returns it.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the listener answers: a request in, its response out.
pub trait Site: Send + Sync + 'static {
    /// The response to `request`.
    fn answer(&self, request: Request<Incoming>) -> BoxFuture<'_, Response<Full<Bytes>>>;
}

/// A plain-text response.
pub fn text(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::health::Health;
    use metrics_exporter_prometheus::PrometheusBuilder;

    /// A listener on a loopback port with `limits`, without tables (`/healthz` answers 503 at once).
    async fn listener(limits: ListenerLimits) -> SocketAddr {
        let health = Arc::new(Health::with_prometheus(
            PrometheusBuilder::new().build_recorder().handle(),
        ));
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
}
