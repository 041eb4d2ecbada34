//! What a player asks to see: the status of a game, their hand, the board's caption, the rules.

use crate::engine::Variant;
use crate::i18n::{Args, Tr};

use super::labels::{
    count_number, dice_text, duration_text, game_title, seat_line, team_name, zone_args,
};
use super::payload::StatusInfo;
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
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

/// The status of a running game: seats, whose turn and how long, the score, the zone, the draw pile.
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
