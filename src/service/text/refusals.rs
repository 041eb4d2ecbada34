//! Requests refused: no table here, not your turn, a card or a cell that does not fit, a game that
//! cannot start as asked (the engine's reasons in the user's words).

use crate::engine::{Config, Options, PlayError, SetupError, Variant};
use crate::i18n::{Args, Tr};

use super::labels::{card_name, dice_text, game_title, mention, team_name};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::NoTable => tr.t("no-table"),
        Text::PlayedElsewhere => tr.t("played-elsewhere"),
        Text::TableExists => tr.t("table-exists"),
        Text::AlreadyStarted => tr.t("already-started"),
        Text::NotStarted => tr.t("not-started"),
        Text::AlreadyJoined => tr.t("already-joined"),
        Text::LobbyFull { max } => tr.ta("lobby-full", &Args::new().number("max", *max)),
        Text::NotInGame => tr.t("not-in-game"),
        Text::NotHost { host } => tr.ta("not-host", &Args::new().text("host", mention(*host))),
        Text::NotYourTurn { to_move } => tr.ta(
            "not-your-turn",
            &Args::new().text("player", to_move.to_string()),
        ),
        Text::Illegal(e) => play_error(tr, *e),
        Text::IllegalWithCells(e, cells) => illegal_with_cells(tr, *e, cells),
        Text::BadCard { typed, variant } => {
            let key = match variant {
                Variant::Kids => "bad-card-kids",
                Variant::Classic | Variant::Dice => "bad-card-classic",
            };
            tr.ta(key, &Args::new().text("typed", typed.as_str()))
        }
        Text::BadCell { typed, last } => tr.ta(
            "bad-cell",
            &Args::new()
                .text("typed", typed.as_str())
                .text("last", last.as_str()),
        ),
        Text::CardNeeded => tr.t("card-needed"),
        Text::CellNeeded => tr.t("cell-needed"),
        Text::BadOption => tr.t("bad-option"),
        Text::GuildOnly => tr.t("guild-only"),
        Text::ExternalAppsOff => tr.t("external-apps-off"),
        Text::ServerOnlyLists => tr.t("server-only-lists"),
        Text::CasualOutsideServers => tr.t("casual-outside-servers"),
        Text::AnswersOnly => tr.t("answers-only"),
        Text::HeldBack => tr.t("held-back"),
        Text::NoCardsInDice => tr.t("no-cards-in-dice"),
        Text::NotDice => tr.t("not-dice"),
        Text::RollFirst => tr.t("roll-first"),
        Text::AlreadyRolled { dice } => tr.ta(
            "already-rolled",
            &Args::new().text("dice", dice_text(*dice)),
        ),
        Text::CannotStart(variant, e) => setup_error(tr, *variant, e),
        Text::BadTeamCount { teams, variant } => {
            let game = game_title(tr, *variant);
            tr.ta(
                "bad-team-count",
                &Args::new()
                    .text("game", game)
                    .number("teams", *teams)
                    .text("variant", variant.to_string()),
            )
        }
        Text::BadTurnTime { secs, min, max } => tr.ta(
            "bad-turn-time",
            &Args::new()
                .number("secs", *secs)
                .number("min", *min)
                .number("max", *max),
        ),
        Text::BadTeam { team, max } => tr.ta(
            "bad-team",
            &Args::new().number("team", *team).number("max", *max),
        ),
        Text::TeamFull { team, size, chosen } => {
            let team = team_name(tr, *team);
            tr.ta(
                "team-full",
                &Args::new()
                    .number("chosen", *chosen)
                    .text("team", team)
                    .number("size", *size),
            )
        }
        Text::NoBot => tr.t("no-bot"),
        Text::Internal => tr.t("internal"),
        Text::RemoveWithCard(variant) => {
            let key = match variant {
                Variant::Kids => "remove-with-dragon",
                Variant::Classic | Variant::Dice => "remove-with-jack",
            };
            tr.t(key)
        }
        Text::NotInHand(cards) => {
            let names: Vec<String> = cards.iter().map(|&c| card_name(tr, c)).collect();
            tr.ta("not-in-hand", &Args::new().text("cards", names.join(", ")))
        }
        Text::RollDoesNotMatch { total, cells } => roll_does_not_match(tr, *total, cells),
        Text::TeamNoRoom { team, size } => {
            let team = team_name(tr, *team);
            tr.ta(
                "team-no-room",
                &Args::new().text("team", team).number("size", *size),
            )
        }
        Text::HostGaveUp => tr.t("host-gave-up"),
        Text::AlreadyOnTeam(team) => {
            let team = team_name(tr, *team);
            tr.ta("already-on-team", &Args::new().text("team", team))
        }
        _ => return None,
    })
}

pub(super) fn play_error(tr: &mut Tr, error: PlayError) -> String {
    tr.t(&format!("play-error-{}", error.code()))
}

fn setup_error(tr: &mut Tr, asked: Variant, error: &SetupError) -> String {
    match error {
        SetupError::PlayerCount {
            variant, players, ..
        } => {
            let game = game_title(tr, *variant);
            tr.ta(
                "setup-player-count",
                &Args::new()
                    .text("game", game)
                    .number("players", *players)
                    .text("variant", variant.to_string()),
            )
        }
        SetupError::Teams {
            variant,
            players,
            teams,
            ..
        } => {
            // The team counts that work, asked of the engine rather than repeated here.
            let possible: Vec<String> = (2..=4u8)
                .filter(|&t| Config::new(*variant, *players, Some(t), Options::default()).is_ok())
                .map(|t| t.to_string())
                .collect();
            let args = Args::new()
                .number("players", *players)
                .number("teams", *teams);
            if *players <= 3 || possible.is_empty() {
                tr.ta("setup-teams-alone", &args)
            } else {
                let game = game_title(tr, *variant);
                let possible = join_or(tr, &possible);
                tr.ta(
                    "setup-teams",
                    &args.text("game", game).text("possible", possible),
                )
            }
        }
        SetupError::Option { option, .. } => match *option {
            "scoring" | "capture_pairs" => {
                let game = game_title(tr, asked);
                // The option as the user's language names it in `/sequence start`.
                let name = tr.t(&format!("opt-start-{option}"));
                tr.ta(
                    "setup-house-rule",
                    &Args::new().text("option", name).text("game", game),
                )
            }
            "sequences_to_win" if asked != Variant::Classic => {
                let game = game_title(tr, asked);
                tr.ta("setup-one-sequence", &Args::new().text("game", game))
            }
            "sequences_to_win" => tr.t("setup-sequences-range"),
            "sequence_length" => tr.ta(
                "setup-sequence-length",
                &Args::new().text("variant", asked.to_string()),
            ),
            "king_of_the_board" | "points_to_win" => {
                // The option and the mode as the user's language names them in `/sequence start`.
                let points = tr.t("opt-start-points_to_win");
                let mode = tr.t("choice-mode-king_of_the_board");
                let key = if *option == "points_to_win" {
                    "setup-points-to-win"
                } else {
                    "setup-king-of-the-board"
                };
                tr.ta(key, &Args::new().text("option", points).text("mode", mode))
            }
            _ => tr.ta(
                "setup-other",
                &Args::new().text("reason", error.to_string()),
            ),
        },
        SetupError::UnknownVariant(_)
        | SetupError::Deck(_)
        | SetupError::Roll(_)
        | SetupError::Zone(_) => tr.ta(
            "setup-other",
            &Args::new().text("reason", error.to_string()),
        ),
    }
}

/// `2 or 3`: the last two joined by the language's "or" (team counts are short lists).
pub(super) fn join_or(tr: &mut Tr, items: &[String]) -> String {
    match items {
        [rest @ .., last] if !rest.is_empty() => tr.ta(
            "list-or",
            &Args::new()
                .text("first", rest.join(", "))
                .text("last", last.as_str()),
        ),
        _ => items.join(", "),
    }
}

/// The engine's reason, and the cells that would work for the card (or that none would).
fn illegal_with_cells(tr: &mut Tr, e: PlayError, cells: &[String]) -> String {
    let reason = play_error(tr, e);
    let cells = if cells.is_empty() {
        tr.t("illegal-no-cells")
    } else {
        tr.ta(
            "illegal-cells",
            &Args::new().text("cells", cells.join(", ")),
        )
    };
    format!("{reason} {cells}")
}

/// Dice: the cell does not fit the roll, and the cells that do (when few enough to list).
fn roll_does_not_match(tr: &mut Tr, total: u8, cells: &[String]) -> String {
    let reason = tr.ta("roll-does-not-match", &Args::new().number("total", total));
    if cells.is_empty() {
        reason
    } else {
        let cells = tr.ta("roll-cells", &Args::new().text("cells", cells.join(", ")));
        format!("{reason} {cells}")
    }
}
