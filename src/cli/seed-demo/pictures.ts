/**
 * The demo world's pictures, drawn as SVG and encoded by sharp: a landscape per photo (sky, sun or
 * moon, layers of land fading into the distance, water, a skyline) whose palette follows the city
 * and the time of day, each different through its own random draw; avatars (a figure on a gradient)
 * and profile covers (a wide landscape). Photos carry their position and capture time in EXIF, read
 * back by the upload as any camera's would be.
 */
import sharp from 'sharp';
import { exifDateText, exifDegrees } from '../../adapters/images/exif-values.ts';
import type { Landscape } from './cities.ts';
import { hashText, Random } from './random.ts';

export type TimeOfDay = 'dawn' | 'day' | 'golden' | 'dusk' | 'night';

export const timesOfDay: readonly TimeOfDay[] = ['dawn', 'day', 'day', 'golden', 'dusk', 'night'];

/** The local hour a photo of that time of day is taken at (for EXIF). */
export const hourOf: Record<TimeOfDay, readonly [number, number]> = {
  dawn: [5, 7],
  day: [10, 15],
  golden: [17, 19],
  dusk: [19, 21],
  night: [21, 23],
};

type Rgb = [number, number, number];

interface Sky {
  top: Rgb;
  horizon: Rgb;
  sun: Rgb;
  /** Height of the sun or moon above the horizon, as a share of the sky. */
  sunHeight: number;
  /** How much the land is lit (0 dark, 1 full daylight). */
  light: number;
}

const skies: Record<TimeOfDay, Sky> = {
  dawn: { top: [58, 74, 122], horizon: [246, 180, 143], sun: [255, 214, 170], sunHeight: 0.08, light: 0.6 },
  day: { top: [52, 126, 208], horizon: [196, 228, 246], sun: [255, 250, 228], sunHeight: 0.7, light: 1 },
  golden: { top: [72, 104, 160], horizon: [255, 196, 110], sun: [255, 220, 140], sunHeight: 0.18, light: 0.8 },
  dusk: { top: [40, 34, 84], horizon: [232, 104, 90], sun: [255, 140, 100], sunHeight: 0.02, light: 0.45 },
  night: { top: [8, 12, 32], horizon: [32, 44, 84], sun: [236, 236, 220], sunHeight: 0.6, light: 0.18 },
};

const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  clamp(a[0] + (b[0] - a[0]) * t),
  clamp(a[1] + (b[1] - a[1]) * t),
  clamp(a[2] + (b[2] - a[2]) * t),
];
const hex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const scale = (c: Rgb, f: number): Rgb => [clamp(c[0] * f), clamp(c[1] * f), clamp(c[2] * f)];

/** A colour from hue (0-360), saturation and lightness (0-1). */
function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [clamp(f(0) * 255), clamp(f(8) * 255), clamp(f(4) * 255)];
}

/** The base hues of a landscape's land, shifted a little per city so two cities never look alike. */
const landHues: Record<Landscape, [number, number, number]> = {
  city: [220, 0.12, 0.42],
  coast: [140, 0.25, 0.38],
  mountain: [205, 0.18, 0.45],
  lake: [120, 0.3, 0.35],
  desert: [30, 0.5, 0.55],
};

/** A ridge line across the picture: points of a polygon closed along the bottom. */
function ridge(random: Random, width: number, height: number, base: number, amplitude: number, roughness: number) {
  const points: string[] = [];
  const phase = random.between(0, Math.PI * 2);
  const waves = random.between(1.5, 3.5);
  let drift = 0;
  for (let x = 0; x <= width; x += width / 48) {
    drift += random.between(-roughness, roughness);
    drift *= 0.9;
    const y = base - amplitude * (0.55 + 0.45 * Math.sin(phase + (x / width) * Math.PI * waves)) + drift;
    points.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  }
  return `0,${height} ${points.join(' ')} ${width},${height}`;
}

function stars(random: Random, width: number, horizon: number): string {
  let out = '';
  for (let i = 0; i < 90; i += 1) {
    const r = random.between(0.6, 1.8);
    out += `<circle cx="${random.between(0, width).toFixed(0)}" cy="${random.between(0, horizon * 0.85).toFixed(0)}" r="${r.toFixed(1)}" fill="#fff" opacity="${random.between(0.4, 0.95).toFixed(2)}"/>`;
  }
  return out;
}

function clouds(random: Random, width: number, horizon: number, tint: Rgb, count: number): string {
  let out = '';
  for (let i = 0; i < count; i += 1) {
    const cx = random.between(0, width);
    const cy = random.between(horizon * 0.12, horizon * 0.7);
    const w = random.between(width * 0.08, width * 0.22);
    out += `<g opacity="${random.between(0.35, 0.7).toFixed(2)}" fill="${hex(tint)}">`;
    for (let j = 0; j < 4; j += 1) {
      out += `<ellipse cx="${(cx + random.between(-w, w) * 0.6).toFixed(0)}" cy="${(cy + random.between(-w, w) * 0.08).toFixed(0)}" rx="${(w * random.between(0.35, 0.6)).toFixed(0)}" ry="${(w * random.between(0.1, 0.18)).toFixed(0)}"/>`;
    }
    out += '</g>';
  }
  return out;
}

function skyline(random: Random, width: number, groundY: number, colour: Rgb, lit: boolean, tall: number): string {
  let out = '';
  let x = -random.between(0, 30);
  while (x < width) {
    const w = random.between(width * 0.025, width * 0.07);
    const h = random.between(tall * 0.25, tall) * (random.chance(0.1) ? 1.5 : 1);
    out += `<rect x="${x.toFixed(0)}" y="${(groundY - h).toFixed(0)}" width="${w.toFixed(0)}" height="${(h + 2).toFixed(0)}" fill="${hex(colour)}"/>`;
    if (random.chance(0.15)) {
      // a dome or a spire
      out += `<circle cx="${(x + w / 2).toFixed(0)}" cy="${(groundY - h).toFixed(0)}" r="${(w * 0.35).toFixed(0)}" fill="${hex(colour)}"/>`;
    }
    if (lit) {
      for (let wy = groundY - h + 8; wy < groundY - 6; wy += 12) {
        for (let wx = x + 4; wx < x + w - 6; wx += 9) {
          if (random.chance(0.35)) {
            out += `<rect x="${wx.toFixed(0)}" y="${wy.toFixed(0)}" width="4" height="5" fill="#ffd98a" opacity="${random.between(0.5, 1).toFixed(2)}"/>`;
          }
        }
      }
    }
    x += w + random.between(0, 6);
  }
  return out;
}

function trees(random: Random, width: number, groundY: number, colour: Rgb, count: number): string {
  let out = '';
  for (let i = 0; i < count; i += 1) {
    const x = random.between(0, width);
    const h = random.between(groundY * 0.06, groundY * 0.14);
    const y = groundY + random.between(0, h * 0.6);
    out += `<polygon points="${(x - h * 0.22).toFixed(0)},${y.toFixed(0)} ${x.toFixed(0)},${(y - h).toFixed(0)} ${(x + h * 0.22).toFixed(0)},${y.toFixed(0)}" fill="${hex(colour)}"/>`;
  }
  return out;
}

export interface SceneOptions {
  /** What the city looks like, and its name (its palette derives from it). */
  landscape: Landscape;
  city: string;
  time: TimeOfDay;
  width: number;
  height: number;
  /** The photo's own draw: two photos of one city at one time still differ. */
  seed: number;
}

/** The SVG of a landscape. */
export function sceneSvg(options: SceneOptions): string {
  const { width, height, landscape, time } = options;
  const random = new Random(options.seed);
  const cityHash = hashText(options.city);
  const sky = skies[time];
  const [baseHue, saturation, lightness] = landHues[landscape];
  const hue = (baseHue + ((cityHash % 60) - 30) + random.between(-8, 8) + 360) % 360;
  const horizon = height * random.between(0.5, 0.66);
  const haze = mix(sky.horizon, [255, 255, 255], 0.15);
  const land = (depth: number) =>
    mix(scale(hsl(hue, saturation, lightness * (0.75 + depth * 0.25)), sky.light), haze, depth * 0.7);

  const sunX = random.between(width * 0.15, width * 0.85);
  const sunY = horizon - sky.sunHeight * horizon;
  const sunRadius = time === 'night' ? width * 0.025 : width * random.between(0.035, 0.05);
  const parts: string[] = [];
  parts.push(`<defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${hex(sky.top)}"/><stop offset="1" stop-color="${hex(sky.horizon)}"/>
    </linearGradient>
    <linearGradient id="water" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${hex(mix(sky.horizon, sky.top, 0.2))}"/>
      <stop offset="1" stop-color="${hex(scale(mix(sky.top, [20, 60, 90], 0.5), 0.85))}"/>
    </linearGradient>
    <radialGradient id="glow"><stop offset="0" stop-color="${hex(sky.sun)}" stop-opacity="0.65"/>
      <stop offset="1" stop-color="${hex(sky.sun)}" stop-opacity="0"/></radialGradient>
  </defs>`);
  parts.push(`<rect width="${width}" height="${height}" fill="url(#sky)"/>`);
  if (time === 'night') parts.push(stars(random, width, horizon));
  parts.push(
    `<circle cx="${sunX.toFixed(0)}" cy="${sunY.toFixed(0)}" r="${(sunRadius * 4).toFixed(0)}" fill="url(#glow)"/>`,
  );
  parts.push(
    `<circle cx="${sunX.toFixed(0)}" cy="${sunY.toFixed(0)}" r="${sunRadius.toFixed(0)}" fill="${hex(sky.sun)}"/>`,
  );
  if (time === 'night' && landscape === 'mountain' && random.chance(0.6)) {
    // northern lights over the mountains
    parts.push(
      `<path d="M0,${(horizon * 0.45).toFixed(0)} Q${(width * 0.35).toFixed(0)},${(horizon * 0.1).toFixed(0)} ${(width * 0.6).toFixed(0)},${(horizon * 0.4).toFixed(0)} T${width},${(horizon * 0.3).toFixed(0)}" stroke="#5dffb0" stroke-width="${(height * 0.08).toFixed(0)}" fill="none" opacity="0.28"/>`,
    );
  }
  parts.push(clouds(random, width, horizon, mix(sky.horizon, [255, 255, 255], 0.6), random.int(1, 5)));

  const water = landscape === 'coast' || landscape === 'lake';
  const farBase = horizon + (water ? 0 : height * 0.02);
  const mountainous = landscape === 'mountain' || landscape === 'lake';
  // Far ridge: high and pale for mountains, low hills elsewhere; snow caps on high peaks.
  const farAmplitude = mountainous ? horizon * random.between(0.35, 0.6) : horizon * random.between(0.05, 0.15);
  const farRidge = ridge(random, width, height, farBase, farAmplitude, 6);
  parts.push(`<polygon points="${farRidge}" fill="${hex(land(0.85))}"/>`);
  if (mountainous) {
    // Snow on the high peaks: a lower ridge line cuts the far range's tops out of a white layer.
    const snowLine = ridge(random, width, height, farBase - farAmplitude * 0.45, farAmplitude * 0.35, 5);
    parts.push(
      `<clipPath id="far"><polygon points="${farRidge}"/></clipPath>`,
      `<rect width="${width}" height="${farBase.toFixed(0)}" fill="${hex(mix(scale([245, 248, 252], Math.max(sky.light, 0.3)), sky.horizon, 0.2))}" clip-path="url(#far)"/>`,
      `<polygon points="${snowLine}" fill="${hex(land(0.85))}" clip-path="url(#far)"/>`,
      `<polygon points="${ridge(random, width, height, farBase, farAmplitude * 0.5, 6)}" fill="${hex(land(0.6))}"/>`,
    );
  }
  if (landscape === 'desert') {
    parts.push(
      `<polygon points="${ridge(random, width, height, farBase + height * 0.05, horizon * 0.12, 2)}" fill="${hex(land(0.4))}"/>`,
    );
  }
  if (water) {
    const waterTop = horizon + height * 0.02;
    parts.push(
      `<rect y="${waterTop.toFixed(0)}" width="${width}" height="${(height - waterTop).toFixed(0)}" fill="url(#water)"/>`,
    );
    for (let i = 0; i < 26; i += 1) {
      const y = random.between(waterTop + 4, height);
      const spread = (y - waterTop) * 0.5 + 20;
      const x = sunX + random.between(-spread, spread);
      parts.push(
        `<rect x="${x.toFixed(0)}" y="${y.toFixed(0)}" width="${random.between(20, 90).toFixed(0)}" height="2" fill="${hex(sky.sun)}" opacity="${random.between(0.15, 0.5).toFixed(2)}"/>`,
      );
    }
    if (random.chance(0.5)) {
      const bx = random.between(width * 0.1, width * 0.9);
      const by = random.between(waterTop + 20, waterTop + (height - waterTop) * 0.5);
      const s = height * 0.05;
      parts.push(
        `<polygon points="${bx},${by} ${bx + s * 0.6},${by} ${bx + s * 0.1},${by - s}" fill="${hex(mix(sky.horizon, [255, 255, 255], 0.7))}"/>`,
        `<rect x="${(bx - s * 0.2).toFixed(0)}" y="${by.toFixed(0)}" width="${(s * 0.9).toFixed(0)}" height="${(s * 0.15).toFixed(0)}" fill="${hex(land(0.1))}"/>`,
      );
    }
    // a headland sloping into the water on one side
    const headWidth = width * random.between(0.25, 0.45);
    const top = horizon - height * random.between(0.08, 0.2);
    const bump = height * random.between(0.02, 0.08);
    const headland = `M0,${height} L0,${top.toFixed(0)} Q${(headWidth * 0.55).toFixed(0)},${(top - bump).toFixed(0)} ${headWidth.toFixed(0)},${(waterTop + 6).toFixed(0)} L${headWidth.toFixed(0)},${height} Z`;
    const mirrored = random.chance(0.5) ? ` transform="translate(${width},0) scale(-1,1)"` : '';
    parts.push(`<path d="${headland}" fill="${hex(land(0.3))}"${mirrored}/>`);
  }
  if (landscape === 'city' || (landscape === 'coast' && random.chance(0.5))) {
    const lit = time === 'night' || time === 'dusk';
    parts.push(skyline(random, width, horizon + height * 0.04, land(0.55), false, horizon * 0.35));
    parts.push(skyline(random, width, horizon + height * 0.12, scale(land(0.2), 0.9), lit, horizon * 0.3));
  }
  // Near ground, then its trees or dunes.
  const nearBase = height * random.between(0.86, 0.96);
  parts.push(`<polygon points="${ridge(random, width, height, nearBase, height * 0.08, 4)}" fill="${hex(land(0))}"/>`);
  if (landscape !== 'desert' && landscape !== 'city') {
    parts.push(trees(random, width, nearBase - height * 0.05, scale(land(0), 0.7), random.int(6, 22)));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

export interface PhotoOptions extends SceneOptions {
  latitude: number;
  longitude: number;
  /** Local wall-clock time of the capture, written as EXIF DateTimeOriginal with its offset. */
  takenAt: Date;
  offset: string;
}

/** A JPEG of a landscape, with GPS position and capture time in EXIF. */
export async function photoJpeg(options: PhotoOptions): Promise<Buffer> {
  return sharp(Buffer.from(sceneSvg(options)))
    .jpeg({ quality: 82 })
    .withExif({
      IFD0: { Make: 'Demo', Model: 'Travel Camera' },
      IFD2: { DateTimeOriginal: exifDateText(options.takenAt), OffsetTimeOriginal: options.offset },
      IFD3: {
        GPSLatitudeRef: options.latitude < 0 ? 'S' : 'N',
        GPSLatitude: exifDegrees(options.latitude),
        GPSLongitudeRef: options.longitude < 0 ? 'W' : 'E',
        GPSLongitude: exifDegrees(options.longitude),
      },
    })
    .toBuffer();
}

/** A profile cover: a wide landscape without EXIF. */
export function coverJpeg(options: SceneOptions): Promise<Buffer> {
  return sharp(Buffer.from(sceneSvg(options)))
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** An avatar: a figure (head and shoulders) on a two-colour gradient, its hues from the seed. */
export function avatarPng(seed: number, size = 320): Promise<Buffer> {
  const random = new Random(seed);
  const hue = random.between(0, 360);
  const from = hsl(hue, 0.55, 0.62);
  const to = hsl((hue + random.between(40, 120)) % 360, 0.6, 0.42);
  const figure = hsl((hue + 180) % 360, 0.35, random.chance(0.5) ? 0.9 : 0.22);
  const hair = hsl(random.between(0, 50), random.between(0.2, 0.6), random.between(0.12, 0.5));
  const c = size / 2;
  const head = size * random.between(0.17, 0.21);
  const headY = size * 0.44;
  // short hair (a cap) or long hair (falling behind the shoulders)
  const hairShape = random.chance(0.5)
    ? `<ellipse cx="${c}" cy="${headY - head * 0.35}" rx="${head * 1.1}" ry="${head * 0.85}" fill="${hex(hair)}"/>`
    : `<ellipse cx="${c}" cy="${headY + head * 0.35}" rx="${head * 1.3}" ry="${head * 1.55}" fill="${hex(hair)}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${hex(from)}"/><stop offset="1" stop-color="${hex(to)}"/></linearGradient></defs>
    <rect width="${size}" height="${size}" fill="url(#g)"/>
    <circle cx="${c + random.between(-size * 0.3, size * 0.3)}" cy="${size * random.between(0.1, 0.3)}" r="${size * random.between(0.08, 0.2)}" fill="#fff" opacity="0.18"/>
    ${hairShape}
    <ellipse cx="${c}" cy="${size * 1.04}" rx="${size * 0.36}" ry="${size * 0.38}" fill="${hex(figure)}"/>
    <circle cx="${c}" cy="${headY}" r="${head}" fill="${hex(figure)}"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
