//! Profiles, head-to-head and achievements: the text version of a player's profile (for screen
//! readers and clients that do not load images), the words of the card the render layer draws
//! ([`profile_card`]), `/sequence versus`, and the line a final message gets for each achievement
//! its game unlocked.

use crate::analysis::agreement::share_percent;
use crate::analysis::profile::{Achievement, Breakdown, Figures, GameKind, Opposition};
use crate::i18n::{join_list, Args, Lang, Tr};
use crate::render::{CardAchievement, CardChart, CardProgress, CardTable, CardVersus, ProfileCard};

use super::labels::game_title;
use super::payload::{ProfileInfo, SharedLine, VersusInfo, Who};
use super::records::{points_text, rating_text, tenths_text};
use super::Text;

/// Achievements whose progress the card shows (the nearest not yet unlocked).
const NEAREST: usize = 2;

/// Milliseconds in an hour ([`Achievement::TenHours`] counts milliseconds; it is shown in hours).
const HOUR_MS: u32 = 3_600_000;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::Profile(info) => profile_text(tr, info),
        Text::NoProfile { who } => {
            tr.ta("profile-none", &Args::new().text("player", who.to_string()))
        }
        Text::ProfilesRebuilding { percent } => tr.ta(
            "profile-rebuilding",
            &Args::new().number("percent", *percent),
        ),
        Text::Versus(versus) => versus_text(tr, versus),
        Text::NoVersus { other } => {
            tr.ta("versus-none", &Args::new().text("other", other.to_string()))
        }
        Text::VersusSelf => tr.t("versus-self"),
        Text::Unlocked { who, achievements } => {
            let names: Vec<String> = achievements
                .iter()
                .map(|a| format!("*{}*", achievement_name_in(tr, *a)))
                .collect();
            let names = join_list(tr, &names);
            tr.ta(
                "achievement-unlocked",
                &Args::new()
                    .text("player", who.to_string())
                    .text("names", names),
            )
        }
        _ => return None,
    })
}

/// The lines of a final message for the achievements its game unlocked: one per player, in the order
/// the players first come, each naming theirs in the catalogue's order.
pub fn unlock_lines(unlocked: impl IntoIterator<Item = (Who, Achievement)>) -> Vec<Text> {
    let mut by_player: Vec<(Who, Vec<Achievement>)> = Vec::new();
    for (who, achievement) in unlocked {
        match by_player.iter_mut().find(|(w, _)| *w == who) {
            Some((_, list)) => list.push(achievement),
            None => by_player.push((who, vec![achievement])),
        }
    }
    by_player
        .into_iter()
        .map(|(who, mut achievements)| {
            achievements.sort();
            achievements.dedup();
            Text::Unlocked { who, achievements }
        })
        .collect()
}

/// An achievement's name in `lang`.
pub fn achievement_name(achievement: Achievement, lang: Lang) -> String {
    let mut tr = Tr::new(lang);
    let text = achievement_name_in(&mut tr, achievement);
    tr.finish();
    text
}

/// An achievement's one-line condition in `lang`.
pub fn achievement_condition(achievement: Achievement, lang: Lang) -> String {
    let mut tr = Tr::new(lang);
    let text = achievement_condition_in(&mut tr, achievement);
    tr.finish();
    text
}

fn achievement_name_in(tr: &mut Tr, achievement: Achievement) -> String {
    tr.t(&format!("achievement-{}", achievement.key()))
}

fn achievement_condition_in(tr: &mut Tr, achievement: Achievement) -> String {
    tr.t(&format!("achievement-{}-condition", achievement.key()))
}

/// Progress toward an achievement as shown: have and goal, in hours for play time.
fn progress(achievement: Achievement, info: &ProfileInfo) -> (u32, u32) {
    let have = achievement.have(&info.feats, info.series.won);
    let goal = achievement.goal();
    match achievement {
        Achievement::TenHours => (have / HOUR_MS, goal / HOUR_MS),
        _ => (have, goal),
    }
}

/// Whether the player has unlocked `achievement`.
fn is_unlocked(info: &ProfileInfo, achievement: Achievement) -> bool {
    info.unlocked.iter().any(|(a, _)| *a == achievement)
}

/// The achievements not unlocked yet that are closest to their goal (by the share done, then in
/// the catalogue's order), at most [`NEAREST`].
fn nearest(info: &ProfileInfo) -> Vec<(Achievement, u32, u32)> {
    let mut open: Vec<(Achievement, u32, u32)> = Achievement::ALL
        .into_iter()
        .filter(|a| !is_unlocked(info, *a))
        .map(|a| {
            let (have, goal) = progress(a, info);
            (a, have, goal.max(1))
        })
        .filter(|(_, have, goal)| have < goal)
        .collect();
    // The larger share first: have1/goal1 > have2/goal2, compared without division.
    open.sort_by(|(a1, h1, g1), (a2, h2, g2)| {
        (u64::from(*h2) * u64::from(*g1))
            .cmp(&(u64::from(*h1) * u64::from(*g2)))
            .then(a1.cmp(a2))
    });
    open.truncate(NEAREST);
    open
}

/// Wins of games in whole percent (0 without games).
fn percent(wins: u32, games: u32) -> u32 {
    share_percent(wins, games).unwrap_or(0)
}

/// `total / count` with one decimal in `lang` (`—` without a count).
fn average(total: u64, count: u32, lang: Lang) -> String {
    if count == 0 {
        return "—".into();
    }
    let tenths = (total * 10 + u64::from(count) / 2) / u64::from(count);
    tenths_text(i64::try_from(tenths).unwrap_or(i64::MAX), lang, false)
}

/// The name of a kind of game.
fn kind_name(tr: &mut Tr, kind: GameKind) -> String {
    match kind {
        GameKind::Classic => tr.t("game-classic"),
        GameKind::KingOfTheBoard => tr.t("option-king-of-the-board"),
        GameKind::Dice => tr.t("game-dice"),
        GameKind::Kids => tr.t("game-kids"),
    }
}

/// The name of a kind of opposition.
fn opposition_name(tr: &mut Tr, opposition: Opposition) -> String {
    match opposition {
        Opposition::Humans => tr.t("profile-vs-humans"),
        Opposition::Easy => tr.t("profile-vs-easy"),
        Opposition::Medium => tr.t("profile-vs-medium"),
        Opposition::Hard => tr.t("profile-vs-hard"),
    }
}

/// Play time as hours and minutes.
fn play_time(tr: &mut Tr, ms: u64) -> String {
    let minutes = ms / 60_000;
    let number = |n: u64| u32::try_from(n).map_or(f64::from(u32::MAX), f64::from);
    tr.ta(
        "profile-play-time-value",
        &Args::new()
            .number("hours", number(minutes / 60))
            .number("minutes", number(minutes % 60)),
    )
}

/// A unix time in milliseconds as a calendar date (`2026-11-27`, UTC), for the card (the text
/// version uses a Discord timestamp, which each client shows in its own way).
fn calendar_date(ms: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// One row of a breakdown: games, wins, win rate, average length, fastest win.
fn breakdown_row(name: String, row: &Breakdown, lang: Lang) -> Vec<String> {
    vec![
        name,
        row.games.to_string(),
        row.wins.to_string(),
        format!("{}%", percent(row.wins, row.games)),
        average(u64::from(row.moves), row.games, lang),
        row.fastest_win
            .map_or_else(|| "—".into(), |m| m.to_string()),
    ]
}

/// The two breakdowns (by game, by opposition), only the rows with games (and a breakdown only
/// with a row).
fn tables(tr: &mut Tr, figures: &Figures) -> Vec<CardTable> {
    let lang = tr.lang();
    let columns = |tr: &mut Tr, first: &str| {
        vec![
            tr.t(first),
            tr.t("profile-col-games"),
            tr.t("profile-col-wins"),
            tr.t("profile-col-rate"),
            tr.t("profile-col-moves"),
            tr.t("profile-col-fastest"),
        ]
    };
    let by_game = GameKind::ALL
        .into_iter()
        .filter(|k| figures.by_game[k.index()].games > 0)
        .map(|k| breakdown_row(kind_name(tr, k), &figures.by_game[k.index()], lang))
        .collect();
    let by_opposition = Opposition::ALL
        .into_iter()
        .filter(|o| figures.by_opposition[o.index()].games > 0)
        .map(|o| {
            breakdown_row(
                opposition_name(tr, o),
                &figures.by_opposition[o.index()],
                lang,
            )
        })
        .collect();
    let mut tables = vec![
        CardTable {
            title: tr.t("profile-by-game"),
            header: columns(tr, "profile-col-game"),
            rows: by_game,
        },
        CardTable {
            title: tr.t("profile-by-opponents"),
            header: columns(tr, "profile-col-opponents"),
            rows: by_opposition,
        },
    ];
    tables.retain(|t| !t.rows.is_empty());
    tables
}

/// How the player plays: (label, value) pairs, for the card and the text alike.
fn style(tr: &mut Tr, info: &ProfileInfo, card: bool) -> Vec<(String, String)> {
    let f = &info.figures;
    let lang = tr.lang();
    let mut out = vec![
        (tr.t("profile-two-eyed"), f.two_eyed_jacks.to_string()),
        (tr.t("profile-one-eyed"), f.one_eyed_jacks.to_string()),
        (tr.t("profile-lines-broken"), f.lines_broken.to_string()),
        (tr.t("profile-dead-cards"), f.dead_cards.to_string()),
    ];
    let first_move = if f.first_move_games == 0 {
        "—".to_string()
    } else {
        tr.ta(
            "profile-first-move-value",
            &Args::new()
                .number("percent", percent(f.first_move_wins, f.first_move_games))
                .number("wins", f.first_move_wins)
                .number("games", f.first_move_games),
        )
    };
    out.push((tr.t("profile-first-move"), first_move));
    out.push((
        tr.t("profile-moves-per-game"),
        average(u64::from(f.moves), f.games, lang),
    ));
    let time = if f.timed_games == 0 {
        "—".to_string()
    } else {
        play_time(tr, f.play_ms)
    };
    out.push((tr.t("profile-play-time"), time));
    if let Some(at) = f.first_game_at {
        let date = if card {
            calendar_date(at)
        } else {
            format!("<t:{}:D>", at.div_euclid(1000))
        };
        out.push((tr.t("profile-first-game"), date));
    }
    let agreement = match share_percent(info.agreement.matched, info.agreement.counted) {
        Some(p) if info.agreement.games > 0 => tr.ta(
            "profile-agreement-value",
            &Args::new()
                .number("percent", p)
                .number("games", info.agreement.games),
        ),
        _ => "—".into(),
    };
    out.push((tr.t("profile-agreement"), agreement));
    out
}

/// The card's subtitle and the text's rating line: rating, provisional mark and rank.
fn rating_summary(tr: &mut Tr, info: &ProfileInfo) -> String {
    let Some(rating) = &info.rating else {
        return tr.t("profile-unrated");
    };
    // A line of its own: its first letter upper case (the rating line of `stats` follows a comma).
    let line = rating_text(tr, rating).replace("**", "");
    let mut chars = line.chars();
    let mut text: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if let Some((place, total)) = info.rank {
        text.push_str(" · ");
        text.push_str(&tr.ta(
            "profile-rank",
            &Args::new().number("place", place).number("total", total),
        ));
    }
    text
}

/// The outcome of a shared game from the viewer's side.
fn outcome(tr: &mut Tr, game: &SharedLine) -> String {
    let key = match (game.partners, game.won, game.other_won) {
        (true, true, _) => "versus-won-together",
        (true, false, _) => "versus-lost-together",
        (false, true, _) => "versus-won",
        (false, false, true) => "versus-lost",
        (false, false, false) => "versus-no-winner",
    };
    let text = tr.t(key);
    let name = match game.variant {
        Some(variant) => game_title(tr, variant),
        None => tr.t("game-classic"),
    };
    format!("#{} {name}: {text}", game.id)
}

/// The head-to-head as (label, value) lines, in the viewer's words (`you` on the card, where the
/// latest games are only their numbers: the text says how each ended).
fn versus_lines(
    tr: &mut Tr,
    v: &VersusInfo,
    player: &str,
    other: &str,
    card: bool,
) -> Vec<(String, String)> {
    let mut lines = vec![(tr.t("versus-games"), v.games.to_string())];
    lines.push((
        tr.t("versus-as-partners"),
        tr.ta(
            "versus-partners-value",
            &Args::new()
                .number("games", v.partner_games)
                .number("wins", v.partner_wins),
        ),
    ));
    lines.push((
        tr.t("versus-as-opponents"),
        tr.ta(
            "versus-opponents-value",
            &Args::new()
                .number("games", v.opponent_games)
                .number("wins", v.wins)
                .number("losses", v.losses)
                .text("player", player.to_string())
                .text("other", other.to_string()),
        ),
    ));
    lines.push((
        tr.t("versus-sequences"),
        tr.ta(
            "versus-sequences-value",
            &Args::new()
                .number("mine", v.sequences)
                .number("theirs", v.other_sequences)
                .text("player", player.to_string())
                .text("other", other.to_string()),
        ),
    ));
    if !v.recent.is_empty() {
        let games: Vec<String> = if card {
            v.recent.iter().map(|g| format!("#{}", g.id)).collect()
        } else {
            v.recent.iter().map(|g| outcome(tr, g)).collect()
        };
        lines.push((tr.t("versus-recent"), games.join(", ")));
    }
    lines
}

/// The text version of a profile.
fn profile_text(tr: &mut Tr, info: &ProfileInfo) -> String {
    let f = &info.figures;
    let player = info.who.to_string();
    let mut lines = vec![tr.ta(
        "profile-header",
        &Args::new().text("player", player.clone()),
    )];
    lines.push(rating_summary(tr, info));
    if info.chart.len() >= 2 {
        let first = info.chart.first().copied().unwrap_or_default();
        let last = info.chart.last().copied().unwrap_or_default();
        lines.push(
            tr.ta(
                "profile-chart-text",
                &Args::new()
                    .number("games", u32::try_from(info.chart.len()).unwrap_or(u32::MAX))
                    .text("first", points_text(first, false))
                    .text("last", points_text(last, false)),
            ),
        );
    }
    lines.push(
        tr.ta(
            "profile-totals",
            &Args::new()
                .number("games", f.games)
                .number("wins", f.wins)
                .number("percent", percent(f.wins, f.games))
                .number("streak", f.current_streak)
                .number("best", f.best_streak)
                .number("sequences", f.sequences),
        ),
    );
    if info.series.played > 0 {
        lines.push(
            tr.ta(
                "series-stats",
                &Args::new()
                    .number("played", info.series.played)
                    .number("won", info.series.won),
            ),
        );
    }
    for table in tables(tr, f) {
        let rows: Vec<String> = table
            .rows
            .iter()
            .map(|row| {
                let fastest = match row.get(5).map(String::as_str) {
                    Some("—") | None => String::new(),
                    Some(moves) => tr.ta(
                        "profile-fastest",
                        &Args::new().text("moves", moves.to_string()),
                    ),
                };
                tr.ta(
                    "profile-breakdown",
                    &Args::new()
                        .text("name", row[0].clone())
                        .text("games", row[1].clone())
                        .text("wins", row[2].clone())
                        .text("rate", row[3].clone())
                        .text("moves", row[4].clone())
                        .text("fastest", fastest),
                )
            })
            .collect();
        lines.push(format!("{}: {}", table.title, rows.join("; ")));
    }
    let style: Vec<String> = style(tr, info, false)
        .into_iter()
        .map(|(label, value)| format!("{label} {value}"))
        .collect();
    let title = tr.t("profile-style");
    lines.push(format!("{title}: {}", style.join(" · ")));
    let unlocked: Vec<String> = Achievement::ALL
        .into_iter()
        .filter(|a| is_unlocked(info, *a))
        .map(|a| achievement_name_in(tr, a))
        .collect();
    let count = u32::try_from(unlocked.len()).unwrap_or(u32::MAX);
    let total = u32::try_from(Achievement::ALL.len()).unwrap_or(u32::MAX);
    let list = if unlocked.is_empty() {
        tr.t("profile-achievements-none")
    } else {
        join_list(tr, &unlocked)
    };
    lines.push(
        tr.ta(
            "profile-achievements",
            &Args::new()
                .number("count", count)
                .number("total", total)
                .text("list", list),
        ),
    );
    let next: Vec<String> = nearest(info)
        .into_iter()
        .map(|(a, have, goal)| {
            let name = achievement_name_in(tr, a);
            let condition = achievement_condition_in(tr, a);
            tr.ta(
                "profile-progress",
                &Args::new()
                    .text("name", name)
                    .text("condition", condition)
                    .number("have", have)
                    .number("goal", goal),
            )
        })
        .collect();
    if !next.is_empty() {
        let title = tr.t("profile-next");
        lines.push(format!("{title}: {}", next.join("; ")));
    }
    if let Some(versus) = &info.versus {
        lines.push(versus_text(tr, versus));
    }
    lines.join("\n")
}

/// `/sequence versus`, and the head-to-head under another member's profile.
fn versus_text(tr: &mut Tr, v: &VersusInfo) -> String {
    let player = v.viewer.to_string();
    let other = v.other.to_string();
    let mut text = tr.ta(
        "versus-header",
        &Args::new()
            .text("player", player.clone())
            .text("other", other.clone())
            .number("games", v.games),
    );
    for (label, value) in versus_lines(tr, v, &player, &other, false)
        .into_iter()
        .skip(1)
    {
        text.push_str(&format!("\n{label}: {value}"));
    }
    if !v.recent.is_empty() {
        text.push('\n');
        text.push_str(&tr.t("versus-footer"));
    }
    text
}

/// The words of a player's profile card in `lang`, for [`crate::render::profile_card`].
pub fn profile_card(info: &ProfileInfo, lang: Lang) -> ProfileCard {
    let mut tr = Tr::new(lang);
    let card = card_in(&mut tr, info);
    tr.finish();
    card
}

fn card_in(tr: &mut Tr, info: &ProfileInfo) -> ProfileCard {
    let f = &info.figures;
    let mut tiles = vec![
        (tr.t("profile-games"), f.games.to_string()),
        (tr.t("profile-wins"), f.wins.to_string()),
        (
            tr.t("profile-win-rate"),
            format!("{}%", percent(f.wins, f.games)),
        ),
        (tr.t("profile-streak"), f.current_streak.to_string()),
        (tr.t("profile-best-streak"), f.best_streak.to_string()),
        (tr.t("profile-sequences"), f.sequences.to_string()),
    ];
    let series = tr.ta(
        "profile-series-value",
        &Args::new()
            .number("played", info.series.played)
            .number("won", info.series.won),
    );
    tiles.push((tr.t("profile-series"), series));
    let chart = (!info.chart.is_empty()).then(|| CardChart {
        title: tr.ta(
            "profile-chart",
            &Args::new().number("games", u32::try_from(info.chart.len()).unwrap_or(u32::MAX)),
        ),
        values: info.chart.iter().map(|&t| t as f64).collect(),
    });
    let achievements = Achievement::ALL
        .into_iter()
        .map(|a| CardAchievement {
            achievement: a,
            name: achievement_name_in(tr, a),
            unlocked: is_unlocked(info, a),
        })
        .collect();
    let nearest = nearest(info)
        .into_iter()
        .map(|(a, have, goal)| CardProgress {
            achievement: a,
            name: achievement_name_in(tr, a),
            condition: achievement_condition_in(tr, a),
            have,
            goal,
        })
        .collect();
    let versus = info.versus.as_ref().map(|v| {
        let you = tr.t("versus-you");
        CardVersus {
            title: tr.ta(
                "versus-title",
                &Args::new().text("other", v.other_name.clone()),
            ),
            lines: versus_lines(tr, v, &you, &v.other_name, true),
        }
    });
    ProfileCard {
        name: info.name.clone(),
        subtitle: rating_summary(tr, info),
        tiles,
        tables: tables(tr, f),
        style_title: tr.t("profile-style"),
        style: style(tr, info, true),
        chart,
        achievements_title: tr.t("profile-achievements-title"),
        achievements,
        nearest,
        versus,
        footer: tr.t("profile-footer"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_dates_are_utc_days() {
        assert_eq!(calendar_date(0), "1970-01-01");
        assert_eq!(calendar_date(1_700_000_000_000), "2023-11-14");
        assert_eq!(calendar_date(951_782_400_000), "2000-02-29");
        assert_eq!(calendar_date(-1), "1969-12-31");
    }

    #[test]
    fn averages_round_to_tenths() {
        assert_eq!(average(10, 3, Lang::En), "3.3");
        assert_eq!(average(10, 3, Lang::De), "3,3");
        assert_eq!(average(5, 0, Lang::En), "—");
        assert_eq!(percent(2, 3), 67);
        assert_eq!(percent(0, 0), 0);
    }
}
