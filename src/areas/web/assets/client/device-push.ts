/// <reference lib="dom" />
/**
 * "Notify me on this device" on the security page: registers the site's service worker
 * (/push-worker.js), asks the browser for a push subscription with the server's VAPID key (rendered in
 * the page) and posts it to POST /security/push-subscriptions; "Stop" forgets it on the server
 * (POST /security/push-subscriptions/remove) and unsubscribes. A subscription the browser already has
 * is posted again at each visit, so the server knows it even if it was dropped there. Texts come from
 * the page, in its language.
 */

import { postJson } from './post-json.ts';

const box = document.getElementById('device-push');
const on = document.getElementById('device-push-on');
const off = document.getElementById('device-push-off');
const status = document.getElementById('device-push-status');
if (box !== null && on instanceof HTMLButtonElement && off instanceof HTMLButtonElement && status !== null) {
  void start(box, on, off, status);
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

async function start(box: HTMLElement, on: HTMLButtonElement, off: HTMLButtonElement, status: HTMLElement) {
  const texts = box.dataset;
  const locale = texts.locale ?? 'en-US';
  const say = (message: string | undefined) => {
    status.textContent = message ?? '';
    status.hidden = !message;
  };
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    say(texts.unsupported);
    return;
  }

  const post = (url: string, body: unknown) => postJson(url, body, locale, texts.networkError ?? 'Network error');

  const registration = await navigator.serviceWorker.register(texts.worker ?? '/push-worker.js', { scope: '/' });
  await navigator.serviceWorker.ready;

  const show = (subscribed: boolean, message?: string) => {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    say(message ?? (subscribed ? texts.on : undefined));
  };

  const existing = await registration.pushManager.getSubscription();
  if (existing !== null) {
    await post('/security/push-subscriptions', { ...existing.toJSON(), locale }).catch(() => undefined);
  }
  show(existing !== null);
  box.dataset.ready = 'true';

  on.addEventListener('click', async () => {
    on.disabled = true;
    try {
      if ((await Notification.requestPermission()) !== 'granted') {
        show(false, texts.denied);
        return;
      }
      // A browser that cannot reach its push service may never answer: give up after 30 seconds.
      const subscription = await Promise.race([
        registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(texts.vapidKey ?? ''),
        }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(texts.timeout ?? 'timeout')), 30_000)),
      ]);
      await post('/security/push-subscriptions', { ...subscription.toJSON(), locale });
      show(true);
    } catch (error) {
      show(false, `${texts.failed ?? ''} ${error instanceof Error ? error.message : ''}`.trim());
    } finally {
      on.disabled = false;
    }
  });

  off.addEventListener('click', async () => {
    off.disabled = true;
    try {
      const subscription = await registration.pushManager.getSubscription();
      if (subscription !== null) {
        await post('/security/push-subscriptions/remove', { endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      show(false, texts.stopped);
    } catch (error) {
      say(error instanceof Error ? error.message : String(error));
    } finally {
      off.disabled = false;
    }
  });
}
