//! What the host asks for when opening a table (`Setup`: the game, teams, options, turn time, series)
//! and the rules that check it (with the series lengths offered).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::{Config, Options, Variant};

use crate::service::settings::Settings;
use crate::service::text::{LobbyRules, TeamName, Text};

/// What the host asked for when opening the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The game.
    pub variant: Variant,
    /// Number of teams, `None` for the default of the player count.
    #[serde(default)]
    pub teams: Option<u8>,
    /// Options.
    #[serde(default)]
    pub options: Options,
    /// Whether the game counts for ratings (`None`: if at least two teams have a human).
    #[serde(default)]
    pub rated: Option<bool>,
    /// The lobby's clock: seconds a player has for a turn (`None`: the server's turn timeout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_time: Option<u32>,
    /// A series: best of this many games (`None`: one game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<u8>,
}

/// The series lengths offered: best of 3, 5 or 7 games.
pub const SERIES_LENGTHS: [u8; 3] = [3, 5, 7];

/// Shortest turn time a lobby may ask for, in seconds.
pub const MIN_TURN_TIME: u32 = 10;

/// Longest turn time a lobby may ask for, in seconds (an hour).
pub const MAX_TURN_TIME: u32 = 3600;

/// A lobby clock shorter than this has no reminder: the turn prompt's countdown is the reminder,
/// and a post at half time in every turn of a blitz game would bury the board.
pub const MIN_TURN_TIME_WITH_REMINDER: u32 = 30;

impl Setup {
    /// Checks what does not depend on the player count: options and the number of teams.
    pub fn new(variant: Variant, teams: Option<u8>, options: Options) -> Result<Setup, Text> {
        Config::new(variant, 2, None, options).map_err(|e| Text::CannotStart(variant, e))?;
        let setup = Setup {
            variant,
            teams: None,
            options,
            rated: None,
            turn_time: None,
            series: None,
        };
        if let Some(t) = teams {
            if !(2..=setup.max_teams()).contains(&t) {
                return Err(Text::BadTeamCount { teams: t, variant });
            }
        }
        let setup = Setup { teams, ..setup };
        // A team count no player count of this game allows is refused now, not at Start.
        if setup.check_wishes(1, &[]).is_err() {
            return Err(Text::BadTeamCount {
                teams: teams.unwrap_or(0),
                variant,
            });
        }
        Ok(setup)
    }

    /// With the lobby's clock (`None`: the server's), checked: 10 s to an hour.
    pub fn with_turn_time(self, turn_time: Option<u32>) -> Result<Setup, Text> {
        if let Some(secs) = turn_time {
            if !(MIN_TURN_TIME..=MAX_TURN_TIME).contains(&secs) {
                return Err(Text::BadTurnTime {
                    secs,
                    min: MIN_TURN_TIME,
                    max: MAX_TURN_TIME,
                });
            }
        }
        Ok(Setup { turn_time, ..self })
    }

    /// As a series of `best_of` games (`None`: one game), checked: best of 3, 5 or 7.
    pub fn with_series(self, series: Option<u8>) -> Result<Setup, Text> {
        if let Some(best_of) = series {
            if !SERIES_LENGTHS.contains(&best_of) {
                return Err(Text::BadSeries { best_of });
            }
        }
        Ok(Setup { series, ..self })
    }

    /// The time a player has for a turn: the lobby's clock, else the server's turn timeout.
    pub fn turn_timeout(&self, settings: &Settings) -> Duration {
        self.turn_time
            .map_or(settings.turn_timeout, |s| Duration::from_secs(u64::from(s)))
    }

    /// When a player to move is reminded, from the turn's start (`None`: never): at half time with
    /// the lobby's clock (none under [`MIN_TURN_TIME_WITH_REMINDER`]), else the server's reminder.
    pub fn turn_reminder(&self, settings: &Settings) -> Option<Duration> {
        match self.turn_time {
            Some(s) if s < MIN_TURN_TIME_WITH_REMINDER => None,
            Some(s) => Some(Duration::from_millis(u64::from(s) * 500)),
            None => Some(settings.turn_reminder),
        }
    }

    /// Most players of this game.
    pub fn max_players(&self) -> u8 {
        match self.variant {
            Variant::Classic => 12,
            Variant::Dice | Variant::Kids => 4,
        }
    }

    /// Whether some player count of this game fits `seats` players with these team wishes
    /// (0-based, `None`: any team): a team count the rules allow (the asked one, if any) and no team
    /// with more wishes than a team has players. `Err` names the first team without room.
    pub fn check_wishes(&self, seats: usize, wishes: &[Option<u8>]) -> Result<(), Text> {
        let highest = wishes.iter().flatten().copied().max();
        // The largest team of the set-ups that allow the team count (for the refusal).
        let mut largest: Option<u8> = None;
        for players in 2..=self.max_players() {
            for teams in 2..=4u8 {
                if self.teams.is_some_and(|t| t != teams)
                    || Config::new(self.variant, players, Some(teams), self.options).is_err()
                    || usize::from(players) < seats
                    || highest.is_some_and(|h| h >= teams)
                {
                    continue;
                }
                let size = players / teams;
                let fits = (0..teams)
                    .all(|t| wishes.iter().filter(|w| **w == Some(t)).count() <= usize::from(size));
                if fits {
                    return Ok(());
                }
                largest = Some(largest.map_or(size, |s| s.max(size)));
            }
        }
        // The team that overflows at the largest team size any set-up allows.
        let size = largest.unwrap_or(1);
        let team = (0..self.max_teams())
            .find(|t| wishes.iter().filter(|w| **w == Some(*t)).count() > usize::from(size))
            .unwrap_or(0);
        Err(Text::TeamNoRoom {
            team: TeamName::of(self.variant, team),
            size,
        })
    }

    /// The settings a lobby of this set-up shows: the target and the timers that will apply.
    pub fn rules(&self, settings: &Settings) -> LobbyRules {
        let target = |teams| {
            Config {
                variant: self.variant,
                players: teams,
                teams,
                options: self.options,
            }
            .sequences_to_win()
        };
        let varies = self.variant == Variant::Classic
            && self.teams.is_none()
            && self.options.sequences_to_win.is_none();
        LobbyRules {
            sequences: target(self.teams.unwrap_or(2)),
            sequences_three_teams: varies.then(|| target(3)),
            scoring: self.options.scoring,
            king_of_the_board: self.options.king_of_the_board.then(|| {
                self.options
                    .points_to_win
                    .unwrap_or(crate::engine::DEFAULT_POINTS_TO_WIN)
            }),
            reminder_secs: self.turn_reminder(settings).map(|d| d.as_secs()),
            timeout_secs: self.turn_timeout(settings).as_secs(),
            timeout_gives_up: settings.timeout_gives_up,
            replace_after: settings.replace_after_timeouts,
            bot_level: settings.default_bot_level,
            series: self.series,
        }
    }

    /// The highest team number a player may choose.
    pub fn max_teams(&self) -> u8 {
        self.teams.unwrap_or(match self.variant {
            Variant::Classic | Variant::Dice => 3,
            Variant::Kids => 4,
        })
    }
}
