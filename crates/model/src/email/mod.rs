//! Email (description 4.3; CONTRACT.md point 13): addresses checked once at the boundary, the
//! send request in the shape of the v3 mail-send API and the rules it must pass, the outbox's
//! records and their states, and stored templates.

pub mod address;
pub mod bounces;
pub mod domains;
pub mod inbound;
pub mod messages;
pub mod send;
pub mod suppressions;
pub use send::{MAX_PERSONALIZATIONS, MAX_RECIPIENTS, MAX_TOTAL_BYTES};
pub mod templates;
pub mod validation;

pub use address::{EmailAddress, EmailAddressError};
pub use messages::{
    AttachmentInfo, Attempt, Delivery, MessageDetail, MessageHeader, MessageState, OutboxMessage, ResentBy,
    SenderIdentity,
};
pub use send::{
    Attachment, CheckedAttachment, CheckedMailbox, CheckedPersonalization, Content, Disposition, Mailbox,
    Personalization, SendPlan, SendRequest,
};
pub use templates::{
    DraftPreview, NewTemplate, NewTemplateVersion, RenderedTemplate, TemplateDetail, TemplatePreview, TemplateSummary,
    TemplateVersion,
};
