//! A server's settings as shown, and the refusals of `/sequence settings`.

use crate::i18n::{Args, Lang, Tr};

use super::labels::game_name;
use super::payload::SettingsInfo;
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::SettingsNotAllowed => tr.t("settings-not-allowed"),
        Text::ServerSettings(info) => {
            let list = settings_text(tr, info);
            format!("{}\n{list}", tr.t("settings-header"))
        }
        Text::SettingsChanged(info) => {
            let list = settings_text(tr, info);
            format!("{}\n{list}", tr.t("settings-changed"))
        }
        Text::BadSetting { name, min, max } => {
            let number = |n: u64| u32::try_from(n).map_or(f64::from(u32::MAX), f64::from);
            let key = if name.unit().is_empty() {
                "settings-bad-range-count"
            } else {
                "settings-bad-range"
            };
            tr.ta(
                key,
                &Args::new()
                    .text("option", name.option())
                    .text("unit", name.unit())
                    .number("min", number(*min))
                    .number("max", number(*max)),
            )
        }
        Text::ReminderNotBeforeTimeout {
            reminder_secs,
            timeout_secs,
        } => {
            let number = |n: u64| u32::try_from(n).map_or(f64::from(u32::MAX), f64::from);
            tr.ta(
                "settings-reminder-after-timeout",
                &Args::new()
                    .number("reminder", number(*reminder_secs))
                    .number("timeout", number(*timeout_secs)),
            )
        }
        _ => return None,
    })
}

/// The lines of a server's settings.
fn settings_text(tr: &mut Tr, info: &SettingsInfo) -> String {
    let lang = tr.lang();
    let secs = |tr: &mut Tr, s: u64| {
        let n = u32::try_from(s).map_or(f64::from(u32::MAX), f64::from);
        tr.ta("duration", &Args::new().number("seconds", n))
    };
    let rated = match info.rated {
        Some(true) => "always",
        Some(false) => "never",
        None => "default",
    };
    let language = match info.language {
        Some(Lang::En) => "English",
        Some(Lang::De) => "Deutsch",
        Some(Lang::No) => "Norsk",
        None => "",
    };
    let args = Args::new()
        .text("game", game_name(info.variant, lang))
        .text("level", tr.t(&format!("level-{}", info.bot_level)))
        .text("reminder", secs(tr, info.turn_reminder_secs))
        .text("timeout", secs(tr, info.turn_timeout_secs))
        .text("lobby", secs(tr, info.lobby_timeout_secs))
        .text(
            "thinking",
            info.thinking_ms
                .map_or_else(|| "none".to_string(), |ms| ms.to_string()),
        )
        .text(
            "on_timeout",
            if info.timeout_gives_up {
                "give_up"
            } else {
                "computer"
            },
        )
        .number("replaced", info.replace_after)
        .text("rated", rated)
        .text("language", language)
        .text("hints", if info.hints { "on" } else { "off" })
        .text("replay_gif", if info.replay_gif { "on" } else { "off" })
        .text("web_links", if info.web_links { "on" } else { "off" })
        .text("web_page", if info.web_page { "on" } else { "off" });
    let list = tr.ta("settings-list", &args);
    match &info.page_url {
        Some(url) => format!(
            "{list}\n{}",
            tr.ta("settings-web-page-link", &Args::new().text("url", url))
        ),
        None => list,
    }
}
