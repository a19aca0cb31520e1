//! Black and white: the form check images are exchanged in (X9.100-181).

use image::GrayImage;

/// A bitonal image, row by row, `true` for black.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bitonal {
    pub width: u32,
    pub height: u32,
    black: Vec<bool>,
}

impl Bitonal {
    /// All white.
    pub fn new(width: u32, height: u32) -> Bitonal {
        Bitonal { width, height, black: vec![false; width as usize * height as usize] }
    }

    pub fn is_black(&self, x: u32, y: u32) -> bool {
        self.black[y as usize * self.width as usize + x as usize]
    }

    pub fn set(&mut self, x: u32, y: u32, black: bool) {
        self.black[y as usize * self.width as usize + x as usize] = black;
    }

    /// Row `y`, left to right.
    pub fn row(&self, y: u32) -> &[bool] {
        let w = self.width as usize;
        &self.black[y as usize * w..(y as usize + 1) * w]
    }

    /// Black where the gray is darker than `threshold`.
    pub fn threshold(gray: &GrayImage, threshold: u8) -> Bitonal {
        let (width, height) = gray.dimensions();
        Bitonal { width, height, black: gray.pixels().map(|p| p.0[0] < threshold).collect() }
    }

    /// Black and white by Otsu's threshold (the one that best separates the gray levels into
    /// two classes): ink from paper on an evenly lit scan.
    ///
    /// ```
    /// use moneydesk_checkimage::Bitonal;
    /// let gray = image::GrayImage::from_fn(10, 2, |x, _| image::Luma([if x < 3 { 30 } else { 220 }]));
    /// let b = Bitonal::otsu(&gray);
    /// assert!(b.is_black(0, 0) && b.is_black(2, 1) && !b.is_black(3, 0));
    /// ```
    pub fn otsu(gray: &GrayImage) -> Bitonal {
        Bitonal::threshold(gray, otsu_threshold(gray))
    }

    /// How much of the image is black (0 to 1).
    pub fn ink(&self) -> f64 {
        if self.black.is_empty() {
            return 0.0;
        }
        self.black.iter().filter(|b| **b).count() as f64 / self.black.len() as f64
    }
}

/// The gray level that maximises the between-class variance (Otsu 1979); pixels below it are
/// black.
pub fn otsu_threshold(gray: &GrayImage) -> u8 {
    let mut histogram = [0u64; 256];
    for p in gray.pixels() {
        histogram[p.0[0] as usize] += 1;
    }
    let total: u64 = histogram.iter().sum();
    let sum: f64 = histogram.iter().enumerate().map(|(i, n)| i as f64 * *n as f64).sum();
    let (mut below, mut below_sum, mut best, mut best_t) = (0u64, 0f64, -1f64, 128u8);
    for t in 0..256usize {
        // Class "black": levels < t.
        if t > 0 {
            below += histogram[t - 1];
            below_sum += (t - 1) as f64 * histogram[t - 1] as f64;
        }
        let above = total - below;
        if below == 0 || above == 0 {
            continue;
        }
        let (m0, m1) = (below_sum / below as f64, (sum - below_sum) / above as f64);
        let between = below as f64 * above as f64 * (m0 - m1) * (m0 - m1);
        if between > best {
            best = between;
            best_t = t as u8;
        }
    }
    best_t
}
