/// <reference lib="dom" />
/**
 * The sign-in page's script: posts the sign-in and forgotten-password forms as JSON and shows the
 * answers in the page's own elements (their texts are rendered by the server in the page's language;
 * an error shows the API's translated title). Sign-in goes to the server-checked `data-next` path once
 * the cookie is set. A mailed link's form is a plain HTML form, which needs no script.
 *
 * An account with two-factor on answers the sign-in with 401 `twoFactorRequired` and a ticket: the
 * sign-in form gives way to the code step (`#two-factor-form`), which posts the ticket and a code (or a
 * recovery code) to POST /login/two-factor; a ticket that is no longer valid brings the sign-in back.
 */

interface ErrorDocument {
  errors?: Array<{ code?: string; title?: string; detail?: string; meta?: { ticket?: string } }>;
}

interface Answer {
  ok: boolean;
  message: string | null;
  code?: string;
  ticket?: string;
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

  async function post(url: string, body: unknown): Promise<Answer> {
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
      return {
        ok: false,
        message: first?.title ?? `${response.status}`,
        code: first?.code,
        ticket: first?.meta?.ticket,
      };
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
    refused: (form: HTMLFormElement, answer: Answer) => boolean = () => false,
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
      else if (!refused(form, answer)) {
        showError(error, answer.message);
        error?.focus?.();
      }
    });
  }

  const value = (form: HTMLFormElement, name: string) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLInputElement ? field.value : '';
  };

  const loginForm = document.getElementById('login-form');
  const codeForm = document.getElementById('two-factor-form');
  const goNext = (form: HTMLFormElement) => {
    window.location.assign(form.dataset.next ?? '/');
  };

  handle(
    'login-form',
    'login-error',
    (form) => ({ url: '/login', payload: { login: value(form, 'login'), password: value(form, 'password') } }),
    goNext,
    (form, answer) => {
      if (answer.code !== 'twoFactorRequired' || answer.ticket === undefined) return false;
      if (!(codeForm instanceof HTMLFormElement)) return false;
      const ticket = codeForm.elements.namedItem('ticket');
      if (ticket instanceof HTMLInputElement) ticket.value = answer.ticket;
      codeForm.reset();
      if (ticket instanceof HTMLInputElement) ticket.value = answer.ticket;
      form.hidden = true;
      codeForm.hidden = false;
      document.getElementById('two-factor-code')?.focus();
      return true;
    },
  );

  handle(
    'two-factor-form',
    'two-factor-error',
    (form) => {
      const recoveryCode = value(form, 'recoveryCode').trim();
      const ticket = value(form, 'ticket');
      return {
        url: '/login/two-factor',
        payload: recoveryCode === '' ? { ticket, code: value(form, 'code').trim() } : { ticket, recoveryCode },
      };
    },
    goNext,
    (form, answer) => {
      // An expired or used ticket, or one with too many wrong codes: back to the password.
      if (answer.code !== 'twoFactorTicketInvalid' || !(loginForm instanceof HTMLFormElement)) return false;
      form.hidden = true;
      loginForm.hidden = false;
      showError(document.getElementById('login-error'), answer.message);
      return true;
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
