//! Autocomplete of a move's card and cell, from the asker's hand and the board.

use crate::engine::{BitIter, Card, CardEffect, GroupKind};
use crate::i18n::{tr_args, Args, Lang};

use crate::service::ids::UserId;
use crate::service::reply::Choice;
use crate::service::text::{card_label, TeamName};

use super::report::card_line;
use super::Table;

/// Autocomplete lists at most this many choices (Discord's limit).
pub(super) const MAX_CHOICES: usize = 25;

/// Discord's limit on a choice label.
pub(super) const MAX_LABEL: usize = 100;

impl Table {
    /// The caller's own cards (only dead ones with `dead_only`), matching what they typed.
    pub(in crate::service) fn complete_card(
        &self,
        user: UserId,
        typed: &str,
        dead_only: bool,
        lang: Lang,
    ) -> Vec<Choice> {
        let Some(playing) = self.playing() else {
            return Vec::new();
        };
        let Some(seat) = playing.seat_of(user) else {
            return Vec::new();
        };
        let game = playing.game();
        let typed = typed.trim().to_lowercase();
        let mut seen: Vec<Card> = Vec::new();
        let mut choices = Vec::new();
        for &card in game.hand(seat) {
            if seen.contains(&card) || (dead_only && !game.position().is_dead(card)) {
                continue;
            }
            seen.push(card);
            let code = card.to_string();
            let matches = typed.is_empty()
                || code.to_lowercase().starts_with(&typed)
                || card.pretty().to_lowercase().starts_with(&typed)
                || card_label(card, lang).to_lowercase().starts_with(&typed);
            if !matches {
                continue;
            }
            let line = card_line(game, seat, card).render(lang);
            let label: String = line.chars().take(MAX_LABEL).collect();
            choices.push(Choice { label, value: code });
        }
        choices.truncate(MAX_CHOICES);
        choices
    }

    /// The cells the caller may use with `card` (dice: for the current roll, once rolled).
    pub(in crate::service) fn complete_cell(
        &self,
        user: UserId,
        card: Option<&str>,
        typed: &str,
        lang: Lang,
    ) -> Vec<Choice> {
        let Some(playing) = self.playing() else {
            return Vec::new();
        };
        let Some(seat) = playing.seat_of(user) else {
            return Vec::new();
        };
        let game = playing.game();
        let pos = game.position();
        let config = game.config();
        let (cells, removing) = if config.variant.has_cards() {
            let Some(card) = card.and_then(|c| Card::parse(c, config.variant)) else {
                return Vec::new();
            };
            if !game.hand(seat).contains(&card) {
                return Vec::new();
            }
            (
                pos.card_targets(config.team_of(seat), card),
                card.effect() == CardEffect::Remove,
            )
        } else {
            if pos.to_move() != seat || !playing.rolled {
                return Vec::new();
            }
            let mut cells = 0;
            let mut removing = false;
            for group in game.move_groups() {
                cells |= group.cells;
                removing |= group.kind == GroupKind::Remove;
            }
            (cells, removing)
        };
        let typed = typed.trim().to_uppercase();
        let layout = pos.layout();
        BitIter(cells)
            .map(|cell| (cell, layout.cell_name(cell)))
            .filter(|(_, name)| name.starts_with(&typed))
            .take(MAX_CHOICES)
            .map(|(cell, name)| {
                let label = match pos.owner(cell) {
                    Some(team) => {
                        let key = if removing {
                            "complete-remove"
                        } else {
                            "complete-replace"
                        };
                        let team = TeamName::of(config.variant, team).render(lang);
                        let label = tr_args(
                            lang,
                            key,
                            &Args::new().text("cell", name.as_str()).text("team", team),
                        );
                        label.chars().take(MAX_LABEL).collect()
                    }
                    None => name.clone(),
                };
                Choice { label, value: name }
            })
            .collect()
    }
}
