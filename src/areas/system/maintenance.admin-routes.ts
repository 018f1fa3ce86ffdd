/** GET|PUT /admin/maintenance: maintenance mode, shared by every instance on the database (audited). */

import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { DocumentSchema, Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatNullableTimestamp } from '../../platform/http/time.ts';
import { type MaintenanceSettings, maintenanceLimits } from '../../platform/maintenance/maintenance-mode.ts';
import type { Platform } from '../../platform/modules/area-module.ts';
import { visibleText } from '../../platform/text/visible-text.ts';

const MaintenanceSchema = ResourceSchema(
  'maintenance',
  Type.Object({
    enabled: Type.Boolean(),
    message: Nullable(Type.String({ description: "The operator's message, the detail of every 503" })),
    retryAfterSeconds: Type.Integer({ description: 'The Retry-After of every 503' }),
    updatedAt: Nullable(Timestamp),
  }),
  undefined,
  'Maintenance',
);

const present = (state: MaintenanceSettings) => ({
  data: resource('maintenance', 'maintenance', {
    enabled: state.enabled,
    message: state.message,
    retryAfterSeconds: state.retryAfterSeconds,
    updatedAt: formatNullableTimestamp(state.updatedAt),
  }),
});

const { messageLength, retryAfterSeconds } = maintenanceLimits;

/** The message as shown: cleaned and trimmed; a message of nothing visible is 422. */
function operatorMessage(value: string): string {
  const visible = visibleText(value, { multiline: true });
  if (visible === null) {
    throw new AppError('validationFailed', { source: { pointer: '/message' }, detail: 'must hold visible text' });
  }
  return visible;
}

export function maintenanceAdminRoutes({ maintenance }: Pick<Platform, 'maintenance'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/admin/maintenance',
      auth: 'admin',
      summary: 'Whether maintenance mode is on, with its message and Retry-After',
      success: { status: 200, schema: DocumentSchema(MaintenanceSchema) },
      handler: async () => present(await maintenance.read()),
    }),
    route({
      method: 'PUT',
      path: '/admin/maintenance',
      auth: 'admin',
      summary:
        'Turn maintenance mode on or off on every instance (within about a second): public and user routes answer 503',
      body: Type.Object(
        {
          enabled: Type.Boolean(),
          message: Type.Optional(Type.String({ minLength: 1, maxLength: messageLength })),
          retryAfterSeconds: Type.Optional(
            Type.Integer({ minimum: retryAfterSeconds.minimum, maximum: retryAfterSeconds.maximum }),
          ),
        },
        { additionalProperties: false },
      ),
      success: { status: 200, schema: DocumentSchema(MaintenanceSchema) },
      handler: async ({ body }) =>
        present(
          await maintenance.set({
            enabled: body.enabled,
            message: body.message === undefined ? null : operatorMessage(body.message),
            retryAfterSeconds: body.retryAfterSeconds ?? retryAfterSeconds.default,
          }),
        ),
    }),
  ];
}
