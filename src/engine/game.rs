//! The game state, moves and their legality, shared by all three variants.
//!
//! `Position` is everything every player may see; `Game` adds the hidden parts (hands, draw pile order,
//! future dice). Legality lives in `Position` so a seat's `View` answers the same questions as the game.

use arrayvec::ArrayVec;

use super::card::{full_deck, Card, CardEffect};
use super::cell::{nth_cell, BitIter, Bits, Cell};
use super::error::PlayError;
use super::layout::{Label, Layout};
use super::rng::GameRng;
use super::variant::{Config, SetupError, Variant};
use super::zone::{is_zone_centre, zone_cells, PLAIN_POINTS, ZONE_CENTRES, ZONE_POINTS};

/// A seat number, 0 moves first.
pub type Seat = u8;
/// A team number; seat `i` is on team `i % teams`.
pub type Team = u8;

/// Most seats in any game.
pub const MAX_SEATS: usize = 12;
/// Most teams in any game (kids: four players alone).
pub const MAX_TEAMS: usize = 4;
const MAX_HAND: usize = 7;
const MAX_DECK: usize = 104;
/// Captured pairs that win a `capture_pairs` game.
pub const PAIRS_TO_WIN: u8 = 5;

/// What a player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Play a card at a cell: place a chip, or with a one-eyed jack or a dragon remove the chip there.
    Play {
        /// The card.
        card: Card,
        /// The cell.
        cell: Cell,
    },
    /// Exchange a dead card for a new one (then the turn goes on).
    Exchange {
        /// The dead card.
        card: Card,
    },
    /// Dice: place (or replace) on a cell for the current roll.
    Place {
        /// The cell.
        cell: Cell,
    },
    /// Dice: remove an opponent chip on a 10.
    Remove {
        /// The cell.
        cell: Cell,
    },
    /// Nothing else is legal.
    Pass,
}

/// What happened. Drawn cards are not named: they are hidden information.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A dead card went to the discard pile.
    Exchanged {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A chip was placed (replacing an opponent chip in dice when `replaced` is set).
    Placed {
        /// Who.
        seat: Seat,
        /// Whose chip.
        team: Team,
        /// The card played, if any.
        card: Option<Card>,
        /// Where.
        cell: Cell,
        /// The team whose chip was replaced (dice).
        replaced: Option<Team>,
    },
    /// A chip was removed by a one-eyed jack, a dragon or a 10.
    Removed {
        /// Who.
        seat: Seat,
        /// The team that lost the chip.
        team: Team,
        /// The card played, if any.
        card: Option<Card>,
        /// Where.
        cell: Cell,
    },
    /// Two opponent chips were captured (`capture_pairs`).
    Captured {
        /// The capturing team.
        team: Team,
        /// The team that lost them.
        victim: Team,
        /// The two cells.
        cells: [Cell; 2],
    },
    /// A sequence was completed; `index` is its place in [`Position::sequences`].
    SequenceCompleted {
        /// The team.
        team: Team,
        /// Index into the sequences list.
        index: u16,
    },
    /// A new sequence scored in a `king_of_the_board` game.
    Scored {
        /// The team.
        team: Team,
        /// Points it scored: 2 when it touches the zone, else 1.
        points: u8,
        /// Whether one of its cells lies in the zone.
        in_zone: bool,
        /// Index into the sequences list.
        index: u16,
    },
    /// The zone moved to another centre (`king_of_the_board`, after a scoring placement that did not win).
    ZoneMoved {
        /// The centre it left.
        from: Cell,
        /// The new centre.
        to: Cell,
    },
    /// A sequence was broken by a one-eyed jack (`scoring`).
    SequenceBroken {
        /// The team that lost it.
        team: Team,
    },
    /// A player drew a card.
    Drew {
        /// Who.
        seat: Seat,
    },
    /// The discard pile was shuffled into a new draw pile.
    Reshuffled,
    /// A player passed.
    Passed {
        /// Who.
        seat: Seat,
    },
    /// The dice were rolled for a player.
    Rolled {
        /// Who.
        seat: Seat,
        /// The two dice.
        dice: [u8; 2],
    },
    /// A team reached the target; the round is played out first (`equal_turns`).
    ProvisionalWin {
        /// The team.
        team: Team,
    },
    /// The game was won.
    Won {
        /// The team.
        team: Team,
    },
    /// The game ended in a draw.
    Drawn,
}

/// The events of one move.
pub type Events = ArrayVec<Event, 24>;
/// A list of moves that does not allocate.
pub type MoveList = ArrayVec<Move, 320>;

/// The state of the game as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Moves are being made.
    InProgress,
    /// A team won.
    Won(Team),
    /// Nobody won.
    Drawn,
}

/// A completed sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// Whose.
    pub team: Team,
    /// Its cells as a bitboard.
    pub mask: Bits,
    cells: [Cell; 6],
    len: u8,
}

impl Sequence {
    /// Cells in line order.
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..usize::from(self.len)]
    }
}

/// The last chip-changing action, for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastAction {
    /// Who acted.
    pub seat: Seat,
    /// The cell.
    pub cell: Cell,
    /// Whether a chip was removed there (else placed).
    pub removed: bool,
    /// The card played, if any.
    pub card: Option<Card>,
}

/// A player's hand, at most seven cards, in the order they were received.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    cards: [Card; MAX_HAND],
    len: u8,
}

impl Hand {
    const EMPTY: Hand = Hand {
        cards: [Card(0); MAX_HAND],
        len: 0,
    };

    /// The cards.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    #[inline]
    fn push(&mut self, card: Card) {
        if usize::from(self.len) < MAX_HAND {
            self.cards[usize::from(self.len)] = card;
            self.len += 1;
        }
    }

    /// Removes one copy, keeping the order of the others.
    #[inline]
    fn remove(&mut self, card: Card) -> bool {
        let len = usize::from(self.len);
        match self.cards[..len].iter().position(|&c| c == card) {
            Some(i) => {
                // A plain loop: at most six cards move, cheaper than a call to memmove.
                for j in i..len - 1 {
                    self.cards[j] = self.cards[j + 1];
                }
                self.len -= 1;
                true
            }
            None => false,
        }
    }
}

/// A pile of cards; the top is the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pile {
    cards: [Card; MAX_DECK],
    len: u8,
}

impl Pile {
    const EMPTY: Pile = Pile {
        cards: [Card(0); MAX_DECK],
        len: 0,
    };

    #[inline]
    fn as_slice(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    #[inline]
    fn push(&mut self, card: Card) {
        self.cards[usize::from(self.len)] = card;
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<Card> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.cards[usize::from(self.len)])
    }
}

/// What a group of legal moves does; see [`Position::move_groups`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupKind {
    /// `Move::Play` with the group's card on each cell.
    Play(Card),
    /// `Move::Exchange` of the card (no cells).
    Exchange(Card),
    /// `Move::Place` on each cell.
    Place,
    /// `Move::Remove` on each cell.
    Remove,
}

/// Legal moves grouped by card: a compact form that random play and move lists both expand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveGroup {
    /// What the moves do.
    pub kind: GroupKind,
    /// Target cells (empty for an exchange).
    pub cells: Bits,
}

impl MoveGroup {
    /// How many moves the group stands for.
    #[inline]
    pub fn count(&self) -> u32 {
        match self.kind {
            GroupKind::Exchange(_) => 1,
            _ => cell_count(self.cells),
        }
    }

    /// The `n`-th move of the group.
    #[inline]
    pub fn nth(&self, n: u32) -> Move {
        match self.kind {
            GroupKind::Exchange(card) => Move::Exchange { card },
            GroupKind::Play(card) => Move::Play {
                card,
                cell: nth_cell(self.cells, n),
            },
            GroupKind::Place => Move::Place {
                cell: nth_cell(self.cells, n),
            },
            GroupKind::Remove => Move::Remove {
                cell: nth_cell(self.cells, n),
            },
        }
    }
}

/// Number of cells, fast for the usual one or two (a card's cells) without a popcount instruction.
#[inline]
fn cell_count(cells: Bits) -> u32 {
    let rest = cells & cells.wrapping_sub(1);
    if rest & rest.wrapping_sub(1) == 0 {
        u32::from(cells != 0) + u32::from(rest != 0)
    } else {
        cells.count_ones()
    }
}

/// Number of cells of a set that is usually large (a jack's targets).
#[inline(never)]
fn many_cells(cells: Bits) -> u32 {
    cells.count_ones()
}

/// Groups of legal moves of one turn.
pub type MoveGroups = ArrayVec<MoveGroup, 8>;

/// Everything every player may see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    config: Config,
    layout: &'static Layout,
    chips: [Bits; MAX_TEAMS],
    /// Every team's chips together (kept with `chips`).
    occupied: Bits,
    locked: Bits,
    sequences: Vec<Sequence>,
    to_move: Seat,
    exchanged: bool,
    passes: u8,
    status: Status,
    roll: Option<[u8; 2]>,
    captures: [u8; MAX_TEAMS],
    last: Option<LastAction>,
    pending_win: Option<Team>,
    plies: u32,
    /// `config.team_of(seat)` for seats 0 to 15, to keep a division out of every move; sixteen entries
    /// so a mask keeps the index in range.
    team_of_seat: [Team; 16],
    /// Completed sequences per team (kept with `sequences`).
    sequence_counts: [u8; MAX_TEAMS],
    /// `config.sequences_to_win()`, or `config.points_to_win()` in `king_of_the_board` games.
    target: u8,
    /// The zone's centre (`king_of_the_board`).
    zone: Option<Cell>,
    /// Points per team (`king_of_the_board`).
    points: [u8; MAX_TEAMS],
}

impl Position {
    fn new(config: Config) -> Position {
        Position {
            config,
            layout: Layout::standard(config.variant),
            chips: [0; MAX_TEAMS],
            occupied: 0,
            locked: 0,
            sequences: Vec::new(),
            to_move: 0,
            exchanged: false,
            passes: 0,
            status: Status::InProgress,
            roll: None,
            captures: [0; MAX_TEAMS],
            last: None,
            pending_win: None,
            plies: 0,
            team_of_seat: std::array::from_fn(|seat| config.team_of(seat as Seat)),
            sequence_counts: [0; MAX_TEAMS],
            target: if config.is_king_of_the_board() {
                config.points_to_win()
            } else {
                config.sequences_to_win()
            },
            zone: None,
            points: [0; MAX_TEAMS],
        }
    }

    /// The team of a seat.
    #[inline]
    pub fn team_of(&self, seat: Seat) -> Team {
        self.team_of_seat[usize::from(seat) & 15]
    }

    /// The set-up.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The board.
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// A team's chips.
    #[inline]
    pub fn chips(&self, team: Team) -> Bits {
        self.chips[usize::from(team)]
    }

    /// Every chip on the board.
    #[inline]
    pub fn occupied(&self) -> Bits {
        debug_assert_eq!(
            self.occupied,
            self.chips[0] | self.chips[1] | self.chips[2] | self.chips[3]
        );
        self.occupied
    }

    /// Cells that can take a chip: not a corner, no chip.
    #[inline]
    pub fn empty(&self) -> Bits {
        self.layout.all & !self.layout.corners & !self.occupied()
    }

    /// Chips of every team but `team`.
    #[inline]
    pub fn opponents(&self, team: Team) -> Bits {
        self.occupied() & !self.chips(team)
    }

    /// Whose chip is on a cell.
    pub fn owner(&self, cell: Cell) -> Option<Team> {
        (0..self.config.teams).find(|&t| self.chips(t) & cell.bit() != 0)
    }

    /// Chips that belong to completed sequences.
    pub fn locked(&self) -> Bits {
        self.locked
    }

    /// Completed sequences in the order they were made.
    pub fn sequences(&self) -> &[Sequence] {
        &self.sequences
    }

    /// Completed sequences of one team.
    pub fn sequence_count(&self, team: Team) -> usize {
        usize::from(self.sequence_counts[usize::from(team) % MAX_TEAMS])
    }

    /// The seat to move (meaningless once the game is over).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Whether the player to move has already exchanged a card this turn.
    pub fn has_exchanged(&self) -> bool {
        self.exchanged
    }

    /// The game's state.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.status != Status::InProgress
    }

    /// The current dice roll (dice game).
    pub fn roll(&self) -> Option<[u8; 2]> {
        self.roll
    }

    /// Pairs captured per team (`capture_pairs`).
    pub fn captures(&self, team: Team) -> u8 {
        self.captures[usize::from(team)]
    }

    /// The last chip placed or removed.
    pub fn last_action(&self) -> Option<LastAction> {
        self.last
    }

    /// The position just before `seat` made `mv`, where `mv` is the last action that changed this
    /// position (an exchange or a pass changes no chip), with `seat` to move: what an observer replays
    /// backwards through a game's public actions to ask which moves a player had at each turn. `None`
    /// where the position alone cannot tell: dice games, the `scoring` and `capture_pairs` house rules
    /// (chips can leave sequences, pairs disappear), a removal with more than two teams (whose chip?), or a
    /// move that does not fit the position.
    pub fn before(&self, seat: Seat, mv: Move) -> Option<Position> {
        let options = self.config.options;
        if !self.config.variant.has_cards() || options.scoring || options.capture_pairs {
            return None;
        }
        let team = self.team_of(seat);
        let mut before = self.clone();
        match mv {
            Move::Play { card, cell } if card.effect() == CardEffect::Remove => {
                if self.config.teams != 2 || self.occupied() & cell.bit() != 0 {
                    return None;
                }
                before.chips[usize::from(1 - team)] |= cell.bit();
                before.occupied |= cell.bit();
            }
            Move::Play { cell, .. } => {
                if self.chips(team) & cell.bit() == 0 {
                    return None;
                }
                // A King of the Board sequence scored points and may have moved the zone.
                if self.config.is_king_of_the_board()
                    && self.sequences.iter().any(|s| s.mask & cell.bit() != 0)
                {
                    return None;
                }
                before.chips[usize::from(team)] &= !cell.bit();
                before.occupied &= !cell.bit();
                // A chip in a sequence is never removed here, so every sequence through the cell is one
                // this chip completed.
                before.drop_sequences_through(cell, |_| {});
            }
            Move::Exchange { .. } | Move::Pass => {}
            Move::Place { .. } | Move::Remove { .. } => return None,
        }
        before.to_move = seat;
        before.exchanged = false;
        before.passes = 0;
        before.status = Status::InProgress;
        before.pending_win = None;
        before.last = None;
        before.plies = before.plies.saturating_sub(1);
        Some(before)
    }

    /// A team that has reached the target while the round is played out (`equal_turns`).
    pub fn pending_win(&self) -> Option<Team> {
        self.pending_win
    }

    /// Moves made so far (exchanges included).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Points per team in a `scoring` game: one per standing sequence.
    pub fn scores(&self) -> Vec<usize> {
        (0..self.config.teams)
            .map(|t| self.sequence_count(t))
            .collect()
    }

    /// The zone's centre in a `king_of_the_board` game (`None` in other games).
    pub fn zone(&self) -> Option<Cell> {
        self.zone
    }

    /// The zone's nine cells (none outside `king_of_the_board` games).
    pub fn zone_cells(&self) -> Bits {
        self.zone.map_or(0, zone_cells)
    }

    /// A team's points in a `king_of_the_board` game.
    pub fn points(&self, team: Team) -> u8 {
        self.points[usize::from(team) % MAX_TEAMS]
    }

    /// Points per team in a `king_of_the_board` game.
    pub fn points_per_team(&self) -> Vec<u8> {
        (0..self.config.teams).map(|t| self.points(t)).collect()
    }

    /// What a win takes: sequences, or points in a `king_of_the_board` game.
    pub fn target(&self) -> u8 {
        self.target
    }

    /// Whether a card is dead: a card with cells whose cells are all covered.
    #[inline]
    pub fn is_dead(&self, card: Card) -> bool {
        card.effect() == CardEffect::Cells && self.layout.cells_of_card(card) & self.empty() == 0
    }

    /// Cells where `team` may play `card`.
    #[inline]
    pub fn card_targets(&self, team: Team, card: Card) -> Bits {
        match card.effect() {
            CardEffect::Cells => self.layout.cells_of_card(card) & self.empty(),
            CardEffect::Wild => self.empty(),
            CardEffect::Remove => self.opponents(team) & !self.removal_protected(),
        }
    }

    /// Chips a one-eyed jack or dragon may not take.
    #[inline]
    fn removal_protected(&self) -> Bits {
        if self.config.options.scoring {
            0
        } else {
            self.locked
        }
    }

    /// Dice: the cells a chip may go to for the current roll, and whether that replaces a chip.
    fn dice_place_targets(&self, team: Team) -> Bits {
        let Some(sum) = self.roll_sum() else { return 0 };
        let empty = self.empty();
        match sum {
            10 => 0,
            11 => {
                if empty != 0 {
                    empty
                } else {
                    self.opponents(team)
                }
            }
            s => {
                let cells = self.layout.cells_of_number(s);
                if cells & empty != 0 {
                    cells & empty
                } else {
                    cells & self.opponents(team)
                }
            }
        }
    }

    /// Dice: the chips a 10 may remove.
    fn dice_remove_targets(&self, team: Team) -> Bits {
        if self.roll_sum() != Some(10) {
            return 0;
        }
        let protected = self.layout.cells_of_number(2) | self.layout.cells_of_number(12);
        self.opponents(team) & !protected
    }

    fn roll_sum(&self) -> Option<u8> {
        self.roll.map(|[a, b]| a + b)
    }

    /// Every legal move of the player to move holding `hand`, grouped by card. Empty only when the game
    /// is over; `Pass` is not included (it is legal exactly when there are no groups).
    pub fn move_groups(&self, hand: &[Card]) -> MoveGroups {
        let mut groups = MoveGroups::new();
        self.for_each_group(hand, |group| {
            groups.push(group);
            false
        });
        groups
    }

    /// Calls `f` with every group of legal moves (see [`Position::move_groups`]) until it returns true;
    /// returns whether it did. Lets random play pick a move without building a list.
    #[inline]
    pub fn for_each_group(&self, hand: &[Card], mut f: impl FnMut(MoveGroup) -> bool) -> bool {
        if self.is_over() {
            return false;
        }
        let team = self.team_of(self.to_move);
        if self.config.variant == Variant::Dice {
            let place = self.dice_place_targets(team);
            if place != 0
                && f(MoveGroup {
                    kind: GroupKind::Place,
                    cells: place,
                })
            {
                return true;
            }
            let remove = self.dice_remove_targets(team);
            return remove != 0
                && f(MoveGroup {
                    kind: GroupKind::Remove,
                    cells: remove,
                });
        }
        let empty = self.empty();
        // Card codes already listed (a hand never mixes classic codes 0..52 and kids codes 64..85, so the
        // low six bits tell them apart); both two-eyed jacks (and both one-eyed ones) share one key.
        let mut seen: u64 = 0;
        for &card in hand {
            let key = card.group_key();
            if seen & (1 << key) != 0 {
                continue;
            }
            seen |= 1 << key;
            let effect = card.effect();
            let cells = match effect {
                CardEffect::Cells => self.layout.cells_of_card(card) & empty,
                CardEffect::Wild => empty,
                CardEffect::Remove => self.opponents(team) & !self.removal_protected(),
            };
            let group = if cells != 0 {
                MoveGroup {
                    kind: GroupKind::Play(card),
                    cells,
                }
            } else if !self.exchanged && effect == CardEffect::Cells {
                MoveGroup {
                    kind: GroupKind::Exchange(card),
                    cells: 0,
                }
            } else {
                continue;
            };
            if f(group) {
                return true;
            }
        }
        false
    }

    /// Every legal move of the player to move holding `hand` (including `Pass` when it is the only one).
    pub fn legal_moves(&self, hand: &[Card], out: &mut MoveList) {
        out.clear();
        if self.is_over() || (self.config.variant == Variant::Dice && self.roll.is_none()) {
            return;
        }
        let groups = self.move_groups(hand);
        for group in &groups {
            for i in 0..group.count() {
                if out.try_push(group.nth(i)).is_err() {
                    return;
                }
            }
        }
        if groups.is_empty() {
            out.push(Move::Pass);
        }
    }

    /// Checks a move for the player to move holding `hand`, without changing anything.
    pub fn check(&self, seat: Seat, hand: &[Card], mv: Move) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if seat != self.to_move {
            return Err(PlayError::NotYourTurn);
        }
        let team = self.team_of(seat);
        let cell_ok = |cell: Cell| {
            if cell.index() >= self.layout.len() {
                Err(PlayError::BadCell)
            } else {
                Ok(())
            }
        };
        let dice = self.config.variant == Variant::Dice;
        if dice && self.roll.is_none() {
            // Nothing is legal before the roll (a game that rolls on demand, between turns).
            return Err(PlayError::WrongActionForRoll);
        }
        match mv {
            Move::Pass => {
                if self.move_groups(hand).is_empty() {
                    Ok(())
                } else {
                    Err(PlayError::PassNotAllowed)
                }
            }
            Move::Exchange { .. } | Move::Play { .. } if dice => Err(PlayError::WrongActionForRoll),
            Move::Place { .. } | Move::Remove { .. } if !dice => Err(PlayError::WrongActionForRoll),
            Move::Exchange { card } => {
                if !hand.contains(&card) {
                    Err(PlayError::CardNotInHand)
                } else if self.exchanged {
                    Err(PlayError::ExchangeTwice)
                } else if !self.is_dead(card) {
                    Err(PlayError::NotDead)
                } else {
                    Ok(())
                }
            }
            Move::Play { card, cell } => {
                if !hand.contains(&card) {
                    return Err(PlayError::CardNotInHand);
                }
                cell_ok(cell)?;
                if self.layout.corners & cell.bit() != 0 {
                    return Err(PlayError::FreeCorner);
                }
                match card.effect() {
                    CardEffect::Cells if self.layout.cells_of_card(card) & cell.bit() == 0 => {
                        Err(PlayError::CardDoesNotMatch)
                    }
                    CardEffect::Cells | CardEffect::Wild if self.occupied() & cell.bit() != 0 => {
                        Err(PlayError::CellOccupied)
                    }
                    CardEffect::Cells | CardEffect::Wild => Ok(()),
                    CardEffect::Remove if self.opponents(team) & cell.bit() == 0 => {
                        Err(PlayError::NoOpponentChip)
                    }
                    CardEffect::Remove if self.removal_protected() & cell.bit() != 0 => {
                        Err(PlayError::ChipLocked)
                    }
                    CardEffect::Remove => Ok(()),
                }
            }
            Move::Place { cell } => {
                cell_ok(cell)?;
                let sum = self.roll_sum().unwrap_or(0);
                if sum == 10 {
                    return Err(PlayError::WrongActionForRoll);
                }
                if self.dice_place_targets(team) & cell.bit() != 0 {
                    return Ok(());
                }
                if sum != 11 && self.layout.cells_of_number(sum) & cell.bit() == 0 {
                    Err(PlayError::CardDoesNotMatch)
                } else {
                    Err(PlayError::CellOccupied)
                }
            }
            Move::Remove { cell } => {
                cell_ok(cell)?;
                if self.roll_sum() != Some(10) {
                    Err(PlayError::WrongActionForRoll)
                } else if self.opponents(team) & cell.bit() == 0 {
                    Err(PlayError::NoOpponentChip)
                } else if self.dice_remove_targets(team) & cell.bit() == 0 {
                    Err(PlayError::ChipLocked)
                } else {
                    Ok(())
                }
            }
        }
    }

    fn place_chip(&mut self, team: Team, cell: Cell) {
        if self.occupied() & cell.bit() != 0 {
            for t in &mut self.chips {
                *t &= !cell.bit();
            }
        }
        self.chips[usize::from(team)] |= cell.bit();
        self.occupied |= cell.bit();
    }

    fn remove_chip(&mut self, cell: Cell, events: &mut Events) {
        for t in &mut self.chips {
            *t &= !cell.bit();
        }
        self.occupied &= !cell.bit();
        if self.locked & cell.bit() != 0 {
            // Only in `scoring` games: the sequences through this chip no longer score.
            self.drop_sequences_through(cell, |team| {
                let _ = events.try_push(Event::SequenceBroken { team });
            });
        }
    }

    /// Drops the sequences through `cell`, telling `dropped` each one's team, and re-derives the counts
    /// and the locked chips from those left.
    fn drop_sequences_through(&mut self, cell: Cell, mut dropped: impl FnMut(Team)) {
        self.sequences.retain(|s| {
            let keep = s.mask & cell.bit() == 0;
            if !keep {
                dropped(s.team);
            }
            keep
        });
        self.sequence_counts = [0; MAX_TEAMS];
        self.locked = 0;
        for s in &self.sequences {
            self.sequence_counts[usize::from(s.team)] += 1;
            self.locked |= s.mask & !self.layout.corners;
        }
    }

    /// `capture_pairs`: flanked pairs of one opponent team next to `cell` are captured.
    fn capture_pairs(&mut self, team: Team, cell: Cell, events: &mut Events) {
        let own = self.chips(team);
        for d in 0..8 {
            {
                let Some(a) = self.layout.neighbour(cell, d) else {
                    continue;
                };
                let Some(b) = self.layout.neighbour(a, d) else {
                    continue;
                };
                let Some(c) = self.layout.neighbour(b, d) else {
                    continue;
                };
                if own & c.bit() == 0 || self.locked & (a.bit() | b.bit()) != 0 {
                    continue;
                }
                let (Some(victim), Some(victim_b)) = (self.owner(a), self.owner(b)) else {
                    continue;
                };
                if victim == team || victim != victim_b {
                    continue;
                }
                let mask = !(a.bit() | b.bit());
                self.chips[usize::from(victim)] &= mask;
                self.occupied &= mask;
                self.captures[usize::from(team)] += 1;
                let _ = events.try_push(Event::Captured {
                    team,
                    victim,
                    cells: [a, b],
                });
            }
        }
    }

    /// Finds the sequences completed by a chip of `team` on `cell`; returns how many.
    fn detect_sequences(&mut self, team: Team, cell: Cell, events: &mut Events) -> usize {
        let len = usize::from(self.config.line_length());
        let mut own = self.chips(team);
        if self.config.has_free_corners() {
            own |= self.layout.corners;
        }
        // Every line through the cell goes through a neighbour: none of them own, no sequence.
        if own & self.layout.adjacent(cell) == 0 {
            return 0;
        }
        if !self
            .layout
            .windows_through(cell, len as u8)
            .iter()
            .any(|&w| w & !own == 0)
        {
            return 0;
        }
        let zone = self.zone_cells();
        let mut found = 0;
        for d in 0..4 {
            let mut line = [Cell(0); 13];
            let mut back = 0usize;
            let mut c = cell;
            while back < len - 1 {
                match self.layout.neighbour(c, d + 4) {
                    Some(n) if own & n.bit() != 0 => {
                        back += 1;
                        c = n;
                    }
                    _ => break,
                }
            }
            line[0] = c;
            let mut total = 1usize;
            while total < back + len {
                match self.layout.neighbour(c, d) {
                    Some(n) if own & n.bit() != 0 => {
                        line[total] = n;
                        total += 1;
                        c = n;
                    }
                    _ => break,
                }
            }
            if total < len {
                continue;
            }
            let window = |s: usize| line[s..s + len].iter().fold(0u128, |m, c| m | c.bit());
            let valid = |mask: Bits, seqs: &[Sequence]| {
                seqs.iter()
                    .filter(|s| s.team == team)
                    .all(|s| (s.mask & mask).count_ones() <= 1)
            };
            let lo = (back + 1).saturating_sub(len);
            let hi = back.min(total - len);
            // King of the Board (RULES.md, "which five cells"): among the windows the sharing rule
            // allows, those touching the zone score more and are chosen first; among equals, the
            // first in line order, as in classic play (where no window touches a zone).
            let touches = |mask: Bits| u32::from(mask & zone != 0);
            let mut chosen: ArrayVec<usize, 2> = ArrayVec::new();
            let mut best = 0;
            for s1 in lo..=hi {
                for s2 in (s1 + len - 1)..=hi {
                    let (m1, m2) = (window(s1), window(s2));
                    if valid(m1, &self.sequences) && valid(m2, &self.sequences) {
                        let points = 1 + touches(m1) + touches(m2);
                        if points > best {
                            best = points;
                            chosen.clear();
                            chosen.push(s1);
                            chosen.push(s2);
                        }
                    }
                }
            }
            if chosen.is_empty() {
                for s in lo..=hi {
                    let mask = window(s);
                    if valid(mask, &self.sequences) && 1 + touches(mask) > best {
                        best = 1 + touches(mask);
                        chosen.clear();
                        chosen.push(s);
                    }
                }
            }
            for s in chosen {
                let mut cells = [Cell(0); 6];
                cells[..len].copy_from_slice(&line[s..s + len]);
                let seq = Sequence {
                    team,
                    mask: window(s),
                    cells,
                    len: len as u8,
                };
                self.locked |= seq.mask & !self.layout.corners;
                self.sequences.push(seq);
                self.sequence_counts[usize::from(team)] += 1;
                let _ = events.try_push(Event::SequenceCompleted {
                    team,
                    index: (self.sequences.len() - 1) as u16,
                });
                found += 1;
            }
        }
        found
    }

    /// `king_of_the_board`: scores the sequences from index `first` on (those the placement completed),
    /// each against the zone as it is now; returns whether any scored.
    fn score_sequences(&mut self, first: usize, events: &mut Events) -> bool {
        let zone = self.zone_cells();
        let mut scored = false;
        for index in first..self.sequences.len() {
            let seq = self.sequences[index];
            let in_zone = seq.mask & zone != 0;
            let points = if in_zone { ZONE_POINTS } else { PLAIN_POINTS };
            let total = &mut self.points[usize::from(seq.team) % MAX_TEAMS];
            *total = total.saturating_add(points);
            let _ = events.try_push(Event::Scored {
                team: seq.team,
                points,
                in_zone,
                index: index as u16,
            });
            scored = true;
        }
        scored
    }

    /// After a team's chip change: has it won?
    fn check_win(&mut self, team: Team, events: &mut Events) {
        if self.config.options.scoring {
            return;
        }
        let reached = if self.config.is_king_of_the_board() {
            self.points(team) >= self.target
        } else {
            self.sequence_count(team) >= usize::from(self.target)
                || (self.config.options.capture_pairs && self.captures(team) >= PAIRS_TO_WIN)
        };
        if !reached {
            return;
        }
        if !self.config.options.equal_turns {
            self.finish(Status::Won(team), events);
            return;
        }
        match self.pending_win {
            Some(t) if t != team => self.finish(Status::Drawn, events),
            Some(_) => {}
            None if self.to_move + 1 == self.config.players => {
                self.finish(Status::Won(team), events)
            }
            None => {
                self.pending_win = Some(team);
                let _ = events.try_push(Event::ProvisionalWin { team });
            }
        }
    }

    fn finish(&mut self, status: Status, events: &mut Events) {
        self.status = status;
        self.roll = None;
        let _ = events.try_push(match status {
            Status::Won(team) => Event::Won { team },
            _ => Event::Drawn,
        });
    }

    /// Ends the game after a full round of passes.
    fn finish_blocked(&mut self, events: &mut Events) {
        if let Some(team) = self.pending_win {
            return self.finish(Status::Won(team), events);
        }
        // With `scoring` the most sequences win, in King of the Board the most points (RULES.md: a
        // blocked board); equal most, or none at all, is a draw.
        let scores: Vec<usize> = if self.config.options.scoring {
            self.scores()
        } else if self.config.is_king_of_the_board() {
            self.points_per_team()
                .into_iter()
                .map(usize::from)
                .collect()
        } else {
            Vec::new()
        };
        let best = scores.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..scores.len()).filter(|&t| scores[t] == best).collect();
        if leaders.len() == 1 && best > 0 {
            return self.finish(Status::Won(leaders[0] as Team), events);
        }
        self.finish(Status::Drawn, events);
    }
}

/// The generator for reshuffles and dice of a game: separate from the deck shuffle, so a record that
/// lists its deck replays exactly like one that only gives the seed.
pub(crate) fn play_rng(seed: u64) -> GameRng {
    GameRng::new(seed ^ 0xD1CE_5EED_0000_0001)
}

/// The generator for King of the Board zones: separate from reshuffles, so a record that lists its
/// zones replays its reshuffles exactly like one that only gives the seed.
pub(crate) fn zone_rng(seed: u64) -> GameRng {
    GameRng::new(seed ^ 0x2011_E5EE_D000_0002)
}

/// A game: the public position plus hands, the draw pile and the dice to come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// King of the Board: the zone centres, the deal's first, then one per move (listed or drawn).
    zones: Vec<Cell>,
    /// Zones used so far.
    next_zone: usize,
    zone_rng: GameRng,
    pos: Position,
    hands: [Hand; MAX_SEATS],
    draw: Pile,
    discard: Pile,
    initial_deck: Pile,
    rng: GameRng,
    rolls: Vec<[u8; 2]>,
    next_roll: usize,
    seed: u64,
    /// Dice: a turn's roll is made by [`Game::roll`] when the player rolls, not when the turn begins.
    rolls_on_demand: bool,
}

/// When a dice game rolls: at the start of each turn (self-play, search, `replay`), or only when the
/// player asks (the bot: nothing about a roll exists before the player rolls).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RollMode {
    /// Each turn begins with its roll made.
    #[default]
    AtTurnStart,
    /// Each turn begins unrolled; [`Game::roll`] makes the roll.
    OnDemand,
}

impl Game {
    /// A new game whose deck (or dice) come from `seed`.
    pub fn new(config: Config, seed: u64) -> Game {
        Game::new_rolling(config, seed, RollMode::AtTurnStart)
    }

    /// [`Game::new`], rolling the dice as `mode` says.
    pub fn new_rolling(config: Config, seed: u64, mode: RollMode) -> Game {
        let mut deck = [Card(0); MAX_DECK];
        let n = match config.variant {
            Variant::Classic => 104,
            Variant::Kids => 42,
            Variant::Dice => 0,
        };
        let first = if config.variant == Variant::Kids {
            Card::kids(0).0
        } else {
            0
        };
        for (i, slot) in deck[..n].iter_mut().enumerate() {
            *slot = Card(first + (i / 2) as u8);
        }
        GameRng::new(seed).shuffle(&mut deck[..n]);
        Game::start(config, &deck[..n], Vec::new(), Vec::new(), seed, mode)
    }

    /// A new game with a given deck (top card first) and dice rolls; `seed` drives reshuffles and any
    /// rolls beyond the given ones.
    pub fn with_deck(
        config: Config,
        deck: &[Card],
        rolls: Vec<[u8; 2]>,
        seed: u64,
    ) -> Result<Game, SetupError> {
        Game::with_deck_rolling(config, deck, rolls, seed, RollMode::AtTurnStart)
    }

    /// [`Game::with_deck`], rolling the dice as `mode` says.
    pub fn with_deck_rolling(
        config: Config,
        deck: &[Card],
        rolls: Vec<[u8; 2]>,
        seed: u64,
        mode: RollMode,
    ) -> Result<Game, SetupError> {
        Game::with_deck_zones(config, deck, rolls, Vec::new(), seed, mode)
    }

    /// [`Game::with_deck_rolling`] with King of the Board zone centres given in order (the deal's, then
    /// one per move); zones beyond the given ones come from `seed`. A centre that is not one of the nine,
    /// a move to the same centre, or zones for a game without the zone are refused.
    pub fn with_deck_zones(
        config: Config,
        deck: &[Card],
        rolls: Vec<[u8; 2]>,
        zones: Vec<Cell>,
        seed: u64,
        mode: RollMode,
    ) -> Result<Game, SetupError> {
        if !zones.is_empty() && !config.is_king_of_the_board() {
            return Err(SetupError::Zone(
                "only king_of_the_board games have zones".into(),
            ));
        }
        if let Some(&bad) = zones.iter().find(|&&c| !is_zone_centre(c)) {
            return Err(SetupError::Zone(format!(
                "{} is not one of the nine centres C3 F3 H3 C6 F6 H6 C8 F8 H8",
                Layout::standard(Variant::Classic).cell_name(bad)
            )));
        }
        if let Some(pair) = zones.windows(2).find(|p| p[0] == p[1]) {
            return Err(SetupError::Zone(format!(
                "the zone cannot move from {0} to {0}: it always moves to another centre",
                Layout::standard(Variant::Classic).cell_name(pair[0])
            )));
        }
        let mut expected = full_deck(config.variant);
        let mut given = deck.to_vec();
        expected.sort_unstable();
        given.sort_unstable();
        if config.variant.has_cards() && given != expected {
            return Err(SetupError::Deck(format!(
                "a {} deck has {} cards, two of each; this one has {} cards or the wrong ones",
                config.variant,
                expected.len(),
                deck.len()
            )));
        }
        if let Some(&die) = rolls.iter().flatten().find(|d| !(1..=6).contains(*d)) {
            return Err(SetupError::Roll(die));
        }
        Ok(Game::start(config, deck, rolls, zones, seed, mode))
    }

    fn start(
        config: Config,
        deck: &[Card],
        rolls: Vec<[u8; 2]>,
        zones: Vec<Cell>,
        seed: u64,
        mode: RollMode,
    ) -> Game {
        // The pile's top is its last card: the deck goes in reversed, in one copy.
        let mut draw = Pile::EMPTY;
        let n = deck.len().min(MAX_DECK);
        for (slot, &card) in draw.cards[..n].iter_mut().zip(deck[..n].iter().rev()) {
            *slot = card;
        }
        draw.len = n as u8;
        let mut game = Game {
            zones,
            next_zone: 0,
            zone_rng: zone_rng(seed),
            pos: Position::new(config),
            hands: [Hand::EMPTY; MAX_SEATS],
            draw,
            discard: Pile::EMPTY,
            initial_deck: draw,
            rng: play_rng(seed),
            rolls,
            next_roll: 0,
            seed,
            rolls_on_demand: mode == RollMode::OnDemand,
        };
        for _ in 0..config.hand_size() {
            for seat in 0..usize::from(config.players) {
                if let Some(card) = game.draw.pop() {
                    game.hands[seat].push(card);
                }
            }
        }
        if config.variant == Variant::Dice && !game.rolls_on_demand {
            let mut events = Events::new();
            game.roll_dice(&mut events);
        }
        if config.is_king_of_the_board() {
            game.pos.zone = Some(game.next_zone_centre());
        }
        game
    }

    /// The next zone centre: the listed one, else one drawn at random among the centres other than the
    /// current one.
    fn next_zone_centre(&mut self) -> Cell {
        let centre = match self.zones.get(self.next_zone) {
            Some(&c) => c,
            None => {
                let current = self.pos.zone;
                let others: ArrayVec<Cell, 9> = ZONE_CENTRES
                    .iter()
                    .copied()
                    .filter(|&c| Some(c) != current)
                    .collect();
                let c = others[self.zone_rng.below(others.len() as u32) as usize];
                self.zones.push(c);
                c
            }
        };
        self.next_zone += 1;
        centre
    }

    /// King of the Board: the zones still to be drawn (beyond those listed) come from `seed` from now
    /// on. The bot gives a fresh seed from the operating system's random source before every move, so a
    /// zone is drawn when it is needed and nothing seen before (the deal, earlier zones, a restart)
    /// predicts it; the zone drawn is recorded like the others ([`Game::zones_so_far`]).
    pub fn draw_zones_from(&mut self, seed: u64) {
        self.zone_rng = zone_rng(seed);
    }

    /// King of the Board zone centres so far, the deal's first (for records).
    pub fn zones_so_far(&self) -> &[Cell] {
        &self.zones[..self.next_zone.min(self.zones.len())]
    }

    /// Whether the player to move still has to roll (dice, rolling on demand, game not over).
    pub fn needs_roll(&self) -> bool {
        self.pos.config.variant == Variant::Dice && !self.pos.is_over() && self.pos.roll.is_none()
    }

    /// Dice: makes the roll of the player to move, now (games that roll on demand). Refused if the game
    /// is over, has no dice, or the turn's roll is already made; then nothing changes.
    pub fn roll(&mut self) -> Result<[u8; 2], PlayError> {
        if self.pos.is_over() {
            return Err(PlayError::GameOver);
        }
        if !self.needs_roll() {
            return Err(PlayError::WrongActionForRoll);
        }
        let mut events = Events::new();
        self.roll_dice(&mut events);
        self.pos.roll.ok_or(PlayError::WrongActionForRoll)
    }

    /// Dice: the player to move rolled `dice` (each 1 to 6), thrown outside the engine (the bot throws
    /// them from the operating system's random source when the player rolls). Refused like
    /// [`Game::roll`], and for a die outside 1 to 6; then nothing changes.
    pub fn roll_with(&mut self, dice: [u8; 2]) -> Result<[u8; 2], PlayError> {
        if self.pos.is_over() {
            return Err(PlayError::GameOver);
        }
        if !self.needs_roll() || dice.iter().any(|d| !(1..=6).contains(d)) {
            return Err(PlayError::WrongActionForRoll);
        }
        // Rolls listed for later (a record's) give way to the one actually thrown.
        self.rolls.truncate(self.next_roll);
        self.rolls.push(dice);
        self.next_roll += 1;
        self.pos.roll = Some(dice);
        Ok(dice)
    }

    /// The public position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The set-up.
    pub fn config(&self) -> &Config {
        &self.pos.config
    }

    /// A seat's hand.
    #[inline]
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands
            .get(usize::from(seat))
            .map_or(&[][..], |h| h.cards())
    }

    /// Cards left in the draw pile.
    pub fn draw_pile_len(&self) -> usize {
        usize::from(self.draw.len)
    }

    /// The discard pile, bottom first (public: every played card is seen).
    pub fn discard_pile(&self) -> &[Card] {
        self.discard.as_slice()
    }

    /// The deck as dealt, top card first (for records).
    pub fn initial_deck(&self) -> Vec<Card> {
        self.initial_deck.as_slice().iter().rev().copied().collect()
    }

    /// Dice rolled so far, in order (for records).
    pub fn rolls_so_far(&self) -> &[[u8; 2]] {
        &self.rolls[..self.next_roll.min(self.rolls.len())]
    }

    /// The seed given at the start.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// What `seat` may see. Seats outside the game get the public view.
    pub fn view(&self, seat: Seat) -> View {
        let mut view = self.public_view();
        if seat < self.pos.config.players {
            view.seat = Some(seat);
            view.hand = self.hand(seat).to_vec();
        }
        view
    }

    /// What everyone may see: no hand.
    pub fn public_view(&self) -> View {
        View {
            seat: None,
            position: self.pos.clone(),
            hand: Vec::new(),
            hand_sizes: (0..self.pos.config.players)
                .map(|s| self.hand(s).len() as u8)
                .collect(),
            draw_pile: self.draw_pile_len(),
            discard: self.discard.as_slice().to_vec(),
        }
    }

    /// Groups of legal moves for the player to move.
    pub fn move_groups(&self) -> MoveGroups {
        self.pos.move_groups(self.hand(self.pos.to_move))
    }

    /// Every legal move of the player to move.
    pub fn legal_moves(&self, out: &mut MoveList) {
        self.pos.legal_moves(self.hand(self.pos.to_move), out);
    }

    /// A uniformly random legal move of the player to move (`None` once the game is over).
    pub fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        let pos = &self.pos;
        if pos.is_over() {
            return None;
        }
        if !pos.config.variant.has_cards() {
            return self.random_dice_move(rng);
        }
        // One pass over the hand counts the moves of each distinct card, in the order of
        // `for_each_group`; only the drawn card's cells are worked out again.
        let empty = pos.empty();
        let team = pos.team_of(pos.to_move);
        let mut cards = [Card(0); 8];
        let mut counts = [0u32; 8];
        let mut len = 0;
        let mut total = 0;
        let mut seen: u64 = 0;
        const _: () = assert!(MAX_HAND < 8);
        for &card in self.hand(pos.to_move) {
            let key = card.group_key();
            if seen & (1 << key) != 0 {
                continue;
            }
            seen |= 1 << key;
            // Branch-free for plain cards (the draw makes these branches unpredictable): the card's
            // cells (at most two), else one exchange when none was made this turn.
            let count = match card.effect() {
                CardEffect::Cells => {
                    let cells = pos.layout.cells_of_card(card) & empty;
                    let any = cells != 0;
                    u32::from(any)
                        + u32::from(cells & cells.wrapping_sub(1) != 0)
                        + u32::from(!any & !pos.exchanged)
                }
                // Out of line, so the compiler does not count these cells on every call.
                CardEffect::Wild => many_cells(empty),
                CardEffect::Remove => many_cells(pos.opponents(team) & !pos.removal_protected()),
            };
            // (A hand holds at most seven cards: the mask only spares a bounds check.)
            cards[len & 7] = card;
            counts[len & 7] = count;
            total += count;
            len += usize::from(count != 0);
        }
        if total == 0 {
            return Some(Move::Pass);
        }
        let mut n = rng.below(total);
        for (&card, &count) in cards[..len].iter().zip(&counts) {
            if n < count {
                let cells = match card.effect() {
                    CardEffect::Cells => pos.layout.cells_of_card(card) & empty,
                    CardEffect::Wild => empty,
                    CardEffect::Remove => pos.opponents(team) & !pos.removal_protected(),
                };
                return Some(if cells == 0 {
                    Move::Exchange { card }
                } else {
                    Move::Play {
                        card,
                        cell: nth_cell(cells, n),
                    }
                });
            }
            n -= count;
        }
        Some(Move::Pass)
    }

    /// [`Game::random_move`] for dice: the roll's placements, then its removals.
    fn random_dice_move(&self, rng: &mut GameRng) -> Option<Move> {
        // Before the roll (rolling on demand) there is no move yet.
        self.pos.roll?;
        let mut groups = [MoveGroup {
            kind: GroupKind::Place,
            cells: 0,
        }; 2];
        let mut len = 0;
        self.pos.for_each_group(&[], |group| {
            groups[len] = group;
            len += 1;
            len == groups.len()
        });
        // (An unused slot has no cells, so no moves.)
        let counts = groups.map(|g| g.count());
        let total = counts[0] + counts[1];
        if total == 0 {
            return Some(Move::Pass);
        }
        let n = rng.below(total);
        Some(if n < counts[0] {
            groups[0].nth(n)
        } else {
            groups[1].nth(n - counts[0])
        })
    }

    /// Plays a uniformly random legal move for the player to move, skipping the legality check (the
    /// move comes from the legal ones); the fast path of self-play and search rollouts. Returns the
    /// move, or `None` once the game is over.
    pub fn play_random(&mut self, rng: &mut GameRng, events: &mut Events) -> Option<Move> {
        let mv = self.random_move(rng)?;
        events.clear();
        let seat = self.pos.to_move;
        self.apply(seat, mv, events);
        Some(mv)
    }

    /// Checks a move without changing anything.
    pub fn check(&self, seat: Seat, mv: Move) -> Result<(), PlayError> {
        self.pos.check(seat, self.hand(seat), mv)
    }

    /// Makes a move for `seat`. On error nothing changes.
    pub fn play(&mut self, seat: Seat, mv: Move) -> Result<Events, PlayError> {
        self.check(seat, mv)?;
        let mut events = Events::new();
        self.apply(seat, mv, &mut events);
        Ok(events)
    }

    /// Makes a move that has passed [`Game::check`].
    fn apply(&mut self, seat: Seat, mv: Move, events: &mut Events) {
        let team = self.pos.team_of(seat);
        self.pos.plies += 1;
        match mv {
            Move::Exchange { card } => {
                self.hands[usize::from(seat)].remove(card);
                self.discard.push(card);
                self.pos.exchanged = true;
                let _ = events.try_push(Event::Exchanged { seat, card });
                self.draw_card(seat, events);
                return;
            }
            Move::Pass => {
                let _ = events.try_push(Event::Passed { seat });
                self.pos.passes += 1;
                // A round of passes blocks a card game for good; in dice the next roll may well play
                // (an 11 always can while an opponent chip or an empty cell is left), so it is no draw.
                if self.pos.passes >= self.pos.config.players && self.pos.config.variant.has_cards()
                {
                    self.pos.finish_blocked(events);
                } else {
                    self.end_turn(false, events);
                }
                return;
            }
            Move::Play { card, cell } => {
                self.hands[usize::from(seat)].remove(card);
                self.discard.push(card);
                if card.effect() == CardEffect::Remove {
                    let victim = self.pos.owner(cell).unwrap_or(0);
                    self.pos.remove_chip(cell, events);
                    self.record_removal(seat, victim, Some(card), cell, events);
                } else {
                    self.place(seat, team, Some(card), cell, events);
                }
                if !self.pos.is_over() {
                    self.draw_card(seat, events);
                }
            }
            Move::Place { cell } => self.place(seat, team, None, cell, events),
            Move::Remove { cell } => {
                let victim = self.pos.owner(cell).unwrap_or(0);
                self.pos.remove_chip(cell, events);
                self.record_removal(seat, victim, None, cell, events);
            }
        }
        self.pos.passes = 0;
        if !self.pos.is_over() {
            let again = self.pos.config.variant == Variant::Dice
                && matches!(self.pos.roll_sum(), Some(2 | 12));
            self.end_turn(again, events);
        }
    }

    fn record_removal(
        &mut self,
        seat: Seat,
        team: Team,
        card: Option<Card>,
        cell: Cell,
        events: &mut Events,
    ) {
        let _ = events.try_push(Event::Removed {
            seat,
            team,
            card,
            cell,
        });
        self.pos.last = Some(LastAction {
            seat,
            cell,
            removed: true,
            card,
        });
    }

    fn place(
        &mut self,
        seat: Seat,
        team: Team,
        card: Option<Card>,
        cell: Cell,
        events: &mut Events,
    ) {
        let replaced = if self.pos.occupied() & cell.bit() != 0 {
            self.pos.owner(cell)
        } else {
            None
        };
        self.pos.place_chip(team, cell);
        let _ = events.try_push(Event::Placed {
            seat,
            team,
            card,
            cell,
            replaced,
        });
        self.pos.last = Some(LastAction {
            seat,
            cell,
            removed: false,
            card,
        });
        if self.pos.config.options.capture_pairs {
            self.pos.capture_pairs(team, cell, events);
        }
        let before = self.pos.sequences.len();
        self.pos.detect_sequences(team, cell, events);
        let scored =
            self.pos.config.is_king_of_the_board() && self.pos.score_sequences(before, events);
        self.pos.check_win(team, events);
        if scored && !self.pos.is_over() {
            if let Some(from) = self.pos.zone {
                let to = self.next_zone_centre();
                self.pos.zone = Some(to);
                let _ = events.try_push(Event::ZoneMoved { from, to });
            }
        }
    }

    fn draw_card(&mut self, seat: Seat, events: &mut Events) {
        if self.draw.len == 0 && !self.pos.config.options.scoring && self.discard.len > 0 {
            self.draw = self.discard;
            self.discard = Pile::EMPTY;
            let n = usize::from(self.draw.len);
            self.rng.shuffle(&mut self.draw.cards[..n]);
            let _ = events.try_push(Event::Reshuffled);
        }
        if let Some(card) = self.draw.pop() {
            self.hands[usize::from(seat)].push(card);
            let _ = events.try_push(Event::Drew { seat });
        }
    }

    fn end_turn(&mut self, same_player_again: bool, events: &mut Events) {
        self.pos.exchanged = false;
        if !same_player_again {
            // (No division: this runs once a move.)
            let next = self.pos.to_move + 1;
            self.pos.to_move = if next >= self.pos.config.players {
                0
            } else {
                next
            };
            if self.pos.to_move == 0 {
                if let Some(team) = self.pos.pending_win {
                    self.pos.finish(Status::Won(team), events);
                    return;
                }
            }
        }
        if self.pos.config.variant == Variant::Dice {
            if self.rolls_on_demand {
                self.pos.roll = None;
            } else {
                self.roll_dice(events);
            }
        }
    }

    fn roll_dice(&mut self, events: &mut Events) {
        let dice = match self.rolls.get(self.next_roll) {
            Some(&r) => r,
            None => {
                let r = [self.rng.die(), self.rng.die()];
                self.rolls.push(r);
                r
            }
        };
        self.next_roll += 1;
        self.pos.roll = Some(dice);
        let _ = events.try_push(Event::Rolled {
            seat: self.pos.to_move,
            dice,
        });
    }

    /// Every card in the game (hands, draw and discard piles), for conservation checks.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut cards: Vec<Card> = self.discard.as_slice().to_vec();
        cards.extend_from_slice(self.draw.as_slice());
        for seat in 0..self.pos.config.players {
            cards.extend_from_slice(self.hand(seat));
        }
        cards
    }

    /// A game consistent with what `view` shows, with the unseen cards dealt at random: the other hands
    /// and the draw pile are a guess, never the real ones (for search-based computer players).
    pub fn sample_from_view(view: &View, rng: &mut GameRng) -> Game {
        let mut unseen = Game::unseen_cards(view);
        rng.shuffle(&mut unseen);
        Game::deal_from_view(view, unseen, rng)
    }

    /// The cards `view`'s seat cannot see: the full deck but its hand and the discard pile.
    pub fn unseen_cards(view: &View) -> Vec<Card> {
        let mut unseen = full_deck(view.position.config.variant);
        for card in view.hand.iter().chain(&view.discard) {
            if let Some(i) = unseen.iter().position(|c| c == card) {
                unseen.swap_remove(i);
            }
        }
        unseen
    }

    /// A game that fits `view`, with the unseen cards dealt from `unseen` (an arrangement of
    /// [`Game::unseen_cards`]): the other seats take their hands from its end in seat order, the rest is
    /// the draw pile. Lets a player deal what it has inferred instead of dealing at random.
    pub fn deal_from_view(view: &View, mut unseen: Vec<Card>, rng: &mut GameRng) -> Game {
        let config = view.position.config;
        let mut hands = [Hand::EMPTY; MAX_SEATS];
        for (seat, hand) in hands
            .iter_mut()
            .enumerate()
            .take(usize::from(config.players))
        {
            if Some(seat as Seat) == view.seat {
                for &card in &view.hand {
                    hand.push(card);
                }
            } else {
                for _ in 0..view.hand_sizes.get(seat).copied().unwrap_or(0) {
                    if let Some(card) = unseen.pop() {
                        hand.push(card);
                    }
                }
            }
        }
        let mut draw = Pile::EMPTY;
        for card in unseen {
            draw.push(card);
        }
        let mut discard = Pile::EMPTY;
        for &card in &view.discard {
            discard.push(card);
        }
        // One draw from `rng`, as before there were zones: a sampled game's stream stays the same.
        let play_seed = rng.next_u64();
        Game {
            // The zones to come are unknown: a guess, like the cards.
            zones: Vec::new(),
            next_zone: 0,
            zone_rng: zone_rng(play_seed),
            pos: view.position.clone(),
            hands,
            draw,
            discard,
            initial_deck: Pile::EMPTY,
            rng: GameRng::new(play_seed),
            rolls: Vec::new(),
            next_roll: 0,
            seed: 0,
            rolls_on_demand: false,
        }
    }
}

#[cfg(test)]
impl Game {
    /// Test set-up: puts a chip directly (no card, no turn, no sequence check).
    pub(crate) fn put_chip(&mut self, team: Team, cell: Cell) {
        self.pos.place_chip(team, cell);
    }

    /// Test set-up: empties the draw pile into the discard pile.
    pub(crate) fn move_draw_to_discard(&mut self) {
        while let Some(card) = self.draw.pop() {
            self.discard.push(card);
        }
    }
}

/// What one seat (or, with `seat: None`, everyone) may know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Whose view, `None` for the public one.
    pub seat: Option<Seat>,
    /// The public position.
    pub position: Position,
    /// The seat's own hand (empty in the public view).
    pub hand: Vec<Card>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// Cards left to draw.
    pub draw_pile: usize,
    /// The discard pile, bottom first.
    pub discard: Vec<Card>,
}

impl View {
    /// Whether this seat is the one to move.
    pub fn is_my_turn(&self) -> bool {
        self.seat == Some(self.position.to_move) && !self.position.is_over()
    }

    /// The seat's legal moves (empty when it is not this seat's turn).
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.is_my_turn() {
            self.position.legal_moves(&self.hand, out);
        }
    }

    /// The seat's legal move groups (empty when it is not this seat's turn).
    pub fn move_groups(&self) -> MoveGroups {
        if self.is_my_turn() {
            self.position.move_groups(&self.hand)
        } else {
            MoveGroups::new()
        }
    }

    /// The seat's team.
    pub fn team(&self) -> Option<Team> {
        self.seat.map(|s| self.position.config.team_of(s))
    }

    /// Cells where the seat could play `card` now (whoever's turn it is).
    pub fn targets(&self, card: Card) -> Bits {
        self.team()
            .map_or(0, |team| self.position.card_targets(team, card))
    }

    /// Cells of the board showing `card`.
    pub fn cells_of(&self, card: Card) -> impl Iterator<Item = Cell> {
        BitIter(self.position.layout.cells_of_card(card))
    }

    /// The label of a cell.
    pub fn label(&self, cell: Cell) -> Label {
        self.position.layout.label(cell)
    }
}
