/**
 * The security page's markup (GET /security): the viewer's passkeys, each with a plain delete form,
 * and the form that adds one (the page's script, assets/client/security.ts, runs the browser's
 * ceremony). Every text is rendered here, in the page's language, so the script carries no string.
 */
import { type Locale, translate } from '../../../platform/i18n/i18n.ts';
import { formatDay } from '../../../platform/i18n/locale-formats.ts';
import { html, type Markup } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';

export interface ListedPasskey {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const day = (locale: Locale, at: Date) => formatDay(locale, at, 'medium');

function passkeyItem(context: PageContext, passkey: ListedPasskey): Markup {
  const t = (key: string, values?: Record<string, unknown>) => translate(context.locale, key, values);
  const used =
    passkey.lastUsedAt === null
      ? t('security.passkeys.neverUsed')
      : t('security.passkeys.lastUsed', { date: day(context.locale, passkey.lastUsedAt) });
  return html`<li class="security__passkey">
    <div>
      <strong class="security__passkey-name">${passkey.name}</strong>
      <span class="field__hint">${t('security.passkeys.added', { date: day(context.locale, passkey.createdAt) })}, ${used}</span>
    </div>
    <form method="post" action=${`/security/passkeys/${passkey.id}/delete`}>
      <button type="submit" class="button" aria-label=${t('security.passkeys.deleteLabel', { name: passkey.name })}>${t('security.passkeys.delete')}</button>
    </form>
  </li>`;
}

/** "Notify me on this device": its buttons work through assets/client/device-push.ts and the service worker. */
function devicePushSection(context: PageContext, vapidKey: string): Markup {
  const t = (key: string) => translate(context.locale, key);
  return html`<div id="device-push" class="security__push" data-locale=${context.locale} data-vapid-key=${vapidKey}
      data-worker="/push-worker.js" data-on=${t('security.push.on')} data-stopped=${t('security.push.stopped')}
      data-denied=${t('security.push.denied')} data-failed=${t('security.push.failed')}
      data-unsupported=${t('security.push.unsupported')} data-timeout=${t('security.push.timeout')}
      data-network-error=${t('signIn.networkError')}>
    <h2>${t('security.push.title')}</h2>
    <p class="field__hint">${t('security.push.lead')}</p>
    <p id="device-push-status" class="notice" role="status" hidden></p>
    <button id="device-push-on" type="button" class="button button--primary" hidden>${t('security.push.enable')}</button>
    <button id="device-push-off" type="button" class="button" hidden>${t('security.push.disable')}</button>
  </div>`;
}

export function securityPageBody(
  context: PageContext,
  passkeys: ListedPasskey[] | null,
  max: number,
  vapidKey: string | null = null,
): Markup {
  const t = (key: string, values?: Record<string, unknown>) => translate(context.locale, key, values);
  if (passkeys === null) {
    return html`<section class="sign-in security">
      <h1>${t('security.title')}</h1>
      <p class="notice">${t('security.signInFirst')}</p>
      <p><a class="button button--primary" href="/login?next=%2Fsecurity">${t('security.signIn')}</a></p>
    </section>`;
  }
  return html`<section class="sign-in security" aria-labelledby="security-title" data-locale=${context.locale}
      data-network-error=${t('signIn.networkError')} data-failed=${t('security.add.failed')}
      data-unsupported=${t('security.add.unsupported')}>
    <h1 id="security-title">${t('security.title')}</h1>
    <h2>${t('security.passkeys.title')}</h2>
    <p class="field__hint">${t('security.passkeys.lead', { max })}</p>
    ${
      passkeys.length === 0
        ? html`<p id="no-passkeys" class="notice">${t('security.passkeys.none')}</p>`
        : html`<ul id="passkey-list" class="security__passkeys">${passkeys.map((passkey) => passkeyItem(context, passkey))}</ul>`
    }
    <h2>${t('security.add.title')}</h2>
    <form id="passkey-form" class="form" method="post" action="/security/passkeys">
      <p id="passkey-error" class="form-error" role="alert" hidden></p>
      <div class="field">
        <label for="passkey-name">${t('security.add.name')}</label>
        <input id="passkey-name" name="name" type="text" maxlength="64" placeholder=${t('security.add.namePlaceholder')} />
      </div>
      <div class="field">
        <label for="passkey-password">${t('security.add.password')}</label>
        <input id="passkey-password" name="password" type="password" autocomplete="current-password" maxlength="128" />
        <p class="field__hint">${t('security.add.passwordHint')}</p>
      </div>
      <button type="submit" class="button button--primary">${t('security.add.submit')}</button>
    </form>
    <noscript><p class="notice">${t('security.needsScript')}</p></noscript>
    ${vapidKey === null ? null : devicePushSection(context, vapidKey)}
  </section>`;
}
