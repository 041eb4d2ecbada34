//! `sequence-bot render RECORD.json --out board.png [--seat N] [--after K] [--lang de]`: draws any
//! position of any recorded game.

use std::path::{Path, PathBuf};

use super::{board_png_in, hand_png_in, RenderError};
use crate::engine::record::Record;
use crate::engine::Game;
use crate::i18n::Lang;

/// What to render.
#[derive(Clone, Debug, Default)]
pub struct RenderArgs {
    /// The record file (`-` for standard input).
    pub record: String,
    /// Where the board PNG goes (`--out`).
    pub out: Option<PathBuf>,
    /// Where the animated replay of the whole game goes (`--animate`).
    pub animate: Option<PathBuf>,
    /// Also draw this seat's hand.
    pub seat: Option<u8>,
    /// Replay only the first K actions (default: all).
    pub after: Option<usize>,
    /// Where the hand PNG goes (default: `OUT` with `.hand.png`).
    pub hand_out: Option<PathBuf>,
    /// Display names of the seats, in seat order.
    pub names: Vec<String>,
    /// Language of the words on the images.
    pub lang: Lang,
}

/// The hand image's default path: `board.png` gives `board.hand.png`.
pub fn default_hand_path(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "board".into());
    out.with_file_name(format!("{stem}.hand.png"))
}

/// The game after the first `after` actions of the record (all when `None`).
pub fn game_after(record: &Record, after: Option<usize>) -> Result<Game, RenderError> {
    let actions = record.actions.len();
    let after = after.unwrap_or(actions);
    if after > actions {
        return Err(RenderError::TooFar { after, actions });
    }
    match record.replay_first(after)? {
        Ok(game) => Ok(game),
        Err(failure) => Err(RenderError::Illegal {
            index: failure.index,
            reason: failure.error,
        }),
    }
}

/// Renders as asked and returns the paths written.
pub fn render(args: &RenderArgs) -> Result<Vec<PathBuf>, RenderError> {
    let text = crate::cli::read_input(&args.record).map_err(RenderError::Read)?;
    let record = Record::from_json(&text)?;
    let game = game_after(&record, args.after)?;
    let players = game.config().players;
    if let Some(seat) = args.seat {
        if seat >= players {
            return Err(RenderError::Seat {
                seat,
                last: players.saturating_sub(1),
            });
        }
    }
    let mut written = Vec::new();
    if args.out.is_none() && args.animate.is_none() {
        return Err(RenderError::Read(
            "say where the images go: --out board.png, --animate game.gif, or both".into(),
        ));
    }
    if let Some(path) = &args.animate {
        let animation = super::animate::animate(&record, &args.names, args.lang)?;
        write(path, &animation.gif)?;
        written.push(path.clone());
    }
    let Some(out) = &args.out else {
        if args.seat.is_some() || args.hand_out.is_some() {
            return Err(RenderError::Read(
                "--seat and --hand-out draw a hand beside the board: add --out board.png".into(),
            ));
        }
        return Ok(written);
    };
    let board = board_png_in(&game.public_view(), &args.names, args.lang)?;
    write(out, &board)?;
    written.push(out.clone());
    if let Some(seat) = args.seat {
        let path = args
            .hand_out
            .clone()
            .unwrap_or_else(|| default_hand_path(out));
        write(
            &path,
            &hand_png_in(&game.view(seat), &args.names, args.lang)?,
        )?;
        written.push(path);
    }
    Ok(written)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
    std::fs::write(path, bytes).map_err(|source| RenderError::File {
        action: "write",
        path: path.display().to_string(),
        source,
    })
}

/// Runs `render` for the command line: prints what was written or the error; returns the exit code.
pub fn run(args: &RenderArgs) -> i32 {
    match render(args) {
        Ok(paths) => {
            for path in paths {
                if let Err(e) = crate::cli::print_line(&format!("wrote {}", path.display())) {
                    crate::cli::print_error(&e);
                    return 2;
                }
            }
            0
        }
        Err(e) => {
            crate::cli::print_error(&e.to_string());
            match e {
                RenderError::Illegal { .. } => 1,
                _ => 2,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Config, Options, Variant};

    fn record_file(dir: &Path) -> (PathBuf, Record) {
        let config = Config::new(Variant::Classic, 2, None, Options::default()).expect("config");
        let record = Record::random_game(config, 7);
        let path = dir.join("game.json");
        std::fs::write(&path, serde_json::to_string(&record).expect("json")).expect("write");
        (path, record)
    }

    #[test]
    fn writes_board_and_hand() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (path, _) = record_file(dir.path());
        let out = dir.path().join("board.png");
        let args = RenderArgs {
            record: path.display().to_string(),
            out: Some(out.clone()),
            seat: Some(1),
            after: Some(10),
            ..RenderArgs::default()
        };
        let written = render(&args).expect("renders");
        assert_eq!(
            written,
            vec![out.clone(), dir.path().join("board.hand.png")]
        );
        for p in written {
            let img = image::open(&p).expect("decodes");
            assert!((1000..=1200).contains(&img.width()));
        }
    }

    #[test]
    fn refuses_bad_input_clearly() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (path, record) = record_file(dir.path());
        let out = dir.path().join("b.png");
        let base = RenderArgs {
            record: path.display().to_string(),
            out: Some(out.clone()),
            ..RenderArgs::default()
        };
        let too_far = RenderArgs {
            after: Some(record.actions.len() + 1),
            ..base.clone()
        };
        assert!(matches!(render(&too_far), Err(RenderError::TooFar { .. })));
        let bad_seat = RenderArgs {
            seat: Some(2),
            ..base.clone()
        };
        let err = render(&bad_seat).expect_err("seat 2 of 2 players");
        assert_eq!(
            err.to_string(),
            "seat 2 is not in this game: its seats are 0 to 1"
        );
        let missing = RenderArgs {
            record: dir.path().join("nope.json").display().to_string(),
            ..base.clone()
        };
        assert!(matches!(render(&missing), Err(RenderError::Read(_))));
        // An illegal action: replaying up to it fails with its index, but earlier positions still draw.
        let mut bad = record.clone();
        bad.actions[3].cell = Some("Z99".into());
        std::fs::write(&path, serde_json::to_string(&bad).expect("json")).expect("write");
        let illegal = RenderArgs {
            after: Some(5),
            ..base.clone()
        };
        assert!(matches!(
            render(&illegal),
            Err(RenderError::Illegal { index: 3, .. })
        ));
        assert_eq!(run(&illegal), 1);
        let earlier = RenderArgs {
            after: Some(3),
            out: Some(dir.path().join("ok.png")),
            ..base.clone()
        };
        assert!(render(&earlier).is_ok());
        std::fs::write(&path, "{not json").expect("write");
        assert!(matches!(render(&base), Err(RenderError::Record(_))));
        assert!(!out.exists(), "nothing is written on error");
        assert_eq!(run(&base), 2);
    }
}
