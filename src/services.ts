/**
 * The platform and every area's services, built once per app (server or CLI) from the registry
 * src/areas/areas.ts. Areas reach each other only through the services an area declares it needs,
 * and through domain events; this file knows no area by name.
 */
import type { FastifyBaseLogger } from 'fastify';
import { areaModules } from './areas/areas.ts';
import type { AppDeps } from './deps.ts';
import type { AreaServices, Platform } from './platform/modules/area-module.ts';
import { buildAreas, buildPlatform, type PlatformOptions } from './platform/modules/build-areas.ts';

export interface Services {
  platform: Platform;
  areas: AreaServices;
}

export function createServices(deps: AppDeps, logger: FastifyBaseLogger, options: PlatformOptions = {}): Services {
  const platform = buildPlatform(deps, logger, options);
  return { platform, areas: buildAreas(areaModules, platform) };
}

/** Lets every area finish its work in flight (e.g. mail requests worked after their answer), in reverse build order. */
export async function stopAreas({ areas }: Services): Promise<void> {
  for (const module of [...areaModules].reverse()) {
    await module.stop?.(areas[module.name as keyof AreaServices] as never);
  }
}
