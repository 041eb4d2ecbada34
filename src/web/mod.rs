//! The web face: the board in a browser (helper A1 writes the real module; this one carries the live
//! channel only, for this branch).

pub mod live;
