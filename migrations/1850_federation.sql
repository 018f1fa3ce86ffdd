-- ActivityPub federation through Fedify (docs/operations.md, Federation): Fedify's key-value store
-- and message queue kept in the service's own database, and each local actor's key pairs.

-- Fedify's key-value store (cached remote documents and keys, inbox idempotence, the circuit
-- breaker's state). The key is the JSON array of the key's parts; an entry past expires_at is gone.
-- A value may be JSON null (Fedify remembers a key it could not fetch): SQL NULL here.
CREATE TABLE federation_kv (
  key text PRIMARY KEY,
  value jsonb,
  expires_at timestamptz
);
CREATE INDEX federation_kv_expiry ON federation_kv (expires_at) WHERE expires_at IS NOT NULL;

-- Fedify's message queue (outgoing deliveries, incoming activities): drained by the job
-- federation-queue. A message is encrypted (it may carry the sender's private key), runs once
-- run_after has passed, and is held by one instance until claimed_until; messages sharing an
-- ordering key run one after the other in seq order.
CREATE TABLE federation_queue (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sealed_message text NOT NULL,
  ordering_key text,
  run_after timestamptz NOT NULL,
  claimed_until timestamptz,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at timestamptz NOT NULL
);
CREATE INDEX federation_queue_due ON federation_queue (run_after, seq);
CREATE INDEX federation_queue_ordering ON federation_queue (ordering_key, seq) WHERE ordering_key IS NOT NULL;

-- A local actor's key pairs: RSA (HTTP Signatures) and Ed25519 (Object Integrity Proofs), made on
-- first use. The private key is kept encrypted (AES-256-GCM under a key derived from FEDERATION_SECRET).
CREATE TABLE federation_actor_keys (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  algorithm text NOT NULL CHECK (algorithm IN ('RSASSA-PKCS1-v1_5', 'Ed25519')),
  public_jwk jsonb NOT NULL,
  sealed_private_jwk text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, algorithm)
);
