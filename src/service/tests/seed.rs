//! Issue 14.1: nobody can predict the cards. Every game's deck, every roll and every computer move come
//! from the operating system's random source, fresh each time; nothing is derived from the clock, the
//! process id or another game.

use super::kit::Start;
use std::collections::HashSet;
use std::sync::Arc;

use crate::engine::{GameRng, Variant};

use super::kit::{start, test_settings, Asker};
use crate::service::{ChannelId, Command, GuildId, RandomPicker, Table, Tables, Timestamp};

/// Requests come from server 7.
const HERE: Asker = Asker::server(GuildId(7));

/// Opens a two-player game of `variant` in `channel` and deals it; returns the table.
fn dealt(tables: &Tables, channel: u64, variant: Variant) -> Table {
    HERE.begin(tables, channel, start(variant, None), &[1, 2], 0);
    tables.snapshot(ChannelId(channel)).expect("a game")
}

fn seed_and_deck(table: &Table) -> (u64, Vec<String>) {
    let record = table.playing().expect("playing").live.record();
    (
        record.seed.expect("a seed"),
        record.deck.clone().expect("a deck"),
    )
}

/// The seeds the old construction handed out: a stream started from `GameRng::new(ms ^ pid)`.
fn old_stream(ms: u64, pid: u64, games: usize) -> Vec<u64> {
    let mut stream = GameRng::new(GameRng::new(ms ^ pid).next_u64());
    (0..games).map(|_| stream.next_u64()).collect()
}

#[test]
fn seeds_of_many_games_are_distinct_and_not_from_the_clock_or_another_game() {
    let started = Timestamp::now();
    let tables = Tables::new(test_settings(), Arc::new(RandomPicker));
    let games = 64;
    let mut seeds = Vec::new();
    let mut decks = HashSet::new();
    for channel in 0..games {
        let (seed, deck) = seed_and_deck(&dealt(&tables, 100 + channel, Variant::Classic));
        seeds.push(seed);
        decks.insert(deck);
    }
    let finished = Timestamp::now();
    let distinct: HashSet<u64> = seeds.iter().copied().collect();
    assert_eq!(distinct.len(), seeds.len(), "two games got the same seed");
    assert_eq!(decks.len(), seeds.len(), "two games got the same deck");

    // The attack of the issue: from one game's seed, search the start times around it for the
    // shared stream and read the next game's seed off it. None of our seeds is on such a stream (for
    // this process's id, or 1 as in a container), for any millisecond from a minute before this test
    // to a second after it.
    let on_old_streams: HashSet<u64> = (started.0.saturating_sub(60_000)..=finished.0 + 1_000)
        .flat_map(|ms| {
            [u64::from(std::process::id()), 1]
                .into_iter()
                .flat_map(move |pid| old_stream(ms, pid, 4))
        })
        .collect();
    assert!(
        seeds.iter().all(|s| !on_old_streams.contains(s)),
        "a seed came from the clock-and-pid stream"
    );
    // Nor does one seed lead to another through the old generator.
    for pair in seeds.windows(2) {
        assert_ne!(GameRng::new(pair[0]).next_u64(), pair[1]);
    }
}

#[test]
fn two_services_started_at_the_same_instant_deal_different_games() {
    // Same process (same pid), same clock reading for every request: only the OS source differs.
    let a = Tables::new(test_settings(), Arc::new(RandomPicker));
    let b = Tables::new(test_settings(), Arc::new(RandomPicker));
    let (seed_a, deck_a) = seed_and_deck(&dealt(&a, 10, Variant::Classic));
    let (seed_b, deck_b) = seed_and_deck(&dealt(&b, 10, Variant::Classic));
    assert_ne!(seed_a, seed_b);
    assert_ne!(deck_a, deck_b);
}

#[test]
fn refused_begins_take_nothing_from_another_game() {
    // A refused Begin (not the host) changes nothing, and the next game's deal does not depend on
    // how many were refused: two services, one with many refusals, still deal unrelated games.
    let tables = Tables::new(test_settings(), Arc::new(RandomPicker));
    let start = Start::of(Variant::Classic).command();
    assert!(!HERE.ask(&tables, 1, 1, start).is_refusal());
    assert!(!HERE
        .ask(&tables, 1, 2, Command::Join { team: None })
        .is_refusal());
    let before = serde_json::to_string(&tables.snapshot(ChannelId(1))).ok();
    for _ in 0..20 {
        assert!(HERE.ask(&tables, 1, 2, Command::Begin).is_refusal());
    }
    assert_eq!(
        serde_json::to_string(&tables.snapshot(ChannelId(1))).ok(),
        before
    );
}

#[test]
fn dice_are_rolled_when_the_player_rolls_not_before() {
    let tables = Tables::new(test_settings(), Arc::new(RandomPicker));
    let table = dealt(&tables, 5, Variant::Dice);
    let playing = table.playing().expect("playing");
    // Dealt: no roll exists yet, neither in the game nor in its record (what is saved).
    assert_eq!(playing.live.game().position().roll(), None);
    assert_eq!(playing.live.record().rolls.as_deref(), Some(&[][..]));
    assert_eq!(playing.live.game().public_view().position.roll(), None);
    let mover = playing.seats[usize::from(playing.live.game().position().to_move())]
        .user()
        .expect("a human")
        .0;
    // The player rolls: now, and only now, the roll exists and is recorded.
    let reply = HERE.ask(&tables, 5, mover, Command::Roll);
    assert!(!reply.is_refusal(), "{:?}", reply.outputs);
    let table = tables.snapshot(ChannelId(5)).expect("still playing");
    let playing = table.playing().expect("playing");
    let record = playing.live.record();
    let plies = playing.live.game().position().plies();
    let rolls = record.rolls.clone().unwrap_or_default();
    // Either the roll is pending (one roll, no action yet) or the player could not move and passed.
    assert!(
        (plies == 0 && rolls.len() == 1 && playing.live.game().position().roll() == Some(rolls[0]))
            || (plies == 1 && rolls.len() == 1 && playing.live.game().position().roll().is_none()),
        "plies {plies}, rolls {rolls:?}"
    );
    // What was saved restores to the same game, roll included.
    let json = serde_json::to_string(&table).expect("json");
    let back: Table = serde_json::from_str(&json).expect("restores");
    assert_eq!(
        back.playing().expect("playing").live.game().position(),
        playing.live.game().position()
    );
}

#[test]
fn rolls_come_fresh_for_each_roll_not_from_the_game_seed() {
    // Before this issue a dice game's rolls were the game seed's stream, fixed at the deal. Now each is
    // thrown from the OS when the player rolls: the rolls of a game are not the seed's stream.
    let tables = Tables::new(test_settings(), Arc::new(RandomPicker));
    let table = dealt(&tables, 9, Variant::Dice);
    let seats: Vec<u64> = table
        .playing()
        .expect("playing")
        .seats
        .iter()
        .filter_map(|p| p.user().map(|u| u.0))
        .collect();
    let mut rolls = Vec::new();
    for _ in 0..40 {
        let Some(playing) = tables
            .snapshot(ChannelId(9))
            .and_then(|t| t.playing().cloned())
        else {
            break;
        };
        let user = seats[usize::from(playing.live.game().position().to_move())];
        assert!(!HERE.ask(&tables, 9, user, Command::Roll).is_refusal());
        let Some(playing) = tables
            .snapshot(ChannelId(9))
            .and_then(|t| t.playing().cloned())
        else {
            break;
        };
        rolls = playing.live.record().rolls.clone().unwrap_or_default();
        // Play the first legal cell, if the roll left a move (else the player has passed).
        let game = playing.live.game();
        let mut moves = crate::engine::MoveList::new();
        game.legal_moves(&mut moves);
        let layout = game.position().layout();
        let command = match moves.first() {
            Some(crate::engine::Move::Place { cell }) => Command::Play {
                card: None,
                cell: layout.cell_name(*cell),
            },
            Some(crate::engine::Move::Remove { cell }) => Command::Remove {
                cell: layout.cell_name(*cell),
            },
            _ => continue,
        };
        assert!(!HERE.ask(&tables, 9, user, command).is_refusal());
    }
    assert!(rolls.len() >= 10, "only {} rolls", rolls.len());
    let seed = table
        .playing()
        .expect("playing")
        .live
        .record()
        .seed
        .expect("seed");
    let mut stream = crate::engine::game::play_rng(seed);
    let from_seed: Vec<[u8; 2]> = (0..rolls.len())
        .map(|_| [stream.die(), stream.die()])
        .collect();
    assert_ne!(rolls, from_seed, "the rolls are the seed's stream");
}
