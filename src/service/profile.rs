//! `/sequence profile` (and the **My profile** button, and the user context menu) and
//! `/sequence versus`: a member's figures, achievements and rating chart read from the store, as a
//! card (an image the Discord layer draws in the reader's language) with its text version, and two
//! members' games together. Blocking: called from [`super::Tables`] on a blocking thread, as the
//! stats are.

use crate::engine::Variant;
use crate::store::rating::shown_rating;
use crate::store::{Profile, Store, StoreError, Versus};

use super::ids::{Actor, UserId};
use super::names::{clean_name, NEUTRAL_NAME};
use super::reply::{Image, Message, Output, ProfileImage, Reply};
use super::text::{ProfileInfo, RatingInfo, SharedLine, VersusInfo};
use super::text::{Text, Who};

/// The name on a card: the stored one (cleaned again: it may predate the cleaning), else the
/// asker's own for their own profile, else a neutral one.
fn card_name(stored: Option<&str>, fallback: Option<&str>) -> String {
    clean_name(stored.or(fallback).unwrap_or(NEUTRAL_NAME))
}

/// The store's head-to-head as the texts carry it.
fn versus_info(viewer: UserId, other: UserId, other_name: String, v: &Versus) -> VersusInfo {
    VersusInfo {
        viewer: Who::User(viewer),
        other: Who::User(other),
        other_name,
        games: v.games,
        partner_games: v.partner_games,
        partner_wins: v.partner_wins,
        opponent_games: v.opponent_games,
        wins: v.wins,
        losses: v.losses,
        sequences: v.sequences,
        other_sequences: v.other_sequences,
        recent: v
            .recent
            .iter()
            .map(|g| SharedLine {
                id: g.id,
                variant: g.variant.parse::<Variant>().ok(),
                finished_at: g.finished_at.div_euclid(1000),
                partners: g.partners,
                won: g.won,
                other_won: g.other_won,
            })
            .collect(),
    }
}

/// The store's profile as the texts carry it.
fn profile_info(
    user: UserId,
    name: String,
    p: &Profile,
    versus: Option<VersusInfo>,
) -> ProfileInfo {
    ProfileInfo {
        who: Who::User(user),
        name,
        figures: p.figures.clone(),
        feats: p.feats.clone(),
        unlocked: p
            .unlocked
            .iter()
            .map(|u| (u.achievement, u.game_id))
            .collect(),
        rating: p.rating.as_ref().map(|r| RatingInfo::of(r, &[])),
        rank: p.rank,
        chart: p.chart.iter().map(|&x| shown_rating(x)).collect(),
        series: p.series,
        agreement: p.agreement,
        versus,
    }
}

/// A public reply of one message.
fn public(message: Message) -> Reply {
    Reply {
        outputs: vec![Output::Channel(message)],
        auto_move: false,
    }
}

/// `user`'s profile in the store's scope `guild_id` (a server's, or outside servers a chat's, see
/// [`crate::store::standing_scope`]; the asker's without one): the card and its text in the channel; another
/// member's shows the asker's games with them. A member without a finished game here gets a polite
/// line, privately.
pub(super) fn profile(
    store: &dyn Store,
    guild_id: Option<u64>,
    actor: &Actor,
    user: Option<UserId>,
) -> Result<Reply, StoreError> {
    let user = user.unwrap_or(actor.user);
    let own = user == actor.user;
    let p = match store.profile(guild_id, user.0) {
        Err(StoreError::ProfilesRebuilding { percent }) => {
            return Ok(Reply::ephemeral(Text::ProfilesRebuilding { percent }))
        }
        p => p?,
    };
    if p.figures.games == 0 {
        return Ok(Reply::ephemeral(Text::NoProfile {
            who: Who::User(user),
        }));
    }
    let name = card_name(p.name.as_deref(), own.then_some(actor.name.as_str()));
    let versus = if own {
        None
    } else {
        let v = store.versus(guild_id, actor.user.0, user.0)?;
        (v.games > 0).then(|| versus_info(actor.user, user, name.clone(), &v))
    };
    let info = profile_info(user, name, &p, versus);
    Ok(public(Message {
        lines: vec![Text::Profile(Box::new(info.clone()))],
        image: Some(Image::Profile(ProfileImage {
            info: Box::new(info),
        })),
        ..Message::default()
    }))
}

/// The asker's games with `other`, in the channel; privately, a polite line when there are none.
pub(super) fn versus(
    store: &dyn Store,
    guild_id: Option<u64>,
    actor: &Actor,
    other: UserId,
) -> Result<Reply, StoreError> {
    if other == actor.user {
        return Ok(Reply::ephemeral(Text::VersusSelf));
    }
    let v = match store.versus(guild_id, actor.user.0, other.0) {
        Err(StoreError::ProfilesRebuilding { percent }) => {
            return Ok(Reply::ephemeral(Text::ProfilesRebuilding { percent }))
        }
        v => v?,
    };
    if v.games == 0 {
        return Ok(Reply::ephemeral(Text::NoVersus {
            other: Who::User(other),
        }));
    }
    // The text names both by mention; the name is only for a card.
    let info = versus_info(actor.user, other, String::new(), &v);
    Ok(public(Message::text(Text::Versus(Box::new(info)))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_names_are_cleaned_and_never_empty() {
        assert_eq!(card_name(Some("Ann"), Some("Bob")), "Ann");
        assert_eq!(card_name(None, Some("Bob")), "Bob");
        assert_eq!(card_name(None, None), NEUTRAL_NAME);
        assert_eq!(card_name(Some("\u{200B}\n"), None), NEUTRAL_NAME);
        assert_eq!(card_name(Some("A\nnn"), None), "A nn");
    }
}
