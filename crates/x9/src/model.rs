//! A whole file in memory, for a viewer: cash letters, bundles, items and their images,
//! built from the reader's records; and the item the writer takes.

use std::io::Write;

use crate::ebcdic::Encoding;
use crate::error::{Error, Problem, RecordNumber, Severity};
use crate::reader::Reader;
use crate::records::{
    BundleControl, BundleHeader, CashLetterControl, CashLetterHeader, CheckDetail, CheckDetailAddendumA, FileControl,
    FileHeader, ImageViewData, ImageViewDetail, RawRecord, Record, ReturnAddendumA, ReturnAddendumB, ReturnAddendumD,
    ReturnRecord,
};
use crate::writer::Writer;

/// A file as read: what the reader found, in the file's order. Controls are as the file
/// states them (the problems say where they are wrong).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct File {
    /// `None` when not even the first record could be read.
    pub encoding: Option<Encoding>,
    pub header: Option<FileHeader>,
    pub cash_letters: Vec<CashLetter>,
    pub control: Option<FileControl>,
    /// Records of the types this crate keeps raw (user records, addenda B and C, return
    /// addenda C, image view analysis...), with their numbers.
    pub other_records: Vec<(RecordNumber, RawRecord)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashLetter {
    /// The number of its header record.
    pub record: RecordNumber,
    pub header: CashLetterHeader,
    pub bundles: Vec<Bundle>,
    pub control: Option<CashLetterControl>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// The number of its header record.
    pub record: RecordNumber,
    pub header: BundleHeader,
    /// The checks (type 25) of a forward presentment bundle.
    pub items: Vec<Item>,
    /// The returned items (type 31) of a return bundle (collection type 03 to 06).
    pub returns: Vec<ReturnItem>,
    pub control: Option<BundleControl>,
}

/// One check: its detail record, addenda A and images. The unit the
/// [`Writer`](crate::Writer) takes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Item {
    /// The number of its check detail record in the file read; ignored by the writer.
    pub record: RecordNumber,
    pub detail: CheckDetail,
    pub addenda: Vec<CheckDetailAddendumA>,
    pub images: Vec<Image>,
}

/// One returned item: its return record, addenda A (the bank of first deposit's endorsement,
/// which names the deposit returned), addendum B (the payor bank's data), addenda D (the
/// endorsements of the banks it went through) and images. The unit
/// [`Writer::add_return`](crate::Writer::add_return) takes. Return addenda C (type 34) are
/// kept raw, in [`File::other_records`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReturnItem {
    /// The number of its return record in the file read, for messages; ignored by the writer.
    pub record: RecordNumber,
    pub detail: ReturnRecord,
    pub addenda_a: Vec<ReturnAddendumA>,
    pub addendum_b: Option<ReturnAddendumB>,
    pub addenda_d: Vec<ReturnAddendumD>,
    pub images: Vec<Image>,
}

/// One view of a check: the image view detail and the image view data after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub detail: ImageViewDetail,
    /// `None` only in a file read whose image view detail had no image view data after it.
    pub data: Option<ImageViewData>,
}

impl Image {
    pub fn new(detail: ImageViewDetail, data: ImageViewData) -> Self {
        Image { detail, data: Some(data) }
    }

    /// The image's bytes (a TIFF, usually), if it has any.
    pub fn bytes(&self) -> Option<&[u8]> {
        self.data.as_ref().map(|d| d.image_data.as_slice())
    }

    /// True for the back of the check.
    pub fn is_back(&self) -> bool {
        self.detail.view_side_indicator == '1'
    }
}

/// Reads a whole file into memory, with every problem found; for a viewer.
///
/// A file that breaks off (a truncated length prefix or record) gives what was read before
/// the break, and a problem naming the record where it happened.
///
/// ```
/// let bytes = moneydesk_x9::example_file();
/// let (file, problems) = moneydesk_x9::read_file(&bytes);
/// assert!(problems.is_empty());
/// let item = &file.cash_letters[0].bundles[0].items[0];
/// assert_eq!(item.detail.item_amount, 12_345);
/// assert_eq!(item.images[0].bytes(), Some(&b"II*\0 not really a tiff"[..]));
/// ```
pub fn read_file(bytes: &[u8]) -> (File, Vec<Problem>) {
    let mut reader = Reader::new(bytes);
    let mut file = File::default();
    let broke = loop {
        match reader.next_record() {
            Ok(Some((number, record))) => file.push(number, record),
            Ok(None) => break None,
            Err(e) => break Some(e),
        }
    };
    file.encoding = reader.encoding();
    let problems = match broke {
        None => reader.finish(),
        Some(e) => {
            // The end-of-file checks would only repeat that the file is cut short.
            let mut problems = reader.take_problems();
            let (record, message) = match e {
                Error::Structure { record, message } => (record, message),
                other => (RecordNumber(0), other.to_string()),
            };
            problems.push(Problem {
                severity: Severity::Error,
                record,
                record_type: String::new(),
                field: None,
                message,
            });
            problems
        }
    };
    (file, problems)
}

impl Bundle {
    /// The images of the bundle's last item, check or return: the one the last record read
    /// belongs to (a bundle holds one kind or the other).
    fn last_images(&mut self) -> Option<&mut Vec<Image>> {
        let check = self.items.last().map(|i| i.record);
        let returned = self.returns.last().map(|r| r.record);
        if returned > check {
            self.returns.last_mut().map(|r| &mut r.images)
        } else {
            self.items.last_mut().map(|i| &mut i.images)
        }
    }
}

impl File {
    fn push(&mut self, number: RecordNumber, record: Record) {
        // Records out of place (already reported) go to the nearest container there is.
        let cash_letter = self.cash_letters.last_mut();
        let bundle = cash_letter.and_then(|c| c.bundles.last_mut());
        match record {
            Record::FileHeader(h) => {
                self.header.get_or_insert(h);
            }
            Record::CashLetterHeader(header) => {
                self.cash_letters.push(CashLetter { record: number, header, bundles: Vec::new(), control: None });
            }
            Record::BundleHeader(header) => {
                if let Some(c) = self.cash_letters.last_mut() {
                    let returns = Vec::new();
                    c.bundles.push(Bundle { record: number, header, items: Vec::new(), returns, control: None });
                }
            }
            Record::CheckDetail(detail) => {
                if let Some(b) = bundle {
                    b.items.push(Item { record: number, detail, ..Item::default() });
                }
            }
            Record::CheckDetailAddendumA(a) => {
                if let Some(item) = bundle.and_then(|b| b.items.last_mut()) {
                    item.addenda.push(a);
                }
            }
            Record::ReturnRecord(detail) => {
                if let Some(b) = bundle {
                    b.returns.push(ReturnItem { record: number, detail, ..ReturnItem::default() });
                }
            }
            Record::ReturnAddendumA(a) => {
                if let Some(item) = bundle.and_then(|b| b.returns.last_mut()) {
                    item.addenda_a.push(a);
                }
            }
            Record::ReturnAddendumB(a) => {
                if let Some(item) = bundle.and_then(|b| b.returns.last_mut()) {
                    item.addendum_b.get_or_insert(a);
                }
            }
            Record::ReturnAddendumD(a) => {
                if let Some(item) = bundle.and_then(|b| b.returns.last_mut()) {
                    item.addenda_d.push(a);
                }
            }
            Record::ImageViewDetail(detail) => {
                if let Some(images) = bundle.and_then(Bundle::last_images) {
                    images.push(Image { detail, data: None });
                }
            }
            Record::ImageViewData(data) => {
                let image = bundle.and_then(Bundle::last_images).and_then(|i| i.last_mut());
                if let Some(image) = image.filter(|i| i.data.is_none()) {
                    image.data = Some(data);
                }
            }
            Record::BundleControl(c) => {
                if let Some(b) = bundle {
                    b.control = Some(c);
                }
            }
            Record::CashLetterControl(c) => {
                if let Some(cl) = self.cash_letters.last_mut() {
                    cl.control = Some(c);
                }
            }
            Record::FileControl(c) => self.control = Some(c),
            Record::Other(raw) => self.other_records.push((number, raw)),
        }
    }

    /// All items, in file order.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.cash_letters.iter().flat_map(|c| &c.bundles).flat_map(|b| &b.items)
    }

    /// All returned items, in file order (to match each to the deposit it returns).
    pub fn return_items(&self) -> impl Iterator<Item = &ReturnItem> {
        self.cash_letters.iter().flat_map(|c| &c.bundles).flat_map(|b| &b.returns)
    }

    /// Writes this file anew with [`Writer`]: the counts and totals of its controls are
    /// computed again, their other fields kept. Records kept raw cannot be written; a file
    /// holding any is refused.
    pub fn write_to<W: Write>(&self, out: W, encoding: Encoding) -> Result<W, Error> {
        if let Some((number, _)) = self.other_records.first() {
            return Err(Error::Order(format!("{number} is of a type this crate keeps raw and cannot write")));
        }
        let header = self.header.as_ref().ok_or_else(|| Error::Order("the file has no header".into()))?;
        let mut w = Writer::new(out, encoding, header)?;
        for cl in &self.cash_letters {
            w.start_cash_letter(&cl.header)?;
            for b in &cl.bundles {
                w.start_bundle(&b.header)?;
                for item in &b.items {
                    w.add_item(item)?;
                }
                for item in &b.returns {
                    w.add_return(item)?;
                }
                w.finish_bundle()?;
            }
            w.finish_cash_letter(cl.control.clone().unwrap_or_default())?;
        }
        w.finish(self.control.clone().unwrap_or_default())
    }
}
