//! The X9.100-187 file of a cash letter (`moneydesk_x9::Writer`): one cash letter, bundles of at
//! most `bundle_items` checks, each check a type 25 with its addendum A (we are the bank of
//! first deposit) and both sides as G4 TIFFs — a scan's own, or made from the deposit's stored
//! pictures (`moneydesk_checkimage::side`, the same conversion a scan does).

use moneydesk_x9::{
    BundleHeader, CashLetterControl, CashLetterHeader, CheckDetail, CheckDetailAddendumA, FileControl, FileHeader,
    Image, ImageViewData, ImageViewDetail, Item, Writer,
};

use moneydesk_model::deposits::{DepositStatus, ServiceType};

use super::config::CashLetterConfig;
use super::store::{Candidate, ItemRow};

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

/// Writes the file; answers its bytes, the items as recorded, and the bundle count.
pub fn write(letter: &Letter<'_>, checks: &[Check]) -> Result<(Vec<u8>, Vec<ItemRow>, u32), moneydesk_x9::Error> {
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
    let mut w = Writer::new(Vec::new(), cfg.encoding, &header)?;
    w.start_cash_letter(&CashLetterHeader {
        destination_routing_number: cfg.destination.clone(),
        ece_institution_routing_number: cfg.origin.clone(),
        cash_letter_business_date: letter.business_date.into(),
        cash_letter_creation_date: letter.creation_date.into(),
        cash_letter_creation_time: letter.creation_time.into(),
        cash_letter_id: letter.cash_letter_id.into(),
        ..CashLetterHeader::default()
    })?;
    let mut items = Vec::with_capacity(checks.len());
    let mut bundles = 0u32;
    for (b, bundle) in checks.chunks(cfg.bundle_items.max(1) as usize).enumerate() {
        bundles += 1;
        w.start_bundle(&BundleHeader {
            destination_routing_number: cfg.destination.clone(),
            ece_institution_routing_number: cfg.origin.clone(),
            bundle_business_date: letter.business_date.into(),
            bundle_creation_date: letter.creation_date.into(),
            bundle_id: (b + 1).to_string(),
            bundle_sequence_number: (b + 1).to_string(),
            ..BundleHeader::default()
        })?;
        for check in bundle {
            let d = &check.deposit;
            let sequence = d.id.to_string();
            let mut detail = CheckDetail {
                on_us: check.on_us.clone(),
                item_amount: d.amount_cents.max(0) as u64,
                ece_institution_item_sequence_number: sequence.clone(),
                bofd_indicator: 'Y',
                ..CheckDetail::default()
            };
            detail.set_payor_bank_routing(&check.routing_number);
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
                    ImageViewData::new(check.front_g4.clone()),
                ),
                Image::new(
                    ImageViewDetail::g4_tiff(&cfg.origin, letter.business_date, true),
                    ImageViewData::new(check.back_g4.clone()),
                ),
            ];
            w.add_item(&Item { detail, addenda: vec![addendum], images, ..Item::default() })?;
            items.push(ItemRow {
                deposit_id: d.id,
                bundle: i64::from(b as u32 + 1),
                sequence_number: sequence,
                routing_number: check.routing_number.clone(),
                on_us: check.on_us.clone(),
                amount_cents: d.amount_cents,
            });
        }
        w.finish_bundle()?;
    }
    w.finish_cash_letter(CashLetterControl {
        ece_institution_name: cfg.origin_name.clone(),
        ..CashLetterControl::default()
    })?;
    let bytes = w.finish(FileControl::default())?;
    Ok((bytes, items, bundles))
}
