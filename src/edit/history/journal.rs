//! A step as bytes, for the autosave's journal (`pipeline::journal` frames and files them): every
//! field of a [`StoredEdit`], exactly, so that a step read back undoes and redoes the map bit for
//! bit as the one in memory did. Floats are kept as their bits; the packed differences are
//! copied as they are (already small), so encoding a step costs little more than a copy.
//!
//! Layout: a format byte, the label, then parts, each a tag, a byte length and its fields, and
//! a zero tag at the end. A part missing from the bytes reads as empty, so a new part (a new
//! field of the step) is one tag, one `put_…` and one `get_…` here; each `put_…` destructures
//! its struct without `..`, so a field added to a step's types fails to compile until it is
//! written here too.
//!
//! Not for: the journal file (records, checksums, appending: `pipeline::journal`) or the history
//! rebuilt from it (`history`).

use std::path::Path;
use std::sync::Arc;

use crate::disk::LoamError;
use crate::model::alpha::{ALPHA_TEXELS, AlphaEncoding, AlphaSource};
use crate::model::chunk::{ChunkHeaderExtras, ChunkQuirks, ShadowMap, SoundEmitter};
use crate::model::liquid::{ChunkLiquid, LiquidAttributes, LiquidLayer, LiquidOrigin, MclqExtras};
use crate::model::table_rows::{PlacedRow, TableChange};
use crate::model::{DoodadPlacement, FlightBounds, TileCoord, WmoPlacement};
use crate::pipeline::journal::{Journal, STEP_HEADER};

use super::super::stroke::{
    BoundsChange, ObjectsChange, TextureList, TextureListChange, TileObjects,
};
use super::stored::{
    AlphaDelta, LayerKind, Layers, Optional, Packed, Rest, StoredChunk, StoredEdit,
};

/// The step layout this build writes and reads.
pub const STEP_FORMAT: u8 = 1;

/// The parts of a step, by tag (0 ends the list). Tags are never reused.
mod tag {
    pub const CHUNKS: u8 = 1;
    pub const TEXTURES: u8 = 2;
    pub const MAP_FLAGS: u8 = 3;
    pub const OBJECTS: u8 = 4;
    pub const BOUNDS: u8 = 5;
    pub const TOUCHED: u8 = 6;
    pub const TABLES: u8 = 7;
}

/// The steps of the journal `path` as read back (`pipeline::journal::read`), decoded; a step
/// that cannot be read is an error naming the file and the byte.
pub fn decode_journal(path: &Path, journal: &Journal) -> Result<Vec<StoredEdit>, LoamError> {
    journal
        .steps
        .iter()
        .map(|(at, bytes)| {
            decode(bytes).map_err(|e| {
                LoamError::Usage(format!(
                    "{}: corrupt undo journal at byte {}: {}",
                    path.display(),
                    at + STEP_HEADER + e.offset as u64,
                    e.what
                ))
            })
        })
        .collect()
}

/// Why a step's bytes could not be read: where (from the start of the step) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset inside the step.
    pub offset: usize,
    /// What was wrong there.
    pub what: String,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {} of the step: {}", self.offset, self.what)
    }
}

impl std::error::Error for DecodeError {}

type Res<T> = Result<T, DecodeError>;

/// `edit` as bytes.
pub fn encode(edit: &StoredEdit) -> Vec<u8> {
    let StoredEdit {
        label,
        chunks,
        textures,
        map_flags,
        objects,
        bounds,
        tables,
        touched,
        already_applied: _,
    } = edit;
    let mut w = W(Vec::with_capacity(edit.size_bytes()));
    w.u8(STEP_FORMAT);
    w.str(label);
    w.part(tag::CHUNKS, |w| w.list(chunks, put_chunk));
    w.part(tag::TEXTURES, |w| w.list(textures, put_texture_change));
    w.part(tag::MAP_FLAGS, |w| {
        w.opt(map_flags, |w, &(a, b)| {
            w.u32(a);
            w.u32(b);
        })
    });
    w.part(tag::OBJECTS, |w| w.list(objects, put_objects_change));
    w.part(tag::BOUNDS, |w| w.list(bounds, put_bounds_change));
    w.part(tag::TABLES, |w| w.list(tables, put_table_change));
    w.part(tag::TOUCHED, |w| {
        w.list(touched, |w, &(t, c)| {
            put_tile(w, t);
            w.usize(c);
        })
    });
    w.u8(0);
    w.0
}

/// The step `bytes` hold (as [`encode`] wrote it). The map is taken to hold its "after" state,
/// as for a step just recorded.
pub fn decode(bytes: &[u8]) -> Result<StoredEdit, DecodeError> {
    let mut r = R { b: bytes, pos: 0 };
    let format = r.u8()?;
    if format != STEP_FORMAT {
        return Err(r.err_at(
            0,
            format!("step format {format} (this loam reads {STEP_FORMAT})"),
        ));
    }
    let label = r.str()?;
    let mut e = StoredEdit {
        label,
        chunks: Arc::new([]),
        textures: Arc::new([]),
        map_flags: None,
        objects: Arc::new([]),
        bounds: Arc::new([]),
        tables: Arc::new([]),
        touched: Vec::new(),
        already_applied: true,
    };
    loop {
        let at = r.pos;
        let t = r.u8()?;
        if t == 0 {
            break;
        }
        let len = r.usize()?;
        let mut p = r.sub(len)?;
        match t {
            tag::CHUNKS => e.chunks = p.list(get_chunk)?.into(),
            tag::TEXTURES => e.textures = p.list(get_texture_change)?.into(),
            tag::MAP_FLAGS => e.map_flags = p.opt(|r| Ok((r.u32()?, r.u32()?)))?,
            tag::OBJECTS => e.objects = p.list(get_objects_change)?.into(),
            tag::BOUNDS => e.bounds = p.list(get_bounds_change)?.into(),
            tag::TABLES => e.tables = p.list(get_table_change)?.into(),
            tag::TOUCHED => e.touched = p.list(|r| Ok((get_tile(r)?, r.usize()?)))?,
            other => {
                return Err(r.err_at(at, format!("unknown part {other} (a newer loam wrote it)")));
            }
        }
        p.end()?;
    }
    r.end()?;
    Ok(e)
}

/// The bytes being written.
struct W(Vec<u8>);

impl W {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn usize(&mut self, v: usize) {
        self.u64(v as u64);
    }
    fn bool(&mut self, v: bool) {
        self.u8(u8::from(v));
    }
    fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    fn raw(&mut self, v: &[u8]) {
        self.0.extend_from_slice(v);
    }
    fn bytes(&mut self, v: &[u8]) {
        self.usize(v.len());
        self.raw(v);
    }
    fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }
    fn opt<T>(&mut self, v: &Option<T>, f: impl FnOnce(&mut W, &T)) {
        match v {
            None => self.u8(0),
            Some(x) => {
                self.u8(1);
                f(self, x);
            }
        }
    }
    fn list<T>(&mut self, v: &[T], mut f: impl FnMut(&mut W, &T)) {
        self.usize(v.len());
        for x in v {
            f(self, x);
        }
    }
    /// A part: its tag, then its length, then what `f` writes.
    fn part(&mut self, tag: u8, f: impl FnOnce(&mut W)) {
        self.u8(tag);
        let at = self.0.len();
        self.u64(0);
        f(self);
        let len = (self.0.len() - at - 8) as u64;
        self.0[at..at + 8].copy_from_slice(&len.to_le_bytes());
    }
}

/// The bytes being read, and where.
struct R<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> R<'a> {
    fn err_at(&self, offset: usize, what: impl Into<String>) -> DecodeError {
        DecodeError {
            offset,
            what: what.into(),
        }
    }
    fn take(&mut self, n: usize) -> Res<&'a [u8]> {
        match self.b.get(self.pos..self.pos.saturating_add(n)) {
            Some(s) if self.pos.checked_add(n).is_some() => {
                self.pos += n;
                Ok(s)
            }
            _ => Err(self.err_at(
                self.pos,
                format!("{n} byte(s) wanted, {} left", self.b.len() - self.pos),
            )),
        }
    }
    fn array<const N: usize>(&mut self) -> Res<[u8; N]> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    fn u8(&mut self) -> Res<u8> {
        Ok(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Res<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    fn u32(&mut self) -> Res<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    fn u64(&mut self) -> Res<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    fn usize(&mut self) -> Res<usize> {
        let at = self.pos;
        let v = self.u64()?;
        usize::try_from(v).map_err(|_| self.err_at(at, format!("{v} is too large")))
    }
    fn bool(&mut self) -> Res<bool> {
        let at = self.pos;
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(self.err_at(at, format!("{v} is not a yes or no"))),
        }
    }
    fn f32(&mut self) -> Res<f32> {
        Ok(f32::from_bits(self.u32()?))
    }
    fn f64(&mut self) -> Res<f64> {
        Ok(f64::from_bits(self.u64()?))
    }
    /// A length that must fit in what is left (each item takes at least `min` bytes), so a
    /// corrupt count never allocates more than the bytes could hold.
    fn count(&mut self, min: usize) -> Res<usize> {
        let at = self.pos;
        let n = self.usize()?;
        if n.saturating_mul(min.max(1)) > self.b.len() - self.pos {
            return Err(self.err_at(at, format!("{n} items do not fit in the bytes left")));
        }
        Ok(n)
    }
    fn bytes(&mut self) -> Res<Vec<u8>> {
        let n = self.count(1)?;
        Ok(self.take(n)?.to_vec())
    }
    fn str(&mut self) -> Res<String> {
        let at = self.pos;
        String::from_utf8(self.bytes()?).map_err(|_| self.err_at(at, "text that is not UTF-8"))
    }
    fn opt<T>(&mut self, f: impl FnOnce(&mut R<'a>) -> Res<T>) -> Res<Option<T>> {
        let at = self.pos;
        match self.u8()? {
            0 => Ok(None),
            1 => f(self).map(Some),
            v => Err(self.err_at(at, format!("{v} is neither none nor some"))),
        }
    }
    fn list<T>(&mut self, mut f: impl FnMut(&mut R<'a>) -> Res<T>) -> Res<Vec<T>> {
        let n = self.count(1)?;
        (0..n).map(|_| f(self)).collect()
    }
    fn u32s(&mut self) -> Res<Vec<u32>> {
        let n = self.count(4)?;
        (0..n).map(|_| self.u32()).collect()
    }
    /// The next `len` bytes as a reader of their own (offsets still counted from the step's
    /// start).
    fn sub(&mut self, len: usize) -> Res<R<'a>> {
        let start = self.pos;
        self.take(len)?;
        Ok(R {
            b: &self.b[..start + len],
            pos: start,
        })
    }
    /// Fails unless every byte was read.
    fn end(&self) -> Res<()> {
        if self.pos == self.b.len() {
            Ok(())
        } else {
            Err(self.err_at(
                self.pos,
                format!("{} byte(s) left over", self.b.len() - self.pos),
            ))
        }
    }
}

fn put_tile(w: &mut W, t: TileCoord) {
    w.u8(t.x);
    w.u8(t.y);
}

fn get_tile(r: &mut R) -> Res<TileCoord> {
    let at = r.pos;
    let (x, y) = (r.u8()?, r.u8()?);
    TileCoord::new(x as usize, y as usize).ok_or_else(|| r.err_at(at, format!("no tile {x}_{y}")))
}

/// A packed difference: its bytes as they are.
fn put_packed(w: &mut W, p: &Packed) {
    w.bytes(&p.0);
}

/// A packed difference of an array of `len` bytes: checked to unpack to that length, so that
/// a damaged one is found here rather than ignored by undo.
fn get_packed(r: &mut R, len: usize) -> Res<Packed> {
    let at = r.pos;
    let bytes = r.bytes()?;
    match lz4_flex::decompress_size_prepended(&bytes) {
        Ok(planes) if planes.len() == len => Ok(Packed(bytes.into())),
        _ => Err(r.err_at(at, format!("a packed difference that is not {len} bytes"))),
    }
}

fn put_optional<T>(w: &mut W, o: &Optional<T>, side: impl Fn(&mut W, &T)) {
    match o {
        Optional::Diff(p) => {
            w.u8(0);
            put_packed(w, p);
        }
        Optional::Swap(a, b) => {
            w.u8(1);
            w.opt(a, &side);
            w.opt(b, &side);
        }
    }
}

fn get_optional<'a, T>(
    r: &mut R<'a>,
    len: usize,
    side: impl Fn(&mut R<'a>) -> Res<T>,
) -> Res<Optional<T>> {
    let at = r.pos;
    match r.u8()? {
        0 => Ok(Optional::Diff(get_packed(r, len)?)),
        1 => Ok(Optional::Swap(r.opt(&side)?, r.opt(&side)?)),
        v => Err(r.err_at(at, format!("{v} is no kind of array change"))),
    }
}

const VERTICES: usize = crate::model::coords::VERTICES_PER_CHUNK;

fn put_colors(w: &mut W, c: &[[u8; 4]; VERTICES]) {
    c.iter().for_each(|v| w.raw(v));
}

fn get_colors(r: &mut R) -> Res<Box<[[u8; 4]; VERTICES]>> {
    let mut c = Box::new([[0u8; 4]; VERTICES]);
    for v in c.iter_mut() {
        *v = r.array()?;
    }
    Ok(c)
}

fn put_shadow(w: &mut W, s: &ShadowMap) {
    s.rows.iter().for_each(|&row| w.u64(row));
}

fn get_shadow(r: &mut R) -> Res<ShadowMap> {
    let mut rows = Box::new([0u64; 64]);
    for row in rows.iter_mut() {
        *row = r.u64()?;
    }
    Ok(ShadowMap { rows })
}

fn put_chunk(w: &mut W, c: &StoredChunk) {
    let StoredChunk {
        tile,
        chunk,
        heights,
        normals,
        colors,
        shadow,
        layers,
        rest,
    } = c;
    put_tile(w, *tile);
    w.usize(*chunk);
    w.opt(heights, put_packed);
    w.opt(normals, put_packed);
    w.opt(colors, |w, o| put_optional(w, o, |w, c| put_colors(w, c)));
    w.opt(shadow, |w, o| put_optional(w, o, put_shadow));
    w.opt(layers, put_layers);
    w.opt(rest, |w, r| {
        put_rest(w, &r.0);
        put_rest(w, &r.1);
    });
}

fn get_chunk(r: &mut R) -> Res<StoredChunk> {
    let tile = get_tile(r)?;
    let at = r.pos;
    let chunk = r.usize()?;
    if chunk >= 256 {
        return Err(r.err_at(at, format!("no chunk {chunk}")));
    }
    Ok(StoredChunk {
        tile,
        chunk,
        heights: r.opt(|r| get_packed(r, 4 * VERTICES))?,
        normals: r.opt(|r| get_packed(r, 3 * VERTICES))?,
        colors: r.opt(|r| get_optional(r, 4 * VERTICES, get_colors))?,
        shadow: r.opt(|r| get_optional(r, 8 * 64, get_shadow))?,
        layers: r.opt(get_layers)?,
        rest: r.opt(|r| Ok(Box::new((get_rest(r)?, get_rest(r)?))))?,
    })
}

fn put_layer_kind(w: &mut W, k: &LayerKind) {
    let LayerKind {
        texture,
        flags,
        effect_id,
        alpha,
    } = k;
    w.u32(*texture);
    w.u32(*flags);
    w.u32(*effect_id);
    w.bool(*alpha);
}

fn get_layer_kind(r: &mut R) -> Res<LayerKind> {
    Ok(LayerKind {
        texture: r.u32()?,
        flags: r.u32()?,
        effect_id: r.u32()?,
        alpha: r.bool()?,
    })
}

fn put_alpha_source(w: &mut W, s: &AlphaSource) {
    let AlphaSource { encoding, bytes } = s;
    w.u8(match encoding {
        AlphaEncoding::Nibble => 0,
        AlphaEncoding::NibbleFixed => 1,
        AlphaEncoding::Byte => 2,
        AlphaEncoding::Rle => 3,
    });
    w.bytes(bytes);
}

fn get_alpha_source(r: &mut R) -> Res<AlphaSource> {
    let at = r.pos;
    let encoding = match r.u8()? {
        0 => AlphaEncoding::Nibble,
        1 => AlphaEncoding::NibbleFixed,
        2 => AlphaEncoding::Byte,
        3 => AlphaEncoding::Rle,
        v => return Err(r.err_at(at, format!("no alpha encoding {v}"))),
    };
    Ok(AlphaSource {
        encoding,
        bytes: r.bytes()?.into_boxed_slice(),
    })
}

fn put_layers(w: &mut W, l: &Layers) {
    let Layers { kinds, alphas } = l;
    w.opt(kinds, |w, (a, b)| {
        w.list(a, put_layer_kind);
        w.list(b, put_layer_kind);
    });
    w.list(alphas, |w, d| {
        let AlphaDelta {
            layer,
            texels,
            sources,
        } = d;
        w.usize(*layer);
        w.opt(texels, put_packed);
        w.opt(sources, |w, (a, b)| {
            w.opt(a, put_alpha_source);
            w.opt(b, put_alpha_source);
        });
    });
}

fn get_layers(r: &mut R) -> Res<Layers> {
    Ok(Layers {
        kinds: r.opt(|r| Ok((r.list(get_layer_kind)?, r.list(get_layer_kind)?)))?,
        alphas: r.list(|r| {
            Ok(AlphaDelta {
                layer: r.usize()?,
                texels: r.opt(|r| get_packed(r, ALPHA_TEXELS))?,
                sources: r.opt(|r| Ok((r.opt(get_alpha_source)?, r.opt(get_alpha_source)?)))?,
            })
        })?,
    })
}

fn put_rest(w: &mut W, rest: &Rest) {
    let Rest {
        flags,
        base_height,
        holes,
        area_id,
        low_quality_texture_map,
        no_effect_doodad,
        doodad_refs,
        wmo_refs,
        liquid,
        sound_emitters,
        extras,
        quirks,
    } = rest;
    w.u32(*flags);
    w.u32(*base_height);
    w.u16(*holes);
    w.u32(*area_id);
    w.raw(low_quality_texture_map);
    w.raw(no_effect_doodad);
    w.list(doodad_refs, |w, &v| w.u32(v));
    w.list(wmo_refs, |w, &v| w.u32(v));
    w.opt(liquid, put_liquid);
    w.list(sound_emitters, |w, s| {
        let SoundEmitter { record } = s;
        w.bytes(record);
    });
    put_extras(w, extras);
    put_quirks(w, quirks);
}

fn get_rest(r: &mut R) -> Res<Rest> {
    Ok(Rest {
        flags: r.u32()?,
        base_height: r.u32()?,
        holes: r.u16()?,
        area_id: r.u32()?,
        low_quality_texture_map: r.array()?,
        no_effect_doodad: r.array()?,
        doodad_refs: r.u32s()?,
        wmo_refs: r.u32s()?,
        liquid: r.opt(get_liquid)?,
        sound_emitters: r.list(|r| Ok(SoundEmitter { record: r.bytes()? }))?,
        extras: get_extras(r)?,
        quirks: get_quirks(r)?,
    })
}

fn put_extras(w: &mut W, e: &ChunkHeaderExtras) {
    let ChunkHeaderExtras {
        unknown_0x3e,
        ofs_mclv,
        unused_0x7c,
        position_xy,
    } = e;
    w.u16(*unknown_0x3e);
    w.u32(*ofs_mclv);
    w.u32(*unused_0x7c);
    w.opt(position_xy, |w, p| p.iter().for_each(|&v| w.f32(v)));
}

fn get_extras(r: &mut R) -> Res<ChunkHeaderExtras> {
    Ok(ChunkHeaderExtras {
        unknown_0x3e: r.u16()?,
        ofs_mclv: r.u32()?,
        unused_0x7c: r.u32()?,
        position_xy: r.opt(|r| Ok([r.f32()?, r.f32()?]))?,
    })
}

fn put_quirks(w: &mut W, q: &ChunkQuirks) {
    let ChunkQuirks {
        alpha_size_field,
        liquid_size_field,
        empty_liquid_chunk,
        normal_padding,
        relative_heights,
        sound_record_size,
        trailing,
        shadow_flag_without_map,
        shadow_offset_zero,
        liquid_size_without_chunk,
        oversized_sub_chunks,
    } = q;
    w.opt(alpha_size_field, |w, &v| w.u32(v));
    w.opt(liquid_size_field, |w, &v| w.u32(v));
    w.bool(*empty_liquid_chunk);
    w.opt(normal_padding, |w, p| w.raw(p));
    w.opt(relative_heights, |w, h| h.iter().for_each(|&v| w.f32(v)));
    w.opt(sound_record_size, |w, &v| w.usize(v));
    w.bytes(trailing);
    w.bool(*shadow_flag_without_map);
    w.bool(*shadow_offset_zero);
    w.opt(liquid_size_without_chunk, |w, &v| w.u32(v));
    w.list(oversized_sub_chunks, |w, (tag, size)| {
        w.raw(tag);
        w.u32(*size);
    });
}

fn get_quirks(r: &mut R) -> Res<ChunkQuirks> {
    Ok(ChunkQuirks {
        alpha_size_field: r.opt(R::u32)?,
        liquid_size_field: r.opt(R::u32)?,
        empty_liquid_chunk: r.bool()?,
        normal_padding: r.opt(R::array)?,
        relative_heights: r.opt(|r| {
            let mut h = Box::new([0f32; VERTICES]);
            for v in h.iter_mut() {
                *v = r.f32()?;
            }
            Ok(h)
        })?,
        sound_record_size: r.opt(R::usize)?,
        trailing: r.bytes()?,
        shadow_flag_without_map: r.bool()?,
        shadow_offset_zero: r.bool()?,
        liquid_size_without_chunk: r.opt(R::u32)?,
        oversized_sub_chunks: r.list(|r| Ok((r.array()?, r.u32()?)))?,
    })
}

fn put_liquid(w: &mut W, l: &ChunkLiquid) {
    let ChunkLiquid { layers, attributes } = l;
    w.list(layers, put_liquid_layer);
    w.opt(attributes, |w, a| {
        let LiquidAttributes { fishable, deep } = a;
        w.u64(*fishable);
        w.u64(*deep);
    });
}

fn get_liquid(r: &mut R) -> Res<ChunkLiquid> {
    Ok(ChunkLiquid {
        layers: r.list(get_liquid_layer)?,
        attributes: r.opt(|r| {
            Ok(LiquidAttributes {
                fishable: r.u64()?,
                deep: r.u64()?,
            })
        })?,
    })
}

fn put_liquid_layer(w: &mut W, l: &LiquidLayer) {
    let LiquidLayer {
        liquid_type,
        vertex_format,
        min_height,
        max_height,
        x,
        y,
        width,
        height,
        exists,
        exists_omitted,
        exists_padding,
        heights,
        depths,
        uvs,
        origin,
    } = l;
    w.u16(*liquid_type);
    w.u16(*vertex_format);
    w.f32(*min_height);
    w.f32(*max_height);
    w.raw(&[*x, *y, *width, *height]);
    w.u64(*exists);
    w.bool(*exists_omitted);
    w.u8(*exists_padding);
    w.opt(heights, |w, h| w.list(h, |w, &v| w.f32(v)));
    w.opt(depths, |w, d| w.bytes(d));
    w.opt(uvs, |w, u| {
        w.list(u, |w, &[a, b]| {
            w.u16(a);
            w.u16(b);
        })
    });
    match origin {
        LiquidOrigin::Mh2o => w.u8(0),
        LiquidOrigin::Mclq(m) => {
            let MclqExtras {
                vertex_heads,
                tiles,
                flow_count,
                flows,
            } = m;
            w.u8(1);
            vertex_heads.iter().for_each(|v| w.raw(v));
            w.raw(tiles);
            w.u32(*flow_count);
            w.raw(&flows[..]);
        }
    }
}

fn get_liquid_layer(r: &mut R) -> Res<LiquidLayer> {
    let liquid_type = r.u16()?;
    let vertex_format = r.u16()?;
    let min_height = r.f32()?;
    let max_height = r.f32()?;
    let [x, y, width, height] = r.array()?;
    let exists = r.u64()?;
    let exists_omitted = r.bool()?;
    let exists_padding = r.u8()?;
    let heights = r.opt(|r| {
        let n = r.count(4)?;
        (0..n).map(|_| r.f32()).collect()
    })?;
    let depths = r.opt(R::bytes)?;
    let uvs = r.opt(|r| {
        let n = r.count(4)?;
        (0..n).map(|_| Ok([r.u16()?, r.u16()?])).collect()
    })?;
    let at = r.pos;
    let origin = match r.u8()? {
        0 => LiquidOrigin::Mh2o,
        1 => {
            let mut vertex_heads = Box::new([[0u8; 4]; 81]);
            for v in vertex_heads.iter_mut() {
                *v = r.array()?;
            }
            LiquidOrigin::Mclq(MclqExtras {
                vertex_heads,
                tiles: r.array()?,
                flow_count: r.u32()?,
                flows: Box::new(r.array()?),
            })
        }
        v => return Err(r.err_at(at, format!("no liquid origin {v}"))),
    };
    Ok(LiquidLayer {
        liquid_type,
        vertex_format,
        min_height,
        max_height,
        x,
        y,
        width,
        height,
        exists,
        exists_omitted,
        exists_padding,
        heights,
        depths,
        uvs,
        origin,
    })
}

fn put_texture_list(w: &mut W, l: &TextureList) {
    let TextureList { names, flags } = l;
    w.list(names, |w, n| w.str(n));
    w.opt(flags, |w, f| w.list(f, |w, &v| w.u32(v)));
}

fn get_texture_list(r: &mut R) -> Res<TextureList> {
    Ok(TextureList {
        names: r.list(R::str)?,
        flags: r.opt(R::u32s)?,
    })
}

fn put_texture_change(w: &mut W, t: &TextureListChange) {
    let TextureListChange {
        tile,
        before,
        after,
    } = t;
    put_tile(w, *tile);
    put_texture_list(w, before);
    put_texture_list(w, after);
}

fn get_texture_change(r: &mut R) -> Res<TextureListChange> {
    Ok(TextureListChange {
        tile: get_tile(r)?,
        before: get_texture_list(r)?,
        after: get_texture_list(r)?,
    })
}

fn put_doodad(w: &mut W, d: &DoodadPlacement) {
    let DoodadPlacement {
        name_index,
        unique_id,
        position,
        rotation,
        scale,
        flags,
    } = d;
    w.u32(*name_index);
    w.u32(*unique_id);
    position.iter().for_each(|&v| w.f64(v));
    rotation.iter().for_each(|&v| w.f32(v));
    w.u16(*scale);
    w.u16(*flags);
}

fn get_doodad(r: &mut R) -> Res<DoodadPlacement> {
    Ok(DoodadPlacement {
        name_index: r.u32()?,
        unique_id: r.u32()?,
        position: [r.f64()?, r.f64()?, r.f64()?],
        rotation: [r.f32()?, r.f32()?, r.f32()?],
        scale: r.u16()?,
        flags: r.u16()?,
    })
}

fn put_wmo(w: &mut W, p: &WmoPlacement) {
    let WmoPlacement {
        name_index,
        unique_id,
        position,
        rotation,
        bounds_min,
        bounds_max,
        flags,
        doodad_set,
        name_set,
        scale,
    } = p;
    w.u32(*name_index);
    w.u32(*unique_id);
    position.iter().for_each(|&v| w.f64(v));
    rotation.iter().for_each(|&v| w.f32(v));
    bounds_min.iter().for_each(|&v| w.f64(v));
    bounds_max.iter().for_each(|&v| w.f64(v));
    for v in [flags, doodad_set, name_set, scale] {
        w.u16(*v);
    }
}

fn get_wmo(r: &mut R) -> Res<WmoPlacement> {
    Ok(WmoPlacement {
        name_index: r.u32()?,
        unique_id: r.u32()?,
        position: [r.f64()?, r.f64()?, r.f64()?],
        rotation: [r.f32()?, r.f32()?, r.f32()?],
        bounds_min: [r.f64()?, r.f64()?, r.f64()?],
        bounds_max: [r.f64()?, r.f64()?, r.f64()?],
        flags: r.u16()?,
        doodad_set: r.u16()?,
        name_set: r.u16()?,
        scale: r.u16()?,
    })
}

fn put_objects(w: &mut W, o: &TileObjects) {
    let TileObjects {
        doodad_names,
        wmo_names,
        doodads,
        wmos,
        refs,
    } = o;
    w.list(doodad_names, |w, n| w.str(n));
    w.list(wmo_names, |w, n| w.str(n));
    w.list(doodads, put_doodad);
    w.list(wmos, put_wmo);
    w.list(refs, |w, (d, m)| {
        w.list(d, |w, &v| w.u32(v));
        w.list(m, |w, &v| w.u32(v));
    });
}

fn get_objects(r: &mut R) -> Res<TileObjects> {
    Ok(TileObjects {
        doodad_names: r.list(R::str)?,
        wmo_names: r.list(R::str)?,
        doodads: r.list(get_doodad)?,
        wmos: r.list(get_wmo)?,
        refs: r.list(|r| Ok((r.u32s()?, r.u32s()?)))?,
    })
}

fn put_objects_change(w: &mut W, o: &ObjectsChange) {
    let ObjectsChange {
        tile,
        before,
        after,
    } = o;
    put_tile(w, *tile);
    put_objects(w, before);
    put_objects(w, after);
}

fn get_objects_change(r: &mut R) -> Res<ObjectsChange> {
    Ok(ObjectsChange {
        tile: get_tile(r)?,
        before: get_objects(r)?,
        after: get_objects(r)?,
    })
}

fn put_bounds_side(w: &mut W, (flags, bounds): &(u32, Option<FlightBounds>)) {
    w.u32(*flags);
    w.opt(bounds, |w, b| {
        let FlightBounds { max, min } = b;
        max.iter().chain(min).for_each(|&v| w.u16(v as u16));
    });
}

fn get_bounds_side(r: &mut R) -> Res<(u32, Option<FlightBounds>)> {
    let flags = r.u32()?;
    let bounds = r.opt(|r| {
        let mut b = FlightBounds {
            max: [0; 9],
            min: [0; 9],
        };
        for v in b.max.iter_mut().chain(b.min.iter_mut()) {
            *v = r.u16()? as i16;
        }
        Ok(b)
    })?;
    Ok((flags, bounds))
}

fn put_bounds_change(w: &mut W, b: &BoundsChange) {
    let BoundsChange {
        tile,
        before,
        after,
    } = b;
    put_tile(w, *tile);
    put_bounds_side(w, before);
    put_bounds_side(w, after);
}

fn get_bounds_change(r: &mut R) -> Res<BoundsChange> {
    Ok(BoundsChange {
        tile: get_tile(r)?,
        before: get_bounds_side(r)?,
        after: get_bounds_side(r)?,
    })
}

fn put_table_change(w: &mut W, t: &TableChange) {
    let TableChange {
        table,
        id,
        before,
        after,
    } = t;
    let row = |w: &mut W, (index, words): &PlacedRow| {
        w.usize(*index);
        w.list(words, |w, &v| w.u32(v));
    };
    w.str(table);
    w.u32(*id);
    w.opt(before, row);
    w.opt(after, row);
}

fn get_table_change(r: &mut R) -> Res<TableChange> {
    let row = |r: &mut R| -> Res<PlacedRow> { Ok((r.usize()?, r.u32s()?)) };
    Ok(TableChange {
        table: r.str()?,
        id: r.u32()?,
        before: r.opt(row)?,
        after: r.opt(row)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::stroke::{ChunkChange, TerrainEdit};
    use crate::model::chunk::Chunk;
    use crate::model::{Map, Tile};
    use proptest::prelude::*;

    /// A small xorshift stream from `seed`.
    fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut r = seed | 1;
        move || {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            r
        }
    }

    /// `stored::tests::chunk(seed)` with the fields it leaves alone varied too: liquid of both
    /// origins, sound emitters, header extras and file quirks. No NaN: the maps are compared
    /// with `==` (a float's every bit is checked by the bytes written again).
    fn chunk(seed: u64) -> Chunk {
        let mut next = stream(seed ^ 0x9E37_79B9);
        let mut c = super::super::stored::tests::chunk(seed);
        if next().is_multiple_of(2) {
            let mclq = next().is_multiple_of(2);
            c.liquid = Some(ChunkLiquid {
                layers: vec![LiquidLayer {
                    liquid_type: (next() % 4) as u16,
                    vertex_format: (next() % 3) as u16,
                    min_height: -(next() as f32),
                    max_height: next() as f32,
                    x: 1,
                    y: 2,
                    width: 3,
                    height: 4,
                    exists: next(),
                    exists_omitted: next().is_multiple_of(2),
                    exists_padding: next() as u8,
                    heights: next().is_multiple_of(2).then(|| vec![next() as f32; 20]),
                    depths: next().is_multiple_of(2).then(|| vec![next() as u8; 20]),
                    uvs: next()
                        .is_multiple_of(2)
                        .then(|| vec![[next() as u16, 7]; 20]),
                    origin: if mclq {
                        LiquidOrigin::Mclq(MclqExtras {
                            vertex_heads: Box::new([[next() as u8, 1, 2, 3]; 81]),
                            tiles: [next() as u8; 64],
                            flow_count: next() as u32,
                            flows: Box::new([next() as u8; 80]),
                        })
                    } else {
                        LiquidOrigin::Mh2o
                    },
                }],
                attributes: next().is_multiple_of(2).then(|| LiquidAttributes {
                    fishable: next(),
                    deep: next(),
                }),
            });
        }
        c.sound_emitters = (0..next() % 3)
            .map(|_| SoundEmitter {
                record: vec![next() as u8; 28],
            })
            .collect();
        c.extras = ChunkHeaderExtras {
            unknown_0x3e: next() as u16,
            ofs_mclv: next() as u32,
            unused_0x7c: next() as u32,
            position_xy: next().is_multiple_of(2).then(|| [next() as f32, -0.0]),
        };
        c.quirks = ChunkQuirks {
            alpha_size_field: next().is_multiple_of(2).then(|| next() as u32),
            liquid_size_field: next().is_multiple_of(2).then(|| next() as u32),
            empty_liquid_chunk: next().is_multiple_of(2),
            normal_padding: next().is_multiple_of(2).then(|| [next() as u8; 13]),
            relative_heights: next()
                .is_multiple_of(2)
                .then(|| Box::new([next() as f32; VERTICES])),
            sound_record_size: next().is_multiple_of(2).then(|| (next() % 64) as usize),
            trailing: vec![next() as u8; (next() % 5) as usize],
            shadow_flag_without_map: next().is_multiple_of(2),
            shadow_offset_zero: next().is_multiple_of(2),
            liquid_size_without_chunk: next().is_multiple_of(2).then_some(8),
            oversized_sub_chunks: (0..next() % 2).map(|_| (*b"MCSE", next() as u32)).collect(),
        };
        c
    }

    fn objects(seed: u64) -> TileObjects {
        let mut next = stream(seed);
        TileObjects {
            doodad_names: (0..next() % 3)
                .map(|i| format!("d{i}_{}.m2", next() % 9))
                .collect(),
            wmo_names: (0..next() % 2).map(|i| format!("w{i}.wmo")).collect(),
            doodads: (0..next() % 3)
                .map(|_| DoodadPlacement {
                    name_index: (next() % 3) as u32,
                    unique_id: next() as u32,
                    position: [next() as f64 / 7.0, -1.5, -(next() as f64)],
                    rotation: [next() as f32, 0.0, -0.0],
                    scale: next() as u16,
                    flags: next() as u16,
                })
                .collect(),
            wmos: (0..next() % 2)
                .map(|_| WmoPlacement {
                    name_index: 0,
                    unique_id: next() as u32,
                    position: [next() as f64, 2.0, 3.0],
                    rotation: [1.0, next() as f32, 3.0],
                    bounds_min: [-(next() as f64), 0.0, 0.0],
                    bounds_max: [next() as f64, 9.0, 9.0],
                    flags: next() as u16,
                    doodad_set: next() as u16,
                    name_set: next() as u16,
                    scale: 1024,
                })
                .collect(),
            refs: (0..256)
                .map(|_| {
                    let d = (0..next() % 2).map(|k| k as u32).collect();
                    (d, Vec::new())
                })
                .collect(),
        }
    }

    /// A step over tiles 1_2 and 3_4 made from `seed`: some chunks changed, and now and then a
    /// texture list, the map's flags, a tile's objects and its flight bounds.
    fn edit(seed: u64) -> (TerrainEdit, Map) {
        let mut next = stream(seed);
        let tiles = [TileCoord::new(1, 2).unwrap(), TileCoord::new(3, 4).unwrap()];
        let mut map = Map::new("Journal");
        for &t in &tiles {
            map.tiles.insert(t, Tile::flat(t, "a.blp", 0.0));
        }
        // A table of three rows (id and one word each), for the steps' row changes.
        let mut dbc = b"WDBC".to_vec();
        for v in [3u32, 2, 8, 1] {
            dbc.extend_from_slice(&v.to_le_bytes());
        }
        for id in 0..3u32 {
            dbc.extend_from_slice(&id.to_le_bytes());
            dbc.extend_from_slice(&(10 * id).to_le_bytes());
        }
        dbc.push(0);
        let table = crate::model::table_rows::DbcRows::read(&dbc, 2).unwrap();
        map.client_tables.insert("DBFilesClient\\Light.dbc", table);
        let chunks = (0..1 + next() % 4)
            .map(|i| {
                let before = chunk(next());
                let after = if next().is_multiple_of(2) {
                    let mut c = before.clone();
                    c.heights[(next() % 145) as usize] += 2.5;
                    c
                } else {
                    chunk(next())
                };
                ChunkChange {
                    tile: tiles[(next() % 2) as usize],
                    chunk: (i * 37 + next() % 30) as usize % 256,
                    before,
                    after,
                }
            })
            .collect();
        let list = |n: u64| TextureList {
            names: (0..n).map(|i| format!("t{i}.blp")).collect(),
            flags: n.is_multiple_of(2).then(|| (0..n as u32).collect()),
        };
        let bounds = |v: i16| FlightBounds {
            max: [v; 9],
            min: [-v; 9],
        };
        let e = TerrainEdit {
            label: format!("Raise, {} chunks ✓", next() % 9),
            chunks,
            textures: (0..next() % 2)
                .map(|_| TextureListChange {
                    tile: tiles[0],
                    before: list(next() % 4),
                    after: list(1 + next() % 4),
                })
                .collect(),
            map_flags: next()
                .is_multiple_of(2)
                .then(|| (next() as u32, next() as u32)),
            objects: (0..next() % 2)
                .map(|_| ObjectsChange {
                    tile: tiles[1],
                    before: objects(next()),
                    after: objects(next()),
                })
                .collect(),
            bounds: (0..next() % 2)
                .map(|_| BoundsChange {
                    tile: tiles[0],
                    before: (next() as u32, None),
                    after: (next() as u32, Some(bounds(next() as i16))),
                })
                .collect(),
            tables: (0..next() % 3)
                .map(|k| TableChange {
                    table: "DBFilesClient\\Light.dbc".into(),
                    id: k as u32,
                    before: Some((k as usize, vec![k as u32, 10 * k as u32])),
                    after: next()
                        .is_multiple_of(2)
                        .then(|| (k as usize, vec![k as u32, next() as u32])),
                })
                .collect(),
            already_applied: true,
        };
        // The map holds the step's "after" state, as when it was recorded.
        e.apply_after(&mut map);
        (e, map)
    }

    proptest! {
        /// A step read back from its bytes is the same step: its bytes again are the same
        /// bytes, and undo, then redo, take a map through the same states, bit for bit.
        #[test]
        fn a_step_read_back_undoes_and_redoes_the_map_exactly(seed in any::<u64>()) {
            let (e, after) = edit(seed);
            let changes = e.chunks.clone();
            let mut original = StoredEdit::pack(e);
            let bytes = encode(&original);
            let mut back = decode(&bytes).unwrap();
            prop_assert!(encode(&back) == bytes, "re-encoded bytes differ");
            prop_assert_eq!(&back.label, &original.label);
            prop_assert_eq!(&back.touched, &original.touched);
            let (mut a, mut b) = (after.clone(), after.clone());
            // As the record takes a step just recorded: its first `edit` finds the map done.
            undo::Edit::edit(&mut original, &mut a);
            undo::Edit::edit(&mut back, &mut b);
            prop_assert!(a.tiles == after.tiles && b.tiles == after.tiles);
            let ta = undo::Edit::undo(&mut original, &mut a);
            let tb = undo::Edit::undo(&mut back, &mut b);
            prop_assert_eq!(ta, tb);
            prop_assert!(a.tiles == b.tiles && a.flags == b.flags, "undone maps differ");
            prop_assert!(a.client_tables == b.client_tables, "undone tables differ");
            for c in &changes {
                prop_assert!(a.tiles[&c.tile].chunks[c.chunk].heights == c.before.heights, "undo gives the heights before");
            }
            prop_assert!(a.tiles != after.tiles || a.flags != after.flags || original.chunks.is_empty(), "undo changed nothing");
            undo::Edit::edit(&mut original, &mut a);
            undo::Edit::edit(&mut back, &mut b);
            prop_assert!(a.tiles == b.tiles, "redone maps differ");
            prop_assert!(b.tiles == after.tiles && b.flags == after.flags, "redo does not give the map after the step");
            prop_assert!(a.client_tables == b.client_tables && b.client_tables == after.client_tables, "redone tables differ");
        }

        /// Damaged or cut bytes are an error that says where, never a panic.
        #[test]
        fn damaged_step_bytes_are_an_error_not_a_panic(seed in any::<u64>(), at in any::<usize>(), cut in any::<bool>()) {
            let (e, _) = edit(seed);
            let mut bytes = encode(&StoredEdit::pack(e));
            let at = at % bytes.len();
            if cut {
                bytes.truncate(at);
                prop_assert!(decode(&bytes).is_err());
            } else {
                bytes[at] ^= 0xA5;
                // A flipped byte may still read (a height's bits); it must not panic.
                let _ = decode(&bytes);
            }
        }
    }

    #[test]
    fn a_step_of_a_newer_loam_names_its_part_and_byte() {
        let (e, _) = edit(5);
        let mut bytes = encode(&StoredEdit::pack(e));
        // The end tag becomes an unknown part.
        let last = bytes.len() - 1;
        bytes[last] = 99;
        bytes.extend_from_slice(&0u64.to_le_bytes());
        let err = decode(&bytes).unwrap_err();
        assert_eq!(err.offset, last);
        assert!(err.what.contains("unknown part 99"), "{err}");
    }
}
