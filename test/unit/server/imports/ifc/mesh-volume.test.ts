/**
 * Mesh volume (server/imports/ifc/mesh-volume.ts): closed meshes give their volume under any placement (translated,
 * rotated, scaled, mirrored, in file units scaled to metres), with holes through them and as several shells; open,
 * empty and broken meshes give the reason instead; faces wound the wrong way are turned back; small defects of the kind
 * web-ifc's boolean results have (a missing face, a T-junction, a doubled strip) are capped; extents are taken in the
 * first piece's frame.
 */
import { describe, expect, it } from 'vitest';
import { measureMesh, type MeshBody, type MeshPiece } from '../../../../../server/imports/ifc/mesh-volume';

type Point = readonly [number, number, number];
/** A planar polygon, its corners counter-clockwise seen from outside the solid. */
type Polygon = readonly Point[];

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A 4×4 column-major matrix from a row-major 3×3 linear part and a translation. */
function placement(linear: readonly number[], translation: Point = [0, 0, 0]): number[] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = linear;
  return [a, d, g, 0, b, e, h, 0, c, f, i, 0, translation[0], translation[1], translation[2], 1];
}

/** The rotation by `angle` about the unit vector `axis`, row-major (Rodrigues). */
function rotation(axis: Point, angle: number): number[] {
  const [x, y, z] = axis;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const t = 1 - c;
  return [t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c, t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c];
}

/**
 * A mesh as web-ifc hands it over: every polygon gets its own copy of its corners (x, y, z and the face normal), fanned
 * into triangles from its first corner.
 */
function faceted(polygons: readonly Polygon[], matrix: readonly number[] = IDENTITY): MeshPiece {
  const vertices: number[] = [];
  const indices: number[] = [];
  for (const polygon of polygons) {
    const [a, b, c] = polygon;
    if (a === undefined || b === undefined || c === undefined) throw new Error('a polygon needs three corners');
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const normal = [(u[1] ?? 0) * (v[2] ?? 0) - (u[2] ?? 0) * (v[1] ?? 0), (u[2] ?? 0) * (v[0] ?? 0) - (u[0] ?? 0) * (v[2] ?? 0), (u[0] ?? 0) * (v[1] ?? 0) - (u[1] ?? 0) * (v[0] ?? 0)];
    const first = vertices.length / 6;
    for (const corner of polygon) vertices.push(...corner, ...normal);
    for (let k = 1; k + 1 < polygon.length; k++) indices.push(first, first + k, first + k + 1);
  }
  return { vertices: Float32Array.from(vertices), indices: Uint32Array.from(indices), matrix };
}

/** The same mesh with each distinct point once (as a clean indexed mesh would have it). */
function shared(polygons: readonly Polygon[], matrix: readonly number[] = IDENTITY): MeshPiece {
  const numbers = new Map<string, number>();
  const vertices: number[] = [];
  const indices: number[] = [];
  const numberOf = (point: Point): number => {
    const key = point.join(',');
    let index = numbers.get(key);
    if (index === undefined) {
      index = numbers.size;
      numbers.set(key, index);
      vertices.push(...point, 0, 0, 0);
    }
    return index;
  };
  for (const polygon of polygons) {
    const corners = polygon.map(numberOf);
    for (let k = 1; k + 1 < corners.length; k++) indices.push(corners[0] ?? 0, corners[k] ?? 0, corners[k + 1] ?? 0);
  }
  return { vertices: Float32Array.from(vertices), indices: Uint32Array.from(indices), matrix };
}

/** The six faces of the box [min, max], wound outwards. */
function box(min: Point, max: Point): Polygon[] {
  const [x0, y0, z0] = min;
  const [x1, y1, z1] = max;
  return [
    [[x0, y0, z0], [x0, y1, z0], [x1, y1, z0], [x1, y0, z0]],
    [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]],
    [[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]],
    [[x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]],
    [[x0, y0, z0], [x0, y0, z1], [x0, y1, z1], [x0, y1, z0]],
    [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]],
  ];
}

const reversed = (polygons: readonly Polygon[]): Polygon[] => polygons.map((polygon) => [...polygon].reverse());
const UNIT_CUBE = box([0, 0, 0], [1, 1, 1]);

/** The body of a closed mesh; fails the test when the mesh gave an issue. */
function body(pieces: readonly MeshPiece[]): MeshBody {
  const measured = measureMesh(pieces);
  if ('issue' in measured) throw new Error(`expected a closed mesh, got '${measured.issue}'`);
  return measured;
}

function expectBody(pieces: readonly MeshPiece[], volume: number, extents: Point): void {
  const measured = body(pieces);
  expect(measured.volume).toBeCloseTo(volume, 6);
  measured.extents.forEach((extent, axis) => expect(extent).toBeCloseTo(extents[axis] ?? Number.NaN, 6));
}

describe('closed meshes', () => {
  it('a unit cube, vertices once per face as web-ifc gives them or shared, has volume 1', () => {
    expectBody([faceted(UNIT_CUBE)], 1, [1, 1, 1]);
    expectBody([shared(UNIT_CUBE)], 1, [1, 1, 1]);
  });

  it('a placement that translates, rotates and scales the cube scales its volume and extents', () => {
    const turn = rotation([1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)], 0.7).map((value) => value * 2);
    expectBody([faceted(UNIT_CUBE, placement(turn, [105.5, -3, 2]))], 8, [2, 2, 2]);
  });

  it('a mirroring placement keeps the volume positive, also beside an unmirrored piece', () => {
    const mirror = placement([-1, 0, 0, 0, 1, 0, 0, 0, 1], [4, 0, 0]);
    expectBody([faceted(UNIT_CUBE, mirror)], 1, [1, 1, 1]);
    // Summed signed, the two would cancel to 0.
    expect(body([faceted(UNIT_CUBE), faceted(UNIT_CUBE, mirror)]).volume).toBeCloseTo(2, 6);
  });

  it('vertices in millimetres with web-ifc unit scale in the placement give m³ and m', () => {
    const millimetres = placement([0.001, 0, 0, 0, 0.001, 0, 0, 0, 0.001]);
    expectBody([faceted(box([0, 0, 0], [4000, 2700, 300]), millimetres)], 4 * 2.7 * 0.3, [0.3, 2.7, 4]);
  });

  it('a box with a square hole through it (genus 1) has the box minus the hole', () => {
    const outer = [[0, 0], [3, 0], [3, 3], [0, 3]] as const;
    const inner = [[1, 1], [2, 1], [2, 2], [1, 2]] as const;
    const top: Polygon[] = [];
    const bottom: Polygon[] = [];
    for (let k = 0; k < 4; k++) {
      const ring = [outer[k], outer[(k + 1) % 4], inner[(k + 1) % 4], inner[k]].map((corner) => corner ?? ([0, 0] as const));
      top.push(ring.map(([x, y]) => [x, y, 1] as const));
      bottom.push(ring.map(([x, y]) => [x, y, 0] as const).reverse());
    }
    const outerSides = box([0, 0, 0], [3, 3, 1]).slice(2);
    const holeSides = reversed(box([1, 1, 0], [2, 2, 1]).slice(2));
    const torus = [...top, ...bottom, ...outerSides, ...holeSides];
    expectBody([faceted(torus)], 9 - 1, [1, 3, 3]);
    expectBody([shared(torus)], 9 - 1, [1, 3, 3]);
  });

  it('separate closed shells in one piece (a frame and its glass) add up', () => {
    const shells = [...UNIT_CUBE, ...box([2, 0, 0], [4, 2, 2])];
    expectBody([faceted(shells)], 1 + 8, [2, 2, 4]);
  });

  it('corners a float32 rounding apart are welded into one vertex', () => {
    const piece = faceted(box([1000, 0, 0], [1003, 0.25, 2.5]));
    const vertices = Float32Array.from(piece.vertices);
    // Every other corner's x a float32 step or so further out: within the weld tolerance, not equal any more.
    for (let index = 0; index < vertices.length; index += 12) vertices[index] = (vertices[index] ?? 0) * (1 + 1e-7);
    expect(body([{ ...piece, vertices }]).volume).toBeCloseTo(3 * 0.25 * 2.5, 3);
  });
});

describe('extents', () => {
  it('are taken in the piece frame, before the placement turns the element', () => {
    const plate = faceted(box([0, 0, 0], [4, 2, 0.2]), placement(rotation([0, 0, 1], Math.PI / 6), [10, 20, 3]));
    expectBody([plate], 4 * 2 * 0.2, [0.2, 2, 4]);
  });

  it('of several pieces, in the first piece frame', () => {
    const turned = rotation([0, 0, 1], Math.PI / 2);
    const first = faceted(UNIT_CUBE, placement(turned, [5, 5, 0]));
    // The same turn, three metres further along the first piece's x axis (which the turn points along world y).
    const second = faceted(UNIT_CUBE, placement(turned, [5, 8, 0]));
    expectBody([first, second], 2, [1, 1, 4]);
  });
});

describe('open, empty and broken meshes', () => {
  it('a cube with one face missing is open', () => {
    expect(measureMesh([faceted(UNIT_CUBE.slice(1))])).toEqual({ issue: 'open' });
    expect(measureMesh([shared(UNIT_CUBE.slice(1))])).toEqual({ issue: 'open' });
  });

  it('one open piece makes the element open', () => {
    expect(measureMesh([faceted(UNIT_CUBE), faceted(UNIT_CUBE.slice(1))])).toEqual({ issue: 'open' });
  });

  it('a flat sheet (a surface model) is open', () => {
    expect(measureMesh([faceted([[[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]])])).toEqual({ issue: 'open' });
  });

  it('no pieces, no triangles or only triangles without area are empty', () => {
    expect(measureMesh([])).toEqual({ issue: 'empty' });
    expect(measureMesh([{ vertices: new Float32Array(0), indices: new Uint32Array(0), matrix: IDENTITY }])).toEqual({ issue: 'empty' });
    const point = [1, 2, 3, 0, 0, 1];
    expect(measureMesh([{ vertices: Float32Array.from([...point, ...point, ...point]), indices: Uint32Array.of(0, 1, 2), matrix: IDENTITY }])).toEqual({ issue: 'empty' });
  });

  it('an empty piece beside a closed one takes nothing away', () => {
    expectBody([faceted(UNIT_CUBE), { vertices: new Float32Array(0), indices: new Uint32Array(0), matrix: IDENTITY }], 1, [1, 1, 1]);
  });

  it('an index out of range or a coordinate that is not a number is open, never an exception', () => {
    const cube = faceted(UNIT_CUBE);
    const indices = Uint32Array.from(cube.indices);
    indices[4] = 10_000;
    expect(measureMesh([{ ...cube, indices }])).toEqual({ issue: 'open' });
    const vertices = Float32Array.from(cube.vertices);
    vertices[7] = Number.NaN;
    expect(measureMesh([{ ...cube, vertices }])).toEqual({ issue: 'open' });
    expect(measureMesh([{ ...cube, matrix: [] }])).toEqual({ issue: 'empty' });
  });
});

describe('closed meshes wound inconsistently', () => {
  it('a cube with one face wound the wrong way is turned back', () => {
    const [flipped = [], ...rest] = UNIT_CUBE;
    expectBody([faceted([[...flipped].reverse(), ...rest])], 1, [1, 1, 1]);
    expectBody([shared([[...flipped].reverse(), ...rest])], 1, [1, 1, 1]);
  });

  it('once turned back, each shell of the piece counts by its own volume, whichever way it faced', () => {
    const inside = reversed(box([2, 0, 0], [4, 2, 2]));
    const [flipped = [], ...rest] = UNIT_CUBE;
    expectBody([faceted([[...flipped].reverse(), ...rest, ...inside])], 1 + 8, [2, 2, 4]);
  });
});

describe('nearly closed meshes (web-ifc boolean results)', () => {
  it('a wall missing an end face is capped to its full volume', () => {
    const wall = box([0, 0, 0], [10, 0.3, 3]);
    expectBody([faceted(wall.filter((_, index) => index !== 4))], 10 * 0.3 * 3, [0.3, 3, 10]);
  });

  it('a T-junction (an edge split on one side only) is closed', () => {
    const [bottom = [], top = [], front = [], ...rest] = UNIT_CUBE;
    // The front face gets a corner halfway along its top edge; the top face keeps the edge whole.
    const splitFront: Polygon = [front[0] ?? [0, 0, 0], front[1] ?? [0, 0, 0], front[2] ?? [0, 0, 0], [0.5, 0, 1], front[3] ?? [0, 0, 0]];
    expectBody([faceted([bottom, top, splitFront, ...rest])], 1, [1, 1, 1]);
  });

  it('a strip of faces that comes twice, triangulated the other way, counts once', () => {
    const wall = box([0, 0, 0], [10, 0.3, 3]);
    const strip: Polygon = [[4, 0, 1], [5, 0, 1], [5, 0, 1.5], [4, 0, 1.5]];
    const front: Polygon[] = [
      [[0, 0, 0], [10, 0, 0], [10, 0, 1], [0, 0, 1]],
      [[0, 0, 1], [4, 0, 1], [4, 0, 1.5], [0, 0, 1.5]],
      strip,
      [[5, 0, 1], [10, 0, 1], [10, 0, 1.5], [5, 0, 1.5]],
      [[0, 0, 1.5], [10, 0, 1.5], [10, 0, 3], [0, 0, 3]],
    ];
    const twice = [...wall.filter((_, index) => index !== 2), ...front, [strip[1], strip[2], strip[3], strip[0]] as Polygon];
    expectBody([faceted(twice)], 10 * 0.3 * 3, [0.3, 3, 10]);
  });
});
