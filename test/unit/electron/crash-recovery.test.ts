/** Crash recovery over a stand-in for a window's webContents (Electron cannot run here). */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { childProcessGoneMessage, recoverWindowContents, type RecoverableContents, type UnresponsiveChoice } from '../../../electron/crash-recovery';

class FakeContents extends EventEmitter implements RecoverableContents {
  reloads = 0;
  destroyed = false;

  reload(): void {
    this.reloads += 1;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  gone(reason: string, exitCode = 1): void {
    this.emit('render-process-gone', {}, { reason, exitCode });
  }
}

function recovered(options: { answers?: UnresponsiveChoice[] } = {}) {
  const contents = new FakeContents();
  const log: string[] = [];
  const clock = { now: 0 };
  const answers = [...(options.answers ?? [])];
  let asked = 0;
  const pending: Array<() => void> = [];
  recoverWindowContents({
    contents,
    log: (message) => log.push(message),
    now: () => clock.now,
    askWaitOrReload: () => {
      asked += 1;
      return new Promise((resolve) => pending.push(() => resolve(answers.shift() ?? 'wait')));
    },
  });
  return { contents, log, clock, asked: () => asked, answer: () => pending.shift()?.() };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('recoverWindowContents', () => {
  it('reloads a page that crashed, but not one that exited cleanly', () => {
    const { contents, log } = recovered();
    contents.gone('crashed', 139);
    expect(contents.reloads).toBe(1);
    contents.gone('clean-exit', 0);
    expect(contents.reloads).toBe(1);
    expect(log).toEqual(["The window's page is gone (crashed, exit code 139); it is reloaded."]);
  });

  it('stops reloading a page that crashes again and again within a minute, and reloads it again later', () => {
    const { contents, log, clock } = recovered();
    for (const at of [0, 10_000, 20_000, 30_000]) {
      clock.now = at;
      contents.gone('oom');
    }
    expect(contents.reloads).toBe(3);
    expect(log.at(-1)).toMatch(/not reloaded again/);
    clock.now = 60_001;
    contents.gone('crashed');
    expect(contents.reloads).toBe(4);
  });

  it('asks once whether to wait for a window that does not answer, and reloads it when the user says so', async () => {
    const { contents, asked, answer } = recovered({ answers: ['wait', 'reload'] });
    contents.emit('unresponsive');
    contents.emit('unresponsive');
    expect(asked()).toBe(1);
    answer();
    await settle();
    expect(contents.reloads).toBe(0);
    contents.emit('unresponsive');
    expect(asked()).toBe(2);
    answer();
    await settle();
    expect(contents.reloads).toBe(1);
  });

  it('does not reload a window that was closed meanwhile', async () => {
    const { contents, answer } = recovered({ answers: ['reload'] });
    contents.emit('unresponsive');
    contents.destroyed = true;
    answer();
    await settle();
    contents.gone('crashed');
    expect(contents.reloads).toBe(0);
  });
});

describe('childProcessGoneMessage', () => {
  it('names the process and why it went', () => {
    expect(childProcessGoneMessage({ type: 'GPU', reason: 'crashed', exitCode: 9 })).toBe('A helper process is gone: GPU, crashed, exit code 9.');
    expect(childProcessGoneMessage({ type: 'Utility', name: 'Network Service', reason: 'killed', exitCode: 15 })).toBe(
      'A helper process is gone: Utility (Network Service), killed, exit code 15.',
    );
  });
});
