//! The X9.100-187 file of a cash letter (`moneydesk_x9::Writer`): one cash letter, bundles of at
//! most `bundle_items` checks, each check a type 25 with its addendum A (we are the bank of
//! first deposit) and both sides as G4 TIFFs — a scan's own, or made from the deposit's stored
//! pictures (`moneydesk_checkimage::side`, the same conversion a scan does).

use std::io::Write;

use moneydesk_x9::{
    BundleHeader, CashLetterControl, CashLetterHeader, CheckDetail, CheckDetailAddendumA, FileControl, FileHeader,
    Image, ImageViewData, ImageViewDetail, Item, Writer,
};

use moneydesk_model::deposits::{DepositStatus, ServiceType};

use super::store::{Candidate, ItemRow};
use crate::config::cash_letters::CashLetterConfig;

/// A check ready for the file: its deposit, MICR fields and both G4 TIFFs.
pub struct Check {
    pub deposit: Candidate,
    pub routing_number: String,
    pub on_us: String,
    pub front_g4: Vec<u8>,
    pub back_g4: Vec<u8>,
}

/// Why a deposit cannot go in a cash letter, as a sentence naming it.
pub fn refusal(c: &Candidate) -> Option<String> {
    let id = c.id;
    let confirmed = DepositStatus::Confirmed.as_str();
    if c.status != confirmed {
        return Some(format!("deposit {id} is {}, not {confirmed}", c.status));
    }
    if c.service_type != ServiceType::Check.as_str() && c.service_type != ServiceType::CheckScan.as_str() {
        return Some(format!("deposit {id} is a {} deposit, not a check", c.service_type));
    }
    match c.bank_routing_number.as_deref() {
        Some(r) if moneydesk_x9::is_valid_routing_number(r) => {}
        Some(r) => return Some(format!("deposit {id}: its MICR routing number {r} fails the ABA checksum")),
        None => return Some(format!("deposit {id} has no routing number")),
    }
    if c.bank_account_number.is_none() {
        return Some(format!("deposit {id} has no account number for the on-us field"));
    }
    if c.front_image.is_none() || c.back_image.is_none() {
        return Some(format!("deposit {id} has no images of both sides"));
    }
    None
}

/// The on-us field as X9 writes it: the account, then `/` (the on-us symbol ⑈), then the check
/// number — the layout of a personal check's MICR line.
pub fn on_us(c: &Candidate) -> String {
    let account = c.bank_account_number.as_deref().unwrap_or_default();
    match c.check_number.as_deref() {
        Some(n) => format!("{account}/{n}"),
        None => format!("{account}/"),
    }
}

/// The file's header fields.
pub struct Letter<'a> {
    pub config: &'a CashLetterConfig,
    pub cash_letter_id: &'a str,
    /// `YYYYMMDD`.
    pub business_date: &'a str,
    pub creation_date: &'a str,
    /// `HHMM`.
    pub creation_time: &'a str,
}

/// Why writing stopped: a check could not be had (its images), or the file did not write.
#[derive(Debug)]
pub enum WriteError<E> {
    Check(E),
    File(moneydesk_x9::Error),
}

impl<E> From<moneydesk_x9::Error> for WriteError<E> {
    fn from(e: moneydesk_x9::Error) -> Self {
        WriteError::File(e)
    }
}

/// Writes the file into `out` as the checks come (one check's images in memory at a time);
/// answers the items as recorded and the bundle count.
pub fn write<W: Write, E>(
    out: W,
    letter: &Letter<'_>,
    checks: impl IntoIterator<Item = Result<Check, E>>,
) -> Result<(W, Vec<ItemRow>, u32), WriteError<E>> {
    let cfg = letter.config;
    let header = FileHeader {
        immediate_destination_routing_number: cfg.destination.clone(),
        immediate_origin_routing_number: cfg.origin.clone(),
        file_creation_date: letter.creation_date.into(),
        file_creation_time: letter.creation_time.into(),
        immediate_destination_name: cfg.destination_name.clone(),
        immediate_origin_name: cfg.origin_name.clone(),
        ..FileHeader::default()
    };
    let mut w = Writer::new(out, cfg.encoding, &header)?;
    w.start_cash_letter(&CashLetterHeader {
        destination_routing_number: cfg.destination.clone(),
        ece_institution_routing_number: cfg.origin.clone(),
        cash_letter_business_date: letter.business_date.into(),
        cash_letter_creation_date: letter.creation_date.into(),
        cash_letter_creation_time: letter.creation_time.into(),
        cash_letter_id: letter.cash_letter_id.into(),
        ..CashLetterHeader::default()
    })?;
    let per_bundle = cfg.bundle_items.max(1) as usize;
    let (mut items, mut bundles, mut in_bundle) = (Vec::new(), 0u32, 0usize);
    for check in checks {
        let Check { deposit: d, routing_number, on_us, front_g4, back_g4 } = check.map_err(WriteError::Check)?;
        if in_bundle == per_bundle {
            w.finish_bundle()?;
            in_bundle = 0;
        }
        if in_bundle == 0 {
            bundles += 1;
            w.start_bundle(&BundleHeader {
                destination_routing_number: cfg.destination.clone(),
                ece_institution_routing_number: cfg.origin.clone(),
                bundle_business_date: letter.business_date.into(),
                bundle_creation_date: letter.creation_date.into(),
                bundle_id: bundles.to_string(),
                bundle_sequence_number: bundles.to_string(),
                ..BundleHeader::default()
            })?;
        }
        in_bundle += 1;
        let sequence = d.id.to_string();
        let mut detail = CheckDetail {
            on_us: on_us.clone(),
            item_amount: d.amount_cents.max(0) as u64,
            ece_institution_item_sequence_number: sequence.clone(),
            bofd_indicator: 'Y',
            ..CheckDetail::default()
        };
        detail.set_payor_bank_routing(&routing_number);
        let addendum = CheckDetailAddendumA {
            record_number: 1,
            bofd_routing_number: cfg.origin.clone(),
            bofd_business_date: letter.business_date.into(),
            bofd_item_sequence_number: sequence.clone(),
            // The field takes printable ASCII: other letters (an accent) are left out, not refused.
            payee_name: d
                .payee_name
                .as_deref()
                .unwrap_or_default()
                .chars()
                .filter(|c| c.is_ascii_graphic() || *c == ' ')
                .take(15)
                .collect(),
            truncation_indicator: 'Y',
            ..CheckDetailAddendumA::default()
        };
        let images = vec![
            Image::new(
                ImageViewDetail::g4_tiff(&cfg.origin, letter.business_date, false),
                ImageViewData::new(front_g4),
            ),
            Image::new(ImageViewDetail::g4_tiff(&cfg.origin, letter.business_date, true), ImageViewData::new(back_g4)),
        ];
        w.add_item(&Item { detail, addenda: vec![addendum], images, ..Item::default() })?;
        items.push(ItemRow {
            deposit_id: d.id,
            bundle: i64::from(bundles),
            sequence_number: sequence,
            routing_number,
            on_us,
            amount_cents: d.amount_cents,
        });
    }
    if in_bundle > 0 {
        w.finish_bundle()?;
    }
    w.finish_cash_letter(CashLetterControl {
        ece_institution_name: cfg.origin_name.clone(),
        ..CashLetterControl::default()
    })?;
    let out = w.finish(FileControl::default())?;
    Ok((out, items, bundles))
}
