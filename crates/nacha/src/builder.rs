//! Building a file from what the originator knows: who sends it to whom, and batches of
//! entries. The builder fills in everything derived — service class codes, batch numbers,
//! trace numbers, addenda sequence numbers, counts, entry hashes, totals, block count — and
//! refuses input that would not make a valid file, naming the field.
//!
//! Text is trimmed and uppercased (many banks reject lowercase) and must be printable ASCII
//! that fits its field: the builder never truncates, since a cut name or account number is a
//! different one.

use crate::aba::RoutingNumber;
use crate::error::{BuildError, Location};
use crate::field::{is_printable, Field, ENTRIES};
use crate::input::{BatchInfo, EntryInfo, FileInfo};
use crate::model::{AchFile, Batch, Entry};
use crate::records::{
    addenda_fields as ad, batch_header_fields as bh, entry_field_names, entry_fields as ed, file_header_fields as fh,
    return_addenda_fields as ra, Addenda, BatchControl, BatchHeader, EntryDetail, FileControl, FileHeader, ReturnOrNoc,
    Sec, ServiceClass, TraceNumber, TransactionCode,
};

/// Builds an [`AchFile`] from a [`FileInfo`] and batches of entries.
///
/// Batches are numbered from 1. Trace numbers are the batch's ODFI identification and a
/// sequence running across the whole file (unique in the file, ascending in each batch),
/// starting at 1 or at [`FileBuilder::first_trace_sequence`] — useful when the day has more
/// than one file and returns must still point at exactly one entry.
///
/// ```
/// use moneydesk_nacha::{BatchInfo, Date, EntryInfo, FileBuilder, FileInfo, Sec, TransactionCode};
///
/// let today = Date::from_ymd(2025, 10, 16).unwrap();
/// let mut builder = FileBuilder::new(FileInfo::new("231380104", "121042882", today));
/// let mut pull = EntryInfo::new(TransactionCode::CheckingDebit, "031300012", "744-5678-99", 12_500, "Acme Supplies");
/// pull.addenda = Some("Deposit 2025-10-16 #42".to_string());
/// builder.batch(
///     BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", Date::from_ymd(2025, 10, 17).unwrap(), "121042882"),
///     vec![pull],
/// );
/// let file = builder.build().unwrap();
/// assert_eq!(file.control.total_debit, 12_500);
/// assert_eq!(file.batches[0].entries[0].detail.individual_name, "ACME SUPPLIES");
/// let text = moneydesk_nacha::write(&file).unwrap();
/// assert_eq!(text.lines().count(), 10);
/// ```
#[derive(Debug, Clone)]
pub struct FileBuilder {
    info: FileInfo,
    batches: Vec<(BatchInfo, Vec<EntryInput>)>,
    first_trace_sequence: u32,
}

/// An entry as given, with the type 99 or 98 addenda of a return or NOC (`return_batch`).
type EntryInput = (EntryInfo, Option<ReturnOrNoc>);

const MAX_ENTRY_AMOUNT: u64 = 9_999_999_999;
const MAX_TOTAL: u64 = 999_999_999_999;
const MAX_SEQUENCE: u32 = 9_999_999;

impl FileBuilder {
    /// A builder for a file with this header and no batches yet.
    pub fn new(info: FileInfo) -> FileBuilder {
        FileBuilder { info, batches: Vec::new(), first_trace_sequence: 1 }
    }

    /// The sequence number of the file's first trace number (default 1).
    pub fn first_trace_sequence(&mut self, sequence: u32) -> &mut FileBuilder {
        self.first_trace_sequence = sequence;
        self
    }

    /// Adds a batch (checked by [`build`](FileBuilder::build)).
    pub fn batch(&mut self, info: BatchInfo, entries: Vec<EntryInfo>) -> &mut FileBuilder {
        self.batches.push((info, entries.into_iter().map(|e| (e, None)).collect()));
        self
    }

    /// Adds a batch of returns or notifications of change as an RDFI sends them back, for
    /// test fixtures: each entry (code 21, 26, 31 or 36) with its type 99 addenda (the batch
    /// keeps the original's SEC code) or type 98 (a COR batch, zero amounts). The addenda's
    /// trace number is set to its entry's.
    pub fn return_batch(&mut self, info: BatchInfo, entries: Vec<(EntryInfo, ReturnOrNoc)>) -> &mut FileBuilder {
        self.batches.push((info, entries.into_iter().map(|(e, r)| (e, Some(r))).collect()));
        self
    }

    /// The file, or the first input refused.
    pub fn build(&self) -> Result<AchFile, BuildError> {
        let header = file_header(&self.info)?;
        let mut batches = Vec::with_capacity(self.batches.len());
        let mut sequence = self.first_trace_sequence;
        for (index, (info, entries)) in self.batches.iter().enumerate() {
            batches.push(batch(index, info, entries, &mut sequence)?);
        }
        let mut file = AchFile {
            header,
            batches,
            control: FileControl {
                batch_count: 0,
                block_count: 0,
                entry_addenda_count: 0,
                entry_hash: 0,
                total_debit: 0,
                total_credit: 0,
            },
        };
        let file_error =
            |field: Field, message: String| BuildError { location: Location::File, field: field.name, message };
        let too_many = |what: &str, count: u64, max: u64| format!("{count} {what}; a file holds at most {max}");
        let batch_count = file.batches.len() as u64;
        if batch_count > 999_999 {
            return Err(file_error(bh::BATCH_NUMBER, too_many("batches", batch_count, 999_999)));
        }
        let count = file.entry_addenda_count();
        if count > 99_999_999 {
            return Err(file_error(ed::TRACE_NUMBER, too_many("entry and addenda records", count, 99_999_999)));
        }
        let (debit, credit) = (file.total_debit(), file.total_credit());
        if debit.max(credit) > MAX_TOTAL {
            let message = format!("the file's totals ({debit} debit, {credit} credit cents) exceed 12 digits");
            return Err(file_error(ed::AMOUNT, message));
        }
        // The block count is at most a tenth of the record count, so it fits when that does.
        file.control = FileControl {
            batch_count: batch_count as u32,
            block_count: file.block_count() as u32,
            entry_addenda_count: count as u32,
            entry_hash: file.entry_hash(),
            total_debit: debit,
            total_credit: credit,
        };
        Ok(file)
    }
}

/// Checks one text input: trimmed, uppercased, printable ASCII, fits, and present if required.
struct Text {
    location: Location,
}

impl Text {
    fn at(location: Location) -> Self {
        Text { location }
    }

    fn error(&self, field: Field, message: String) -> BuildError {
        BuildError { location: self.location, field: field.name, message }
    }

    fn optional(&self, field: Field, value: &str) -> Result<String, BuildError> {
        let value = value.trim().to_ascii_uppercase();
        if let Some(c) = value.chars().find(|&c| !is_printable(c)) {
            return Err(self.error(field, format!("{c:?} is not printable ASCII")));
        }
        if value.len() > field.len {
            let message = format!("{value:?} is {} characters; the field holds {}", value.len(), field.len);
            return Err(self.error(field, message));
        }
        Ok(value)
    }

    fn required(&self, field: Field, value: &str) -> Result<String, BuildError> {
        let value = self.optional(field, value)?;
        if value.is_empty() {
            return Err(self.error(field, "is required".to_string()));
        }
        Ok(value)
    }

    fn routing(&self, field: Field, value: &str) -> Result<RoutingNumber, BuildError> {
        RoutingNumber::parse(value.trim()).map_err(|e| self.error(field, e.to_string()))
    }
}

fn file_header(info: &FileInfo) -> Result<FileHeader, BuildError> {
    let t = Text::at(Location::File);
    let destination = t.routing(fh::IMMEDIATE_DESTINATION, &info.immediate_destination)?;
    let origin = info.immediate_origin.trim();
    let immediate_origin = if origin.len() == 10 && origin.bytes().all(|b| b.is_ascii_digit()) {
        origin.to_string()
    } else {
        format!(" {}", t.routing(fh::IMMEDIATE_ORIGIN, origin)?)
    };
    let modifier = info.file_id_modifier.to_ascii_uppercase();
    if !(modifier.is_ascii_uppercase() || modifier.is_ascii_digit()) {
        let message = format!("must be a letter A–Z or a digit, not {modifier:?}");
        return Err(t.error(fh::FILE_ID_MODIFIER, message));
    }
    Ok(FileHeader {
        immediate_destination: format!(" {destination}"),
        immediate_origin,
        file_creation_date: info.creation_date,
        file_creation_time: info.creation_time,
        file_id_modifier: modifier,
        immediate_destination_name: t.optional(fh::IMMEDIATE_DESTINATION_NAME, &info.immediate_destination_name)?,
        immediate_origin_name: t.optional(fh::IMMEDIATE_ORIGIN_NAME, &info.immediate_origin_name)?,
        reference_code: t.optional(fh::REFERENCE_CODE, &info.reference_code)?,
    })
}

fn batch(index: usize, info: &BatchInfo, entries: &[EntryInput], sequence: &mut u32) -> Result<Batch, BuildError> {
    let t = Text::at(Location::Batch { batch: index });
    let odfi = t.routing(bh::ORIGINATING_DFI, &info.odfi_routing)?.dfi_identification();
    if entries.is_empty() {
        return Err(t.error(ENTRIES, "a batch must hold at least one entry".to_string()));
    }
    let batch_number = u32::try_from(index + 1).ok().filter(|&n| n <= MAX_SEQUENCE);
    let batch_number = batch_number.ok_or_else(|| t.error(bh::BATCH_NUMBER, "more than 9 999 999 batches".into()))?;
    let debits = entries.iter().any(|(e, _)| e.transaction_code.is_debit());
    let credits = entries.iter().any(|(e, _)| e.transaction_code.is_credit());
    let service_class = match (debits, credits) {
        (true, false) => ServiceClass::DebitsOnly,
        (false, true) => ServiceClass::CreditsOnly,
        _ => ServiceClass::Mixed,
    };
    let header = BatchHeader {
        service_class,
        company_name: t.required(bh::COMPANY_NAME, &info.company_name)?,
        company_discretionary_data: t.optional(bh::COMPANY_DISCRETIONARY_DATA, &info.company_discretionary_data)?,
        company_identification: t.required(bh::COMPANY_IDENTIFICATION, &info.company_identification)?,
        sec: info.sec,
        company_entry_description: t.required(bh::COMPANY_ENTRY_DESCRIPTION, &info.company_entry_description)?,
        company_descriptive_date: t.optional(bh::COMPANY_DESCRIPTIVE_DATE, &info.company_descriptive_date)?,
        effective_entry_date: info.effective_entry_date,
        settlement_date: String::new(),
        originator_status_code: 1,
        originating_dfi: odfi,
        batch_number,
    };
    let mut built = Vec::with_capacity(entries.len());
    for (entry_index, (input, returned)) in entries.iter().enumerate() {
        let location = Location::Entry { batch: index, entry: entry_index };
        built.push(entry(location, (input, returned.as_ref()), info.sec, odfi, sequence)?);
    }
    let mut batch = Batch {
        control: BatchControl {
            service_class,
            entry_addenda_count: 0,
            entry_hash: 0,
            total_debit: 0,
            total_credit: 0,
            company_identification: header.company_identification.clone(),
            message_authentication_code: String::new(),
            originating_dfi: odfi,
            batch_number,
        },
        header,
        entries: built,
    };
    let count = batch.entry_addenda_count();
    if count > 999_999 {
        return Err(
            t.error(ed::TRACE_NUMBER, format!("{count} entry and addenda records; a batch holds at most 999999"))
        );
    }
    let (debit, credit) = (batch.total_debit(), batch.total_credit());
    if debit.max(credit) > MAX_TOTAL {
        let message = format!("the batch's totals ({debit} debit, {credit} credit cents) exceed 12 digits");
        return Err(t.error(ed::AMOUNT, message));
    }
    batch.control.entry_addenda_count = count as u32;
    batch.control.entry_hash = batch.entry_hash();
    batch.control.total_debit = debit;
    batch.control.total_credit = credit;
    Ok(batch)
}

fn entry(
    location: Location,
    (input, returned): (&EntryInfo, Option<&ReturnOrNoc>),
    sec: Sec,
    odfi: u32,
    sequence: &mut u32,
) -> Result<Entry, BuildError> {
    let t = Text::at(location);
    let routing = t.routing(ed::RECEIVING_DFI, &input.routing_number)?;
    let code = input.transaction_code;
    if input.amount > MAX_ENTRY_AMOUNT {
        let message = format!("{} cents is more than an entry can carry ($99,999,999.99)", input.amount);
        return Err(t.error(ed::AMOUNT, message));
    }
    if code.is_prenote() && input.amount != 0 {
        return Err(t.error(ed::AMOUNT, format!("a prenote ({}) carries a zero amount", code.code())));
    }
    let noc = matches!(returned, Some(ReturnOrNoc::Noc(_)));
    if noc && input.amount != 0 {
        return Err(t.error(ed::AMOUNT, format!("is {}; a notification of change carries none", input.amount)));
    }
    if !code.is_prenote() && !noc && input.amount == 0 {
        let message = format!("is zero; only prenotes carry no money (use {} for a prenote)", prenote_of(code).code());
        return Err(t.error(ed::AMOUNT, message));
    }
    if *sequence > MAX_SEQUENCE {
        return Err(t.error(ed::TRACE_NUMBER, format!("trace sequence {} exceeds seven digits", *sequence)));
    }
    let (id_field, name_field) = entry_field_names(sec);
    let trace_number = TraceNumber { odfi, sequence: *sequence };
    *sequence += 1;
    let addenda = match &input.addenda {
        None => Vec::new(),
        Some(text) => vec![Addenda {
            payment_related_information: t.optional(ad::PAYMENT_RELATED_INFORMATION, text)?,
            sequence_number: 1,
            entry_detail_sequence_number: trace_number.sequence,
        }],
    };
    let return_or_noc = return_or_noc(&t, code, returned, sec, trace_number)?;
    if !addenda.is_empty() && !return_or_noc.is_empty() {
        return Err(
            t.error(ad::PAYMENT_RELATED_INFORMATION, "a return or notification of change has no other addenda".into())
        );
    }
    let detail = EntryDetail {
        transaction_code: code,
        receiving_dfi: routing.dfi_identification(),
        check_digit: routing.check_digit(),
        dfi_account_number: t.required(ed::DFI_ACCOUNT_NUMBER, &input.account_number)?,
        amount: input.amount,
        individual_id: t.optional(id_field, &input.individual_id)?,
        individual_name: t.required(name_field, &input.individual_name)?,
        discretionary_data: t.optional(ed::DISCRETIONARY_DATA, &input.discretionary_data)?,
        addenda_record_indicator: !addenda.is_empty() || !return_or_noc.is_empty(),
        trace_number,
    };
    Ok(Entry { detail, addenda, return_or_noc })
}

/// The type 99 or 98 addenda of a return or notification of change (for test fixtures: the
/// server only reads them): checked against the entry and given its trace number.
fn return_or_noc(
    t: &Text,
    code: TransactionCode,
    given: Option<&ReturnOrNoc>,
    sec: Sec,
    trace: TraceNumber,
) -> Result<Vec<ReturnOrNoc>, BuildError> {
    let Some(given) = given else {
        if code.is_return() {
            let message = format!("{} is a return's code: add it with its addenda (return_batch)", code.code());
            return Err(t.error(ed::TRANSACTION_CODE, message));
        }
        return Ok(Vec::new());
    };
    if !code.is_return() {
        let message = format!("{} is not a return's code (21, 26, 31, 36), yet has a return addenda", code.code());
        return Err(t.error(ed::TRANSACTION_CODE, message));
    }
    let mut addenda = given.clone();
    match &mut addenda {
        ReturnOrNoc::Return(a) => {
            if sec == Sec::Cor || crate::return_reason(&a.return_reason_code).is_none() {
                let message = format!("{:?} in a {} batch", a.return_reason_code, sec.code());
                return Err(t.error(ra::RETURN_REASON_CODE, message + ": a return reason code (R01–R85), not in COR"));
            }
            a.addenda_information = t.optional(ra::ADDENDA_INFORMATION, &a.addenda_information)?;
        }
        ReturnOrNoc::Noc(a) => {
            if sec != Sec::Cor || crate::change_code(&a.change_code).is_none() {
                let message = format!("{:?} in a {} batch", a.change_code, sec.code());
                return Err(t.error(ra::CHANGE_CODE, message + ": a change code (C01–C14), in a COR batch"));
            }
            a.corrected_data = t.required(ra::CORRECTED_DATA, &a.corrected_data)?;
        }
    }
    addenda.set_trace_number(trace);
    Ok(vec![addenda])
}

fn prenote_of(code: TransactionCode) -> TransactionCode {
    TransactionCode::from_code(code.code() + 1).unwrap_or(code)
}
