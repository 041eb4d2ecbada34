//! The live channel over real sockets: a router with the live route served on a loopback port by
//! the app's listener (`app::http::serve`), WebSocket clients (tokio-tungstenite) as the pages, and
//! real `Tables` whose host plays the computers.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, State};
use axum::response::Response;
use axum::Router;
use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::Message;

use super::{socket, Live, LiveLimits, GONE};
use crate::app::http::{only_get, router, serve, Site};
use crate::engine::{GameRng, Move, MoveList, Variant};
use crate::i18n::Lang;
use crate::service::{
    Actor, ChannelId, Command, Event, FaceId, Limits, Origin, RandomPicker, Request, Settings,
    Tables, Timestamp, UserId,
};

/// The live route as the web face mounts it, with what the face would read from the token and the
/// session given in the path: `/live/{channel}/{viewer (0: none)}/{lang}`; and a health check's
/// stand-in (`/healthz`, "ok").
struct Watching(Arc<Live>);

impl Site for Watching {
    fn routes(self: Arc<Self>) -> Router {
        Router::new()
            .route("/live/{channel}/{viewer}/{lang}", only_get(live_route))
            .route("/healthz", only_get(|| async { "ok" }))
            .with_state(self.0.clone())
    }
}

async fn live_route(
    State(live): State<Arc<Live>>,
    Path((channel, viewer, lang)): Path<(u64, u64, String)>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ws: WebSocketUpgrade,
) -> Response {
    let viewer = (viewer != 0).then_some(UserId(viewer));
    let lang = Lang::from_locale(&lang);
    socket(live, ChannelId(channel), viewer, lang, peer.ip(), ws).await
}

/// The app's listener on a loopback port with the live route of `live`.
async fn served(live: &Arc<Live>) -> SocketAddr {
    let app = router([Arc::new(Watching(live.clone())) as Arc<dyn Site>]);
    serve(([127, 0, 0, 1], 0).into(), app).await.expect("bind")
}

/// Tables without limits, dealt from `seed`, computers moving at random.
fn tables(seed: u64) -> Arc<Tables> {
    let settings = Settings {
        limits: Limits::unlimited(),
        ..Settings::default()
    };
    Arc::new(Tables::seeded(settings, Arc::new(RandomPicker), seed))
}

fn actor(user: u64) -> Actor {
    Actor {
        user: UserId(user),
        name: format!("Player{user}"),
        can_manage: false,
        can_manage_guild: false,
    }
}

/// `user`'s `command` in `channel`, served as a face asks (what follows starts at once).
async fn ask(tables: &Arc<Tables>, channel: u64, user: u64, command: Command) {
    let request = Request {
        guild: None,
        channel: ChannelId(channel),
        actor: actor(user),
        command,
    };
    let (reply, pending) = tables.serve(request, FaceId::Web).await;
    assert!(!reply.is_refusal(), "{reply:?}");
    drop(pending);
}

/// The command that opens a classic lobby with the default options.
fn classic_start() -> Command {
    Command::Start {
        variant: Variant::Classic,
        teams: None,
        options: crate::engine::Options::default(),
        rated: None,
        turn_time: None,
        series: None,
    }
}

/// A classic lobby in `channel` opened by person 1, with one computer.
async fn lobby_against_a_computer(tables: &Arc<Tables>, channel: u64) {
    let start = classic_start();
    ask(tables, channel, 1, start).await;
    ask(tables, channel, 1, Command::AddBot { level: None }).await;
}

/// The frames a page received, as they come.
#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<String>>>);

impl Received {
    fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }

    fn last(&self) -> Option<Value> {
        let last = self.0.lock().unwrap().last().cloned()?;
        Some(serde_json::from_str(&last).expect("a frame is JSON"))
    }

    /// Waits until the last frame satisfies `done` (up to 5 s).
    async fn until(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            if let Some(last) = self.last().filter(|v| done(v)) {
                return last;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{what}: last frame {:?}",
                self.last()
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// A page: a WebSocket on the live route; a task keeps every text frame until the socket closes.
async fn page(
    address: SocketAddr,
    channel: u64,
    viewer: u64,
    lang: &str,
) -> (Received, tokio::task::JoinHandle<()>) {
    let url = format!("ws://{address}/live/{channel}/{viewer}/{lang}");
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("the live socket opens");
    let received = Received::default();
    let kept = received.clone();
    let task = tokio::spawn(async move {
        while let Some(Ok(message)) = socket.next().await {
            if let Message::Text(text) = message {
                kept.0.lock().unwrap().push(text);
            }
        }
    });
    (received, task)
}

/// A live socket on channel 1 from `source`: open, or the status and body it was refused with.
async fn open_from(
    address: SocketAddr,
    source: IpAddr,
    lang: &str,
) -> Result<impl Sized, (u16, String)> {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.bind((source, 0).into()).expect("bind the source");
    let stream = socket.connect(address).await.expect("connect");
    let url = format!("ws://{address}/live/1/0/{lang}");
    match tokio_tungstenite::client_async(url, stream).await {
        Ok(open) => Ok(open),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err((
            response.status().as_u16(),
            String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into_owned(),
        )),
        Err(e) => panic!("{e}"),
    }
}

/// The next move of the person to move in `channel` (chosen at random among the legal ones), if a
/// person is to move: who and what.
fn human_move(tables: &Tables, channel: u64, rng: &mut GameRng) -> Option<(u64, Command)> {
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

/// Every card in a hand of `channel`'s game now (none without a game).
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

/// The card codes of a view's `board.discards` and `board.last_move.card` (public: played).
fn played(view: &Value) -> Vec<String> {
    let board = &view["board"];
    let mut codes: Vec<String> = board["discards"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|card| card["code"].as_str().map(str::to_string))
        .collect();
    codes.extend(
        board["last_move"]["card"]["code"]
            .as_str()
            .map(str::to_string),
    );
    codes
}

/// The versions of `frames` (the gone frame has none).
fn versions(frames: &[String]) -> Vec<u64> {
    frames
        .iter()
        .filter_map(|f| serde_json::from_str::<Value>(f).ok()?["version"].as_u64())
        .collect()
}

/// Issue 46: two watchers and the seated person watch a whole game against a computer over real
/// sockets. Every event reaches every page (in order), the watchers of one language get the same
/// bytes, the person sees their own hand (equal to the game's) whenever it is their turn, the pages
/// see the board the table has, and the table's end is told (`{"gone":true}`). Not one byte a
/// watcher received, over the whole game, names a card that was in a hand and had not been played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_and_the_player_follow_a_whole_game_and_no_hand_leaks() {
    let tables = tables(46);
    tables.spawn_host(Duration::from_millis(10), Duration::from_millis(2));
    let limits = LiveLimits {
        queue: 256,
        ..LiveLimits::default()
    };
    let live = Live::with_limits(tables.clone(), limits);
    let address = served(&live).await;
    let channel = 4601;
    lobby_against_a_computer(&tables, channel).await;

    // The events of the game and every card held in a hand while it ran, from the game itself.
    let mut events = tables.subscribe();
    let held: Arc<Mutex<HashSet<String>>> = Arc::default();
    let sequences: Arc<Mutex<Vec<u64>>> = Arc::default();
    let follower = {
        let (tables, held, sequences) = (tables.clone(), held.clone(), sequences.clone());
        tokio::spawn(async move {
            while let Ok(event) = events.recv().await {
                if event.channel != ChannelId(channel) {
                    continue;
                }
                sequences.lock().unwrap().push(event.sequence);
                held.lock()
                    .unwrap()
                    .extend(hands(&tables, channel).into_iter().flatten());
                if tables.snapshot(ChannelId(channel)).is_none() {
                    return;
                }
            }
        })
    };

    let (first, first_task) = page(address, channel, 0, "en").await;
    let (second, second_task) = page(address, channel, 7, "en").await;
    let (german, german_task) = page(address, channel, 0, "de").await;
    let (player, player_task) = page(address, channel, 1, "en").await;
    for received in [&first, &second, &german, &player] {
        received
            .until("the lobby at once", |v| v["view"]["phase"] == "lobby")
            .await;
    }
    assert_eq!(live.open(), 4);

    ask(&tables, channel, 1, Command::Begin).await;
    let mut rng = GameRng::new(46);
    let mut checked_turns = 0;
    let started = Instant::now();
    while tables.snapshot(ChannelId(channel)).is_some() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the game ended"
        );
        let Some((user, command)) = human_move(&tables, channel, &mut rng) else {
            tokio::time::sleep(Duration::from_millis(2)).await;
            continue;
        };
        // The person is to move: the table stands still until they do. Every page has its view,
        // with the version of the channel's last event.
        let last_event = || sequences.lock().unwrap().last().copied();
        held.lock()
            .unwrap()
            .extend(hands(&tables, channel).into_iter().flatten());
        let table_view = tables
            .view(ChannelId(channel), None, Lang::En, Timestamp::now())
            .expect("a view");
        let board = serde_json::to_value(&table_view.board).expect("a board");
        for received in [&first, &second, &player, &german] {
            received
                .until("the last event's view", |v| {
                    v["view"]["board"] == board && v["version"].as_u64() == last_event()
                })
                .await;
        }
        let hand: Vec<String> = hands(&tables, channel)[0].clone();
        let shown = player.last().expect("a frame");
        let shown: Vec<&str> = shown["view"]["you"]["hand"]
            .as_array()
            .expect("the player's hand")
            .iter()
            .map(|card| card["code"].as_str().expect("a code"))
            .collect();
        assert_eq!(shown, hand, "the player's own hand");
        checked_turns += 1;
        ask(&tables, channel, user, command).await;
    }
    assert!(checked_turns > 5, "{checked_turns} turns checked");

    // The end is told, then each socket is closed.
    for task in [first_task, second_task, german_task, player_task] {
        tokio::time::timeout(Duration::from_secs(5), task)
            .await
            .expect("the socket is closed after the end")
            .expect("the page ran");
    }
    follower.await.expect("the follower ran");
    let sequences = sequences.lock().unwrap().clone();
    let held = held.lock().unwrap().clone();
    assert!(held.len() > 10, "{held:?}");
    let (first, second, german, player) = (first.all(), second.all(), german.all(), player.all());
    for frames in [&first, &second, &german, &player] {
        assert_eq!(frames.last().map(String::as_str), Some(GONE));
        let seen = versions(frames);
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "in order: {seen:?}");
        // Every event but the last (which closed the table: told as gone) reached the page.
        let seen: HashSet<u64> = seen.into_iter().collect();
        for sequence in &sequences[..sequences.len() - 1] {
            assert!(seen.contains(sequence), "event {sequence} missing");
        }
    }
    assert_eq!(first, second, "one language's watchers get the same bytes");
    assert_ne!(first, german);
    assert!(german
        .iter()
        .any(|f| f.contains("Zuschauer") || f.contains("ist am Zug")));

    // No watcher ever saw a card in a hand before it was played.
    for frames in [&first, &german] {
        let mut public: HashSet<String> = HashSet::new();
        for text in frames {
            assert!(!text.contains("\"you\""), "{text}");
            assert!(!text.contains("\"hand\""), "{text}");
            let mut frame: Value = serde_json::from_str(text).expect("JSON");
            public.extend(played(&frame["view"]));
            let board = &mut frame["view"]["board"];
            if let Some(board) = board.as_object_mut() {
                // The cards printed on the board and the cards played, public.
                board.remove("cells");
                board.remove("discards");
                board.remove("last_move");
            }
            let rest = frame.to_string();
            for code in held.difference(&public) {
                assert!(
                    !rest.contains(&format!("\"{code}\"")),
                    "{code} in a watcher's frame: {rest}"
                );
            }
        }
    }
    // The player's frames carried their hand.
    assert!(player.iter().any(|f| f.contains("\"you\"")));
}

/// Past the bound per address (here 2) and the bound in all (here 3) a new live socket is refused
/// with 429 and a sentence in the asker's language; health checks are still answered meanwhile, and
/// a socket that closes gives its place back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_bounds_a_socket_is_refused_with_429() {
    let tables = tables(1);
    lobby_against_a_computer(&tables, 1).await;
    let limits = LiveLimits {
        per_address: 2,
        sockets: 3,
        ..LiveLimits::default()
    };
    let live = Live::with_limits(tables.clone(), limits);
    let address = served(&live).await;
    let home: IpAddr = [127, 0, 0, 1].into();
    let other: IpAddr = [127, 0, 0, 2].into();
    let (_a, _) = page(address, 1, 0, "en").await;
    let (_b, b_task) = page(address, 1, 0, "en").await;
    let Err((status, body)) = open_from(address, home, "de").await else {
        panic!("a third socket from one address opened");
    };
    assert_eq!(status, 429);
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        body["error"],
        crate::i18n::tr(Lang::De, "web-live-full"),
        "{body}"
    );
    // Another address still has room, up to the bound in all.
    let _other = open_from(address, other, "en")
        .await
        .expect("another address opens one");
    let Err((status, _)) = open_from(address, other, "en").await else {
        panic!("a fourth socket opened");
    };
    assert_eq!(status, 429);
    assert_eq!(live.open(), 3);
    // A health check is answered while the live bounds are reached.
    let health = reqwest::get(format!("http://{address}/healthz"))
        .await
        .expect("the health check is answered");
    assert_eq!(health.status().as_u16(), 200);
    // A socket closes (its page goes): its place is free again.
    b_task.abort();
    let started = Instant::now();
    while live.open() > 2 {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the place is given back"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (_c, _) = page(address, 1, 0, "en").await;
    assert_eq!(live.open(), 3);
}

/// The listening task missed events (its receiver lagged: here a queue of 2 and 5 events of another
/// channel at once, while the watched table changed without an event of its own reaching it): it
/// sends every watched table's view again, so the page still sees the change.
#[tokio::test]
async fn a_lagging_listener_sends_every_view_again() {
    let tables = tables(2);
    lobby_against_a_computer(&tables, 1).await;
    let (events, receiver) = broadcast::channel(2);
    let live = Live::listening(tables.clone(), LiveLimits::default(), receiver);
    let address = served(&live).await;
    let (page, _) = page(address, 1, 0, "en").await;
    page.until("the lobby", |v| {
        v["view"]["seats"].as_array().map(Vec::len) == Some(2)
    })
    .await;
    // Person 2 joins; the event of it is lost among the other channel's.
    let request = Request {
        guild: None,
        channel: ChannelId(1),
        actor: actor(2),
        command: Command::Join { team: None },
    };
    assert!(!tables.handle(request, Timestamp::now()).is_refusal());
    for sequence in 1..=5 {
        let _ = events.send(Event {
            channel: ChannelId(99),
            sequence,
            turn: None,
            origin: Origin::Host,
            outputs: Vec::new(),
        });
    }
    page.until("the lobby with person 2", |v| {
        v["view"]["seats"].as_array().map(Vec::len) == Some(3)
    })
    .await;
}

/// A page that takes no frames (its socket's buffers full) is dropped once its queue is full, and
/// the page beside it that reads gets every frame meanwhile: one slow watcher holds no one back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_too_slow_is_dropped_and_holds_no_one_back() {
    let tables = tables(3);
    lobby_against_a_computer(&tables, 1).await;
    // A game (its frames carry the board); no host runs, and the computer moves once at most.
    ask(&tables, 1, 1, Command::Begin).await;
    let (events, receiver) = broadcast::channel(64);
    // Writes may wait a minute: the slow page is dropped for its full queue, not for that.
    let limits = LiveLimits {
        queue: 8,
        send_within: Duration::from_secs(60),
        ..LiveLimits::default()
    };
    let live = Live::listening(tables.clone(), limits, receiver);
    let address = served(&live).await;
    let (reader, _) = page(address, 1, 0, "en").await;
    // The slow page: a small receive window, and it never reads.
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(4096).expect("a small buffer");
    let stream = socket.connect(address).await.expect("connect");
    let (_slow, _) = tokio_tungstenite::client_async(format!("ws://{address}/live/1/0/en"), stream)
        .await
        .expect("the slow page's socket opens");
    assert_eq!(live.open(), 2);
    let last = 3000;
    for sequence in 1..=last {
        let _ = events.send(Event {
            channel: ChannelId(1),
            sequence,
            turn: None,
            origin: Origin::Host,
            outputs: Vec::new(),
        });
        tokio::time::sleep(Duration::from_millis(1)).await;
        if live.open() == 1 {
            break;
        }
    }
    let started = Instant::now();
    while live.open() > 1 {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the slow page was dropped"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The reading page got every frame up to the last one sent.
    let sent = live.version(ChannelId(1));
    reader
        .until("the last frame", |v| v["version"] == sent)
        .await;
    let seen = versions(&reader.all());
    assert_eq!(seen.len(), usize::try_from(sent).unwrap() + 1, "{seen:?}");
}

/// The bound in all follows the open-file limit when that is lower.
#[test]
fn the_sockets_in_all_stay_within_the_open_file_limit() {
    assert_eq!(super::sockets_within(None), super::MAX_SOCKETS);
    assert_eq!(super::sockets_within(Some(1_048_576)), super::MAX_SOCKETS);
    assert_eq!(super::sockets_within(Some(1024)), 512);
    assert_eq!(super::sockets_within(Some(100)), 1);
}

/// A page is pinged (here every 100 ms); one that has sent nothing, not even a pong, for the time
/// allowed (here 400 ms) is closed, and one that answers stays open well past it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_does_not_answer_pings_is_closed() {
    let tables = tables(4);
    lobby_against_a_computer(&tables, 1).await;
    let limits = LiveLimits {
        ping_every: Duration::from_millis(100),
        answer_within: Duration::from_millis(400),
        ..LiveLimits::default()
    };
    let live = Live::with_limits(tables.clone(), limits);
    let address = served(&live).await;
    // Reading, it answers every ping with a pong.
    let (answering, answering_task) = page(address, 1, 0, "en").await;
    // Never read: it answers nothing.
    let (_silent, _) = tokio_tungstenite::connect_async(format!("ws://{address}/live/1/0/en"))
        .await
        .expect("the silent page's socket opens");
    assert_eq!(live.open(), 2);
    let started = Instant::now();
    while live.open() > 1 {
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "the silent page was closed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(started.elapsed() >= Duration::from_millis(300));
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(live.open(), 1, "the answering page is still open");
    assert!(!answering_task.is_finished());
    assert!(answering.last().is_some());
}

/// Each channel's last version is kept, also for channels nobody watches (a page's first view comes
/// with it); past a thousand channels, those whose table is gone are forgotten, the running ones kept.
#[tokio::test]
async fn versions_of_closed_tables_are_forgotten() {
    let tables = tables(5);
    lobby_against_a_computer(&tables, 1).await;
    let (events, receiver) = broadcast::channel(4096);
    let live = Live::listening(tables.clone(), LiveLimits::default(), receiver);
    let event = |channel: u64, sequence: u64| Event {
        channel: ChannelId(channel),
        sequence,
        turn: None,
        origin: Origin::Host,
        outputs: Vec::new(),
    };
    let _ = events.send(event(1, 1));
    let last = 1 + super::VERSIONS_KEPT as u64 + 50;
    for sequence in 2..=last {
        let _ = events.send(event(100_000 + sequence, sequence));
    }
    let started = Instant::now();
    while live.version(ChannelId(100_000 + last)) != last {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "all events read"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(
        live.version(ChannelId(1)),
        1,
        "a running table's version is kept"
    );
    assert_eq!(
        live.version(ChannelId(100_002)),
        0,
        "a channel without a table is forgotten"
    );
    assert_eq!(live.version(ChannelId(100_000 + last - 1)), last - 1);
}

/// Issue 46, several processes: a page watching a game through a process that does not hold it
/// (two processes on one PostgreSQL database, shards 0 and 1 of 2) is sent each move the owner
/// makes, through the owner's NOTIFY and this process's reading of the stored table; a watcher's
/// frames carry no hand; the game's end is told (`{"gone":true}`). Prints the delays from a move's
/// request to the frame that shows it. Needs `SEQUENCE_BOT_TEST_POSTGRES_URL` (skipped without).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_of_another_process_sees_each_move_made_there() {
    use crate::store::{PostgresStore, ShardSet, Store};
    let schema =
        tokio::task::spawn_blocking(|| crate::store::tests::postgres_schema("live_elsewhere"))
            .await
            .expect("schema");
    let Some((config, _guard)) = schema else {
        return;
    };
    // Opened on a blocking thread: the PostgreSQL client runs a runtime of its own.
    let (owner, other) = tokio::task::spawn_blocking(move || {
        let open = |shard: u32| {
            let store = PostgresStore::open_config(config.clone()).expect("open");
            let set = ShardSet::new(shard, shard, 2).expect("set");
            let claim = store.claim_shards(set, Duration::ZERO).expect("claim");
            let settings = Settings {
                limits: Limits::unlimited(),
                ..Settings::default()
            };
            let store: Arc<dyn Store> = Arc::new(store);
            Arc::new(
                Tables::seeded(settings, Arc::new(RandomPicker), 46 + u64::from(shard))
                    .with_store(store)
                    .with_claim(claim),
            )
        };
        (open(0), open(1))
    })
    .await
    .expect("opened");
    let live = Live::new(other.clone());
    let address = served(&live).await;
    // A game of two people outside servers: shard 0, the owner's.
    let channel = 4602;
    let start = classic_start();
    ask(&owner, channel, 1, start).await;
    ask(&owner, channel, 2, Command::Join { team: None }).await;
    let token = owner.web_token(ChannelId(channel)).expect("a token");
    assert_eq!(
        other.find_web_token(&token).await,
        Some(ChannelId(channel)),
        "found through the store"
    );
    let (watcher, task) = page(address, channel, 0, "en").await;
    watcher
        .until("the lobby at once", |v| v["view"]["phase"] == "lobby")
        .await;
    ask(&owner, channel, 1, Command::Begin).await;
    watcher
        .until("the game begun", |v| v["view"]["phase"] == "playing")
        .await;
    let mut rng = GameRng::new(4602);
    let mut delays = Vec::new();
    for _ in 0..8 {
        let (user, command) = human_move(&owner, channel, &mut rng).expect("a move");
        let asked = Instant::now();
        ask(&owner, channel, user, command).await;
        let turn = owner
            .view(ChannelId(channel), None, Lang::En, Timestamp::now())
            .and_then(|v| v.board)
            .expect("a board")
            .turn;
        let frame = watcher
            .until("the move shown", |v| v["view"]["board"]["turn"] == turn)
            .await;
        delays.push(asked.elapsed());
        assert!(frame["view"]["you"].is_null(), "a watcher sees no hand");
        assert_eq!(
            frame["view"],
            serde_json::to_value(
                owner
                    .view(ChannelId(channel), None, Lang::En, Timestamp::now())
                    .expect("a view")
            )
            .expect("json"),
            "the owner's watcher view"
        );
    }
    delays.sort();
    println!(
        "move request to the other process's watcher: median {:?}, max {:?} ({} moves)",
        delays[delays.len() / 2],
        delays[delays.len() - 1],
        delays.len()
    );
    let versions = versions(&watcher.all());
    assert!(versions.windows(2).all(|w| w[0] <= w[1]), "{versions:?}");
    ask(&owner, channel, 1, Command::Stop).await;
    let started = Instant::now();
    while !watcher.all().iter().any(|f| f == GONE) {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the end is told"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    task.await.expect("the socket ends");
    // Dropped off the runtime (their PostgreSQL clients).
    tokio::task::spawn_blocking(move || drop((owner, other, live)))
        .await
        .expect("dropped");
}

/// In a lobby a seated player's page gets a view of its own too: after someone else joins, the host's
/// frame still says which seat is theirs (the page shows them Start), a watcher's says none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_lobby_the_seated_get_their_own_view() {
    let tables = tables(47);
    let live = Live::new(tables.clone());
    let address = served(&live).await;
    let channel = 4701;
    let start = classic_start();
    ask(&tables, channel, 1, start).await;
    let (host, _host_task) = page(address, channel, 1, "en").await;
    let (watcher, _watcher_task) = page(address, channel, 0, "en").await;
    host.until("the first view", |v| v["view"]["phase"] == "lobby")
        .await;
    ask(&tables, channel, 2, Command::Join { team: None }).await;
    let seen = host
        .until("the join", |v| {
            v["view"]["seats"].as_array().is_some_and(|s| s.len() == 2)
        })
        .await;
    assert_eq!(seen["view"]["seat"], 0, "the host's seat: {seen}");
    assert_eq!(seen["view"]["host"], 0, "{seen}");
    let watched = watcher
        .until("the join", |v| {
            v["view"]["seats"].as_array().is_some_and(|s| s.len() == 2)
        })
        .await;
    assert!(
        watched["view"].get("seat").is_none_or(Value::is_null),
        "{watched}"
    );
}
