/**
 * The demo world (`npm run cli -- seed:demo`): travellers with avatars and covers, photos taken in
 * 40 real cities (positions and capture times in their EXIF, read by the upload like a camera's),
 * follows, likes, comments and replies, then the demo catalogue. Everything goes through the areas'
 * services, so notifications, experience and badges, search documents and hashtag counts follow
 * from the same events as in real use; the derived tables (search, hashtags, the map's clusters) and
 * the media's common variants are brought up to date at the end by running their jobs once. The
 * random draws are seeded: every run builds the same world (ids and creation times aside).
 */
import { importDemoCatalogue } from '../../areas/catalogue/imports/import.command.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { JobName } from '../../platform/jobs/jobs.ts';
import type { AreaServices, Platform } from '../../platform/modules/area-module.ts';
import { type DemoCity, resolveDemoCities } from './cities.ts';
import { type DemoPerson, demoEmailDomain, demoPassword, demoPeople } from './people.ts';
import { avatarPng, coverJpeg, hourOf, photoJpeg, type TimeOfDay, timesOfDay } from './pictures.ts';
import { SeedProgress } from './progress.ts';
import { Random } from './random.ts';
import { commentText, describePhoto, replyText } from './texts.ts';

export const demoPhotoCount = 300;

export interface SeedReport {
  users: number;
  photos: number;
  cities: number;
  follows: number;
  likes: number;
  comments: number;
  /** Created by the demo catalogue's import (brands, establishments, offers). */
  catalogue: Record<string, number>;
  /** The jobs run at the end, each with the reports of its runs. */
  jobs: Record<string, unknown>;
  seconds: number;
}

interface Traveller extends DemoPerson {
  id: string;
  home: DemoCity;
  /** The cities this traveller has photos of (home first). */
  visited: DemoCity[];
}

interface Photo {
  id: string;
  owner: Traveller;
}

/** The jobs run once at the end, in order, when the process has them. */
const finishingJobs: readonly JobName[] = ['media-variants', 'map-clusters', 'hashtags', 'search-index'];

const weights = {
  cities: 1,
  travellers: 8,
  'profile images': 4,
  photos: 40,
  follows: 6,
  likes: 20,
  comments: 6,
  catalogue: 4,
  'derived data': 25,
};

export interface SeedOptions {
  /** Draws the progress bar's line. */
  progress?: (line: string) => void;
  /**
   * Renders every media's common variants now (the default), so the first visitors find them
   * stored; false leaves them to the server's media-variants job and to renders on demand (the
   * browser tests, where only what a page shows gets rendered).
   */
  renderVariants?: boolean;
}

export async function seedDemoWorld(
  platform: Platform,
  areas: AreaServices,
  options: SeedOptions = {},
): Promise<SeedReport> {
  const started = performance.now();
  const progress = new SeedProgress(options.progress, {
    ...weights,
    'derived data': options.renderVariants === false ? 2 : weights['derived data'],
  });
  const random = new Random(20261125);

  let tick = progress.step('cities');
  tick(0, 1);
  const cities = await resolveDemoCities(areas.geography.geography);
  tick(1, 1);

  const travellers = await createTravellers(areas, random, cities, progress.step('travellers'));
  await addProfileImages(areas, random, travellers, progress.step('profile images'));
  const photos = await addPhotos(platform, areas, random, travellers, cities, progress.step('photos'));
  const follows = await addFollows(areas, random, travellers, progress.step('follows'));
  const likes = await addLikes(areas, random, travellers, photos, progress.step('likes'));
  const comments = await addComments(areas, random, travellers, photos, progress.step('comments'));

  tick = progress.step('catalogue');
  tick(0, 1);
  const reports = await importDemoCatalogue(platform, areas);
  tick(1, 1);

  const jobs: Record<string, unknown> = {};
  const present = finishingJobs.filter(
    (name) => platform.jobs.has(name) && (name !== 'media-variants' || options.renderVariants !== false),
  );
  tick = progress.step('derived data');
  for (const [index, name] of present.entries()) {
    tick(index, present.length);
    jobs[name] = await runUntilDone(platform, name);
  }
  tick(present.length, present.length);

  return {
    users: travellers.length,
    photos: photos.length,
    cities: cities.length,
    follows,
    likes,
    comments,
    catalogue: Object.fromEntries(reports.map((report) => [report.dataset, report.created + report.updated])),
    jobs,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** Runs a job until it reports no more work (media-variants renders at most 200 media a run): the reports of its runs. */
async function runUntilDone(platform: Platform, name: JobName): Promise<unknown[]> {
  const reports: unknown[] = [];
  for (let run = 0; run < 20; run += 1) {
    const outcome = await platform.jobs.run(name);
    // Running inside the server (PGlite), its queue may be running the job now: it does the work.
    if (!outcome.ran) return [...reports, { busy: 'already running in this process; it does the work' }];
    reports.push(outcome.report);
    if (outcome.report.more !== true) return reports;
  }
  throw new Error(`the ${name} job still had work after 20 runs`);
}

/** One account per person; a name taken already (a second run with --force) gets a number. */
async function createTravellers(
  areas: AreaServices,
  random: Random,
  cities: DemoCity[],
  tick: (done: number, total: number) => void,
): Promise<Traveller[]> {
  const travellers: Traveller[] = [];
  tick(0, demoPeople.length);
  // argon2 hashes on libuv's threads: a few accounts at once.
  for (let start = 0; start < demoPeople.length; start += 4) {
    const batch = demoPeople.slice(start, start + 4);
    const created = await Promise.all(
      batch.map(async (person) => ({ person, ...(await createAccount(areas, person)) })),
    );
    for (const [offset, { person, id, username }] of created.entries()) {
      const index = start + offset;
      const home = cities[(index * 7) % cities.length];
      if (home === undefined) throw new Error('the demo world needs cities');
      const others = random.sample(
        cities.filter((city) => city !== home),
        2 + person.activity * 2,
      );
      travellers.push({ ...person, id, username, home, visited: [home, ...others] });
    }
    tick(travellers.length, demoPeople.length);
  }
  return travellers;
}

async function createAccount(areas: AreaServices, person: DemoPerson): Promise<{ id: string; username: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const username = attempt === 1 ? person.username : `${person.username}${attempt}`;
    try {
      const user = await areas.accounts.accounts.createAccount(
        { email: `${username}@${demoEmailDomain}`, password: demoPassword, username, nickname: person.nickname },
        { confirmed: true },
      );
      return { id: user.id, username };
    } catch (error) {
      const taken = error instanceof AppError && (error.code === 'usernameTaken' || error.code === 'emailTaken');
      if (!taken || attempt >= 50) throw error;
    }
  }
}

async function addProfileImages(
  areas: AreaServices,
  random: Random,
  travellers: Traveller[],
  tick: (done: number, total: number) => void,
): Promise<void> {
  tick(0, travellers.length);
  for (const [index, traveller] of travellers.entries()) {
    const avatarSeed = random.int(1, 2 ** 31);
    const [avatar, cover] = await Promise.all([
      avatarPng(avatarSeed),
      traveller.activity >= 2
        ? coverJpeg({
            landscape: traveller.home.landscape,
            city: traveller.home.name,
            time: random.pick(timesOfDay),
            width: 1500,
            height: 500,
            seed: avatarSeed + 1,
          })
        : null,
    ]);
    await areas.media.mediaUploads.upload(traveller.id, 'avatar', { data: avatar });
    if (cover !== null) await areas.media.mediaUploads.upload(traveller.id, 'cover', { data: cover });
    tick(index + 1, travellers.length);
  }
}

interface PlannedPhoto {
  owner: Traveller;
  city: DemoCity;
  time: TimeOfDay;
  latitude: number;
  longitude: number;
  takenAt: Date;
  offset: string;
  width: number;
  height: number;
  seed: number;
  description: string;
}

const shapes: ReadonlyArray<[number, number]> = [
  [1200, 800],
  [1200, 800],
  [1200, 800],
  [1000, 1000],
  [900, 1200],
];

/** Plans every photo first (owners by activity, every city at least once), then draws and uploads them in taking order. */
function planPhotos(random: Random, travellers: Traveller[], cities: DemoCity[], now: Date): PlannedPhoto[] {
  const owners: Traveller[] = [];
  const totalActivity = travellers.reduce((sum, traveller) => sum + traveller.activity, 0);
  for (const traveller of travellers) {
    const share = Math.round((traveller.activity / totalActivity) * demoPhotoCount);
    for (let i = 0; i < share; i += 1) owners.push(traveller);
  }
  while (owners.length < demoPhotoCount) owners.push(random.pick(travellers));
  owners.length = demoPhotoCount;

  return owners
    .map((owner, index) => {
      // The first photos visit every city once; the rest go where their owner has been.
      const city = cities[index] ?? random.pick(owner.visited);
      const time = random.pick(timesOfDay);
      const [fromHour, toHour] = hourOf[time];
      const offsetHours = Math.max(-12, Math.min(14, Math.round(city.longitude / 15)));
      // Whole days before today, so the order of the photos (and every draw after it) does not
      // depend on the hour the seed runs at.
      const daysAgo = random.int(1, 420);
      // Local wall-clock time of the capture (kept in UTC fields, as EXIF writes it) and its offset.
      const local = new Date(
        Date.UTC(
          now.getUTCFullYear(),
          now.getUTCMonth(),
          now.getUTCDate() - daysAgo,
          random.int(fromHour, toHour),
          random.int(0, 59),
          random.int(0, 59),
        ),
      );
      const [width, height] = random.pick(shapes);
      // Within about 650 m of the city's point: reverse geocoding names the city itself (a wider
      // spread lands in the districts GeoNames lists as places of their own, e.g. Marseille 06).
      const latitude = city.latitude + random.between(-0.006, 0.006);
      const longitude = city.longitude + random.between(-0.006, 0.006) / Math.cos((city.latitude * Math.PI) / 180);
      const sign = offsetHours < 0 ? '-' : '+';
      return {
        owner,
        city,
        time,
        latitude,
        longitude,
        takenAt: local,
        offset: `${sign}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`,
        width,
        height,
        seed: random.int(1, 2 ** 31),
        description: describePhoto(random, owner.language, city, time),
      };
    })
    .sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime());
}

async function addPhotos(
  platform: Platform,
  areas: AreaServices,
  random: Random,
  travellers: Traveller[],
  cities: DemoCity[],
  tick: (done: number, total: number) => void,
): Promise<Photo[]> {
  const planned = planPhotos(random, travellers, cities, platform.clock.now());
  const draw = (plan: PlannedPhoto) =>
    photoJpeg({
      landscape: plan.city.landscape,
      city: plan.city.name,
      time: plan.time,
      width: plan.width,
      height: plan.height,
      seed: plan.seed,
      latitude: plan.latitude,
      longitude: plan.longitude,
      takenAt: plan.takenAt,
      offset: plan.offset,
    });
  const photos: Photo[] = [];
  tick(0, planned.length);
  // sharp draws the next few pictures on its threads while the current one is uploaded.
  const ahead = 3;
  const drawing = planned.slice(0, ahead).map(draw);
  for (const [index, plan] of planned.entries()) {
    const picture = drawing[index];
    if (picture === undefined) throw new Error(`picture ${index} was not drawn`);
    const data = await picture;
    const next = planned[index + ahead];
    if (next !== undefined) drawing.push(draw(next));
    const media = await areas.media.mediaUploads.upload(plan.owner.id, 'post', { data, description: plan.description });
    photos.push({ id: media.id, owner: plan.owner });
    drawing[index] = Promise.resolve(Buffer.alloc(0));
    tick(index + 1, planned.length);
  }
  return photos;
}

/** Everyone follows a few people, the active ones more often. */
async function addFollows(
  areas: AreaServices,
  random: Random,
  travellers: Traveller[],
  tick: (done: number, total: number) => void,
): Promise<number> {
  const pairs: Array<[Traveller, Traveller]> = [];
  for (const follower of travellers) {
    const count = 3 + follower.activity + random.int(0, 4);
    const candidates = travellers.filter((other) => other !== follower);
    for (const followee of weightedSample(random, candidates, count)) pairs.push([follower, followee]);
  }
  tick(0, pairs.length);
  for (const [index, [follower, followee]] of pairs.entries()) {
    await areas.follows.follows.follow(follower.id, followee.id);
    tick(index + 1, pairs.length);
  }
  return pairs.length;
}

/** Each photo is liked by a few travellers, more for its owner's more popular photos. */
async function addLikes(
  areas: AreaServices,
  random: Random,
  travellers: Traveller[],
  photos: Photo[],
  tick: (done: number, total: number) => void,
): Promise<number> {
  const likes: Array<[Traveller, Photo]> = [];
  for (const photo of photos) {
    const count = Math.round(random.next() ** 2 * (2 + photo.owner.activity * 2.2));
    const likers = weightedSample(
      random,
      travellers.filter((traveller) => traveller !== photo.owner),
      count,
    );
    for (const liker of likers) likes.push([liker, photo]);
  }
  tick(0, likes.length);
  for (const [index, [liker, photo]] of likes.entries()) {
    await areas.reactions.reactions.react(liker.id, photo.id, 'like');
    tick(index + 1, likes.length);
  }
  return likes.length;
}

/** About a third of the photos get a comment or three; their owner answers some of them. */
async function addComments(
  areas: AreaServices,
  random: Random,
  travellers: Traveller[],
  photos: Photo[],
  tick: (done: number, total: number) => void,
): Promise<number> {
  const commented = photos.filter(() => random.chance(0.35));
  let written = 0;
  tick(0, commented.length);
  for (const [index, photo] of commented.entries()) {
    const authors = random.sample(
      travellers.filter((traveller) => traveller !== photo.owner),
      random.int(1, 3),
    );
    for (const author of authors) {
      const view = await areas.comments.comments.create(author.id, photo.id, {
        body: commentText(random, author.language),
      });
      written += 1;
      if (random.chance(0.3)) {
        const parentId = view.rows[0]?.comment.id;
        if (parentId !== undefined) {
          await areas.comments.comments.create(photo.owner.id, photo.id, {
            body: `@${author.username} ${replyText(random, photo.owner.language)}`,
            parentId,
          });
          written += 1;
        }
      }
    }
    tick(index + 1, commented.length);
  }
  return written;
}

/** `count` distinct travellers, each drawn with a chance proportional to their activity. */
function weightedSample(random: Random, candidates: Traveller[], count: number): Traveller[] {
  const pool = [...candidates];
  const chosen: Traveller[] = [];
  while (chosen.length < count && pool.length > 0) {
    const total = pool.reduce((sum, traveller) => sum + traveller.activity + 1, 0);
    let at = random.between(0, total);
    // The last candidate takes what the others leave.
    const index = pool.findIndex((traveller, candidate) => {
      if (candidate === pool.length - 1) return true;
      at -= traveller.activity + 1;
      return at <= 0;
    });
    const [picked] = pool.splice(index, 1);
    if (picked !== undefined) chosen.push(picked);
  }
  return chosen;
}
