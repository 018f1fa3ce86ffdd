/// <reference lib="dom" />
/**
 * The sign-in page's script: posts the sign-in and forgotten-password forms as JSON and shows the
 * answers in the page's own elements (their texts are rendered by the server in the page's language;
 * an error shows the API's translated title). Sign-in goes to the server-checked `data-next` path once
 * the cookie is set. A mailed link's form is a plain HTML form, which needs no script.
 */

interface ErrorDocument {
  errors?: Array<{ title?: string; detail?: string }>;
}

const section = document.querySelector<HTMLElement>('.sign-in');
if (section !== null) start(section);

function start(section: HTMLElement): void {
  const locale = section.dataset.locale ?? 'en-US';
  const networkError = section.dataset.networkError ?? 'Network error';

  // A mailed token must not stay in the address bar, the history or a bookmark.
  if (/[?&](confirm|reset|delete)=/.test(window.location.search)) {
    const url = new URL(window.location.href);
    for (const name of ['confirm', 'reset', 'delete']) url.searchParams.delete(name);
    window.history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
  }

  async function post(url: string, body: unknown): Promise<{ ok: boolean; message: string | null }> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': locale },
        body: JSON.stringify(body),
      });
      if (response.ok) {
        await response.text(); // read to the end before the page moves on
        return { ok: true, message: null };
      }
      const document = (await response.json().catch(() => ({}))) as ErrorDocument;
      const first = document.errors?.[0];
      return { ok: false, message: first?.title ?? `${response.status}` };
    } catch {
      return { ok: false, message: networkError };
    }
  }

  function showError(element: HTMLElement | null, message: string | null): void {
    if (!element) return;
    element.textContent = message ?? '';
    element.hidden = message === null;
  }

  function handle(
    formId: string,
    errorId: string,
    body: (form: HTMLFormElement) => { url: string; payload: unknown },
    done: (form: HTMLFormElement) => void,
  ): void {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    const error = document.getElementById(errorId);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
      if (button) button.disabled = true;
      showError(error, null);
      const { url, payload } = body(form);
      const answer = await post(url, payload);
      if (button) button.disabled = false;
      if (answer.ok) done(form);
      else {
        showError(error, answer.message);
        error?.focus?.();
      }
    });
  }

  const value = (form: HTMLFormElement, name: string) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLInputElement ? field.value : '';
  };

  handle(
    'login-form',
    'login-error',
    (form) => ({ url: '/login', payload: { login: value(form, 'login'), password: value(form, 'password') } }),
    (form) => {
      window.location.assign(form.dataset.next ?? '/');
    },
  );

  handle(
    'forgot-form',
    'forgot-error',
    (form) => ({ url: '/api/auth/forgot-password', payload: { email: value(form, 'email') } }),
    (form) => {
      form.hidden = true;
      const sent = document.getElementById('forgot-sent');
      if (sent) sent.hidden = false;
    },
  );
}
