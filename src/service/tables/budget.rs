//! The posting budget as the registry spends it: whether a member's request or a computer's move may
//! post now, charging what goes out, the restart notes posted as budgets allow, and the lobby cards that
//! waited (the buckets themselves are in `service/budget.rs`).

use crate::service::budget::{member_posts_of, posts_of};
use crate::service::{lock, ChannelId, GuildId, Output, Reply, State, Text, Timestamp, UserId};

use super::Tables;

/// Whether a restart note says a table resumed (rather than that a game ended or was lost).
fn is_resumed_note(reply: &Reply) -> bool {
    reply.outputs.iter().any(|o| {
        matches!(o, Output::Channel(m) if m.lines.iter().any(|l| matches!(l, Text::GameResumed { .. } | Text::LobbyResumed(_))))
    })
}

impl Tables {
    /// Whether `user`'s request may make the bot post in `guild` now.
    pub(in crate::service) fn member_may_post(
        &self,
        guild: Option<GuildId>,
        user: UserId,
        now: Timestamp,
    ) -> Result<(), Text> {
        let Some(guild) = guild else { return Ok(()) };
        let answer = lock(&self.budgets).member_may_post(guild, user, now, &self.settings.limits);
        if let Err(text) = &answer {
            let reason = if matches!(text, Text::SlowDown) {
                "member"
            } else {
                "server"
            };
            metrics::counter!("sequence_posting_refusals_total", "budget" => reason).increment(1);
        }
        answer
    }

    /// Whether the bot may post in `guild` now what nobody asked for (a computer move).
    pub(in crate::service) fn may_post_unprompted(
        &self,
        guild: Option<GuildId>,
        now: Timestamp,
    ) -> bool {
        let Some(guild) = guild else { return true };
        let may = lock(&self.budgets).may_post_unprompted(guild, now, &self.settings.limits);
        if !may {
            metrics::counter!("sequence_posting_refusals_total", "budget" => "computer")
                .increment(1);
        }
        may
    }

    /// A member's request was answered with `reply`: holds back a repeated lobby edit, and charges the
    /// member for what they asked and the server for what goes out.
    pub(in crate::service) fn charge_member(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        user: UserId,
        join_or_leave: bool,
        reply: &mut Reply,
        now: Timestamp,
    ) {
        let asked = member_posts_of(reply, user);
        lock(&self.lobby_edits).coalesce(channel, user, join_or_leave, reply, now);
        if let Some(guild) = guild {
            lock(&self.budgets).spend(
                guild,
                Some((user, asked)),
                posts_of(reply),
                now,
                &self.settings.limits,
            );
        }
    }

    /// Charges `guild` for `posts` nobody asked for (timers, computer moves).
    pub(in crate::service) fn charge_unprompted(
        &self,
        guild: Option<GuildId>,
        posts: i64,
        now: Timestamp,
    ) {
        if let Some(guild) = guild {
            lock(&self.budgets).spend(guild, None, posts, now, &self.settings.limits);
        }
    }

    /// Restart notes (see [`crate::service::Restored`]) that may be posted now, at most `at_most`, taken from
    /// the front of `pending` in order; each is charged to its server's budget as it is taken. A
    /// server whose budget is spent keeps its notes queued (in order) while other servers' go on.
    pub fn notes_to_post(
        &self,
        pending: &mut std::collections::VecDeque<(ChannelId, Reply)>,
        now: Timestamp,
        at_most: usize,
    ) -> Vec<(ChannelId, Reply)> {
        let mut ready = Vec::new();
        let mut waiting = std::collections::VecDeque::new();
        let mut spent: std::collections::HashSet<Option<GuildId>> = Default::default();
        while ready.len() < at_most {
            let Some((channel, reply)) = pending.pop_front() else {
                break;
            };
            // A table that closed meanwhile needs no note, nor does a channel whose table is another
            // now; a note of an ended or lost game has no table and no server budget to wait for.
            let guild = match self.get(channel) {
                Some(shared) => {
                    let table = lock(&shared);
                    if table.closed {
                        continue;
                    }
                    table.guild
                }
                None if is_resumed_note(&reply) => continue,
                None => None,
            };
            if spent.contains(&guild) || !self.may_post_unprompted(guild, now) {
                spent.insert(guild);
                waiting.push_back((channel, reply));
                continue;
            }
            self.charge_unprompted(guild, posts_of(&reply), now);
            ready.push((channel, reply));
        }
        // Deferred notes go back in front, in their order.
        while let Some(note) = waiting.pop_back() {
            pending.push_front(note);
        }
        ready
    }

    /// The lobby cards that waited long enough, for lobbies still open as they were: edits to send.
    pub(in crate::service) fn waiting_lobby_edits(
        &self,
        now: Timestamp,
    ) -> Vec<(ChannelId, Reply)> {
        let due = lock(&self.lobby_edits).due(now);
        let mut out = Vec::new();
        for (channel, message_id, message) in due {
            let Some(shared) = self.get(channel) else {
                continue;
            };
            let guild = {
                let table = lock(&shared);
                let current = !table.closed
                    && matches!(table.state, State::Lobby(_))
                    && table.lobby_message == Some(message_id)
                    && self.may_act(table.guild);
                if !current {
                    continue;
                }
                table.guild
            };
            let reply = Reply {
                outputs: vec![Output::Lobby {
                    message_id: Some(message_id),
                    message,
                }],
                auto_move: false,
            };
            self.charge_unprompted(guild, posts_of(&reply), now);
            out.push((channel, reply));
        }
        out
    }
}
