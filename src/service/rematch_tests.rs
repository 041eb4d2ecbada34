//! Rematch, leave confirmation, lobby settings, timeouts and texts of issue 16.
