/**
 * A Server-Sent Events client over a real socket (node:http), as a browser's EventSource reads a
 * stream: it parses `id:`, `event:`, `data:` and comment lines into events, and keeps them in order.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { waitFor } from './wait-for.ts';

export interface StreamEvent {
  id: string | undefined;
  event: string;
  data: any;
}

export interface OpenedStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Events received so far, in order. */
  events: StreamEvent[];
  /** Comment lines received (heartbeats), and the `retry:` value if one came. */
  comments: string[];
  retry: number | null;
  /** The body of an answer that is not a stream (an error document). */
  body: string;
  /** True once the server ended the stream. */
  ended: boolean;
  /** Waits for an event matching `test` (bounded by waitFor). */
  next(label: string, test: (event: StreamEvent) => boolean): Promise<StreamEvent>;
  /** The last event id received, as EventSource keeps it. */
  lastEventId(): string | undefined;
  close(): void;
}

export function openEventStream(
  baseUrl: string,
  options: { token?: string; cookie?: string; lastEventId?: string; path?: string; locale?: string } = {},
): Promise<OpenedStream> {
  const url = new URL(options.path ?? '/api/users/me/notifications/stream', baseUrl);
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  if (options.locale) headers['accept-language'] = options.locale;
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const opened: OpenedStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: [],
        retry: null,
        body: '',
        ended: false,
        next(label, test) {
          return waitFor(label, () => opened.events.find(test));
        },
        lastEventId() {
          return opened.events.findLast((event) => event.id !== undefined)?.id;
        },
        close() {
          req.destroy();
        },
      };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!String(res.headers['content-type']).startsWith('text/event-stream')) {
          opened.body += chunk;
          return;
        }
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: StreamEvent = { id: undefined, event: 'message', data: undefined };
          let hasData = false;
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === '') opened.comments.push(value);
            else if (field === 'id') event.id = value;
            else if (field === 'event') event.event = value;
            else if (field === 'retry') opened.retry = Number(value);
            else if (field === 'data') {
              event.data = JSON.parse(value);
              hasData = true;
            }
          }
          if (hasData) opened.events.push(event);
        }
      });
      res.on('end', () => {
        opened.ended = true;
      });
      res.on('close', () => {
        opened.ended = true;
      });
      resolve(opened);
    });
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}
