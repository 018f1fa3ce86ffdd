/** What the inbox handlers act through: the other areas' service methods, and the remote actors. */
import type { AcceptHandlerDeps } from './accept-handlers.ts';
import type { RemoteCommentHandlerDeps } from './create-handlers.ts';
import type { DeleteHandlerDeps } from './delete-handlers.ts';
import type { FlagHandlerDeps } from './flag-handlers.ts';
import type { FollowHandlerDeps } from './follow-handlers.ts';
import type { LikeHandlerDeps } from './like-handlers.ts';
import type { RemotePostHandlerDeps } from './remote-post-handlers.ts';

export type InboundDeps = FollowHandlerDeps &
  LikeHandlerDeps &
  DeleteHandlerDeps &
  RemoteCommentHandlerDeps &
  FlagHandlerDeps &
  AcceptHandlerDeps &
  RemotePostHandlerDeps;
