//! Reading a file: split it into 94-character records, follow the record structure (file
//! header, batches of entries and addenda, file control, padding), read every field, then
//! check the file as a whole (`validate`).
//!
//! Problems are collected, not returned one at a time, because the portal shows them all.
//! Reading stops only where going on would mean guessing: a line that is not 94 characters
//! (every later field position would be suspect) or a record the structure does not allow
//! (an unknown record type, an entry outside a batch, a missing control).

use std::io::{self, Read};

use crate::error::{Problem, ProblemKind};
use crate::field::{is_printable, RecordReader, Unreliable, RECORD_LEN, RECORD_TYPE};
use crate::model::{AchFile, Batch, Entry, BLOCKING_FACTOR};
use crate::records::{
    Addenda, BatchControl, BatchHeader, EntryDetail, FileControl, FileHeader, RecordType, ReturnOrNoc,
};
use crate::validate;

/// What reading a file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The file, unless a fatal problem stopped reading. Where a field has a problem the model
    /// holds a placeholder for it (0, blank, a default code), so a file with problems is for
    /// showing, not for sending on.
    pub file: Option<AchFile>,
    /// Every problem, in line order. When reading stopped, the last one is the fatal one.
    pub problems: Vec<Problem>,
}

impl Parsed {
    /// A file was read and nothing is wrong with it.
    pub fn is_valid(&self) -> bool {
        self.file.is_some() && self.problems.is_empty()
    }

    /// The problem that stopped reading, if one did.
    pub fn fatal(&self) -> Option<&Problem> {
        self.problems.iter().find(|p| p.kind.is_fatal())
    }
}

/// Reads a NACHA file from text. Lines may end in "\n" or "\r\n" (the last one may have no
/// ending); a file with no line breaks at all is read as consecutive 94-character records.
///
/// ```
/// # use moneydesk_nacha::{BatchInfo, Date, EntryInfo, FileBuilder, FileInfo, Sec, TransactionCode};
/// # let date = Date::from_ymd(2025, 10, 16).unwrap();
/// # let mut builder = FileBuilder::new(FileInfo::new("231380104", "121042882", date));
/// # let entry = EntryInfo::new(TransactionCode::CheckingDebit, "031300012", "744567899", 12_500, "ACME SUPPLIES");
/// # builder.batch(BatchInfo::new(Sec::Ccd, "MONEYDESK", "1234567890", "DEPOSIT", date, "121042882"), vec![entry]);
/// # let file = builder.build().unwrap();
/// let text = moneydesk_nacha::write(&file).unwrap();
/// let parsed = moneydesk_nacha::parse(&text);
/// assert!(parsed.is_valid());
/// assert_eq!(parsed.file, Some(file));
///
/// // A damaged copy: every problem comes back with its line, record and field.
/// let damaged = text.replacen("0000012500", "0000012600", 1);
/// let parsed = moneydesk_nacha::parse(&damaged);
/// for problem in &parsed.problems {
///     println!("{problem}"); // e.g. "line 4 (batch control), Total Debit Entry Dollar Amount: …"
/// }
/// assert!(parsed.problems.iter().any(|p| p.line == 4 && p.field == "Total Debit Entry Dollar Amount"));
/// ```
pub fn parse(input: &str) -> Parsed {
    let mut state = State::default();
    let lines = split_records(input);
    match state.read(&lines) {
        Ok(file) => {
            validate::check(&file, &state.unreliable, &mut state.problems);
            state.problems.sort_by_key(|p| p.line);
            Parsed { file: Some(file), problems: state.problems }
        }
        Err(fatal) => {
            state.problems.sort_by_key(|p| p.line);
            state.problems.push(fatal);
            Parsed { file: None, problems: state.problems }
        }
    }
}

/// Reads a file from bytes; bytes that are not UTF-8 are reported as characters that are not
/// printable ASCII, like any other non-ASCII character.
pub fn parse_bytes(input: &[u8]) -> Parsed {
    parse(&String::from_utf8_lossy(input))
}

/// Reads a file from a reader (all of it: ACH files are small).
pub fn read<R: Read>(mut input: R) -> io::Result<Parsed> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    Ok(parse_bytes(&bytes))
}

/// The file's records as lines.
fn split_records(input: &str) -> Vec<&str> {
    if !input.contains(['\n', '\r']) {
        let boundaries: Vec<usize> = input.char_indices().map(|(i, _)| i).step_by(RECORD_LEN).collect();
        let chars = input.chars().count();
        if chars > RECORD_LEN && chars.is_multiple_of(RECORD_LEN) {
            // Records back to back with no line breaks, as some systems send them.
            let ends = boundaries.iter().skip(1).copied().chain([input.len()]);
            return boundaries.iter().zip(ends).map(|(&start, end)| &input[start..end]).collect();
        }
    }
    let mut lines: Vec<&str> = input.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

#[derive(Default)]
struct State {
    problems: Vec<Problem>,
    unreliable: Unreliable,
}

/// A batch whose control has not been read yet.
struct OpenBatch {
    header: BatchHeader,
    entries: Vec<Entry>,
}

fn fatal(line: usize, record: Option<RecordType>, field: &'static str, kind: ProblemKind, message: String) -> Problem {
    Problem { line, record, field, kind, message }
}

fn structure(line: usize, record: Option<RecordType>, message: impl Into<String>) -> Problem {
    fatal(line, record, RECORD_TYPE.name, ProblemKind::Structure, message.into())
}

impl State {
    fn read(&mut self, lines: &[&str]) -> Result<AchFile, Problem> {
        let mut header: Option<FileHeader> = None;
        let mut batches: Vec<Batch> = Vec::new();
        let mut open: Option<OpenBatch> = None;
        let mut control: Option<FileControl> = None;
        let mut padding = 0;

        for (index, raw) in lines.iter().enumerate() {
            let lineno = index + 1;
            let code = raw.chars().next().unwrap_or(' ');
            let record = match code {
                '9' if control.is_some() => Some(RecordType::Padding),
                _ => record_type(code),
            };
            let length = raw.chars().count();
            if length != RECORD_LEN {
                let message = format!("is {length} characters long; NACHA records are {RECORD_LEN}");
                return Err(fatal(lineno, record, "Record Length", ProblemKind::LineLength, message));
            }
            // Non-ASCII characters become a control character: slicing by byte stays safe, and
            // the field check reports the field they are in.
            let line: String = raw.chars().map(|c| if c.is_ascii() { c } else { '\u{1a}' }).collect();

            if control.is_some() {
                if code != '9' {
                    return Err(structure(lineno, record, "only padding lines of nines may follow the file control"));
                }
                padding += 1;
                if let Some((i, c)) = line.char_indices().find(|&(_, c)| c != '9') {
                    let message = format!("padding lines are 94 nines; position {} is {c:?}", i + 1);
                    self.problem(lineno, RecordType::Padding, "Padding", ProblemKind::Blocking, message);
                }
                continue;
            }
            let Some(record) = record else {
                let shown = if is_printable(code) { code.to_string() } else { format!("{code:?}") };
                return Err(structure(lineno, None, format!("unknown record type {shown}")));
            };
            if header.is_none() && record != RecordType::FileHeader {
                return Err(structure(lineno, Some(record), "a file must start with a file header (record type 1)"));
            }
            let mut r = RecordReader::new(&line, lineno, record, &mut self.problems, &mut self.unreliable);
            match record {
                RecordType::FileHeader => {
                    if header.is_some() {
                        return Err(structure(lineno, Some(record), "a second file header; one file per input"));
                    }
                    header = Some(FileHeader::read(&mut r));
                }
                RecordType::BatchHeader => {
                    if open.is_some() {
                        let message = "a batch header inside a batch: the batch before it has no batch control";
                        return Err(structure(lineno, Some(record), message));
                    }
                    open = Some(OpenBatch { header: BatchHeader::read(&mut r), entries: Vec::new() });
                }
                RecordType::EntryDetail => {
                    let Some(batch) = open.as_mut() else {
                        return Err(structure(lineno, Some(record), "an entry detail outside a batch"));
                    };
                    let detail = EntryDetail::read(&mut r, batch.header.sec);
                    batch.entries.push(Entry { detail, addenda: Vec::new(), return_or_noc: Vec::new() });
                }
                RecordType::Addenda => {
                    let Some(batch) = open.as_mut() else {
                        return Err(structure(lineno, Some(record), "an addenda record must follow an entry detail"));
                    };
                    let sec = batch.header.sec;
                    let Some(entry) = batch.entries.last_mut() else {
                        return Err(structure(lineno, Some(record), "an addenda record must follow an entry detail"));
                    };
                    // A return's entry (21, 26, 31, 36) takes the layouts of types 99 and 98; any
                    // other addenda is read as type 05, which reports a wrong type code.
                    let returned = entry.detail.transaction_code.is_return();
                    match line.get(1..3) {
                        Some("98" | "99") if returned => entry.return_or_noc.push(ReturnOrNoc::read(&mut r, sec)),
                        _ => entry.addenda.push(Addenda::read(&mut r)),
                    }
                }
                RecordType::BatchControl => {
                    let Some(OpenBatch { header, entries }) = open.take() else {
                        return Err(structure(lineno, Some(record), "a batch control without a batch header"));
                    };
                    batches.push(Batch { header, entries, control: BatchControl::read(&mut r) });
                }
                RecordType::FileControl => {
                    if open.is_some() {
                        let message = "the file control comes inside a batch: the batch has no batch control";
                        return Err(structure(lineno, Some(record), message));
                    }
                    control = Some(FileControl::read(&mut r));
                }
                RecordType::Padding => unreachable!("padding is handled before the match"),
            }
        }

        let last = lines.len();
        let Some(header) = header else {
            return Err(structure(1, None, "the file is empty"));
        };
        if open.is_some() {
            return Err(structure(last, None, "the file ends inside a batch: batch control and file control missing"));
        }
        let Some(control) = control else {
            return Err(structure(last, None, "the file ends without a file control (record type 9)"));
        };
        self.check_blocking(last, padding);
        Ok(AchFile { header, batches, control })
    }

    /// Records come in blocks of ten, the last one filled with padding lines.
    fn check_blocking(&mut self, lines: usize, padding: usize) {
        let record = if padding > 0 { RecordType::Padding } else { RecordType::FileControl };
        if !lines.is_multiple_of(BLOCKING_FACTOR) {
            let message = format!(
                "the file has {lines} lines; it must be padded with lines of nines to a multiple of {BLOCKING_FACTOR}"
            );
            self.problem(lines, record, "Padding", ProblemKind::Blocking, message);
        }
        if padding >= BLOCKING_FACTOR {
            let message = format!("{padding} padding lines: a whole block of padding is one too many");
            self.problem(lines, record, "Padding", ProblemKind::Blocking, message);
        }
    }

    fn problem(&mut self, line: usize, record: RecordType, field: &'static str, kind: ProblemKind, message: String) {
        self.problems.push(Problem { line, record: Some(record), field, kind, message });
    }
}

fn record_type(code: char) -> Option<RecordType> {
    match code {
        '1' => Some(RecordType::FileHeader),
        '5' => Some(RecordType::BatchHeader),
        '6' => Some(RecordType::EntryDetail),
        '7' => Some(RecordType::Addenda),
        '8' => Some(RecordType::BatchControl),
        '9' => Some(RecordType::FileControl),
        _ => None,
    }
}
