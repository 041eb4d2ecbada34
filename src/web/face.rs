//! The web as a face of the service. A web table's page reads [`crate::service::Tables::view`], so
//! nothing the service sends needs sending: [`WebFace::send`] only says what a chat would have
//! posted, so that the service keeps its state as for any face (a lobby's message id, a posted final
//! message recorded as announced, a turn prompt noted, a replay's slot freed).
//!
//! It also keeps, for every channel, the sequence number of the last event published for it: the
//! `version` a page is given with each view (it only grows).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::service::{ChannelId, Event, Face, FaceId, Output, Sent, Tables, Timestamp};

/// Channels whose last event is remembered at most; past it, those without a table are forgotten.
const MAX_VERSIONS: usize = 100_000;

/// The web face (see the module's documentation).
#[derive(Clone, Debug)]
pub struct WebFace {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    /// The next id given to a "posted" message: unique within the process and across restarts (it
    /// starts at the clock's milliseconds).
    next_id: AtomicU64,
    /// The last event's sequence number per channel.
    versions: Mutex<HashMap<ChannelId, u64>>,
    /// The tables, to forget the versions of closed tables.
    tables: Arc<Tables>,
}

impl WebFace {
    /// The web face of `tables`.
    pub fn new(tables: Arc<Tables>) -> WebFace {
        WebFace {
            shared: Arc::new(Shared {
                next_id: AtomicU64::new(Timestamp::now().0.max(1)),
                versions: Mutex::new(HashMap::new()),
                tables,
            }),
        }
    }

    /// The sequence number of the last event of `channel` seen (0: none since the process started).
    pub fn version(&self, channel: ChannelId) -> u64 {
        let versions = self
            .shared
            .versions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        versions.get(&channel).copied().unwrap_or(0)
    }

    fn posted(&self) -> u64 {
        self.shared.next_id.fetch_add(1, Ordering::Relaxed)
    }
}

impl Face for WebFace {
    fn id(&self) -> FaceId {
        FaceId::Web
    }

    async fn send(&self, _channel: ChannelId, output: &Output) -> Sent {
        match output {
            // As if posted: the service records a final message as announced and notes a prompt.
            Output::Channel(_) => Sent::Posted(self.posted()),
            Output::Lobby {
                message_id: None, ..
            } => Sent::Lobby(self.posted()),
            // The page shows the hand from the view; an edit, a private answer or a question needs
            // nothing either.
            Output::Lobby { .. }
            | Output::Direct { .. }
            | Output::Ephemeral(_)
            | Output::Update(_)
            | Output::Disarm { .. } => Sent::Nothing,
        }
    }

    fn observe(&self, event: &Event) {
        let mut versions = self
            .shared
            .versions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if versions.len() >= MAX_VERSIONS && !versions.contains_key(&event.channel) {
            let tables = &self.shared.tables;
            versions.retain(|channel, _| tables.snapshot(*channel).is_some());
        }
        let version = versions.entry(event.channel).or_insert(0);
        *version = (*version).max(event.sequence);
    }
}
