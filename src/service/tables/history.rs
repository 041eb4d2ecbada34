//! Stats, profiles, the leaderboard, history, records and replays of finished games, read from the store.

use crate::engine::record::Record;
use crate::engine::Variant;
use crate::service::persist::pretty;
use crate::service::text::{HistoryLine, LeaderLine, RatingInfo, Totals};
use crate::service::{
    Actor, Attachment, ChannelId, Command, GuildId, Image, Message, Output, ReplayImage, Reply,
    Text, UserId, Who,
};
use crate::store::{PlayerResult, StoreError, BOT_USER_ID};

use super::Tables;

/// Lines of the leaderboard and of the history.
const LIST_LENGTH: u32 = 10;

/// Rating changes shown by `stats`.
const RECENT_CHANGES: u32 = 5;

impl Tables {
    /// Stats, profiles, leaderboard, history and records of finished games, from the store
    /// (blocking).
    pub(in crate::service) fn history(
        &self,
        guild: Option<GuildId>,
        channel: ChannelId,
        actor: &Actor,
        command: Command,
    ) -> Reply {
        let Some(store) = &self.store else {
            return Reply::ephemeral(Text::NoHistory);
        };
        let guild_id = guild.map(|g| g.0);
        // A player's own figures (stats, profile, head to head) are kept per server, and outside
        // servers per chat: no chat sees another's games.
        let standing = Some(crate::store::standing_scope(guild_id, channel.0));
        let public = |text: Text| Reply {
            outputs: vec![Output::Channel(Message::text(text))],
            auto_move: false,
        };
        let result = match command {
            Command::Stats { user } => {
                let user = user.unwrap_or(actor.user);
                store.player_stats(standing, user.0).and_then(|s| {
                    let rating = store.player_rating(standing, user.0, RECENT_CHANGES)?;
                    let agreement =
                        store.recent_agreement(standing, user.0, crate::store::AGREEMENT_GAMES)?;
                    let series = store.series_stats(standing, user.0)?;
                    let mut lines = vec![Text::Stats {
                        who: Who::User(user),
                        totals: Totals {
                            games: s.games,
                            wins: s.wins,
                            sequences: s.sequences,
                        },
                        rating: rating.map(|r| RatingInfo::of(&r.rating, &r.changes)),
                        agreement: (agreement.games > 0).then_some(agreement),
                    }];
                    if series.played > 0 {
                        lines.push(Text::SeriesStats {
                            played: series.played,
                            won: series.won,
                        });
                    }
                    Ok(Reply {
                        outputs: vec![Output::Channel(Message::text_lines(lines))],
                        auto_move: false,
                    })
                })
            }
            Command::Profile { user } => {
                crate::service::profile::profile(&**store, standing, actor, user)
            }
            Command::Versus { user } => {
                crate::service::profile::versus(&**store, standing, actor, user)
            }
            Command::Leaderboard => {
                store
                    .rating_leaderboard(guild_id, LIST_LENGTH)
                    .and_then(|rows| {
                        let lines = rows
                            .into_iter()
                            .map(|row| {
                                let s = store.player_stats(guild_id, row.user_id)?;
                                Ok(LeaderLine {
                                    who: Who::User(UserId(row.user_id)),
                                    totals: Totals {
                                        games: s.games,
                                        wins: s.wins,
                                        sequences: s.sequences,
                                    },
                                    rating: RatingInfo::of(&row.rating, &[]),
                                })
                            })
                            .collect::<Result<Vec<_>, StoreError>>()?;
                        Ok(public(Text::Leaderboard(lines)))
                    })
            }
            Command::History => store.recent_games(guild_id, LIST_LENGTH).map(|games| {
                public(Text::History(
                    games
                        .into_iter()
                        .map(|game| {
                            let who = |p: &PlayerResult| match p.user_id {
                                BOT_USER_ID => Who::Bot(p.name.clone()),
                                id => Who::User(UserId(id)),
                            };
                            HistoryLine {
                                id: game.id.0,
                                variant: game.variant.parse::<Variant>().ok(),
                                finished_at: game.finished_at.div_euclid(1000),
                                players: game.players.iter().map(who).collect(),
                                winners: game.players.iter().filter(|p| p.won).map(who).collect(),
                                aborted: game.aborted,
                            }
                        })
                        .collect(),
                ))
            }),
            Command::Record { game } => {
                let id = match game {
                    Some(id) => Ok(Some(crate::store::GameId(id))),
                    None => store.latest_game_in_channel(guild_id, channel.0),
                };
                id.and_then(|id| match id {
                    None => Ok(Reply::ephemeral(Text::NoGameHere)),
                    Some(id) => store.game_record(id, guild_id).map(|record| match record {
                        None => Reply::ephemeral(Text::NoSuchGame(id.0)),
                        Some(json) => Reply {
                            outputs: vec![Output::Ephemeral(Message {
                                lines: vec![Text::GameRecord { id: id.0 }],
                                attachment: Some(Attachment {
                                    filename: format!("sequence-game-{}.json", id.0),
                                    data: pretty(&json),
                                }),
                                link: self.replay_link(id, guild),
                                ..Message::default()
                            })],
                            auto_move: false,
                        },
                    }),
                })
            }
            Command::Replay { game } => {
                let id = match game {
                    Some(id) => Ok(Some(crate::store::GameId(id))),
                    None => store.latest_game_in_channel(guild_id, channel.0),
                };
                id.and_then(|id| match id {
                    None => Ok(Reply::ephemeral(Text::NoGameHere)),
                    Some(id) => store.game_record(id, guild_id).map(|record| {
                        match record.as_deref().map(Record::from_json) {
                            None => Reply::ephemeral(Text::NoSuchGame(id.0)),
                            Some(Err(e)) => {
                                tracing::error!(game = id.0, "a stored record is unreadable: {e}");
                                Reply::ephemeral(Text::HistoryFailed)
                            }
                            Some(Ok(record)) => Reply {
                                outputs: vec![Output::Channel(Message {
                                    lines: vec![Text::GameReplay { id: id.0 }],
                                    image: Some(Image::Replay(ReplayImage { record, slot: None })),
                                    ..Message::default()
                                })],
                                auto_move: false,
                            },
                        }
                    }),
                })
            }
            _ => return Reply::ephemeral(Text::Internal),
        };
        result.unwrap_or_else(|e| {
            tracing::error!(channel = channel.0, "cannot read the history: {e}");
            Reply::ephemeral(Text::HistoryFailed)
        })
    }
}
