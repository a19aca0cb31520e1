-- A bounce report received over SMTP is kept once per delivery: `delivery` is the SHA-256 of
-- the envelope (return-path recipient, MAIL FROM) and the message as the relay sent it (before
-- the `Received` field this server adds). A relay that sends the same report again — after a
-- `451` for another of the message's recipients, or a `250` it never read — is answered with
-- the report already kept, and no bounce or suppression is counted twice. Reports posted to the
-- API have none (the API's `Idempotency-Key` does that there).
ALTER TABLE email_bounce_reports ADD COLUMN delivery TEXT;
CREATE UNIQUE INDEX email_bounce_reports_delivery ON email_bounce_reports (delivery);
