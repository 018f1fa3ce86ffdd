/**
 * A local stand-in for the Facebook Graph API's token inspection, on loopback, for tests:
 * `GET {version}/debug_token?input_token=…&access_token={appId}|{appSecret}` and
 * `GET {version}/me?fields=id,email&access_token=…&appsecret_proof=…`.
 *
 *   const graph = await startFacebookGraph();
 *   // point the app at it: FACEBOOK_GRAPH_URL=graph.graphUrl, FACEBOOK_APP_ID=graph.appId, FACEBOOK_APP_SECRET=graph.appSecret
 *   const token = graph.issue({ userId: '1001', email: 'a@example.com' })   // a user access token
 *   graph.issue({ userId: '1002', appId: 'another-app' })                   // a token of another app
 *   graph.issue({ userId: '1003', expiresAt: new Date(0) })                 // an expired one
 *   graph.mode = 'hang' | 'error' | 'null' | 'ok'   ('null': 200 with the JSON body `null`)
 *   graph.requests                                                         // paths asked, in order
 *   await graph.close()
 *
 * Like the real API: a wrong app token is 400 (OAuthException 190); an unknown input token is
 * 200 with `is_valid: false`; /me refuses (400) an unknown token or a wrong appsecret_proof.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface IssuedToken {
  userId: string;
  email: string | null;
  appId: string;
  expiresAt: Date | null;
}

export interface FacebookGraph {
  url: string;
  /** With the version path, as FACEBOOK_GRAPH_URL takes it. */
  graphUrl: string;
  appId: string;
  appSecret: string;
  mode: 'ok' | 'hang' | 'error' | 'null';
  requests: string[];
  issue(token: { userId: string; email?: string | null; appId?: string; expiresAt?: Date | null }): string;
  close(): Promise<void>;
}

const oauthError = (message: string) => ({ error: { message, type: 'OAuthException', code: 190 } });

export async function startFacebookGraph(options: { now?: () => Date } = {}): Promise<FacebookGraph> {
  const now = options.now ?? (() => new Date());
  const tokens = new Map<string, IssuedToken>();
  const hanging = new Set<ServerResponse>();
  const appId = '424242';
  const appSecret = randomBytes(16).toString('hex');
  const send = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const live = (token: IssuedToken) => token.expiresAt === null || token.expiresAt > now();

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://graph.local');
    graph.requests.push(url.pathname);
    if (graph.mode === 'hang') {
      hanging.add(response);
      return;
    }
    if (graph.mode === 'error') return send(response, 500, oauthError('An unexpected error has occurred.'));
    if (graph.mode === 'null') return send(response, 200, null);
    const query = url.searchParams;
    if (url.pathname.endsWith('/debug_token')) {
      if (query.get('access_token') !== `${appId}|${appSecret}`) {
        return send(response, 400, oauthError('Invalid OAuth access token signature.'));
      }
      const token = tokens.get(query.get('input_token') ?? '');
      if (token === undefined) {
        return send(response, 200, { data: { is_valid: false, error: { code: 190, message: 'Invalid token.' } } });
      }
      return send(response, 200, {
        data: {
          app_id: token.appId,
          type: 'USER',
          application: 'Test app',
          expires_at: token.expiresAt === null ? 0 : Math.floor(token.expiresAt.getTime() / 1000),
          is_valid: live(token),
          scopes: ['email', 'public_profile'],
          user_id: token.userId,
        },
      });
    }
    if (url.pathname.endsWith('/me')) {
      const raw = query.get('access_token') ?? '';
      const token = tokens.get(raw);
      if (token === undefined || !live(token)) return send(response, 400, oauthError('Invalid OAuth access token.'));
      const proof = createHmac('sha256', appSecret).update(raw).digest('hex');
      if (query.get('appsecret_proof') !== proof) {
        return send(response, 400, oauthError('Invalid appsecret_proof provided in the API argument'));
      }
      const fields = (query.get('fields') ?? 'id').split(',');
      return send(response, 200, {
        id: token.userId,
        ...(fields.includes('email') && token.email !== null ? { email: token.email } : {}),
      });
    }
    return send(response, 404, oauthError('Unknown path components'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const graph: FacebookGraph = {
    url,
    graphUrl: `${url}/v24.0`,
    appId,
    appSecret,
    mode: 'ok',
    requests: [],
    issue({ userId, email = null, appId: tokenAppId = appId, expiresAt = null }) {
      const token = `EAA${randomBytes(24).toString('base64url')}`;
      tokens.set(token, { userId, email, appId: tokenAppId, expiresAt });
      return token;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return graph;
}
