/**
 * Stands in for the server integration suite of the `integration-postgres` project when PostgreSQL is not installed
 * and CI is not set (vitest.config.ts decides), so the run says why that suite did not run. CI installs PostgreSQL
 * and runs the suite; elsewhere install the `postgresql` package or set POSTGRES_BIN to the folder of initdb and pg_ctl.
 */
import { it } from 'vitest';

it.skip('PostgreSQL is not installed (no initdb and pg_ctl found; set POSTGRES_BIN): the server integration suite on PostgreSQL is skipped', () => {});
