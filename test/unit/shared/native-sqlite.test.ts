import { describe, expect, it } from 'vitest';
import { ELECTRON_SQLITE_BINDING_ENV, nativeSqliteOptions } from '../../../shared/native-sqlite';

const BINDING = '/app/.electron-native/45.4.1-linux-x64/node_modules/better-sqlite3/build/Release/better_sqlite3.node';

describe('which better-sqlite3 build a process loads', () => {
  it('is the build named for Electron in a process running in Electron', () => {
    expect(nativeSqliteOptions({ node: '22.20.0', electron: '45.4.1' }, { [ELECTRON_SQLITE_BINDING_ENV]: BINDING })).toEqual({ nativeBinding: BINDING });
  });

  it('is Node’s own in a Node process, even with the variable inherited from npm start', () => {
    expect(nativeSqliteOptions({ node: '20.19.0' }, { [ELECTRON_SQLITE_BINDING_ENV]: BINDING })).toEqual({});
  });

  it('is the default in Electron when none is named (installers, whose node_modules electron-builder rebuilt)', () => {
    expect(nativeSqliteOptions({ electron: '45.4.1' }, {})).toEqual({});
    expect(nativeSqliteOptions({ electron: '45.4.1' }, { [ELECTRON_SQLITE_BINDING_ENV]: '' })).toEqual({});
  });
});
