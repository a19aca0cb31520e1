//! Scanning a check (description 4.5 "Scan a check"; CONTRACT.md points 7, 8, 11): both
//! pictures decoded within limits, a photo's check found and straightened, each side measured for quality and kept as a grayscale JPEG
//! and a bitonal G4 TIFF at 200 dpi (`moneydesk_checkimage::side`), the MICR line read from the
//! front (`moneydesk_checkimage::micr`, the same reader the portal's scanning worker runs), and
//! the scan stored so that a check deposit can name it (`scanId`) instead of sending images.

use moneydesk_checkimage::answer;
use moneydesk_checkimage::side::{self, Side};
use moneydesk_model::deposits::{CheckScan, CheckScanFields, MicrRead, ScanSide};
use moneydesk_model::Money;

use super::images::{self, CheckImage};
use super::store::ScanRow;
use crate::auth::Caller;
use crate::deposits::DepositsState;
use crate::error::Error;

/// Scans a check for the managed sleeve account `sma_sfid`.
pub async fn scan(state: &DepositsState, caller: &Caller, sma_sfid: &str, body: &[u8]) -> Result<CheckScan, Error> {
    let fields: CheckScanFields =
        serde_json::from_slice(body).map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?;
    let req = fields.check().map_err(Error::fields)?;
    if state.accounts().get(sma_sfid).await?.is_none() {
        return Err(Error::not_found(format!("No managed sleeve account {sma_sfid:?} in the accounts collection")));
    }
    // Decoding (within the limits of contract point 11) and the image work are CPU-bound: off
    // the async workers.
    let (front, rear) = tokio::task::spawn_blocking(move || {
        // A photo of the check on a table is found and straightened first (the front by the
        // outline holding its MICR line, as far as it shows); a scan or a picture already
        // cropped to the check is kept as it is.
        let front =
            images::decode("frontimage", &req.frontimage).map(|(_, picture)| side::prepare_front_photo(&picture).0)?;
        let rear = images::decode("rearimage", &req.rearimage).map(|(_, picture)| side::prepare_photo(&picture).0)?;
        Ok::<_, Error>((front, rear))
    })
    .await
    .map_err(|e| Error::internal(format_args!("the scan's image work stopped: {e}")))??;
    let micr = read_micr(state, &front);
    let id = format!("scn_{}", uuid::Uuid::new_v4().simple());
    let amount = req.amount;
    let problems = problems(&front, &rear, micr.as_ref(), amount);
    let answer = CheckScan {
        scan_id: id.clone(),
        sma_sfid: sma_sfid.to_string(),
        amount,
        front: scan_side(&id, "front", &front),
        rear: scan_side(&id, "rear", &rear),
        micr,
        problems,
    };
    let [front_gray, front_g4, rear_gray, rear_g4] = [
        blob(front.jpeg, image::ImageFormat::Jpeg, &front.gray),
        blob(front.g4_tiff, image::ImageFormat::Tiff, &front.gray),
        blob(rear.jpeg, image::ImageFormat::Jpeg, &rear.gray),
        blob(rear.g4_tiff, image::ImageFormat::Tiff, &rear.gray),
    ];
    let row = ScanRow {
        id,
        sma_sfid: sma_sfid.to_string(),
        amount_cents: super::handlers::cents_of(amount),
        created_at: crate::storage::time::now_text(),
        submitter: caller.token_name().to_string(),
        front_gray: images::store(&state.blobs(), front_gray).await?,
        front_g4: images::store(&state.blobs(), front_g4).await?,
        rear_gray: images::store(&state.blobs(), rear_gray).await?,
        rear_g4: images::store(&state.blobs(), rear_g4).await?,
        micr_line: answer.micr.as_ref().map(|m| m.line.clone()),
        answer: serde_json::to_string(&answer).map_err(|e| Error::internal(format_args!("writing the scan: {e}")))?,
    };
    state.deposits().insert_scan(&row).await?;
    Ok(answer)
}

/// An encoded image ready for the content-addressed store.
fn blob(bytes: Vec<u8>, format: image::ImageFormat, of: &image::GrayImage) -> CheckImage {
    use sha2::{Digest, Sha256};
    let sha256 = hex::encode(Sha256::digest(&bytes));
    CheckImage { bytes, format, width: of.width(), height: of.height(), sha256 }
}

fn scan_side(id: &str, name: &str, s: &Side) -> ScanSide {
    ScanSide {
        image_id: format!("{id}-{name}"),
        width: s.gray.width(),
        height: s.gray.height(),
        grayscale_bytes: s.jpeg.len() as u64,
        bitonal_bytes: s.g4_tiff.len() as u64,
        findings: answer::quality_findings(&s.findings),
    }
}

/// What stops a deposit from this scan, each as a sentence.
fn problems(front: &Side, rear: &Side, micr: Option<&MicrRead>, amount: Money) -> Vec<String> {
    let mut out = Vec::new();
    for (name, s) in [("front", front), ("back", rear)] {
        for f in s.findings.iter().filter(|f| f.is_blocking()) {
            out.push(format!("The {name}: {}", f.advice()));
        }
    }
    match micr {
        None => out.push(
            "No MICR line was found at the bottom of the front: photograph the whole check, flat and lit evenly".into(),
        ),
        Some(m) => {
            match &m.routing_number {
                None => out.push("The MICR line has no routing number between two ⑆ symbols".into()),
                Some(r) if !m.routing_valid => out.push(format!(
                    "The routing number {} read from the MICR line fails the ABA checksum: rescan, or type it from the check",
                    r.value
                )),
                Some(_) => {}
            }
            if let Some(a) = &m.amount {
                if let Ok(printed) = Money::parse(&a.value) {
                    if printed.with_cents() != amount.with_cents() {
                        out.push(format!(
                            "The amount encoded on the check is {} but {} was typed",
                            printed.with_cents(),
                            amount.with_cents()
                        ));
                    }
                }
            }
        }
    }
    out
}

/// The MICR line of the front, with the directory's name for its routing number.
fn read_micr(state: &DepositsState, front: &Side) -> Option<MicrRead> {
    let line = moneydesk_checkimage::micr::read(&front.gray).ok()?;
    let bank_name = line
        .routing
        .as_ref()
        .filter(|_| line.routing_valid)
        .and_then(|r| moneydesk_model::RoutingNumber::parse(&r.value).ok())
        .and_then(|rn| super::handlers::directory_name_of(state, &rn));
    Some(MicrRead { bank_name, ..answer::micr_read(&line) })
}
