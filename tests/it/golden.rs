//! Golden games: every record in `tests/golden/` is replayed by the real binary and its exit code, stdout
//! and stderr are compared with the `.out` file beside it. `UPDATE_GOLDEN=1 cargo test --test it golden::`
//! rewrites the `.out` files (review the diff before committing).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sequence_bot::engine::PlayError;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn records() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .expect("tests/golden exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn replay(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sequence-bot"))
        .arg("replay")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sequence-bot");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write stdin");
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().expect("exit code, not a signal"),
        String::from_utf8(out.stdout).expect("utf8"),
        String::from_utf8(out.stderr).expect("utf8"),
    )
}

fn render(code: i32, stdout: &str, stderr: &str) -> String {
    format!("exit: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}")
}

#[test]
fn golden_records_replay_as_recorded() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let files = records();
    assert!(files.len() >= 40, "golden records missing");
    let mut failures = Vec::new();
    for file in &files {
        let (code, stdout, stderr) = replay(&[file.to_str().expect("path")], None);
        let actual = render(code, &stdout, &stderr);
        let expected_path = file.with_extension("out");
        if update {
            std::fs::write(&expected_path, &actual).expect("write .out");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(file.display().to_string());
        }
    }
    assert!(failures.is_empty(), "output differs for: {failures:#?}");
}

#[test]
fn file_names_say_what_happens_and_every_error_code_is_covered() {
    let mut codes_seen = BTreeSet::new();
    for file in records() {
        let name = file
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .to_string();
        let (code, stdout, stderr) = replay(&[file.to_str().expect("path")], None);
        if name.starts_with("malformed_") {
            assert_eq!(code, 2, "{name}");
            assert!(stdout.is_empty(), "{name}: nothing on stdout");
            assert!(stderr.starts_with("malformed record: "), "{name}: {stderr}");
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(&stdout).expect("JSON output");
        for field in [
            "status",
            "winner",
            "to_move",
            "board",
            "sequences",
            "hands",
            "draw_pile",
        ] {
            assert!(value.get(field).is_some(), "{name}: field {field} missing");
        }
        match name.split_once("_err_") {
            Some((_, expected)) => {
                assert_eq!(code, 1, "{name}");
                assert_eq!(value["error"]["code"], expected, "{name}");
                codes_seen.insert(expected.to_string());
            }
            None => {
                if code == 1 {
                    codes_seen.insert(value["error"]["code"].as_str().expect("code").to_string());
                } else {
                    assert_eq!(code, 0, "{name}");
                    assert!(value.get("error").is_none());
                }
            }
        }
    }
    for error in PlayError::ALL {
        assert!(
            codes_seen.contains(error.code()),
            "no golden record ends in {}",
            error.code()
        );
    }
}

#[test]
fn replay_reads_standard_input_and_reports_unreadable_files() {
    let file = golden_dir().join("random_classic_2p.json");
    let text = std::fs::read_to_string(&file).expect("read");
    let from_file = replay(&[file.to_str().expect("path")], None);
    let from_stdin = replay(&["-"], Some(&text));
    assert_eq!(from_file, from_stdin);
    let (code, stdout, stderr) = replay(&["/nonexistent/record.json"], None);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("cannot read"), "{stderr}");
    let (code, _, _) = replay(&["-"], Some(""));
    assert_eq!(code, 2, "an empty record is malformed");
}

#[test]
fn random_game_records_are_reproducible_from_the_command_line() {
    for game in ["classic", "dice", "kids"] {
        let args = ["--seed", "5", "--players", "3", "--game", game];
        let (code, first, _) = replay(&args, None);
        assert_eq!(code, 0);
        let (_, second, _) = replay(&args, None);
        assert_eq!(first, second, "same seed, same record");
        let (code, summary, _) = replay(&["-"], Some(&first));
        assert_eq!(code, 0, "{game}: {summary}");
        let value: serde_json::Value = serde_json::from_str(&summary).expect("json");
        assert_ne!(
            value["status"], "in_progress",
            "random games are played to the end"
        );
    }
    let (code, _, stderr) = replay(&["--seed", "1", "--players", "5"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("5 players"), "{stderr}");
}
