/**
 * sharp (libvips), loaded on the first image rather than at start-up: about 20 MB a start needs not pay.
 *
 * libvips runs one image on one thread (`sharp.concurrency(1)`): each sharp call already occupies a
 * thread of the libuv pool, and the number of renders at once is bounded by the render queue
 * (MEDIA_RENDER_CONCURRENCY, src/areas/media/render-queue.ts), so images use at most that many cores
 * and leave the others to the event loop, file reads and password hashing. By default libvips would
 * start a thread per core for every image, and a few renders would take every core.
 */
let loading: Promise<typeof import('sharp')> | null = null;

export async function loadSharp() {
  loading ??= import('sharp').then((module) => {
    module.default.concurrency(1);
    return module;
  });
  return (await loading).default;
}
