//! One side of a check made ready for exchange: measured for quality at the resolution it came
//! in, then scaled to 200 dpi of the check's real width and kept twice — a grayscale JPEG (what
//! people look at) and a bitonal CCITT G4 TIFF (what X9.100-187 cash letters carry).
//!
//! The picture is taken to be the check edge to edge (straightened, cropped): its width in
//! inches is that of a personal check (6 in) unless it is as elongated as a business or voucher
//! check (a width at least 2.5 times the height: 8.5 in). Pictures are never scaled up.

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, GrayImage};

use crate::find;
use crate::quality::{self, Finding, Measures};
use crate::{g4, Bitonal};

/// JPEG quality of the grayscale copy: 80 keeps MICR and handwriting crisp at 200 dpi in about
/// 60 KB for a personal check.
pub const JPEG_QUALITY: u8 = 80;

/// A side ready to store.
pub struct Side {
    /// The grayscale picture at `dpi` (the MICR line is read from it).
    pub gray: GrayImage,
    pub dpi: u32,
    pub jpeg: Vec<u8>,
    pub g4_tiff: Vec<u8>,
    pub measures: Measures,
    pub findings: Vec<Finding>,
}

/// The check's width in inches, from the picture's proportions.
///
/// ```
/// use moneydesk_checkimage::side::check_width_inches;
/// assert_eq!(check_width_inches(1200, 550), 6.0);
/// assert_eq!(check_width_inches(1700, 600), 8.5);
/// ```
pub fn check_width_inches(width: u32, height: u32) -> f64 {
    if f64::from(width) >= 2.5 * f64::from(height.max(1)) {
        8.5
    } else {
        6.0
    }
}

/// Measures, scales and encodes one side.
///
/// ```
/// use moneydesk_checkimage::side::prepare;
/// let picture = image::DynamicImage::ImageLuma8(image::GrayImage::from_pixel(2400, 1100, image::Luma([230])));
/// let side = prepare(&picture);
/// assert_eq!((side.gray.width(), side.dpi), (1200, 200));
/// assert!(side.findings.iter().any(|f| f.code() == "blank"));
/// assert_eq!(&side.g4_tiff[..4], b"II*\0");
/// ```
pub fn prepare(picture: &DynamicImage) -> Side {
    let original = picture.to_luma8();
    let (measures, findings) = quality::check(&original);
    let (w, h) = original.dimensions();
    let inches = check_width_inches(w, h);
    let target = (inches * f64::from(g4::DPI)).round() as u32;
    let (gray, dpi) = if w > target {
        let height = ((u64::from(h) * u64::from(target)) / u64::from(w)).max(1) as u32;
        (image::imageops::resize(&original, target, height, FilterType::Triangle), g4::DPI)
    } else {
        // Smaller than 200 dpi: kept as it is, at the resolution it has.
        let dpi = (f64::from(w) / inches).round().max(1.0) as u32;
        (original, dpi)
    };
    let mut jpeg = Vec::new();
    // Encoding a valid in-memory grayscale buffer cannot fail short of memory exhaustion.
    let _ = JpegEncoder::new_with_quality(&mut jpeg, JPEG_QUALITY).encode_image(&gray);
    let g4_tiff = g4::encode_tiff(&Bitonal::otsu(&gray), dpi);
    Side { gray, dpi, jpeg, g4_tiff, measures, findings }
}

/// Widest straightened check: the MICR reader works at up to 1,800 pixels across (300 dpi of a
/// personal check) and [`prepare`] keeps 200 dpi, so more would only cost time.
pub const STRAIGHT_MAX_WIDTH: u32 = 1800;

/// A photo made into the check edge to edge: the check found and straightened when the picture
/// shows it on a background; a picture that already is the check (a scan, a crop — the quad
/// covers ~all of it, or nothing check-shaped is found) comes back as it is, with None, and so
/// does one whose check the frame cuts off (`find_check` tells it is not `whole`). At most
/// [`STRAIGHT_MAX_WIDTH`] wide.
///
/// ```
/// use moneydesk_checkimage::side::straightened;
/// let photo = image::GrayImage::from_fn(800, 600, |x, y| {
///     image::Luma([if (100..700).contains(&x) && (200..450).contains(&y) { 220 } else { 50 }])
/// });
/// let (check, found) = straightened(&photo);
/// assert_eq!(check.dimensions(), (600, 250));
/// assert!(found.unwrap().whole);
/// // A scan is the check already.
/// let scan = image::GrayImage::from_pixel(1200, 550, image::Luma([230]));
/// assert_eq!(straightened(&scan), (scan.clone(), None));
/// ```
pub fn straightened(gray: &GrayImage) -> (GrayImage, Option<find::Found>) {
    // A check the frame cuts off is left as it is too: what is straightened must be all of it
    // (and a scan's printed band along one side is not mistaken for a check cut off there).
    let Some(found) = find::find_check(gray).filter(|f| f.whole) else { return (gray.clone(), None) };
    let covered = area(&found.corners);
    // A quad on (nearly) the whole picture is the picture: a scan or a crop of the check.
    if covered >= 0.85 * gray.width() as f32 * gray.height() as f32 {
        return (gray.clone(), None);
    }
    (find::straighten(gray, &found.corners, STRAIGHT_MAX_WIDTH), Some(found))
}

/// Like [`straightened`], for a check's front: the outline is [`find::find_front`]'s (the one
/// holding a MICR line), and an outline the frame cuts off is straightened too when it holds
/// the MICR line and covers at least a third of the picture — what is there of a check
/// running off an edge, its MICR line whole (a scan's printed band, holding no such line, is
/// still left alone).
///
/// ```
/// use moneydesk_checkimage::side::straightened_front;
/// let scan = image::GrayImage::from_pixel(1200, 550, image::Luma([230]));
/// assert_eq!(straightened_front(&scan), (scan.clone(), None));
/// ```
pub fn straightened_front(gray: &GrayImage) -> (GrayImage, Option<find::Found>) {
    let Some(found) = find::find_front(gray).filter(|f| f.whole || f.micr >= find::MICR_EVIDENCE) else {
        return (gray.clone(), None);
    };
    let covered = area(&found.corners);
    let picture = gray.width() as f32 * gray.height() as f32;
    if covered >= 0.85 * picture || (!found.whole && covered < picture / 3.0) {
        return (gray.clone(), None);
    }
    (find::straighten(gray, &found.corners, STRAIGHT_MAX_WIDTH), Some(found))
}

/// Like [`prepare`], for a photo: [`straightened`] first.
pub fn prepare_photo(picture: &DynamicImage) -> (Side, Option<find::Found>) {
    let (gray, found) = straightened(&picture.to_luma8());
    (prepare(&DynamicImage::ImageLuma8(gray)), found)
}

/// Like [`prepare`], for a photo of a check's front: [`straightened_front`] first.
pub fn prepare_front_photo(picture: &DynamicImage) -> (Side, Option<find::Found>) {
    let (gray, found) = straightened_front(&picture.to_luma8());
    (prepare(&DynamicImage::ImageLuma8(gray)), found)
}

/// The area of a quadrilateral given by its corners in turn (the shoelace formula).
fn area(c: &[find::Point; 4]) -> f32 {
    0.5 * (0..4).map(|i| c[i][0] * c[(i + 1) % 4][1] - c[(i + 1) % 4][0] * c[i][1]).sum::<f32>().abs()
}
