//! The final message's summary of a game: sequences with who made them and on which move, broken
//! lines, the length in moves and minutes.

use super::kit::Start;
use crate::engine::Variant;

use super::table::play_out;

use super::kit::{ask, ask_in, begin_game, command_for, service, T0};
use crate::service::text::{TeamName, Text};
use crate::service::{
    ChannelId, Command, Image, LiveGame, Message, Output, RandomPicker, Reply, Settings, State,
    Tables, UserId, Who,
};

#[tokio::test]
async fn the_final_message_sums_up_the_game() {
    for (channel, variant, seed) in [(61, Variant::Classic, 7), (62, Variant::Kids, 8)] {
        let tables = service(seed);
        begin_game(&tables, channel, variant, &[1, 2], 0);
        let seats = tables
            .snapshot(ChannelId(channel))
            .unwrap()
            .playing()
            .unwrap()
            .seats
            .clone();
        let done = play_out(&tables, channel, seed).await;
        let game = done.record.replay().unwrap().unwrap();
        // One line per standing sequence, naming its team.
        let lines: Vec<&str> = done
            .final_text
            .lines()
            .filter(|l| l.contains("Sequence for"))
            .collect();
        assert_eq!(
            lines.len(),
            game.position().sequences().len(),
            "{}",
            done.final_text
        );
        for (line, sequence) in lines.iter().zip(game.position().sequences()) {
            let team = TeamName::of(variant, sequence.team);
            assert!(line.contains(team.color), "{line}");
            // Two humans, a team each: the sequence's team is its seat.
            let who = seats[usize::from(sequence.team)].who().to_string();
            assert!(line.contains(&who), "{line}");
        }
        // The length counts the moves that placed or removed a chip.
        let chip_moves = done
            .record
            .actions
            .iter()
            .filter(|a| a.exchange.is_none() && a.pass.is_none())
            .count();
        assert!(
            done.final_text
                .contains(&format!("{chip_moves} moves in under a minute.")),
            "{}",
            done.final_text
        );
    }
}

#[test]
fn the_summary_names_the_move_of_each_sequence_and_broken_line() {
    // A kids game: blue's dragon takes C1 from green's A1–C1 on move 5, blue completes B2–E2 on move 9.
    let plays = [
        (0, "frog", "B2"),
        (1, "lion", "B1"),
        (0, "owl", "C2"),
        (1, "zebra", "C1"),
        (0, "dragon", "C1"),
        (1, "elephant", "E1"),
        (0, "turtle", "D2"),
        (1, "monkey", "F1"),
        (0, "rabbit", "E2"),
    ];
    let tables = service(3);
    begin_game(&tables, 70, Variant::Kids, &[1, 2], 0);
    let mut table = tables.snapshot(ChannelId(70)).unwrap();
    let State::Playing(playing) = &mut table.state else {
        panic!("not playing");
    };
    let record = crate::analysis::tests_support::kids_record(&plays);
    playing.live = LiveGame::from_record(record).unwrap();
    playing.started = Some(T0);
    playing.turn_started = T0.after(std::time::Duration::from_secs(7 * 60 + 59));
    let lines = playing.summary_lines();
    let kids = |team| TeamName::of(Variant::Kids, team);
    let seat_user = |seat: u64| playing.seats[seat as usize].who();
    assert_eq!(
        lines,
        vec![
            Text::SummarySequence {
                team: kids(playing.live.game().config().team_of(0)),
                who: seat_user(0),
                move_number: 9,
                points: None,
                in_zone: false,
            },
            Text::SummaryBroken {
                who: seat_user(0),
                team: kids(1),
                chips: 3,
                cell: "C1".into(),
                move_number: 5
            },
            Text::SummaryLength {
                moves: 9,
                minutes: Some(7)
            },
        ]
    );
    let english: Vec<String> = lines
        .iter()
        .map(|l| l.render(crate::i18n::Lang::En))
        .collect();
    assert!(
        english[1].contains("3 in a row at C1 on move 5"),
        "{english:?}"
    );
    let german = lines[2].render(crate::i18n::Lang::De);
    assert!(german.contains("9 Züge in 7 Minuten"), "{german}");
    let norwegian = lines[2].render(crate::i18n::Lang::No);
    assert!(norwegian.contains("9 trekk på 7 minutter"), "{norwegian}");
}

/// A kids game of user 1 against a computer player, on a store (so it is kept and numbered), played to
/// its end with random moves; returns the final reply and the human's seat.
async fn kept_game_against_a_computer(tables: &Tables, channel: u64, seed: u64) -> (Reply, u8) {
    begin_game(tables, channel, Variant::Kids, &[1], 1);
    let table = tables.snapshot(ChannelId(channel)).expect("the game runs");
    let human = table
        .playing()
        .and_then(|p| p.seat_of(UserId(1)))
        .expect("seated");
    let mut rng = crate::engine::GameRng::new(seed);
    for _ in 0..500 {
        let table = tables.snapshot(ChannelId(channel)).expect("the game runs");
        let playing = table.playing().expect("playing");
        let game = playing.live.game();
        let seat = game.position().to_move();
        let replies = if playing.seats[usize::from(seat)].user().is_some() {
            let mut legal = crate::engine::MoveList::new();
            game.view(seat).legal_moves(&mut legal);
            let mv = legal[rng.below(legal.len() as u32) as usize];
            let command = command_for(mv, game.position().layout());
            vec![ask(tables, channel, 1, command)]
        } else {
            tables.run_auto(ChannelId(channel), T0).await
        };
        if tables.snapshot(ChannelId(channel)).is_none() {
            return (replies.into_iter().last().expect("a reply"), human);
        }
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn a_kept_game_is_followed_by_each_humans_agreement_once() {
    let test_store = crate::store::tests::sqlite_store("agreement").unwrap();
    let tables = service(5)
        .with_store(test_store.store.clone())
        .with_analysis_budget(crate::ai::Budget::iterations(60));
    let (last, human_seat) = kept_game_against_a_computer(&tables, 80, 5).await;
    let id = last
        .outputs
        .iter()
        .find_map(|o| o.message().and_then(Message::announced_game))
        .expect("the game was kept");
    assert_eq!(tables.reviews_waiting(), 1);
    let record_json = test_store
        .store
        .game_record(crate::store::GameId(id), None)
        .unwrap()
        .unwrap();
    let record = crate::engine::Record::from_json(&record_json).unwrap();

    let follow_up = tables.agreement_follow_up(id).await.expect("a follow-up");
    let [Text::Agreement { game, lines }] = follow_up.lines.as_slice() else {
        panic!("{follow_up:?}");
    };
    assert_eq!(*game, id);
    // One line, for the human; the computer player is not judged.
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0].who, Who::User(UserId(1)));
    // Every move of theirs with a choice was compared, each with the view they had.
    let expected =
        crate::analysis::agreement_with(&record, &[human_seat], &crate::ai::Budget::iterations(60))
            .unwrap();
    assert_eq!(
        (lines[0].matched, lines[0].counted),
        (expected[0].matched, expected[0].counted)
    );
    assert!(lines[0].counted >= 3, "{lines:?}");
    for lang in crate::i18n::Lang::ALL {
        let text = follow_up.render(lang);
        assert!(
            text.contains('%') && text.contains("<@1>"),
            "{lang}: {text}"
        );
        assert!(text.contains("`hard`"), "{lang}: {text}");
    }
    // Posted once: the game is analysed no more.
    assert_eq!(tables.reviews_waiting(), 0);
    assert!(tables.agreement_follow_up(id).await.is_none());
}

#[tokio::test]
async fn a_game_that_was_not_kept_waits_for_no_analysis() {
    // Without a store nothing is numbered: no follow-up is waited for.
    let tables = service(6);
    kept_game_against_a_computer(&tables, 81, 6).await;
    assert_eq!(tables.reviews_waiting(), 0);
}

#[tokio::test]
async fn replay_posts_the_animation_of_a_kept_game() {
    let test_store = crate::store::tests::sqlite_store("replay").unwrap();
    let tables = service(9).with_store(test_store.store.clone());
    // Nothing finished here yet.
    let none = ask(&tables, 90, 1, Command::Replay { game: None });
    assert!(none.is_refusal(), "{none:?}");
    assert_eq!(
        none.outputs[0].message().unwrap().lines,
        vec![Text::NoGameHere]
    );
    let (last, _) = kept_game_against_a_computer(&tables, 90, 9).await;
    let id = last
        .outputs
        .iter()
        .find_map(|o| o.message().and_then(Message::announced_game))
        .expect("the game was kept");
    let stored = test_store
        .store
        .game_record(crate::store::GameId(id), None)
        .unwrap()
        .unwrap();
    let stored = crate::engine::Record::from_json(&stored).unwrap();
    for asked in [None, Some(id)] {
        let reply = ask(&tables, 90, 2, Command::Replay { game: asked });
        let [Output::Channel(message)] = reply.outputs.as_slice() else {
            panic!("{reply:?}");
        };
        assert_eq!(message.lines, vec![Text::GameReplay { id }]);
        let Some(Image::Replay(replay)) = &message.image else {
            panic!("{message:?}");
        };
        assert_eq!(replay.record, stored);
        // What Discord is sent: the whole game, a frame per chip move after the empty board.
        let animation =
            crate::render::animate::animate(&replay.record, &[], crate::i18n::Lang::De).unwrap();
        let chip_moves = stored
            .actions
            .iter()
            .filter(|a| a.exchange.is_none() && a.pass.is_none())
            .count();
        assert_eq!(animation.frames, chip_moves + 1);
        assert!(animation.gif.starts_with(b"GIF89a"));
        // Posted, as the Discord layer does: the member's slot in the replay queue is free again.
        tables.replay_posted(replay.slot.expect("a member's replay holds a slot"));
    }
    for lang in crate::i18n::Lang::ALL {
        assert!(Text::GameReplay { id }
            .render(lang)
            .contains(&format!("#{id}")));
    }
    // Another number: refused politely, nothing posted.
    let missing = ask(
        &tables,
        90,
        2,
        Command::Replay {
            game: Some(id + 50),
        },
    );
    assert!(missing.is_refusal(), "{missing:?}");
    assert_eq!(
        missing.outputs[0].message().unwrap().lines,
        vec![Text::NoSuchGame(id + 50)]
    );
}

#[tokio::test]
async fn stats_show_the_agreement_of_the_latest_rated_games() {
    let test_store = crate::store::tests::sqlite_store("agreement-stats").unwrap();
    let store = test_store.store.clone();
    let tables = super::kit::seeded(super::kit::unlimited(super::kit::test_settings()), 12)
        .with_store(store.clone())
        .with_analysis_budget(crate::ai::Budget::iterations(40));
    // Two rated kids games between users 1 and 2, one casual, in a server (outside servers each
    // chat keeps its own stats, and games are casual); each is analysed after its end.
    const GUILD: crate::service::GuildId = crate::service::GuildId(12);
    let mut lines = Vec::new();
    for (channel, rated) in [(110, true), (111, false), (112, true)] {
        let start = Start {
            rated: Some(rated),
            ..Start::of(Variant::Kids)
        }
        .command();
        assert!(!ask_in(&tables, GUILD, channel, 1, start).is_refusal());
        let join = Command::Join { team: None };
        assert!(!ask_in(&tables, GUILD, channel, 2, join).is_refusal());
        assert!(!ask_in(&tables, GUILD, channel, 1, Command::Begin).is_refusal());
        let done = play_out(&tables, channel, channel).await;
        let saved = done
            .final_text
            .lines()
            .find(|l| l.contains("Saved as game"))
            .expect("kept");
        let id: i64 = saved
            .split('#')
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .expect("its number");
        let follow_up = tables.agreement_follow_up(id).await.expect("analysed");
        let [Text::Agreement { lines: game, .. }] = follow_up.lines.as_slice() else {
            panic!("{follow_up:?}");
        };
        if rated {
            lines.extend(
                game.iter()
                    .filter(|l| l.who == Who::User(UserId(1)))
                    .cloned(),
            );
        }
    }
    assert_eq!(lines.len(), 2);
    let expected = crate::store::AgreementTotals {
        matched: lines.iter().map(|l| l.matched).sum(),
        counted: lines.iter().map(|l| l.counted).sum(),
        games: 2,
    };
    // The casual game does not count; only the latest game counts with a limit of one.
    assert_eq!(
        store.recent_agreement(Some(GUILD.0), 1, 20).unwrap(),
        expected
    );
    let latest = store.recent_agreement(Some(GUILD.0), 1, 1).unwrap();
    assert_eq!(
        (latest.matched, latest.counted, latest.games),
        (lines[1].matched, lines[1].counted, 1)
    );
    assert_eq!(
        store.recent_agreement(Some(GUILD.0), 99, 20).unwrap().games,
        0
    );
    let reply = ask_in(&tables, GUILD, 113, 1, Command::Stats { user: None });
    let stats = reply
        .outputs
        .iter()
        .find_map(|o| o.message())
        .map(|m| m.lines.clone())
        .unwrap_or_default();
    assert!(
        stats
            .iter()
            .any(|t| matches!(t, Text::Stats { agreement: Some(a), .. } if *a == expected)),
        "{stats:?}"
    );
    let english = stats[0].render(crate::i18n::Lang::En);
    assert!(english.contains("over the last 2 rated games"), "{english}");
}

#[tokio::test]
async fn a_turn_the_computer_played_after_a_timeout_is_not_the_players_own() {
    let settings = Settings {
        turn_reminder: std::time::Duration::from_secs(60),
        turn_timeout: std::time::Duration::from_secs(300),
        ..Settings::default()
    };
    let tables = Tables::seeded(settings, std::sync::Arc::new(RandomPicker), 62);
    begin_game(&tables, 120, Variant::Kids, &[1, 2], 0);
    // The first player moves themselves.
    let table = tables.snapshot(ChannelId(120)).unwrap();
    let playing = table.playing().unwrap();
    let game = playing.live.game();
    let seat = game.position().to_move();
    let user = playing.seats[usize::from(seat)].user().unwrap();
    let mut legal = crate::engine::MoveList::new();
    game.view(seat).legal_moves(&mut legal);
    let own = command_for(legal[0], game.position().layout());
    assert!(!ask(&tables, 120, user.0, own).is_refusal());
    // The second lets their time run out: a computer plays for them.
    let late = T0.after(std::time::Duration::from_secs(301));
    tables.tick(late);
    assert!(tables.auto_step(ChannelId(120), late).await.is_some());
    let after = tables.snapshot(ChannelId(120)).unwrap();
    let playing = after.playing().unwrap();
    assert_eq!(playing.live.record().actions.len(), 2);
    assert_eq!(playing.own_actions, Some(vec![0]));
}

#[test]
fn the_summary_shows_king_of_the_board_zone_doubles() {
    // One placement completes A2–E2 (outside the zone, 1 point) and E2–E6 (touching it, 2 points).
    let record = crate::engine::Record::from_json(include_str!(
        "../../../tests/golden/kotb_two_sequences_one_in_one_out.json"
    ))
    .unwrap();
    let tables = service(4);
    begin_game(&tables, 71, Variant::Classic, &[1, 2], 0);
    let mut table = tables.snapshot(ChannelId(71)).unwrap();
    let State::Playing(playing) = &mut table.state else {
        panic!("not playing");
    };
    playing.live = LiveGame::from_record(record).unwrap();
    let lines = playing.summary_lines();
    let scored: Vec<(Option<u8>, bool)> = lines
        .iter()
        .filter_map(|l| match l {
            Text::SummarySequence {
                points, in_zone, ..
            } => Some((*points, *in_zone)),
            _ => None,
        })
        .collect();
    assert_eq!(scored, vec![(Some(1), false), (Some(2), true)]);
    let render = |lang| -> Vec<String> { lines[..2].iter().map(|l| l.render(lang)).collect() };
    let english = render(crate::i18n::Lang::En);
    assert!(english[0].ends_with(": 1 point."), "{english:?}");
    assert!(
        english[1].contains("touching the zone: 2 points"),
        "{english:?}"
    );
    let german = render(crate::i18n::Lang::De);
    assert!(german[0].ends_with(": 1 Punkt."), "{german:?}");
    assert!(german[1].contains("in der Zone: 2 Punkte"), "{german:?}");
    let norwegian = render(crate::i18n::Lang::No);
    assert!(norwegian[0].ends_with(": 1 poeng."), "{norwegian:?}");
    assert!(norwegian[1].contains("i sonen: 2 poeng"), "{norwegian:?}");
}
