/// <reference lib="dom" />
/**
 * The carousels' keys (pages/carousel.ts): the carousel scrolls and snaps by itself (CSS), so a finger
 * swipes it with no script; this only makes the arrow keys (and Home, End) on a focused carousel move
 * exactly one photo, which the browsers' own keyboard scrolling of a snapping list does not promise.
 * Listened to on the document, so a carousel put in the page later (the explorer's panel) has them too.
 */
const steps: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (index, last) => Math.min(index + 1, last),
  ArrowLeft: (index) => Math.max(index - 1, 0),
  Home: () => 0,
  End: (_, last) => last,
};

document.addEventListener('keydown', (event) => {
  const step = steps[event.key];
  const track = event.target instanceof HTMLElement ? event.target.closest('.carousel__track') : null;
  if (step === undefined || !(track instanceof HTMLElement) || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  const width = track.clientWidth;
  const index = Math.round(track.scrollLeft / width);
  track.scrollTo({ left: step(index, track.children.length - 1) * width, behavior: 'smooth' });
});
