-- An inbound message received over SMTP is kept once per delivery and route: `delivery` is the
-- SHA-256 of the envelope (the recipients, MAIL FROM) and the message as the relay sent it
-- (before the `Received` field this server adds, which differs each time). A relay that sends
-- the message again — after a `250` it never read, or a `451` — is answered with the messages
-- already kept, and the receiver is not posted the message twice. Messages posted to the API
-- have none (the API's `Idempotency-Key` does that there).
ALTER TABLE email_inbound_messages ADD COLUMN delivery TEXT;
CREATE UNIQUE INDEX email_inbound_messages_delivery ON email_inbound_messages (delivery, domain);
