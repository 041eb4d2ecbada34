//! The card picker (the private buttons that make a move) and the menus of a running game.

use crate::i18n::{Args, Tr};

use super::labels::{card_name, team_name};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::PickerPlayButton => tr.t("picker-play"),
        Text::PickerRollButton => tr.t("button-roll"),
        Text::PickerBackButton => tr.t("picker-back"),
        Text::PickerExchange(card) => {
            let card = card_name(tr, *card);
            tr.ta("picker-exchange", &Args::new().text("card", card))
        }
        Text::PickerUnplayable(card) => {
            let card = card_name(tr, *card);
            tr.ta("picker-unplayable", &Args::new().text("card", card))
        }
        Text::PickerRow { row, part, cells } => {
            let args = Args::new()
                .number("row", *row)
                .number("part", part.saturating_add(1))
                .number("cells", *cells);
            tr.ta(
                if *part == 0 {
                    "picker-row"
                } else {
                    "picker-row-part"
                },
                &args,
            )
        }
        Text::PickerRowPlaceholder => tr.t("picker-row-placeholder"),
        Text::PickerCell {
            cell,
            team,
            removing,
        } => {
            let team = team_name(tr, *team);
            tr.ta(
                if *removing {
                    "complete-remove"
                } else {
                    "complete-replace"
                },
                &Args::new().text("cell", cell.as_str()).text("team", team),
            )
        }
        Text::PickCard => tr.t("pick-card"),
        Text::PickRow { card, removing } | Text::PickCell { card, removing } => {
            let row = matches!(text, Text::PickRow { .. });
            let key = match (row, card.is_some(), *removing) {
                (true, true, false) => "pick-row-card",
                (true, true, true) => "pick-row-card-remove",
                (true, false, false) => "pick-row-dice",
                (true, false, true) => "pick-row-dice-remove",
                (false, true, false) => "pick-cell-card",
                (false, true, true) => "pick-cell-card-remove",
                (false, false, false) => "pick-cell-dice",
                (false, false, true) => "pick-cell-dice-remove",
            };
            let card = card.map(|c| card_name(tr, c)).unwrap_or_default();
            tr.ta(key, &Args::new().text("card", card))
        }
        Text::PickerDone => tr.t("done"),
        Text::PickerExpired { dice } => tr.t(if *dice {
            "picker-expired-dice"
        } else {
            "picker-expired"
        }),
        Text::NotYourPicker { to_move } => tr.ta(
            "picker-not-yours",
            &Args::new().text("player", to_move.to_string()),
        ),
        Text::PickerNotYourCard(card) => {
            let card = card_name(tr, *card);
            tr.ta("picker-not-your-card", &Args::new().text("card", card))
        }
        Text::BadButton => tr.t("bad-button"),
        Text::QuestionAnswered => tr.t("question-answered"),
        Text::GameMenu => tr.t("game-menu"),
        Text::ButtonExpired => tr.t("button-expired"),
        _ => return None,
    })
}
