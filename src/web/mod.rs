//! The web face (helper A1 writes the real module; this one holds only the replay's handlers).

pub mod replay;
