//! Loading a whole directory (both files, or the demo) into a new [`Directory`]. Either the
//! whole load succeeds or it fails with a [`LoadError`] naming the directory, the file, the
//! line and what is wrong; the caller keeps serving the previous directory then.

use std::fmt;
use std::path::{Path, PathBuf};

use moneydesk_model::routing::{AchParticipant, DirectoryFormat, DirectorySource, WireParticipant};

use super::demo;
use super::index::{duplicate, Directory, PartInfo};
use super::parse::{parse_ach, parse_wire, Parsed};
use super::validate::RecordError;

/// The configured files. With neither set, the embedded demo directory is served; with one
/// set, the other directory is empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    pub fedach: Option<PathBuf>,
    pub fedwire: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// "FedACH" or "Fedwire".
    pub directory: &'static str,
    /// The file name (not its full path), or "demo".
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{} file {} line {line}: {}", self.directory, self.file, self.message),
            None => write!(f, "{} file {}: {}", self.directory, self.file, self.message),
        }
    }
}

impl std::error::Error for LoadError {}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| p.display().to_string())
}

fn read<T>(
    directory: &'static str,
    path: &Path,
    parse: fn(&[u8]) -> Result<Parsed<T>, RecordError>,
    rn: fn(&T) -> &str,
) -> Result<(Vec<T>, PartInfo), LoadError> {
    let file = file_name(path);
    let err = |line, message: String| LoadError { directory, file: file.clone(), line, message };
    let bytes = std::fs::read(path).map_err(|e| err(None, format!("cannot read {}: {e}", path.display())))?;
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let parsed = parse(&bytes).map_err(|e| err(e.line, e.message))?;
    if let Some((first, again)) = duplicate(&parsed.records, rn) {
        let r = rn(&parsed.records[again]);
        return Err(err(None, format!("routing number {r} appears twice (records {} and {})", first + 1, again + 1)));
    }
    Ok((parsed.records, PartInfo { format: parsed.format, file: Some(file), modified, sha256: Some(digest(&bytes)) }))
}

fn none() -> PartInfo {
    PartInfo { format: DirectoryFormat::None, file: None, modified: None, sha256: None }
}

fn ach_rn(r: &AchParticipant) -> &str {
    &r.routing_number
}

fn wire_rn(r: &WireParticipant) -> &str {
    &r.routing_number
}

/// Reads and indexes the configured directory (blocking: run it off the async threads).
pub fn load(sources: &Sources) -> Result<Directory, LoadError> {
    if sources.fedach.is_none() && sources.fedwire.is_none() {
        return Ok(load_demo());
    }
    let (ach, ach_info) = match &sources.fedach {
        Some(p) => read("FedACH", p, parse_ach, ach_rn)?,
        None => (Vec::new(), none()),
    };
    let (wire, wire_info) = match &sources.fedwire {
        Some(p) => read("Fedwire", p, parse_wire, wire_rn)?,
        None => (Vec::new(), none()),
    };
    Ok(Directory::build(DirectorySource::Files, ach, wire, ach_info, wire_info))
}

/// The embedded demo directory (generated, parsed like a real file).
pub fn load_demo() -> Directory {
    let (ach_text, wire_text) = (demo::fedach(), demo::fedwire());
    let ach = parse_ach(ach_text.as_bytes()).expect("the demo FedACH directory parses").records;
    let wire = parse_wire(wire_text.as_bytes()).expect("the demo Fedwire directory parses").records;
    let info = |text: &str| PartInfo {
        format: DirectoryFormat::Demo,
        file: None,
        modified: None,
        sha256: Some(digest(text.as_bytes())),
    };
    Directory::build(DirectorySource::Demo, ach, wire, info(&ach_text), info(&wire_text))
}

/// 16 hex digits of the SHA-256 of `bytes`: which directory an instance serves.
fn digest(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(&sha2::Sha256::digest(bytes)[..8])
}
