//! What the bot needs to post a board in a channel, from the permission bits Discord sends with every
//! interaction (`app_permissions`), and the pause of a table whose channel refused a post.
//!
//! Discord's rules (topics/permissions and topics/threads): creating a message in a guild channel
//! needs View Channel and Send Messages; in a thread (a public or private thread, or a forum post)
//! Send Messages has no effect and Send Messages in Threads is needed instead; a file needs Attach
//! Files. The bot sends no embeds and no replies, so Embed Links and Read Message History are not
//! needed.

use serde::{Deserialize, Serialize};

use super::ids::Timestamp;

/// A channel permission the bot needs to post the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Permission {
    /// View Channel (`1 << 10`).
    ViewChannel,
    /// Send Messages (`1 << 11`), in text channels.
    SendMessages,
    /// Send Messages in Threads (`1 << 38`), in threads and forum posts.
    SendMessagesInThreads,
    /// Attach Files (`1 << 15`): the board is a picture.
    AttachFiles,
}

/// Administrator (`1 << 3`) grants every permission.
const ADMINISTRATOR: u64 = 1 << 3;

impl Permission {
    /// The permission's bit in Discord's permission bitfield.
    pub const fn bit(self) -> u64 {
        match self {
            Permission::ViewChannel => 1 << 10,
            Permission::SendMessages => 1 << 11,
            Permission::SendMessagesInThreads => 1 << 38,
            Permission::AttachFiles => 1 << 15,
        }
    }

    /// The permissions needed to post a board in a text channel, or in a thread.
    pub const fn to_post(thread: bool) -> [Permission; 3] {
        let send = if thread {
            Permission::SendMessagesInThreads
        } else {
            Permission::SendMessages
        };
        [Permission::ViewChannel, send, Permission::AttachFiles]
    }

    /// The permissions of [`Permission::to_post`] that `granted` (Discord's bitfield of the bot's
    /// permissions in the channel) lacks, in the order they are shown.
    pub fn missing_to_post(granted: u64, thread: bool) -> Vec<Permission> {
        if granted & ADMINISTRATOR != 0 {
            return Vec::new();
        }
        Permission::to_post(thread)
            .into_iter()
            .filter(|p| granted & p.bit() == 0)
            .collect()
    }
}

/// Why a table is paused: a post in its channel was refused (Missing Permissions or Missing Access).
/// While paused no computer moves, reminders or timeouts happen; the next interaction in the channel
/// whose `app_permissions` allow posting resumes the game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paused {
    /// When the post was refused.
    pub since: Timestamp,
    /// What is missing, as last seen on an interaction (empty: not known yet).
    #[serde(default)]
    pub missing: Vec<Permission>,
    /// Whether the channel is a thread, as last seen on an interaction.
    #[serde(default)]
    pub thread: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIEW: u64 = 1 << 10;
    const SEND: u64 = 1 << 11;
    const ATTACH: u64 = 1 << 15;
    const SEND_IN_THREADS: u64 = 1 << 38;

    #[test]
    fn posting_needs_view_send_and_attach() {
        assert!(Permission::missing_to_post(VIEW | SEND | ATTACH, false).is_empty());
        assert_eq!(
            Permission::missing_to_post(VIEW | SEND, false),
            vec![Permission::AttachFiles]
        );
        assert_eq!(
            Permission::missing_to_post(0, false),
            vec![
                Permission::ViewChannel,
                Permission::SendMessages,
                Permission::AttachFiles
            ]
        );
        assert!(Permission::missing_to_post(ADMINISTRATOR, true).is_empty());
    }

    #[test]
    fn threads_need_send_in_threads_not_send() {
        assert_eq!(
            Permission::missing_to_post(VIEW | SEND | ATTACH, true),
            vec![Permission::SendMessagesInThreads]
        );
        assert!(Permission::missing_to_post(VIEW | SEND_IN_THREADS | ATTACH, true).is_empty());
        assert_eq!(
            Permission::missing_to_post(VIEW | SEND_IN_THREADS | ATTACH, false),
            vec![Permission::SendMessages]
        );
    }
}
