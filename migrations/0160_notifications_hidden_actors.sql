-- A follow notification whose actor others may not see (banned, or in a deletion's grace period) is
-- shown unlinked: `actorHidden` in its data, set and cleared from now on by user.banned and
-- user.unbanned. This marks the notifications of the accounts hidden today.
UPDATE notifications AS n
SET data = n.data || '{"actorHidden": true}'::jsonb
FROM users AS u
WHERE n.type = 'follow.received'
  AND u.id::text = n.data ->> 'actorId'
  AND (u.banned_at IS NOT NULL OR u.deletion_requested_at IS NOT NULL);
