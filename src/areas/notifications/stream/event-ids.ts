/**
 * The live stream's event ids: `<position>-<owner tag>`. The position is a notification's `stream_seq`
 * (migration 1800: one sequence, taken under the owner's lock, so one owner's positions grow in commit
 * order), or for an `unreadCount` event the position of the last notification the stream had reached.
 * The tag is the first 8 hex digits of the owner's id, so an id kept from another account's stream (a
 * browser tab that signed in as someone else) is told apart from one of this owner's.
 */
import { AppError } from '../../../platform/http/error-catalogue.ts';

const tagOf = (userId: string) => userId.replaceAll('-', '').slice(0, 8).toLowerCase();

export const formatEventId = (position: number, userId: string) => `${position}-${tagOf(userId)}`;

/** Where a stream starts: after an own event's position, or (no id, another user's id) at the owner's last one. */
export type StreamStart = { after: number } | { after: 'last' };

/** A `Last-Event-ID` (header or query): absent or another user's -> the last position; malformed -> 400. */
export function streamStart(lastEventId: string | undefined, userId: string): StreamStart {
  if (lastEventId === undefined || lastEventId === '') return { after: 'last' };
  const match = /^(\d{1,15})-([0-9a-f]{8})$/.exec(lastEventId);
  const [, position, tag] = match ?? [];
  if (position === undefined || tag === undefined)
    throw new AppError('invalidLastEventId', {
      source: { header: 'Last-Event-ID' },
      detail: 'expected an id this stream sent, <position>-<8 hex>',
    });
  if (tag !== tagOf(userId)) return { after: 'last' };
  return { after: Number(position) };
}
