/**
 * Outbound HTTP whose every connection goes to an address checked public in the same DNS answer it
 * connects to (no second resolution, so no DNS rebinding between a check and the request), for code
 * that fetches URLs other parties chose (federation: deliveries to the inboxes remote actors name,
 * actor documents, WebFinger). Code that cannot be handed a `fetch` or a dispatcher (Fedify calls the
 * global `fetch`) runs inside `connections.run(fn)`: every `fetch` made in it, however deep, is
 * dispatched by this instance's pool, whose connector resolves the host once, refuses the host when
 * any answer is not public (unless private addresses are allowed), and connects to those answers only
 * (the socket's own lookup answers them; TLS still verified against the host's name). `fetch` outside any `run` is untouched.
 *
 * The pool is Node's own (the bundled undici's Agent, whose class Node exposes only through its global
 * dispatcher), so no second copy of undici is loaded; the global dispatcher is replaced once per process
 * by a router that hands a request made inside a `run` to that run's pool and any other to Node's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { connect as connectTcp, isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { type AddressLookup, isPublicAddress, type ResolvedAddress, systemLookup } from './public-address.ts';

/** The part of undici's Dispatcher that `fetch` uses. */
interface Dispatcher {
  dispatch(options: unknown, handler: unknown): boolean;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/** What undici's Agent gives a connector (undici's buildConnector options). */
interface ConnectOptions {
  hostname: string;
  protocol: string;
  port: string;
  servername?: string | null;
}

type Connector = (options: ConnectOptions, callback: (error: Error | null, socket: Socket | null) => void) => void;
type AgentClass = new (options: { connect: Connector }) => Dispatcher;

/** A connection refused because its host is, or resolves to, an address that is not public. */
export class AddressRefused extends Error {
  override readonly name = 'AddressRefused';
  readonly code = 'EADDRESSREFUSED';
}

const globalDispatcherKey = Symbol.for('undici.globalDispatcher.1');
const scopes = new AsyncLocalStorage<Dispatcher>();
let routerInstalled: Promise<AgentClass> | null = null;

/** Installs the router as the global dispatcher (once per process); answers the pools' class. */
function installRouter(): Promise<AgentClass> {
  routerInstalled ??= (async () => {
    // Node loads its bundled undici, and makes its default dispatcher, at the first fetch.
    await (await fetch('data:,')).arrayBuffer();
    const original = Reflect.get(globalThis, globalDispatcherKey) as Dispatcher | undefined;
    if (original === undefined) throw new Error("Node's fetch made no global dispatcher");
    const router: Dispatcher = {
      dispatch: (options, handler) => (scopes.getStore() ?? original).dispatch(options, handler),
      close: () => original.close(),
      destroy: () => original.destroy(),
    };
    Reflect.set(globalThis, globalDispatcherKey, router);
    return original.constructor as AgentClass;
  })();
  return routerInstalled;
}

export interface CheckedConnectionsOptions {
  /** Off: any address is reached (FEDERATION_ALLOW_PRIVATE_ADDRESS, closed networks and tests). */
  allowPrivate: boolean;
  lookup?: AddressLookup;
  connectTimeoutMs?: number;
  /** Extra trusted certificates (tests' local https servers). */
  ca?: string | Buffer;
}

export class CheckedConnections {
  readonly #options: CheckedConnectionsOptions;
  #pool: Promise<Dispatcher> | null = null;

  constructor(options: CheckedConnectionsOptions) {
    this.#options = options;
  }

  /** Runs `fn` so that every `fetch` it makes connects through this instance's checks. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    this.#pool ??= installRouter().then((Agent) => new Agent({ connect: this.#connect }));
    return scopes.run(await this.#pool, fn);
  }

  /** The addresses a host may be connected to: every answer of one resolution, once all passed the check. */
  async addressesOf(host: string): Promise<[ResolvedAddress, ...ResolvedAddress[]]> {
    const literal = isIP(host);
    const answers =
      literal !== 0
        ? [{ address: host, family: literal === 6 ? (6 as const) : (4 as const) }]
        : await (this.#options.lookup ?? systemLookup)(host);
    const [first, ...others] = answers;
    if (first === undefined) throw new AddressRefused(`${host} does not resolve`);
    if (!this.#options.allowPrivate && !answers.every(({ address }) => isPublicAddress(address)))
      throw new AddressRefused(`${host} resolves to an address that is not public`);
    return [first, ...others];
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = null;
    if (pool !== null) await (await pool).close();
  }

  readonly #connect: Connector = ({ hostname, protocol, port, servername }, callback) => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    const timeoutMs = this.#options.connectTimeoutMs ?? 10_000;
    this.addressesOf(host).then(
      (addresses) => {
        // The socket tries these addresses (each family in turn, as Node does) and no other: its
        // lookup answers them instead of asking DNS again.
        const pinned: LookupFunction = (_name, options, answer) => {
          if (options.all) answer(null, addresses);
          else answer(null, addresses[0].address, addresses[0].family);
        };
        const tls = protocol === 'https:';
        const target = { host, port: Number(port) || (tls ? 443 : 80), lookup: pinned, autoSelectFamily: true };
        const socket = tls
          ? connectTls({
              ...target,
              servername: isIP(host) === 0 ? (servername ?? host) : undefined,
              ALPNProtocols: ['http/1.1'],
              ...(this.#options.ca ? { ca: this.#options.ca } : {}),
            })
          : connectTcp(target);
        socket.setNoDelay(true);
        socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`connecting to ${host} timed out`)));
        const failed = (error: Error) => callback(error, null);
        socket.once('error', failed);
        socket.once(tls ? 'secureConnect' : 'connect', () => {
          socket.off('error', failed);
          socket.setTimeout(0);
          callback(null, socket);
        });
      },
      (error: Error) => callback(error, null),
    );
  };
}
