//! Every word drawn on an image, in one place, from the translation files (`image-…` messages of
//! `assets/locales/*/sequence.ftl`). Templates use `{name}`-style placeholders filled by [`fill`].

use std::sync::OnceLock;

use crate::engine::card::KIDS_NAMES;
use crate::engine::{Card, Variant};
use crate::i18n::{Args, Lang, Tr};

/// Keeps a translated word for the life of the program: the words of each language are built once
/// (three languages, a few dozen words), so `Texts` stays a plain `Copy` table of `&'static str`.
fn keep(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// A message whose `$variables` are left as `{name}` placeholders for [`fill`].
fn template(tr: &mut Tr, key: &str, args: Args<'_>) -> &'static str {
    keep(tr.ta(key, &args))
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The longest seat name drawn, in characters: Discord's limit for user names, display names and
/// nicknames (docs.discord.com, "Usernames and Nicknames"). Longer names (from the console or
/// `render --names`) are cut with an ellipsis before any text is measured.
pub const MAX_NAME_CHARS: usize = 32;

/// `name` cut to at most [`MAX_NAME_CHARS`] characters, the last of them "…" when it was longer.
pub fn cap_name(name: &str) -> String {
    if name.char_indices().nth(MAX_NAME_CHARS).is_none() {
        return name.to_string();
    }
    // Room for the ellipsis: keep MAX_NAME_CHARS - 1 characters.
    let end = name
        .char_indices()
        .nth(MAX_NAME_CHARS - 1)
        .map_or(name.len(), |(at, _)| at);
    format!("{}…", name[..end].trim_end())
}

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
    /// `{have}`/`{need}`: a team's points and the target (`king_of_the_board`).
    pub points_of: &'static str,
    /// The tag on the King of the Board zone (what a sequence touching it scores).
    pub zone: &'static str,
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
    /// Names of the kids cards, in the order of `KIDS_NAMES` (19 animals, dragon, unicorn).
    pub animals: [&'static str; 21],
}

impl Texts {
    /// The words of `lang`, from its translation file (built once per language and kept).
    pub fn of(lang: Lang) -> &'static Texts {
        static ALL: OnceLock<[Texts; 3]> = OnceLock::new();
        let all = ALL.get_or_init(|| Lang::ALL.map(Texts::build));
        &all[lang.index()]
    }

    /// English.
    pub fn english() -> &'static Texts {
        Texts::of(Lang::En)
    }

    fn build(lang: Lang) -> Texts {
        let mut tr = Tr::new(lang);
        let texts = Texts::build_with(&mut tr);
        tr.finish();
        texts
    }

    fn build_with(tr: &mut Tr) -> Texts {
        let colour = |tr: &mut Tr, name: &str| keep(capitalised(&tr.t(&format!("color-{name}"))));
        Texts {
            classic_colours: ["blue", "green", "red"].map(|c| colour(tr, c)),
            kids_colours: ["red", "yellow", "green", "blue"].map(|c| colour(tr, c)),
            animals: std::array::from_fn(|i| {
                let english = KIDS_NAMES.get(i).map_or("lion", |names| names[0]);
                keep(tr.t(&format!("animal-{english}")))
            }),
            seat: template(tr, "image-seat", Args::new().text("n", "{n}")),
            turn: template(tr, "image-turn", Args::new().text("name", "{name}")),
            won: template(tr, "image-won", Args::new().text("team", "{team}")),
            drawn: template(tr, "image-drawn", Args::new()),
            draw_pile: template(tr, "image-draw-pile", Args::new().text("n", "{n}")),
            sequences: template(
                tr,
                "image-sequences",
                Args::new().text("have", "{have}").text("need", "{need}"),
            ),
            points: template(tr, "image-points", Args::new().text("n", "{n}")),
            pairs: template(tr, "image-pairs", Args::new().text("n", "{n}")),
            points_of: template(
                tr,
                "image-points-of",
                Args::new().text("have", "{have}").text("need", "{need}"),
            ),
            zone: template(tr, "image-zone", Args::new()),
            last_placed: template(
                tr,
                "image-last-placed",
                Args::new()
                    .text("name", "{name}")
                    .text("card", "{card}")
                    .text("cell", "{cell}"),
            ),
            last_removed: template(
                tr,
                "image-last-removed",
                Args::new()
                    .text("name", "{name}")
                    .text("cell", "{cell}")
                    .text("card", "{card}"),
            ),
            last_placed_dice: template(
                tr,
                "image-last-placed-dice",
                Args::new().text("name", "{name}").text("cell", "{cell}"),
            ),
            last_removed_dice: template(
                tr,
                "image-last-removed-dice",
                Args::new().text("name", "{name}").text("cell", "{cell}"),
            ),
            roll: template(tr, "image-roll", Args::new().text("sum", "{sum}")),
            roll_ten: template(tr, "image-roll-ten", Args::new()),
            roll_eleven: template(tr, "image-roll-eleven", Args::new()),
            free: template(tr, "image-free", Args::new()),
            your_hand: template(tr, "image-your-hand", Args::new()),
            you_play: template(tr, "image-you-play", Args::new().text("team", "{team}")),
            your_turn: template(tr, "image-your-turn", Args::new()),
            waiting: template(tr, "image-waiting", Args::new().text("name", "{name}")),
            dead: template(tr, "image-dead", Args::new()),
            exchange_it: template(tr, "image-exchange-it", Args::new()),
            any_empty: template(tr, "image-any-empty", Args::new()),
            any_opponent: template(tr, "image-any-opponent", Args::new()),
            nothing_to_remove: template(tr, "image-nothing-to-remove", Args::new()),
            no_cell: template(tr, "image-no-cell", Args::new()),
            wild: template(tr, "image-wild", Args::new()),
            remove: template(tr, "image-remove", Args::new()),
            no_cards: template(tr, "image-no-cards", Args::new()),
            you_may: template(tr, "image-you-may", Args::new()),
        }
    }

    /// The colour name of a team in a variant.
    pub fn team(&self, variant: Variant, team: u8) -> &'static str {
        let names: &[&'static str] = match variant {
            Variant::Kids => &self.kids_colours,
            _ => &self.classic_colours,
        };
        names.get(usize::from(team)).copied().unwrap_or("?")
    }

    /// The name of a kids card (`?` for any other card).
    pub fn animal(&self, card: Card) -> &'static str {
        super::assets::kids_index(card)
            .and_then(|i| self.animals.get(i).copied())
            .unwrap_or("?")
    }

    /// The display name of a seat (at most [`MAX_NAME_CHARS`] characters), falling back to "Seat N"
    /// (numbered from 1).
    pub fn seat_name(&self, seat_names: &[String], seat: u8) -> String {
        match seat_names.get(usize::from(seat)).map(|name| name.trim()) {
            Some(name) if !name.is_empty() => cap_name(name),
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
        let english = Texts::english();
        assert_eq!(english.seat_name(&names, 0), "Ada");
        assert_eq!(english.seat_name(&names, 1), "Seat 2");
        assert_eq!(english.seat_name(&names, 5), "Seat 6");
        assert_eq!(
            fill(english.turn, &[("name", "Ada")]),
            "Ada to play".to_string()
        );
    }

    #[test]
    fn long_names_are_cut_on_character_boundaries() {
        let english = Texts::english();
        let exact = "é".repeat(MAX_NAME_CHARS);
        assert_eq!(cap_name(&exact), exact);
        let long = "é".repeat(10_000);
        let capped = english.seat_name(std::slice::from_ref(&long), 0);
        assert_eq!(capped.chars().count(), MAX_NAME_CHARS);
        assert_eq!(capped, format!("{}…", "é".repeat(MAX_NAME_CHARS - 1)));
        // Mixed widths (1 to 4 bytes) and a space before the cut, which is not kept.
        let mixed = format!("{} 🂡{}", "aß€".repeat(10), "x".repeat(50));
        let capped = cap_name(&mixed);
        assert_eq!(capped, format!("{}…", "aß€".repeat(10)));
        assert!(capped.chars().count() <= MAX_NAME_CHARS);
    }

    #[test]
    fn every_language_fills_every_word() {
        for lang in Lang::ALL {
            let mut tr = Tr::new(lang);
            let _ = Texts::build_with(&mut tr);
            assert!(tr.errors().is_empty(), "{lang}: {:?}", tr.errors());
            let texts = Texts::of(lang);
            assert_eq!(texts.won.matches("{team}").count(), 1, "{lang}");
            assert_eq!(texts.turn.matches("{name}").count(), 1, "{lang}");
            assert!(texts.last_placed.contains("{card}") && texts.last_placed.contains("{cell}"));
            assert!(texts.animals.iter().all(|a| !a.is_empty() && *a != "?"));
        }
        assert_eq!(Texts::of(Lang::De).animal(Card::kids(0)), "Löwe");
        assert_eq!(Texts::of(Lang::No).team(Variant::Classic, 0), "Blå");
        assert_eq!(
            fill(Texts::of(Lang::De).won, &[("team", "Blau")]),
            "Blau gewinnt!"
        );
    }
}
