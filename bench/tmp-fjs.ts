import fjs from 'fast-json-stringify';
import { NotificationSchema } from '../src/areas/notifications/presenters.ts';
import { MediaSchema } from '../src/areas/media/presenters.ts';
import { CollectionSchema } from '../src/platform/http/jsonapi.ts';
const n = { type: 'notifications', id: '8494d144-4534-4c32-8bf4-067309e9b800', attributes: { type: 'user.level.up', title: 'You reached level 12', body: 'Keep exploring: level 13 is 1,300 XP away.', locale: 'en-US', data: { level: 12, previousLevel: 11, experience: 7800 }, isRead: false, readAt: null, createdAt: '2026-01-01T00:00:00.000+00:00' } };
const m = { type: 'media', id: '8494d144-4534-4c32-8bf4-067309e9b800', attributes: { hex: '8494d14445344c328bf4067309e9b800', kind: 'post', description: null, hashtags: ['a','b'], width: 4000, height: 3000, urls: { thumb: '/media/x.webp?size=thumb', small: '/media/x.webp?size=small', large: '/media/x.webp?size=large', original: '/media/x.jpg' }, likesCount: 1, dislikesCount: 0, bookmarksCount: 2, commentsCount: 0, position: { latitude: 1.5, longitude: 2.5 }, takenAt: '2026-01-01T00:00:00.000+00:00', createdAt: '2026-01-01T00:00:00.000+00:00' }, relationships: { owner: { data: { type: 'users', id: '8494d144-4534-4c32-8bf4-067309e9b800' } } } };
for (const [name, schema, item] of [['notifications', NotificationSchema, n], ['media', MediaSchema, m]] as const) {
  const doc = { data: Array.from({ length: 20 }, () => item), meta: { limit: 20, total: 5 }, links: { self: '/x', next: null, prev: null } };
  const stringify = fjs(JSON.parse(JSON.stringify(CollectionSchema(schema))));
  for (const [kind, fn] of [['fjs', () => stringify(doc)], ['JSON.stringify', () => JSON.stringify(doc)]] as const) {
    for (let i = 0; i < 3000; i++) fn();
    const t0 = performance.now();
    for (let i = 0; i < 5000; i++) fn();
    console.log(name, kind, ((performance.now() - t0) / 5000 * 1000).toFixed(1), 'µs per page');
  }
}
