/// <reference lib="dom" />
/**
 * The security page's script: "Add a passkey" asks POST /security/passkeys/options (with the password
 * when one was typed), lets the browser create the passkey (@simplewebauthn/browser, bundled and
 * served by this site), posts it to POST /security/passkeys and reloads the page to list it. Texts
 * come from the page (rendered in its language); an error shows the service's translated title.
 */
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { postJson } from './post-json.ts';

/** What the options answer carries: the `publicKey` for navigator.credentials.create(). */
interface OptionsDocument {
  data: { attributes: { publicKey: Parameters<typeof startRegistration>[0]['optionsJSON'] } };
}

const section = document.querySelector<HTMLElement>('.security[data-locale]');
const form = document.getElementById('passkey-form');
if (section !== null && form instanceof HTMLFormElement) start(section, form);

function start(section: HTMLElement, form: HTMLFormElement): void {
  const locale = section.dataset.locale ?? 'en-US';
  const error = document.getElementById('passkey-error');
  const show = (message: string | null) => {
    if (error === null) return;
    error.textContent = message ?? '';
    error.hidden = message === null;
  };
  if (!browserSupportsWebAuthn()) {
    show(section.dataset.unsupported ?? null);
    return;
  }

  const post = (url: string, body: unknown) =>
    postJson(url, body, locale, section.dataset.networkError ?? 'Network error');

  const field = (name: string) => {
    const input = form.elements.namedItem(name);
    return input instanceof HTMLInputElement ? input.value.trim() : '';
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (button) button.disabled = true;
    show(null);
    try {
      const password = field('password');
      const options = (await post(
        '/security/passkeys/options',
        password === '' ? {} : { password },
      )) as OptionsDocument;
      let credential: unknown;
      try {
        credential = await startRegistration({ optionsJSON: options.data.attributes.publicKey });
      } catch {
        throw new Error(section.dataset.failed ?? 'Failed');
      }
      const name = field('name');
      await post('/security/passkeys', name === '' ? { credential } : { name, credential });
      window.location.reload();
    } catch (failure) {
      show(failure instanceof Error ? failure.message : String(failure));
      if (button) button.disabled = false;
    }
  });
}
