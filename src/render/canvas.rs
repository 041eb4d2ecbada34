//! Drawing primitives on `RgbaImage`: anti-aliased shapes from signed distances, alpha blending, sprites
//! and text. Everything clips at the image edges, so no coordinate can panic.

use ab_glyph::{point, Font, FontRef, GlyphId, PxScale, ScaleFont};
use image::{Rgba, RgbaImage};

use super::assets::{bold_fallback_fonts, fallback_fonts, is_bold};
use super::texts::fill;

/// A colour with alpha.
pub type Colour = Rgba<u8>;

/// An opaque colour from its hex value `0xRRGGBB`.
pub const fn rgb(hex: u32) -> Colour {
    Rgba([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255])
}

/// The same colour with another alpha.
pub const fn with_alpha(c: Colour, alpha: u8) -> Colour {
    Rgba([c.0[0], c.0[1], c.0[2], alpha])
}

/// Mixes two colours: `t = 0` gives `a`, `t = 1` gives `b`.
pub fn mix(a: Colour, b: Colour, t: f32) -> Colour {
    let t = t.clamp(0.0, 1.0);
    let f = |x: u8, y: u8| (f32::from(x) * (1.0 - t) + f32::from(y) * t).round() as u8;
    Rgba([
        f(a.0[0], b.0[0]),
        f(a.0[1], b.0[1]),
        f(a.0[2], b.0[2]),
        f(a.0[3], b.0[3]),
    ])
}

/// Blends `src` over the pixel at (x, y) with extra coverage `cov` in 0..=1; out-of-bounds is ignored.
#[inline]
pub fn blend(img: &mut RgbaImage, x: i32, y: i32, src: Colour, cov: f32) {
    if x < 0 || y < 0 || x >= img.width() as i32 || y >= img.height() as i32 {
        return;
    }
    blend_pixel(img.get_pixel_mut(x as u32, y as u32), src, cov);
}

/// [`blend_pixel`] over the four bytes (RGBA) of one pixel in an image's raw buffer.
#[inline(always)]
fn blend_bytes(p: &mut [u8], src: Colour, cov: f32) {
    let mut pixel = Rgba([p[0], p[1], p[2], p[3]]);
    blend_pixel(&mut pixel, src, cov);
    p.copy_from_slice(&pixel.0);
}

/// Blends `src` with coverage `cov` (0..=1) over one pixel. Every image drawn here is opaque under what
/// is drawn on it, so that case is integer arithmetic (`src·a + dst·(255 − a)`, rounded, in units of
/// 1/255); the general "over" of two translucent colours is kept for sprites with transparent pixels.
#[inline(always)]
fn blend_pixel(dst: &mut Colour, src: Colour, cov: f32) {
    let a = f32::from(src.0[3]) * cov.clamp(0.0, 1.0);
    // `as` saturates, and NaN becomes 0: no coverage.
    let a8 = (a + 0.5) as u32;
    if a8 == 0 {
        return;
    }
    if a8 >= 255 {
        dst.0 = [src.0[0], src.0[1], src.0[2], 255];
        return;
    }
    if dst.0[3] == 255 {
        let keep = 255 - a8;
        for i in 0..3 {
            let v = u32::from(src.0[i]) * a8 + u32::from(dst.0[i]) * keep;
            // v / 255, rounded (exact for v <= 255 * 255).
            dst.0[i] = ((v + 128 + ((v + 128) >> 8)) >> 8) as u8;
        }
        return;
    }
    let a = a / 255.0;
    let da = f32::from(dst.0[3]) / 255.0;
    let out_a = a + da * (1.0 - a);
    if out_a <= 0.0 {
        return;
    }
    for i in 0..3 {
        let s = f32::from(src.0[i]);
        let d = f32::from(dst.0[i]);
        dst.0[i] = ((s * a + d * da * (1.0 - a)) / out_a)
            .round()
            .clamp(0.0, 255.0) as u8;
    }
    dst.0[3] = (out_a * 255.0).round() as u8;
}

/// Fills the pixels of a bounding box whose centre has signed distance `sd(x, y) < 0`, anti-aliased over
/// one pixel. Coordinates are pixel centres in image space.
pub fn fill_sdf(
    img: &mut RgbaImage,
    (x0, y0, x1, y1): (f32, f32, f32, f32),
    colour: Colour,
    sd: impl Fn(f32, f32) -> f32,
) {
    let w = img.width() as i32;
    let h = img.height() as i32;
    let xa = (x0.floor() as i32 - 1).max(0);
    let ya = (y0.floor() as i32 - 1).max(0);
    let xb = (x1.ceil() as i32 + 1).min(w - 1);
    let yb = (y1.ceil() as i32 + 1).min(h - 1);
    if xa > xb || ya > yb {
        return;
    }
    let stride = w as usize * 4;
    let raw: &mut [u8] = img;
    for y in ya..=yb {
        let start = y as usize * stride;
        let Some(row) = raw.get_mut(start + xa as usize * 4..start + (xb as usize + 1) * 4) else {
            continue;
        };
        for (x, p) in (xa..=xb).zip(row.chunks_exact_mut(4)) {
            let d = sd(x as f32 + 0.5, y as f32 + 0.5);
            let cov = 0.5 - d;
            if cov > 0.0 {
                blend_bytes(p, colour, cov.min(1.0));
            }
        }
    }
}

/// Signed distance to a rounded rectangle given by its centre, half size and corner radius.
#[inline]
pub fn sd_round_rect(x: f32, y: f32, cx: f32, cy: f32, hw: f32, hh: f32, r: f32) -> f32 {
    let qx = (x - cx).abs() - (hw - r);
    let qy = (y - cy).abs() - (hh - r);
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - r
}

/// Signed distance to a segment thickened to `half` on each side (a capsule).
#[inline]
pub fn sd_segment(x: f32, y: f32, (ax, ay): (f32, f32), (bx, by): (f32, f32), half: f32) -> f32 {
    let (px, py) = (x - ax, y - ay);
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        ((px * dx + py * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (qx, qy) = (px - dx * t, py - dy * t);
    (qx * qx + qy * qy).sqrt() - half
}

/// A filled rectangle (no anti-aliasing needed: integer edges).
pub fn fill_rect(img: &mut RgbaImage, x: i32, y: i32, w: i32, h: i32, colour: Colour) {
    let (iw, ih) = (img.width() as i32, img.height() as i32);
    let (x0, x1) = (x.max(0), x.saturating_add(w).min(iw));
    if x0 >= x1 {
        return;
    }
    let stride = iw as usize * 4;
    let raw: &mut [u8] = img;
    for yy in y.max(0)..y.saturating_add(h).min(ih) {
        let start = yy as usize * stride;
        if let Some(row) = raw.get_mut(start + x0 as usize * 4..start + x1 as usize * 4) {
            for p in row.chunks_exact_mut(4) {
                blend_bytes(p, colour, 1.0);
            }
        }
    }
}

/// A filled rounded rectangle of an opaque colour on whole pixels (top-left (x, y), size (w, h), corner
/// radius `r`): the inside is written row by row and only the four corners are anti-aliased, so a large
/// panel costs a memory fill rather than a blend per pixel. A colour with transparency is blended.
pub fn solid_round_rect(img: &mut RgbaImage, x: i32, y: i32, w: i32, h: i32, r: i32, c: Colour) {
    if w <= 0 || h <= 0 {
        return;
    }
    if c.0[3] != 255 {
        round_rect(img, x as f32, y as f32, w as f32, h as f32, r as f32, c);
        return;
    }
    let r = r.clamp(0, w.min(h) / 2);
    let (iw, ih) = (img.width() as i32, img.height() as i32);
    let stride = iw as usize * 4;
    let raw: &mut [u8] = img;
    for yy in y.max(0)..(y + h).min(ih) {
        let corner_row = yy < y + r || yy >= y + h - r;
        let (x0, x1) = if corner_row {
            (x + r, x + w - r)
        } else {
            (x, x + w)
        };
        let (x0, x1) = (x0.max(0), x1.min(iw));
        if x0 >= x1 {
            continue;
        }
        let start = yy as usize * stride;
        if let Some(row) = raw.get_mut(start + x0 as usize * 4..start + x1 as usize * 4) {
            for p in row.chunks_exact_mut(4) {
                p.copy_from_slice(&c.0);
            }
        }
    }
    if r > 0 {
        let (cx, cy) = (x as f32 + w as f32 / 2.0, y as f32 + h as f32 / 2.0);
        let (hw, hh, rf) = (w as f32 / 2.0, h as f32 / 2.0, r as f32);
        let sd = |px: f32, py: f32| sd_round_rect(px, py, cx, cy, hw, hh, rf);
        for (bx, by) in [
            (x, y),
            (x + w - r, y),
            (x, y + h - r),
            (x + w - r, y + h - r),
        ] {
            let (bx, by) = (bx as f32, by as f32);
            fill_sdf(
                img,
                (bx + 1.0, by + 1.0, bx + rf - 2.0, by + rf - 2.0),
                c,
                sd,
            );
        }
    }
}

/// A filled rounded rectangle with top-left (x, y) and size (w, h).
pub fn round_rect(img: &mut RgbaImage, x: f32, y: f32, w: f32, h: f32, r: f32, colour: Colour) {
    let (cx, cy, hw, hh) = (x + w / 2.0, y + h / 2.0, w / 2.0, h / 2.0);
    fill_sdf(img, (x, y, x + w, y + h), colour, |px, py| {
        sd_round_rect(px, py, cx, cy, hw, hh, r)
    });
}

/// The outline of a rounded rectangle, `t` pixels thick, inside the given box.
#[allow(clippy::too_many_arguments)]
pub fn round_rect_outline(
    img: &mut RgbaImage,
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    r: f32,
    t: f32,
    colour: Colour,
) {
    let (cx, cy, hw, hh) = (x + w / 2.0, y + h / 2.0, w / 2.0, h / 2.0);
    fill_sdf(img, (x, y, x + w, y + h), colour, |px, py| {
        let d = sd_round_rect(px, py, cx, cy, hw, hh, r);
        (d + t / 2.0).abs() - t / 2.0
    });
}

/// A filled circle.
pub fn circle(img: &mut RgbaImage, cx: f32, cy: f32, r: f32, colour: Colour) {
    fill_sdf(img, (cx - r, cy - r, cx + r, cy + r), colour, |x, y| {
        ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r
    });
}

/// A ring of radius `r` (middle of the stroke) and stroke width `t`.
pub fn ring(img: &mut RgbaImage, cx: f32, cy: f32, r: f32, t: f32, colour: Colour) {
    let o = r + t;
    fill_sdf(img, (cx - o, cy - o, cx + o, cy + o), colour, |x, y| {
        (((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r).abs() - t / 2.0
    });
}

/// A dashed ring: `dashes` dashes around the circle.
pub fn dashed_ring(img: &mut RgbaImage, cx: f32, cy: f32, r: f32, t: f32, dashes: u32, c: Colour) {
    let o = r + t;
    let n = dashes.max(1) as f32;
    fill_sdf(img, (cx - o, cy - o, cx + o, cy + o), c, |x, y| {
        let d = (((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r).abs() - t / 2.0;
        let angle = (y - cy).atan2(x - cx) / std::f32::consts::TAU * n;
        let phase = angle - angle.floor();
        if phase < 0.55 {
            d
        } else {
            1.0
        }
    });
}

/// A thick line with round caps.
pub fn line(img: &mut RgbaImage, a: (f32, f32), b: (f32, f32), width: f32, colour: Colour) {
    let half = width / 2.0;
    let bbox = (
        a.0.min(b.0) - half,
        a.1.min(b.1) - half,
        a.0.max(b.0) + half,
        a.1.max(b.1) + half,
    );
    fill_sdf(img, bbox, colour, |x, y| sd_segment(x, y, a, b, half));
}

/// Draws `sprite` with its top-left at (x, y), blending by the sprite's alpha.
pub fn blit(img: &mut RgbaImage, sprite: &RgbaImage, x: i32, y: i32) {
    let (iw, ih) = (img.width() as i32, img.height() as i32);
    for sy in 0..sprite.height() as i32 {
        let ty = y + sy;
        if ty < 0 || ty >= ih {
            continue;
        }
        for sx in 0..sprite.width() as i32 {
            let tx = x + sx;
            if tx < 0 || tx >= iw {
                continue;
            }
            let p = *sprite.get_pixel(sx as u32, sy as u32);
            match p.0[3] {
                0 => {}
                255 => img.put_pixel(tx as u32, ty as u32, p),
                _ => blend(img, tx, ty, p, 1.0),
            }
        }
    }
}

/// Copies a rectangle from `src` to the same place in `dst` (both the same size).
pub fn copy_rect(dst: &mut RgbaImage, src: &RgbaImage, x: u32, y: u32, w: u32, h: u32) {
    if dst.dimensions() != src.dimensions() {
        return;
    }
    let width = dst.width();
    let x1 = (x + w).min(width);
    let y1 = (y + h).min(dst.height());
    if x >= x1 {
        return;
    }
    let stride = width as usize * 4;
    let (from, to) = (x as usize * 4, x1 as usize * 4);
    let dst_raw: &mut [u8] = dst;
    let src_raw: &[u8] = src;
    for row in y..y1 {
        let start = row as usize * stride;
        if let (Some(d), Some(s)) = (
            dst_raw.get_mut(start + from..start + to),
            src_raw.get(start + from..start + to),
        ) {
            d.copy_from_slice(s);
        }
    }
}

/// Where a text is anchored horizontally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// `x` is the left edge.
    Left,
    /// `x` is the centre.
    Centre,
    /// `x` is the right edge.
    Right,
}

/// Characters drawn as nothing: joiners, variation selectors and skin-tone modifiers only change the
/// look of the emoji before them.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{FE00}'..='\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}')
        || matches!(c, '\u{E0020}'..='\u{E007F}')
}

/// What a character not in any shipped font is drawn as: a question mark, which reads as "a sign
/// this picture cannot show" rather than an empty box.
pub const REPLACEMENT: char = '?';

/// The font and glyph that draw `c`: `font` if it has the glyph, else the first shipped fallback
/// (CJK, bold for a bold `font`, then emoji and the rest of Unicode) that has it, else [`REPLACEMENT`] in `font`; `None` for
/// an invisible character. Glyph by glyph, so a name mixing scripts draws every part.
pub fn glyph_for<'a>(
    font: &'a FontRef<'static>,
    c: char,
) -> Option<(&'a FontRef<'static>, GlyphId)> {
    if is_invisible(c) {
        return None;
    }
    let id = font.glyph_id(c);
    if id.0 != 0 || c.is_control() {
        return Some((font, id));
    }
    let fallbacks = if is_bold(font) {
        bold_fallback_fonts()
    } else {
        fallback_fonts()
    };
    for fallback in fallbacks {
        let id = fallback.glyph_id(c);
        if id.0 != 0 {
            return Some((fallback, id));
        }
    }
    Some((font, font.glyph_id(REPLACEMENT)))
}

/// The glyphs of `text` with the byte index of their character.
fn glyphs<'a>(
    font: &'a FontRef<'static>,
    text: &'a str,
) -> impl Iterator<Item = (usize, &'a FontRef<'static>, GlyphId)> + 'a {
    text.char_indices()
        .filter_map(move |(at, c)| glyph_for(font, c).map(|(f, id)| (at, f, id)))
}

/// The scale that draws `font` with the em of DejaVu Sans at `size`. ab_glyph's `PxScale` is the
/// font's ascent minus descent, which is 1.164 em in DejaVu but 1.448 em in Noto Sans CJK: at the same
/// `PxScale` a Chinese name came out a fifth smaller than the Latin text around it.
fn scale_of(font: &FontRef<'static>, size: f32) -> PxScale {
    const DEJAVU_HEIGHT_EM: f32 = 1.164;
    let em = font.units_per_em().unwrap_or(1000.0).max(1.0);
    let height = font.height_unscaled() / em;
    if (height - DEJAVU_HEIGHT_EM).abs() < 0.01 || height <= 0.0 {
        return PxScale::from(size);
    }
    PxScale::from(size * height / DEJAVU_HEIGHT_EM)
}

/// The horizontal advance of a glyph, with the kerning after the previous one (of the same font).
fn advance(
    size: f32,
    last: Option<(&FontRef<'static>, GlyphId)>,
    font: &FontRef<'static>,
    id: GlyphId,
) -> (f32, f32) {
    let scaled = font.as_scaled(scale_of(font, size));
    let kern = match last {
        Some((prev_font, prev)) if std::ptr::eq(prev_font, font) => scaled.kern(prev, id),
        _ => 0.0,
    };
    (kern, scaled.h_advance(id))
}

/// Width in pixels of `text` at `size`.
pub fn text_width(font: &FontRef<'static>, size: f32, text: &str) -> f32 {
    let mut width = 0.0;
    let mut last = None;
    for (_, f, id) in glyphs(font, text) {
        let (kern, step) = advance(size, last, f, id);
        width += kern + step;
        last = Some((f, id));
    }
    width
}

/// Shortens `text` with an ellipsis until it fits `max` pixels: the longest shorter prefix that fits
/// with "…" after it (an empty string when not even "…" fits). One pass over the text, measuring each
/// prefix as it grows, so a long text costs linear time rather than a measurement per cut.
pub fn fit_text(font: &FontRef<'static>, size: f32, text: &str, max: f32) -> String {
    if text_width(font, size, text) <= max {
        return text.to_string();
    }
    let ellipsis = font.glyph_id('…');
    let mut width = 0.0;
    let mut last = None;
    let mut cut = None;
    for (at, f, id) in glyphs(font, text) {
        // `width` is the width of `text[..at]`, whose last glyph is `last`.
        let (kern, step) = advance(size, last, font, ellipsis);
        if width + kern + step <= max {
            cut = Some(at);
        }
        let (kern, step) = advance(size, last, f, id);
        width += kern + step;
        last = Some((f, id));
    }
    match cut {
        Some(at) => format!("{}…", &text[..at]),
        None => String::new(),
    }
}

/// `template` filled with `values` (see [`fill`]), the value under `key` (a name) shortened first so
/// that the words around it stay whole within `max` pixels ("Wolfgang Amad… to play", not "Wolfgang
/// Amadeus Moz…"); the whole is shortened as well if even that is not enough.
pub fn fill_fitting(
    font: &FontRef<'static>,
    size: f32,
    template: &str,
    values: &[(&str, &str)],
    key: &str,
    max: f32,
) -> String {
    let whole = fill(template, values);
    if text_width(font, size, &whole) <= max {
        return whole;
    }
    let replaced = |by: &str| -> Vec<(&str, String)> {
        values
            .iter()
            .map(|&(k, v)| {
                (
                    k,
                    if k == key {
                        by.to_string()
                    } else {
                        v.to_string()
                    },
                )
            })
            .collect()
    };
    let filled = |pairs: &[(&str, String)]| {
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        fill(template, &pairs)
    };
    let around = text_width(font, size, &filled(&replaced("")));
    let value = values
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("", |(_, v)| *v);
    let value = fit_text(font, size, value, max - around);
    fit_text(font, size, &filled(&replaced(&value)), max)
}

/// Draws `text` with its baseline at `y`; returns the drawn width.
pub fn text(
    img: &mut RgbaImage,
    font: &FontRef<'static>,
    size: f32,
    (x, y): (f32, f32),
    align: Align,
    colour: Colour,
    text: &str,
) -> f32 {
    let width = text_width(font, size, text);
    let mut pen = match align {
        Align::Left => x,
        Align::Centre => x - width / 2.0,
        Align::Right => x - width,
    };
    let mut last = None;
    for (_, f, id) in glyphs(font, text) {
        let (kern, step) = advance(size, last, f, id);
        pen += kern;
        let glyph = id.with_scale_and_position(scale_of(f, size), point(pen.round(), y.round()));
        if let Some(outlined) = f.outline_glyph(glyph) {
            let bounds = outlined.px_bounds();
            let (bx, by) = (bounds.min.x as i32, bounds.min.y as i32);
            outlined.draw(|gx, gy, cov| {
                blend(img, bx + gx as i32, by + gy as i32, colour, cov);
            });
        }
        pen += step;
        last = Some((f, id));
    }
    width
}

/// Cap height (height of a capital letter) of the font at `size`, for centring text vertically.
pub fn cap_height(size: f32) -> f32 {
    // DejaVu Sans: capitals are 0.729 em high; PxScale is ascent-descent (1.164 em).
    size * 0.729 / 1.164
}
