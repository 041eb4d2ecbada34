//! Cross-module engine tests.

use super::*;

/// A live game and the replay of its record agree, also past a reshuffle of the discard pile.
#[test]
fn records_replay_live_games_past_reshuffles() {
    let mut reshuffled = 0;
    for variant in [Variant::Classic, Variant::Kids] {
        for seed in 0..40u64 {
            let config = Config::new(variant, 2, None, Options::default()).unwrap();
            let mut game = Game::new(config, seed);
            let mut record = Record::start_of(&game);
            let mut rng = GameRng::new(seed + 1000);
            let layout = game.position().layout();
            while let Some(mv) = game.random_move(&mut rng) {
                let seat = game.position().to_move();
                let events = game.play(seat, mv).unwrap();
                reshuffled += events
                    .iter()
                    .filter(|e| matches!(e, Event::Reshuffled))
                    .count();
                record.push(seat, mv, layout, &events);
            }
            let replayed = record.replay().unwrap().unwrap();
            assert_eq!(
                replayed.position(),
                game.position(),
                "{variant} seed {seed}"
            );
            assert_eq!(
                replayed.all_cards(),
                game.all_cards(),
                "{variant} seed {seed}"
            );
        }
    }
    assert!(
        reshuffled > 0,
        "no game reshuffled: the test proves nothing"
    );
}
