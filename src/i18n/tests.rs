use std::collections::BTreeMap;

use super::*;

fn messages_of(lang: Lang) -> BTreeMap<String, Uses> {
    let list = messages(lang);
    let map: BTreeMap<String, Uses> = list.iter().cloned().collect();
    assert_eq!(
        map.len(),
        list.len(),
        "{lang}: a message id is defined twice"
    );
    map
}

#[test]
fn every_file_loads_without_errors() {
    for lang in Lang::ALL {
        assert!(load_errors(lang).is_empty(), "{:?}", load_errors(lang));
        assert!(messages(lang).len() > 100, "{lang}: too few messages");
    }
}

#[test]
fn every_message_exists_in_every_language() {
    let english = messages_of(Lang::En);
    for lang in [Lang::De, Lang::No] {
        let other = messages_of(lang);
        let missing: Vec<&String> = english.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<&String> = other.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{lang} lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{lang} has messages English lacks: {extra:?}"
        );
    }
}

#[test]
fn placeholders_are_the_same_in_every_language() {
    let english = messages_of(Lang::En);
    for lang in [Lang::De, Lang::No] {
        for (key, uses) in messages_of(lang) {
            let Some(reference) = english.get(&key) else {
                continue;
            };
            assert_eq!(
                uses.variables, reference.variables,
                "{lang}: {key} uses other variables than English"
            );
        }
    }
}

#[test]
fn references_point_to_existing_messages() {
    for lang in Lang::ALL {
        let all = messages_of(lang);
        for (key, uses) in &all {
            for reference in &uses.references {
                assert!(
                    all.contains_key(reference),
                    "{lang}: {key} refers to {reference}"
                );
            }
        }
    }
}

#[test]
fn locales_fall_back_to_english() {
    assert_eq!(Lang::from_locale("de"), Lang::De);
    assert_eq!(Lang::from_locale("de-AT"), Lang::De);
    assert_eq!(Lang::from_locale("DE_ch"), Lang::De);
    assert_eq!(Lang::from_locale("no"), Lang::No);
    assert_eq!(Lang::from_locale("nb"), Lang::No);
    assert_eq!(Lang::from_locale("nn-NO"), Lang::No);
    assert_eq!(Lang::from_locale("en-GB"), Lang::En);
    assert_eq!(Lang::from_locale("en-US"), Lang::En);
    assert_eq!(Lang::from_locale("fr"), Lang::En);
    assert_eq!(Lang::from_locale(""), Lang::En);
    assert_eq!(Lang::from_optional(None), None);
    assert_eq!(Lang::from_optional(Some(" ")), None);
    assert_eq!(Lang::from_optional(Some("nb")), Some(Lang::No));
    for lang in Lang::ALL {
        assert_eq!(Lang::from_locale(lang.tag()), lang);
    }
}

#[test]
fn formatting_uses_arguments_plurals_and_no_isolation_marks() {
    let args = Args::new().text("player", "<@1>");
    let text = tr_args(Lang::De, "roll-off-winner", &args);
    assert_eq!(text, "<@1> beginnt.");
    assert!(!text.contains('\u{2068}') && !text.contains('\u{2069}'));
    let one = tr_args(Lang::En, "seat-cards", &Args::new().number("count", 1));
    let many = tr_args(Lang::En, "seat-cards", &Args::new().number("count", 7));
    assert_eq!((one.as_str(), many.as_str()), ("1 card", "7 cards"));
    let one = tr_args(
        Lang::No,
        "duration-minutes",
        &Args::new().number("minutes", 1),
    );
    let many = tr_args(
        Lang::No,
        "duration-minutes",
        &Args::new().number("minutes", 5),
    );
    assert_eq!((one.as_str(), many.as_str()), ("1 minutt", "5 minutter"));
    let one = tr_args(Lang::De, "duration", &Args::new().number("seconds", 1));
    assert_eq!(one, "1 Sekunde");
}

#[test]
fn missing_messages_and_arguments_are_reported_and_fall_back() {
    let mut tr = Tr::new(Lang::De);
    assert_eq!(tr.t("no-such-message"), "no-such-message");
    assert_eq!(tr.errors().len(), 2, "{:?}", tr.errors());
    let mut tr = Tr::new(Lang::No);
    let text = tr.t("roll-off-winner");
    assert!(text.contains("begynner"), "{text}");
    assert!(!tr.errors().is_empty(), "a missing argument is an error");
}

#[test]
fn lists_are_joined_in_each_language() {
    let items: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
    let mut tr = Tr::new(Lang::De);
    assert_eq!(join_list(&mut tr, &items), "A, B und C");
    assert_eq!(join_list(&mut tr, &items[..1]), "A");
    assert_eq!(join_list(&mut tr, &[]), "");
    let mut tr = Tr::new(Lang::No);
    assert_eq!(join_list(&mut tr, &items[..2]), "A og B");
    assert!(tr.errors().is_empty());
}

#[test]
fn no_line_of_a_translation_is_blank_or_padded() {
    // A value's text is exactly what Discord shows: no stray spaces at the ends of its lines.
    for lang in Lang::ALL {
        for (key, _) in messages(lang) {
            if key.starts_with('-') {
                continue;
            }
            let text = Tr::new(lang).t(&key);
            for line in text.lines() {
                assert_eq!(line, line.trim_end(), "{lang}: {key}: `{line}`");
            }
        }
    }
}
