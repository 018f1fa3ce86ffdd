/** The caller's settings (stored overrides over defaults) and postal address. */
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError, AppErrors } from '../../platform/http/error-catalogue.ts';
import type { GeographyService } from '../geography/public.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { checkedAddress } from './address-rules.ts';
import type { PostalAddress, UserSettings } from './tables.ts';

/** What an account has until it says otherwise (docs/api.md explains each choice). */
export const defaultSettings: UserSettings = {
  publishLocationByDefault: true,
  showReactionsPublicly: false,
  discoverable: true,
  marketingEmails: false,
  birthCityId: null,
  blurSensitiveMedia: true,
};

export const settingsOf = (stored: Partial<UserSettings>): UserSettings => ({ ...defaultSettings, ...stored });

export type AddressPatch = Partial<{ [K in keyof PostalAddress]: PostalAddress[K] }>;

export interface SettingsServiceDeps {
  repository: AccountsRepository;
  clock: Clock;
  transactions: Transactions;
  events: EventBus;
  geography: GeographyService;
}

export class SettingsService {
  readonly #deps: SettingsServiceDeps;

  constructor(deps: SettingsServiceDeps) {
    this.#deps = deps;
  }

  async #user(userId: string) {
    const user = await this.#deps.repository.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    return user;
  }

  async settings(userId: string): Promise<UserSettings> {
    return settingsOf((await this.#user(userId)).settings);
  }

  /** Applies every given key or none (the body is validated whole before this runs). */
  async updateSettings(userId: string, patch: Partial<UserSettings>): Promise<UserSettings> {
    if (typeof patch.birthCityId === 'string')
      patch = { ...patch, birthCityId: await this.#birthCity(patch.birthCityId) };
    const row = await this.#deps.transactions.run(async () => {
      const row = await this.#deps.repository.mergeSettings(userId, patch, this.#deps.clock.now());
      if (row === null) throw new AppError('notFound');
      await this.#deps.events.publish('user.changed', { user: row });
      return row;
    });
    return settingsOf(row.settings);
  }

  /** A known city's canonical id, or 422 pointing at birthCityId. */
  async #birthCity(id: string): Promise<string> {
    const city = await this.#deps.geography.cityById(id.toLowerCase());
    if (city === null) {
      throw new AppError('validationFailed', { source: { pointer: '/birthCityId' }, detail: 'no city has this id' });
    }
    return city.id;
  }

  /** The user's birth city id (GET /api/cities/{id}), or null: for other areas (recommendations, trending). */
  async birthCityId(userId: string): Promise<string | null> {
    return (await this.settings(userId)).birthCityId;
  }

  async address(userId: string): Promise<PostalAddress | null> {
    return (await this.#user(userId)).address ?? null;
  }

  /**
   * Merges the given fields into the stored address (or a new one), with the rules of
   * address-rules.ts; all problems are reported at once.
   */
  async updateAddress(userId: string, patch: AddressPatch): Promise<PostalAddress> {
    const { address, problems } = checkedAddress((await this.#user(userId)).address, patch);
    if (address === null) throw new AppErrors(422, problems);
    await this.#deps.repository.updateUser(userId, { address, updatedAt: this.#deps.clock.now() });
    return address;
  }

  async deleteAddress(userId: string): Promise<void> {
    await this.#deps.repository.updateUser(userId, { address: null, updatedAt: this.#deps.clock.now() });
  }
}
