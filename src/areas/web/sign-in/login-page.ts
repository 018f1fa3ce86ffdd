/**
 * The sign-in page's markup: a mailed link's form or outcome (mailed-links.ts), the sign-in form and
 * the forgotten-password form. The page's script (assets/client/login.ts) posts these two as JSON
 * (POST /login, POST /api/auth/forgot-password) and shows the answers in the elements named here by
 * id; every text is rendered here, in the page's language, so the script carries no string.
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { html, type Markup } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { type MailedLink, mailedLinkPart, mailedLinkSettled } from './mailed-links.ts';

export interface LoginPageState {
  /** Where to go once signed in: a path of this site (checked by safeNextPath). */
  next: string;
  /** The mailed link the page was opened with or posted from, if any. */
  link: MailedLink | null;
}

function signedIn(context: PageContext, next: string): Markup {
  const t = (key: string, values?: Record<string, unknown>) => translate(context.locale, key, values);
  if (context.viewer === null) return null;
  return html`<div id="signed-in" class="notice">
    <p>${t('signIn.signedInAs', { name: context.viewer.nickname })}</p>
    <p><a class="button button--primary" href=${next}>${t('signIn.continue')}</a></p>
  </div>`;
}

/**
 * The code step of an account with two-factor on: hidden until the sign-in answers
 * twoFactorRequired; the script puts the ticket in and posts it with the code to POST /login/two-factor.
 */
function twoFactorForm(context: PageContext, state: LoginPageState): Markup {
  const t = (key: string) => translate(context.locale, `signIn.twoFactor.${key}`);
  return html`<form id="two-factor-form" class="form sign-in__form" method="post" action="/login/two-factor" data-next=${state.next} aria-labelledby="two-factor-title" hidden>
    <h2 id="two-factor-title">${t('title')}</h2>
    <p>${t('explain')}</p>
    <p id="two-factor-error" class="form-error" role="alert" hidden></p>
    <input type="hidden" name="ticket" value="" />
    <div class="field">
      <label for="two-factor-code">${t('code')}</label>
      <input id="two-factor-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" />
    </div>
    <details class="sign-in__recovery">
      <summary>${t('useRecoveryCode')}</summary>
      <div class="field">
        <label for="two-factor-recovery">${t('recoveryCode')}</label>
        <input id="two-factor-recovery" name="recoveryCode" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="11" />
      </div>
    </details>
    <button type="submit" class="button button--primary">${t('submit')}</button>
  </form>`;
}

function loginForm(context: PageContext, state: LoginPageState): Markup {
  const t = (key: string) => translate(context.locale, key);
  return html`<form id="login-form" class="form sign-in__form" method="post" action="/login" data-next=${state.next} hidden=${!mailedLinkSettled(state.link) || state.link?.kind === 'delete'}>
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
  ${twoFactorForm(context, state)}
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
    ${mailedLinkPart(context, state.link)}
    ${context.viewer !== null && (state.link === null || state.link.kind === 'confirm') ? signedIn(context, state.next) : loginForm(context, state)}
    <noscript><p class="notice">${t('signIn.needsScript')}</p></noscript>
  </section>`;
}
