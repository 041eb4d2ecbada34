//! Issue 33: Discord forgets an interaction that is not answered within three seconds, and the player's
//! press is lost. The bot (the library, run in this process so that its pictures can be held up) draws
//! with a painter that blocks every picture while a gate is closed, for up to 10 s: a drawing queue full
//! of boards and replay animations on a small machine. Against a stand-in that refuses any answer later
//! than 1.5 s after the dispatch, every command and press of a game (start, join, begin, Play, a picker
//! step, a move, board, hand, status) is still acknowledged in time, and once the pictures come, carried
//! out: nothing lost.

use crate::support;

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use sequence_bot::app::paint::{Painter, RenderPainter};
use sequence_bot::engine::{Cell, View};
use sequence_bot::i18n::Lang;
use support::bot::{BotOptions, InProcessBot};
use support::fake_discord::{Config, FakeDiscord, Interaction, StoredMessage};
use support::table::{choices, lobby_of, mover_of, play_button};

/// The bound: acknowledged within 1.5 s of arrival (Discord allows 3).
const WINDOW: Duration = Duration::from_millis(1500);
/// How long a closed gate holds pictures at most.
const HOLD: Duration = Duration::from_secs(10);
/// How long a held picture may take to arrive once the gate is open (drawing in a debug build).
const AFTER: Duration = Duration::from_secs(30);

/// Holds every picture while closed, at most [`HOLD`] from when it closed.
#[derive(Default)]
struct Gate {
    closed_at: Mutex<Option<Instant>>,
    changed: Condvar,
    held: std::sync::atomic::AtomicUsize,
}

impl Gate {
    fn close(&self) {
        *self.closed_at.lock().unwrap() = Some(Instant::now());
    }

    fn open(&self) {
        *self.closed_at.lock().unwrap() = None;
        self.changed.notify_all();
    }

    /// Whether pictures are still held (closed, and not for [`HOLD`] yet).
    fn is_holding(&self) -> bool {
        self.closed_at
            .lock()
            .unwrap()
            .is_some_and(|at| at.elapsed() < HOLD)
    }

    fn wait(&self) {
        let mut closed = self.closed_at.lock().unwrap();
        let mut counted = false;
        while let Some(at) = *closed {
            let left = HOLD.saturating_sub(at.elapsed());
            if left.is_zero() {
                break;
            }
            if !counted {
                self.held.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                counted = true;
            }
            closed = self.changed.wait_timeout(closed, left).unwrap().0;
        }
    }
}

/// Draws as the bot does, once the gate lets it.
struct HeldPainter(Arc<Gate>);

impl Painter for HeldPainter {
    fn board(
        &self,
        view: &View,
        names: &[String],
        lang: Lang,
        targets: &[Cell],
    ) -> Result<Vec<u8>, String> {
        self.0.wait();
        RenderPainter.board(view, names, lang, targets)
    }

    fn hand(&self, view: &View, lang: Lang) -> Result<Vec<u8>, String> {
        self.0.wait();
        RenderPainter.hand(view, lang)
    }
}

/// The interaction was answered or deferred within [`WINDOW`] of its dispatch (the stand-in refuses
/// anything later, so a late answer shows as a refusal here).
async fn acknowledged_in_time(fake: &FakeDiscord, what: &str, interaction: &Interaction) {
    fake.wait_callback(interaction, WINDOW + Duration::from_secs(2))
        .await
        .unwrap_or_else(|e| panic!("{what}: not acknowledged in time: {e}"));
    let state = fake.interaction(interaction.id).expect("the interaction");
    let latency = state.latency().expect("dispatched and answered");
    assert!(
        latency <= WINDOW,
        "{what}: acknowledged {latency:?} after its dispatch"
    );
    assert!(
        state.refused_callbacks.is_empty(),
        "{what}: {:?}",
        state.refused_callbacks
    );
}

/// The first public message of `channel` that `matches`, once posted (within `limit`).
async fn posted(
    fake: &FakeDiscord,
    channel: u64,
    limit: Duration,
    what: &str,
    matches: impl Fn(&StoredMessage) -> bool,
) -> StoredMessage {
    fake.shared()
        .wait_for(limit, what, &[channel], |s| {
            s.messages_in(channel)
                .into_iter()
                .find(|m| !m.is_ephemeral() && matches(m))
                .cloned()
        })
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Waits for the visible answer of `interaction` (after a deferral, once it is filled in).
async fn answered(fake: &FakeDiscord, what: &str, interaction: &Interaction) -> StoredMessage {
    fake.wait_reply(interaction, AFTER)
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_press_and_command_is_acknowledged_in_time_while_pictures_are_held() {
    let config = Config {
        interaction_deadline: Some(WINDOW),
        ..Config::default()
    };
    let fake = FakeDiscord::start(config)
        .await
        .expect("the stand-in starts");
    let dir = tempfile::tempdir().expect("a folder");
    let gate = Arc::new(Gate::default());
    let _bot = InProcessBot::spawn(
        &fake,
        dir.path(),
        &BotOptions::default(),
        Arc::new(HeldPainter(gate.clone())),
    );
    fake.wait_ready(Duration::from_secs(60))
        .await
        .expect("the bot connects");
    fake.wait_command("sequence", Duration::from_secs(60))
        .await
        .expect("the commands are registered");
    let channel = fake.add_channel("held-pictures");
    let ann = fake.add_user("ann");
    let bob = fake.add_user("bob");
    let players = [ann.clone(), bob.clone()];

    // The lobby and the start, with every picture held: the game's first board waits for the gate.
    gate.close();
    let start = fake
        .slash(&ann, channel, "sequence start", &[("game", "classic")])
        .unwrap();
    acknowledged_in_time(&fake, "/sequence start", &start).await;
    let lobby = lobby_of(&fake, &start, channel).await.expect("the lobby");
    let join = fake.click(&bob, lobby.id, "sequence:join").unwrap();
    acknowledged_in_time(&fake, "Join", &join).await;
    answered(&fake, "Join", &join).await;
    let begin = fake.click(&ann, lobby.id, "sequence:begin").unwrap();
    acknowledged_in_time(&fake, "Start", &begin).await;
    assert!(
        gate.is_holding(),
        "the acknowledgements came while drawing was held"
    );
    // Carried out once the pictures come (the gate lets go after HOLD by itself).
    posted(&fake, channel, HOLD + AFTER, "the game to start", |m| {
        m.content.contains("begins!")
    })
    .await;
    let prompt = posted(&fake, channel, AFTER, "the first turn's prompt", |m| {
        play_button(m).is_some()
    })
    .await;

    // A turn's Play, and everything the other player may ask meanwhile, with every picture held.
    let mover = mover_of(&prompt).unwrap();
    let (player, other) = if mover == ann.id {
        (&players[0], &players[1])
    } else {
        (&players[1], &players[0])
    };
    gate.close();
    let open = play_button(&prompt).expect("a Play button");
    let play = fake.click(player, prompt.id, &open).unwrap();
    acknowledged_in_time(&fake, "Play", &play).await;
    let board = fake.slash(other, channel, "sequence board", &[]).unwrap();
    acknowledged_in_time(&fake, "/sequence board", &board).await;
    let hand = fake.slash(other, channel, "sequence hand", &[]).unwrap();
    acknowledged_in_time(&fake, "/sequence hand", &hand).await;
    let status = fake.slash(other, channel, "sequence status", &[]).unwrap();
    acknowledged_in_time(&fake, "/sequence status", &status).await;
    assert!(
        gate.is_holding(),
        "the acknowledgements came while drawing was held"
    );
    assert!(gate.held.load(std::sync::atomic::Ordering::SeqCst) > 0);
    gate.open();
    let picker = answered(&fake, "Play", &play).await;
    assert!(picker.is_ephemeral(), "the picker is private: {picker:?}");
    let shown = answered(&fake, "/sequence board", &board).await;
    assert!(
        shown.attachments.iter().any(|a| a.filename == "board.png"),
        "the board is shown: {shown:?}"
    );
    let cards = answered(&fake, "/sequence hand", &hand).await;
    assert!(cards.is_ephemeral(), "the hand is private: {cards:?}");
    assert!(
        cards.attachments.iter().any(|a| a.filename == "hand.png"),
        "the hand is shown: {cards:?}"
    );
    let told = answered(&fake, "/sequence status", &status).await;
    assert!(told.is_ephemeral(), "{told:?}");

    // The picker's steps and the move, each pressed while pictures are held.
    let mut moved = None;
    for step in 0..12 {
        let current = fake.message(picker.id).expect("the picker");
        let options = choices(&current);
        let Some((id, value)) = options
            .iter()
            .find(|(id, _)| id.contains(":cell:"))
            .or_else(|| options.first())
            .cloned()
        else {
            panic!("step {step}: a picker step with nothing to press: {current:?}");
        };
        gate.close();
        let press = match &value {
            Some(v) => fake.select(player, picker.id, &id, &[v.as_str()]).unwrap(),
            None => fake.click(player, picker.id, &id).unwrap(),
        };
        acknowledged_in_time(&fake, &format!("picker step {step} ({id})"), &press).await;
        assert!(gate.is_holding());
        gate.open();
        let shown = answered(&fake, &format!("picker step {step}"), &press).await;
        assert_eq!(shown.id, picker.id, "the picker is edited in place");
        if id.contains(":cell:") {
            moved = Some(press);
            break;
        }
    }
    let moved = moved.expect("the picker led to a move");
    let next = posted(&fake, channel, AFTER, "the next turn", |m| {
        m.id > moved.id && play_button(m).is_some()
    })
    .await;
    assert_eq!(mover_of(&next).unwrap(), other.id, "{}", next.content);
    let posts: Vec<StoredMessage> = fake
        .messages_in(channel)
        .into_iter()
        .filter(|m| m.id > moved.id && !m.is_ephemeral())
        .collect();
    assert!(
        posts.iter().any(|m| m.content.contains(" played ")),
        "the move is announced: {posts:?}"
    );
}
