//! A whole game as an animated GIF: the empty board, then one frame per move that places or removes a
//! chip (each frame is the channel's board image after that move: the move's line in the header, the
//! chip framed, completed sequences drawn), the final board held at the end.
//!
//! Small and quick: one global palette of 255 colours (NeuQuant over the first and the last board, which
//! between them hold every colour a game shows) plus a transparent index; after the first frame each
//! frame holds only the rectangle that changed, its unchanged pixels transparent, so a move costs a few
//! KB. Only changed pixels are looked up in the palette.

use std::borrow::Cow;
use std::collections::HashMap;

use image::RgbaImage;

use super::{board_image_in, RenderError};
use crate::engine::record::Record;
use crate::engine::{Game, Move};
use crate::i18n::Lang;

/// How long the empty board shows, in hundredths of a second.
pub const FIRST_DELAY: u16 = 100;
/// How long each move shows.
pub const MOVE_DELAY: u16 = 60;
/// How long the final board is held before the animation starts again.
pub const LAST_DELAY: u16 = 500;

/// The palette index that means "unchanged" in every frame after the first.
const TRANSPARENT: u8 = 255;

/// An animated replay.
#[derive(Clone, Debug)]
pub struct Animation {
    /// The GIF file.
    pub gif: Vec<u8>,
    /// Its frames: the empty board and one per move that placed or removed a chip.
    pub frames: usize,
    /// The record's action after which each frame is drawn (`None` for the empty board).
    pub after: Vec<Option<usize>>,
}

/// Why a GIF could not be written.
fn gif_error(e: gif::EncodingError) -> RenderError {
    RenderError::Read(format!("could not encode the animation as GIF: {e}"))
}

/// Replays `record` and calls `frame` with the game as each frame shows it: first the empty board
/// (`None`), then after each action that placed or removed a chip (its index). Refuses a malformed
/// record or an illegal action (checked whole first, as `replay` checks it, so nothing is drawn for a
/// record that is refused later on).
pub fn each_frame(
    record: &Record,
    mut frame: impl FnMut(Option<usize>, &Game) -> Result<(), RenderError>,
) -> Result<(), RenderError> {
    if let Err(failure) = record.replay()? {
        return Err(RenderError::Illegal {
            index: failure.index,
            reason: failure.error,
        });
    }
    let mut game: Game = record.initial_game()?;
    let layout = game.position().layout();
    frame(None, &game)?;
    for (index, action) in record.actions.iter().enumerate() {
        if game.needs_roll() {
            let _ = game.roll();
        }
        let mv = action.to_move(game.config().variant, layout);
        let played = mv.and_then(|mv| game.play(action.seat, mv).map(|_| mv));
        match played {
            Ok(Move::Play { .. } | Move::Place { .. } | Move::Remove { .. }) => {
                frame(Some(index), &game)?;
            }
            Ok(Move::Exchange { .. } | Move::Pass) => {}
            Err(reason) => return Err(RenderError::Illegal { index, reason }),
        }
    }
    Ok(())
}

/// Maps colours to the palette, remembering each colour met.
struct Palette {
    quant: color_quant::NeuQuant,
    /// RGB, 256 entries (the last is the transparent one).
    rgb: Vec<u8>,
    known: HashMap<[u8; 4], u8>,
}

impl Palette {
    fn of(samples: &[&RgbaImage]) -> Palette {
        let mut pixels = Vec::new();
        for image in samples {
            pixels.extend_from_slice(image.as_raw());
        }
        // Every 30th pixel is plenty for a board of a few flat colours and anti-aliased edges, and a third
        // of the time of the usual 10.
        let quant = color_quant::NeuQuant::new(30, usize::from(TRANSPARENT), &pixels);
        let mut rgb = quant.color_map_rgb();
        rgb.resize(256 * 3, 0);
        Palette {
            quant,
            rgb,
            known: HashMap::new(),
        }
    }

    fn index(&mut self, pixel: [u8; 4]) -> u8 {
        let quant = &self.quant;
        *self
            .known
            .entry(pixel)
            .or_insert_with(|| u8::try_from(quant.index_of(&pixel)).unwrap_or(0))
    }
}

/// The smallest rectangle holding every pixel that differs between two images of one size:
/// (left, top, width, height), or `None` when they are the same.
fn changed(before: &RgbaImage, after: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let width = before.width() as usize;
    let row_bytes = width * 4;
    // (left, top, right, bottom), inclusive.
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    let rows = before
        .as_raw()
        .chunks_exact(row_bytes)
        .zip(after.as_raw().chunks_exact(row_bytes));
    for (row, (x, y)) in rows.enumerate() {
        if x == y {
            continue;
        }
        let differs = |(p, q): (&[u8], &[u8])| p != q;
        let left = x
            .chunks_exact(4)
            .zip(y.chunks_exact(4))
            .position(differs)
            .unwrap_or(0);
        let right = width
            - 1
            - x.chunks_exact(4)
                .rev()
                .zip(y.chunks_exact(4).rev())
                .position(differs)
                .unwrap_or(0);
        bounds = Some(match bounds {
            None => (left, row, right, row),
            Some((l, top, r, _)) => (l.min(left), top, r.max(right), row),
        });
    }
    bounds.map(|(left, top, right, bottom)| {
        (
            left as u32,
            top as u32,
            (right - left + 1) as u32,
            (bottom - top + 1) as u32,
        )
    })
}

/// The whole game of `record` as an animated GIF (see the module's documentation), with the seats
/// named `names` and the words in `lang`. Refuses a malformed record or an illegal action like
/// `replay`.
///
/// Drawn one frame at a time: at most three board images are in memory at once (the first and the
/// last, for the palette, and the one before the frame being written), however long the game.
pub fn animate(record: &Record, names: &[String], lang: Lang) -> Result<Animation, RenderError> {
    // First the frames' moments without drawing, keeping the game of the last one.
    let mut after: Vec<Option<usize>> = Vec::new();
    let mut last_game: Option<Game> = None;
    each_frame(record, |index, game| {
        after.push(index);
        last_game = Some(game.clone());
        Ok(())
    })?;
    let last_game = last_game.ok_or_else(|| RenderError::Read("a game without a board".into()))?;
    let first = board_image_in(&record.initial_game()?.public_view(), names, lang);
    let (width, height) = first.dimensions();
    let (Ok(w16), Ok(h16)) = (u16::try_from(width), u16::try_from(height)) else {
        return Err(RenderError::Read("the board is too large for a GIF".into()));
    };
    let last = after.len() - 1;
    let mut palette = Palette::of(&[
        &first,
        &board_image_in(&last_game.public_view(), names, lang),
    ]);
    drop(last_game);
    let mut first = Some(first);
    let mut gif = Vec::with_capacity(512 * 1024);
    {
        let mut encoder = gif::Encoder::new(&mut gif, w16, h16, &palette.rgb).map_err(gif_error)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(gif_error)?;
        // The image of the frame before, which the next frame's changed rectangle is taken against.
        let mut previous: Option<RgbaImage> = None;
        let mut i = 0;
        each_frame(record, |_, game| {
            let image = match first.take() {
                Some(image) => image,
                None => board_image_in(&game.public_view(), names, lang),
            };
            let delay = match i {
                _ if i == last => LAST_DELAY,
                0 => FIRST_DELAY,
                _ => MOVE_DELAY,
            };
            let frame = if let Some(before) = &previous {
                // A move that changed nothing visible still takes its time: one transparent pixel.
                let (left, top, w, h) = changed(before, &image).unwrap_or((0, 0, 1, 1));
                let mut buffer = Vec::with_capacity((w * h) as usize);
                let row_bytes = width as usize * 4;
                let (from, to) = (left as usize * 4, (left + w) as usize * 4);
                for y in top as usize..(top + h) as usize {
                    let row = y * row_bytes;
                    let was = &before.as_raw()[row + from..row + to];
                    let now = &image.as_raw()[row + from..row + to];
                    for (p, q) in was.chunks_exact(4).zip(now.chunks_exact(4)) {
                        buffer.push(if p == q {
                            TRANSPARENT
                        } else {
                            palette.index([q[0], q[1], q[2], q[3]])
                        });
                    }
                }
                gif::Frame {
                    left: left as u16,
                    top: top as u16,
                    width: w as u16,
                    height: h as u16,
                    buffer: Cow::Owned(buffer),
                    transparent: Some(TRANSPARENT),
                    dispose: gif::DisposalMethod::Keep,
                    delay,
                    ..gif::Frame::default()
                }
            } else {
                let buffer: Vec<u8> = image.pixels().map(|p| palette.index(p.0)).collect();
                gif::Frame {
                    width: w16,
                    height: h16,
                    buffer: Cow::Owned(buffer),
                    delay,
                    ..gif::Frame::default()
                }
            };
            encoder.write_frame(&frame).map_err(gif_error)?;
            previous = Some(image);
            i += 1;
            Ok(())
        })?;
    }
    Ok(Animation {
        frames: after.len(),
        after,
        gif,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{BitIter, Config, Options, Variant};
    use crate::render::cli::game_after;
    use crate::render::{chip_position, team_colour};

    fn record(variant: Variant, players: u8, teams: Option<u8>, seed: u64) -> Record {
        let config = Config::new(variant, players, teams, Options::default()).expect("set-up");
        Record::random_game(config, seed)
    }

    /// Every frame of a GIF as the viewer shows it (each drawn over the ones before).
    fn decode(gif_bytes: &[u8]) -> Vec<(RgbaImage, u16, u32)> {
        // (the picture shown, the frame's delay, how many pixels the frame itself sets)
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(gif_bytes).expect("a GIF");
        let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
        let mut canvas = RgbaImage::new(width, height);
        let mut frames = Vec::new();
        while let Some(frame) = decoder.read_next_frame().expect("a frame") {
            for y in 0..u32::from(frame.height) {
                for x in 0..u32::from(frame.width) {
                    let at = ((y * u32::from(frame.width) + x) * 4) as usize;
                    let rgba = &frame.buffer[at..at + 4];
                    if rgba[3] != 0 {
                        canvas.put_pixel(
                            u32::from(frame.left) + x,
                            u32::from(frame.top) + y,
                            image::Rgba([rgba[0], rgba[1], rgba[2], 255]),
                        );
                    }
                }
            }
            let set = frame.buffer.chunks_exact(4).filter(|p| p[3] != 0).count();
            frames.push((canvas.clone(), frame.delay, set as u32));
        }
        frames
    }

    /// The team whose colour a pixel is close to (palette colours are near, not equal).
    fn team_at(pixel: image::Rgba<u8>, variant: Variant, teams: u8) -> Option<u8> {
        (0..teams).find(|&team| {
            let colour = team_colour(variant, team);
            (0..3)
                .map(|i| i32::from(pixel[i]).abs_diff(i32::from(colour[i])))
                .sum::<u32>()
                < 45
        })
    }

    #[test]
    fn every_frame_shows_the_recorded_position() {
        for (variant, players, teams, seed) in [
            (Variant::Classic, 2, None, 5),
            (Variant::Dice, 3, None, 3),
            (Variant::Kids, 4, None, 9),
            (Variant::Classic, 6, Some(3), 21),
        ] {
            // The start of each game: drawing is slow in debug builds (the whole games are animated
            // by the benchmark, `cargo bench --bench render`).
            let mut record = record(variant, players, teams, seed);
            record.actions.truncate(10);
            let animation = animate(&record, &[], Lang::En).expect("animated");
            let frames = decode(&animation.gif);
            assert_eq!(frames.len(), animation.frames);
            assert_eq!(animation.after.len(), animation.frames);
            let moves = record
                .actions
                .iter()
                .filter(|a| a.play.is_some() || a.cell.is_some() || a.remove.is_some())
                .count();
            assert_eq!(animation.frames, moves + 1, "{variant}: one frame per move");
            let (width, height) = frames[0].0.dimensions();
            for (k, ((image, delay, set), after)) in frames.iter().zip(&animation.after).enumerate()
            {
                let game = game_after(&record, Some(after.map_or(0, |i| i + 1))).expect("replays");
                let position = game.position();
                let layout = position.layout();
                // The frame is the channel's board image of that position, up to the palette.
                let board = board_image_in(&game.public_view(), &[], Lang::En);
                let difference: u64 = image
                    .as_raw()
                    .iter()
                    .zip(board.as_raw())
                    .map(|(a, b)| u64::from(a.abs_diff(*b)))
                    .sum();
                let mean = difference as f64 / f64::from(width * height * 4);
                assert!(mean < 4.0, "{variant} frame {k}: mean difference {mean:.2}");
                // And every chip of the position is there in its team's colour, every other cell
                // as on the board image.
                let in_sequence: u128 = position.sequences().iter().fold(0, |a, s| a | s.mask);
                for cell in BitIter(layout.all & !layout.corners & !in_sequence) {
                    let ((cx, cy), r) = chip_position(layout, cell);
                    let at = ((cx + r * 0.5) as u32, cy as u32);
                    let teams = position.config().teams;
                    let seen = team_at(*image.get_pixel(at.0, at.1), variant, teams);
                    let expected = match position.owner(cell) {
                        Some(team) => Some(team),
                        None => team_at(*board.get_pixel(at.0, at.1), variant, teams),
                    };
                    assert_eq!(
                        seen,
                        expected,
                        "{variant} frame {k}: cell {}",
                        layout.cell_name(cell)
                    );
                }
                let expected_delay = if k + 1 == frames.len() {
                    LAST_DELAY
                } else if k == 0 {
                    FIRST_DELAY
                } else {
                    MOVE_DELAY
                };
                assert_eq!(*delay, expected_delay);
                if k > 0 {
                    // Stored as a difference: only what changed (the header's lines, the cells of
                    // this move and the last one) is set, far less than the whole board.
                    assert!(
                        *set < width * height / 20,
                        "{variant} frame {k}: {set} pixels"
                    );
                }
            }
            assert_eq!(frames[0].2, width * height);
        }
    }

    #[test]
    fn king_of_the_board_frames_show_the_zone_where_it_is() {
        let text = include_str!("../../tests/golden/kotb_zone_moves_twice.json");
        let record = Record::from_json(text).expect("a record");
        let animation = animate(&record, &[], Lang::En).expect("animated");
        let frames = decode(&animation.gif);
        let layout = crate::engine::Layout::standard(Variant::Classic);
        let g = crate::render::Geometry::of(layout);
        // Beside the centre's row, in the frame drawn in the gap left of the zone's first column.
        let frame_point = |centre: crate::engine::Cell| {
            let (top_left, _) = crate::engine::zone_corners(centre);
            let (x, _, _, _) = g.cell_rect(top_left);
            let (_, y, _, h) = g.cell_rect(centre);
            (x - 3, y + h / 2)
        };
        let near_zone = |p: image::Rgba<u8>| {
            (0..3)
                .map(|i| u32::from(p[i].abs_diff(crate::render::ZONE[i])))
                .sum::<u32>()
                < 45
        };
        let mut centres = Vec::new();
        for ((image, _, _), after) in frames.iter().zip(&animation.after) {
            let game = game_after(&record, Some(after.map_or(0, |i| i + 1))).expect("replays");
            let zone = game.position().zone().expect("a zone");
            let (x, y) = frame_point(zone);
            assert!(
                near_zone(*image.get_pixel(x, y)),
                "{after:?}: {:?}",
                image.get_pixel(x, y)
            );
            // (The frames of side-by-side zones share a gap: compare with the zones above and below.)
            let column = |c: crate::engine::Cell| c.col(10);
            for other in crate::engine::ZONE_CENTRES
                .iter()
                .filter(|&&c| c != zone && column(c) == column(zone))
            {
                let (x, y) = frame_point(*other);
                assert!(!near_zone(*image.get_pixel(x, y)), "{after:?}");
            }
            centres.push(zone);
        }
        centres.dedup();
        assert_eq!(centres.len(), 3, "the zone moved twice: {centres:?}");
    }

    #[test]
    fn a_record_with_an_illegal_action_is_refused() {
        let mut record = record(Variant::Classic, 2, None, 5);
        record.actions.swap(0, 1);
        assert!(matches!(
            animate(&record, &[], Lang::En),
            Err(RenderError::Illegal { index: 0, .. })
        ));
    }
}
