import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scalePngByRows } from '../../../../server/images/png-rows';
import { tinyPng } from '../../../fixtures/images';

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/** A PNG of the given raw rows, each row filtered with the next filter type of `filters` in turn (0–4). */
function png(options: { width: number; colourType: number; bitDepth?: number; rows: number[][]; filters?: number[]; palette?: number[]; paletteAlpha?: number[]; interlaced?: boolean }): Buffer {
  const bitDepth = options.bitDepth ?? 8;
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[options.colourType] ?? 1;
  const bytesPerPixel = Math.max(1, (channels * bitDepth) / 8);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(options.width, 0);
  header.writeUInt32BE(options.rows.length, 4);
  header.set([bitDepth, options.colourType, 0, 0, options.interlaced === true ? 1 : 0], 8);
  const filters = options.filters ?? [0];
  let previous = new Array<number>(options.rows[0]?.length ?? 0).fill(0);
  const raw = options.rows.flatMap((row, y) => {
    const filter = filters[y % filters.length] ?? 0;
    const filtered = row.map((value, index) => {
      const left = index >= bytesPerPixel ? (row[index - bytesPerPixel] ?? 0) : 0;
      const up = previous[index] ?? 0;
      const upLeft = index >= bytesPerPixel ? (previous[index - bytesPerPixel] ?? 0) : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter] ?? 0;
      return (value - predicted) & 0xff;
    });
    previous = row;
    return [filter, ...filtered];
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(options.palette === undefined ? [] : [chunk('PLTE', Buffer.from(options.palette))]),
    ...(options.paletteAlpha === undefined ? [] : [chunk('tRNS', Buffer.from(options.paletteAlpha))]),
    chunk('IDAT', deflateSync(Buffer.from(raw))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The RGB triples of a scaled picture, row by row. */
async function pixels(bytes: Buffer, width: number, height: number): Promise<number[][]> {
  const picture = await scalePngByRows(bytes, width, height);
  if (picture === undefined) throw new Error('not taken');
  expect(picture.visible).toBe(true);
  return Array.from({ length: width * height }, (_, index) => [...picture.rgba.subarray(index * 4, index * 4 + 3)]);
}

describe('scalePngByRows', () => {
  const rgbRows = [
    [10, 20, 30, 200, 100, 50, 0, 255, 7],
    [40, 50, 60, 1, 2, 3, 250, 128, 64],
    [90, 80, 70, 33, 66, 99, 12, 13, 14],
    [5, 250, 5, 255, 255, 255, 0, 0, 0],
    [77, 88, 99, 11, 22, 33, 44, 55, 66],
  ];
  const rgb = (rows: number[][]) => rows.flatMap((row) => [0, 1, 2].map((x) => row.slice(x * 3, x * 3 + 3)));

  it('reads RGB rows under every filter type exactly, at their own size', async () => {
    expect(await pixels(png({ width: 3, colourType: 2, rows: rgbRows, filters: [0, 1, 2, 3, 4] }), 3, 5)).toEqual(rgb(rgbRows));
    expect(await pixels(png({ width: 3, colourType: 2, rows: rgbRows, filters: [4, 3, 2, 1, 0] }), 3, 5)).toEqual(rgb(rgbRows));
  });

  it('lays grey with alpha, RGBA and palettes with transparency over white, and reads 16 bits by their high byte', async () => {
    expect(await pixels(png({ width: 2, colourType: 4, rows: [[100, 255, 100, 0]], filters: [1] }), 2, 1)).toEqual([[100, 100, 100], [255, 255, 255]]);
    expect(await pixels(png({ width: 1, colourType: 6, rows: [[0, 0, 0, 128]] }), 1, 1)).toEqual([[127, 127, 127]]);
    const palette = png({ width: 3, colourType: 3, rows: [[0, 1, 2]], palette: [255, 0, 0, 0, 255, 0, 0, 0, 255], paletteAlpha: [255, 0] });
    expect(await pixels(palette, 3, 1)).toEqual([[255, 0, 0], [255, 255, 255], [0, 0, 255]]);
    expect(await pixels(png({ width: 1, colourType: 0, bitDepth: 16, rows: [[0x12, 0x34]] }), 1, 1)).toEqual([[0x12, 0x12, 0x12]]);
  });

  it('averages the pixels of each box when it scales down', async () => {
    const rows = [
      [0, 0, 0, 100, 100, 100, 200, 200, 200, 50, 50, 50],
      [0, 0, 0, 100, 100, 100, 200, 200, 200, 250, 250, 250],
    ];
    expect(await pixels(png({ width: 4, colourType: 2, rows, filters: [2] }), 2, 1)).toEqual([[50, 50, 50], [175, 175, 175]]);
    expect(await pixels(Buffer.from(tinyPng(300, 200)), 3, 2)).toEqual(Array.from({ length: 6 }, () => [0x80, 0x80, 0x80]));
  });

  it('leaves interlaced PNGs and those under 8 bits a sample to the whole-image decoder, and rejects broken data', async () => {
    expect(await scalePngByRows(png({ width: 1, colourType: 0, rows: [[1]], interlaced: true }), 1, 1)).toBeUndefined();
    expect(await scalePngByRows(png({ width: 8, colourType: 0, bitDepth: 1, rows: [[0xff]] }), 8, 1)).toBeUndefined();
    const short = png({ width: 3, colourType: 2, rows: rgbRows });
    short.writeUInt32BE(9, 20);
    await expect(scalePngByRows(short, 3, 9)).rejects.toThrow(/ends after 5 of 9 rows/);
  });
});
