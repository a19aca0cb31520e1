//! What the portal's scanning worker (crates/scan-worker, `moneydesk_checkimage` compiled to
//! wasm) answers the scan wizard: for a frame of the live camera, where the check is and what
//! to tell the person holding it; for a picture of a side, the check found, straightened, its
//! quality and (the front) its MICR line; and when the wizard takes the picture by itself
//! ([`Steadiness`]). Not part of the HTTP API: the wizard then sends the straightened sides to
//! the scan endpoint, which reads them again with the same crate.

use serde::{Deserialize, Serialize};

use super::{MicrRead, QualityFinding};

/// A check's four corners in a picture's pixels: top-left, top-right, bottom-right,
/// bottom-left (as the check reads, whatever way the picture was taken).
pub type Corners = [[f32; 2]; 4];

/// What to tell the person holding the camera, most pressing first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureHint {
    /// No check-shaped edges in the frame.
    NoCheck,
    /// The check covers too little of the frame to be read at 200 dpi.
    TooFar,
    /// Part of the check is outside the frame.
    NotWhole,
    /// The check fills the frame and its MICR line runs out of it (the front).
    MoveBack,
    TooDark,
    Glare,
    Blurred,
    /// The check moved since the last frame.
    HoldStill,
    /// Steady, sharp and filling the frame (the front: with its MICR line whole): take it.
    Ready,
}

/// Where on the check (as it reads) something is: a glare spot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    TopLeft,
    Top,
    TopRight,
    Left,
    Middle,
    Right,
    BottomLeft,
    Bottom,
    BottomRight,
}

impl Place {
    /// The ninth of the check at `x`, `y` (shares of its width and height, 0 to 1).
    ///
    /// ```
    /// use moneydesk_model::deposits::Place;
    /// assert_eq!(Place::at(0.1, 0.2), Place::TopLeft);
    /// assert_eq!(Place::at(0.5, 0.5), Place::Middle);
    /// assert_eq!(Place::at(0.9, 0.95), Place::BottomRight);
    /// ```
    pub fn at(x: f32, y: f32) -> Place {
        let third = |v: f32| {
            if v < 1.0 / 3.0 {
                0
            } else if v < 2.0 / 3.0 {
                1
            } else {
                2
            }
        };
        [
            [Place::TopLeft, Place::Top, Place::TopRight],
            [Place::Left, Place::Middle, Place::Right],
            [Place::BottomLeft, Place::Bottom, Place::BottomRight],
        ][third(y)][third(x)]
    }
}

/// The worker's answer for one frame of the live camera.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameCheck {
    /// Where the check is, in the frame's pixels.
    pub corners: Option<Corners>,
    /// The share of the frame's width the check covers (0 to 1).
    pub fill: f32,
    /// Variance of the Laplacian inside the check (higher is sharper).
    pub sharpness: f32,
    pub hint: CaptureHint,
    /// The front's MICR line, where it was found whole in the frame: its box's corners, as
    /// `corners`. With no outline of the check (it fills the frame), the line alone says it is
    /// there and how still it is held.
    #[serde(default)]
    pub band: Option<Corners>,
    /// Where on the check a glare spot is, when there is one (even when it does not stop the
    /// picture: not on the MICR line or the amount).
    #[serde(default)]
    pub glare_at: Option<Place>,
    /// The front's MICR line as read in the frame (when read whole): the picture taken by itself
    /// is kept only when its own reading says the same.
    #[serde(default)]
    pub line: Option<String>,
}

impl FrameCheck {
    /// Nothing check-like in the frame.
    pub fn nothing() -> FrameCheck {
        FrameCheck {
            corners: None,
            fill: 0.0,
            sharpness: 0.0,
            hint: CaptureHint::NoCheck,
            band: None,
            glare_at: None,
            line: None,
        }
    }
}

/// Frames of the live camera are analysed this wide: enough to find a check's edges and its
/// MICR line (E-13B characters about 12 pixels tall when the check fills the frame), small
/// enough for ~20 ms natively.
pub const FRAME_WIDTH: u32 = 640;
/// Consecutive ready, still frames before the picture is taken by itself.
const STEADY_FRAMES: u32 = 3;
/// Corners moving less than this share of the frame's width between frames are "still".
const STILL: f32 = 0.015;

fn moved(a: &Corners, b: &Corners) -> f32 {
    a.iter().zip(b).map(|(p, q)| (p[0] - q[0]).abs().max((p[1] - q[1]).abs())).fold(0.0, f32::max)
}

/// When the live camera takes the picture by itself: three "ready" frames in a row with the
/// check's corners still and (the front) its MICR line read the same in each. Here rather than in the portal so that the capture benchmark
/// (tests/perf/capture.rs) takes pictures by the very rule the wizard does.
///
/// ```
/// use moneydesk_model::deposits::{CaptureHint, FrameCheck, Steadiness};
/// let corners = Some([[20.0, 10.0], [520.0, 10.0], [520.0, 230.0], [20.0, 230.0]]);
/// let ready = FrameCheck { hint: CaptureHint::Ready, corners, ..FrameCheck::nothing() };
/// let mut s = Steadiness::default();
/// assert_eq!(s.judge(&ready), (CaptureHint::HoldStill, false), "nothing to compare yet");
/// assert_eq!(s.judge(&ready), (CaptureHint::Ready, false));
/// assert_eq!(s.judge(&ready), (CaptureHint::Ready, false));
/// assert_eq!(s.judge(&ready), (CaptureHint::Ready, true));
/// ```
#[derive(Debug, Default)]
pub struct Steadiness {
    last: Option<Corners>,
    line: Option<String>,
    ready_frames: u32,
    /// Frames in a row not ready.
    misses: u32,
}

impl Steadiness {
    /// What to say of `check`, and whether this is the moment to take the picture. Stillness is
    /// the check's outline's, or (the check filling the frame) its MICR line's. One frame now
    /// and then that is not ready (a line a hand's shake made unreadable at 640 pixels) does
    /// not start the count again; two in a row, a move, or the line read differently do.
    pub fn judge(&mut self, check: &FrameCheck) -> (CaptureHint, bool) {
        let now = check.corners.or(check.band);
        let still = match (&self.last, &now) {
            (Some(a), Some(b)) => moved(a, b) < STILL * FRAME_WIDTH as f32,
            _ => false,
        };
        if now.is_some() {
            self.last = now;
        }
        let hint = if check.hint == CaptureHint::Ready && !still { CaptureHint::HoldStill } else { check.hint };
        if hint == CaptureHint::Ready {
            if self.line != check.line {
                self.line = check.line.clone();
                self.ready_frames = 0;
            }
            self.ready_frames += 1;
            self.misses = 0;
        } else {
            self.misses += 1;
            if self.misses >= 2 || hint == CaptureHint::HoldStill {
                self.ready_frames = 0;
            }
        }
        (hint, self.ready_frames >= STEADY_FRAMES)
    }
}

/// The worker's answer for a picture of one side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SideRead {
    /// The picture's pixels.
    pub width: u32,
    pub height: u32,
    /// The check found in it and straightened; `None`: the picture is taken as the check edge to
    /// edge (a scan, or no edges found).
    pub corners: Option<Corners>,
    /// The straightened side's pixels (what is sent to the scan endpoint, as a JPEG).
    pub straightened_width: u32,
    pub straightened_height: u32,
    /// Quality findings of the straightened side, blocking ones first.
    pub findings: Vec<QualityFinding>,
    /// The MICR line (asked for the front only).
    pub micr: Option<MicrRead>,
    /// Milliseconds the worker spent on it: decode, find and straighten, quality, MICR.
    pub millis: SideMillis,
}

/// Where the worker's time went, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SideMillis {
    pub decode: f64,
    pub straighten: f64,
    pub quality: f64,
    pub micr: f64,
    pub total: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(x: f32, hint: CaptureHint) -> FrameCheck {
        let corners = [[x, 10.0], [x + 500.0, 10.0], [x + 500.0, 230.0], [x, 230.0]];
        FrameCheck { corners: Some(corners), hint, ..FrameCheck::nothing() }
    }

    #[test]
    fn three_ready_still_frames_take_the_picture() {
        let mut s = Steadiness::default();
        assert_eq!(s.judge(&frame(20.0, CaptureHint::Ready)), (CaptureHint::HoldStill, false), "nothing to compare");
        assert_eq!(s.judge(&frame(21.0, CaptureHint::Ready)), (CaptureHint::Ready, false));
        assert_eq!(s.judge(&frame(22.0, CaptureHint::Ready)), (CaptureHint::Ready, false));
        assert_eq!(s.judge(&frame(23.0, CaptureHint::Ready)), (CaptureHint::Ready, true));
        assert_eq!(s.judge(&frame(60.0, CaptureHint::Ready)), (CaptureHint::HoldStill, false), "moved 37 pixels");
        assert_eq!(s.judge(&frame(60.0, CaptureHint::NoCheck)), (CaptureHint::NoCheck, false));
    }

    #[test]
    fn a_check_filling_the_frame_is_held_still_by_its_micr_line() {
        let band = |x: f32| Some([[x, 300.0], [x + 400.0, 300.0], [x + 400.0, 315.0], [x, 315.0]]);
        let ready = |x| FrameCheck { hint: CaptureHint::Ready, band: band(x), ..FrameCheck::nothing() };
        let mut s = Steadiness::default();
        let taken: Vec<bool> = [10.0, 11.0, 12.0, 13.0].map(|x| s.judge(&ready(x)).1).into();
        assert_eq!(taken, [false, false, false, true]);
        assert_eq!(s.judge(&ready(40.0)), (CaptureHint::HoldStill, false), "the line moved 27 pixels");
        let nothing = FrameCheck { hint: CaptureHint::Ready, ..FrameCheck::nothing() };
        assert_eq!(s.judge(&nothing).0, CaptureHint::HoldStill, "neither outline nor line: never still");
    }

    #[test]
    fn one_frame_not_ready_now_and_then_does_not_start_the_count_again_but_two_in_a_row_do() {
        use CaptureHint::{Blurred, Ready};
        let mut s = Steadiness::default();
        // The first frame only says where the check is: nothing to compare it with.
        let taken: Vec<bool> = [Ready, Ready, Blurred, Ready, Ready].map(|h| s.judge(&frame(20.0, h)).1).into();
        assert_eq!(taken, [false, false, false, false, true]);
        let mut s = Steadiness::default();
        let taken: Vec<bool> =
            [Ready, Ready, Blurred, Blurred, Ready, Ready].map(|h| s.judge(&frame(20.0, h)).1).into();
        assert_eq!(taken, [false; 6]);
    }

    #[test]
    fn a_line_read_differently_from_one_frame_to_the_next_starts_the_count_again() {
        let read = |line: &str| FrameCheck { line: Some(line.into()), ..frame(20.0, CaptureHint::Ready) };
        let mut s = Steadiness::default();
        let taken: Vec<bool> = ["⑆1⑆", "⑆1⑆", "⑆7⑆", "⑆7⑆", "⑆7⑆"].map(|l| s.judge(&read(l)).1).into();
        assert_eq!(taken, [false, false, false, false, true]);
    }
}
