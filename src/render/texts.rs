//! Every word drawn on an image, in one place so it can be translated. Templates use `{name}`-style
//! placeholders filled by [`fill`].

use crate::engine::Variant;

/// The words of one language.
#[derive(Clone, Copy, Debug)]
pub struct Texts {
    /// Team colour names of the classic and dice games (teams 0, 1, 2).
    pub classic_colours: [&'static str; 3],
    /// Colour names of the kids game (teams 0..4).
    pub kids_colours: [&'static str; 4],
    /// Fallback seat name: `{n}` is the seat number.
    pub seat: &'static str,
    /// `{name}`: whose turn it is.
    pub turn: &'static str,
    /// `{team}`: the winning colour.
    pub won: &'static str,
    /// The game ended without a winner.
    pub drawn: &'static str,
    /// `{n}`: cards left to draw.
    pub draw_pile: &'static str,
    /// `{have}`/`{need}`: a team's sequences and the target.
    pub sequences: &'static str,
    /// `{n}`: points in a scoring game.
    pub points: &'static str,
    /// `{n}`: captured pairs (capture_pairs option).
    pub pairs: &'static str,
    /// `{name}` placed a chip on `{cell}` with `{card}`.
    pub last_placed: &'static str,
    /// `{name}` removed the chip on `{cell}` with `{card}`.
    pub last_removed: &'static str,
    /// Dice: `{name}` placed on `{cell}` (no card).
    pub last_placed_dice: &'static str,
    /// Dice: `{name}` removed the chip on `{cell}` (no card).
    pub last_removed_dice: &'static str,
    /// Dice: the current roll, `{sum}`.
    pub roll: &'static str,
    /// Dice roll of 10.
    pub roll_ten: &'static str,
    /// Dice roll of 11.
    pub roll_eleven: &'static str,
    /// The free corner label.
    pub free: &'static str,
    /// Hand image title.
    pub your_hand: &'static str,
    /// Dice "hand" title: `{team}` is the seat's colour.
    pub you_play: &'static str,
    /// Hand image: it is the seat's turn.
    pub your_turn: &'static str,
    /// Hand image: `{name}` is another seat's turn (`name` is a seat label).
    pub waiting: &'static str,
    /// A card whose two cells are covered.
    pub dead: &'static str,
    /// Hint under a dead card.
    pub exchange_it: &'static str,
    /// A wild card's targets.
    pub any_empty: &'static str,
    /// A removing card's targets.
    pub any_opponent: &'static str,
    /// A removing card with nothing to remove.
    pub nothing_to_remove: &'static str,
    /// A card with no free cell and not dead (never happens, but said politely).
    pub no_cell: &'static str,
    /// Wild card caption.
    pub wild: &'static str,
    /// Remove card caption.
    pub remove: &'static str,
    /// The dice game has no hand.
    pub no_cards: &'static str,
    /// Dice hand: cells the roll allows, followed by a list.
    pub you_may: &'static str,
}

/// English, the default.
pub const ENGLISH: Texts = Texts {
    classic_colours: ["Blue", "Green", "Red"],
    kids_colours: ["Red", "Yellow", "Green", "Blue"],
    seat: "Seat {n}",
    turn: "{name} to play",
    won: "{team} wins!",
    drawn: "The game is drawn",
    draw_pile: "Draw pile: {n}",
    sequences: "{have}/{need}",
    points: "{n} pts",
    pairs: "{n} pairs",
    last_placed: "Last: {name} played {card} on {cell}",
    last_removed: "Last: {name} removed {cell} with {card}",
    last_placed_dice: "Last: {name} took {cell}",
    last_removed_dice: "Last: {name} removed {cell}",
    roll: "Roll: {sum}",
    roll_ten: "10: remove a chip",
    roll_eleven: "11: any empty cell",
    free: "FREE",
    your_hand: "Your hand",
    you_play: "You play {team}",
    your_turn: "Your turn",
    waiting: "Waiting for {name}",
    dead: "DEAD",
    exchange_it: "exchange it",
    any_empty: "any empty cell",
    any_opponent: "any open chip",
    nothing_to_remove: "nothing to remove",
    no_cell: "no free cell",
    wild: "WILD",
    remove: "REMOVE",
    no_cards: "Sequence Dice has no cards.",
    you_may: "You may take:",
};

impl Texts {
    /// The colour name of a team in a variant.
    pub fn team(&self, variant: Variant, team: u8) -> &'static str {
        let names: &[&'static str] = match variant {
            Variant::Kids => &self.kids_colours,
            _ => &self.classic_colours,
        };
        names.get(usize::from(team)).copied().unwrap_or("?")
    }

    /// The display name of a seat, falling back to "Seat N" (numbered from 1).
    pub fn seat_name(&self, seat_names: &[String], seat: u8) -> String {
        match seat_names.get(usize::from(seat)) {
            Some(name) if !name.trim().is_empty() => name.trim().to_string(),
            _ => fill(self.seat, &[("n", &(u32::from(seat) + 1).to_string())]),
        }
    }
}

/// Replaces each `{key}` of `template` by its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (key, value) in values {
        out = out.replace(&format!("{{{key}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_names_fall_back() {
        let names = vec!["Ada".to_string(), "  ".to_string()];
        assert_eq!(ENGLISH.seat_name(&names, 0), "Ada");
        assert_eq!(ENGLISH.seat_name(&names, 1), "Seat 2");
        assert_eq!(ENGLISH.seat_name(&names, 5), "Seat 6");
        assert_eq!(
            fill(ENGLISH.turn, &[("name", "Ada")]),
            "Ada to play".to_string()
        );
    }
}
