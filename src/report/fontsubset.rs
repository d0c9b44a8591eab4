//! A TrueType font cut down to the characters a chart uses, for an SVG's `@font-face`: the
//! full DejaVu Sans is about 700 KB, the letters of one chart a few. What a browser needs to
//! map characters to glyphs and set them is kept — `glyf`/`loca` (the glyphs used, the parts
//! of composite glyphs, glyph 0), `hmtx`, `head`, `hhea`, `maxp`, `OS/2`, `post` (version 3,
//! without glyph names), a short `name`, a new format 4 `cmap` for the kept characters and the
//! kerning pairs among them (`kern`), so a browser spaces the letters as the PNG does. Hinting
//! (the glyphs' instructions, `fpgm`, `prep`, `cvt `) and the layout tables (`GSUB`, `GPOS`)
//! are left out: charts are set without them in both formats. Glyphs are renumbered in their
//! old order from 0; composite glyphs' parts are renumbered with them.

use std::collections::{BTreeMap, BTreeSet};

fn u16_at(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(d.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(d.get(at..at + 4)?.try_into().ok()?))
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}

/// The font's tables by tag.
fn tables(font: &[u8]) -> Option<BTreeMap<[u8; 4], &[u8]>> {
    let n = u16_at(font, 4)? as usize;
    let mut out = BTreeMap::new();
    for i in 0..n {
        let rec = 12 + 16 * i;
        let tag: [u8; 4] = font.get(rec..rec + 4)?.try_into().ok()?;
        let (off, len) = (
            u32_at(font, rec + 8)? as usize,
            u32_at(font, rec + 12)? as usize,
        );
        out.insert(tag, font.get(off..off + len)?);
    }
    Some(out)
}

/// The table checksum: the sum of its big-endian words (the last padded with zeros).
fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        sum.wrapping_add(u32::from_be_bytes(w))
    })
}

/// Composite glyph flags.
const ARG_WORDS: u16 = 0x0001;
const HAVE_SCALE: u16 = 0x0008;
const MORE: u16 = 0x0020;
const HAVE_XY_SCALE: u16 = 0x0040;
const HAVE_2X2: u16 = 0x0080;
const HAVE_INSTRUCTIONS: u16 = 0x0100;

/// The glyph ids a composite glyph's parts name, with where each id sits in `glyph`, and the
/// end of the last part (instructions may follow). `None` for a simple glyph.
fn parts(glyph: &[u8]) -> Option<(Vec<(usize, u16)>, usize)> {
    if glyph.len() < 10 || i16::from_be_bytes([glyph[0], glyph[1]]) >= 0 {
        return None;
    }
    let mut at = 10;
    let mut out = Vec::new();
    loop {
        let flags = u16_at(glyph, at)?;
        out.push((at + 2, u16_at(glyph, at + 2)?));
        at += 4 + if flags & ARG_WORDS != 0 { 4 } else { 2 };
        at += if flags & HAVE_SCALE != 0 {
            2
        } else if flags & HAVE_XY_SCALE != 0 {
            4
        } else if flags & HAVE_2X2 != 0 {
            8
        } else {
            0
        };
        if flags & MORE == 0 {
            return Some((out, at));
        }
    }
}

/// A glyph's data without its instructions, its parts renumbered by `new_id`.
fn strip(glyph: &[u8], new_id: &BTreeMap<u16, u16>) -> Option<Vec<u8>> {
    if glyph.is_empty() {
        return Some(Vec::new());
    }
    if let Some((ids, end)) = parts(glyph) {
        let mut out = glyph[..end].to_vec();
        for (at, id) in ids {
            out[at..at + 2].copy_from_slice(&new_id.get(&id)?.to_be_bytes());
            // Clear "instructions follow" on every part's flags (read just before its id).
            let f = u16_at(&out, at - 2)? & !HAVE_INSTRUCTIONS;
            out[at - 2..at].copy_from_slice(&f.to_be_bytes());
        }
        return Some(out);
    }
    let contours = u16_at(glyph, 0)? as usize;
    let ins_at = 10 + 2 * contours;
    let ins_len = u16_at(glyph, ins_at)? as usize;
    let mut out = glyph[..ins_at].to_vec();
    put16(&mut out, 0);
    out.extend_from_slice(glyph.get(ins_at + 2 + ins_len..)?);
    Some(out)
}

/// `font` (a TrueType font with `glyf` outlines) cut down to the characters of `chars` that it
/// has; `glyph_of` maps a character to its glyph id in `font` (0 where it has none). `None`
/// if the font cannot be read.
pub fn subset(
    font: &[u8],
    chars: &BTreeSet<char>,
    glyph_of: impl Fn(char) -> u16,
) -> Option<Vec<u8>> {
    let t = tables(font)?;
    let get = |tag: &[u8; 4]| t.get(tag).copied();
    let (head, hhea, maxp, hmtx) = (get(b"head")?, get(b"hhea")?, get(b"maxp")?, get(b"hmtx")?);
    let (glyf, loca) = (get(b"glyf")?, get(b"loca")?);
    let n_glyphs = u16_at(maxp, 4)? as usize;
    let long_loca = u16_at(head, 50)? == 1;
    let glyphs = Glyphs {
        glyf,
        loca,
        n_glyphs,
        long_loca,
    };
    // The characters kept (those the font has, in the Basic Multilingual Plane) and their
    // glyphs, with every part of a composite glyph and glyph 0 (shown for a missing letter).
    let mapped: Vec<(u16, u16)> = chars
        .iter()
        .filter_map(|&c| {
            let code = u16::try_from(c as u32).ok()?;
            let id = glyph_of(c);
            (id != 0 && (id as usize) < n_glyphs).then_some((code, id))
        })
        .collect();
    let keep = kept_glyphs(&glyphs, &mapped)?;
    let new_id: BTreeMap<u16, u16> = keep
        .iter()
        .enumerate()
        .map(|(i, &id)| (id, i as u16))
        .collect();
    let n = keep.len();

    // glyf and loca (long offsets), each glyph padded to four bytes.
    let (new_glyf, new_loca) = glyf_and_loca(&glyphs, &keep, &new_id)?;

    // hmtx: a full metric for every glyph.
    let new_hmtx = hmtx_of(hhea, hmtx, &keep)?;
    let mut new_hhea = hhea.to_vec();
    new_hhea[34..36].copy_from_slice(&(n as u16).to_be_bytes());
    let mut new_maxp = maxp.to_vec();
    new_maxp[4..6].copy_from_slice(&(n as u16).to_be_bytes());
    if new_maxp.len() >= 32 {
        // No instructions are kept.
        new_maxp[26..28].copy_from_slice(&0u16.to_be_bytes());
    }
    let mut new_head = head.to_vec();
    new_head[8..12].copy_from_slice(&[0; 4]);
    new_head[50..52].copy_from_slice(&1u16.to_be_bytes());

    // cmap: one format 4 subtable (Windows, Unicode BMP), a segment per run of characters
    // whose glyph ids run alongside them.
    let cmap = cmap_of(&mapped, &new_id);

    // post, version 3: no glyph names.
    let mut post = get(b"post")?.get(..32)?.to_vec();
    post[..4].copy_from_slice(&0x0003_0000u32.to_be_bytes());

    let mut out_tables: BTreeMap<[u8; 4], Vec<u8>> = BTreeMap::new();
    if let Some(kern) = get(b"kern").and_then(|k| kern_subset(k, &new_id)) {
        out_tables.insert(*b"kern", kern);
    }
    if let Some(name) = get(b"name").and_then(name_subset) {
        out_tables.insert(*b"name", name);
    }
    out_tables.insert(*b"OS/2", get(b"OS/2")?.to_vec());
    out_tables.insert(*b"cmap", cmap);
    out_tables.insert(*b"glyf", new_glyf);
    out_tables.insert(*b"head", new_head);
    out_tables.insert(*b"hhea", new_hhea);
    out_tables.insert(*b"hmtx", new_hmtx);
    out_tables.insert(*b"loca", new_loca);
    out_tables.insert(*b"maxp", new_maxp);
    out_tables.insert(*b"post", post);
    Some(assemble(&out_tables))
}

/// A font's glyph outlines: `glyf`, read through `loca` (long or short offsets).
struct Glyphs<'a> {
    glyf: &'a [u8],
    loca: &'a [u8],
    n_glyphs: usize,
    long_loca: bool,
}

impl<'a> Glyphs<'a> {
    /// Glyph `id`'s outline, `None` past the last glyph or where `loca` cannot be read.
    fn glyph(&self, id: u16) -> Option<&'a [u8]> {
        let (glyf, loca, n_glyphs, long_loca) =
            (self.glyf, self.loca, self.n_glyphs, self.long_loca);
        let i = id as usize;
        if i >= n_glyphs {
            return None;
        }
        let (a, b) = if long_loca {
            (
                u32_at(loca, 4 * i)? as usize,
                u32_at(loca, 4 * i + 4)? as usize,
            )
        } else {
            (
                2 * u16_at(loca, 2 * i)? as usize,
                2 * u16_at(loca, 2 * i + 2)? as usize,
            )
        };
        glyf.get(a..b)
    }
}

/// The glyphs kept: glyph 0, those of `mapped`, and every part of a composite among them.
fn kept_glyphs(glyphs: &Glyphs, mapped: &[(u16, u16)]) -> Option<BTreeSet<u16>> {
    let mut keep: BTreeSet<u16> = std::iter::once(0)
        .chain(mapped.iter().map(|m| m.1))
        .collect();
    let mut todo: Vec<u16> = keep.iter().copied().collect();
    while let Some(id) = todo.pop() {
        if let Some((ids, _)) = parts(glyphs.glyph(id)?) {
            for (_, part) in ids {
                if keep.insert(part) {
                    todo.push(part);
                }
            }
        }
    }
    Some(keep)
}

/// The new `glyf` and `loca` (long offsets) of the glyphs kept, renumbered by `new_id`, each
/// glyph padded to four bytes.
fn glyf_and_loca(
    glyphs: &Glyphs,
    keep: &BTreeSet<u16>,
    new_id: &BTreeMap<u16, u16>,
) -> Option<(Vec<u8>, Vec<u8>)> {
    let (mut new_glyf, mut new_loca) = (Vec::new(), Vec::new());
    for &id in keep {
        put32(&mut new_loca, new_glyf.len() as u32);
        new_glyf.extend(strip(glyphs.glyph(id)?, new_id)?);
        while new_glyf.len() % 4 != 0 {
            new_glyf.push(0);
        }
    }
    put32(&mut new_loca, new_glyf.len() as u32);
    Some((new_glyf, new_loca))
}

/// The new `hmtx`: a full metric for every glyph kept.
fn hmtx_of(hhea: &[u8], hmtx: &[u8], keep: &BTreeSet<u16>) -> Option<Vec<u8>> {
    let metrics = u16_at(hhea, 34)? as usize;
    let mut new_hmtx = Vec::new();
    for &id in keep {
        let i = id as usize;
        let advance = u16_at(hmtx, 4 * i.min(metrics - 1))?;
        let lsb = if i < metrics {
            u16_at(hmtx, 4 * i + 2)?
        } else {
            u16_at(hmtx, 4 * metrics + 2 * (i - metrics))?
        };
        put16(&mut new_hmtx, advance);
        put16(&mut new_hmtx, lsb);
    }
    Some(new_hmtx)
}

/// The new `cmap`: one format 4 subtable (Windows, Unicode BMP), a segment per run of
/// characters whose glyph ids run alongside them.
fn cmap_of(mapped: &[(u16, u16)], new_id: &BTreeMap<u16, u16>) -> Vec<u8> {
    let mut segments: Vec<(u16, u16, u16)> = Vec::new(); // (start, end, first glyph)
    for &(code, id) in mapped {
        let g = new_id[&id];
        match segments.last_mut() {
            Some((s, e, g0)) if *e + 1 == code && g0.wrapping_add(code - *s) == g => *e = code,
            _ => segments.push((code, code, g)),
        }
    }
    if segments.last().is_none_or(|s| s.1 != 0xFFFF) {
        segments.push((0xFFFF, 0xFFFF, 0));
    }
    let segs = segments.len() as u16;
    let pow = 1u16 << (15 - segs.leading_zeros()).min(15);
    let mut sub = Vec::new();
    put16(&mut sub, 4);
    put16(&mut sub, (16 + 8 * segments.len()) as u16);
    put16(&mut sub, 0);
    put16(&mut sub, segs * 2);
    put16(&mut sub, pow * 2);
    put16(&mut sub, pow.trailing_zeros() as u16);
    put16(&mut sub, segs * 2 - pow * 2);
    for s in &segments {
        put16(&mut sub, s.1);
    }
    put16(&mut sub, 0);
    for s in &segments {
        put16(&mut sub, s.0);
    }
    for s in &segments {
        let delta = if s.0 == 0xFFFF {
            1
        } else {
            s.2.wrapping_sub(s.0)
        };
        put16(&mut sub, delta);
    }
    for _ in &segments {
        put16(&mut sub, 0);
    }
    let mut cmap = Vec::new();
    put16(&mut cmap, 0);
    put16(&mut cmap, 2);
    for (platform, encoding) in [(0u16, 3u16), (3, 1)] {
        put16(&mut cmap, platform);
        put16(&mut cmap, encoding);
        put32(&mut cmap, 20);
    }
    cmap.extend(sub);
    cmap
}

/// The kerning pairs (a version 0 `kern` table, format 0 subtables) between kept glyphs,
/// renumbered, in one subtable.
fn kern_subset(kern: &[u8], new_id: &BTreeMap<u16, u16>) -> Option<Vec<u8>> {
    if u16_at(kern, 0)? != 0 {
        return None;
    }
    let mut pairs: BTreeMap<(u16, u16), u16> = BTreeMap::new();
    let mut coverage = None;
    let mut at = 4;
    for _ in 0..u16_at(kern, 2)? {
        let (len, cov) = (u16_at(kern, at + 2)? as usize, u16_at(kern, at + 4)?);
        // Horizontal kerning values (format 0) only.
        if cov >> 8 == 0 && cov & 0x0007 == 0x0001 {
            coverage.get_or_insert(cov);
            let count = u16_at(kern, at + 6)? as usize;
            for p in 0..count {
                let r = at + 14 + 6 * p;
                let (l, rt, v) = (u16_at(kern, r)?, u16_at(kern, r + 2)?, u16_at(kern, r + 4)?);
                if let (Some(&a), Some(&b)) = (new_id.get(&l), new_id.get(&rt)) {
                    pairs.insert((a, b), v);
                }
            }
        }
        at += len;
    }
    if pairs.is_empty() || pairs.len() > 10_000 {
        return None;
    }
    let n = pairs.len() as u16;
    let pow = 1u16 << (15 - n.leading_zeros()).min(15);
    let mut out = Vec::new();
    put16(&mut out, 0);
    put16(&mut out, 1);
    put16(&mut out, 0);
    put16(&mut out, (14 + 6 * pairs.len()) as u16);
    put16(&mut out, coverage?);
    put16(&mut out, n);
    put16(&mut out, pow * 6);
    put16(&mut out, pow.trailing_zeros() as u16);
    put16(&mut out, (n - pow) * 6);
    for ((a, b), v) in pairs {
        put16(&mut out, a);
        put16(&mut out, b);
        put16(&mut out, v);
    }
    Some(out)
}

/// The `name` table's Windows (Unicode) records for the copyright, the family and style, the
/// full and PostScript names, the version, and the licence's address.
fn name_subset(name: &[u8]) -> Option<Vec<u8>> {
    let count = u16_at(name, 2)? as usize;
    let strings = u16_at(name, 4)? as usize;
    let mut records = Vec::new();
    for i in 0..count {
        let r = 6 + 12 * i;
        let (platform, encoding, language, id) = (
            u16_at(name, r)?,
            u16_at(name, r + 2)?,
            u16_at(name, r + 4)?,
            u16_at(name, r + 6)?,
        );
        let (len, off) = (
            u16_at(name, r + 8)? as usize,
            u16_at(name, r + 10)? as usize,
        );
        if platform == 3
            && encoding == 1
            && language == 0x409
            && [0, 1, 2, 3, 4, 5, 6, 14].contains(&id)
        {
            records.push((
                platform,
                encoding,
                language,
                id,
                name.get(strings + off..strings + off + len)?,
            ));
        }
    }
    let mut out = Vec::new();
    put16(&mut out, 0);
    put16(&mut out, records.len() as u16);
    put16(&mut out, (6 + 12 * records.len()) as u16);
    let mut data = Vec::new();
    for (platform, encoding, language, id, s) in &records {
        for v in [
            *platform,
            *encoding,
            *language,
            *id,
            s.len() as u16,
            data.len() as u16,
        ] {
            put16(&mut out, v);
        }
        data.extend_from_slice(s);
    }
    out.extend(data);
    Some(out)
}

/// The font file: the table directory (tags in order), each table at a four-byte boundary,
/// and `head`'s whole-font checksum adjustment.
fn assemble(tables: &BTreeMap<[u8; 4], Vec<u8>>) -> Vec<u8> {
    let n = tables.len() as u16;
    let pow = 1u16 << (15 - n.leading_zeros()).min(15);
    let mut out = Vec::new();
    put32(&mut out, 0x0001_0000);
    put16(&mut out, n);
    put16(&mut out, pow * 16);
    put16(&mut out, pow.trailing_zeros() as u16);
    put16(&mut out, (n - pow) * 16);
    let mut offset = 12 + 16 * tables.len();
    let mut head_at = None;
    for (tag, data) in tables {
        out.extend_from_slice(tag);
        put32(&mut out, checksum(data));
        put32(&mut out, offset as u32);
        put32(&mut out, data.len() as u32);
        if tag == b"head" {
            head_at = Some(offset);
        }
        offset += data.len().div_ceil(4) * 4;
    }
    for data in tables.values() {
        out.extend_from_slice(data);
        while out.len() % 4 != 0 {
            out.push(0);
        }
    }
    if let Some(at) = head_at {
        let adjust = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
        out[at + 8..at + 12].copy_from_slice(&adjust.to_be_bytes());
    }
    out
}

/// `data` in base64 (RFC 4648, padded).
pub fn base64(data: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= c.len() {
                out.push(ABC[(v >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ab_glyph::{Font, FontRef};

    #[test]
    fn a_subset_maps_its_characters_to_the_same_outlines_and_advances() {
        let full = dejavu::sans::regular();
        let f = FontRef::try_from_slice(full).unwrap();
        // 'Å' is a composite glyph in DejaVu Sans: its parts come along.
        let chars: BTreeSet<char> = "AVoid Chance 95% — Å −0.5".chars().collect();
        let cut = subset(full, &chars, |c| f.glyph_id(c).0).unwrap();
        assert!(cut.len() < 20_000, "{} bytes", cut.len());
        let g = FontRef::try_from_slice(&cut).unwrap();
        for c in chars {
            let (a, b) = (f.glyph_id(c), g.glyph_id(c));
            assert!(b.0 != 0 || c == ' ' && a.0 == 0, "{c:?} has no glyph");
            assert_eq!(f.h_advance_unscaled(a), g.h_advance_unscaled(b), "{c:?}");
            let bounds = |font: &FontRef, id| font.outline(id).map(|o| o.bounds);
            assert_eq!(bounds(&f, a), bounds(&g, b), "{c:?}");
        }
        // Kerning kept between kept letters.
        let kern = |font: &FontRef, a, b| font.kern_unscaled(font.glyph_id(a), font.glyph_id(b));
        assert!(kern(&f, 'A', 'V') < 0.0);
        assert_eq!(kern(&f, 'A', 'V'), kern(&g, 'A', 'V'));
        assert_eq!(g.glyph_id('x').0, 0, "not in the subset");
        // The checksum adjustment makes the whole file sum to the magic number.
        assert_eq!(checksum(&cut), 0xB1B0_AFBA);
        assert_eq!(base64(b"Ma"), "TWE=");
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"M"), "TQ==");
    }
}
