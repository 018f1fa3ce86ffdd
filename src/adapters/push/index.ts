export { EndpointRefused, isPublicAddress, resolvePublicEndpoint } from '../../platform/net/public-address.ts';
export { createPushProvider, type PushConfig } from './create-push-provider.ts';
export { LogPushProvider } from './log-push-provider.ts';
export { type OneSignalOptions, OneSignalPushProvider } from './onesignal-push-provider.ts';
export { PUSH_IDEMPOTENCY_NAMESPACE, pushIdempotencyKey, uuidV3 } from './push-idempotency-key.ts';
export { type PushMessage, type PushProvider, type PushResult, pushMessageProblem } from './push-message.ts';
export { base64urlBytes, isAuthSecret, isUncompressedP256Point } from './web-push-keys.ts';
export {
  generateVapidKeys,
  type VapidKeys,
  type WebPushOptions,
  type WebPushResult,
  WebPushSender,
  type WebPushSenderOptions,
  type WebPushSubscriptionTarget,
} from './web-push-sender.ts';
