//! Check images (CONTRACT.md point 11): base64 with an optional `data:image/...;base64,`
//! prefix; JPEG, PNG or TIFF, proven by decoding; limits on the encoded size (413) and on the
//! dimensions and memory before any pixel is decoded (400), so a decompression bomb costs
//! nothing. Stored in the blob store under their SHA-256, so the same image is kept once.

use base64::Engine;
use image::ImageFormat;
use object_store::path::Path;
use object_store::PutPayload;
use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::storage::blobs::Blobs;

/// Largest decoded image file: 10 MiB (a 200 dpi grayscale check is ~100 KB; a phone photo a
/// few MB).
pub const MAX_IMAGE_BYTES: usize = moneydesk_checkimage::Limits::DEPOSIT.max_bytes;
/// Largest side: 12,000 pixels (a 12-megapixel photo is 4,000 × 3,000).
pub const MAX_SIDE: u32 = moneydesk_checkimage::Limits::DEPOSIT.max_side;

/// A checked image, ready to store.
#[derive(Debug)]
pub struct CheckImage {
    pub bytes: Vec<u8>,
    pub format: ImageFormat,
    pub width: u32,
    pub height: u32,
    pub sha256: String,
}

/// Decodes and checks the image of `field`.
pub fn check(field: &str, text: &str) -> Result<CheckImage, Error> {
    decode(field, text).map(|(image, _)| image)
}

/// Decodes and checks the image of `field`, keeping the picture.
pub fn decode(field: &str, text: &str) -> Result<(CheckImage, image::DynamicImage), Error> {
    let b64 = match text.strip_prefix("data:") {
        Some(rest) => match rest.split_once(',') {
            Some((meta, data)) if meta.starts_with("image/") && meta.ends_with(";base64") => data,
            _ => return Err(Error::field(field, "a data URL must look like data:image/png;base64,...")),
        },
        None => text,
    };
    // Base64 is 4/3 of the bytes: refuse the oversize before decoding it.
    if b64.len() / 4 * 3 > MAX_IMAGE_BYTES + 3 {
        return Err(too_large(field));
    }
    let clean: String = b64.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(clean.as_bytes())
        .map_err(|e| Error::field(field, format!("is not valid base64: {e}")))?;
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(too_large(field));
    }
    // Decoded within the limits by the check-image crate (the scanning issue's too).
    let limits = moneydesk_checkimage::Limits::DEPOSIT;
    let decoded = moneydesk_checkimage::decode(&bytes, limits).map_err(|e| match e {
        moneydesk_checkimage::DecodeError::TooManyBytes(_) => too_large(field),
        e => Error::field(field, e.to_string()),
    })?;
    let (format, width, height) = (decoded.format, decoded.image.width(), decoded.image.height());
    let sha256 = hex::encode(Sha256::digest(&bytes));
    Ok((CheckImage { bytes, format, width, height, sha256 }, decoded.image))
}

fn too_large(field: &str) -> Error {
    let mut e = Error::payload_too_large(format!("{field} is larger than {} MiB", MAX_IMAGE_BYTES / 1024 / 1024));
    e.fields.push(moneydesk_model::FieldError::new(field, "too large"));
    e
}

/// Stores the image under its hash; the path to keep.
pub async fn store(blobs: &Blobs, image: CheckImage) -> Result<String, Error> {
    let ext = match image.format {
        ImageFormat::Jpeg => "jpg",
        ImageFormat::Png => "png",
        _ => "tif",
    };
    let path = format!("deposits/images/{}.{ext}", image.sha256);
    blobs
        .put(&Path::from(path.as_str()), PutPayload::from(image.bytes))
        .await
        .map_err(|e| Error::internal(format_args!("storing a check image: {e}")))?;
    Ok(path)
}

/// The stored image and its media type.
pub async fn load(blobs: &Blobs, path: &str) -> Result<(Vec<u8>, &'static str), Error> {
    let got = blobs.get(&Path::from(path)).await.map_err(|e| match e {
        object_store::Error::NotFound { .. } => Error::not_found("The image is not stored"),
        e => Error::internal(format_args!("reading a check image: {e}")),
    })?;
    let bytes = got.bytes().await.map_err(|e| Error::internal(format_args!("reading a check image: {e}")))?;
    let media = match path.rsplit('.').next() {
        Some("jpg") => "image/jpeg",
        Some("png") => "image/png",
        _ => "image/tiff",
    };
    Ok((bytes.to_vec(), media))
}
