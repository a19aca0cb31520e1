//! Image quality of a check side, measured before anything is stored or read: each finding
//! says what is wrong in words a person can act on (move closer, more light, hold still).
//! Measured on the grayscale image scaled to at most 1,600 pixels wide, so a 12-megapixel photo
//! and a 200 dpi scan are judged alike.

use image::imageops::FilterType;
use image::GrayImage;

use crate::Bitonal;

/// One problem found, with the measure that found it.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// Fewer pixels across than a legible 200 dpi check needs.
    TooSmall { width: u32 },
    /// The mean gray level (0 black to 255 white) is too low.
    TooDark { mean: f64 },
    /// Too much of the picture is washed out (glare on a photo, or an overexposure).
    Glare { share: f64 },
    /// The variance of the Laplacian (sharp edges give a high one) is too low.
    Blurred { sharpness: f64 },
    /// Next to no ink at all: a blank page, or the back of something else.
    Blank { ink: f64 },
    /// The width-to-height ratio is far from a check's (2.2 to 2.5).
    NotCheckShaped { ratio: f64 },
}

impl Finding {
    /// The finding's name, as the API writes it.
    pub fn code(&self) -> &'static str {
        match self {
            Finding::TooSmall { .. } => "too_small",
            Finding::TooDark { .. } => "too_dark",
            Finding::Glare { .. } => "glare",
            Finding::Blurred { .. } => "blurred",
            Finding::Blank { .. } => "blank",
            Finding::NotCheckShaped { .. } => "not_check_shaped",
        }
    }

    /// What to do about it.
    pub fn advice(&self) -> String {
        match self {
            Finding::TooSmall { width } => {
                format!("only {width} pixels across: move closer or scan at 200 dpi or more")
            }
            Finding::TooDark { mean } => format!("too dark (mean gray {mean:.0} of 255): add light"),
            Finding::Glare { share } => {
                format!("{:.0} % of the picture is washed out: tilt the check away from the light", share * 100.0)
            }
            Finding::Blurred { sharpness } => {
                format!("blurred (sharpness {sharpness:.0}): hold still and let the camera focus")
            }
            Finding::Blank { ink } => {
                format!("almost no ink ({:.2} % of the picture): is this the right side of a check?", ink * 100.0)
            }
            Finding::NotCheckShaped { ratio } => {
                format!("{ratio:.2} times as wide as high, a check is 2.2 to 2.5: crop to the check")
            }
        }
    }

    /// Whether it makes the image unusable (the others are warnings).
    pub fn is_blocking(&self) -> bool {
        !matches!(self, Finding::NotCheckShaped { .. } | Finding::Glare { .. })
    }
}

/// Pixels across below which a check cannot be read (a 6-inch check at about 130 dpi).
pub const MIN_WIDTH: u32 = 800;
const MIN_MEAN: f64 = 60.0;
const MAX_WASHED_OUT: f64 = 0.25;
const MIN_SHARPNESS: f64 = 100.0;
const MIN_INK: f64 = 0.003;

/// The measures of one side.
#[derive(Debug, Clone, PartialEq)]
pub struct Measures {
    pub width: u32,
    pub height: u32,
    pub mean: f64,
    pub washed_out: f64,
    pub sharpness: f64,
    pub ink: f64,
}

/// Measures `gray` and lists what is wrong (empty: good to go).
pub fn check(gray: &GrayImage) -> (Measures, Vec<Finding>) {
    let (width, height) = gray.dimensions();
    let small = if width > 1600 {
        image::imageops::resize(gray, 1600, (height as u64 * 1600 / width as u64).max(1) as u32, FilterType::Triangle)
    } else {
        gray.clone()
    };
    let n = small.pixels().len().max(1) as f64;
    let mean = small.pixels().map(|p| f64::from(p.0[0])).sum::<f64>() / n;
    // Washed out: saturated pixels, on a picture that is not black and white already (a
    // bitonal scan is white everywhere there is paper).
    let levels = {
        let mut seen = [false; 256];
        small.pixels().for_each(|p| seen[p.0[0] as usize] = true);
        seen.iter().filter(|s| **s).count()
    };
    let washed_out = if levels > 16 && !white_paper(&small) {
        small.pixels().filter(|p| p.0[0] >= SATURATED).count() as f64 / n
    } else {
        0.0
    };
    let sharpness = laplacian_variance(&small);
    let ink = Bitonal::otsu(&small).ink();
    let m = Measures { width, height, mean, washed_out, sharpness, ink };
    let mut findings = Vec::new();
    if width < MIN_WIDTH {
        findings.push(Finding::TooSmall { width });
    }
    if mean < MIN_MEAN {
        findings.push(Finding::TooDark { mean });
    }
    if washed_out > MAX_WASHED_OUT {
        findings.push(Finding::Glare { share: washed_out });
    }
    if ink < MIN_INK || levels < 2 {
        findings.push(Finding::Blank { ink });
    } else if sharpness < MIN_SHARPNESS {
        findings.push(Finding::Blurred { sharpness });
    }
    let ratio = f64::from(width) / f64::from(height.max(1));
    if !(1.9..=2.9).contains(&ratio) {
        findings.push(Finding::NotCheckShaped { ratio });
    }
    (m, findings)
}

/// A pixel this light is washed out.
const SATURATED: u8 = 253;

/// Whether the paper itself is white to saturation (a scan's clean paper, a flat picture of one):
/// then saturated pixels are paper, not a reflection, and a reflection cannot be told from it.
/// Told by where the saturation is: paper is everywhere (at least 12 of the picture's 4 × 4
/// cells mostly saturated), a reflection in one place (one across 70 % of a photo's width
/// leaves its corners unsaturated). Three of the real scans of ../shared are white to
/// saturation, and without this were all "glare" in the capture benchmark.
fn white_paper(gray: &GrayImage) -> bool {
    let (w, h) = gray.dimensions();
    let mut cells = [[0u32; 2]; 16];
    for (x, y, p) in gray.enumerate_pixels() {
        let cell = &mut cells[((y * 4 / h.max(1)) * 4 + x * 4 / w.max(1)) as usize];
        cell[0] += u32::from(p.0[0] >= SATURATED);
        cell[1] += 1;
    }
    cells.iter().filter(|[saturated, all]| saturated * 2 > *all).count() >= 12
}

/// A glare spot on a straightened check: where it is and what it covers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlareSpot {
    /// Share of the check washed out.
    pub share: f64,
    /// Its centre, as shares of the check's width and height.
    pub centre: (f32, f32),
}

impl GlareSpot {
    /// Whether it hides the amount: a spot of 5 % of the check or more centred in the amount
    /// box (right of 62 %, between 30 and 70 % of the height). Whether it hides the MICR line
    /// is for the line's reading to say.
    pub fn on_amount(&self) -> bool {
        let (x, y) = self.centre;
        self.share >= 0.05 && x >= 0.62 && (0.3..0.7).contains(&y)
    }
}

/// The glare on a straightened check, when more than 1 % of it is washed out (and the paper
/// itself is not white to saturation).
///
/// ```
/// use moneydesk_checkimage::quality::glare;
/// // Paper at 210, a reflection on its upper left.
/// let check = image::GrayImage::from_fn(600, 260, |x, y| image::Luma([if x < 150 && y < 90 { 255 } else { 210 }]));
/// let spot = glare(&check).unwrap();
/// assert!(spot.centre.0 < 0.2 && spot.centre.1 < 0.25 && !spot.on_amount());
/// assert_eq!(glare(&image::GrayImage::from_pixel(600, 260, image::Luma([210]))), None);
/// ```
pub fn glare(gray: &GrayImage) -> Option<GlareSpot> {
    let (w, h) = gray.dimensions();
    if w < 8 || h < 8 || white_paper(gray) {
        return None;
    }
    let (mut n, mut sx, mut sy) = (0u64, 0f64, 0f64);
    for (x, y, p) in gray.enumerate_pixels() {
        if p.0[0] >= SATURATED {
            n += 1;
            sx += f64::from(x);
            sy += f64::from(y);
        }
    }
    let total = f64::from(w) * f64::from(h);
    if (n as f64) < 0.01 * total {
        return None;
    }
    Some(GlareSpot {
        share: n as f64 / total,
        centre: ((sx / n as f64 / f64::from(w)) as f32, (sy / n as f64 / f64::from(h)) as f32),
    })
}

/// The variance of the 4-neighbour Laplacian: near zero on a blurred picture, high where
/// edges are sharp.
pub fn laplacian_variance(gray: &GrayImage) -> f64 {
    let (w, h) = gray.dimensions();
    if w < 3 || h < 3 {
        return 0.0;
    }
    let at = |x: u32, y: u32| f64::from(gray.get_pixel(x, y).0[0]);
    let (mut sum, mut sum2, mut n) = (0f64, 0f64, 0f64);
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let l = at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) - 4.0 * at(x, y);
            sum += l;
            sum2 += l * l;
            n += 1.0;
        }
    }
    let mean = sum / n;
    sum2 / n - mean * mean
}
