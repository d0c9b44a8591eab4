//! SVG text as text, in the font the PNG is set in: every `<text>` element stays text (a
//! layout program can edit it, a reader can select and search it), named in DejaVu Sans first
//! and generic families after it, and the chart carries DejaVu Sans itself — cut down to the
//! characters it uses ([`super::fontsubset`]), a few kilobytes as base64 in an `@font-face`
//! of the SVG's own `<style>` — so it looks the same on a machine with no DejaVu installed.
//! The `@font-face` names the characters it has (`unicode-range`): several charts inlined in
//! one page each add their own letters to the family and never hide another's.
//!
//! The layout helpers here ([`glyphs`], [`width`], [`shift`]) set text as a browser sets that
//! font (advances and kerning at `font-size` pixels to the em, `dy` in em or ex): the PNG's
//! text is set with them ([`super::typeset`]).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::OnceLock;

use ab_glyph::{Font, FontRef};

/// The `font-family` of every text: the embedded face first, then faces of the same design,
/// then any sans-serif.
pub const FAMILY: &str = "'DejaVu Sans', 'Bitstream Vera Sans', Verdana, sans-serif";

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

/// `svg` with every `<text>` element in [`FAMILY`] (its content trimmed of the line breaks
/// the drawing library writes around it), and the characters they use embedded as DejaVu
/// Sans in an `@font-face` right after the opening `<svg …>` tag. Without any text, `svg` is
/// returned unchanged.
pub fn embed_font(svg: &str) -> String {
    let mut used: BTreeSet<char> = BTreeSet::new();
    let mut out = String::with_capacity(svg.len() + 8192);
    let mut rest = svg;
    while let Some(open) = rest.find("<text") {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let (Some(tag_end), Some(close)) = (after.find('>'), after.find("</text>")) else {
            break;
        };
        let tag = &after[..tag_end];
        let content = after[tag_end + 1..close].trim_matches('\n');
        used.extend(unescape(content).chars());
        match attr(tag, "font-family") {
            Some(family) => {
                let key = format!(" font-family=\"{family}\"");
                out.push_str(&tag.replacen(&key, &format!(" font-family=\"{FAMILY}\""), 1));
            }
            None => {
                out.push_str(tag);
                let _ = write!(out, " font-family=\"{FAMILY}\"");
            }
        }
        out.push('>');
        out.push_str(content);
        out.push_str("</text>");
        rest = &after[close + "</text>".len()..];
    }
    out.push_str(rest);
    let font = font();
    let kept: BTreeSet<char> = used
        .into_iter()
        .filter(|&c| font.glyph_id(c).0 != 0 && (c as u32) <= 0xFFFF)
        .collect();
    if kept.is_empty() {
        return out;
    }
    let Some(cut) =
        super::fontsubset::subset(dejavu::sans::regular(), &kept, |c| font.glyph_id(c).0)
    else {
        return out;
    };
    // The installed DejaVu Sans first, where there is one (at hand at once), else the embedded
    // letters; and `font-display: swap`: a page printed before an embedded face is decoded
    // (chromium's --print-to-pdf does not wait for it) shows its text in the next family
    // rather than none. Without both, about 1 print in 3 of a page of several charts came out
    // with charts that had no words at all.
    let style = format!(
        "<defs><style>@font-face{{font-family:'DejaVu Sans';font-style:normal;font-weight:400;font-display:swap;src:local('DejaVu Sans'),local('DejaVuSans'),url(data:font/ttf;base64,{}) format('truetype');unicode-range:{}}}</style></defs>",
        super::fontsubset::base64(&cut),
        ranges(&kept)
    );
    match out
        .find("<svg")
        .and_then(|i| out[i..].find('>').map(|j| i + j + 1))
    {
        Some(at) => format!("{}{style}{}", &out[..at], &out[at..]),
        None => out,
    }
}

/// The characters as a CSS `unicode-range`: runs of consecutive code points (`U+20-7E,U+2014`).
fn ranges(chars: &BTreeSet<char>) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &c in chars {
        let c = c as u32;
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == c => *end = c,
            _ => runs.push((c, c)),
        }
    }
    runs.iter()
        .map(|&(a, b)| {
            if a == b {
                format!("U+{a:X}")
            } else {
                format!("U+{a:X}-{b:X}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_stays_text_in_dejavu_with_the_font_embedded() {
        let svg = "<svg width=\"10\"><text x=\"100\" y=\"20\" dy=\"0.76em\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"20\" opacity=\"1\" fill=\"#123456\" transform=\"rotate(270, 100, 20)\">\nA &amp; o\n</text><rect/></svg>";
        let out = embed_font(svg);
        let text = format!(
            "<text x=\"100\" y=\"20\" dy=\"0.76em\" text-anchor=\"middle\" font-family=\"{FAMILY}\" font-size=\"20\" opacity=\"1\" fill=\"#123456\" transform=\"rotate(270, 100, 20)\">A &amp; o</text><rect/></svg>"
        );
        assert!(out.ends_with(&text), "{out}");
        assert!(
            out.starts_with("<svg width=\"10\"><defs><style>@font-face{font-family:'DejaVu Sans';")
        );
        assert!(
            out.contains("url(data:font/ttf;base64,AAEAAA"),
            "a TrueType font"
        );
        // Text is never invisible while the embedded face is decoded (a print taken then had
        // charts with no words): the installed face first, else the next family meanwhile.
        assert!(
            out.contains("font-display:swap;src:local('DejaVu Sans'),local('DejaVuSans'),url("),
            "{out}"
        );
        assert!(out.contains("unicode-range:U+20,U+26,U+41,U+6F}"), "{out}");
        // No text: nothing to embed.
        assert_eq!(embed_font("<svg><rect/></svg>"), "<svg><rect/></svg>");
        // DejaVu Sans: 'A' advances 1401 of 2048 units.
        assert!((width("A", 2048.0) - 1401.0).abs() < 1e-3);
        assert_eq!(ranges(&"abcx".chars().collect()), "U+61-63,U+78");
    }
}
