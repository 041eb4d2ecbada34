//! How the small things are named: buttons, cards, games, teams, players, dice, durations, the
//! seats of a list. The public labels serve the Discord adapter and the picker; the rest are the
//! words every topic file builds its sentences from.

use std::fmt;

use crate::engine::{Card, Variant};
use crate::i18n::{tr, tr_args, Args, Lang, Tr};
use crate::service::ids::UserId;
use crate::service::request::Button;

use super::payload::{CardLine, CardUse, SeatLine, TeamName, ZoneInfo};

/// A moment as a Discord timestamp in relative style (`<t:1700000000:R>`): every client shows it
/// as "in 5 minutes" in its own language and counts it down by itself.
pub fn discord_timestamp(unix_seconds: u64) -> String {
    format!("<t:{unix_seconds}:R>")
}

/// The label of a button in `lang`.
pub fn button_label(button: Button, lang: Lang) -> String {
    let key = match button {
        Button::Join => "button-join",
        Button::Leave => "button-leave",
        Button::AddBot => "button-addbot",
        Button::Begin => "button-begin",
        Button::Cancel => "button-cancel",
        Button::Roll => "button-roll",
        Button::Hand => "button-hand",
        Button::Rematch(_) => "button-rematch",
        Button::ConfirmLeave(_) => "button-leave-confirm",
        Button::KeepPlaying => "button-leave-keep",
        Button::AddBotLevel(_, level) => {
            return tr(lang, &format!("button-level-{level}"));
        }
        Button::RemoveBot => "button-removebot",
        Button::JoinTeam(team) => {
            return tr_args(lang, "button-join-team", &Args::new().number("team", team));
        }
        Button::More(_) => "button-more",
        Button::Status => "button-status",
        Button::Rules => "button-rules",
        Button::LeaveGame(_) => "button-leave-game",
        Button::Stop(_) => "button-stop",
        Button::ConfirmStop(_) => "button-stop-confirm",
        Button::Stats => "button-stats",
        Button::Profile => "button-profile",
        Button::Record(_) => "button-record",
        Button::NextGame(_) => "button-next-game",
        Button::AbandonSeries(_) => "button-abandon-series",
        Button::ConfirmAbandonSeries(_) => "button-abandon-series-confirm",
        Button::Accept(_) => "button-accept",
        Button::Decline(_) => "button-decline",
    };
    tr(lang, key)
}

/// The name of a card in `lang`: classic cards as `7♥`, kids cards as the animal's name.
pub fn card_label(card: Card, lang: Lang) -> String {
    let mut tr = Tr::new(lang);
    let text = card_name(&mut tr, card);
    tr.finish();
    text
}

/// The title of a game in `lang`.
pub fn game_name(variant: Variant, lang: Lang) -> String {
    tr(lang, &format!("game-{variant}"))
}

impl CardLine {
    /// The line in `lang`, without the bullet (also an autocomplete label).
    pub fn render(&self, lang: Lang) -> String {
        let mut tr = Tr::new(lang);
        let text = self.render_with(&mut tr);
        tr.finish();
        text
    }

    pub(super) fn render_with(&self, tr: &mut Tr) -> String {
        let card = card_name(tr, self.card);
        let classic = !self.card.is_kids();
        let key = match &self.use_ {
            CardUse::Cells(cells) => {
                return tr.ta(
                    "card-cells",
                    &Args::new()
                        .text("card", card)
                        .text("cells", cells.join(", ")),
                )
            }
            CardUse::Wild if classic => "card-two-eyed-jack",
            CardUse::Wild => "card-wild",
            CardUse::Remove if classic => "card-one-eyed-jack",
            CardUse::Remove => "card-remove",
            CardUse::Dead => "card-dead",
            CardUse::DeadExchanged => "card-dead-exchanged",
        };
        tr.ta(key, &Args::new().text("card", card))
    }
}

impl TeamName {
    /// The team's name in `lang`, like `team 1 (blue)`.
    pub fn render(&self, lang: Lang) -> String {
        let mut tr = Tr::new(lang);
        let text = team_name(&mut tr, *self);
        tr.finish();
        text
    }
}

impl fmt::Display for TeamName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

pub(super) fn mention(user: UserId) -> String {
    format!("<@{}>", user.0)
}

pub(super) fn count_number(count: usize) -> f64 {
    u32::try_from(count).map_or(f64::from(u32::MAX), f64::from)
}

pub(super) fn card_name(tr: &mut Tr, card: Card) -> String {
    if card.is_kids() {
        // The English name (Display) is the key of the animal's name.
        tr.t(&format!("animal-{card}"))
    } else {
        card.pretty()
    }
}

pub(super) fn game_title(tr: &mut Tr, variant: Variant) -> String {
    tr.t(&format!("game-{variant}"))
}

pub(super) fn team_name(tr: &mut Tr, team: TeamName) -> String {
    let color = tr.t(&format!("color-{}", team.color));
    tr.ta(
        "team-name",
        &Args::new()
            .number("number", team.number)
            .text("color", color),
    )
}

pub(super) fn dice_text(dice: [u8; 2]) -> String {
    let [a, b] = dice;
    format!("{a} + {b} = {}", u16::from(a) + u16::from(b))
}

pub(super) fn duration_text(tr: &mut Tr, seconds: u64) -> String {
    let number = |n: u64| u32::try_from(n).map_or(f64::from(u32::MAX), f64::from);
    if seconds >= 60 {
        let minutes = if seconds >= 120 { seconds / 60 } else { 1 };
        tr.ta(
            "duration-minutes",
            &Args::new().number("minutes", number(minutes)),
        )
    } else {
        tr.ta("duration", &Args::new().number("seconds", number(seconds)))
    }
}

/// A seat of a list: number, player (after their colour in a running game), team, cards.
pub(super) fn seat_line(tr: &mut Tr, index: usize, seat: &SeatLine) -> String {
    let mut line = match seat.colour {
        Some(team) => format!("\n{}. {} {}", index + 1, team.emoji(), seat.who),
        None => format!("\n{}. {}", index + 1, seat.who),
    };
    if let Some(team) = seat.team {
        line.push_str(" — ");
        line.push_str(&team_name(tr, team));
    }
    if let Some(cards) = seat.cards {
        line.push_str(" — ");
        line.push_str(&tr.ta("seat-cards", &Args::new().number("count", cards)));
    }
    line
}

/// A zone's centre and corners as message arguments.
pub(super) fn zone_args(zone: &ZoneInfo) -> Args<'static> {
    let [centre, first, last] = zone.names();
    Args::new()
        .text("centre", centre)
        .text("first", first)
        .text("last", last)
}
