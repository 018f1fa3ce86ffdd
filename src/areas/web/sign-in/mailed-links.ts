/**
 * The sign-in page's part for a mailed link (`?confirm=`, `?reset=`, `?delete=`): the link's form, a
 * plain HTML form that posts the token (no script needed), or what posting it did. A GET of the link
 * never spends it: mail scanners and link checkers follow links.
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { html, type Markup } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';

export type MailedLinkKind = 'confirm' | 'reset' | 'delete';
/** `pending`: the link waits for its form; `weakPassword` shows the reset form again; the others say what happened. */
export type MailedLinkOutcome = 'pending' | 'done' | 'invalidToken' | 'tokenUsed' | 'tokenExpired' | 'weakPassword';

export interface MailedLink {
  kind: MailedLinkKind;
  token: string;
  outcome: MailedLinkOutcome;
}

/** Where each form posts (src/areas/web/sign-in/sign-in.routes.ts). */
export const mailedLinkActions: Record<MailedLinkKind, string> = {
  confirm: '/login/confirm-email',
  reset: '/login/reset-password',
  delete: '/login/delete-account',
};

/** Whether the link leaves nothing to do in its form (the sign-in form may show). */
export const mailedLinkSettled = (link: MailedLink | null) =>
  link === null || (link.outcome !== 'pending' && link.outcome !== 'weakPassword');

function linkForm(context: PageContext, link: MailedLink): Markup {
  const t = (key: string) => translate(context.locale, `signIn.${link.kind}.${key}`);
  const password =
    link.kind === 'reset'
      ? html`<div class="field">
          <label for="reset-password">${t('password')}</label>
          <input id="reset-password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="128" aria-describedby="reset-hint" />
          <p id="reset-hint" class="field__hint">${t('hint')}</p>
        </div>`
      : null;
  const error =
    link.outcome === 'weakPassword'
      ? html`<p id="link-error" class="form-error" role="alert">${translate(context.locale, 'errors.weakPassword')}</p>`
      : null;
  return html`<form id=${`${link.kind}-form`} class="form sign-in__form" method="post" action=${mailedLinkActions[link.kind]} aria-labelledby="link-title">
    <h2 id="link-title">${t('title')}</h2>
    ${link.kind === 'reset' ? null : html`<p>${t('explain')}</p>`}
    ${error}
    <input type="hidden" name="token" value=${link.token} />
    ${password}
    <button type="submit" class=${link.kind === 'delete' ? 'button button--danger' : 'button button--primary'}>${t('submit')}</button>
  </form>`;
}

export function mailedLinkPart(context: PageContext, link: MailedLink | null): Markup {
  if (link === null) return null;
  if (!mailedLinkSettled(link)) return linkForm(context, link);
  const good = link.outcome === 'done' || (link.kind === 'confirm' && link.outcome === 'tokenUsed');
  return html`<p id="link-outcome" class=${good ? 'notice notice--success' : 'notice notice--error'} role=${good ? 'status' : 'alert'} data-kind=${link.kind} data-outcome=${link.outcome}>${translate(context.locale, `signIn.${link.kind}.${link.outcome}`)}</p>`;
}
