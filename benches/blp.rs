//! Decoding tileset-sized BLPs: a 256×256 DXT1 and a 512×512 palettized file, each through the
//! chosen path (`blp::decode`, which is wow-blp for both) and through loam's own decoder, and
//! preparing a decoded 256×256 texture for the GPU (its mip chain), which the texture worker
//! does after decoding. Inputs are built here: the DXT1 file with wow-blp's encoder, the
//! palettized one byte by byte from the format description.

use criterion::{Criterion, criterion_group, criterion_main};
use loam::assets::blp;

/// A tileset-like picture: smooth colour ramps with a little texture.
fn picture(side: u32) -> image::RgbaImage {
    image::RgbaImage::from_fn(side, side, |x, y| {
        let n = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) >> 27;
        image::Rgba([
            (x * 255 / side) as u8,
            (y * 255 / side) as u8,
            (96 + n * 4) as u8,
            255,
        ])
    })
}

fn dxt1_256() -> Vec<u8> {
    use wow_blp::convert::{Blp2Format, BlpTarget, DxtAlgorithm, FilterType, image_to_blp};
    let blp = image_to_blp(
        image::DynamicImage::ImageRgba8(picture(256)),
        true,
        BlpTarget::Blp2(Blp2Format::Dxt1 {
            has_alpha: false,
            compress_algorithm: DxtAlgorithm::RangeFit,
        }),
        FilterType::Triangle,
    )
    .expect("encodes");
    wow_blp::encode::encode_blp(&blp).expect("encodes")
}

/// BLP2, encoding 1 (palette), no alpha, one mip level: header, offset and size tables, 256
/// BGRA palette entries, then one index byte per pixel.
fn palette_512() -> Vec<u8> {
    let side = 512u32;
    let mut b = b"BLP2".to_vec();
    b.extend(1u32.to_le_bytes());
    b.extend([1, 0, 8, 0]);
    b.extend(side.to_le_bytes());
    b.extend(side.to_le_bytes());
    let data_at = 148 + 1024;
    let mut tables = [0u32; 32];
    tables[0] = data_at as u32;
    tables[16] = side * side;
    tables.iter().for_each(|v| b.extend(v.to_le_bytes()));
    for i in 0..=255u8 {
        b.extend([i, 255 - i, i / 2, 255]);
    }
    for y in 0..side {
        for x in 0..side {
            b.push(((x / 2) ^ (y / 3)) as u8);
        }
    }
    b
}

fn decode(c: &mut Criterion) {
    for (name, bytes) in [("dxt1_256", dxt1_256()), ("palette_512", palette_512())] {
        let (_, by) = blp::decode_reporting(&bytes).expect("decodes");
        assert_eq!(by, blp::Decoder::WowBlp);
        c.bench_function(&format!("blp/decode/{name}"), |b| {
            b.iter(|| blp::decode(std::hint::black_box(&bytes)).expect("decodes"))
        });
        c.bench_function(&format!("blp/decode_ours/{name}"), |b| {
            b.iter(|| blp::decode_ours(std::hint::black_box(&bytes)).expect("decodes"))
        });
    }
    let image = blp::decode(&dxt1_256()).expect("decodes");
    c.bench_function("blp/mip_chain/256", |b| {
        b.iter(|| {
            loam::render::texture_store::mip_chain(256, std::hint::black_box(image.rgba.clone()))
        })
    });
}

criterion_group!(benches, decode);
criterion_main!(benches);
