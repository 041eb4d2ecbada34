//! The end of a game: who won, the summary, the replay and agreement follow-ups, whether it counted
//! for ratings, the record and the rematch.

use crate::analysis::agreement::share_percent;
use crate::i18n::{join_list, Args, Tr};
use crate::service::rules::ABORT_MOVES;

use super::labels::team_name;
use super::payload::{AgreementLine, RatingNote, TeamName, Who};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::Won { team, members }
        | Text::WonByForfeit { team, members }
        | Text::WonOnTime { team, members } => {
            let key = match text {
                Text::Won { .. } => "won",
                Text::WonOnTime { .. } => "won-on-time",
                _ => "won-by-forfeit",
            };
            let team = team_name(tr, *team);
            let names: Vec<String> = members.iter().map(ToString::to_string).collect();
            let players = join_list(tr, &names);
            tr.ta(
                key,
                &Args::new().text("team", team).text("players", players),
            )
        }
        Text::Scores(scores) => {
            let parts: Vec<String> = scores
                .iter()
                .map(|(team, points)| format!("{}: {points}", team_name(tr, *team)))
                .collect();
            tr.ta("scores", &Args::new().text("scores", parts.join(", ")))
        }
        Text::Drawn => tr.t("drawn"),
        Text::Blocked {
            winner,
            scores,
            points,
        } => {
            let count: Vec<String> = scores.iter().map(ToString::to_string).collect();
            let outcome = match (winner, scores.is_empty(), points) {
                (None, true, _) => "draw",
                (None, false, _) => "draw-count",
                (Some(_), _, true) => "points",
                (Some(_), _, false) => "sequences",
            };
            let team = winner.map(|t| team_name(tr, t)).unwrap_or_default();
            tr.ta(
                "blocked",
                &Args::new()
                    .text("outcome", outcome)
                    .text("team", team)
                    .text("count", count.join("–")),
            )
        }
        Text::SummarySequence {
            team,
            who,
            move_number,
            points,
            in_zone,
        } => summary_sequence(tr, *team, who, *move_number, *points, *in_zone),
        Text::SummaryBroken {
            who,
            team,
            chips,
            cell,
            move_number,
        } => {
            let team = team_name(tr, *team);
            tr.ta(
                "summary-broken",
                &Args::new()
                    .text("player", who.to_string())
                    .text("team", team)
                    .number("chips", *chips)
                    .text("cell", cell.as_str())
                    .number("move", *move_number),
            )
        }
        Text::GameReplay { id } => tr.ta(
            "game-replay",
            &Args::new().number("id", u32::try_from(*id).unwrap_or(u32::MAX)),
        ),
        Text::Agreement { game, lines } => agreement(tr, *game, lines),
        Text::SummaryLength { moves, minutes } => match minutes {
            Some(minutes) => tr.ta(
                "summary-length-minutes",
                &Args::new()
                    .number("moves", *moves)
                    .number("minutes", u32::try_from(*minutes).unwrap_or(u32::MAX)),
            ),
            None => tr.ta("summary-length", &Args::new().number("moves", *moves)),
        },
        Text::Stopped(who) => tr.ta("stopped", &Args::new().text("player", who.to_string())),
        Text::NoHumansLeft => tr.t("no-humans-left"),
        Text::StopIsGivingUp(who) => tr.ta(
            "stop-is-giving-up",
            &Args::new().text("player", who.to_string()),
        ),
        Text::SharedWin(teams) => {
            let teams: Vec<String> = teams.iter().map(|t| team_name(tr, *t)).collect();
            let teams = join_list(tr, &teams);
            tr.ta("shared-win", &Args::new().text("teams", teams))
        }
        Text::Rating(note) => rating_note(tr, *note),
        Text::RematchNotPlayer => tr.t("rematch-not-player"),
        Text::RematchExpired => tr.t("rematch-expired"),
        Text::RematchSuperseded => tr.t("rematch-superseded"),
        Text::RecordAttached => tr.t("record-attached"),
        Text::GameSaved { id } => tr.ta("game-saved", &Args::new().text("id", id.to_string())),
        Text::WatchButton => tr.t("button-watch"),
        Text::ActivityButton => tr.t("button-activity"),
        Text::ReplayLinkButton => tr.t("button-replay-web"),
        _ => return None,
    })
}

/// Whether a game counts for ratings, in one line.
pub(super) fn rating_note(tr: &mut Tr, note: RatingNote) -> String {
    match note {
        RatingNote::Rated => tr.t("rating-rated"),
        RatingNote::Casual => tr.t("rating-casual"),
        RatingNote::NeedsOpponent => tr.t("rating-needs-opponent"),
        RatingNote::CasualLimit { limit } => {
            tr.ta("rating-casual-limit", &Args::new().number("limit", limit))
        }
        RatingNote::Aborted => tr.ta("rating-aborted", &Args::new().number("moves", ABORT_MOVES)),
        RatingNote::ModeratorStop { gave_up: false } => tr.t("rating-moderator-stop"),
        RatingNote::ModeratorStop { gave_up: true } => tr.t("rating-moderator-stop-gave-up"),
    }
}

/// A line of the final summary: a sequence, who completed it on which move, and (King of the
/// Board) what it scored.
fn summary_sequence(
    tr: &mut Tr,
    team: TeamName,
    who: &Who,
    move_number: u32,
    points: Option<u8>,
    in_zone: bool,
) -> String {
    let team = team_name(tr, team);
    let args = Args::new()
        .text("team", team)
        .text("player", who.to_string())
        .number("move", move_number);
    match points {
        None => tr.ta("summary-sequence", &args),
        Some(points) => {
            let key = if in_zone {
                "summary-sequence-zone"
            } else {
                "summary-sequence-points"
            };
            tr.ta(key, &args.number("points", u32::from(points)))
        }
    }
}

/// The follow-up of a finished game: each human's agreement with the `hard` computer player.
fn agreement(tr: &mut Tr, game: i64, lines: &[AgreementLine]) -> String {
    let mut out = vec![tr.ta(
        "agreement-title",
        &Args::new().number("game", u32::try_from(game).unwrap_or(u32::MAX)),
    )];
    for line in lines {
        let player = line.who.to_string();
        out.push(match share_percent(line.matched, line.counted) {
            None => tr.ta("agreement-none", &Args::new().text("player", player)),
            Some(percent) => tr.ta(
                "agreement-line",
                &Args::new()
                    .text("player", player)
                    .number("percent", percent)
                    .number("matched", line.matched)
                    .number("counted", line.counted),
            ),
        });
    }
    out.push(tr.t("agreement-note"));
    out.join("\n")
}
