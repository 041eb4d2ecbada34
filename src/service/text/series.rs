//! A series of games (best of 3, 5 or 7): its score, its end, and its buttons' refusals.

use crate::i18n::{join_list, Args, Tr};

use super::payload::Who;
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::BadSeries { best_of } => tr.ta("bad-series", &Args::new().number("count", *best_of)),
        Text::SeriesScore {
            best_of,
            played,
            sides,
        } => {
            let score = series_score(tr, sides);
            tr.ta(
                "series-score",
                &Args::new()
                    .number("count", *best_of)
                    .number("played", *played)
                    .text("score", score),
            )
        }
        Text::SeriesGame {
            number,
            best_of,
            sides,
        } => {
            let score = series_score(tr, sides);
            tr.ta(
                "series-game",
                &Args::new()
                    .number("number", *number)
                    .number("count", *best_of)
                    .text("score", score),
            )
        }
        Text::SeriesWon { best_of, winners } => {
            let names: Vec<String> = winners.iter().map(ToString::to_string).collect();
            let players = join_list(tr, &names);
            tr.ta(
                "series-won",
                &Args::new()
                    .number("count", *best_of)
                    .text("players", players),
            )
        }
        Text::SeriesNoWinner => tr.t("series-no-winner"),
        Text::SeriesNext => tr.t("series-next"),
        Text::SeriesBreak => tr.t("series-break"),
        Text::NotInSeries => tr.t("not-in-series"),
        Text::ConfirmAbandonSeries => tr.t("confirm-abandon-series"),
        Text::SeriesAbandoned { by } => tr.ta(
            "series-abandoned",
            &Args::new().text("player", by.to_string()),
        ),
        Text::SeriesExpired => tr.t("series-expired"),
        Text::SeriesStats { played, won } => tr.ta(
            "series-stats",
            &Args::new().number("played", *played).number("won", *won),
        ),
        _ => return None,
    })
}

/// Each side of a series with its wins: "Ann 1 – Bob 0".
fn series_score(tr: &mut Tr, sides: &[(Vec<Who>, u8)]) -> String {
    let parts: Vec<String> = sides
        .iter()
        .map(|(players, wins)| {
            let names: Vec<String> = players.iter().map(ToString::to_string).collect();
            format!("{} {wins}", join_list(tr, &names))
        })
        .collect();
    parts.join(" – ")
}
