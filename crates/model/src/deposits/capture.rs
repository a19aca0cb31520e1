//! What the portal's scanning worker (crates/scan-worker, `moneydesk_checkimage` compiled to
//! wasm) answers the scan wizard: for a frame of the live camera, where the check is and what
//! to tell the person holding it; for a picture of a side, the check found, straightened, its
//! quality and (the front) its MICR line. Not part of the HTTP API: the wizard then sends the
//! straightened sides to the scan endpoint, which reads them again with the same crate.

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
    TooDark,
    Glare,
    Blurred,
    /// The check moved since the last frame.
    HoldStill,
    /// Steady, sharp and filling the frame: take it.
    Ready,
}

impl CaptureHint {
    /// The words shown over the live video.
    ///
    /// ```
    /// use moneydesk_model::deposits::CaptureHint;
    /// assert_eq!(CaptureHint::TooFar.words(), "Move closer");
    /// ```
    pub fn words(self) -> &'static str {
        match self {
            CaptureHint::NoCheck => "Place the check on a dark surface inside the frame",
            CaptureHint::TooFar => "Move closer",
            CaptureHint::NotWhole => "Fit the whole check in the frame",
            CaptureHint::TooDark => "More light",
            CaptureHint::Glare => "Tilt away from the light",
            CaptureHint::Blurred => "Hold steady, focusing",
            CaptureHint::HoldStill => "Hold still",
            CaptureHint::Ready => "Hold still — capturing",
        }
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
