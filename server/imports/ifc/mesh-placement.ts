/** A mesh piece's placement (web-ifc's 4×4 matrix) as 3×3 algebra, and bounding boxes taken through it. */
import { STRIDE } from './mesh-scratch';

/** The placement of a piece split into its linear part (row-major 3×3) and its translation. */
export interface Placement {
  linear: Float64Array;
  translation: Float64Array;
  determinant: number;
}

export function placementOf(matrix: ArrayLike<number>): Placement {
  const m = (index: number): number => Number(matrix[index] ?? 0);
  // Column-major: element (row r, column c) is m[4c + r].
  const linear = Float64Array.of(m(0), m(4), m(8), m(1), m(5), m(9), m(2), m(6), m(10));
  const translation = Float64Array.of(m(12), m(13), m(14));
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = linear;
  const determinant = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return { linear, translation, determinant };
}

/** The inverse of a 3×3 row-major matrix with a non-zero determinant. */
export function inverse(linear: Float64Array, determinant: number): Float64Array {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = linear;
  const k = 1 / determinant;
  return Float64Array.of(
    (e * i - f * h) * k,
    (c * h - b * i) * k,
    (b * f - c * e) * k,
    (f * g - d * i) * k,
    (a * i - c * g) * k,
    (c * d - a * f) * k,
    (d * h - e * g) * k,
    (b * g - a * h) * k,
    (a * e - b * d) * k,
  );
}

/** The product of two 3×3 row-major matrices. */
export function multiply(left: Float64Array, right: Float64Array): Float64Array {
  const product = new Float64Array(9);
  for (let row = 0; row < 3; row++) {
    for (let column = 0; column < 3; column++) {
      let sum = 0;
      for (let k = 0; k < 3; k++) sum += (left[row * 3 + k] ?? 0) * (right[k * 3 + column] ?? 0);
      product[row * 3 + column] = sum;
    }
  }
  return product;
}

/** A 3×3 row-major matrix applied to a vector. */
export function apply(linear: Float64Array, x: number, y: number, z: number): Float64Array {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = linear;
  return Float64Array.of(a * x + b * y + c * z, d * x + e * y + f * z, g * x + h * y + i * z);
}

/** Widens [min, max] by every vertex of a piece taken into the reference frame (x′ = R·x + r). */
export function extendByPiece(vertices: ArrayLike<number>, relative: Float64Array, offset: Float64Array, min: Float64Array, max: Float64Array): void {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = relative;
  const [rx = 0, ry = 0, rz = 0] = offset;
  const vertexCount = Math.floor(vertices.length / STRIDE);
  for (let vertex = 0; vertex < vertexCount; vertex++) {
    const base = vertex * STRIDE;
    const x = vertices[base] ?? 0;
    const y = vertices[base + 1] ?? 0;
    const z = vertices[base + 2] ?? 0;
    extend(min, max, 0, a * x + b * y + c * z + rx);
    extend(min, max, 1, d * x + e * y + f * z + ry);
    extend(min, max, 2, g * x + h * y + i * z + rz);
  }
}

export function extend(min: Float64Array, max: Float64Array, axis: number, value: number): void {
  if (value < (min[axis] ?? 0)) min[axis] = value;
  if (value > (max[axis] ?? 0)) max[axis] = value;
}
