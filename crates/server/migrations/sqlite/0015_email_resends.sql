-- A failed outbox message resent (POST …/messages/{id}/resend): it goes back to `queued` with
-- its attempts kept (numbering goes on) and its Message-ID and bytes unchanged, since it never
-- reached anyone. Each resend is kept, with who did it, for the message's attempt log.
CREATE TABLE email_resends (
    message_id    TEXT    NOT NULL REFERENCES email_messages (id) ON DELETE CASCADE,
    -- The attempts made before it: the failed attempt it follows.
    after_attempt INTEGER NOT NULL,
    resent_at     TEXT    NOT NULL,
    -- The token's name and its user.
    resent_by     TEXT    NOT NULL,
    resent_by_user TEXT   NOT NULL,
    PRIMARY KEY (message_id, after_attempt)
);
-- The attempts made before the last resend (0: never resent): the attempt limit and the
-- retry schedule count from there, so a resent message gets a whole new round of attempts.
ALTER TABLE email_messages ADD COLUMN resent_after INTEGER NOT NULL DEFAULT 0;
