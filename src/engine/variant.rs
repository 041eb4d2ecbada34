//! The three games, their options, and the validated set-up of one game.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Classic Sequence with cards.
    Classic,
    /// Sequence Dice.
    Dice,
    /// Sequence for Kids.
    Kids,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::Classic, Variant::Dice, Variant::Kids];

    /// Whether the variant is played with cards.
    pub const fn has_cards(self) -> bool {
        !matches!(self, Variant::Dice)
    }

    /// The lowercase name used in commands and records.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Dice => "dice",
            Variant::Kids => "kids",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = SetupError;
    fn from_str(s: &str) -> Result<Variant, SetupError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "classic" | "sequence" | "cards" => Ok(Variant::Classic),
            "dice" => Ok(Variant::Dice),
            "kids" | "children" => Ok(Variant::Kids),
            _ => Err(SetupError::UnknownVariant(s.to_string())),
        }
    }
}

/// Game options, by their names in RULES.md; `None`/`false` means the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Sequences a team needs to win (classic; default 2 with two teams, 1 with three).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequences_to_win: Option<u8>,
    /// Cells in a winning line (classic 5, dice 5 or 6, kids 4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_length: Option<u8>,
    /// A win is provisional until the round is complete; a second winner in that round makes a draw.
    #[serde(skip_serializing_if = "is_false")]
    pub equal_turns: bool,
    /// House rule: play until nobody can move, one point per sequence.
    #[serde(skip_serializing_if = "is_false")]
    pub scoring: bool,
    /// House rule: flanking two opponent chips captures them; five captured pairs win.
    #[serde(skip_serializing_if = "is_false")]
    pub capture_pairs: bool,
    /// Game mode (classic): sequences score 1 point, 2 when they touch the moving 3 x 3 zone.
    #[serde(skip_serializing_if = "is_false")]
    pub king_of_the_board: bool,
    /// Points that win a `king_of_the_board` game (2 to 10, default 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points_to_win: Option<u8>,
}

/// Points that win a `king_of_the_board` game unless `points_to_win` says otherwise.
pub const DEFAULT_POINTS_TO_WIN: u8 = 3;

fn is_false(b: &bool) -> bool {
    !*b
}

/// Why a game cannot be set up as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not one of classic, dice, kids.
    #[error("unknown game `{0}`: choose classic, dice or kids")]
    UnknownVariant(String),
    /// The player count is not allowed for this game.
    #[error("{variant} cannot be played by {}: allowed are {allowed} players", players_text(*.players))]
    PlayerCount {
        /// The game.
        variant: Variant,
        /// Players asked for.
        players: u8,
        /// The allowed counts, for the message.
        allowed: &'static str,
    },
    /// The players cannot be split into that many teams.
    #[error("{players} players cannot play {variant} in {teams} teams: {hint}")]
    Teams {
        /// The game.
        variant: Variant,
        /// Players.
        players: u8,
        /// Teams asked for.
        teams: u8,
        /// What would work.
        hint: &'static str,
    },
    /// An option that this game does not have, or a value out of range.
    #[error("option `{option}` {reason}")]
    Option {
        /// The option's name.
        option: &'static str,
        /// Why it was refused.
        reason: String,
    },
    /// The deck is not exactly the game's cards.
    #[error("the deck is wrong: {0}")]
    Deck(String),
    /// A listed dice roll is impossible.
    #[error("the rolls are wrong: a die shows 1 to 6, not {0}")]
    Roll(u8),
    /// A listed King of the Board zone is impossible.
    #[error("the zones are wrong: {0}")]
    Zone(String),
}

/// "1 player", "3 players".
fn players_text(players: u8) -> String {
    if players == 1 {
        "1 player".to_string()
    } else {
        format!("{players} players")
    }
}

/// A validated game set-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The game.
    pub variant: Variant,
    /// Number of seats.
    pub players: u8,
    /// Number of teams; seat `i` is on team `i % teams`.
    pub teams: u8,
    /// Options as given.
    pub options: Options,
}

impl Config {
    /// Checks player count, teams and options against RULES.md. `teams: None` picks the default.
    pub fn new(
        variant: Variant,
        players: u8,
        teams: Option<u8>,
        options: Options,
    ) -> Result<Config, SetupError> {
        let (allowed, ok) = match variant {
            Variant::Classic => (
                "2, 3, 4, 6, 8, 9, 10 or 12",
                matches!(players, 2 | 3 | 4 | 6 | 8 | 9 | 10 | 12),
            ),
            Variant::Dice | Variant::Kids => ("2, 3 or 4", (2..=4).contains(&players)),
        };
        if !ok {
            return Err(SetupError::PlayerCount {
                variant,
                players,
                allowed,
            });
        }
        let default_teams = match (variant, players) {
            (_, 2 | 3) => players,
            (Variant::Kids, 4) => 4,
            (Variant::Classic, 9) => 3,
            _ => 2,
        };
        let teams = teams.unwrap_or(default_teams);
        let teams_ok = match (variant, players) {
            (_, 2 | 3) => teams == players,
            (Variant::Classic, _) => (teams == 2 || teams == 3) && players.is_multiple_of(teams),
            (Variant::Dice, _) => teams == 2,
            (Variant::Kids, _) => teams == 2 || teams == 4,
        };
        if !teams_ok {
            let hint = match (variant, players) {
                (_, 2 | 3) => "two or three players each play alone",
                (Variant::Classic, 4 | 8 | 10) => "they play in 2 teams",
                (Variant::Classic, 6 | 12) => "they play in 2 or 3 teams",
                (Variant::Classic, _) => "they play in 3 teams",
                (Variant::Dice, _) => "four players play as two teams of two",
                (Variant::Kids, _) => "four players play alone or as two teams",
            };
            return Err(SetupError::Teams {
                variant,
                players,
                teams,
                hint,
            });
        }
        let config = Config {
            variant,
            players,
            teams,
            options,
        };
        config.check_options()?;
        Ok(config)
    }

    fn check_options(&self) -> Result<(), SetupError> {
        let o = &self.options;
        let refuse =
            |option: &'static str, reason: String| Err(SetupError::Option { option, reason });
        if self.variant != Variant::Classic {
            if o.scoring {
                return refuse(
                    "scoring",
                    format!("is a classic house rule, not for {}", self.variant),
                );
            }
            if o.capture_pairs {
                return refuse(
                    "capture_pairs",
                    format!("is a classic house rule, not for {}", self.variant),
                );
            }
            if o.sequences_to_win.is_some_and(|n| n != 1) {
                return refuse(
                    "sequences_to_win",
                    format!("is always 1 in {}", self.variant),
                );
            }
        }
        if o.king_of_the_board {
            if self.variant != Variant::Classic {
                return refuse(
                    "king_of_the_board",
                    format!("is a classic game mode, not for {}", self.variant),
                );
            }
            if o.scoring {
                return refuse(
                    "king_of_the_board",
                    "cannot be combined with `scoring`".to_string(),
                );
            }
            if o.capture_pairs {
                return refuse(
                    "king_of_the_board",
                    "cannot be combined with `capture_pairs`".to_string(),
                );
            }
            if o.sequences_to_win.is_some() {
                return refuse(
                    "king_of_the_board",
                    "is won on points: use points_to_win, not sequences_to_win".to_string(),
                );
            }
        }
        if let Some(n) = o.points_to_win {
            if !o.king_of_the_board {
                return refuse(
                    "points_to_win",
                    "belongs to king_of_the_board games only".to_string(),
                );
            }
            if !(2..=10).contains(&n) {
                return refuse("points_to_win", format!("must be 2 to 10, not {n}"));
            }
        }
        if let Some(n) = o.sequences_to_win {
            if !(1..=4).contains(&n) {
                return refuse("sequences_to_win", format!("must be 1 to 4, not {n}"));
            }
        }
        if let Some(n) = o.sequence_length {
            let range = match self.variant {
                Variant::Classic => 5..=5,
                Variant::Dice => 5..=6,
                Variant::Kids => 4..=4,
            };
            if !range.contains(&n) {
                return refuse(
                    "sequence_length",
                    if range.start() == range.end() {
                        format!("is always {} in {}, not {n}", range.start(), self.variant)
                    } else {
                        format!(
                            "must be {} to {} in {}, not {n}",
                            range.start(),
                            range.end(),
                            self.variant
                        )
                    },
                );
            }
        }
        Ok(())
    }

    /// Team of a seat.
    #[inline]
    pub const fn team_of(&self, seat: u8) -> u8 {
        seat % self.teams
    }

    /// Cards in a full hand.
    pub const fn hand_size(&self) -> u8 {
        match self.variant {
            Variant::Classic => match self.players {
                2 => 7,
                3 | 4 => 6,
                6 => 5,
                8 | 9 => 4,
                _ => 3,
            },
            Variant::Kids => 3,
            Variant::Dice => 0,
        }
    }

    /// Cells in a sequence.
    pub fn line_length(&self) -> u8 {
        self.options.sequence_length.unwrap_or(match self.variant {
            Variant::Kids => 4,
            _ => 5,
        })
    }

    /// Sequences needed to win (ignored in `scoring` games).
    pub fn sequences_to_win(&self) -> u8 {
        self.options.sequences_to_win.unwrap_or(
            if self.variant == Variant::Classic && self.teams == 2 {
                2
            } else {
                1
            },
        )
    }

    /// Whether this is a King of the Board game.
    pub const fn is_king_of_the_board(&self) -> bool {
        self.options.king_of_the_board
    }

    /// Points that win a King of the Board game.
    pub fn points_to_win(&self) -> u8 {
        self.options.points_to_win.unwrap_or(DEFAULT_POINTS_TO_WIN)
    }

    /// Whether free corners count for every team.
    pub const fn has_free_corners(&self) -> bool {
        !matches!(self.variant, Variant::Dice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic(players: u8, teams: Option<u8>) -> Result<Config, SetupError> {
        Config::new(Variant::Classic, players, teams, Options::default())
    }

    #[test]
    fn setup_errors_read_well() {
        // Replay prints these as they are (issue 16: "by 1 players", "must be 5 to 5").
        let one = classic(1, None).unwrap_err().to_string();
        assert_eq!(
            one,
            "classic cannot be played by 1 player: allowed are 2, 3, 4, 6, 8, 9, 10 or 12 players"
        );
        let five = classic(5, None).unwrap_err().to_string();
        assert!(five.contains("by 5 players:"), "{five}");
        let long = Options {
            sequence_length: Some(6),
            ..Options::default()
        };
        let fixed = Config::new(Variant::Classic, 2, None, long)
            .unwrap_err()
            .to_string();
        assert_eq!(
            fixed,
            "option `sequence_length` is always 5 in classic, not 6"
        );
        let long = Options {
            sequence_length: Some(7),
            ..Options::default()
        };
        let range = Config::new(Variant::Dice, 2, None, long)
            .unwrap_err()
            .to_string();
        assert_eq!(
            range,
            "option `sequence_length` must be 5 to 6 in dice, not 7"
        );
        assert_eq!(
            SetupError::Roll(7).to_string(),
            "the rolls are wrong: a die shows 1 to 6, not 7"
        );
    }

    #[test]
    fn classic_player_counts_and_teams() {
        for (players, teams) in [
            (2, 2),
            (3, 3),
            (4, 2),
            (6, 2),
            (6, 3),
            (8, 2),
            (9, 3),
            (10, 2),
            (12, 2),
            (12, 3),
        ] {
            assert!(classic(players, Some(teams)).is_ok(), "{players}/{teams}");
        }
        for players in [0, 1, 5, 7, 11, 13] {
            assert!(
                matches!(classic(players, None), Err(SetupError::PlayerCount { .. })),
                "{players}"
            );
        }
        for (players, teams) in [(4, 3), (8, 3), (9, 2), (10, 3), (2, 1), (3, 2), (4, 4)] {
            assert!(
                matches!(classic(players, Some(teams)), Err(SetupError::Teams { .. })),
                "{players}/{teams}"
            );
        }
        assert_eq!(classic(9, None).unwrap().teams, 3);
        assert_eq!(classic(4, None).unwrap().teams, 2);
        let hands: Vec<u8> = [2, 3, 4, 6, 8, 9, 10, 12]
            .iter()
            .map(|&p| classic(p, None).unwrap().hand_size())
            .collect();
        assert_eq!(hands, vec![7, 6, 6, 5, 4, 4, 3, 3]);
    }

    #[test]
    fn win_targets_and_options() {
        assert_eq!(classic(2, None).unwrap().sequences_to_win(), 2);
        assert_eq!(classic(4, None).unwrap().sequences_to_win(), 2);
        assert_eq!(classic(3, None).unwrap().sequences_to_win(), 1);
        assert_eq!(classic(6, Some(3)).unwrap().sequences_to_win(), 1);
        let opts = Options {
            sequences_to_win: Some(3),
            ..Options::default()
        };
        assert_eq!(
            Config::new(Variant::Classic, 2, None, opts)
                .unwrap()
                .sequences_to_win(),
            3
        );
        let six = Options {
            sequence_length: Some(6),
            ..Options::default()
        };
        assert_eq!(
            Config::new(Variant::Dice, 2, None, six)
                .unwrap()
                .line_length(),
            6
        );
        assert!(Config::new(Variant::Kids, 2, None, six).is_err());
        let scoring = Options {
            scoring: true,
            ..Options::default()
        };
        assert!(Config::new(Variant::Dice, 2, None, scoring).is_err());
        assert!(Config::new(Variant::Dice, 4, Some(4), Options::default()).is_err());
        assert_eq!(
            Config::new(Variant::Dice, 4, None, Options::default())
                .unwrap()
                .teams,
            2
        );
        assert_eq!(
            Config::new(Variant::Kids, 4, None, Options::default())
                .unwrap()
                .teams,
            4
        );
        assert!(Config::new(Variant::Kids, 4, Some(2), Options::default()).is_ok());
        assert!(Config::new(Variant::Kids, 5, None, Options::default()).is_err());
        assert_eq!("Dice".parse::<Variant>().unwrap(), Variant::Dice);
        assert!("chess".parse::<Variant>().is_err());
    }

    #[test]
    fn king_of_the_board_options_and_refused_combinations() {
        let kotb = Options {
            king_of_the_board: true,
            ..Options::default()
        };
        let config = Config::new(Variant::Classic, 2, None, kotb).unwrap();
        assert!(config.is_king_of_the_board());
        assert_eq!(config.points_to_win(), 3);
        let five = Options {
            points_to_win: Some(5),
            ..kotb
        };
        assert_eq!(
            Config::new(Variant::Classic, 6, Some(3), five)
                .unwrap()
                .points_to_win(),
            5
        );
        let refused = |variant: Variant, options: Options| {
            Config::new(variant, 2, None, options)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(Variant::Dice, kotb),
            "option `king_of_the_board` is a classic game mode, not for dice"
        );
        assert_eq!(
            refused(Variant::Kids, kotb),
            "option `king_of_the_board` is a classic game mode, not for kids"
        );
        assert_eq!(
            refused(
                Variant::Classic,
                Options {
                    scoring: true,
                    ..kotb
                }
            ),
            "option `king_of_the_board` cannot be combined with `scoring`"
        );
        assert_eq!(
            refused(
                Variant::Classic,
                Options {
                    capture_pairs: true,
                    ..kotb
                }
            ),
            "option `king_of_the_board` cannot be combined with `capture_pairs`"
        );
        assert_eq!(
            refused(
                Variant::Classic,
                Options {
                    sequences_to_win: Some(2),
                    ..kotb
                }
            ),
            "option `king_of_the_board` is won on points: use points_to_win, not sequences_to_win"
        );
        assert_eq!(
            refused(
                Variant::Classic,
                Options {
                    sequence_length: Some(6),
                    ..kotb
                }
            ),
            "option `sequence_length` is always 5 in classic, not 6"
        );
        assert_eq!(
            refused(
                Variant::Classic,
                Options {
                    points_to_win: Some(3),
                    ..Options::default()
                }
            ),
            "option `points_to_win` belongs to king_of_the_board games only"
        );
        for bad in [0, 1, 11] {
            assert_eq!(
                refused(
                    Variant::Classic,
                    Options {
                        points_to_win: Some(bad),
                        ..kotb
                    }
                ),
                format!("option `points_to_win` must be 2 to 10, not {bad}")
            );
        }
        let json = serde_json::to_string(&five).unwrap();
        assert_eq!(json, r#"{"king_of_the_board":true,"points_to_win":5}"#);
        assert_eq!(serde_json::from_str::<Options>(&json).unwrap(), five);
    }
}
