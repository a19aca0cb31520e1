//! What was found, in the API's words (the model crate's `MicrRead` and `QualityFinding`): one
//! conversion for the server's scan endpoint and the portal's scanning worker, so both say the
//! same of the same picture. Behind the `model` feature (the crate alone needs no model).

use moneydesk_model::deposits::{MicrField, MicrRead, QualityFinding};

use crate::micr::{Field, MicrLine};
use crate::quality::Finding;

/// A field whose lowest character confidence is below this is marked uncertain (the form
/// asks the person to check it), even when every character was read.
pub const UNCERTAIN_BELOW: f32 = 0.6;

/// The quality findings, blocking ones first.
pub fn quality_findings(findings: &[Finding]) -> Vec<QualityFinding> {
    let mut out: Vec<QualityFinding> = findings
        .iter()
        .map(|f| QualityFinding { code: f.code().into(), advice: f.advice(), blocking: f.is_blocking() })
        .collect();
    out.sort_by_key(|f| !f.blocking);
    out
}

/// The MICR line as the API answers it; `bank_name` is left for the caller, who has the
/// routing directory.
pub fn micr_read(line: &MicrLine) -> MicrRead {
    let field = |f: &Field| MicrField {
        value: f.value.clone(),
        confidence: f.confidence,
        uncertain: f.uncertain || f.confidence < UNCERTAIN_BELOW,
    };
    MicrRead {
        line: line.raw.clone(),
        confidence: line.confidence,
        routing_valid: line.routing_valid,
        routing_number: line.routing.as_ref().map(field),
        bank_name: None,
        account_number: line.account.as_ref().map(field),
        check_number: line.check_number.as_ref().map(field),
        aux_on_us: line.aux_on_us.as_ref().map(field),
        amount: line.amount.as_ref().map(|a| MicrField { value: dollars(&a.value), ..field(a) }),
        epc: line.epc.as_ref().map(field),
    }
}

/// The amount field's ten digits of cents as dollars (`0000012500` → `125.00`); a field with
/// an unread character stays as read.
///
/// ```
/// use moneydesk_checkimage::answer::dollars;
/// assert_eq!(dollars("0000012500"), "125.00");
/// assert_eq!(dollars("00000*2500"), "00000*2500");
/// ```
pub fn dollars(digits: &str) -> String {
    match digits.parse::<u64>() {
        Ok(c) => format!("{}.{:02}", c / 100, c % 100),
        Err(_) => digits.to_string(),
    }
}
