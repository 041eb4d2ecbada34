//! `Tables::view`: what one viewer may see of a channel's table, as plain data for a web page (built
//! by `table/view.rs` from the game's public view and, for a seated player, their own seat's view).

use crate::i18n::Lang;
use crate::service::table::TableView;
use crate::service::{lock, ChannelId, Timestamp, UserId};

use super::Tables;

impl Tables {
    /// What `viewer` may see of `channel`'s table at `now`, its texts in `lang`: their own hand if
    /// they sit in the running game, nothing hidden otherwise (`None`: a watcher or someone not
    /// signed in). `None` when the channel has no table. Takes the table's lock briefly, reads no
    /// store (the server's settings as known in memory). A table another process holds is shown
    /// as last read from the store ([`Tables::find_web_token`], [`Tables::read_elsewhere`]), with
    /// the same rules.
    pub fn view(
        &self,
        channel: ChannelId,
        viewer: Option<UserId>,
        lang: Lang,
        now: Timestamp,
    ) -> Option<TableView> {
        let Some(shared) = self.get(channel) else {
            return self.with_elsewhere(channel, |table| {
                let settings = self.known_settings_for(table.guild);
                table.view(viewer, lang, now, &settings)
            });
        };
        let table = lock(&shared);
        if table.closed {
            return None;
        }
        let settings = self.known_settings_for(table.guild);
        Some(table.view(viewer, lang, now, &settings))
    }

    /// The channel whose running table has the web token `token` (`None`: no such table, or not a
    /// token at all; a closed table's token names nothing here; nor does the token of a table whose
    /// server turned `web_links` off). May read the server's settings from the store once.
    pub fn channel_of_web_token(&self, token: &str) -> Option<ChannelId> {
        if !crate::service::seeds::is_web_token(token) {
            return None;
        }
        let channel = lock(&self.tables).of_token(token)?;
        let shared = self.get(channel)?;
        let guild = lock(&shared).guild;
        self.settings_for(guild).web_links.then_some(channel)
    }

    /// The web token of the game played now (or waited for) by the series whose earlier game has the
    /// web token `token`, while that series is played at a table of this process whose server allows
    /// web links: a page that showed the earlier game live goes on to it.
    pub fn next_of_web_token(&self, token: &str) -> Option<String> {
        if !crate::service::seeds::is_web_token(token) {
            return None;
        }
        let channel = lock(&self.tables).of_earlier_token(token)?;
        let shared = self.get(channel)?;
        let table = lock(&shared);
        let follows = !table.closed
            && !table.web_token.is_empty()
            && table
                .series
                .as_ref()
                .is_some_and(|s| s.pages.iter().any(|page| page == token));
        let next = follows.then(|| table.web_token.clone())?;
        let guild = table.guild;
        drop(table);
        self.settings_for(guild).web_links.then_some(next)
    }

    /// The web token of `channel`'s running table (`None`: no table, or it has none).
    pub fn web_token(&self, channel: ChannelId) -> Option<String> {
        let shared = self.get(channel)?;
        let table = lock(&shared);
        (!table.closed && !table.web_token.is_empty()).then(|| table.web_token.clone())
    }
}
