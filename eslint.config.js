import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './eslint/boundaries.js';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'test-results',
      'playwright-report',
      '.data',
      '.e2e-data',
      '.tmp',
      'src/routeTree.gen.ts',
      'bench/.data*',
      'server/tests/generated-client/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginQuery.configs['flat/recommended'],
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, boundaries },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'boundaries/imports': 'error',
      // We do not run the React Compiler; TanStack Table's hook is fine as it is.
      'react-hooks/incompatible-library': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // Import cycles fail lint: a cycle means two modules are one, or a layer points the wrong way.
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json', noWarnOnMultipleProjects: true })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Zod is configured once (jitless in browsers, for our CSP): src/ imports it from there.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/api/contract/zod.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: 'import { z } from src/api/contract/zod (configured for our CSP)' }] }],
    },
  },
  {
    // Tests and tooling may be loose with types of parsed JSON.
    files: ['**/*.test.{ts,tsx}', 'server/tests/**', 'e2e/**', 'bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-console': 'off' },
  },
);
