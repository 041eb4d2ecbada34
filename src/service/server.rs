//! Each server's own defaults, chosen by its members with Manage Server, over the operator's config:
//! game, computer level, turn reminder and timeout, lobby timeout, whether games are rated, and the
//! language of channel posts. Stored per server (JSON) with a log of who changed what.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::Variant;
use crate::i18n::Lang;

use super::bot::BotLevel;
use super::settings::Settings;
use super::text::{SettingName, Text};

/// Shortest and longest turn reminder, in seconds.
pub const REMINDER_RANGE: (u64, u64) = (10, 86_400);
/// Shortest and longest turn timeout, in seconds.
pub const TIMEOUT_RANGE: (u64, u64) = (30, 604_800);
/// Shortest and longest lobby timeout, in seconds.
pub const LOBBY_RANGE: (u64, u64) = (60, 86_400);
/// Shortest and longest thinking time of a computer player per move, in milliseconds.
pub const THINKING_RANGE: (u64, u64) = (100, 5_000);
/// Fewest and most timed-out turns in a row before a computer takes the seat (0: never).
pub const REPLACED_RANGE: (u64, u64) = (0, 10);

/// What happens when a player's turn times out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// A computer plays that turn; the player keeps their seat (the operator's default).
    Computer,
    /// The player gives up: a computer takes their seat for the rest of the game.
    GiveUp,
}

/// What a server changed from the operator's defaults (`None`: the operator's default).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ServerSettings {
    /// The game `start` opens when none is named.
    pub variant: Option<Variant>,
    /// The level of a computer player added without one, and of one playing a timed-out turn.
    pub bot_level: Option<BotLevel>,
    /// Seconds before a player to move is reminded.
    pub turn_reminder_secs: Option<u64>,
    /// Seconds before a computer plays the turn.
    pub turn_timeout_secs: Option<u64>,
    /// Seconds before a lobby that has not started is closed.
    pub lobby_timeout_secs: Option<u64>,
    /// Milliseconds a computer player thinks per move.
    pub thinking_ms: Option<u64>,
    /// What happens when a turn times out.
    pub on_timeout: Option<OnTimeout>,
    /// Timed-out turns in a row after which a computer takes the seat for the rest of the game (0:
    /// never).
    pub timeouts_before_replaced: Option<u8>,
    /// Whether games count for ratings unless their lobby says otherwise (`None`: if humans play on at
    /// least two teams).
    pub rated: Option<bool>,
    /// The language of channel posts (`None`: the server's preferred locale).
    pub language: Option<Lang>,
    /// Whether hints may be asked in rated games too, after a confirmation that makes the game
    /// unrated (`None`/off: hints only in casual games).
    pub hints: Option<bool>,
    /// Whether the animated replay is posted after every finished game (`None`: on).
    pub replay_gif: Option<bool>,
    /// Whether this server's games have web pages (the Watch button, the live board, the replay;
    /// `None`: on).
    pub web_links: Option<bool>,
    /// Whether the server has its own web page (leaderboard, recent games, players' figures;
    /// `None`: off).
    pub web_page: Option<bool>,
    /// The unguessable token of the server's page while it is on (made when it is turned on,
    /// forgotten when it is turned off; never set by a request: see
    /// [`crate::service::Tables::guild_of_page_token`]).
    pub web_page_token: Option<String>,
}

impl ServerSettings {
    /// These settings, each one not set here taken from `base`.
    pub fn or(&self, base: &ServerSettings) -> ServerSettings {
        ServerSettings {
            variant: self.variant.or(base.variant),
            bot_level: self.bot_level.or(base.bot_level),
            turn_reminder_secs: self.turn_reminder_secs.or(base.turn_reminder_secs),
            turn_timeout_secs: self.turn_timeout_secs.or(base.turn_timeout_secs),
            lobby_timeout_secs: self.lobby_timeout_secs.or(base.lobby_timeout_secs),
            thinking_ms: self.thinking_ms.or(base.thinking_ms),
            on_timeout: self.on_timeout.or(base.on_timeout),
            timeouts_before_replaced: self
                .timeouts_before_replaced
                .or(base.timeouts_before_replaced),
            rated: self.rated.or(base.rated),
            language: self.language.or(base.language),
            hints: self.hints.or(base.hints),
            replay_gif: self.replay_gif.or(base.replay_gif),
            web_links: self.web_links.or(base.web_links),
            web_page: self.web_page.or(base.web_page),
            web_page_token: self.web_page_token.clone().or(base.web_page_token.clone()),
        }
    }

    /// Settings as stored, or why they cannot be used: they must be these settings' JSON, with
    /// every number in the range a change is checked against.
    pub fn from_stored(json: &str) -> Result<ServerSettings, String> {
        let settings: ServerSettings = serde_json::from_str(json)
            .map_err(|e| format!("the stored settings do not parse: {e}"))?;
        let ranges = [
            (
                "turn_reminder_secs",
                settings.turn_reminder_secs,
                REMINDER_RANGE,
            ),
            (
                "turn_timeout_secs",
                settings.turn_timeout_secs,
                TIMEOUT_RANGE,
            ),
            (
                "lobby_timeout_secs",
                settings.lobby_timeout_secs,
                LOBBY_RANGE,
            ),
            ("thinking_ms", settings.thinking_ms, THINKING_RANGE),
            (
                "timeouts_before_replaced",
                settings.timeouts_before_replaced.map(u64::from),
                REPLACED_RANGE,
            ),
        ];
        for (name, value, (min, max)) in ranges {
            if let Some(v) = value.filter(|v| !(min..=max).contains(v)) {
                return Err(format!("the stored {name} is {v}, outside {min}..={max}"));
            }
        }
        Ok(settings)
    }

    /// The operator's settings with this server's changes.
    pub fn apply(&self, base: &Settings) -> Settings {
        let secs = |v: Option<u64>, d: Duration| v.map_or(d, Duration::from_secs);
        Settings {
            turn_reminder: secs(self.turn_reminder_secs, base.turn_reminder),
            turn_timeout: secs(self.turn_timeout_secs, base.turn_timeout),
            lobby_timeout: secs(self.lobby_timeout_secs, base.lobby_timeout),
            challenge_timeout: base.challenge_timeout,
            default_bot_level: self.bot_level.unwrap_or(base.default_bot_level),
            default_variant: self.variant.unwrap_or(base.default_variant),
            bot_think: self
                .thinking_ms
                .map(Duration::from_millis)
                .or(base.bot_think),
            timeout_gives_up: self
                .on_timeout
                .map_or(base.timeout_gives_up, |o| o == OnTimeout::GiveUp),
            replace_after_timeouts: self
                .timeouts_before_replaced
                .unwrap_or(base.replace_after_timeouts),
            hints: self.hints.unwrap_or(base.hints),
            replay_gif: self.replay_gif.unwrap_or(base.replay_gif),
            web_links: self.web_links.unwrap_or(base.web_links),
            limits: base.limits,
        }
    }
}

/// What an admin asks to change: the settings named in `changes` (`None` leaves one as it is), after
/// going back to the operator's defaults first if `reset`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsRequest {
    /// The settings to change.
    pub changes: ServerSettings,
    /// Go back to the operator's defaults first.
    pub reset: bool,
}

impl SettingsRequest {
    /// Whether it changes nothing (then the settings are shown).
    pub fn is_empty(&self) -> bool {
        *self == SettingsRequest::default()
    }

    /// The change in English for the log (`game: dice, turn_timeout: 300 s`).
    pub(super) fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.reset {
            parts.push("reset to the defaults".to_string());
        }
        if let Some(v) = self.changes.variant {
            parts.push(format!("game: {v}"));
        }
        if let Some(l) = self.changes.bot_level {
            parts.push(format!("computer_level: {l}"));
        }
        for (name, value) in [
            ("turn_reminder", self.changes.turn_reminder_secs),
            ("turn_timeout", self.changes.turn_timeout_secs),
            ("lobby_timeout", self.changes.lobby_timeout_secs),
        ] {
            if let Some(v) = value {
                parts.push(format!("{name}: {v} s"));
            }
        }
        if let Some(ms) = self.changes.thinking_ms {
            parts.push(format!("thinking_time: {ms} ms"));
        }
        if let Some(o) = self.changes.on_timeout {
            let o = match o {
                OnTimeout::Computer => "computer",
                OnTimeout::GiveUp => "give_up",
            };
            parts.push(format!("on_timeout: {o}"));
        }
        if let Some(n) = self.changes.timeouts_before_replaced {
            parts.push(format!("timeouts_before_replaced: {n}"));
        }
        if let Some(r) = self.changes.rated {
            parts.push(format!("rated: {r}"));
        }
        if let Some(l) = self.changes.language {
            parts.push(format!("language: {l}"));
        }
        if let Some(h) = self.changes.hints {
            parts.push(format!("hints: {h}"));
        }
        if let Some(g) = self.changes.replay_gif {
            parts.push(format!("replay_gif: {g}"));
        }
        if let Some(w) = self.changes.web_links {
            parts.push(format!("web_links: {w}"));
        }
        if let Some(p) = self.changes.web_page {
            parts.push(format!("web_page: {p}"));
        }
        parts.join(", ")
    }
}

/// Checks one number against its range.
pub(super) fn check_range(
    name: SettingName,
    value: Option<u64>,
    (min, max): (u64, u64),
) -> Result<(), Text> {
    match value {
        Some(v) if !(min..=max).contains(&v) => Err(Text::BadSetting { name, min, max }),
        _ => Ok(()),
    }
}
