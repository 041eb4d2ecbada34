//! Issue 28: what grows with the live tables. Prints (no criterion: each figure is one long run):
//! - the cost of a timer pass (`Tables::tick`) when nothing is due, at 100 and at `TABLES_N` live
//!   two-player games (50,000 unless set);
//! - the cost of opening a table (`/sequence start`, with its table-limit check) at 100 and at
//!   `TABLES_N` live tables;
//! - the heap kept per finished game over a long run (`TABLES_GAMES` games, 40,000 unless set, one a
//!   second, each in a channel of its own), counted by a global allocator wrapper: the heap the
//!   service itself keeps, not RSS. (`examples/heap_per_game.rs` finds where, with dhat.)
//!
//! `cargo bench --bench tables`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sequence_bot::engine::{Options, Variant};
use sequence_bot::service::{
    Actor, ChannelId, Command, GuildId, Limits, RandomPicker, Request, Settings, Tables, Timestamp,
    UserId,
};

/// Counts the bytes the process holds on the heap.
struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only a counter is kept beside.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        HELD.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const T0: Timestamp = Timestamp(1_700_000_000_000);

fn tables() -> Tables {
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
    Tables::new(settings, Arc::new(RandomPicker))
}

fn ask(tables: &Tables, channel: u64, user: u64, command: Command, now: Timestamp) {
    tables.handle(
        Request {
            // 50 tables a server, like many small servers.
            guild: Some(GuildId(1 + channel / 50)),
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
    );
}

fn start() -> Command {
    Command::Start {
        variant: Variant::Classic,
        teams: None,
        options: Options::default(),
        rated: Some(false),
        turn_time: None,
        series: None,
    }
}

/// A two-player game in `channel`, begun at `now`.
fn open_game(tables: &Tables, channel: u64, now: Timestamp) {
    let (host, guest) = (channel * 2 + 1, channel * 2 + 2);
    ask(tables, channel, host, start(), now);
    ask(tables, channel, guest, Command::Join { team: None }, now);
    ask(tables, channel, host, Command::Begin, now);
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Idle timer passes and table openings at `n` live games.
fn at_size(n: u64) {
    let tables = tables();
    for channel in 0..n {
        open_game(&tables, channel, T0);
    }
    assert_eq!(tables.len() as u64, n);
    // One second later nothing is due (the reminder comes after 2 minutes).
    let now = T0.after(Duration::from_secs(1));
    let passes = if n > 1000 { 40 } else { 400 };
    let ticks: Vec<Duration> = (0..passes)
        .map(|_| {
            let started = Instant::now();
            let due = tables.tick(now);
            let took = started.elapsed();
            assert!(due.is_empty());
            took
        })
        .collect();
    // Openings in channels of their own (each closed again, so every one sees `n` tables).
    let opens: Vec<Duration> = (0..200)
        .map(|i| {
            let channel = 10_000_000 + i;
            let started = Instant::now();
            ask(&tables, channel, 3, start(), now);
            let took = started.elapsed();
            ask(&tables, channel, 3, Command::Stop, now);
            took
        })
        .collect();
    let tick = median(ticks);
    println!(
        "{n:>6} live games: idle tick {:>9.1} µs (median of {passes}; every 5 s that is {:.3}% of a core), open a table {:>7.1} µs (median of 200)",
        tick.as_secs_f64() * 1e6,
        tick.as_secs_f64() / 5.0 * 100.0,
        median(opens).as_secs_f64() * 1e6,
    );
}

/// Heap kept after `games` finished games, each in a channel of its own.
fn finished_games(games: u64) {
    let tables = tables();
    let base = HELD.load(Ordering::Relaxed);
    let step = games / 8;
    for i in 0..games {
        let channel = 20_000_000 + i;
        let now = T0.after(Duration::from_secs(i));
        open_game(&tables, channel, now);
        // The guest gives up: the game is over, its end announced, its table closed.
        ask(
            &tables,
            channel,
            channel * 2 + 2,
            Command::Forfeit { game: None },
            now,
        );
        if (i + 1) % step == 0 {
            let held = HELD.load(Ordering::Relaxed) - base;
            println!(
                "after {:>6} finished games: {:>8.2} MB held, {:>6.0} bytes a game, {} live tables",
                i + 1,
                held as f64 / 1e6,
                held as f64 / (i + 1) as f64,
                tables.len()
            );
        }
    }
}

fn main() {
    let n: u64 = std::env::var("TABLES_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50_000);
    let games: u64 = std::env::var("TABLES_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40_000);
    at_size(100);
    at_size(n);
    finished_games(games);
}
