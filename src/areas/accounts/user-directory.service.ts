/** Finding other users: the caller's sponsorship list (name search lives in the search area). */

import type { PageRequest } from '../../platform/db/page-request.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { UserDirectoryRepository } from './user-directory.repository.ts';

export interface UserDirectoryServiceDeps {
  directory: UserDirectoryRepository;
  accounts: AccountsRepository;
}

export class UserDirectoryService {
  readonly #deps: UserDirectoryServiceDeps;

  constructor(deps: UserDirectoryServiceDeps) {
    this.#deps = deps;
  }

  async sponsorship(userId: string, page: PageRequest) {
    const user = await this.#deps.accounts.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    const [rows, total] = await Promise.all([
      this.#deps.directory.sponsored(userId, page),
      this.#deps.directory.countSponsored(userId),
    ]);
    return { sponsorCode: user.sponsorCode, rows, total };
  }
}
