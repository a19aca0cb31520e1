//! A bitonal image as a CCITT Group 4 (T.6) TIFF in the X9.100-181 profile: little-endian
//! ("II"), one image, one strip, 1 bit a pixel, WhiteIsZero, FillOrder 1, T6Options 0, the
//! resolution in dots per inch. The rows are coded by the `fax` crate.

use fax::encoder::Encoder;
use fax::{Color, VecWriter};

use crate::Bitonal;

/// The resolution of exchanged check images.
pub const DPI: u32 = 200;

/// The G4 TIFF of `image` at `dpi`.
///
/// ```
/// use moneydesk_checkimage::{g4, Bitonal};
/// let mut b = Bitonal::new(64, 8);
/// b.set(10, 3, true);
/// let tiff = g4::encode_tiff(&b, g4::DPI);
/// assert_eq!(&tiff[..4], b"II*\0");
/// ```
pub fn encode_tiff(image: &Bitonal, dpi: u32) -> Vec<u8> {
    let data = encode_g4(image);
    wrap(&data, image.width, image.height, dpi)
}

/// The T.6 coded rows (with the end-of-facsimile-block).
pub fn encode_g4(image: &Bitonal) -> Vec<u8> {
    let mut encoder = Encoder::new(VecWriter::new());
    for y in 0..image.height {
        let row = image.row(y);
        let pels = row.iter().map(|b| if *b { Color::Black } else { Color::White });
        // Writing into a Vec cannot fail.
        let _ = encoder.encode_line(pels, image.width);
    }
    match encoder.finish() {
        Ok(w) => w.finish(),
        Err(_) => unreachable!("a VecWriter does not fail"),
    }
}

#[derive(Clone, Copy)]
enum Value {
    Short(u16),
    Long(u32),
    /// Offset filled in once the layout is known.
    Rational(u32),
    DataOffset,
}

/// The TIFF around G4 `data`: header, one IFD (tags ascending), the two rationals, the strip.
fn wrap(data: &[u8], width: u32, height: u32, dpi: u32) -> Vec<u8> {
    use Value::*;
    let tags: [(u16, Value); 15] = [
        (254, Long(0)),                  // NewSubfileType
        (256, Long(width)),              // ImageWidth
        (257, Long(height)),             // ImageLength
        (258, Short(1)),                 // BitsPerSample
        (259, Short(4)),                 // Compression: CCITT T.6
        (262, Short(0)),                 // PhotometricInterpretation: WhiteIsZero
        (266, Short(1)),                 // FillOrder
        (273, DataOffset),               // StripOffsets
        (277, Short(1)),                 // SamplesPerPixel
        (278, Long(height)),             // RowsPerStrip: one strip
        (279, Long(data.len() as u32)),  // StripByteCounts
        (282, Rational(dpi)),            // XResolution
        (283, Rational(dpi)),            // YResolution
        (293, Long(0)),                  // T6Options
        (296, Short(2)),                 // ResolutionUnit: inch
    ];
    let ifd_end = 8 + 2 + 12 * tags.len() + 4;
    let data_at = ifd_end + 16;
    let mut out = Vec::with_capacity(data_at + data.len());
    out.extend_from_slice(b"II*\0");
    out.extend_from_slice(&8u32.to_le_bytes());
    out.extend_from_slice(&(tags.len() as u16).to_le_bytes());
    let mut rationals = Vec::new();
    for (tag, value) in tags {
        let (kind, word) = match value {
            Short(n) => (3u16, u32::from(n)),
            Long(n) => (4, n),
            Rational(n) => {
                let at = ifd_end + 8 * rationals.len();
                rationals.push(n);
                (5, at as u32)
            }
            DataOffset => (4, data_at as u32),
        };
        out.extend_from_slice(&tag.to_le_bytes());
        out.extend_from_slice(&kind.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&0u32.to_le_bytes());
    for n in rationals {
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
    }
    out.extend_from_slice(data);
    out
}
