//! The bot in its channel: restarts, posting permissions, and the limits that protect a server.

use crate::i18n::{join_list, Args, Tr};
use crate::service::access::Permission;

use super::labels::{duration_text, game_title};
use super::Text;

/// The texts of this topic (`None`: a text of another topic).
pub(super) fn render(text: &Text, tr: &mut Tr) -> Option<String> {
    Some(match text {
        Text::DmFailed(who) => tr.ta("dm-failed", &Args::new().text("player", who.to_string())),
        Text::SaveFailed => tr.t("save-failed"),
        Text::GameResumed {
            variant,
            to_move,
            seconds_left,
        } => {
            let game = game_title(tr, *variant);
            let args = Args::new()
                .text("game", game)
                .text("player", to_move.to_string());
            match seconds_left {
                Some(seconds) => {
                    let time = duration_text(tr, *seconds);
                    tr.ta("game-resumed-timed", &args.text("time", time))
                }
                None => tr.ta("game-resumed", &args),
            }
        }
        Text::LobbyResumed(variant) => {
            let game = game_title(tr, *variant);
            tr.ta("lobby-resumed", &Args::new().text("game", game))
        }
        Text::NotRestored => tr.t("not-restored"),
        Text::EndedWhileRestarting => tr.t("ended-while-restarting"),
        Text::TooManyTables { max } => tr.ta("too-many-tables", &Args::new().number("max", *max)),
        Text::ServerFull { max } => tr.ta("server-full", &Args::new().number("max", *max)),
        Text::TooManyBots { max } => tr.ta("too-many-bots", &Args::new().number("max", *max)),
        Text::Busy => tr.t("busy"),
        Text::ReplaysWaiting { max } => tr.ta("replays-waiting", &Args::new().number("max", *max)),
        Text::ReplaysBusy { max } => tr.ta("replays-busy", &Args::new().number("max", *max)),
        Text::CannotPostHere { missing, thread } => {
            permissions_text(tr, "cannot-post-here", missing, *thread)
        }
        Text::GamePaused { missing, thread } if missing.is_empty() => {
            let mut text = tr.t("game-paused-unknown");
            text.push(' ');
            text.push_str(&how_to_grant(tr, *thread));
            text
        }
        Text::GamePaused { missing, thread } => {
            permissions_text(tr, "game-paused", missing, *thread)
        }
        Text::PostingRestored => tr.t("posting-restored"),
        Text::SlowDown => tr.t("slow-down"),
        _ => return None,
    })
}

/// The name of a permission as Discord's settings show it.
fn permission_name(tr: &mut Tr, permission: Permission) -> String {
    tr.t(match permission {
        Permission::ViewChannel => "permission-view-channel",
        Permission::SendMessages => "permission-send-messages",
        Permission::SendMessagesInThreads => "permission-send-messages-in-threads",
        Permission::AttachFiles => "permission-attach-files",
    })
}

/// How a member who manages the server grants the bot what it needs, in a channel or a thread.
fn how_to_grant(tr: &mut Tr, thread: bool) -> String {
    let needed: Vec<String> = Permission::to_post(thread)
        .into_iter()
        .map(|p| format!("**{}**", permission_name(tr, p)))
        .collect();
    let needed = join_list(tr, &needed);
    let key = if thread {
        "grant-permissions-thread"
    } else {
        "grant-permissions-channel"
    };
    tr.ta(key, &Args::new().text("permissions", needed))
}

/// A sentence naming the missing permissions, followed by how to grant them.
fn permissions_text(tr: &mut Tr, key: &str, missing: &[Permission], thread: bool) -> String {
    let names: Vec<String> = missing
        .iter()
        .map(|&p| format!("**{}**", permission_name(tr, p)))
        .collect();
    let names = join_list(tr, &names);
    let mut text = tr.ta(key, &Args::new().text("permissions", names));
    text.push(' ');
    text.push_str(&how_to_grant(tr, thread));
    text
}
