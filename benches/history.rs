//! Issue 28: what grows with the stored history. Generates once (kept under the target folder) a
//! SQLite file with `HISTORY_GAMES` finished games (100,000 unless set) in one bulk transaction, a
//! tenth of them in one busy server (100,000 of a million), each with its players' agreement with
//! `hard`, plus 200 live tables; then measures and prints:
//! - a start (open with its check, then restore the live tables) with the file's pages dropped
//!   from the OS cache (cold) and cached (warm), against the whole-file quick check start-up used to
//!   run before restoring anything;
//! - each read a player's command runs (issue 35: [`READS`], one function per command, for the busy
//!   server's most active player and for a member who never played there) and each other store
//!   command the bot runs, over the large history, asserting that none takes more than 5 ms at the
//!   median (p99 and max are printed).
//!
//! `cargo bench --bench history` (`HISTORY_GAMES=1000000` for a million: about 4 GB of disk). The
//! generated file is kept (under the target folder, `history-bench-<games>`) and used again; a
//! newer schema is migrated into it when the store opens it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{params, Connection};
use sequence_bot::analysis::profile::{Achievement, Figures, GameKind, Opposition, SeatGame};
use sequence_bot::engine::record::Record;
use sequence_bot::engine::{Config, Options, Variant};
use sequence_bot::store::{FinishedGame, GameId, PlayerResult, SqliteStore, Store, StoredTable};

/// The busy server, holding a tenth of the games in 20 channels.
const BUSY: u64 = 1;
/// The busy server's most active player: seat 0 of every fifth of its games (2% of all games).
const ACTIVE: u64 = USERS + 1;
/// The player the busy server's most active player met most often (seat 1 of its games whose
/// number is a multiple of [`USERS`]: 50 shared games in a million), for the reads about two
/// players.
const RIVAL: u64 = 1 + 13_331;
/// A member of the busy server who never played there (nor anywhere).
const NEWCOMER: u64 = USERS + 2;
/// Other servers.
const SERVERS: u64 = 400;
/// Players, shared by the servers.
const USERS: u64 = 20_000;
/// Live tables restored at start.
const LIVE: u64 = 200;
/// When the history ends (unix ms); a game every 10 s before it.
const END_MS: i64 = 1_750_000_000_000;

fn main() {
    let games: u64 = std::env::var("HISTORY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    let dir = target.join(format!("history-bench-{games}"));
    let path = dir.join("bot.db");
    let done = dir.join("complete");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("bench folder");
        let started = Instant::now();
        generate(&path, games);
        std::fs::write(&done, b"").expect("mark complete");
        println!(
            "generated {games} finished games in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    // A file generated before a migration gets it here, once (issue 35: the profiles' backfill
    // replays every stored game).
    let version = |path: &Path| -> i64 {
        Connection::open(path)
            .and_then(|c| c.query_row("PRAGMA user_version", [], |row| row.get(0)))
            .expect("schema version")
    };
    let before = version(&path);
    let started = Instant::now();
    drop(SqliteStore::open(&path).expect("open"));
    let after = version(&path);
    if after != before {
        println!(
            "migrated the file from schema {before} to {after} (the profiles' backfill replays \
             every game) in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    println!(
        "history: {games} finished games, {LIVE} live tables, {:.0} MB",
        size as f64 / 1e6
    );
    start_up(&path);
    commands(&path);
    background_rebuild(&path);
}

/// Issue 44: a file whose profiles must be rebuilt (as the migration that added profiles leaves an
/// older one: profile rows removed, a rebuild under way) is ready as soon as it is open and its live
/// tables restored; the rebuild then runs as the bot's background thread runs it, 64 games a step,
/// while profile reads answer "being rebuilt". Before issue 44 the migration replayed every game
/// before the store opened. The profile rows are the rebuild's afterwards.
fn background_rebuild(path: &Path) {
    Connection::open(path)
        .and_then(|c| {
            c.execute_batch(
                "DELETE FROM player_figures; DELETE FROM pair_totals; DELETE FROM shared_games;
                 DELETE FROM achievements WHERE achievement <> 'series_won';
                 INSERT INTO profile_rebuild (id, after_game) VALUES (1, 0)
                     ON CONFLICT (id) DO UPDATE SET after_game = 0;",
            )
        })
        .expect("a rebuild under way");
    let started = Instant::now();
    let (opened, restored) = start(path);
    let ready = started.elapsed();
    let store = SqliteStore::open(path).expect("open");
    assert!(matches!(
        store.profile(Some(BUSY), ACTIVE),
        Err(sequence_bot::store::StoreError::ProfilesRebuilding { .. })
    ));
    let rebuild = Instant::now();
    let mut steps = 0u32;
    let mut longest = Duration::ZERO;
    loop {
        let step = Instant::now();
        let more = store.rebuild_profiles_step(64).expect("step");
        longest = longest.max(step.elapsed());
        if !more {
            break;
        }
        steps += 1;
    }
    println!(
        "profiles to rebuild: ready after {:.1} ms (open {:.1} ms, restore to {:.1} ms); the \
         rebuild behind it took {:.1} s in {steps} steps of 64 games (longest step {:.1} ms)",
        ready.as_secs_f64() * 1000.0,
        opened.as_secs_f64() * 1000.0,
        restored.as_secs_f64() * 1000.0,
        rebuild.elapsed().as_secs_f64(),
        longest.as_secs_f64() * 1000.0
    );
    assert!(store.profile(Some(BUSY), ACTIVE).is_ok());
}

/// A few full classic records, used in turn (about the size real ones have).
fn records() -> Vec<String> {
    (0..16)
        .map(|seed| {
            let config =
                Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
            serde_json::to_string(&Record::random_game(config, 9_000 + seed)).expect("json")
        })
        .collect()
}

/// Plausible numbers for one seat of a generated game (its moves and cards vary with the game).
fn seat_game(user: u64, id: i64, finished_at: i64, won: bool, seat: u64) -> SeatGame {
    let n = id.unsigned_abs() + seat;
    let small = |m: u64| u32::try_from(n % m).expect("small");
    let one_eyed = small(3);
    let broken = small(2).min(one_eyed) + small(2);
    SeatGame {
        user_id: user,
        game_id: id,
        finished_at,
        won,
        kind: Some(GameKind::Classic),
        opposition: vec![Opposition::Humans],
        counts_for_achievements: true,
        humans: 2,
        teams: 2,
        players: 2,
        moves: 25 + small(30),
        sequences: u32::from(won) + u32::from(won && n.is_multiple_of(4)),
        two_eyed_jacks: small(3),
        one_eyed_jacks: one_eyed,
        lines_broken: broken,
        fours_broken_with_one_eyed: small(2).min(one_eyed).min(broken),
        dead_cards: small(2),
        double_sequence: won && n.is_multiple_of(97),
        moved_first: seat == 0,
        comeback: won && n.is_multiple_of(7),
        team_moves: 25 + small(30),
        play: vec![(
            finished_at - 600_000 - i64::from(small(900)) * 1_000,
            finished_at,
        )],
        ..SeatGame::default()
    }
}

/// What a generated history keeps besides the games (issue 35): each player's figures and feats
/// per server, the achievements games unlocked, and the totals per ordered pair of players.
#[derive(Default)]
struct Profiles {
    /// (server, player) -> (figures, feats); every generated game is rated, so both count it.
    figures: HashMap<(u64, u64), (Figures, Figures)>,
    /// (server, player, other) -> games, partner games, partner wins, opponent games, wins,
    /// losses, sequences, the other's sequences (as `pair_totals` orders them).
    pairs: HashMap<(u64, u64, u64), [i64; 8]>,
}

/// Each rating's rank band and the counts kept per band (issue 44), as the store keeps them.
fn count_rating_bands(tx: &Connection) {
    use sequence_bot::store::rating::{band_levels, rank_band};
    let ratings: Vec<(i64, i64, f64)> = tx
        .prepare("SELECT guild_id, user_id, conservative FROM ratings")
        .and_then(|mut stmt| {
            stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
                .collect()
        })
        .expect("ratings");
    let mut counts: HashMap<(i64, i64, i64), i64> = HashMap::new();
    for (guild, user, conservative) in ratings {
        let band = rank_band(conservative);
        tx.execute(
            "UPDATE ratings SET band = ?3 WHERE guild_id = ?1 AND user_id = ?2",
            params![guild, user, band],
        )
        .expect("band");
        for (level, at) in (0i64..).zip(band_levels(band)) {
            *counts.entry((guild, level, at)).or_default() += 1;
        }
    }
    for ((guild, level, band), players) in counts {
        tx.execute(
            "INSERT INTO rating_bands (guild_id, level, band, players) VALUES (?1, ?2, ?3, ?4)",
            params![guild, level, band, players],
        )
        .expect("band count");
    }
}

/// Writes the history in one transaction, straight into the tables `finish_game` fills.
fn generate(path: &Path, games: u64) {
    drop(SqliteStore::open(path).expect("create the schema"));
    let mut conn = Connection::open(path).expect("open");
    conn.execute_batch("PRAGMA synchronous = OFF; PRAGMA cache_size = -200000;")
        .expect("pragmas");
    let records = records();
    let tx = conn.transaction().expect("transaction");
    {
        let mut game = tx
            .prepare(
                "INSERT INTO games (id, guild_id, channel_id, variant, record_json, finished_at,
                     announced, rated, aborted)
                 VALUES (?1, ?2, ?3, 'classic', ?4, ?5, 1, 1, 0)",
            )
            .expect("games");
        let mut player = tx
            .prepare(
                "INSERT INTO game_players (game_id, seat, user_id, name, team, won, sequences)
                 VALUES (?1, ?2, ?3, ?4, ?2, ?5, ?6)",
            )
            .expect("players");
        let mut change = tx
            .prepare(
                "INSERT INTO rating_changes (game_id, guild_id, user_id, conservative_before,
                     conservative_after)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .expect("changes");
        let mut stats = tx
            .prepare(
                "INSERT INTO player_stats (guild_id, user_id, name, games, wins, sequences)
                 VALUES (?1, ?2, ?3, 1, ?4, ?5)
                 ON CONFLICT (guild_id, user_id) DO UPDATE SET games = games + 1,
                     wins = wins + excluded.wins, sequences = sequences + excluded.sequences",
            )
            .expect("stats");
        // Since issue 35 a row also keeps its game's server and whether the game counts.
        let with_guild: bool = tx
            .query_row(
                "SELECT COUNT(*) > 0 FROM pragma_table_info('game_agreement')
                 WHERE name = 'guild_id'",
                [],
                |row| row.get(0),
            )
            .expect("columns");
        let mut agreement = tx
            .prepare(if with_guild {
                "INSERT INTO game_agreement (game_id, user_id, matched, counted, guild_id, counts)
                 VALUES (?1, ?2, ?3, ?4, ?5, 1)"
            } else {
                "INSERT INTO game_agreement (game_id, user_id, matched, counted)
                 VALUES (?1, ?2, ?3, ?4)"
            })
            .expect("agreement");
        let mut rating = tx
            .prepare(
                "INSERT INTO ratings (guild_id, user_id, name, mu, sigma, conservative, games)
                 VALUES (?1, ?2, ?3, ?4, 4.0, ?4 - 12.0, 1)
                 ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu,
                     conservative = excluded.conservative, games = games + 1",
            )
            .expect("ratings");
        let mut shared = tx
            .prepare(
                "INSERT INTO shared_games (guild_id, user_id, other_id, game_id, variant,
                     finished_at, partners, won, other_won)
                 VALUES (?1, ?2, ?3, ?4, 'classic', ?5, 0, ?6, ?7)",
            )
            .expect("shared games");
        let mut unlock = tx
            .prepare(
                "INSERT INTO achievements (guild_id, user_id, achievement, game_id, unlocked_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .expect("achievements");
        let mut profiles = Profiles::default();
        for n in 0..games {
            let id = i64::try_from(n).expect("id") + 1;
            let busy = n % 10 == 0;
            let guild = if busy { BUSY } else { 2 + n % SERVERS };
            let channel = guild * 1000 + if busy { (n / 10) % 20 } else { n % 5 };
            let finished = END_MS - (i64::try_from(games - n).expect("n") * 10_000);
            game.execute(params![
                id,
                guild as i64,
                channel as i64,
                records[(n % 16) as usize],
                finished
            ])
            .expect("game");
            let seats: [u64; 2] = std::array::from_fn(|seat| {
                if busy && seat == 0 && n % 50 == 0 {
                    ACTIVE
                } else {
                    1 + (n * 7 + seat as u64 * 13_331) % USERS
                }
            });
            let seat_games: [SeatGame; 2] = std::array::from_fn(|seat| {
                seat_game(
                    seats[seat],
                    id,
                    finished,
                    (n + seat as u64).is_multiple_of(2),
                    seat as u64,
                )
            });
            for (seat, mine) in seat_games.iter().enumerate() {
                let (user, other) = (seats[seat], seats[1 - seat]);
                let theirs = &seat_games[1 - seat];
                let (figures, feats) = profiles.figures.entry((guild, user)).or_default();
                let before = feats.clone();
                figures.add(mine);
                feats.add(mine);
                for achievement in Achievement::unlocked_between(&before, feats) {
                    unlock
                        .execute(params![
                            guild as i64,
                            user as i64,
                            achievement.key(),
                            id,
                            finished
                        ])
                        .expect("achievement");
                }
                let pair = profiles.pairs.entry((guild, user, other)).or_default();
                let counts = [
                    1,
                    0,
                    0,
                    1,
                    i64::from(mine.won),
                    i64::from(theirs.won),
                    i64::from(mine.sequences),
                    i64::from(theirs.sequences),
                ];
                for (total, add) in pair.iter_mut().zip(counts) {
                    *total += add;
                }
                shared
                    .execute(params![
                        guild as i64,
                        user as i64,
                        other as i64,
                        id,
                        finished,
                        mine.won,
                        theirs.won
                    ])
                    .expect("shared game");
            }
            for seat in 0..2u64 {
                let user = seats[seat as usize];
                let won = seat_games[seat as usize].won;
                let sequences = seat_games[seat as usize].sequences;
                let name = format!("User{user}");
                let mu = 25.0 + ((n + seat) % 50) as f64 / 10.0;
                player
                    .execute(params![
                        id,
                        seat as i64,
                        user as i64,
                        name,
                        won,
                        i64::from(sequences)
                    ])
                    .expect("player");
                change
                    .execute(params![id, guild as i64, user as i64, mu - 12.5, mu - 12.0])
                    .expect("change");
                let counted = 20 + (n % 30) as i64;
                if with_guild {
                    agreement.execute(params![id, user as i64, counted / 2, counted, guild as i64])
                } else {
                    agreement.execute(params![id, user as i64, counted / 2, counted])
                }
                .expect("agreement");
                stats
                    .execute(params![
                        guild as i64,
                        user as i64,
                        name,
                        won,
                        i64::from(sequences)
                    ])
                    .expect("stats");
                rating
                    .execute(params![guild as i64, user as i64, name, mu])
                    .expect("rating");
            }
        }
        write_profiles(&tx, &profiles);
        count_rating_bands(&tx);
        tx.execute(
            "INSERT OR REPLACE INTO sqlite_sequence (name, seq) VALUES ('games', ?1)",
            [games as i64],
        )
        .expect("sequence");
    }
    tx.commit().expect("commit");
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .expect("checkpoint");
    drop(conn);
    let store = SqliteStore::open_or_repair(path).expect("open").0;
    let snapshot = format!("{{\"pad\":\"{}\"}}", "x".repeat(2000));
    for c in 0..LIVE {
        let mut record: Record = serde_json::from_str(&records[(c % 16) as usize]).expect("record");
        record.actions.truncate(40);
        store
            .save_table(&StoredTable {
                channel_id: 900_000 + c,
                guild_id: Some(2 + c % SERVERS),
                record_json: serde_json::to_string(&record).expect("json"),
                snapshot_json: snapshot.clone(),
                updated_at: END_MS,
                web_token: None,
            })
            .expect("live table");
    }
}

/// Writes the figures and pair totals gathered while generating.
fn write_profiles(tx: &Connection, profiles: &Profiles) {
    let mut figures = tx
        .prepare(
            "INSERT INTO player_figures (guild_id, user_id, scope, figures_json)
             VALUES (?1, ?2, ?3, ?4)",
        )
        .expect("figures");
    for ((guild, user), (all, feats)) in &profiles.figures {
        for (scope, value) in [("figures", all), ("feats", feats)] {
            assert_eq!(value.problem(), None, "generated figures are consistent");
            figures
                .execute(params![
                    *guild as i64,
                    *user as i64,
                    scope,
                    serde_json::to_string(value).expect("json")
                ])
                .expect("figures row");
        }
    }
    let mut pairs = tx
        .prepare(
            "INSERT INTO pair_totals (guild_id, user_id, other_id, games, partner_games,
                 partner_wins, opponent_games, wins, losses, sequences, other_sequences)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )
        .expect("pairs");
    for ((guild, user, other), c) in &profiles.pairs {
        pairs
            .execute(params![
                *guild as i64,
                *user as i64,
                *other as i64,
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                c[5],
                c[6],
                c[7]
            ])
            .expect("pair row");
    }
}

/// Drops the file's pages from the OS cache (as after a reboot), where the system allows it.
fn evict(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let Ok(file) = std::fs::File::open(path) else {
            return false;
        };
        // SAFETY: a plain system call on an open descriptor.
        unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) == 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Opens the file as the bot does and restores its live tables; how long each took.
fn start(path: &Path) -> (Duration, Duration) {
    let started = Instant::now();
    let (store, repair) = SqliteStore::open_or_repair(path).expect("open");
    assert!(repair.is_none(), "the generated file is sound");
    let opened = started.elapsed();
    let loaded = store.load_tables().expect("restore");
    assert_eq!(loaded.tables.len() as u64, LIVE);
    let restored = started.elapsed();
    drop(store);
    (opened, restored)
}

/// The whole-file check start-up ran before restoring anything until issue 28.
fn full_check(path: &Path) -> Duration {
    let started = Instant::now();
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open");
    let check: String = conn
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .expect("check");
    assert_eq!(check, "ok");
    started.elapsed()
}

fn start_up(path: &Path) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    for cold in [true, false] {
        let label = if cold { "cold" } else { "warm" };
        if cold && !evict(path) {
            println!("(cannot drop the file from the OS cache here: cold figures are warm)");
        }
        let (opened, restored) = start(path);
        println!(
            "start ({label}): open {:.1} ms, open + restore {LIVE} tables {:.1} ms",
            ms(opened),
            ms(restored)
        );
        // Give the background check a moment to stop reading before the next measurement.
        std::thread::sleep(Duration::from_millis(200));
    }
    for cold in [true, false] {
        let label = if cold { "cold" } else { "warm" };
        if cold {
            evict(path);
        }
        println!(
            "whole-file quick check ({label}, what start-up ran before): {:.0} ms",
            ms(full_check(path))
        );
    }
}

/// Whom a read is for: a player of a server, and another player (for reads about two players).
struct Subject {
    guild: Option<u64>,
    user: u64,
    other: u64,
}

/// The store reads of a player's command, one function each, as the service runs them (issue 35:
/// each must stay flat with the history). A new command's reads: a function and a line here.
const READS: &[(&str, Read)] = &[
    ("stats", stats),
    ("profile", profile),
    ("profile of another", profile_of_another),
    ("versus", versus),
    ("leaderboard", leaderboard),
];

/// The store reads of one command.
type Read = fn(&SqliteStore, &Subject);

/// `/sequence stats` (service `history`, `Command::Stats`).
fn stats(store: &SqliteStore, who: &Subject) {
    store.player_stats(who.guild, who.user).expect("stats");
    store.player_rating(who.guild, who.user, 5).expect("rating");
    store
        .recent_agreement(who.guild, who.user, 20)
        .expect("agreement");
    store.series_stats(who.guild, who.user).expect("series");
}

/// `/sequence profile` of oneself (service `profile`, `Command::Profile`).
fn profile(store: &SqliteStore, who: &Subject) {
    store.profile(who.guild, who.user).expect("profile");
}

/// `/sequence profile user:` of another member (service `profile`): their profile and the
/// head-to-head from the viewer's side (`who.other` views `who.user`).
fn profile_of_another(store: &SqliteStore, who: &Subject) {
    store.profile(who.guild, who.user).expect("profile");
    store
        .versus(who.guild, who.other, who.user)
        .expect("versus");
}

/// `/sequence versus user:` (service `versus`, `Command::Versus`): `who.user` against `who.other`.
fn versus(store: &SqliteStore, who: &Subject) {
    store
        .versus(who.guild, who.user, who.other)
        .expect("versus");
}

/// `/sequence leaderboard` (service `history`, `Command::Leaderboard`): the rating list and each
/// listed player's totals.
fn leaderboard(store: &SqliteStore, who: &Subject) {
    for row in store
        .rating_leaderboard(who.guild, 10)
        .expect("leaderboard")
    {
        store.player_stats(who.guild, row.user_id).expect("stats");
    }
}

/// Runs `command` `runs` times (with the run's number), prints its median, p99 and max, and
/// returns the median.
fn measure(name: &str, runs: u64, mut command: impl FnMut(u64)) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|i| {
            let started = Instant::now();
            command(i);
            started.elapsed()
        })
        .collect();
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{name:<44} p50 {:>8.3} ms  p99 {:>8.3} ms  max {:>8.3} ms",
        at(0.5).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
        at(1.0).as_secs_f64() * 1000.0
    );
    at(0.5)
}

fn commands(path: &Path) {
    // A copy, so that the games finished here do not grow the generated file.
    let copy = path.with_file_name("commands.db");
    std::fs::copy(path, &copy).expect("copy");
    let store = SqliteStore::open_or_repair(&copy).expect("open").0;
    let runs = 300;
    let user = |i: u64| 1 + (i * 7) % USERS;
    let mut medians: Vec<(String, Duration)> = Vec::new();
    let subjects = [("most active player", ACTIVE), ("newcomer", NEWCOMER)];
    for (read, run) in READS {
        for (label, player) in subjects {
            let who = Subject {
                guild: Some(BUSY),
                user: player,
                other: RIVAL,
            };
            let name = format!("{read} ({label})");
            medians.push((name.clone(), measure(&name, runs, |_| run(&store, &who))));
        }
    }
    medians.push((
        "record (latest game of a channel)".to_string(),
        measure("record, latest game of a busy channel", runs, |i| {
            let id = store
                .latest_game_in_channel(Some(BUSY), BUSY * 1000 + (i % 5) * 4)
                .expect("latest")
                .expect("a game");
            store
                .game_record(id, Some(BUSY))
                .expect("record")
                .expect("found");
        }),
    ));
    medians.push((
        "record #n".to_string(),
        measure("record #n", runs, |i| {
            store
                .game_record(GameId(1 + (i * 10 * 97) as i64), Some(BUSY))
                .expect("record");
        }),
    ));
    medians.push((
        "leaderboard".to_string(),
        measure("leaderboard (wins) of the busy server", runs, |_| {
            store.leaderboard(Some(BUSY), 10).expect("leaderboard");
        }),
    ));
    medians.push((
        "rating leaderboard".to_string(),
        measure("leaderboard (rating) of the busy server", runs, |_| {
            store.rating_leaderboard(Some(BUSY), 10).expect("ratings");
        }),
    ));
    medians.push((
        "rating".to_string(),
        measure("rating of a player, 5 latest changes", runs, |i| {
            store.player_rating(Some(BUSY), user(i), 5).expect("rating");
        }),
    ));
    medians.push((
        "history".to_string(),
        measure("history (10 latest games of a server)", runs, |_| {
            store.recent_games(Some(BUSY), 10).expect("history");
        }),
    ));
    medians.push((
        "rated_games_since".to_string(),
        measure("rated_games_since (last day, busy server)", runs, |_| {
            store
                .rated_games_since(Some(BUSY), END_MS - 86_400_000)
                .expect("since");
        }),
    ));
    let records = records();
    let players = |i: u64| {
        (0..2u64)
            .map(|seat| PlayerResult {
                user_id: 1 + (i * 7 + seat * 13_331) % USERS,
                name: format!("User{i}"),
                team: seat as u8,
                won: seat == 0,
                sequences: 1,
                bot_level: None,
                gave_up: false,
            })
            .collect::<Vec<_>>()
    };
    let snapshot = format!("{{\"pad\":\"{}\"}}", "x".repeat(2000));
    medians.push((
        "save a table".to_string(),
        measure("save a table (a move)", runs, |i| {
            store
                .save_table(&StoredTable {
                    channel_id: 800_000 + i,
                    guild_id: Some(BUSY),
                    record_json: records[(i % 16) as usize].clone(),
                    snapshot_json: snapshot.clone(),
                    updated_at: END_MS,
                    web_token: None,
                })
                .expect("save");
        }),
    ));
    medians.push((
        "finish a game".to_string(),
        measure("finish a game (rated, validated record)", runs, |i| {
            store
                .finish_game(&FinishedGame {
                    guild_id: Some(BUSY),
                    channel_id: 800_000 + i,
                    variant: "classic".into(),
                    record_json: records[(i % 16) as usize].clone(),
                    finished_at: END_MS + i as i64,
                    started_at: None,
                    players: players(i),
                    rated: None,
                    aborted: false,
                    web_token: None,
                })
                .expect("finish");
        }),
    ));
    drop(store);
    for suffix in ["", "-wal", "-shm", ".lock"] {
        let mut name = copy.clone().into_os_string();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
    let slow: Vec<_> = medians
        .iter()
        .filter(|(_, median)| *median > Duration::from_millis(5))
        .collect();
    assert!(
        slow.is_empty(),
        "commands over 5 ms at the median: {slow:?}"
    );
    println!("every command within 5 ms at the median");
}
