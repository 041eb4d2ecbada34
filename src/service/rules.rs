//! Rules of the house that several parts of the service name: the table applies them, the texts
//! explain them.

/// Moves every human must have made themselves before giving up (or a stop) decides a game; a
/// game that ends earlier that way is aborted: it counts for nothing (as chess servers do).
pub const ABORT_MOVES: u32 = 2;
