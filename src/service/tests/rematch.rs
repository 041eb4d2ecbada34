//! Issue 16, around the game: rematch, leave confirmation, a forfeit that does not contradict itself,
//! players replaced after timing out in a row, the lobby's settings and team checks, one board per
//! move, and the reworded refusals.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::engine::{Card, Cell, GameRng, Move, MoveList, Options, Variant};
use crate::i18n::Lang;

use super::kit::{
    channel_messages, final_message, human_to_move, join, lobby_output, playing, seeded, start,
    state, test_actor, unlimited, Asker, T0,
};
use crate::service::text::{RollHint, TeamName};
use crate::service::{
    command_for_component, Actor, BotLevel, Button, ChannelId, Command, GuildId, Image, Message,
    OnTimeout, Output, Player, Reply, ServerSettings, Settings, SettingsRequest, Setup, State,
    Tables, Text, Timestamp, UserId, Who,
};

const GUILD: GuildId = GuildId(5);

/// Requests come from server [`GUILD`], whose user 1 may manage it.
const HERE: Asker = Asker::server(GUILD).as_actor(actor);
/// The Rematch button of a game whose lobby opened at `T0`.
const REMATCH: Command = Command::Rematch { game: T0.0 };

/// Player 1 may manage the server.
fn actor(id: u64) -> Actor {
    Actor {
        can_manage_guild: id == 1,
        ..test_actor(id)
    }
}

fn messages(reply: &Reply) -> Vec<&Message> {
    reply.outputs.iter().filter_map(Output::message).collect()
}

fn all_text(reply: &Reply) -> String {
    messages(reply)
        .iter()
        .map(|m| m.to_english())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Refused privately, and the table did not change.
fn refused(tables: &Tables, channel: u64, user: u64, command: Command, contains: &str) {
    refused_at(tables, channel, user, command, T0, contains);
}

/// [`refused`] at `now`.
fn refused_at(
    tables: &Tables,
    channel: u64,
    user: u64,
    command: Command,
    now: Timestamp,
    contains: &str,
) {
    let before = state(tables, channel);
    let reply = HERE.ask_at(tables, channel, user, command, now);
    assert!(reply.is_refusal(), "expected a refusal, got {reply:?}");
    let text = all_text(&reply);
    assert!(text.contains(contains), "`{text}` lacks `{contains}`");
    assert_eq!(
        before,
        state(tables, channel),
        "a refusal changed the table"
    );
}

// ----- rematch -----

#[test]
fn the_final_message_offers_a_rematch_that_invites_the_players_with_their_teams() {
    let tables = seeded(unlimited(Settings::default()), 1);
    HERE.begin(&tables, 10, start(Variant::Classic, None), &[1, 2, 3, 4], 0);
    let before = playing(&tables, 10);
    let config = *before.live.game().config();
    let team_of = |user: u64| {
        let seat = before.seat_of(UserId(user)).expect("seated");
        config.team_of(seat)
    };
    let stop = HERE.ask(&tables, 10, 1, Command::Stop);
    let last = final_message(&stop).expect("the game ends");
    assert_eq!(last.buttons, vec![Button::Rematch(T0.0)], "the game's key");
    let rematch = last.buttons[0].command();
    assert_eq!(rematch, Command::Rematch { game: T0.0 });
    assert!(tables.is_empty());

    // Someone who did not play cannot ask for it, and nothing opens.
    let reply = HERE.ask(&tables, 10, 9, rematch.clone());
    assert!(reply.is_refusal());
    assert!(all_text(&reply).contains("Only the players of the last game"));
    assert!(tables.is_empty());

    // Player 3 asks: a new lobby (a new message), hosted by them, the others invited by mention.
    let reply = HERE.ask(&tables, 10, 3, rematch.clone());
    let (id, lobby) = lobby_output(&reply).expect("a lobby is posted");
    assert_eq!(id, None, "a new message, not an edit of the final one");
    let mut invited = lobby.mentions.clone();
    invited.sort();
    assert_eq!(invited, vec![UserId(1), UserId(2), UserId(4)]);
    let text = lobby.to_english();
    assert!(text.contains("Rematch! Invited: <@"), "{text}");
    assert!(text.contains("hosted by <@3>"), "{text}");
    let table = tables.snapshot(ChannelId(10)).expect("a lobby");
    assert_eq!(table.host, UserId(3));
    assert_eq!(table.setup.variant, Variant::Classic);
    assert_eq!(table.setup.teams, None);

    // Another player's press of Rematch while its lobby is open joins it; someone who did not play
    // is still told the channel is taken.
    let reply = HERE.ask(&tables, 10, 1, rematch.clone());
    assert!(!reply.is_refusal(), "{reply:?}");
    let (_, lobby) = lobby_output(&reply).expect("the lobby is shown again");
    assert!(
        lobby.to_english().contains("2. <@1>"),
        "{}",
        lobby.to_english()
    );
    refused(&tables, 10, 1, rematch.clone(), "already joined");
    refused(&tables, 10, 9, rematch, "already has a game or a lobby");

    // The others with one press of Join each: everyone keeps their teammates of the last game.
    for user in [2, 4] {
        assert!(!HERE.ask(&tables, 10, user, join(None)).is_refusal());
    }
    let lobby = match tables.snapshot(ChannelId(10)).map(|t| t.state) {
        Some(State::Lobby(lobby)) => lobby,
        other => panic!("expected a lobby, got {other:?}"),
    };
    assert!(lobby.invited.is_empty());
    assert!(!HERE.ask(&tables, 10, 3, Command::Begin).is_refusal());
    let after = playing(&tables, 10);
    let new_config = *after.live.game().config();
    for user in [1, 2, 3, 4] {
        let seat = after.seat_of(UserId(user)).expect("seated again");
        // The same teammates; the team that moved second now moves first, so the numbers turn.
        assert_eq!(
            new_config.team_of(seat),
            (team_of(user) + 1) % 2,
            "player {user}"
        );
    }
}

#[test]
fn a_rematch_press_joins_only_the_lobby_of_that_rematch() {
    let tables = seeded(unlimited(Settings::default()), 19);
    HERE.begin(&tables, 15, start(Variant::Classic, None), &[1, 2, 3], 0);
    HERE.ask(&tables, 15, 1, Command::Stop);
    // Each step a second later (a table's key is when it opened).
    let at = |second: u64| T0.after(Duration::from_secs(second));
    let accepted = |user: u64, command: Command, second: u64| {
        let reply = HERE.ask_at(&tables, 15, user, command.clone(), at(second));
        assert!(!reply.is_refusal(), "{command:?}: {reply:?}");
    };
    // The rematch's lobby is cancelled and someone opens a lobby of their own: the press is refused.
    accepted(2, REMATCH, 1);
    accepted(2, Command::Cancel, 2);
    accepted(9, start(Variant::Classic, None), 3);
    refused_at(
        &tables,
        15,
        3,
        REMATCH,
        at(4),
        "already has a game or a lobby",
    );
    accepted(9, Command::Cancel, 5);
    // Opened again: a press joins it until it starts, then it is refused.
    accepted(2, REMATCH, 6);
    accepted(3, REMATCH, 7);
    accepted(2, Command::Begin, 8);
    refused_at(
        &tables,
        15,
        1,
        REMATCH,
        at(9),
        "already has a game or a lobby",
    );
    assert_eq!(playing(&tables, 15).seats.len(), 2);
}

#[test]
fn a_rematch_seats_the_computers_again() {
    let tables = seeded(unlimited(Settings::default()), 2);
    // Four players: two humans and two computers, two teams.
    HERE.begin(&tables, 11, start(Variant::Classic, None), &[1, 2], 2);
    HERE.ask(&tables, 11, 1, Command::Stop);
    let reply = HERE.ask(&tables, 11, 2, REMATCH);
    assert!(!reply.is_refusal(), "{reply:?}");
    let lobby = match tables.snapshot(ChannelId(11)).map(|t| t.state) {
        Some(State::Lobby(lobby)) => lobby,
        other => panic!("expected a lobby, got {other:?}"),
    };
    let bots = lobby
        .seats
        .iter()
        .filter(|s| matches!(s.player, Player::Bot { .. }))
        .count();
    assert_eq!(bots, 2, "the computer players sit again");
    assert_eq!(lobby.invited.len(), 1);
    assert!(!HERE.ask(&tables, 11, 1, join(None)).is_refusal());
    assert!(!HERE.ask(&tables, 11, 2, Command::Begin).is_refusal());
    assert_eq!(playing(&tables, 11).seats.len(), 4);
}

#[test]
fn kept_teams_give_way_when_fewer_players_come_back() {
    let tables = seeded(unlimited(Settings::default()), 15);
    HERE.begin(&tables, 13, start(Variant::Classic, None), &[1, 2, 3, 4], 0);
    // Two players of the same team (seats 0 and 2 of two teams).
    let p = playing(&tables, 13);
    let (a, b) = (
        p.seats[0].user().expect("human"),
        p.seats[2].user().expect("human"),
    );
    HERE.ask(&tables, 13, 1, Command::Stop);
    assert!(!HERE.ask(&tables, 13, a.0, REMATCH).is_refusal());
    assert!(!HERE.ask(&tables, 13, b.0, join(None)).is_refusal());
    // Both kept the same team, but two players play one against the other.
    let begun = HERE.ask(&tables, 13, a.0, Command::Begin);
    assert!(!begun.is_refusal(), "{begun:?}");
    let p = playing(&tables, 13);
    assert_eq!(p.seats.len(), 2);
}

#[test]
fn a_rematch_long_after_or_without_a_game_is_refused_politely() {
    let tables = seeded(unlimited(Settings::default()), 3);
    refused(&tables, 12, 1, REMATCH, "too long ago");
    HERE.begin(&tables, 12, start(Variant::Kids, None), &[1, 2], 0);
    HERE.ask(&tables, 12, 1, Command::Stop);
    let late = T0.after(Settings::default().lobby_timeout + Duration::from_secs(1));
    let reply = HERE.ask_at(&tables, 12, 2, REMATCH, late);
    assert!(reply.is_refusal());
    assert!(all_text(&reply).contains("too long ago"));
    assert!(tables.is_empty());
    // While a game runs in the channel, a rematch of the last one is refused.
    HERE.begin(&tables, 12, start(Variant::Kids, None), &[1, 2], 0);
    refused(&tables, 12, 2, REMATCH, "already has a game");
}

#[test]
fn the_buttons_of_one_game_carry_its_key_and_are_parsed_strictly() {
    let keyed = [
        Button::Rematch(T0.0),
        Button::ConfirmLeave(T0.0),
        Button::Rematch(0),
        Button::ConfirmLeave(u64::MAX),
    ];
    for button in Button::FIXED.into_iter().chain(keyed) {
        assert_eq!(Button::from_id(&button.id()), Some(button), "{button:?}");
        assert!(button.id().len() <= 100);
    }
    assert_eq!(
        Button::Rematch(T0.0).id(),
        "sequence:rematch:1700000000000",
        "the id is the table's key"
    );
    for id in [
        // The ids before the key (an old message): not ours any more, refused politely.
        "sequence:rematch",
        "sequence:leave-confirm",
        "sequence:rematch:",
        "sequence:rematch:01",
        "sequence:rematch:+1",
        "sequence:rematch:-1",
        "sequence:rematch:1:2",
        "sequence:rematch:18446744073709551616",
        "sequence:leave-confirm:x",
        "sequence:join:01",
        "sequence:leave-keep:1",
    ] {
        assert_eq!(Button::from_id(id), None, "{id}");
        assert_eq!(command_for_component(id, &[]), Err(Text::BadButton), "{id}");
    }
    assert_eq!(Button::Rematch(7).command(), Command::Rematch { game: 7 });
    assert_eq!(
        Button::ConfirmLeave(7).command(),
        Command::Forfeit { game: Some(7) }
    );
    assert_eq!(Button::KeepPlaying.command(), Command::KeepPlaying);
    assert!(!Command::KeepPlaying.posts());
    assert!(REMATCH.changes_table());
}

#[test]
fn an_older_games_rematch_button_opens_nothing() {
    let tables = seeded(unlimited(Settings::default()), 16);
    HERE.begin(&tables, 14, start(Variant::Classic, None), &[1, 2], 0);
    let first = final_message(&HERE.ask(&tables, 14, 1, Command::Stop))
        .expect("the first game ends")
        .buttons[0];
    // A second game in the same channel, a minute later, also ends.
    let later = T0.after(Duration::from_secs(60));
    assert!(!HERE
        .ask_at(&tables, 14, 1, start(Variant::Classic, None), later)
        .is_refusal());
    assert!(!HERE.ask_at(&tables, 14, 2, join(None), later).is_refusal());
    assert!(!HERE
        .ask_at(&tables, 14, 1, Command::Begin, later)
        .is_refusal());
    let second = final_message(&HERE.ask_at(&tables, 14, 1, Command::Stop, later))
        .expect("the second game ends")
        .buttons[0];
    assert_ne!(first, second, "each game has its own button");
    // The first game's button: a polite private answer, no lobby.
    refused_at(
        &tables,
        14,
        2,
        first.command(),
        later,
        "A newer game has been played in this channel",
    );
    assert!(tables.is_empty());
    // The second game's button opens the rematch.
    assert!(!HERE
        .ask_at(&tables, 14, 2, second.command(), later)
        .is_refusal());
    assert!(tables.snapshot(ChannelId(14)).is_some());
}

/// The teams of the running game, in the order they move (each a set of player names).
fn teams_in_turn_order(tables: &Tables, channel: u64) -> Vec<BTreeSet<String>> {
    let p = playing(tables, channel);
    let config = *p.live.game().config();
    let mut teams = vec![BTreeSet::new(); usize::from(config.teams)];
    for (seat, player) in p.seats.iter().enumerate() {
        teams[seat % usize::from(config.teams)].insert(player.name().to_string());
    }
    teams
}

/// Plays `rounds` rematches in a row of a classic game (host 1, the other `users` and `bots` computer
/// players, `teams` asked for) and returns the teams of each game in turn order.
fn rematches_in_a_row(
    channel: u64,
    users: &[u64],
    bots: usize,
    teams: Option<u8>,
    rounds: usize,
) -> Vec<Vec<BTreeSet<String>>> {
    let tables = seeded(unlimited(Settings::default()), 40 + channel);
    let mut now = T0;
    assert!(!HERE
        .ask_at(
            &tables,
            channel,
            users[0],
            start(Variant::Classic, teams),
            now
        )
        .is_refusal());
    for &u in &users[1..] {
        assert!(!HERE
            .ask_at(&tables, channel, u, join(None), now)
            .is_refusal());
    }
    for _ in 0..bots {
        let add = Command::AddBot { level: None };
        assert!(!HERE
            .ask_at(&tables, channel, users[0], add, now)
            .is_refusal());
    }
    let mut games = Vec::new();
    for round in 0..rounds {
        let begun = HERE.ask_at(&tables, channel, users[0], Command::Begin, now);
        assert!(!begun.is_refusal(), "round {round}: {begun:?}");
        games.push(teams_in_turn_order(&tables, channel));
        let host = tables.snapshot(ChannelId(channel)).expect("a game").host;
        let stop = HERE.ask_at(&tables, channel, host.0, Command::Stop, now);
        let rematch = final_message(&stop).expect("the game ends").buttons[0].command();
        now = now.after(Duration::from_secs(60));
        // Player 1 asks for the rematch; the others join with one press each.
        assert!(!HERE
            .ask_at(&tables, channel, users[0], rematch, now)
            .is_refusal());
        for &u in &users[1..] {
            assert!(!HERE
                .ask_at(&tables, channel, u, join(None), now)
                .is_refusal());
        }
    }
    games
}

/// Each game has the same teams as the one before, and the team that moved second in it moves first.
fn assert_the_next_team_starts(games: &[Vec<BTreeSet<String>>]) {
    for (i, pair) in games.windows(2).enumerate() {
        let (last, next) = (&pair[0], &pair[1]);
        let mut rotated = last.clone();
        rotated.rotate_left(1);
        assert_eq!(
            next,
            &rotated,
            "rematch {}: the team that moved second in the last game starts, the teams are kept",
            i + 1
        );
    }
}

#[test]
fn rematches_in_a_row_alternate_the_starting_player_one_against_one() {
    let games = rematches_in_a_row(50, &[1, 2], 0, None, 9);
    assert_the_next_team_starts(&games);
    let firsts: Vec<_> = games.iter().map(|g| g[0].clone()).collect();
    assert!(firsts.windows(2).all(|w| w[0] != w[1]), "{firsts:?}");
}

#[test]
fn rematches_in_a_row_alternate_the_starting_team_two_against_two() {
    // Two people and two computers, and four people.
    assert_the_next_team_starts(&rematches_in_a_row(51, &[1, 2], 2, Some(2), 6));
    assert_the_next_team_starts(&rematches_in_a_row(52, &[1, 2, 3, 4], 0, Some(2), 6));
}

#[test]
fn rematches_in_a_row_rotate_the_starting_team_of_three() {
    let games = rematches_in_a_row(53, &[1, 2, 3], 0, None, 7);
    assert_the_next_team_starts(&games);
    assert_the_next_team_starts(&rematches_in_a_row(54, &[1, 2, 3, 4, 5, 6], 0, Some(3), 7));
}

// ----- leaving a running game -----

#[test]
fn leave_during_a_game_asks_first_and_changes_nothing() {
    let tables = seeded(unlimited(Settings::default()), 4);
    HERE.begin(&tables, 20, start(Variant::Classic, None), &[1, 2, 3], 0);
    let before = state(&tables, 20);
    let reply = HERE.ask(&tables, 20, 2, Command::Leave);
    match reply.outputs.as_slice() {
        [Output::Ephemeral(m)] => {
            assert_eq!(m.lines, vec![Text::ConfirmLeave { ends_game: false }]);
            assert_eq!(
                m.buttons,
                vec![Button::ConfirmLeave(T0.0), Button::KeepPlaying]
            );
        }
        other => panic!("expected one private question, got {other:?}"),
    }
    assert_eq!(before, state(&tables, 20), "asking changed the table");
    // Keep playing: the answer replaces the question, nothing changes.
    let reply = HERE.ask(&tables, 20, 2, Command::KeepPlaying);
    assert!(
        matches!(reply.outputs.as_slice(), [Output::Update(m)] if m.lines == vec![Text::KeptPlaying])
    );
    assert_eq!(before, state(&tables, 20));
    // Someone not in the game is told so.
    refused(&tables, 20, 9, Command::Leave, "not playing");
    // Asked again and confirmed: the seat goes to a computer.
    HERE.ask(&tables, 20, 2, Command::Leave);
    let reply = HERE.ask(&tables, 20, 2, Button::ConfirmLeave(T0.0).command());
    assert!(all_text(&reply).contains("**Computer (easy, for Player2)** takes their seat"));
    assert!(playing(&tables, 20).seat_of(UserId(2)).is_none());
}

#[test]
fn keep_playing_replaces_the_question_and_its_yes_no_longer_counts() {
    let tables = seeded(unlimited(Settings::default()), 18);
    HERE.begin(&tables, 24, start(Variant::Classic, None), &[1, 2, 3], 0);
    let confirm = yes_button(&HERE.ask(&tables, 24, 2, Command::Leave));
    let kept = HERE.ask(&tables, 24, 2, Button::KeepPlaying.command());
    match kept.outputs.as_slice() {
        [Output::Update(m)] => {
            assert_eq!(m.lines, vec![Text::KeptPlaying]);
            assert!(m.buttons.is_empty() && m.components.is_empty(), "{m:?}");
        }
        other => panic!("expected the question replaced in place, got {other:?}"),
    }
    // The old Yes, pressed later: a polite refusal, and player 2 still plays.
    refused(
        &tables,
        24,
        2,
        confirm.command(),
        "answered already: you are still playing",
    );
    assert!(playing(&tables, 24).seat_of(UserId(2)).is_some());
    // Keep playing twice, or another player's Keep playing, opens nothing either.
    HERE.ask(&tables, 24, 2, Button::KeepPlaying.command());
    HERE.ask(&tables, 24, 3, Command::Leave);
    refused(&tables, 24, 2, confirm.command(), "answered already");
    // Player 3's own question is still open; its Yes answers in the question's place.
    let gave_up = HERE.ask(&tables, 24, 3, confirm.command());
    assert!(!gave_up.is_refusal());
    assert!(
        gave_up
            .outputs
            .iter()
            .any(|o| matches!(o, Output::Update(m) if m.lines == vec![Text::ForfeitAck])),
        "{gave_up:?}"
    );
    assert!(playing(&tables, 24).seat_of(UserId(3)).is_none());
    // Its Keep playing, pressed after, changes nothing and leaves no Yes open.
    HERE.ask(&tables, 24, 3, Button::KeepPlaying.command());
    assert!(playing(&tables, 24).seat_of(UserId(3)).is_none());
    // A typed forfeit needs no question: player 1 is left alone, and the game ends.
    let reply = HERE.ask(&tables, 24, 2, Command::Forfeit { game: None });
    assert!(final_message(&reply).is_some(), "{reply:?}");
}

/// The private question's **Yes, give up**.
fn yes_button(question: &Reply) -> Button {
    match question.outputs.as_slice() {
        [Output::Ephemeral(m)] => m.buttons[0],
        other => panic!("expected one private question, got {other:?}"),
    }
}

#[test]
fn a_confirmation_to_give_up_acts_only_on_the_game_it_asked_about() {
    let tables = seeded(unlimited(Settings::default()), 17);
    HERE.begin(&tables, 23, start(Variant::Classic, None), &[1, 2, 3], 0);
    let question = HERE.ask(&tables, 23, 2, Command::Leave);
    let confirm = yes_button(&question);
    // Player 2 does not answer; the game ends and another opens in the channel.
    HERE.ask(&tables, 23, 1, Command::Stop);
    let later = T0.after(Duration::from_secs(60));
    assert!(!HERE
        .ask_at(&tables, 23, 1, start(Variant::Classic, None), later)
        .is_refusal());
    assert!(!HERE.ask_at(&tables, 23, 2, join(None), later).is_refusal());
    assert!(!HERE.ask_at(&tables, 23, 3, join(None), later).is_refusal());
    // In the new lobby, the old Yes does not take player 2 out.
    let gone = "a game that is over. Nothing was changed";
    refused_at(&tables, 23, 2, confirm.command(), later, gone);
    // Nor in the new game.
    assert!(!HERE
        .ask_at(&tables, 23, 1, Command::Begin, later)
        .is_refusal());
    refused_at(&tables, 23, 2, confirm.command(), later, gone);
    assert!(playing(&tables, 23).seat_of(UserId(2)).is_some());
    // The new game's own question still works.
    let question = HERE.ask_at(&tables, 23, 2, Command::Leave, later);
    let confirm = yes_button(&question);
    assert_eq!(confirm, Button::ConfirmLeave(later.0));
    let reply = HERE.ask_at(&tables, 23, 2, confirm.command(), later);
    assert!(!reply.is_refusal(), "{reply:?}");
    assert!(playing(&tables, 23).seat_of(UserId(2)).is_none());
}

#[test]
fn giving_up_that_ends_the_game_does_not_seat_a_computer_in_the_message() {
    let tables = seeded(unlimited(Settings::default()), 5);
    HERE.begin(&tables, 21, start(Variant::Classic, None), &[1, 2], 0);
    // Past the abort window (two moves each), so that giving up decides the game.
    for _ in 0..4 {
        let game = playing(&tables, 21);
        let g = game.live.game();
        let seat = g.position().to_move();
        let user = game.seats[usize::from(seat)].user().expect("a human");
        let mut legal = crate::engine::MoveList::new();
        g.view(seat).legal_moves(&mut legal);
        let Some(crate::engine::Move::Play { card, cell }) = legal
            .iter()
            .copied()
            .find(|m| matches!(m, crate::engine::Move::Play { .. }))
        else {
            panic!("a card to play");
        };
        let command = Command::Play {
            card: Some(card.to_string()),
            cell: g.position().layout().cell_name(cell),
        };
        assert!(!HERE.ask(&tables, 21, user.0, command).is_refusal());
    }
    let reply = HERE.ask(&tables, 21, 2, Command::Forfeit { game: None });
    let last = final_message(&reply).expect("the game ends");
    let text = last.to_english();
    assert!(text.contains("<@2> gave up."), "{text}");
    assert!(text.contains("wins, as everyone else gave up"), "{text}");
    assert!(
        !text.contains("takes their seat") && !text.contains("Computer ("),
        "the end contradicts itself: {text}"
    );
    // Alone against computers: giving up ends the game without a stand-in either.
    let tables = seeded(unlimited(Settings::default()), 6);
    HERE.begin(&tables, 22, start(Variant::Classic, None), &[1], 1);
    let reply = HERE.ask(&tables, 22, 1, Command::Forfeit { game: None });
    let text = final_message(&reply).expect("the game ends").to_english();
    // Before the player made two moves the game is aborted: nobody wins it.
    assert!(
        text.contains("<@1> gave up.") && text.contains("Aborted"),
        "{text}"
    );
    assert!(
        !text.contains("takes their seat") && !text.contains("wins"),
        "{text}"
    );
}

// ----- timeouts -----

/// Lets the turn of the human to move run out and the computer play it; returns the replies.
async fn time_out(tables: &Tables, channel: u64, now: &mut Timestamp) -> Vec<Reply> {
    *now = now.after(Duration::from_secs(601));
    let mut replies: Vec<Reply> = tables
        .tick(*now)
        .into_iter()
        .filter(|(c, _)| c.0 == channel)
        .map(|(_, r)| r)
        .collect();
    replies.extend(tables.run_auto(ChannelId(channel), *now).await);
    replies
}

#[tokio::test]
async fn a_player_who_times_out_twice_in_a_row_is_replaced_once_and_for_all() {
    let tables = seeded(unlimited(Settings::default()), 7);
    HERE.begin(&tables, 30, start(Variant::Classic, None), &[1, 2, 3], 0);
    let mut now = T0;
    let sleeper = human_to_move(&tables, 30).expect("a human starts");
    // First timeout: the computer plays that turn, the player keeps the seat.
    let first = time_out(&tables, 30, &mut now).await;
    let text: String = first.iter().map(all_text).collect();
    assert!(
        text.contains("ran out of time, so the computer (medium) played this turn."),
        "{text}"
    );
    assert!(playing(&tables, 30).seat_of(sleeper).is_some());
    // The sleeper's next reminder warns that the seat goes for good this time.
    let mut warned = false;
    for _ in 0..6 {
        if human_to_move(&tables, 30) == Some(sleeper) {
            let at = now.after(Duration::from_secs(121));
            let reminders: String = tables.tick(at).iter().map(|(_, r)| all_text(r)).collect();
            warned = reminders.contains("you run out of time, and a computer takes your seat");
            break;
        }
        time_out(&tables, 30, &mut now).await;
    }
    assert!(warned, "the last reminder warns");
    // The others timed out once too (so the sleeper's count is what matters), then the sleeper again.
    let mut announced = 0;
    for _ in 0..6 {
        let to_move = human_to_move(&tables, 30);
        let replies = time_out(&tables, 30, &mut now).await;
        let text: String = replies.iter().map(all_text).collect();
        announced += text
            .matches(&format!(
                "ran out of time twice in a row: the computer player **Computer (easy, for Player{})** takes their seat",
                sleeper.0
            ))
            .count();
        if to_move == Some(sleeper) {
            break;
        }
    }
    assert_eq!(announced, 1, "announced once");
    let p = playing(&tables, 30);
    assert!(p.seat_of(sleeper).is_none(), "a computer sits there now");
    assert!(p.forfeited.iter().any(|(_, pl)| pl.user() == Some(sleeper)));
}

#[tokio::test]
async fn moving_in_between_resets_the_count_and_zero_never_replaces() {
    let tables = seeded(unlimited(Settings::default()), 8);
    HERE.begin(&tables, 31, start(Variant::Kids, None), &[1, 2], 0);
    let mut now = T0;
    let first = human_to_move(&tables, 31).expect("a human starts");
    time_out(&tables, 31, &mut now).await;
    // The other player moves themselves, then the first (resetting their count), then the other.
    for _ in 0..3 {
        let user = human_to_move(&tables, 31).expect("a human");
        let p = playing(&tables, 31);
        let game = p.live.game();
        let seat = game.position().to_move();
        let mut legal = MoveList::new();
        game.view(seat).legal_moves(&mut legal);
        let mv = legal[0];
        let layout = game.position().layout();
        let command = match mv {
            Move::Play { card, cell } => Command::Play {
                card: Some(card.to_string()),
                cell: layout.cell_name(cell),
            },
            Move::Exchange { card } => Command::Exchange {
                card: card.to_string(),
            },
            other => panic!("unexpected {other:?}"),
        };
        assert!(!HERE.ask_at(&tables, 31, user.0, command, now).is_refusal());
    }
    assert_eq!(human_to_move(&tables, 31), Some(first));
    time_out(&tables, 31, &mut now).await;
    assert!(
        playing(&tables, 31).seat_of(first).is_some(),
        "not twice in a row"
    );

    // With the setting at 0, nobody is ever replaced.
    let never = seeded(
        unlimited(Settings {
            replace_after_timeouts: 0,
            ..Settings::default()
        }),
        9,
    );
    HERE.begin(&never, 32, start(Variant::Kids, None), &[1, 2], 0);
    let mut now = T0;
    for _ in 0..6 {
        time_out(&never, 32, &mut now).await;
    }
    let p = playing(&never, 32);
    assert!(p.seat_of(UserId(1)).is_some() && p.seat_of(UserId(2)).is_some());
}

#[tokio::test]
async fn a_server_can_replace_after_one_timeout_and_refuses_an_unreasonable_count() {
    let tables = seeded(unlimited(Settings::default()), 18);
    let set = |n: u8| {
        Command::Settings(SettingsRequest {
            changes: ServerSettings {
                timeouts_before_replaced: Some(n),
                ..ServerSettings::default()
            },
            reset: false,
        })
    };
    let reply = HERE.ask(&tables, 33, 1, set(11));
    assert!(reply.is_refusal());
    let text = all_text(&reply);
    assert!(
        text.contains("`timeouts_before_replaced` must be between 0 and 10. Nothing was changed."),
        "{text}"
    );
    let reply = HERE.ask(&tables, 33, 1, set(1));
    assert!(!reply.is_refusal(), "{reply:?}");
    assert!(
        all_text(&reply).contains("after 1 timed-out turn"),
        "{}",
        all_text(&reply)
    );
    let lobby = HERE.ask(&tables, 34, 1, start(Variant::Kids, None));
    let text = lobby_output(&lobby).expect("a lobby").1.to_english();
    assert!(
        text.contains("after 1 timed-out turn it takes the seat"),
        "{text}"
    );
    HERE.ask(&tables, 34, 1, Command::Cancel);
    HERE.begin(&tables, 34, start(Variant::Kids, None), &[1, 2, 3], 0);
    let mut now = T0;
    let sleeper = human_to_move(&tables, 34).expect("a human");
    let replies = time_out(&tables, 34, &mut now).await;
    let text: String = replies.iter().map(all_text).collect();
    assert!(text.contains("ran out of time once"), "{text}");
    assert!(playing(&tables, 34).seat_of(sleeper).is_none());
}

// ----- the lobby -----

#[test]
fn the_lobby_shows_the_settings_that_apply() {
    let tables = seeded(unlimited(Settings::default()), 10);
    let reply = HERE.ask(&tables, 40, 1, start(Variant::Classic, None));
    let text = lobby_output(&reply).expect("a lobby").1.to_english();
    assert!(
        text.contains("2 sequences to win (1 with three teams)"),
        "{text}"
    );
    assert!(text.contains("turn reminder after 2 minutes"), "{text}");
    assert!(
        text.contains("after 10 minutes a computer plays the turn; after 2 timed-out turns in a row it takes the seat"),
        "{text}"
    );
    assert!(
        text.contains("computers added without a level, and those playing for a player: easy"),
        "{text}"
    );
    // A server's own settings show in its lobbies.
    let change = Command::Settings(SettingsRequest {
        changes: ServerSettings {
            bot_level: Some(BotLevel::Hard),
            turn_timeout_secs: Some(300),
            on_timeout: Some(OnTimeout::GiveUp),
            ..ServerSettings::default()
        },
        reset: false,
    });
    assert!(!HERE.ask(&tables, 41, 1, change).is_refusal());
    let reply = HERE.ask(&tables, 41, 1, start(Variant::Dice, Some(2)));
    let text = lobby_output(&reply).expect("a lobby").1.to_english();
    assert!(text.contains("1 sequence to win ·"), "{text}");
    assert!(
        text.contains("after 5 minutes the player gives up"),
        "{text}"
    );
    assert!(
        text.contains("computers added without a level, and those playing for a player: hard"),
        "{text}"
    );
    // And in German.
    let german = lobby_output(&reply).expect("a lobby").1.render(Lang::De);
    assert!(
        german.contains("ohne Stufe hinzugefügt werden oder für jemanden spielen: schwer"),
        "{german}"
    );
}

#[test]
fn a_team_without_room_is_refused_when_chosen() {
    let tables = seeded(unlimited(Settings::default()), 11);
    // Dice in two teams: at most two players a team.
    assert!(!HERE
        .ask(&tables, 42, 1, start(Variant::Dice, Some(2)))
        .is_refusal());
    assert!(!HERE.ask(&tables, 42, 2, join(Some(1))).is_refusal());
    assert!(!HERE.ask(&tables, 42, 3, join(Some(1))).is_refusal());
    refused(&tables, 42, 4, join(Some(1)), "already has its 2 players");
    assert!(!HERE.ask(&tables, 42, 4, join(Some(2))).is_refusal());
    // Kids in four teams: one player a team; the host took no team, so team 1 has room once.
    assert!(!HERE
        .ask(&tables, 43, 1, start(Variant::Kids, Some(4)))
        .is_refusal());
    assert!(!HERE.ask(&tables, 43, 2, join(Some(1))).is_refusal());
    refused(&tables, 43, 3, join(Some(1)), "already has its 1 player");
    // Classic without a team count: team 3 means three teams, at most four players each.
    assert!(!HERE
        .ask(&tables, 44, 1, start(Variant::Classic, None))
        .is_refusal());
    for user in 2..=5 {
        assert!(!HERE.ask(&tables, 44, user, join(Some(3))).is_refusal());
    }
    refused(&tables, 44, 6, join(Some(3)), "already has its 4 players");
    // Team numbers out of range are refused as before; a team count no game allows at start.
    refused(
        &tables,
        45,
        1,
        start(Variant::Dice, Some(4)),
        "cannot be played in 4 teams",
    );
}

#[test]
fn team_checks_know_every_possible_table() {
    let setup = |variant, teams| Setup::new(variant, teams, Options::default()).expect("setup");
    // Classic 2 teams: six a team at most.
    let classic = setup(Variant::Classic, Some(2));
    assert!(classic.check_wishes(12, &[Some(0); 6]).is_ok());
    assert!(classic.check_wishes(7, &[Some(0); 7]).is_err());
    // A team number above the team count never fits.
    assert!(classic.check_wishes(1, &[Some(2)]).is_err());
    // Kids without a count: team 4 means four teams of one.
    let kids = setup(Variant::Kids, None);
    assert!(kids.check_wishes(2, &[Some(3), None]).is_ok());
    assert!(kids.check_wishes(2, &[Some(3), Some(3)]).is_err());
    // More seats than the game has: nothing fits.
    assert!(kids.check_wishes(5, &[]).is_err());
}

// ----- one board per move -----

#[tokio::test]
async fn the_thinking_step_posts_no_board_of_its_own() {
    let tables = seeded(unlimited(Settings::default()), 12);
    let begun = HERE.begin(&tables, 50, start(Variant::Classic, None), &[1], 1);
    let mut rng = GameRng::new(12);
    let mut replies = vec![begun];
    for _ in 0..400 {
        let Some(p) = tables
            .snapshot(ChannelId(50))
            .and_then(|t| t.playing().cloned())
        else {
            break;
        };
        match human_to_move(&tables, 50) {
            None => replies.extend(tables.run_auto(ChannelId(50), T0).await),
            Some(user) => {
                let game = p.live.game();
                let seat = game.position().to_move();
                let mut legal = MoveList::new();
                game.view(seat).legal_moves(&mut legal);
                let mv = legal[rng.below(legal.len() as u32) as usize];
                let layout = game.position().layout();
                let command = match mv {
                    Move::Play { card, cell } => Command::Play {
                        card: Some(card.to_string()),
                        cell: layout.cell_name(cell),
                    },
                    Move::Exchange { card } => Command::Exchange {
                        card: card.to_string(),
                    },
                    other => panic!("unexpected {other:?}"),
                };
                let reply = HERE.ask(&tables, 50, user.0, command);
                assert!(!reply.is_refusal(), "{reply:?}");
                replies.push(reply);
            }
        }
    }
    let posts: Vec<&Message> = replies.iter().flat_map(channel_messages).collect();
    assert!(posts.len() > 20, "a long stretch of a game was played");
    let thinking = |m: &Message| {
        m.lines.iter().any(|l| {
            matches!(
                l,
                Text::Turn {
                    who: Who::Bot(_),
                    ..
                }
            )
        })
    };
    // A board follows every move before the human is asked to move again.
    let mut unshown = false;
    let mut asked = 0;
    for m in &posts {
        let moved = m.lines.iter().any(|l| {
            matches!(
                l,
                Text::Played { .. } | Text::Removed { .. } | Text::Placed { .. }
            )
        });
        if thinking(m) {
            assert!(m.image.is_none(), "`{}` has a board", m.to_english());
        }
        if m.image.is_some() {
            unshown = false;
        } else if moved {
            unshown = true;
        }
        if m.mentions.contains(&UserId(1)) {
            asked += 1;
            assert!(
                !unshown,
                "`{}` asks to move without the board",
                m.to_english()
            );
        }
    }
    assert!(asked > 10, "{asked} turns of the human");
}

// ----- texts -----

#[test]
fn refusals_speak_of_what_the_player_did() {
    let tables = seeded(unlimited(Settings::default()), 13);
    HERE.begin(&tables, 60, start(Variant::Classic, None), &[1, 2], 0);
    let user = human_to_move(&tables, 60).expect("a human");
    let p = playing(&tables, 60);
    let seat = p.seat_of(user).expect("seated");
    let hand: Vec<Card> = p.live.game().hand(seat).to_vec();
    // `/sequence remove` in a card game points to the one-eyed jacks.
    refused(
        &tables,
        60,
        user.0,
        Command::Remove { cell: "C3".into() },
        "one-eyed jack",
    );
    // A card that is not in the hand: the hand is listed, privately.
    let missing = [
        "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "QS", "KS", "AS",
    ]
    .into_iter()
    .filter_map(|c| Card::parse(c, Variant::Classic))
    .find(|c| !hand.contains(c))
    .expect("a card not in a hand of 7");
    let reply = HERE.ask(
        &tables,
        60,
        user.0,
        Command::Play {
            card: Some(missing.to_string()),
            cell: "B2".into(),
        },
    );
    assert!(reply.is_refusal());
    assert!(matches!(reply.outputs.as_slice(), [Output::Ephemeral(_)]));
    let text = all_text(&reply);
    assert!(text.contains("not in your hand. Your cards:"), "{text}");
    for card in &hand {
        assert!(
            text.contains(&crate::service::text::card_label(*card, Lang::En)),
            "{text}"
        );
    }
}

#[test]
fn dice_refusals_speak_of_the_roll_and_a_an_reads_well() {
    let tables = seeded(unlimited(Settings::default()), 14);
    // Games until the first player rolls a plain number (not 10 or 11, and a cell is free for it).
    let mut checked = false;
    for channel in 61..120 {
        HERE.begin(&tables, channel, start(Variant::Dice, None), &[1, 2], 0);
        let user = human_to_move(&tables, channel).expect("a human starts");
        assert!(!HERE
            .ask(&tables, channel, user.0, Command::Roll)
            .is_refusal());
        let p = playing(&tables, channel);
        let game = p.live.game();
        let pos = game.position();
        let plain = pos.roll().is_some_and(|[a, b]| a + b != 10 && a + b != 11);
        if !plain || human_to_move(&tables, channel) != Some(user) || !p.rolled {
            HERE.ask(&tables, channel, 1, Command::Stop);
            continue;
        }
        let total = pos.roll().map_or(0, |[a, b]| a + b);
        let layout = pos.layout();
        let wrong = (0..layout.len())
            .filter_map(|i| u8::try_from(i).ok().map(Cell))
            .find(|&c| {
                pos.owner(c).is_none()
                    && layout.corners & c.bit() == 0
                    && game.check(pos.to_move(), Move::Place { cell: c })
                        == Err(crate::engine::PlayError::CardDoesNotMatch)
            })
            .expect("a free cell of another number");
        let reply = HERE.ask(
            &tables,
            channel,
            user.0,
            Command::Play {
                card: None,
                cell: layout.cell_name(wrong),
            },
        );
        assert!(reply.is_refusal());
        let text = all_text(&reply);
        assert!(
            text.contains(&format!("That cell does not fit your roll of {total}.")),
            "{text}"
        );
        assert!(!text.contains("card"), "{text}");
        checked = true;
        break;
    }
    assert!(checked, "no plain roll in many games");
    let rolled = |n: u8, hint| Text::Rolled {
        who: Who::User(UserId(1)),
        dice: [4, n - 4],
        hint,
    };
    let text = rolled(8, RollHint::Number(8)).to_string();
    assert!(text.contains("place a chip on an 8 cell"), "{text}");
    let text = rolled(6, RollHint::Number(6)).to_string();
    assert!(text.contains("place a chip on a 6 cell"), "{text}");
    let text = rolled(8, RollHint::Replace(8)).to_string();
    assert!(text.contains("chip on an 8 cell"), "{text}");
    assert_eq!(TeamName::of(Variant::Dice, 0).number, 1);
}

// ----- Sequence Dice: the next roll is never shown before the player rolls -----

/// The roll shown to `user` in the status and offered by autocomplete, and whether the board image
/// descriptor of `reply` (if any) holds a roll.
fn shown_roll(tables: &Tables, channel: u64, user: u64) -> (Option<[u8; 2]>, usize) {
    let status = HERE.ask(tables, channel, user, Command::Status);
    let roll = status.outputs.iter().find_map(|o| match o {
        Output::Ephemeral(m) => m.lines.iter().find_map(|l| match l {
            Text::Status(info) => Some(info.roll),
            _ => None,
        }),
        _ => None,
    });
    let cells = tables
        .complete_cell(ChannelId(channel), UserId(user), None, "", Lang::En)
        .len();
    (roll.expect("a status"), cells)
}

fn board_roll(reply: &Reply) -> Option<Option<[u8; 2]>> {
    channel_messages(reply)
        .iter()
        .rev()
        .find_map(|m| match &m.image {
            Some(Image::Board(board)) => Some(board.view().position.roll()),
            _ => None,
        })
}

#[test]
fn dice_show_no_roll_before_the_player_rolls() {
    let tables = seeded(unlimited(Settings::default()), 17);
    let begun = HERE.begin(&tables, 70, start(Variant::Dice, None), &[1, 2], 0);
    assert_eq!(
        board_roll(&begun),
        Some(None),
        "the first board shows no roll"
    );
    for _ in 0..6 {
        let mover = human_to_move(&tables, 70).expect("a human").0;
        let other = 3 - mover;
        // Before rolling: nothing in the status, nothing offered, for the mover or anyone else.
        assert_eq!(shown_roll(&tables, 70, mover), (None, 0));
        assert_eq!(shown_roll(&tables, 70, other), (None, 0));
        assert_eq!(
            playing(&tables, 70)
                .live
                .game()
                .public_view()
                .position
                .roll(),
            None
        );
        let rolled = HERE.ask(&tables, 70, mover, Command::Roll);
        assert!(!rolled.is_refusal());
        let p = playing(&tables, 70);
        if human_to_move(&tables, 70) != Some(UserId(mover)) || !p.rolled {
            // The roll allowed nothing and the turn passed: the next player has not rolled either.
            continue;
        }
        // Rolled: the mover is offered the cells of this roll.
        let (roll, cells) = shown_roll(&tables, 70, mover);
        assert!(roll.is_some() && cells > 0);
        let game = p.live.game();
        let mut legal = MoveList::new();
        game.view(game.position().to_move()).legal_moves(&mut legal);
        let layout = game.position().layout();
        let command = match legal[0] {
            Move::Place { cell } => Command::Play {
                card: None,
                cell: layout.cell_name(cell),
            },
            Move::Remove { cell } => Command::Remove {
                cell: layout.cell_name(cell),
            },
            other => panic!("unexpected {other:?}"),
        };
        let moved = HERE.ask(&tables, 70, mover, command);
        assert!(!moved.is_refusal(), "{moved:?}");
        if tables.snapshot(ChannelId(70)).is_none() {
            break;
        }
        // The board after the move shows no roll of the next turn.
        if let Some(roll) = board_roll(&moved) {
            assert_eq!(roll, None, "the board shows the next roll");
        }
    }
}
