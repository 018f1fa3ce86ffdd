/** The face of follows: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { FollowsService } from './follows.service.ts';
import type { RemoteFollowingGate } from './remote-following.ts';

export interface FollowsServices {
  follows: FollowsService;
  /** Where federation registers itself to follow remote accounts (remote-following.ts). */
  remoteFollowing: RemoteFollowingGate;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    follows: FollowsServices;
  }
}

export type { FollowsService } from './follows.service.ts';
export type { RemoteFollowing, RemoteFollowingGate, RemoteFollowRequest } from './remote-following.ts';
