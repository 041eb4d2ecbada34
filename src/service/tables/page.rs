//! A server's own web page (opt-in: `/sequence-settings web_page`): its leaderboard, its latest
//! finished games with their replay pages, and each listed player's profile figures, as data for the
//! web face (`GET /api/s/{token}`). Names only, never a user's id, never a hand. Blocking (reads the
//! store).

use serde::Serialize;

use crate::store::{Store, StoreError, BOT_USER_ID};

use super::Tables;
use crate::service::names::clean_name;
use crate::service::GuildId;

/// Players on the page's leaderboard, and finished games listed.
const PAGE_LENGTH: u32 = 10;

/// What a server's page shows.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ServerPage {
    /// The server's name, when the service knows it (it does not keep them yet: `None`).
    pub name: Option<String>,
    /// The rated players, best rating first, as `/sequence leaderboard` lists them.
    pub leaderboard: Vec<PagePlayer>,
    /// The latest finished games, newest first.
    pub games: Vec<PageGame>,
}

/// One player of the leaderboard with the figures of their profile card.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PagePlayer {
    /// Place on the leaderboard, from 1.
    pub rank: u32,
    /// The name they had in their latest rated game (text, cleaned).
    pub name: String,
    /// The rating on the shown scale (conservative, as the leaderboard has it).
    pub rating: i64,
    /// Rated games.
    pub rated_games: u32,
    /// Whether the rating is still provisional.
    pub provisional: bool,
    /// Finished games (not aborted), wins and sequences completed.
    pub games: u32,
    pub wins: u32,
    pub sequences: u32,
    /// Wins in a row up to the latest game, and the longest run.
    pub current_streak: u32,
    pub best_streak: u32,
    /// Jacks played, opponents' lines broken, dead cards exchanged.
    pub two_eyed_jacks: u32,
    pub one_eyed_jacks: u32,
    pub lines_broken: u32,
    pub dead_cards: u32,
    /// Series played and won.
    pub series_played: u32,
    pub series_won: u32,
    /// Achievements unlocked.
    pub achievements: u32,
    /// Agreement with the hard computer player (whole percent) over the latest rated games, if any.
    pub agreement_percent: Option<u32>,
}

/// One finished game.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PageGame {
    /// Its number.
    pub id: i64,
    /// When it ended, unix seconds.
    pub finished_at: i64,
    /// `classic`, `dice` or `kids`.
    pub variant: String,
    /// Whether it was aborted (counts for nothing).
    pub aborted: bool,
    /// The seats in order.
    pub players: Vec<PageSeat>,
    /// Its replay page (`/g/<token>`), when its token is kept.
    pub replay: Option<String>,
}

/// One seat of a finished game.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PageSeat {
    pub name: String,
    pub team: u8,
    pub won: bool,
    pub computer: bool,
}

impl Tables {
    /// The page of the server whose page token is `token`, while its page is on; `None` for any
    /// other token, without a store, or when reading fails (logged).
    pub fn server_page(&self, token: &str) -> Option<ServerPage> {
        let guild = self.guild_of_page_token(token)?;
        let store = self.store.as_ref()?;
        // With the server's game pages off (`web_links`), its games' replays answer nothing: the page
        // links none.
        let replays = self.settings_for(Some(guild)).web_links;
        match page_of(&**store, guild) {
            Ok(mut page) => {
                if !replays {
                    for game in &mut page.games {
                        game.replay = None;
                    }
                }
                Some(page)
            }
            Err(e) => {
                tracing::error!(guild = guild.0, "cannot read a server's page: {e}");
                None
            }
        }
    }
}

/// The page of `guild` from the store.
fn page_of(store: &dyn Store, guild: GuildId) -> Result<ServerPage, StoreError> {
    let guild_id = Some(guild.0);
    let mut leaderboard = Vec::new();
    for (at, row) in store
        .rating_leaderboard(guild_id, PAGE_LENGTH)?
        .into_iter()
        .enumerate()
    {
        let stats = store.player_stats(guild_id, row.user_id)?;
        let profile = store.profile(guild_id, row.user_id)?;
        let f = &profile.figures;
        let agreement = profile.agreement;
        let rating = crate::service::text::RatingInfo::of(&row.rating, &[]);
        leaderboard.push(PagePlayer {
            rank: u32::try_from(at + 1).unwrap_or(u32::MAX),
            name: clean_name(&row.name),
            rating: rating.shown,
            rated_games: rating.games,
            provisional: rating.provisional,
            games: stats.games,
            wins: stats.wins,
            sequences: stats.sequences,
            current_streak: f.current_streak,
            best_streak: f.best_streak,
            two_eyed_jacks: f.two_eyed_jacks,
            one_eyed_jacks: f.one_eyed_jacks,
            lines_broken: f.lines_broken,
            dead_cards: f.dead_cards,
            series_played: profile.series.played,
            series_won: profile.series.won,
            achievements: u32::try_from(profile.unlocked.len()).unwrap_or(u32::MAX),
            agreement_percent: (agreement.counted > 0).then(|| {
                u32::try_from(u64::from(agreement.matched) * 100 / u64::from(agreement.counted))
                    .unwrap_or(100)
            }),
        });
    }
    let mut games = Vec::new();
    for game in store.recent_games(guild_id, PAGE_LENGTH)? {
        let replay = store
            .game_web_token(game.id, guild_id)?
            .map(|token| format!("/g/{token}"));
        games.push(PageGame {
            id: game.id.0,
            finished_at: game.finished_at.div_euclid(1000),
            variant: game.variant,
            aborted: game.aborted,
            players: game
                .players
                .iter()
                .map(|p| PageSeat {
                    name: clean_name(&p.name),
                    team: p.team,
                    won: p.won,
                    computer: p.user_id == BOT_USER_ID,
                })
                .collect(),
            replay,
        });
    }
    Ok(ServerPage {
        name: None,
        leaderboard,
        games,
    })
}
