/** The face of federation (docs/api.md, Federation): its runtime, null while FEDERATION is off. */
import type { FederationRuntime } from './federation-runtime.ts';
import type { OutboundFollowsService } from './outbound-follows.service.ts';
import type { RemotePostsService } from './remote-posts/remote-posts.service.ts';

export interface FederationServices {
  /** Null when FEDERATION is off: nothing is served and nothing sent. */
  federation: FederationRuntime | null;
  /** Local users following remote accounts; null when FEDERATION is off. */
  outboundFollows: OutboundFollowsService | null;
  /** The posts of followed remote actors (kept while FEDERATION is off too: listed, pruned, erased). */
  remotePosts: RemotePostsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    federation: FederationServices;
  }
}

export type { FederationRuntime } from './federation-runtime.ts';
export type { RemotePostsService } from './remote-posts/remote-posts.service.ts';
