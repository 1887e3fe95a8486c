import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import pluginVue from 'eslint-plugin-vue';

/** Layering by runtime (conventions: Boundaries): shared/ is pure and imports none of the other parts. */
const restrictedForShared = {
  patterns: [
    { group: ['**/server/**', '**/electron/**', '**/renderer/**'], message: 'shared/ imports nothing from server, electron or renderer.' },
    { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto'], message: 'shared/ is pure: no I/O or Node built-ins.' },
  ],
};

/**
 * shared/ runs in Node and in the browser: tsconfig.shared.json gives it no Node types and the DOM library for the
 * WHATWG APIs both have (fetch, URL, streams, AbortSignal); the globals only a browser has are refused here.
 */
const browserOnlyGlobals = Object.keys(globals.browser).filter((name) => !(name in globals.node));

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', '.data/', 'coverage/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
    // Layout of templates is left to the author: these two only reflow attributes and text.
    rules: { 'vue/max-attributes-per-line': 'off', 'vue/singleline-html-element-content-newline': 'off' },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', restrictedForShared],
      'no-restricted-globals': ['error', ...browserOnlyGlobals.map((name) => ({ name, message: 'shared/ runs in Node too: no browser-only globals.' }))],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'server/ runs without Electron.' }],
          patterns: [{ group: ['**/electron/**', '**/renderer/**'], message: 'server/ imports only shared/.' }],
        },
      ],
    },
  },
  {
    // Electron is a thin shell (architecture rule 3): only these two files may load it; the rest runs in plain Node.
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only electron/main.ts and electron/preload.ts load Electron.', allowTypeImports: true }],
          patterns: [{ group: ['**/renderer/**', '**/server/**'], message: 'electron/ imports only shared/.' }],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.vue'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/electron/**'], message: 'renderer/ reaches the host only through the Bridge.' },
            { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'electron'], message: 'renderer/ runs in a browser: no Node or Electron.' },
          ],
        },
      ],
    },
  },
  {
    files: ['server/cli.ts', 'server/openapi-write.ts', 'server/store/seed/generate.ts', 'electron/web-cli.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter's pattern; `{}` means none.
    files: ['test/e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
