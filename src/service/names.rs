//! Names are text, not markup (issue 24, point 4). A display name comes from the user: it enters the
//! service once through [`clean_name`] (no control characters, one line, at most 32 characters), so
//! logs, records and images get the clean name; and it is put into a chat message only through
//! [`chat_name`], which escapes Discord's markdown and breaks links and mentions.

use crate::render::texts::cap_name;

/// The name of a player whose display name has nothing visible left.
pub const NEUTRAL_NAME: &str = "Player";

/// Whether `c` is a control or an invisible formatting character: C0/C1 controls, bidirectional
/// marks, embeddings, overrides and isolates, zero-width spaces and joiners, the word joiner and
/// invisible operators, the byte order mark and the interlinear annotation marks. (U+200D, the
/// zero-width joiner, is judged by [`plain`]: emoji sequences need it.)
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0001}'
        )
}

/// Whether `c` may stand next to a zero-width joiner that is kept: a symbol outside ASCII (an emoji),
/// not a letter or digit, which a joiner could only make look like another name.
fn joins_emoji(c: char) -> bool {
    !c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace() && !is_hidden(c)
}

/// `raw` on one line without hidden characters: controls and invisible formatting characters
/// dropped (a zero-width joiner kept only between two emoji), every run of white space (newlines,
/// tabs, line separators) one space, trimmed.
fn plain(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut space = false;
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if c == '\u{200D}' {
            let between_emoji = !space
                && out.chars().next_back().is_some_and(joins_emoji)
                && chars.peek().is_some_and(|&next| joins_emoji(next));
            if !between_emoji {
                continue;
            }
        } else if is_hidden(c) {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out
}

/// A display name as the service keeps it: [`plain`], cut to Discord's 32 characters, and
/// [`NEUTRAL_NAME`] if nothing visible is left.
pub fn clean_name(raw: &str) -> String {
    let name = cap_name(&plain(raw));
    if name.is_empty() {
        NEUTRAL_NAME.to_string()
    } else {
        name
    }
}

/// A name as it may stand in a chat message: the text Discord shows is the name, and nothing in it
/// formats, links or mentions.
///
/// Markdown characters get a backslash (Discord then shows the character itself): `\`, `*`, `_`,
/// `~`, the backtick, `|`, `#`, `>` and `[ ]` (so no masked link can form; `( )` alone format nothing
/// and stay as they are), `<` (so `<@id>`, `<@&id>`, `<#id>`, `<t:…>` and custom emoji stay text) and
/// `:` (so `https://…` is not made a link). A `-` or `+` or a number's `.` that opens the name get one
/// too (a list or a subtext line, should the name start a line). `@` is followed by a zero-width space, so `@everyone` and
/// `@here` are not mentions. Hidden characters and line breaks are dropped first, as in
/// [`clean_name`] (names kept before they were cleaned on the way in).
pub fn chat_name(name: &str) -> String {
    let name = plain(name);
    let mut out = String::with_capacity(name.len() + 8);
    // The `.` of a leading number (`1. x` would be a list item at the start of a line).
    let list_dot = {
        let digits = name.chars().take_while(char::is_ascii_digit).count();
        (digits > 0 && name[digits..].starts_with('.')).then_some(digits)
    };
    for (at, c) in name.char_indices() {
        match c {
            '\\' | '*' | '_' | '~' | '`' | '|' | '#' | '>' | '[' | ']' | '<' | ':' => {
                out.push('\\');
                out.push(c);
            }
            '-' | '+' if at == 0 => {
                out.push('\\');
                out.push(c);
            }
            '.' if Some(at) == list_dot => out.push_str("\\."),
            '@' => out.push_str("@\u{200B}"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every hidden character the issue names, and a few more of the same kind.
    const HIDDEN: [char; 15] = [
        '\u{0000}', '\u{001B}', '\u{007F}', '\u{009B}', '\u{200B}', '\u{200C}', '\u{200E}',
        '\u{200F}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}', '\u{2060}', '\u{FEFF}',
        '\u{061C}',
    ];

    #[test]
    fn ordinary_names_stay_exactly_as_they_are() {
        for name in [
            "Alice",
            "Player7",
            "Jean-Luc Picard",
            "Zoë (she/her)",
            "Ærlig Øystein",
            "محمد",
            "שלום",
            "李小龍",
            "Computer 1 (medium)",
            "J. R. R.",
            "🐉",
            "👩‍👩‍👧",
        ] {
            assert_eq!(clean_name(name), name);
            assert_eq!(chat_name(name), name);
        }
    }

    #[test]
    fn controls_and_invisible_marks_are_dropped_and_lines_joined() {
        assert_eq!(clean_name("a\nb"), "a b");
        assert_eq!(clean_name("  a \r\n\t b  "), "a b");
        assert_eq!(clean_name("a\u{2028}b\u{2029}c\u{85}d"), "a b c d");
        assert_eq!(clean_name("\u{202E}evil"), "evil");
        assert_eq!(clean_name("ad\u{200F}min\u{200E}"), "admin");
        assert_eq!(clean_name("\u{2066}x\u{2069}"), "x");
        assert_eq!(clean_name("red\u{1B}[31mtext"), "red[31mtext");
        assert_eq!(clean_name("Al\u{200B}i\u{200D}ce"), "Alice");
        assert_eq!(clean_name("\u{FEFF}Bob\u{0}"), "Bob");
        // A joiner between two emoji is part of one picture; next to a letter it only hides.
        assert_eq!(clean_name("👩\u{200D}💻"), "👩\u{200D}💻");
        assert_eq!(clean_name("\u{200D}👩\u{200D} \u{200D}💻"), "👩 💻");
        for c in HIDDEN {
            assert_eq!(clean_name(&format!("x{c}y")), "xy", "{:?}", c);
        }
    }

    #[test]
    fn nothing_visible_gives_the_neutral_name_and_long_names_are_cut() {
        for name in ["", "   ", "\n\t", "\u{202E}\u{200B}\u{FEFF}", "\u{200D}"] {
            assert_eq!(clean_name(name), NEUTRAL_NAME, "{name:?}");
        }
        let long = "x".repeat(100);
        let cut = clean_name(&long);
        assert_eq!(cut.chars().count(), 32);
        assert!(cut.ends_with('…'));
        // Hidden characters do not count against the limit.
        let padded: String = "\u{200B}".repeat(50) + "Alice";
        assert_eq!(clean_name(&padded), "Alice");
    }

    #[test]
    fn markdown_links_and_mentions_become_plain_text() {
        let cases = [
            (
                "[free nitro](https://evil.xyz)@everyone",
                "\\[free nitro\\](https\\://evil.xyz)@\u{200B}everyone",
            ),
            ("**bold**", "\\*\\*bold\\*\\*"),
            ("__under__ ~~gone~~", "\\_\\_under\\_\\_ \\~\\~gone\\~\\~"),
            ("`code`", "\\`code\\`"),
            ("||spoiler||", "\\|\\|spoiler\\|\\|"),
            ("<@123>", "\\<@\u{200B}123\\>"),
            ("<@&55> <#66>", "\\<@\u{200B}&55\\> \\<\\#66\\>"),
            ("<:pepe:123>", "\\<\\:pepe\\:123\\>"),
            ("@here", "@\u{200B}here"),
            ("back\\slash", "back\\\\slash"),
            ("# big", "\\# big"),
            ("> quote", "\\> quote"),
            ("-# small", "\\-\\# small"),
            ("- item", "\\- item"),
            ("12. item", "12\\. item"),
            ("a\nb", "a b"),
            ("\u{202E}evil", "evil"),
        ];
        for (name, escaped) in cases {
            assert_eq!(chat_name(name), escaped, "{name:?}");
        }
    }

    /// What Discord would still read as markup in `text`: escaped characters (a backslash and the
    /// character after it) are skipped; the rest must hold no markdown, link or mention.
    fn live_markup(text: &str) -> Vec<String> {
        let mut bare = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                chars.next();
                bare.push(' ');
            } else {
                bare.push(c);
            }
        }
        let mut found: Vec<String> = ["*", "_", "~", "`", "|", "[", "]", "<", "#", ">", "://"]
            .into_iter()
            .filter(|m| bare.contains(m))
            .map(str::to_string)
            .collect();
        if bare.contains("@everyone") || bare.contains("@here") {
            found.push("mention".into());
        }
        found.extend(
            bare.chars()
                .filter(|&c| {
                    (is_hidden(c) && !matches!(c, '\u{200B}' | '\u{200D}'))
                        || (c.is_whitespace() && c != ' ')
                })
                .map(|c| format!("{c:?}")),
        );
        found
    }

    /// Any characters at all, or names made of markup, breaks and hidden marks.
    fn names() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::collection::vec(any::<char>(), 0..48).prop_map(String::from_iter),
            "[\\[\\]()*_~`|<>@#:/.\\\\\n\t\u{202E}\u{200B}\u{200D}a-z0-9 -]{0,48}",
            "(@everyone|@here|<@1>|https://x.y|\\[a\\]\\(b\\)|- |1\\. |\n){0,6}",
        ]
    }

    proptest! {
        #[test]
        fn any_name_is_clean_and_chats_as_text(raw in names()) {
            let clean = clean_name(&raw);
            prop_assert!(!clean.is_empty());
            prop_assert!(clean.chars().count() <= 32);
            let joiner = '\u{200D}';
            prop_assert!(!clean.chars().any(|c| is_hidden(c) && c != joiner), "{:?}", clean);
            prop_assert!(!clean.chars().any(|c| c.is_whitespace() && c != ' '), "{:?}", clean);
            prop_assert_eq!(clean_name(&clean), clean.clone());
            let chat = chat_name(&raw);
            prop_assert!(live_markup(&chat).is_empty(), "{:?} -> {:?}: {:?}", raw, chat, live_markup(&chat));
        }
    }
}
