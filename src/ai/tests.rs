//! Tests of the computer players: legal moves only, no hidden information, strength.

use super::*;
use crate::engine::{Config, Game, Options, Variant};

fn config(variant: Variant, players: u8) -> Config {
    Config::new(variant, players, None, Options::default()).unwrap()
}

#[test]
fn levels_parse_and_print() {
    for level in Level::ALL {
        assert_eq!(level.to_string().parse::<Level>().unwrap(), level);
        let json = serde_json::to_string(&level).unwrap();
        assert_eq!(json, format!("\"{level}\""));
    }
    assert_eq!(" Hard ".parse::<Level>().unwrap(), Level::Hard);
    assert!("impossible".parse::<Level>().is_err());
}
