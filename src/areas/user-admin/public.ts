/** The face of user-admin: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { ModerationService } from '../accounts/public.ts';
import type { UserAdminService } from './user-admin.service.ts';

export interface UserAdminServices {
  userAdmin: UserAdminService;
  moderation: ModerationService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    userAdmin: UserAdminServices;
  }
}
