//! A pull reader: one record at a time, in flat memory (the largest record is the most it
//! holds), validating as it goes.

use std::io::{self, BufReader, Read};

use crate::ebcdic::Encoding;
use crate::error::{Error, Problem, RecordNumber};
use crate::field::{latin1, Dec, Sink};
use crate::records::{
    self, decode_type, ImageViewData, RawRecord, Record, FIXED_RECORD_LEN, IMAGE_DATA_FIXED, IMAGE_DATA_MIN, MAX_RECORD,
};
use crate::validate::Validator;

/// Reads an X9 file record by record, detecting its encoding from the first record and
/// checking every record (fields, order, counts, totals) as it goes.
///
/// Problems in the content do not stop reading: they are collected (see
/// [`problems`](Reader::problems), [`finish`](Reader::finish)). Only a file that cannot be
/// framed any further (a truncated length prefix or record) stops it, with an
/// [`Error::Structure`] naming the record.
///
/// ```
/// # fn main() -> Result<(), moneydesk_x9::Error> {
/// # let bytes = moneydesk_x9::example_file();
/// use moneydesk_x9::{Reader, Record};
/// let mut reader = Reader::new(&bytes[..]);
/// let mut total = 0;
/// while let Some((_number, record)) = reader.next_record()? {
///     if let Record::CheckDetail(check) = record {
///         total += check.item_amount;
///     }
/// }
/// assert!(reader.finish().is_empty());
/// assert_eq!(total, 12_345);
/// # Ok(()) }
/// ```
pub struct Reader<R: Read> {
    inner: BufReader<R>,
    encoding: Option<Encoding>,
    number: u64,
    done: bool,
    validator: Validator,
}

impl<R: Read> Reader<R> {
    /// A reader of `inner` (buffered here: no need to wrap it in a `BufReader`).
    pub fn new(inner: R) -> Self {
        Reader { inner: BufReader::new(inner), encoding: None, number: 0, done: false, validator: Validator::new() }
    }

    /// The file's encoding, known once the first record is read.
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
    }

    /// The problems found so far.
    pub fn problems(&self) -> &[Problem] {
        self.validator.problems()
    }

    /// Hands over the problems found so far.
    pub fn take_problems(&mut self) -> Vec<Problem> {
        self.validator.take_problems()
    }

    /// Ends reading: adds the end-of-file checks (a missing file control...) and returns the
    /// problems not yet taken. Call it once [`next_record`](Reader::next_record) has returned
    /// `None`.
    pub fn finish(self) -> Vec<Problem> {
        self.validator.finish()
    }

    /// The next record with its number, or `None` at the end of the file.
    pub fn next_record(&mut self) -> Result<Option<(RecordNumber, Record)>, Error> {
        if self.done {
            return Ok(None);
        }
        let result = self.read_record();
        if !matches!(result, Ok(Some(_))) {
            self.done = true;
        }
        if let Ok(Some((number, record))) = &result {
            self.validator.check(*number, record);
        }
        result
    }

    fn structure(&self, message: impl Into<String>) -> Error {
        Error::Structure { record: RecordNumber(self.number), message: message.into() }
    }

    fn read_record(&mut self) -> Result<Option<(RecordNumber, Record)>, Error> {
        let mut prefix = [0u8; 4];
        let got = fill(&mut self.inner, &mut prefix)?;
        if got == 0 {
            return Ok(None);
        }
        self.number += 1;
        let number = RecordNumber(self.number);
        if got < 4 {
            return Err(self.structure(format!("the file ends inside the record's 4-byte length prefix ({got} bytes)")));
        }
        let len = u32::from_be_bytes(prefix) as usize;
        if len > MAX_RECORD {
            return Err(self.structure(format!(
                "the length prefix says {len} bytes, more than any X9 record ({MAX_RECORD}): the file is corrupt or not X9"
            )));
        }
        let mut frame = Frame { inner: (&mut self.inner).take(len as u64), len };
        let mut head = [b' '; 2];
        let got = frame.read(&mut head[..len.min(2)])?;
        if got < len.min(2) {
            return Err(truncated(number, len, got));
        }
        let encoding = match self.encoding {
            Some(e) => e,
            None => {
                let e = Encoding::detect(head).ok_or_else(|| Error::Structure {
                    record: number,
                    message: format!(
                        "not an X9 file: the first record starts with bytes {:02X} {:02X}, not a file header (\"01\" in ASCII or EBCDIC)",
                        head[0], head[1]
                    ),
                })?;
                self.encoding = Some(e);
                e
            }
        };
        let record_type = decode_type(&head[..len.min(2)], encoding);
        let mut problems = Vec::new();
        let mut sink = Sink { record: number, record_type: &record_type, problems: &mut problems };
        let record = if record_type == "52" {
            read_image_data(&mut frame, encoding, &mut sink, number)?
        } else {
            let mut bytes = vec![0u8; len];
            bytes[..2.min(len)].copy_from_slice(&head[..2.min(len)]);
            let got = frame.read(&mut bytes[2.min(len)..])?;
            if got < len.saturating_sub(2) {
                return Err(truncated(number, len, got + 2));
            }
            if records::is_fixed_type(&record_type) {
                if len != FIXED_RECORD_LEN {
                    sink.record_error(format!(
                        "the record is {len} bytes long; type {record_type} records are {FIXED_RECORD_LEN}"
                    ));
                }
                let mut text = bytes;
                encoding.decode_in_place(&mut text);
                text.resize(text.len().max(FIXED_RECORD_LEN), b' ');
                records::parse_fixed(&record_type, &text, sink).expect("a fixed type")
            } else {
                Record::Other(RawRecord { record_type: record_type.clone(), bytes, encoding })
            }
        };
        for p in problems {
            self.validator.push(p);
        }
        Ok(Some((number, record)))
    }
}

fn truncated(number: RecordNumber, len: usize, got: usize) -> Error {
    Error::Structure {
        record: number,
        message: format!("the file ends inside the record: its length prefix says {len} bytes, {got} follow"),
    }
}

/// Reads until `buf` is full or the input ends; the count read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// One record's bytes: reads never go past the length its prefix gave, so a record whose
/// inner lengths disagree with it cannot throw the framing of the next ones off.
struct Frame<T: Read> {
    inner: io::Take<T>,
    len: usize,
}

impl<T: Read> Frame<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        fill(&mut self.inner, buf)
    }

    /// True when the record itself ended (rather than the file).
    fn ended(&self) -> bool {
        self.inner.limit() == 0
    }

    fn consumed(&self) -> usize {
        self.len - self.inner.limit() as usize
    }
}

/// Reads a type 52 in pieces: the fixed fields, then each variable-length field, the image
/// data straight into its own buffer (no copy of the largest part of the file).
fn read_image_data<T: Read>(
    frame: &mut Frame<T>,
    encoding: Encoding,
    sink: &mut Sink,
    number: RecordNumber,
) -> Result<Record, Error> {
    let len = frame.len;
    let mut reported = len < IMAGE_DATA_MIN;
    if reported {
        sink.record_error(format!("the record is {len} bytes long; a type 52 record is at least {IMAGE_DATA_MIN}"));
    }
    // A short piece is the record's own fault when the record ended, the file's otherwise.
    let mut short = |frame: &Frame<T>, got: usize, want: usize, sink: &mut Sink| -> Result<(), Error> {
        if got < want {
            if !frame.ended() {
                return Err(truncated(number, len, frame.consumed()));
            }
            if !reported {
                reported = true;
                sink.record_error(format!("the record ends before its image data is complete ({len} bytes)"));
            }
        }
        Ok(())
    };
    let mut text = [b' '; IMAGE_DATA_FIXED];
    text[..2].copy_from_slice(b"52");
    let got = frame.read(&mut text[2..])?;
    short(frame, got, IMAGE_DATA_FIXED - 2, sink)?;
    encoding.decode_in_place(&mut text[2..2 + got]);
    let (mut data, key_len) = ImageViewData::parse_fixed(&mut Dec::new(&text, sink.reborrow()));

    let mut key = vec![0u8; key_len];
    let got = frame.read(&mut key)?;
    short(frame, got, key_len, sink)?;
    key.truncate(got);
    encoding.decode_in_place(&mut key);
    data.image_reference_key = latin1(&key);

    let sig_len = read_length(frame, encoding, sink, "Length of Digital Signature", 5)?;
    short(frame, sig_len.1, 5, sink)?;
    data.digital_signature = read_bytes(frame, sig_len.0)?;
    short(frame, data.digital_signature.len(), sig_len.0, sink)?;

    let data_len = read_length(frame, encoding, sink, "Length of Image Data", 7)?;
    short(frame, data_len.1, 7, sink)?;
    data.image_data = read_bytes(frame, data_len.0)?;
    short(frame, data.image_data.len(), data_len.0, sink)?;

    let rest = io::copy(&mut frame.inner, &mut io::sink())?;
    if rest > 0 {
        sink.record_error(format!(
            "{rest} bytes follow the image data inside the record (its length prefix says {len})"
        ));
    } else if frame.consumed() < len {
        return Err(truncated(number, len, frame.consumed()));
    }
    Ok(Record::ImageViewData(data))
}

/// A length field of a type 52: its value and how many of its bytes were there.
fn read_length<T: Read>(
    frame: &mut Frame<T>,
    encoding: Encoding,
    sink: &mut Sink,
    field: &'static str,
    width: usize,
) -> Result<(usize, usize), Error> {
    let mut text = [b' '; 9];
    let got = frame.read(&mut text[2..2 + width])?;
    if got < width {
        return Ok((0, got));
    }
    encoding.decode_in_place(&mut text[2..2 + width]);
    let value = Dec::new(&text[..2 + width], sink.reborrow()).num(field, width) as usize;
    Ok((value, got))
}

/// Reads up to `len` bytes, growing the buffer as they come (a corrupt length cannot make
/// it allocate more than the record holds).
fn read_bytes<T: Read>(frame: &mut Frame<T>, len: usize) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(len.min(frame.inner.limit() as usize));
    (&mut frame.inner).take(len as u64).read_to_end(&mut out)?;
    Ok(out)
}
