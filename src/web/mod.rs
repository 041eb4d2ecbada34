//! The web face: the pages a browser opens.

pub mod page;
