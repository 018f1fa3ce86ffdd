import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { readExif } from '../../adapters/images/index.ts';
import { avatarPng, coverJpeg, photoJpeg, sceneSvg } from './pictures.ts';
import { SeedProgress, seedProgressLine } from './progress.ts';
import { Random } from './random.ts';

const lisbon = { landscape: 'coast', city: 'Lisbon', width: 600, height: 400 } as const;

describe('the demo pictures', () => {
  it('writes the position and local capture time into the photo, as a camera would', async () => {
    const photo = await photoJpeg({
      ...lisbon,
      time: 'golden',
      seed: 7,
      latitude: 38.71667,
      longitude: -9.13333,
      takenAt: new Date('2026-06-01T18:30:00Z'),
      offset: '+01:00',
    });
    const { format, width, height } = await sharp(photo).metadata();
    assert.deepEqual([format, width, height], ['jpeg', 600, 400]);
    const exif = await readExif(photo);
    assert.ok(Math.abs(exif.latitude! - 38.71667) < 1e-5 && Math.abs(exif.longitude! + 9.13333) < 1e-5);
    assert.equal(exif.takenAt?.toISOString(), '2026-06-01T17:30:00.000Z', '18:30 local at +01:00');
  });

  it('draws every photo differently: by its own draw, its city and its time of day', () => {
    const scenes = new Set([
      sceneSvg({ ...lisbon, time: 'day', seed: 1 }),
      sceneSvg({ ...lisbon, time: 'day', seed: 2 }),
      sceneSvg({ ...lisbon, time: 'night', seed: 1 }),
      sceneSvg({ ...lisbon, city: 'Porto', time: 'day', seed: 1 }),
      sceneSvg({ ...lisbon, landscape: 'mountain', time: 'day', seed: 1 }),
    ]);
    assert.equal(scenes.size, 5);
    assert.equal(sceneSvg({ ...lisbon, time: 'day', seed: 1 }), sceneSvg({ ...lisbon, time: 'day', seed: 1 }));
  });

  it('makes a night sky darker than a day sky', async () => {
    const brightness = async (time: 'day' | 'night') => {
      const { channels } = await sharp(await coverJpeg({ ...lisbon, time, seed: 3 })).stats();
      return channels.slice(0, 3).reduce((sum, channel) => sum + channel.mean, 0) / 3;
    };
    assert.ok((await brightness('night')) < (await brightness('day')) / 2);
  });

  it('makes square PNG avatars, different for different seeds', async () => {
    const [a, b] = await Promise.all([avatarPng(1), avatarPng(2)]);
    const meta = await sharp(a).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 320, 320]);
    assert.notDeepEqual(a, b);
  });
});

describe('the seed progress bar', () => {
  it('fills by each step’s weight and ends full', () => {
    const shown: string[] = [];
    const progress = new SeedProgress((line) => shown.push(line), { one: 1, three: 3 });
    const one = progress.step('one');
    one(0, 2);
    one(2, 2);
    const three = progress.step('three');
    three(4, 4);
    assert.deepEqual(shown, [
      seedProgressLine(0, 'one', 0, 2),
      seedProgressLine(0.25, 'one', 2, 2),
      seedProgressLine(1, 'three', 4, 4),
    ]);
    assert.equal(shown[1], 'seed:demo [########----------------------] 25% one 2/2');
  });

  it('draws the same world from the same seed', () => {
    const draw = () => {
      const random = new Random(42);
      return [random.next(), random.int(1, 6), random.sample([1, 2, 3, 4, 5], 3)];
    };
    assert.deepEqual(draw(), draw());
  });
});
