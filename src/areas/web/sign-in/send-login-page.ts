/** Sends the sign-in page in the state of its request: a mailed link's form or outcome, the sign-in form. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../../../platform/http/types.ts';
import { translate } from '../../../platform/i18n/i18n.ts';
import { assetUrl, loadClientAssets } from '../assets/client-assets.ts';
import { pageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import { sendPage } from '../layout/send-page.ts';
import { type LoginPageState, loginPageBody } from './login-page.ts';

export async function sendLoginPage(
  request: FastifyRequest,
  reply: FastifyReply,
  viewer: Viewer | null,
  state: LoginPageState,
): Promise<FastifyReply> {
  await loadClientAssets();
  const context = await pageContext(request, viewer);
  const t = (key: string) => translate(context.locale, key);
  // The tokens of mailed links must not stay in caches or in the history's Referer.
  reply.header('Cache-Control', 'no-store');
  const page = renderPage(context, {
    title: t('signIn.title'),
    description: t('signIn.description'),
    canonicalPath: '/login',
    body: loginPageBody(context, state),
    styles: [assetUrl('login.css')],
    scripts: [assetUrl('login.js')],
    noIndex: state.link !== null,
  });
  return sendPage(reply, page);
}
