/**
 * The 40 cities of the demo world, named as in geography's city data (GeoNames) and found there by
 * name and country at seeding time, so every photo's position is a real city's. `landscape` decides
 * what its pictures show; `sights` are words for the descriptions, in English and French.
 */
import type { GeographyService } from '../../areas/geography/geography.service.ts';

export type Landscape = 'city' | 'coast' | 'mountain' | 'lake' | 'desert';

export interface DemoCitySpec {
  name: string;
  country: string;
  /** The name in French descriptions. */
  nameFr: string;
  landscape: Landscape;
  sights: ReadonlyArray<readonly [en: string, fr: string]>;
}

export interface DemoCity extends DemoCitySpec {
  id: string;
  latitude: number;
  longitude: number;
}

// biome-ignore format: one city a line
export const demoCitySpecs: readonly DemoCitySpec[] = [
  { name: 'Paris', country: 'FR', nameFr: 'Paris', landscape: 'city', sights: [['the Seine at dusk', 'la Seine au crépuscule'], ['Montmartre rooftops', 'les toits de Montmartre']] },
  { name: 'Lyon', country: 'FR', nameFr: 'Lyon', landscape: 'city', sights: [['the Saône quays', 'les quais de Saône'], ['Fourvière hill', 'la colline de Fourvière']] },
  { name: 'Marseille', country: 'FR', nameFr: 'Marseille', landscape: 'coast', sights: [['the Vieux-Port', 'le Vieux-Port'], ['the calanques', 'les calanques']] },
  { name: 'Annecy', country: 'FR', nameFr: 'Annecy', landscape: 'lake', sights: [['the lake at sunrise', 'le lac au lever du soleil'], ['the old town canals', 'les canaux de la vieille ville']] },
  { name: 'Chamonix-Mont-Blanc', country: 'FR', nameFr: 'Chamonix', landscape: 'mountain', sights: [['the Mont Blanc massif', 'le massif du Mont-Blanc'], ['a glacier trail', 'un sentier vers le glacier']] },
  { name: 'Bordeaux', country: 'FR', nameFr: 'Bordeaux', landscape: 'city', sights: [['the water mirror', 'le miroir d’eau'], ['vineyards nearby', 'les vignes alentour']] },
  { name: 'Barcelona', country: 'ES', nameFr: 'Barcelone', landscape: 'coast', sights: [['Barceloneta beach', 'la plage de la Barceloneta'], ['the Gothic quarter', 'le quartier gothique']] },
  { name: 'Granada', country: 'ES', nameFr: 'Grenade', landscape: 'desert', sights: [['the Alhambra walls', 'les remparts de l’Alhambra'], ['the Sierra Nevada', 'la Sierra Nevada']] },
  { name: 'Lisbon', country: 'PT', nameFr: 'Lisbonne', landscape: 'coast', sights: [['the Tagus', 'le Tage'], ['Alfama lanes', 'les ruelles de l’Alfama']] },
  { name: 'Porto', country: 'PT', nameFr: 'Porto', landscape: 'coast', sights: [['the Douro banks', 'les rives du Douro'], ['Ribeira houses', 'les maisons de la Ribeira']] },
  { name: 'Ljubljana', country: 'SI', nameFr: 'Ljubljana', landscape: 'city', sights: [['the Ljubljanica river', 'la Ljubljanica'], ['the castle hill', 'la colline du château']] },
  { name: 'Copenhagen', country: 'DK', nameFr: 'Copenhague', landscape: 'coast', sights: [['Nyhavn', 'Nyhavn'], ['the harbour baths', 'les bains du port']] },
  { name: 'Reykjavík', country: 'IS', nameFr: 'Reykjavik', landscape: 'coast', sights: [['the old harbour', 'le vieux port'], ['the northern sky', 'le ciel du nord']] },
  { name: 'Bergen', country: 'NO', nameFr: 'Bergen', landscape: 'coast', sights: [['Bryggen wharf', 'le quai de Bryggen'], ['the fjord', 'le fjord']] },
  { name: 'Tromsø', country: 'NO', nameFr: 'Tromsø', landscape: 'mountain', sights: [['the polar night', 'la nuit polaire'], ['snowy peaks', 'les sommets enneigés']] },
  { name: 'Interlaken', country: 'CH', nameFr: 'Interlaken', landscape: 'lake', sights: [['Lake Brienz', 'le lac de Brienz'], ['the Jungfrau', 'la Jungfrau']] },
  { name: 'Zermatt', country: 'CH', nameFr: 'Zermatt', landscape: 'mountain', sights: [['the Matterhorn', 'le Cervin'], ['an alpine meadow', 'un alpage']] },
  { name: 'Berlin', country: 'DE', nameFr: 'Berlin', landscape: 'city', sights: [['the Spree', 'la Spree'], ['a courtyard in Mitte', 'une cour de Mitte']] },
  { name: 'Edinburgh', country: 'GB', nameFr: 'Édimbourg', landscape: 'city', sights: [['Arthur’s Seat', 'Arthur’s Seat'], ['the Royal Mile', 'le Royal Mile']] },
  { name: 'Florence', country: 'IT', nameFr: 'Florence', landscape: 'city', sights: [['the Arno bridges', 'les ponts de l’Arno'], ['the Duomo', 'le Duomo']] },
  { name: 'Queenstown', country: 'NZ', nameFr: 'Queenstown', landscape: 'lake', sights: [['Lake Wakatipu', 'le lac Wakatipu'], ['the Remarkables', 'les Remarkables']] },
  { name: 'Montréal', country: 'CA', nameFr: 'Montréal', landscape: 'city', sights: [['Mount Royal', 'le mont Royal'], ['the Old Port', 'le Vieux-Port']] },
  { name: 'Marrakesh', country: 'MA', nameFr: 'Marrakech', landscape: 'desert', sights: [['the medina', 'la médina'], ['the Atlas foothills', 'les contreforts de l’Atlas']] },
  { name: 'Rome', country: 'IT', nameFr: 'Rome', landscape: 'city', sights: [['Trastevere', 'le Trastevere'], ['the Palatine', 'le Palatin']] },
  { name: 'Venice', country: 'IT', nameFr: 'Venise', landscape: 'coast', sights: [['the lagoon', 'la lagune'], ['a quiet canal', 'un canal tranquille']] },
  { name: 'Athens', country: 'GR', nameFr: 'Athènes', landscape: 'desert', sights: [['the Acropolis', 'l’Acropole'], ['Lycabettus hill', 'la colline du Lycabette']] },
  { name: 'Istanbul', country: 'TR', nameFr: 'Istanbul', landscape: 'coast', sights: [['the Bosphorus', 'le Bosphore'], ['Galata', 'Galata']] },
  { name: 'Kyoto', country: 'JP', nameFr: 'Kyoto', landscape: 'mountain', sights: [['Arashiyama', 'Arashiyama'], ['a temple garden', 'un jardin de temple']] },
  { name: 'Tokyo', country: 'JP', nameFr: 'Tokyo', landscape: 'city', sights: [['Shibuya at night', 'Shibuya la nuit'], ['the Sumida river', 'la Sumida']] },
  { name: 'Hanoi', country: 'VN', nameFr: 'Hanoï', landscape: 'lake', sights: [['Hoan Kiem lake', 'le lac Hoan Kiem'], ['the Old Quarter', 'le vieux quartier']] },
  { name: 'Bangkok', country: 'TH', nameFr: 'Bangkok', landscape: 'city', sights: [['the Chao Phraya', 'le Chao Phraya'], ['a floating market', 'un marché flottant']] },
  { name: 'Cape Town', country: 'ZA', nameFr: 'Le Cap', landscape: 'coast', sights: [['Table Mountain', 'la montagne de la Table'], ['Camps Bay', 'Camps Bay']] },
  { name: 'Rio de Janeiro', country: 'BR', nameFr: 'Rio de Janeiro', landscape: 'coast', sights: [['Sugarloaf', 'le Pain de Sucre'], ['Ipanema', 'Ipanema']] },
  { name: 'Cusco', country: 'PE', nameFr: 'Cuzco', landscape: 'mountain', sights: [['the Sacred Valley', 'la Vallée sacrée'], ['San Blas', 'San Blas']] },
  { name: 'Mexico City', country: 'MX', nameFr: 'Mexico', landscape: 'city', sights: [['Xochimilco', 'Xochimilco'], ['Chapultepec', 'Chapultepec']] },
  { name: 'New York City', country: 'US', nameFr: 'New York', landscape: 'city', sights: [['the Brooklyn Bridge', 'le pont de Brooklyn'], ['Central Park', 'Central Park']] },
  { name: 'San Francisco', country: 'US', nameFr: 'San Francisco', landscape: 'coast', sights: [['the bay', 'la baie'], ['the fog over the hills', 'le brouillard sur les collines']] },
  { name: 'Vancouver', country: 'CA', nameFr: 'Vancouver', landscape: 'mountain', sights: [['Stanley Park', 'Stanley Park'], ['the North Shore mountains', 'les montagnes du North Shore']] },
  { name: 'Sydney', country: 'AU', nameFr: 'Sydney', landscape: 'coast', sights: [['the harbour', 'le port'], ['Bondi', 'Bondi']] },
  { name: 'Amsterdam', country: 'NL', nameFr: 'Amsterdam', landscape: 'city', sights: [['the canal ring', 'les canaux'], ['the Jordaan', 'le Jordaan']] },
];

/** Each city found in geography's data by exact name and country (the most populated of that name). */
export async function resolveDemoCities(geography: GeographyService): Promise<DemoCity[]> {
  const found: DemoCity[] = [];
  for (const spec of demoCitySpecs) {
    const hits = await geography.searchCities(spec.name, 20);
    const match = hits
      .map((hit) => hit.row)
      .filter((row) => row.name === spec.name && row.countryCode === spec.country)
      .sort((a, b) => b.population - a.population)[0];
    if (match === undefined) throw new Error(`the demo city ${spec.name} (${spec.country}) is not in the city data`);
    found.push({ ...spec, id: match.id, latitude: match.latitude, longitude: match.longitude });
  }
  return found;
}
