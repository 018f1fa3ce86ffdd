/** The push provider with every push counted by result into `tms_push_attempts_total`. */
import type { PushProvider } from '../../adapters/push/index.ts';
import type { Metrics } from './metrics.ts';

export function countedPushes(provider: PushProvider, metrics: Metrics): PushProvider {
  return {
    async send(message) {
      const result = await provider.send(message);
      metrics.pushes.inc({ result: result.delivered ? 'sent' : result.retryable ? 'retryLater' : 'failed' });
      return result;
    },
  };
}
