/**
 * Face fixtures made at run time from images that ship in the installed npm package
 * @vladmandic/human 3.3.6 (MIT licence, © Vladimir Mandic; see tests/faces/README.md): nothing is
 * downloaded and no copy is kept in the repository.
 *
 * - Five people from one group photo: the five face tiles of assets/screenshot-facedetect.jpg
 *   (the demo's faces of samples/in/group-4.jpg). The names are those the package's own face
 *   database (demo/facematch/faces.json) gives these faces. One photo means the same light and
 *   camera for all five: the hardest case for telling different people apart.
 * - A second, different photo of one of them (vlado): the webcam picture in
 *   assets/screenshot-faceid.jpg, used for the cross-photo figure, not in the same-photo pairs.
 *
 * "Same person" variants are made with sharp: crops, scales, mirror, brightness, rotation, blur,
 * heavy JPEG compression.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp, { type Sharp } from 'sharp';

const require = createRequire(import.meta.url);
const ASSETS = join(dirname(require.resolve('@vladmandic/human')), '..', 'assets');

interface Tile {
  person: string;
  file: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Pixel rectangles of the face tiles in the package's screenshots. */
const GROUP_TILES: Tile[] = [
  { person: 'vlado', file: 'screenshot-facedetect.jpg', left: 8, top: 346, width: 150, height: 150 },
  { person: 'christina', file: 'screenshot-facedetect.jpg', left: 164, top: 346, width: 150, height: 150 },
  { person: 'mia', file: 'screenshot-facedetect.jpg', left: 321, top: 346, width: 150, height: 150 },
  { person: 'esma', file: 'screenshot-facedetect.jpg', left: 478, top: 346, width: 150, height: 150 },
  { person: 'chelsea', file: 'screenshot-facedetect.jpg', left: 636, top: 346, width: 150, height: 150 },
];
const VLADO_WEBCAM: Tile = { person: 'vlado', file: 'screenshot-faceid.jpg', left: 13, top: 142, width: 141, height: 140 };

export const PEOPLE = GROUP_TILES.map((t) => t.person);

const GREY = { r: 128, g: 128, b: 128 };
const jpeg = (img: Sharp) => img.jpeg({ quality: 90 }).toBuffer();

/** A person's portrait: their face tile (~130 px face) centred on a plain 300×300 background. */
async function portrait(t: Tile): Promise<Buffer> {
  const tile = await sharp(join(ASSETS, t.file)).extract({ left: t.left, top: t.top, width: t.width, height: t.height }).resize(150, 150).toBuffer();
  return sharp({ create: { width: 300, height: 300, channels: 3, background: GREY } })
    .composite([{ input: tile, left: 75, top: 75 }])
    .png()
    .toBuffer();
}

export interface FaceFixture {
  person: string;
  variant: string;
  jpeg: Buffer;
}

/** Variant makers: each takes the portrait (PNG) and returns a JPEG of the same person. */
const VARIANTS: Record<string, (png: Buffer) => Promise<Buffer>> = {
  original: (p) => jpeg(sharp(p)),
  'crop-tight': (p) => jpeg(sharp(p).extract({ left: 55, top: 55, width: 190, height: 190 })),
  'crop-offset': (p) => jpeg(sharp(p).extract({ left: 20, top: 40, width: 250, height: 240 })),
  'scale-0.6': (p) => jpeg(sharp(p).resize(180, 180)),
  'scale-1.6': (p) => jpeg(sharp(p).resize(480, 480)),
  mirror: (p) => jpeg(sharp(p).flop()),
  brighter: (p) => jpeg(sharp(p).modulate({ brightness: 1.3 })),
  darker: (p) => jpeg(sharp(p).modulate({ brightness: 0.65 })),
  'rotate-8': (p) => jpeg(sharp(p).rotate(8, { background: GREY })),
  blur: (p) => jpeg(sharp(p).blur(1.2)),
  'jpeg-q25': (p) => sharp(p).jpeg({ quality: 25 }).toBuffer(),
};
export const VARIANT_NAMES = Object.keys(VARIANTS);

/** Every variant of every person of the group photo. */
export async function samePhotoFixtures(): Promise<FaceFixture[]> {
  const out: FaceFixture[] = [];
  for (const t of GROUP_TILES) {
    const png = await portrait(t);
    for (const [variant, make] of Object.entries(VARIANTS)) out.push({ person: t.person, variant, jpeg: await make(png) });
  }
  return out;
}

/** The portrait of one person (JPEG). */
export async function portraitJpeg(person: string): Promise<Buffer> {
  const t = GROUP_TILES.find((g) => g.person === person);
  if (!t) throw new Error(`no fixture person ${person}`);
  return jpeg(sharp(await portrait(t)));
}

/** vlado in another photo (webcam, other years, other light). */
export async function crossPhotoFixture(): Promise<FaceFixture> {
  return { person: 'vlado', variant: 'webcam-photo', jpeg: await jpeg(sharp(await portrait(VLADO_WEBCAM))) };
}

/** One person's portrait scaled so the face is about `facePx` across (for the minimum-size figure). */
export async function scaledPortrait(person: string, facePx: number): Promise<Buffer> {
  const t = GROUP_TILES.find((g) => g.person === person)!;
  // the tile's face is ~130 px of its 150; keep the 2:1 canvas-to-tile ratio
  const side = Math.round((facePx / 130) * 300);
  return jpeg(sharp(await portrait(t)).resize(side, side));
}

/** A real photo with no face in it: the ceiling of the party photo in assets/samples.jpg. */
export async function noFaceJpeg(): Promise<Buffer> {
  return jpeg(sharp(join(ASSETS, 'samples.jpg')).extract({ left: 640, top: 210, width: 500, height: 300 }));
}

/** Two people of similar size in one picture (christina and esma side by side). */
export async function twoFacesJpeg(): Promise<Buffer> {
  const a = await portrait(GROUP_TILES[1]);
  const b = await portrait(GROUP_TILES[3]);
  return jpeg(
    sharp({ create: { width: 600, height: 300, channels: 3, background: GREY } }).composite([
      { input: a, left: 0, top: 0 },
      { input: b, left: 300, top: 0 },
    ]),
  );
}

/** The five faces of the group photo as the package's screenshot shows them, side by side. */
export async function groupRowJpeg(): Promise<Buffer> {
  return jpeg(sharp(join(ASSETS, 'screenshot-facedetect.jpg')).extract({ left: 0, top: 330, width: 800, height: 190 }));
}

/** The package's labelled face database: FaceRes descriptors of 36 people in 40 photos. */
export async function packageFaceDatabase(): Promise<Array<{ name: string; source: string; descriptor: Float32Array }>> {
  const { readFile } = await import('node:fs/promises');
  const file = join(dirname(require.resolve('@vladmandic/human')), '..', 'demo', 'facematch', 'faces.json');
  const rows = JSON.parse(await readFile(file, 'utf8')) as Array<{ name: string; source: string; embedding: number[] }>;
  return rows.map((r) => ({ name: r.name, source: r.source, descriptor: Float32Array.from(r.embedding) }));
}
