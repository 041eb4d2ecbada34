//! The service's chat texts as plain sentences for a page. The service renders its answers for a
//! chat: a person as a mention (`<@id>`), a computer player's name in bold (`**Easy bot**`, its
//! markdown escaped), a deadline as a Discord timestamp (`<t:1700000000:R>`), a command in
//! backquotes. A page shows text, never markup: mentions become the person's name, timestamps the
//! time of day (UTC), and the markup characters go.

use std::collections::HashMap;

/// `text` without chat markup: each mention replaced by the name `names` gives its user id (the
/// neutral name if none), each timestamp by its time of day (`14:05 UTC`), a channel mention
/// dropped; `**`, `__`, `~~`, `*` and backquotes removed, markdown escapes (`\_`) undone, and a
/// line's `-# ` (small print) or `> ` (quote) prefix dropped.
pub fn plain(text: &str, names: &HashMap<u64, String>) -> String {
    let mut lines = Vec::new();
    for line in text.lines() {
        let line = line
            .strip_prefix("-# ")
            .or_else(|| line.strip_prefix("> "))
            .unwrap_or(line);
        lines.push(plain_line(line, names));
    }
    lines.join("\n")
}

fn plain_line(line: &str, names: &HashMap<u64, String>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            if let Some((replacement, used)) = tag(rest, names) {
                out.push_str(&replacement);
                rest = &rest[used..];
                continue;
            }
        }
        if c == '\\' {
            // A markdown escape: the character after it, as it is.
            let mut chars = rest[1..].chars();
            if let Some(next) = chars.next().filter(|n| n.is_ascii_punctuation()) {
                out.push(next);
                rest = chars.as_str();
                continue;
            }
        }
        if !matches!(c, '*' | '`') && !rest.starts_with("__") && !rest.starts_with("~~") {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        } else if rest.starts_with("__") || rest.starts_with("~~") {
            rest = &rest[2..];
        } else {
            rest = &rest[1..];
        }
    }
    out
}

/// The replacement of the chat tag at the start of `text` (`<@id>`, `<@!id>`, `<#id>`, `<t:secs>`,
/// `<t:secs:R>`) and its length in bytes; `None` if `text` does not start with one.
fn tag(text: &str, names: &HashMap<u64, String>) -> Option<(String, usize)> {
    let end = text.find('>')?;
    let inner = &text[1..end];
    let digits = |s: &str| !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(id) = inner.strip_prefix("@!").or_else(|| inner.strip_prefix('@')) {
        if !digits(id) {
            return None;
        }
        let name = id
            .parse::<u64>()
            .ok()
            .and_then(|id| names.get(&id).cloned())
            .unwrap_or_else(|| crate::service::names::NEUTRAL_NAME.to_string());
        return Some((name, end + 1));
    }
    if let Some(id) = inner.strip_prefix('#') {
        return digits(id).then(|| (String::new(), end + 1));
    }
    if let Some(time) = inner.strip_prefix("t:") {
        let seconds = time.split(':').next().unwrap_or_default();
        if !digits(seconds) {
            return None;
        }
        let seconds: u64 = seconds.parse().ok()?;
        let of_day = seconds % 86_400;
        return Some((
            format!("{:02}:{:02} UTC", of_day / 3600, of_day % 3600 / 60),
            end + 1,
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> HashMap<u64, String> {
        HashMap::from([
            (42, "Ann".to_string()),
            (9_223_372_036_854_775_809, "Bo".into()),
        ])
    }

    #[test]
    fn chat_markup_becomes_plain_text() {
        let names = names();
        assert_eq!(
            plain("It is not your turn: it is <@42>'s turn.", &names),
            "It is not your turn: it is Ann's turn."
        );
        assert_eq!(plain("<@!9223372036854775809> joined", &names), "Bo joined");
        assert_eq!(plain("<@7> joined", &names), "Player joined");
        assert_eq!(
            plain("**Easy bot** played `7H` on **D6**", &names),
            "Easy bot played 7H on D6"
        );
        assert_eq!(plain("**Tom\\_the\\*bot**", &names), "Tom_the*bot");
        assert_eq!(
            plain("__under__ ~~struck~~ *it*", &names),
            "under struck it"
        );
        assert_eq!(
            plain("Runs out <t:1700000000:R>.", &names),
            "Runs out 22:13 UTC."
        );
        assert_eq!(plain("see <#123>!", &names), "see !");
        assert_eq!(
            plain("-# small\n> quoted\nplain", &names),
            "small\nquoted\nplain"
        );
        // What is not a tag stays.
        assert_eq!(plain("a < b > c <@x>", &names), "a < b > c <@x>");
        assert_eq!(plain("7♥ → D6 ✓", &names), "7♥ → D6 ✓");
        assert_eq!(plain("ends with \\", &names), "ends with \\");
    }

    #[test]
    fn no_markup_is_left_in_any_service_refusal() {
        use crate::i18n::Lang;
        use crate::service::{Text, Who};
        let names = names();
        let texts = [
            Text::NotYourTurn {
                to_move: Who::User(crate::service::UserId(42)),
            },
            Text::NotYourTurn {
                to_move: Who::Bot("Easy *bot*".into()),
            },
            Text::NoTable,
            Text::RollFirst,
        ];
        for lang in Lang::ALL {
            for text in &texts {
                let shown = plain(&text.render(lang), &names);
                for markup in ["<@", "<t:", "**", "`", "\\"] {
                    assert!(!shown.contains(markup), "{lang:?}: {shown}");
                }
            }
        }
    }
}
