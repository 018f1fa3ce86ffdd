/**
 * Keeps documents current on writes: each event refreshes its source's document in the producer's
 * transaction, so a change and its document commit (or roll back) together.
 */
import type { EventBus } from '../../platform/events/domain-events.ts';
import '../accounts/events.ts';
import { isActiveUser } from '../accounts/read-model.ts';
import '../media/events.ts';
import type { SearchIndexService } from './search-index.service.ts';

export function subscribeToSources(events: EventBus, index: SearchIndexService): void {
  // Every new account, registered or made by an operator.
  events.subscribe('user.created', 'inTransaction', 'search.indexNewUser', async ({ user }) => {
    await index.sync('user', user.id);
  });
  events.subscribe('user.changed', 'inTransaction', 'search.reindexUser', async ({ user }) => {
    await index.sync('user', user.id);
    // A ban, an erasure or a confirmed deletion takes the user's media out of the index too.
    if (!isActiveUser(user)) {
      await index.refreshMediaOf(user.id);
    }
  });
  // A lifted ban brings the user's media back into the index.
  events.subscribe('user.unbanned', 'inTransaction', 'search.restoreMediaOfUser', async ({ userId }) => {
    await index.refreshMediaOf(userId);
  });
  events.subscribe('media.published', 'inTransaction', 'search.indexNewMedia', async ({ media }) => {
    await index.sync('media', media.id);
  });
  events.subscribe('media.changed', 'inTransaction', 'search.reindexMedia', async ({ media }) => {
    await index.sync('media', media.id);
  });
  events.subscribe('media.deleted', 'inTransaction', 'search.removeMedia', async ({ media }) => {
    await index.sync('media', media.id);
  });
}
