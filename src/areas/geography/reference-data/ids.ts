/**
 * Stable ids of the reference data: UUID v5 (RFC 9562, SHA-1) under our own namespace, so every
 * install gives a place the same id. A city's name is its GeoNames id ("2988507"); countries,
 * regions and subregions are named "country:FR", "region:150", "subregion:155".
 */
import { createHash } from 'node:crypto';

export const geographyNamespace = '317db71c-7904-4175-ba61-a17d27048d20';
const namespaceBytes = Buffer.from(geographyNamespace.replaceAll('-', ''), 'hex');

export function uuidV5(name: string): string {
  const hash = createHash('sha1').update(namespaceBytes).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const cityId = (geonamesId: number) => uuidV5(String(geonamesId));
export const countryId = (alpha2: string) => uuidV5(`country:${alpha2}`);
export const regionId = (code: number) => uuidV5(`region:${code}`);
export const subregionId = (code: number) => uuidV5(`subregion:${code}`);
