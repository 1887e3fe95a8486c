// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAtLogin } from '../../../../../electron/start-at-login';
import { BridgeError } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import StartAtLoginSettings from '../../../../../renderer/views/settings/StartAtLoginSettings.vue';
import { byTestId, click, eventually, text } from '../../dom';
import { testBridge } from '../../harness';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'start-at-login-settings-'));
});

afterEach(async () => {
  document.body.innerHTML = '';
  await rm(home, { recursive: true, force: true });
});

function mountSection(bridge: ReturnType<typeof testBridge>) {
  return mount(StartAtLoginSettings, {
    global: { plugins: [createPinia(), createAppI18n('en')], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
}

/** The desktop host's setting on Linux, writing its autostart entry into a temporary home. */
function linuxHost() {
  const setting = startAtLogin({
    platform: 'linux',
    loginItems: { getLoginItemSettings: () => ({ openAtLogin: false }), setLoginItemSettings: () => undefined },
    executable: '/opt/desk/desk',
    args: [],
    entryName: 'circularity-desk',
    displayName: 'Circularity Desk',
    env: {},
    homeDir: home,
  });
  return testBridge({
    'app:start-at-login': async () => ({ enabled: await setting.enabled() }),
    'app:set-start-at-login': async ({ enabled }) => {
      await setting.set(enabled);
      return { enabled: await setting.enabled() };
    },
  });
}

function switchOn(): boolean {
  return byTestId('start-at-login-switch')?.getAttribute('aria-checked') === 'true';
}

describe('StartAtLoginSettings', () => {
  it('turns Start at login on and off in the desktop app', async () => {
    mountSection(linuxHost());
    await eventually(() => expect(byTestId('start-at-login-switch')).not.toBeNull());
    expect(switchOn()).toBe(false);
    const entry = path.join(home, '.config', 'autostart', 'circularity-desk.desktop');

    click('start-at-login-switch');
    await eventually(() => expect(switchOn()).toBe(true));
    expect((await stat(entry)).isFile()).toBe(true);

    click('start-at-login-switch');
    await eventually(() => expect(switchOn()).toBe(false));
    await expect(stat(entry)).rejects.toThrow();
  });

  it('keeps the setting as it was and says why when a change is refused', async () => {
    const bridge = testBridge({
      'app:start-at-login': async () => ({ enabled: false }),
      'app:set-start-at-login': async () => {
        throw new BridgeError('storage-failed', 'The autostart folder is read-only.');
      },
    });
    mountSection(bridge);
    await eventually(() => expect(byTestId('start-at-login-switch')).not.toBeNull());
    click('start-at-login-switch');
    await eventually(() => expect(text('start-at-login-failed')).toBe('The setting could not be changed: The autostart folder is read-only.'));
    expect(switchOn()).toBe(false);
  });

  it('says that only the desktop app starts at login in browser mode, with no switch', async () => {
    const bridge = testBridge({
      'app:start-at-login': async () => {
        throw new BridgeError('unavailable', 'Starting at login is a setting of the desktop app.');
      },
    });
    mountSection(bridge);
    await eventually(() => expect(text('start-at-login-unavailable')).toBe('Only the desktop app can start at login; in browser mode, start it yourself.'));
    await flushPromises();
    expect(byTestId('start-at-login-switch')).toBeNull();
  });
});
