/**
 * `npm start` (node src/main.ts): enables the compile cache and registers the module-resolution hook
 * first, so that both apply to every module the server loads, then starts the server (src/server.ts).
 */
import './platform/boot/allocator-settings.ts';
import './platform/boot/compile-cache.ts';
import './platform/boot/fast-package-resolution.ts';

await import('./server.ts');
