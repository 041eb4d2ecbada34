//! Issue 24.3 through `sequence-bot console`, on the wall clock and with the default posting budget
//! (5 posts a second per server, bursts of 20): user 99 presses Join and Leave on user 2's lobby as
//! fast as the console answers, while user 1 plays against a computer in another channel of the same
//! server. User 1 is never refused, the computer answers every move within two seconds, user 99 is
//! asked politely to wait, and the lobby message is not edited once per press.

use std::process::Stdio;
use std::time::{Duration, Instant};

use sequence_bot::engine::{Move, MoveList};
use sequence_bot::service::Table;
use serde_json::{json, Value};

use crate::support::console::{text, Console};

/// User 2's lobby, where user 99 presses.
const LOBBY: u64 = 10;
/// User 1 against a computer.
const GAME: u64 = 20;
/// How long user 99 presses.
const PRESSING: Duration = Duration::from_secs(20);
/// How long a computer move may take after user 1's move (the bot waits 100 ms before it moves).
const COMPUTER_WITHIN: Duration = Duration::from_secs(2);

/// Starts the console bot in `dir` (a computer waits 100 ms before it moves) and waits until it is
/// ready.
fn start(dir: &std::path::Path) -> Console {
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "database = {:?}\n[timers]\ntick_secs = 1\nbot_delay_ms = 100\n",
            dir.join("bot.sqlite3").display().to_string()
        ),
    )
    .expect("config");
    Console::start(&config, "warn", &[], Stdio::null()).0
}

/// The table of `channel` as the bot holds it.
fn table(bot: &mut Console, channel: u64) -> Option<Table> {
    serde_json::from_value(bot.dump(channel)).ok()
}

/// The spontaneous lines with when they were read.
fn spontaneous(bot: &Console) -> impl Iterator<Item = (&Instant, &Value)> {
    bot.spontaneous_at.iter().zip(&bot.spontaneous)
}

/// A legal move for user 1, if it is their turn.
fn move_of_user_1(table: &Table) -> Option<Value> {
    let playing = table.playing()?;
    let game = playing.live.game();
    let position = game.position();
    if position.is_over()
        || playing
            .seats
            .get(usize::from(position.to_move()))?
            .user()?
            .0
            != 1
    {
        return None;
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    match moves.first()? {
        Move::Play { card, cell } => Some(json!({
            "command": "play",
            "card": card.to_string(),
            "cell": position.layout().cell_name(*cell),
        })),
        Move::Exchange { card } => Some(json!({"command": "exchange", "card": card.to_string()})),
        _ => None,
    }
}

/// Whether a computer is to move.
fn computer_to_move(table: &Table) -> bool {
    table.playing().is_some_and(|playing| {
        let position = playing.live.game().position();
        !position.is_over()
            && playing
                .seats
                .get(usize::from(position.to_move()))
                .is_some_and(|seat| seat.user().is_none())
    })
}

#[test]
fn one_member_pressing_join_and_leave_as_fast_as_they_can_silences_nobody_else() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bot = start(dir.path());
    let (_, refused) = bot.request(LOBBY, 2, json!({"command": "start"}));
    assert!(!refused);
    for (i, command) in ["start", "bot_add", "begin"].into_iter().enumerate() {
        if i > 0 {
            // As a person would, not at machine speed.
            std::thread::sleep(Duration::from_millis(500));
        }
        let (outputs, refused) = bot.request(GAME, 1, json!({"command": command}));
        assert!(!refused, "{command}: {}", text(&outputs));
    }
    bot.drain(Duration::from_secs(1));

    let mut refused_user_1 = Vec::new();
    let mut moves = 0;
    // When user 1 moved with a computer to answer.
    let mut computer_due: Vec<Instant> = Vec::new();
    let (mut pressed, mut refused_99, mut seated) = (0u32, Vec::new(), false);
    // Edits of the lobby message, in answer to a press or by the timer.
    let mut lobby_edits = 0;
    let started = Instant::now();
    let mut next_turn = started;
    while started.elapsed() < PRESSING {
        let press = if seated { "leave" } else { "join" };
        let (outputs, refused) = bot.request(LOBBY, 99, json!({"command": press}));
        lobby_edits += outputs.iter().filter(|o| o["to"] == "lobby").count();
        if refused {
            refused_99.push(text(&outputs));
        } else {
            pressed += 1;
            seated = !seated;
        }
        if Instant::now() < next_turn {
            continue;
        }
        // About every two seconds user 1 moves (if it is their turn) and asks for the board: off the
        // beat of a drained budget's refill (a post every 200 ms), so that user 1 does not always
        // arrive in the very millisecond a post becomes free.
        next_turn += Duration::from_millis(2_050);
        if let Some(request) = table(&mut bot, GAME).as_ref().and_then(move_of_user_1) {
            let (outputs, refused) = bot.request(GAME, 1, request.clone());
            if refused {
                refused_user_1.push(format!("{request}: {}", text(&outputs)));
            } else {
                moves += 1;
                if table(&mut bot, GAME).as_ref().is_some_and(computer_to_move) {
                    computer_due.push(Instant::now());
                }
            }
        }
        let (outputs, refused) = bot.request(GAME, 1, json!({"command": "board"}));
        if refused {
            refused_user_1.push(format!("board: {}", text(&outputs)));
        }
    }
    bot.drain(COMPUTER_WITHIN + Duration::from_secs(1));

    assert!(refused_user_1.is_empty(), "{refused_user_1:?}");
    assert!(moves >= 5, "{moves} moves of user 1");
    // Every move of user 1 that a computer had to answer was answered in the channel in time.
    let computer_posts: Vec<Instant> = spontaneous(&bot)
        .filter(|(_, v)| v["channel"] == json!(GAME) && v["to"] == "channel")
        .map(|(at, _)| *at)
        .collect();
    for due in &computer_due {
        let answered = computer_posts.iter().find(|at| *at >= due);
        assert!(
            answered.is_some_and(|at| at.duration_since(*due) <= COMPUTER_WITHIN),
            "a computer move took {:?}",
            answered.map(|at| at.duration_since(*due))
        );
    }
    // User 99 was asked politely to wait; their presses that went through edited the lobby message
    // at most once per two seconds.
    assert!(!refused_99.is_empty());
    assert!(
        refused_99
            .iter()
            .all(|t| t.contains("try again in a few seconds")),
        "{refused_99:?}"
    );
    lobby_edits += spontaneous(&bot)
        .filter(|(_, v)| v["channel"] == json!(LOBBY) && v["to"] == "lobby")
        .count();
    let pressing_secs = usize::try_from(PRESSING.as_secs()).unwrap_or(usize::MAX);
    assert!(
        pressed >= 10 && lobby_edits <= pressing_secs / 2 + 2,
        "{lobby_edits} lobby edits for {pressed} presses answered"
    );
}
