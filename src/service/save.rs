//! What the registry saves after a table's update, apart from the table itself: a changed table is
//! saved, a closed one kept as a finished game (its final message naming the record and offering the
//! replay); a game of a series that ended is counted and the table saved again between the games;
//! the final message names the achievements its game unlocked.
//! The table only decides; this file talks to [`Persist`].

use super::ids::Timestamp;
use super::persist::{Persist, ServiceError};
use super::reply::{Control, Image, Label, Message, Output, ReplayImage, Reply};
use super::request::Button;
use super::series::Series;
use super::table::State;
use super::table::Table;
use super::text::{unlock_lines, RatingNote};
use super::text::{Text, Who};

/// What leads from a table's messages to its pages: the address of its page (the *Watch* link), if
/// it has one, and whether **Open the board** (the Discord Activity) is offered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Links {
    /// The table's page.
    pub page: Option<String>,
    /// Whether the Activity's button is shown.
    pub activity: bool,
}

/// Saves a changed table, or closes it (keeping a finished game and naming its number in the final
/// message), and puts the link to the table's page and the Activity's button (`links`) on the
/// messages that lead there ([`offer_links`]). Refusals change nothing and are not saved.
pub(super) fn persist_update(
    persist: &dyn Persist,
    table: &Table,
    mut reply: Reply,
    replay_gif: bool,
    links: &Links,
) -> Result<Reply, ServiceError> {
    if reply.is_refusal() {
        return Ok(reply);
    }
    if !table.closed {
        persist.save(table)?;
        offer_links(&mut reply, links, false, false);
        return Ok(reply);
    }
    let finished = matches!(table.state, State::Playing(_)).then_some(table);
    let kept = persist.close(table.channel, finished)?;
    offer_links(&mut reply, links, true, kept.is_some());
    if finished.is_some() {
        metrics::counter!("sequence_games_finished_total", "game" => table.setup.variant.name())
            .increment(1);
        tracing::info!(record = kept, "game ended");
    }
    if let Some(id) = kept {
        let last = reply.outputs.iter_mut().rev().find_map(|o| match o {
            Output::Channel(m) if m.attachment.is_some() => Some(m),
            _ => None,
        });
        if let Some(message) = last {
            message.lines.push(Text::GameSaved { id });
            // Kept: each player's totals, and the record of this game, are a press away.
            message
                .buttons
                .extend([Button::Stats, Button::Profile, Button::Record(id)]);
        }
        // The animated replay, as a follow-up right after the final message: the final message goes
        // out at once, and the GIF (drawn on a blocking thread by the Discord layer) when it is ready.
        let at = reply.outputs.iter().rposition(
            |o| matches!(o, Output::Channel(m) if m.lines.contains(&Text::GameSaved { id })),
        );
        // An aborted game (too few moves to count) is not worth an animation.
        let playing = table.playing().filter(|p| !p.is_aborted());
        if let (true, Some(at), Some(playing)) = (replay_gif, at, playing) {
            reply.outputs.insert(
                at + 1,
                Output::Channel(Message {
                    lines: vec![Text::GameReplay { id }],
                    image: Some(Image::Replay(ReplayImage {
                        record: playing.live.record().clone(),
                        slot: None,
                    })),
                    ..Message::default()
                }),
            );
        }
    }
    Ok(reply)
}

/// Puts what leads to the table's pages (`links`) on `reply`: while the table is open (not `closed`),
/// on the lobby card and on every turn prompt (a channel message with the ⋯ button: a turn, a
/// resumed game) *Watch* (the page's link) and **Open the board** (the Activity); and *Replay on the
/// web* on the final message (the one that offers a rematch) if its game was `kept` (else there is
/// no replay to show).
pub(super) fn offer_links(reply: &mut Reply, links: &Links, closed: bool, kept: bool) {
    for output in &mut reply.outputs {
        let (message, lobby) = match output {
            Output::Lobby { message, .. } => (message, true),
            Output::Channel(message) => (message, false),
            _ => continue,
        };
        let has = |wanted: fn(&Button) -> bool| message.buttons.iter().any(wanted);
        let final_message = has(|b| matches!(b, Button::Rematch(_)));
        let open = !final_message && !closed && (lobby || has(|b| matches!(b, Button::More(_))));
        let label = if final_message {
            kept.then_some(Text::ReplayLinkButton)
        } else {
            open.then_some(Text::WatchButton)
        };
        if let (Some(label), Some(url)) = (label, &links.page) {
            message.link = Some(Control::Link {
                label: Label::Text(label),
                url: url.clone(),
            });
        }
        if open && links.activity {
            message.activity = true;
        }
    }
}

/// After a saved update: a game of a series that just ended is counted, and unless the series is
/// over the table opens again between the games (saved), its final message offering **Next game**;
/// then the final message names the achievements its game unlocked. `false` if the table could not
/// be saved between the games (the series is then lost; logged).
pub(super) fn after_game(
    persist: &dyn Persist,
    table: &mut Table,
    reply: &mut Reply,
    now: Timestamp,
) -> bool {
    let kept = count_series(persist, table, reply, now);
    announce_unlocks(persist, reply);
    kept
}

/// One line under a final message for each achievement its game unlocked (read after the series is
/// counted: the last game of a series won unlocks that one). The store unlocks each achievement
/// once, at one game, so the lines come once. A failure to read them is logged: the game and the
/// achievements are kept, and the profile shows them.
fn announce_unlocks(persist: &dyn Persist, reply: &mut Reply) {
    for output in &mut reply.outputs {
        let Output::Channel(message) = output else {
            continue;
        };
        let Some(id) = message.announced_game() else {
            continue;
        };
        match persist.unlocked_in(id) {
            Ok(unlocked) => message.lines.extend(unlock_lines(
                unlocked
                    .into_iter()
                    .map(|(user, achievement)| (Who::User(user), achievement)),
            )),
            Err(e) => tracing::error!(game = id, "cannot read the achievements of a game: {e}"),
        }
    }
}

/// A game of a series that just ended is counted (see [`after_game`]).
fn count_series(
    persist: &dyn Persist,
    table: &mut Table,
    reply: &mut Reply,
    now: Timestamp,
) -> bool {
    if table.closed && table.is_between_games() {
        // Abandoned, cancelled, stopped or expired between two games.
        if let Some(series) = &table.series {
            record_end(persist, table, series);
        }
        return true;
    }
    if !table.closed || !matches!(table.state, State::Playing(_)) {
        return true;
    }
    let Some(mut series) = table.series.clone() else {
        return true;
    };
    let Some(playing) = table.playing() else {
        return true;
    };
    let stopped = playing.stopped.is_some();
    // A game given up before everyone made two moves counts for nothing, in the series too.
    let aborted = playing.rating_note(&table.setup) == RatingNote::Aborted;
    let winners = if aborted {
        Vec::new()
    } else {
        playing.winners()
    };
    let lines = series.count_game(&winners, stopped);
    let over = series.over;
    table.series = Some(series.clone());
    let final_message = reply.outputs.iter_mut().rev().find_map(|o| match o {
        Output::Channel(m) if m.buttons.iter().any(|b| matches!(b, Button::Rematch(_))) => Some(m),
        _ => None,
    });
    let Some(message) = final_message else {
        return true;
    };
    message.lines.extend(lines);
    if over {
        record_end(persist, table, &series);
        return true;
    }
    let Some(next) = table.between_games(series.clone(), now) else {
        return true;
    };
    if let Err(e) = persist.save(&next) {
        tracing::error!(
            channel = table.channel.0,
            "cannot save the table between two games of a series: {e}"
        );
        message.lines.retain(|l| !matches!(l, Text::SeriesNext));
        message.lines.push(Text::SeriesNoWinner);
        if let Some(series) = &mut table.series {
            series.over = true;
        }
        record_end(persist, table, &series);
        return false;
    }
    for button in &mut message.buttons {
        if matches!(button, Button::Rematch(_)) {
            *button = Button::NextGame(next.created.0);
        }
    }
    message
        .buttons
        .insert(1, Button::AbandonSeries(next.created.0));
    *table = next;
    true
}

/// Stores a series that ended for its players' stats (a failure is logged: the games are kept).
fn record_end(persist: &dyn Persist, table: &Table, series: &Series) {
    let scope = crate::store::standing_scope(table.guild.map(|g| g.0), table.channel.0);
    if let Err(e) = persist.series_ended(scope, series) {
        tracing::error!(
            channel = table.channel.0,
            "cannot store the end of a series: {e}"
        );
    }
}
