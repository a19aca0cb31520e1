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
//! - [`find`]: the check found in a photo (its four corners) and straightened to a rectangle.
//! - [`micr`]: the MICR line read from the picture (E-13B characters with a confidence each, the
//!   routing number checked by its ABA check digit, account, check number, amount), with glyphs
//!   drawn in this crate from the standard.
//! - [`side`]: one side made ready for exchange: quality measured, scaled to 200 dpi of the
//!   check's width, kept as a grayscale JPEG and a G4 TIFF.
//!
//! - [`answer`] (feature `model`): what was found in the API's words.
//!
//! No C library and nothing downloaded at run time.

#[cfg(feature = "model")]
pub mod answer;
pub mod bitonal;
pub mod decode;
pub mod find;
pub mod g4;
pub mod micr;
pub mod quality;
pub mod side;

pub use bitonal::Bitonal;
pub use decode::{decode, DecodeError, Decoded, Limits};
