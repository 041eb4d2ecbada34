//! Issue 28: what the service keeps on the heap per finished game, found with dhat. Plays `GAMES`
//! (default 5,000) two-player games to their end through the service on a SQLite store, one every 10 s,
//! each in a channel of its own with players of their own (as a long-lived bot sees them), 100
//! servers; prints the heap held after every fifth of them, and writes `dhat-heap.json` (open it in
//! dhat's viewer, or read the sites still live at the end: the "eb" bytes of each "pps" entry).
//!
//! `cargo run --release --example heap_per_game [GAMES]`

use std::sync::Arc;
use std::time::Duration;

use sequence_bot::engine::{Move, MoveList, Options, Variant};
use sequence_bot::i18n::Lang;
use sequence_bot::service::{
    Actor, ChannelId, Command, GuildId, Limits, RandomPicker, Request, Settings, Tables, Timestamp,
    UserId,
};
use sequence_bot::store::SqliteStore;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

const T0: Timestamp = Timestamp(1_700_000_000_000);

fn ask(tables: &Tables, channel: u64, user: u64, command: Command, now: Timestamp) -> bool {
    let guild = GuildId(1 + channel % 100);
    // As the Discord layer does on every interaction.
    tables.note_languages(
        ChannelId(channel),
        UserId(user),
        Some(Lang::default()),
        None,
    );
    !tables
        .handle(
            Request {
                guild: Some(guild),
                channel: ChannelId(channel),
                actor: Actor {
                    user: UserId(user),
                    name: format!("Player{user}"),
                    can_manage: false,
                    can_manage_guild: false,
                },
                command,
            },
            now,
        )
        .is_refusal()
}

/// One game in `channel`: dealt, two moves each (past the window where giving up aborts), given up.
fn finished_game(tables: &Tables, channel: u64, now: Timestamp) {
    let (host, guest) = (channel * 2 + 1, channel * 2 + 2);
    let start = Command::Start {
        variant: Variant::Classic,
        teams: None,
        options: Options::default(),
        rated: Some(false),
        turn_time: None,
        series: None,
    };
    assert!(ask(tables, channel, host, start, now));
    assert!(ask(
        tables,
        channel,
        guest,
        Command::Join { team: None },
        now
    ));
    assert!(ask(tables, channel, host, Command::Begin, now));
    for _ in 0..4 {
        let table = tables.snapshot(ChannelId(channel)).expect("a game");
        let playing = table.playing().expect("playing");
        let game = playing.live.game();
        let seat = game.position().to_move();
        let user = playing.seats[usize::from(seat)].user().expect("a human");
        let mut legal = MoveList::new();
        game.view(seat).legal_moves(&mut legal);
        let Some(Move::Play { card, cell }) = legal
            .iter()
            .copied()
            .find(|m| matches!(m, Move::Play { .. }))
        else {
            break;
        };
        let play = Command::Play {
            card: Some(card.to_string()),
            cell: game.position().layout().cell_name(cell),
        };
        assert!(ask(tables, channel, user.0, play, now));
    }
    assert!(ask(
        tables,
        channel,
        guest,
        Command::Forfeit { game: None },
        now
    ));
    assert!(
        tables.snapshot(ChannelId(channel)).is_none(),
        "the game ended"
    );
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5_000);
    let dir = tempfile::tempdir().expect("a temp folder");
    let store = SqliteStore::open(dir.path().join("bot.db")).expect("a store");
    let settings = Settings {
        limits: Limits {
            server_posts_per_second: 1_000_000,
            server_post_burst: 1_000_000,
            rated_games_per_day: 0,
            ..Limits::default()
        },
        ..Settings::default()
    };
    let tables = Tables::new(settings, Arc::new(RandomPicker)).with_store(Arc::new(store));
    // Warm-up: caches and the store's connection settle first.
    for channel in 0..200 {
        finished_game(&tables, 1_000_000 + channel, T0);
    }
    let profiler = dhat::Profiler::new_heap();
    let base = dhat::HeapStats::get().curr_bytes as f64;
    let step = (games / 5).max(1);
    for i in 0..games {
        // A game ends every 10 s: a rematch may open for 30 minutes, so about 180 games at a time.
        let now = T0.after(Duration::from_secs(10 * i));
        finished_game(&tables, i, now);
        // The timer runs too (nothing is due).
        tables.tick(now);
        if (i + 1) % step == 0 {
            let held = dhat::HeapStats::get().curr_bytes as f64 - base;
            println!(
                "after {:>7} finished games: {:>8.2} MB more on the heap, {:>6.0} bytes a game",
                i + 1,
                held / 1e6,
                held / (i + 1) as f64
            );
        }
    }
    drop(profiler);
}
