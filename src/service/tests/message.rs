//! Issue 26, "fewer, clearer messages": the turn prompt's deadline as a Discord timestamp, players named
//! by colour, a board for every computer move, one channel message per dice turn, and the picker's
//! cells step with the board and its targets marked.

use crate::engine::{Cell, Variant};
use crate::i18n::Lang;

use super::kit::{ask, begin_game, channel_messages, command_for, human_to_move, service, DM, T0};
use crate::service::{
    action_rows, ChannelId, Command, Control, Image, Message, Output, Settings, Text,
};

#[test]
fn the_turn_prompt_counts_down_to_its_deadline_in_every_language() {
    let tables = service(4);
    let mut reply = begin_game(&tables, 1, Variant::Classic, &[1, 2], 0);
    let settings = Settings::default();
    let deadline = T0.after(settings.turn_timeout).0 / 1000;
    let stamp = format!("<t:{deadline}:R>");
    for _ in 0..3 {
        let prompt = channel_messages(&reply)
            .into_iter()
            .find(|m| m.prompt_turn().is_some())
            .expect("a turn prompt")
            .clone();
        let turn = prompt
            .lines
            .iter()
            .find(|l| matches!(l, Text::Turn { .. }))
            .expect("the turn line");
        assert!(
            matches!(turn, Text::Turn { deadline: Some(d), .. } if *d == deadline),
            "{turn:?}"
        );
        for lang in Lang::ALL {
            let text = prompt.render(lang);
            assert_eq!(text.matches(&stamp).count(), 1, "{lang}: {text}");
        }
        // The next player's prompt, after a move.
        let user = human_to_move(&tables, 1).expect("a human to move");
        let table = tables.snapshot(ChannelId(1)).expect("the table");
        let game = table.playing().expect("playing").game();
        let mut legal = crate::engine::MoveList::new();
        game.legal_moves(&mut legal);
        let mv = legal
            .iter()
            .copied()
            .find(|m| matches!(m, crate::engine::Move::Play { .. }))
            .expect("a card to play");
        reply = ask(
            &tables,
            1,
            user.0,
            command_for(mv, game.position().layout()),
        );
        assert!(!reply.is_refusal(), "{reply:?}");
    }
    // A computer's turn names no deadline ("is thinking…").
    let computer = Text::Turn {
        who: crate::service::text::Who::Bot("Robo".into()),
        dice: false,
        again: None,
        deadline: Some(deadline),
    };
    for lang in Lang::ALL {
        assert!(!computer.render(lang).contains("<t:"), "{lang}");
    }
}

#[test]
fn the_start_message_names_every_player_after_their_colour() {
    let tables = service(9);
    let reply = begin_game(&tables, 2, Variant::Classic, &[1, 2], 0);
    let start = channel_messages(&reply)
        .into_iter()
        .find(|m| {
            m.lines
                .iter()
                .any(|l| matches!(l, Text::GameStarted { .. }))
        })
        .expect("the start message");
    for lang in Lang::ALL {
        let text = start.render(lang);
        assert!(text.contains("🔵 <@"), "{lang}: {text}");
        assert!(text.contains("🟢 <@"), "{lang}: {text}");
    }
}

#[tokio::test]
async fn computers_moving_one_after_another_each_post_their_board() {
    let tables = service(21);
    // One person and three computers: up to three computer moves in a row.
    let mut replies = vec![begin_game(&tables, 3, Variant::Classic, &[1], 3)];
    let mut computer_moves = 0;
    for _ in 0..12 {
        replies.extend(tables.run_auto(ChannelId(3), T0).await);
        let Some(user) = human_to_move(&tables, 3) else {
            break;
        };
        let table = tables.snapshot(ChannelId(3)).expect("the table");
        let game = table.playing().expect("playing").game();
        let mut legal = crate::engine::MoveList::new();
        game.legal_moves(&mut legal);
        let mv = legal[0];
        let reply = ask(
            &tables,
            3,
            user.0,
            command_for(mv, game.position().layout()),
        );
        assert!(!reply.is_refusal(), "{reply:?}");
        replies.push(reply);
    }
    for message in replies.iter().flat_map(channel_messages) {
        let by_computer = message.lines.iter().any(|l| {
            matches!(
                l,
                Text::Played {
                    who: crate::service::text::Who::Bot(_),
                    ..
                } | Text::Removed {
                    who: crate::service::text::Who::Bot(_),
                    ..
                }
            )
        });
        if by_computer {
            computer_moves += 1;
            let Some(Image::Board(board)) = &message.image else {
                panic!("`{}` has no board", message.to_english());
            };
            // The board is the position after this move: its last move is the one told.
            let last = board.view().position.last_action().expect("a last move");
            let cell = board.view().position.layout().cell_name(last.cell);
            assert!(
                message.to_english().contains(&cell),
                "{}",
                message.to_english()
            );
            assert!(
                board.targets().is_empty(),
                "a channel board marks no targets"
            );
        }
    }
    assert!(computer_moves >= 20, "{computer_moves} computer moves");
}

#[test]
fn a_dice_turn_is_one_channel_message_with_the_roll_and_the_move() {
    let tables = service(5);
    let mut reply = begin_game(&tables, 4, Variant::Dice, &[1, 2], 0);
    let mut turns = 0;
    for _ in 0..8 {
        let user = human_to_move(&tables, 4).expect("a human to move");
        let roll_id = channel_messages(&reply)
            .iter()
            .flat_map(|m| action_rows(m).concat())
            .map(|c| c.id().to_string())
            .find(|id| id.ends_with(":roll"))
            .expect("the Roll button");
        // Rolling: nothing in the channel; the roll heads the player's own cells step.
        let rolled = DM.press_id(&tables, 4, user.0, &roll_id, None);
        assert!(channel_messages(&rolled).is_empty(), "{rolled:?}");
        let picker = rolled
            .outputs
            .iter()
            .find_map(|o| match o {
                Output::Ephemeral(m) => Some(m),
                _ => None,
            })
            .expect("the private cells step");
        assert!(
            matches!(picker.lines.first(), Some(Text::Rolled { .. })),
            "{picker:?}"
        );
        let ephemerals = rolled
            .outputs
            .iter()
            .filter(|o| matches!(o, Output::Ephemeral(_)))
            .count();
        assert_eq!(ephemerals, 1, "one private message, not two");
        // The first cell (behind a menu of rows: its first row).
        let mut step = picker.clone();
        let cell_id = loop {
            let controls = action_rows(&step).concat();
            if let Some(Control::Select { id, options, .. }) = controls.first() {
                let value = options.first().expect("a row").value.clone();
                let next = DM.press_id(&tables, 4, user.0, id, Some(&value));
                step = next
                    .outputs
                    .into_iter()
                    .find_map(|o| match o {
                        Output::Update(m) | Output::Ephemeral(m) => Some(m),
                        _ => None,
                    })
                    .expect("the row's cells");
                continue;
            }
            break controls
                .iter()
                .map(|c| c.id().to_string())
                .find(|id| id.contains(":cell:"))
                .expect("a cell button");
        };
        reply = DM.press_id(&tables, 4, user.0, &cell_id, None);
        let posts = channel_messages(&reply);
        assert_eq!(posts.len(), 1, "{reply:?}");
        let lines = &posts[0].lines;
        let roll_at = lines.iter().position(|l| matches!(l, Text::Rolled { .. }));
        let move_at = lines
            .iter()
            .position(|l| matches!(l, Text::Placed { .. } | Text::Removed { .. }));
        assert!(
            matches!((roll_at, move_at), (Some(r), Some(m)) if r < m),
            "{}",
            posts[0].to_english()
        );
        for lang in Lang::ALL {
            assert_eq!(posts[0].render(lang).matches("🎲").count(), 1, "{lang}");
        }
        turns += 1;
        if tables
            .snapshot(ChannelId(4))
            .and_then(|t| t.playing().map(|p| p.game().position().is_over()))
            .unwrap_or(true)
        {
            break;
        }
    }
    assert!(turns >= 4, "{turns} turns");
}

#[test]
fn the_typed_roll_is_private_until_the_move() {
    let tables = service(6);
    begin_game(&tables, 5, Variant::Dice, &[1, 2], 0);
    let user = human_to_move(&tables, 5).expect("a human to move");
    let reply = ask(&tables, 5, user.0, Command::Roll);
    assert!(!reply.is_refusal(), "{reply:?}");
    let stuck = !channel_messages(&reply).is_empty();
    if !stuck {
        assert!(matches!(
            reply.outputs.as_slice(),
            [Output::Ephemeral(m)] if matches!(m.lines.first(), Some(Text::Rolled { .. }))
        ));
    } else {
        // No move possible: the pass is posted at once, with the roll.
        let post = channel_messages(&reply)[0];
        assert!(post.lines.iter().any(|l| matches!(l, Text::Rolled { .. })));
    }
}

#[test]
fn the_cells_step_shows_the_board_with_exactly_its_buttons_cells_marked() {
    let tables = service(8);
    let reply = begin_game(&tables, 6, Variant::Classic, &[1, 2], 0);
    let user = human_to_move(&tables, 6).expect("a human to move");
    let play = channel_messages(&reply)
        .iter()
        .flat_map(|m| action_rows(m).concat())
        .map(|c| c.id().to_string())
        .find(|id| id.ends_with(":play"))
        .expect("the Play button");
    let cards = DM.press_id(&tables, 6, user.0, &play, None);
    let cards = cards
        .outputs
        .iter()
        .find_map(|o| match o {
            Output::Ephemeral(m) => Some(m.clone()),
            _ => None,
        })
        .expect("the cards step");
    assert!(matches!(cards.image, Some(Image::Hand(_))));
    let mut checked = 0;
    for control in action_rows(&cards).concat() {
        let Control::Button {
            id,
            disabled: false,
            ..
        } = &control
        else {
            continue;
        };
        if !id.contains(":card:") {
            continue;
        }
        let step = DM.press_id(&tables, 6, user.0, id, None);
        let Some(Output::Update(step)) = step.outputs.first() else {
            panic!("{step:?}");
        };
        let Some(Image::Board(board)) = &step.image else {
            panic!("the cells step has no board");
        };
        // A public view: no hand on it.
        assert!(board.view().hand.is_empty());
        let layout = board.view().position.layout();
        let buttons: Vec<Cell> = action_rows(step)
            .concat()
            .iter()
            .filter_map(|c| c.id().rsplit(':').next().and_then(|n| layout.parse_cell(n)))
            .collect();
        if action_rows(step)
            .concat()
            .iter()
            .any(|c| matches!(c, Control::Select { .. }))
        {
            // A menu of rows: every target is marked.
            assert!(!board.targets().is_empty());
        } else {
            let mut marked = board.targets().to_vec();
            marked.sort_by_key(|c| c.0);
            let mut buttons = buttons;
            buttons.sort_by_key(|c| c.0);
            assert_eq!(marked, buttons);
        }
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn back_to_the_cards_shows_the_hand_again() {
    let tables = service(8);
    let reply = begin_game(&tables, 7, Variant::Classic, &[1, 2], 0);
    let user = human_to_move(&tables, 7).expect("a human to move");
    let id_ending = |m: &Message, end: &str| {
        action_rows(m)
            .concat()
            .iter()
            .map(|c| c.id().to_string())
            .find(|id| id.ends_with(end) || id.contains(end))
    };
    let play = channel_messages(&reply)
        .iter()
        .find_map(|m| id_ending(m, ":play"))
        .expect("the Play button");
    let cards = DM.press_id(&tables, 7, user.0, &play, None);
    let Some(Output::Ephemeral(cards)) = cards.outputs.first() else {
        panic!("{cards:?}");
    };
    let card = id_ending(cards, ":card:").expect("a card");
    let step = DM.press_id(&tables, 7, user.0, &card, None);
    let Some(Output::Update(step)) = step.outputs.first() else {
        panic!("{step:?}");
    };
    assert!(matches!(step.image, Some(Image::Board(_))));
    let back = id_ending(step, ":cards").expect("Back");
    let again = DM.press_id(&tables, 7, user.0, &back, None);
    let Some(Output::Update(again)) = again.outputs.first() else {
        panic!("{again:?}");
    };
    assert!(matches!(again.image, Some(Image::Hand(_))));
}
