/**
 * `npm run cli -- <command>` (node src/cli.ts): enables the compile cache and registers the
 * module-resolution hook first, then runs the operator command (src/cli/main.ts).
 */
import './platform/boot/compile-cache.ts';
import './platform/boot/fast-package-resolution.ts';

await import('./cli/main.ts');
