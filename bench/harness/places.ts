/** Where code comes from, as the tables print it. */
import { pathToFileURL } from 'node:url';
import { checkoutDir } from './cpu.ts';

const checkoutUrl = pathToFileURL(`${checkoutDir}/`).href;

/** `file:///<checkout>/src/areas/x.ts` → `src/areas/x.ts`; a package's file from its name on. */
export function shortPlace(url: string): string {
  if (url === '') return '(native)';
  const inPackage = url.lastIndexOf('node_modules/');
  if (inPackage >= 0) return url.slice(inPackage + 'node_modules/'.length);
  return url.startsWith(checkoutUrl) ? url.slice(checkoutUrl.length) : url;
}
