//! What is done to a picture of a check, in one crate the server uses natively (and the
//! portal's scanning worker will use compiled to wasm, so both read a check the same way):
//!
//! - [`decode`]: JPEG, PNG or TIFF proven by decoding, with limits on bytes, sides and memory
//!   checked before any pixel is decoded (a decompression bomb costs nothing), and a floor on
//!   the size a check can be shown at.
//! - [`Bitonal`]: grayscale to black and white (Otsu's threshold), the form check images are
//!   exchanged in.
//! - [`g4`]: a bitonal image as a CCITT Group 4 TIFF in the X9.100-181 profile (single strip,
//!   little-endian, WhiteIsZero, 200 dpi by default), the image format of Check 21 files.
//!
//! No C library and nothing downloaded at run time.

pub mod bitonal;
pub mod decode;
pub mod g4;
pub mod quality;

pub use bitonal::Bitonal;
pub use decode::{decode, Decoded, DecodeError, Limits};
