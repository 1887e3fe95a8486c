/**
 * Global setup of the `integration-postgres` project: a throwaway PostgreSQL cluster on 127.0.0.1 for the whole run,
 * with a template database already migrated and seeded, so each test's database is a quick copy of it.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../../../scripts/postgres-cluster';
import { ensureLocalAccount } from '../../../server/store/seed/local-account';
import { seedSystemData } from '../../../server/store/seed/system-data';
import { openDatabase } from '../../../server/store/store';
import { TEMPLATE_DATABASE, adminQuery, databaseUrl } from './test-database';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster({ log: (line) => console.log(line) });
  try {
    await adminQuery(cluster.url, `create database ${TEMPLATE_DATABASE}`);
    const template = await openDatabase({ url: databaseUrl(cluster.url, TEMPLATE_DATABASE) });
    try {
      await seedSystemData(template.db);
      await ensureLocalAccount(template.db);
    } finally {
      await template.close();
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
