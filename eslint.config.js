// Lint rules: typescript-eslint's recommended set plus the folder rule of docs/architecture.md
// (no database or search driver outside infra/).
import tseslint from 'typescript-eslint';

const drivers = ['better-sqlite3', 'better-sqlite3-napi', 'sqlite-vec', 'mongodb', '@eventstore/db-client', '@opensearch-project/opensearch', 'express', 'jsonwebtoken'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['domain/**/*.ts', 'commands/**/*.ts', 'projections/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: drivers.map((name) => ({ name, message: 'drivers belong in infra/' })) }],
    },
  },
  {
    files: ['api/**/*.ts', 'read-api/**/*.ts', 'write-api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: drivers.filter((d) => d !== 'express').map((name) => ({ name, message: 'drivers belong in infra/' })) }],
    },
  },
);
