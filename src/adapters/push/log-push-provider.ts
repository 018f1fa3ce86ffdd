import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type PushMessage, type PushProvider, type PushResult, pushMessageProblem } from './push-message.ts';

/** Development provider: each push becomes one structured log line instead of a notification on a device. */
export class LogPushProvider implements PushProvider {
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  async send(message: PushMessage): Promise<PushResult> {
    const problem = pushMessageProblem(message);
    if (problem) return { delivered: false, reason: `invalid message: ${problem}`, retryable: false };
    const providerId = randomUUID();
    this.#logger.info(
      {
        event: 'push.sent',
        providerId,
        externalId: message.externalId,
        headings: message.headings,
        contents: message.contents,
        data: message.data,
        idempotencyKey: message.idempotencyKey,
        collapseId: message.collapseId,
      },
      'push sent (log provider)',
    );
    return { delivered: true, providerId };
  }
}
