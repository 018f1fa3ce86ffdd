/** The caller's settings (stored overrides over defaults) and postal address. */
import type { Clock } from '../../platform/clock.ts';
import { AppError, AppErrors } from '../../platform/http/error-catalogue.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { countryCodes } from './country-codes.ts';
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

const requiredAddressFields = ['recipient', 'line1', 'postalCode', 'city', 'countryCode'] as const;

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
   * Merges the given fields into the stored address (or a new one). The result must hold every
   * required field; blank optional fields become null. All problems are reported at once.
   */
  async updateAddress(userId: string, patch: AddressPatch): Promise<PostalAddress> {
    const current = (await this.#user(userId)).address;
    const merged: Record<string, string | null> = { ...(current ?? {}) };
    for (const [key, value] of Object.entries(patch)) merged[key] = typeof value === 'string' ? value.trim() : null;
    const problems: AppError[] = [];
    for (const field of requiredAddressFields) {
      if (!merged[field]) {
        problems.push(
          new AppError('validationFailed', {
            source: { pointer: `/${field}` },
            detail: current ? 'must not be blank' : 'is required for a first address',
          }),
        );
      }
    }
    const country = merged.countryCode?.toUpperCase() ?? null;
    if (country && !countryCodes.has(country)) {
      problems.push(
        new AppError('validationFailed', {
          source: { pointer: '/countryCode' },
          detail: 'must be an ISO 3166-1 alpha-2 country code',
        }),
      );
    }
    if (problems.length > 0) throw new AppErrors(422, problems);
    const address: PostalAddress = {
      recipient: merged.recipient!,
      line1: merged.line1!,
      line2: merged.line2 || null,
      postalCode: merged.postalCode!,
      city: merged.city!,
      region: merged.region || null,
      countryCode: country!,
      phone: merged.phone || null,
    };
    await this.repository.updateUser(userId, { address, updatedAt: this.clock.now() });
    return address;
  }

  async deleteAddress(userId: string): Promise<void> {
    await this.repository.updateUser(userId, { address: null, updatedAt: this.clock.now() });
  }
}
