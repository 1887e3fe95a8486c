/**
 * The whole processing pipeline as a user sees it: a synthetic IFC4 model with quantity sets (synthetic-ifc.ts) is
 * uploaded to the server, running in its own process, which then imports, refines and validates it until the file is
 * Mapped (time-to-mapped.ts). Reports the upload's time, the time from the end of the upload to Mapped and the server's
 * peak RSS. Goal: a 100 MiB file reaches Mapped in ≤ 20 s with peak RSS ≤ 1.5 GiB. ifc-import.bench.ts sets the same
 * time against web-ifc's own pass over the file.
 *
 * BENCH_PIPELINE_MB sets the file size (default 100). Never fails on time; exits non-zero only when the file does not
 * reach Mapped with every wall.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BuildingFileStatuses } from '../../shared/api/enums';
import { syntheticElementCount, writeSyntheticIfcOfSize } from './synthetic-ifc';
import { timeToMapped } from './time-to-mapped';

const megabytes = Number(process.env['BENCH_PIPELINE_MB'] ?? 100);

async function main(): Promise<number> {
  const folder = await mkdtemp(path.join(tmpdir(), 'cd-pipeline-'));
  try {
    const ifc = path.join(folder, 'synthetic.ifc');
    const { walls, bytes } = await writeSyntheticIfcOfSize(ifc, megabytes);
    const result = await timeToMapped(ifc);
    const mib = bytes / 1024 / 1024;
    const mapped = result.status === BuildingFileStatuses.Mapped;
    console.log(`file: ${mib.toFixed(1)} MiB, ${walls.toLocaleString('en')} walls`);
    console.log(`upload: ${result.uploadSeconds.toFixed(1)} s`);
    console.log(
      `upload → ${mapped ? 'Mapped' : `status ${result.status}`}: ${result.seconds.toFixed(1)} s ` +
        `(${(mib / result.seconds).toFixed(1)} MiB/s), ${result.elementCount.toLocaleString('en')} elements`,
    );
    console.log(`server peak RSS: ${result.peakRss === undefined ? 'unknown' : `${(result.peakRss / 1024 ** 3).toFixed(2)} GiB`}`);
    console.log('goal: 100 MiB reaches Mapped in ≤ 20 s with peak RSS ≤ 1.5 GiB (informative; never fails the run)');
    if (!mapped) {
      console.error(`FAILED: the file ended in status ${result.status}: ${result.statusMessage ?? ''}`);
      return 1;
    }
    if (result.elementCount !== syntheticElementCount(walls)) {
      console.error(`FAILED: ${result.elementCount} elements Mapped, expected ${syntheticElementCount(walls)} (the walls' layers)`);
      return 1;
    }
    return 0;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
