//! Decoding with limits: the format is sniffed from the bytes (JPEG, PNG, TIFF only), the
//! sides and the memory a decode may take are bounded before any pixel is decoded, and an
//! image too small to show a check is refused.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, ImageReader};

/// The bounds a decode works within.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest encoded image.
    pub max_bytes: usize,
    /// Largest width or height.
    pub max_side: u32,
    /// Most memory the decoder may allocate.
    pub max_alloc: u64,
    /// Smallest width and height that can show a check.
    pub min_width: u32,
    pub min_height: u32,
}

impl Limits {
    /// A deposit's check images (contract point 11), as the server's deposits and scans and the
    /// portal's scanning worker decode them: 10 MiB, 12,000 pixels a side (a 12-megapixel photo
    /// is 4,000 × 3,000), 256 MiB of memory, at least 200 × 80 pixels.
    pub const DEPOSIT: Limits = Limits {
        max_bytes: 10 * 1024 * 1024,
        max_side: 12_000,
        max_alloc: 256 * 1024 * 1024,
        min_width: 200,
        min_height: 80,
    };
}

impl Default for Limits {
    /// [`Limits::DEPOSIT`].
    fn default() -> Self {
        Limits::DEPOSIT
    }
}

/// Why an image was refused; each says what was wrong.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DecodeError {
    #[error("is larger than {0} bytes")]
    TooManyBytes(usize),
    #[error("is not a JPEG, PNG or TIFF image")]
    NotAnImage,
    #[error("is too large in pixels: at most {0} × {0}")]
    TooManyPixels(u32),
    #[error("is {0} × {1} pixels: too small to show a check")]
    TooSmall(u32, u32),
    #[error("does not decode as {0}: {1}")]
    Corrupt(&'static str, String),
}

/// A decoded image and the format it was in.
pub struct Decoded {
    pub image: DynamicImage,
    pub format: ImageFormat,
}

impl std::fmt::Debug for Decoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Decoded({} {} × {})", self.format_name(), self.image.width(), self.image.height())
    }
}

impl Decoded {
    /// The format's name as people write it.
    pub fn format_name(&self) -> &'static str {
        name(self.format)
    }
}

fn name(f: ImageFormat) -> &'static str {
    match f {
        ImageFormat::Jpeg => "JPEG",
        ImageFormat::Png => "PNG",
        _ => "TIFF",
    }
}

/// Decodes `bytes` within `limits`.
///
/// ```
/// use moneydesk_checkimage::{decode, DecodeError, Limits};
/// assert_eq!(decode(b"not an image", Limits::default()).unwrap_err(), DecodeError::NotAnImage);
/// let mut png = Vec::new();
/// image::GrayImage::new(1, 1).write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
/// assert_eq!(decode(&png, Limits::default()).unwrap_err(), DecodeError::TooSmall(1, 1));
/// ```
pub fn decode(bytes: &[u8], limits: Limits) -> Result<Decoded, DecodeError> {
    if bytes.len() > limits.max_bytes {
        return Err(DecodeError::TooManyBytes(limits.max_bytes));
    }
    let format = image::guess_format(bytes)
        .ok()
        .filter(|f| matches!(f, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::Tiff))
        .ok_or(DecodeError::NotAnImage)?;
    // A JPEG cut short still decodes (the missing rows come out gray): refuse one without
    // its end-of-image marker, as a truncated upload.
    if format == ImageFormat::Jpeg && !bytes.windows(2).rev().take(1024).any(|w| w == [0xFF, 0xD9]) {
        return Err(DecodeError::Corrupt("JPEG", "the file ends before its end-of-image marker (truncated)".into()));
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut l = image::Limits::default();
    l.max_image_width = Some(limits.max_side);
    l.max_image_height = Some(limits.max_side);
    l.max_alloc = Some(limits.max_alloc);
    reader.limits(l);
    let image = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => DecodeError::TooManyPixels(limits.max_side),
        e => DecodeError::Corrupt(name(format), e.to_string()),
    })?;
    let (w, h) = (image.width(), image.height());
    if w < limits.min_width || h < limits.min_height {
        return Err(DecodeError::TooSmall(w, h));
    }
    Ok(Decoded { image, format })
}
