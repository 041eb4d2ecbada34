//! The card picker: a game played with buttons. Every turn prompt of a human player carries a **Play**
//! button (Sequence Dice: **Roll**); pressing it opens a private picker for that player only, whose steps
//! are edited in place: the cards (a dead card offers its exchange), then the cells of the chosen card,
//! with a row chosen first from a menu when a jack, unicorn or dragon (or an 11 or a 10 in dice) has more
//! cells than fit on one step.
//!
//! A custom id is input: it is parsed once, strictly, into a [`Press`] (anything that does not print
//! back to exactly the same id is refused), and everything it names is checked against the table as it
//! is now. The move itself goes through the same `Command::Play`/`Exchange` path as a typed command.

use std::fmt;

use crate::engine::{
    BitIter, Bits, Card, CardEffect, Cell, Game, GroupKind, Layout, Seat, Variant,
};
use crate::i18n::Lang;

use super::table::{card_line, hand_message, Playing};
use super::text::{button_label, CardLine, TeamName};
use super::{
    Actor, BoardImage, Button, ChannelId, Command, Image, Message, Output, Reply, Settings, Table,
    Text, Timestamp, UserId,
};

// Discord's limits on message components (docs: components reference, "Action Row", "Button",
// "String Select", "Select Option").
/// Action rows on one message.
pub const MAX_ROWS: usize = 5;
/// Buttons in one action row (a select menu is alone in its row).
pub const MAX_BUTTONS_PER_ROW: usize = 5;
/// Options of one select menu.
pub const MAX_OPTIONS: usize = 25;
/// Characters of a custom id (1 to 100).
pub const MAX_CUSTOM_ID: usize = 100;
/// Characters of a button label.
pub const MAX_BUTTON_LABEL: usize = 80;
/// Characters of a select option's label, value and description.
pub const MAX_OPTION_TEXT: usize = 100;
/// Characters of a select menu's placeholder.
pub const MAX_PLACEHOLDER: usize = 150;

/// Cells shown as buttons on one step: every row but the last, which keeps the Back button.
pub const CELLS_PER_STEP: usize = (MAX_ROWS - 1) * MAX_BUTTONS_PER_ROW;

/// Every picker id starts with this (the fixed buttons use `sequence:` and a word).
const PREFIX: &str = "sequence:p:";

/// How a button is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// The main action (blurple).
    Primary,
    /// A secondary action (grey).
    Secondary,
    /// A good action (green).
    Success,
    /// A destructive action (red).
    Danger,
}

/// The words on a component, rendered in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// Not translated (a cell name, a list of cells).
    Plain(String),
    /// A translated text.
    Text(Text),
    /// A card and what it does now.
    Card(CardLine),
    /// A fixed button's label.
    Button(Button),
}

impl Label {
    /// The label in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Label::Plain(text) => text.clone(),
            Label::Text(text) => text.render(lang),
            Label::Card(line) => line.render(lang),
            Label::Button(button) => button_label(*button, lang),
        }
    }
}

/// One choice of a select menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectOption {
    /// What Discord sends back when it is chosen.
    pub value: String,
    /// What the user sees.
    pub label: Label,
    /// A second line under the label.
    pub description: Option<Label>,
}

/// A button or a select menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Control {
    /// A button.
    Button {
        /// Sent back when pressed.
        id: String,
        /// The words on it.
        label: Label,
        /// How it looks.
        style: Style,
        /// Shown but not pressable.
        disabled: bool,
    },
    /// A select menu of one choice.
    Select {
        /// Sent back with the chosen value.
        id: String,
        /// Shown before anything is chosen.
        placeholder: Label,
        /// The choices.
        options: Vec<SelectOption>,
    },
}

impl Control {
    /// The control of a fixed button.
    pub fn fixed(button: Button) -> Control {
        let style = if button.is_primary() {
            Style::Primary
        } else if button.is_danger() {
            Style::Danger
        } else {
            Style::Secondary
        };
        Control::Button {
            id: button.id(),
            label: Label::Button(button),
            style,
            disabled: false,
        }
    }

    /// The custom id.
    pub fn id(&self) -> &str {
        match self {
            Control::Button { id, .. } | Control::Select { id, .. } => id,
        }
    }
}

/// The action rows of a message: its own rows, then its fixed buttons (in the last row if there is
/// room, else in rows of their own). What Discord, the console and the tests all show.
pub fn action_rows(message: &Message) -> Vec<Vec<Control>> {
    let mut rows = message.components.clone();
    let mut fixed = message
        .buttons
        .iter()
        .map(|&b| Control::fixed(b))
        .peekable();
    if let Some(last) = rows.last_mut() {
        let buttons_only = last.iter().all(|c| matches!(c, Control::Button { .. }));
        while buttons_only && last.len() < MAX_BUTTONS_PER_ROW {
            match fixed.next() {
                Some(control) => last.push(control),
                None => break,
            }
        }
    }
    let rest: Vec<Control> = fixed.collect();
    rows.extend(rest.chunks(MAX_BUTTONS_PER_ROW).map(<[Control]>::to_vec));
    rows
}

/// A cell as named in an id (`D6`): column and row, 0-based, checked against a board only when used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName {
    col: u8,
    row: u8,
}

impl CellName {
    fn of(cell: Cell, layout: &Layout) -> CellName {
        CellName {
            col: cell.col(layout.width),
            row: cell.row(layout.width),
        }
    }

    /// The cell on `layout`, if it is on the board.
    fn on(self, layout: &Layout) -> Option<Cell> {
        (self.col < layout.width && self.row < layout.height)
            .then(|| Cell::at(self.col, self.row, layout.width))
    }

    fn parse(text: &str) -> Option<CellName> {
        let mut chars = text.chars();
        let letter = chars.next().filter(char::is_ascii_uppercase)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
            return None;
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        Some(CellName {
            col: letter as u8 - b'A',
            row: row - 1,
        })
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'A' + self.col),
            u32::from(self.row) + 1
        )
    }
}

/// A part of a card's targets too many for one step: one board row, or a part of a long row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The board row, 0-based.
    row: u8,
    /// Which [`CELLS_PER_STEP`] cells of that row (0 unless a custom board has longer rows).
    part: u8,
}

impl Group {
    fn parse(text: &str) -> Option<Group> {
        let (row, part) = text.split_once('-')?;
        let group = Group {
            row: strict_number(row)?,
            part: strict_number(part)?,
        };
        (group.to_string() == text).then_some(group)
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.row, self.part)
    }
}

/// What a picker press asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Open the picker (the turn prompt's Play button).
    Play,
    /// Dice: roll, then show the cells (the turn prompt's Roll button).
    Roll,
    /// Back to the cards.
    Cards,
    /// The cells (or rows) of a card.
    Card(Card),
    /// The cells of one row of a card's targets (dice: the roll's), chosen in the menu.
    Group(Option<Card>, Group),
    /// Play the card (dice: place or remove) on the cell: the move.
    Cell(Option<Card>, CellName),
    /// Exchange the dead card.
    Exchange(Card),
    /// Privately, the move `hard` would make now and why, as `/sequence hint` answers (shown only
    /// where a hint is allowed; answered by [`super::Tables::press_hint`]).
    Hint,
    /// The confirmation's button in a rated game (where the server allows hints there): the hint,
    /// and the game becomes unrated for everyone.
    HintUnrated,
}

/// A press of a picker button or a choice in its menu: which table and turn it belongs to, and what
/// it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Press {
    /// The table's creation time (ms): a new game in the channel has other ids.
    pub table: u64,
    /// The turn it was shown for ([`turn_number`]).
    pub turn: u32,
    /// What it asks for.
    pub step: Step,
}

/// Why a custom id was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PressError {
    /// Not an id this bot makes.
    #[error("not a button of this bot: {0:?}")]
    Unknown(String),
    /// Shaped like one of ours, but not exactly.
    #[error("malformed button id: {0:?}")]
    Malformed(String),
    /// A menu choice where none belongs, or none (or several) where one does.
    #[error("unexpected menu values for {0:?}")]
    Values(String),
}

fn strict_number<T: std::str::FromStr + fmt::Display>(text: &str) -> Option<T> {
    if text.is_empty() || text.len() > 20 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: T = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

/// A card as written in an id: its code (`7H`, `TS`, `lion`), exactly.
fn strict_card(text: &str) -> Option<Card> {
    [Variant::Classic, Variant::Kids]
        .into_iter()
        .filter_map(|v| Card::parse(text, v))
        .find(|card| card.to_string() == text)
}

fn card_or_dash(card: Option<Card>) -> String {
    card.map_or_else(|| "-".to_string(), |c| c.to_string())
}

fn strict_card_or_dash(text: &str) -> Option<Option<Card>> {
    if text == "-" {
        Some(None)
    } else {
        strict_card(text).map(Some)
    }
}

impl Press {
    /// The custom id of a button (or, for [`Step::Group`], of the menu, without the chosen row).
    pub fn id(&self) -> String {
        let step = match self.step {
            Step::Play => "play".to_string(),
            Step::Roll => "roll".to_string(),
            Step::Cards => "cards".to_string(),
            Step::Card(card) => format!("card:{card}"),
            Step::Group(card, _) => format!("rows:{}", card_or_dash(card)),
            Step::Cell(card, cell) => format!("cell:{}:{cell}", card_or_dash(card)),
            Step::Exchange(card) => format!("swap:{card}"),
            Step::Hint => "hint".to_string(),
            Step::HintUnrated => "hint-unrated".to_string(),
        };
        format!("{PREFIX}{}:{}:{step}", self.table, self.turn)
    }

    /// The menu value that stands for this press ([`Step::Group`] only).
    pub fn value(&self) -> Option<String> {
        match self.step {
            Step::Group(_, group) => Some(group.to_string()),
            _ => None,
        }
    }

    /// Parses a custom id and the chosen menu values, strictly: only what [`Press::id`] and
    /// [`Press::value`] print is accepted.
    pub fn parse(id: &str, values: &[String]) -> Result<Press, PressError> {
        let rest = id
            .strip_prefix(PREFIX)
            .ok_or_else(|| PressError::Unknown(id.chars().take(MAX_CUSTOM_ID).collect()))?;
        let malformed = || PressError::Malformed(id.chars().take(MAX_CUSTOM_ID).collect());
        if id.len() > MAX_CUSTOM_ID {
            return Err(malformed());
        }
        let parts: Vec<&str> = rest.split(':').collect();
        let (table, turn, step) = match parts.as_slice() {
            [table, turn, step @ ..] => (
                strict_number::<u64>(table).ok_or_else(malformed)?,
                strict_number::<u32>(turn).ok_or_else(malformed)?,
                step,
            ),
            _ => return Err(malformed()),
        };
        let is_menu = matches!(step, ["rows", _]);
        let value = match (is_menu, values) {
            (true, [value]) => Some(value.as_str()),
            (false, []) => None,
            _ => return Err(PressError::Values(id.chars().take(MAX_CUSTOM_ID).collect())),
        };
        let step = match (step, value) {
            (["play"], None) => Step::Play,
            (["roll"], None) => Step::Roll,
            (["cards"], None) => Step::Cards,
            (["hint"], None) => Step::Hint,
            (["hint-unrated"], None) => Step::HintUnrated,
            (["card", card], None) => Step::Card(strict_card(card).ok_or_else(malformed)?),
            (["swap", card], None) => Step::Exchange(strict_card(card).ok_or_else(malformed)?),
            (["cell", card, cell], None) => Step::Cell(
                strict_card_or_dash(card).ok_or_else(malformed)?,
                CellName::parse(cell).ok_or_else(malformed)?,
            ),
            (["rows", card], Some(value)) => Step::Group(
                strict_card_or_dash(card).ok_or_else(malformed)?,
                Group::parse(value).ok_or_else(malformed)?,
            ),
            _ => return Err(malformed()),
        };
        let press = Press { table, turn, step };
        if press.id() != id || press.value().as_deref() != value {
            return Err(malformed());
        }
        Ok(press)
    }

    /// Whether the press may change the table (a move, an exchange, a roll); the others only show a
    /// step of the picker.
    pub fn changes_table(&self) -> bool {
        matches!(self.step, Step::Roll | Step::Cell(..) | Step::Exchange(_))
    }

    /// Whether the press asks for a hint (answered by [`super::Tables::press_hint`], which searches
    /// off the async runtime, not by the table's synchronous handling).
    pub fn is_hint(&self) -> bool {
        matches!(self.step, Step::Hint | Step::HintUnrated)
    }

    /// Whether the press comes from the private picker (whose message is then updated in place), not
    /// from a public turn prompt.
    pub fn is_on_picker(&self) -> bool {
        !matches!(self.step, Step::Play | Step::Roll)
    }
}

/// The command a component stands for: a fixed button or a picker press. A malformed id is refused
/// politely (nothing is trusted: the command is then checked like a typed one).
pub fn command_for_component(id: &str, values: &[String]) -> Result<Command, Text> {
    if let Some(button) = Button::from_id(id) {
        return if values.is_empty() {
            Ok(button.command())
        } else {
            Err(Text::BadButton)
        };
    }
    match Press::parse(id, values) {
        Ok(press) => Ok(Command::Press(press)),
        Err(e) => {
            tracing::info!("refused a component: {e}");
            Err(Text::BadButton)
        }
    }
}

/// The number of the turn being played: moves so far, an exchange (which does not end the turn) not
/// counted. Every later turn has a higher number.
pub fn turn_number(game: &Game) -> u32 {
    let pos = game.position();
    pos.plies() - u32::from(pos.has_exchanged())
}

/// The turn prompt's button for the player to move: Play (dice: Roll).
pub(super) fn prompt_button(table: u64, game: &Game) -> Control {
    let dice = !game.config().variant.has_cards();
    let press = Press {
        table,
        turn: turn_number(game),
        step: if dice { Step::Roll } else { Step::Play },
    };
    Control::Button {
        id: press.id(),
        label: Label::Text(if dice {
            Text::PickerRollButton
        } else {
            Text::PickerPlayButton
        }),
        style: Style::Primary,
        disabled: false,
    }
}

/// What the player to move can reach from the picker: the picker's view of one seat's turn.
struct Turn<'a> {
    table: u64,
    game: &'a Game,
    seat: Seat,
    /// Dice: whether the player has rolled.
    rolled: bool,
    /// The seats' names, for the board picture of a cells step.
    names: Vec<String>,
    /// Whether the player may ask for a hint now (the picker then shows a Hint button).
    hints: bool,
}

impl Turn<'_> {
    fn press(&self, step: Step) -> Press {
        Press {
            table: self.table,
            turn: turn_number(self.game),
            step,
        }
    }

    fn button(&self, step: Step, label: Label, style: Style) -> Control {
        Control::Button {
            id: self.press(step).id(),
            label,
            style,
            disabled: false,
        }
    }

    /// The Hint button's row, where hints are allowed.
    fn hint_row(&self) -> Option<Vec<Control>> {
        self.hints.then(|| {
            vec![self.button(
                Step::Hint,
                Label::Text(Text::PickerHintButton),
                Style::Secondary,
            )]
        })
    }

    fn layout(&self) -> &'static Layout {
        self.game.position().layout()
    }

    /// The cells `card` may go to now (dice: the roll's cells), and whether they take a chip away.
    fn targets(&self, card: Option<Card>) -> (Bits, bool) {
        let game = self.game;
        match card {
            Some(card) => (
                game.position()
                    .card_targets(game.config().team_of(self.seat), card),
                card.effect() == CardEffect::Remove,
            ),
            None => {
                if !self.rolled {
                    return (0, false);
                }
                let mut cells = 0;
                let mut removing = false;
                for group in game.move_groups() {
                    if !matches!(group.kind, GroupKind::Place | GroupKind::Remove) {
                        continue;
                    }
                    cells |= group.cells;
                    removing |= group.kind == GroupKind::Remove;
                }
                (cells, removing)
            }
        }
    }

    /// The card step: every card of the hand as a button, a dead one offering its exchange.
    fn cards(&self, hand: Message) -> Message {
        let game = self.game;
        let pos = game.position();
        let mut seen: Vec<Card> = Vec::new();
        let mut controls = Vec::new();
        for &card in game.hand(self.seat) {
            if seen.contains(&card) {
                continue;
            }
            seen.push(card);
            let (targets, _) = self.targets(Some(card));
            let control = if targets != 0 {
                let style = match card.effect() {
                    CardEffect::Remove => Style::Danger,
                    CardEffect::Wild => Style::Success,
                    CardEffect::Cells => Style::Primary,
                };
                let line = card_line(game, self.seat, card);
                self.button(Step::Card(card), Label::Card(line), style)
            } else if pos.is_dead(card) && !pos.has_exchanged() {
                self.button(
                    Step::Exchange(card),
                    Label::Text(Text::PickerExchange(card)),
                    Style::Secondary,
                )
            } else {
                // Nothing to do with it this turn (dead after an exchange, a jack without a target).
                Control::Button {
                    id: self.press(Step::Card(card)).id(),
                    label: Label::Text(Text::PickerUnplayable(card)),
                    style: Style::Secondary,
                    disabled: true,
                }
            };
            controls.push(control);
        }
        let mut message = hand;
        message.lines.push(Text::PickCard);
        message.components = controls
            .chunks(MAX_BUTTONS_PER_ROW)
            .map(<[Control]>::to_vec)
            .collect();
        message.components.extend(self.hint_row());
        message
    }

    /// The step after a card (dice: after the roll): its cells as buttons, or a menu of rows first.
    fn targets_step(&self, card: Option<Card>) -> Message {
        let (targets, removing) = self.targets(card);
        let mut step = self.step_for(card, targets, removing);
        // Dice: the roll's cells are the first step, so the Hint button is there (the last row is
        // free: dice has no Back from it).
        if card.is_none() {
            step.components.extend(self.hint_row());
        }
        step
    }

    /// The step for these targets: cells as buttons, or a menu of rows.
    fn step_for(&self, card: Option<Card>, targets: Bits, removing: bool) -> Message {
        let cells: Vec<Cell> = BitIter(targets).collect();
        let back = self.back(card, false);
        if cells.len() <= CELLS_PER_STEP {
            return self.cells_step(card, &cells, removing, back);
        }
        let layout = self.layout();
        let options = groups(&cells, layout)
            .into_iter()
            .map(|(group, in_group)| {
                let names: Vec<String> = in_group.iter().map(|&c| layout.cell_name(c)).collect();
                let mut description = names.join(", ");
                if description.chars().count() > MAX_OPTION_TEXT {
                    description = description.chars().take(MAX_OPTION_TEXT - 1).collect();
                    description.push('…');
                }
                SelectOption {
                    value: group.to_string(),
                    label: Label::Text(Text::PickerRow {
                        row: group.row.saturating_add(1),
                        part: group.part,
                        cells: u8::try_from(in_group.len()).unwrap_or(u8::MAX),
                    }),
                    description: Some(Label::Plain(description)),
                }
            })
            .collect();
        let menu = Control::Select {
            id: self
                .press(Step::Group(card, Group { row: 0, part: 0 }))
                .id(),
            placeholder: Label::Text(Text::PickerRowPlaceholder),
            options,
        };
        let mut components = vec![vec![menu]];
        components.extend(back.map(|b| vec![b]));
        Message {
            lines: vec![Text::PickRow { card, removing }],
            image: Some(self.board_with(cells)),
            components,
            ..Message::default()
        }
    }

    /// One row of targets, chosen in the menu.
    fn group_step(&self, card: Option<Card>, group: Group) -> Option<Message> {
        let (targets, removing) = self.targets(card);
        self.group_for(card, group, targets, removing)
    }

    /// The cells of one row of these targets.
    fn group_for(
        &self,
        card: Option<Card>,
        group: Group,
        targets: Bits,
        removing: bool,
    ) -> Option<Message> {
        let cells: Vec<Cell> = BitIter(targets).collect();
        let in_group = groups(&cells, self.layout())
            .into_iter()
            .find(|(g, _)| *g == group)?
            .1;
        Some(self.cells_step(card, &in_group, removing, self.back(card, true)))
    }

    /// The Back button: to the menu of rows (`to_rows`), or to the cards. Dice has no cards to go
    /// back to.
    fn back(&self, card: Option<Card>, to_rows: bool) -> Option<Control> {
        let step = match (card, to_rows) {
            (Some(card), true) => Step::Card(card),
            (Some(_), false) => Step::Cards,
            (None, true) => Step::Roll,
            (None, false) => return None,
        };
        Some(self.button(step, Label::Text(Text::PickerBackButton), Style::Secondary))
    }

    fn cells_step(
        &self,
        card: Option<Card>,
        cells: &[Cell],
        removing: bool,
        back: Option<Control>,
    ) -> Message {
        let layout = self.layout();
        let pos = self.game.position();
        let variant = self.game.config().variant;
        let controls: Vec<Control> = cells
            .iter()
            .map(|&cell| {
                let owner = pos.owner(cell).map(|t| TeamName::of(variant, t));
                let label = match owner {
                    Some(team) => Label::Text(Text::PickerCell {
                        cell: layout.cell_name(cell),
                        team,
                        removing,
                    }),
                    None => Label::Plain(layout.cell_name(cell)),
                };
                let style = if removing {
                    Style::Danger
                } else {
                    Style::Primary
                };
                self.button(Step::Cell(card, CellName::of(cell, layout)), label, style)
            })
            .collect();
        let mut components: Vec<Vec<Control>> = controls
            .chunks(MAX_BUTTONS_PER_ROW)
            .map(<[Control]>::to_vec)
            .collect();
        components.extend(back.map(|b| vec![b]));
        Message {
            lines: vec![Text::PickCell { card, removing }],
            image: Some(self.board_with(cells.to_vec())),
            components,
            ..Message::default()
        }
    }

    /// The board with these cells (the step's buttons, or all the targets behind a menu of rows)
    /// marked and labelled with the names on the buttons.
    fn board_with(&self, cells: Vec<Cell>) -> Image {
        Image::Board(BoardImage::of(self.game, self.names.clone()).with_targets(cells))
    }
}

/// Targets split into steps: by board row, a row longer than a step in parts.
fn groups(cells: &[Cell], layout: &Layout) -> Vec<(Group, Vec<Cell>)> {
    let mut out: Vec<(Group, Vec<Cell>)> = Vec::new();
    for &cell in cells {
        let row = cell.row(layout.width);
        match out.last_mut() {
            Some((group, in_group)) if group.row == row && in_group.len() < CELLS_PER_STEP => {
                in_group.push(cell);
            }
            Some((group, _)) if group.row == row => {
                let next = Group {
                    row,
                    part: group.part.saturating_add(1),
                };
                out.push((next, vec![cell]));
            }
            _ => out.push((Group { row, part: 0 }, vec![cell])),
        }
    }
    out
}

/// What a press leads to.
pub(super) enum Next {
    /// Show this step: a new private message, or the pressed picker updated in place.
    Show(Box<Message>),
    /// Carry out this command, as if typed.
    Act(Command),
    /// Dice: roll, then show the cells.
    Roll,
    /// A hint may be given (the press is checked, the search not yet run).
    Hint,
}

impl Table {
    /// Handles a picker press by `actor`. Refusals are private; on the picker they replace it, so its
    /// buttons go away.
    pub(super) fn press(
        &mut self,
        actor: &Actor,
        press: Press,
        now: Timestamp,
        settings: &Settings,
        seed: Option<u64>,
        lang: Lang,
    ) -> Reply {
        let show = |message: Message| {
            if press.is_on_picker() {
                Output::Update(message)
            } else {
                Output::Ephemeral(message)
            }
        };
        let next = match self.playing() {
            None => Err(Text::PickerExpired {
                dice: !self.setup.variant.has_cards(),
            }),
            Some(playing) => next_step(
                self.created.0,
                self.channel,
                playing,
                actor.user,
                press,
                super::hint::allowed(playing, &self.setup, settings),
            ),
        };
        match next {
            Err(text) => Reply {
                outputs: vec![show(Message::text(text))],
                auto_move: false,
            },
            Ok(Next::Show(message)) => Reply {
                outputs: vec![show(*message)],
                auto_move: false,
            },
            Ok(Next::Hint) => {
                // The Discord layer hands a hint press to `Tables::press_hint` (the search runs in
                // the search pool); it never comes here.
                tracing::warn!("a hint press reached the table's synchronous handling");
                Reply::ephemeral(Text::Internal)
            }
            Ok(Next::Act(command)) => {
                let exchange = matches!(command, Command::Exchange { .. });
                let mut reply = self.handle(actor, command, now, settings, seed, lang);
                if reply.is_refusal() {
                    return reply;
                }
                // The picker becomes the new hand after an exchange (the turn goes on), else a note.
                let after = match (exchange, self.picker_for(actor.user, settings)) {
                    (true, Some(cards)) => cards,
                    _ => Message::text(Text::PickerDone),
                };
                reply.outputs.push(Output::Update(after));
                reply
            }
            Ok(Next::Roll) => {
                let mut reply = self.handle(actor, Command::Roll, now, settings, seed, lang);
                if reply.is_refusal() {
                    return reply;
                }
                // The cells step starts with the roll (only the player sees it until the move is
                // made): one private message, not two.
                if let Some(cells) = self.picker_for(actor.user, settings) {
                    reply.outputs.retain(|o| !matches!(o, Output::Ephemeral(_)));
                    reply.outputs.push(Output::Ephemeral(cells));
                }
                reply
            }
        }
    }

    /// The buttons an old turn prompt keeps while the game runs: the hand button (card games) and ⋯.
    pub(super) fn prompt_buttons(&self) -> Vec<Button> {
        let running = !self.closed
            && self
                .playing()
                .is_some_and(|p| !p.game().position().is_over());
        match (running, self.setup.variant.has_cards()) {
            (true, true) => vec![Button::Hand, Button::More(self.created.0)],
            (true, false) => vec![Button::More(self.created.0)],
            (false, _) => Vec::new(),
        }
    }

    /// Takes the Play button off the last posted prompt once its turn is over (or the game ended):
    /// the edit to make. Once the game is over, the prompt disarmed last while it ran loses its hand
    /// and ⋯ buttons too (a computer's move may end the game right after a person's).
    pub(super) fn disarm_prompt(&mut self) -> Option<Output> {
        let current = self
            .playing()
            .filter(|p| !self.closed && !p.game().position().is_over())
            .map(|p| turn_number(p.game()));
        let Some((message_id, turn)) = self.prompt else {
            return match (current, self.disarmed.take()) {
                (None, Some(message_id)) => Some(Output::Disarm {
                    message_id,
                    buttons: Vec::new(),
                }),
                (_, kept) => {
                    self.disarmed = kept;
                    None
                }
            };
        };
        if current == Some(turn) {
            return None;
        }
        self.prompt = None;
        let buttons = self.prompt_buttons();
        self.disarmed = (!buttons.is_empty()).then_some(message_id);
        Some(Output::Disarm {
            message_id,
            buttons,
        })
    }

    /// The picker's first step for `user` if they are to move: their cards, or in dice once rolled
    /// the roll's cells.
    pub(super) fn picker_for(&self, user: UserId, settings: &Settings) -> Option<Message> {
        let playing = self.playing()?;
        let press = Press {
            table: self.created.0,
            turn: turn_number(playing.game()),
            step: if playing.game().config().variant.has_cards() {
                Step::Play
            } else {
                Step::Roll
            },
        };
        let hints = super::hint::allowed(playing, &self.setup, settings);
        match next_step(self.created.0, self.channel, playing, user, press, hints) {
            Ok(Next::Show(message)) => Some(*message),
            _ => None,
        }
    }
}

/// Checks a press against the table and finds where it leads (`hints`: whether the player may ask
/// for a hint in this game).
pub(super) fn next_step(
    table: u64,
    channel: ChannelId,
    playing: &Playing,
    user: UserId,
    press: Press,
    hints: bool,
) -> Result<Next, Text> {
    let game = playing.game();
    let pos = game.position();
    let expired = Text::PickerExpired {
        dice: !game.config().variant.has_cards(),
    };
    if press.table != table || pos.is_over() || press.turn != turn_number(game) {
        return Err(expired);
    }
    let to_move = pos.to_move();
    if playing.seat_of(user) != Some(to_move) {
        return Err(Text::NotYourPicker {
            to_move: playing
                .seats
                .get(usize::from(to_move))
                .map_or(super::Who::Bot(String::new()), super::Player::who),
        });
    }
    let turn = Turn {
        table,
        game,
        seat: to_move,
        rolled: playing.rolled,
        names: playing.names(),
        hints,
    };
    let cards = game.config().variant.has_cards();
    let hand_has = |card: Card| game.hand(to_move).contains(&card);
    Ok(match press.step {
        Step::Play | Step::Cards if cards => Next::Show(Box::new(
            turn.cards(hand_message(playing, channel, to_move, false)),
        )),
        Step::Play | Step::Cards => return Err(Text::NoCardsInDice),
        Step::Roll if cards => return Err(Text::NotDice),
        Step::Roll if playing.rolled => {
            // Pressed again after rolling: the cells, headed by the roll they are for.
            let mut step = turn.targets_step(None);
            let seat = turn.seat;
            step.lines
                .splice(0..0, super::table::rolled_line(playing, seat));
            Next::Show(Box::new(step))
        }
        Step::Roll => Next::Roll,
        Step::Card(card) | Step::Exchange(card) if !cards || !hand_has(card) => {
            return Err(Text::PickerNotYourCard(card))
        }
        Step::Card(card) => {
            if turn.targets(Some(card)).0 == 0 {
                return Err(Text::PickerUnplayable(card));
            }
            Next::Show(Box::new(turn.targets_step(Some(card))))
        }
        Step::Group(card, group) => {
            if card.is_some() != cards || card.is_some_and(|c| !hand_has(c)) {
                return Err(expired);
            }
            Next::Show(Box::new(turn.group_step(card, group).ok_or(expired)?))
        }
        Step::Cell(card, cell) => {
            let cell = cell.on(pos.layout()).ok_or(expired)?;
            Next::Act(Command::Play {
                card: card.map(|c| c.to_string()),
                cell: pos.layout().cell_name(cell),
            })
        }
        Step::Exchange(card) => Next::Act(Command::Exchange {
            card: card.to_string(),
        }),
        Step::Hint | Step::HintUnrated if !hints => return Err(Text::HintsOnlyCasual),
        Step::Hint | Step::HintUnrated => Next::Hint,
    })
}

/// Every step the picker can show a seat in a game, and the moves its last presses make: for tests
/// of the limits and of reachability. Follows every button and every menu choice from the first
/// step.
#[cfg(test)]
pub(super) fn explore(
    table: u64,
    playing: &Playing,
    user: UserId,
) -> (Vec<Message>, Vec<crate::engine::Move>) {
    use crate::engine::Move;
    let mut shown = Vec::new();
    let mut moves = Vec::new();
    let game = playing.game();
    let first = if game.config().variant.has_cards() {
        Step::Play
    } else {
        Step::Roll
    };
    let mut queue = vec![Press {
        table,
        turn: turn_number(game),
        step: first,
    }];
    let mut seen: Vec<Press> = Vec::new();
    while let Some(press) = queue.pop() {
        if seen.contains(&press) {
            continue;
        }
        seen.push(press);
        if press.is_hint() {
            // Answered by `Tables::press_hint`, not a step of the picker.
            continue;
        }
        match next_step(table, ChannelId(1), playing, user, press, true) {
            Ok(Next::Show(message)) => {
                for row in &message.components {
                    for control in row {
                        match control {
                            Control::Button {
                                id,
                                disabled: false,
                                ..
                            } => {
                                let parsed = Press::parse(id, &[]).expect("own ids parse");
                                queue.push(parsed);
                            }
                            Control::Button { .. } => {}
                            Control::Select { id, options, .. } => {
                                for option in options {
                                    let parsed =
                                        Press::parse(id, std::slice::from_ref(&option.value))
                                            .expect("own menu ids parse");
                                    queue.push(parsed);
                                }
                            }
                        }
                    }
                }
                shown.push(*message);
            }
            Ok(Next::Act(command)) => {
                let layout = game.position().layout();
                let mv = match command {
                    Command::Play { card, cell } => {
                        let cell = layout.parse_cell(&cell).expect("own cell names parse");
                        match card {
                            Some(card) => Move::Play {
                                card: Card::parse(&card, game.config().variant)
                                    .expect("own card codes parse"),
                                cell,
                            },
                            None => match game.position().roll() {
                                Some([a, b]) if a + b == 10 => Move::Remove { cell },
                                _ => Move::Place { cell },
                            },
                        }
                    }
                    Command::Exchange { card } => Move::Exchange {
                        card: Card::parse(&card, game.config().variant)
                            .expect("own card codes parse"),
                    },
                    other => panic!("the picker made {other:?}"),
                };
                moves.push(mv);
            }
            Ok(Next::Roll | Next::Hint) => {}
            Err(text) => panic!("a button the picker showed was refused: {text}"),
        }
    }
    (shown, moves)
}

/// The steps the picker shows for any set of `targets` on `game`'s board (as if `card` had them), and
/// the cells its buttons lead to: for tests of the limits with every number of targets.
#[cfg(test)]
pub(super) fn explore_targets(
    game: &Game,
    card: Option<Card>,
    targets: Bits,
) -> (Vec<Message>, Bits) {
    let turn = Turn {
        table: 1,
        game,
        seat: game.position().to_move(),
        rolled: true,
        names: Vec::new(),
        hints: false,
    };
    let layout = game.position().layout();
    let mut shown = vec![turn.step_for(card, targets, false)];
    let mut reached: Bits = 0;
    let mut i = 0;
    while let Some(message) = shown.get(i).cloned() {
        i += 1;
        for control in message.components.iter().flatten() {
            match control {
                Control::Button { id, .. } => {
                    if let Ok(Press {
                        step: Step::Cell(_, cell),
                        ..
                    }) = Press::parse(id, &[])
                    {
                        reached |= cell.on(layout).map_or(0, Cell::bit);
                    }
                }
                Control::Select { id, options, .. } => {
                    for option in options {
                        let press = Press::parse(id, std::slice::from_ref(&option.value))
                            .expect("own menu ids parse");
                        if let Step::Group(card, group) = press.step {
                            shown.extend(turn.group_for(card, group, targets, false));
                        }
                    }
                }
            }
        }
    }
    (shown, reached)
}
