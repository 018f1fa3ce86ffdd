/**
 * The site's service worker (served at /push-worker.js, scope /): shows each Web Push of this site as a
 * notification (the payload of docs/api.md, Push subscriptions: title, body, tag, url) and opens its
 * link on a click, focusing a tab of the site when one is open. It needs nothing from the network to
 * show a push: the texts come in the payload, already in the subscription's language.
 */

/** The parts of the service worker scope this file uses (the DOM library types the pages, not workers). */
interface WorkerScope {
  location: Location;
  registration: {
    showNotification(title: string, options: { body?: string; tag?: string; data?: unknown }): Promise<void>;
  };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(
    type: 'install' | 'activate' | 'push' | 'notificationclick',
    listener: (event: WorkerEvent) => void,
  ): void;
}
/** install and activate, push (`data`) and notificationclick (`notification`) events. */
interface WorkerEvent {
  waitUntil(promise: Promise<unknown>): void;
  data?: { json(): unknown; text(): string } | null;
  notification?: { close(): void; data?: { url?: unknown } | null };
}
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface Payload {
  title?: unknown;
  body?: unknown;
  tag?: unknown;
  url?: unknown;
}

const worker = self as unknown as WorkerScope;

worker.addEventListener('install', () => {
  void worker.skipWaiting();
});
worker.addEventListener('activate', (event) => {
  event.waitUntil(worker.clients.claim());
});

/** A link of this site only: anything else opens the home page. */
function linkOf(url: unknown): string {
  try {
    const target = new URL(typeof url === 'string' ? url : '/', worker.location.origin);
    return target.origin === worker.location.origin ? target.href : `${worker.location.origin}/`;
  } catch {
    return `${worker.location.origin}/`;
  }
}

worker.addEventListener('push', (event) => {
  let payload: Payload = {};
  try {
    payload = (event.data?.json() ?? {}) as Payload;
  } catch {
    payload = { body: event.data?.text() };
  }
  const title = typeof payload.title === 'string' && payload.title !== '' ? payload.title : worker.location.host;
  event.waitUntil(
    worker.registration.showNotification(title, {
      body: typeof payload.body === 'string' ? payload.body : '',
      ...(typeof payload.tag === 'string' ? { tag: payload.tag } : {}),
      data: { url: linkOf(payload.url) },
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification?.close();
  const url = linkOf(event.notification?.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url.startsWith(worker.location.origin));
      if (open === undefined) return worker.clients.openWindow(url);
      await open.focus();
      return open.navigate(url);
    })(),
  );
});
