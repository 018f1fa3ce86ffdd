/** Descriptions with hashtags and comments of the demo world, in its travellers' two languages. */
import type { DemoCity, Landscape } from './cities.ts';
import type { TimeOfDay } from './pictures.ts';
import type { Random } from './random.ts';

type Language = 'en' | 'fr';

const openings: Record<Language, Record<TimeOfDay, readonly string[]>> = {
  en: {
    dawn: [
      'First light over {sight} in {city}.',
      'Up before the sun for {sight}.',
      'Dawn in {city}, and {sight} all to myself.',
    ],
    day: ['A slow afternoon by {sight}.', 'Walking around {sight} in {city}.', 'Blue skies over {sight}, {city}.'],
    golden: ['Golden hour on {sight}.', 'That warm evening light in {city}.', '{sight} glowing just before sunset.'],
    dusk: ['The sky caught fire over {sight}.', 'Dusk settling on {city}.', 'Last colours of the day above {sight}.'],
    night: ['{city} after dark.', 'A quiet night by {sight}.', 'Stars out over {sight}.'],
  },
  fr: {
    dawn: [
      'Premières lueurs sur {sight}, à {city}.',
      'Levé avant le soleil pour {sight}.',
      'L’aube à {city}, {sight} rien que pour moi.',
    ],
    day: [
      'Un après-midi tranquille près de {sight}.',
      'Balade autour de {sight} à {city}.',
      'Grand ciel bleu sur {sight}, {city}.',
    ],
    golden: [
      'L’heure dorée sur {sight}.',
      'Cette lumière chaude du soir à {city}.',
      '{sight} qui s’illumine juste avant le coucher du soleil.',
    ],
    dusk: [
      'Le ciel s’embrase au-dessus de {sight}.',
      'Le crépuscule tombe sur {city}.',
      'Dernières couleurs du jour sur {sight}.',
    ],
    night: ['{city} à la nuit tombée.', 'Une nuit calme près de {sight}.', 'Les étoiles au-dessus de {sight}.'],
  },
};

const afterthoughts: Record<Language, readonly string[]> = {
  en: [
    'Came by train, worth every minute.',
    'Locals recommended this spot.',
    'Could have stayed for hours.',
    'No filter, just the light.',
    'Ten minutes on foot from the station.',
    'Going back next season for sure.',
    '',
    '',
  ],
  fr: [
    'Venu en train, ça valait chaque minute.',
    'Un coin conseillé par des habitants.',
    'J’aurais pu rester des heures.',
    'Aucun filtre, juste la lumière.',
    'À dix minutes à pied de la gare.',
    'J’y retourne la saison prochaine.',
    '',
    '',
  ],
};

const landscapeTags: Record<Language, Record<Landscape, readonly string[]>> = {
  en: {
    city: ['citylights', 'streetphotography', 'architecture'],
    coast: ['seaside', 'ocean', 'coastline'],
    mountain: ['mountains', 'hiking', 'alps'],
    lake: ['lake', 'reflections', 'hiking'],
    desert: ['sunshine', 'landscape', 'warmcolours'],
  },
  fr: {
    city: ['ville', 'photoderue', 'architecture'],
    coast: ['borddemer', 'océan', 'littoral'],
    mountain: ['montagne', 'randonnée', 'alpes'],
    lake: ['lac', 'reflets', 'randonnée'],
    desert: ['soleil', 'paysage', 'couleurschaudes'],
  },
};

const timeTags: Record<Language, Record<TimeOfDay, string>> = {
  en: { dawn: 'sunrise', day: 'daytrip', golden: 'goldenhour', dusk: 'sunset', night: 'nightphotography' },
  fr: { dawn: 'leverdesoleil', day: 'balade', golden: 'heuredorée', dusk: 'coucherdesoleil', night: 'nuit' },
};

const travelTags: Record<Language, readonly string[]> = {
  en: ['travel', 'slowtravel', 'traintravel', 'sustainabletravel', 'wanderlust'],
  fr: ['voyage', 'slowtravel', 'voyageentrain', 'voyagedurable', 'évasion'],
};

/** A hashtag of a city's name: its letters and digits only, lowercase (`Rio de Janeiro` -> `riodejaneiro`). */
export const cityTag = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A photo's description: one or two sentences, then three to five hashtags. */
export function describePhoto(random: Random, language: Language, city: DemoCity, time: TimeOfDay): string {
  const [sightEn, sightFr] = random.pick(city.sights);
  const sight = language === 'en' ? sightEn : sightFr;
  const cityName = language === 'en' ? city.name : city.nameFr;
  const sentence = capitalised(fill(random.pick(openings[language][time]), { sight, city: cityName }));
  const extra = random.pick(afterthoughts[language]);
  const tags = [
    cityTag(cityName),
    timeTags[language][time],
    ...random.sample(landscapeTags[language][city.landscape], random.int(1, 2)),
    ...(random.chance(0.6) ? [random.pick(travelTags[language])] : []),
  ];
  const unique = [...new Set(tags)];
  return `${sentence}${extra ? ` ${extra}` : ''} ${unique.map((tag) => `#${tag}`).join(' ')}`;
}

const commentLines: Record<Language, readonly string[]> = {
  en: [
    'What a view!',
    'This light is unreal.',
    'Adding this to my list for next year.',
    'I was there last spring, brings back memories.',
    'Beautiful composition.',
    'How long was the walk up there?',
    'Those colours!',
    'Stunning, thanks for sharing.',
    'Is it busy at that time of day?',
    'Makes me want to pack my bag right now.',
  ],
  fr: [
    'Quelle vue !',
    'Cette lumière est incroyable.',
    'Je note pour l’année prochaine.',
    'J’y étais au printemps, que de souvenirs.',
    'Très belle composition.',
    'Combien de temps de marche pour y monter ?',
    'Ces couleurs !',
    'Magnifique, merci du partage.',
    'Il y a du monde à cette heure-là ?',
    'Ça donne envie de refaire son sac.',
  ],
};

const replies: Record<Language, readonly string[]> = {
  en: [
    'Thank you!',
    'About an hour from the centre, easy path.',
    'Go early, it is quiet before nine.',
    'Glad you like it!',
  ],
  fr: [
    'Merci !',
    'Une heure depuis le centre, chemin facile.',
    'Vas-y tôt, c’est calme avant neuf heures.',
    'Content que ça te plaise !',
  ],
};

export const commentText = (random: Random, language: Language) => random.pick(commentLines[language]);
export const replyText = (random: Random, language: Language) => random.pick(replies[language]);
