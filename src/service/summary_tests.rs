//! The final message's summary of a game: sequences with who made them and on which move, broken
//! lines, the length in moves and minutes.

use crate::engine::Variant;

use super::tests::{begin_game, play_out, service, T0};
use super::text::{TeamName, Text};
use super::*;

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
                .contains(&format!("{chip_moves} moves in 0 minutes")),
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
    playing.live = table::LiveGame::from_record(record).unwrap();
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
                move_number: 9
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
