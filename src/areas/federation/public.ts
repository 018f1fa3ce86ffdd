/** The face of federation (docs/api.md, Federation): its runtime, null while FEDERATION is off. */
import type { DeliveryHealthService } from './delivery-health.service.ts';
import type { DomainBlocksService } from './domain-blocks.service.ts';
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
  /** Operators' domain blocks (reject, silence), kept with FEDERATION off too. */
  domainBlocks: DomainBlocksService;
  /** The outgoing deliveries' health per domain. */
  deliveryHealth: DeliveryHealthService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    federation: FederationServices;
  }
}

export type { DeliveryHealthService } from './delivery-health.service.ts';
export type { DomainBlocksService } from './domain-blocks.service.ts';
export type { FederationRuntime } from './federation-runtime.ts';
export type { RemotePostsService } from './remote-posts/remote-posts.service.ts';
