/** The face of federation (docs/api.md, Federation): its runtime, null while FEDERATION is off. */
import type { FederationRuntime } from './federation-runtime.ts';
import type { OutboundFollowsService } from './outbound-follows.service.ts';

export interface FederationServices {
  /** Null when FEDERATION is off: nothing is served and nothing sent. */
  federation: FederationRuntime | null;
  /** Local users following remote accounts; null when FEDERATION is off. */
  outboundFollows: OutboundFollowsService | null;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    federation: FederationServices;
  }
}

export type { FederationRuntime } from './federation-runtime.ts';
