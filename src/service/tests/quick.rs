//! Issue 44.8: against a computer, a round is one post when the computer answers within
//! [`QUICK_ANSWER`]: the person's move, the computer's move and the board together. A slower
//! computer gets the "… is thinking…" post first and its own post with the board when it comes.

use std::sync::Arc;
use std::time::Duration;

use crate::engine::{Move, MoveList, Seat, Variant, View};

use super::kit::{
    channel_messages as posts, command_for, human_to_move, playing, seeded, start, unlimited, Asker,
};
use crate::service::{
    BotLevel, ChannelId, GuildId, Image, Message, MovePicker, RandomPicker, Reply, Settings,
    Tables, Text, UserId, Who, QUICK_ANSWER,
};

const HERE: Asker = Asker::server(GuildId(44));

/// A random computer that takes `0` to choose.
struct Slow(Duration);

impl MovePicker for Slow {
    fn choose(&self, view: &View, history: &[(Seat, Move)], level: BotLevel, seed: u64) -> Move {
        std::thread::sleep(self.0);
        RandomPicker.choose(view, history, level, seed)
    }
}

/// The moves a post announces: (by a person, by a computer).
fn moves_in(post: &Message) -> (usize, usize) {
    let mut by = (0, 0);
    for line in &post.lines {
        let who = match line {
            Text::Played { who, .. } | Text::Removed { who, .. } => who,
            _ => continue,
        };
        match who {
            Who::Bot(_) => by.1 += 1,
            _ => by.0 += 1,
        }
    }
    by
}

/// Person 1 against one `easy` computer in `channel`, the person to move.
async fn game(tables: &Tables, channel: u64) {
    let begun = HERE.begin(tables, channel, start(Variant::Classic, None), &[1], 1);
    assert!(!begun.is_refusal(), "{begun:?}");
    if human_to_move(tables, channel).is_none() {
        tables.run_auto(ChannelId(channel), super::kit::T0).await;
    }
    assert_eq!(human_to_move(tables, channel), Some(UserId(1)));
}

/// Person 1 plays a card (not an exchange): the service's reply, before any computer move.
fn person_moves(tables: &Tables, channel: u64) -> Reply {
    let p = playing(tables, channel);
    let game = p.live.game();
    let seat = game.position().to_move();
    let mut legal = MoveList::new();
    game.view(seat).legal_moves(&mut legal);
    let mv = *legal
        .iter()
        .find(|m| matches!(m, Move::Play { .. }))
        .expect("a card to play");
    let reply = HERE.ask(
        tables,
        channel,
        1,
        command_for(mv, game.position().layout()),
    );
    assert!(!reply.is_refusal(), "{reply:?}");
    reply
}

#[tokio::test]
async fn a_quick_computer_answer_is_one_post_with_both_moves_and_the_board() {
    let tables = Arc::new(seeded(unlimited(Settings::default()), 81));
    game(&tables, 1).await;
    for round in 0..8 {
        let reply = person_moves(&tables, 1);
        // Alone, the person's move says the computer is thinking and shows no board (as before).
        let alone = posts(&reply);
        assert_eq!(alone.len(), 1, "{reply:?}");
        assert!(alone[0].image.is_none());
        assert!(alone[0].to_english().contains("is thinking"));
        assert!(reply.auto_move);
        let (joined, later) = tables
            .with_quick_answer(ChannelId(1), reply, QUICK_ANSWER)
            .await;
        assert!(
            later.is_none(),
            "round {round}: the computer answered at once"
        );
        let [post] = posts(&joined)[..] else {
            panic!("round {round}: one post for the round: {joined:?}");
        };
        let text = post.to_english();
        assert!(matches!(post.image, Some(Image::Board(_))), "{text}");
        assert!(!text.contains("is thinking"), "{text}");
        let (person, computer) = moves_in(post);
        assert_eq!((person, computer), (1, 1), "{text}");
        assert!(text.contains("it is your turn: press **Play**"), "{text}");
        assert_eq!(
            post.mentions,
            vec![UserId(1)],
            "the person is asked to move"
        );
        assert!(post.prompt_turn().is_some(), "with the Play button");
        assert!(!joined.auto_move, "nothing more is due");
        assert_eq!(human_to_move(&tables, 1), Some(UserId(1)));
    }
}

#[tokio::test]
async fn a_slow_computer_gets_the_thinking_post_first_and_its_own_post_later() {
    let tables = Arc::new(Tables::seeded(
        unlimited(Settings::default()),
        Arc::new(Slow(Duration::from_millis(400))),
        82,
    ));
    game(&tables, 2).await;
    let reply = person_moves(&tables, 2);
    let (alone, later) = tables
        .with_quick_answer(ChannelId(2), reply.clone(), Duration::from_millis(50))
        .await;
    // Past the wait the person's move goes out as it was, "is thinking" and no board …
    assert_eq!(posts(&alone), posts(&reply));
    assert!(posts(&alone)[0].to_english().contains("is thinking"));
    assert!(
        !alone.auto_move,
        "the computer's move is on its way already"
    );
    // … and the computer's move with the board when it comes.
    let replies = later
        .expect("the computer is still thinking")
        .replies()
        .await;
    let later_posts: Vec<&Message> = replies.iter().flat_map(posts).collect();
    let [post] = later_posts[..] else {
        panic!("{replies:?}");
    };
    assert!(matches!(post.image, Some(Image::Board(_))));
    assert_eq!(moves_in(post), (0, 1), "{}", post.to_english());
    assert_eq!(post.mentions, vec![UserId(1)]);
    assert_eq!(human_to_move(&tables, 2), Some(UserId(1)));
}

#[tokio::test]
async fn a_reply_without_a_thinking_post_is_left_as_it_is() {
    let tables = Arc::new(seeded(unlimited(Settings::default()), 83));
    game(&tables, 3).await;
    let status = HERE.ask(&tables, 3, 1, crate::service::Command::Status);
    let (same, later) = tables
        .with_quick_answer(ChannelId(3), status.clone(), QUICK_ANSWER)
        .await;
    assert_eq!(same, status);
    assert!(later.is_none());
    assert_eq!(
        human_to_move(&tables, 3),
        Some(UserId(1)),
        "nothing was played"
    );
}
