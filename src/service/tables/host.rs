//! The host: the service runs its own clock and computer players and tells every face what happened.
//!
//! Learnt from mini-redis's `Db`: the state has one background task of its own and a
//! `tokio::sync::broadcast` its subscribers listen on. Here:
//! - [`Tables::spawn_host`] (started once per process) runs the timers ([`Tables::tick`]) and the
//!   computer players (one driver per channel at a time, [`Tables::auto_step`] after a pause) and
//!   publishes each reply as an [`Event`].
//! - [`Tables::serve`] is the one front door of every face: the blocking hop, hints routed like any
//!   other command, the computer's quick answer; the reply goes straight back to the asker (an
//!   interaction's answer never waits on a queue) and its deliverable outputs are published, tagged
//!   with the asking face. What follows (a late computer answer, the next computer moves) the host
//!   publishes once the asker lets go of the [`Pending`] it got back.
//! - [`Face`] is all a face implements: send one output, say what was posted ([`Sent`]).
//!   [`Tables::deliver`] sends outputs through a face and makes every acknowledgement owed after
//!   posting; [`Tables::spawn_face`] subscribes a face and delivers the events of its tables that it
//!   did not ask for itself (the asker delivers its own reply: each output goes out exactly once).
//!
//! Events of one channel are delivered in order (a queue per channel); channels do not wait for
//! each other.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc};

use crate::service::reply::{Image, Message, Output, ReplayImage, Reply};
use crate::service::table::turn_number;
use crate::service::text::{Text, Who};
use crate::service::{lock, ChannelId, Command, Request, Timestamp, UserId};

use super::Tables;

use super::quick::{Later, QUICK_ANSWER};

/// Events kept for a subscriber that has not read them yet; past it the oldest are lost (logged).
const BACKLOG: usize = 4096;

/// Events a face delivers between two looks for idle channel queues to drop.
const PRUNE_EVERY: u64 = 256;

/// Who speaks for a table: the face it was opened from (Discord unless said otherwise).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum FaceId {
    /// The Discord adapter.
    #[default]
    Discord,
    /// The console (`sequence-bot console`).
    Console,
    /// The web pages: a table opened from a browser (local play).
    Web,
}

impl FaceId {
    /// Whether it is Discord (the default, not written in a saved table).
    pub fn is_discord(&self) -> bool {
        *self == FaceId::Discord
    }
}

/// Where an event came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The host's clock or a computer player.
    Host,
    /// The request of a face (which delivers the outputs itself, with its answer).
    Face(FaceId),
}

/// What happened in a channel: plain data, for every subscriber.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The channel.
    pub channel: ChannelId,
    /// Counts up by one per event in the process, from 1: a subscriber that misses none sees no gap.
    pub sequence: u64,
    /// The turn number of the channel's game when the change was made (`None`: no game runs).
    pub turn: Option<u32>,
    /// Where it came from.
    pub origin: Origin,
    /// What to deliver, in order (never an answer meant for one asker). A direct message here may
    /// carry a player's hand, for the face of the table to send to its owner: a face that shows a
    /// table to others (a page for watchers) reads [`Tables::view`], never these outputs.
    pub outputs: Vec<Output>,
}

/// What a face did with one output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    /// A channel message was posted with this id.
    Posted(u64),
    /// A channel message was posted as the answer to an interaction (its id not known).
    Answered,
    /// A new lobby message was posted with this id.
    Lobby(u64),
    /// A new hand message was sent with this id.
    Hand(u64),
    /// A direct message was refused (the user takes none).
    DmRefused,
    /// Nothing to acknowledge (an edit, a private answer, a failure already logged).
    Nothing,
}

/// A face of the service (Discord, the console): it only knows how to send one output.
pub trait Face: Clone + Send + Sync + 'static {
    /// Which face this is.
    fn id(&self) -> FaceId;

    /// Sends one output of `channel`; says what was posted.
    fn send(&self, channel: ChannelId, output: &Output) -> impl Future<Output = Sent> + Send;

    /// The face as it sends what no request asked for (a follow-up that comes later).
    fn detached(&self) -> Self {
        self.clone()
    }

    /// Whether a replay animation is sent on a task of its own (it takes a while to draw, and nothing
    /// after it should wait).
    fn sends_replays_aside(&self) -> bool {
        false
    }

    /// Sees every event published, its own and other faces' included, before any is delivered.
    fn observe(&self, _event: &Event) {}
}

/// The lock of one player's hand message.
type HandLock = Arc<tokio::sync::Mutex<()>>;

/// The host's state inside [`Tables`].
#[derive(Debug)]
pub(in crate::service) struct Host {
    events: broadcast::Sender<Event>,
    /// The last sequence number given (taken while publishing, so numbers go out in order).
    sequence: Mutex<u64>,
    /// Channels whose computer moves are being played now.
    driving: Mutex<HashSet<ChannelId>>,
    /// The pause before each computer move.
    bot_delay: Mutex<Duration>,
    /// The face of each channel whose table was opened (or restored) in this process by another
    /// face than the default, kept after the table closes so that its last events find their face.
    owners: Mutex<HashMap<ChannelId, FaceId>>,
    /// The face of a table no face has asked about in this process (restored ones).
    default_face: Mutex<FaceId>,
    /// Taken while a player's hand message is sent and its id noted, so that two changes of one
    /// hand never send two messages.
    hands: Mutex<HashMap<(ChannelId, UserId), HandLock>>,
    /// Taken while a channel's new lobby card is posted and its id noted, so that a change made while
    /// the card is on its way edits it instead of posting a second card.
    cards: Mutex<HashMap<ChannelId, HandLock>>,
}

impl Default for Host {
    fn default() -> Host {
        Host {
            events: broadcast::channel(BACKLOG).0,
            sequence: Mutex::new(0),
            driving: Mutex::new(HashSet::new()),
            bot_delay: Mutex::new(Duration::ZERO),
            owners: Mutex::new(HashMap::new()),
            default_face: Mutex::new(FaceId::Discord),
            hands: Mutex::new(HashMap::new()),
            cards: Mutex::new(HashMap::new()),
        }
    }
}

/// What follows a served request: the computer's late answer and the computer moves due after it.
/// Published by the service once this is dropped: hold it until the asker's answer is sent, so that
/// nothing that follows overtakes it.
#[must_use = "what follows the request starts when this is dropped"]
pub struct Pending {
    tables: Arc<Tables>,
    channel: ChannelId,
    auto_move: bool,
    later: Option<Later>,
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("channel", &self.channel)
            .field("auto_move", &self.auto_move)
            .field("later", &self.later.is_some())
            .finish()
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let later = self.later.take();
        if later.is_none() && !self.auto_move {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let (tables, channel) = (self.tables.clone(), self.channel);
        match later {
            Some(later) => {
                runtime.spawn(async move {
                    for reply in later.replies().await {
                        tables.publish(channel, Origin::Host, &reply.outputs);
                    }
                    tables.drive(channel);
                });
            }
            None => {
                let _entered = runtime.enter();
                tables.drive(channel);
            }
        }
    }
}

/// Whether an output goes to the channel (or a member's DMs), not to one asker.
fn is_deliverable(output: &Output) -> bool {
    !matches!(output, Output::Ephemeral(_) | Output::Update(_))
}

/// Whether a message shows a player's hand.
fn is_hand(message: &Message) -> bool {
    message
        .lines
        .iter()
        .any(|line| matches!(line, Text::Hand { .. }))
}

impl Tables {
    /// A receiver of every event published from now on (none before it).
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.host.events.subscribe()
    }

    /// The face of tables no face has asked about in this process (restored ones): Discord unless a
    /// process without Discord says otherwise.
    pub fn set_default_face(&self, face: FaceId) {
        *lock(&self.host.default_face) = face;
    }

    /// The face that speaks for `channel`'s table: the face it was opened from; for a table saved
    /// before faces were told apart (or marked Discord's), the process's default face.
    pub fn face_of(&self, channel: ChannelId) -> FaceId {
        if let Some(face) = lock(&self.host.owners).get(&channel) {
            return *face;
        }
        let saved = self
            .get(channel)
            .map(|shared| lock(&shared).face)
            .filter(|face| !face.is_discord());
        saved.unwrap_or_else(|| *lock(&self.host.default_face))
    }

    /// Notes that `channel`'s table (opened or restored) belongs to `face`.
    pub(in crate::service) fn note_face(&self, channel: ChannelId, face: FaceId) {
        let mut owners = lock(&self.host.owners);
        if owners.len() >= super::MAX_REMEMBERED {
            owners.retain(|channel, _| self.get(*channel).is_some());
        }
        owners.insert(channel, face);
    }

    /// A table `face` has just opened in `channel`: marked as that face's and saved (blocking; if
    /// saving fails, the next saved action carries it).
    fn claim_table(&self, channel: ChannelId, face: FaceId) {
        self.note_face(channel, face);
        self.update_saved(channel, "the table's face", |table| {
            if table.face == face {
                return false;
            }
            table.face = face;
            true
        });
    }

    /// The turn number of the game running in `channel`.
    fn turn_of(&self, channel: ChannelId) -> Option<u32> {
        let shared = self.get(channel)?;
        let table = lock(&shared);
        table.playing().map(|p| turn_number(p.live.game()))
    }

    /// Publishes the deliverable `outputs` of `channel` as one event (nothing when there are none):
    /// its sequence number.
    pub(in crate::service) fn publish(
        &self,
        channel: ChannelId,
        origin: Origin,
        outputs: &[Output],
    ) -> Option<u64> {
        let outputs: Vec<Output> = outputs
            .iter()
            .filter(|o| is_deliverable(o))
            .cloned()
            .collect();
        if outputs.is_empty() {
            return None;
        }
        let turn = self.turn_of(channel);
        let mut sequence = lock(&self.host.sequence);
        *sequence += 1;
        // No subscriber yet is no error: the event concerns nobody.
        let _ = self.host.events.send(Event {
            channel,
            sequence: *sequence,
            turn,
            origin,
            outputs,
        });
        Some(*sequence)
    }

    /// The one way in for every face: `request` from `face`, handled on a blocking thread (hints
    /// searched in the pool), a computer's quick answer waited for ([`QUICK_ANSWER`]). The reply
    /// goes straight back to the asker, who delivers it; its deliverable outputs are published,
    /// tagged with `face`. What follows comes once [`Pending`] is dropped. A table the request
    /// opens belongs to `face` ([`Tables::serve_owned`] gives it to another).
    pub async fn serve(self: &Arc<Self>, request: Request, face: FaceId) -> (Reply, Pending) {
        self.serve_owned(request, face, face).await
    }

    /// [`Tables::serve`] asked from `face`, where a table the request opens belongs to `owner` (the
    /// Activity's page opens a lobby the Discord face speaks for): the reply's outputs are still
    /// published as `face`'s, so the owner delivers them. A table already open keeps its face.
    pub async fn serve_owned(
        self: &Arc<Self>,
        request: Request,
        face: FaceId,
        owner: FaceId,
    ) -> (Reply, Pending) {
        let channel = request.channel;
        let opened = self.get(channel).is_none();
        let now = Timestamp::now();
        let user = request.actor.user;
        let reply = match request.command {
            // A page of a table another process runs: shown here, played there.
            _ if face == FaceId::Web && self.held_elsewhere(channel) => {
                Reply::ephemeral(Text::PlayedElsewhere)
            }
            Command::Hint => self.hint(channel, user, now).await,
            Command::Press(press) if press.is_hint() => {
                self.press_hint(channel, user, press, now).await
            }
            _ => {
                let tables = self.clone();
                let handled = tokio::task::spawn_blocking(move || {
                    let reply = tables.handle(request, now);
                    if opened && tables.get(channel).is_some() {
                        tables.claim_table(channel, owner);
                    }
                    reply
                });
                match handled.await {
                    Ok(reply) => reply,
                    Err(e) => {
                        self.log_span(channel).in_scope(|| {
                            tracing::error!(channel = channel.0, "a request failed: {e}")
                        });
                        Reply::ephemeral(Text::Internal)
                    }
                }
            }
        };
        let (reply, later) = self.with_quick_answer(channel, reply, QUICK_ANSWER).await;
        self.publish(channel, Origin::Face(face), &reply.outputs);
        let pending = Pending {
            tables: self.clone(),
            channel,
            auto_move: reply.auto_move,
            later,
        };
        (reply, pending)
    }

    /// A reply the service gave a face outside [`Tables::serve`] (a restart's note, a table resumed
    /// by an interaction): published as the face's, delivered through it, and the computer moves it
    /// calls for played.
    pub async fn deliver_reply<F: Face>(
        self: &Arc<Self>,
        face: &F,
        channel: ChannelId,
        reply: &Reply,
    ) {
        self.publish(channel, Origin::Face(face.id()), &reply.outputs);
        self.deliver(face, channel, &reply.outputs).await;
        if reply.auto_move {
            self.drive(channel);
        }
    }

    /// Starts the host task (once per process): every `every` the timers; computer moves each after
    /// `bot_delay`. Every reply is published.
    pub fn spawn_host(
        self: &Arc<Self>,
        every: Duration,
        bot_delay: Duration,
    ) -> tokio::task::JoinHandle<()> {
        *lock(&self.host.bot_delay) = bot_delay;
        let tables = self.clone();
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(every);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                interval.tick().await;
                // On a blocking thread: timers may save tables.
                let ticking = tables.clone();
                let due = match tokio::task::spawn_blocking(move || ticking.tick(Timestamp::now()))
                    .await
                {
                    Ok(due) => due,
                    Err(e) => {
                        tracing::error!("the timers failed: {e}");
                        continue;
                    }
                };
                for (channel, reply) in due {
                    tables.publish(channel, Origin::Host, &reply.outputs);
                    if reply.auto_move {
                        tables.drive(channel);
                    }
                }
            }
        })
    }

    /// Plays the due computer moves of `channel` one by one on a task of its own, each published
    /// (one driver per channel at a time).
    pub(in crate::service) fn drive(self: &Arc<Self>, channel: ChannelId) {
        if !lock(&self.host.driving).insert(channel) {
            return;
        }
        let tables = self.clone();
        tokio::spawn(async move {
            loop {
                let delay = *lock(&tables.host.bot_delay);
                tokio::time::sleep(delay).await;
                let Some(reply) = tables.auto_step(channel, Timestamp::now()).await else {
                    break;
                };
                tables.publish(channel, Origin::Host, &reply.outputs);
            }
            lock(&tables.host.driving).remove(&channel);
        });
    }

    /// Whether `face` delivers `event`: the events of its own tables that it did not ask for.
    fn delivers<F: Face>(&self, face: &F, event: &Event) -> bool {
        event.origin != Origin::Face(face.id()) && self.face_of(event.channel) == face.id()
    }

    /// Subscribes `face` and delivers every event it is to deliver ([`Tables::deliver`]), a
    /// channel's in order; every event is shown to [`Face::observe`] first.
    pub fn spawn_face<F: Face>(self: &Arc<Self>, face: F) -> tokio::task::JoinHandle<()> {
        let mut events = self.subscribe();
        let tables = self.clone();
        tokio::spawn(async move {
            let mut queues: HashMap<ChannelId, (mpsc::UnboundedSender<Event>, Arc<AtomicUsize>)> =
                HashMap::new();
            let mut seen = 0u64;
            loop {
                let event = match events.recv().await {
                    Ok(event) => event,
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::error!(missed, face = ?face.id(), "events were lost: the face fell behind");
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                face.observe(&event);
                if !tables.delivers(&face, &event) {
                    continue;
                }
                seen += 1;
                if seen.is_multiple_of(PRUNE_EVERY) {
                    // A queue with nothing left to deliver, of a channel without a table, goes.
                    queues.retain(|channel, (_, waiting)| {
                        waiting.load(Ordering::SeqCst) > 0 || tables.get(*channel).is_some()
                    });
                }
                let (queue, waiting) = queues
                    .entry(event.channel)
                    .or_insert_with(|| channel_queue(&tables, &face));
                waiting.fetch_add(1, Ordering::SeqCst);
                if queue.send(event).is_err() {
                    tracing::error!("a channel's delivery queue is gone");
                }
            }
        })
    }

    /// Sends `outputs` of `channel` through `face`, one after the other, each followed by the
    /// acknowledgements it calls for ([`Tables::acknowledge`]).
    pub async fn deliver<F: Face>(
        self: &Arc<Self>,
        face: &F,
        channel: ChannelId,
        outputs: &[Output],
    ) {
        for output in outputs {
            match output {
                Output::Channel(message)
                    if face.sends_replays_aside()
                        && matches!(message.image, Some(Image::Replay(_))) =>
                {
                    // Drawn and posted on a task of its own: nothing after it waits. It follows the
                    // message before it, which is posted already.
                    let (tables, face, output) = (self.clone(), face.clone(), output.clone());
                    tokio::spawn(async move {
                        let sent = face.send(channel, &output).await;
                        tables.acknowledge(&face, channel, &output, sent).await;
                    });
                }
                Output::Lobby {
                    message_id: None,
                    message,
                } => {
                    // One new card at a time: a change made while the card was being posted (a
                    // join right after the lobby opened) edits the card once its id is known. An
                    // edit of a known card waits for nothing.
                    let card = self.lobby_card_lock(channel);
                    let _one_at_a_time = card.lock().await;
                    let output = match self.lobby_card(channel) {
                        Some(id) => Output::Lobby {
                            message_id: Some(id),
                            message: message.clone(),
                        },
                        None => output.clone(),
                    };
                    let sent = face.send(channel, &output).await;
                    self.acknowledge(face, channel, &output, sent).await;
                }
                Output::Direct { user, message } if is_hand(message) => {
                    // One player's hand messages one at a time: a second change waits for the first
                    // message's id instead of sending a second message.
                    let hand = self.hand_lock(channel, *user);
                    let _one_at_a_time = hand.lock().await;
                    let sent = face.send(channel, output).await;
                    self.acknowledge(face, channel, output, sent).await;
                }
                _ => {
                    let sent = face.send(channel, output).await;
                    self.acknowledge(face, channel, output, sent).await;
                }
            }
        }
    }

    /// The lock of `user`'s hand message in `channel`.
    fn hand_lock(&self, channel: ChannelId, user: UserId) -> HandLock {
        let mut hands = lock(&self.host.hands);
        if hands.len() >= super::MAX_REMEMBERED {
            hands.retain(|_, held| Arc::strong_count(held) > 1);
        }
        hands.entry((channel, user)).or_default().clone()
    }

    /// The lock of `channel`'s lobby card: held while a new card is posted and its id noted (a face
    /// that answers with the card holds it too), so that no second card is posted meanwhile.
    pub fn lobby_card_lock(&self, channel: ChannelId) -> Arc<tokio::sync::Mutex<()>> {
        let mut cards = lock(&self.host.cards);
        if cards.len() >= super::MAX_REMEMBERED {
            cards.retain(|_, held| Arc::strong_count(held) > 1);
        }
        cards.entry(channel).or_default().clone()
    }

    /// The id of the lobby card of `channel`'s open lobby, once it is known.
    fn lobby_card(&self, channel: ChannelId) -> Option<u64> {
        let shared = self.get(channel)?;
        let table = lock(&shared);
        let open = !table.closed && matches!(table.state, crate::service::table::State::Lobby(_));
        table.lobby_message.filter(|_| open)
    }

    /// What the service owes after `face` sent `output` of `channel` (`sent`): a replay's slot freed;
    /// a posted game end recorded as announced and its agreement follow-up posted when ready; a
    /// posted prompt noted and old prompts disarmed; a lobby's or a hand message's id kept; a refused
    /// hand said in the channel once per game.
    pub async fn acknowledge<F: Face>(
        self: &Arc<Self>,
        face: &F,
        channel: ChannelId,
        output: &Output,
        sent: Sent,
    ) {
        match (output, sent) {
            (Output::Channel(message), sent) => {
                if let Some(Image::Replay(ReplayImage {
                    slot: Some(slot), ..
                })) = &message.image
                {
                    // Posted or not, its slot in the replay queue is free again.
                    self.replay_posted(*slot);
                }
                if !matches!(sent, Sent::Posted(_) | Sent::Answered) {
                    return;
                }
                if let Some(game) = message.announced_game() {
                    self.announced(game).await;
                    self.spawn_agreement(channel, game);
                }
                if let Sent::Posted(id) = sent {
                    for edit in self.note_prompt(channel, id, message) {
                        face.send(channel, &edit).await;
                    }
                }
            }
            (Output::Lobby { .. }, Sent::Lobby(id)) => {
                let tables = self.clone();
                if let Err(e) =
                    tokio::task::spawn_blocking(move || tables.set_lobby_message(channel, id)).await
                {
                    tracing::error!(
                        channel = channel.0,
                        "cannot remember the lobby message: {e}"
                    );
                }
            }
            (Output::Direct { user, .. }, Sent::Hand(id)) => {
                let (tables, user) = (self.clone(), *user);
                if let Err(e) =
                    tokio::task::spawn_blocking(move || tables.set_hand_dm(channel, user, id)).await
                {
                    tracing::error!(channel = channel.0, "cannot remember the hand message: {e}");
                }
            }
            // Only a hand needs another way to the player (the notice points to Show my cards); a
            // note such as a challenge declined is left at that.
            (Output::Direct { user, message }, Sent::DmRefused)
                if is_hand(message) && self.note_dm_failed(channel, *user) =>
            {
                let notice = Message {
                    lines: vec![Text::DmFailed(Who::User(*user))],
                    mentions: vec![*user],
                    ..Message::default()
                };
                face.send(channel, &Output::Channel(notice)).await;
            }
            _ => {}
        }
    }

    /// Records, on a blocking thread, that the end of game `id` was announced.
    async fn announced(self: &Arc<Self>, id: i64) {
        let tables = self.clone();
        if let Err(e) = tokio::task::spawn_blocking(move || tables.mark_announced(id)).await {
            tracing::warn!(
                game = id,
                "cannot record that a game's end was announced: {e}"
            );
        }
    }

    /// After game `id`'s final message was posted: its follow-up, each human's agreement with the
    /// computer, published when the analysis is done (the table's face posts it).
    fn spawn_agreement(self: &Arc<Self>, channel: ChannelId, id: i64) {
        let tables = self.clone();
        tokio::spawn(async move {
            if let Some(follow_up) = tables.agreement_follow_up(id).await {
                tables.publish(channel, Origin::Host, &[Output::Channel(follow_up)]);
            }
        });
    }
}

/// A queue of one channel's events for `face`, delivered in order by a task of its own (which ends
/// when the queue is dropped); with the count of events waiting in it.
fn channel_queue<F: Face>(
    tables: &Arc<Tables>,
    face: &F,
) -> (mpsc::UnboundedSender<Event>, Arc<AtomicUsize>) {
    let (queue, mut events) = mpsc::unbounded_channel::<Event>();
    let waiting = Arc::new(AtomicUsize::new(0));
    let (tables, face, counted) = (tables.clone(), face.detached(), waiting.clone());
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            tables.deliver(&face, event.channel, &event.outputs).await;
            counted.fetch_sub(1, Ordering::SeqCst);
        }
    });
    (queue, waiting)
}
