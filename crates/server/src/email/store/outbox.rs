//! Accepted messages in, outbox listing and detail out. OWNER: the outbox work.
