/**
 * `npm start` (node src/main.ts): registers the module-resolution hook first, so that it applies to
 * every module the server loads, then starts the server (src/server.ts).
 */
import './platform/boot/fast-package-resolution.ts';

await import('./server.ts');
