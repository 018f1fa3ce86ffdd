/**
 * @simplewebauthn/server, loaded at the first passkey ceremony rather than at start-up: it brings
 * @peculiar's X.509 and ASN.1 packages, tsyringe and reflect-metadata (about 250 modules, 0.1 to 0.2 s
 * of a start's CPU; docs/benchmarks.md, Start-up), which most starts never use.
 */
let loading: Promise<typeof import('@simplewebauthn/server')> | null = null;

export function loadWebAuthn(): Promise<typeof import('@simplewebauthn/server')> {
  loading ??= import('@simplewebauthn/server');
  return loading;
}
