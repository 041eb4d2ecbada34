//! The game as it runs: the start, every move and what it scored, the board's caption, the hand,
//! the status and the rules.

use crate::engine::Variant;
use crate::i18n::{Args, Tr};

use super::labels::{
    card_name, count_number, dice_text, duration_text, game_title, seat_line, team_name,
};
use super::payload::{RollHint, StatusInfo, ZoneInfo};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::RollOff { rounds, winner } => {
            let mut parts = Vec::new();
            for (i, round) in rounds.iter().enumerate() {
                let rolls: Vec<String> = round
                    .iter()
                    .map(|(who, dice)| format!("{who} {}", dice_text(*dice)))
                    .collect();
                let key = if i == 0 { "roll-off" } else { "roll-off-again" };
                parts.push(tr.ta(key, &Args::new().text("rolls", rolls.join(", "))));
            }
            parts.push(tr.ta(
                "roll-off-winner",
                &Args::new().text("player", winner.to_string()),
            ));
            parts.join(" ")
        }
        Text::GameStarted { variant, seats } => {
            let game = game_title(tr, *variant);
            let mut text = tr.ta("game-started", &Args::new().text("game", game));
            for (i, seat) in seats.iter().enumerate() {
                text.push_str(&seat_line(tr, i, seat));
            }
            if variant.has_cards() {
                text.push('\n');
                text.push_str(&tr.t("game-started-cards"));
            }
            text
        }
        Text::Played { who, card, cell } => {
            let card = card_name(tr, *card);
            tr.ta(
                "played",
                &Args::new()
                    .text("player", who.to_string())
                    .text("card", card)
                    .text("cell", cell.as_str()),
            )
        }
        Text::Removed {
            who,
            card,
            cell,
            victim,
        } => {
            let victim = team_name(tr, *victim);
            let args = Args::new()
                .text("player", who.to_string())
                .text("victim", victim)
                .text("cell", cell.as_str());
            match card {
                Some(card) => {
                    let card = card_name(tr, *card);
                    tr.ta("removed-with-card", &args.text("card", card))
                }
                None => tr.ta("removed", &args),
            }
        }
        Text::Placed {
            who,
            cell,
            replaced,
        } => {
            let args = Args::new()
                .text("player", who.to_string())
                .text("cell", cell.as_str());
            match replaced {
                Some(team) => {
                    let victim = team_name(tr, *team);
                    tr.ta("placed-replacing", &args.text("victim", victim))
                }
                None => tr.ta("placed", &args),
            }
        }
        Text::Exchanged { who, card } => {
            let card = card_name(tr, *card);
            tr.ta(
                "exchanged",
                &Args::new()
                    .text("player", who.to_string())
                    .text("card", card),
            )
        }
        Text::Passed(who) => tr.ta("passed", &Args::new().text("player", who.to_string())),
        Text::Captured {
            team,
            victim,
            cells,
        } => {
            let team = team_name(tr, *team);
            let victim = team_name(tr, *victim);
            let [first, second] = cells;
            tr.ta(
                "captured",
                &Args::new()
                    .text("team", team)
                    .text("victim", victim)
                    .text("first", first.as_str())
                    .text("second", second.as_str()),
            )
        }
        Text::SequenceDone {
            team,
            count,
            target,
        } => {
            let team = team_name(tr, *team);
            tr.ta(
                "sequence-done",
                &Args::new()
                    .text("team", team)
                    .number("count", count_number(*count))
                    .number("target", *target),
            )
        }
        Text::SequenceBroken(team) => {
            let team = team_name(tr, *team);
            tr.ta("sequence-broken", &Args::new().text("team", team))
        }
        Text::ZoneScored {
            team,
            in_zone,
            total,
            target,
        } => {
            let team = team_name(tr, *team);
            // A move that scores past the target: "4 points, 3 needed", never "4 of 3".
            let points = tr.ta(
                if total > target {
                    "zone-points-past"
                } else {
                    "zone-points"
                },
                &Args::new()
                    .number("total", *total)
                    .number("target", *target),
            );
            tr.ta(
                if *in_zone {
                    "zone-scored"
                } else {
                    "zone-scored-outside"
                },
                &Args::new().text("team", team).text("points", points),
            )
        }
        Text::ZoneMoved(zone) => tr.ta("zone-moved", &zone_args(zone)),
        Text::Zone(zone) => tr.ta("zone-line", &zone_args(zone)),
        Text::Reshuffled => tr.t("reshuffled"),
        Text::ProvisionalWin(team) => {
            let team = team_name(tr, *team);
            tr.ta("provisional-win", &Args::new().text("team", team))
        }
        Text::Rolled { who, dice, hint } => {
            let hint = roll_hint(tr, *hint);
            tr.ta(
                "rolled",
                &Args::new()
                    .text("player", who.to_string())
                    .text("dice", dice_text(*dice))
                    .text("hint", hint),
            )
        }
        Text::BoardCaption { variant, to_move } => {
            let game = game_title(tr, *variant);
            tr.ta(
                "board-caption",
                &Args::new()
                    .text("game", game)
                    .text("player", to_move.to_string()),
            )
        }
        Text::Hand {
            channel,
            cards,
            your_turn,
        } => {
            let mut text = tr.ta(
                "hand-header",
                &Args::new().text("channel", format!("<#{}>", channel.0)),
            );
            for card in cards {
                text.push_str("\n• ");
                text.push_str(&card.render_with(tr));
            }
            if *your_turn {
                text.push('\n');
                text.push_str(&tr.ta(
                    "hand-your-turn",
                    &Args::new().text("channel", format!("<#{}>", channel.0)),
                ));
            }
            text
        }
        Text::Status(info) => status(tr, info),
        Text::Rules(variant) => tr.t(match variant {
            Variant::Classic => "rules-classic",
            Variant::Dice => "rules-dice",
            Variant::Kids => "rules-kids",
        }),
        _ => return None,
    })
}

fn roll_hint(tr: &mut Tr, hint: RollHint) -> String {
    match hint {
        RollHint::Number(n) => tr.ta("roll-hint-number", &Args::new().number("number", n)),
        RollHint::Replace(n) => tr.ta("roll-hint-replace", &Args::new().number("number", n)),
        RollHint::Remove => tr.t("roll-hint-remove"),
        RollHint::Free => tr.t("roll-hint-free"),
        RollHint::Blocked(n) => tr.ta("roll-hint-blocked", &Args::new().number("number", n)),
        RollHint::NothingToRemove => tr.t("roll-hint-nothing-to-remove"),
    }
}

fn status(tr: &mut Tr, info: &StatusInfo) -> String {
    let game = game_title(tr, info.variant);
    let mut text = tr.ta("status-header", &Args::new().text("game", game));
    for (i, seat) in info.seats.iter().enumerate() {
        text.push_str(&seat_line(tr, i, seat));
    }
    text.push('\n');
    text.push_str(&tr.ta(
        "status-to-move",
        &Args::new().text("player", info.to_move.to_string()),
    ));
    if let Some(dice) = info.roll {
        text.push(' ');
        text.push_str(&tr.ta("status-rolled", &Args::new().text("dice", dice_text(dice))));
    }
    let time = duration_text(tr, info.seconds_left);
    text.push_str(", ");
    text.push_str(&tr.ta("status-time-left", &Args::new().text("time", time)));
    let sequences: Vec<String> = info
        .sequences
        .iter()
        .map(|(team, n)| format!("{}: {n}", team_name(tr, *team)))
        .collect();
    text.push('\n');
    if let Some(points) = &info.points {
        let points: Vec<String> = points
            .iter()
            .map(|(team, n)| format!("{}: {n}", team_name(tr, *team)))
            .collect();
        text.push_str(
            &tr.ta(
                "status-points",
                &Args::new()
                    .number("target", info.target)
                    .text("list", points.join(", ")),
            ),
        );
    } else {
        text.push_str(
            &tr.ta(
                "status-sequences",
                &Args::new()
                    .number("target", info.target)
                    .text("list", sequences.join(", ")),
            ),
        );
    }
    if let Some(zone) = &info.zone {
        text.push('\n');
        text.push_str(&tr.ta("status-zone", &zone_args(zone)));
    }
    if let Some(n) = info.draw_pile {
        text.push('\n');
        text.push_str(&tr.ta(
            "status-draw-pile",
            &Args::new().number("count", count_number(n)),
        ));
    }
    text
}

/// A zone's centre and corners as message arguments.
fn zone_args(zone: &ZoneInfo) -> Args<'static> {
    let [centre, first, last] = zone.names();
    Args::new()
        .text("centre", centre)
        .text("first", first)
        .text("last", last)
}
