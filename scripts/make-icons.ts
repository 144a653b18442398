/**
 * Draws the console's app icons (the web app manifest's PNGs) with sharp from one SVG: a shield
 * with an eye. Run `node --import tsx scripts/make-icons.ts` after changing the drawing; the PNGs
 * are committed under src/platform/console/web/icons/.
 */
import sharp from 'sharp';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = fileURLToPath(new URL('../src/platform/console/web/icons/', import.meta.url));

function svg(size: number, opts: { padding: number; background: string | null; fg: string }): string {
  const s = 100;
  const p = opts.padding;
  const inner = s - 2 * p;
  const k = inner / 100;
  const tr = (x: number, y: number) => `${p + x * k},${p + y * k}`;
  const shield = `M${tr(50, 6)} L${tr(88, 20)} L${tr(88, 48)} C${tr(88, 72)} ${tr(70, 88)} ${tr(50, 96)} C${tr(30, 88)} ${tr(12, 72)} ${tr(12, 48)} L${tr(12, 20)} Z`;
  const eye = `M${tr(26, 50)} Q${tr(50, 26)} ${tr(74, 50)} Q${tr(50, 74)} ${tr(26, 50)} Z`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${s} ${s}">
    ${opts.background ? `<rect width="${s}" height="${s}" fill="${opts.background}"/>` : ''}
    <path d="${shield}" fill="${opts.fg}"/>
    <path d="${eye}" fill="${opts.background ?? '#0f172a'}"/>
    <circle cx="${p + 50 * k}" cy="${p + 50 * k}" r="${9 * k}" fill="${opts.fg}"/>
  </svg>`;
}

const icons: Array<[string, number, Parameters<typeof svg>[1]]> = [
  ['icon-192.png', 192, { padding: 6, background: '#0f172a', fg: '#38bdf8' }],
  ['icon-512.png', 512, { padding: 6, background: '#0f172a', fg: '#38bdf8' }],
  // maskable: the safe zone is the centre 80 %
  ['maskable-512.png', 512, { padding: 18, background: '#0f172a', fg: '#38bdf8' }],
  // the status-bar badge: a monochrome silhouette on transparency
  ['badge-96.png', 96, { padding: 4, background: null, fg: '#ffffff' }],
];
for (const [name, size, opts] of icons) {
  await sharp(Buffer.from(svg(size, opts)))
    .png({ compressionLevel: 9 })
    .toFile(join(OUT, name));
  console.log(`wrote ${name}`);
}
