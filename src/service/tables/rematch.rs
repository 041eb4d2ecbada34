//! Rematch: the final message of a game carries a **Rematch** button. Pressed by one of its players
//! while the channel is free, it opens a lobby with the same game, options and teams: the presser is
//! the host, the computer players sit again, and the other players are invited by a mention that
//! notifies them; each joins with one press of **Join** and keeps their team (if the teams still fit
//! at Start; otherwise the kept teams give way). In the card games the team that did not start the
//! last game starts the rematch (with three teams, the one that moved second).
//!
//! What a rematch needs is remembered in memory when a game ends ([`crate::service::finished`]), for as long as a
//! lobby would stay open (the lobby timeout): a press after that, or after a restart, is answered politely.

use crate::service::table::State;
use crate::service::{Actor, ChannelId, Command, GameKey, GuildId, Reply, Text, Timestamp, UserId};

use super::Tables;

impl Tables {
    /// The rematch a finished game's page may open: its channel and the game's key (what
    /// [`Command::Rematch`] carries), and whether `user` played it, while the game is remembered for
    /// one and its window (the lobby timeout) has not passed. `None` otherwise, also once another game
    /// ended in the channel.
    pub fn rematch_of_web_token(
        &self,
        token: &str,
        user: Option<UserId>,
        now: Timestamp,
    ) -> Option<(ChannelId, GameKey, bool)> {
        let (channel, finished) = self.finished.of_web_token(token)?;
        let window = self.settings_for(None).lobby_timeout;
        (now < finished.ended.after(window)).then(|| {
            let played = user.is_some_and(|user| finished.has_player(user));
            (channel, finished.game, played)
        })
    }

    /// The Rematch button: a lobby like the channel's last game, its players invited.
    pub(in crate::service) fn rematch(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: &Actor,
        game: GameKey,
        now: Timestamp,
    ) -> Reply {
        if let Some(open) = self.snapshot(channel) {
            let its_lobby = matches!(open.state, State::Lobby(_))
                && self.finished.get(channel).is_some_and(|f| {
                    f.game == game && f.lobby == Some(open.created.0) && f.has_player(actor.user)
                });
            if its_lobby {
                // The rematch is open already: one of the game's players joins it (with their team).
                let join = Command::Join { team: None };
                return self.handle_command(guild, channel, actor.clone(), join, now);
            }
            return Reply::ephemeral(Text::TableExists);
        }
        let settings = self.settings_for(guild);
        let Some(finished) = self
            .finished
            .get(channel)
            .filter(|f| now < f.ended.after(settings.lobby_timeout))
        else {
            return Reply::ephemeral(Text::RematchExpired);
        };
        if finished.game != game {
            // An older game's button: the channel has played another game since.
            return Reply::ephemeral(Text::RematchSuperseded);
        }
        if !finished.has_player(actor.user) {
            return Reply::ephemeral(Text::RematchNotPlayer);
        }
        let mut table = finished.lobby(channel, actor, now);
        self.place(&mut table, guild);
        // Known before the lobby is published, so a second press at the same moment joins it.
        self.finished.set_lobby(channel, game, table.created.0);
        let message = table.lobby_message(&settings);
        // A new message that mentions them: the invitation notifies (not those it pinged lately who
        // did not take a seat since, see `budget::Budgets::ping_invited`).
        let invited: Vec<UserId> = match &table.state {
            State::Lobby(lobby) => lobby
                .invited
                .iter()
                .filter_map(|s| s.player.user())
                .collect(),
            _ => Vec::new(),
        };
        self.open_inviting(guild, actor, table, message, &invited, now)
    }
}
