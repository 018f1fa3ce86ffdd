/**
 * The sign-in page's markup: the button or the outcome of a confirmation link, the reset form of a reset link, the
 * confirmation button of an account-deletion link, the sign-in form and the forgotten-password form. The page's script (assets/client/login.ts) posts the
 * forms as JSON (POST /login, POST /api/auth/reset-password, POST /api/auth/forgot-password,
 * POST /api/account/deletion/confirm) and
 * shows the answers in the elements named here by id; every text is rendered here, in the page's
 * language, so the script carries no string.
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { html, type Markup } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';

/** `pending`: the link works and waits for its button; the others say what a click did, or why it cannot. */
export type ConfirmOutcome = 'pending' | 'done' | 'invalidToken' | 'tokenUsed' | 'tokenExpired';

export interface LoginPageState {
  /** Where to go once signed in: a path of this site (checked by safeNextPath). */
  next: string;
  /** A confirmation link's token and what its page shows. */
  confirm: { outcome: ConfirmOutcome; token: string } | null;
  /** The reset token of a reset link, posted back by the script with the new password. */
  resetToken: string | null;
  /** The token of an account-deletion mail, posted back by the script once the owner confirms. */
  deleteToken: string | null;
}

/** Confirmation is a button, a plain form (no script needed), never the GET of the link (mail scanners follow links). */
function confirmation(context: PageContext, confirm: LoginPageState['confirm']): Markup {
  if (confirm === null) return null;
  const t = (key: string) => translate(context.locale, key);
  const { outcome, token } = confirm;
  if (outcome === 'pending') {
    return html`<form id="confirm-form" class="form sign-in__form" method="post" action="/login/confirm-email" aria-labelledby="confirm-title">
      <h2 id="confirm-title">${t('signIn.confirm.title')}</h2>
      <p>${t('signIn.confirm.explain')}</p>
      <input type="hidden" name="token" value=${token} />
      <button type="submit" class="button button--primary">${t('signIn.confirm.submit')}</button>
    </form>`;
  }
  const good = outcome === 'done' || outcome === 'tokenUsed';
  return html`<p id="confirm-outcome" class=${good ? 'notice notice--success' : 'notice notice--error'} role=${good ? 'status' : 'alert'} data-outcome=${outcome}>${t(`signIn.confirm.${outcome}`)}</p>`;
}

function resetForm(context: PageContext, token: string): Markup {
  const t = (key: string) => translate(context.locale, key);
  return html`<form id="reset-form" class="form sign-in__form" method="post" action="/api/auth/reset-password" data-token=${token} aria-labelledby="reset-title">
    <h2 id="reset-title">${t('signIn.reset.title')}</h2>
    <p id="reset-error" class="form-error" role="alert" hidden></p>
    <div class="field">
      <label for="reset-password">${t('signIn.reset.password')}</label>
      <input id="reset-password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="128" aria-describedby="reset-hint" />
      <p id="reset-hint" class="field__hint">${t('signIn.reset.hint')}</p>
    </div>
    <button type="submit" class="button button--primary">${t('signIn.reset.submit')}</button>
  </form>
  <p id="reset-done" class="notice notice--success" role="status" hidden>${t('signIn.reset.done')}</p>`;
}

/** Deletion is confirmed by a button, never by the GET of the link (mail scanners follow links). */
function deleteForm(context: PageContext, token: string): Markup {
  const t = (key: string) => translate(context.locale, key);
  return html`<form id="delete-form" class="form sign-in__form" method="post" action="/api/account/deletion/confirm" data-token=${token} aria-labelledby="delete-title">
    <h2 id="delete-title">${t('signIn.delete.title')}</h2>
    <p>${t('signIn.delete.explain')}</p>
    <p id="delete-error" class="form-error" role="alert" hidden></p>
    <button type="submit" class="button button--danger">${t('signIn.delete.submit')}</button>
  </form>
  <p id="delete-done" class="notice notice--success" role="status" hidden>${t('signIn.delete.done')}</p>`;
}

function signedIn(context: PageContext, next: string): Markup {
  const t = (key: string, values?: Record<string, unknown>) => translate(context.locale, key, values);
  if (context.viewer === null) return null;
  return html`<div id="signed-in" class="notice">
    <p>${t('signIn.signedInAs', { name: context.viewer.nickname })}</p>
    <p><a class="button button--primary" href=${next}>${t('signIn.continue')}</a></p>
  </div>`;
}

function loginForm(context: PageContext, state: LoginPageState): Markup {
  const t = (key: string) => translate(context.locale, key);
  return html`<form id="login-form" class="form sign-in__form" method="post" action="/login" data-next=${state.next} hidden=${state.resetToken !== null || state.deleteToken !== null || state.confirm?.outcome === 'pending'}>
    <p id="login-error" class="form-error" role="alert" hidden></p>
    <div class="field">
      <label for="login-name">${t('signIn.login')}</label>
      <input id="login-name" name="login" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="254" />
    </div>
    <div class="field">
      <label for="login-password">${t('signIn.password')}</label>
      <input id="login-password" name="password" type="password" autocomplete="current-password" required maxlength="128" />
    </div>
    <button type="submit" class="button button--primary">${t('signIn.submit')}</button>
  </form>
  <details id="forgot" class="sign-in__forgot">
    <summary>${t('signIn.forgot.summary')}</summary>
    <form id="forgot-form" class="form" method="post" action="/api/auth/forgot-password">
      <p id="forgot-error" class="form-error" role="alert" hidden></p>
      <div class="field">
        <label for="forgot-email">${t('signIn.forgot.email')}</label>
        <input id="forgot-email" name="email" type="email" autocomplete="email" required maxlength="254" />
      </div>
      <button type="submit" class="button">${t('signIn.forgot.submit')}</button>
    </form>
    <p id="forgot-sent" class="notice notice--success" role="status" hidden>${t('signIn.forgot.sent')}</p>
  </details>`;
}

export function loginPageBody(context: PageContext, state: LoginPageState): Markup {
  const t = (key: string) => translate(context.locale, key);
  return html`<section class="sign-in" aria-labelledby="sign-in-title" data-locale=${context.locale} data-network-error=${t('signIn.networkError')}>
    <h1 id="sign-in-title">${t('signIn.title')}</h1>
    ${confirmation(context, state.confirm)}
    ${state.resetToken !== null ? resetForm(context, state.resetToken) : null}
    ${state.deleteToken !== null ? deleteForm(context, state.deleteToken) : null}
    ${context.viewer !== null && state.resetToken === null && state.deleteToken === null ? signedIn(context, state.next) : loginForm(context, state)}
    <noscript><p class="notice">${t('signIn.needsScript')}</p></noscript>
  </section>`;
}
