//! The card picker (what a press on it shows): a game played with buttons. Every turn prompt of a human player carries a **Play**
//! button (Sequence Dice: **Roll**); pressing it opens a private picker for that player only, whose steps
//! are edited in place: the cards (a dead card offers its exchange), then the cells of the chosen card,
//! with a row chosen first from a menu when a jack, unicorn or dragon (or an 11 or a 10 in dice) has more
//! cells than fit on one step.
//!
//! A custom id is input: it is parsed once, strictly, into a [`Press`] (anything that does not print
//! back to exactly the same id is refused), and everything it names is checked against the table as it
//! is now. The move itself goes through the same `Command::Play`/`Exchange` path as a typed command.

use crate::engine::{BitIter, Bits, Card, CardEffect, Cell, Game, GroupKind, Layout, Seat};

use crate::service::ids::{Actor, ChannelId, UserId};
use crate::service::reply::{
    BoardImage, Control, Image, Label, Message, Output, Reply, SelectOption, Style,
};
use crate::service::request::{Button, CellName, Command, Group};
use crate::service::settings::Settings;
use crate::service::text::{TeamName, Text, Who};

use super::game::{turn_number, Player, Playing};
use super::report::{card_line, hand_message, rolled_line};
use super::setup::Setup;
use super::Table;

pub use crate::service::reply::{
    MAX_BUTTONS_PER_ROW, MAX_BUTTON_LABEL, MAX_OPTIONS, MAX_OPTION_TEXT, MAX_PLACEHOLDER, MAX_ROWS,
    MAX_URL,
};
pub use crate::service::request::{command_for_component, Press, Step, MAX_CUSTOM_ID};

/// Cells shown as buttons on one step: every row but the last, which keeps the Back button.
pub const CELLS_PER_STEP: usize = (MAX_ROWS - 1) * MAX_BUTTONS_PER_ROW;

/// What the player to move can reach from the picker: the picker's view of one seat's turn.
pub(super) struct Turn<'a> {
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
        match card {
            Some(card) => (
                card_targets(self.game, self.seat, card),
                card.effect() == CardEffect::Remove,
            ),
            None => {
                let (places, removals) = dice_targets(self.game, self.rolled);
                (places | removals, removals != 0)
            }
        }
    }

    /// The card step: every card of the hand as a button, a dead one offering its exchange.
    fn cards(&self, hand: Message) -> Message {
        let game = self.game;
        let mut seen: Vec<Card> = Vec::new();
        let mut controls = Vec::new();
        for &card in game.hand(self.seat) {
            if seen.contains(&card) {
                continue;
            }
            seen.push(card);
            let targets = card_targets(game, self.seat, card);
            let control = if targets != 0 {
                let style = match card.effect() {
                    CardEffect::Remove => Style::Danger,
                    CardEffect::Wild => Style::Success,
                    CardEffect::Cells => Style::Primary,
                };
                let line = card_line(game, self.seat, card);
                self.button(Step::Card(card), Label::Card(line), style)
            } else if exchangeable(game, card) {
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

/// The cells `seat` may put `card` on now: the picker's buttons for that card.
fn card_targets(game: &Game, seat: Seat, card: Card) -> Bits {
    game.position()
        .card_targets(game.config().team_of(seat), card)
}

/// Whether a card with no cell to go to may be exchanged now: it is dead and no card was exchanged
/// this turn (the picker then offers its exchange).
fn exchangeable(game: &Game, card: Card) -> bool {
    let pos = game.position();
    pos.is_dead(card) && !pos.has_exchanged()
}

/// Dice, once `rolled`: the cells the roll lets the player to move put a chip on, and the chips a 10
/// lets them clear (nothing before the roll).
fn dice_targets(game: &Game, rolled: bool) -> (Bits, Bits) {
    let (mut places, mut removals) = (0, 0);
    if !rolled {
        return (places, removals);
    }
    for group in game.move_groups() {
        match group.kind {
            GroupKind::Place => places |= group.cells,
            GroupKind::Remove => removals |= group.cells,
            GroupKind::Play(_) | GroupKind::Exchange(_) => {}
        }
    }
    (places, removals)
}

/// What the player to move may do now, as the picker offers it: for a page that marks the cells
/// itself (`TableView`'s own part).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::service) struct Choices {
    /// Per card of the hand, in the hand's order: the cells it may go to, and whether it may be
    /// exchanged instead (a dead card).
    pub cards: Vec<(Card, Bits, bool)>,
    /// Dice: the player must roll first.
    pub roll_needed: bool,
    /// Dice, after the roll: the cells a chip may go to.
    pub places: Bits,
    /// Dice, after a 10: the chips that may be cleared.
    pub removals: Bits,
}

/// What `seat` may do now: the picker's choices when it is that seat's turn in a running game,
/// nothing otherwise.
pub(in crate::service) fn choices(playing: &Playing, seat: Seat) -> Choices {
    let game = playing.game();
    let pos = game.position();
    if pos.is_over() || pos.to_move() != seat {
        return Choices::default();
    }
    if !game.config().variant.has_cards() {
        let (places, removals) = dice_targets(game, playing.rolled);
        return Choices {
            cards: Vec::new(),
            roll_needed: !playing.rolled,
            places,
            removals,
        };
    }
    let cards = game
        .hand(seat)
        .iter()
        .map(|&card| {
            let targets = card_targets(game, seat, card);
            (card, targets, targets == 0 && exchangeable(game, card))
        })
        .collect();
    Choices {
        cards,
        ..Choices::default()
    }
}

/// Targets split into steps: by board row, a row longer than a step in parts.
pub(super) fn groups(cells: &[Cell], layout: &Layout) -> Vec<(Group, Vec<Cell>)> {
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
pub(in crate::service) enum Next {
    /// Show this step: a new private message, or the pressed picker updated in place.
    Show(Box<Message>),
    /// Carry out this command, as if typed.
    Act(Command),
    /// Dice: roll, then show the cells.
    Roll,
    /// A hint may be given (the press is checked, the search not yet run).
    Hint,
}

/// What a press asks of the table: an answer, or a command to carry out as if typed.
pub(super) enum Picked {
    /// The answer (a step of the picker, or a refusal).
    Answer(Reply),
    /// Carry out this command (a move, or the roll); then [`Table::after_picked`].
    Act(Command),
}

/// Whether a hint may be given in this game: only where it cannot be unfair, in a casual game, or
/// where the server's settings allowed hints in rated games too when the game was dealt (after a
/// confirmation that makes the game unrated for everyone). The setting as it is now applies only to
/// a game dealt before the game kept it.
pub(in crate::service) fn allowed(playing: &Playing, setup: &Setup, settings: &Settings) -> bool {
    playing.hints.unwrap_or(settings.hints) || !playing.counts_for_ratings(setup)
}

impl Table {
    /// Answers a picker press by `actor`, or names the command it stands for (a move, or the roll),
    /// which the table carries out like a typed one before [`Table::after_picked`] finishes the
    /// picker. Refusals are private; on the picker they replace it, so its buttons go away.
    pub(super) fn press(&self, actor: &Actor, press: Press, settings: &Settings) -> Picked {
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
                allowed(playing, &self.setup, settings),
            ),
        };
        match next {
            Err(text) => Picked::Answer(Reply {
                outputs: vec![show(Message::text(text))],
                auto_move: false,
            }),
            Ok(Next::Show(message)) => Picked::Answer(Reply {
                outputs: vec![show(*message)],
                auto_move: false,
            }),
            Ok(Next::Hint) => {
                // The Discord layer hands a hint press to `Tables::press_hint` (the search runs in
                // the search pool); it never comes here.
                tracing::warn!("a hint press reached the table's synchronous handling");
                Picked::Answer(Reply::ephemeral(Text::Internal))
            }
            Ok(Next::Act(command)) => Picked::Act(command),
            Ok(Next::Roll) => Picked::Act(Command::Roll),
        }
    }

    /// Finishes the picker after the table carried out `command` (see [`Table::press`]) for `user`:
    /// after an exchange the picker becomes the new hand (the turn goes on), after a move it says so;
    /// after the roll the cells step starts with the roll (only the player sees it until the move is
    /// made): one private message, not two.
    pub(super) fn after_picked(
        &self,
        user: UserId,
        command: &Command,
        mut reply: Reply,
        settings: &Settings,
    ) -> Reply {
        if reply.is_refusal() {
            return reply;
        }
        if matches!(command, Command::Roll) {
            if let Some(cells) = self.picker_for(user, settings) {
                reply.outputs.retain(|o| !matches!(o, Output::Ephemeral(_)));
                reply.outputs.push(Output::Ephemeral(cells));
            }
            return reply;
        }
        let exchange = matches!(command, Command::Exchange { .. });
        let mut after = match (exchange, self.picker_for(user, settings)) {
            (true, Some(cards)) => cards,
            _ => Message::text(Text::PickerDone),
        };
        if exchange {
            // The exchange is told privately until the move (see `commit_and_report`): here at the
            // top of the picker, which shows the new hand.
            let mut told = Vec::new();
            reply.outputs.retain(|o| match o {
                Output::Ephemeral(m) => {
                    told.extend(m.lines.iter().cloned());
                    false
                }
                _ => true,
            });
            after.lines.splice(0..0, told);
        }
        reply.outputs.push(Output::Update(after));
        reply
    }

    /// The buttons an old turn prompt keeps while the game runs: the hand button (card games) and ⋯.
    pub(in crate::service) fn prompt_buttons(&self) -> Vec<Button> {
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
    pub(in crate::service) fn disarm_prompt(&mut self) -> Option<Output> {
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
    pub(in crate::service) fn picker_for(
        &self,
        user: UserId,
        settings: &Settings,
    ) -> Option<Message> {
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
        let hints = allowed(playing, &self.setup, settings);
        match next_step(self.created.0, self.channel, playing, user, press, hints) {
            Ok(Next::Show(message)) => Some(*message),
            _ => None,
        }
    }
}

/// Checks a press against the table and finds where it leads (`hints`: whether the player may ask
/// for a hint in this game).
pub(in crate::service) fn next_step(
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
                .map_or(Who::Bot(String::new()), Player::who),
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
            step.lines.splice(0..0, rolled_line(playing, seat));
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
pub(in crate::service) fn explore(
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
                            Control::Button { .. } | Control::Link { .. } => {}
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
pub(in crate::service) fn explore_targets(
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
                Control::Link { .. } => {}
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
