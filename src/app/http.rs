//! The bot's HTTP server (`[metrics] listen`, off by default): one socket, its connections kept
//! within bounds (idle ones closed, a flood held to a ceiling), each request answered by one axum
//! [`Router`] that the app builds from the routes every part of the bot adds through a [`Site`]. Today
//! the only site is [`Health`](super::health::Health) (`/metrics`, `/healthz`, `/readyz`); a face
//! that serves pages of its own adds a site of its own (`App::start_serving`).
//!
//! The accept loop and its limits are ours (axum's `serve` has none of them): each accepted
//! connection is served by hyper with the router as its service, behind a bound on request bodies
//! ([`MAX_BODY_BYTES`]) and a timeout on each answer ([`ANSWER_TIMEOUT`]). Each request carries its
//! peer's address as axum's [`ConnectInfo`] (`ConnectInfo<SocketAddr>`).
//!
//! A connection may be upgraded (a WebSocket: the web page's live channel, `web::live`). Once its
//! `101 Switching Protocols` is written, hyper hands the socket over to the route's own task and the
//! connection leaves the listener: it no longer counts towards [`MAX_CONNECTIONS`] or [`CEILING`], is
//! never closed as the oldest idle one, and neither the idle rule nor [`MAX_CONNECTION_TIME`] cuts it.
//! The live channel keeps rules of its own instead (caps per address and in all, pings).

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::handler::Handler;
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use tower::ServiceExt;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

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

/// A connection is closed after this long whatever it does (until it is upgraded: see the module's
/// documentation).
const MAX_CONNECTION_TIME: Duration = Duration::from_secs(30);

/// Largest request body the server takes (the health routes read none; the pages' requests to come
/// are small): a longer one is answered 413 Payload Too Large, at once when its `Content-Length` says
/// so, otherwise when a route reads past the bound.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Longest time an answer may take (the health check's store check gives up after 3 s): a request not
/// answered by then is answered 503 Service Unavailable, so that a stuck answer neither holds its
/// connection until [`MAX_CONNECTION_TIME`] nor leaves a health check without an answer.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

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
    /// A connection is closed after this long whatever it does, unless it was upgraded.
    pub max_time: Duration,
}

impl Default for ListenerLimits {
    fn default() -> Self {
        ListenerLimits {
            max_connections: MAX_CONNECTIONS,
            idle_timeout: IDLE_TIMEOUT,
            grace: GRACE,
            ceiling: CEILING,
            max_time: MAX_CONNECTION_TIME,
        }
    }
}

/// Binds `address` and answers its requests with `app` (see [`router`]) until the process ends. An
/// address that cannot be bound is a start-up error.
pub async fn serve(address: SocketAddr, app: Router) -> Result<SocketAddr, StartError> {
    serve_with(address, app, ListenerLimits::default()).await
}

/// [`serve`] with its bounds on connections given.
pub async fn serve_with(
    address: SocketAddr,
    app: Router,
    limits: ListenerLimits,
) -> Result<SocketAddr, StartError> {
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|e| {
        StartError::Config(format!("metrics.listen: cannot listen on {address}: {e}"))
    })?;
    let bound = listener.local_addr().unwrap_or(address);
    tracing::debug!(address = %bound, "listening on http://{bound}/");
    let open = Arc::new(Mutex::new(Open::default()));
    tokio::spawn(async move {
        loop {
            let (stream, peer) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!("metrics listener: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let app = app.clone();
            let closed = open.clone();
            let activity = Arc::new(Activity::new());
            let watched = activity.clone();
            // Held while the task is spawned: it cannot remove itself before it is added.
            let mut connections = lock_open(&open);
            let id = connections.next_id();
            let task = tokio::spawn(async move {
                serve_connection(stream, peer, app, watched, &limits).await;
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

/// Serves one connection from `peer` until it ends, is upgraded (its socket then belongs to the
/// route that upgraded it), stays idle for the limits' idle timeout (no byte either way and no
/// request being answered), or has been open for their `max_time`.
async fn serve_connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    activity: Arc<Activity>,
    limits: &ListenerLimits,
) {
    let idle = limits.idle_timeout;
    let seen = activity.clone();
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let app = app.clone();
        let activity = seen.clone();
        // Counted as soon as hyper hands the request over (before the answer is first polled, while
        // hyper may already read on and find nothing), so the connection is never taken for idle.
        activity.busy.fetch_add(1, Ordering::SeqCst);
        async move {
            // A router answers every request (its errors are responses too).
            let response = app.oneshot(request).await;
            // Not idle again until hyper has written the answer and reads on.
            activity.waiting.store(false, Ordering::SeqCst);
            activity.busy.fetch_sub(1, Ordering::SeqCst);
            activity.touch();
            response
        }
    });
    let io = hyper_util::rt::TokioIo::new(Watched {
        inner: stream,
        activity: activity.clone(),
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(io, service)
        // Done once upgraded: the socket is the upgrading route's from then on.
        .with_upgrades();
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
        _ = tokio::time::timeout(limits.max_time, connection) => {}
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

/// A part of the bot that answers some paths of the server: it adds its routes to the app's router.
pub trait Site: Send + Sync + 'static {
    /// This part's routes (each path answered by one part only: two parts naming the same path is a
    /// mistake that [`router`] panics on, once, as the app starts).
    fn routes(self: Arc<Self>) -> Router;

    /// The paths that the answer to an unknown path names (none: this part's are not named).
    fn paths(&self) -> &'static [&'static str] {
        &[]
    }
}

/// The app's router: every route of `sites`, the answer to an unknown path (404, naming the sites'
/// [`Site::paths`]) or an unknown method (405), the bound on request bodies ([`MAX_BODY_BYTES`]) and
/// the timeout on answers ([`ANSWER_TIMEOUT`]).
pub fn router(sites: impl IntoIterator<Item = Arc<dyn Site>>) -> Router {
    router_timing_out(sites, ANSWER_TIMEOUT)
}

/// [`router`] with answers given up after `timeout`.
fn router_timing_out(sites: impl IntoIterator<Item = Arc<dyn Site>>, timeout: Duration) -> Router {
    let mut app = Router::new();
    let mut paths = Vec::new();
    for site in sites {
        paths.extend_from_slice(site.paths());
        app = app.merge(site.routes());
    }
    let unknown = not_found_text(&paths);
    app.fallback(move |method: Method| async move {
        if method == Method::GET || method == Method::HEAD {
            text(StatusCode::NOT_FOUND, unknown)
        } else {
            only_get_answer()
        }
    })
    .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
    .layer(TimeoutLayer::with_status_code(
        StatusCode::SERVICE_UNAVAILABLE,
        timeout,
    ))
}

/// A route that answers `GET` (and `HEAD`, without the body) with `handler`, and any other method
/// with 405 Method Not Allowed.
pub fn only_get<H, T, S>(handler: H) -> MethodRouter<S>
where
    H: Handler<T, S>,
    T: 'static,
    S: Clone + Send + Sync + 'static,
{
    axum::routing::get(handler).fallback(|| async { only_get_answer() })
}

fn only_get_answer() -> Response {
    text(StatusCode::METHOD_NOT_ALLOWED, "only GET\n".into())
}

/// The answer's text to an unknown path: `not found: /a, /b or /c`.
fn not_found_text(paths: &[&str]) -> String {
    let named = match paths {
        [] => String::new(),
        [one] => format!(": {one}"),
        [first @ .., last] => format!(": {} or {last}", first.join(", ")),
    };
    format!("not found{named}\n")
}

/// A plain-text response.
pub fn text(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// Asking a router in-process (for the router tests here and in the sites' modules).
#[cfg(test)]
pub(crate) mod test_kit {
    use axum::body::Body;
    use axum::http::{header, Method, Request, StatusCode};
    use axum::Router;
    use tower::ServiceExt;

    /// What a router answered: the status, the content type and the body as text.
    #[derive(Debug)]
    pub struct Answer {
        pub status: StatusCode,
        pub content_type: Option<String>,
        pub body: String,
        pub headers: axum::http::HeaderMap,
    }

    /// `method path` with `body` (its `Content-Length` said when `sized`), answered by `app`.
    pub async fn ask_with(
        app: &Router,
        method: Method,
        path: &str,
        body: Vec<u8>,
        sized: bool,
    ) -> Answer {
        let mut request = Request::builder().method(method).uri(path);
        if sized {
            request = request.header(header::CONTENT_LENGTH, body.len());
        }
        let request = request.body(Body::from(body)).expect("a request");
        let response = app.clone().oneshot(request).await.expect("an answer");
        let status = response.status();
        let headers = response.headers().clone();
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
            .await
            .expect("the body");
        Answer {
            status,
            content_type,
            body: String::from_utf8_lossy(&bytes).into_owned(),
            headers,
        }
    }

    /// `method path` without a body, answered by `app`.
    pub async fn ask(app: &Router, method: Method, path: &str) -> Answer {
        ask_with(app, method, path, Vec::new(), false).await
    }
}

#[cfg(test)]
mod tests {
    use super::test_kit::{ask, ask_with};
    use super::*;
    use crate::app::health::Health;
    use metrics_exporter_prometheus::PrometheusBuilder;

    /// A site beside the health routes, as a face with pages of its own adds: `POST /echo` answers
    /// the body it read, `GET /slow` takes a minute, `GET /peer` answers the asker's address and
    /// `GET /ws` is a WebSocket that answers every text with the same text.
    struct Echo;

    impl Site for Echo {
        fn routes(self: Arc<Self>) -> Router {
            Router::new()
                .route(
                    "/echo",
                    axum::routing::post(|body: axum::body::Bytes| async move { body }),
                )
                .route(
                    "/slow",
                    only_get(|| async {
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        "late"
                    }),
                )
                .route(
                    "/peer",
                    only_get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move {
                        peer.ip().to_string()
                    }),
                )
                .route("/ws", only_get(echo_socket))
        }

        fn paths(&self) -> &'static [&'static str] {
            &["/echo"]
        }
    }

    /// [`Echo`]'s WebSocket: every text comes back.
    async fn echo_socket(ws: axum::extract::ws::WebSocketUpgrade) -> Response {
        use axum::extract::ws::Message;
        ws.on_upgrade(|mut socket| async move {
            while let Some(Ok(message)) = socket.recv().await {
                if matches!(message, Message::Text(_)) && socket.send(message).await.is_err() {
                    break;
                }
            }
        })
    }

    /// The health routes and [`Echo`], as the app builds them.
    fn app() -> Router {
        let health = Arc::new(Health::with_prometheus(
            PrometheusBuilder::new().build_recorder().handle(),
        ));
        router([health as Arc<dyn Site>, Arc::new(Echo)])
    }

    /// An unknown path is 404 with the known paths named, as the listener answered before the router;
    /// another method than GET or HEAD there is 405.
    #[tokio::test]
    async fn an_unknown_path_is_not_found_and_names_the_known_ones() {
        let app = app();
        for method in [Method::GET, Method::HEAD] {
            let answer = ask(&app, method.clone(), "/nothing").await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{method}");
            assert_eq!(
                answer.content_type.as_deref(),
                Some("text/plain; charset=utf-8")
            );
            let expected = if method == Method::HEAD {
                ""
            } else {
                "not found: /metrics, /healthz, /readyz or /echo\n"
            };
            assert_eq!(answer.body, expected, "{method}");
        }
        for method in [Method::POST, Method::PUT, Method::DELETE] {
            let answer = ask(&app, method.clone(), "/nothing").await;
            assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
            assert_eq!(answer.body, "only GET\n");
        }
        // Only the health routes: the answer names them alone, as before.
        let health = Arc::new(Health::with_prometheus(
            PrometheusBuilder::new().build_recorder().handle(),
        ));
        let answer = ask(&router([health as Arc<dyn Site>]), Method::GET, "/x").await;
        assert_eq!(answer.body, "not found: /metrics, /healthz or /readyz\n");
    }

    /// The text naming the known paths reads as a sentence for any number of them.
    #[test]
    fn the_not_found_text_names_any_number_of_paths() {
        assert_eq!(not_found_text(&[]), "not found\n");
        assert_eq!(not_found_text(&["/a"]), "not found: /a\n");
        assert_eq!(not_found_text(&["/a", "/b"]), "not found: /a or /b\n");
    }

    /// A site's routes are answered beside the health routes (`POST /echo`), and a request body
    /// beyond [`MAX_BODY_BYTES`] is refused with 413: at once when its length is said (on any
    /// route, the health routes too), and when a route reads past the bound when it is not.
    #[tokio::test]
    async fn a_request_body_over_the_bound_is_refused() {
        let app = app();
        let small = ask_with(&app, Method::POST, "/echo", b"hello".to_vec(), true).await;
        assert_eq!(small.status, StatusCode::OK);
        assert_eq!(small.body, "hello");
        let at_bound = ask_with(
            &app,
            Method::POST,
            "/echo",
            vec![b'a'; MAX_BODY_BYTES],
            false,
        )
        .await;
        assert_eq!(at_bound.status, StatusCode::OK);
        assert_eq!(at_bound.body.len(), MAX_BODY_BYTES);
        let over = vec![b'a'; MAX_BODY_BYTES + 1];
        for sized in [true, false] {
            let answer = ask_with(&app, Method::POST, "/echo", over.clone(), sized).await;
            assert_eq!(
                answer.status,
                StatusCode::PAYLOAD_TOO_LARGE,
                "sized: {sized}"
            );
        }
        for path in ["/healthz", "/metrics", "/nothing"] {
            let answer = ask_with(&app, Method::GET, path, over.clone(), true).await;
            assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE, "{path}");
        }
    }

    /// A site's route that answers GET only is 405 for another method, with the methods it allows.
    #[tokio::test]
    async fn a_get_route_refuses_other_methods() {
        let app = app();
        let answer = ask(&app, Method::POST, "/slow").await;
        assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(answer.body, "only GET\n");
        assert_eq!(
            answer
                .headers
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok()),
            Some("GET,HEAD")
        );
        let answer = ask(&app, Method::GET, "/echo").await;
        assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED);
    }

    /// An answer that takes longer than the timeout ([`ANSWER_TIMEOUT`], here 200 ms) is given up:
    /// 503 instead of a connection held until [`MAX_CONNECTION_TIME`].
    #[tokio::test]
    async fn an_answer_that_takes_too_long_is_503() {
        let app = router_timing_out(
            [Arc::new(Echo) as Arc<dyn Site>],
            Duration::from_millis(200),
        );
        let started = std::time::Instant::now();
        let answer = ask(&app, Method::GET, "/slow").await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(200) && took < Duration::from_secs(5),
            "{took:?}"
        );
        assert!(ANSWER_TIMEOUT < MAX_CONNECTION_TIME);
    }

    /// A listener on a loopback port with `limits`, without tables (`/healthz` answers 503 at once).
    async fn listener(limits: ListenerLimits) -> SocketAddr {
        let health = Arc::new(Health::with_prometheus(
            PrometheusBuilder::new().build_recorder().handle(),
        ));
        serve_with(([127, 0, 0, 1], 0).into(), router([health as _]), limits)
            .await
            .expect("bind")
    }

    /// A listener on a loopback port with `limits`, serving [`app`] (the health routes and [`Echo`]).
    async fn listener_with_echo(limits: ListenerLimits) -> SocketAddr {
        serve_with(([127, 0, 0, 1], 0).into(), app(), limits)
            .await
            .expect("bind")
    }

    /// A WebSocket client on `address`'s `/ws`.
    type Client = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;

    async fn open_socket(address: SocketAddr) -> Client {
        let (socket, response) = tokio_tungstenite::connect_async(format!("ws://{address}/ws"))
            .await
            .expect("the WebSocket opens");
        assert_eq!(response.status(), StatusCode::SWITCHING_PROTOCOLS);
        socket
    }

    /// Whether `socket` answers `text` with the same text within a second.
    async fn echoes(socket: &mut Client, text: &str) -> bool {
        use futures_util::{SinkExt, StreamExt};
        use tokio_tungstenite::tungstenite::Message;
        if socket.send(Message::Text(text.to_string())).await.is_err() {
            return false;
        }
        matches!(
            tokio::time::timeout(Duration::from_secs(1), socket.next()).await,
            Ok(Some(Ok(Message::Text(back)))) if back == text
        )
    }

    /// Issue 46: an upgraded connection (the live channel's WebSocket) leaves the listener's rules:
    /// it stays open past the longest time and the idle timeout, and a flood of new connections
    /// (beyond the bound and the ceiling) does not close it as the oldest idle one; meanwhile a
    /// plain idle connection is still closed and health checks are still answered.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_upgraded_connection_is_not_cut_by_the_connection_limits() {
        let limits = ListenerLimits {
            max_connections: 2,
            idle_timeout: Duration::from_millis(300),
            grace: Duration::from_millis(50),
            ceiling: 4,
            max_time: Duration::from_millis(600),
        };
        let address = listener_with_echo(limits).await;
        let mut sockets = Vec::new();
        for _ in 0..3 {
            sockets.push(open_socket(address).await);
        }
        let mut plain = tokio::net::TcpStream::connect(address)
            .await
            .expect("connect");
        let mut flood = Vec::new();
        for _ in 0..20 {
            flood.push(
                tokio::net::TcpStream::connect(address)
                    .await
                    .expect("connect"),
            );
        }
        tokio::time::sleep(limits.grace * 2).await;
        let (status, took) = healthz(address).await;
        assert!(status.starts_with("HTTP/1.1 503"), "{status}");
        assert!(took < Duration::from_secs(1), "answered in {took:?}");
        assert!(
            closed_by_server(&mut plain, Duration::from_secs(2)).await,
            "a plain idle connection is still closed"
        );
        // Silent past the idle timeout and open past the longest time.
        tokio::time::sleep(limits.max_time).await;
        for (i, socket) in sockets.iter_mut().enumerate() {
            assert!(
                echoes(socket, &format!("still here {i}")).await,
                "socket {i}"
            );
        }
    }

    /// A plain connection is still closed after the longest time (here 500 ms), even while it asks.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_plain_connection_is_closed_after_the_longest_time() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let limits = ListenerLimits {
            max_time: Duration::from_millis(500),
            ..ListenerLimits::default()
        };
        let address = listener(limits).await;
        let mut stream = tokio::net::TcpStream::connect(address)
            .await
            .expect("connect");
        let started = std::time::Instant::now();
        let mut answered = 0;
        let mut buffer = [0u8; 4096];
        while started.elapsed() < Duration::from_secs(3) {
            let asked = stream
                .write_all(b"GET /healthz HTTP/1.1\r\nHost: bot\r\n\r\n")
                .await;
            let read = tokio::time::timeout(Duration::from_secs(1), stream.read(&mut buffer)).await;
            match (asked, read) {
                (Ok(()), Ok(Ok(n))) if n > 0 => answered += 1,
                _ => break,
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let took = started.elapsed();
        assert!(answered >= 3, "{answered} answers");
        assert!(
            took >= Duration::from_millis(450) && took < Duration::from_millis(2500),
            "closed after {took:?}"
        );
    }

    /// Every request knows the address it came from (`ConnectInfo`), for limits per address.
    #[tokio::test]
    async fn a_route_knows_its_peer() {
        let address = listener_with_echo(ListenerLimits::default()).await;
        let answer = raw(
            address,
            b"GET /peer HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n",
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with("\r\n\r\n127.0.0.1"), "{answer}");
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
            ..ListenerLimits::default()
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
            ..ListenerLimits::default()
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

    /// `request` sent on a new connection to `address`: the whole answer as the server wrote it.
    async fn raw(address: SocketAddr, request: &[u8]) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut stream = tokio::net::TcpStream::connect(address)
            .await
            .expect("connect");
        stream.write_all(request).await.expect("write");
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
            .await
            .expect("an answer within 5 s")
            .expect("read");
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// On the wire, `HEAD` is answered with `GET`'s status and length but no body, a request body
    /// longer than the bound is 413 and a short one is not read (405 for `POST`), and the
    /// connection is closed as asked.
    #[tokio::test]
    async fn the_wire_answers_as_the_router_does() {
        let address = listener(ListenerLimits::default()).await;
        let get = raw(
            address,
            b"GET /healthz HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n",
        )
        .await
        .to_ascii_lowercase();
        assert!(get.starts_with("http/1.1 503"), "{get}");
        assert!(get.contains("content-length: 29\r\n"), "{get}");
        assert!(
            get.ends_with("\r\n\r\nthe database is not open yet\n"),
            "{get}"
        );
        let head = raw(
            address,
            b"HEAD /healthz HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n",
        )
        .await
        .to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 503"), "{head}");
        assert!(head.contains("content-length: 29\r\n"), "{head}");
        assert!(head.ends_with("\r\n\r\n"), "{head}");
        let post = raw(
            address,
            b"POST /healthz HTTP/1.1\r\nHost: bot\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi",
        )
        .await;
        assert!(post.starts_with("HTTP/1.1 405"), "{post}");
        assert!(post.ends_with("only GET\n"), "{post}");
        let big = format!(
            "POST /healthz HTTP/1.1\r\nHost: bot\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY_BYTES + 1
        );
        let refused = raw(address, big.as_bytes()).await;
        assert!(refused.starts_with("HTTP/1.1 413"), "{refused}");
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
