//! Command names and descriptions in every language, filled in from the translation files before the
//! commands are registered, so the `.ftl` files are the single source of what Discord shows; and the
//! language a channel's messages are written in ([`channel_lang`]).
//!
//! Keys: the command `/sequence bot add` is `cmd-bot-add` (name) and `cmd-bot-add-desc` (description);
//! its option `level` is `opt-bot-add-level` and `opt-bot-add-level-desc`; a choice `easy` of an option
//! `level` is `choice-level-easy`. The parent `/sequence` is `cmd-sequence`.

use poise::serenity_prelude as serenity;

use crate::i18n::{Lang, Tr};

use crate::service::{ChannelId, UserId};

use super::outgoing::discord_channel;
use super::{Data, Error};

/// A command of ours.
type Command = poise::Command<Data, Error>;

/// Fills in a command tree's English descriptions and its German and Norwegian names and descriptions
/// (options and choices included). Problems (a missing message) are logged; the code's text stays.
pub fn localize(command: &mut Command) {
    let mut trs: Vec<Tr> = Lang::ALL.into_iter().map(Tr::new).collect();
    localize_with(command, None, &mut trs);
    for tr in trs {
        tr.finish();
    }
}

/// The key of a command below the parent: `start`, `bot-add`; the parent itself is `sequence`.
fn command_key(parent: Option<&str>, name: &str) -> String {
    match parent {
        None | Some("sequence") => name.to_string(),
        Some(parent) => format!("{parent}-{name}"),
    }
}

/// The commands as registered with Discord: poise's slash commands as they are, and each user
/// command on the context menu with its name in every language (which poise 0.6 leaves out; a
/// context menu command has no description).
pub fn application_commands(commands: &[Command]) -> Vec<serenity::CreateCommand> {
    let mut created = Vec::new();
    for command in commands {
        created.extend(command.create_as_slash_command());
        if let Some(mut menu) = command.create_as_context_menu_command() {
            let mut names: Vec<(&String, &String)> = command.name_localizations.iter().collect();
            names.sort();
            for (locale, name) in names {
                menu = menu.name_localized(locale, name);
            }
            created.push(menu);
        }
    }
    created
}

/// A user command's name in German and Norwegian (`cmd-<name>`; its English name is the one in the
/// code, and it has no description or options).
fn localize_menu(command: &mut Command, trs: &mut [Tr]) {
    for tr in trs.iter_mut() {
        let lang = tr.lang();
        if lang == Lang::En {
            continue;
        }
        let name = tr.t(&format!("cmd-{}", command.name));
        for locale in lang.discord_locales() {
            command
                .name_localizations
                .insert((*locale).to_string(), name.clone());
        }
    }
}

fn localize_with(command: &mut Command, parent: Option<&str>, trs: &mut [Tr]) {
    if command.context_menu_action.is_some() && command.slash_action.is_none() {
        localize_menu(command, trs);
        return;
    }
    let key = command_key(parent, &command.name);
    for tr in trs.iter_mut() {
        let lang = tr.lang();
        let name = tr.t(&format!("cmd-{key}"));
        let description = tr.t(&format!("cmd-{key}-desc"));
        if lang == Lang::En {
            command.description = Some(description);
            continue;
        }
        for locale in lang.discord_locales() {
            command
                .name_localizations
                .insert((*locale).to_string(), name.clone());
            command
                .description_localizations
                .insert((*locale).to_string(), description.clone());
        }
    }
    for parameter in &mut command.parameters {
        let option = format!("opt-{key}-{}", parameter.name);
        for tr in trs.iter_mut() {
            let lang = tr.lang();
            let name = tr.t(&option);
            let description = tr.t(&format!("{option}-desc"));
            if lang == Lang::En {
                parameter.description = Some(description);
            } else {
                for locale in lang.discord_locales() {
                    parameter
                        .name_localizations
                        .insert((*locale).to_string(), name.clone());
                    parameter
                        .description_localizations
                        .insert((*locale).to_string(), description.clone());
                }
            }
        }
        let prefix = format!("choice-{}", parameter.name);
        for choice in &mut parameter.choices {
            let choice_key = format!("{prefix}-{}", choice.name);
            let mut english = None;
            for tr in trs.iter_mut() {
                let label = tr.t(&choice_key);
                match tr.lang() {
                    // The value Discord sends back is the choice's index, so the label may change.
                    Lang::En => english = Some(label),
                    lang => {
                        for locale in lang.discord_locales() {
                            choice
                                .localizations
                                .insert((*locale).to_string(), label.clone());
                        }
                    }
                }
            }
            if let Some(label) = english {
                choice.name = label;
            }
        }
    }
    let own = key.clone();
    for sub in &mut command.subcommands {
        localize_with(sub, Some(&own), trs);
    }
}

/// The language of a channel: as last seen on an interaction there, else its server's preferred
/// locale from the cache, else English.
pub(super) fn channel_lang(ctx: &serenity::Context, data: &Data, channel: ChannelId) -> Lang {
    if let Some(lang) = data.tables.channel_language(channel) {
        return lang;
    }
    // Which server holds the channel: only asked once per channel (the answer is remembered).
    let guild = discord_channel(channel).and_then(|id| {
        ctx.cache.guilds().into_iter().find_map(|guild| {
            let guild = ctx.cache.guild(guild)?;
            guild
                .channels
                .contains_key(&id)
                .then(|| guild.preferred_locale.clone())
        })
    });
    match Lang::from_optional(guild.as_deref()) {
        Some(lang) => {
            data.tables
                .note_languages(channel, UserId(0), None, Some(lang));
            lang
        }
        None => Lang::En,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;

    /// The command tree as the code defines it, before localization.
    fn raw() -> Command {
        super::super::commands::sequence()
    }

    fn is_command_name(name: &str) -> bool {
        let length = name.chars().count();
        (1..=32).contains(&length)
            && name
                .chars()
                .all(|c| (c.is_alphanumeric() && !c.is_uppercase()) || c == '-' || c == '_')
    }

    fn is_description(text: &str) -> bool {
        (1..=100).contains(&text.chars().count())
    }

    #[test]
    fn every_command_option_and_choice_is_translated() {
        let mut command = raw();
        let mut trs: Vec<Tr> = Lang::ALL.into_iter().map(Tr::new).collect();
        localize_with(&mut command, None, &mut trs);
        for tr in &trs {
            assert!(tr.errors().is_empty(), "{:?}", tr.errors());
        }
    }

    /// Every (lang, name, description) of a command tree, options and choices included, with a path.
    fn walk(command: &Command, path: &str, out: &mut Vec<(String, String, String, bool)>) {
        let path = format!("{path} {}", command.name);
        out.push((
            path.clone(),
            command.name.clone(),
            command.description.clone().unwrap_or_default(),
            true,
        ));
        for (locale, name) in &command.name_localizations {
            let description = command
                .description_localizations
                .get(locale)
                .cloned()
                .unwrap_or_default();
            out.push((
                format!("{path} [{locale}]"),
                name.clone(),
                description,
                true,
            ));
        }
        for parameter in &command.parameters {
            let at = format!("{path} {}", parameter.name);
            let description = parameter.description.clone().unwrap_or_default();
            out.push((at.clone(), parameter.name.clone(), description, true));
            for (locale, name) in &parameter.name_localizations {
                let description = parameter
                    .description_localizations
                    .get(locale)
                    .cloned()
                    .unwrap_or_default();
                out.push((format!("{at} [{locale}]"), name.clone(), description, true));
            }
            for choice in &parameter.choices {
                out.push((at.clone(), choice.name.clone(), choice.name.clone(), false));
                for (locale, label) in &choice.localizations {
                    out.push((
                        format!("{at} [{locale}]"),
                        label.clone(),
                        label.clone(),
                        false,
                    ));
                }
            }
        }
        for sub in &command.subcommands {
            walk(sub, &path, out);
        }
    }

    #[test]
    fn localized_names_and_descriptions_obey_discord_limits() {
        let commands = super::super::commands();
        let mut all = Vec::new();
        walk(&commands[0], "", &mut all);
        assert!(all.len() > 60);
        for (path, name, description, is_name) in &all {
            if *is_name {
                assert!(is_command_name(name), "{path}: bad name `{name}`");
            } else {
                assert!(is_description(name), "{path}: bad choice label `{name}`");
            }
            assert!(
                is_description(description),
                "{path}: description `{description}`"
            );
        }
        // Both other languages are there for every command and option.
        let locales: BTreeSet<&str> = all
            .iter()
            .filter_map(|(path, ..)| path.split('[').nth(1))
            .map(|s| s.trim_end_matches(']'))
            .collect();
        assert_eq!(locales, BTreeSet::from(["de", "no"]));
    }

    #[test]
    fn english_names_are_the_names_in_the_code() {
        // Discord sends the default names back, and poise matches them against the code.
        fn check(command: &Command, parent: Option<&str>) {
            let key = command_key(parent, &command.name);
            let mut tr = Tr::new(Lang::En);
            assert_eq!(tr.t(&format!("cmd-{key}")), command.name);
            for parameter in &command.parameters {
                assert_eq!(
                    tr.t(&format!("opt-{key}-{}", parameter.name)),
                    parameter.name
                );
            }
            assert!(tr.errors().is_empty(), "{:?}", tr.errors());
            for sub in &command.subcommands {
                check(sub, Some(&key));
            }
        }
        check(&raw(), None);
    }

    #[test]
    fn siblings_never_share_a_name_in_any_language() {
        fn check(command: &Command) {
            for locale in ["", "de", "no"] {
                let name_of = |names: &std::collections::HashMap<String, String>, default: &str| {
                    names
                        .get(locale)
                        .cloned()
                        .unwrap_or_else(|| default.to_string())
                };
                let subs: Vec<String> = command
                    .subcommands
                    .iter()
                    .map(|s| name_of(&s.name_localizations, &s.name))
                    .collect();
                let unique: BTreeSet<&String> = subs.iter().collect();
                assert_eq!(unique.len(), subs.len(), "{locale}: {subs:?}");
                let options: Vec<String> = command
                    .parameters
                    .iter()
                    .map(|p| name_of(&p.name_localizations, &p.name))
                    .collect();
                let unique: BTreeSet<&String> = options.iter().collect();
                assert_eq!(unique.len(), options.len(), "{locale}: {options:?}");
            }
            command.subcommands.iter().for_each(check);
        }
        check(&super::super::commands()[0]);
    }

    #[test]
    fn registration_carries_the_localizations() {
        let commands = super::super::commands();
        let created = application_commands(&commands);
        let json = serde_json::to_value(&created).unwrap();
        let top = &json[0];
        assert_eq!(top["name"], "sequence");
        let subs = top["options"].as_array().unwrap();
        let play = subs.iter().find(|s| s["name"] == "play").unwrap();
        assert_eq!(play["name_localizations"]["de"], "spielen");
        assert_eq!(play["name_localizations"]["no"], "spill");
        let card = &play["options"][0];
        assert_eq!(card["name_localizations"]["de"], "karte");
        let start = subs.iter().find(|s| s["name"] == "start").unwrap();
        let game = start["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "game")
            .unwrap();
        let kids = &game["choices"][2];
        assert_eq!(kids["name_localizations"]["de"], "Sequence für Kids");
        assert_eq!(kids["value"], 2);
    }

    /// Localized subcommand → its localized options, per language (groups as `bot add`).
    fn surface(lang: Lang) -> BTreeMap<String, BTreeSet<String>> {
        fn add(
            command: &Command,
            prefix: &str,
            lang: Lang,
            out: &mut BTreeMap<String, BTreeSet<String>>,
        ) {
            let local = |names: &std::collections::HashMap<String, String>, default: &str| {
                lang.discord_locales()
                    .first()
                    .and_then(|l| names.get(*l).cloned())
                    .unwrap_or_else(|| default.to_string())
            };
            for sub in &command.subcommands {
                let name = format!("{prefix}{}", local(&sub.name_localizations, &sub.name));
                if sub.subcommands.is_empty() {
                    let options = sub
                        .parameters
                        .iter()
                        .map(|p| local(&p.name_localizations, &p.name))
                        .collect();
                    out.insert(name, options);
                } else {
                    out.insert(name.clone(), BTreeSet::new());
                    add(sub, &format!("{name} "), lang, out);
                }
            }
        }
        let mut out = BTreeMap::new();
        add(&super::super::commands()[0], "", lang, &mut out);
        out
    }

    #[test]
    fn commands_quoted_in_texts_exist_in_that_language() {
        let mut checked = 0;
        for lang in Lang::ALL {
            let surface = surface(lang);
            for (key, _) in crate::i18n::messages(lang) {
                if key.starts_with('-') {
                    continue;
                }
                // Missing arguments only leave `{$x}` in place; the command words are what matter.
                let text = Tr::new(lang).t(&key);
                for quoted in text.split("/sequence ").skip(1) {
                    let words: Vec<&str> = quoted
                        .split(['`', '\n', ')', ','])
                        .next()
                        .unwrap_or_default()
                        .split_whitespace()
                        .map(|w| w.trim_end_matches('.'))
                        .collect();
                    let Some(first) = words.first() else {
                        continue;
                    };
                    let (command, rest) = match words.get(1) {
                        Some(second) if surface.contains_key(&format!("{first} {second}")) => {
                            (format!("{first} {second}"), &words[2..])
                        }
                        _ => (first.to_string(), &words[1..]),
                    };
                    let options = surface.get(&command).unwrap_or_else(|| {
                        panic!("{lang}: {key}: `/sequence {command}` is not a command")
                    });
                    for word in rest {
                        let Some((option, _)) = word.split_once(':') else {
                            break;
                        };
                        assert!(
                            options.contains(option),
                            "{lang}: {key}: `/sequence {command}` has no option `{option}`"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 60, "only {checked} commands quoted");
    }
}
