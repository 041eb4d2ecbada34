//! The game as it runs, in the channel: the roll-off and the start, every move and what it scored.

use crate::engine::{Card, Variant};
use crate::i18n::{Args, Tr};

use super::labels::{
    card_name, count_number, dice_text, game_title, seat_line, team_name, zone_args,
};
use super::payload::{RollHint, SeatLine, TeamName, Who};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::RollOff { rounds, winner } => roll_off(tr, rounds, winner),
        Text::GameStarted { variant, seats } => game_started(tr, *variant, seats),
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
        } => removed(tr, who, *card, cell, *victim),
        Text::Placed {
            who,
            cell,
            replaced,
        } => placed(tr, who, cell, *replaced),
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
        } => zone_scored(tr, *team, *in_zone, *total, *target),
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

/// Who rolled what in each round of the roll-off, and who starts.
fn roll_off(tr: &mut Tr, rounds: &[Vec<(Who, [u8; 2])>], winner: &Who) -> String {
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

/// The start of a game: the game, the seats in turn order, and (card games) where the hands are.
fn game_started(tr: &mut Tr, variant: Variant, seats: &[SeatLine]) -> String {
    let game = game_title(tr, variant);
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

/// A chip removed, with the card that removed it (if any).
fn removed(tr: &mut Tr, who: &Who, card: Option<Card>, cell: &str, victim: TeamName) -> String {
    let victim = team_name(tr, victim);
    let args = Args::new()
        .text("player", who.to_string())
        .text("victim", victim)
        .text("cell", cell);
    match card {
        Some(card) => {
            let card = card_name(tr, card);
            tr.ta("removed-with-card", &args.text("card", card))
        }
        None => tr.ta("removed", &args),
    }
}

/// Dice: a chip placed, maybe replacing an opponent's.
fn placed(tr: &mut Tr, who: &Who, cell: &str, replaced: Option<TeamName>) -> String {
    let args = Args::new()
        .text("player", who.to_string())
        .text("cell", cell);
    match replaced {
        Some(team) => {
            let victim = team_name(tr, team);
            tr.ta("placed-replacing", &args.text("victim", victim))
        }
        None => tr.ta("placed", &args),
    }
}

/// King of the Board: a sequence scored, in the zone or outside it, and the team's points now.
fn zone_scored(tr: &mut Tr, team: TeamName, in_zone: bool, total: u8, target: u8) -> String {
    let team = team_name(tr, team);
    // A move that scores past the target: "4 points, 3 needed", never "4 of 3".
    let points = tr.ta(
        if total > target {
            "zone-points-past"
        } else {
            "zone-points"
        },
        &Args::new().number("total", total).number("target", target),
    );
    tr.ta(
        if in_zone {
            "zone-scored"
        } else {
            "zone-scored-outside"
        },
        &Args::new().text("team", team).text("points", points),
    )
}
