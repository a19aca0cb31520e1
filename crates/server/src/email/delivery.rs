//! The delivery worker: claims due messages, sends them over SMTP (lettre) or into the
//! development mailbox, records each attempt and its outcome. OWNER: the delivery work.
