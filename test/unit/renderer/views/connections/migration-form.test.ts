import { describe, expect, it } from 'vitest';
import { LocalMigrationRequest } from '../../../../../shared/ipc';
import { Value } from 'typebox/value';
import {
  blobsIssue,
  databaseUrlIssue,
  migrationIssues,
  migrationRequestOf,
  type MigrationFields,
} from '../../../../../renderer/views/connections/migration-form';

const valid: MigrationFields = {
  databaseUrl: ' postgres://circularity:secret@db.example.com:5432/circularity ',
  blobs: 's3://passports?endpoint=https://s3.example.com&region=eu-west-1',
  teamServerUrl: '',
  allowInsecureStorage: false,
};

describe('the database address', () => {
  it.each([
    ['', 'required'],
    ['mysql://db.example.com/circularity', 'protocol'],
    ['db.example.com/circularity', 'protocol'],
    ['postgres://', 'invalid'],
    ['postgres://db.example.com:5432', 'database'],
    ['postgres://db.example.com:5432/', 'database'],
    [`postgres://db.example.com/${'x'.repeat(2100)}`, 'too-long'],
  ])('%s is refused as %s', (address, issue) => {
    expect(databaseUrlIssue(address)).toBe(issue);
  });

  it.each(['postgres://db/circularity', 'postgresql://user:p%40ss@10.0.0.5:6543/team?sslmode=require'])('%s is taken', (address) => {
    expect(databaseUrlIssue(address)).toBeUndefined();
  });
});

describe('the blob store', () => {
  it.each([
    ['', 'required'],
    ['s3://', 'bucket'],
    ['s3://?endpoint=x', 'bucket'],
    ['blobs', 'relative'],
    ['./team/blobs', 'relative'],
  ])('%s is refused as %s', (blobs, issue) => {
    expect(blobsIssue(blobs)).toBe(issue);
  });

  it.each(['s3://bucket', '/srv/circularity/blobs', 'D:\\team\\blobs', 'C:/team/blobs', '\\\\fileserver\\share\\blobs'])('%s is taken', (blobs) => {
    expect(blobsIssue(blobs)).toBeUndefined();
  });
});

describe('the request', () => {
  it('has no problem and leaves out an empty team server address and a consent not given', () => {
    expect(migrationIssues(valid)).toEqual({});
    const request = migrationRequestOf(valid);
    expect(request).toEqual({
      databaseUrl: 'postgres://circularity:secret@db.example.com:5432/circularity',
      blobs: 's3://passports?endpoint=https://s3.example.com&region=eu-west-1',
    });
    expect(Value.Check(LocalMigrationRequest, request)).toBe(true);
  });

  it('checks the team server address like a connection address and carries the consent', () => {
    expect(migrationIssues({ ...valid, teamServerUrl: 'ftp://team.example.com' })).toEqual({ teamServerUrl: 'protocol' });
    const request = migrationRequestOf({ ...valid, teamServerUrl: ' https://team.example.com ', allowInsecureStorage: true });
    expect(request).toMatchObject({ teamServerUrl: 'https://team.example.com', allowInsecureStorage: true });
    expect(Value.Check(LocalMigrationRequest, request)).toBe(true);
  });
});
