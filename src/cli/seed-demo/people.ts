/**
 * The 30 demo travellers: username, nickname, the language they write in, and how active they are
 * (an active traveller posts more, follows more and is followed more). Addresses are under the
 * reserved `.example` domain; every account shares the documented demo password.
 */

export const demoPassword = 'demo-travel-2026';
export const demoEmailDomain = 'demo.example';

export interface DemoPerson {
  username: string;
  nickname: string;
  language: 'en' | 'fr';
  /** Relative weight of posts and popularity, 1 (quiet) to 5 (very active). */
  activity: number;
}

// biome-ignore format: one person a line
export const demoPeople: readonly DemoPerson[] = [
  { username: 'amelie.voyage', nickname: 'Amélie Durand', language: 'fr', activity: 5 },
  { username: 'noah_wanders', nickname: 'Noah Bennett', language: 'en', activity: 5 },
  { username: 'lea.montagne', nickname: 'Léa Martin', language: 'fr', activity: 4 },
  { username: 'kenji.walks', nickname: 'Kenji Sato', language: 'en', activity: 4 },
  { username: 'sofia_coast', nickname: 'Sofia Almeida', language: 'en', activity: 4 },
  { username: 'hugo.rando', nickname: 'Hugo Lefèvre', language: 'fr', activity: 3 },
  { username: 'maya.frames', nickname: 'Maya Patel', language: 'en', activity: 3 },
  { username: 'lucas_slowtravel', nickname: 'Lucas Moreau', language: 'fr', activity: 3 },
  { username: 'ingrid.north', nickname: 'Ingrid Solberg', language: 'en', activity: 3 },
  { username: 'camille.carnets', nickname: 'Camille Roux', language: 'fr', activity: 3 },
  { username: 'omar.trails', nickname: 'Omar Haddad', language: 'en', activity: 2 },
  { username: 'chloe_ailleurs', nickname: 'Chloé Fontaine', language: 'fr', activity: 2 },
  { username: 'ben.byrail', nickname: 'Ben Harris', language: 'en', activity: 2 },
  { username: 'julie.escapades', nickname: 'Julie Girard', language: 'fr', activity: 2 },
  { username: 'tariq.lens', nickname: 'Tariq Nasser', language: 'en', activity: 2 },
  { username: 'manon.vagabonde', nickname: 'Manon Bernard', language: 'fr', activity: 2 },
  { username: 'elena.sketches', nickname: 'Elena Rossi', language: 'en', activity: 2 },
  { username: 'theo.velo', nickname: 'Théo Lambert', language: 'fr', activity: 2 },
  { username: 'priya_outdoors', nickname: 'Priya Nair', language: 'en', activity: 2 },
  { username: 'ines.horizons', nickname: 'Inès Mercier', language: 'fr', activity: 1 },
  { username: 'finn.fjords', nickname: 'Finn Larsen', language: 'en', activity: 1 },
  { username: 'zoe.voyageuse', nickname: 'Zoé Blanc', language: 'fr', activity: 1 },
  { username: 'diego.rutas', nickname: 'Diego Herrera', language: 'en', activity: 1 },
  { username: 'margaux.ici', nickname: 'Margaux Chevalier', language: 'fr', activity: 1 },
  { username: 'aisha.journeys', nickname: 'Aisha Bello', language: 'en', activity: 1 },
  { username: 'paul.balades', nickname: 'Paul Garnier', language: 'fr', activity: 1 },
  { username: 'lily.postcards', nickname: 'Lily Chen', language: 'en', activity: 1 },
  { username: 'antoine.cartes', nickname: 'Antoine Faure', language: 'fr', activity: 1 },
  { username: 'sam.offgrid', nickname: 'Sam Okafor', language: 'en', activity: 1 },
  { username: 'nina.horizon', nickname: 'Nina Weber', language: 'en', activity: 1 },
];
