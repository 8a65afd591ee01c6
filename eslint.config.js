// TypeScript lint for the whole repository (one run at the root), with type-aware rules from
// typescript-eslint, import cycles refused, and unused eslint-disable comments reported.
// Formatting is Prettier's (`prettier --check` in `pnpm lint`), so no stylistic rule is here.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.turbo/**',
      'packages/types/src/openapi.ts',
      'packages/types/src/operation-facts.ts',
      'packages/core/src/otel/proto/**',
      'bench/results/**',
      '**/*.mjs',
      '**/*.cjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Config files belong to no package's tsconfig: lint them with the default project.
        projectService: { allowDefaultProject: ['vitest.shared.ts', '*/*/vitest.config.ts', 'bench/vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      // Follow imports into TypeScript files (sources import each other with `.ts`/`.tsx` extensions).
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // A cycle between modules makes the dependency direction of ARCHITECTURE.md a lie, whether
      // types or values close it (`includeTypeImports` is our patch, see pnpm-workspace.yaml).
      'import-x/no-cycle': ['error', { ignoreExternal: true, includeTypeImports: true }],
      // `_`-prefixed names are deliberately unused (destructuring to drop a field, unused parameters of a typed callback).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Express handlers and test callbacks are async functions handed to APIs that do not await them; the rule's
      // void-return check would flag every one of them, while floating promises stay an error.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Handlers and store methods are typed to return a Promise whether or not they await; a forgotten
      // await is caught by no-floating-promises instead.
      '@typescript-eslint/require-await': 'off',
      // Template literals of numbers and booleans are intended (messages); objects in templates stay an error.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
    },
  },
  {
    // One query-building code path for both databases (ARCHITECTURE.md): SQL or behaviour that
    // differs between them lives in a helper in packages/store/src/db/ named for what it is for,
    // so a branch on the database is refused anywhere else in the store.
    files: ['packages/store/src/**/*.ts'],
    ignores: ['packages/store/src/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['left', 'right'].map((side) => ({
          selector: `BinaryExpression[operator=/^[!=]==?$/][${side}.type='Literal'][${side}.value=/^(postgres|sqlite)$/]`,
          message: 'Branch on the database only in packages/store/src/db/: use or add a helper there (a db/dialect-*.ts file).',
        })),
      ],
    },
  },
  {
    // The server reaches the database through the store: the same rule for a Db's dialect
    // (a DatabaseTarget's kind, which names a file or a URL, may still be compared).
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          ['left', 'right'],
          ['right', 'left'],
        ].map(([dialect, literal]) => ({
          selector: `BinaryExpression[${dialect}.property.name='dialect'][${literal}.value=/^(postgres|sqlite)$/]`,
          message: 'Branch on the database only in packages/store/src/db/: use or add a helper there (a db/dialect-*.ts file).',
        })),
      ],
    },
  },
  {
    // Config files are linted without type information (no package's tsconfig includes them).
    files: ['vitest.shared.ts', '**/vitest.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests use `expect.any(...)` and parsed JSON answers, which are `any` by design.
    files: ['**/*.test.ts', '**/*.test-d.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);
