//! PNG text set as the SVG's: a bitmap backend that draws every text with the same layout as
//! [`super::svgtext`] (advances and kerning at `font-size` pixels to the em, the anchor and the
//! baseline shift the SVG backend writes), each glyph rasterised at its exact, fractional place.
//! The drawing library's own bitmap text drops each glyph's side bearing and rounds every pen
//! position, so letters in a PNG title sat unevenly; everything but text is drawn by the bitmap
//! backend itself, unchanged.

use ab_glyph::{Font, Glyph, PxScale, point};
use plotters::prelude::{BitMapBackend, DrawingBackend};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_bitmap::BitMapBackendError;

use super::svgtext;

/// The drawing library's text size is 1.24 × the em, as its SVG backend writes `font-size`.
const SIZE_PER_EM: f64 = 1.24;

/// A bitmap backend whose text is set as the SVG's.
pub(super) struct Typeset<'a>(pub(super) BitMapBackend<'a>);

type Res = Result<(), DrawingErrorKind<BitMapBackendError>>;

/// Where the pixel covering `[x, x+1) × [y, y+1)` of the text's own frame lands, turned by
/// `t` about the text's anchor.
fn turn(t: &FontTransform, x: i32, y: i32) -> (i32, i32) {
    match t {
        FontTransform::None => (x, y),
        FontTransform::Rotate90 => (-y - 1, x),
        FontTransform::Rotate180 => (-x - 1, -y - 1),
        FontTransform::Rotate270 => (y, -x - 1),
    }
}

/// The pixels of `text` at `em` pixels to the em, anchored at the origin by `h` and `v` as the
/// SVG backend anchors it (`text-anchor`; `dy` of 0.76 em, 0.5 ex or −0.5 ex): each pixel of
/// the text's frame with its coverage (0–1].
fn pixels(text: &str, em: f32, h: HPos, v: VPos) -> Vec<(i32, i32, f32)> {
    let font = svgtext::font();
    let units = font.units_per_em().unwrap_or(2048.0);
    let f = em / units;
    let width = svgtext::width(text, em);
    let x0 = match h {
        HPos::Left => 0.0,
        HPos::Center => -width / 2.0,
        HPos::Right => -width,
    };
    let dy = match v {
        VPos::Top => "0.76em",
        VPos::Center => "0.5ex",
        VPos::Bottom => "-0.5ex",
    };
    let baseline = svgtext::shift(Some(dy), em);
    // ab_glyph scales by the font's height (ascent − descent), not by its em.
    let scale = PxScale::from(em * font.height_unscaled() / units);
    let mut out = Vec::new();
    for (id, pen) in svgtext::glyphs(text) {
        let glyph = Glyph {
            id,
            scale,
            position: point(x0 + pen * f, baseline),
        };
        if let Some(outline) = font.outline_glyph(glyph) {
            let b = outline.px_bounds();
            let (bx, by) = (b.min.x as i32, b.min.y as i32);
            outline.draw(|x, y, c| {
                if c > 0.0 {
                    out.push((bx + x as i32, by + y as i32, c.min(1.0)));
                }
            });
        }
    }
    out
}

impl DrawingBackend for Typeset<'_> {
    type ErrorType = BitMapBackendError;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }
    fn ensure_prepared(&mut self) -> Res {
        self.0.ensure_prepared()
    }
    fn present(&mut self) -> Res {
        self.0.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Res {
        self.0.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, s: &S) -> Res {
        self.0.draw_line(from, to, s)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Res {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Res {
        self.0.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Res {
        self.0.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Res {
        self.0.fill_polygon(vert, style)
    }
    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Res {
        self.0.blit_bitmap(pos, size, src)
    }
    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, style: &T, pos: BackendCoord) -> Res {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let anchor = style.anchor();
        let em = (style.size() / SIZE_PER_EM) as f32;
        let t = style.transform();
        for (x, y, c) in pixels(text, em, anchor.h_pos, anchor.v_pos) {
            let (x, y) = turn(&t, x, y);
            self.0.draw_pixel(
                (pos.0 + x, pos.1 + y),
                BackendColor {
                    alpha: color.alpha * f64::from(c),
                    rgb: color.rgb,
                },
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first column of each run of inked columns, left to right.
    fn starts(px: &[(i32, i32, f32)]) -> Vec<i32> {
        let mut cols: Vec<i32> = px.iter().filter(|p| p.2 > 0.5).map(|p| p.0).collect();
        cols.sort_unstable();
        cols.dedup();
        let mut out = Vec::new();
        for (i, &c) in cols.iter().enumerate() {
            if i == 0 || cols[i - 1] + 1 < c {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn glyphs_sit_where_the_svg_puts_them() {
        // "Hill" at 40 px to the em: four glyphs with clear gaps between them. Each one's ink
        // starts at its pen position plus its left side bearing, as in the SVG; the drawing
        // library's bitmap text put each glyph's ink at the pen (H and l 3.9 px, i 3.8 px off).
        let em = 40.0;
        let px = pixels("Hill", em, HPos::Left, VPos::Top);
        let font = svgtext::font();
        let f = em / font.units_per_em().unwrap();
        let expect: Vec<f32> = svgtext::glyphs("Hill")
            .iter()
            .map(|&(id, pen)| (pen + font.outline(id).unwrap().bounds.min.x) * f)
            .collect();
        let got = starts(&px);
        assert_eq!(got.len(), 4, "{got:?}");
        for (g, e) in got.iter().zip(&expect) {
            assert!(
                (*g as f32 - e).abs() <= 1.0,
                "ink at {got:?}, expected {expect:?}"
            );
        }
        // One baseline: every glyph's lowest ink row is the same (top-anchored: 0.76 em down).
        let low = |lo: i32, hi: i32| {
            px.iter()
                .filter(|p| p.0 >= lo && p.0 < hi && p.2 > 0.5)
                .map(|p| p.1)
                .max()
                .unwrap()
        };
        let bottoms: Vec<i32> = (0..4)
            .map(|i| low(got[i], got.get(i + 1).copied().unwrap_or(i32::MAX)))
            .collect();
        assert!(bottoms.iter().all(|&b| b == bottoms[0]), "{bottoms:?}");
        assert!(
            (bottoms[0] as f32 + 1.0 - 0.76 * em).abs() <= 1.0,
            "{bottoms:?}"
        );
    }

    #[test]
    fn anchors_and_turns_match_the_svg() {
        let em = 20.0;
        let w = svgtext::width("Chance", em);
        let right = pixels("Chance", em, HPos::Right, VPos::Center);
        let max_x = right.iter().map(|p| p.0).max().unwrap();
        assert!(
            max_x < 0 && max_x as f32 > -3.0,
            "ends at the anchor: {max_x}"
        );
        let centre = pixels("Chance", em, HPos::Center, VPos::Center);
        let min_x = centre.iter().map(|p| p.0).min().unwrap();
        assert!((min_x as f32 + w / 2.0).abs() <= 2.0, "{min_x} vs {w}");
        // Turned a quarter left (a y-axis name), the text runs bottom to top from the anchor.
        let (x, y) = turn(&FontTransform::Rotate270, 10, -3);
        assert_eq!((x, y), (-3, -11));
    }
}
