//! The service's settings: timers, defaults and limits against abuse (per-server settings are in `server`).

use std::time::Duration;

use crate::engine::Variant;

use super::bot::BotLevel;

/// Timers and defaults of the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// After this long a player to move is reminded.
    pub turn_reminder: Duration,
    /// After this long the turn is played for them by a computer player.
    pub turn_timeout: Duration,
    /// A lobby that has not started after this long is closed.
    pub lobby_timeout: Duration,
    /// An invitation to a challenge (`/sequence start invite:`, "Challenge to Sequence") not answered
    /// after this long lapses; the lobby stays open.
    pub challenge_timeout: Duration,
    /// Level of a bot added without a level, and of the computer that plays a timed-out turn.
    pub default_bot_level: BotLevel,
    /// The game `start` opens when none is named.
    pub default_variant: Variant,
    /// How long a computer player thinks per move (`None`: the move picker's own time).
    pub bot_think: Option<Duration>,
    /// Whether a player whose turn times out gives up (a computer takes their seat for good) instead
    /// of a computer playing that one turn.
    pub timeout_gives_up: bool,
    /// After this many timed-out turns in a row a computer takes the player's seat for the rest of
    /// the game (0: never).
    pub replace_after_timeouts: u8,
    /// Limits against abuse.
    /// Whether a hint may be asked in a game that counts for ratings (after a private confirmation;
    /// the game is then unrated for everyone). Off: hints only in casual games.
    pub hints: bool,
    /// Whether the animated replay of every finished (kept) game is posted right after its final
    /// message (drawn by the Discord layer off the async runtime).
    pub replay_gif: bool,
    /// Whether games have web pages: the Watch button on the lobby, the turn prompts and the final
    /// message, and the pages a link opens (the live board, the replay).
    pub web_links: bool,
    pub limits: Limits,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            turn_reminder: Duration::from_secs(120),
            turn_timeout: Duration::from_secs(600),
            lobby_timeout: Duration::from_secs(1800),
            challenge_timeout: Duration::from_secs(600),
            default_bot_level: BotLevel::Easy,
            default_variant: Variant::Classic,
            bot_think: None,
            timeout_gives_up: false,
            replace_after_timeouts: 2,
            hints: false,
            replay_gif: true,
            web_links: true,
            limits: Limits::default(),
        }
    }
}

/// Most users, channels, servers or places the service remembers in one map kept in memory
/// (languages, server settings, posting budgets, hints); past it that map starts afresh.
pub(super) const MAX_REMEMBERED: usize = 100_000;

/// Limits against abuse: how much one user or one server may ask of the bot at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open tables (lobbies and games) one user may host at once, across all servers.
    pub tables_per_user: u32,
    /// Open tables one server may have at once.
    pub tables_per_server: u32,
    /// Computer players one table may have.
    pub bots_per_table: u8,
    /// Messages the bot posts per second in one server, on average (channel posts, lobby edits and
    /// direct messages of its games). Discord allows a bot 50 requests per second in all.
    pub server_posts_per_second: u32,
    /// Messages the bot may post in one server in a burst, above the average.
    pub server_post_burst: u32,
    /// Computer players' searches that run at once in the whole process (`0`: one fewer than the
    /// machine's cores, at least one); more wait their turn in the order their turns became due.
    pub computer_threads: u32,
    /// Rated games two players may play against each other in one server in 24 hours; later games
    /// between them are casual (0: no limit). The daily cap: `service/daily_cap.rs`.
    pub rated_games_per_day: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            tables_per_user: 3,
            tables_per_server: 25,
            bots_per_table: 5,
            server_posts_per_second: 5,
            server_post_burst: 20,
            computer_threads: 0,
            rated_games_per_day: 5,
        }
    }
}

impl Limits {
    /// Tests only: no limit that a test of something else could run into.
    #[cfg(test)]
    pub(crate) fn unlimited() -> Limits {
        Limits {
            tables_per_user: u32::MAX,
            tables_per_server: u32::MAX,
            bots_per_table: u8::MAX,
            server_posts_per_second: 1_000_000,
            server_post_burst: 1_000_000,
            computer_threads: 0,
            rated_games_per_day: 0,
        }
    }
}
