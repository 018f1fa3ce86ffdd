/**
 * The sections of a user's data export (GET /api/users/me/export): each area that keeps something of
 * a user registers a section in its module's `create`, as it registers its stats providers:
 *
 *   exports.register({
 *     name: 'follows-following',
 *     description: 'The accounts you follow, and since when.',
 *     rows: (userId) => keysetBatches((after, limit) => repository.exportFollowing(userId, after, limit), (row) => row.followeeId),
 *   });
 *
 * A section's rows become `<name>.json` in the archive (a JSON array, written row by row); its files
 * (media originals) are added under the paths they name. Rows are read in keyset batches, never all at
 * once (keyset-batches.ts), so an export's memory does not grow with the user's data.
 */

/** A file of the archive beside the rows (e.g. `media/<hex>.jpg`); opened only when its turn comes. */
export interface ExportFile {
  path: string;
  open(): Promise<NodeJS.ReadableStream>;
}

export interface ExportSection {
  /** Unique kebab-case; the rows become `<name>.json` in the archive. */
  name: string;
  /** One English line, written in the manifest and the README. */
  description: string;
  /** Read in keyset batches, never all at once. */
  rows(userId: string): AsyncIterable<Record<string, unknown>>;
  /** E.g. media originals under media/. */
  files?(userId: string): AsyncIterable<ExportFile>;
}

const sectionName = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Names the archive itself uses. */
const reservedNames = new Set(['manifest', 'readme']);

export class ExportRegistry {
  readonly #sections = new Map<string, ExportSection>();

  register(section: ExportSection): void {
    if (!sectionName.test(section.name)) throw new Error(`export section ${section.name}: not kebab-case`);
    if (reservedNames.has(section.name)) throw new Error(`export section ${section.name}: reserved name`);
    if (this.#sections.has(section.name)) throw new Error(`export section ${section.name} registered twice`);
    this.#sections.set(section.name, section);
  }

  /** Every section, in registration order (the areas' build order). */
  sections(): readonly ExportSection[] {
    return [...this.#sections.values()];
  }
}
