-- The follow notifications that name an actor, by that actor: a ban, a deletion, its cancellation and
-- an anonymization rewrite them (setActorHidden, renameActor) inside the user's transaction, which
-- without this index read every notification of the service.
CREATE INDEX IF NOT EXISTS notifications_follow_actor ON notifications ((data ->> 'actorId')) WHERE type = 'follow.received';
