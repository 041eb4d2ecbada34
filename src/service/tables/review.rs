//! After a game: how often each human chose the move the computer's `hard` level would have chosen
//! from their own view ([`crate::analysis::agreement`]), posted as a follow-up to the final message.
//! Each move is judged by one `hard` search in the search pool as background work, so live computer
//! moves are always served first.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::analysis::{self, Decision};
use crate::engine::{Record, Seat};

use crate::service::table::{Player, State, Table};
use crate::service::text::{AgreementLine, Text};
use crate::service::{lock, Message, Output, Reply, Who};

use super::Tables;

/// Most finished games waiting for their analysis; past it the oldest are forgotten.
const MAX_WAITING: usize = 1_000;

/// What the analysis of a finished game needs.
#[derive(Clone, Debug)]
pub(in crate::service) struct Review {
    record: Record,
    /// The human seats, with how to name them.
    humans: Vec<(Seat, Who)>,
    /// The actions the humans chose themselves (`None`: every action of their seats).
    own_actions: Option<Vec<u32>>,
}

impl Review {
    /// The review of a table whose game just ended, if it has a human player.
    pub(in crate::service) fn of(table: &Table) -> Option<Review> {
        let State::Playing(playing) = &table.state else {
            return None;
        };
        let players = playing.live.game().config().players;
        let humans: Vec<(Seat, Who)> = (0..players)
            .filter_map(|seat| match playing.original_player(seat) {
                Some(player @ Player::Human { .. }) => Some((seat, player.who())),
                _ => None,
            })
            .collect();
        (!humans.is_empty()).then(|| Review {
            record: playing.live.record().clone(),
            humans,
            own_actions: playing.own_actions.clone(),
        })
    }

    /// The moves to judge: the humans' own chip moves with a choice.
    fn decisions(&self) -> Result<Vec<Decision>, analysis::AnalysisError> {
        let seats: Vec<Seat> = self.humans.iter().map(|(seat, _)| *seat).collect();
        let mut decisions = analysis::decisions(&self.record, &seats)?;
        if let Some(own) = &self.own_actions {
            decisions.retain(|d| u32::try_from(d.index).is_ok_and(|i| own.contains(&i)));
        }
        Ok(decisions)
    }
}

/// Finished games waiting for their analysis, by the number under which they were kept.
#[derive(Debug, Default)]
pub(in crate::service) struct Reviews(Mutex<HashMap<i64, Review>>);

impl Reviews {
    /// Keeps `review` under the number of the kept game whose final message is in `reply`.
    pub(in crate::service) fn keep(&self, review: Option<Review>, reply: &Reply) {
        let Some(id) = reply.outputs.iter().find_map(|o| match o {
            Output::Channel(m) => m.announced_game(),
            _ => None,
        }) else {
            return;
        };
        let Some(review) = review else {
            return;
        };
        let mut waiting = lock(&self.0);
        if waiting.len() >= MAX_WAITING {
            if let Some(&oldest) = waiting.keys().min() {
                waiting.remove(&oldest);
            }
        }
        waiting.insert(id, review);
    }

    fn take(&self, id: i64) -> Option<Review> {
        lock(&self.0).remove(&id)
    }

    /// Games waiting.
    pub(in crate::service) fn len(&self) -> usize {
        lock(&self.0).len()
    }
}

impl Tables {
    /// The follow-up of the final message of kept game `id`: each human's agreement with `hard`.
    /// `None` when the game is not waiting for one (not kept by this process, already analysed, or
    /// without a human). Judges one move at a time as background work of the search pool: call it
    /// from a task of its own; it takes about as long as the humans' moves would take `hard`.
    pub async fn agreement_follow_up(&self, id: i64) -> Option<Message> {
        let review = self.reviews.take(id)?;
        let decisions = match review.decisions() {
            Ok(decisions) => decisions,
            Err(e) => {
                tracing::error!(game = id, "cannot analyse the game: {e}");
                return None;
            }
        };
        let mut verdicts = Vec::with_capacity(decisions.len());
        for decision in &decisions {
            let decision = decision.clone();
            let budget = self.analysis_budget;
            let verdict = self
                .pool
                .run_background("analysis", move || decision.judge(&budget))
                .await;
            match verdict {
                Ok(verdict) => verdicts.push(verdict),
                Err(e) => {
                    tracing::warn!(game = id, "the analysis stopped: {e}");
                    return None;
                }
            }
        }
        let seats: Vec<Seat> = review.humans.iter().map(|(seat, _)| *seat).collect();
        let tally = analysis::tally(&seats, &decisions, &verdicts);
        self.save_agreement(id, &review, &tally).await;
        let lines = review
            .humans
            .iter()
            .zip(&tally)
            .map(|((_, who), agreement)| AgreementLine {
                who: who.clone(),
                matched: agreement.matched,
                counted: agreement.counted,
            })
            .collect();
        Some(Message::text(Text::Agreement { game: id, lines }))
    }

    /// Keeps each human's agreement with the game in the store (for `/sequence stats`), on a blocking
    /// thread; a failure is logged (the follow-up is posted anyway).
    async fn save_agreement(&self, id: i64, review: &Review, tally: &[analysis::SeatAgreement]) {
        let Some(store) = self.store.clone() else {
            return;
        };
        let rows: Vec<(u64, u32, u32)> = review
            .humans
            .iter()
            .zip(tally)
            .filter_map(|((_, who), a)| match who {
                Who::User(user) => Some((user.0, a.matched, a.counted)),
                Who::Bot(_) => None,
            })
            .collect();
        let saved = tokio::task::spawn_blocking(move || {
            store.save_agreement(crate::store::GameId(id), &rows)
        })
        .await;
        match saved {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!(game = id, "cannot keep the agreement: {e}"),
            Err(e) => tracing::error!(game = id, "keeping the agreement failed: {e}"),
        }
    }

    /// Finished games waiting for their agreement follow-up.
    pub fn reviews_waiting(&self) -> usize {
        self.reviews.len()
    }

    /// Another search budget for each move of an agreement analysis (tests: a quicker one).
    pub fn with_analysis_budget(mut self, budget: crate::ai::Budget) -> Tables {
        self.analysis_budget = budget;
        self
    }
}
