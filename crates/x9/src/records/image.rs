//! Type 50 image view detail and type 52 image view data.

use crate::field::{self, Dec, Enc, Kind, Sink};

/// Widths of type 52's variable-length fields' length prefixes bound their content.
pub const MAX_IMAGE_REFERENCE_KEY: usize = 9_999;
pub const MAX_DIGITAL_SIGNATURE: usize = 99_999;
pub const MAX_IMAGE_DATA: usize = 9_999_999;
/// Type 52 up to and including its "Length of Image Reference Key" field.
pub(crate) const IMAGE_DATA_FIXED: usize = 105;
/// The shortest type 52: all three variable fields empty.
pub(crate) const IMAGE_DATA_MIN: usize = IMAGE_DATA_FIXED + 5 + 7;
/// The longest record the standard allows (a type 52 with every variable field full).
pub(crate) const MAX_RECORD: usize = IMAGE_DATA_MIN + MAX_IMAGE_REFERENCE_KEY + MAX_DIGITAL_SIGNATURE + MAX_IMAGE_DATA;

/// Type 50: describes one view (side) of a check's image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageViewDetail {
    /// '0' no image, '1' an image of the actual item, '2' an image but not of the item,
    /// '3' an image of undetermined kind.
    pub image_indicator: char,
    pub image_creator_routing_number: String,
    /// YYYYMMDD.
    pub image_creator_date: String,
    /// "00" TIFF 6, "01" IOCA FS 11, "20" PNG, "21" JFIF, "22" SPIFF, "23" JBIG data stream,
    /// "24" JPEG 2000.
    pub image_view_format_indicator: String,
    /// "00" CCITT Group 4, "01" JPEG baseline, "02" ABIC, "21" PNG, "22" JBIG,
    /// "23" JPEG 2000.
    pub image_view_compression_algorithm: String,
    /// Bytes of image data in the type 52 that follows. The [`Writer`](crate::Writer) sets it.
    pub image_view_data_size: Option<u32>,
    /// '0' front, '1' back.
    pub view_side_indicator: char,
    /// "00" full view; "01".."14" partial views.
    pub view_descriptor: String,
    /// '0' no digital signature, '1' one is present.
    pub digital_signature_indicator: char,
    /// Blank, or "00".."05" (required with a signature).
    pub digital_signature_method: String,
    pub security_key_size: Option<u32>,
    pub start_of_protected_data: Option<u32>,
    pub length_of_protected_data: Option<u32>,
    /// '0' the image can be recreated from the paper, '1' it cannot.
    pub image_recreate_indicator: char,
    pub user_field: String,
    /// X9.100-187 only; blank in X9.37-2003.
    pub override_indicator: char,
}

impl Default for ImageViewDetail {
    fn default() -> Self {
        ImageViewDetail {
            image_indicator: '1',
            image_creator_routing_number: String::new(),
            image_creator_date: String::new(),
            image_view_format_indicator: "00".into(),
            image_view_compression_algorithm: "00".into(),
            image_view_data_size: None,
            view_side_indicator: '0',
            view_descriptor: "00".into(),
            digital_signature_indicator: '0',
            digital_signature_method: String::new(),
            security_key_size: None,
            start_of_protected_data: None,
            length_of_protected_data: None,
            image_recreate_indicator: '0',
            user_field: String::new(),
            override_indicator: ' ',
        }
    }
}

const VIEW_DESCRIPTORS: &[&str] =
    &["00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14"];

impl ImageViewDetail {
    /// The full view of one side of a check as a TIFF with CCITT Group 4 compression, the
    /// usual image of an image cash letter (`back`: the back side, else the front).
    pub fn g4_tiff(creator_routing_number: &str, creator_date: &str, back: bool) -> Self {
        ImageViewDetail {
            image_creator_routing_number: creator_routing_number.to_owned(),
            image_creator_date: creator_date.to_owned(),
            view_side_indicator: if back { '1' } else { '0' },
            ..ImageViewDetail::default()
        }
    }

    pub(crate) fn parse(d: &mut Dec) -> Self {
        let small = |v: Option<u64>| v.map(|v| v as u32);
        let v = ImageViewDetail {
            image_indicator: d.ch(),
            image_creator_routing_number: d.exact(9),
            image_creator_date: d.exact(8),
            image_view_format_indicator: d.exact(2),
            image_view_compression_algorithm: d.exact(2),
            image_view_data_size: small(d.opt_num("Image View Data Size", 7)),
            view_side_indicator: d.ch(),
            view_descriptor: d.exact(2),
            digital_signature_indicator: d.ch(),
            digital_signature_method: d.exact(2),
            security_key_size: small(d.opt_num("Security Key Size", 5)),
            start_of_protected_data: small(d.opt_num("Start of Protected Data", 7)),
            length_of_protected_data: small(d.opt_num("Length of Protected Data", 7)),
            image_recreate_indicator: d.ch(),
            user_field: d.left(8),
            override_indicator: {
                d.reserved(1);
                d.ch()
            },
        };
        d.reserved(13);
        v
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        let wide = |v: Option<u32>| v.map(u64::from);
        e.raw("50");
        e.ch(self.image_indicator);
        e.left(&self.image_creator_routing_number, 9);
        e.left(&self.image_creator_date, 8);
        e.left(&self.image_view_format_indicator, 2);
        e.left(&self.image_view_compression_algorithm, 2);
        e.opt_num(wide(self.image_view_data_size), 7);
        e.ch(self.view_side_indicator);
        e.left(&self.view_descriptor, 2);
        e.ch(self.digital_signature_indicator);
        e.left(&self.digital_signature_method, 2);
        e.opt_num(wide(self.security_key_size), 5);
        e.opt_num(wide(self.start_of_protected_data), 7);
        e.opt_num(wide(self.length_of_protected_data), 7);
        e.ch(self.image_recreate_indicator);
        e.left(&self.user_field, 8);
        e.blank(1);
        e.ch(self.override_indicator);
        e.blank(13);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        field::code(s, "Image Indicator", self.image_indicator, "0123");
        field::routing(s, "Image Creator Routing Number", &self.image_creator_routing_number, true);
        field::date(s, "Image Creator Date", &self.image_creator_date, true);
        // Format and compression describe an image; with none ('0') they may be blank.
        let formats = ["00", "01", "20", "21", "22", "23", "24"];
        let compressions = ["00", "01", "02", "21", "22", "23"];
        let no_image = self.image_indicator == '0';
        if !(no_image && self.image_view_format_indicator.is_empty()) {
            field::code2(s, "Image View Format Indicator", &self.image_view_format_indicator, &formats);
        }
        if !(no_image && self.image_view_compression_algorithm.is_empty()) {
            field::code2(
                s,
                "Image View Compression Algorithm Identifier",
                &self.image_view_compression_algorithm,
                &compressions,
            );
        }
        let wide = |v: Option<u32>| v.map(u64::from);
        field::opt_fits(s, "Image View Data Size", wide(self.image_view_data_size), 7);
        field::code(s, "View Side Indicator", self.view_side_indicator, "01");
        field::code2(s, "View Descriptor", &self.view_descriptor, VIEW_DESCRIPTORS);
        field::code(s, "Digital Signature Indicator", self.digital_signature_indicator, "01");
        let methods = ["00", "01", "02", "03", "04", "05"];
        if self.digital_signature_indicator == '1' || !self.digital_signature_method.is_empty() {
            field::code2(s, "Digital Signature Method", &self.digital_signature_method, &methods);
        }
        field::opt_fits(s, "Security Key Size", wide(self.security_key_size), 5);
        field::opt_fits(s, "Start of Protected Data", wide(self.start_of_protected_data), 7);
        field::opt_fits(s, "Length of Protected Data", wide(self.length_of_protected_data), 7);
        field::code(s, "Image Recreate Indicator", self.image_recreate_indicator, "01");
        field::text(s, "User Field", &self.user_field, 8, Kind::AlphaNumSpecial);
        field::code(s, "Override Indicator", self.override_indicator, " 01ABCDEFGHIJKLMNO");
    }
}

/// Type 52: the image itself (for instance a G4 TIFF), after the fields that tie it to its
/// bundle and item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ImageViewData {
    /// The bundle header's ECE institution routing number. The [`Writer`](crate::Writer)
    /// fills it in when left empty, like the next three.
    pub ece_institution_routing_number: String,
    /// The bundle header's business date.
    pub bundle_business_date: String,
    /// The bundle header's cycle number.
    pub cycle_number: String,
    /// The check detail's item sequence number.
    pub ece_institution_item_sequence_number: String,
    pub security_originator_name: String,
    pub security_authenticator_name: String,
    pub security_key_name: String,
    /// '0' none, '1'..'4' the corner the clipping coordinates count from; blank.
    pub clipping_origin: char,
    pub clipping_coordinate_h1: Option<u16>,
    pub clipping_coordinate_h2: Option<u16>,
    pub clipping_coordinate_v1: Option<u16>,
    pub clipping_coordinate_v2: Option<u16>,
    pub image_reference_key: String,
    /// Binary, never translated.
    pub digital_signature: Vec<u8>,
    /// Binary, never translated: the image file's bytes.
    pub image_data: Vec<u8>,
}

impl ImageViewData {
    /// Image data whose fields tying it to its bundle and item are left for the
    /// [`Writer`](crate::Writer) to fill in.
    pub fn new(image_data: Vec<u8>) -> Self {
        ImageViewData { clipping_origin: '0', image_data, ..ImageViewData::default() }
    }

    /// Parses up to and including "Length of Image Reference Key", which it returns.
    pub(crate) fn parse_fixed(d: &mut Dec) -> (Self, usize) {
        let small = |v: Option<u64>| v.map(|v| v as u16);
        let v = ImageViewData {
            ece_institution_routing_number: d.exact(9),
            bundle_business_date: d.exact(8),
            cycle_number: d.left(2),
            ece_institution_item_sequence_number: d.exact(15),
            security_originator_name: d.left(16),
            security_authenticator_name: d.left(16),
            security_key_name: d.left(16),
            clipping_origin: d.ch(),
            clipping_coordinate_h1: small(d.opt_num("Clipping Coordinate h1", 4)),
            clipping_coordinate_h2: small(d.opt_num("Clipping Coordinate h2", 4)),
            clipping_coordinate_v1: small(d.opt_num("Clipping Coordinate v1", 4)),
            clipping_coordinate_v2: small(d.opt_num("Clipping Coordinate v2", 4)),
            image_reference_key: String::new(),
            digital_signature: Vec::new(),
            image_data: Vec::new(),
        };
        let key_len = d.num("Length of Image Reference Key", 4) as usize;
        (v, key_len)
    }

    /// Encodes the text from the record type through the length of the digital signature,
    /// given the bundle and item fields to use (this record's own unless empty).
    pub(crate) fn encode_text(&self, e: &mut Enc, link: &Link) {
        let wide = |v: Option<u16>| v.map(u64::from);
        e.raw("52");
        e.left(link.routing, 9);
        e.left(link.date, 8);
        e.left(link.cycle, 2);
        e.zero_fill(link.sequence, 15);
        e.left(&self.security_originator_name, 16);
        e.left(&self.security_authenticator_name, 16);
        e.left(&self.security_key_name, 16);
        e.ch(self.clipping_origin);
        e.opt_num(wide(self.clipping_coordinate_h1), 4);
        e.opt_num(wide(self.clipping_coordinate_h2), 4);
        e.opt_num(wide(self.clipping_coordinate_v1), 4);
        e.opt_num(wide(self.clipping_coordinate_v2), 4);
        e.num(self.image_reference_key.chars().count() as u64, 4);
        e.raw(&self.image_reference_key);
        e.num(self.digital_signature.len() as u64, 5);
    }

    /// The fields tying this record to its bundle and item, as this record has them.
    pub(crate) fn link(&self) -> Link<'_> {
        Link {
            routing: &self.ece_institution_routing_number,
            date: &self.bundle_business_date,
            cycle: &self.cycle_number,
            sequence: &self.ece_institution_item_sequence_number,
        }
    }

    pub(crate) fn check(&self, s: &mut Sink, link: &Link) {
        field::routing(s, "ECE Institution Routing Number", link.routing, true);
        field::date(s, "Bundle Business Date", link.date, true);
        field::text(s, "Cycle Number", link.cycle, 2, Kind::AlphaNum);
        if link.sequence.is_empty() {
            s.error("ECE Institution Item Sequence Number", "is blank but mandatory");
        }
        field::numeric_blank(s, "ECE Institution Item Sequence Number", link.sequence, 15);
        field::text(s, "Security Originator Name", &self.security_originator_name, 16, Kind::AlphaNumSpecial);
        field::text(s, "Security Authenticator Name", &self.security_authenticator_name, 16, Kind::AlphaNumSpecial);
        field::text(s, "Security Key Name", &self.security_key_name, 16, Kind::AlphaNumSpecial);
        field::code(s, "Clipping Origin", self.clipping_origin, " 01234");
        for (name, v) in [
            ("Clipping Coordinate h1", self.clipping_coordinate_h1),
            ("Clipping Coordinate h2", self.clipping_coordinate_h2),
            ("Clipping Coordinate v1", self.clipping_coordinate_v1),
            ("Clipping Coordinate v2", self.clipping_coordinate_v2),
        ] {
            field::opt_fits(s, name, v.map(u64::from), 4);
        }
        let key = &self.image_reference_key;
        field::text(s, "Image Reference Key", key, MAX_IMAGE_REFERENCE_KEY, Kind::AlphaNumSpecial);
        if self.digital_signature.len() > MAX_DIGITAL_SIGNATURE {
            s.error(
                "Digital Signature",
                format!("{} bytes; at most {MAX_DIGITAL_SIGNATURE}", self.digital_signature.len()),
            );
        }
        if self.image_data.len() > MAX_IMAGE_DATA {
            s.error("Image Data", format!("{} bytes; at most {MAX_IMAGE_DATA}", self.image_data.len()));
        }
    }
}

/// The four fields of a type 52 that repeat its bundle header's and check detail's.
pub(crate) struct Link<'a> {
    pub routing: &'a str,
    pub date: &'a str,
    pub cycle: &'a str,
    pub sequence: &'a str,
}
