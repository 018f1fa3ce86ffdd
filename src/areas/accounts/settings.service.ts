/** The caller's settings (stored overrides over defaults) and postal address. */
import type { Clock } from '../../platform/clock.ts';
import { AppError, AppErrors } from '../../platform/http/error-catalogue.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { checkedAddress } from './address-rules.ts';
import type { PostalAddress, UserSettings } from './tables.ts';

/** What an account has until it says otherwise (docs/api.md explains each choice). */
export const defaultSettings: UserSettings = {
  publishLocationByDefault: true,
  showReactionsPublicly: false,
  discoverable: true,
  marketingEmails: false,
};

export const settingsOf = (stored: Partial<UserSettings>): UserSettings => ({ ...defaultSettings, ...stored });

export type AddressPatch = Partial<{ [K in keyof PostalAddress]: PostalAddress[K] }>;

export class SettingsService {
  private readonly repository: AccountsRepository;
  private readonly clock: Clock;

  constructor(repository: AccountsRepository, clock: Clock) {
    this.repository = repository;
    this.clock = clock;
  }

  async #user(userId: string) {
    const user = await this.repository.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    return user;
  }

  async settings(userId: string): Promise<UserSettings> {
    return settingsOf((await this.#user(userId)).settings);
  }

  /** Applies every given key or none (the body is validated whole before this runs). */
  async updateSettings(userId: string, patch: Partial<UserSettings>): Promise<UserSettings> {
    const row = await this.repository.mergeSettings(userId, patch, this.clock.now());
    if (row === null) throw new AppError('notFound');
    return settingsOf(row.settings);
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
    await this.repository.updateUser(userId, { address, updatedAt: this.clock.now() });
    return address;
  }

  async deleteAddress(userId: string): Promise<void> {
    await this.repository.updateUser(userId, { address: null, updatedAt: this.clock.now() });
  }
}
