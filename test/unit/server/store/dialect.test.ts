import { describe, expect, it } from 'vitest';
import { isPostgresUrl, postgresDialect, sqliteDialect, unstorableValueMessage } from '../../../../server/store/dialect';

describe('the store dialects', () => {
  it('takes postgres:// and postgresql:// addresses for PostgreSQL, anything else for a SQLite data folder', () => {
    expect(isPostgresUrl('postgres://desk@db:5432/circularity')).toBe(true);
    expect(isPostgresUrl('POSTGRESQL://desk@db/circularity')).toBe(true);
    expect(isPostgresUrl('./.data')).toBe(false);
    expect(isPostgresUrl('C:\\Users\\desk\\data')).toBe(false);
    expect(isPostgresUrl('mysql://db/x')).toBe(false);
  });

  it('names what PostgreSQL refuses to store, and nothing else', () => {
    expect(unstorableValueMessage({ code: '22021' })).toMatch(/U\+0000/);
    expect(unstorableValueMessage({ code: '22P05' })).toMatch(/U\+0000/);
    expect(unstorableValueMessage({ code: '22003' })).toMatch(/out of the range/);
    expect(unstorableValueMessage({ code: '22007' })).toBeDefined();
    expect(unstorableValueMessage({ code: '23505' })).toBeUndefined();
    expect(unstorableValueMessage({ code: 'SQLITE_CONSTRAINT' })).toBeUndefined();
    expect(unstorableValueMessage(new Error('x'))).toBeUndefined();
    expect(unstorableValueMessage(null)).toBeUndefined();
  });

  it('differs only where the databases do', () => {
    expect([sqliteDialect.name, sqliteDialect.rowLocks]).toEqual(['sqlite', false]);
    expect([postgresDialect.name, postgresDialect.rowLocks, postgresDialect.bigintType]).toEqual(['postgres', true, 'bigint']);
  });
});
