/** Measures of one triangle of web-ifc's vertex data. */
import { STRIDE } from './mesh-scratch';

/** Six times the signed volume of the tetrahedron from `origin` to corners a, b, c of `vertices`: (a−o)·((b−o)×(c−o)). */
export function sixfoldTetrahedron(vertices: ArrayLike<number>, origin: Float64Array, a: number, b: number, c: number): number {
  const [ox = 0, oy = 0, oz = 0] = origin;
  const ax = (vertices[a * STRIDE] ?? 0) - ox;
  const ay = (vertices[a * STRIDE + 1] ?? 0) - oy;
  const az = (vertices[a * STRIDE + 2] ?? 0) - oz;
  const bx = (vertices[b * STRIDE] ?? 0) - ox;
  const by = (vertices[b * STRIDE + 1] ?? 0) - oy;
  const bz = (vertices[b * STRIDE + 2] ?? 0) - oz;
  const cx = (vertices[c * STRIDE] ?? 0) - ox;
  const cy = (vertices[c * STRIDE + 1] ?? 0) - oy;
  const cz = (vertices[c * STRIDE + 2] ?? 0) - oz;
  return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
}

/** Twice the area of triangle a, b, c of `vertices`. */
export function doubleArea(vertices: ArrayLike<number>, a: number, b: number, c: number): number {
  const ax = vertices[a * STRIDE] ?? 0;
  const ay = vertices[a * STRIDE + 1] ?? 0;
  const az = vertices[a * STRIDE + 2] ?? 0;
  const ux = (vertices[b * STRIDE] ?? 0) - ax;
  const uy = (vertices[b * STRIDE + 1] ?? 0) - ay;
  const uz = (vertices[b * STRIDE + 2] ?? 0) - az;
  const vx = (vertices[c * STRIDE] ?? 0) - ax;
  const vy = (vertices[c * STRIDE + 1] ?? 0) - ay;
  const vz = (vertices[c * STRIDE + 2] ?? 0) - az;
  return Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
}
