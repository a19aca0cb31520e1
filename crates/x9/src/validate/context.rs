//! The checks of [`Validator::check_context`](super::Validator), one per record type: each
//! opens or closes its group, adds to the running totals and compares what the record states
//! with what came before it.

use std::collections::HashSet;

use super::{missing_data, BundleState, CashLetterState, ItemState, Totals, Validator};
use crate::error::{Problem, RecordNumber, Severity};
use crate::field::Sink;
use crate::records::{
    type_name, BundleControl, BundleHeader, CashLetterControl, CashLetterHeader, CheckDetail, CheckDetailAddendumA,
    FileControl, FileHeader, ImageViewData, ImageViewDetail, RawRecord,
};

impl Validator {
    pub(super) fn file_header(&mut self, h: &FileHeader, s: &mut Sink) {
        if self.started {
            s.record_error("a second file header");
        }
        self.started = true;
        self.legacy = h.is_legacy();
    }

    pub(super) fn cash_letter_header(&mut self, h: &CashLetterHeader, s: &mut Sink) {
        self.close_cash_letter(s, "a cash letter header");
        self.file.groups += 1;
        if !self.cash_letter_ids.insert(h.cash_letter_id.clone()) {
            s.error(
                "Cash Letter ID",
                format!("\"{}\" is already the id of a cash letter of this file", h.cash_letter_id),
            );
        }
        self.cash_letter = Some(CashLetterState {
            collection_type: h.collection_type_indicator.clone(),
            documentation_type: h.cash_letter_documentation_type_indicator,
            totals: Totals::default(),
            bundle_ids: HashSet::new(),
        });
    }

    pub(super) fn bundle_header(&mut self, h: &BundleHeader, s: &mut Sink) {
        self.close_bundle(s, "a bundle header");
        let Some(cl) = self.cash_letter.as_mut() else {
            return s.record_error("a bundle header outside a cash letter");
        };
        cl.totals.groups += 1;
        if !cl.bundle_ids.insert(h.bundle_id.clone()) {
            s.error("Bundle ID", format!("\"{}\" is already the id of a bundle of this cash letter", h.bundle_id));
        }
        if cl.collection_type != "99" && h.collection_type_indicator != cl.collection_type {
            s.error(
                "Collection Type Indicator",
                format!(
                    "\"{}\" differs from the cash letter's \"{}\"",
                    h.collection_type_indicator, cl.collection_type
                ),
            );
        }
        self.bundle = Some(BundleState {
            collection_type: h.collection_type_indicator.clone(),
            routing: h.ece_institution_routing_number.clone(),
            date: h.bundle_business_date.clone(),
            cycle: h.cycle_number.clone(),
            totals: Totals::default(),
            micr_valid_amount: 0,
        });
    }

    pub(super) fn check_detail(&mut self, number: RecordNumber, d: &CheckDetail, s: &mut Sink) {
        self.close_item(s);
        let Some(bundle) = self.bundle.as_mut() else {
            return s.record_error("a check detail outside a bundle");
        };
        if d.micr_valid_indicator == '1' {
            bundle.micr_valid_amount = bundle.micr_valid_amount.saturating_add(d.item_amount);
        }
        let seq = &d.ece_institution_item_sequence_number;
        self.open_item(number, d.item_amount, d.documentation_type_indicator, seq, d.addendum_count, false, s);
    }

    /// Opens an item (check or return) in the open bundle: counts it and its amount in the
    /// totals, and checks its sequence number is new.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn open_item(
        &mut self,
        number: RecordNumber,
        amount: u64,
        documentation_type: char,
        seq: &str,
        declared_addenda: u8,
        returned: bool,
        s: &mut Sink,
    ) {
        if let Some(bundle) = self.bundle.as_mut() {
            bundle.totals.items += 1;
            bundle.totals.amount = bundle.totals.amount.saturating_add(amount);
        }
        if let Some(cl) = self.cash_letter.as_mut() {
            cl.totals.items += 1;
            cl.totals.amount = cl.totals.amount.saturating_add(amount);
            if cl.documentation_type == 'Z' && documentation_type == ' ' {
                s.error("Documentation Type Indicator", "is blank but the cash letter's is 'Z' (given per item)");
            }
        }
        self.file.items += 1;
        self.file.amount = self.file.amount.saturating_add(amount);
        if !seq.is_empty() && !self.sequences.insert(seq) {
            s.error(
                "ECE Institution Item Sequence Number",
                format!("\"{seq}\" is already the sequence number of an item of this file"),
            );
        }
        self.item = Some(ItemState {
            number,
            returned,
            sequence: seq.to_owned(),
            declared_addenda,
            addenda: 0,
            addenda_a: 0,
            addenda_b: 0,
            addenda_d: 0,
            images_started: false,
            pending_image: None,
        });
    }

    pub(super) fn check_detail_addendum_a(&mut self, a: &CheckDetailAddendumA, s: &mut Sink) {
        let Some(item) = self.addendum_position(s, false) else { return };
        item.addenda_a += 1;
        if a.record_number != item.addenda_a {
            s.error(
                "Check Detail Addendum A Record Number",
                format!("is {} but this is addendum A number {} of its item", a.record_number, item.addenda_a),
            );
        }
    }

    pub(super) fn image_view_detail(&mut self, number: RecordNumber, v: &ImageViewDetail, s: &mut Sink) {
        let Some(item) = self.item.as_mut() else {
            return s.record_error("an image view detail outside an item (no check detail before it)");
        };
        if let Some((pending, _)) = item.pending_image.take() {
            s.problems.push(missing_data(pending));
        }
        item.images_started = true;
        item.pending_image = Some((number, v.image_view_data_size));
        if let Some(b) = self.bundle.as_mut() {
            b.totals.images += 1;
        }
        if let Some(cl) = self.cash_letter.as_mut() {
            cl.totals.images += 1;
        }
        self.file.images += 1;
    }

    pub(super) fn image_view_data(&mut self, number: RecordNumber, data: &ImageViewData, s: &mut Sink) {
        let pending = self.item.as_mut().and_then(|i| i.pending_image.take());
        let Some((detail_number, size)) = pending else {
            return s.record_error("an image view data record without its image view detail (type 50) before it");
        };
        let len = data.image_data.len();
        if size.is_some_and(|size| size as usize != len) {
            s.problems.push(Problem::new(
                Severity::Error,
                detail_number,
                "50",
                Some("Image View Data Size"),
                format!("is {} but its image view data ({number}) holds {len} bytes", size.unwrap_or(0)),
            ));
        }
        if let Some(b) = &self.bundle {
            same(
                s,
                "ECE Institution Routing Number",
                &data.ece_institution_routing_number,
                &b.routing,
                "bundle header's",
            );
            same(s, "Bundle Business Date", &data.bundle_business_date, &b.date, "bundle header's");
            same(s, "Cycle Number", &data.cycle_number, &b.cycle, "bundle header's");
        }
        if let Some(item) = &self.item {
            let (ours, theirs) = (&data.ece_institution_item_sequence_number, &item.sequence);
            let whose = if item.returned { "return record's" } else { "check detail's" };
            same(s, "ECE Institution Item Sequence Number", ours, theirs, whose);
        }
    }

    pub(super) fn bundle_control(&mut self, c: &BundleControl, s: &mut Sink) {
        self.close_item(s);
        let Some(b) = self.bundle.take() else {
            return s.record_error("a bundle control without a bundle header before it");
        };
        count(
            s,
            "Items Within Bundle Count",
            c.items_within_bundle_count.into(),
            b.totals.items,
            "items (types 25 and 31) in the bundle",
        );
        count(s, "Bundle Total Amount", c.bundle_total_amount, b.totals.amount, "the sum of the bundle's item amounts");
        count(
            s,
            "MICR Valid Total Amount",
            c.micr_valid_total_amount,
            b.micr_valid_amount,
            "the sum of the amounts of its items with MICR valid indicator 1",
        );
        count(
            s,
            "Images Within Bundle Count",
            c.images_within_bundle_count.into(),
            b.totals.images,
            "image view detail records in the bundle",
        );
    }

    pub(super) fn cash_letter_control(&mut self, c: &CashLetterControl, s: &mut Sink) {
        self.close_bundle(s, "a cash letter control");
        let Some(cl) = self.cash_letter.take() else {
            return s.record_error("a cash letter control without a cash letter header before it");
        };
        let t = cl.totals;
        count(s, "Cash Letter Bundle Count", c.bundle_count.into(), t.groups, "bundles in the cash letter");
        count(
            s,
            "Items Within Cash Letter Count",
            c.items_within_cash_letter_count,
            t.items,
            "items (types 25 and 31) in the cash letter",
        );
        count(
            s,
            "Cash Letter Total Amount",
            c.cash_letter_total_amount,
            t.amount,
            "the sum of the cash letter's item amounts",
        );
        count(
            s,
            "Images Within Cash Letter Count",
            c.images_within_cash_letter_count,
            t.images,
            "image view detail records in the cash letter",
        );
    }

    pub(super) fn file_control(&mut self, c: &FileControl, s: &mut Sink) {
        self.close_cash_letter(s, "the file control");
        self.ended = true;
        let t = &self.file;
        count(s, "Cash Letter Count", c.cash_letter_count.into(), t.groups, "cash letters in the file");
        count(s, "Total Record Count", c.total_record_count, self.records, "records in the file");
        count(s, "Total Item Count", c.total_item_count, t.items, "items (types 25 and 31) in the file");
        count(s, "File Total Amount", c.file_total_amount, t.amount, "the sum of the file's item amounts");
    }

    /// A record kept raw: addenda B and C (27, 28) and return addenda C (34) still count as
    /// their item's addenda.
    pub(super) fn other(&mut self, raw: &RawRecord, s: &mut Sink) {
        match raw.record_type.as_str() {
            t @ ("27" | "28" | "34") => {
                self.addendum_position(s, t == "34");
                s.note(None, format!("{} records are kept raw, not interpreted", type_name(&raw.record_type)));
            }
            "" => s.record_error("a record too short to hold a record type"),
            t if type_name(t) == "unknown record type" => {
                s.note(None, format!("unknown record type \"{t}\", kept raw"))
            }
            t => s.note(None, format!("{} records (type {t}) are kept raw, not interpreted", type_name(t))),
        }
    }
}

pub(super) fn same(s: &mut Sink, field: &'static str, ours: &str, theirs: &str, whose: &str) {
    if ours.trim_end() != theirs.trim_end() {
        s.error(field, format!("\"{ours}\" differs from the {whose} \"{theirs}\""));
    }
}

fn count(s: &mut Sink, field: &'static str, stated: u64, actual: u64, what: &str) {
    if stated != actual {
        s.error(field, format!("is {stated} but there are {actual} ({what})"));
    }
}
