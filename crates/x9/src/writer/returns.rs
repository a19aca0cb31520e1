//! One returned item of a return bundle (`Writer::add_return`): its return record, addenda
//! and images, checked whole before any of it is written, as a check is.

use std::io::Write;

use super::{order, refuse, sink, Writer};
use crate::error::Error;
use crate::model::ReturnItem;
use crate::records::{AddendumAOf, Record, RETURN_COLLECTION_TYPES};

impl<W: Write> Writer<W> {
    /// Adds a returned item to the open bundle, which must be a return bundle (collection
    /// type 03, 04, 05 or 06): its return record, addenda A, addendum B, addenda D and
    /// images, all checked before any is written. The return record's addendum count and the
    /// addenda's record numbers are set here. Returns count in the controls as items do.
    pub fn add_return(&mut self, item: &ReturnItem) -> Result<(), Error> {
        self.usable()?;
        let Some(bundle) = self.bundle.as_ref() else {
            return order("add_return: no bundle is open (start_bundle)");
        };
        let first = self.next();
        let addenda = item.addenda_a.len() + usize::from(item.addendum_b.is_some()) + item.addenda_d.len();
        let mut detail = item.detail.clone();
        detail.addendum_count = addenda.min(99) as u8;
        let mut problems = Vec::new();
        let mut s = sink(&mut problems, first, "31");
        detail.check(&mut s);
        if !RETURN_COLLECTION_TYPES.contains(&bundle.collection_type.as_str()) {
            s.record_error(format!(
                "a return in a bundle of collection type \"{}\" (returns go in bundles of collection type 03, 04, 05 or 06)",
                bundle.collection_type
            ));
        }
        // Addenda A are numbered in one digit, the count in two.
        if item.addenda_a.len() > 9 || addenda > 99 {
            let n = item.addenda_a.len();
            s.error(
                "Return Record Addendum Count",
                format!("{addenda} addenda, {n} of them A; at most 99, 9 of them A"),
            );
        }
        let seq = &detail.ece_institution_item_sequence_number;
        if !seq.is_empty() && self.sequences.contains(seq) {
            let message = format!("\"{seq}\" is already the sequence number of an item of this file");
            s.error("ECE Institution Item Sequence Number", message);
        }
        let images = item.images.len() as u64;
        self.check_capacity(&mut s, detail.item_amount, false, images, 1 + addenda as u64 + 2 * images);

        let mut n = first;
        let mut records = Vec::with_capacity(addenda);
        for (i, a) in item.addenda_a.iter().enumerate() {
            n += 1;
            let a = crate::ReturnAddendumA { record_number: (i + 1).min(9) as u8, ..a.clone() };
            a.check(&mut sink(&mut problems, n, "32"), AddendumAOf::Return);
            records.push(Record::ReturnAddendumA(a));
        }
        if let Some(b) = &item.addendum_b {
            n += 1;
            b.check(&mut sink(&mut problems, n, "33"));
            records.push(Record::ReturnAddendumB(b.clone()));
        }
        for (i, d) in item.addenda_d.iter().enumerate() {
            n += 1;
            let d = crate::ReturnAddendumD { record_number: (i + 1).min(99) as u8, ..d.clone() };
            d.check(&mut sink(&mut problems, n, "35"));
            records.push(Record::ReturnAddendumD(d));
        }
        let views = self.check_images(&mut problems, n, &item.images, (seq, "return record's"));
        refuse(problems)?;

        self.write_fixed(&Record::ReturnRecord(detail.clone()))?;
        for record in &records {
            self.write_fixed(record)?;
        }
        self.write_images(views, seq)?;
        self.count_item(seq, detail.item_amount, false, images);
        Ok(())
    }
}
