//! Translations: English, German and Norwegian (Bokmål), from the Fluent files in `assets/locales/`.
//!
//! The files are compiled into the binary (`include_str!`) and parsed once. Every user-facing sentence
//! is a Fluent message; [`Lang::from_locale`] maps a Discord locale code to one of our languages, and
//! anything we do not speak falls back to English. Pure: no I/O, usable from every layer.

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;
use serde::{Deserialize, Serialize};
use unic_langid::LanguageIdentifier;

/// A language the bot speaks.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Lang {
    /// English (the default and the fallback).
    #[default]
    #[serde(rename = "en-US")]
    En,
    /// German.
    #[serde(rename = "de")]
    De,
    /// Norwegian (Bokmål).
    #[serde(rename = "no")]
    No,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::De, Lang::No];

    /// The language tag of the translation file (`en-US`, `de`, `no`), also Discord's locale code.
    pub const fn tag(self) -> &'static str {
        match self {
            Lang::En => "en-US",
            Lang::De => "de",
            Lang::No => "no",
        }
    }

    /// Position in `engine::card::KIDS_NAMES` rows (`[en, de, no]`).
    pub const fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::De => 1,
            Lang::No => 2,
        }
    }

    /// Discord locale codes whose command localizations come from this language (none for English,
    /// which is the commands' default text).
    pub const fn discord_locales(self) -> &'static [&'static str] {
        match self {
            Lang::En => &[],
            Lang::De => &["de"],
            Lang::No => &["no"],
        }
    }

    /// Our language for a locale code (`de`, `de-AT`, `no`, `nb`, `nn-NO`, `en-GB`...); English for
    /// anything else.
    pub fn from_locale(code: &str) -> Lang {
        let primary = code
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match primary.as_str() {
            "de" => Lang::De,
            "no" | "nb" | "nn" => Lang::No,
            _ => Lang::En,
        }
    }

    /// [`Lang::from_locale`] for an optional code, `None` if there is none.
    pub fn from_optional(code: Option<&str>) -> Option<Lang> {
        code.filter(|c| !c.trim().is_empty()).map(Lang::from_locale)
    }

    /// The Fluent source of this language.
    pub fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("../../assets/locales/en-US/sequence.ftl"),
            Lang::De => include_str!("../../assets/locales/de/sequence.ftl"),
            Lang::No => include_str!("../../assets/locales/no/sequence.ftl"),
        }
    }

    /// The language identifier used for plural rules.
    fn langid(self) -> LanguageIdentifier {
        // `nb` carries the Bokmål plural rules; the file itself is named after Discord's `no`.
        let tag = match self {
            Lang::En => "en-US",
            Lang::De => "de",
            Lang::No => "nb",
        };
        tag.parse().unwrap_or_default()
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// One language's parsed messages.
struct Catalog {
    bundle: FluentBundle<FluentResource>,
    /// Problems found while loading (syntax errors, duplicate ids); empty for good files.
    load_errors: Vec<String>,
}

fn load(lang: Lang) -> Catalog {
    let mut load_errors = Vec::new();
    let resource = match FluentResource::try_new(lang.source().to_string()) {
        Ok(resource) => resource,
        Err((resource, errors)) => {
            load_errors.extend(errors.iter().map(|e| format!("{lang}: syntax: {e:?}")));
            resource
        }
    };
    let mut bundle = FluentBundle::new_concurrent(vec![lang.langid()]);
    // Unicode isolation marks around placeables would show up as stray characters in Discord.
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        load_errors.extend(errors.iter().map(|e| format!("{lang}: {e:?}")));
    }
    for error in &load_errors {
        tracing::error!("translation file: {error}");
    }
    Catalog {
        bundle,
        load_errors,
    }
}

fn catalog(lang: Lang) -> &'static Catalog {
    static CATALOGS: OnceLock<[Catalog; 3]> = OnceLock::new();
    let all = CATALOGS.get_or_init(|| Lang::ALL.map(load));
    &all[lang.index()]
}

/// Arguments of a message: `$name` → value.
#[derive(Debug, Default)]
pub struct Args<'a>(FluentArgs<'a>);

impl<'a> Args<'a> {
    /// No arguments.
    pub fn new() -> Args<'a> {
        Args(FluentArgs::new())
    }

    /// Adds a text argument.
    pub fn text(mut self, name: &'a str, value: impl Into<Cow<'a, str>>) -> Args<'a> {
        self.0.set(name, FluentValue::String(value.into()));
        self
    }

    /// Adds a number argument (plural forms select on it).
    pub fn number(mut self, name: &'a str, value: impl Into<f64>) -> Args<'a> {
        self.0.set(name, FluentValue::from(value.into()));
        self
    }
}

/// A translator for one language that collects every problem it meets (missing message, missing
/// argument), so tests can check that each text renders cleanly.
#[derive(Debug)]
pub struct Tr {
    lang: Lang,
    errors: Vec<String>,
}

impl Tr {
    /// A translator for `lang`.
    pub fn new(lang: Lang) -> Tr {
        Tr {
            lang,
            errors: Vec::new(),
        }
    }

    /// The language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The message `key` without arguments.
    pub fn t(&mut self, key: &str) -> String {
        self.format(key, None)
    }

    /// The message `key` with arguments.
    pub fn ta(&mut self, key: &str, args: &Args<'_>) -> String {
        self.format(key, Some(args))
    }

    /// Problems met so far.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// Logs the problems met (a missing translation is a bug, never shown to the user as such).
    pub fn finish(self) {
        for error in &self.errors {
            tracing::warn!("translation: {error}");
        }
    }

    fn format(&mut self, key: &str, args: Option<&Args<'_>>) -> String {
        let mut tried = self.lang;
        loop {
            let bundle = &catalog(tried).bundle;
            if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                let text = bundle.format_pattern(pattern, args.map(|a| &a.0), &mut errors);
                self.errors
                    .extend(errors.iter().map(|e| format!("{tried}: {key}: {e}")));
                return text.into_owned();
            }
            self.errors.push(format!("{tried}: missing message {key}"));
            if tried == Lang::En {
                return key.to_string();
            }
            tried = Lang::En;
        }
    }
}

/// The message `key` in `lang` (English if it is missing there), logging any problem.
pub fn tr(lang: Lang, key: &str) -> String {
    let mut tr = Tr::new(lang);
    let text = tr.t(key);
    tr.finish();
    text
}

/// The message `key` with arguments in `lang`, logging any problem.
pub fn tr_args(lang: Lang, key: &str, args: &Args<'_>) -> String {
    let mut tr = Tr::new(lang);
    let text = tr.ta(key, args);
    tr.finish();
    text
}

/// Whether `lang`'s file has the message `key`.
pub fn has(lang: Lang, key: &str) -> bool {
    catalog(lang).bundle.has_message(key)
}

/// Problems found while loading `lang`'s file (empty when it is well-formed).
pub fn load_errors(lang: Lang) -> &'static [String] {
    &catalog(lang).load_errors
}

/// What a message of a file uses: its variables (`$name`), and the messages and terms it refers to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    /// Variables.
    pub variables: BTreeSet<String>,
    /// Referenced messages and terms (terms with their leading `-`).
    pub references: BTreeSet<String>,
}

/// Every message id of `lang`'s file, with what it uses (terms are listed with a leading `-`).
pub fn messages(lang: Lang) -> Vec<(String, Uses)> {
    let mut out = Vec::new();
    let bundle = &catalog(lang).bundle;
    // The bundle keeps no list of ids, so read the source again (tests and start-up only).
    let Ok(resource) = FluentResource::try_new(lang.source().to_string()) else {
        return out;
    };
    for entry in resource.entries() {
        let (id, pattern, attributes) = match entry {
            ast::Entry::Message(m) => (m.id.name.to_string(), m.value.as_ref(), &m.attributes),
            ast::Entry::Term(t) => (format!("-{}", t.id.name), Some(&t.value), &t.attributes),
            _ => continue,
        };
        let mut uses = Uses::default();
        if let Some(pattern) = pattern {
            pattern_uses(pattern, &mut uses);
        }
        for attribute in attributes {
            pattern_uses(&attribute.value, &mut uses);
        }
        out.push((id, uses));
    }
    debug_assert!(out
        .iter()
        .all(|(id, _)| id.starts_with('-') || bundle.has_message(id)));
    out
}

fn pattern_uses(pattern: &ast::Pattern<&str>, uses: &mut Uses) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_uses(expression, uses);
        }
    }
}

fn expression_uses(expression: &ast::Expression<&str>, uses: &mut Uses) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_uses(selector, uses);
            for variant in variants {
                pattern_uses(&variant.value, uses);
            }
        }
        ast::Expression::Inline(inline) => inline_uses(inline, uses),
    }
}

fn inline_uses(inline: &ast::InlineExpression<&str>, uses: &mut Uses) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            uses.variables.insert(id.name.to_string());
        }
        ast::InlineExpression::MessageReference { id, .. } => {
            uses.references.insert(id.name.to_string());
        }
        ast::InlineExpression::TermReference { id, arguments, .. } => {
            uses.references.insert(format!("-{}", id.name));
            if let Some(arguments) = arguments {
                call_uses(arguments, uses);
            }
        }
        ast::InlineExpression::FunctionReference { arguments, .. } => call_uses(arguments, uses),
        ast::InlineExpression::Placeable { expression } => expression_uses(expression, uses),
        ast::InlineExpression::StringLiteral { .. }
        | ast::InlineExpression::NumberLiteral { .. } => {}
    }
}

fn call_uses(arguments: &ast::CallArguments<&str>, uses: &mut Uses) {
    for positional in &arguments.positional {
        inline_uses(positional, uses);
    }
    for named in &arguments.named {
        inline_uses(&named.value, uses);
    }
}

/// Joins names as a sentence does: `a`, `a and b`, `a, b and c` (the word for "and" translated).
pub fn join_list(tr: &mut Tr, items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => tr.ta(
            "list-and",
            &Args::new()
                .text("first", rest.join(", "))
                .text("last", last.as_str()),
        ),
    }
}
