/**
 * Coupons: codes operators create (POST /admin/coupons) that users redeem once each for experience or
 * badge levels, through POST /api/users/me/coupons or at registration (`couponCode` in
 * `user.registered`, redeemed in the registration's transaction: a bad code fails the registration).
 */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { couponsAdminRoutes } from './coupons.admin-routes.ts';
import { CouponsRepository } from './coupons.repository.ts';
import { couponsRoutes } from './coupons.routes.ts';
import { CouponsService } from './coupons.service.ts';

export const couponsArea = defineArea({
  name: 'coupons',
  needs: ['accounts', 'gamification'],
  create({ transactions, events, audit, clock, stats, exports }, { accounts, gamification }) {
    const repository = new CouponsRepository(transactions);
    exports.register({
      name: 'coupon-redemptions',
      description: 'The coupons you redeemed, what they gave you, and when.',
      rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
    });
    const coupons = new CouponsService(
      transactions,
      repository,
      accounts.users,
      gamification.gamification,
      audit,
      clock,
    );
    stats.register('couponRedemptions', (since) => repository.stats(since));
    events.subscribe('user.erasing', 'inTransaction', 'coupons.erase', ({ userId }) => repository.eraseUser(userId));
    events.subscribe(
      'user.registered',
      'inTransaction',
      'coupons.redeemAtRegistration',
      async ({ user, couponCode }) => {
        if (couponCode !== undefined) await coupons.redeem(user.id, couponCode, '/couponCode');
      },
    );
    return { coupons };
  },
  routes(app, services) {
    registerRoutes(app, 'admin', couponsAdminRoutes(services));
    registerRoutes(app, 'account', couponsRoutes(services));
  },
});
