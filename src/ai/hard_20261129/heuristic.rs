//! The line-potential heuristic as `hard` used it on 2026-11-29 (a frozen copy of `ai::heuristic`, for the
//! baseline [`super`]; `medium` plays the live one).
//!
//! Every window of `line_length` cells is worth something to a team while no other team has a chip in it:
//! steeply more the fewer cells it lacks, and a completed new sequence most. A move is scored by how much
//! it changes the mover's windows minus (weighted) the opponents' windows, so blocking an opponent's four
//! counts as much as the four was worth to them. Jacks (and the kids' unicorn and dragon) cost something
//! to use, so they are kept for when they matter.

use arrayvec::ArrayVec;

use crate::ai::windows::Windows;
use crate::engine::zone::ZONE_POINTS;
use crate::engine::{
    BitIter, Bits, Card, CardEffect, Cell, GroupKind, Move, MoveGroups, Position, Team,
};

/// Score of a move that wins the game.
pub const WIN: i32 = 1_000_000;

/// Most teams in a game.
const TEAMS: usize = 4;

/// The weights of the heuristic (in hundredths where it says so).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Value of an open window by the number of cells it still lacks (index 1..=6; 0 unused).
    pub missing: [i32; 7],
    /// Value of a completed sequence.
    pub sequence: i32,
    /// How much an opponent's window counts against the mover, in percent of an own window.
    pub defence: i32,
    /// Cost of spending a wild card (two-eyed jack, unicorn).
    pub wild_cost: i32,
    /// Cost of spending a removing card (one-eyed jack, dragon).
    pub remove_cost: i32,
    /// How much the cells a hand can fill count when scoring with the hand, in percent.
    pub hand: i32,
    /// King of the Board zone knowledge: what a window touching the zone (its sequence would score 2
    /// points) is worth to build and to block, in percent of another window; standings then count points,
    /// and a move wins when its sequences bring the mover's points to the target. 0 turns the knowledge
    /// off: a King of the Board game is then scored like a classic one. Other games are the same either
    /// way.
    pub zone: i32,
}

impl Weights {
    /// The weights the `medium` player uses.
    pub const DEFAULT: Weights = Weights {
        missing: [0, 120, 24, 6, 1, 0, 0],
        sequence: 700,
        defence: 110,
        wild_cost: 90,
        remove_cost: 90,
        hand: 100,
        zone: 200,
    };

    /// [`Weights::DEFAULT`] without the King of the Board zone knowledge (for comparisons).
    pub const NO_ZONE: Weights = Weights {
        zone: 0,
        ..Weights::DEFAULT
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// A position prepared for scoring moves of one team.
pub struct Scorer<'a> {
    pos: &'a Position,
    windows: &'static Windows,
    weights: Weights,
    chips: [Bits; TEAMS],
    corners: Bits,
    teams: usize,
    len: u32,
    seqs: [ArrayVec<Bits, 8>; TEAMS],
    seq_count: [u32; TEAMS],
    to_win: u32,
    scoring: bool,
    /// The zone's cells when the zone knowledge applies (a King of the Board game with `weights.zone`).
    zone: Bits,
    /// Whether the zone knowledge applies: the race is for points.
    kotb: bool,
    /// Points per team (King of the Board, with the zone knowledge).
    points: [u32; TEAMS],
    /// Window values by missing cells and how many of them the hand can fill.
    hand_values: [[i32; 7]; 7],
}

impl<'a> Scorer<'a> {
    /// Prepares `pos` for scoring.
    pub fn new(pos: &'a Position, weights: Weights) -> Scorer<'a> {
        let config = pos.config();
        let len = config.line_length();
        let mut seqs: [ArrayVec<Bits, 8>; TEAMS] = Default::default();
        let mut seq_count = [0; TEAMS];
        for s in pos.sequences() {
            let t = usize::from(s.team).min(TEAMS - 1);
            let _ = seqs[t].try_push(s.mask);
            seq_count[t] += 1;
        }
        let mut chips = [0; TEAMS];
        for (t, c) in chips.iter_mut().enumerate().take(usize::from(config.teams)) {
            *c = pos.chips(t as Team);
        }
        let kotb = weights.zone > 0 && config.is_king_of_the_board();
        let mut points = [0; TEAMS];
        if kotb {
            for (t, p) in points
                .iter_mut()
                .enumerate()
                .take(usize::from(config.teams))
            {
                *p = u32::from(pos.points(t as Team));
            }
        }
        Scorer {
            pos,
            windows: Windows::of(config.variant, len),
            weights,
            chips,
            corners: if config.has_free_corners() {
                pos.layout().corners
            } else {
                0
            },
            teams: usize::from(config.teams).min(TEAMS),
            len: u32::from(len),
            seqs,
            seq_count,
            to_win: if kotb {
                u32::from(pos.target())
            } else {
                u32::from(config.sequences_to_win())
            },
            scoring: config.options.scoring,
            zone: if kotb { pos.zone_cells() } else { 0 },
            kotb,
            points,
            hand_values: hand_values(&weights),
        }
    }

    /// Whether window `w` can no longer make a new sequence for team `t` (it shares two cells with one).
    #[inline]
    fn is_dead(&self, t: usize, w: Bits) -> bool {
        self.seqs[t].iter().any(|s| (s & w).count_ones() >= 2)
    }

    /// Value of window `w` to team `t` with the given chips.
    #[inline]
    fn value(&self, w: Bits, chips: &[Bits; TEAMS], t: usize) -> i32 {
        self.value_of(w, chips[t], others_of(chips, self.teams, t), t)
    }

    /// Value of window `w` to team `t` whose chips are `own`, the other teams' being `others`.
    #[inline]
    fn value_of(&self, w: Bits, own: Bits, others: Bits, t: usize) -> i32 {
        if w & others != 0 {
            return 0;
        }
        let k = (w & (own | self.corners)).count_ones();
        if k == 0 {
            return 0;
        }
        if self.is_dead(t, w) {
            return 0;
        }
        let missing = self.len.saturating_sub(k) as usize;
        let v = if missing == 0 {
            self.weights.sequence
        } else {
            self.weights.missing.get(missing).copied().unwrap_or(0)
        };
        self.in_zone(w, v)
    }

    /// A window's value `v` counted as the zone knowledge says: `weights.zone` percent for a window
    /// touching the zone.
    #[inline]
    fn in_zone(&self, w: Bits, v: i32) -> i32 {
        if w & self.zone != 0 {
            v * self.weights.zone / 100
        } else {
            v
        }
    }

    /// The points a window's sequence would score now: 2 touching the zone, else 1.
    #[inline]
    fn points_of(&self, w: Bits) -> u32 {
        if w & self.zone != 0 {
            u32::from(ZONE_POINTS)
        } else {
            1
        }
    }

    /// What the hand adds to window `w` of plain value `plain` (its [`Scorer::value`]) when the cells
    /// `occupied` hold chips: each missing cell that `fill` or one of `wilds` can take moves the window
    /// half-way (geometrically) towards the value of a window one chip longer.
    #[inline]
    fn hand_gain(&self, w: Bits, occupied: Bits, fill: Bits, wilds: u32, plain: i32) -> i32 {
        if plain == 0 {
            return 0;
        }
        let open = w & !occupied & !self.corners;
        let missing = open.count_ones() as usize;
        if missing == 0 || missing >= 7 {
            return 0;
        }
        let fillable = ((open & fill).count_ones() + wilds).min(missing as u32) as usize;
        self.in_zone(w, self.hand_values[missing][fillable]) - plain
    }

    /// [`Scorer::score`] plus how the move changes what the mover's own `hand` can still fill: a card
    /// played where it builds a line the rest of the hand can finish scores more, one that spends the
    /// card another line needed scores less. Only plain cards get this; jacks keep their fixed costs.
    pub fn score_with_hand(&self, mover: Team, mv: Move, hand: &[Card]) -> i32 {
        let base = self.score(mover, mv);
        let Move::Play { card, cell } = mv else {
            return base;
        };
        if base >= WIN / 2 || card.effect() != CardEffect::Cells || self.weights.hand == 0 {
            return base;
        }
        let t = usize::from(mover).min(TEAMS - 1);
        let layout = self.pos.layout();
        let (fill_before, fill_after, wilds) = self.hand_fills(card, cell, hand);
        let mut after = self.chips;
        after[t] |= cell.bit();
        let mut extra = 0;
        let mut seen: Bits = 0;
        // Only the mover's chips change: the other teams' stay `others`.
        let others = others_of(&self.chips, self.teams, t);
        let occupied = self.chips.iter().take(self.teams).fold(0, |a, &c| a | c);
        let occupied_after = occupied | cell.bit();
        for c in BitIter(layout.cells_of_card(card)) {
            for &w in self.windows.through(c) {
                if w & seen != 0 {
                    continue;
                }
                let plain = self.value_of(w, self.chips[t], others, t);
                let before = self.hand_gain(w, occupied, fill_before, wilds, plain);
                let plain = self.value_of(w, after[t], others, t);
                let now = self.hand_gain(w, occupied_after, fill_after, wilds, plain);
                extra += now - before;
            }
            seen |= c.bit();
        }
        base + extra * self.weights.hand / 100
    }

    /// What `hand` can fill before and after `card` is played on `cell`: the empty cells of its plain
    /// cards (before; after, without the card played and without `cell`), and its wild cards.
    fn hand_fills(&self, card: Card, cell: Cell, hand: &[Card]) -> (Bits, Bits, u32) {
        let layout = self.pos.layout();
        let empty = self.pos.empty();
        let (mut fill_before, mut fill_after, mut wilds, mut spent) = (0, 0, 0, false);
        for &c in hand {
            match c.effect() {
                CardEffect::Cells => {
                    let targets = layout.cells_of_card(c) & empty;
                    fill_before |= targets;
                    if c == card && !spent {
                        spent = true;
                    } else {
                        fill_after |= targets;
                    }
                }
                CardEffect::Wild => wilds += 1,
                CardEffect::Remove => {}
            }
        }
        (fill_before, fill_after & !cell.bit(), wilds)
    }

    /// Change of the mover's score when `cell` comes to hold `new` (a team's chip, or none).
    pub fn delta(&self, mover: Team, cell: Cell, new: Option<Team>) -> i32 {
        let mover = usize::from(mover);
        let bit = cell.bit();
        let mut after = self.chips;
        for c in &mut after {
            *c &= !bit;
        }
        if let Some(t) = new {
            if let Some(c) = after.get_mut(usize::from(t)) {
                *c |= bit;
            }
        }
        let mut own = 0;
        let mut theirs = 0;
        let mut completed: ArrayVec<Bits, 8> = ArrayVec::new();
        let mut others_before = [0; TEAMS];
        let mut others_after = [0; TEAMS];
        for t in 0..self.teams {
            others_before[t] = others_of(&self.chips, self.teams, t);
            others_after[t] = others_of(&after, self.teams, t);
        }
        for &w in self.windows.through(cell) {
            for t in 0..self.teams {
                let before = self.value_of(w, self.chips[t], others_before[t], t);
                let now = self.value_of(w, after[t], others_after[t], t);
                if t == mover {
                    own += now - before;
                    if new == Some(mover as Team)
                        && (w & (after[t] | self.corners)).count_ones() == self.len
                        && now > 0
                    {
                        let _ = completed.try_push(w);
                    }
                } else {
                    theirs += now - before;
                }
            }
        }
        if !completed.is_empty() && self.kotb {
            if self.points[mover] + self.points_made(&completed) >= self.to_win {
                return WIN;
            }
        } else if !completed.is_empty() && !self.scoring {
            // Sequences the placement completes, counted as the engine would (sharing one cell at most).
            let mut made = 1;
            'outer: for (i, &a) in completed.iter().enumerate() {
                for &b in &completed[i + 1..] {
                    if (a & b).count_ones() <= 1 {
                        made = 2;
                        break 'outer;
                    }
                }
            }
            if self.seq_count[mover] + made >= self.to_win {
                return WIN;
            }
        }
        own - theirs * self.weights.defence / 100
    }

    /// King of the Board: the points the sequences a placement completes (`completed`: the windows it
    /// fills) score, counted as the engine would at the least: per direction one sequence, or two when two
    /// of its windows share one cell at most, each worth the fewest points of that direction's windows.
    fn points_made(&self, completed: &[Bits]) -> u32 {
        // A window's direction on the classic board: the step between its first two cells.
        let step = |w: Bits| {
            let first = w.trailing_zeros();
            (w & !(1 << first)).trailing_zeros() - first
        };
        let mut total = 0;
        let mut done: ArrayVec<u32, 4> = ArrayVec::new();
        for &w in completed {
            let d = step(w);
            if done.contains(&d) {
                continue;
            }
            let _ = done.try_push(d);
            let same: ArrayVec<Bits, 8> = completed
                .iter()
                .copied()
                .filter(|&x| step(x) == d)
                .collect();
            let each = same.iter().map(|&x| self.points_of(x)).min().unwrap_or(1);
            let two = same
                .iter()
                .enumerate()
                .any(|(i, &a)| same[i + 1..].iter().any(|&b| (a & b).count_ones() <= 1));
            total += each * if two { 2 } else { 1 };
        }
        total
    }

    /// The score of a legal move for the player to move (higher is better), card costs included.
    pub fn score(&self, mover: Team, mv: Move) -> i32 {
        match mv {
            Move::Play { card, cell } => match card.effect() {
                CardEffect::Remove => self.delta(mover, cell, None) - self.weights.remove_cost,
                CardEffect::Wild => {
                    let d = self.delta(mover, cell, Some(mover));
                    if d >= WIN {
                        d
                    } else {
                        d - self.weights.wild_cost
                    }
                }
                CardEffect::Cells => self.delta(mover, cell, Some(mover)),
            },
            Move::Place { cell } => self.delta(mover, cell, Some(mover)),
            Move::Remove { cell } => self.delta(mover, cell, None),
            // Exchanging a dead card is always worth it; passing is all there is when it is legal.
            Move::Exchange { .. } => WIN / 2,
            Move::Pass => 0,
        }
    }

    /// Each team's standing: its windows and sequences (a finished game is decided elsewhere).
    pub fn standings(&self) -> [i32; TEAMS] {
        let mut out = [0; TEAMS];
        for &w in &self.windows.all {
            for (t, o) in out.iter_mut().enumerate().take(self.teams) {
                *o += self.value(w, &self.chips, t);
            }
        }
        for (t, o) in out.iter_mut().enumerate().take(self.teams) {
            *o += self.done(t);
        }
        out
    }

    /// What team `t` has already made: its sequences, or its points when the race is for points.
    #[inline]
    fn done(&self, t: usize) -> i32 {
        if self.kotb {
            self.points[t] as i32 * self.weights.sequence
        } else {
            self.seq_count[t] as i32 * self.weights.sequence
        }
    }

    /// Standings that also count what the hands can do: `fill[t]` are the empty cells team `t` can take
    /// with the specific cards its players hold and `wilds[t]` its wild cards (each fills one cell). A
    /// missing cell the team can fill counts as half filled, so a line it can finish from its hands is worth
    /// nearly what a line one chip longer is; the team about to move gets its best such line almost whole.
    pub fn standings_with_hands(
        &self,
        fill: &[Bits; TEAMS],
        wilds: &[u32; TEAMS],
        to_move: usize,
    ) -> [i32; TEAMS] {
        let mut out = [0; TEAMS];
        let empty = self.pos.empty();
        let mut best_finish = [0; TEAMS];
        for &w in &self.windows.all {
            let open = w & empty;
            let occupied = w & !open & !self.corners;
            for t in 0..self.teams {
                if occupied & !self.chips[t] != 0 {
                    continue;
                }
                let missing = open.count_ones();
                if missing == 0 || missing as usize >= self.weights.missing.len() {
                    continue;
                }
                let k = (w & (self.chips[t] | self.corners)).count_ones();
                if k == 0 || self.is_dead(t, w) {
                    continue;
                }
                let fillable = ((open & fill[t]).count_ones() + wilds[t]).min(missing);
                let m = missing as usize;
                let base = self.weights.missing[m];
                let next = if m == 1 {
                    self.weights.sequence
                } else {
                    self.weights.missing[m - 1]
                };
                // Geometric steps: each fillable cell moves the value half-way (in log terms) to the next.
                let mut value = f64::from(base.max(1));
                let ratio = (f64::from(next.max(1)) / f64::from(base.max(1))).sqrt();
                for _ in 0..fillable {
                    value *= ratio;
                }
                let value = if base == 0 && fillable == 0 {
                    0
                } else {
                    self.in_zone(w, value as i32)
                };
                out[t] += value;
                if fillable == missing {
                    best_finish[t] = best_finish[t].max(missing);
                    if missing == 1 && t == to_move {
                        best_finish[t] = u32::MAX;
                    }
                }
            }
        }
        for t in 0..self.teams {
            out[t] += self.done(t);
            if best_finish[t] == u32::MAX {
                // It completes a sequence with its next move.
                out[t] += self.weights.sequence / 2;
            }
        }
        out
    }

    /// Empty cells that would complete a sequence for team `t` now: the last cell of an open line, among
    /// lines that do not touch `exclude`.
    pub fn finishing_cells(&self, t: Team, exclude: Bits) -> Bits {
        let t = usize::from(t);
        if t >= self.teams {
            return 0;
        }
        let empty = self.pos.empty();
        let mut out = 0;
        for &w in &self.windows.all {
            let open = w & empty;
            if open.count_ones() != 1 || w & exclude != 0 {
                continue;
            }
            let occupied = w & !open & !self.corners;
            if occupied & !self.chips[t] == 0 && !self.is_dead(t, w) {
                out |= open;
            }
        }
        out
    }

    /// Cells that matter now: empty cells of open windows that lack at most two cells for some team.
    pub fn hot_cells(&self) -> Bits {
        let empty = self.pos.empty();
        let mut hot = 0;
        for &w in &self.windows.all {
            let open = w & empty;
            if open == 0 || open.count_ones() > 2 {
                continue;
            }
            let occupied = w & !open & !self.corners;
            if (0..self.teams).any(|t| occupied & !self.chips[t] == 0) {
                hot |= open;
            }
        }
        hot
    }

    /// The position being scored.
    pub fn position(&self) -> &Position {
        self.pos
    }
}

/// The union of the chips of every team but `t` (of the first `teams`).
#[inline]
fn others_of(chips: &[Bits; TEAMS], teams: usize, t: usize) -> Bits {
    let mut others = 0;
    for (u, &c) in chips.iter().enumerate().take(teams) {
        if u != t {
            others |= c;
        }
    }
    others
}

/// The table behind [`Scorer::hand_gain`].
fn hand_values(weights: &Weights) -> [[i32; 7]; 7] {
    let mut table = [[0; 7]; 7];
    for (m, row) in table.iter_mut().enumerate().skip(1) {
        let base = weights.missing[m];
        let next = if m == 1 {
            weights.sequence
        } else {
            weights.missing[m - 1]
        };
        let ratio = (f64::from(next.max(1)) / f64::from(base.max(1))).sqrt();
        for (f, slot) in row.iter_mut().enumerate().take(m + 1) {
            *slot = if f == 0 {
                base
            } else {
                (f64::from(base.max(1)) * ratio.powi(f as i32)) as i32
            };
        }
    }
    table
}

/// A scored move.
pub type Scored = (Move, i32);

/// Scores every legal move in `groups` for the player to move (with its `hand` when given, see
/// [`Scorer::score_with_hand`]). With `fast`, wild cards are tried only on hot cells (and removals only on
/// chips in hot windows) to keep rollouts cheap.
pub fn score_groups(
    scorer: &Scorer<'_>,
    mover: Team,
    groups: &MoveGroups,
    fast: bool,
    hand: Option<&[Card]>,
    out: &mut Vec<Scored>,
) {
    out.clear();
    let mut hot: Option<Bits> = None;
    for g in groups {
        let mut cells = g.cells;
        match g.kind {
            GroupKind::Exchange(card) => {
                out.push((Move::Exchange { card }, WIN / 2));
                continue;
            }
            GroupKind::Play(card) if fast && card.effect() != CardEffect::Cells => {
                let h = *hot.get_or_insert_with(|| scorer.hot_cells());
                if card.effect() == CardEffect::Wild {
                    cells &= h;
                } else {
                    cells &= near(scorer.pos, h);
                }
                if cells == 0 {
                    continue;
                }
            }
            _ => {}
        }
        for cell in BitIter(cells) {
            let mv = match g.kind {
                GroupKind::Play(card) => Move::Play { card, cell },
                GroupKind::Place => Move::Place { cell },
                GroupKind::Remove => Move::Remove { cell },
                GroupKind::Exchange(_) => continue,
            };
            let score = match hand {
                Some(hand) => scorer.score_with_hand(mover, mv, hand),
                None => scorer.score(mover, mv),
            };
            out.push((mv, score));
        }
    }
    if out.is_empty() {
        // Only filtered jacks were left: fall back to every move.
        if fast {
            score_groups(scorer, mover, groups, false, hand, out);
        } else {
            out.push((Move::Pass, 0));
        }
    }
}

/// Occupied cells in the windows through the hot cells (where a removal can matter).
fn near(pos: &Position, hot: Bits) -> Bits {
    let config = pos.config();
    let windows = Windows::of(config.variant, config.line_length());
    let mut out = 0;
    for cell in BitIter(hot) {
        for &w in windows.through(cell) {
            out |= w;
        }
    }
    out & pos.occupied()
}
