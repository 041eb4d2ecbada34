//! The web links of the tables: the address players reach the bot's pages at (`[web] public_url`,
//! given with [`Tables::set_web_base`]), each table's page (`<public_url>/g/<web token>`), and the link
//! buttons that lead there (put on the messages by `save::offer_links`): *Watch* on the lobby card
//! and every turn prompt, *Replay on the web* on the final message of a kept game. A server that
//! turned `web_links` off gets none, and its tables' pages answer nothing.

use crate::engine::Record;
use crate::i18n::Lang;
use crate::service::reply::{Control, Label, MAX_URL};
use crate::service::save::Links;
use crate::service::table::{
    replay_view, AgreementView, PlayerKind, ReplaySeat, ReplayView, Table,
};
use crate::service::text::Text;
use crate::service::{lock, Settings};
use crate::service::{ChannelId, GuildId};
use crate::store::{GameId, TokenGame, BOT_USER_ID};
use std::sync::atomic::Ordering;

use super::Tables;

impl Tables {
    /// Sets the address players reach the bot's web pages at (`[web] public_url`, e.g.
    /// `https://sequence.example.org`; a trailing `/` is dropped). `None`, or anything that is not an
    /// absolute `http(s)` address: no link buttons.
    pub fn set_web_base(&self, base: Option<String>) {
        let base = base
            .map(|b| b.trim().trim_end_matches('/').to_string())
            .filter(|b| {
                (b.starts_with("https://") || b.starts_with("http://"))
                    && !b.contains(char::is_whitespace)
                    && b.len() + "/g/".len() + 32 <= MAX_URL
            });
        *lock(&self.web_base) = base;
    }

    /// The address of the web pages, if set.
    pub fn web_base(&self) -> Option<String> {
        lock(&self.web_base).clone()
    }

    /// The page of a game with the web token `token`, where links are shown: the address is set and
    /// the server (its `settings`) allows them.
    pub(in crate::service) fn page_url(&self, token: &str, settings: &Settings) -> Option<String> {
        if token.is_empty() || !settings.web_links {
            return None;
        }
        let base = lock(&self.web_base).clone()?;
        Some(format!("{base}/g/{token}"))
    }

    /// The *Replay on the web* link of kept game `id` of server `guild`, where it has a page and
    /// links are shown there. Blocking (reads the store; a failure is logged and gives no link).
    pub(in crate::service) fn replay_link(
        &self,
        id: GameId,
        guild: Option<GuildId>,
    ) -> Option<Control> {
        let store = self.store.as_ref()?;
        let token = match store.game_web_token(id, guild.map(|g| g.0)) {
            Ok(token) => token?,
            Err(e) => {
                tracing::error!(game = id.0, "cannot read a game's web token: {e}");
                return None;
            }
        };
        let url = self.page_url(&token, &self.settings_for(guild))?;
        Some(Control::Link {
            label: Label::Text(Text::ReplayLinkButton),
            url,
        })
    }

    /// Offers **Open the board** (the Discord Activity of a table's channel) on the lobby cards and
    /// turn prompts from now on (`true`: the Discord face has a client secret), where the server
    /// allows its games' web pages (`web_links`, as the *Watch* link: the Activity is that page).
    pub fn set_activity(&self, on: bool) {
        self.activity.store(on, Ordering::Relaxed);
    }

    /// Whether **Open the board** is offered ([`Tables::set_activity`]).
    pub fn activity_on(&self) -> bool {
        self.activity.load(Ordering::Relaxed)
    }

    /// What leads from `table`'s messages to its pages under its server's `settings`: its page (see
    /// [`Tables::page_url`]) and whether the Activity's button is shown.
    pub(in crate::service) fn table_links(&self, table: &Table, settings: &Settings) -> Links {
        Links {
            page: self.page_url(&table.web_token, settings),
            // Not a public link: the Activity is inside Discord, for the people in its instance.
            activity: self.activity_on(),
        }
    }
}

impl Tables {
    /// The finished game whose table had the web token `token` (the latest, for a series played at
    /// one table), if its server allows web links, or if it is the game of the channel of the
    /// Activity asking (`activity`, see [`Tables::is_activitys_own`]); from the store (`None`
    /// without one, or if the read fails, which is logged). Blocking.
    fn token_game(&self, token: &str, activity: Option<ChannelId>) -> Option<TokenGame> {
        if !crate::service::seeds::is_web_token(token) {
            return None;
        }
        let found = match self.store.as_ref()?.game_of_web_token(token) {
            Ok(found) => found?,
            Err(e) => {
                tracing::error!("cannot look up a finished game by its web token: {e}");
                return None;
            }
        };
        let settings = self.settings_for(found.guild_id.map(GuildId));
        (settings.web_links || self.is_activitys_own(token, activity)).then_some(found)
    }

    /// Whether the finished game of web token `token` is the last game of the channel of an
    /// Activity asking (`activity`: its session's channel), as this process remembers it: its pages
    /// answer that Activity even where the server turned `web_links` off, since that setting is
    /// about public links, and the Activity (on, as **Open the board** is) is inside Discord, for
    /// the people in that channel, who watched the game being played.
    fn is_activitys_own(&self, token: &str, activity: Option<ChannelId>) -> bool {
        activity.is_some_and(|channel| {
            self.finished
                .of_web_token(token)
                .is_some_and(|(played, _)| played == channel)
        })
    }

    /// The kept game whose page is `token` (its table's web token), where its server allows web
    /// links or it is the game of the asking Activity's channel (`activity`). Blocking (reads the
    /// store).
    pub fn finished_of_web_token(
        &self,
        token: &str,
        activity: Option<ChannelId>,
    ) -> Option<GameId> {
        self.token_game(token, activity).map(|game| game.id)
    }

    /// The record (JSON, as `/sequence record` gives it) of the kept game whose page is `token`, with
    /// the game's number (as [`Tables::finished_of_web_token`] finds it). Blocking.
    pub fn record_of_web_token(
        &self,
        token: &str,
        activity: Option<ChannelId>,
    ) -> Option<(GameId, String)> {
        let game = self.token_game(token, activity)?;
        let store = self.store.as_ref()?;
        match store.game_record(game.id, game.guild_id) {
            Ok(record) => record.map(|json| (game.id, json)),
            Err(e) => {
                tracing::error!(game = game.id.0, "cannot read a game's record: {e}");
                None
            }
        }
    }

    /// The replay of the kept game whose page is `token` (as [`Tables::finished_of_web_token`] finds
    /// it), its texts in `lang`: the board after each move, the summary, the teams and the seats.
    /// Blocking.
    pub fn replay_of_web_token(
        &self,
        token: &str,
        lang: Lang,
        activity: Option<ChannelId>,
    ) -> Option<ReplayView> {
        let game = self.token_game(token, activity)?;
        let (id, json) = self.record_of_web_token(token, activity)?;
        let record = Record::from_json(&json).ok()?;
        let agreement = game
            .agreement
            .iter()
            .filter_map(|&(user, matched, counted)| {
                let seat = game.players.iter().position(|p| p.user_id == user)?;
                Some(AgreementView {
                    seat: u8::try_from(seat).ok()?,
                    matched,
                    counted,
                })
            })
            .collect();
        let seats = game
            .players
            .iter()
            .map(|p| ReplaySeat {
                name: p.name.clone(),
                kind: if p.user_id == BOT_USER_ID {
                    PlayerKind::Computer
                } else {
                    PlayerKind::Person
                },
                team: p.team,
                won: p.won,
            })
            .collect();
        replay_view(id.0, &record, seats, agreement, lang)
    }
}
