/**
 * Parsing of PATCH /api/users/me/notifications/preferences: a flat object, or one under
 * data.attributes, mapping a kind to an object mapping a channel to a boolean. Every bad cell is
 * reported (422, one error each with meta.code and source.pointer); anything but an object is 400.
 */
import { AppError, AppErrors } from '../../platform/http/error-catalogue.ts';
import {
  isNotificationChannel,
  isNotificationKind,
  type NotificationChannel,
  notificationChannels,
  notificationKinds,
} from './kinds.ts';
import type { PreferenceCell } from './notifications.repository.ts';

export type PreferenceMatrix = Record<string, Record<NotificationChannel, boolean>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const escapePointer = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

type CellErrorCode = 'unknownType' | 'unknownChannel' | 'expectedObject' | 'expectedBool';

const cellError = (code: CellErrorCode, pointer: string, detail: string) =>
  new AppError('validationFailed', { source: { pointer }, detail, meta: { code } });

export function parsePreferencePatch(body: unknown): PreferenceCell[] {
  if (!isObject(body)) {
    throw new AppError('badRequest', { source: { pointer: '' }, detail: 'the body must be a JSON object' });
  }
  const nested = isObject(body.data) && isObject(body.data.attributes);
  const patch = nested ? (body.data as { attributes: Record<string, unknown> }).attributes : body;
  const base = nested ? '/data/attributes' : '';
  const cells: PreferenceCell[] = [];
  const errors: AppError[] = [];
  for (const [kind, channels] of Object.entries(patch)) {
    const kindPointer = `${base}/${escapePointer(kind)}`;
    if (!isNotificationKind(kind)) {
      errors.push(
        cellError('unknownType', kindPointer, `unknown notification type; known: ${notificationKinds.join(', ')}`),
      );
      continue;
    }
    if (!isObject(channels)) {
      errors.push(cellError('expectedObject', kindPointer, 'expected an object mapping channels to booleans'));
      continue;
    }
    for (const [channel, enabled] of Object.entries(channels)) {
      const cellPointer = `${kindPointer}/${escapePointer(channel)}`;
      if (!isNotificationChannel(channel)) {
        errors.push(
          cellError('unknownChannel', cellPointer, `unknown channel; known: ${notificationChannels.join(', ')}`),
        );
      } else if (typeof enabled !== 'boolean') {
        errors.push(cellError('expectedBool', cellPointer, 'expected true or false'));
      } else {
        cells.push({ kind, channel, enabled });
      }
    }
  }
  if (errors.length > 0) throw new AppErrors(422, errors);
  return cells;
}

/** Every cell true, then the stored overrides on top. */
export function preferenceMatrix(overrides: PreferenceCell[]): PreferenceMatrix {
  const matrix: PreferenceMatrix = {};
  for (const kind of notificationKinds) matrix[kind] = { inApp: true, push: true };
  for (const cell of overrides) {
    const row = matrix[cell.kind];
    if (row) row[cell.channel] = cell.enabled;
  }
  return matrix;
}
