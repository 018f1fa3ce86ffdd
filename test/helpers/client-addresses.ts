/**
 * Client IPs for requests behind a trusted proxy (TRUST_PROXY, sent as X-Forwarded-For): a new one at
 * every call, so that anonymous requests are different visitors (10.0.0.1, 10.0.0.2, ...).
 */
export function clientAddresses(): () => string {
  let count = 0;
  return () => {
    count += 1;
    return `10.0.${count >> 8}.${count & 255}`;
  };
}
