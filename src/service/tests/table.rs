//! The whole flow offline: lobby, deal, moves, win; every refusal; privacy of hands; concurrency.

use std::sync::Arc;
use std::time::Duration;

use crate::engine::{Card, GameRng, Move, MoveList, Options, Record, Status, Variant};

use crate::i18n::Lang;

use super::kit::{
    ask, begin_game, channel_messages, command_for, join, seeded, service, start, state,
    test_actor, text_of, Recorder, Start, DM, T0,
};
use crate::service::text::TeamName;
use crate::service::{
    action_rows, Actor, BotLevel, Button, ChannelId, Command, Image, MovePicker, Output,
    RandomPicker, Reply, Request, Settings, Table, Tables, Text, UserId,
};

fn channel_texts(reply: &Reply) -> Vec<String> {
    reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Channel(m) | Output::Lobby { message: m, .. } => Some(m.to_english()),
            _ => None,
        })
        .collect()
}

fn dm_users(reply: &Reply) -> Vec<UserId> {
    reply
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Direct { user, .. } => Some(*user),
            _ => None,
        })
        .collect()
}

fn assert_refused(reply: &Reply, contains: &str) {
    assert!(reply.is_refusal(), "expected a refusal, got {reply:?}");
    let text = text_of(reply);
    assert!(
        text.contains(contains),
        "refusal `{text}` does not contain `{contains}`"
    );
}

/// Refused, and the table is unchanged.
fn refused_unchanged(tables: &Tables, channel: u64, user: u64, command: Command, contains: &str) {
    let before = state(tables, channel);
    let reply = ask(tables, channel, user, command);
    assert_refused(&reply, contains);
    assert_eq!(
        before,
        state(tables, channel),
        "a refusal changed the table"
    );
}

/// Every human's hand in a table.
fn hands(tables: &Tables, channel: u64) -> Vec<(UserId, Vec<Card>)> {
    let Some(table) = tables.snapshot(ChannelId(channel)) else {
        return Vec::new();
    };
    let Some(playing) = table.playing() else {
        return Vec::new();
    };
    playing
        .seats
        .iter()
        .enumerate()
        .filter_map(|(seat, p)| {
            p.user()
                .map(|u| (u, playing.live.game().hand(seat as u8).to_vec()))
        })
        .collect()
}

fn mentions_card(text: &str, card: Card) -> bool {
    if card.is_kids() {
        let name = card.to_string();
        text.split(|c: char| !c.is_alphanumeric())
            .any(|word| word.eq_ignore_ascii_case(&name))
    } else {
        text.contains(&card.pretty())
    }
}

/// Checks privacy: no hand card appears in channel output unless the reply names it as played; images
/// in the channel are public boards; DMs go only to `dm_ok` and carry the recipient's own hand.
fn check_privacy(reply: &Reply, hands_seen: &[(UserId, Vec<Card>)], dm_ok: &[UserId]) {
    let mut public: Vec<Card> = Vec::new();
    for output in &reply.outputs {
        if let Output::Channel(m) = output {
            for line in &m.lines {
                match line {
                    Text::Played { card, .. } | Text::Exchanged { card, .. } => public.push(*card),
                    Text::Removed {
                        card: Some(card), ..
                    } => public.push(*card),
                    _ => {}
                }
            }
        }
    }
    for output in &reply.outputs {
        match output {
            Output::Channel(m) | Output::Lobby { message: m, .. } => {
                let text = m.to_english();
                for (user, hand) in hands_seen {
                    for &card in hand {
                        assert!(
                            public.contains(&card) || !mentions_card(&text, card),
                            "{user:?}'s card {card} appears in the channel: {text}"
                        );
                    }
                }
                match &m.image {
                    Some(Image::Board(board)) => {
                        assert_eq!(board.view().seat, None);
                        assert!(board.view().hand.is_empty());
                    }
                    Some(Image::Hand(_)) => panic!("a hand image in the channel"),
                    // A finished game's public boards, move by move: no hand is drawn; a profile
                    // card has figures only.
                    Some(Image::Replay(_) | Image::Profile(_)) | None => {}
                }
            }
            Output::Direct { user, message } => {
                assert!(dm_ok.contains(user), "unexpected DM to {user:?}");
                if let Some(Image::Hand(hand)) = &message.image {
                    let own = hands_seen
                        .iter()
                        .filter(|(u, _)| u == user)
                        .any(|(_, cards)| *cards == hand.view().hand);
                    assert!(own, "a DM to {user:?} shows a hand that is not theirs");
                }
            }
            Output::Ephemeral(_) | Output::Update(_) | Output::Disarm { .. } => {}
        }
    }
}

/// What a finished game produced.
pub(super) struct Finished {
    pub(super) final_text: String,
    pub(super) record: Record,
    exchanges: usize,
    moves: usize,
}

/// Plays a game to its end through the service: every human moves with a random legal move of their
/// own view, computer players through `run_auto`. Checks privacy and DM recipients on every reply.
pub(super) async fn play_out(tables: &Tables, channel: u64, seed: u64) -> Finished {
    let mut rng = GameRng::new(seed);
    let mut exchanges = 0;
    let mut moves = 0;
    for _ in 0..5000 {
        let Some(table) = tables.snapshot(ChannelId(channel)) else {
            panic!("table vanished before the end");
        };
        let playing = table.playing().expect("game running");
        let game = playing.live.game();
        let seat = game.position().to_move();
        let player = playing.seats[usize::from(seat)].clone();
        let Some(user) = player.user() else {
            // A computer player is to move: the service plays it.
            let before = hands(tables, channel);
            let replies = tables.run_auto(ChannelId(channel), T0).await;
            assert!(!replies.is_empty(), "a computer player did not move");
            for reply in &replies {
                let mut seen = before.clone();
                seen.extend(hands(tables, channel));
                check_privacy(reply, &seen, &[]);
                if let Some(done) = finished(reply) {
                    return Finished {
                        moves,
                        exchanges,
                        ..done
                    };
                }
            }
            continue;
        };
        if !game.config().variant.has_cards() && !playing.rolled {
            let reply = ask(tables, channel, user.0, Command::Roll);
            assert!(!reply.is_refusal(), "roll refused: {reply:?}");
            assert!(text_of(&reply).contains("rolled"));
            if let Some(done) = finished(&reply) {
                return Finished {
                    moves,
                    exchanges,
                    ..done
                };
            }
            continue;
        }
        let view = game.view(seat);
        let mut legal = MoveList::new();
        view.legal_moves(&mut legal);
        let mv = legal[rng.below(legal.len() as u32) as usize];
        assert_ne!(mv, Move::Pass, "the service should have passed for them");
        let before = hands(tables, channel);
        let reply = ask(
            tables,
            channel,
            user.0,
            command_for(mv, game.position().layout()),
        );
        assert!(!reply.is_refusal(), "legal move {mv:?} refused: {reply:?}");
        moves += 1;
        if matches!(mv, Move::Exchange { .. }) {
            exchanges += 1;
            // An exchange names the card but shows no new board and does not pass the turn.
            let channel_msgs = channel_messages(&reply);
            assert!(
                channel_msgs
                    .iter()
                    .all(|m| m.image.is_none()
                        || m.lines.iter().any(|l| matches!(l, Text::Passed(_))))
            );
        }
        let mut seen = before.clone();
        seen.extend(hands(tables, channel));
        let dm_ok: Vec<UserId> = if game.config().variant.has_cards() {
            vec![user]
        } else {
            Vec::new()
        };
        check_privacy(&reply, &seen, &dm_ok);
        let done = finished(&reply);
        if game.config().variant.has_cards() && done.is_none() {
            assert_eq!(
                dm_users(&reply),
                vec![user],
                "the mover gets their new hand"
            );
        }
        if let Some(done) = done {
            return Finished {
                moves,
                exchanges,
                ..done
            };
        }
        if reply.auto_move {
            continue;
        }
    }
    panic!("the game did not end");
}

/// The final message of a game, if this reply ends it.
fn finished(reply: &Reply) -> Option<Finished> {
    reply.outputs.iter().find_map(|o| match o {
        Output::Channel(m) if m.attachment.is_some() => {
            let attachment = m.attachment.as_ref()?;
            let record: Record = serde_json::from_slice(&attachment.data).ok()?;
            assert!(matches!(m.image, Some(Image::Board(_))), "final board");
            Some(Finished {
                final_text: m.to_english(),
                record,
                exchanges: 0,
                moves: 0,
            })
        }
        _ => None,
    })
}

#[tokio::test]
async fn classic_lobby_deal_moves_win() {
    let tables = service(7);
    let reply = ask(&tables, 1, 10, start(Variant::Classic, None));
    // The lobby message has the buttons and lists the host.
    match &reply.outputs[0] {
        Output::Lobby {
            message_id: None,
            message,
        } => {
            assert!(message.to_english().contains("<@10>"));
            assert_eq!(
                message.buttons,
                vec![
                    Button::Join,
                    Button::Leave,
                    Button::AddBot,
                    Button::Begin,
                    Button::Cancel
                ]
            );
        }
        other => panic!("expected the lobby message, got {other:?}"),
    }
    tables.set_lobby_message(ChannelId(1), 555);
    let reply = ask(&tables, 1, 11, join(None));
    assert!(matches!(
        reply.outputs[0],
        Output::Lobby {
            message_id: Some(555),
            ..
        }
    ));
    assert!(channel_texts(&reply)[0].contains("<@11>"));

    let reply = ask(&tables, 1, 10, Command::Begin);
    assert!(!reply.is_refusal());
    // Both players get their own hand by DM, and nobody else does.
    let mut dms = dm_users(&reply);
    dms.sort();
    assert_eq!(dms, vec![UserId(10), UserId(11)]);
    let seen = hands(&tables, 1);
    assert_eq!(seen.len(), 2);
    assert!(seen.iter().all(|(_, h)| h.len() == 7));
    check_privacy(&reply, &seen, &[UserId(10), UserId(11)]);
    // The board is posted and the first player mentioned.
    let board = reply
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Channel(m) => Some(m),
            _ => None,
        })
        .unwrap();
    assert!(matches!(board.image, Some(Image::Board(_))));
    let first = tables
        .snapshot(ChannelId(1))
        .unwrap()
        .playing()
        .unwrap()
        .seats[0]
        .user()
        .unwrap();
    assert_eq!(board.mentions, vec![first]);
    assert!(board
        .to_english()
        .contains(&format!("<@{}>, it is your turn", first.0)));
    // The lobby message is edited to say the game started, without buttons.
    assert!(reply.outputs.iter().any(|o| matches!(o,
        Output::Lobby { message_id: Some(555), message } if message.buttons.is_empty()
            && message.to_english().contains("has started"))));

    let done = play_out(&tables, 1, 99).await;
    assert!(done.final_text.contains("🏆"), "{}", done.final_text);
    assert!(done.final_text.contains("The game record is attached"));
    let game = done.record.replay().unwrap().unwrap();
    assert!(matches!(game.position().status(), Status::Won(_)));
    assert!(done.record.actions.len() >= done.moves);
    // The table is gone: the channel is free for a new game.
    assert!(tables.snapshot(ChannelId(1)).is_none());
    assert!(!ask(&tables, 1, 11, start(Variant::Classic, None)).is_refusal());
}

#[tokio::test]
async fn dice_game_with_rolls() {
    let tables = service(3);
    let reply = begin_game(&tables, 2, Variant::Dice, &[20, 21], 0);
    // Dice has no hands: no DMs.
    assert!(dm_users(&reply).is_empty());
    assert!(reply.outputs.iter().any(|o| matches!(o, Output::Channel(m)
            if action_rows(m).concat().iter().any(|c| c.id().ends_with(":roll")))));
    let to_move = |t: &Tables| {
        let table = t.snapshot(ChannelId(2)).unwrap();
        let p = table.playing().unwrap();
        p.seats[usize::from(p.live.game().position().to_move())]
            .user()
            .unwrap()
            .0
    };
    let mover = to_move(&tables);
    // Placing before rolling is refused, and so is a card.
    refused_unchanged(
        &tables,
        2,
        mover,
        Command::Play {
            card: None,
            cell: "A1".into(),
        },
        "Roll the dice first",
    );
    refused_unchanged(
        &tables,
        2,
        mover,
        Command::Play {
            card: Some("7H".into()),
            cell: "A1".into(),
        },
        "has no cards",
    );
    refused_unchanged(&tables, 2, mover, Command::Hand, "has no cards");
    assert!(tables
        .complete_cell(ChannelId(2), UserId(mover), None, "", Lang::En)
        .is_empty());
    let reply = ask(&tables, 2, mover, Command::Roll);
    let text = text_of(&reply);
    assert!(text.contains("rolled"), "{text}");
    refused_unchanged(&tables, 2, mover, Command::Roll, "already rolled");
    // After the roll, autocomplete offers exactly the legal cells (unless the roll passed the turn).
    if to_move(&tables) == mover {
        let table = tables.snapshot(ChannelId(2)).unwrap();
        let game = table.playing().unwrap().live.game();
        let mut legal = MoveList::new();
        game.legal_moves(&mut legal);
        let choices = tables.complete_cell(ChannelId(2), UserId(mover), None, "", Lang::En);
        assert_eq!(choices.len(), legal.len().min(25));
    }
    let done = play_out(&tables, 2, 5).await;
    assert!(
        done.final_text.contains("🏆") || done.final_text.contains("draw"),
        "{}",
        done.final_text
    );
    let game = done.record.replay().unwrap().unwrap();
    assert!(game.position().is_over());
    assert!(tables.is_empty());
}

/// A dead card exchanged is not a post of its own: the player is told privately (with the new hand
/// by DM), and the channel hears of it in the post of the move that follows (issue 44.9).
#[tokio::test]
async fn a_dead_card_exchange_is_posted_with_the_move_after_it() {
    let tables = service(44);
    let mut rng = GameRng::new(44);
    let mut exchanges = 0;
    for channel in 70..90 {
        begin_game(&tables, channel, Variant::Classic, &[1, 2], 0);
        for _ in 0..400 {
            let Some(table) = tables.snapshot(ChannelId(channel)) else {
                break;
            };
            let playing = table.playing().expect("a game");
            let game = playing.live.game();
            let seat = game.position().to_move();
            let user = playing.seats[usize::from(seat)].user().expect("a person");
            let layout = game.position().layout();
            let mut legal = MoveList::new();
            game.view(seat).legal_moves(&mut legal);
            let Some(&exchange) = legal.iter().find(|m| matches!(m, Move::Exchange { .. })) else {
                let moves: Vec<Move> = legal.iter().copied().collect();
                let mv = moves[rng.below(moves.len() as u32) as usize];
                assert!(!ask(&tables, channel, user.0, command_for(mv, layout)).is_refusal());
                continue;
            };
            let Move::Exchange { card } = exchange else {
                unreachable!()
            };
            let reply = ask(&tables, channel, user.0, command_for(exchange, layout));
            assert!(!reply.is_refusal(), "{reply:?}");
            let after = super::kit::playing(&tables, channel);
            if after.game().position().to_move() != seat {
                // The new card left no move either: the turn was passed, and that is posted.
                continue;
            }
            assert!(
                !reply
                    .outputs
                    .iter()
                    .any(|o| matches!(o, Output::Channel(_))),
                "no post for the exchange alone: {reply:?}"
            );
            let private = reply
                .outputs
                .iter()
                .find_map(|o| match o {
                    Output::Ephemeral(m) => Some(m.to_english()),
                    _ => None,
                })
                .expect("the player is told");
            assert!(private.contains("exchanged the dead card"), "{private}");
            assert_eq!(dm_users(&reply), vec![user], "the new hand by DM");
            // The move after it: one post, the exchange first, then the move.
            let game = after.game();
            let mut legal = MoveList::new();
            game.view(seat).legal_moves(&mut legal);
            let mv = *legal
                .iter()
                .find(|m| matches!(m, Move::Play { .. }))
                .expect("a move after the exchange");
            let reply = ask(
                &tables,
                channel,
                user.0,
                command_for(mv, game.position().layout()),
            );
            let posts = channel_messages(&reply);
            let [post] = posts.as_slice() else {
                panic!("one post for the exchange and the move: {reply:?}");
            };
            let exchanged = post
                .lines
                .iter()
                .position(|l| matches!(l, Text::Exchanged { card: c, .. } if *c == card));
            let played = post
                .lines
                .iter()
                .position(|l| matches!(l, Text::Played { .. } | Text::Removed { .. }));
            assert!(
                matches!((exchanged, played), (Some(e), Some(p)) if e < p),
                "{}",
                post.to_english()
            );
            exchanges += 1;
        }
        if exchanges >= 3 {
            break;
        }
    }
    assert!(exchanges >= 3, "only {exchanges} exchanges were tried");
}

/// A `scoring` game ends when nobody can move for a whole round: the final message says why, who
/// won and on what count (issue 44.10), not only that the last player passed.
#[tokio::test]
async fn a_blocked_board_says_why_the_game_ended_and_on_what_count() {
    let mut endings = Vec::new();
    for seed in 0..3 {
        let tables = service(40 + seed);
        let channel = 60 + seed;
        let scoring = Start {
            options: Options {
                scoring: true,
                ..Options::default()
            },
            ..Start::of(Variant::Classic)
        };
        let reply = DM.begin(&tables, channel, scoring.command(), &[1, 2], 0);
        assert!(!reply.is_refusal(), "{reply:?}");
        let done = play_out(&tables, channel, seed).await;
        let game = done.record.replay().unwrap().unwrap();
        let scores = game.position().scores();
        let count = scores
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("–");
        let text = done.final_text;
        assert!(
            text.contains("has no possible move and passes"),
            "a scoring game ends blocked: {text}"
        );
        let why = match game.position().status() {
            Status::Won(team) => format!(
                "Nobody could move for a whole round: the board is blocked, so {} wins on sequences ({count}).",
                TeamName::of(Variant::Classic, team).render(Lang::En)
            ),
            _ => format!(
                "Nobody could move for a whole round: the board is blocked, so the game is a draw ({count})."
            ),
        };
        assert!(text.contains(&why), "`{why}` in: {text}");
        endings.push(text);
    }
    assert_eq!(endings.len(), 3);
}

#[tokio::test]
async fn kids_game_with_a_computer_player() {
    let tables = service(11);
    let reply = begin_game(&tables, 3, Variant::Kids, &[30, 31], 1);
    // Only the two humans get a DM, each with their own hand.
    let mut dms = dm_users(&reply);
    dms.sort();
    assert_eq!(dms, vec![UserId(30), UserId(31)]);
    check_privacy(&reply, &hands(&tables, 3), &[UserId(30), UserId(31)]);
    let table = tables.snapshot(ChannelId(3)).unwrap();
    let seats = &table.playing().unwrap().seats;
    assert_eq!(seats.iter().filter(|p| p.user().is_none()).count(), 1);
    let done = play_out(&tables, 3, 8).await;
    assert!(
        done.final_text.contains("🏆") || done.final_text.contains("draw"),
        "{}",
        done.final_text
    );
    assert!(done.record.replay().unwrap().unwrap().position().is_over());
}

#[tokio::test]
async fn computer_player_moves_first_and_alone() {
    let tables = service(5);
    // Two bots and one human: the first seat may be a bot; run_auto plays until a human is to move.
    let reply = begin_game(&tables, 4, Variant::Classic, &[40], 2);
    if reply.auto_move {
        let replies = tables.run_auto(ChannelId(4), T0).await;
        assert!(!replies.is_empty());
        assert!(replies.iter().all(|r| dm_users(r).is_empty()));
    }
    let table = tables.snapshot(ChannelId(4)).unwrap();
    let p = table.playing().unwrap();
    let to_move = p.live.game().position().to_move();
    assert_eq!(p.seats[usize::from(to_move)].user(), Some(UserId(40)));
    // Nothing is due while the human thinks.
    assert!(tables.auto_step(ChannelId(4), T0).await.is_none());
}

#[test]
fn teams_follow_wishes_and_are_validated() {
    let tables = service(1);
    assert!(!ask(
        &tables,
        5,
        1,
        Start {
            teams: Some(2),
            ..Start::of(Variant::Classic)
        }
        .command()
    )
    .is_refusal());
    refused_unchanged(&tables, 5, 2, Command::Join { team: Some(3) }, "no team 3");
    refused_unchanged(&tables, 5, 2, Command::Join { team: Some(0) }, "no team 0");
    for (user, team) in [(2, Some(1)), (3, Some(2)), (4, Some(2))] {
        assert!(!ask(&tables, 5, user, Command::Join { team }).is_refusal());
    }
    // Player 1 (no wish) fills team 1: seats 0 and 2 are team 1, seats 1 and 3 team 2.
    assert!(!ask(&tables, 5, 1, Command::Begin).is_refusal());
    let table = tables.snapshot(ChannelId(5)).unwrap();
    let p = table.playing().unwrap();
    let team_of = |u: u64| p.seat_of(UserId(u)).unwrap() % 2;
    assert_eq!(team_of(2), 0);
    assert_eq!(team_of(1), 0);
    assert_eq!(team_of(3), 1);
    assert_eq!(team_of(4), 1);

    // Three players wishing for one team of two cannot start.
    let tables = service(1);
    ask(
        &tables,
        6,
        1,
        Start {
            teams: Some(2),
            ..Start::of(Variant::Classic)
        }
        .command(),
    );
    ask(&tables, 6, 1, Command::Leave);
    ask(
        &tables,
        6,
        1,
        Start {
            teams: Some(2),
            ..Start::of(Variant::Classic)
        }
        .command(),
    );
    for user in [2, 3, 4] {
        ask(&tables, 6, user, Command::Join { team: Some(1) });
    }
    refused_unchanged(&tables, 6, 1, Command::Begin, "each team has 2 players");
    // A team count the game never has is refused at start.
    let reply = ask(
        &tables,
        7,
        1,
        Start {
            teams: Some(4),
            ..Start::of(Variant::Dice)
        }
        .command(),
    );
    assert_refused(&reply, "cannot be played in 4 teams");
    // So is an option the game does not have.
    let reply = ask(
        &tables,
        7,
        1,
        Start {
            options: Options {
                scoring: true,
                ..Options::default()
            },
            ..Start::of(Variant::Kids)
        }
        .command(),
    );
    assert_refused(&reply, "scoring");
    assert!(tables.snapshot(ChannelId(7)).is_none());
}

#[test]
fn lobby_refusals_change_nothing() {
    let tables = service(2);
    refused_unchanged(&tables, 8, 1, Command::Begin, "no game in this channel");
    refused_unchanged(&tables, 8, 1, Command::Hand, "no game in this channel");
    assert!(!ask(&tables, 8, 1, start(Variant::Classic, None)).is_refusal());
    refused_unchanged(
        &tables,
        8,
        2,
        start(Variant::Dice, None),
        "already has a game",
    );
    refused_unchanged(
        &tables,
        8,
        1,
        start(Variant::Classic, None),
        "already has a game",
    );
    refused_unchanged(&tables, 8, 1, join(None), "already joined");
    // One player cannot start.
    refused_unchanged(
        &tables,
        8,
        1,
        Command::Begin,
        "cannot be played by 1 player:",
    );
    assert!(!ask(&tables, 8, 2, join(None)).is_refusal());
    // Only the host (or a moderator) starts, cancels, adds bots.
    refused_unchanged(&tables, 8, 2, Command::Begin, "Only the host");
    refused_unchanged(&tables, 8, 2, Command::Cancel, "Only the host");
    refused_unchanged(&tables, 8, 2, Command::Stop, "Only the host");
    refused_unchanged(
        &tables,
        8,
        2,
        Command::AddBot { level: None },
        "Only the host",
    );
    refused_unchanged(&tables, 8, 1, Command::RemoveBot, "no computer player");
    refused_unchanged(&tables, 8, 3, Command::Leave, "not playing");
    // Game commands before the start.
    for command in [
        Command::Play {
            card: Some("7H".into()),
            cell: "D6".into(),
        },
        Command::Hand,
        Command::Board,
        Command::Roll,
    ] {
        refused_unchanged(&tables, 8, 1, command, "has not started");
    }
    // Five players cannot play classic Sequence.
    for user in [3, 4, 5] {
        assert!(!ask(&tables, 8, user, join(None)).is_refusal());
    }
    refused_unchanged(
        &tables,
        8,
        1,
        Command::Begin,
        "cannot be played by 5 players",
    );
    // A full lobby refuses more players.
    let tables = service(2);
    ask(&tables, 9, 1, start(Variant::Kids, None));
    for user in 2..=4 {
        assert!(!ask(&tables, 9, user, join(None)).is_refusal());
    }
    refused_unchanged(&tables, 9, 5, join(None), "at most 4 players");
    refused_unchanged(&tables, 9, 1, Command::AddBot { level: None }, "at most 4");
}

#[test]
fn moderator_can_stop_and_host_handover() {
    let tables = service(4);
    ask(&tables, 10, 1, start(Variant::Classic, None));
    ask(&tables, 10, 2, join(None));
    // The host leaves: player 2 becomes host.
    let reply = ask(&tables, 10, 1, Command::Leave);
    assert!(channel_texts(&reply)[0].contains("<@2> is the host now"));
    assert_eq!(tables.snapshot(ChannelId(10)).unwrap().host, UserId(2));
    // The last human leaves: the lobby closes.
    let reply = ask(&tables, 10, 2, Command::Leave);
    assert!(channel_texts(&reply)[0].contains("everyone left"));
    assert!(tables.snapshot(ChannelId(10)).is_none());

    begin_game(&tables, 11, Variant::Classic, &[1, 2], 0);
    let moderator = Actor {
        user: UserId(99),
        name: "Mod".into(),
        can_manage: true,
        can_manage_guild: false,
    };
    let reply = tables.handle(
        Request {
            guild: None,
            channel: ChannelId(11),
            actor: moderator,
            command: Command::Stop,
        },
        T0,
    );
    assert!(!reply.is_refusal());
    let done = finished(&reply).expect("final message with the record");
    assert!(done.final_text.contains("stopped by <@99>"));
    assert!(tables.snapshot(ChannelId(11)).is_none());
}

#[test]
fn card_game_refusals_change_nothing() {
    let tables = service(21);
    begin_game(&tables, 12, Variant::Classic, &[1, 2], 0);
    let table = tables.snapshot(ChannelId(12)).unwrap();
    let p = table.playing().unwrap();
    let game = p.live.game();
    let mover_seat = game.position().to_move();
    let mover = p.seats[usize::from(mover_seat)].user().unwrap().0;
    let other = if mover == 1 { 2 } else { 1 };
    let other_seat = p.seat_of(UserId(other)).unwrap();
    let my_hand = game.hand(mover_seat).to_vec();
    let their_hand = game.hand(other_seat).to_vec();
    let layout = game.position().layout();
    // A card the mover does not hold (any card they hold twice less than two copies works).
    let missing = (0..52u8)
        .map(Card)
        .find(|c| !my_hand.contains(c) && c.rank() != 9)
        .unwrap();
    let missing_cell = layout.cell_name(
        crate::engine::BitIter(layout.cells_of_card(missing))
            .next()
            .unwrap(),
    );
    let playable = my_hand
        .iter()
        .copied()
        .find(|c| c.effect() == crate::engine::CardEffect::Cells)
        .unwrap();
    let wrong_cell = (0..100u8)
        .map(crate::engine::Cell)
        .find(|&c| layout.cells_of_card(playable) & c.bit() == 0 && layout.corners & c.bit() == 0)
        .unwrap();
    let play = |card: &str, cell: &str| Command::Play {
        card: Some(card.to_string()),
        cell: cell.to_string(),
    };
    refused_unchanged(
        &tables,
        12,
        other,
        play(&their_hand[0].to_string(), "D6"),
        "not your turn",
    );
    refused_unchanged(&tables, 12, 3, play("7H", "D6"), "not playing");
    refused_unchanged(
        &tables,
        12,
        mover,
        play(&missing.to_string(), &missing_cell),
        "not in your hand",
    );
    refused_unchanged(&tables, 12, mover, play("XYZ", "D6"), "is not a card");
    refused_unchanged(
        &tables,
        12,
        mover,
        play(&playable.to_string(), "Z99"),
        "not a cell of this board",
    );
    refused_unchanged(
        &tables,
        12,
        mover,
        play(&playable.to_string(), &layout.cell_name(wrong_cell)),
        "can go on",
    );
    refused_unchanged(
        &tables,
        12,
        mover,
        play(&playable.to_string(), "A1"),
        "corners",
    );
    refused_unchanged(
        &tables,
        12,
        mover,
        Command::Play {
            card: None,
            cell: "D6".into(),
        },
        "Name the card",
    );
    refused_unchanged(
        &tables,
        12,
        mover,
        Command::Exchange {
            card: playable.to_string(),
        },
        "not dead",
    );
    refused_unchanged(&tables, 12, mover, Command::Roll, "Only Sequence Dice");
    refused_unchanged(&tables, 12, mover, join(None), "already started");
    refused_unchanged(&tables, 12, 3, join(None), "already started");
    refused_unchanged(&tables, 12, 1, Command::Cancel, "already started");
    refused_unchanged(&tables, 12, 1, Command::Begin, "already started");
    refused_unchanged(&tables, 12, 3, Command::Stop, "Only the host");
    refused_unchanged(&tables, 12, 3, Command::Hand, "not playing");
    refused_unchanged(
        &tables,
        12,
        3,
        Command::Forfeit { game: None },
        "not playing",
    );

    // The hand is private and complete; status and board are fine for anyone.
    let reply = ask(&tables, 12, other, Command::Hand);
    match reply.outputs.as_slice() {
        [Output::Ephemeral(m)] => {
            let text = m.to_english();
            for card in &their_hand {
                assert!(text.contains(&card.pretty()), "{text}");
            }
            assert!(matches!(&m.image, Some(Image::Hand(h)) if h.view().hand == their_hand));
        }
        other => panic!("hand must be one ephemeral message: {other:?}"),
    }
    let reply = ask(&tables, 12, 3, Command::Board);
    check_privacy(&reply, &hands(&tables, 12), &[]);
    assert!(matches!(&reply.outputs[..], [Output::Channel(m)] if m.image.is_some()));
    let reply = ask(&tables, 12, 3, Command::Status);
    assert!(matches!(&reply.outputs[..], [Output::Ephemeral(_)]));
    let text = text_of(&reply);
    assert!(text.contains("7 cards"), "{text}");
    for card in my_hand.iter().chain(&their_hand) {
        assert!(
            !text.contains(&card.pretty()),
            "status shows a card: {text}"
        );
    }
}

#[test]
fn autocomplete_only_offers_own_cards_and_legal_cells() {
    let tables = service(31);
    begin_game(&tables, 13, Variant::Classic, &[1, 2], 0);
    let table = tables.snapshot(ChannelId(13)).unwrap();
    let p = table.playing().unwrap();
    let game = p.live.game();
    for user in [1u64, 2] {
        let seat = p.seat_of(UserId(user)).unwrap();
        let hand = game.hand(seat);
        let choices = tables.complete_card(ChannelId(13), UserId(user), "", Lang::En);
        assert!(!choices.is_empty());
        for choice in &choices {
            let card = Card::parse(&choice.value, Variant::Classic).unwrap();
            assert!(hand.contains(&card), "offered {card} not in the hand");
        }
        let mut distinct: Vec<Card> = hand.to_vec();
        distinct.sort();
        distinct.dedup();
        assert_eq!(choices.len(), distinct.len());
        // Cells for each card are exactly its targets.
        for &card in hand {
            let cells = tables.complete_cell(
                ChannelId(13),
                UserId(user),
                Some(&card.to_string()),
                "",
                Lang::En,
            );
            let targets = game
                .position()
                .card_targets(game.config().team_of(seat), card);
            assert_eq!(cells.len(), (targets.count_ones() as usize).min(25));
        }
        // Another player's card gives no cells.
        let other_seat = 1 - seat;
        for &card in game.hand(other_seat) {
            if !hand.contains(&card) {
                assert!(tables
                    .complete_cell(
                        ChannelId(13),
                        UserId(user),
                        Some(&card.to_string()),
                        "",
                        Lang::En
                    )
                    .is_empty());
            }
        }
    }
    // An onlooker gets nothing.
    assert!(tables
        .complete_card(ChannelId(13), UserId(3), "", Lang::En)
        .is_empty());
    assert!(tables
        .complete_cell(ChannelId(13), UserId(3), Some("7H"), "", Lang::En)
        .is_empty());
    // Typing filters.
    let seat = p.seat_of(UserId(1)).unwrap();
    let first = game.hand(seat)[0];
    let typed = first.to_string()[..1].to_lowercase();
    let filtered = tables.complete_card(ChannelId(13), UserId(1), &typed, Lang::En);
    assert!(filtered
        .iter()
        .all(|c| c.value.to_lowercase().starts_with(&typed)
            || Card::parse(&c.value, Variant::Classic)
                .unwrap()
                .pretty()
                .to_lowercase()
                .starts_with(&typed)));
    assert!(filtered.iter().any(|c| c.value == first.to_string()));
    // No dead cards at the start.
    assert!(tables
        .complete_dead_card(ChannelId(13), UserId(1), "", Lang::En)
        .is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_presses_apply_exactly_one_move() {
    let tables = Arc::new(service(41));
    begin_game(&tables, 14, Variant::Classic, &[1, 2], 0);
    let table = tables.snapshot(ChannelId(14)).unwrap();
    let p = table.playing().unwrap();
    let game = p.live.game();
    let seat = game.position().to_move();
    let mover = p.seats[usize::from(seat)].user().unwrap().0;
    let other = if mover == 1 { 2 } else { 1 };
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    let layout = game.position().layout();
    let commands: Vec<Command> = legal
        .iter()
        .filter(|m| matches!(m, Move::Play { .. }))
        .take(16)
        .map(|&m| command_for(m, layout))
        .collect();
    assert!(commands.len() > 4);
    let mut tasks = Vec::new();
    for (i, command) in commands.into_iter().enumerate() {
        let tables = tables.clone();
        // Half the presses come from the other player.
        let user = if i % 2 == 0 { mover } else { other };
        tasks.push(tokio::spawn(async move {
            tables.handle(
                Request {
                    guild: None,
                    channel: ChannelId(14),
                    actor: test_actor(user),
                    command,
                },
                T0,
            )
        }));
    }
    let mut applied = 0;
    for task in tasks {
        let reply = task.await.unwrap();
        if !reply.is_refusal() {
            applied += 1;
        }
    }
    assert_eq!(applied, 1, "exactly one press is applied");
    let after = tables.snapshot(ChannelId(14)).unwrap();
    assert_eq!(after.playing().unwrap().live.record().actions.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_channels_at_once() {
    let tables = Arc::new(service(51));
    let mut tasks = Vec::new();
    for channel in 100..124u64 {
        let tables = tables.clone();
        tasks.push(tokio::spawn(async move {
            let variant = Variant::ALL[(channel % 3) as usize];
            let users = [channel * 10, channel * 10 + 1];
            let bots = usize::from(channel % 2 == 0);
            begin_game(&tables, channel, variant, &users, bots);
            let done = play_out(&tables, channel, channel).await;
            assert!(done.record.replay().unwrap().unwrap().position().is_over());
            done.exchanges
        }));
    }
    let mut exchanges = 0;
    for task in tasks {
        exchanges += task.await.unwrap();
    }
    assert!(tables.is_empty(), "every finished table is removed");
    // Some games went through a dead-card exchange, so that path is covered too.
    assert!(exchanges > 0, "no exchange happened");
}

#[tokio::test]
async fn reminder_then_timeout_plays_for_the_idle_player() {
    let settings = Settings {
        turn_reminder: Duration::from_secs(60),
        turn_timeout: Duration::from_secs(300),
        ..Settings::default()
    };
    let tables = seeded(settings, 61);
    begin_game(&tables, 15, Variant::Classic, &[1, 2], 0);
    let table = tables.snapshot(ChannelId(15)).unwrap();
    let p = table.playing().unwrap();
    let mover = p.seats[usize::from(p.live.game().position().to_move())]
        .user()
        .unwrap();
    // Nothing before the reminder.
    assert!(tables.tick(T0.after(Duration::from_secs(30))).is_empty());
    let at = T0.after(Duration::from_secs(61));
    let ticks = tables.tick(at);
    assert_eq!(ticks.len(), 1);
    let (channel, reply) = &ticks[0];
    assert_eq!(*channel, ChannelId(15));
    assert!(!reply.auto_move);
    match &reply.outputs[..] {
        [Output::Channel(m)] => {
            assert_eq!(m.mentions, vec![mover]);
            assert!(m.to_english().contains("still your turn"));
        }
        other => panic!("expected one reminder, got {other:?}"),
    }
    // Only one reminder.
    assert!(tables.tick(T0.after(Duration::from_secs(90))).is_empty());
    assert!(tables.auto_step(ChannelId(15), at).await.is_none());
    // After the timeout, the computer plays for them.
    let late = T0.after(Duration::from_secs(301));
    let ticks = tables.tick(late);
    assert!(ticks
        .iter()
        .any(|(c, r)| *c == ChannelId(15) && r.auto_move));
    let before = hands(&tables, 15);
    let reply = tables.auto_step(ChannelId(15), late).await.expect("a move");
    let text = text_of(&reply);
    assert!(text.contains("ran out of time"), "{text}");
    let mut seen = before;
    seen.extend(hands(&tables, 15));
    check_privacy(&reply, &seen, &[mover]);
    let after = tables.snapshot(ChannelId(15)).unwrap();
    assert!(!after.playing().unwrap().live.record().actions.is_empty());
    // The next player has a fresh turn.
    assert!(tables.auto_step(ChannelId(15), late).await.is_none());
}

#[test]
fn lobby_expires() {
    let tables = service(71);
    ask(&tables, 16, 1, start(Variant::Kids, None));
    assert!(tables.tick(T0.after(Duration::from_secs(60))).is_empty());
    let ticks = tables.tick(T0.after(Duration::from_secs(3600)));
    assert_eq!(ticks.len(), 1);
    assert!(channel_texts(&ticks[0].1)[0].contains("did not start in time"));
    assert!(tables.is_empty());
}

#[tokio::test]
async fn forfeit_in_two_player_game_gives_the_win() {
    let tables = service(81);
    begin_game(&tables, 17, Variant::Classic, &[1, 2], 0);
    // Past the abort window: both made two moves (before, giving up aborts the game).
    for _ in 0..4 {
        let table = tables.snapshot(ChannelId(17)).expect("playing");
        let playing = table.playing().expect("playing");
        let game = playing.live.game();
        let seat = game.position().to_move();
        let user = playing.seats[usize::from(seat)].user().expect("a human");
        let mut legal = MoveList::new();
        game.view(seat).legal_moves(&mut legal);
        let mv = legal
            .iter()
            .copied()
            .find(|m| matches!(m, Move::Play { .. }))
            .expect("a card to play");
        let reply = ask(
            &tables,
            17,
            user.0,
            command_for(mv, game.position().layout()),
        );
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    let reply = ask(&tables, 17, 2, Command::Forfeit { game: None });
    let done = finished(&reply).expect("the game ends");
    assert!(done.final_text.contains("<@2> gave up"));
    assert!(done.final_text.contains("wins, as everyone else gave up"));
    assert!(done.final_text.contains("<@1>"));
    assert!(tables.is_empty());
}

#[tokio::test]
async fn forfeit_with_three_teams_hands_the_seat_to_a_computer() {
    let tables = service(91);
    begin_game(&tables, 18, Variant::Classic, &[1, 2, 3], 0);
    let reply = ask(&tables, 18, 3, Command::Forfeit { game: None });
    assert!(finished(&reply).is_none(), "two teams are still playing");
    assert!(text_of(&reply).contains("**Computer (easy, for Player3)** takes their seat"));
    let table = tables.snapshot(ChannelId(18)).unwrap();
    let p = table.playing().unwrap();
    assert!(p.seat_of(UserId(3)).is_none());
    assert_eq!(p.gave_up.len(), 1);
    // The game goes on to its end with the computer in that seat.
    let done = play_out(&tables, 18, 3).await;
    assert!(done.record.replay().unwrap().unwrap().position().is_over());
}

#[tokio::test]
async fn tables_survive_serialization() {
    let tables = service(101);
    begin_game(&tables, 19, Variant::Classic, &[1, 2], 0);
    // Make a few moves.
    let mut rng = GameRng::new(1);
    for _ in 0..6 {
        let table = tables.snapshot(ChannelId(19)).unwrap();
        let p = table.playing().unwrap();
        let game = p.live.game();
        let seat = game.position().to_move();
        let mut legal = MoveList::new();
        game.legal_moves(&mut legal);
        let mv = legal[rng.below(legal.len() as u32) as usize];
        let user = p.seats[usize::from(seat)].user().unwrap().0;
        ask(&tables, 19, user, command_for(mv, game.position().layout()));
    }
    let table = tables.snapshot(ChannelId(19)).unwrap();
    let json = serde_json::to_string(&table).unwrap();
    let back: Table = serde_json::from_str(&json).unwrap();
    let (a, b) = (table.playing().unwrap(), back.playing().unwrap());
    assert_eq!(a.live.game().position(), b.live.game().position());
    assert_eq!(a.live.game().all_cards(), b.live.game().all_cards());
    assert_eq!(a.seats, b.seats);
    // A restored table takes commands as before.
    let fresh = service(0);
    assert!(fresh.restore(back));
    assert!(!fresh.restore(table.clone()), "one table per channel");
    let reply = ask(&fresh, 19, 1, Command::Status);
    assert!(!reply.is_refusal());
    // A corrupted record is refused.
    let bad = json.replace(
        "\"actions\":[{",
        "\"actions\":[{\"seat\":9,\"pass\":true},{",
    );
    assert!(serde_json::from_str::<Table>(&bad).is_err());
}

#[test]
fn rules_and_buttons() {
    let tables = service(0);
    for variant in Variant::ALL {
        let reply = ask(
            &tables,
            20,
            1,
            Command::Rules {
                variant: Some(variant),
            },
        );
        assert!(matches!(&reply.outputs[..], [Output::Ephemeral(_)]));
        assert!(text_of(&reply).contains("/sequence"));
    }
    for button in Button::FIXED {
        assert_eq!(Button::from_id(&button.id()), Some(button));
    }
    assert_eq!(Button::from_id("nonsense"), None);
    assert_eq!("Hard".parse::<BotLevel>(), Ok(BotLevel::Hard));
    assert!("expert".parse::<BotLevel>().is_err());
    assert_eq!(TeamName::of(Variant::Kids, 0).color, "red");
    assert_eq!(
        TeamName::of(Variant::Classic, 0).to_string(),
        "team 1 (blue)"
    );
}

#[tokio::test]
async fn every_accepted_action_reaches_the_persistence_hook() {
    let persist = Arc::new(Recorder::default());
    let tables = service(111).with_persist(persist.clone());
    begin_game(&tables, 21, Variant::Classic, &[1, 2], 0);
    let saves_after_begin = persist.saved.lock().unwrap().len();
    // start, join, begin: three saves; refusals are not saved.
    assert_eq!(saves_after_begin, 3);
    ask(&tables, 21, 3, Command::Hand);
    ask(&tables, 21, 1, join(None));
    assert_eq!(persist.saved.lock().unwrap().len(), 3);
    let done = play_out(&tables, 21, 4).await;
    let saved = persist.saved.lock().unwrap().clone();
    // Each move was saved with the record growing; the end closes the table with the final state.
    assert!(saved.windows(2).all(|w| w[0] <= w[1]));
    assert!(saved.len() >= 3 + done.moves - 1);
    assert_eq!(*persist.closed.lock().unwrap(), vec![(ChannelId(21), true)]);
    // A cancelled lobby closes without a game.
    ask(&tables, 22, 1, start(Variant::Dice, None));
    ask(&tables, 22, 1, Command::Cancel);
    assert_eq!(
        persist.closed.lock().unwrap().last(),
        Some(&(ChannelId(22), false))
    );
}

#[test]
fn who_starts_dice_roll_off_and_random_dealer() {
    // Dice: the roll-off is shown and its winner sits in seat 0.
    let mut winners = std::collections::HashSet::new();
    for channel in 30..40u64 {
        let tables = service(channel);
        let reply = begin_game(&tables, channel, Variant::Dice, &[1, 2, 3], 0);
        let started = channel_texts(&reply)
            .into_iter()
            .find(|t| t.contains("Roll-off"))
            .expect("the roll-off is posted");
        let table = tables.snapshot(ChannelId(channel)).unwrap();
        let first = table.playing().unwrap().seats[0].user().unwrap();
        assert!(
            started.contains(&format!("<@{}> starts", first.0)),
            "{started}"
        );
        winners.insert(first);
    }
    assert!(
        winners.len() > 1,
        "the roll-off decides, not the join order"
    );
    // Classic in teams: the seats turn by whole rounds, so wished teams keep their numbers.
    let mut firsts = std::collections::HashSet::new();
    for seed in 0..12u64 {
        let tables = service(seed);
        ask(
            &tables,
            1,
            1,
            Start {
                teams: Some(2),
                ..Start::of(Variant::Classic)
            }
            .command(),
        );
        for (user, team) in [(2, Some(2)), (3, Some(1)), (4, Some(2))] {
            ask(&tables, 1, user, Command::Join { team });
        }
        assert!(!ask(&tables, 1, 1, Command::Begin).is_refusal());
        let table = tables.snapshot(ChannelId(1)).unwrap();
        let p = table.playing().unwrap();
        assert_eq!(p.seat_of(UserId(3)).unwrap() % 2, 0, "user 3 wished team 1");
        assert_eq!(p.seat_of(UserId(2)).unwrap() % 2, 1, "user 2 wished team 2");
        firsts.insert(p.seats[0].user().unwrap());
    }
    assert!(firsts.len() > 1, "the first player is not always the host");
    // Two players without wishes: either may start.
    let firsts: std::collections::HashSet<UserId> = (0..12u64)
        .map(|seed| {
            let tables = service(seed);
            begin_game(&tables, 1, Variant::Classic, &[1, 2], 0);
            let table = tables.snapshot(ChannelId(1)).unwrap();
            table.playing().unwrap().seats[0].user().unwrap()
        })
        .collect();
    assert_eq!(firsts.len(), 2);
}

/// Plays like `RandomPicker` and keeps every history it was given.
#[derive(Default)]
struct HistoryPicker(std::sync::Mutex<Vec<Vec<(crate::engine::Seat, Move)>>>);

impl MovePicker for HistoryPicker {
    fn choose(
        &self,
        view: &crate::engine::View,
        history: &[(crate::engine::Seat, Move)],
        level: BotLevel,
        seed: u64,
    ) -> Move {
        self.0.lock().unwrap().push(history.to_vec());
        RandomPicker.choose(view, history, level, seed)
    }
}

#[tokio::test]
async fn the_computer_player_is_given_the_public_actions_so_far() {
    let picker = Arc::new(HistoryPicker::default());
    let tables = Tables::seeded(Settings::default(), picker.clone(), 5);
    // Three bots and one human: run_auto plays the bots until the human is to move, a few times.
    begin_game(&tables, 4, Variant::Classic, &[40], 3);
    for round in 0..4 {
        let table = tables.snapshot(ChannelId(4)).unwrap();
        let game = table.playing().unwrap().live.game().clone();
        if table.playing().unwrap().seats[usize::from(game.position().to_move())].user()
            == Some(UserId(40))
        {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            let reply = ask(
                &tables,
                4,
                40,
                command_for(moves[0], game.position().layout()),
            );
            assert!(!reply.is_refusal(), "round {round}");
        }
        tables.run_auto(ChannelId(4), T0).await;
        let table = tables.snapshot(ChannelId(4)).unwrap();
        let record = table.playing().unwrap().live.history();
        let seen = picker.0.lock().unwrap().last().cloned().unwrap_or_default();
        // The last bot to move saw every action before its own, as the record has them.
        assert_eq!(seen.len() + 1, record.len(), "round {round}");
        assert_eq!(seen[..], record[..seen.len()], "round {round}");
    }
    let calls = picker.0.lock().unwrap().len();
    assert!(calls >= 9, "{calls} computer moves");
}

#[tokio::test]
async fn king_of_the_board_lobby_turns_status_scores_and_restore() {
    let tables = service(23);
    // Refused combinations say why and open nothing.
    let dice_kotb = Start {
        options: Options {
            king_of_the_board: true,
            ..Options::default()
        },
        ..Start::of(Variant::Dice)
    }
    .command();
    refused_unchanged(
        &tables,
        30,
        1,
        dice_kotb,
        "King of the Board is a mode of classic",
    );
    let points_alone = Start {
        options: Options {
            points_to_win: Some(4),
            ..Options::default()
        },
        ..Start::of(Variant::Classic)
    }
    .command();
    refused_unchanged(
        &tables,
        30,
        1,
        points_alone,
        "`points_to_win` (2 to 10) is for King",
    );
    assert!(tables.snapshot(ChannelId(30)).is_none());

    let reply = ask(&tables, 30, 1, Start::king_of_the_board(Some(4)).command());
    let lobby = text_of(&reply);
    assert!(
        lobby.contains("Options: King of the Board, 4 points to win."),
        "{lobby}"
    );
    assert!(
        lobby.contains("Settings: King of the Board, 4 points win ·"),
        "{lobby}"
    );
    assert!(!ask(&tables, 30, 2, join(None)).is_refusal());
    let reply = ask(&tables, 30, 1, Command::Begin);
    let zone = |tables: &Tables| {
        let table = tables.snapshot(ChannelId(30)).expect("table");
        let game = table.playing().expect("playing").live.game().clone();
        game.position().zone().expect("a zone")
    };
    let [centre, first, last] = crate::service::text::ZoneInfo::of(zone(&tables)).names();
    let turn = channel_texts(&reply).join("\n");
    assert!(
        turn.contains(&format!(
            "👑 Zone {centre}: {first}–{last}, worth 2 (a sequence elsewhere: 1)."
        )),
        "{turn}"
    );
    let status = text_of(&ask(&tables, 30, 2, Command::Status));
    assert!(
        status.contains("Points (4 to win): team 1 (blue): 0, team 2 (green): 0."),
        "{status}"
    );
    assert!(status.contains(&format!("Zone {centre}: ")), "{status}");

    // Random legal moves to the end, every channel line kept; a restart (serialize, restore) halfway.
    let mut rng = GameRng::new(5);
    let mut lines = Vec::new();
    let mut tables = tables;
    for ply in 0..3000 {
        if ply == 40 {
            let table = tables.snapshot(ChannelId(30)).expect("table");
            let json = serde_json::to_string(&table).expect("json");
            let back: Table = serde_json::from_str(&json).expect("restores");
            let before = table
                .playing()
                .expect("playing")
                .live
                .game()
                .position()
                .clone();
            assert_eq!(
                back.playing().expect("playing").live.game().position(),
                &before
            );
            let fresh = service(0);
            assert!(fresh.restore(back));
            tables = fresh;
        }
        let Some(table) = tables.snapshot(ChannelId(30)) else {
            break;
        };
        let playing = table.playing().expect("playing");
        let game = playing.live.game();
        let seat = game.position().to_move();
        let user = playing.seats[usize::from(seat)].user().expect("a person").0;
        let mut legal = MoveList::new();
        game.view(seat).legal_moves(&mut legal);
        let mv = legal[rng.below(legal.len() as u32) as usize];
        let reply = ask(&tables, 30, user, command_for(mv, game.position().layout()));
        assert!(!reply.is_refusal(), "{reply:?}");
        lines.extend(channel_texts(&reply));
        if let Some(done) = finished(&reply) {
            let game = done.record.replay().expect("well formed").expect("legal");
            let zones = done.record.zones.clone().expect("zones recorded");
            assert_eq!(zones.len(), game.zones_so_far().len());
            let text = lines.join("\n");
            let points = game.position().points_per_team();
            if points.iter().any(|&p| p > 0) {
                assert!(text.contains(" scores "), "{text}");
                assert!(
                    done.final_text.contains("Points: team 1 (blue): "),
                    "{}",
                    done.final_text
                );
            }
            if zones.len() > 1 {
                assert!(text.contains("👑 The zone moves to "), "{text}");
            }
            // Sequences are told as points, not as sequences against a target.
            assert!(!text.contains("completed a sequence"), "{text}");
            if let Status::Won(team) = game.position().status() {
                assert!(game.position().points(team) >= 4);
            }
            return;
        }
    }
    panic!("the game did not end");
}
