/**
 * The rules of bookmark collections: names NFC-normalized, 1 to 60 characters, unique per user
 * whatever their case; at most `collectionsPerUser` collections per user.
 */
import type { Clock } from '../../platform/clock.ts';
import { uniqueViolation } from '../../platform/db/errors.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import { type CollectionsRepository, type CollectionWithCount, collectionNameIndex } from './collections.repository.ts';

export const collectionNameMaxLength = 60;
/** How many collections one user may have (docs/api.md); the next is 409 collectionLimitReached. */
export const collectionsPerUser = 100;

/**
 * NFC-normalizes and trims the name (so "é" typed either way is one name, and uniqueness holds);
 * blank names are refused like any invalid field.
 */
function normalizeName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (name.length === 0 || name.length > collectionNameMaxLength) {
    throw new AppError('validationFailed', {
      source: { pointer: '/name' },
      detail: `must be 1 to ${collectionNameMaxLength} characters once trimmed`,
    });
  }
  return name;
}

const collectionNotFound = () =>
  new AppError('notFound', { source: { parameter: 'collectionId' }, detail: 'no such collection of yours' });

async function refusingTakenName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error) === collectionNameIndex) {
      throw new AppError('collectionNameTaken', { source: { pointer: '/name' }, meta: { name } });
    }
    throw error;
  }
}

export interface CollectionsServiceDeps {
  repository: CollectionsRepository;
  clock: Clock;
  transactions: Transactions;
  users: UsersService;
}

export class CollectionsService {
  readonly #deps: CollectionsServiceDeps;

  constructor(deps: CollectionsServiceDeps) {
    this.#deps = deps;
  }

  /** Counted under the user's lock, so parallel creations cannot pass the limit. */
  create(userId: string, rawName: string): Promise<CollectionWithCount> {
    const name = normalizeName(rawName);
    return refusingTakenName(name, () =>
      this.#deps.transactions.run(async () => {
        if ((await this.#deps.users.lock(userId)) === null) throw new AppError('notFound');
        if ((await this.#deps.repository.countOfUser(userId)) >= collectionsPerUser) {
          throw new AppError('collectionLimitReached', {
            meta: { limit: collectionsPerUser },
            values: { limit: collectionsPerUser },
          });
        }
        const now = this.#deps.clock.now();
        return this.#deps.repository.insert({ id: newId(), userId, name, createdAt: now, updatedAt: now });
      }),
    );
  }

  async rename(userId: string, id: string, rawName: string): Promise<CollectionWithCount> {
    const name = normalizeName(rawName);
    const renamed = await refusingTakenName(name, () =>
      this.#deps.repository.rename(userId, id, name, this.#deps.clock.now()),
    );
    if (!renamed) throw collectionNotFound();
    return this.requireOwn(userId, id);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.#deps.repository.delete(userId, id))) throw collectionNotFound();
  }

  list(userId: string, page: PageRequest) {
    return this.#deps.repository.list(userId, page);
  }

  /** One of the user's collections; another user's is as missing as an unknown one (404). */
  async requireOwn(
    userId: string,
    id: string,
    source: { parameter: string } | { pointer: string } = { parameter: 'collectionId' },
  ) {
    const found = await this.#deps.repository.find(userId, id);
    if (found === null) throw new AppError('notFound', { source, detail: 'no such collection of yours' });
    return found;
  }
}
