/**
 * What other areas may read of reactions in their own queries (discovery's trending counts likes in a
 * window). Read only: reactions change through ReactionsService.
 */
export { mediaReactions as reactionRows } from './tables.ts';
