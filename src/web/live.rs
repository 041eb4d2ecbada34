//! The live channel (`GET /api/g/{token}/live`): a WebSocket per page that shows a table, sent the
//! table's view at once and again after every event of its channel.
//!
//! One task listens to [`Tables::subscribe`] for the whole process. Per event of a watched channel it
//! builds the watcher view ([`Tables::view`] with no viewer) once per language in use, serializes it
//! once and hands the same bytes to every watcher of that language; a player seated at the table (in
//! its lobby or its running game) gets a view of their own (their seat; in a game their hand). The event's outputs are never forwarded (a direct
//! message there may carry a hand): what a page sees is only ever a view. Frames are
//! `{"version":n,"view":TableView}` (`version`: the sequence number of the channel's last event) and
//! `{"gone":true}` once the channel has no table any more (the socket is then closed).
//!
//! Every socket has a small queue of its own that the listening task fills without waiting
//! (`try_send`): a watcher too slow to take its frames is dropped when its queue is full, and never
//! holds up the others. The bounds: [`MAX_PER_ADDRESS`] sockets from one address and [`MAX_SOCKETS`]
//! in all (429 Too Many Requests past them); a ping every [`PING_EVERY`], and a socket that has sent
//! nothing (no pong) for [`ANSWER_WITHIN`] is closed. A socket is not counted by the HTTP listener's
//! own limits once upgraded (see `app::http`).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, mpsc, Notify};

use crate::i18n::{tr, Lang};
use crate::service::{ChannelId, Event, TableView, Tables, Timestamp, UserId};

/// Live sockets open at once from one address: a page needs one, a few tabs a few; a household or
/// a school behind one address still fits.
pub const MAX_PER_ADDRESS: usize = 20;

/// Live sockets open at once in all (each is a file handle: see [`FILES_KEPT`]). An idle one costs
/// the process about 12.5 KB (docs/development.md, *The live channel*).
pub const MAX_SOCKETS: usize = 5_000;

/// File handles kept for everything else (the store, Discord, the HTTP listener's own connections):
/// the sockets in all are held to the process's open-file limit less this, when that is below
/// [`MAX_SOCKETS`].
pub const FILES_KEPT: u64 = 512;

/// How often a socket is pinged (a browser answers with a pong by itself).
pub const PING_EVERY: Duration = Duration::from_secs(30);

/// A socket that has sent nothing, not even a pong, for this long is closed.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(60);

/// Frames waiting for one socket; a socket whose queue is full when a new frame comes is dropped
/// (each frame is a full view, so a page that cannot keep up gains nothing from older ones).
pub const QUEUE: usize = 8;

/// Longest time one frame may take to be written to its socket before the socket is closed.
pub const SEND_WITHIN: Duration = Duration::from_secs(10);

/// The socket's read buffer: a page sends nothing but pongs and a close.
const READ_BUFFER: usize = 512;

/// Largest message a page may send (a pong carries the ping's empty payload back).
const MAX_INCOMING: usize = 4 * 1024;

/// Channels whose last version is kept at least, whether their tables still run or not (after that,
/// those without a table and without watchers are forgotten).
const VERSIONS_KEPT: usize = 1024;

/// The bounds of the live channel (the constants above; tests use smaller ones).
#[derive(Clone, Copy, Debug)]
pub struct LiveLimits {
    /// Sockets open at once from one address.
    pub per_address: usize,
    /// Sockets open at once in all.
    pub sockets: usize,
    /// How often a socket is pinged.
    pub ping_every: Duration,
    /// A socket silent this long is closed.
    pub answer_within: Duration,
    /// Frames waiting per socket.
    pub queue: usize,
    /// Longest time a frame may take to be written.
    pub send_within: Duration,
}

impl Default for LiveLimits {
    fn default() -> Self {
        LiveLimits {
            per_address: MAX_PER_ADDRESS,
            sockets: sockets_within(open_file_limit()),
            ping_every: PING_EVERY,
            answer_within: ANSWER_WITHIN,
            queue: QUEUE.max(1),
            send_within: SEND_WITHIN,
        }
    }
}

/// The process's open-file limit (soft), if known.
fn open_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct given, nothing else.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
            return Some(limit.rlim_cur);
        }
    }
    None
}

/// The sockets allowed in all under the open-file limit `files` (see [`FILES_KEPT`]).
fn sockets_within(files: Option<u64>) -> usize {
    let Some(files) = files else {
        return MAX_SOCKETS;
    };
    let spare = usize::try_from(files.saturating_sub(FILES_KEPT)).unwrap_or(usize::MAX);
    MAX_SOCKETS.min(spare.max(1))
}

/// The live channel of one process: the listening task and the open sockets per channel.
pub struct Live {
    tables: Arc<Tables>,
    limits: LiveLimits,
    state: Mutex<State>,
}

/// The open sockets and what the listening task knows.
#[derive(Default)]
struct State {
    /// The sockets watching each channel.
    channels: HashMap<ChannelId, Vec<Watcher>>,
    /// Each channel's last event (its sequence number).
    versions: HashMap<ChannelId, u64>,
    /// How many channels' versions were kept after they were last pruned.
    versions_pruned: usize,
    /// Sockets open (or being opened) per address.
    per_address: HashMap<IpAddr, usize>,
    /// Sockets open (or being opened) in all.
    open: usize,
    next_id: u64,
}

/// One open socket, as the listening task sees it.
struct Watcher {
    id: u64,
    viewer: Option<UserId>,
    lang: Lang,
    frames: mpsc::Sender<Utf8Bytes>,
    /// Told when the socket is dropped for being too slow: it stops waiting on its write at once.
    cut: Arc<Notify>,
}

/// What a page is told when its table has closed.
const GONE: &str = r#"{"gone":true}"#;

/// A frame of the live channel.
#[derive(serde::Serialize)]
struct Frame<'a> {
    version: u64,
    view: &'a TableView,
}

impl Live {
    /// The live channel of `tables`, listening from now on (within a Tokio runtime).
    pub fn new(tables: Arc<Tables>) -> Arc<Live> {
        Live::with_limits(tables, LiveLimits::default())
    }

    /// [`Live::new`] with its bounds given.
    pub fn with_limits(tables: Arc<Tables>, limits: LiveLimits) -> Arc<Live> {
        let events = tables.subscribe();
        Live::listening(tables, limits, events)
    }

    /// The live channel of `tables`, following `events`.
    fn listening(
        tables: Arc<Tables>,
        limits: LiveLimits,
        events: broadcast::Receiver<Event>,
    ) -> Arc<Live> {
        let live = Arc::new(Live {
            tables,
            limits,
            state: Mutex::new(State::default()),
        });
        tokio::spawn(listen(Arc::downgrade(&live), events));
        follow_elsewhere(&live);
        live
    }

    /// The sequence number of `channel`'s last event seen (0: none since the process started).
    pub fn version(&self, channel: ChannelId) -> u64 {
        let noted = self.state().versions.get(&channel).copied();
        noted
            .or_else(|| self.tables.version_elsewhere(channel))
            .unwrap_or(0)
    }

    /// Sockets open (or being opened) now.
    pub fn open(&self) -> usize {
        self.state().open
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more socket from `peer`, unless that is past a bound.
    fn reserve(self: &Arc<Self>, peer: IpAddr) -> Option<Slot> {
        let mut state = self.state();
        let from_peer = state.per_address.get(&peer).copied().unwrap_or(0);
        if from_peer >= self.limits.per_address || state.open >= self.limits.sockets {
            return None;
        }
        state.per_address.insert(peer, from_peer + 1);
        state.open += 1;
        Some(Slot {
            live: self.clone(),
            peer,
        })
    }

    /// Notes `channel`'s event `sequence`; sends the views to its watchers.
    fn on_event(&self, channel: ChannelId, sequence: u64) {
        let watched = {
            let mut state = self.state();
            state.versions.insert(channel, sequence);
            if state.versions.len() >= VERSIONS_KEPT.max(2 * state.versions_pruned) {
                self.prune_versions(&mut state);
            }
            state.channels.contains_key(&channel)
        };
        if watched {
            self.push(channel);
        }
    }

    /// Forgets the versions of channels without a table or a watcher.
    fn prune_versions(&self, state: &mut State) {
        let State {
            versions, channels, ..
        } = state;
        versions.retain(|channel, _| {
            channels.contains_key(channel) || self.tables.web_token(*channel).is_some()
        });
        state.versions_pruned = state.versions.len();
    }

    /// Sends every watched channel's views again (events were missed).
    fn push_all(&self) {
        let channels: Vec<ChannelId> = self.state().channels.keys().copied().collect();
        for channel in channels {
            self.push(channel);
        }
    }

    /// Sends `channel`'s current views to its watchers: each language's watcher view built and
    /// serialized once, a seated player's own. A socket whose queue is full is dropped.
    fn push(&self, channel: ChannelId) {
        let (version, languages, viewers) = {
            let state = self.state();
            let Some(watchers) = state.channels.get(&channel) else {
                return;
            };
            let languages: HashSet<Lang> = watchers.iter().map(|w| w.lang).collect();
            let viewers: HashSet<(UserId, Lang)> = watchers
                .iter()
                .filter_map(|w| w.viewer.map(|user| (user, w.lang)))
                .collect();
            let version = state.versions.get(&channel).copied().unwrap_or(0);
            (version, languages, viewers)
        };
        let now = Timestamp::now();
        let mut shared: HashMap<Lang, Utf8Bytes> = HashMap::new();
        let mut gone = false;
        for lang in languages {
            match self.tables.view(channel, None, lang, now) {
                Some(view) => {
                    if let Some(frame) = frame(version, &view) {
                        shared.insert(lang, frame);
                    }
                }
                None => gone = true,
            }
        }
        let mut own: HashMap<(UserId, Lang), Utf8Bytes> = HashMap::new();
        if !gone {
            for (user, lang) in viewers {
                if !self.tables.is_seated(channel, user) {
                    continue;
                }
                if let Some(frame) = self
                    .tables
                    .view(channel, Some(user), lang, now)
                    .and_then(|view| frame(version, &view))
                {
                    own.insert((user, lang), frame);
                }
            }
        }
        let gone_frame = Utf8Bytes::from_static(GONE);
        let mut state = self.state();
        let Some(watchers) = state.channels.get_mut(&channel) else {
            return;
        };
        watchers.retain(|watcher| {
            let frame = if gone {
                &gone_frame
            } else {
                let seated = watcher
                    .viewer
                    .and_then(|user| own.get(&(user, watcher.lang)));
                // A socket opened meanwhile in another language got its first view itself.
                let Some(frame) = seated.or_else(|| shared.get(&watcher.lang)) else {
                    return true;
                };
                frame
            };
            match watcher.frames.try_send(frame.clone()) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    watcher.cut.notify_one();
                    tracing::debug!(
                        channel = channel.0,
                        "a live watcher too slow for its frames was dropped"
                    );
                    false
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            }
        });
        // A closed table: the sockets end once they have sent what is queued.
        if gone || watchers.is_empty() {
            state.channels.remove(&channel);
        }
    }

    /// Adds a socket watching `channel`: its id, the queue it reads its frames from and what tells
    /// it that it was dropped.
    fn watch(
        &self,
        channel: ChannelId,
        viewer: Option<UserId>,
        lang: Lang,
    ) -> (u64, mpsc::Receiver<Utf8Bytes>, Arc<Notify>) {
        let (frames, receiver) = mpsc::channel(self.limits.queue.max(1));
        let cut = Arc::new(Notify::new());
        let mut state = self.state();
        state.next_id += 1;
        let id = state.next_id;
        state.channels.entry(channel).or_default().push(Watcher {
            id,
            viewer,
            lang,
            frames,
            cut: cut.clone(),
        });
        (id, receiver, cut)
    }

    /// Takes the socket `id` off `channel`'s watchers (it may have been dropped already).
    fn unwatch(&self, channel: ChannelId, id: u64) {
        let mut state = self.state();
        if let Some(watchers) = state.channels.get_mut(&channel) {
            watchers.retain(|w| w.id != id);
            if watchers.is_empty() {
                state.channels.remove(&channel);
            }
        }
    }

    /// The frame `viewer` is shown of `channel` now: the view, or that the table is gone.
    fn current(&self, channel: ChannelId, viewer: Option<UserId>, lang: Lang) -> Utf8Bytes {
        let version = self.version(channel);
        self.tables
            .view(channel, viewer, lang, Timestamp::now())
            .and_then(|view| frame(version, &view))
            .unwrap_or_else(|| Utf8Bytes::from_static(GONE))
    }

    /// Serves one upgraded socket until it closes, falls silent, is too slow or its table is gone.
    async fn run(
        self: Arc<Self>,
        mut socket: WebSocket,
        slot: Slot,
        channel: ChannelId,
        viewer: Option<UserId>,
        lang: Lang,
    ) {
        let limits = self.limits;
        // Watching before the first view is read: no event falls in between.
        let (id, mut frames, cut) = self.watch(channel, viewer, lang);
        let first = self.current(channel, viewer, lang);
        let gone = first.as_str() == GONE;
        // Whether the socket takes what is written to it (a close is sent at the end only then).
        let mut writable = send(&mut socket, first, &limits, &cut).await;
        let mut open = writable && !gone;
        let mut ping = tokio::time::interval_at(
            tokio::time::Instant::now() + limits.ping_every,
            limits.ping_every,
        );
        let silence = tokio::time::sleep(limits.answer_within);
        tokio::pin!(silence);
        while open {
            tokio::select! {
                frame = frames.recv() => match frame {
                    Some(frame) => {
                        let last = frame.as_str() == GONE;
                        writable = send(&mut socket, frame, &limits, &cut).await;
                        open = writable && !last;
                    }
                    // Dropped: too slow, or the table is gone and everything was sent.
                    None => open = false,
                },
                heard = socket.recv() => match heard {
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => open = false,
                    Some(Ok(_)) => silence
                        .as_mut()
                        .reset(tokio::time::Instant::now() + limits.answer_within),
                },
                _ = ping.tick() => {
                    let ping = Message::Ping(Bytes::new());
                    writable = send_message(&mut socket, ping, &limits, &cut).await;
                    open = writable;
                }
                () = &mut silence => open = false,
                () = cut.notified() => (open, writable) = (false, false),
            }
        }
        self.unwatch(channel, id);
        if writable {
            let _ = send_message(&mut socket, Message::Close(None), &limits, &cut).await;
        }
        drop(slot);
    }
}

/// `{"version":n,"view":…}` as text (`None` only if the view could not be serialized, logged).
fn frame(version: u64, view: &TableView) -> Option<Utf8Bytes> {
    match serde_json::to_string(&Frame { version, view }) {
        Ok(text) => Some(Utf8Bytes::from(text)),
        Err(e) => {
            tracing::error!("a table view could not be serialized: {e}");
            None
        }
    }
}

/// Sends one frame; whether the socket is still open.
async fn send(socket: &mut WebSocket, frame: Utf8Bytes, limits: &LiveLimits, cut: &Notify) -> bool {
    send_message(socket, Message::Text(frame), limits, cut).await
}

/// Sends `message` within the limits' time, unless the socket is `cut` meanwhile; whether the socket
/// is still open.
async fn send_message(
    socket: &mut WebSocket,
    message: Message,
    limits: &LiveLimits,
    cut: &Notify,
) -> bool {
    tokio::select! {
        sent = tokio::time::timeout(limits.send_within, socket.send(message)) => {
            matches!(sent, Ok(Ok(())))
        }
        () = cut.notified() => false,
    }
}

/// The task following the tables' events for `live` (ends with it).
async fn listen(live: Weak<Live>, mut events: broadcast::Receiver<Event>) {
    loop {
        let received = events.recv().await;
        let Some(live) = live.upgrade() else {
            return;
        };
        match received {
            Ok(event) => live.on_event(event.channel, event.sequence),
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(
                    missed,
                    "the live channel missed events: every watched table is sent again"
                );
                live.push_all();
            }
            Err(RecvError::Closed) => return,
        }
    }
}

/// With several processes on one PostgreSQL database: follows the changes the other processes make
/// to their tables ([`Tables::listen_elsewhere`]). A changed table that this process does not hold
/// and that a socket here watches is read again from the store and its views are pushed (its
/// version: the store's); after the listening connection was made again, every such watched table
/// is. Changes that come in a burst are taken together (each table read once).
fn follow_elsewhere(live: &Arc<Live>) {
    let (changes, mut heard) = mpsc::unbounded_channel::<Option<ChannelId>>();
    if !live
        .tables
        .listen_elsewhere(move |change| changes.send(change).is_ok())
    {
        return;
    }
    let live = Arc::downgrade(live);
    tokio::spawn(async move {
        while let Some(first) = heard.recv().await {
            let Some(live) = live.upgrade() else {
                return;
            };
            let mut changed = HashSet::new();
            let mut all = false;
            let mut next = Some(first);
            while let Some(change) = next {
                match change {
                    Some(channel) => {
                        changed.insert(channel);
                    }
                    None => all = true,
                }
                next = heard.try_recv().ok();
            }
            let watched: Vec<ChannelId> = {
                let state = live.state();
                state
                    .channels
                    .keys()
                    .copied()
                    .filter(|channel| all || changed.contains(channel))
                    .collect()
            };
            for channel in watched {
                // Tables held here have their own events.
                if live.tables.web_token(channel).is_some() {
                    continue;
                }
                let tables = live.tables.clone();
                let _ = tokio::task::spawn_blocking(move || tables.read_elsewhere(channel)).await;
                if let Some(version) = live.tables.version_elsewhere(channel) {
                    live.state().versions.insert(channel, version);
                }
                live.push(channel);
            }
        }
    });
}

/// One socket's place within the bounds, given back when dropped.
struct Slot {
    live: Arc<Live>,
    peer: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.live.state();
        state.open = state.open.saturating_sub(1);
        if let Some(count) = state.per_address.get_mut(&self.peer) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                state.per_address.remove(&self.peer);
            }
        }
    }
}

/// The live socket of a page showing `channel` to `viewer` (a guest's user id, `None` for someone
/// not signed in) in `lang`, asked from `peer`: upgraded and served until it closes, or 429 Too Many
/// Requests past [`MAX_PER_ADDRESS`] or [`MAX_SOCKETS`].
pub async fn socket(
    live: Arc<Live>,
    channel: ChannelId,
    viewer: Option<UserId>,
    lang: Lang,
    peer: IpAddr,
    ws: WebSocketUpgrade,
) -> Response {
    let Some(slot) = live.reserve(peer) else {
        return too_many(lang);
    };
    ws.read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(MAX_INCOMING)
        .max_frame_size(MAX_INCOMING)
        // A failed upgrade drops the callback, and the slot with it.
        .on_upgrade(move |socket| live.run(socket, slot, channel, viewer, lang))
}

/// 429 with `{"error": …}` in `lang`.
fn too_many(lang: Lang) -> Response {
    let body = serde_json::json!({ "error": tr(lang, "web-live-full") }).to_string();
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests;
