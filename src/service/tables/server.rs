//! A server's own settings as the registry keeps them: read from the store once and remembered,
//! applied over the operator's, shown and changed by `/sequence settings` (see `service/server.rs`).

use crate::i18n::Lang;
use crate::service::server::{
    check_range, ServerSettings, SettingsRequest, LOBBY_RANGE, REMINDER_RANGE, REPLACED_RANGE,
    THINKING_RANGE, TIMEOUT_RANGE,
};
use crate::service::text::{SettingName, SettingsInfo};
use crate::service::{lock, Actor, GuildId, Message, Output, Reply, Settings, Text, Timestamp};
use crate::store::SettingsChange;

use super::{Tables, MAX_REMEMBERED};

impl Tables {
    /// A server's own settings (from memory, else the store; defaults if it never changed any or
    /// what is stored cannot be read, which is logged).
    pub fn server_settings(&self, guild: Option<GuildId>) -> ServerSettings {
        let Some(guild) = guild else {
            return ServerSettings::default();
        };
        if let Some(known) = lock(&self.servers).get(&guild) {
            return known.clone();
        }
        let stored = match &self.store {
            Some(store) => match store.server_settings(guild.0) {
                Ok(Some(json)) => ServerSettings::from_stored(&json).unwrap_or_else(|problem| {
                    // Set aside for the operator (the store logs it once); the defaults apply
                    // until an admin saves new settings, and are remembered like any others.
                    if let Err(e) = store.set_aside_server_settings(guild.0, &json, &problem) {
                        tracing::error!(
                            guild = guild.0,
                            "the server's settings cannot be used ({problem}) nor set aside: {e}"
                        );
                    }
                    ServerSettings::default()
                }),
                Ok(None) => ServerSettings::default(),
                Err(e) => {
                    // Not remembered: read again next time.
                    tracing::error!(guild = guild.0, "cannot read the server's settings: {e}");
                    return ServerSettings::default();
                }
            },
            None => ServerSettings::default(),
        };
        let mut servers = lock(&self.servers);
        if servers.len() >= MAX_REMEMBERED {
            servers.clear();
        }
        // A change saved while this was read is already here and newer than what was read.
        servers.entry(guild).or_insert(stored).clone()
    }

    /// The settings that apply in a server: the operator's, with the server's changes.
    pub fn settings_for(&self, guild: Option<GuildId>) -> Settings {
        self.server_settings(guild).apply(&self.settings)
    }

    /// [`Tables::settings_for`] from memory only (no I/O, for async callers): the operator's settings
    /// for a server whose settings were not read yet (`tick` reads them within seconds).
    pub(in crate::service) fn known_settings_for(&self, guild: Option<GuildId>) -> Settings {
        guild
            .and_then(|g| lock(&self.servers).get(&g).cloned())
            .unwrap_or_default()
            .apply(&self.settings)
    }

    /// The language a server chose for channel posts, from memory only (no I/O, for async callers;
    /// `None` also while the server's settings were not read yet).
    pub fn known_server_language(&self, guild: Option<GuildId>) -> Option<Lang> {
        guild.and_then(|g| lock(&self.servers).get(&g).and_then(|s| s.language))
    }

    /// The language a server chose for channel posts, if it chose one.
    pub fn server_language(&self, guild: Option<GuildId>) -> Option<Lang> {
        self.server_settings(guild).language
    }

    fn settings_info(&self, server: &ServerSettings) -> SettingsInfo {
        let s = server.apply(&self.settings);
        SettingsInfo {
            variant: s.default_variant,
            bot_level: s.default_bot_level,
            turn_reminder_secs: s.turn_reminder.as_secs(),
            turn_timeout_secs: s.turn_timeout.as_secs(),
            lobby_timeout_secs: s.lobby_timeout.as_secs(),
            thinking_ms: s
                .bot_think
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            timeout_gives_up: s.timeout_gives_up,
            replace_after: s.replace_after_timeouts,
            rated: server.rated,
            language: server.language,
            hints: s.hints,
            replay_gif: s.replay_gif,
            web_links: s.web_links,
            web_page: server.web_page_token.is_some(),
            page_url: self.page_link(server),
        }
    }

    /// The address of a server's page (`<public_url>/s/<token>`), when the page is on and the
    /// address players reach the bot at is set.
    fn page_link(&self, server: &ServerSettings) -> Option<String> {
        let token = server.web_page_token.as_ref()?;
        let base = self.web_base()?;
        Some(format!("{base}/s/{token}"))
    }

    /// The server whose page has the token `token`, while its page is on (`None` for anything
    /// else, also for a token of a page turned off since). The token starts with the server's id
    /// (16 hex digits), so one server's settings are read (blocking, once; then from memory).
    pub fn guild_of_page_token(&self, token: &str) -> Option<GuildId> {
        if token.len() != 48
            || !token
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        {
            return None;
        }
        let guild = GuildId(u64::from_str_radix(&token[..16], 16).ok()?);
        let settings = self.server_settings(Some(guild));
        let kept = settings.web_page_token.as_deref()?;
        // Compared in full whatever the first difference (no timing hint of a near miss).
        let same = kept.len() == token.len()
            && kept
                .bytes()
                .zip(token.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        (same && settings.web_page == Some(true)).then_some(guild)
    }

    /// Shows or changes a server's settings: only in a server, only with Manage Server; values are
    /// checked first, and a refused change changes nothing.
    pub(in crate::service) fn change_settings(
        &self,
        guild: Option<GuildId>,
        actor: &Actor,
        request: SettingsRequest,
        now: Timestamp,
    ) -> Reply {
        let Some(guild) = guild else {
            return Reply::ephemeral(Text::GuildOnly);
        };
        if !actor.can_manage_guild {
            return Reply::ephemeral(Text::SettingsNotAllowed);
        }
        // Read, changed and written under one lock: two admins at once both keep their change.
        let _changing = lock(&self.changing_settings);
        let current = self.server_settings(Some(guild));
        if request.is_empty() {
            return Reply {
                outputs: vec![Output::Ephemeral(Message::text(Text::ServerSettings(
                    self.settings_info(&current),
                )))],
                auto_move: false,
            };
        }
        let checks = [
            (
                SettingName::TurnReminder,
                request.changes.turn_reminder_secs,
                REMINDER_RANGE,
            ),
            (
                SettingName::TurnTimeout,
                request.changes.turn_timeout_secs,
                TIMEOUT_RANGE,
            ),
            (
                SettingName::LobbyTimeout,
                request.changes.lobby_timeout_secs,
                LOBBY_RANGE,
            ),
            (
                SettingName::ThinkingTime,
                request.changes.thinking_ms,
                THINKING_RANGE,
            ),
            (
                SettingName::TimeoutsBeforeReplaced,
                request.changes.timeouts_before_replaced.map(u64::from),
                REPLACED_RANGE,
            ),
        ];
        for (name, value, range) in checks {
            if let Err(text) = check_range(name, value, range) {
                return Reply::ephemeral(text);
            }
        }
        let base = if request.reset {
            ServerSettings::default()
        } else {
            current
        };
        let mut next = request.changes.or(&base);
        // The page's token is the service's own: kept while the page stays on, made when it is
        // turned on (a new one each time: an old link dies), forgotten when it is turned off.
        next.web_page_token = if next.web_page == Some(true) {
            match base
                .web_page_token
                .clone()
                .filter(|_| base.web_page == Some(true))
            {
                Some(kept) => Some(kept),
                None => match crate::service::seeds::web_token() {
                    Some(random) => Some(format!("{:016x}{random}", guild.0)),
                    None => return Reply::ephemeral(Text::SaveFailed),
                },
            }
        } else {
            None
        };
        let effective = next.apply(&self.settings);
        if effective.turn_reminder >= effective.turn_timeout {
            return Reply::ephemeral(Text::ReminderNotBeforeTimeout {
                reminder_secs: effective.turn_reminder.as_secs(),
                timeout_secs: effective.turn_timeout.as_secs(),
            });
        }
        let change = SettingsChange {
            user_id: actor.user.0,
            change: request.describe(),
            at: i64::try_from(now.0).unwrap_or(i64::MAX),
        };
        if let Some(store) = &self.store {
            let saved = serde_json::to_string(&next)
                .map_err(|e| e.to_string())
                .and_then(|json| {
                    store
                        .save_server_settings(guild.0, &json, &change)
                        .map_err(|e| e.to_string())
                });
            if let Err(e) = saved {
                tracing::error!(guild = guild.0, "cannot save the server's settings: {e}");
                return Reply::ephemeral(Text::SaveFailed);
            }
        }
        tracing::info!(
            guild = guild.0,
            user = actor.user.0,
            "server settings changed by {}: {}",
            actor.name,
            change.change
        );
        let info = self.settings_info(&next);
        lock(&self.servers).insert(guild, next);
        // The server's timers may have changed: its tables' deadlines with them.
        self.reschedule_guild(Some(guild));
        Reply {
            outputs: vec![Output::Ephemeral(Message::text(Text::SettingsChanged(
                info,
            )))],
            auto_move: false,
        }
    }
}
