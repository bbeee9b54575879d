//! 3.3.5 liquid (MH2O): a 256-entry header, then every chunk's instances, then each chunk's
//! attributes followed by its instances' exists bitmaps and vertex data. The writer lays data out
//! in exactly that order, which is the order Blizzard's files use.

use super::chunk::{ErrorKind, RawChunk, Reader, Result, Writer};
use crate::model::liquid::{
    ChunkLiquid, LiquidAttributes, LiquidLayer, LiquidOrigin, rectangle_mask,
};

const HEADER_BYTES: usize = 256 * 12;
const INSTANCE_BYTES: usize = 24;

/// Decodes an MH2O chunk into per-chunk liquid (index = chunk row * 16 + column).
pub fn read(chunk: &RawChunk) -> Result<Vec<Option<ChunkLiquid>>> {
    let data = chunk.payload;
    let mut header = chunk.reader();
    let mut out = Vec::with_capacity(256);
    let at = |offset: u32, len: usize, what: &'static str| -> Result<Reader<'_>> {
        let start = offset as usize;
        match data.get(start..start.saturating_add(len)) {
            Some(slice) => Ok(Reader::new(
                slice,
                chunk.payload_offset() + start,
                chunk.tag,
            )),
            None => Err(chunk.error(
                start.min(data.len()),
                ErrorKind::Invalid(format!(
                    "{what} at offset {offset} (+{len} bytes) runs past the chunk's {} bytes",
                    data.len()
                )),
            )),
        }
    };
    for _ in 0..256 {
        let ofs_instances = header.u32()?;
        let count = header.u32()?;
        let ofs_attributes = header.u32()?;
        if count == 0 && ofs_attributes == 0 {
            out.push(None);
            continue;
        }
        let attributes = if ofs_attributes != 0 {
            let mut r = at(ofs_attributes, 16, "attributes")?;
            Some(LiquidAttributes {
                fishable: r.u64()?,
                deep: r.u64()?,
            })
        } else {
            None
        };
        // Bounds first: the count comes from the file and must not size an allocation unchecked.
        let mut r = at(
            ofs_instances,
            INSTANCE_BYTES.saturating_mul(count as usize),
            "instances",
        )?;
        let mut layers = Vec::with_capacity(count as usize);
        for _ in 0..count {
            layers.push(read_instance(&mut r, &at)?);
        }
        out.push(Some(ChunkLiquid { layers, attributes }));
    }
    Ok(out)
}

fn read_instance<'a>(
    r: &mut Reader,
    at: &impl Fn(u32, usize, &'static str) -> Result<Reader<'a>>,
) -> Result<LiquidLayer> {
    let liquid_type = r.u16()?;
    let vertex_format = r.u16()?;
    let min_height = r.f32()?;
    let max_height = r.f32()?;
    let [x, y, width, height] = r.array::<4>()?;
    if x as usize + width as usize > 8 || y as usize + height as usize > 8 {
        return Err(r.error(ErrorKind::Invalid(format!(
            "liquid rectangle {x},{y} {width}×{height} leaves the 8×8 grid"
        ))));
    }
    let ofs_exists = r.u32()?;
    let ofs_vertices = r.u32()?;
    let mut exists = rectangle_mask(x, y, width, height);
    let mut exists_padding = 0;
    if ofs_exists != 0 {
        let quads = width as usize * height as usize;
        let bits = at(ofs_exists, quads.div_ceil(8), "exists bitmap")?.bytes(quads.div_ceil(8))?;
        exists_padding = bits.last().map_or(0, |b| b & padding_mask(quads));
        exists = 0;
        for i in 0..quads {
            if bits[i / 8] >> (i % 8) & 1 == 1 {
                let (row, col) = (
                    y as usize + i / width as usize,
                    x as usize + i % width as usize,
                );
                exists |= 1 << (row * 8 + col);
            }
        }
    }
    let n = (width as usize + 1) * (height as usize + 1);
    let (mut heights, mut depths, mut uvs) = (None, None, None);
    if ofs_vertices != 0 {
        let (has_h, has_uv, has_d) = match vertex_format {
            0 => (true, false, true),
            1 => (true, true, false),
            2 => (false, false, true),
            3 => (true, true, true),
            other => {
                return Err(r.error(ErrorKind::Invalid(format!(
                    "unknown liquid vertex format {other}"
                ))));
            }
        };
        let len = n * (4 * has_h as usize + 4 * has_uv as usize + has_d as usize);
        let mut v = at(ofs_vertices, len, "vertex data")?;
        if has_h {
            heights = Some((0..n).map(|_| v.f32()).collect::<Result<Vec<_>>>()?);
        }
        if has_uv {
            uvs = Some(
                (0..n)
                    .map(|_| Ok([v.u16()?, v.u16()?]))
                    .collect::<Result<Vec<_>>>()?,
            );
        }
        if has_d {
            depths = Some(v.bytes(n)?.to_vec());
        }
    }
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
        exists_omitted: ofs_exists == 0,
        exists_padding,
        heights,
        depths,
        uvs,
        origin: LiquidOrigin::Mh2o,
    })
}

/// The bits of a bitmap's last byte that lie past quad `quads - 1`.
fn padding_mask(quads: usize) -> u8 {
    match quads % 8 {
        0 => 0,
        used => !((1u8 << used) - 1),
    }
}

/// True when a chunk's liquid has anything MH2O should store.
fn stores(liquid: &Option<&ChunkLiquid>) -> bool {
    liquid.is_some_and(|l| l.attributes.is_some() || l.layers.iter().any(is_mh2o))
}

fn is_mh2o(layer: &LiquidLayer) -> bool {
    matches!(layer.origin, LiquidOrigin::Mh2o)
}

/// True when any of the 256 chunks has liquid MH2O stores.
pub fn any(chunks: &[Option<&ChunkLiquid>]) -> bool {
    chunks.iter().any(stores)
}

/// Encodes the MH2O payload for 256 chunks' liquid (layers that came from MCLQ are left out).
pub fn write(chunks: &[Option<&ChunkLiquid>]) -> Vec<u8> {
    let mut w = Writer::with_capacity(HEADER_BYTES + 1024);
    w.zeros(HEADER_BYTES);
    // Instances first, chunk by chunk.
    let mut instance_at = vec![0usize; 256];
    for (i, liquid) in chunks.iter().enumerate() {
        if !stores(liquid) {
            continue;
        }
        let liquid = liquid.expect("stores() checked");
        let count = liquid.layers.iter().filter(|l| is_mh2o(l)).count();
        instance_at[i] = w.len();
        w.patch_u32(i * 12, if count > 0 { w.len() as u32 } else { 0 });
        w.patch_u32(i * 12 + 4, count as u32);
        w.zeros(count * INSTANCE_BYTES);
    }
    // Then per chunk: attributes, then each instance's bitmap and vertex data.
    for (i, liquid) in chunks.iter().enumerate() {
        if !stores(liquid) {
            continue;
        }
        let liquid = liquid.expect("stores() checked");
        if let Some(a) = liquid.attributes {
            w.patch_u32(i * 12 + 8, w.len() as u32);
            w.u64(a.fishable);
            w.u64(a.deep);
        }
        for (k, layer) in liquid.layers.iter().filter(|l| is_mh2o(l)).enumerate() {
            let rec = instance_at[i] + k * INSTANCE_BYTES;
            let mut head = Writer::default();
            head.u16(layer.liquid_type);
            head.u16(layer.vertex_format);
            head.f32(layer.min_height);
            head.f32(layer.max_height);
            head.bytes(&[layer.x, layer.y, layer.width, layer.height]);
            let rect = layer.rectangle_mask();
            let ofs_exists = if layer.exists_omitted && layer.exists == rect {
                0
            } else {
                let at = w.len();
                let quads = layer.width as usize * layer.height as usize;
                let mut bits = vec![0u8; quads.div_ceil(8)];
                for q in 0..quads {
                    let (row, col) = (
                        layer.y as usize + q / layer.width as usize,
                        layer.x as usize + q % layer.width as usize,
                    );
                    if layer.exists >> (row * 8 + col) & 1 == 1 {
                        bits[q / 8] |= 1 << (q % 8);
                    }
                }
                if let Some(last) = bits.last_mut() {
                    *last |= layer.exists_padding & padding_mask(quads);
                }
                w.bytes(&bits);
                at
            };
            let n = layer.vertex_count();
            let has_data = layer.heights.is_some() || layer.depths.is_some() || layer.uvs.is_some();
            let ofs_vertices = if has_data {
                let at = w.len();
                let format = layer.vertex_format;
                if matches!(format, 0 | 1 | 3) {
                    for k in 0..n {
                        w.f32(
                            layer
                                .heights
                                .as_ref()
                                .and_then(|h| h.get(k))
                                .copied()
                                .unwrap_or(layer.min_height),
                        );
                    }
                }
                if matches!(format, 1 | 3) {
                    for k in 0..n {
                        let uv = layer
                            .uvs
                            .as_ref()
                            .and_then(|u| u.get(k))
                            .copied()
                            .unwrap_or([0, 0]);
                        w.u16(uv[0]);
                        w.u16(uv[1]);
                    }
                }
                if matches!(format, 0 | 2 | 3) {
                    for k in 0..n {
                        w.u8(layer
                            .depths
                            .as_ref()
                            .and_then(|d| d.get(k))
                            .copied()
                            .unwrap_or(0));
                    }
                }
                at
            } else {
                0
            };
            head.u32(ofs_exists as u32);
            head.u32(ofs_vertices as u32);
            w.patch_bytes(rec, head.as_bytes());
        }
    }
    w.into_bytes()
}
