//! Whose turn it is, the clock (reminders, timeouts, a computer taking the seat) and giving up or
//! stopping a game.

use crate::i18n::{Args, Tr};
use crate::service::names::chat_name;

use super::labels::{discord_timestamp, duration_text};
use super::payload::Who;
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::Forfeited { who, bot } => tr.ta(
            "forfeited",
            &Args::new()
                .text("player", who.to_string())
                .text("bot", chat_name(bot)),
        ),
        Text::Turn {
            who,
            dice,
            again,
            deadline,
        } => turn(tr, who, *dice, *again, *deadline),
        Text::Reminder {
            who,
            seconds_left,
            gives_up,
            ends_game,
        } => reminder(tr, who, *seconds_left, *gives_up, *ends_game),
        Text::TimedOut { who, level } => {
            let level = tr.t(&format!("level-{level}"));
            tr.ta(
                "timed-out",
                &Args::new()
                    .text("player", who.to_string())
                    .text("level", level),
            )
        }
        Text::ReplacedAfterTimeouts { who, bot, count } => tr.ta(
            "replaced-after-timeouts",
            &Args::new()
                .text("player", who.to_string())
                .text("bot", chat_name(bot))
                .number("count", *count),
        ),
        Text::GaveUp(who) => tr.ta("gave-up", &Args::new().text("player", who.to_string())),
        Text::OutOfTimeLost {
            who,
            count,
            side_loses,
        } => tr.ta(
            if *side_loses {
                "out-of-time-lost"
            } else {
                "out-of-time-ends"
            },
            &Args::new()
                .text("player", who.to_string())
                .number("count", *count),
        ),
        Text::TimeoutWarning {
            who,
            count,
            ends_game,
        } => tr.ta(
            if *ends_game {
                "timeout-warning-ends"
            } else {
                "timeout-warning"
            },
            &Args::new()
                .text("player", who.to_string())
                .number("count", *count),
        ),
        Text::ConfirmLeave { ends_game } => tr.t(if *ends_game {
            "confirm-leave-ends"
        } else {
            "confirm-leave"
        }),
        Text::KeptPlaying => tr.t("kept-playing"),
        Text::TimeoutGivesUp { timeout_secs } => {
            let timeout = duration_text(tr, *timeout_secs);
            tr.ta("timeout-gives-up", &Args::new().text("timeout", timeout))
        }
        Text::HintDeclined => tr.t("hint-declined"),
        Text::LeaveExpired => tr.t("leave-expired"),
        Text::LeaveAnswered => tr.t("leave-answered"),
        Text::ConfirmStop { gives_up: true } => tr.t("confirm-stop-player"),
        Text::ConfirmStop { gives_up: false } => tr.t("confirm-stop"),
        _ => return None,
    })
}

/// Whose turn it is, what to do first (dice: roll, maybe again), and when a human's turn runs out.
fn turn(tr: &mut Tr, who: &Who, dice: bool, again: Option<u8>, deadline: Option<u64>) -> String {
    let key = match (who, dice, again) {
        (Who::Bot(_), _, _) => "turn-bot",
        (_, true, Some(_)) => "turn-dice-again",
        (_, true, None) => "turn-dice",
        (_, false, _) => "turn-cards",
    };
    let mut line = tr.ta(
        key,
        &Args::new()
            .text("player", who.to_string())
            .number("sum", again.unwrap_or(0)),
    );
    if let (Who::User(_), Some(at)) = (who, deadline) {
        line.push(' ');
        line += &tr.ta(
            "turn-deadline",
            &Args::new().text("deadline", discord_timestamp(at)),
        );
    }
    line
}

/// A reminder: the time left, and what running out of it means.
fn reminder(tr: &mut Tr, who: &Who, seconds_left: u64, gives_up: bool, ends_game: bool) -> String {
    let time = duration_text(tr, seconds_left);
    tr.ta(
        match (gives_up, ends_game) {
            (false, _) => "reminder",
            (true, false) => "reminder-give-up",
            (true, true) => "reminder-give-up-ends",
        },
        &Args::new()
            .text("player", who.to_string())
            .text("time", time),
    )
}
