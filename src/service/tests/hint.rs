//! `/sequence hint`: only in casual games and on the asker's turn; the move is `hard`'s from the
//! asker's view; the record lists every hint and the final message counts them.

use super::kit::Start;
use std::sync::Arc;

use crate::engine::{MoveList, Record, Seat, Variant};

use super::kit::{ask, ask_in, command_for, playing, seeded, service, Asker, T0};
use crate::service::text::{Text, Who};
use crate::service::{
    hint_text, turn_number, Button, ChannelId, Command, Control, GuildId, Label, Limits, Message,
    Output, Playing, Press, RandomPicker, Reply, ServerSettings, Settings, SettingsRequest, Step,
    Table, Tables, Timestamp, UserId,
};

/// Opens a two-player kids game between users 1 and 2, casual or rated, and starts it.
fn two_player_game(tables: &Tables, channel: u64, rated: bool) {
    let start = Start {
        rated: Some(rated),
        ..Start::of(Variant::Kids)
    }
    .command();
    assert!(!ask(tables, channel, 1, start).is_refusal());
    assert!(!ask(tables, channel, 2, Command::Join { team: None }).is_refusal());
    assert!(!ask(tables, channel, 1, Command::Begin).is_refusal());
}

fn only_text(reply: &Reply) -> &Text {
    match reply.outputs.as_slice() {
        [Output::Ephemeral(m)] => &m.lines[0],
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_hint_is_hards_move_from_the_askers_view_and_the_record_lists_it() {
    let tables = service(21);
    two_player_game(&tables, 100, false);
    let before = playing(&tables, 100);
    let seat = before.live.game().position().to_move();
    let user = before.seats[usize::from(seat)].user().unwrap();
    let view = before.live.game().view(seat);
    let reply = tables.hint(ChannelId(100), user, T0).await;
    let expected = crate::analysis::hint(&view, &before.live.history()).unwrap();
    assert_eq!(only_text(&reply), &hint_text(&view, &expected));
    let mut legal = MoveList::new();
    view.legal_moves(&mut legal);
    assert!(legal.contains(&expected.mv), "{expected:?}");
    // Asked twice on the same turn: listed once.
    tables.hint(ChannelId(100), user, T0).await;
    let after = playing(&tables, 100);
    assert_eq!(
        after.live.record().hints,
        vec![crate::engine::record::HintUse { seat, before: 0 }]
    );
    // Nothing else changed.
    assert_eq!(after.live.record().actions, before.live.record().actions);
    // The other player may not ask on this turn.
    let other = before.seats[usize::from(1 - seat)].user().unwrap();
    let refused = tables.hint(ChannelId(100), other, T0).await;
    assert!(refused.is_refusal());
    assert!(matches!(only_text(&refused), Text::NotYourTurn { .. }));
    // The record with its hint still replays, and reads back the same.
    let json = serde_json::to_string(after.live.record()).unwrap();
    assert!(json.contains("\"hints\""), "{json}");
    assert_eq!(&Record::from_json(&json).unwrap(), after.live.record());
    assert_eq!(crate::engine::record::replay_text(&json).code, 0);
}

#[tokio::test]
async fn hints_are_refused_in_rated_games_and_outside_a_game() {
    let tables = service(22);
    two_player_game(&tables, 101, true);
    let game = playing(&tables, 101);
    let seat = game.live.game().position().to_move();
    let user = game.seats[usize::from(seat)].user().unwrap();
    let reply = tables.hint(ChannelId(101), user, T0).await;
    assert!(reply.is_refusal());
    assert_eq!(only_text(&reply), &Text::HintsOnlyCasual);
    assert!(playing(&tables, 101).live.record().hints.is_empty());
    // Not a player, no table.
    two_player_game(&tables, 102, false);
    let stranger = tables.hint(ChannelId(102), UserId(99), T0).await;
    assert_eq!(only_text(&stranger), &Text::NotInGame);
    let nothing = tables.hint(ChannelId(103), UserId(1), T0).await;
    assert_eq!(only_text(&nothing), &Text::NoTable);
    for lang in crate::i18n::Lang::ALL {
        assert!(!Text::HintsOnlyCasual.render(lang).is_empty());
    }
    assert!(Text::HintsOnlyCasual
        .render(crate::i18n::Lang::De)
        .contains("Freundschaftsspiel"));
}

#[tokio::test]
async fn the_final_message_counts_the_hints() {
    let tables = service(23);
    two_player_game(&tables, 104, false);
    let mut rng = crate::engine::GameRng::new(23);
    let mut hints = 0;
    let mut final_text = None;
    for turn in 0..400 {
        let game = playing(&tables, 104);
        let live = game.live.game();
        let seat = live.position().to_move();
        let user = game.seats[usize::from(seat)].user().unwrap();
        if turn < 3 {
            let reply = tables.hint(ChannelId(104), user, T0).await;
            assert!(matches!(only_text(&reply), Text::Hint { .. }));
            hints += 1;
        }
        let mut legal = MoveList::new();
        live.view(seat).legal_moves(&mut legal);
        let mv = legal[rng.below(legal.len() as u32) as usize];
        let reply = ask(
            &tables,
            104,
            user.0,
            command_for(mv, live.position().layout()),
        );
        assert!(!reply.is_refusal(), "{reply:?}");
        if tables.snapshot(ChannelId(104)).is_none() {
            final_text = reply.outputs.iter().find_map(|o| match o {
                Output::Channel(m) if m.attachment.is_some() => Some(m.clone()),
                _ => None,
            });
            break;
        }
    }
    let message = final_text.expect("the game ended");
    assert!(
        matches!(message.lines.iter().find(|l| matches!(l, Text::HintsUsed { .. })), Some(Text::HintsUsed { count, .. }) if *count == hints),
        "{message:?}"
    );
    assert!(message.to_english().contains("3 hints were used"));
    let record: Record =
        serde_json::from_slice(&message.attachment.as_ref().unwrap().data).unwrap();
    assert_eq!(record.hints.len(), 3);
    assert_eq!(
        record.hints.iter().map(|h| h.before).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
}

/// The game running in `channel`, its table, the seat and person to move, and the press of their
/// turn prompt's Play button.
struct ToMove {
    game: Playing,
    table: Table,
    seat: Seat,
    user: UserId,
    open: Press,
}

fn to_move(tables: &Tables, channel: u64) -> ToMove {
    let game = playing(tables, channel);
    let table = tables.snapshot(ChannelId(channel)).expect("a table");
    let seat = game.live.game().position().to_move();
    let user = game.seats[usize::from(seat)].user().unwrap();
    let open = Press {
        table: table.created.0,
        turn: turn_number(game.live.game()),
        step: Step::Play,
    };
    ToMove {
        game,
        table,
        seat,
        user,
        open,
    }
}

/// The picker `open` shows `user` in `channel` of [`GUILD`]: the one private answer.
fn picker_in_guild(tables: &Tables, channel: u64, user: UserId, open: Press) -> Message {
    let reply = ask_in(tables, GUILD, channel, user.0, Command::Press(open));
    match reply.outputs.as_slice() {
        [Output::Ephemeral(m)] => m.clone(),
        other => panic!("{other:?}"),
    }
}

/// The picker the player to move opens with the turn prompt's Play button (sync path, like a press).
fn open_picker(tables: &Tables, channel: u64) -> (UserId, Message) {
    let ToMove {
        user, open: play, ..
    } = to_move(tables, channel);
    let reply = ask(tables, channel, user.0, Command::Press(play));
    let picker = reply
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Ephemeral(m) if !m.components.is_empty() => Some(m.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no picker: {reply:?}"));
    (user, picker)
}

/// The Hint button's press on a picker, if it has one.
fn hint_press(picker: &Message) -> Option<Press> {
    let hints: Vec<Press> = picker
        .components
        .iter()
        .flatten()
        .filter_map(|c| match c {
            Control::Button {
                id,
                label: Label::Text(Text::PickerHintButton),
                disabled: false,
                ..
            } => Some(Press::parse(id, &[]).expect("own ids parse")),
            _ => None,
        })
        .collect();
    assert!(hints.len() <= 1, "{hints:?}");
    assert!(hints.iter().all(Press::is_hint), "{hints:?}");
    hints.first().copied()
}

#[tokio::test]
async fn the_pickers_hint_button_answers_as_the_command_does_in_casual_games_only() {
    let tables = service(24);
    two_player_game(&tables, 105, false);
    let (user, picker) = open_picker(&tables, 105);
    let press = hint_press(&picker).expect("a Hint button in a casual game's picker");
    // Its label in every language.
    for lang in crate::i18n::Lang::ALL {
        assert!(!Text::PickerHintButton.render(lang).is_empty());
    }
    let before = playing(&tables, 105);
    let seat = before.live.game().position().to_move();
    let view = before.live.game().view(seat);
    let pressed = tables.press_hint(ChannelId(105), user, press, T0).await;
    let typed = tables.hint(ChannelId(105), user, T0).await;
    let expected = crate::analysis::hint(&view, &before.live.history()).unwrap();
    assert_eq!(only_text(&pressed), &hint_text(&view, &expected));
    assert_eq!(pressed, typed);
    // A new private message, not an update of the picker.
    assert!(matches!(pressed.outputs.as_slice(), [Output::Ephemeral(_)]));
    assert_eq!(
        playing(&tables, 105).live.record().hints,
        vec![crate::engine::record::HintUse { seat, before: 0 }]
    );
    // The other player may not press it.
    let other = before.seats[usize::from(1 - seat)].user().unwrap();
    let refused = tables.press_hint(ChannelId(105), other, press, T0).await;
    assert!(refused.is_refusal());
    assert!(matches!(only_text(&refused), Text::NotYourPicker { .. }));

    // A rated game's picker has no Hint button, and a forged press is refused.
    two_player_game(&tables, 106, true);
    let (rated_user, rated_picker) = open_picker(&tables, 106);
    assert_eq!(hint_press(&rated_picker), None);
    assert!(rated_picker
        .components
        .iter()
        .flatten()
        .all(|c| !c.id().ends_with(":hint")));
    let table = tables.snapshot(ChannelId(106)).unwrap();
    let forged = Press {
        table: table.created.0,
        turn: turn_number(table.playing().unwrap().game()),
        step: Step::Hint,
    };
    let refused = tables
        .press_hint(ChannelId(106), rated_user, forged, T0)
        .await;
    assert_eq!(only_text(&refused), &Text::HintsOnlyCasual);
    assert!(playing(&tables, 106).live.record().hints.is_empty());
    // Through the synchronous path too (as a console or a test would send it): refused, unchanged.
    let sync = ask(&tables, 106, rated_user.0, Command::Press(forged));
    assert!(sync.is_refusal(), "{sync:?}");
}

#[tokio::test]
async fn a_stale_hint_press_is_refused_and_noted_nowhere() {
    let tables = service(25);
    two_player_game(&tables, 107, false);
    let (user, picker) = open_picker(&tables, 107);
    let press = hint_press(&picker).expect("a Hint button");
    // The player moves (a random legal move through the typed command): the button is of a past turn.
    let game = playing(&tables, 107);
    let live = game.live.game();
    let seat = live.position().to_move();
    let mut legal = MoveList::new();
    live.view(seat).legal_moves(&mut legal);
    let mv = legal[0];
    let moved = ask(
        &tables,
        107,
        user.0,
        command_for(mv, live.position().layout()),
    );
    assert!(!moved.is_refusal(), "{moved:?}");
    let stale = tables.press_hint(ChannelId(107), user, press, T0).await;
    assert!(stale.is_refusal());
    assert!(matches!(only_text(&stale), Text::PickerExpired { .. }));
    // Another table's button (a newer game in the channel would have another key): refused.
    let foreign = Press {
        table: press.table + 1,
        ..press
    };
    let next = playing(&tables, 107);
    let next_seat = next.live.game().position().to_move();
    let next_user = next.seats[usize::from(next_seat)].user().unwrap();
    let refused = tables
        .press_hint(
            ChannelId(107),
            next_user,
            Press {
                turn: turn_number(next.live.game()),
                ..foreign
            },
            T0,
        )
        .await;
    assert!(matches!(only_text(&refused), Text::PickerExpired { .. }));
    assert!(playing(&tables, 107).live.record().hints.is_empty());
    // No table at all.
    let none = tables.press_hint(ChannelId(108), user, press, T0).await;
    assert!(none.is_refusal());
}

const GUILD: GuildId = GuildId(77);

fn hints_setting(on: bool) -> Command {
    Command::Settings(SettingsRequest {
        changes: ServerSettings {
            hints: Some(on),
            ..ServerSettings::default()
        },
        reset: false,
    })
}

#[tokio::test]
async fn with_the_servers_hints_setting_a_confirmed_hint_makes_a_rated_game_unrated() {
    let store: Arc<dyn crate::store::Store> =
        Arc::new(crate::store::SqliteStore::open_in_memory().expect("store"));
    let tables = Tables::seeded(
        Settings {
            limits: Limits::unlimited(),
            ..Settings::default()
        },
        Arc::new(RandomPicker),
        26,
    )
    .with_store(store.clone());
    let channel = 110;
    let start = Start {
        rated: Some(true),
        ..Start::of(Variant::Kids)
    }
    .command();
    assert!(!ask_in(&tables, GUILD, channel, 1, start.clone()).is_refusal());
    assert!(!ask_in(&tables, GUILD, channel, 2, Command::Join { team: None }).is_refusal());
    assert!(!ask_in(&tables, GUILD, channel, 1, Command::Begin).is_refusal());
    let ToMove {
        game,
        table,
        user,
        open,
        ..
    } = to_move(&tables, channel);
    assert!(game.counts_for_ratings(&table.setup));

    // Without the setting (the default): refused, and no Hint button.
    let refused = tables.hint(ChannelId(channel), user, T0).await;
    assert_eq!(only_text(&refused), &Text::HintsOnlyCasual);
    let picker_now = |tables: &Tables| picker_in_guild(tables, channel, user, open);
    assert_eq!(hint_press(&picker_now(&tables)), None);

    // Only an admin may change it; then it is shown in the settings in every language.
    assert!(ask_in(&tables, GUILD, channel, 2, hints_setting(true)).is_refusal());
    let changed = ask_in(&tables, GUILD, channel, 1, hints_setting(true));
    assert!(!changed.is_refusal(), "{changed:?}");
    let shown = ask_in(
        &tables,
        GUILD,
        channel,
        1,
        Command::Settings(SettingsRequest::default()),
    );
    let text: String = shown
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Ephemeral(m) => Some(m.to_english()),
            _ => None,
        })
        .collect();
    assert!(text.contains("hints: in every game"), "{text}");
    assert_eq!(
        store
            .server_settings(GUILD.0)
            .unwrap()
            .map(|json| { ServerSettings::from_stored(&json).unwrap().hints }),
        Some(Some(true))
    );
    // A game keeps the setting it was dealt with (issue 44, point 21): this one was dealt without
    // it and stays so; the next game in the channel is dealt with it.
    assert_eq!(hint_press(&picker_now(&tables)), None);
    assert!(!ask_in(&tables, GUILD, channel, 1, Command::Stop).is_refusal());
    assert!(tables.snapshot(ChannelId(channel)).is_none());
    assert!(!ask_in(&tables, GUILD, channel, 1, start).is_refusal());
    assert!(!ask_in(&tables, GUILD, channel, 2, Command::Join { team: None }).is_refusal());
    assert!(!ask_in(&tables, GUILD, channel, 1, Command::Begin).is_refusal());
    let ToMove {
        game,
        table,
        seat,
        user,
        open,
    } = to_move(&tables, channel);
    assert!(game.counts_for_ratings(&table.setup));
    let picker_now = |tables: &Tables| picker_in_guild(tables, channel, user, open);

    // Now the picker has a Hint button; pressing it asks first and changes nothing.
    let press = hint_press(&picker_now(&tables)).expect("a Hint button with the setting");
    let asked = tables.press_hint(ChannelId(channel), user, press, T0).await;
    let question = match asked.outputs.as_slice() {
        [Output::Ephemeral(m)] => m.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(question.lines, vec![Text::ConfirmHint]);
    assert!(question.to_english().contains("unrated for everyone"));
    let confirm = question
        .components
        .iter()
        .flatten()
        .find_map(|c| Press::parse(c.id(), &[]).ok())
        .expect("the confirmation's button");
    assert_eq!(confirm.step, Step::HintUnrated);
    let still = playing(&tables, channel);
    assert!(still.counts_for_ratings(&table.setup));
    assert!(still.live.record().hints.is_empty());
    // The typed command asks the same question.
    let typed = tables.hint(ChannelId(channel), user, T0).await;
    assert_eq!(typed, asked);
    // The other player cannot confirm for the player to move.
    let other = game.seats[usize::from(1 - seat)].user().unwrap();
    let not_theirs = tables
        .press_hint(ChannelId(channel), other, confirm, T0)
        .await;
    assert!(not_theirs.is_refusal());
    assert!(playing(&tables, channel).counts_for_ratings(&table.setup));

    // The question offers Keep playing too; pressed, it answers in the question's place, and the
    // question's Yes no longer counts.
    assert_eq!(question.buttons, vec![Button::KeepPlaying]);
    let kept = ask_in(
        &tables,
        GUILD,
        channel,
        user.0,
        Button::KeepPlaying.command(),
    );
    // It says no hint was given and the game stays rated, and puts the picker back in the
    // question's place: the player still has to move (issue 44.12).
    let [Output::Update(back)] = kept.outputs.as_slice() else {
        panic!("{kept:?}");
    };
    assert_eq!(back.lines.first(), Some(&Text::HintDeclined), "{back:?}");
    assert!(
        back.to_english()
            .starts_with("No hint: the game stays rated."),
        "{}",
        back.to_english()
    );
    assert!(!back.to_english().contains("still playing"));
    let picker = picker_now(&tables);
    assert_eq!(back.components, picker.components, "the picker is back");
    assert!(hint_press(back).is_some(), "with its Hint button");
    let dead = tables
        .press_hint(ChannelId(channel), user, confirm, T0)
        .await;
    assert_eq!(only_text(&dead), &Text::QuestionAnswered);
    assert!(playing(&tables, channel).counts_for_ratings(&table.setup));
    assert!(playing(&tables, channel).live.record().hints.is_empty());
    tables.hint(ChannelId(channel), user, T0).await;

    // Confirmed: the hint, the note that the game is unrated now, and the game is casual. The
    // answer replaces the question; the channel is told in one line who made the game casual.
    let given = tables
        .press_hint(ChannelId(channel), user, confirm, T0)
        .await;
    let answer = match given.outputs.as_slice() {
        [Output::Channel(note), Output::Update(m)] => {
            assert_eq!(note.lines, vec![Text::HintMadeCasual(Who::User(user))]);
            assert!(
                note.to_english().contains(&format!(
                    "<@{}> used a hint: this game no longer counts for ratings",
                    user.0
                )),
                "{note:?}"
            );
            m.clone()
        }
        other => panic!("{other:?}"),
    };
    // Pressed again: the question was answered.
    let again = tables
        .press_hint(ChannelId(channel), user, confirm, T0)
        .await;
    assert_eq!(only_text(&again), &Text::QuestionAnswered);
    assert!(matches!(answer.lines[0], Text::Hint { .. }), "{answer:?}");
    assert_eq!(answer.lines[1], Text::HintMadeUnrated);
    let after = playing(&tables, channel);
    assert!(!after.counts_for_ratings(&table.setup));
    assert_eq!(after.live.record().hints.len(), 1);
    // Saved at once, not with the next move: a restart now finds the game unrated, the hint noted.
    let restarted = Tables::seeded(
        Settings {
            limits: Limits::unlimited(),
            ..Settings::default()
        },
        Arc::new(RandomPicker),
        27,
    )
    .with_store(store.clone());
    restarted.restore_from_store(T0).expect("restored");
    let back = playing(&restarted, channel);
    assert!(!back.counts_for_ratings(&table.setup));
    assert_eq!(back.live.record().hints.len(), 1);
    let status = ask_in(&tables, GUILD, channel, 1, Command::Status);
    let status = match status.outputs.as_slice() {
        [Output::Ephemeral(m)] => m.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        status
            .lines
            .contains(&Text::Rating(crate::service::text::RatingNote::Casual)),
        "the status says the game is casual: {status:?}"
    );
    assert!(status.to_english().contains("does not count for ratings"));

    // Played to the end: the final message says casual and counts the hint; no rating is stored.
    let mut rng = crate::engine::GameRng::new(26);
    let mut final_message = None;
    for _ in 0..400 {
        let game = playing(&tables, channel);
        let live = game.live.game();
        let seat = live.position().to_move();
        let user = game.seats[usize::from(seat)].user().unwrap();
        let mut legal = MoveList::new();
        live.view(seat).legal_moves(&mut legal);
        let mv = legal[rng.below(legal.len() as u32) as usize];
        let reply = ask_in(
            &tables,
            GUILD,
            channel,
            user.0,
            command_for(mv, live.position().layout()),
        );
        assert!(!reply.is_refusal(), "{reply:?}");
        if tables.snapshot(ChannelId(channel)).is_none() {
            final_message = reply.outputs.iter().find_map(|o| match o {
                Output::Channel(m) if m.attachment.is_some() => Some(m.clone()),
                _ => None,
            });
            break;
        }
    }
    let message = final_message.expect("the game ended");
    assert!(
        message.lines.contains(&Text::HintsUsed {
            count: 1,
            by: vec![Who::User(user)],
        }),
        "{message:?}"
    );
    assert!(
        message
            .to_english()
            .contains(&format!("1 hint was used in this game, by <@{}>.", user.0)),
        "{message:?}"
    );
    assert!(
        message
            .lines
            .contains(&Text::Rating(crate::service::text::RatingNote::Casual)),
        "{message:?}"
    );
    for player in [1, 2] {
        assert_eq!(store.player_rating(Some(GUILD.0), player, 5).unwrap(), None);
    }
    for lang in crate::i18n::Lang::ALL {
        for text in [
            Text::ConfirmHint,
            Text::HintMadeUnrated,
            Text::PickerHintUnratedButton,
        ] {
            assert!(!text.render(lang).is_empty());
        }
    }
}

/// A rated kids game of users 1 and 2 in `channel` of [`GUILD`] (user 1 may change the settings),
/// with the server's `hints` setting `hints` at the deal; the tables over a store, and the player
/// to move.
fn rated_game_dealt_with(hints: bool, channel: u64) -> (Tables, UserId) {
    let store: Arc<dyn crate::store::Store> =
        Arc::new(crate::store::SqliteStore::open_in_memory().expect("store"));
    let tables = Tables::seeded(
        Settings {
            limits: Limits::unlimited(),
            ..Settings::default()
        },
        Arc::new(RandomPicker),
        44,
    )
    .with_store(store);
    assert!(!ask_in(&tables, GUILD, channel, 1, hints_setting(hints)).is_refusal());
    let start = Start {
        rated: Some(true),
        ..Start::of(Variant::Kids)
    }
    .command();
    assert!(!ask_in(&tables, GUILD, channel, 1, start).is_refusal());
    assert!(!ask_in(&tables, GUILD, channel, 2, Command::Join { team: None }).is_refusal());
    assert!(!ask_in(&tables, GUILD, channel, 1, Command::Begin).is_refusal());
    let game = playing(&tables, channel);
    let seat = game.live.game().position().to_move();
    let user = game.seats[usize::from(seat)].user().unwrap();
    (tables, user)
}

/// Whether the game in `channel` counts for ratings.
fn is_rated(tables: &Tables, channel: u64) -> bool {
    let table = tables.snapshot(ChannelId(channel)).expect("a table");
    table
        .playing()
        .expect("a game")
        .counts_for_ratings(&table.setup)
}

/// Issue 44, point 21: a game keeps the `hints` setting it was dealt with. Dealt without it, an
/// admin turning it on mid-game offers no hint in that rated game (nobody can make it casual).
#[tokio::test]
async fn the_hints_setting_turned_on_mid_game_does_not_reach_a_game_dealt_without_it() {
    let channel = 120;
    let (tables, user) = rated_game_dealt_with(false, channel);
    assert!(!ask_in(&tables, GUILD, channel, 1, hints_setting(true)).is_refusal());
    let refused = tables.hint(ChannelId(channel), user, T0).await;
    assert_eq!(only_text(&refused), &Text::HintsOnlyCasual);
    let picker = picker_in_guild(&tables, channel, user, to_move(&tables, channel).open);
    assert_eq!(hint_press(&picker), None, "no Hint button: {picker:?}");
    assert!(is_rated(&tables, channel));
    assert!(playing(&tables, channel).live.record().hints.is_empty());
}

/// Issue 44, point 21, as the issue tried it: dealt with `hints` on, the admin turns it off before
/// the player confirms a hint, and on and off again after. The game behaves as dealt: the hint is
/// still asked for and given (the game becomes casual), and then, the game being casual, the other
/// player's hint needs no question; a restart keeps what the game was dealt with.
#[tokio::test]
async fn a_game_dealt_with_hints_keeps_them_whatever_the_admin_changes_later() {
    let channel = 121;
    let (tables, user) = rated_game_dealt_with(true, channel);
    assert_eq!(playing(&tables, channel).hints, Some(true));
    assert!(!ask_in(&tables, GUILD, channel, 1, hints_setting(false)).is_refusal());
    let asked = tables.hint(ChannelId(channel), user, T0).await;
    let question = match asked.outputs.as_slice() {
        [Output::Ephemeral(m)] => m.clone(),
        other => panic!("still asked, as dealt: {other:?}"),
    };
    assert_eq!(question.lines, vec![Text::ConfirmHint]);
    let confirm = question
        .components
        .iter()
        .flatten()
        .find_map(|c| Press::parse(c.id(), &[]).ok())
        .expect("the confirmation's button");
    assert!(is_rated(&tables, channel));
    let given = tables
        .press_hint(ChannelId(channel), user, confirm, T0)
        .await;
    assert!(!given.is_refusal(), "{given:?}");
    assert!(!is_rated(&tables, channel));
    assert_eq!(playing(&tables, channel).live.record().hints.len(), 1);
    for on in [true, false] {
        assert!(!ask_in(&tables, GUILD, channel, 1, hints_setting(on)).is_refusal());
        assert!(!is_rated(&tables, channel), "casual stays casual");
        assert_eq!(playing(&tables, channel).hints, Some(true));
    }
    // The other player's turn comes: in the casual game their hint is given without a question.
    let game = playing(&tables, channel);
    let live = game.live.game();
    let mut legal = MoveList::new();
    live.view(live.position().to_move()).legal_moves(&mut legal);
    let moved = ask_in(
        &tables,
        GUILD,
        channel,
        user.0,
        command_for(legal[0], live.position().layout()),
    );
    assert!(!moved.is_refusal(), "{moved:?}");
    let game = playing(&tables, channel);
    let other = game.seats[usize::from(game.live.game().position().to_move())]
        .user()
        .unwrap();
    assert_ne!(other, user);
    let hint = tables.hint(ChannelId(channel), other, T0).await;
    assert!(
        matches!(only_text(&hint), Text::Hint { .. }),
        "a hint at once in a casual game: {hint:?}"
    );
    // Saved with the game: the table as stored says what it was dealt with.
    let json = serde_json::to_string(&playing(&tables, channel)).unwrap();
    assert!(json.contains("\"hints\":true"), "{json}");
}

/// Issue 33, point 3: fifteen presses in one turn were fifteen full searches. One search per
/// player and turn (asked again, the same hint is repeated), one at a time per member (a request
/// while theirs is searched is refused politely), and beside the computer players' pool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_one_search_a_turn_and_one_at_a_time() {
    let tables = service(25);
    two_player_game(&tables, 106, false);
    let game = playing(&tables, 106);
    let seat = game.live.game().position().to_move();
    let user = game.seats[usize::from(seat)].user().unwrap();
    let asked = (0..15).map(|_| tables.hint(ChannelId(106), user, T0));
    let replies = futures_util::future::join_all(asked).await;
    let given: Vec<&Text> = replies.iter().map(only_text).collect();
    let hint = given
        .iter()
        .find(|t| matches!(t, Text::Hint { .. }))
        .copied()
        .expect("a hint")
        .clone();
    for text in &given {
        assert!(
            **text == hint || **text == Text::HintBusy,
            "the same hint or one at a time: {text:?}"
        );
    }
    assert_eq!(tables.computer_stats().aside_done, 1, "one search");
    // Asked again on that turn: repeated, not searched.
    for _ in 0..15 {
        let again = tables.hint(ChannelId(106), user, T0).await;
        assert_eq!(only_text(&again), &hint);
    }
    let stats = tables.computer_stats();
    assert_eq!((stats.aside_done, stats.done), (1, 0), "{stats:?}");
    assert_eq!(playing(&tables, 106).live.record().hints.len(), 1);
    assert!(Text::HintBusy
        .render(crate::i18n::Lang::De)
        .contains("Tipp"));
}

/// A casual kids game of users 1 and 2 in `channel` of `guild`, opened at `now`, where user 1 is to
/// move (user 2 made the first move if it was theirs).
fn user_1_to_move(tables: &Tables, guild: GuildId, channel: u64, now: Timestamp) {
    let start = Start {
        rated: Some(false),
        ..Start::of(Variant::Kids)
    }
    .command();
    // A minute apart: the shares refill in between.
    let at = |step: u64| Timestamp(now.0 + step * 60_000);
    for (step, (user, command)) in [
        (1, start),
        (2, Command::Join { team: None }),
        (1, Command::Begin),
    ]
    .into_iter()
    .enumerate()
    {
        let reply = Asker::server(guild).ask_at(tables, channel, user, command, at(step as u64));
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    let game = playing(tables, channel);
    let live = game.live.game();
    let seat = live.position().to_move();
    if game.seats[usize::from(seat)].user() != Some(UserId(1)) {
        let mut legal = MoveList::new();
        live.view(seat).legal_moves(&mut legal);
        let command = command_for(legal[0], live.position().layout());
        let reply = Asker::server(guild).ask_at(tables, channel, 2, command, at(3));
        assert!(!reply.is_refusal(), "{reply:?}");
    }
}

/// Issue 33, point 3: a hint is charged to the asker's share of the server's budget
/// (`HINT_POSTS` posts); when it is spent, a polite refusal, and the share refills.
#[tokio::test]
async fn hints_are_charged_to_the_members_budget() {
    let guild = GuildId(33);
    let settings = Settings {
        limits: Limits {
            server_posts_per_second: 1,
            server_post_burst: 6,
            ..Limits::unlimited()
        },
        ..Settings::default()
    };
    let tables = seeded(settings, 26);
    // Two games where user 1 is to move, opened long enough ago for every share to be full again.
    let opened = Timestamp(T0.0 - 600_000);
    user_1_to_move(&tables, guild, 107, opened);
    user_1_to_move(&tables, guild, 108, Timestamp(opened.0 + 300_000));
    let given = tables.hint(ChannelId(107), UserId(1), T0).await;
    assert!(matches!(only_text(&given), Text::Hint { .. }), "{given:?}");
    // At once, in the other game: their share is spent.
    let refused = tables.hint(ChannelId(108), UserId(1), T0).await;
    assert!(refused.is_refusal());
    assert_eq!(only_text(&refused), &Text::HintSpent);
    assert!(playing(&tables, 108).live.record().hints.is_empty());
    // Some seconds later the share has refilled.
    let later = Timestamp(T0.0 + 20_000);
    let given = tables.hint(ChannelId(108), UserId(1), later).await;
    assert!(matches!(only_text(&given), Text::Hint { .. }), "{given:?}");
    for lang in crate::i18n::Lang::ALL {
        assert!(!Text::HintSpent.render(lang).is_empty());
    }
}
