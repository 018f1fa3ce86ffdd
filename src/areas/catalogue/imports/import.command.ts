/**
 * `import:establishments|offers|brands <file> [--json]`: a JSON or CSV file upserted row by row (see
 * importer.ts), then a report; and `import:demo [--json]`, the demo catalogue shipped in ../demo.
 * The file is read by the process that runs the command (the server, with PGlite while it runs), from
 * the operator's directory.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { parseOptions } from '../../../cli/args.ts';
import { type CliCommand, type CliContext, CliError } from '../../../cli/command.ts';
import type { AreaServices, Platform } from '../../../platform/modules/area-module.ts';
import { csvRows, type SourceRow } from './csv-rows.ts';
import { ImportRepository } from './import.repository.ts';
import { CatalogueImporter, type ImportReport } from './importer.ts';
import { jsonRows } from './json-rows.ts';
import { progressBar } from './progress.ts';
import type { Dataset } from './rows.ts';

/** The largest import file read (bytes). */
export const maxImportFileBytes = 50 * 1024 * 1024;

export const importerFor = (platform: Pick<Platform, 'transactions'>, areas: Pick<AreaServices, 'catalogue'>) =>
  new CatalogueImporter(platform.transactions, new ImportRepository(platform.transactions), areas.catalogue);

/** The rows of a file's text: JSON when the name ends in .json (or the text starts with `[`), CSV otherwise. */
export function rowsOf(dataset: Dataset, name: string, text: string): SourceRow[] {
  const extension = extname(name).toLowerCase();
  const json =
    extension === '.json' ||
    (extension !== '.csv' &&
      text
        .replace(/^\uFEFF/, '')
        .trimStart()
        .startsWith('['));
  return json ? jsonRows(text) : csvRows(dataset, text);
}

async function readImportFile(path: string): Promise<string> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new CliError(`${path} is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (size > maxImportFileBytes) throw new CliError(`${path} is larger than ${maxImportFileBytes / 1024 / 1024} MB`);
  const bytes = await readFile(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CliError(`${path} is not UTF-8 text`);
  }
}

/** The report as lines: a summary, then each refused row, then where the import stopped, if it did. */
export function reportLines(report: ImportReport): string[] {
  return [
    `${report.dataset}: ${report.created} created, ${report.updated} updated, ${report.refused.length} refused`,
    ...report.refused.map(({ line, reason }) => `  line ${line}: ${reason}`),
    ...(report.stoppedAt === undefined
      ? []
      : [`  stopped at line ${report.stoppedAt}: the rows after it were not imported`]),
  ];
}

function finish(reports: ImportReport[]) {
  const stopped = reports.find((report) => report.stoppedAt !== undefined);
  if (stopped !== undefined) {
    throw new CliError(
      `the import stopped at line ${stopped.stoppedAt} of ${stopped.dataset} (its reason above); ` +
        'the rows above it are imported: import the file again to finish',
    );
  }
  const refused = reports.reduce((sum, report) => sum + report.refused.length, 0);
  const rows = reports.reduce((sum, report) => sum + report.created + report.updated + report.refused.length, 0);
  if (refused > 0) throw new CliError(`${refused} of ${rows} rows refused (the others are imported)`);
}

function importCommand(dataset: Dataset): CliCommand {
  const usage = '<file.json|file.csv> [--json]';
  return {
    name: `import:${dataset}`,
    usage,
    description: `Upsert ${dataset} by external id from a JSON or CSV file; print created, updated and refused rows`,
    async run(context: CliContext, args) {
      const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, usage);
      const [file] = positionals;
      if (positionals.length !== 1 || file === undefined)
        throw new CliError(`one file is required (usage: ${usage})`, 2);
      const path = resolve(context.cwd ?? process.cwd(), file);
      const rows = rowsOf(dataset, path, await readImportFile(path));
      const report = await importerFor(context.platform, context.areas).import(
        dataset,
        rows,
        progressBar(dataset, values.json ? undefined : context.progress),
      );
      if (values.json) context.print(JSON.stringify(report));
      else for (const line of reportLines(report)) context.print(line);
      finish([report]);
    },
  };
}

export const demoDirectory = new URL('../demo/', import.meta.url);

/** Imports the demo catalogue (brands, then establishments, then offers); what seed:demo calls. */
export async function importDemoCatalogue(
  platform: Pick<Platform, 'transactions'>,
  areas: Pick<AreaServices, 'catalogue'>,
  progress?: (line: string) => void,
): Promise<ImportReport[]> {
  const importer = importerFor(platform, areas);
  const reports: ImportReport[] = [];
  for (const dataset of ['brands', 'establishments', 'offers'] as const) {
    const text = await readFile(new URL(`${dataset}.json`, demoDirectory), 'utf8');
    const report = await importer.import(dataset, jsonRows(text), progressBar(dataset, progress));
    reports.push(report);
    if (report.stoppedAt !== undefined) break;
  }
  return reports;
}

export const importDemoCommand: CliCommand = {
  name: 'import:demo',
  usage: '[--json]',
  description: 'Upsert the demo catalogue shipped with the service (brands, establishments, offers)',
  async run(context, args) {
    const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, '[--json]');
    if (positionals.length > 0) throw new CliError(`unexpected argument ${positionals[0]} (usage: [--json])`, 2);
    const reports = await importDemoCatalogue(
      context.platform,
      context.areas,
      values.json ? undefined : context.progress,
    );
    if (values.json) context.print(JSON.stringify(reports));
    else for (const report of reports) for (const line of reportLines(report)) context.print(line);
    finish(reports);
  },
};

export const importCommands: readonly CliCommand[] = [
  importCommand('establishments'),
  importCommand('offers'),
  importCommand('brands'),
  importDemoCommand,
];
