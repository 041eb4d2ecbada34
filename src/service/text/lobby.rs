//! The lobby: its message, what happens to it, and the private acknowledgements of lobby commands.

use crate::engine::Options;
use crate::i18n::{join_list, Args, Tr};
use crate::service::names::chat_name;

use super::end::rating_note;
use super::labels::{discord_timestamp, duration_text, game_title, mention, seat_line, team_name};
use super::payload::{LobbyCard, LobbyRules};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::LobbyOpened => tr.t("lobby-opened"),
        Text::Joined => tr.t("joined"),
        Text::Left => tr.t("left"),
        Text::BotAdded(name) => tr.ta("bot-added", &Args::new().text("name", chat_name(name))),
        Text::BotRemoved(name) => tr.ta("bot-removed", &Args::new().text("name", chat_name(name))),
        Text::CancelledAck => tr.t("cancelled-ack"),
        Text::BegunAck => tr.t("begun-ack"),
        Text::ForfeitAck => tr.t("forfeit-ack"),
        Text::StoppedAck => tr.t("stopped-ack"),
        Text::Lobby(card) | Text::LobbyStatus(card) => lobby_card(tr, card),
        Text::LobbyStarted(variant) => {
            let game = game_title(tr, *variant);
            tr.ta("lobby-started", &Args::new().text("game", game))
        }
        Text::LobbyCancelled { by } => {
            tr.ta("lobby-cancelled", &Args::new().text("player", mention(*by)))
        }
        Text::LobbyExpired => tr.t("lobby-expired"),
        Text::LobbyAbandoned { computers } => tr.t(if *computers {
            "lobby-abandoned-computers"
        } else {
            "lobby-abandoned"
        }),
        Text::HostChanged(user) => {
            tr.ta("host-changed", &Args::new().text("player", mention(*user)))
        }
        Text::Done => tr.t("done"),
        Text::BotMenu { added: None } => tr.t("bot-menu"),
        Text::BotMenu { added: Some(name) } => {
            tr.ta("bot-menu-added", &Args::new().text("name", chat_name(name)))
        }
        Text::InviteNotMentions => tr.t("invite-not-mentions"),
        Text::InviteNotPeople => tr.t("invite-not-people"),
        Text::InviteTwice(user) => {
            tr.ta("invite-twice", &Args::new().text("player", mention(*user)))
        }
        Text::InviteSelf => tr.t("invite-self"),
        Text::InviteTooMany { max } => tr.ta("invite-too-many", &Args::new().number("max", *max)),
        Text::InviteBot(user) => tr.ta("invite-bot", &Args::new().text("player", mention(*user))),
        Text::NotInvited => tr.t("not-invited"),
        Text::DeclinedAck => tr.t("declined-ack"),
        Text::ChallengeDeclined {
            by,
            variant,
            channel,
        } => {
            let game = game_title(tr, *variant);
            tr.ta(
                "challenge-declined",
                &Args::new()
                    .text("player", mention(*by))
                    .text("game", game)
                    .text("channel", format!("<#{}>", channel.0)),
            )
        }
        Text::TeamChanged(team) => {
            let team = team_name(tr, *team);
            tr.ta("team-changed", &Args::new().text("team", team))
        }
        _ => return None,
    })
}

fn lobby_card(tr: &mut Tr, card: &LobbyCard) -> String {
    let game = game_title(tr, card.variant);
    let mut text = tr.ta(
        "lobby-header",
        &Args::new()
            .text("game", game)
            .text("host", mention(card.host)),
    );
    if let Some(teams) = card.teams {
        text.push(' ');
        text.push_str(&tr.ta("lobby-teams", &Args::new().number("teams", teams)));
    }
    let options = options_text(tr, &card.options);
    if !options.is_empty() {
        text.push(' ');
        text.push_str(&tr.ta("lobby-options", &Args::new().text("options", options)));
    }
    text.push('\n');
    let count = u32::try_from(card.seats.len()).unwrap_or(u32::MAX);
    text.push_str(
        &tr.ta(
            "lobby-players",
            &Args::new()
                .number("count", count)
                .number("max", card.max_players),
        ),
    );
    if card.seats.is_empty() {
        text.push('\n');
        text.push_str(&tr.t("lobby-nobody"));
    }
    for (i, seat) in card.seats.iter().enumerate() {
        text.push_str(&seat_line(tr, i, seat));
    }
    if !card.invited.is_empty() {
        let invited: Vec<String> = card
            .invited
            .iter()
            .map(|seat| match seat.team {
                Some(team) => format!("{} ({})", seat.who, team_name(tr, team)),
                None => seat.who.to_string(),
            })
            .collect();
        let players = join_list(tr, &invited);
        text.push('\n');
        text.push_str(&tr.ta("lobby-invited", &Args::new().text("players", players)));
    }
    if let (false, Some(lapses)) = (card.challenged.is_empty(), card.challenge_lapses) {
        let players: Vec<String> = card.challenged.iter().map(|&u| mention(u)).collect();
        let players = join_list(tr, &players);
        text.push('\n');
        text.push_str(
            &tr.ta(
                "lobby-challenge",
                &Args::new()
                    .text("players", players)
                    .text("when", discord_timestamp(lapses)),
            ),
        );
    }
    if !card.unanswered.is_empty() {
        let players: Vec<String> = card.unanswered.iter().map(|&u| mention(u)).collect();
        let players = join_list(tr, &players);
        text.push('\n');
        text.push_str(&tr.ta(
            "lobby-challenge-lapsed",
            &Args::new().text("players", players),
        ));
    }
    if let Some(rules) = &card.rules {
        text.push('\n');
        text.push_str(&lobby_rules(tr, rules));
    }
    if let Some(note) = card.rating {
        text.push('\n');
        text.push_str(&rating_note(tr, note));
    }
    text.push('\n');
    text.push_str(&tr.t("lobby-footer"));
    text
}

/// The settings line of a lobby.
fn lobby_rules(tr: &mut Tr, rules: &LobbyRules) -> String {
    let target = if let Some(points) = rules.king_of_the_board {
        tr.ta("lobby-rules-kotb", &Args::new().number("count", points))
    } else if rules.scoring {
        tr.t("lobby-rules-scoring")
    } else {
        match rules.sequences_three_teams {
            Some(three) => tr.ta(
                "lobby-rules-sequences-by-teams",
                &Args::new()
                    .number("count", rules.sequences)
                    .number("three", three),
            ),
            None => tr.ta(
                "lobby-rules-sequences",
                &Args::new().number("count", rules.sequences),
            ),
        }
    };
    let target = match rules.series {
        Some(best_of) => {
            let series = tr.ta("lobby-rules-series", &Args::new().number("count", best_of));
            format!("{series} · {target}")
        }
        None => target,
    };
    let reminder = match rules.reminder_secs {
        Some(secs) => {
            let time = duration_text(tr, secs);
            tr.ta("lobby-rules-reminder", &Args::new().text("time", time))
        }
        None => tr.t("lobby-rules-no-reminder"),
    };
    let timeout = duration_text(tr, rules.timeout_secs);
    let on_timeout = if rules.timeout_gives_up {
        tr.ta(
            "lobby-rules-timeout-give-up",
            &Args::new().text("timeout", timeout),
        )
    } else if rules.replace_after > 0 {
        tr.ta(
            "lobby-rules-timeout-replaced",
            &Args::new()
                .text("timeout", timeout)
                .number("count", rules.replace_after),
        )
    } else {
        tr.ta(
            "lobby-rules-timeout-computer",
            &Args::new().text("timeout", timeout),
        )
    };
    let level = tr.t(&format!("level-{}", rules.bot_level));
    tr.ta(
        "lobby-rules",
        &Args::new()
            .text("target", target)
            .text("reminder", reminder)
            .text("timeout", on_timeout)
            .text("level", level),
    )
}

fn options_text(tr: &mut Tr, options: &Options) -> String {
    let mut parts = Vec::new();
    if let Some(n) = options.sequences_to_win {
        parts.push(tr.ta("option-sequences-to-win", &Args::new().number("count", n)));
    }
    if let Some(n) = options.sequence_length {
        parts.push(tr.ta("option-sequence-length", &Args::new().number("length", n)));
    }
    if options.equal_turns {
        parts.push(tr.t("option-equal-turns"));
    }
    if options.scoring {
        parts.push(tr.t("option-scoring"));
    }
    if options.capture_pairs {
        parts.push(tr.t("option-capture-pairs"));
    }
    if options.king_of_the_board {
        parts.push(tr.t("option-king-of-the-board"));
    }
    if let Some(n) = options.points_to_win {
        parts.push(tr.ta("option-points-to-win", &Args::new().number("count", n)));
    }
    parts.join(", ")
}
