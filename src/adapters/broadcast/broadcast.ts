/**
 * Messages to every running instance of the service (this one included), for what each keeps in
 * memory: e.g. "forget this user's cached sessions". Delivery is at most once: a message sent while
 * an instance is disconnected is lost to it, so a subscriber is told (`onGap`) whenever messages may
 * have been missed, and then drops what it cached.
 */
export interface Broadcast {
  /** Sends a message on a channel; resolves once handed to the transport (never throws). */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Calls `onMessage` for each message on the channel, and `onGap` each time the subscription
   * (re)connects, since messages sent before that may not have arrived.
   */
  subscribe(channel: string, onMessage: (message: string) => void, onGap: () => void): void;
  close(): Promise<void>;
}
