import { nameBasedUuid } from '../../platform/ids/name-based-uuid.ts';

/**
 * Namespace of our push idempotency keys: a random v4 UUID chosen once for this project.
 * Changing it changes every key, so a flush re-run across the change could send twice.
 */
export const PUSH_IDEMPOTENCY_NAMESPACE = '62e471ca-b115-4096-96df-4e7a1a5617dc';

/**
 * Name-based UUID version 3 (MD5). OneSignal asks for idempotency keys of version 3 or 4 (version 5,
 * which we sent before, is not in its list), and a name-based key is what makes a re-run send the same key.
 */
export const uuidV3 = (name: string, namespace: string): string => nameBasedUuid(3, name, namespace);

/**
 * The idempotency key of one flush push: the same recipient and the same notification rows
 * always give the same key, whatever their order, so re-running a flush cannot double-send.
 */
export function pushIdempotencyKey(recipientHex: string, notificationIds: string[]): string {
  const ids = notificationIds.map((id) => id.toLowerCase()).sort();
  return uuidV3(`${recipientHex.toLowerCase()}:${ids.join(',')}`, PUSH_IDEMPOTENCY_NAMESPACE);
}
