//! The checks of [`Validator::check_context`](super::Validator) for the records of a returned
//! item: a return record opens an item like a check detail does, in a return bundle; its
//! addenda A and D are numbered in order, and it has at most one addendum B.

use super::Validator;
use crate::error::RecordNumber;
use crate::field::Sink;
use crate::records::{ReturnAddendumA, ReturnAddendumD, ReturnRecord, RETURN_COLLECTION_TYPES};

impl Validator {
    pub(super) fn return_record(&mut self, number: RecordNumber, r: &ReturnRecord, s: &mut Sink) {
        self.close_item(s);
        let Some(bundle) = self.bundle.as_ref() else {
            return s.record_error("a return record outside a bundle");
        };
        if !RETURN_COLLECTION_TYPES.contains(&bundle.collection_type.as_str()) {
            s.record_error(format!(
                "a return record in a bundle of collection type \"{}\" (returns go in bundles of collection type 03, 04, 05 or 06)",
                bundle.collection_type
            ));
        }
        let seq = &r.ece_institution_item_sequence_number;
        self.open_item(number, r.item_amount, r.documentation_type_indicator, seq, r.addendum_count, true, s);
    }

    pub(super) fn return_addendum_a(&mut self, a: &ReturnAddendumA, s: &mut Sink) {
        let Some(item) = self.addendum_position(s, true) else { return };
        item.addenda_a = item.addenda_a.saturating_add(1);
        if a.record_number != item.addenda_a {
            let message =
                format!("is {} but this is addendum A number {} of its return", a.record_number, item.addenda_a);
            s.error("Return Addendum A Record Number", message);
        }
    }

    pub(super) fn return_addendum_b(&mut self, s: &mut Sink) {
        let Some(item) = self.addendum_position(s, true) else { return };
        item.addenda_b = item.addenda_b.saturating_add(1);
        if item.addenda_b > 1 {
            s.record_error("a second return addendum B for the same return (a return has at most one)");
        }
    }

    pub(super) fn return_addendum_d(&mut self, d: &ReturnAddendumD, s: &mut Sink) {
        let Some(item) = self.addendum_position(s, true) else { return };
        item.addenda_d = item.addenda_d.saturating_add(1);
        if d.record_number != item.addenda_d {
            let message =
                format!("is {} but this is addendum D number {} of its return", d.record_number, item.addenda_d);
            s.error("Return Addendum D Record Number", message);
        }
    }
}
