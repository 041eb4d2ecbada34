//! Game records (RECORD.md): parse, validate, replay, summarize, and build them from live games.

use serde::{Deserialize, Serialize};

use super::card::Card;
use super::cell::Cell;
use super::error::PlayError;
use super::game::{Event, Game, Move, RollMode, Seat, Status};
use super::layout::Layout;
use super::rng::GameRng;
use super::variant::{Config, Options, SetupError, Variant};

/// A game record as stored and exchanged (see RECORD.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// `classic`, `dice` or `kids`.
    pub variant: String,
    /// Number of seats.
    pub players: u8,
    /// Number of teams (defaults per RULES.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<u8>,
    /// Options by name.
    #[serde(default)]
    pub options: Options,
    /// The deck, top card first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    /// Dice rolls in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolls: Option<Vec<[u8; 2]>>,
    /// King of the Board zone centres in order: the deal's, then one per scoring placement that did not win.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zones: Option<Vec<String>>,
    /// Seed for the deck, reshuffles and rolls beyond `rolls`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Every action in order.
    #[serde(default)]
    pub actions: Vec<Action>,
    /// Hints the players asked for (optional; `replay` ignores them): who, and before which action.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<HintUse>,
    /// The actions people chose themselves, with when (optional; `replay` ignores them): every other
    /// action of a person's seat was played for them by a computer (a turn that ran out, a seat taken
    /// over). `None` for a game recorded before they were kept, or one without people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<Vec<OwnTurn>>,
}

/// An action a person chose themselves: its index, when it was played and how long the turn had
/// been running then (the profile's play time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnTurn {
    /// The action's index in [`Record::actions`].
    pub index: usize,
    /// When it was played, in unix milliseconds.
    pub at: i64,
    /// How long the player's turn had been running when they played it, in milliseconds.
    pub ms: u64,
}

/// A hint a player asked for: the seat, and the index of the action it was asked before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HintUse {
    /// The seat that asked.
    pub seat: Seat,
    /// How many actions had been played when it asked.
    pub before: usize,
}

/// One action of a record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The acting seat.
    pub seat: Seat,
    /// A card played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<String>,
    /// The cell (with `play`, or alone for a dice placement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<String>,
    /// A dead card exchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<String>,
    /// Dice: a chip removed on a 10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remove: Option<String>,
    /// A pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass: Option<bool>,
}

/// A record that cannot be read at all (RECORD.md exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or not a record's shape.
    #[error("the record is not valid JSON of the expected shape: {0}")]
    Json(#[from] serde_json::Error),
    /// The set-up is refused.
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// A card of the deck is not a card.
    #[error("the deck contains `{0}`, which is not a card of this game")]
    DeckCard(String),
    /// An action that has none, or more than one, of the action forms.
    #[error("action {index} is not one of play+cell, exchange, cell, remove or pass")]
    ActionShape {
        /// Index of the action.
        index: usize,
    },
}

/// An illegal action found while replaying (RECORD.md exit code 1).
#[derive(Debug, Clone)]
pub struct ReplayFailure {
    /// Index of the action.
    pub index: usize,
    /// Why it is illegal.
    pub error: PlayError,
    /// The game just before that action.
    pub game: Game,
}

impl Action {
    /// The action for a move.
    pub fn from_move(seat: Seat, mv: Move, layout: &Layout) -> Action {
        let cell = |c: Cell| Some(layout.cell_name(c));
        let mut action = Action {
            seat,
            ..Action::default()
        };
        match mv {
            Move::Play { card, cell: c } => {
                action.play = Some(card.to_string());
                action.cell = cell(c);
            }
            Move::Exchange { card } => action.exchange = Some(card.to_string()),
            Move::Place { cell: c } => action.cell = cell(c),
            Move::Remove { cell: c } => action.remove = cell(c),
            Move::Pass => action.pass = Some(true),
        }
        action
    }

    /// Whether the action has exactly one of the action forms.
    fn shape_ok(&self) -> bool {
        let forms = [
            self.play.is_some(),
            self.exchange.is_some(),
            self.remove.is_some(),
            self.pass.is_some(),
        ];
        match forms.iter().filter(|&&f| f).count() {
            0 => self.cell.is_some(),
            1 if self.play.is_some() => self.cell.is_some(),
            1 if self.pass.is_some() => self.pass == Some(true) && self.cell.is_none(),
            1 => self.cell.is_none(),
            _ => false,
        }
    }

    /// The move this action asks for, or the error code for a bad card or cell name.
    pub fn to_move(&self, variant: Variant, layout: &Layout) -> Result<Move, PlayError> {
        let cell = |text: &str| layout.parse_cell(text).ok_or(PlayError::BadCell);
        let card = |text: &str| {
            if !variant.has_cards() {
                return Err(PlayError::WrongActionForRoll);
            }
            Card::parse(text, variant).ok_or(PlayError::BadCard)
        };
        if self.pass == Some(true) {
            return Ok(Move::Pass);
        }
        if let Some(text) = &self.exchange {
            return Ok(Move::Exchange { card: card(text)? });
        }
        if let Some(text) = &self.remove {
            return Ok(Move::Remove { cell: cell(text)? });
        }
        let cell_text = self.cell.as_deref().unwrap_or_default();
        if let Some(text) = &self.play {
            let card = card(text)?;
            return Ok(Move::Play {
                card,
                cell: cell(cell_text)?,
            });
        }
        Ok(Move::Place {
            cell: cell(cell_text)?,
        })
    }
}

impl Record {
    /// Parses a record from JSON text.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The record of a game about to start: set-up, deck, seed; no actions yet.
    pub fn start_of(game: &Game) -> Record {
        let config = game.config();
        Record {
            variant: config.variant.to_string(),
            players: config.players,
            teams: Some(config.teams),
            options: config.options,
            deck: config
                .variant
                .has_cards()
                .then(|| game.initial_deck().iter().map(Card::to_string).collect()),
            rolls: (!config.variant.has_cards()).then(|| game.rolls_so_far().to_vec()),
            zones: config.is_king_of_the_board().then(|| {
                let layout = game.position().layout();
                game.zones_so_far()
                    .iter()
                    .map(|&c| layout.cell_name(c))
                    .collect()
            }),
            seed: Some(game.seed()),
            actions: Vec::new(),
            hints: Vec::new(),
            own: None,
        }
    }

    /// Appends an accepted move and the dice it rolled (the events `Game::play` returned).
    pub fn push(&mut self, seat: Seat, mv: Move, layout: &Layout, events: &[Event]) {
        self.actions.push(Action::from_move(seat, mv, layout));
        if let Some(zones) = &mut self.zones {
            zones.extend(events.iter().filter_map(|e| match *e {
                Event::ZoneMoved { to, .. } => Some(layout.cell_name(to)),
                _ => None,
            }));
        }
        if let Some(rolls) = &mut self.rolls {
            rolls.extend(events.iter().filter_map(|e| match *e {
                Event::Rolled { dice, .. } => Some(dice),
                _ => None,
            }));
        }
    }

    /// The validated set-up.
    pub fn config(&self) -> Result<Config, RecordError> {
        let variant: Variant = self.variant.parse()?;
        Ok(Config::new(
            variant,
            self.players,
            self.teams,
            self.options,
        )?)
    }

    /// The game before the first action.
    pub fn initial_game(&self) -> Result<Game, RecordError> {
        self.initial_game_rolling(RollMode::AtTurnStart)
    }

    /// [`Record::initial_game`], rolling the dice as `mode` says.
    pub fn initial_game_rolling(&self, mode: RollMode) -> Result<Game, RecordError> {
        let config = self.config()?;
        let seed = self.seed.unwrap_or(0);
        let rolls = self.rolls.clone().unwrap_or_default();
        if !config.variant.has_cards() && self.deck.is_some() {
            return Err(SetupError::Deck("the dice game has no deck".into()).into());
        }
        let zones = self.zone_cells(&config)?;
        match &self.deck {
            Some(deck) => {
                let cards = deck
                    .iter()
                    .map(|t| {
                        Card::parse(t, config.variant)
                            .ok_or_else(|| RecordError::DeckCard(t.clone()))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Game::with_deck_zones(
                    config, &cards, rolls, zones, seed, mode,
                )?)
            }
            None if !rolls.is_empty() || !zones.is_empty() => {
                let deck = Game::new(config, seed).initial_deck();
                Ok(Game::with_deck_zones(
                    config, &deck, rolls, zones, seed, mode,
                )?)
            }
            None => Ok(Game::new_rolling(config, seed, mode)),
        }
    }

    /// The listed zone centres as cells (empty when none are listed); a name that is not a cell is
    /// refused here, the rest of the checks are the engine's.
    fn zone_cells(&self, config: &Config) -> Result<Vec<Cell>, RecordError> {
        let layout = Layout::standard(config.variant);
        self.zones
            .iter()
            .flatten()
            .map(|name| {
                let cell = layout.parse_cell(name).ok_or_else(|| {
                    SetupError::Zone(format!("`{name}` is not a cell of the board"))
                })?;
                // Records write a centre exactly as the board names it (RECORD.md: upper case only).
                let written = layout.cell_name(cell);
                if *name != written {
                    return Err(SetupError::Zone(format!(
                        "`{name}` is not written as records write a centre: `{written}`"
                    ))
                    .into());
                }
                Ok(cell)
            })
            .collect()
    }

    /// A record that lists its zones lists exactly those its game used: the deal's, then one after
    /// each scoring placement that did not win (RECORD.md). `complete`: the whole record was replayed
    /// (after an illegal action, zones listed for later are not checked).
    fn check_zone_count(&self, game: &Game, complete: bool) -> Result<(), RecordError> {
        let Some(listed) = &self.zones else {
            return Ok(());
        };
        let used = game.zones_so_far().len();
        if listed.len() < used || (complete && listed.len() > used) {
            return Err(SetupError::Zone(format!(
                "{} listed, but the game has {used} (the deal's and one after each scoring \
                 placement that did not win)",
                zone_count(listed.len()),
            ))
            .into());
        }
        Ok(())
    }

    /// Replays every action. `Err(RecordError)`: the record is malformed; `Ok(Err(failure))`: an action
    /// is illegal; `Ok(Ok(game))`: all legal.
    pub fn replay(&self) -> Result<Result<Game, ReplayFailure>, RecordError> {
        self.replay_rolling(RollMode::AtTurnStart)
    }

    /// [`Record::replay`], rolling the dice as `mode` says. On demand, each action's roll is made just
    /// before it, and a listed roll beyond the last action is the roll of the player to move (made, not
    /// yet used); with no such roll, the player to move has not rolled.
    pub fn replay_rolling(
        &self,
        mode: RollMode,
    ) -> Result<Result<Game, ReplayFailure>, RecordError> {
        self.replay_actions(mode, self.actions.len())
    }

    /// The game after the first `count` actions (all of them when `count` is too large). The whole
    /// record is checked first as [`Record::replay`] checks it: a malformed record is refused even when
    /// the damage lies after those actions (an illegal action after them is not this replay's concern).
    pub fn replay_first(&self, count: usize) -> Result<Result<Game, ReplayFailure>, RecordError> {
        let whole = self.replay()?;
        if count >= self.actions.len() {
            return Ok(whole);
        }
        self.replay_actions(RollMode::AtTurnStart, count)
    }

    fn replay_actions(
        &self,
        mode: RollMode,
        count: usize,
    ) -> Result<Result<Game, ReplayFailure>, RecordError> {
        let mut game = self.initial_game_rolling(mode)?;
        if let Some(index) = self.actions.iter().position(|a| !a.shape_ok()) {
            return Err(RecordError::ActionShape { index });
        }
        let layout = game.position().layout();
        let complete = count >= self.actions.len();
        for (index, action) in self.actions.iter().take(count).enumerate() {
            if game.needs_roll() {
                // (Refused only once the game is over, which the action then reports.)
                let _ = game.roll();
            }
            let result = action
                .to_move(game.config().variant, layout)
                .and_then(|mv| game.play(action.seat, mv).map(|_| ()));
            if let Err(error) = result {
                self.check_zone_count(&game, false)?;
                return Ok(Err(ReplayFailure { index, error, game }));
            }
        }
        self.check_zone_count(&game, complete)?;
        let listed = self.rolls.as_ref().map_or(0, Vec::len);
        if game.needs_roll() && listed > game.rolls_so_far().len() {
            let _ = game.roll();
        }
        Ok(Ok(game))
    }

    /// Notes that `seat` asked for a hint now (before the next action).
    pub fn push_hint(&mut self, seat: Seat) {
        let before = self.actions.len();
        if !self.hints.contains(&HintUse { seat, before }) {
            self.hints.push(HintUse { seat, before });
        }
    }

    /// Notes that the action at `index` was chosen by its person at `at` (unix milliseconds), `ms`
    /// after their turn began; starts the list if the record had none.
    pub fn push_own(&mut self, index: usize, at: i64, ms: u64) {
        self.own
            .get_or_insert_with(Vec::new)
            .push(OwnTurn { index, at, ms });
    }

    /// Appends a roll made on demand ([`Game::roll`]).
    pub fn push_roll(&mut self, dice: [u8; 2]) {
        if let Some(rolls) = &mut self.rolls {
            rolls.push(dice);
        }
    }

    /// A random game played to its end with uniformly random legal moves, as a record.
    pub fn random_game(config: Config, seed: u64) -> Record {
        let mut game = Game::new(config, seed);
        let mut record = Record::start_of(&game);
        let mut rng = GameRng::new(seed ^ 0x5EC0_E9CE);
        let layout = game.position().layout();
        while let Some(mv) = game.random_move(&mut rng) {
            let seat = game.position().to_move();
            match game.play(seat, mv) {
                Ok(events) => record.push(seat, mv, layout, &events),
                Err(_) => break,
            }
        }
        record
    }
}

/// The state printed by `replay` (RECORD.md "Output of replay").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// `in_progress`, `won` or `drawn`.
    pub status: &'static str,
    /// The winning team.
    pub winner: Option<u8>,
    /// The seat to move, null when over.
    pub to_move: Option<u8>,
    /// One string per row.
    pub board: Vec<String>,
    /// Completed sequences.
    pub sequences: Vec<SequenceSummary>,
    /// Every hand (the replay tool sees everything).
    pub hands: Vec<Vec<String>>,
    /// Cards left to draw.
    pub draw_pile: usize,
    /// Dice: the roll of the player to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<[u8; 2]>,
    /// `scoring` games: points per team.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<usize>>,
    /// `king_of_the_board` games: the zone's centre.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// `capture_pairs` games: pairs captured per team.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<Vec<u8>>,
}

/// A sequence in the summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SequenceSummary {
    /// The team.
    pub team: u8,
    /// Cells in line order.
    pub cells: Vec<String>,
}

impl Summary {
    /// Summarizes a game.
    pub fn of(game: &Game) -> Summary {
        let pos = game.position();
        let layout = pos.layout();
        let config = pos.config();
        let board = (0..layout.height)
            .map(|row| {
                (0..layout.width)
                    .map(|col| {
                        let cell = Cell::at(col, row, layout.width);
                        match pos.owner(cell) {
                            Some(team) => char::from(b'0' + team),
                            None if layout.corners & cell.bit() != 0 => '*',
                            None => '.',
                        }
                    })
                    .collect()
            })
            .collect();
        let (status, winner) = match pos.status() {
            Status::InProgress => ("in_progress", None),
            Status::Won(team) => ("won", Some(team)),
            Status::Drawn => ("drawn", None),
        };
        Summary {
            status,
            winner,
            to_move: (!pos.is_over()).then(|| pos.to_move()),
            board,
            sequences: pos
                .sequences()
                .iter()
                .map(|s| SequenceSummary {
                    team: s.team,
                    cells: s.cells().iter().map(|&c| layout.cell_name(c)).collect(),
                })
                .collect(),
            hands: (0..config.players)
                .map(|s| game.hand(s).iter().map(Card::to_string).collect())
                .collect(),
            draw_pile: game.draw_pile_len(),
            roll: pos.roll(),
            scores: if config.is_king_of_the_board() {
                Some(pos.points_per_team().into_iter().map(usize::from).collect())
            } else {
                config.options.scoring.then(|| pos.scores())
            },
            zone: pos.zone().map(|c| layout.cell_name(c)),
            captures: config
                .options
                .capture_pairs
                .then(|| (0..config.teams).map(|t| pos.captures(t)).collect()),
        }
    }
}

/// "1 zone is", "3 zones are".
fn zone_count(n: usize) -> String {
    if n == 1 {
        "1 zone is".to_string()
    } else {
        format!("{n} zones are")
    }
}

/// The outcome of `sequence-bot replay` on a text: what to print, where, and the exit code.
pub struct ReplayOutput {
    /// Exit code: 0 legal, 1 illegal action, 2 malformed.
    pub code: i32,
    /// JSON for stdout (codes 0 and 1).
    pub stdout: Option<String>,
    /// Message for stderr (code 2).
    pub stderr: Option<String>,
}

/// Runs `replay` on a record text, exactly as RECORD.md specifies.
pub fn replay_text(text: &str) -> ReplayOutput {
    let malformed = |e: RecordError| ReplayOutput {
        code: 2,
        stdout: None,
        stderr: Some(format!("malformed record: {e}")),
    };
    let record = match Record::from_json(text) {
        Ok(r) => r,
        Err(e) => return malformed(e),
    };
    match record.replay() {
        Err(e) => malformed(e),
        Ok(Ok(game)) => ReplayOutput {
            code: 0,
            stdout: Some(serde_json::to_string_pretty(&Summary::of(&game)).unwrap_or_default()),
            stderr: None,
        },
        Ok(Err(failure)) => {
            let out = FailureOutput {
                error: ErrorOutput {
                    index: failure.index,
                    code: failure.error.code(),
                    message: failure.error.to_string(),
                },
                state: Summary::of(&failure.game),
            };
            ReplayOutput {
                code: 1,
                stdout: Some(serde_json::to_string_pretty(&out).unwrap_or_default()),
                stderr: None,
            }
        }
    }
}

#[derive(Serialize)]
struct FailureOutput {
    error: ErrorOutput,
    #[serde(flatten)]
    state: Summary,
}

#[derive(Serialize)]
struct ErrorOutput {
    index: usize,
    code: &'static str,
    message: String,
}
