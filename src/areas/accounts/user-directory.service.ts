/** Finding other users: the caller's sponsorship list (name search lives in the search area). */

import type { PageRequest } from '../../platform/db/page-request.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { UserDirectoryRepository } from './user-directory.repository.ts';

export class UserDirectoryService {
  private readonly directory: UserDirectoryRepository;
  private readonly accounts: AccountsRepository;

  constructor(directory: UserDirectoryRepository, accounts: AccountsRepository) {
    this.directory = directory;
    this.accounts = accounts;
  }

  async sponsorship(userId: string, page: PageRequest) {
    const user = await this.accounts.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    const [rows, total] = await Promise.all([
      this.directory.sponsored(userId, page),
      this.directory.countSponsored(userId),
    ]);
    return { sponsorCode: user.sponsorCode, rows, total };
  }
}
