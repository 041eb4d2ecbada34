//! Games opened on the pages (local play): each in a channel of its own, with an id in a range no
//! Discord channel has (the top two bits set), outside any server, casual, belonging to the web
//! face, the guest who opened it seated as its host. It goes through the service's one door like a
//! `/sequence start`.

use rand::RngCore;
use serde::Deserialize;

use crate::engine::{Options, Variant};
use crate::service::{Actor, ChannelId, Command, GuildId, Request, UserId};

/// The bits every local table's channel id has (no Discord snowflake has the top bit).
pub const LOCAL_CHANNELS: u64 = 0xC000_0000_0000_0000;

/// A fresh channel id for a local table: [`LOCAL_CHANNELS`] and 62 random bits.
pub fn new_channel() -> ChannelId {
    ChannelId(LOCAL_CHANNELS | (rand::rngs::OsRng.next_u64() >> 2))
}

/// Whether `channel` is a local table's.
pub fn is_local(channel: ChannelId) -> bool {
    channel.0 & LOCAL_CHANNELS == LOCAL_CHANNELS
}

/// What `POST /api/games` asks for.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Classic, dice or kids (default: classic).
    #[serde(default)]
    pub variant: Option<Variant>,
    /// King of the Board (also `options.king_of_the_board`).
    #[serde(default)]
    pub king_of_the_board: bool,
    /// Teams (`None`: the default of the player count).
    #[serde(default)]
    pub teams: Option<u8>,
    /// A series: best of 3, 5 or 7.
    #[serde(default)]
    pub series: Option<u8>,
    /// Seconds a player has for a turn (`None`: the configured default).
    #[serde(default)]
    pub turn_time: Option<u32>,
    /// The rule options.
    #[serde(default)]
    pub options: Options,
}

impl NewGame {
    /// The request that opens it in `channel` for `user` named `name` (`default`: the game when
    /// none is named): a casual game outside any server (the service checks the options as for
    /// `/sequence start`).
    pub fn request(
        self,
        channel: ChannelId,
        user: UserId,
        name: &str,
        default: Variant,
    ) -> Request {
        let actor = Actor {
            user,
            name: name.to_string(),
            can_manage: false,
            can_manage_guild: false,
        };
        self.request_in(channel, None, actor, default, Some(false))
    }

    /// The request that opens it in `channel` of server `guild` for `actor` (`default`: the game
    /// when none is named; `rated`: as `/sequence start`'s option, `None` the place's default).
    pub fn request_in(
        self,
        channel: ChannelId,
        guild: Option<GuildId>,
        actor: Actor,
        default: Variant,
        rated: Option<bool>,
    ) -> Request {
        let mut options = self.options;
        options.king_of_the_board |= self.king_of_the_board;
        Request {
            guild,
            channel,
            actor,
            command: Command::Start {
                variant: self.variant.unwrap_or(default),
                teams: self.teams,
                options,
                rated,
                turn_time: self.turn_time,
                series: self.series,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_channels_are_apart_from_discord_ones() {
        let channel = new_channel();
        assert!(is_local(channel));
        assert_ne!(channel, new_channel(), "random");
        // A snowflake of the year 2100 is still far below.
        assert!(!is_local(ChannelId(2_000_000_000_000_000_000)));
        let asked: NewGame = serde_json::from_str(
            r#"{"variant":"dice","king_of_the_board":false,"teams":null,"series":3,"turn_time":60,"options":{"equal_turns":true}}"#,
        )
        .unwrap();
        let request = asked.request(channel, UserId(7 | 1 << 63), "Ann", Variant::Classic);
        assert_eq!(request.guild, None);
        assert_eq!(request.actor.name, "Ann");
        match request.command {
            Command::Start {
                variant,
                rated,
                series,
                turn_time,
                options,
                ..
            } => {
                assert_eq!(variant, Variant::Dice);
                assert_eq!(rated, Some(false), "casual");
                assert_eq!((series, turn_time), (Some(3), Some(60)));
                assert!(options.equal_turns);
            }
            other => panic!("{other:?}"),
        }
        assert!(serde_json::from_str::<NewGame>(r#"{"variant":"chess"}"#).is_err());
        assert!(serde_json::from_str::<NewGame>(r#"{"options":{"nope":1}}"#).is_err());
    }
}
