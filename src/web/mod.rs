//! The web face: the pages a browser opens, and the live channel that keeps them current.

pub mod live;
pub mod page;
pub mod replay;
