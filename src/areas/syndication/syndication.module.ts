/**
 * Syndication: RSS 2.0 and Atom feeds (a profile, a hashtag, and any kind another area registers on
 * `syndication.feeds.sources`) and oEmbed (a post, a profile, and kinds registered on
 * `syndication.oembed.kinds`). It keeps no rows: everything it serves is public content read through
 * the owners' services and read models. The embeddable cards and the pages' discovery links are the web area's.
 */
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { postEmbeds, profileEmbeds } from './built-in-embeds.ts';
import { hashtagFeed, profileFeed } from './built-in-feeds.ts';
import { FeedSources } from './feed-sources.ts';
import { FeedsService } from './feeds.service.ts';
import { OEmbedService } from './oembed.service.ts';
import { OEmbedKinds } from './oembed-kinds.ts';
import { SyndicationRepository } from './syndication.repository.ts';
import { syndicationRoutes } from './syndication.routes.ts';

export const syndicationArea = defineArea({
  name: 'syndication',
  needs: ['accounts', 'media'],
  create({ transactions, clock, caches }, { accounts, media }) {
    const repository = new SyndicationRepository(transactions);
    const sources = new FeedSources();
    sources.register('profile', profileFeed(accounts, media));
    sources.register('hashtag', hashtagFeed(repository, media));
    const feeds = new FeedsService({ sources, clock });
    caches.register('syndication.feeds', feeds.cache);
    const kinds = new OEmbedKinds();
    kinds.register('post', postEmbeds(accounts, media));
    kinds.register('profile', profileEmbeds(accounts, media));
    return { feeds, oembed: new OEmbedService(kinds) };
  },
  routes: (app, services) => registerRoutes(app, 'syndication', syndicationRoutes(services)),
});
