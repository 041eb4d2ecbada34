//! Hints: the move the `hard` computer would make and why, and what asking for one costs.

use crate::i18n::{join_list, Args, Tr};

use super::labels::{card_name, team_name};
use super::payload::{HintMove, HintWhy};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::Hint { mv, why } => {
            let mv = hint_move(tr, mv);
            let why = hint_why(tr, why);
            tr.ta("hint", &Args::new().text("move", mv).text("why", why))
        }
        Text::HintsOnlyCasual => tr.t("hints-only-casual"),
        Text::HintsUsed { count, by } => {
            let names: Vec<String> = by.iter().map(ToString::to_string).collect();
            let players = join_list(tr, &names);
            tr.ta(
                "hints-used",
                &Args::new().number("count", *count).text("players", players),
            )
        }
        Text::HintMadeCasual(who) => tr.ta(
            "hint-made-casual",
            &Args::new().text("player", who.to_string()),
        ),
        Text::HintBusy => tr.t("hint-busy"),
        Text::HintSpent => tr.t("hint-spent"),
        Text::PickerHintButton => tr.t("picker-hint"),
        Text::PickerHintUnratedButton => tr.t("picker-hint-unrated"),
        Text::ConfirmHint => tr.t("confirm-hint"),
        Text::HintMadeUnrated => tr.t("hint-made-unrated"),
        _ => return None,
    })
}

/// The hint's move, as the player would make it.
fn hint_move(tr: &mut Tr, mv: &HintMove) -> String {
    match mv {
        HintMove::Play { card, cell } => {
            let card = card_name(tr, *card);
            tr.ta(
                "hint-play",
                &Args::new().text("card", card).text("cell", cell.as_str()),
            )
        }
        HintMove::Exchange(card) => {
            let card = card_name(tr, *card);
            tr.ta("hint-exchange", &Args::new().text("card", card))
        }
        HintMove::Place(cell) => tr.ta("hint-place", &Args::new().text("cell", cell.as_str())),
        HintMove::Remove(cell) => tr.ta("hint-remove", &Args::new().text("cell", cell.as_str())),
        HintMove::Pass => tr.t("hint-pass"),
    }
}

/// Why the hint's move (see [`crate::analysis::Reason`]).
fn hint_why(tr: &mut Tr, why: &HintWhy) -> String {
    match why {
        HintWhy::Completes => tr.t("why-completes"),
        HintWhy::Breaks { team, chips, cell } | HintWhy::Blocks { team, chips, cell } => {
            let key = if matches!(why, HintWhy::Breaks { .. }) {
                "why-breaks"
            } else {
                "why-blocks"
            };
            let team = team_name(tr, *team);
            tr.ta(
                key,
                &Args::new()
                    .text("team", team)
                    .number("chips", *chips)
                    .text("cell", cell.as_str()),
            )
        }
        HintWhy::Makes { chips, from, to } => tr.ta(
            "why-makes",
            &Args::new()
                .number("chips", *chips)
                .text("from", from.as_str())
                .text("to", to.as_str()),
        ),
        HintWhy::Zone { cell } => tr.ta("why-zone", &Args::new().text("cell", cell.as_str())),
        HintWhy::Opens { cell, lines } => tr.ta(
            "why-opens",
            &Args::new()
                .text("cell", cell.as_str())
                .number("lines", *lines),
        ),
        HintWhy::KeepsWild(card) => {
            let card = card_name(tr, *card);
            tr.ta("why-keeps-wild", &Args::new().text("card", card))
        }
        HintWhy::DeadCard => tr.t("why-dead"),
        HintWhy::Best => tr.t("why-best"),
        HintWhy::Pass => tr.t("why-pass"),
    }
}
