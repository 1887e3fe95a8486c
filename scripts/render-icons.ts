/**
 * Renders the app's icons from their SVG sources with resvg: `build/icon.svg` → `build/icon.png` (1024×1024, from
 * which electron-builder makes the .icns, .ico and Linux icons) and `build/tray.svg` → `build/tray.png` (16×16) and
 * `build/tray@2x.png` (32×32). The PNGs are committed; run `npm run icons` after changing an SVG.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

/** One PNG made from one SVG at one width. */
export interface IconTarget {
  source: string;
  output: string;
  size: number;
}

/** Every icon of the app, paths relative to the repository. */
export const ICON_TARGETS: readonly IconTarget[] = [
  { source: 'build/icon.svg', output: 'build/icon.png', size: 1024 },
  { source: 'build/tray.svg', output: 'build/tray.png', size: 16 },
  { source: 'build/tray.svg', output: 'build/tray@2x.png', size: 32 },
];

/** Renders an SVG to a square PNG `size` pixels wide. */
export function renderSvg(svg: string, size: number): Buffer {
  const image = new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } }).render();
  return image.asPng();
}

/** Renders every icon target under `root`; returns the PNGs by output path without writing them. */
export async function renderIcons(root: string): Promise<Map<string, Buffer>> {
  const rendered = new Map<string, Buffer>();
  for (const target of ICON_TARGETS) {
    const svg = await readFile(path.join(root, target.source), 'utf8');
    rendered.set(target.output, renderSvg(svg, target.size));
  }
  return rendered;
}

async function main(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  for (const [output, png] of await renderIcons(root)) {
    await writeFile(path.join(root, output), png);
    console.log(`${output} (${png.length} bytes)`);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
