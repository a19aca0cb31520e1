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
        (254, Long(0)),                 // NewSubfileType
        (256, Long(width)),             // ImageWidth
        (257, Long(height)),            // ImageLength
        (258, Short(1)),                // BitsPerSample
        (259, Short(4)),                // Compression: CCITT T.6
        (262, Short(0)),                // PhotometricInterpretation: WhiteIsZero
        (266, Short(1)),                // FillOrder
        (273, DataOffset),              // StripOffsets
        (277, Short(1)),                // SamplesPerPixel
        (278, Long(height)),            // RowsPerStrip: one strip
        (279, Long(data.len() as u32)), // StripByteCounts
        (282, Rational(dpi)),           // XResolution
        (283, Rational(dpi)),           // YResolution
        (293, Long(0)),                 // T6Options
        (296, Short(2)),                // ResolutionUnit: inch
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

/// Why a TIFF could not be read as a G4 check image.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("is not a TIFF file")]
    NotTiff,
    #[error("is cut short or points outside itself")]
    Truncated,
    #[error("is not CCITT Group 4 (compression {0})")]
    NotG4(u32),
    #[error("has {0} strips; a check image has one")]
    Strips(usize),
    #[error("is {0} × {1} pixels, outside 1 to 12,000 a side")]
    Size(u32, u32),
    #[error("holds G4 data that does not decode")]
    Corrupt,
}

/// Reads a single-strip CCITT G4 TIFF (the X9.100-181 profile; either byte order, WhiteIsZero or
/// BlackIsZero) back into black and white pixels: what an X9 viewer shows of a check.
///
/// ```
/// use moneydesk_checkimage::{g4, Bitonal};
/// let mut b = Bitonal::new(40, 6);
/// b.set(3, 2, true);
/// let back = g4::decode_tiff(&g4::encode_tiff(&b, g4::DPI)).unwrap();
/// assert!(back.is_black(3, 2) && !back.is_black(4, 2));
/// assert_eq!(g4::decode_tiff(b"GIF89a").unwrap_err(), g4::ReadError::NotTiff);
/// ```
pub fn decode_tiff(bytes: &[u8]) -> Result<Bitonal, ReadError> {
    let little = match bytes.get(..4) {
        Some(b"II*\0") => true,
        Some(b"MM\0*") => false,
        _ => return Err(ReadError::NotTiff),
    };
    let u16_at = |at: usize| -> Result<u32, ReadError> {
        let b: [u8; 2] = bytes.get(at..at + 2).and_then(|s| s.try_into().ok()).ok_or(ReadError::Truncated)?;
        Ok(u32::from(if little { u16::from_le_bytes(b) } else { u16::from_be_bytes(b) }))
    };
    let u32_at = |at: usize| -> Result<u32, ReadError> {
        let b: [u8; 4] = bytes.get(at..at + 4).and_then(|s| s.try_into().ok()).ok_or(ReadError::Truncated)?;
        Ok(if little { u32::from_le_bytes(b) } else { u32::from_be_bytes(b) })
    };
    let ifd = u32_at(4)? as usize;
    let count = u16_at(ifd)? as usize;
    let (mut width, mut height, mut compression, mut black_is_zero) = (0, 0, 1, false);
    let (mut offsets, mut counts) = (Vec::new(), Vec::new());
    for i in 0..count {
        let entry = ifd + 2 + 12 * i;
        let (tag, kind, n) = (u16_at(entry)?, u16_at(entry + 2)?, u32_at(entry + 4)? as usize);
        // One value: in the entry itself (a SHORT in its first two bytes); several: at the offset.
        let value = |k: usize| -> Result<u32, ReadError> {
            let size = if kind == 3 { 2 } else { 4 };
            let at = if n * size <= 4 { entry + 8 } else { u32_at(entry + 8)? as usize };
            if kind == 3 {
                u16_at(at + 2 * k)
            } else {
                u32_at(at + 4 * k)
            }
        };
        match tag {
            256 => width = value(0)?,
            257 => height = value(0)?,
            259 => compression = value(0)?,
            262 => black_is_zero = value(0)? == 1,
            273 => offsets = (0..n.min(64)).map(value).collect::<Result<_, _>>()?,
            279 => counts = (0..n.min(64)).map(value).collect::<Result<_, _>>()?,
            _ => {}
        }
    }
    if compression != 4 {
        return Err(ReadError::NotG4(compression));
    }
    if offsets.len() != 1 || counts.len() != 1 {
        return Err(ReadError::Strips(offsets.len()));
    }
    if !(1..=12_000).contains(&width) || !(1..=12_000).contains(&height) {
        return Err(ReadError::Size(width, height));
    }
    let (at, len) = (offsets[0] as usize, counts[0] as usize);
    let data = bytes.get(at..at.saturating_add(len)).ok_or(ReadError::Truncated)?;
    let mut image = Bitonal::new(width, height);
    let mut y = 0;
    fax::decoder::decode_g4(data.iter().copied(), width, Some(height), |transitions| {
        if y < height {
            for (x, color) in fax::decoder::pels(transitions, width).enumerate() {
                image.set(x as u32, y, (color == Color::Black) != black_is_zero);
            }
        }
        y += 1;
    })
    .ok_or(ReadError::Corrupt)?;
    if y < height {
        return Err(ReadError::Corrupt);
    }
    Ok(image)
}
