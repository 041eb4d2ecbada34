//! Issue 46: the live channel's fan-out (`web::live`) over real local sockets, served by the app's
//! listener (`app::http::serve`). Prints (no criterion: each figure is one long run):
//! - the memory per idle watcher: the process's RSS (`/proc/self/status`) before and after
//!   `LIVE_IDLE` (2,000 unless set) watchers open a socket on a running game and take its view; the
//!   watchers run in a child process (this program started again), so only the server's side counts;
//! - one game watched by `LIVE_ONE` (2,000) sockets: from a move accepted (`Tables::serve` returned) to
//!   its frame read by every watcher, p50 and p99 over `LIVE_MOVES` (40) moves;
//! - 240 games watched by 10 sockets each: a move in every game, one after the other as fast as they
//!   are accepted, `LIVE_ROUNDS` (5) times; from each move accepted to its frame read by its 10
//!   watchers, p50 and p99.
//!
//! `cargo bench --bench live` (Linux; it raises its open-file limit to the hard limit).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
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
    Actor, ChannelId, Command, FaceId, Limits, RandomPicker, Request, Settings, Tables, UserId,
};
use sequence_bot::web::live::{socket, Live, LiveLimits};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// Set in the child process that holds the idle watchers: `address channel count`.
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
        runtime.block_on(hold_idle_watchers(&child));
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
        idle_memory(&tables, address, number("LIVE_IDLE", 2000)).await;
        one_game_many_watchers(
            &tables,
            address,
            number("LIVE_ONE", 2000),
            number("LIVE_MOVES", 40),
        )
        .await;
        many_games(&tables, address, 240, 10, number("LIVE_ROUNDS", 5)).await;
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

/// The live route as the web face mounts it (the token and session read already): every socket a
/// watcher's in English, each with a guest's user id of its own (as pages with a guest cookie have;
/// none is seated, so each is checked and given the shared view).
struct Watching(Arc<Live>);

impl Site for Watching {
    fn routes(self: Arc<Self>) -> Router {
        Router::new()
            .route("/live/{channel}/{viewer}", only_get(live_route))
            .with_state(self.0.clone())
    }
}

async fn live_route(
    State(live): State<Arc<Live>>,
    Path((channel, viewer)): Path<(u64, u64)>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ws: WebSocketUpgrade,
) -> Response {
    let viewer = Some(UserId(viewer | 1 << 63));
    socket(live, ChannelId(channel), viewer, Lang::En, peer.ip(), ws).await
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

/// A two-person classic game in `channel`, begun.
async fn open_game(tables: &Arc<Tables>, channel: u64) {
    let (host, guest) = (channel * 2 + 1, channel * 2 + 2);
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

/// What one watcher last read: the frame's version and when (nanoseconds from `base`).
struct Read {
    version: AtomicU64,
    at: AtomicU64,
}

/// Opens a watcher of `channel` whose reads are noted in the returned [`Read`].
async fn watcher(address: SocketAddr, channel: u64, base: Instant) -> Arc<Read> {
    let (mut socket, _) = tokio_tungstenite::connect_async(format!(
        "ws://{address}/live/{channel}/{}",
        next_viewer()
    ))
    .await
    .expect("a live socket");
    let read = Arc::new(Read {
        version: AtomicU64::new(0),
        at: AtomicU64::new(0),
    });
    let noted = read.clone();
    tokio::spawn(async move {
        while let Some(Ok(message)) = socket.next().await {
            if let Message::Text(text) = message {
                let at = u64::try_from(base.elapsed().as_nanos()).unwrap_or(u64::MAX);
                if let Some(version) = version_of(&text) {
                    noted.at.store(at, Ordering::SeqCst);
                    noted.version.store(version, Ordering::SeqCst);
                }
            }
        }
    });
    read
}

/// The version at the start of a frame (`{"version":n,…`).
fn version_of(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("{\"version\":")?;
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..end].parse().ok()
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

/// When every watcher in `reads` has read version `version` or later: the last read's time from
/// the watchers' base instant (up to 30 s).
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
            "every watcher read version {version}"
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

/// The process's resident memory, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// RSS before and after `count` idle watchers (in a child process) open a socket on a running game.
async fn idle_memory(tables: &Arc<Tables>, address: SocketAddr, count: usize) {
    let channel = 900_000;
    open_game(tables, channel).await;
    // One watcher first, so that what every socket shares (the runtime's and listener's first
    // allocations) is not counted per watcher.
    let base = Instant::now();
    let first = watcher(address, channel, base).await;
    all_read(std::slice::from_ref(&first), 1).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = rss_kib();
    let mut child = tokio::process::Command::new(std::env::current_exe().expect("this program"))
        .env(CHILD, format!("{address} {channel} {count}"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the watchers' process");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().expect("its output")).lines();
    let ready = lines.next_line().await.expect("its output");
    assert_eq!(ready.as_deref(), Some("ready"), "the watchers are open");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = rss_kib();
    let frame = tables
        .view(
            ChannelId(channel),
            None,
            Lang::En,
            sequence_bot::service::Timestamp::now(),
        )
        .map(|view| serde_json::to_string(&view).map_or(0, |s| s.len()))
        .unwrap_or(0);
    let per = (after.saturating_sub(before) as f64) * 1024.0 / count as f64;
    println!(
        "idle watchers: {count} sockets on a running game (its frame {frame} bytes): RSS {before} KiB \
         before, {after} KiB after: {:.1} KB per idle watcher",
        per / 1000.0
    );
    drop(child.stdin.take());
    let _ = child.wait().await;
    drop(first);
}

/// The child: opens `count` watchers of `channel` on `address`, reads each one's first frame, says
/// "ready" and holds them until its input closes.
async fn hold_idle_watchers(spec: &str) {
    let mut parts = spec.split(' ');
    let address: SocketAddr = parts.next().and_then(|a| a.parse().ok()).expect("address");
    let channel: u64 = parts.next().and_then(|c| c.parse().ok()).expect("channel");
    let count: usize = parts.next().and_then(|c| c.parse().ok()).expect("count");
    let mut sockets = Vec::with_capacity(count);
    for _ in 0..count {
        let (mut socket, _) = tokio_tungstenite::connect_async(format!(
            "ws://{address}/live/{channel}/{}",
            next_viewer()
        ))
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

/// One game, `count` watchers, `moves` moves: from each move accepted to its frame read by all.
async fn one_game_many_watchers(
    tables: &Arc<Tables>,
    address: SocketAddr,
    count: usize,
    moves: usize,
) {
    let channel = 1;
    open_game(tables, channel).await;
    let base = Instant::now();
    let mut reads = Vec::with_capacity(count);
    for _ in 0..count {
        reads.push(watcher(address, channel, base).await);
    }
    let mut events = tables.subscribe();
    let mut seen = HashMap::new();
    let mut rng = GameRng::new(46);
    let mut samples = Vec::new();
    for _ in 0..moves {
        let Some((user, command)) = next_move(tables, channel, &mut rng) else {
            break;
        };
        assert!(ask(tables, channel, user, command).await);
        let accepted = base.elapsed();
        last_sequence(&mut events, &mut seen);
        let version = seen[&channel];
        let read = all_read(&reads, version).await;
        samples.push(read.saturating_sub(accepted));
    }
    let n = samples.len();
    println!(
        "one game, {count} watchers: from a move accepted to its frame read by every watcher, \
         p50 {:.1} ms, p99 {:.1} ms, longest {:.1} ms ({n} moves)",
        ms(percentile(&mut samples, 0.5)),
        ms(percentile(&mut samples, 0.99)),
        ms(percentile(&mut samples, 1.0)),
    );
}

/// `games` games with `each` watchers each; `rounds` times a move in every game, one after the
/// other: from each move accepted to its frame read by its watchers.
async fn many_games(
    tables: &Arc<Tables>,
    address: SocketAddr,
    games: u64,
    each: usize,
    rounds: usize,
) {
    let first = 10_000;
    let base = Instant::now();
    let mut reads: HashMap<u64, Vec<Arc<Read>>> = HashMap::new();
    for channel in first..first + games {
        open_game(tables, channel).await;
        for _ in 0..each {
            reads
                .entry(channel)
                .or_default()
                .push(watcher(address, channel, base).await);
        }
    }
    let mut events = tables.subscribe();
    let mut seen = HashMap::new();
    let mut rng = GameRng::new(47);
    let mut samples = Vec::new();
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
        for (channel, version, accepted) in made {
            let read = all_read(&reads[&channel], version).await;
            samples.push(read.saturating_sub(accepted));
        }
    }
    let n = samples.len();
    println!(
        "{games} games, {each} watchers each: from a move accepted to its frame read by its \
         watchers, p50 {:.1} ms, p99 {:.1} ms, longest {:.1} ms ({n} moves, {rounds} in every game \
         one after the other)",
        ms(percentile(&mut samples, 0.5)),
        ms(percentile(&mut samples, 0.99)),
        ms(percentile(&mut samples, 1.0)),
    );
}
