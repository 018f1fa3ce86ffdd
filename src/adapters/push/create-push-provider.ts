import type { Logger } from 'pino';
import { LogPushProvider } from './log-push-provider.ts';
import { OneSignalPushProvider } from './onesignal-push-provider.ts';
import type { PushProvider } from './push-message.ts';

export interface PushConfig {
  /** `none`: PUSH_PROVIDER names webpush alone; the flush then calls no provider (a log one stands in). */
  provider: 'log' | 'onesignal' | 'none';
  oneSignal?: { appId: string; apiKey: string; apiUrl?: string } | null;
}

export function createPushProvider(config: PushConfig, logger: Logger): PushProvider {
  if (config.provider !== 'onesignal') return new LogPushProvider(logger);
  if (!config.oneSignal) throw new Error('PUSH_PROVIDER=onesignal needs ONESIGNAL_APP_ID and ONESIGNAL_API_KEY');
  return new OneSignalPushProvider({ ...config.oneSignal, logger });
}
