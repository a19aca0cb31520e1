//! The G4 TIFFs written here read back, through an independent decoder (the `tiff` crate's,
//! via `image`), to the same bitonal pixels; their tags are the X9.100-181 profile's; the real
//! X9 check front of ../shared decodes and re-encodes to the same pixels; bad images are
//! refused with the reason.

use std::io::Cursor;
use std::path::PathBuf;

use moneydesk_checkimage::{decode, g4, Bitonal, DecodeError, Limits};
use tiff::decoder::Decoder;
use tiff::tags::Tag;

fn shared(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data").join(relative)
}

/// Black where the decoded TIFF is dark.
fn read_back(tiff: &[u8]) -> Bitonal {
    let img = image::load_from_memory_with_format(tiff, image::ImageFormat::Tiff).expect("the TIFF decodes").to_luma8();
    Bitonal::threshold(&img, 128)
}

/// A test card: solid, empty and alternating rows, a diagonal, boxes, and noise.
fn card(width: u32, height: u32) -> Bitonal {
    let mut b = Bitonal::new(width, height);
    let mut seed = 12345u32;
    for y in 0..height {
        for x in 0..width {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let black = match y % 16 {
                0 => true,
                1 => false,
                2 => x % 2 == 0,
                3 => x == y % width,
                _ => (x / 7 + y / 5) % 3 == 0 || (seed >> 16).is_multiple_of(11),
            };
            b.set(x, y, black);
        }
    }
    b
}

#[test]
fn a_bitonal_image_reads_back_from_its_g4_tiff_pixel_for_pixel() {
    for (w, h) in [(1200, 550), (1, 1), (333, 97), (1728, 40)] {
        let b = card(w, h);
        let tiff = g4::encode_tiff(&b, g4::DPI);
        assert_eq!(read_back(&tiff), b, "{w} × {h}");
    }
}

#[test]
fn the_tiff_has_the_x9_100_181_tags() {
    let tiff = g4::encode_tiff(&card(600, 250), 200);
    assert_eq!(&tiff[..4], b"II*\0", "little-endian");
    let mut d = Decoder::new(Cursor::new(&tiff)).unwrap();
    let u = |d: &mut Decoder<Cursor<&Vec<u8>>>, t: Tag| d.get_tag_u32(t).unwrap();
    assert_eq!(d.dimensions().unwrap(), (600, 250));
    assert_eq!(u(&mut d, Tag::Compression), 4, "CCITT T.6");
    assert_eq!(u(&mut d, Tag::PhotometricInterpretation), 0, "WhiteIsZero");
    assert_eq!(u(&mut d, Tag::BitsPerSample), 1);
    assert_eq!(u(&mut d, Tag::SamplesPerPixel), 1);
    assert_eq!(u(&mut d, Tag::FillOrder), 1);
    assert_eq!(u(&mut d, Tag::RowsPerStrip), 250, "one strip");
    assert_eq!(u(&mut d, Tag::ResolutionUnit), 2, "inches");
    assert_eq!(u(&mut d, Tag::Unknown(293)), 0, "T6Options");
    assert_eq!(u(&mut d, Tag::NewSubfileType), 0);
    let x = d.get_tag_u32_vec(Tag::XResolution).unwrap();
    assert_eq!(x, vec![200, 1]);
    assert!(!d.more_images(), "a single image");
}

#[test]
fn the_x9_check_front_decodes_and_reencodes_to_the_same_pixels() {
    let bytes = std::fs::read(shared("checks/full/01_moov_x9_check_front.tif")).expect("../shared/data/checks");
    let decoded = decode(&bytes, Limits::default()).unwrap();
    assert_eq!(decoded.format_name(), "TIFF");
    let original = Bitonal::threshold(&decoded.image.to_luma8(), 128);
    assert_eq!((original.width, original.height), (1200, 550));
    assert!(original.ink() > 0.01 && original.ink() < 0.5, "a check's ink: {}", original.ink());
    let again = g4::encode_tiff(&original, g4::DPI);
    assert_eq!(read_back(&again), original);
    // Group 4 is what makes a check image small: well under a byte a pixel.
    assert!(again.len() < (1200 * 550 / 8) / 2, "{} bytes", again.len());
}

/// A PNG of the given header with one empty IDAT (a valid structure, CRCs included).
fn png_header(width: u32, height: u32, depth: u8, color: u8) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut c = 0xFFFF_FFFFu32;
        for &b in bytes {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
        }
        !c
    }
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
        out
    };
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[depth, color, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
    png.extend(chunk(b"IEND", &[]));
    png
}

#[test]
fn bad_images_are_refused_with_the_reason_before_any_pixel_is_decoded() {
    let l = Limits::default();
    // A giant header and a bomb (small file, 11,000² pixels of 16-bit RGBA = 968 MB): refused
    // from the header.
    assert_eq!(decode(&png_header(30_000, 30_000, 8, 0), l).unwrap_err(), DecodeError::TooManyPixels(12_000));
    assert_eq!(decode(&png_header(11_000, 11_000, 16, 6), l).unwrap_err(), DecodeError::TooManyPixels(12_000));
    // A truncated JPEG.
    let mut jpeg = Vec::new();
    image::GrayImage::from_fn(600, 250, |x, y| image::Luma([((x ^ y) & 0xff) as u8]))
        .write_to(&mut Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
        .unwrap();
    assert!(decode(&jpeg, l).is_ok());
    assert!(matches!(decode(&jpeg[..jpeg.len() / 3], l).unwrap_err(), DecodeError::Corrupt("JPEG", _)));
    // Not an image, a tiny one, too many bytes.
    assert_eq!(decode(b"%PDF-1.7", l).unwrap_err(), DecodeError::NotAnImage);
    let mut one = Vec::new();
    image::GrayImage::new(1, 1).write_to(&mut Cursor::new(&mut one), image::ImageFormat::Png).unwrap();
    assert_eq!(decode(&one, l).unwrap_err(), DecodeError::TooSmall(1, 1));
    assert_eq!(decode(&jpeg, Limits { max_bytes: 100, ..l }).unwrap_err(), DecodeError::TooManyBytes(100));
}

#[test]
fn moovs_front_decodes_to_a_check_and_our_own_reads_back_pixel_for_pixel() {
    let path = format!("{}/../../../shared/data/checks/full/01_moov_x9_check_front.tif", env!("CARGO_MANIFEST_DIR"));
    let moov = moneydesk_checkimage::g4::decode_tiff(&std::fs::read(path).unwrap()).expect("moov's front decodes");
    let ratio = f64::from(moov.width) / f64::from(moov.height);
    assert!((1.9..=2.9).contains(&ratio), "check-shaped: {} × {}", moov.width, moov.height);
    assert!((0.01..0.3).contains(&moov.ink()), "some ink, mostly paper: {}", moov.ink());
    let again = moneydesk_checkimage::g4::decode_tiff(&moneydesk_checkimage::g4::encode_tiff(&moov, 200)).unwrap();
    assert_eq!((again.width, again.height), (moov.width, moov.height));
    for y in 0..moov.height {
        assert_eq!(again.row(y), moov.row(y), "row {y}");
    }
    assert_eq!(
        moneydesk_checkimage::g4::decode_tiff(&moneydesk_checkimage::g4::encode_tiff(&moov, 200)[..200]).unwrap_err(),
        moneydesk_checkimage::g4::ReadError::Truncated
    );
}
