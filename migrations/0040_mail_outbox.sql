-- The mail outbox: every mail is filed here in the transaction of the change that causes it, then
-- sent by the job mail-outbox (claim with a lease, send, mark sent), retried with backoff and never
-- lost when the mail server is down (docs/operations.md, Mail outbox). A sent row keeps no body.
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  recipient text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  headers jsonb,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  claimed_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
-- The sender's next due row.
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at, id) WHERE status = 'pending';
-- Retention: sent and failed rows by age.
CREATE INDEX mail_outbox_finished ON mail_outbox (status, finished_at) WHERE status <> 'pending';
-- An erased account's mail is deleted by address.
CREATE INDEX mail_outbox_recipient ON mail_outbox (lower(recipient));
