/**
 * `npm run cli -- <command>` (node src/cli.ts): registers the module-resolution hook first, then runs
 * the operator command (src/cli/main.ts).
 */
import './platform/boot/fast-package-resolution.ts';

await import('./cli/main.ts');
