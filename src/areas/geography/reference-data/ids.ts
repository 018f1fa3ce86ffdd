/**
 * Stable ids of the reference data: UUID v5 (RFC 9562, SHA-1) under our own namespace, so every
 * install gives a place the same id. A city's name is its GeoNames id ("2988507"); countries,
 * regions and subregions are named "country:FR", "region:150", "subregion:155".
 */
import { nameBasedUuid } from '../../../platform/ids/name-based-uuid.ts';

export const geographyNamespace = '317db71c-7904-4175-ba61-a17d27048d20';

export const uuidV5 = (name: string): string => nameBasedUuid(5, name, geographyNamespace);

export const cityId = (geonamesId: number) => uuidV5(String(geonamesId));
export const countryId = (alpha2: string) => uuidV5(`country:${alpha2}`);
export const regionId = (code: number) => uuidV5(`region:${code}`);
export const subregionId = (code: number) => uuidV5(`subregion:${code}`);
