/**
 * Facebook: the client sends the user access token its SDK got. We ask the Graph API's token
 * inspection (`GET /debug_token` with our app token `{appId}|{appSecret}`) whether it is valid, was
 * issued to our app, for a user, and has not expired; then `GET /me?fields=id,email` with that token
 * (and its `appsecret_proof`) for the e-mail, checking the id is the inspected user's. Facebook does
 * not say whether it checked the address, so it is never taken as confirmed.
 */
import { createHmac } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import {
  emailOf,
  type IdentityProvider,
  IdentityTokenRejected,
  type ProviderCredentials,
  type VerifiedIdentity,
} from './identity-provider.ts';
import { getJson } from './provider-http.ts';

export interface FacebookProviderOptions {
  appId: string;
  appSecret: string;
  /** e.g. https://graph.facebook.com/v24.0 (no trailing slash). */
  graphUrl: string;
  timeoutMs: number;
  clock: Clock;
}

interface DebugTokenData {
  is_valid?: boolean;
  app_id?: string | number;
  user_id?: string | number;
  type?: string;
  expires_at?: number;
}

export class FacebookIdentityProvider implements IdentityProvider {
  readonly name = 'facebook' as const;
  readonly #options: FacebookProviderOptions;

  constructor(options: FacebookProviderOptions) {
    this.#options = options;
  }

  async verify(credentials: ProviderCredentials): Promise<VerifiedIdentity> {
    const token = credentials.accessToken;
    if (token === undefined) throw new IdentityTokenRejected('no accessToken');
    const userId = await this.#inspect(token);
    const proof = createHmac('sha256', this.#options.appSecret).update(token).digest('hex');
    const me = await getJson(
      this.#url('/me', { fields: 'id,email', access_token: token, appsecret_proof: proof }),
      this.#options.timeoutMs,
    );
    if (me.status !== 200) throw new IdentityTokenRejected(`/me answered ${me.status}`);
    const body = me.body as { id?: unknown; email?: unknown };
    if (String(body.id) !== userId) throw new IdentityTokenRejected('/me names another user than debug_token');
    const email = emailOf(body.email);
    return { provider: 'facebook', subject: userId, email, emailVerified: false };
  }

  /** The token's user id, if Facebook says the token is valid, ours, a user's and unexpired. */
  async #inspect(token: string): Promise<string> {
    const { appId, appSecret, timeoutMs } = this.#options;
    const answer = await getJson(
      this.#url('/debug_token', { input_token: token, access_token: `${appId}|${appSecret}` }),
      timeoutMs,
    );
    // Facebook answers 400 for a token it cannot parse (and for a refused app token: see the logs).
    if (answer.status !== 200) throw new IdentityTokenRejected(`debug_token answered ${answer.status}`);
    const data = (answer.body as { data?: DebugTokenData }).data ?? {};
    if (data.is_valid !== true) throw new IdentityTokenRejected('debug_token: not valid');
    if (String(data.app_id) !== appId) throw new IdentityTokenRejected('debug_token: issued to another app');
    if (data.type !== undefined && data.type !== 'USER') throw new IdentityTokenRejected(`debug_token: ${data.type}`);
    if (data.user_id === undefined || data.user_id === '') throw new IdentityTokenRejected('debug_token: no user');
    const nowSeconds = this.#options.clock.now().getTime() / 1000;
    if (data.expires_at !== undefined && data.expires_at !== 0 && data.expires_at <= nowSeconds) {
      throw new IdentityTokenRejected('debug_token: expired');
    }
    return String(data.user_id);
  }

  #url(path: string, query: Record<string, string>): string {
    return `${this.#options.graphUrl}${path}?${new URLSearchParams(query)}`;
  }
}
