//! Rendering a [`Text`]: the entry points, and the dispatch that hands each text to the topic file
//! that renders its section of the catalogue.

use std::fmt;

use crate::i18n::{Lang, Tr};

use super::Text;
use super::{
    channel, end, hints, lobby, picker, play, profile, records, refusals, series, settings, status,
    turns,
};

/// A topic's renderer: the text in the translator's language, or `None` for another topic's text.
type Topic = fn(&Text, &mut Tr) -> Option<String>;

/// The topic files, in the order of the catalogue's sections.
const TOPICS: [Topic; 13] = [
    refusals::render,
    lobby::render,
    play::render,
    status::render,
    turns::render,
    picker::render,
    hints::render,
    end::render,
    series::render,
    records::render,
    profile::render,
    settings::render,
    channel::render,
];

/// A one-line English rendering for logs and tests; users get [`Text::render`] in their language.
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

impl Text {
    /// The text in `lang` (a missing translation falls back to English and is logged).
    pub fn render(&self, lang: Lang) -> String {
        let mut tr = Tr::new(lang);
        let text = self.render_with(&mut tr);
        tr.finish();
        text
    }

    /// The text through a translator, which collects any problem (for tests).
    pub fn render_with(&self, tr: &mut Tr) -> String {
        first_upper(&self.body(tr))
    }

    /// The text as its topic renders it. Every variant has a sample that `i18n_tests` renders in
    /// every language, so a variant no topic renders fails there; a release build says "something
    /// broke" and logs it instead of panicking.
    fn body(&self, tr: &mut Tr) -> String {
        if let Some(text) = TOPICS.iter().find_map(|render| render(self, tr)) {
            return text;
        }
        debug_assert!(false, "no topic of service/text renders {self:?}");
        tracing::error!("no topic of service/text renders {self:?}");
        tr.t("internal")
    }
}

fn first_upper(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
