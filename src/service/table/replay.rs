//! A finished game as a web page's replay: the board after every move that placed or removed a chip
//! (the frames of the animated replay, from the same walk through the record,
//! [`crate::render::animate::each_frame`]), each drawn as a live table's [`BoardView`], and the
//! summary the final message gives (sequences, lines broken, King of the Board points).

use serde::Serialize;

use crate::analysis::summarize;
use crate::engine::{Record, Seat, Status, Variant};
use crate::i18n::{tr_args, Args, Lang};

use crate::service::text::TeamName;

use super::view::{board_view, team_view, BoardView, PlayerKind, StatusTexts, TeamView};

/// A seat of a finished game as the replay names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplaySeat {
    /// The player's name as plain text.
    pub name: String,
    /// A person or a computer player.
    pub kind: PlayerKind,
    /// The team.
    pub team: u8,
    /// Whether the player's side won (as the game was stored: also a win by giving up, which the
    /// record's last position does not show).
    pub won: bool,
}

/// One step of the replay: the board after a move (the first: the empty board).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplayFrame {
    /// The step, from 0 (the board before the first move).
    pub turn: u32,
    /// The index in the record of the action shown (`None`: the board before the first move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<usize>,
    /// The board.
    pub board: BoardView,
    /// The result, on the last step.
    pub texts: StatusTexts,
    /// Each team's score after this step, by team number: sequences made, or King of the Board
    /// points.
    pub scores: Vec<u8>,
}

/// A sequence made, for the summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MadeView {
    /// Whose.
    pub team: u8,
    /// The seat that completed it.
    pub seat: u8,
    /// The move that completed it (1-based; the replay's step of the same number shows it).
    pub move_number: u32,
    /// Its cells.
    pub cells: Vec<String>,
    /// King of the Board: its points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u8>,
}

/// A line one chip short of a sequence, broken by a removal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BrokenView {
    /// Who removed the chip.
    pub seat: u8,
    /// The team that lost it.
    pub victim: u8,
    /// Where.
    pub cell: String,
    /// The move (1-based).
    pub move_number: u32,
}

/// A human's agreement with the `hard` computer player over the game (the final message's follow-up).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AgreementView {
    /// The seat.
    pub seat: u8,
    /// Moves of theirs that were `hard`'s choice too.
    pub matched: u32,
    /// Moves of theirs that counted.
    pub counted: u32,
}

/// What the final message says of a game, as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplaySummary {
    /// The sequences in the order they were made.
    pub sequences: Vec<MadeView>,
    /// The lines broken by jacks (dragons, a 10), in order.
    pub broken: Vec<BrokenView>,
    /// King of the Board: each team's points at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<u8>>,
    /// The team that won on the board (`None`: a draw, or a game given up or stopped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<u8>,
    /// Moves that placed or removed a chip.
    pub moves: u32,
    /// Each human's agreement with `hard`, once worked out (empty before, and for a game without one).
    pub agreement: Vec<AgreementView>,
    /// All of the above as the final message says it, in the asked language, one plain sentence each
    /// (players by name, no markup): the sequences, the broken lines, the game's length, then each
    /// human's agreement.
    pub lines: Vec<String>,
}

/// A finished game's replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplayView {
    /// The game (`classic`, `dice`, `kids`).
    pub variant: String,
    /// Its number among the server's kept games.
    pub game: i64,
    /// What a team needed to win: sequences, or points in King of the Board.
    pub to_win: u8,
    /// The board after each move.
    pub frames: Vec<ReplayFrame>,
    /// The summary.
    pub summary: ReplaySummary,
    /// The teams with their colours and final sequences (and points).
    pub teams: Vec<TeamView>,
    /// The seats in order.
    pub seats: Vec<ReplaySeat>,
}

/// The replay of game `game` from its `record`, its seats named `seats`, each human's `agreement`
/// with `hard` as far as known (by seat), texts in `lang`; `None` if the record does not replay (a
/// damaged record is refused, never half shown).
pub fn replay_view(
    game: i64,
    record: &Record,
    seats: Vec<ReplaySeat>,
    agreement: Vec<AgreementView>,
    lang: Lang,
) -> Option<ReplayView> {
    let summary = summarize(record).ok()?;
    let name = |seat: Seat| {
        seats
            .get(usize::from(seat))
            .map_or_else(|| format!("{}", seat + 1), |s| s.name.clone())
    };
    let mut frames = Vec::new();
    let mut last = None;
    crate::render::animate::each_frame(record, |action, game| {
        let public = game.public_view();
        let position = game.position();
        let config = *position.config();
        let scores = (0..config.teams)
            .map(|team| {
                if config.is_king_of_the_board() {
                    position.points(team)
                } else {
                    u8::try_from(position.sequence_count(team)).unwrap_or(u8::MAX)
                }
            })
            .collect();
        frames.push(ReplayFrame {
            turn: u32::try_from(frames.len()).unwrap_or(u32::MAX),
            action,
            board: board_view(&public, lang, &name),
            texts: StatusTexts::default(),
            scores,
        });
        last = Some(game.clone());
        Ok(())
    })
    .ok()?;
    let end = last?;
    let position = end.position();
    let config = *position.config();
    let variant = config.variant;
    if let Some(frame) = frames.last_mut() {
        frame.texts.result = Some(result_line(position.status(), variant, &seats, lang));
    }
    let layout = position.layout();
    let teams = (0..config.teams)
        .map(|team| TeamView {
            sequences: Some(u8::try_from(position.sequence_count(team)).unwrap_or(u8::MAX)),
            points: config.is_king_of_the_board().then(|| position.points(team)),
            ..team_view(variant, team, lang)
        })
        .collect();
    let lines = summary_lines(&summary, &agreement, config, layout, lang, &name);
    Some(ReplayView {
        variant: variant.to_string(),
        game,
        to_win: position.target(),
        frames,
        summary: ReplaySummary {
            sequences: summary
                .sequences
                .iter()
                .map(|s| MadeView {
                    team: s.team,
                    seat: s.seat,
                    move_number: s.move_number,
                    cells: s.cells.iter().map(|&c| layout.cell_name(c)).collect(),
                    points: s.points,
                })
                .collect(),
            broken: summary
                .broken
                .iter()
                .map(|b| BrokenView {
                    seat: b.seat,
                    victim: b.victim,
                    cell: layout.cell_name(b.cell),
                    move_number: b.move_number,
                })
                .collect(),
            points: config
                .is_king_of_the_board()
                .then(|| position.points_per_team()),
            winner: summary.board_win,
            moves: summary.moves,
            agreement,
            lines,
        },
        teams,
        seats,
    })
}

/// The summary's sentences (see [`ReplaySummary::lines`]), from the catalogue messages the final
/// message uses, with the players' names as plain text.
fn summary_lines(
    summary: &crate::analysis::GameSummary,
    agreement: &[AgreementView],
    config: crate::engine::Config,
    layout: &crate::engine::Layout,
    lang: Lang,
    name: &dyn Fn(Seat) -> String,
) -> Vec<String> {
    let team = |team| TeamName::of(config.variant, team).render(lang);
    let mut lines = Vec::new();
    for made in &summary.sequences {
        let args = Args::new()
            .text("team", team(made.team))
            .text("player", name(made.seat))
            .number("move", made.move_number);
        lines.push(match made.points {
            None => tr_args(lang, "summary-sequence", &args),
            Some(points) if made.in_zone => tr_args(
                lang,
                "summary-sequence-zone",
                &args.number("points", u32::from(points)),
            ),
            Some(points) => tr_args(
                lang,
                "summary-sequence-points",
                &args.number("points", u32::from(points)),
            ),
        });
    }
    for broken in &summary.broken {
        lines.push(tr_args(
            lang,
            "summary-broken",
            &Args::new()
                .text("player", name(broken.seat))
                .text("team", team(broken.victim))
                .number("chips", config.line_length().saturating_sub(1))
                .text("cell", layout.cell_name(broken.cell))
                .number("move", broken.move_number),
        ));
    }
    lines.push(tr_args(
        lang,
        "summary-length",
        &Args::new().number("moves", summary.moves),
    ));
    for line in agreement {
        let player = name(line.seat);
        lines.push(
            match crate::analysis::agreement::share_percent(line.matched, line.counted) {
                None => tr_args(lang, "agreement-none", &Args::new().text("player", player)),
                Some(percent) => tr_args(
                    lang,
                    "agreement-line",
                    &Args::new()
                        .text("player", player)
                        .number("percent", percent)
                        .number("matched", line.matched)
                        .number("counted", line.counted),
                ),
            },
        );
    }
    lines
}

/// How a stored game ended, as the page's live view says it ([`super::view::ending_line`]): the
/// winners of a game whose record's last position still runs (given up, stopped) are the sides the
/// store names as winners.
fn result_line(status: Status, variant: Variant, seats: &[ReplaySeat], lang: Lang) -> String {
    let mut winners: Vec<u8> = seats.iter().filter(|s| s.won).map(|s| s.team).collect();
    winners.sort_unstable();
    winners.dedup();
    super::view::ending_line(status, &winners, false, variant, lang, |team| {
        seats
            .iter()
            .filter(|s| s.team == team)
            .map(|s| s.name.clone())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(name: &str, team: u8, won: bool) -> ReplaySeat {
        ReplaySeat {
            name: name.to_string(),
            kind: PlayerKind::Person,
            team,
            won,
        }
    }

    /// The replay's last step says how the game ended whatever the ending: a win on the board, a
    /// draw (a blocked board or the cards run out), a win by giving up (the record's last position
    /// still runs), a shared win, or a stop with no winner.
    #[test]
    fn the_result_is_said_for_every_ending() {
        let en = |status: Status, seats: &[ReplaySeat]| {
            result_line(status, Variant::Classic, seats, Lang::En)
        };
        let lost = [seat("Ann", 0, false), seat("Bob", 1, false)];
        let ann_won = [seat("Ann", 0, true), seat("Bob", 1, false)];
        let both = [
            seat("Ann", 0, true),
            seat("Bob", 1, true),
            seat("Cid", 2, false),
        ];
        let won = en(Status::Won(0), &ann_won);
        assert!(won.contains("wins") && won.contains("Ann"), "{won}");
        assert_eq!(en(Status::Drawn, &lost), "The game ends in a draw.");
        let forfeit = en(Status::InProgress, &ann_won);
        assert!(
            forfeit.contains("Ann") && forfeit != won,
            "a win by giving up is said as one: {forfeit}"
        );
        let shared = en(Status::InProgress, &both);
        assert!(!shared.contains("Cid") && !shared.is_empty(), "{shared}");
        assert_eq!(en(Status::InProgress, &lost), "The game ends in a draw.");
        let german = result_line(Status::Drawn, Variant::Classic, &lost, Lang::De);
        assert!(!german.is_empty() && german != "The game ends in a draw.");
    }
}
