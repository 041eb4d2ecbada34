//! Series (issue 25): best of 3 to its winner with Next game, the losing side first, what a restart
//! keeps, stale and foreign presses, abandoning, a stop, expiry, and what the store is told.

use std::sync::Arc;
use std::time::Duration;

use crate::engine::{GameRng, Move, MoveList, Variant};

use super::kit::{
    command_for, final_message, reply_text, seeded, test_settings, Asker, Recorder, Start, T0,
};
use crate::service::{
    Button, ChannelId, Command, GuildId, Message, Output, Reply, State, Table, Tables, Text, UserId,
};

const CHANNEL: u64 = 70;

/// Requests come from server 5.
const HERE: Asker = Asker::server(GuildId(5));

fn service(seed: u64) -> (Tables, Arc<Recorder>) {
    let ended = Arc::new(Recorder::default());
    let tables = seeded(test_settings(), seed).with_persist(ended.clone());
    (tables, ended)
}

fn table(tables: &Tables) -> Table {
    tables.snapshot(ChannelId(CHANNEL)).expect("a table")
}

fn to_move(tables: &Tables) -> u64 {
    let table = table(tables);
    let playing = table.playing().expect("a game");
    playing.seats[usize::from(playing.game().position().to_move())]
        .user()
        .expect("a human")
        .0
}

/// Plays two moves for each player (so the game counts), then `loser` gives up: the other wins.
/// Returns the reply that ended the game.
fn lose(tables: &Tables, loser: u64, rng: &mut GameRng) -> Reply {
    for _ in 0..4 {
        let table = table(tables);
        let playing = table.playing().expect("a game");
        let game = playing.game();
        let seat = game.position().to_move();
        let mut legal = MoveList::new();
        game.view(seat).legal_moves(&mut legal);
        let moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Play { .. }))
            .collect();
        let mv = moves[rng.below(moves.len() as u32) as usize];
        let user = to_move(tables);
        let reply = HERE.ask(
            tables,
            CHANNEL,
            user,
            command_for(mv, game.position().layout()),
        );
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    let reply = HERE.ask(tables, CHANNEL, loser, Command::Forfeit { game: None });
    assert!(!reply.is_refusal(), "{reply:?}");
    reply
}

/// Whether the score line says `after game {played}` with these wins of players 1 and 2 (in the order
/// of the first game's teams, which its deal decides).
fn says_score(text: &str, played: u8, one: u8, two: u8) -> bool {
    let a = format!("after game {played}: <@1> {one} – <@2> {two}");
    let b = format!("after game {played}: <@2> {two} – <@1> {one}");
    text.contains(&a) || text.contains(&b)
}

fn next_key(message: &Message) -> Option<u64> {
    message.buttons.iter().find_map(|b| match b {
        Button::NextGame(key) => Some(*key),
        _ => None,
    })
}

#[test]
fn a_best_of_three_is_played_to_its_winner_with_the_loser_moving_first() {
    let (tables, ended) = service(3);
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(3)).command(),
        &[1, 2],
        0,
    );
    let mut rng = GameRng::new(9);
    // Game 1: player 2 loses.
    let reply = lose(&tables, 2, &mut rng);
    let message = final_message(&reply).expect("a final message");
    let text = message.to_english();
    assert!(text.contains("Series, best of 3"), "{text}");
    assert!(says_score(&text, 1, 1, 0), "{text}");
    assert!(text.contains("Next game"), "{text}");
    let key = next_key(message).expect("a Next game button");
    assert!(message.buttons.contains(&Button::AbandonSeries(key)));
    assert!(!message
        .buttons
        .iter()
        .any(|b| matches!(b, Button::Rematch(_))));
    // Between the games: stored as a table, with the same seats.
    let between = table(&tables);
    assert!(between.is_between_games());
    assert_eq!(between.created.0, key);
    // Someone else cannot start it; a lobby command is refused; neither changes anything.
    let refused = HERE.ask(&tables, CHANNEL, 9, Button::NextGame(key).command());
    assert!(refused.is_refusal());
    assert!(refused.outputs[0]
        .message()
        .unwrap()
        .to_english()
        .contains("Only the players of this series"));
    let refused = HERE.ask(&tables, CHANNEL, 9, Command::Join { team: None });
    assert!(refused.is_refusal(), "{refused:?}");
    assert!(table(&tables).is_between_games());
    // Player 2 (who lost) presses Next game: dealt at once, and player 2 moves first.
    let reply = HERE.ask(&tables, CHANNEL, 2, Button::NextGame(key).command());
    assert!(!reply.is_refusal(), "{reply:?}");
    assert!(
        !reply
            .outputs
            .iter()
            .any(|o| matches!(o, Output::Lobby { .. })),
        "the pressed final message must not be written over: {reply:?}"
    );
    assert_eq!(to_move(&tables), 2, "the side that lost moves first");
    // The old button is stale now: answered privately, nothing changes.
    let before = serde_json::to_string(&table(&tables)).unwrap();
    let stale = HERE.ask(&tables, CHANNEL, 1, Button::NextGame(key).command());
    assert!(stale.is_refusal());
    assert_eq!(before, serde_json::to_string(&table(&tables)).unwrap());
    // The status shows the series: the game being played, and the score so far.
    let status = HERE.ask(&tables, CHANNEL, 1, Command::Status);
    assert!(
        status.outputs[0]
            .message()
            .unwrap()
            .to_english()
            .contains("Game 2 of a best of 3"),
        "{status:?}"
    );
    // Game 2: player 1 loses; 1–1.
    let reply = lose(&tables, 1, &mut rng);
    let text = final_message(&reply).expect("a final message").to_english();
    assert!(says_score(&text, 2, 1, 1), "{text}");
    let key = next_key(final_message(&reply).expect("a final message")).expect("a third game");
    let reply = HERE.ask(&tables, CHANNEL, 1, Button::NextGame(key).command());
    assert!(!reply.is_refusal(), "{reply:?}");
    assert_eq!(to_move(&tables), 1, "player 1 lost game 2 and moves first");
    assert!(ended.series.lock().unwrap().is_empty());
    // Game 3: player 1 loses again; player 2 wins the series 2–1.
    let reply = lose(&tables, 1, &mut rng);
    let message = final_message(&reply).expect("a final message");
    let text = message.to_english();
    assert!(says_score(&text, 3, 1, 2), "{text}");
    assert!(text.contains("<@2> win the series (best of 3)"), "{text}");
    assert_eq!(next_key(message), None);
    assert!(message
        .buttons
        .iter()
        .any(|b| matches!(b, Button::Rematch(_))));
    assert!(tables.is_empty(), "the series is over: the table closed");
    let ended = ended.series.lock().unwrap();
    assert_eq!(ended.len(), 1);
    let mut results = ended[0].results();
    results.sort();
    assert_eq!(results, vec![(UserId(1), false), (UserId(2), true)]);
}

#[test]
fn the_series_is_shown_from_the_lobby_on_and_every_start_says_which_game_and_the_score() {
    let (tables, _) = service(6);
    // The lobby's settings line.
    let lobby = reply_text(&HERE.ask(
        &tables,
        CHANNEL,
        1,
        Start::of(Variant::Classic).series(Some(3)).command(),
    ));
    assert!(lobby.contains("a series, best of 3 games"), "{lobby}");
    let joined = reply_text(&HERE.ask(&tables, CHANNEL, 2, Command::Join { team: None }));
    assert!(joined.contains("a series, best of 3 games"), "{joined}");
    // Game 1's start message, and the status while it runs (never "after game 0").
    let begun = reply_text(&HERE.ask(&tables, CHANNEL, 1, Command::Begin));
    assert!(says_game(&begun, 1, 0, 0), "{begun}");
    let status = reply_text(&HERE.ask(&tables, CHANNEL, 1, Command::Status));
    assert!(says_game(&status, 1, 0, 0), "{status}");
    assert!(!status.contains("after game 0"), "{status}");
    // Game 2: its start message says so, with the score.
    let mut rng = GameRng::new(3);
    let reply = lose(&tables, 2, &mut rng);
    let key = next_key(final_message(&reply).expect("a final message")).unwrap();
    let status = reply_text(&HERE.ask(&tables, CHANNEL, 1, Command::Status));
    assert!(says_score(&status, 1, 1, 0), "{status}");
    let next = reply_text(&HERE.ask(&tables, CHANNEL, 2, Button::NextGame(key).command()));
    assert!(says_game(&next, 2, 1, 0), "{next}");
    let status = reply_text(&HERE.ask(&tables, CHANNEL, 1, Command::Status));
    assert!(says_game(&status, 2, 1, 0), "{status}");
    for lang in crate::i18n::Lang::ALL {
        let line = Text::SeriesGame {
            number: 2,
            best_of: 3,
            sides: Vec::new(),
        }
        .render(lang);
        assert!(line.contains('2') && line.contains('3'), "{line}");
    }
}

/// Whether the text says "Game {number} of a best of 3" with these wins of players 1 and 2.
fn says_game(text: &str, number: u8, one: u8, two: u8) -> bool {
    let a = format!("Game {number} of a best of 3 — <@1> {one} – <@2> {two}.");
    let b = format!("Game {number} of a best of 3 — <@2> {two} – <@1> {one}.");
    text.contains(&a) || text.contains(&b)
}

#[test]
fn two_wins_of_three_end_the_series_at_once() {
    let (tables, ended) = service(4);
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(3)).command(),
        &[1, 2],
        0,
    );
    let mut rng = GameRng::new(2);
    let reply = lose(&tables, 1, &mut rng);
    let key = next_key(final_message(&reply).expect("a final message")).unwrap();
    assert!(!HERE
        .ask(&tables, CHANNEL, 1, Button::NextGame(key).command())
        .is_refusal());
    let reply = lose(&tables, 1, &mut rng);
    let text = final_message(&reply).expect("a final message").to_english();
    assert!(says_score(&text, 2, 0, 2), "{text}");
    assert!(text.contains("win the series"), "{text}");
    assert!(tables.is_empty());
    assert_eq!(ended.series.lock().unwrap().len(), 1);
}

#[test]
fn the_table_between_games_survives_a_restart() {
    let (tables, _) = service(5);
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(5)).command(),
        &[1, 2],
        0,
    );
    let mut rng = GameRng::new(3);
    let reply = lose(&tables, 2, &mut rng);
    let key = next_key(final_message(&reply).expect("a final message")).unwrap();
    let json = serde_json::to_string(&table(&tables)).unwrap();
    // A new process reads the stored table.
    let (fresh, _) = service(6);
    let stored: Table = serde_json::from_str(&json).unwrap();
    assert!(fresh.restore(stored.clone()));
    // Its restart note offers the buttons again.
    let mut restored = stored;
    let (note, _) = restored.resume(T0.after(Duration::from_secs(60)), &test_settings());
    let message = note.outputs[0].message().unwrap();
    assert_eq!(next_key(message), Some(key));
    assert!(message.to_english().contains("best of 5, after game 1"));
    let reply = HERE.ask(&fresh, CHANNEL, 2, Button::NextGame(key).command());
    assert!(!reply.is_refusal(), "{reply:?}");
    let series = table(&fresh).series.expect("the series");
    let mut wins = series.wins.clone();
    wins.sort();
    assert_eq!(wins, vec![0, 1]);
    let one = series
        .sides
        .iter()
        .position(|side| side.iter().any(|p| p.user() == Some(UserId(1))))
        .unwrap();
    assert_eq!(series.wins[one], 1, "player 1 won game 1");
    assert_eq!(series.played, 1);
    assert_eq!(to_move(&fresh), 2);
    // A game of it in progress survives too.
    let json = serde_json::to_string(&table(&fresh)).unwrap();
    let stored: Table = serde_json::from_str(&json).unwrap();
    assert!(matches!(stored.state, State::Playing(_)));
    assert_eq!(stored.series.map(|s| s.played), Some(1));
}

#[test]
fn a_player_abandons_the_series_after_confirming() {
    let (tables, ended) = service(7);
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(3)).command(),
        &[1, 2],
        0,
    );
    let mut rng = GameRng::new(4);
    let reply = lose(&tables, 2, &mut rng);
    let key = next_key(final_message(&reply).expect("a final message")).unwrap();
    // Asked first, privately; nothing changes.
    let asked = HERE.ask(&tables, CHANNEL, 2, Button::AbandonSeries(key).command());
    match &asked.outputs[..] {
        [Output::Ephemeral(m)] => {
            assert!(m.buttons.contains(&Button::ConfirmAbandonSeries(key)));
            assert!(m.to_english().contains("Abandon the series?"));
        }
        other => panic!("{other:?}"),
    }
    assert!(table(&tables).is_between_games());
    // Not a player: refused.
    assert!(HERE
        .ask(
            &tables,
            CHANNEL,
            9,
            Button::ConfirmAbandonSeries(key).command()
        )
        .is_refusal());
    let reply = HERE.ask(
        &tables,
        CHANNEL,
        2,
        Button::ConfirmAbandonSeries(key).command(),
    );
    let text = reply.outputs[0].message().unwrap().to_english();
    assert!(text.contains("<@2> abandoned the series"), "{text}");
    assert!(says_score(&text, 1, 1, 0), "{text}");
    assert!(tables.is_empty());
    let ended = ended.series.lock().unwrap();
    assert_eq!(ended[0].winner(), None, "an abandoned series has no winner");
    assert!(ended[0].results().iter().all(|(_, won)| !won));
}

#[test]
fn keep_playing_on_abandon_the_series_answers_in_place_and_its_yes_no_longer_counts() {
    let (tables, ended) = service(8);
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(3)).command(),
        &[1, 2],
        0,
    );
    let mut rng = GameRng::new(5);
    let reply = lose(&tables, 2, &mut rng);
    let key = next_key(final_message(&reply).expect("a final message")).unwrap();
    HERE.ask(&tables, CHANNEL, 2, Button::AbandonSeries(key).command());
    // Keep playing: the answer replaces the question (no error), and nothing changes.
    let kept = HERE.ask(&tables, CHANNEL, 2, Button::KeepPlaying.command());
    match kept.outputs.as_slice() {
        [Output::Update(m)] => {
            assert_eq!(m.lines, vec![Text::KeptPlaying]);
            assert!(m.buttons.is_empty() && m.components.is_empty(), "{m:?}");
        }
        other => panic!("expected the question replaced in place, got {other:?}"),
    }
    // Its Yes, pressed later: refused, and the series goes on.
    let late = HERE.ask(
        &tables,
        CHANNEL,
        2,
        Button::ConfirmAbandonSeries(key).command(),
    );
    assert!(late.is_refusal(), "{late:?}");
    assert!(late.outputs[0]
        .message()
        .unwrap()
        .to_english()
        .contains("answered already"));
    assert!(table(&tables).is_between_games());
    assert!(ended.series.lock().unwrap().is_empty());
    // Asked again, the Yes abandons it, and its answer replaces the question too.
    HERE.ask(&tables, CHANNEL, 2, Button::AbandonSeries(key).command());
    let reply = HERE.ask(
        &tables,
        CHANNEL,
        2,
        Button::ConfirmAbandonSeries(key).command(),
    );
    assert!(
        matches!(reply.outputs.first(), Some(Output::Channel(_))),
        "{reply:?}"
    );
    match reply.outputs.last() {
        Some(Output::Update(m)) => {
            assert!(
                m.to_english().contains("<@2> abandoned the series"),
                "{m:?}"
            );
            assert!(m.buttons.is_empty() && m.components.is_empty(), "{m:?}");
        }
        other => panic!("expected the question replaced in place, got {other:?}"),
    }
    assert!(tables.is_empty());
}

#[test]
fn stopping_a_game_of_a_series_ends_the_series() {
    let (tables, ended) = service(8);
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(3)).command(),
        &[1, 2],
        0,
    );
    let reply = HERE.ask(&tables, CHANNEL, 1, Command::Stop);
    let text = final_message(&reply).expect("a final message").to_english();
    assert!(text.contains("ends without a winner"), "{text}");
    assert_eq!(
        next_key(final_message(&reply).expect("a final message")),
        None
    );
    assert!(tables.is_empty());
    assert_eq!(ended.series.lock().unwrap().len(), 1);
}

#[test]
fn nobody_starting_the_next_game_ends_the_series_after_the_lobby_timeout() {
    let (tables, ended) = service(9);
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(3)).command(),
        &[1, 2],
        0,
    );
    let mut rng = GameRng::new(5);
    lose(&tables, 2, &mut rng);
    assert!(tables.tick(T0.after(Duration::from_secs(60))).is_empty());
    let ticks = tables.tick(T0.after(Duration::from_secs(1801)));
    assert_eq!(ticks.len(), 1);
    let text = ticks[0].1.outputs[0].message().unwrap().to_english();
    assert!(text.contains("Nobody started the next game"), "{text}");
    assert!(tables.is_empty());
    assert_eq!(ended.series.lock().unwrap().len(), 1);
}

#[test]
fn only_best_of_three_five_or_seven() {
    let (tables, _) = service(10);
    for bad in [0, 1, 2, 4, 9] {
        let reply = HERE.ask(
            &tables,
            CHANNEL,
            1,
            Start::of(Variant::Classic).series(Some(bad)).command(),
        );
        assert!(reply.is_refusal(), "{bad}");
        assert!(reply.outputs[0]
            .message()
            .unwrap()
            .to_english()
            .contains("best of 3, 5 or 7"));
        assert!(tables.is_empty());
    }
    assert!(!HERE
        .ask(
            &tables,
            CHANNEL,
            1,
            Start::of(Variant::Classic).series(Some(7)).command()
        )
        .is_refusal());
    assert_eq!(table(&tables).setup.series, Some(7));
}

#[test]
fn series_buttons_parse_from_their_ids_only() {
    for button in [
        Button::NextGame(17),
        Button::AbandonSeries(17),
        Button::ConfirmAbandonSeries(17),
    ] {
        assert_eq!(Button::from_id(&button.id()), Some(button));
    }
    for bad in [
        "sequence:next:",
        "sequence:next:x",
        "sequence:abandon:1:2",
        "sequence:next:01",
    ] {
        assert_eq!(Button::from_id(bad), None, "{bad}");
    }
}

#[test]
fn series_texts_in_three_languages() {
    let texts = [
        Text::SeriesNext,
        Text::SeriesBreak,
        Text::ConfirmAbandonSeries,
        Text::SeriesExpired,
        Text::SeriesNoWinner,
    ];
    for text in texts {
        let en = text.render(crate::i18n::Lang::En);
        let de = text.render(crate::i18n::Lang::De);
        let no = text.render(crate::i18n::Lang::No);
        assert!(en != de && de != no && en != no, "{en} / {de} / {no}");
    }
}

#[test]
fn series_played_and_won_are_stored_and_shown_under_the_stats() {
    let store: Arc<dyn crate::store::Store> =
        Arc::new(crate::store::SqliteStore::open_in_memory().expect("store"));
    let tables = seeded(test_settings(), 11).with_store(store.clone());
    let mut rng = GameRng::new(6);
    // Player 1 wins a best of 3, 2–0.
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(3)).command(),
        &[1, 2],
        0,
    );
    let reply = lose(&tables, 2, &mut rng);
    let key = next_key(final_message(&reply).expect("a final message")).unwrap();
    assert!(!HERE
        .ask(&tables, CHANNEL, 2, Button::NextGame(key).command())
        .is_refusal());
    lose(&tables, 2, &mut rng);
    assert!(tables.is_empty());
    // A second series, abandoned after its first game: played, won by nobody.
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(5)).command(),
        &[1, 2],
        0,
    );
    let reply = lose(&tables, 1, &mut rng);
    let key = next_key(final_message(&reply).expect("a final message")).unwrap();
    HERE.ask(&tables, CHANNEL, 1, Button::AbandonSeries(key).command());
    assert!(!HERE
        .ask(
            &tables,
            CHANNEL,
            1,
            Button::ConfirmAbandonSeries(key).command()
        )
        .is_refusal());
    assert!(tables.is_empty());
    let one = store.series_stats(Some(5), 1).unwrap();
    let two = store.series_stats(Some(5), 2).unwrap();
    assert_eq!((one.played, one.won), (2, 1));
    assert_eq!((two.played, two.won), (2, 0));
    assert_eq!(store.series_stats(Some(6), 1).unwrap().played, 0);
    // Each game was kept and counts on its own: three games.
    assert_eq!(store.player_stats(Some(5), 1).unwrap().games, 3);
    let stats = HERE.ask(&tables, CHANNEL, 1, Command::Stats { user: None });
    let text = stats.outputs[0].message().unwrap().to_english();
    assert!(text.contains("Series: 2 played, 1 won."), "{text}");
    let de = stats.outputs[0]
        .message()
        .unwrap()
        .render(crate::i18n::Lang::De);
    assert!(de.contains("Serien: 2 gespielt, 1 gewonnen."), "{de}");
    // Nobody who never played a series sees the line.
    let stats = HERE.ask(
        &tables,
        CHANNEL,
        1,
        Command::Stats {
            user: Some(UserId(3)),
        },
    );
    let text = stats.outputs[0].message().unwrap().to_english();
    assert!(!text.contains("Series:"), "{text}");
}

#[test]
fn each_game_of_a_series_has_a_page_of_its_own_and_an_earlier_one_leads_on() {
    let (tables, _) = service(11);
    HERE.begin(
        &tables,
        CHANNEL,
        Start::of(Variant::Classic).series(Some(5)).command(),
        &[1, 2],
        0,
    );
    let first = table(&tables).web_token;
    assert!(crate::service::seeds::is_web_token(&first), "{first}");
    assert_eq!(
        tables.channel_of_web_token(&first),
        Some(ChannelId(CHANNEL))
    );
    assert_eq!(
        tables.next_of_web_token(&first),
        None,
        "it is the game played"
    );
    let mut rng = GameRng::new(5);
    let reply = lose(&tables, 2, &mut rng);
    let ended = final_message(&reply).expect("a final message");
    let between = table(&tables);
    let second = between.web_token.clone();
    assert!(crate::service::seeds::is_web_token(&second), "{second}");
    assert_ne!(second, first, "the next game has a page of its own");
    assert_eq!(
        between.series.as_ref().map(|s| s.pages.clone()),
        Some(vec![first.clone()])
    );
    let view = tables
        .view(ChannelId(CHANNEL), None, crate::i18n::Lang::En, T0)
        .expect("a view");
    assert_eq!(view.token, second, "the view names its page");
    assert_eq!(tables.channel_of_web_token(&first), None, "no longer live");
    assert_eq!(
        tables.channel_of_web_token(&second),
        Some(ChannelId(CHANNEL))
    );
    assert_eq!(tables.next_of_web_token(&first), Some(second.clone()));
    assert_eq!(tables.next_of_web_token(&second), None);
    // Game 2 is dealt on the same page, and ends: a third page.
    let key = next_key(ended).expect("a Next game button");
    let dealt = HERE.ask(&tables, CHANNEL, 2, Button::NextGame(key).command());
    assert!(!dealt.is_refusal(), "{dealt:?}");
    assert_eq!(table(&tables).web_token, second, "dealing keeps the page");
    let reply = lose(&tables, 1, &mut rng);
    assert!(final_message(&reply).is_some(), "game 2 ended");
    let third = table(&tables).web_token;
    assert!(third != first && third != second);
    assert_eq!(
        table(&tables).series.map(|s| s.pages),
        Some(vec![first.clone(), second.clone()])
    );
    for earlier in [&first, &second] {
        assert_eq!(tables.next_of_web_token(earlier), Some(third.clone()));
    }
    // A restart keeps the pages and where they lead.
    let json = serde_json::to_string(&table(&tables)).unwrap();
    let (fresh, _) = service(12);
    assert!(fresh.restore(serde_json::from_str(&json).unwrap()));
    assert_eq!(fresh.next_of_web_token(&first), Some(third.clone()));
    assert_eq!(fresh.channel_of_web_token(&third), Some(ChannelId(CHANNEL)));
    // Once the series ends (abandoned here), the earlier pages lead nowhere: they are replays.
    let reply = HERE.ask(&fresh, CHANNEL, 1, Command::Cancel);
    assert!(!reply.is_refusal(), "{reply:?}");
    assert!(fresh.snapshot(ChannelId(CHANNEL)).is_none());
    for page in [&first, &second, &third] {
        assert_eq!(fresh.next_of_web_token(page), None);
        assert_eq!(fresh.channel_of_web_token(page), None);
    }
}
