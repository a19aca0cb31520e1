//! Scanning a check (description 4.5 "Scan a check"; CONTRACT.md points 7, 8 and 11): the
//! request (`amount`, `frontimage`, `rearimage`) and what the scan answers (the description
//! shows no response: ours is documented here and in the OpenAPI document): per side the
//! stored images and the quality findings, the MICR line read from the front with a confidence
//! per field, and the scan's id, which a check deposit then names instead of sending images.

use serde::{Deserialize, Serialize};

use crate::{FieldError, Money};

/// The scan body as sent. `amount` is read from its JSON text (a number or a decimal string).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = CheckScanRequest))]
pub struct CheckScanFields {
    /// The amount to be deposited: above zero, at most two decimals (compared with the MICR
    /// line's amount field when the check has one printed).
    #[serde(default, deserialize_with = "super::request::raw_text")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true,
        pattern = "^([1-9][0-9]{0,9}(\\.[0-9]{1,2})?|0\\.(0[1-9]|[1-9][0-9]?))$"))]
    pub amount: Option<String>,
    /// The front: base64 JPEG, PNG or TIFF (a `data:image/...;base64,` prefix allowed).
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, min_length = 1))]
    pub frontimage: Option<String>,
    /// The back, endorsed: base64 JPEG, PNG or TIFF.
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, min_length = 1))]
    pub rearimage: Option<String>,
}

/// The scan request's fields that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckScanRequest {
    pub amount: Money,
    pub frontimage: String,
    pub rearimage: String,
}

impl CheckScanFields {
    /// Checks every field; every problem is reported, each naming its field.
    ///
    /// ```
    /// use moneydesk_model::deposits::CheckScanFields;
    /// let f = CheckScanFields { amount: Some("12.5".into()), frontimage: Some("AAAA".into()), rearimage: None };
    /// let errors = f.check().unwrap_err();
    /// assert_eq!(errors.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["rearimage"]);
    /// ```
    pub fn check(&self) -> Result<CheckScanRequest, Vec<FieldError>> {
        let mut errors = Vec::new();
        let amount = match self.amount.as_deref() {
            None => {
                errors.push(FieldError::new("amount", "amount is required: the amount of the check, like 125.00"));
                None
            }
            Some(a) => {
                super::request::money(a, "amount", true).map_err(|m| errors.push(FieldError::new("amount", m))).ok()
            }
        };
        let mut image = |v: &Option<String>, field: &str| match v.as_deref() {
            Some(s) if !s.trim().is_empty() => Some(s.to_string()),
            Some(_) => {
                errors.push(FieldError::new(field, format!("{field} must not be empty")));
                None
            }
            None => {
                errors.push(FieldError::new(field, format!("{field} is required")));
                None
            }
        };
        let front = image(&self.frontimage, "frontimage");
        let rear = image(&self.rearimage, "rearimage");
        match (amount, front, rear) {
            (Some(amount), Some(frontimage), Some(rearimage)) if errors.is_empty() => {
                Ok(CheckScanRequest { amount, frontimage, rearimage })
            }
            _ => Err(errors),
        }
    }
}

/// What a scan answers (200): the scan's id (which a check deposit names as `scanId`), both
/// sides as stored, and the MICR line read from the front.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckScan {
    /// `scn_` and 32 hex digits.
    pub scan_id: String,
    /// The managed sleeve account the check is deposited to (the path's `smaSfid`).
    pub sma_sfid: String,
    /// The amount typed by the user; exactly two decimals.
    pub amount: Money,
    pub front: ScanSide,
    pub rear: ScanSide,
    /// What the front's MICR line says; `null` when no MICR line was found.
    pub micr: Option<MicrRead>,
    /// Problems that stop a deposit from this scan (a blocking quality finding, no MICR line,
    /// a routing number failing its checksum, an amount field differing from `amount`), each a
    /// sentence; empty when the scan can be deposited as it is.
    pub problems: Vec<String>,
}

/// One side of a scanned check as stored: a grayscale JPEG and a bitonal CCITT G4 TIFF
/// (X9.100-181) at 200 dpi of the check's width.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScanSide {
    /// The stored image's id (`<scanId>-front` or `<scanId>-rear`).
    pub image_id: String,
    /// Pixels of the stored images.
    pub width: u32,
    pub height: u32,
    pub grayscale_bytes: u64,
    pub bitonal_bytes: u64,
    /// Quality findings, most serious first.
    pub findings: Vec<QualityFinding>,
}

/// One quality finding of a side (`too_small`, `too_dark`, `glare`, `blurred`, `blank`,
/// `not_check_shaped`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QualityFinding {
    pub code: String,
    /// What to do about it, for the person holding the camera.
    pub advice: String,
    /// Whether a deposit from this image would be refused.
    pub blocking: bool,
}

/// The MICR line of the front, read with a confidence per character and per field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MicrRead {
    /// The line as read, with the E-13B symbols ⑆ transit, ⑈ on-us, ⑇ amount, ⑉ dash, and `*`
    /// for a character that could not be read.
    pub line: String,
    /// The lowest character confidence (0 to 1).
    pub confidence: f32,
    pub routing_number: Option<MicrField>,
    /// Whether the routing number passes the ABA checksum (a failing one is flagged, never
    /// corrected).
    pub routing_valid: bool,
    /// The institution's name from the routing directory, when it lists the number.
    pub bank_name: Option<String>,
    pub account_number: Option<MicrField>,
    pub check_number: Option<MicrField>,
    pub aux_on_us: Option<MicrField>,
    /// The amount field (encoded after deposit by the bank of first deposit), in dollars.
    pub amount: Option<MicrField>,
    pub epc: Option<MicrField>,
}

/// One field of the MICR line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MicrField {
    /// As read (`*` for an unreadable character).
    pub value: String,
    /// The lowest confidence of its characters (0 to 1).
    pub confidence: f32,
    /// Whether a character of it could not be read, or was read with low confidence.
    pub uncertain: bool,
}
