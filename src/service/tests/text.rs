//! Issue 26, texts that contradicted the game: each is checked in the situation that produces it, and
//! in every language where the words matter.

use std::time::Duration;

use crate::engine::{
    BitIter, Cell, Config, Game, GameRng, Move, MoveList, Options, RollMode, Variant,
};
use crate::i18n::Lang;

use super::kit::{
    ask, begin_game, final_message, lobby_output, seeded, start, test_actor, test_settings,
    unlimited, T0,
};
use crate::service::text::{RatingInfo, RatingNote, RollHint, Totals, Who};
use crate::service::{
    command_for_component, roll_hint, turn_number, Actor, BotLevel, ChannelId, Command, Output,
    Reply, Request, Settings, Table, Tables, Text, UserId,
};

fn table(tables: &Tables, channel: u64) -> Table {
    tables.snapshot(ChannelId(channel)).expect("a table")
}

fn lines(reply: &Reply) -> Vec<Text> {
    reply
        .outputs
        .iter()
        .filter_map(Output::message)
        .flat_map(|m| m.lines.clone())
        .collect()
}

/// Plays `moves` moves of a card game, each the first legal card play of the human to move.
fn play_moves(tables: &Tables, channel: u64, moves: usize) {
    for _ in 0..moves {
        let table = table(tables, channel);
        let playing = table.playing().expect("playing");
        let game = playing.game();
        let seat = game.position().to_move();
        let user = playing.seats[usize::from(seat)].user().expect("a human");
        let mut legal = MoveList::new();
        game.view(seat).legal_moves(&mut legal);
        let Some(Move::Play { card, cell }) = legal
            .iter()
            .copied()
            .find(|m| matches!(m, Move::Play { .. }))
        else {
            panic!("a card to play");
        };
        let command = Command::Play {
            card: Some(card.to_string()),
            cell: game.position().layout().cell_name(cell),
        };
        assert!(!ask(tables, channel, user.0, command).is_refusal());
    }
}

// ----- the hand in the DM and in the picker -----

#[test]
fn the_dm_points_to_the_play_button_and_the_picker_does_not_repeat_it() {
    let tables = seeded(unlimited(Settings::default()), 3);
    let begun = begin_game(&tables, 1, Variant::Classic, &[1, 2], 0);
    let t = table(&tables, 1);
    let playing = t.playing().expect("playing");
    let seat = playing.game().position().to_move();
    let mover = playing.seats[usize::from(seat)].user().expect("a human");
    let dm = begun
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Direct { user, message } if *user == mover => Some(message),
            _ => None,
        })
        .expect("the player to move gets their hand");
    assert!(dm.lines.iter().any(|l| matches!(
        l,
        Text::Hand {
            your_turn: true,
            ..
        }
    )));
    for (lang, button) in [
        (Lang::En, "press **Play**"),
        (Lang::De, "Drücke **Spielen**"),
        (Lang::No, "Trykk **Spill**"),
    ] {
        let text = dm.render(lang);
        assert!(text.contains(button), "{lang}: {text}");
        assert!(text.contains("<#1>"), "{lang}: names the channel: {text}");
    }
    // `/sequence hand` says the same.
    let hand = ask(&tables, 1, mover.0, Command::Hand);
    assert!(hand.outputs[0]
        .message()
        .expect("a message")
        .to_english()
        .contains("press **Play**"));
    // The picker shows the hand and asks for a card: no line about the typed command.
    let id = format!(
        "sequence:p:{}:{}:play",
        t.created.0,
        turn_number(playing.game())
    );
    let command = command_for_component(&id, &[]).expect("a picker id");
    let reply = ask(&tables, 1, mover.0, command);
    let picker = reply.outputs[0].message().expect("the picker");
    assert!(picker.lines.contains(&Text::PickCard), "{picker:?}");
    for lang in Lang::ALL {
        let text = picker.render(lang);
        assert!(!text.contains("/sequence"), "{lang}: {text}");
    }
}

// ----- giving up: what really happens -----

/// Asks `user` to leave, then gives up: the question's `ends_game` and whether the game ended.
fn leave_then_give_up(tables: &Tables, channel: u64, user: u64) -> (bool, bool) {
    let question = ask(tables, channel, user, Command::Leave);
    let ends_game = match lines(&question).as_slice() {
        [Text::ConfirmLeave { ends_game }] => *ends_game,
        other => panic!("expected the question, got {other:?}"),
    };
    let reply = ask(tables, channel, user, Command::Forfeit { game: None });
    assert!(!reply.is_refusal(), "{reply:?}");
    (ends_game, final_message(&reply).is_some())
}

#[test]
fn the_leave_question_says_whether_a_computer_takes_the_seat_or_the_game_ends() {
    // One against one: the game ends and the other player wins.
    let tables = seeded(unlimited(Settings::default()), 5);
    begin_game(&tables, 2, Variant::Classic, &[1, 2], 0);
    play_moves(&tables, 2, 4);
    assert_eq!(leave_then_give_up(&tables, 2, 2), (true, true));
    // Alone against a computer: it ends too.
    begin_game(&tables, 3, Variant::Classic, &[1], 1);
    assert_eq!(leave_then_give_up(&tables, 3, 1), (true, true));
    // Three playing alone: a computer takes the seat and the two others play on.
    begin_game(&tables, 4, Variant::Classic, &[1, 2, 3], 0);
    assert_eq!(leave_then_give_up(&tables, 4, 3), (false, false));
    // ...and once a second one gives up, only one side is left: that ends it.
    assert_eq!(leave_then_give_up(&tables, 4, 2), (true, true));
    // Two against two, humans only: the teammate plays on, with a computer in the seat.
    begin_game(&tables, 5, Variant::Classic, &[1, 2, 3, 4], 0);
    assert_eq!(leave_then_give_up(&tables, 5, 4), (false, false));
    // The last human of that team gives up: the team is out, and so is the game.
    let t = table(&tables, 5);
    let playing = t.playing().expect("playing");
    let config = *playing.game().config();
    let left = playing.forfeited[0].0;
    let teammate = (0..4u8)
        .find(|&s| s != left && config.team_of(s) == config.team_of(left))
        .and_then(|s| playing.seats[usize::from(s)].user())
        .expect("a human teammate");
    assert_eq!(leave_then_give_up(&tables, 5, teammate.0), (true, true));
    // The two questions say different things, in every language.
    for lang in Lang::ALL {
        let seat = Text::ConfirmLeave { ends_game: false }.render(lang);
        let ends = Text::ConfirmLeave { ends_game: true }.render(lang);
        assert_ne!(seat, ends, "{lang}");
    }
    let ends = Text::ConfirmLeave { ends_game: true }.to_string();
    assert!(
        ends.contains("the game ends") && !ends.contains("takes your seat"),
        "{ends}"
    );
}

/// The reminder a tick posts in `channel` when the turn reminder is due.
fn reminder(tables: &Tables, channel: u64) -> Text {
    let at = T0.after(Duration::from_secs(121));
    tables
        .tick(at)
        .into_iter()
        .filter(|(c, _)| c.0 == channel)
        .flat_map(|(_, r)| lines(&r))
        .find(|l| matches!(l, Text::Reminder { .. }))
        .expect("a reminder")
}

#[test]
fn the_last_reminder_says_whether_a_computer_takes_the_seat_or_the_game_ends() {
    for (settings, what) in [
        (
            Settings {
                timeout_gives_up: true,
                ..Settings::default()
            },
            "giving up on timeout",
        ),
        (
            Settings {
                replace_after_timeouts: 1,
                ..Settings::default()
            },
            "replaced after one timeout",
        ),
    ] {
        let tables = seeded(unlimited(settings), 7);
        begin_game(&tables, 6, Variant::Classic, &[1, 2], 0);
        let text = reminder(&tables, 6);
        assert!(
            matches!(
                text,
                Text::Reminder {
                    gives_up: true,
                    ends_game: true,
                    ..
                }
            ),
            "{what}: {text:?}"
        );
        let english = text.to_string();
        assert!(
            english.contains("your side loses") && !english.contains("takes your seat"),
            "{what}: {english}"
        );
        begin_game(&tables, 7, Variant::Classic, &[1, 2, 3], 0);
        let text = reminder(&tables, 7);
        assert!(
            matches!(
                text,
                Text::Reminder {
                    gives_up: true,
                    ends_game: false,
                    ..
                }
            ),
            "{what}: {text:?}"
        );
        assert!(text.to_string().contains("a computer takes your seat"));
    }
}

// ----- the lobby's computer level -----

#[test]
fn the_lobby_says_which_computers_the_default_level_is_for() {
    let tables = seeded(unlimited(Settings::default()), 9);
    assert!(!ask(&tables, 8, 1, start(Variant::Classic, None)).is_refusal());
    let reply = ask(
        &tables,
        8,
        1,
        Command::AddBot {
            level: Some(BotLevel::Medium),
        },
    );
    let lobby = lobby_output(&reply)
        .map(|(_, message)| message)
        .expect("the lobby message");
    let text = lobby.to_english();
    assert!(text.contains("Computer 1 (medium)"), "{text}");
    assert!(
        text.contains("computers added without a level, and those playing for a player: easy"),
        "{text}"
    );
    assert!(!text.contains("computer level:"), "{text}");
    for (lang, old) in [(Lang::De, "Computerstufe:"), (Lang::No, "datamaskinnivå:")] {
        let text = lobby.render(lang);
        assert!(!text.contains(old), "{lang}: {text}");
    }
}

// ----- dice -----

/// Seat 0 rolls `dice` and takes the first free cell of that sum, seat 1 rolls 3 and does the same,
/// `times` times.
fn place_for_both(game: &mut Game, dice: [u8; 2], times: usize) {
    for _ in 0..times {
        for (seat, roll) in [(0u8, dice), (1, [1, 2])] {
            game.roll_with(roll).expect("roll");
            let sum = roll[0] + roll[1];
            let layout = game.position().layout();
            let cell = BitIter(layout.cells_of_number(sum) & !game.position().occupied())
                .next()
                .expect("a free cell");
            game.play(seat, Move::Place { cell }).expect("legal");
        }
    }
}

#[test]
fn a_dice_roll_without_a_move_says_why() {
    let config = Config::new(Variant::Dice, 2, None, Options::default()).expect("config");
    // All four 6 cells hold the player's own chips: a 6 gives nothing.
    let mut game = Game::new_rolling(config, 1, RollMode::OnDemand);
    place_for_both(&mut game, [2, 4], 4);
    game.roll_with([3, 3]).expect("roll");
    assert!(game.move_groups().is_empty());
    let hint = roll_hint(&game).expect("rolled");
    assert_eq!(hint, RollHint::Blocked(6));
    let rolled = Text::Rolled {
        who: Who::User(UserId(1)),
        dice: [3, 3],
        hint,
    };
    let text = rolled.to_string();
    assert!(
        text.contains("every 6 cell already holds one of their own chips"),
        "{text}"
    );
    assert!(!text.contains("place a chip"), "{text}");
    // The other player still has a move on a 6: replacing.
    game.play(0, Move::Pass).expect("a pass");
    game.roll_with([3, 3]).expect("roll");
    assert_eq!(roll_hint(&game), Some(RollHint::Replace(6)));
    // A 10 with no opponent chip outside the 2 and 12 cells removes nothing.
    let mut game = Game::new_rolling(config, 2, RollMode::OnDemand);
    game.roll_with([4, 6]).expect("roll");
    assert!(game.move_groups().is_empty());
    assert_eq!(roll_hint(&game), Some(RollHint::NothingToRemove));
    let text = Text::Rolled {
        who: Who::User(UserId(1)),
        dice: [4, 6],
        hint: RollHint::NothingToRemove,
    }
    .to_string();
    assert!(
        text.contains("there is none outside the 2 and 12 cells"),
        "{text}"
    );
    for lang in [Lang::De, Lang::No] {
        assert_ne!(
            RollHint::Blocked(6).pipe_render(lang),
            RollHint::Number(6).pipe_render(lang)
        );
    }
}

/// Renders a hint the way a roll line does.
trait PipeRender {
    fn pipe_render(self, lang: Lang) -> String;
}

impl PipeRender for RollHint {
    fn pipe_render(self, lang: Lang) -> String {
        Text::Rolled {
            who: Who::User(UserId(1)),
            dice: [3, 3],
            hint: self,
        }
        .render(lang)
    }
}

/// A seed whose dice make `sum`.
fn seed_for(sum: u8, double: bool) -> u64 {
    (0..10_000)
        .find(|&seed| {
            let mut rng = GameRng::new(seed);
            let [a, b] = [rng.die(), rng.die()];
            a + b == sum && (a == b) == double
        })
        .expect("a seed")
}

/// The player to move rolls with `seed` and places on the first cell offered; the reply.
fn roll_and_place(table: &mut Table, seed: u64) -> Reply {
    let settings = test_settings();
    let playing = table.playing().expect("playing");
    let seat = playing.game().position().to_move();
    let actor = test_actor(playing.seats[usize::from(seat)].user().expect("a human").0);
    let rolled = table.handle(&actor, Command::Roll, T0, &settings, Some(seed), Lang::En);
    assert!(!rolled.is_refusal(), "{rolled:?}");
    let game = table.playing().expect("playing").game();
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    let cell: Cell = legal
        .iter()
        .find_map(|m| match m {
            Move::Place { cell } => Some(*cell),
            _ => None,
        })
        .expect("a cell to take");
    let command = Command::Play {
        card: None,
        cell: game.position().layout().cell_name(cell),
    };
    table.handle(&actor, command, T0, &settings, None, Lang::En)
}

fn turn_line(reply: &Reply) -> Text {
    lines(reply)
        .into_iter()
        .find(|l| matches!(l, Text::Turn { .. }))
        .expect("the next turn")
}

#[test]
fn only_a_2_or_a_12_gives_another_roll_and_the_text_says_so() {
    let tables = seeded(unlimited(Settings::default()), 11);
    begin_game(&tables, 9, Variant::Dice, &[1, 2], 0);
    let mut t = table(&tables, 9);
    let first = t.playing().expect("playing").game().position().to_move();
    // 3+3 is a double but not a 2 or a 12: the turn passes.
    let reply = roll_and_place(&mut t, seed_for(6, true));
    let next = t.playing().expect("playing").game().position().to_move();
    assert_ne!(next, first);
    assert!(matches!(turn_line(&reply), Text::Turn { again: None, .. }));
    // 6+6: the same player again, and the text names the rule.
    let reply = roll_and_place(&mut t, seed_for(12, true));
    assert_eq!(
        t.playing().expect("playing").game().position().to_move(),
        next
    );
    let line = turn_line(&reply);
    assert!(
        matches!(
            line,
            Text::Turn {
                again: Some(12),
                ..
            }
        ),
        "{line:?}"
    );
    let text = line.to_string();
    assert!(
        text.contains("a roll of 12 gives you another turn (only 2 and 12 do)"),
        "{text}"
    );
    assert!(!text.contains("double"), "{text}");
    // 1+1 too.
    let reply = roll_and_place(&mut t, seed_for(2, true));
    assert!(matches!(
        turn_line(&reply),
        Text::Turn { again: Some(2), .. }
    ));
    for lang in [Lang::De, Lang::No] {
        assert!(turn_line(&reply).render(lang).contains('2'), "{lang}");
    }
    // The rules say the same: only 1+1 and 6+6.
    let rules = Text::Rules(Variant::Dice).to_string();
    assert!(
        rules.contains("Other doubles give no extra roll"),
        "{rules}"
    );
}

#[test]
fn an_old_dice_button_points_to_roll_the_dice() {
    for (variant, step, button) in [
        (Variant::Dice, "roll", "**Roll the dice**"),
        (Variant::Classic, "play", "**Play**"),
    ] {
        let tables = seeded(unlimited(Settings::default()), 13);
        begin_game(&tables, 10, variant, &[1, 2], 0);
        let t = table(&tables, 10);
        let playing = t.playing().expect("playing");
        let turn = turn_number(playing.game());
        let mover = playing.seats[usize::from(playing.game().position().to_move())]
            .user()
            .expect("a human");
        // A button of an earlier turn.
        let id = format!("sequence:p:{}:{}:{step}", t.created.0, turn.wrapping_add(7));
        let command = command_for_component(&id, &[]).expect("a picker id");
        let reply = ask(&tables, 10, mover.0, command);
        assert!(reply.is_refusal(), "{reply:?}");
        let dice = variant == Variant::Dice;
        assert_eq!(lines(&reply), vec![Text::PickerExpired { dice }]);
        let text = lines(&reply)[0].to_string();
        assert!(text.contains(button), "{variant:?}: {text}");
        let other = if dice { "**Play**" } else { "Roll the dice" };
        assert!(!text.contains(other), "{variant:?}: {text}");
    }
    for (lang, roll) in [(Lang::De, "**Würfeln**"), (Lang::No, "**Kast terningene**")] {
        let text = Text::PickerExpired { dice: true }.render(lang);
        assert!(text.contains(roll), "{lang}: {text}");
    }
}

// ----- stats -----

#[test]
fn stats_say_which_rating_change_is_the_newest() {
    let stats = |changes: Vec<i64>| Text::Stats {
        who: Who::User(UserId(1)),
        totals: Totals {
            games: 3,
            wins: 2,
            sequences: 4,
        },
        rating: Some(RatingInfo {
            shown: 1650,
            games: 3,
            provisional: true,
            changes,
        }),
        agreement: None,
    };
    let many = stats(vec![12, -5, 3]);
    for (lang, newest) in [
        (Lang::En, "newest first: +12, −5, +3"),
        (Lang::De, "die neueste zuerst: +12, −5, +3"),
        (Lang::No, "nyeste først: +12, −5, +3"),
    ] {
        let text = many.render(lang);
        assert!(text.contains(newest), "{lang}: {text}");
    }
    let one = stats(vec![12]).to_string();
    assert!(
        one.contains("change in the latest rated game: +12") && !one.contains("first"),
        "{one}"
    );
}

// ----- stopped games -----

#[test]
fn a_stopped_game_says_whether_it_counts_without_contradicting_itself() {
    // Stopped by a player before the abort window closes: it counts for nothing, so stopping is
    // not called giving up.
    let tables = seeded(unlimited(Settings::default()), 15);
    begin_game(&tables, 11, Variant::Classic, &[1, 2], 0);
    let reply = ask(&tables, 11, 1, Command::Stop);
    let end = final_message(&reply).expect("the game ends");
    assert!(
        end.lines.contains(&Text::Rating(RatingNote::Aborted)),
        "{end:?}"
    );
    assert!(
        !end.lines
            .iter()
            .any(|l| matches!(l, Text::StopIsGivingUp(_) | Text::WonByForfeit { .. })),
        "{end:?}"
    );
    // Stopped by a player later: giving up, the other wins, and it is rated.
    begin_game(&tables, 12, Variant::Classic, &[1, 2], 0);
    play_moves(&tables, 12, 4);
    let reply = ask(&tables, 12, 1, Command::Stop);
    let end = final_message(&reply).expect("the game ends");
    assert!(end
        .lines
        .contains(&Text::StopIsGivingUp(Who::User(UserId(1)))));
    assert!(
        end.lines.contains(&Text::Rating(RatingNote::Rated)),
        "{end:?}"
    );
    let text = end.to_english();
    assert!(
        text.contains("counts as giving up") && text.contains("Rated"),
        "{text}"
    );
    // Stopped by a moderator who does not play: no result, and the message says so.
    begin_game(&tables, 13, Variant::Classic, &[1, 2], 0);
    play_moves(&tables, 13, 4);
    let moderator = Actor {
        can_manage: true,
        ..test_actor(9)
    };
    let reply = tables.handle(
        Request {
            guild: None,
            channel: ChannelId(13),
            actor: moderator,
            command: Command::Stop,
        },
        T0,
    );
    let end = final_message(&reply).expect("the game ends");
    assert!(end
        .lines
        .contains(&Text::Rating(RatingNote::ModeratorStop { gave_up: false })));
    for lang in Lang::ALL {
        assert!(!end.render(lang).is_empty());
    }
}

// ----- a lobby left by every human -----

#[test]
fn a_lobby_left_by_its_humans_does_not_claim_everyone_left() {
    let tables = seeded(unlimited(Settings::default()), 17);
    assert!(!ask(&tables, 14, 1, start(Variant::Classic, None)).is_refusal());
    assert!(!ask(&tables, 14, 1, Command::AddBot { level: None }).is_refusal());
    let reply = ask(&tables, 14, 1, Command::Leave);
    assert!(lines(&reply).contains(&Text::LobbyAbandoned { computers: true }));
    let text = Text::LobbyAbandoned { computers: true }.to_string();
    assert!(
        text.contains("every human player left") && !text.contains("everyone left"),
        "{text}"
    );
    assert!(tables.snapshot(ChannelId(14)).is_none() || table(&tables, 14).closed);
    // Alone in it: everyone did leave.
    assert!(!ask(&tables, 15, 1, start(Variant::Classic, None)).is_refusal());
    let reply = ask(&tables, 15, 1, Command::Leave);
    assert!(lines(&reply).contains(&Text::LobbyAbandoned { computers: false }));
    for lang in [Lang::De, Lang::No] {
        assert_ne!(
            Text::LobbyAbandoned { computers: true }.render(lang),
            Text::LobbyAbandoned { computers: false }.render(lang)
        );
    }
}

#[test]
fn points_past_the_target_and_games_under_a_minute_are_said_plainly() {
    let team = crate::service::text::TeamName::of(Variant::Classic, 0);
    let past = Text::ZoneScored {
        team,
        in_zone: true,
        total: 4,
        target: 3,
    };
    assert!(past.to_string().contains("(4 points, 3 needed)"), "{past}");
    let short = Text::ZoneScored {
        team,
        in_zone: false,
        total: 2,
        target: 3,
    };
    assert!(short.to_string().contains("(2 of 3 points)"), "{short}");
    let quick = Text::SummaryLength {
        moves: 27,
        minutes: Some(0),
    };
    assert_eq!(quick.to_string(), "⏱️ 27 moves in under a minute.");
    for lang in crate::i18n::Lang::ALL {
        for text in [&past, &quick] {
            let said = text.render(lang);
            assert!(
                !said.contains("4 of 3") && !said.contains(" 0 "),
                "{lang:?}: {said}"
            );
        }
    }
}
