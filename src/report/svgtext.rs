//! SVG text as outlines: every `<text>` element plotters writes becomes a `<path>` of DejaVu
//! Sans glyph outlines (the font embedded in the binary), laid out as a browser lays out that
//! font: advances and kerning at `font-size` pixels to the em, the anchor, the baseline shift
//! (`dy` in em or ex) and any `transform` kept. An SVG chart then looks the same on a machine
//! with no DejaVu installed, or none of the fonts a `font-family` could name.

use std::fmt::Write as _;
use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, OutlineCurve, Point};

pub(super) fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(dejavu::sans::regular()).expect("DejaVu Sans is a valid font")
    })
}

/// DejaVu Sans' x-height as a fraction of the em (1120 of 2048 units): what `ex` means.
const EX: f32 = 1120.0 / 2048.0;

/// The value of attribute `name` in an element's opening tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// XML character references back to text.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// A length in em or ex (`0.76em`, `-0.5ex`) or pixels, at `size` pixels to the em.
pub(super) fn shift(dy: Option<&str>, size: f32) -> f32 {
    let Some(dy) = dy else { return 0.0 };
    let num = |s: &str| s.trim().parse::<f32>().unwrap_or(0.0);
    if let Some(v) = dy.strip_suffix("em") {
        num(v) * size
    } else if let Some(v) = dy.strip_suffix("ex") {
        num(v) * size * EX
    } else {
        num(dy.trim_end_matches("px"))
    }
}

/// A glyph's outline as SVG path data in font units (y up), or `None` for a blank glyph.
fn glyph_path(id: ab_glyph::GlyphId) -> Option<String> {
    let outline = font().outline(id)?;
    let mut d = String::new();
    let mut end: Option<Point> = None;
    let n = |v: f32| {
        let r = v.round();
        if (v - r).abs() < 0.01 {
            format!("{}", r as i64)
        } else {
            format!("{v:.1}")
        }
    };
    for curve in &outline.curves {
        let (start, last) = match curve {
            OutlineCurve::Line(a, b) | OutlineCurve::Quad(a, _, b) => (*a, *b),
            OutlineCurve::Cubic(a, _, _, b) => (*a, *b),
        };
        if end != Some(start) {
            if end.is_some() {
                d.push('Z');
            }
            let _ = write!(d, "M{} {}", n(start.x), n(start.y));
        }
        match curve {
            OutlineCurve::Line(_, b) => {
                let _ = write!(d, "L{} {}", n(b.x), n(b.y));
            }
            OutlineCurve::Quad(_, c, b) => {
                let _ = write!(d, "Q{} {} {} {}", n(c.x), n(c.y), n(b.x), n(b.y));
            }
            OutlineCurve::Cubic(_, c1, c2, b) => {
                let _ = write!(
                    d,
                    "C{} {} {} {} {} {}",
                    n(c1.x),
                    n(c1.y),
                    n(c2.x),
                    n(c2.y),
                    n(b.x),
                    n(b.y)
                );
            }
        }
        end = Some(last);
    }
    if end.is_some() {
        d.push('Z');
    }
    Some(d)
}

/// The glyphs of `text`, each with its pen position in font units: advances and kerning, as
/// a browser lays out the font.
pub(super) fn glyphs(text: &str) -> Vec<(ab_glyph::GlyphId, f32)> {
    let font = font();
    let mut out = Vec::with_capacity(text.len());
    let mut pen = 0.0f32;
    let mut prev = None;
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(p) = prev {
            pen += font.kern_unscaled(p, id);
        }
        out.push((id, pen));
        pen += font.h_advance_unscaled(id);
        prev = Some(id);
    }
    out
}

/// The width of `text` at `size` pixels to the em (advances and kerning).
pub fn width(text: &str, size: f32) -> f32 {
    let font = font();
    let f = size / font.units_per_em().unwrap_or(2048.0);
    glyphs(text)
        .last()
        .map_or(0.0, |&(id, pen)| (pen + font.h_advance_unscaled(id)) * f)
}

/// A short name for this document's glyph ids, from its content (FNV-1a), so that several
/// charts inlined in one page never share an id.
fn prefix(svg: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in svg.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    format!("g{h:08x}")
}

/// `svg` with every `<text>` element replaced by its glyphs' outlines (same fill, opacity and
/// transform): each glyph used is defined once (`<defs>`, in font units) and placed with
/// `<use>`. Elements it cannot read are left as they are.
pub fn outline_text(svg: &str) -> String {
    let font = font();
    let units = font.units_per_em().unwrap_or(2048.0);
    let ids = prefix(svg);
    let mut used: std::collections::BTreeMap<u16, Option<String>> = Default::default();
    let mut out = String::with_capacity(svg.len() * 2);
    let mut rest = svg;
    while let Some(open) = rest.find("<text") {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let (Some(tag_end), Some(close)) = (after.find('>'), after.find("</text>")) else {
            break;
        };
        let tag = &after[..tag_end];
        let content = unescape(after[tag_end + 1..close].trim_matches('\n'));
        let num = |name: &str| attr(tag, name).and_then(|v| v.parse::<f32>().ok());
        match (num("x"), num("y"), num("font-size")) {
            (Some(x), Some(y), Some(size)) => {
                let w = width(&content, size);
                let x0 = match attr(tag, "text-anchor") {
                    Some("middle") => x - w / 2.0,
                    Some("end") => x - w,
                    _ => x,
                };
                let baseline = y + shift(attr(tag, "dy"), size);
                let f = size / units;
                let _ = write!(
                    out,
                    "<g fill=\"{}\" opacity=\"{}\" transform=\"{}translate({x0:.2} {baseline:.2}) scale({f:.6} {:.6})\">",
                    attr(tag, "fill").unwrap_or("#000000"),
                    attr(tag, "opacity").unwrap_or("1"),
                    attr(tag, "transform").map_or(String::new(), |t| format!("{t} ")),
                    -f
                );
                for (id, pen) in glyphs(&content) {
                    let path = used.entry(id.0).or_insert_with(|| glyph_path(id));
                    if path.is_some() {
                        let _ =
                            write!(out, "<use href=\"#{ids}-{}\" x=\"{}\"/>", id.0, pen.round());
                    }
                }
                out.push_str("</g>");
            }
            _ => out.push_str(&after[..close + "</text>".len()]),
        }
        rest = &after[close + "</text>".len()..];
    }
    out.push_str(rest);
    // The glyphs, defined once, right after the opening <svg …> tag.
    let mut defs = String::from("<defs>");
    for (id, path) in &used {
        if let Some(d) = path {
            let _ = write!(defs, "<path id=\"{ids}-{id}\" d=\"{d}\"/>");
        }
    }
    defs.push_str("</defs>");
    match out
        .find("<svg")
        .and_then(|i| out[i..].find('>').map(|j| i + j + 1))
    {
        Some(at) if !used.is_empty() => format!("{}{defs}{}", &out[..at], &out[at..]),
        _ => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_becomes_outlines_in_place() {
        let svg = "<svg><text x=\"100\" y=\"20\" dy=\"0.76em\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"20\" opacity=\"1\" fill=\"#123456\" transform=\"rotate(270, 100, 20)\">\nA &amp; o\n</text><rect/></svg>";
        let out = outline_text(svg);
        assert!(!out.contains("<text"), "{out}");
        assert!(
            out.contains("fill=\"#123456\"") && out.contains("rotate(270, 100, 20) translate(")
        );
        assert!(out.starts_with("<svg><defs><path id=\"g") && out.ends_with("<rect/></svg>"));
        // Three glyphs with ink (the space has none), each defined once; 'o' has a hole.
        assert_eq!(out.matches("<use ").count(), 3, "{out}");
        assert_eq!(out.matches("<path id=").count(), 3, "{out}");
        // Centred: the text starts left of x = 100 by half its width.
        let w = width("A & o", 20.0);
        let start = format!("translate({:.2} ", 100.0 - w / 2.0);
        assert!(out.contains(&start), "{out}");
        // DejaVu Sans: 'A' advances 1401 of 2048 units.
        assert!((width("A", 2048.0) - 1401.0).abs() < 1e-3);
    }
}
