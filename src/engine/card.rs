//! Cards of the classic and the kids game. One `Card` type serves both: classic cards use codes 0..52,
//! kids cards codes 64..85, so a card always knows how to print itself.

use std::fmt;

use super::variant::Variant;

/// A card. Classic: `rank * 4 + suit`; kids: `64 + animal`, then dragon and unicorn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub u8);

/// What playing a card does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardEffect {
    /// Place a chip on one of the card's own (empty) cells.
    Cells,
    /// Place a chip on any empty cell that is not a free corner (two-eyed jack, unicorn).
    Wild,
    /// Remove one opponent chip (one-eyed jack, dragon).
    Remove,
}

/// The effect of every card code, computed once at compile time.
const EFFECTS: [CardEffect; 128] = {
    let mut table = [CardEffect::Cells; 128];
    let mut code = 0;
    while code < 128 {
        table[code] = Card(code as u8).compute_effect();
        code += 1;
    }
    table
};

/// [`Card::group_key`] of every card code.
const GROUP_KEYS: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut code = 0;
    while code < 128 {
        table[code] = match EFFECTS[code] {
            CardEffect::Cells => (code & 63) as u8,
            CardEffect::Wild => 62,
            CardEffect::Remove => 63,
        };
        code += 1;
    }
    table
};

/// Ranks in order; `T` is ten.
pub const RANKS: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];
/// Suits: spades, hearts, diamonds, clubs.
pub const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];
const SUIT_SYMBOLS: [char; 4] = ['♠', '♥', '♦', '♣'];
const JACK: u8 = 9;
const KIDS_BASE: u8 = 64;

/// The kids game's animals, then its two special cards: English, German, Norwegian names.
pub const KIDS_NAMES: [[&str; 3]; 21] = [
    ["lion", "löwe", "løve"],
    ["zebra", "zebra", "sebra"],
    ["giraffe", "giraffe", "sjiraff"],
    ["elephant", "elefant", "elefant"],
    ["monkey", "affe", "ape"],
    ["panda", "panda", "panda"],
    ["frog", "frosch", "frosk"],
    ["owl", "eule", "ugle"],
    ["turtle", "schildkröte", "skilpadde"],
    ["rabbit", "hase", "kanin"],
    ["penguin", "pinguin", "pingvin"],
    ["fox", "fuchs", "rev"],
    ["whale", "wal", "hval"],
    ["bear", "bär", "bjørn"],
    ["hippo", "nilpferd", "flodhest"],
    ["kangaroo", "känguru", "kenguru"],
    ["ostrich", "strauß", "struts"],
    ["gorilla", "gorilla", "gorilla"],
    ["crocodile", "krokodil", "krokodille"],
    ["dragon", "drache", "drage"],
    ["unicorn", "einhorn", "enhjørning"],
];
/// Number of animals on the kids board.
pub const KIDS_ANIMALS: u8 = 19;
/// The kids dragon (removes a chip).
pub const DRAGON: Card = Card(KIDS_BASE + KIDS_ANIMALS);
/// The kids unicorn (wild).
pub const UNICORN: Card = Card(KIDS_BASE + KIDS_ANIMALS + 1);

impl Card {
    /// A classic card from rank index (0 = `2` … 12 = `A`) and suit index (S H D C).
    pub const fn classic(rank: u8, suit: u8) -> Card {
        Card(rank * 4 + suit)
    }

    /// A kids card from its index in [`KIDS_NAMES`].
    pub const fn kids(index: u8) -> Card {
        Card(KIDS_BASE + index)
    }

    /// Whether this is a kids card.
    pub const fn is_kids(self) -> bool {
        self.0 >= KIDS_BASE
    }

    /// Rank index of a classic card.
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// Suit index of a classic card.
    pub const fn suit(self) -> u8 {
        self.0 % 4
    }

    /// Whether the card is red (hearts or diamonds); kids cards are never red.
    pub const fn is_red(self) -> bool {
        !self.is_kids() && (self.suit() == 1 || self.suit() == 2)
    }

    /// What playing this card does.
    #[inline]
    pub const fn effect(self) -> CardEffect {
        EFFECTS[(self.0 & 127) as usize]
    }

    /// A key below 64 shared by the cards that make the same moves: the low six bits of a plain card's
    /// code (a hand never mixes classic codes 0..52 and kids codes 64..85), 62 for every wild card and 63
    /// for every removing one.
    #[inline]
    pub(crate) const fn group_key(self) -> u8 {
        GROUP_KEYS[(self.0 & 127) as usize]
    }

    const fn compute_effect(self) -> CardEffect {
        if self.is_kids() {
            if self.0 == DRAGON.0 {
                CardEffect::Remove
            } else if self.0 == UNICORN.0 {
                CardEffect::Wild
            } else {
                CardEffect::Cells
            }
        } else if self.rank() == JACK {
            // Clubs and diamonds jacks show both eyes; spades and hearts jacks are drawn in profile.
            if self.suit() == 2 || self.suit() == 3 {
                CardEffect::Wild
            } else {
                CardEffect::Remove
            }
        } else {
            CardEffect::Cells
        }
    }

    /// Parses a card of the given variant: classic `7H`, `10h`, `7♥`; kids an animal name in English,
    /// German or Norwegian. Dice has no cards.
    pub fn parse(text: &str, variant: Variant) -> Option<Card> {
        let text = text.trim();
        match variant {
            Variant::Classic => parse_classic(text),
            Variant::Kids => {
                let lower = text.to_lowercase();
                KIDS_NAMES
                    .iter()
                    .position(|names| names.contains(&lower.as_str()))
                    .map(|i| Card::kids(i as u8))
            }
            Variant::Dice => None,
        }
    }

    /// The English name of a kids card (`lion`), or the classic code (`7H`).
    pub fn code(self) -> String {
        self.to_string()
    }

    /// A display with suit symbols for classic cards (`7♥`, `10♠`), the plain name for kids cards.
    pub fn pretty(self) -> String {
        if self.is_kids() {
            return self.to_string();
        }
        let rank = match RANKS[usize::from(self.rank())] {
            'T' => "10".to_string(),
            r => r.to_string(),
        };
        format!("{rank}{}", SUIT_SYMBOLS[usize::from(self.suit())])
    }
}

fn parse_classic(text: &str) -> Option<Card> {
    let upper = text.to_uppercase();
    let (rank_text, suit_char) = {
        let mut chars: Vec<char> = upper.chars().collect();
        let suit = chars.pop()?;
        (chars.into_iter().collect::<String>(), suit)
    };
    let rank = match rank_text.as_str() {
        "10" => 8,
        r if r.chars().count() == 1 => RANKS.iter().position(|&c| r.starts_with(c))?,
        _ => return None,
    };
    let suit = SUITS
        .iter()
        .position(|&c| c == suit_char)
        .or_else(|| SUIT_SYMBOLS.iter().position(|&c| c == suit_char))?;
    Some(Card::classic(rank as u8, suit as u8))
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_kids() {
            let name = KIDS_NAMES
                .get(usize::from(self.0 - KIDS_BASE))
                .map_or("?", |n| n[0]);
            f.write_str(name)
        } else {
            write!(
                f,
                "{}{}",
                RANKS[usize::from(self.rank() % 13)],
                SUITS[usize::from(self.suit())]
            )
        }
    }
}

/// The full deck of a card variant in canonical order (two of every card).
pub fn full_deck(variant: Variant) -> Vec<Card> {
    match variant {
        Variant::Classic => (0..52u8).flat_map(|c| [Card(c), Card(c)]).collect(),
        Variant::Kids => (0..21u8)
            .flat_map(|c| [Card::kids(c), Card::kids(c)])
            .collect(),
        Variant::Dice => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_parsing_accepts_every_notation() {
        let seven_hearts = Card::classic(5, 1);
        for text in ["7H", "7h", "7♥", " 7H "] {
            assert_eq!(
                Card::parse(text, Variant::Classic),
                Some(seven_hearts),
                "{text}"
            );
        }
        let ten_spades = Card::classic(8, 0);
        for text in ["TS", "10S", "10♠", "ts"] {
            assert_eq!(
                Card::parse(text, Variant::Classic),
                Some(ten_spades),
                "{text}"
            );
        }
        for text in ["", "1S", "7X", "JJ", "11H", "7", "H7"] {
            assert_eq!(Card::parse(text, Variant::Classic), None, "{text}");
        }
        assert_eq!(ten_spades.to_string(), "TS");
        assert_eq!(ten_spades.pretty(), "10♠");
        assert_eq!(Card::parse("7H", Variant::Dice), None);
    }

    #[test]
    fn jacks_have_the_right_effects() {
        let jack = |s| Card::parse(&format!("J{s}"), Variant::Classic).unwrap();
        assert_eq!(jack('C').effect(), CardEffect::Wild);
        assert_eq!(jack('D').effect(), CardEffect::Wild);
        assert_eq!(jack('S').effect(), CardEffect::Remove);
        assert_eq!(jack('H').effect(), CardEffect::Remove);
        assert_eq!(Card::classic(0, 0).effect(), CardEffect::Cells);
        assert_eq!(DRAGON.effect(), CardEffect::Remove);
        assert_eq!(UNICORN.effect(), CardEffect::Wild);
        assert_eq!(Card::kids(0).effect(), CardEffect::Cells);
    }

    #[test]
    fn kids_names_in_three_languages() {
        assert_eq!(Card::parse("Lion", Variant::Kids), Some(Card::kids(0)));
        assert_eq!(Card::parse("løve", Variant::Kids), Some(Card::kids(0)));
        assert_eq!(Card::parse("Löwe", Variant::Kids), Some(Card::kids(0)));
        assert_eq!(Card::parse("einhorn", Variant::Kids), Some(UNICORN));
        assert_eq!(Card::parse("drage", Variant::Kids), Some(DRAGON));
        assert_eq!(Card::parse("7H", Variant::Kids), None);
        assert_eq!(UNICORN.to_string(), "unicorn");
    }

    #[test]
    fn decks_have_two_of_each() {
        assert_eq!(full_deck(Variant::Classic).len(), 104);
        assert_eq!(full_deck(Variant::Kids).len(), 42);
        assert!(full_deck(Variant::Dice).is_empty());
    }
}
