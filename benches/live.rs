//! Issues 46 and 47: the live channel's fan-out (`web::live`) over real local sockets, served by the
//! app's listener (`app::http::serve`). Prints (no criterion: each figure is one long run):
//! - the memory per idle watcher: the process's RSS (`/proc/self/status`) before and after
//!   `LIVE_IDLE` (2,000 unless set) watchers open a socket on a running game and take its view; the
//!   sockets' client ends run in a child process (this program started again), so only the server's
//!   side counts; and the same for as many seated players' sockets, one per seat of `LIVE_IDLE` / 2
//!   running games (each gets a frame of its own, with its hand);
//! - one game watched by `LIVE_ONE` (2,000) sockets: from a move accepted (`Tables::serve` returned) to
//!   its frame read by every watcher, p50 and p99 over `LIVE_MOVES` (40) moves; then another game with
//!   as many watchers and its two players each on a live socket of their own: the same, read by every
//!   watcher, by every seated socket, and by all;
//! - 240 games watched by 10 sockets each: a move in every game, one after the other as fast as they
//!   are accepted, `LIVE_ROUNDS` (5) times; from each move accepted to its frame read by its 10
//!   watchers, p50 and p99; then 240 other games with 10 watchers and their two players' sockets each
//!   (480 seated sockets), the same figures as for the one game.
//!
//! A seated player's socket is what a page opens for its player, a web page's guest (the guest
//! cookie's user id) or an Activity session (`?activity=`: its Discord user's id): in both, the web
//! face's route (`src/web/api.rs`, `live_channel`) reads who asks and hands `web::live::socket` the
//! channel and that user id as the viewer; from there on nothing tells the two apart. So the bench
//! mounts `web::live::socket` as the watchers' route does, with the seated user's id as the viewer.
//! Every frame a seated socket reads is checked: the view's `you` is its own seat's, it holds the only
//! hand in the frame, and after every move that hand is its seat's hand in the game (the engine's),
//! never the other seat's; every watcher's last frame has no seat and no hand. The bench fails loudly
//! otherwise.
//!
//! `cargo bench --bench live` (Linux; it raises its open-file limit to the hard limit; each run's
//! sockets are closed before the next run opens its own).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, State};
use axum::response::Response;
use axum::Router;
use futures_util::StreamExt;
use sequence_bot::app::http::{only_get, router, serve, Site};
use sequence_bot::engine::{GameRng, Move, MoveList, Options, Variant};
use sequence_bot::i18n::Lang;
use sequence_bot::service::{
    Actor, ChannelId, Command, FaceId, Limits, RandomPicker, Request, Settings, Tables, Timestamp,
    UserId,
};
use sequence_bot::web::live::{socket, Live, LiveLimits};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// Set in the child process that holds the idle sockets: `address kind first count` (`kind`:
/// `watch`, `count` watchers of channel `first`; `seat`, a socket for each seat of the games in the
/// channels from `first` on, `count` in all).
const CHILD: &str = "LIVE_BENCH_IDLE_CHILD";

fn number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    raise_open_files();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    if let Ok(child) = std::env::var(CHILD) {
        runtime.block_on(hold_idle_sockets(&child));
        return;
    }
    runtime.block_on(async {
        let tables = tables();
        let limits = LiveLimits {
            per_address: usize::MAX,
            sockets: 100_000,
            ..LiveLimits::default()
        };
        let live = Live::with_limits(tables.clone(), limits);
        let address = served(&live).await;
        let idle = number("LIVE_IDLE", 2000);
        // The watchers stay open while the seated sockets are measured: the memory of sockets closed
        // before would be taken again by the new ones without showing in RSS.
        let watchers = idle_memory(&tables, address, Idle::Watchers, idle).await;
        let seated = idle_memory(&tables, address, Idle::Seated, idle).await;
        seated.close().await;
        watchers.close().await;
        let (one, moves) = (number("LIVE_ONE", 2000), number("LIVE_MOVES", 40));
        let rounds = number("LIVE_ROUNDS", 5);
        one_game(&tables, address, 1, one, Seated::No, moves).await;
        one_game(&tables, address, 2, one, Seated::Yes, moves).await;
        many_games(&tables, address, 10_000, 240, 10, Seated::No, rounds).await;
        many_games(&tables, address, 20_000, 240, 10, Seated::Yes, rounds).await;
    });
}

/// The open-file limit raised to the hard limit (each socket is two handles here: both ends).
fn raise_open_files() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct given, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// The live route as the web face mounts it (who asks read already), in English:
/// - `/live/{channel}/{viewer}`: a watcher, with a guest's user id of its own (as pages with a guest
///   cookie have; none is seated, so each is checked and given the shared view);
/// - `/seat/{channel}/{user}`: the page of the player `user` (a web guest or an Activity session:
///   the same call with their user id), given a view of their own.
struct Watching(Arc<Live>);

impl Site for Watching {
    fn routes(self: Arc<Self>) -> Router {
        Router::new()
            .route("/{who}/{channel}/{user}", only_get(live_route))
            .with_state(self.0.clone())
    }
}

async fn live_route(
    State(live): State<Arc<Live>>,
    Path((who, channel, user)): Path<(String, u64, u64)>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ws: WebSocketUpgrade,
) -> Response {
    let viewer = match who.as_str() {
        "seat" => UserId(user),
        _ => UserId(user | 1 << 63),
    };
    socket(
        live,
        ChannelId(channel),
        Some(viewer),
        Lang::En,
        peer.ip(),
        ws,
    )
    .await
}

async fn served(live: &Arc<Live>) -> SocketAddr {
    let app = router([Arc::new(Watching(live.clone())) as Arc<dyn Site>]);
    serve(([127, 0, 0, 1], 0).into(), app).await.expect("bind")
}

fn tables() -> Arc<Tables> {
    let settings = Settings {
        limits: Limits {
            tables_per_user: u32::MAX,
            tables_per_server: u32::MAX,
            server_posts_per_second: 1_000_000,
            server_post_burst: 1_000_000,
            rated_games_per_day: 0,
            ..Limits::default()
        },
        ..Settings::default()
    };
    Arc::new(Tables::new(settings, Arc::new(RandomPicker)))
}

async fn ask(tables: &Arc<Tables>, channel: u64, user: u64, command: Command) -> bool {
    let request = Request {
        guild: None,
        channel: ChannelId(channel),
        actor: Actor {
            user: UserId(user),
            name: format!("Player{user}"),
            can_manage: false,
            can_manage_guild: false,
        },
        command,
    };
    let (reply, pending) = tables.serve(request, FaceId::Web).await;
    drop(pending);
    !reply.is_refusal()
}

/// The two players of `channel`'s game (its host, then its guest).
fn players_of(channel: u64) -> [u64; 2] {
    [channel * 2 + 1, channel * 2 + 2]
}

/// A two-person classic game in `channel`, begun.
async fn open_game(tables: &Arc<Tables>, channel: u64) {
    let [host, guest] = players_of(channel);
    let start = Command::Start {
        variant: Variant::Classic,
        teams: None,
        options: Options::default(),
        rated: Some(false),
        turn_time: None,
        series: None,
    };
    assert!(ask(tables, channel, host, start).await);
    assert!(ask(tables, channel, guest, Command::Join { team: None }).await);
    assert!(ask(tables, channel, host, Command::Begin).await);
}

/// The seat of `user` in `channel`'s running game.
fn seat_of(tables: &Tables, channel: u64, user: u64) -> u8 {
    let table = tables.snapshot(ChannelId(channel)).expect("the table");
    let playing = table.playing().expect("its game");
    let seat = playing
        .seats
        .iter()
        .position(|player| player.user() == Some(UserId(user)))
        .expect("the player's seat");
    u8::try_from(seat).expect("a seat")
}

/// Every seat's hand in `channel`'s running game now (the engine's cards, in the order a view lists
/// them; none without a game).
fn hands(tables: &Tables, channel: u64) -> Vec<Vec<String>> {
    let Some(table) = tables.snapshot(ChannelId(channel)) else {
        return Vec::new();
    };
    let Some(playing) = table.playing() else {
        return Vec::new();
    };
    let game = playing.live.game();
    (0..playing.seats.len())
        .map(|seat| {
            let seat = u8::try_from(seat).expect("a seat");
            game.hand(seat).iter().map(ToString::to_string).collect()
        })
        .collect()
}

/// A random legal move in `channel`'s game (who and what), if it still runs.
fn next_move(tables: &Tables, channel: u64, rng: &mut GameRng) -> Option<(u64, Command)> {
    let table = tables.snapshot(ChannelId(channel))?;
    let playing = table.playing()?;
    let game = playing.live.game();
    let user = playing
        .seats
        .get(usize::from(game.position().to_move()))?
        .user()?;
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let moves: Vec<Move> = moves.into_iter().filter(|m| *m != Move::Pass).collect();
    let layout = game.position().layout();
    let chosen = *moves.get(rng.below(u32::try_from(moves.len()).ok()?) as usize)?;
    let command = Command::of_move(chosen, layout)?;
    Some((user.0, command))
}

/// A user id for the next watcher (each its own).
fn next_viewer() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Who a socket is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// A watcher: the shared frames.
    Watcher,
    /// The player of this seat: frames of its own.
    Seat(u8),
}

/// What one socket last read: the frame's version and when (nanoseconds from the run's base
/// instant), and the frames themselves for the checks, which are made outside the times measured.
struct Read {
    role: Role,
    version: AtomicU64,
    at: AtomicU64,
    /// A seated socket: every frame read since its last check. A watcher: its last frame.
    frames: Mutex<Vec<String>>,
}

impl Read {
    /// The frames kept, taken.
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.frames.lock().expect("the frames"))
    }
}

/// The client ends of a run's sockets, closed when dropped.
#[derive(Default)]
struct Clients(Vec<tokio::task::AbortHandle>);

impl Drop for Clients {
    fn drop(&mut self) {
        for client in &self.0 {
            client.abort();
        }
    }
}

/// Opens a socket on `path` as `role` whose reads are noted in the returned [`Read`] (times from
/// `base`); its client end is kept in `clients`.
async fn reader(
    address: SocketAddr,
    path: &str,
    role: Role,
    base: Instant,
    clients: &mut Clients,
) -> Arc<Read> {
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}{path}"))
        .await
        .expect("a live socket");
    let read = Arc::new(Read {
        role,
        version: AtomicU64::new(0),
        at: AtomicU64::new(0),
        frames: Mutex::new(Vec::new()),
    });
    let noted = read.clone();
    let task = tokio::spawn(async move {
        while let Some(Ok(message)) = socket.next().await {
            let Message::Text(text) = message else {
                continue;
            };
            let at = u64::try_from(base.elapsed().as_nanos()).unwrap_or(u64::MAX);
            let Some(version) = version_of(&text) else {
                continue;
            };
            noted.at.store(at, Ordering::SeqCst);
            {
                let mut frames = noted.frames.lock().expect("the frames");
                if noted.role == Role::Watcher {
                    frames.clear();
                }
                frames.push(text);
            }
            noted.version.store(version, Ordering::SeqCst);
        }
    });
    clients.0.push(task.abort_handle());
    read
}

/// A watcher of `channel`.
async fn watcher(
    address: SocketAddr,
    channel: u64,
    base: Instant,
    clients: &mut Clients,
) -> Arc<Read> {
    let path = format!("/live/{channel}/{}", next_viewer());
    reader(address, &path, Role::Watcher, base, clients).await
}

/// The socket of `user`, seated at `seat` of `channel`'s game.
async fn seated(
    address: SocketAddr,
    channel: u64,
    user: u64,
    seat: u8,
    base: Instant,
    clients: &mut Clients,
) -> Arc<Read> {
    let path = format!("/seat/{channel}/{user}");
    reader(address, &path, Role::Seat(seat), base, clients).await
}

/// The version at the start of a frame (`{"version":n,…`).
fn version_of(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("{\"version\":")?;
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..end].parse().ok()
}

/// The hand in a frame read by the player of `seat`: the view is theirs (`seat` and `you.seat`), and
/// its only hand is `view.you.hand`. Why not, otherwise.
fn seated_hand(text: &str, seat: u8) -> Result<Vec<String>, String> {
    let frame: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let view = &frame["view"];
    let mut places = Vec::new();
    hands_in(view, "view", &mut places);
    if places != ["view.you.hand"] {
        return Err(format!("hands at {places:?}, not only at view.you.hand"));
    }
    let seats = (view["seat"].as_u64(), view["you"]["seat"].as_u64());
    if seats != (Some(u64::from(seat)), Some(u64::from(seat))) {
        return Err(format!("the view of seat {seats:?}, not of seat {seat}"));
    }
    Ok(view["you"]["hand"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|card| card["code"].as_str().unwrap_or("?").to_string())
        .collect())
}

/// Where `value` (at `path`) holds a `hand`.
fn hands_in(value: &Value, path: &str, places: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let here = format!("{path}.{key}");
                if key == "hand" {
                    places.push(here.clone());
                }
                hands_in(inner, &here, places);
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                hands_in(inner, &format!("{path}[{i}]"), places);
            }
        }
        _ => {}
    }
}

/// Checks every frame `channel`'s seated sockets read since their last check, once every one has
/// read the channel's last event: each frame is its own seat's view and its only hand is the view's
/// `you.hand`; the last one's hand is its seat's hand in the game now, never another seat's. Panics
/// otherwise.
fn check_seated(tables: &Tables, channel: u64, seated: &[Arc<Read>]) {
    let hands = hands(tables, channel);
    for read in seated {
        let Role::Seat(seat) = read.role else {
            continue;
        };
        let frames = read.take();
        assert!(
            !frames.is_empty(),
            "channel {channel}, seat {seat}: the seated socket read no new frame"
        );
        let mut shown = Vec::new();
        for text in &frames {
            shown = seated_hand(text, seat).unwrap_or_else(|fault| {
                panic!("channel {channel}, seat {seat}: a seated socket's frame: {fault}")
            });
        }
        let Some(own) = hands.get(usize::from(seat)) else {
            // The game has ended: no hands to compare.
            continue;
        };
        assert_eq!(
            &shown, own,
            "channel {channel}, seat {seat}: the seated socket's hand is not its seat's"
        );
        for (other, hand) in hands.iter().enumerate() {
            assert!(
                other == usize::from(seat) || shown != *hand,
                "channel {channel}, seat {seat}: the seated socket was given seat {other}'s hand"
            );
        }
    }
}

/// Checks every watcher's last frame: a watcher's view, without a seat or a hand. Panics otherwise.
fn check_watchers(watchers: &[Arc<Read>]) {
    for read in watchers {
        let frames = read.take();
        let text = frames.last().expect("a watcher read no frame");
        let frame: Value = serde_json::from_str(text).expect("a watcher's frame is JSON");
        let mut places = Vec::new();
        hands_in(&frame, "frame", &mut places);
        assert!(
            places.is_empty() && frame["view"].get("you").is_none(),
            "a watcher was given a player's view: hands at {places:?}"
        );
        assert!(
            frame["view"].get("seat").is_none(),
            "a watcher was given a seat"
        );
    }
}

/// The channel's last event's sequence number, from `events` (read up to now).
fn last_sequence(
    events: &mut tokio::sync::broadcast::Receiver<sequence_bot::service::Event>,
    seen: &mut HashMap<u64, u64>,
) {
    while let Ok(event) = events.try_recv() {
        seen.insert(event.channel.0, event.sequence);
    }
}

/// When every socket in `reads` has read version `version` or later: the last read's time from the
/// run's base instant (up to 30 s); zero for no sockets.
async fn all_read(reads: &[Arc<Read>], version: u64) -> Duration {
    let started = Instant::now();
    loop {
        if reads
            .iter()
            .all(|r| r.version.load(Ordering::SeqCst) >= version)
        {
            let last = reads
                .iter()
                .map(|r| r.at.load(Ordering::SeqCst))
                .max()
                .unwrap_or(0);
            return Duration::from_nanos(last);
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "every socket read version {version}"
        );
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[index.min(samples.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `p50 a ms, p99 b ms, longest c ms` of `samples`.
fn figures(samples: &mut [Duration]) -> String {
    if samples.is_empty() {
        return "no samples".into();
    }
    format!(
        "p50 {:.1} ms, p99 {:.1} ms, longest {:.1} ms",
        ms(percentile(samples, 0.5)),
        ms(percentile(samples, 0.99)),
        ms(percentile(samples, 1.0)),
    )
}

/// The process's resident memory, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Which idle sockets [`idle_memory`] opens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Idle {
    /// Watchers of one running game.
    Watchers,
    /// A seated player's socket for each seat of running games (two a game).
    Seated,
}

/// Idle sockets held open: the child process with their client ends, and the first one.
struct Held {
    child: tokio::process::Child,
    first: Clients,
}

impl Held {
    /// Closes the sockets (the child's input closed: it ends).
    async fn close(mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait().await;
        drop(self.first);
    }
}

/// RSS before and after `count` idle sockets (their client ends in a child process) open on running
/// games: watchers of one game, or seated players' sockets (each game's two seats). They are held
/// open until [`Held::close`].
async fn idle_memory(tables: &Arc<Tables>, address: SocketAddr, idle: Idle, count: usize) -> Held {
    let (kind, first, games) = match idle {
        Idle::Watchers => ("watch", 900_000, 1),
        Idle::Seated => ("seat", 1_000_000, count.div_ceil(2).max(1) as u64),
    };
    // The games are opened before the first reading: only the sockets count.
    for channel in first..first + games {
        open_game(tables, channel).await;
    }
    // One socket first, on a game of its own, so that what every socket shares (the runtime's and
    // listener's first allocations) is not counted per socket.
    let warm = first + games;
    open_game(tables, warm).await;
    let base = Instant::now();
    let mut clients = Clients::default();
    let one = match idle {
        Idle::Watchers => watcher(address, warm, base, &mut clients).await,
        Idle::Seated => {
            let user = players_of(warm)[0];
            let seat = seat_of(tables, warm, user);
            seated(address, warm, user, seat, base, &mut clients).await
        }
    };
    all_read(std::slice::from_ref(&one), 1).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = rss_kib();
    let mut child = tokio::process::Command::new(std::env::current_exe().expect("this program"))
        .env(CHILD, format!("{address} {kind} {first} {count}"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the sockets' process");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().expect("its output")).lines();
    let ready = lines.next_line().await.expect("its output");
    assert_eq!(ready.as_deref(), Some("ready"), "the sockets are open");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = rss_kib();
    let viewer = (idle == Idle::Seated).then(|| UserId(players_of(first)[0]));
    let frame = tables
        .view(ChannelId(first), viewer, Lang::En, Timestamp::now())
        .map(|view| serde_json::to_string(&view).map_or(0, |s| s.len()))
        .unwrap_or(0);
    let per = (after.saturating_sub(before) as f64) * 1024.0 / count as f64;
    let (what, each) = match idle {
        Idle::Watchers => (
            format!("watchers: {count} sockets on a running game"),
            "idle watcher",
        ),
        Idle::Seated => (
            format!("seated players: {count} sockets, one per seat of {games} running games"),
            "idle seated player's socket",
        ),
    };
    println!(
        "idle {what} (a frame {frame} bytes): RSS {before} KiB before, {after} KiB after: {:.1} KB \
         per {each}",
        per / 1000.0
    );
    Held {
        child,
        first: clients,
    }
}

/// The child: opens the idle sockets `spec` names (see [`CHILD`]), reads each one's first frame,
/// says "ready" and holds them until its input closes.
async fn hold_idle_sockets(spec: &str) {
    let mut parts = spec.split(' ');
    let address: SocketAddr = parts.next().and_then(|a| a.parse().ok()).expect("address");
    let kind = parts.next().expect("kind").to_string();
    let first: u64 = parts.next().and_then(|c| c.parse().ok()).expect("first");
    let count: usize = parts.next().and_then(|c| c.parse().ok()).expect("count");
    let mut sockets = Vec::with_capacity(count);
    for i in 0..count {
        let path = if kind == "seat" {
            let channel = first + (i / 2) as u64;
            format!("/seat/{channel}/{}", players_of(channel)[i % 2])
        } else {
            format!("/live/{first}/{}", next_viewer())
        };
        let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}{path}"))
            .await
            .expect("a live socket");
        match socket.next().await {
            Some(Ok(Message::Text(_))) => {}
            other => panic!("the first frame: {other:?}"),
        }
        sockets.push(socket);
    }
    println!("ready");
    let mut input = Vec::new();
    let _ = tokio::io::stdin().read_to_end(&mut input).await;
    let _ = tokio::io::stdout().flush().await;
    drop(sockets);
}

/// Whether a run's games have their two players on a live socket each, beside the watchers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seated {
    No,
    Yes,
}

/// The sockets of one game in a run: its watchers and its seated players' sockets.
#[derive(Default)]
struct Sockets {
    watchers: Vec<Arc<Read>>,
    seated: Vec<Arc<Read>>,
}

impl Sockets {
    /// Opens `count` watchers of `channel` and, if `seated`, a socket for each of its two players.
    async fn open(
        tables: &Tables,
        address: SocketAddr,
        channel: u64,
        count: usize,
        seated_too: Seated,
        base: Instant,
        clients: &mut Clients,
    ) -> Sockets {
        let mut sockets = Sockets::default();
        for _ in 0..count {
            sockets
                .watchers
                .push(watcher(address, channel, base, clients).await);
        }
        if seated_too == Seated::Yes {
            for user in players_of(channel) {
                let seat = seat_of(tables, channel, user);
                sockets
                    .seated
                    .push(seated(address, channel, user, seat, base, clients).await);
            }
        }
        sockets
    }
}

/// The times of one run's moves: from each move accepted to its frame read by every watcher, by every
/// seated socket, and by all.
#[derive(Default)]
struct Samples {
    watchers: Vec<Duration>,
    seated: Vec<Duration>,
    all: Vec<Duration>,
}

impl Samples {
    /// Waits until `sockets` have read `version` (after the move `accepted`, from the run's base) and
    /// notes the times.
    async fn read(&mut self, sockets: &Sockets, version: u64, accepted: Duration) {
        let watchers = all_read(&sockets.watchers, version).await;
        let seated = all_read(&sockets.seated, version).await;
        self.watchers.push(watchers.saturating_sub(accepted));
        if !sockets.seated.is_empty() {
            self.seated.push(seated.saturating_sub(accepted));
        }
        self.all.push(watchers.max(seated).saturating_sub(accepted));
    }

    /// The figures as printed: by every watcher, and with seated sockets by them and by all.
    fn print(&mut self, what: &str, moves: &str) {
        let n = self.watchers.len();
        if self.seated.is_empty() {
            println!(
                "{what}: from a move accepted to its frame read by every watcher, {} ({n} moves{moves})",
                figures(&mut self.watchers)
            );
        } else {
            println!(
                "{what}: from a move accepted to its frame read by every watcher, {}; by every \
                 seated socket, {}; by all, {} ({n} moves{moves}; every seated socket's frames \
                 checked: its own seat's view, its own hand and never the other's)",
                figures(&mut self.watchers),
                figures(&mut self.seated),
                figures(&mut self.all),
            );
        }
    }
}

/// One game in `channel`, `count` watchers (and its two players' sockets if `seated`), `moves`
/// moves: from each move accepted to its frame read by all.
async fn one_game(
    tables: &Arc<Tables>,
    address: SocketAddr,
    channel: u64,
    count: usize,
    seated: Seated,
    moves: usize,
) {
    open_game(tables, channel).await;
    let base = Instant::now();
    let mut clients = Clients::default();
    let sockets = Sockets::open(tables, address, channel, count, seated, base, &mut clients).await;
    let mut events = tables.subscribe();
    let mut seen = HashMap::new();
    let mut rng = GameRng::new(46);
    let mut samples = Samples::default();
    for _ in 0..moves {
        let Some((user, command)) = next_move(tables, channel, &mut rng) else {
            break;
        };
        assert!(ask(tables, channel, user, command).await);
        let accepted = base.elapsed();
        last_sequence(&mut events, &mut seen);
        let version = seen[&channel];
        samples.read(&sockets, version, accepted).await;
        // Once the times are taken.
        check_seated(tables, channel, &sockets.seated);
    }
    check_watchers(&sockets.watchers);
    if seated == Seated::Yes {
        view_costs(tables, channel);
    }
    let what = match seated {
        Seated::No => format!("one game, {count} watchers"),
        Seated::Yes => format!("one game, {count} watchers and its 2 players' own sockets"),
    };
    samples.print(&what, "");
    drop(clients);
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// Prints what one frame costs the live channel's task in `channel`'s game: a watcher's view (the
/// one every watcher shares) and a seated player's (their own, with their hand and each card's
/// cells), each built and serialized, the mean of 1,000.
fn view_costs(tables: &Tables, channel: u64) {
    let cost = |viewer: Option<UserId>| {
        let started = Instant::now();
        let mut bytes = 0;
        for _ in 0..1000 {
            let view = tables
                .view(ChannelId(channel), viewer, Lang::En, Timestamp::now())
                .expect("the game's view");
            bytes = serde_json::to_string(&view).expect("a frame").len();
        }
        (started.elapsed() / 1000, bytes)
    };
    let (watcher, watcher_bytes) = cost(None);
    let (seated, seated_bytes) = cost(Some(UserId(players_of(channel)[0])));
    println!(
        "a frame built and serialized: a watcher's view {:.1} µs ({watcher_bytes} bytes), a seated \
         player's {:.1} µs ({seated_bytes} bytes)",
        watcher.as_secs_f64() * 1e6,
        seated.as_secs_f64() * 1e6,
    );
}

/// `games` games (channels from `first` on) with `each` watchers each (and their two players' sockets
/// if `seated`); `rounds` times a move in every game, one after the other: from each move accepted
/// to its frame read by its sockets.
async fn many_games(
    tables: &Arc<Tables>,
    address: SocketAddr,
    first: u64,
    games: u64,
    each: usize,
    seated: Seated,
    rounds: usize,
) {
    let base = Instant::now();
    let mut clients = Clients::default();
    let mut sockets: HashMap<u64, Sockets> = HashMap::new();
    for channel in first..first + games {
        open_game(tables, channel).await;
        let opened =
            Sockets::open(tables, address, channel, each, seated, base, &mut clients).await;
        sockets.insert(channel, opened);
    }
    let mut events = tables.subscribe();
    let mut seen = HashMap::new();
    let mut rng = GameRng::new(47);
    let mut samples = Samples::default();
    for _ in 0..rounds {
        let mut made = Vec::new();
        for channel in first..first + games {
            let Some((user, command)) = next_move(tables, channel, &mut rng) else {
                continue;
            };
            assert!(ask(tables, channel, user, command).await);
            let accepted = base.elapsed();
            last_sequence(&mut events, &mut seen);
            made.push((channel, seen[&channel], accepted));
        }
        for (channel, version, accepted) in &made {
            samples.read(&sockets[channel], *version, *accepted).await;
        }
        // Once every time of the round is taken.
        for (channel, _, _) in &made {
            check_seated(tables, *channel, &sockets[channel].seated);
        }
    }
    for game in sockets.values() {
        check_watchers(&game.watchers);
    }
    let what = match seated {
        Seated::No => format!("{games} games, {each} watchers each"),
        Seated::Yes => format!(
            "{games} games, {each} watchers and the 2 players' own sockets each ({} seated sockets)",
            games * 2
        ),
    };
    samples.print(
        &what,
        &format!(", {rounds} in every game one after the other"),
    );
    drop(clients);
    tokio::time::sleep(Duration::from_secs(1)).await;
}
