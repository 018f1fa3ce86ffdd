-- Account deletion (accounts/deletion.service.ts): the erasure job looks for confirmed deletions whose
-- grace period has passed, oldest first; few accounts are ever in it, so the index is partial.
CREATE INDEX users_deletion_requested ON users (deletion_requested_at, id) WHERE deletion_requested_at IS NOT NULL;
