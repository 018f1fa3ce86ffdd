/**
 * CSV files: a header row naming the columns (any order; unknown ones refuse the file), then one row a
 * line. Columns are the JSON fields in snake_case; texts per locale are `<field>_en` and `<field>_fr`;
 * lists are `a|b`; booleans `true`/`false` (also `yes`/`no`, `1`/`0`); an empty cell is an absent field.
 * Each record becomes the object its JSON twin would be, so both formats pass the same rules.
 */
import { CliError } from '../../../cli/command.ts';
import { type CsvRecord, parseCsv } from './csv.ts';
import type { Dataset } from './rows.ts';

type Cell = (value: string) => unknown;

const asText: Cell = (value) => value;
/** A number when the cell is one, else the text itself, which the rules then refuse by name. */
const asNumber: Cell = (value) => (/^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : value);
const asList: Cell = (value) => value.split('|');
const asBoolean: Cell = (value) => {
  const word = value.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(word)) return true;
  if (['false', 'no', '0'].includes(word)) return false;
  return value;
};

/** column -> [field, locale or null, how the cell reads] */
type Columns = Record<string, [string, string | null, Cell]>;

const localizedColumns = (field: string, column: string): Columns => ({
  [`${column}_en`]: [field, 'en-US', asText],
  [`${column}_fr`]: [field, 'fr-FR', asText],
});

export const csvColumns: Record<Dataset, Columns> = {
  brands: {
    external_id: ['externalId', null, asText],
    name: ['name', null, asText],
    website: ['website', null, asText],
    ...localizedColumns('description', 'description'),
  },
  establishments: {
    external_id: ['externalId', null, asText],
    name: ['name', null, asText],
    kind: ['kind', null, asText],
    labels: ['labels', null, asList],
    address: ['address', null, asText],
    city_id: ['cityId', null, asText],
    city: ['city', null, asText],
    country: ['country', null, asText],
    latitude: ['latitude', null, asNumber],
    longitude: ['longitude', null, asNumber],
    brand_external_id: ['brandExternalId', null, asText],
    website: ['website', null, asText],
    ...localizedColumns('description', 'description'),
    active: ['active', null, asBoolean],
  },
  offers: {
    external_id: ['externalId', null, asText],
    ...localizedColumns('title', 'title'),
    ...localizedColumns('description', 'description'),
    establishment_external_id: ['establishmentExternalId', null, asText],
    brand_external_id: ['brandExternalId', null, asText],
    price_min: ['priceMin', null, asNumber],
    price_max: ['priceMax', null, asNumber],
    currency: ['currency', null, asText],
    commission_rate_bps: ['commissionRateBps', null, asNumber],
    partner_url: ['partnerUrl', null, asText],
    valid_from: ['validFrom', null, asText],
    valid_until: ['validUntil', null, asText],
    active: ['active', null, asBoolean],
  },
};

export interface SourceRow {
  line: number;
  /** The row as an object, or why it could not be read at all. */
  value: unknown;
  error?: string;
}

/** The rows of a CSV file; a header problem refuses the whole file (CliError). */
export function csvRows(dataset: Dataset, text: string): SourceRow[] {
  const [header, ...records] = parseCsv(text);
  if (header === undefined) throw new CliError('the CSV file is empty (a header row is required)');
  if (header.error !== undefined) throw new CliError(`the CSV header is malformed: ${header.error}`);
  const columns = csvColumns[dataset];
  const names = header.fields.map((name) => name.trim().toLowerCase());
  for (const name of names) {
    if (!Object.hasOwn(columns, name))
      throw new CliError(`unknown CSV column ${JSON.stringify(name)}; columns: ${Object.keys(columns).join(', ')}`);
  }
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined) throw new CliError(`the CSV column ${JSON.stringify(duplicate)} appears twice`);
  if (!names.includes('external_id')) throw new CliError('the CSV header has no external_id column');
  return records.map((record) => toRow(record, names, columns));
}

function toRow(record: CsvRecord, names: string[], columns: Columns): SourceRow {
  if (record.error !== undefined) return { line: record.line, value: null, error: record.error };
  if (record.fields.length !== names.length) {
    return {
      line: record.line,
      value: null,
      error: `malformed CSV: ${record.fields.length} cells where the header names ${names.length}`,
    };
  }
  const row: Record<string, unknown> = {};
  names.forEach((name, index) => {
    const cell = record.fields[index];
    const column = columns[name];
    if (cell === undefined || column === undefined || cell.trim() === '') return;
    const [field, locale, read] = column;
    if (locale === null) row[field] = read(cell);
    else row[field] = { ...(row[field] as object | undefined), [locale]: read(cell) };
  });
  return { line: record.line, value: row };
}
