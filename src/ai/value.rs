//! A learned evaluation for two-team games: the chance that a team wins from a position whose hands are
//! known (a search's sampled deal), as a logistic model over line features. The weights were fitted to
//! the outcomes of `medium` self-play games (see `examples/fit_value.rs`). The search uses it when
//! [`Params::learned`](super::search::Params::learned) is set; it is off by default, as it measured no
//! better than the standings at 1 s a move.

use crate::engine::{Bits, CardEffect, Game, Team};

use super::windows::Windows;

/// Features per team.
const PER_TEAM: usize = 12;
/// Every feature: the team's, the opponent's, then whether the team is to move.
pub const FEATURES: usize = 2 * PER_TEAM + 1;

/// The features of `game` seen from team `me` (two teams): for each side its sequences, its live windows
/// by missing cells (1 to 4), the windows it can finish from its hand (missing 1 and 2), its distinct
/// finishing cells and those it can take now, its wild and removing cards, and its cards that still
/// have a cell; last, whether `me` is to move.
pub fn features(game: &Game, me: Team) -> [f32; FEATURES] {
    let pos = game.position();
    let config = pos.config();
    let len = u32::from(config.line_length());
    let windows = Windows::of(config.variant, config.line_length());
    let corners = if config.has_free_corners() {
        pos.layout().corners
    } else {
        0
    };
    let empty = pos.empty();
    let sides = [me, 1 - me.min(1)];
    let mut fill = [0 as Bits; 2];
    let mut wilds = [0u32; 2];
    let mut removes = [0u32; 2];
    let mut live_cards = [0u32; 2];
    for seat in 0..config.players {
        let team = config.team_of(seat);
        let Some(side) = sides.iter().position(|&t| t == team) else {
            continue;
        };
        for &card in game.hand(seat) {
            match card.effect() {
                CardEffect::Cells => {
                    let cells = pos.layout().cells_of_card(card) & empty;
                    fill[side] |= cells;
                    live_cards[side] += u32::from(cells != 0);
                }
                CardEffect::Wild => wilds[side] += 1,
                CardEffect::Remove => removes[side] += 1,
            }
        }
    }
    let mut out = [0f32; FEATURES];
    for (side, &team) in sides.iter().enumerate() {
        let own = pos.chips(team) | corners;
        let others = pos.occupied() & !pos.chips(team);
        let mut by_missing = [0u32; 5];
        let mut finishable = [0u32; 3];
        let mut finishing: Bits = 0;
        for &w in &windows.all {
            if w & others != 0 {
                continue;
            }
            let k = (w & own).count_ones();
            // A window sharing two cells with one of the team's sequences cannot make another.
            let dead = || {
                pos.sequences()
                    .iter()
                    .any(|s| s.team == team && (s.mask & w).count_ones() >= 2)
            };
            if k == 0 || k >= len || dead() {
                continue;
            }
            let missing = len - k;
            if missing <= 4 {
                by_missing[missing as usize] += 1;
            }
            let open = w & empty;
            if missing == 1 {
                finishing |= open;
            }
            if missing <= 2 && (open & fill[side]).count_ones() + wilds[side] >= missing {
                finishable[missing as usize] += 1;
            }
        }
        let f = &mut out[side * PER_TEAM..(side + 1) * PER_TEAM];
        f[0] = pos.sequence_count(team) as f32;
        f[1] = by_missing[1] as f32;
        f[2] = by_missing[2] as f32;
        f[3] = by_missing[3] as f32;
        f[4] = by_missing[4] as f32;
        f[5] = finishable[1] as f32;
        f[6] = finishable[2] as f32;
        f[7] = finishing.count_ones() as f32;
        f[8] = if wilds[side] > 0 {
            finishing.count_ones() as f32
        } else {
            (finishing & fill[side]).count_ones() as f32
        };
        f[9] = wilds[side] as f32;
        f[10] = removes[side] as f32;
        f[11] = live_cards[side] as f32;
    }
    out[FEATURES - 1] = f32::from(config.team_of(pos.to_move()) == me);
    out
}

/// The fitted weights (intercept last).
const WEIGHTS: [f32; FEATURES + 1] = [
    1.4329, 0.0544, 0.0646, 0.0229, 0.0080, 0.1433, 0.3667, 0.2196, 0.4955, 0.1680, 0.2101,
    -0.1292, -1.4340, -0.0533, -0.0645, -0.0228, -0.0081, -0.1379, -0.3637, -0.2185, -0.5034,
    -0.1629, -0.2054, 0.1347, 0.2988, -0.1915,
];

/// The chance that team `me` wins `game` (two teams, in progress), by the fitted model.
pub fn win_probability(game: &Game, me: Team) -> f64 {
    let x = features(game, me);
    let mut z = f64::from(WEIGHTS[FEATURES]);
    for (w, v) in WEIGHTS.iter().zip(&x) {
        z += f64::from(*w) * f64::from(*v);
    }
    1.0 / (1.0 + (-z).exp())
}
