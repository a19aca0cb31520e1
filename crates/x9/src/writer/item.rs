//! One item of a bundle: its check detail, addenda and images, checked whole before any of
//! it is written (`Writer::add_item`), and the control fields it would overflow.

use std::io::Write;

use super::{link, max_of, order, refuse, sink, Totals, Writer};
use crate::error::{Error, Problem};
use crate::field::Sink;
use crate::model::{Image, Item};
use crate::records::{AddendumAOf, ImageViewData, ImageViewDetail, Record};

impl<W: Write> Writer<W> {
    /// Adds an item to the open bundle: its check detail, addenda A, and images (each an
    /// image view detail and its data), all checked before any is written.
    pub fn add_item(&mut self, item: &Item) -> Result<(), Error> {
        self.usable()?;
        if self.bundle.is_none() {
            return order("add_item: no bundle is open (start_bundle)");
        }
        let first = self.next();
        let mut detail = item.detail.clone();
        detail.addendum_count = item.addenda.len().min(usize::from(u8::MAX)) as u8;
        let mut problems = Vec::new();
        let mut s = sink(&mut problems, first, "25");
        detail.check(&mut s);
        // Addenda A are numbered in one digit.
        if item.addenda.len() > 9 {
            let n = item.addenda.len();
            s.error("Check Detail Record Addendum Count", format!("{n} addenda A; an item has at most 9"));
        }
        let seq = &detail.ece_institution_item_sequence_number;
        if !seq.is_empty() && self.sequences.contains(seq) {
            s.error(
                "ECE Institution Item Sequence Number",
                format!("\"{seq}\" is already the sequence number of an item of this file"),
            );
        }
        let records = 1 + item.addenda.len() as u64 + 2 * item.images.len() as u64;
        self.check_capacity(
            &mut s,
            detail.item_amount,
            detail.micr_valid_indicator == '1',
            item.images.len() as u64,
            records,
        );
        let mut n = first;
        let mut addenda = Vec::with_capacity(item.addenda.len());
        for (i, a) in item.addenda.iter().enumerate() {
            n += 1;
            let mut a = a.clone();
            a.record_number = (i + 1).min(9) as u8;
            a.check(&mut sink(&mut problems, n, "26"), AddendumAOf::Check);
            addenda.push(a);
        }
        let views = self.check_images(&mut problems, n, &item.images, (seq, "check detail's"));
        refuse(problems)?;

        self.write_fixed(&Record::CheckDetail(detail.clone()))?;
        for a in addenda {
            self.write_fixed(&Record::CheckDetailAddendumA(a))?;
        }
        self.write_images(views, seq)?;
        self.count_item(seq, detail.item_amount, detail.micr_valid_indicator == '1', item.images.len() as u64);
        Ok(())
    }

    /// Checks an item's images, the first record numbered after `n`: each an image view
    /// detail (its data size set here) and its data, which must agree with the bundle and the
    /// item (sequence number `seq`, of its `whose` record: "check detail's"). Returns what to
    /// write.
    pub(super) fn check_images<'i>(
        &self,
        problems: &mut Vec<Problem>,
        mut n: u64,
        images: &'i [Image],
        (seq, whose): (&str, &str),
    ) -> Vec<(ImageViewDetail, &'i ImageViewData)> {
        let bundle = self.bundle.as_ref().expect("open");
        let mut views = Vec::with_capacity(images.len());
        for image in images {
            n += 1;
            let mut view = image.detail.clone();
            let Some(data) = &image.data else {
                sink(problems, n, "50").record_error("an image view detail without its image view data");
                continue;
            };
            view.image_view_data_size = u32::try_from(data.image_data.len()).ok();
            view.check(&mut sink(problems, n, "50"));
            n += 1;
            let effective = link(data, bundle, seq);
            let mut s = sink(problems, n, "52");
            data.check(&mut s, &effective);
            // Given rather than left empty, they must still agree with the bundle and item.
            for (field, ours, theirs, whose) in [
                ("ECE Institution Routing Number", effective.routing, bundle.routing.as_str(), "bundle header's"),
                ("Bundle Business Date", effective.date, &bundle.date, "bundle header's"),
                ("Cycle Number", effective.cycle, &bundle.cycle, "bundle header's"),
                ("ECE Institution Item Sequence Number", effective.sequence, seq, whose),
            ] {
                if ours != theirs {
                    s.error(field, format!("\"{ours}\" differs from the {whose} \"{theirs}\""));
                }
            }
            views.push((view, data));
        }
        views
    }

    pub(super) fn write_images(
        &mut self,
        views: Vec<(ImageViewDetail, &ImageViewData)>,
        seq: &str,
    ) -> Result<(), Error> {
        for (view, data) in views {
            self.write_fixed(&Record::ImageViewDetail(view))?;
            self.write_image_data(data, seq)?;
        }
        Ok(())
    }

    /// Adds a written item to the totals of its bundle, cash letter and file.
    pub(super) fn count_item(&mut self, seq: &str, amount: u64, micr_valid: bool, images: u64) {
        if !seq.is_empty() {
            self.sequences.insert(seq);
        }
        let add = |t: &mut Totals| {
            t.items += 1;
            t.amount += amount;
            t.images += images;
            if micr_valid {
                t.micr_valid += amount;
            }
        };
        add(&mut self.bundle.as_mut().expect("open").totals);
        add(&mut self.cash_letter.as_mut().expect("open").totals);
        add(&mut self.file);
    }

    /// Refuses an item that would make a control's count or total overflow its field.
    pub(super) fn check_capacity(&self, s: &mut Sink, amount: u64, micr_valid: bool, images: u64, records: u64) {
        let mut over = |what: &str, value: u64, width: u32| {
            if value > max_of(width) {
                s.record_error(format!("adding this item makes the {what} {value}, more than its {width} digits hold"));
            }
        };
        let b = self.bundle.as_ref().map(|b| b.totals).unwrap_or_default();
        let c = self.cash_letter.as_ref().map(|c| c.totals).unwrap_or_default();
        let f = self.file;
        over("bundle's item count", b.items + 1, 4);
        over("bundle total amount", b.amount.saturating_add(amount), 12);
        if micr_valid {
            over("bundle's MICR valid total amount", b.micr_valid.saturating_add(amount), 12);
        }
        over("bundle's image count", b.images + images, 5);
        over("cash letter's item count", c.items + 1, 8);
        over("cash letter total amount", c.amount.saturating_add(amount), 14);
        over("cash letter's image count", c.images + images, 9);
        over("file's item count", f.items + 1, 8);
        over("file total amount", f.amount.saturating_add(amount), 16);
        // Leave room for the controls still to come (bundle, cash letter, file).
        over("file's record count", self.records + records + 3, 8);
    }
}
