import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Layering by runtime (conventions: Boundaries): shared/ is pure and imports none of the other parts. */
const restrictedForShared = {
  patterns: [
    { group: ['**/server/**', '**/electron/**', '**/renderer/**'], message: 'shared/ imports nothing from server, electron or renderer.' },
    { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto'], message: 'shared/ is pure: no I/O or Node built-ins.' },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
    rules: { 'no-restricted-imports': ['error', restrictedForShared] },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/electron/**', '**/renderer/**'], message: 'server/ imports only shared/.' }] },
      ],
    },
  },
  {
    files: ['server/cli.ts', 'server/openapi-write.ts', 'server/store/seed/generate.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
