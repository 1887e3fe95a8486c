import { describe, expect, it } from 'vitest';
import { jpegOrientation, uprightTransform } from '../../../../server/images/exif-orientation';
import { tinyJpeg } from '../../../fixtures/images';

/** Where `uprightTransform` puts the stored pixel at (x, y). */
function mapped(transform: string, x: number, y: number): [number, number] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = (/matrix\(([^)]*)\)/.exec(transform)?.[1] ?? '').split(' ').map(Number);
  return [a * x + c * y + e, b * x + d * y + f];
}

describe('EXIF orientation', () => {
  it('is read from a JPEG’s EXIF segment, and is 1 without one', () => {
    for (const orientation of [1, 3, 6, 8]) expect(jpegOrientation(tinyJpeg(undefined, orientation))).toBe(orientation);
    expect(jpegOrientation(tinyJpeg())).toBe(1);
    expect(jpegOrientation(tinyJpeg(undefined, 9))).toBe(1);
  });

  it('turns the stored corners where the orientation says, swapping width and height for a quarter turn', () => {
    // A 4 × 2 image: its stored top-left and top-right corners, shown upright.
    const corners = (orientation: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8) => {
      const upright = uprightTransform(orientation, 4, 2);
      return { size: [upright.width, upright.height], topLeft: mapped(upright.transform, 0, 0), topRight: mapped(upright.transform, 4, 0) };
    };
    expect(corners(1)).toEqual({ size: [4, 2], topLeft: [0, 0], topRight: [4, 0] });
    expect(corners(2)).toEqual({ size: [4, 2], topLeft: [4, 0], topRight: [0, 0] });
    expect(corners(3)).toEqual({ size: [4, 2], topLeft: [4, 2], topRight: [0, 2] });
    expect(corners(4)).toEqual({ size: [4, 2], topLeft: [0, 2], topRight: [4, 2] });
    expect(corners(5)).toEqual({ size: [2, 4], topLeft: [0, 0], topRight: [0, 4] });
    expect(corners(6)).toEqual({ size: [2, 4], topLeft: [2, 0], topRight: [2, 4] });
    expect(corners(7)).toEqual({ size: [2, 4], topLeft: [2, 4], topRight: [2, 0] });
    expect(corners(8)).toEqual({ size: [2, 4], topLeft: [0, 4], topRight: [0, 0] });
  });
});
