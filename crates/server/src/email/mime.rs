//! The MIME of a stored message, built with lettre: multipart/alternative for plain + HTML,
//! multipart/related for inline images, multipart/mixed with attachments; RFC 2047 headers;
//! the stored Message-ID and Date. OWNER: the delivery work.
