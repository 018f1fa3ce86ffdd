/**
 * The rules of share links (docs/api.md, Share links): a link to one of the owner's targets, with an
 * optional expiry (in the future) and an optional password (argon2id, 4 to 128 characters); its token
 * is shown once, at creation, and only its SHA-256 is kept. A link opens while it exists, has not
 * expired, its owner is visible to the visitor (not banned, not being deleted, no block between them)
 * and its target still shows something; anything else is one and the same 404. Nothing is cached, so a
 * revoked link stops opening at once on every instance.
 */
import type { Clock } from '../../platform/clock.ts';
import { type Page, pageOf } from '../../platform/db/page.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { newId, parseUuidOrHex } from '../../platform/ids/ids.ts';
import { hashToken, newSecretToken } from '../../platform/secrets/opaque-tokens.ts';
import { hashPassword, verifyPassword } from '../../platform/secrets/password-hashes.ts';
import type { UsersService } from '../accounts/public.ts';
import { type OwnShareLink, type ShareLinksRepository, shareLinksKeyset } from './share-links.repository.ts';
import { type SharedView, type ShareTargets, targetNotFound } from './share-targets.ts';

export const shareLinkLimits = { passwordMinLength: 4, passwordMaxLength: 128 } as const;

/** The prefix of share link tokens (`tmsl_` and 43 base64url characters). */
export const shareTokenPrefix = 'tmsl';
export const shareLinkPath = (token: string) => `/s/${token}`;

export interface NewShareLink {
  targetKind: string;
  targetId: string;
  expiresAt?: Date | null;
  password?: string | null;
}

/** What opening a link gives: the target's view, or the password form (again, after a wrong one). */
export type OpenedShareLink =
  | { state: 'open'; view: SharedView; link: OwnShareLink }
  | { state: 'passwordRequired'; wrongPassword: boolean };

const linkNotFound = () => new AppError('notFound', { source: { parameter: 'token' } });

export interface ShareLinksServiceDeps {
  transactions: Transactions;
  repository: ShareLinksRepository;
  targets: ShareTargets;
  users: UsersService;
  clock: Clock;
}

export class ShareLinksService {
  readonly #deps: ShareLinksServiceDeps;

  /** The keyset of list, for its route. */
  readonly keyset = shareLinksKeyset;

  constructor(deps: ShareLinksServiceDeps) {
    this.#deps = deps;
  }

  /** The kinds a link may open (a post, a collection, and those other areas registered). */
  get targets(): ShareTargets {
    return this.#deps.targets;
  }

  /** A new link and its token (shown this once: only its hash is kept). */
  async create(ownerId: string, request: NewShareLink): Promise<{ link: OwnShareLink; token: string }> {
    const { clock, repository, transactions, users } = this.#deps;
    const target = this.#deps.targets.require(request.targetKind);
    const targetId = parseUuidOrHex(request.targetId);
    if (targetId === null) throw targetNotFound();
    const now = clock.now();
    const expiresAt = request.expiresAt ?? null;
    if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
      throw new AppError('expiryInPast', { source: { pointer: '/expiresAt' } });
    }
    // Hashed before the transaction: argon2 takes tens of milliseconds, no lock should wait for it.
    const passwordHash = request.password == null ? null : await hashPassword(request.password);
    const token = newSecretToken(shareTokenPrefix);
    const link = await transactions.run(async () => {
      if ((await users.lock(ownerId)) === null) throw new AppError('notFound');
      await target.requireOwn(ownerId, targetId);
      return repository.insert({
        id: newId(),
        ownerId,
        targetKind: request.targetKind,
        targetId,
        tokenHash: hashToken(token),
        passwordHash,
        expiresAt,
        views: 0,
        createdAt: now,
      });
    });
    return { link, token };
  }

  async list(ownerId: string, page: PageRequest): Promise<Page<OwnShareLink>> {
    return pageOf(await this.#deps.repository.list(ownerId, page), page, shareLinksKeyset);
  }

  /** Revokes one of the owner's links: it stops opening at once. */
  async revoke(ownerId: string, id: string): Promise<void> {
    if (!(await this.#deps.repository.delete(ownerId, id))) {
      throw new AppError('notFound', { source: { parameter: 'id' }, detail: 'no such share link of yours' });
    }
  }

  /**
   * Opens a link for a visitor (signed in or not): its target's view, counted once, or the password
   * form. Unknown, revoked and expired links, hidden owners and targets gone are the same 404, and the
   * password is asked before anything of the target's state is told.
   */
  async open(token: string, viewerId: string | null, locale: Locale, password?: string): Promise<OpenedShareLink> {
    const { clock, repository, targets, users } = this.#deps;
    const row = await repository.findByTokenHash(hashToken(token));
    if (row === null) throw linkNotFound();
    if (row.expiresAt !== null && row.expiresAt.getTime() <= clock.now().getTime()) throw linkNotFound();
    if ((await users.findVisibleTo(row.ownerId, viewerId)) === null) throw linkNotFound();
    if (row.passwordHash !== null) {
      if (password === undefined) return { state: 'passwordRequired', wrongPassword: false };
      if (!(await verifyPassword(row.passwordHash, password)))
        return { state: 'passwordRequired', wrongPassword: true };
    }
    const view = await targets.find(row.targetKind)?.view(row.ownerId, row.targetId, locale);
    if (view == null) throw linkNotFound();
    if (!(await repository.countView(row.id))) throw linkNotFound();
    const { tokenHash: _token, passwordHash, ...link } = row;
    return { state: 'open', view, link: { ...link, views: link.views + 1, hasPassword: passwordHash !== null } };
  }

  /** An erased account's links (`user.erasing`). */
  eraseUser(ownerId: string): Promise<void> {
    return this.#deps.repository.eraseUser(ownerId);
  }
}
