/** sharp (libvips), loaded on the first image rather than at start-up: about 20 MB a start needs not pay. */
let loading: Promise<typeof import('sharp')> | null = null;

export async function loadSharp() {
  loading ??= import('sharp');
  return (await loading).default;
}
