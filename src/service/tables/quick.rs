//! A person's move with a computer to move next (issue 44.8): when the computer answers within
//! [`QUICK_ANSWER`], its move goes out in the same post as the person's, with the board: one post per
//! round instead of "… is thinking…" (no board) and the computer's move right after it. A computer
//! that takes longer gets the "is thinking" post first, and its move when it comes.

use std::sync::Arc;
use std::time::Duration;

use crate::service::reply::{Message, Output, Reply};
use crate::service::text::{Text, Who};
use crate::service::{ChannelId, Timestamp};

use super::Tables;

/// How long a person's move waits for the computer's answer before it is posted alone (with "…
/// is thinking…"): a computer that answers within it is posted with the person's move, in one
/// post. One second: `easy` and `medium` answer at once and `hard` mostly within a tenth of a
/// second (see *How strong the computer players are* in docs/playing.md), so nearly every round is
/// one post; a player whose move waits longer than this sees it posted alone first.
pub const QUICK_ANSWER: Duration = Duration::from_millis(1_000);

/// Computer moves played after one person's move, at most, to find the computer's post (a dead
/// card exchanged is no post of its own: the move after it is).
const STEPS_FOR_A_POST: usize = 4;

/// The computer's answer still being chosen when the wait was over: the replies of its moves once
/// they are applied (send them as any computer move, then go on with the next ones).
#[derive(Debug)]
pub struct Later(tokio::task::JoinHandle<Vec<Reply>>);

impl Later {
    /// The replies of the computer's moves, in order (none if its search failed).
    pub async fn replies(self) -> Vec<Reply> {
        match self.0.await {
            Ok(replies) => replies,
            Err(e) => {
                tracing::error!("a computer's answer failed: {e}");
                Vec::new()
            }
        }
    }
}

impl Tables {
    /// `reply` answers a person's move in `channel`. If it posts "… is thinking…" for a computer to
    /// move next, the computer's move is played now: if it is applied within `wait`, its post and
    /// the person's are one (both moves, the board, the next turn) and the reply says whether more
    /// computer moves are due; otherwise `reply` is returned as it is, without `auto_move`, and
    /// the computer's move comes with [`Later`] (nothing is cancelled: a move being applied always
    /// finishes).
    pub async fn with_quick_answer(
        self: &Arc<Self>,
        channel: ChannelId,
        mut reply: Reply,
        wait: Duration,
    ) -> (Reply, Option<Later>) {
        if !reply.auto_move || thinking_post(&reply).is_none() {
            return (reply, None);
        }
        let tables = self.clone();
        let mut answer = tokio::spawn(async move {
            let mut replies = Vec::new();
            for _ in 0..STEPS_FOR_A_POST {
                let Some(step) = tables.auto_step(channel, Timestamp::now()).await else {
                    break;
                };
                let posted = step.outputs.iter().any(|o| matches!(o, Output::Channel(_)));
                replies.push(step);
                if posted {
                    break;
                }
            }
            replies
        });
        match tokio::time::timeout(wait, &mut answer).await {
            Ok(Ok(replies)) => (join(reply, replies), None),
            Ok(Err(e)) => {
                tracing::error!(channel = channel.0, "a computer's answer failed: {e}");
                (reply, None)
            }
            Err(_) => {
                reply.auto_move = false;
                (reply, Some(Later(answer)))
            }
        }
    }
}

/// The index of the channel post that says a computer is thinking, without a board.
fn thinking_post(reply: &Reply) -> Option<usize> {
    reply.outputs.iter().rposition(|o| match o {
        Output::Channel(m) => m.image.is_none() && m.lines.iter().any(is_bot_turn),
        _ => false,
    })
}

fn is_bot_turn(line: &Text) -> bool {
    matches!(
        line,
        Text::Turn {
            who: Who::Bot(_),
            ..
        }
    )
}

/// The person's reply and the computer's that followed, as one: the thinking post takes the
/// computer's first post (its lines after the person's, its board, buttons and pings); everything
/// else is sent after it, in order. Without a computer post nothing is joined.
pub(in crate::service) fn join(mut first: Reply, replies: Vec<Reply>) -> Reply {
    let Some(at) = thinking_post(&first) else {
        return first;
    };
    let mut joined = false;
    let mut rest = Vec::new();
    let mut auto_move = first.auto_move;
    for reply in replies {
        auto_move = reply.auto_move;
        for output in reply.outputs {
            match output {
                Output::Channel(next) if !joined => {
                    if let Output::Channel(post) = &mut first.outputs[at] {
                        merge(post, next);
                    }
                    joined = true;
                }
                other => rest.push(other),
            }
        }
    }
    first.outputs.extend(rest);
    first.auto_move = auto_move;
    first
}

/// `post` (a person's move, "… is thinking…") followed by `next` (the computer's move) in one message.
fn merge(post: &mut Message, next: Message) {
    post.lines.retain(|line| !is_bot_turn(line));
    post.lines.extend(next.lines);
    post.image = next.image.or(post.image.take());
    post.buttons = next.buttons;
    post.components = next.components;
    post.attachment = next.attachment.or(post.attachment.take());
    for user in next.mentions {
        if !post.mentions.contains(&user) {
            post.mentions.push(user);
        }
    }
}
