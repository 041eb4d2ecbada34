//! The layers of the crate, checked: engine → ai → render → store → service → app → the faces
//! (`discord`, `console`, `web`). A module may use those below it, never one above it or a face beside it;
//! only the faces (and `main.rs`) speak Discord's types. The test reads the source files, so it
//! fails as soon as a `crate::…` path or a `use crate::{…}` group crosses a line that must not be
//! crossed.

use std::path::{Path, PathBuf};

/// Each module (a folder or a file under `src/`) and the modules of the crate it must not use.
const MUST_NOT_USE: &[(&str, &[&str])] = &[
    (
        "engine",
        &[
            "ai", "analysis", "render", "store", "service", "app", "discord", "console", "web",
        ],
    ),
    (
        "ai",
        &[
            "render", "store", "service", "app", "discord", "console", "web",
        ],
    ),
    ("analysis", &["service", "app", "discord", "console", "web"]),
    ("render", &["service", "app", "discord", "console", "web"]),
    ("store", &["service", "app", "discord", "console", "web"]),
    ("service", &["app", "discord", "console", "cli", "web"]),
    ("app", &["discord", "console", "cli", "web"]),
    ("console", &["discord", "web"]),
    ("discord", &["console", "web"]),
    ("web", &["discord", "console", "cli"]),
];

/// Modules that must not name these crates: Discord's types stay in the Discord face.
const NO_DISCORD_TYPES: &[&str] = &[
    "engine", "ai", "analysis", "render", "store", "service", "app", "console", "web",
];

/// The `.rs` files of `module`: `src/<module>.rs`, or every file under `src/<module>/`.
fn files_of(module: &str) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let file = src.join(format!("{module}.rs"));
    if file.is_file() {
        return vec![file];
    }
    let mut found = Vec::new();
    let mut folders = vec![src.join(module)];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()));
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                found.push(path);
            }
        }
    }
    assert!(!found.is_empty(), "no source files for {module}");
    found
}

/// The code of a file without its comments (line comments and doc comments; a `//` inside a
/// string would be cut too, which only hides code, never invents a use).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules of the crate that `code` names: `crate::x` paths and the names in `crate::{…}`
/// groups.
fn crate_modules_used(code: &str) -> Vec<String> {
    let mut used = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            // `sequence_crate::` or the like: not this crate's root.
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                used.push(name);
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            used.push(name);
        }
    }
    used
}

/// Whether `code` names `krate` as a path (`serenity::…`).
fn names_crate(code: &str, krate: &str) -> bool {
    let pattern = format!("{krate}::");
    code.match_indices(&pattern).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
    })
}

#[test]
fn no_module_uses_a_layer_above_it_or_a_face_beside_it() {
    let mut crossings = Vec::new();
    for (module, forbidden) in MUST_NOT_USE {
        for path in files_of(module) {
            let code = code_of(&path);
            for used in crate_modules_used(&code) {
                if forbidden.contains(&used.as_str()) {
                    crossings.push(format!("{} uses crate::{used}", path.display()));
                }
            }
        }
    }
    for module in NO_DISCORD_TYPES {
        for path in files_of(module) {
            let code = code_of(&path);
            for krate in ["serenity", "poise"] {
                if names_crate(&code, krate) {
                    crossings.push(format!("{} names {krate}", path.display()));
                }
            }
        }
    }
    assert!(
        crossings.is_empty(),
        "layers crossed:\n{}",
        crossings.join("\n")
    );
}

#[test]
fn the_check_sees_paths_and_groups() {
    let code = "use crate::app::config::BotConfig;\nuse crate::{discord, engine::Cell};\nlet x = \
                crate::console::run();\nlet y = my_crate::discord::x;";
    assert_eq!(
        crate_modules_used(code),
        ["app", "discord", "engine", "console"]
    );
    assert!(names_crate(
        "use poise::serenity_prelude as serenity;",
        "poise"
    ));
    assert!(names_crate("fn f(c: &serenity::Context) {}", "serenity"));
    assert!(!names_crate("let x = not_serenity::y;", "serenity"));
}
