-- The ledger of experience that can be capped or taken back: awards of a reason with a daily ceiling
-- (the ceiling sums a user's awards of that reason since the start of the UTC day, under the user's
-- lock), and awards tied to a subject (a published post and the badge rewards its publication
-- brought), with the negative row of a take-back when that subject is deleted soon after.
-- Operator awards and badge levels reached otherwise are not written here.
CREATE TABLE experience_awards (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reason text NOT NULL,
  subject_id uuid,
  amount integer NOT NULL CHECK (amount <> 0),
  awarded_at timestamptz NOT NULL
);
CREATE INDEX experience_awards_user_reason ON experience_awards (user_id, reason, awarded_at);
CREATE INDEX experience_awards_subject ON experience_awards (subject_id) WHERE subject_id IS NOT NULL;
