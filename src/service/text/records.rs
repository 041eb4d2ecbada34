//! What the bot keeps: a player's stats and rating, the leaderboard, the history of finished games.

use crate::analysis::agreement::share_percent;
use crate::i18n::{join_list, Args, Lang, Tr};
use crate::store::AgreementTotals;

use super::labels::game_title;
use super::payload::{HistoryLine, LeaderLine, RatingInfo, Totals, Who};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::NoHistory => tr.t("no-history"),
        Text::HistoryFailed => tr.t("history-failed"),
        Text::Stats { who, totals, .. } if totals.games == 0 => {
            tr.ta("stats-none", &Args::new().text("player", who.to_string()))
        }
        Text::Stats {
            who,
            totals,
            rating,
            agreement,
        } => stats(tr, who, totals, rating, agreement),
        Text::Leaderboard(lines) if lines.is_empty() => tr.t("leaderboard-empty"),
        Text::Leaderboard(lines) => leaderboard(tr, lines),
        Text::History(lines) if lines.is_empty() => tr.t("history-empty"),
        Text::History(lines) => history(tr, lines),
        Text::GameRecord { id } => tr.ta("game-record", &Args::new().text("id", id.to_string())),
        Text::NoSuchGame(id) => tr.ta("no-such-game", &Args::new().text("id", id.to_string())),
        Text::NoGameHere => tr.t("no-game-here"),
        _ => return None,
    })
}

/// Tenths as a decimal number in `lang` (`12.3`, `-0.5`; `+` before a positive change if `signed`).
pub(super) fn tenths_text(tenths: i64, lang: Lang, signed: bool) -> String {
    let sign = if tenths < 0 {
        "−"
    } else if signed && tenths > 0 {
        "+"
    } else {
        ""
    };
    let point = match lang {
        Lang::En => ".",
        _ => ",",
    };
    let abs = tenths.unsigned_abs();
    format!("{sign}{}{point}{}", abs / 10, abs % 10)
}

/// A rating on the shown scale as a whole number (`1500`, `−20` for a change; `+` before a positive
/// change if `signed`).
pub(super) fn points_text(points: i64, signed: bool) -> String {
    let sign = if points < 0 {
        "−"
    } else if signed && points > 0 {
        "+"
    } else {
        ""
    };
    format!("{sign}{}", points.unsigned_abs())
}

/// The rating part of `stats` and of a leaderboard line.
pub(super) fn rating_text(tr: &mut Tr, rating: &RatingInfo) -> String {
    let args = Args::new()
        .text("rating", points_text(rating.shown, false))
        .number("games", rating.games)
        .text("provisional", if rating.provisional { "yes" } else { "no" });
    let mut text = tr.ta("rating-line", &args);
    if !rating.changes.is_empty() {
        let changes = rating
            .changes
            .iter()
            .map(|&c| points_text(c, true))
            .collect::<Vec<_>>()
            .join(", ");
        text.push_str(&tr.ta(
            "rating-changes",
            &Args::new().text("changes", changes).number(
                "count",
                u32::try_from(rating.changes.len()).unwrap_or(u32::MAX),
            ),
        ));
    }
    text
}

/// The numbers of a player's totals, for `stats` and `leaderboard-line`.
fn totals_args(totals: &Totals) -> Args<'static> {
    Args::new()
        .number("games", totals.games)
        .number("wins", totals.wins)
        .number("percent", totals.win_percent())
        .number("sequences", totals.sequences)
}

/// A player's totals on this server, their rating, and their agreement with the computer.
fn stats(
    tr: &mut Tr,
    who: &Who,
    totals: &Totals,
    rating: &Option<RatingInfo>,
    agreement: &Option<AgreementTotals>,
) -> String {
    let mut text = tr.ta(
        "stats",
        &totals_args(totals).text("player", who.to_string()),
    );
    let rating = match rating {
        Some(rating) => rating_text(tr, rating),
        None => tr.t("rating-none"),
    };
    text.push('\n');
    text.push_str(&rating);
    if let Some((a, percent)) = agreement
        .as_ref()
        .and_then(|a| Some((a, share_percent(a.matched, a.counted)?)))
    {
        text.push('\n');
        text.push_str(
            &tr.ta(
                "stats-agreement",
                &Args::new()
                    .number("percent", percent)
                    .number("counted", a.counted)
                    .number("games", a.games),
            ),
        );
    }
    text
}

/// The best players of this server, by rating.
fn leaderboard(tr: &mut Tr, lines: &[LeaderLine]) -> String {
    let mut text = tr.t("leaderboard-header");
    for (i, line) in lines.iter().enumerate() {
        let rating = rating_text(tr, &line.rating);
        let totals = tr.ta("leaderboard-line", &totals_args(&line.totals));
        text.push_str(&format!("\n{}. {} — {rating} · {totals}", i + 1, line.who));
    }
    text
}

/// The latest finished games of this server, one line each.
fn history(tr: &mut Tr, lines: &[HistoryLine]) -> String {
    let mut text = tr.t("history-header");
    for line in lines {
        let game = match line.variant {
            Some(variant) => game_title(tr, variant),
            None => tr.t("game-classic"),
        };
        let players: Vec<String> = line.players.iter().map(ToString::to_string).collect();
        let players = join_list(tr, &players);
        let result = if line.aborted {
            tr.t("history-aborted")
        } else if line.winners.is_empty() {
            tr.t("history-no-winner")
        } else {
            let winners: Vec<String> = line.winners.iter().map(ToString::to_string).collect();
            let winners = join_list(tr, &winners);
            tr.ta("history-won-by", &Args::new().text("players", winners))
        };
        text.push_str(&format!(
            "\n#{} · {game} · <t:{}:R> · {players} — {result}",
            line.id, line.finished_at
        ));
    }
    text.push('\n');
    text.push_str(&tr.t("history-footer"));
    text
}
