// Writes renderer/public/favicon.ico from renderer/public/favicon.svg (the app's icon, the one source):
// 16, 32 and 48 px drawn by Chromium, stored as PNG images in an ICO file, which every browser reads.
// The page names both in its <link rel="icon">; the .ico is for browsers and tools that ask for
// /favicon.ico whatever the page says, or cannot show an SVG icon. Run it after changing the SVG:
//   node --import tsx resources/make-favicon-ico.ts
// (uses Playwright's Chromium at /usr/bin/chromium, or CHROMIUM_PATH).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const SIZES = [16, 32, 48] as const;
const root = fileURLToPath(new URL('..', import.meta.url));
const svgPath = join(root, 'renderer', 'public', 'favicon.svg');
const icoPath = join(root, 'renderer', 'public', 'favicon.ico');

/** An ICO file of PNG images: a 6-byte header, a 16-byte entry per image, then the images. */
export function icoOfPngs(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

async function main(): Promise<void> {
  const svg = readFileSync(svgPath);
  const src = `data:image/svg+xml;base64,${svg.toString('base64')}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const images: { size: number; png: Buffer }[] = [];
    for (const size of SIZES) {
      const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
      await page.setContent(`<html style="background:transparent"><body style="margin:0"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`);
      await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
      images.push({ size, png: await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }) });
      await page.close();
    }
    writeFileSync(icoPath, icoOfPngs(images));
    process.stderr.write(`Wrote ${icoPath} (${SIZES.join(', ')} px).\n`);
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
