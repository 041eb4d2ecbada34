//! The web links of the tables: the address players reach the bot's pages at (`[web] public_url`,
//! given with [`Tables::set_web_base`]), each table's page (`<public_url>/g/<web token>`), and the link
//! buttons that lead there (put on the messages by `save::offer_links`): *Watch* on the lobby card
//! and every turn prompt, *Replay on the web* on the final message of a kept game. A server that
//! turned `web_links` off gets none, and its tables' pages answer nothing.

use crate::service::reply::MAX_URL;
use crate::service::table::Table;
use crate::service::{lock, Settings};

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

    /// The page of `table`, under its server's `settings` (see [`Tables::page_url`]).
    pub(in crate::service) fn table_url(
        &self,
        table: &Table,
        settings: &Settings,
    ) -> Option<String> {
        self.page_url(&table.web_token, settings)
    }
}
