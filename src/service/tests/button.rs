//! Issue 26: buttons for what was still typed. The lobby's level menu of **Add computer**, **Remove
//! computer** and the team buttons; the turn prompt's **⋯** menu (Status, Rules, Hand, Leave, Stop);
//! **My stats** and **Game record** after a stored game. Every press is checked like the typed
//! command it stands for, and a press of an earlier game's button changes nothing.

use std::sync::Arc;

use crate::engine::Variant;
use crate::i18n::Lang;
use crate::store::tests::sqlite_store;

use super::kit::{
    playing, reply_text, seeded, start, state, test_actor, test_settings, Asker, Recorder, T0,
};
use crate::service::text::button_label;
use crate::service::{
    action_rows, command_for_component, Actor, BotLevel, Button, ChannelId, Command, GuildId,
    LobbySeat, Message, Output, Player, Reply, Request, State, Tables, Text, Timestamp, UserId,
    MAX_BUTTONS_PER_ROW, MAX_BUTTON_LABEL, MAX_CUSTOM_ID, MAX_ROWS,
};

const GUILD: GuildId = GuildId(5);

/// Requests come from server [`GUILD`].
const HERE: Asker = Asker::server(GUILD);

/// Pressed and refused privately, with `contains` in the answer; the table did not change.
fn refused(tables: &Tables, channel: u64, user: u64, button: Button, contains: &str) {
    let before = state(tables, channel);
    let reply = HERE.press(tables, channel, user, button);
    assert!(
        reply.is_refusal(),
        "{button:?}: expected a refusal, got {reply:?}"
    );
    let text = reply_text(&reply);
    assert!(
        text.contains(contains),
        "{button:?}: `{text}` lacks `{contains}`"
    );
    assert_eq!(
        before,
        state(tables, channel),
        "{button:?} changed the table"
    );
}

fn lobby_buttons(reply: &Reply) -> Option<Vec<Button>> {
    reply.outputs.iter().find_map(|o| match o {
        Output::Lobby { message, .. } => Some(message.buttons.clone()),
        _ => None,
    })
}

fn private_buttons(reply: &Reply) -> Vec<Button> {
    match reply.outputs.as_slice() {
        [Output::Ephemeral(m)] => m.buttons.clone(),
        other => panic!("expected one private answer, got {other:?}"),
    }
}

fn lobby_seats(tables: &Tables, channel: u64) -> Vec<LobbySeat> {
    match tables.snapshot(ChannelId(channel)).map(|t| t.state) {
        Some(State::Lobby(lobby)) => lobby.seats,
        other => panic!("expected a lobby, got {other:?}"),
    }
}

#[test]
fn new_buttons_parse_back_strictly_and_are_labelled_in_every_language() {
    let buttons = [
        Button::AddBotLevel(T0.0, BotLevel::Easy),
        Button::AddBotLevel(u64::MAX, BotLevel::Hard),
        Button::RemoveBot,
        Button::JoinTeam(1),
        Button::JoinTeam(4),
        Button::More(T0.0),
        Button::Status,
        Button::Rules,
        Button::LeaveGame(T0.0),
        Button::Stop(T0.0),
        Button::ConfirmStop(T0.0),
        Button::Stats,
        Button::Profile,
        Button::Record(42),
        Button::Accept(T0.0),
        Button::Decline(u64::MAX),
    ];
    for button in buttons {
        let id = button.id();
        assert!(id.len() <= MAX_CUSTOM_ID, "{id}");
        assert_eq!(Button::from_id(&id), Some(button), "{id}");
        // A menu value where none belongs is refused.
        assert_eq!(
            command_for_component(&id, &["x".into()]),
            Err(Text::BadButton)
        );
        let labels: Vec<String> = Lang::ALL
            .iter()
            .map(|&lang| button_label(button, lang))
            .collect();
        for label in &labels {
            assert!(
                !label.is_empty() && !label.starts_with("button-"),
                "{label}"
            );
            assert!(label.chars().count() <= MAX_BUTTON_LABEL);
        }
        // "Status" is Norwegian too.
        if !matches!(button, Button::Status) {
            assert_ne!(labels[0], labels[1], "{button:?} is translated to German");
            assert_ne!(
                labels[0], labels[2],
                "{button:?} is translated to Norwegian"
            );
        }
    }
    for id in [
        "sequence:addbot:1:expert",
        "sequence:addbot:01:easy",
        "sequence:addbot:1:Easy",
        "sequence:addbot:1",
        "sequence:join:",
        "sequence:join:1:2",
        "sequence:join:256",
        "sequence:stop",
        "sequence:stop:x",
        "sequence:leave:+1",
        "sequence:record:1.5",
        "sequence:more",
        "sequence:more:01",
        "sequence:stats:1",
    ] {
        assert_eq!(Button::from_id(id), None, "{id}");
        assert_eq!(command_for_component(id, &[]), Err(Text::BadButton), "{id}");
    }
}

#[test]
fn the_lobby_offers_teams_when_set_and_remove_computer_while_there_is_one() {
    let tables = seeded(test_settings(), 26);
    let reply = HERE.ask(&tables, 1, 10, start(Variant::Classic, None));
    assert_eq!(
        lobby_buttons(&reply).expect("the lobby"),
        vec![
            Button::Join,
            Button::Leave,
            Button::AddBot,
            Button::Begin,
            Button::Cancel
        ],
        "no teams set: no team buttons"
    );
    let reply = HERE.ask(&tables, 2, 10, start(Variant::Classic, Some(3)));
    assert_eq!(
        lobby_buttons(&reply).expect("the lobby")[5..],
        [
            Button::JoinTeam(1),
            Button::JoinTeam(2),
            Button::JoinTeam(3)
        ]
    );
    let added = HERE.press(&tables, 2, 10, Button::AddBotLevel(T0.0, BotLevel::Medium));
    let buttons = lobby_buttons(&added).expect("the lobby is updated");
    assert_eq!(buttons.last(), Some(&Button::RemoveBot));
    let message = Message {
        buttons,
        ..Message::default()
    };
    let rows = action_rows(&message);
    assert!(rows.len() <= MAX_ROWS);
    assert!(rows.iter().all(|r| r.len() <= MAX_BUTTONS_PER_ROW));
    let removed = HERE.press(&tables, 2, 10, Button::RemoveBot);
    assert!(!lobby_buttons(&removed)
        .expect("the lobby is updated")
        .contains(&Button::RemoveBot));
}

#[test]
fn add_computer_opens_a_level_menu_whose_presses_add_that_level() {
    let tables = seeded(test_settings(), 26);
    HERE.ask(&tables, 1, 10, start(Variant::Classic, Some(2)));
    HERE.ask(&tables, 1, 11, Command::Join { team: None });
    // Someone who is not the host: refused at once, no menu.
    refused(&tables, 1, 11, Button::AddBot, "Only the host");
    let menu = HERE.press(&tables, 1, 10, Button::AddBot);
    let levels = private_buttons(&menu);
    assert_eq!(
        levels,
        vec![
            Button::AddBotLevel(T0.0, BotLevel::Easy),
            Button::AddBotLevel(T0.0, BotLevel::Medium),
            Button::AddBotLevel(T0.0, BotLevel::Hard),
        ]
    );
    assert!(reply_text(&menu).contains("Which level"));
    // The host chooses hard: the lobby lists it, and the menu (edited in place) offers another.
    let added = HERE.press(&tables, 1, 10, levels[2]);
    assert!(!added.is_refusal(), "{added:?}");
    let update = added
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Update(m) => Some(m),
            _ => None,
        })
        .expect("the menu is updated");
    assert!(
        update.to_english().contains("(hard) has joined"),
        "{update:?}"
    );
    assert_eq!(update.buttons, levels);
    let seats = lobby_seats(&tables, 1);
    assert!(matches!(
        seats.last().map(|s| &s.player),
        Some(Player::Bot {
            level: BotLevel::Hard,
            ..
        })
    ));
    // The menu's buttons are checked like the typed command: not for others, not once full.
    refused(&tables, 1, 11, levels[0], "Only the host");
    assert!(!HERE.press(&tables, 1, 10, levels[0]).is_refusal());
    // Once the game runs, the menu's buttons change nothing.
    assert!(!HERE.ask(&tables, 1, 10, Command::Begin).is_refusal());
    refused(&tables, 1, 10, levels[0], "already started");
    refused(&tables, 1, 10, Button::AddBot, "already started");
    refused(&tables, 1, 10, Button::RemoveBot, "already started");
}

#[test]
fn a_level_button_of_an_earlier_lobby_adds_nothing_to_a_new_one() {
    let tables = seeded(test_settings(), 26);
    HERE.ask(&tables, 1, 10, start(Variant::Classic, None));
    let old = private_buttons(&HERE.press(&tables, 1, 10, Button::AddBot))[0];
    assert!(!HERE.ask(&tables, 1, 10, Command::Cancel).is_refusal());
    // A new lobby a second later, by the same host.
    let later = Timestamp(T0.0 + 1000);
    assert!(!HERE
        .ask_at(&tables, 1, 10, start(Variant::Classic, None), later)
        .is_refusal());
    refused(&tables, 1, 10, old, "earlier game or lobby");
    assert_eq!(lobby_seats(&tables, 1).len(), 1);
}

#[test]
fn remove_computer_is_for_the_host_and_needs_a_computer() {
    let tables = seeded(test_settings(), 26);
    HERE.ask(&tables, 1, 10, start(Variant::Classic, None));
    HERE.ask(&tables, 1, 11, Command::Join { team: None });
    refused(&tables, 1, 10, Button::RemoveBot, "no computer");
    HERE.ask(&tables, 1, 10, Command::AddBot { level: None });
    refused(&tables, 1, 11, Button::RemoveBot, "Only the host");
    let removed = HERE.press(&tables, 1, 10, Button::RemoveBot);
    assert!(!removed.is_refusal());
    assert_eq!(lobby_seats(&tables, 1).len(), 2);
}

#[test]
fn team_buttons_seat_or_move_a_player_within_the_teams_rules() {
    let tables = seeded(test_settings(), 26);
    HERE.ask(&tables, 1, 10, start(Variant::Classic, Some(2)));
    // A newcomer takes a seat on team 2; the host (seated without a team) moves to team 2 as well.
    assert!(!HERE.press(&tables, 1, 11, Button::JoinTeam(2)).is_refusal());
    let moved = HERE.press(&tables, 1, 10, Button::JoinTeam(2));
    assert!(!moved.is_refusal(), "{moved:?}");
    assert!(reply_text(&moved).contains("You are now in team 2"));
    let teams: Vec<Option<u8>> = lobby_seats(&tables, 1).iter().map(|s| s.team).collect();
    assert_eq!(teams, vec![Some(1), Some(1)]);
    refused(&tables, 1, 10, Button::JoinTeam(2), "already");
    refused(&tables, 1, 10, Button::JoinTeam(3), "no team 3");
    assert!(!HERE.press(&tables, 1, 12, Button::JoinTeam(1)).is_refusal());
    // The host moves back to team 1: there is room (one player there so far).
    assert!(!HERE.press(&tables, 1, 10, Button::JoinTeam(1)).is_refusal());
    let teams: Vec<Option<u8>> = lobby_seats(&tables, 1).iter().map(|s| s.team).collect();
    assert_eq!(teams, vec![Some(0), Some(1), Some(0)]);
    // One computer fills team 2; the teams hold at the start.
    assert!(!HERE
        .press(&tables, 1, 10, Button::AddBotLevel(T0.0, BotLevel::Easy))
        .is_refusal());
    assert!(!HERE.ask(&tables, 1, 10, Command::Begin).is_refusal());
    let p = playing(&tables, 1);
    let team_of = |user| {
        p.live
            .game()
            .config()
            .team_of(p.seat_of(UserId(user)).expect("seated"))
    };
    assert_eq!(team_of(10), team_of(12));
    assert_ne!(team_of(10), team_of(11));
    refused(&tables, 1, 11, Button::JoinTeam(1), "already started");
    // Dice has at most four players: two teams of two. A third on a team is refused, seated or not.
    HERE.ask(&tables, 2, 10, start(Variant::Dice, Some(2)));
    assert!(!HERE.press(&tables, 2, 10, Button::JoinTeam(1)).is_refusal());
    assert!(!HERE.press(&tables, 2, 11, Button::JoinTeam(1)).is_refusal());
    refused(
        &tables,
        2,
        12,
        Button::JoinTeam(1),
        "already has its 2 players",
    );
    assert!(!HERE.press(&tables, 2, 12, Button::JoinTeam(2)).is_refusal());
    refused(
        &tables,
        2,
        12,
        Button::JoinTeam(1),
        "already has its 2 players",
    );
}

#[test]
fn the_more_menu_offers_what_the_presser_may_do() {
    let tables = seeded(test_settings(), 26);
    HERE.ask(&tables, 1, 10, start(Variant::Classic, None));
    HERE.ask(&tables, 1, 11, Command::Join { team: None });
    let begun = HERE.ask(&tables, 1, 10, Command::Begin);
    // The turn prompt carries Play, the hand button and ⋯.
    let prompt = begun
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Channel(m) if m.prompt_turn().is_some() => Some(m),
            _ => None,
        })
        .expect("the turn prompt");
    assert_eq!(prompt.buttons, vec![Button::Hand, Button::More(T0.0)]);
    assert_eq!(action_rows(prompt).len(), 1, "one row: Play, cards, ⋯");
    let game = T0.0;
    assert_eq!(
        private_buttons(&HERE.press(&tables, 1, 10, Button::More(T0.0))),
        vec![
            Button::Status,
            Button::Rules,
            Button::Hand,
            Button::LeaveGame(game),
            Button::Stop(game)
        ],
        "the host"
    );
    assert_eq!(
        private_buttons(&HERE.press(&tables, 1, 11, Button::More(T0.0))),
        vec![
            Button::Status,
            Button::Rules,
            Button::Hand,
            Button::LeaveGame(game)
        ],
        "a player who may not stop the game"
    );
    assert_eq!(
        private_buttons(&HERE.press(&tables, 1, 12, Button::More(T0.0))),
        vec![Button::Status, Button::Rules],
        "someone watching"
    );
    let moderator = tables.handle(
        Request {
            guild: Some(GUILD),
            channel: ChannelId(1),
            actor: Actor {
                can_manage: true,
                ..test_actor(13)
            },
            command: Button::More(T0.0).command(),
        },
        T0,
    );
    assert_eq!(
        private_buttons(&moderator),
        vec![Button::Status, Button::Rules, Button::Stop(game)],
        "a moderator"
    );
    let moderator_asked = tables.handle(
        Request {
            guild: Some(GUILD),
            channel: ChannelId(1),
            actor: Actor {
                can_manage: true,
                ..test_actor(13)
            },
            command: Button::Stop(game).command(),
        },
        T0,
    );
    assert!(reply_text(&moderator_asked).contains("without a result"));
    // Each gives what the typed command gives, privately, changing nothing.
    let before = state(&tables, 1);
    for (button, typed) in [
        (Button::Status, Command::Status),
        (Button::Rules, Command::Rules { variant: None }),
        (Button::Hand, Command::Hand),
    ] {
        assert_eq!(
            HERE.press(&tables, 1, 10, button),
            HERE.ask(&tables, 1, 10, typed),
            "{button:?}"
        );
    }
    assert_eq!(before, state(&tables, 1));
    // Stop is refused to a player who may not stop; their Leave asks first.
    refused(&tables, 1, 11, Button::Stop(game), "Only the host");
    let asked = HERE.press(&tables, 1, 11, Button::LeaveGame(game));
    assert_eq!(
        private_buttons(&asked),
        vec![Button::ConfirmLeave(game), Button::KeepPlaying]
    );
    assert!(tables.snapshot(ChannelId(1)).is_some(), "still playing");
    refused(&tables, 1, 11, Button::ConfirmStop(game), "Only the host");
    // The host stops it with the menu's button, asked first (a player's stop is giving up).
    let before = state(&tables, 1);
    let asked = HERE.press(&tables, 1, 10, Button::Stop(game));
    assert_eq!(
        private_buttons(&asked),
        vec![Button::ConfirmStop(game), Button::KeepPlaying]
    );
    assert!(reply_text(&asked).contains("counts as giving up"));
    assert_eq!(before, state(&tables, 1), "asking changes nothing");
    let stopped = HERE.press(&tables, 1, 10, Button::ConfirmStop(game));
    assert!(!stopped.is_refusal());
    assert!(reply_text(&stopped).contains("stopped"));
    assert!(tables.is_empty());
    // The menu of the game that is over changes nothing in the next one.
    let later = Timestamp(T0.0 + 1000);
    HERE.ask_at(&tables, 1, 10, start(Variant::Classic, None), later);
    HERE.ask_at(&tables, 1, 11, Command::Join { team: None }, later);
    HERE.ask_at(&tables, 1, 10, Command::Begin, later);
    refused(&tables, 1, 10, Button::Stop(game), "earlier game or lobby");
    refused(
        &tables,
        1,
        10,
        Button::ConfirmStop(game),
        "earlier game or lobby",
    );
    refused(
        &tables,
        1,
        11,
        Button::LeaveGame(game),
        "earlier game or lobby",
    );
    refused(&tables, 1, 10, Button::More(game), "earlier game or lobby");
    assert!(!HERE
        .press(&tables, 1, 10, Button::More(later.0))
        .is_refusal());
}

#[test]
fn the_stop_question_is_answered_in_its_place_and_keep_playing_makes_its_yes_dead() {
    let tables = seeded(test_settings(), 26);
    HERE.ask(&tables, 1, 10, start(Variant::Classic, None));
    HERE.ask(&tables, 1, 11, Command::Join { team: None });
    HERE.ask(&tables, 1, 10, Command::Begin);
    let game = T0.0;
    HERE.press(&tables, 1, 10, Button::Stop(game));
    // Keep playing: in the question's place, no buttons left.
    match HERE
        .press(&tables, 1, 10, Button::KeepPlaying)
        .outputs
        .as_slice()
    {
        [Output::Update(m)] => {
            assert_eq!(m.lines, vec![Text::KeptPlaying]);
            assert!(m.buttons.is_empty() && m.components.is_empty(), "{m:?}");
        }
        other => panic!("expected the question replaced in place, got {other:?}"),
    }
    // The Yes of the answered question stops nothing.
    refused(
        &tables,
        1,
        10,
        Button::ConfirmStop(game),
        "answered already",
    );
    assert!(tables.snapshot(ChannelId(1)).is_some(), "still playing");
    // Asked again: the Yes stops the game, and its answer replaces the question.
    HERE.press(&tables, 1, 10, Button::Stop(game));
    let stopped = HERE.press(&tables, 1, 10, Button::ConfirmStop(game));
    assert!(tables.is_empty());
    let answers: Vec<&Message> = stopped
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Update(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(answers.len(), 1, "{stopped:?}");
    assert_eq!(answers[0].lines, vec![Text::StoppedAck]);
    assert!(!stopped
        .outputs
        .iter()
        .any(|o| matches!(o, Output::Ephemeral(_))));
}

#[test]
fn the_more_menu_in_dice_has_no_cards_and_is_refused_before_the_game() {
    let tables = seeded(test_settings(), 26);
    HERE.ask(&tables, 1, 10, start(Variant::Dice, None));
    refused(&tables, 1, 10, Button::More(T0.0), "not started");
    refused(&tables, 2, 10, Button::More(T0.0), "no game");
    HERE.ask(&tables, 1, 11, Command::Join { team: None });
    HERE.ask(&tables, 1, 10, Command::Begin);
    assert_eq!(
        private_buttons(&HERE.press(&tables, 1, 11, Button::More(T0.0))),
        vec![Button::Status, Button::Rules, Button::LeaveGame(T0.0)]
    );
}

#[test]
fn a_stored_game_ends_with_stats_and_record_buttons() {
    let t = sqlite_store("buttons_after").expect("sqlite");
    let tables = seeded(test_settings(), 26).with_store(t.store.clone());
    HERE.ask(&tables, 1, 10, start(Variant::Classic, None));
    HERE.ask(&tables, 1, 11, Command::Join { team: None });
    HERE.ask(&tables, 1, 10, Command::Begin);
    let stopped = HERE.ask(&tables, 1, 10, Command::Stop);
    let last = stopped
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Channel(m) if m.attachment.is_some() => Some(m),
            _ => None,
        })
        .expect("the final message");
    let id = last.announced_game().expect("kept");
    assert_eq!(
        last.buttons,
        vec![
            Button::Rematch(T0.0),
            Button::Stats,
            Button::Profile,
            Button::Record(id)
        ]
    );
    // Each gives what the typed command gives.
    assert_eq!(
        HERE.press(&tables, 1, 11, Button::Record(id)),
        HERE.ask(&tables, 1, 11, Command::Record { game: Some(id) })
    );
    let stats = HERE.press(&tables, 1, 11, Button::Stats);
    assert_eq!(
        stats,
        HERE.ask(&tables, 1, 11, Command::Stats { user: None })
    );
    assert!(reply_text(&stats).contains("<@11>"), "{stats:?}");
    // A record that is not this server's (or not kept) is refused as when typed.
    assert!(HERE
        .press(&tables, 1, 11, Button::Record(id + 1000))
        .is_refusal());
}

#[test]
fn a_paused_game_can_still_be_stopped_with_the_menu() {
    let tables = seeded(test_settings(), 26);
    HERE.ask(&tables, 1, 10, start(Variant::Classic, None));
    HERE.ask(&tables, 1, 11, Command::Join { team: None });
    HERE.ask(&tables, 1, 10, Command::Begin);
    assert!(tables.pause(ChannelId(1), T0));
    let game = T0.0;
    // Only what a paused game allows: the rules, the hand, and Stop.
    assert_eq!(
        private_buttons(&HERE.press(&tables, 1, 11, Button::More(T0.0))),
        vec![Button::Rules, Button::Hand]
    );
    let menu = private_buttons(&HERE.press(&tables, 1, 10, Button::More(T0.0)));
    assert_eq!(menu, vec![Button::Rules, Button::Hand, Button::Stop(game)]);
    for button in &menu {
        assert!(
            !HERE.press(&tables, 1, 10, *button).is_refusal(),
            "{button:?}"
        );
    }
    assert!(
        tables.snapshot(ChannelId(1)).is_some(),
        "asked, not stopped yet"
    );
    let stopped = HERE.press(&tables, 1, 10, Button::ConfirmStop(game));
    assert!(!stopped.is_refusal(), "{stopped:?}");
    assert!(tables.is_empty());
}

#[test]
fn opening_a_menu_or_a_stop_question_saves_nothing() {
    let saves = Arc::new(Recorder::default());
    let tables = seeded(test_settings(), 26).with_persist(saves.clone());
    HERE.ask(&tables, 1, 10, start(Variant::Classic, None));
    let count = || saves.saved.lock().unwrap_or_else(|e| e.into_inner()).len();
    let before = count();
    HERE.press(&tables, 1, 10, Button::AddBot);
    assert_eq!(count(), before, "the level menu");
    HERE.ask(&tables, 1, 11, Command::Join { team: None });
    HERE.ask(&tables, 1, 10, Command::Begin);
    let before = count();
    for button in [
        Button::More(T0.0),
        Button::Stop(T0.0),
        Button::Status,
        Button::Rules,
    ] {
        assert!(
            !HERE.press(&tables, 1, 10, button).is_refusal(),
            "{button:?}"
        );
        assert!(!button.command().changes_table(), "{button:?}");
        assert!(!button.command().posts(), "{button:?}");
    }
    assert_eq!(count(), before, "⋯, Stop's question, Status and Rules");
}
