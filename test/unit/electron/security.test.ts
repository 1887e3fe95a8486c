/**
 * The main process cannot run here (no Electron binary), so its security settings are read from its source with the
 * TypeScript compiler (`main.ts` and the modules of `main/` it hands Electron to, read as one): a setting that is
 * missing, has another value, or is not a literal fails. The IPC transport is
 * driven for real with a recording fake of ipcMain.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { BridgeHandlers } from '../../../electron/bridge-dispatch';
import { registerBridgeHandlers, type BridgeIpcMain } from '../../../electron/ipc';
import { IPC_CHANNELS, ipcChannels, type IpcChannel } from '../../../shared/ipc';

const ELECTRON_DIR = path.resolve(import.meta.dirname, '../../../electron');
const MAIN_FILES = [
  path.join(ELECTRON_DIR, 'main.ts'),
  ...readdirSync(path.join(ELECTRON_DIR, 'main'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(ELECTRON_DIR, 'main', name)),
];
const sources = MAIN_FILES.map((file) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));

function allNodes(root: ts.Node): ts.Node[] {
  const nodes: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    nodes.push(node);
    ts.forEachChild(node, visit);
  };
  visit(root);
  return nodes;
}

const nodes = sources.flatMap(allNodes);

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** Every call of a function or method of this name. */
function callsOf(name: string, within?: ts.Node): ts.CallExpression[] {
  return (within === undefined ? nodes : allNodes(within)).filter((node): node is ts.CallExpression => ts.isCallExpression(node) && calleeName(node) === name);
}

/** The listener given to `.on(event, listener)` / `.once(event, listener)` for this event. */
function listenersOf(event: string): ts.Expression[] {
  return [...callsOf('on'), ...callsOf('once')]
    .filter((call) => {
      const [name] = call.arguments;
      return name !== undefined && ts.isStringLiteral(name) && name.text === event;
    })
    .flatMap((call) => (call.arguments[1] === undefined ? [] : [call.arguments[1]]));
}

/** A function's body together with the bodies of the functions of this file it calls by name (one level deep). */
function reach(fn: ts.Node): ts.Node[] {
  const declared = new Map(
    nodes.filter(ts.isFunctionDeclaration).flatMap((declaration) => (declaration.name === undefined ? [] : [[declaration.name.text, declaration] as const])),
  );
  const called = allNodes(fn).flatMap((node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) return [node.expression.text];
    // A function handed over by name, e.g. `app.on('activate', showWindow)`.
    if (ts.isIdentifier(node) && declared.has(node.text)) return [node.text];
    return [];
  });
  return [fn, ...[...new Set(called)].flatMap((name) => (declared.has(name) ? [declared.get(name) as ts.Node] : []))];
}

function containsCall(roots: ts.Node[], name: string, predicate: (call: ts.CallExpression) => boolean = () => true): boolean {
  return roots.some((root) => callsOf(name, root).some(predicate));
}

function propertiesOf(object: ts.ObjectLiteralExpression): Map<string, ts.Expression> {
  const map = new Map<string, ts.Expression>();
  for (const property of object.properties) {
    if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) {
      map.set(property.name.text, property.initializer);
    }
    if (ts.isShorthandPropertyAssignment(property)) map.set(property.name.text, property.name);
  }
  return map;
}

function literalValue(expression: ts.Expression | undefined): unknown {
  if (expression === undefined) return undefined;
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return expression.text;
  return `<not a literal: ${expression.getText()}>`;
}

function stringLiterals(root: ts.Node): string[] {
  return allNodes(root).flatMap((node) => (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? [node.text] : []));
}

const windows = nodes.filter(
  (node): node is ts.NewExpression => ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'BrowserWindow',
);

describe('the BrowserWindow of the main process', () => {
  it('is created in one place, with its options written inline', () => {
    expect(windows).toHaveLength(1);
    expect(windows[0]?.arguments?.[0] !== undefined && ts.isObjectLiteralExpression(windows[0].arguments[0])).toBe(true);
  });

  const options = propertiesOf(windows[0]?.arguments?.[0] as ts.ObjectLiteralExpression);
  const webPreferences = options.get('webPreferences');
  const preferences = webPreferences !== undefined && ts.isObjectLiteralExpression(webPreferences) ? propertiesOf(webPreferences) : new Map<string, ts.Expression>();

  it.each([
    ['contextIsolation', true],
    ['sandbox', true],
    ['nodeIntegration', false],
    ['nodeIntegrationInWorker', false],
    ['nodeIntegrationInSubFrames', false],
    ['webSecurity', true],
    ['allowRunningInsecureContent', false],
    ['webviewTag', false],
    ['navigateOnDragDrop', false],
    ['experimentalFeatures', false],
  ] as const)('sets webPreferences.%s to %s', (name, value) => {
    expect(literalValue(preferences.get(name))).toBe(value);
  });

  it('enables no Blink features and disables the middle-click window opener', () => {
    expect(preferences.has('enableBlinkFeatures')).toBe(false);
    expect(literalValue(preferences.get('disableBlinkFeatures'))).toBe('Auxclick');
  });

  it('loads the bundled preload beside the main bundle', () => {
    const preload = preferences.get('preload');
    expect(preload !== undefined && ts.isIdentifier(preload)).toBe(true);
    const declaration = nodes.find(
      (node): node is ts.VariableDeclaration => ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === (preload as ts.Identifier).text,
    );
    expect(declaration?.initializer?.getText()).toContain("'preload.cjs'");
  });

  it('loads the app from app://renderer/, never from a file', () => {
    expect(callsOf('loadURL').map((call) => call.arguments[0]?.getText())).toEqual(['APP_ENTRY_URL']);
    expect(callsOf('loadFile')).toHaveLength(0);
    expect(sources.flatMap(stringLiterals).filter((text) => text.startsWith('file:'))).toEqual([]);
  });
});

describe('the navigation and content guards of the main process', () => {
  const guards = listenersOf('web-contents-created').flatMap(reach);

  it('hardens every web contents as it is created', () => {
    expect(guards.length).toBeGreaterThan(0);
  });

  it.each(['will-navigate', 'will-redirect'])('prevents %s to anything but the app origin', (event) => {
    const handler = guards
      .flatMap((root) => callsOf('on', root))
      .find((call) => ts.isStringLiteral(call.arguments[0] as ts.Node) && (call.arguments[0] as ts.StringLiteral).text === event);
    expect(handler).toBeDefined();
    const body = handler?.arguments[1] as ts.Node;
    expect(containsCall([body], 'preventDefault')).toBe(true);
    expect(containsCall([body], 'isAppUrl')).toBe(true);
  });

  it('refuses every webview', () => {
    const attach = guards
      .flatMap((root) => callsOf('on', root))
      .find((call) => (call.arguments[0] as ts.StringLiteral | undefined)?.text === 'will-attach-webview');
    expect(attach !== undefined && containsCall([attach.arguments[1] as ts.Node], 'preventDefault')).toBe(true);
  });

  it('denies every new window', () => {
    const handlers = guards.flatMap((root) => callsOf('setWindowOpenHandler', root));
    expect(handlers).toHaveLength(1);
    const actions = stringLiterals(handlers[0] as ts.Node);
    expect(actions).toContain('deny');
    expect(sources.flatMap(stringLiterals)).not.toContain('allow');
  });

  it('denies every permission request and check', () => {
    const [request] = callsOf('setPermissionRequestHandler');
    expect(request).toBeDefined();
    const requestHandler = request?.arguments[0] as ts.Node;
    const answers = allNodes(requestHandler).filter(
      (node) => node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword,
    );
    expect(answers.map((node) => node.kind)).toEqual([ts.SyntaxKind.FalseKeyword]);
    const [check] = callsOf('setPermissionCheckHandler');
    const checkHandler = check?.arguments[0];
    expect(checkHandler !== undefined && ts.isArrowFunction(checkHandler) && checkHandler.body.kind === ts.SyntaxKind.FalseKeyword).toBe(true);
  });

  it('sets the content security policy on every response of the session', () => {
    const [onHeaders] = callsOf('onHeadersReceived');
    expect(onHeaders).toBeDefined();
    const text = onHeaders?.getText() ?? '';
    expect(text).toContain("'Content-Security-Policy': [CONTENT_SECURITY_POLICY]");
  });

  it('serves app:// through the handler that adds the policy, from a privileged standard and secure scheme', () => {
    expect(callsOf('handle').map((call) => call.getText())).toContain('protocol.handle(APP_SCHEME, createAppProtocolHandler(RENDERER_DIR))');
    const [privileged] = callsOf('registerSchemesAsPrivileged');
    const text = privileged?.getText() ?? '';
    expect(text).toContain('scheme: APP_SCHEME');
    expect(text).toContain('standard: true');
    expect(text).toContain('secure: true');
    expect(text).not.toMatch(/bypassCSP:\s*true/);
  });

  it('runs every renderer sandboxed and as a single instance', () => {
    expect(callsOf('enableSandbox')).toHaveLength(1);
    expect(callsOf('requestSingleInstanceLock')).toHaveLength(1);
    expect(listenersOf('second-instance')).toHaveLength(1);
  });

  it('opens external addresses only after checking they are http(s)', () => {
    const opens = callsOf('openExternal');
    expect(opens).toHaveLength(1);
    const enclosing = (opens[0] as ts.Node).parent;
    let fn: ts.Node = enclosing;
    while (!ts.isFunctionDeclaration(fn)) fn = fn.parent;
    expect(stringLiterals(fn)).toEqual(expect.arrayContaining(['http:', 'https:']));
  });
});

type Listener = Parameters<IpcMain['handle']>[1];

class RecordingIpcMain implements BridgeIpcMain {
  readonly registrations: string[] = [];
  readonly listeners = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    this.registrations.push(channel);
    this.listeners.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.listeners.delete(channel);
  }
}

function recordingHandlers(calls: IpcChannel[]): BridgeHandlers {
  return Object.fromEntries(
    IPC_CHANNELS.map((channel) => [
      channel,
      async () => {
        calls.push(channel);
        return null;
      },
    ]),
  ) as unknown as BridgeHandlers;
}

const event = { senderFrame: { url: 'https://evil.example/' } } as unknown as IpcMainInvokeEvent;

describe('the IPC transport', () => {
  it('registers every channel of the contract exactly once, and nothing else', () => {
    const ipcMain = new RecordingIpcMain();
    registerBridgeHandlers(ipcMain, recordingHandlers([]), () => true, () => undefined);
    expect([...ipcMain.registrations].sort()).toEqual(Object.keys(ipcChannels).sort());
    expect(new Set(ipcMain.registrations).size).toBe(ipcMain.registrations.length);
  });

  it.each(IPC_CHANNELS)('refuses %s from an untrusted sender without running its handler', async (channel) => {
    const ipcMain = new RecordingIpcMain();
    const calls: IpcChannel[] = [];
    const seen: IpcMainInvokeEvent[] = [];
    registerBridgeHandlers(ipcMain, recordingHandlers(calls), (each) => {
      seen.push(each);
      return false;
    }, () => undefined);
    const answer = (await ipcMain.listeners.get(channel)?.(event, {})) as { ok: boolean; error: { code: string } };
    expect(answer).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
    expect(seen).toEqual([event]);
    expect(calls).toEqual([]);
  });

  it.each([
    ['vault:set-key', { connectionId: 'c1' }],
    ['vault:set-key', { connectionId: 'c1', key: 'with spaces' }],
    ['connections:add', { name: 'x', baseUrl: 'file:///etc', apiVersion: 'v2.3' }],
    ['shell:open-external', { url: 'javascript:alert(1)' }],
    ['app:info', { extra: true }],
    ['api:request', 'not an object'],
  ] as const)('refuses an invalid payload of %s without running its handler', async (channel, request) => {
    const ipcMain = new RecordingIpcMain();
    const calls: IpcChannel[] = [];
    registerBridgeHandlers(ipcMain, recordingHandlers(calls), () => true, () => undefined);
    const answer = (await ipcMain.listeners.get(channel)?.(event, request)) as { ok: boolean; error: { code: string } };
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(calls).toEqual([]);
  });
});
