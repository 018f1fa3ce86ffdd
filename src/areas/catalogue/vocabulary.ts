/**
 * The catalogue's closed lists: kinds of establishment and sustainability labels. Migration 1000
 * checks the same lists; adding a value is a migration that widens the check, then a line here.
 */

export const establishmentKinds = [
  'hotel',
  'guesthouse',
  'hostel',
  'campsite',
  'ecolodge',
  'restaurant',
  'activity',
  'tour',
  'shop',
] as const;
export type EstablishmentKind = (typeof establishmentKinds)[number];

/** Sustainability labels, certifications and practices an establishment can show. */
export const sustainabilityLabels = [
  'green-key',
  'eu-ecolabel',
  'ecotourism-australia',
  'b-corp',
  'gstc',
  'travelife',
  'biosphere',
  'green-globe',
  'earthcheck',
  'clef-verte',
  'ecocert',
  'organic',
  'fair-trade',
  'local-sourcing',
  'zero-waste',
  'renewable-energy',
  'accessible',
] as const;
export type SustainabilityLabel = (typeof sustainabilityLabels)[number];

/** The locales a catalogue text may carry (the service's supported locales); en-US is the fallback. */
export const catalogueLocales = ['en-US', 'fr-FR'] as const;
