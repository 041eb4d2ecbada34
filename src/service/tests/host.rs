//! Issue 45.1–2: the host runs the timers and the computer players itself and publishes every change;
//! every face asks through [`Tables::serve`] and delivers through [`Face`]. Fake faces record what
//! they observe and what they are given to send.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::broadcast;

use super::kit::{
    human_to_move, join, random_human_action, seeded, start, test_actor, test_settings,
};
use crate::engine::{GameRng, Variant};
use crate::service::{
    ChannelId, Command, Event, Face, FaceId, Origin, Output, Reply, Request, Sent, Settings, Tables,
};

/// A face that records every event it observes and every output it is given to send.
#[derive(Clone)]
struct Fake {
    id: FaceId,
    observed: Arc<Mutex<Vec<Event>>>,
    sent: Arc<Mutex<Vec<Output>>>,
    next_id: Arc<Mutex<u64>>,
    /// How long posting a new lobby card takes (its trip to the chat).
    card_trip: Duration,
}

impl Fake {
    fn new(id: FaceId) -> Fake {
        Fake {
            id,
            observed: Arc::default(),
            sent: Arc::default(),
            next_id: Arc::new(Mutex::new(1000)),
            card_trip: Duration::ZERO,
        }
    }

    fn observed(&self) -> Vec<Event> {
        self.observed.lock().unwrap().clone()
    }

    fn sent(&self) -> Vec<Output> {
        self.sent.lock().unwrap().clone()
    }
}

impl Face for Fake {
    fn id(&self) -> FaceId {
        self.id
    }

    async fn send(&self, _channel: ChannelId, output: &Output) -> Sent {
        self.sent.lock().unwrap().push(output.clone());
        if let Output::Lobby {
            message_id: None, ..
        } = output
        {
            tokio::time::sleep(self.card_trip).await;
        }
        let mut next = self.next_id.lock().unwrap();
        *next += 1;
        match output {
            Output::Channel(_) => Sent::Posted(*next),
            Output::Lobby {
                message_id: None, ..
            } => Sent::Lobby(*next),
            _ => Sent::Nothing,
        }
    }

    fn observe(&self, event: &Event) {
        self.observed.lock().unwrap().push(event.clone());
    }
}

/// Tables with `settings` and a host ticking every 10 ms, computers moving without a pause.
fn hosted(settings: Settings, seed: u64) -> Arc<Tables> {
    let tables = Arc::new(seeded(settings, seed));
    tables.spawn_host(Duration::from_millis(10), Duration::ZERO);
    tables
}

/// `user`'s `command` in `channel`, served as asked from `face`, which delivers the answer itself
/// (as an asker does); what follows starts once it is delivered.
async fn serve<F: Face>(
    tables: &Arc<Tables>,
    face: &F,
    channel: u64,
    user: u64,
    command: Command,
) -> Reply {
    let request = Request {
        guild: None,
        channel: ChannelId(channel),
        actor: test_actor(user),
        command,
    };
    let (reply, pending) = tables.serve(request, face.id()).await;
    tables
        .deliver(face, ChannelId(channel), &reply.outputs)
        .await;
    drop(pending);
    reply
}

/// Whether `channel` has no table (its game is over).
fn is_over(tables: &Tables, channel: u64) -> bool {
    tables.snapshot(ChannelId(channel)).is_none()
}

/// Person 1 against two computers in `channel`, played to the end from `face` with random moves.
async fn play_against_two<F: Face>(tables: &Arc<Tables>, face: &F, channel: u64) {
    assert!(
        !serve(tables, face, channel, 1, start(Variant::Classic, None))
            .await
            .is_refusal()
    );
    for _ in 0..2 {
        let add = Command::AddBot { level: None };
        assert!(!serve(tables, face, channel, 1, add).await.is_refusal());
    }
    assert!(!serve(tables, face, channel, 1, Command::Begin)
        .await
        .is_refusal());
    let mut rng = GameRng::new(7);
    for _ in 0..20_000 {
        if is_over(tables, channel) {
            return;
        }
        if human_to_move(tables, channel).is_some() {
            if let Some((user, command)) = random_human_action(tables, channel, &mut rng) {
                serve(tables, face, channel, user, command).await;
                continue;
            }
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    panic!("the game did not end");
}

/// Every event in `events` follows the one before it: no gap, no duplicate.
fn assert_in_order(events: &[Event]) {
    for pair in events.windows(2) {
        assert_eq!(pair[1].sequence, pair[0].sequence + 1, "{events:#?}");
    }
}

/// Waits until the subscribers have had time to see the last events.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(200)).await;
}

fn drain(receiver: &mut broadcast::Receiver<Event>) -> Vec<Event> {
    let mut events = Vec::new();
    while let Ok(event) = receiver.try_recv() {
        events.push(event);
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_subscribers_each_get_every_event_of_a_game_once() {
    let tables = hosted(test_settings(), 45);
    let console = Fake::new(FaceId::Console);
    let discord = Fake::new(FaceId::Discord);
    tables.spawn_face(console.clone());
    tables.spawn_face(discord.clone());
    play_against_two(&tables, &console, 1).await;
    settle().await;
    let (seen_by_console, seen_by_discord) = (console.observed(), discord.observed());
    assert!(!seen_by_console.is_empty());
    assert_eq!(seen_by_console.first().map(|e| e.sequence), Some(1));
    assert_in_order(&seen_by_console);
    assert_eq!(seen_by_console, seen_by_discord);
    // The asker's own requests and the host's computer moves, with the turn they were made on.
    assert!(seen_by_console
        .iter()
        .any(|e| e.origin == Origin::Face(FaceId::Console)));
    assert!(seen_by_console.iter().any(|e| e.origin == Origin::Host));
    assert!(seen_by_console
        .iter()
        .any(|e| e.turn.is_some_and(|t| t > 1)));
    // Never an answer meant for one asker.
    assert!(seen_by_console
        .iter()
        .flat_map(|e| &e.outputs)
        .all(|o| !matches!(o, Output::Ephemeral(_) | Output::Update(_))));
    // The game's face sent every event's outputs once: its own answers itself, the host's events
    // through its subscription (old prompts disarmed come besides, from acknowledgements); the
    // other face delivered nothing of a table that is not its own.
    let sent: Vec<Output> = console
        .sent()
        .into_iter()
        .filter(|o| {
            !matches!(
                o,
                Output::Ephemeral(_) | Output::Update(_) | Output::Disarm { .. }
            )
        })
        .collect();
    let published: Vec<&Output> = seen_by_console
        .iter()
        .flat_map(|e| &e.outputs)
        .filter(|o| !matches!(o, Output::Disarm { .. }))
        .collect();
    assert_eq!(sent.len(), published.len());
    for output in &published {
        let times = |list: &mut dyn Iterator<Item = &Output>| list.filter(|o| o == output).count();
        assert_eq!(
            times(&mut sent.iter()),
            times(&mut published.iter().copied()),
            "{output:?}"
        );
    }
    assert!(discord.sent().is_empty(), "{:?}", discord.sent());
    // The final message is among the events (the game ended through the host's moves or the
    // person's).
    assert!(seen_by_console
        .iter()
        .flat_map(|e| &e.outputs)
        .any(|o| matches!(o, Output::Channel(m) if m.attachment.is_some())));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_subscriber_gets_only_what_follows() {
    let tables = hosted(test_settings(), 46);
    let face = Fake::new(FaceId::Console);
    let mut early = tables.subscribe();
    assert!(!serve(&tables, &face, 2, 1, start(Variant::Classic, None))
        .await
        .is_refusal());
    assert!(!serve(&tables, &face, 2, 2, Command::Join { team: None })
        .await
        .is_refusal());
    let mut late = tables.subscribe();
    assert!(!serve(&tables, &face, 2, 1, Command::Begin)
        .await
        .is_refusal());
    assert!(!serve(&tables, &face, 2, 2, Command::Status)
        .await
        .is_refusal());
    settle().await;
    let (early, late) = (drain(&mut early), drain(&mut late));
    assert_eq!(early.len(), 3, "{early:#?}");
    assert_in_order(&early);
    // Only the begin: what came before it is not replayed, and the status was private.
    assert_eq!(late, early[2..].to_vec());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_game_runs_to_its_end_with_no_face_driving_it() {
    // A player whose turn times out gives up: a computer takes the seat, then computers play on.
    let settings = Settings {
        turn_reminder: Duration::from_secs(3600),
        turn_timeout: Duration::from_millis(20),
        timeout_gives_up: true,
        ..test_settings()
    };
    let tables = hosted(settings, 47);
    let face = Fake::new(FaceId::Console);
    let mut events = tables.subscribe();
    assert!(!serve(&tables, &face, 3, 1, start(Variant::Classic, None))
        .await
        .is_refusal());
    let add = Command::AddBot { level: None };
    assert!(!serve(&tables, &face, 3, 1, add).await.is_refusal());
    assert!(!serve(&tables, &face, 3, 1, Command::Begin)
        .await
        .is_refusal());
    // Nobody asks anything more, nobody calls tick or auto_step: the host plays it out.
    for _ in 0..3000 {
        if is_over(&tables, 3) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(is_over(&tables, 3), "the game did not end");
    settle().await;
    let events = drain(&mut events);
    assert_in_order(&events);
    assert!(events
        .iter()
        .filter(|e| e.origin == Origin::Host)
        .flat_map(|e| &e.outputs)
        .any(|o| matches!(o, Output::Channel(m) if m.attachment.is_some())));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_request_publishes_nothing() {
    let tables = hosted(test_settings(), 48);
    let face = Fake::new(FaceId::Console);
    let mut events = tables.subscribe();
    // No table to begin, and a hint where no game runs: both refused.
    assert!(serve(&tables, &face, 4, 1, Command::Begin)
        .await
        .is_refusal());
    assert!(serve(&tables, &face, 4, 1, Command::Hint)
        .await
        .is_refusal());
    settle().await;
    assert_eq!(drain(&mut events), Vec::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_comes_through_the_one_door_privately_and_publishes_nothing() {
    let tables = hosted(test_settings(), 49);
    let face = Fake::new(FaceId::Console);
    let casual = Command::Start {
        variant: Variant::Kids,
        teams: None,
        options: crate::engine::Options::default(),
        rated: Some(false),
        turn_time: None,
        series: None,
    };
    assert!(!serve(&tables, &face, 5, 1, casual).await.is_refusal());
    assert!(!serve(&tables, &face, 5, 2, Command::Join { team: None })
        .await
        .is_refusal());
    assert!(!serve(&tables, &face, 5, 1, Command::Begin)
        .await
        .is_refusal());
    let user = human_to_move(&tables, 5).expect("a person to move");
    let mut events = tables.subscribe();
    let reply = serve(&tables, &face, 5, user.0, Command::Hint).await;
    // The hint itself, privately: the move `hard` would make, searched in the pool.
    match reply.outputs.as_slice() {
        [Output::Ephemeral(m)] => assert!(
            matches!(m.lines.first(), Some(crate::service::Text::Hint { .. })),
            "{m:?}"
        ),
        other => panic!("{other:?}"),
    }
    settle().await;
    assert_eq!(drain(&mut events), Vec::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_keeps_the_face_it_was_opened_from_across_a_restart() {
    let tables = hosted(test_settings(), 50);
    let console = Fake::new(FaceId::Console);
    let discord = Fake::new(FaceId::Discord);
    assert!(
        !serve(&tables, &console, 6, 1, start(Variant::Classic, None))
            .await
            .is_refusal()
    );
    assert!(
        !serve(&tables, &discord, 7, 1, start(Variant::Classic, None))
            .await
            .is_refusal()
    );
    // Asked from the other face, a table stays its opener's.
    assert!(
        !serve(&tables, &discord, 6, 2, Command::Join { team: None })
            .await
            .is_refusal()
    );
    assert_eq!(tables.face_of(ChannelId(6)), FaceId::Console);
    assert_eq!(tables.face_of(ChannelId(7)), FaceId::Discord);
    // Saved and restored in another process: the console's table is still the console's; one saved
    // before faces were told apart (no face written) is the default face's.
    let saved = |channel: u64| {
        serde_json::to_value(tables.snapshot(ChannelId(channel)).expect("a table")).expect("json")
    };
    let (console_table, discord_table) = (saved(6), saved(7));
    assert_eq!(console_table["face"], "console");
    assert!(discord_table.get("face").is_none(), "{discord_table}");
    let restarted = seeded(test_settings(), 51);
    for table in [console_table, discord_table] {
        assert!(restarted.restore(serde_json::from_value(table).expect("a table")));
    }
    assert_eq!(restarted.face_of(ChannelId(6)), FaceId::Console);
    assert_eq!(restarted.face_of(ChannelId(7)), FaceId::Discord);
    restarted.set_default_face(FaceId::Console);
    assert_eq!(restarted.face_of(ChannelId(7)), FaceId::Console);
}

/// Issue 47: a table opened from one face for another (the Activity's page opens a lobby the
/// Discord face speaks for) belongs to the owner named: its event is the asker's, so the owner
/// delivers it (the lobby card posted) and the asker's own face delivers nothing of it. `serve`
/// keeps giving a table to the face that asked.
#[tokio::test]
async fn a_table_opened_for_another_face_is_that_faces() {
    let tables = hosted(test_settings(), 52);
    let discord = Fake::new(FaceId::Discord);
    let web = Fake::new(FaceId::Web);
    tables.spawn_face(discord.clone());
    tables.spawn_face(web.clone());
    let request = Request {
        guild: None,
        channel: ChannelId(8),
        actor: test_actor(1),
        command: start(Variant::Classic, None),
    };
    let (reply, pending) = tables
        .serve_owned(request, FaceId::Web, FaceId::Discord)
        .await;
    drop(pending);
    assert!(!reply.is_refusal(), "{reply:?}");
    assert_eq!(tables.face_of(ChannelId(8)), FaceId::Discord);
    settle().await;
    let events = discord.observed();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].origin, Origin::Face(FaceId::Web));
    assert!(
        discord.sent().iter().any(|o| matches!(
            o,
            Output::Lobby {
                message_id: None,
                ..
            }
        )),
        "the owner posts the lobby: {:?}",
        discord.sent()
    );
    assert!(web.sent().is_empty(), "{:?}", web.sent());
    // Joined from the web afterwards, the table stays the owner's.
    let (reply, pending) = tables
        .serve(
            Request {
                guild: None,
                channel: ChannelId(8),
                actor: test_actor(2),
                command: Command::Join { team: None },
            },
            FaceId::Web,
        )
        .await;
    drop(pending);
    assert!(!reply.is_refusal(), "{reply:?}");
    assert_eq!(tables.face_of(ChannelId(8)), FaceId::Discord);
    // Asked plainly, a new table is the asker's.
    assert!(!serve(&tables, &web, 9, 1, start(Variant::Classic, None))
        .await
        .is_refusal());
    assert_eq!(tables.face_of(ChannelId(9)), FaceId::Web);
}

/// A game-night race: a player joins (or presses Rematch) while the new lobby card is still on its
/// way to the chat. The join's card waits for the first card's id and edits it: one card, never two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_while_the_lobby_card_is_being_posted_edits_that_card() {
    let tables = hosted(test_settings(), 49);
    let face = Fake {
        card_trip: Duration::from_millis(300),
        ..Fake::new(FaceId::Console)
    };
    let channel = ChannelId(5);
    let ask = |user: u64, command: Command| Request {
        guild: None,
        channel,
        actor: test_actor(user),
        command,
    };
    let (opened, pending) = tables
        .serve(ask(1, start(Variant::Classic, Some(2))), face.id())
        .await;
    drop(pending);
    let posting = {
        let (tables, face, outputs) = (tables.clone(), face.clone(), opened.outputs.clone());
        tokio::spawn(async move { tables.deliver(&face, channel, &outputs).await })
    };
    // The card is on its way (its id not known yet) when the second player joins.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (joined, pending) = tables.serve(ask(2, join(None)), face.id()).await;
    drop(pending);
    let cards = |reply: &Reply| -> Vec<Option<u64>> {
        reply
            .outputs
            .iter()
            .filter_map(|o| match o {
                Output::Lobby { message_id, .. } => Some(*message_id),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        cards(&joined),
        vec![None],
        "the service does not know the card yet"
    );
    tables.deliver(&face, channel, &joined.outputs).await;
    posting.await.expect("the card is posted");
    let sent: Vec<Option<u64>> = face
        .sent()
        .iter()
        .filter_map(|o| match o {
            Output::Lobby { message_id, .. } => Some(*message_id),
            _ => None,
        })
        .collect();
    let card = tables
        .snapshot(channel)
        .and_then(|t| t.lobby_message)
        .expect("the card's id is noted");
    assert_eq!(sent, vec![None, Some(card)], "one card posted, then edited");
    let last = face
        .sent()
        .into_iter()
        .rev()
        .find_map(|o| match o {
            Output::Lobby { message, .. } => Some(message.to_english()),
            _ => None,
        })
        .expect("the edit");
    assert!(
        last.contains("2. <@2>"),
        "the edit lists the joined player: {last}"
    );
}
