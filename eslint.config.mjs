// Lint with type information: the TypeScript sources through tsconfig.json, the few
// plain-JS entry points through the project service's default project.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // tests/model/llama-api is left out of tsconfig.json on purpose (its own toolchain).
    ignores: ['dist/**', 'node_modules/**', 'envs/**', 'docs/**', 'tests/fixtures/**', 'tests/model/llama-api/**'],
  },
  {
    files: ['src/**/*.ts', 'tests/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{mjs,ts}', 'bin/*.js', 'eslint.config.mjs'],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: {
        // Files outside tsconfig (scripts, bin, this file) are typed one by one; typescript-eslint caps them at 8 unless raised.
        projectService: {
          allowDefaultProject: ['scripts/*.mjs', 'scripts/*.ts', 'bin/*.js', 'eslint.config.mjs'],
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 24,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unsafe-type-assertion': 'error',
      // `const { dropped: _, ...rest } = x` is how the code leaves a field out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/it return promises the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
    },
  },
  {
    // The dashboard's page scripts: plain browser modules, served as written (no build step), linted without types.
    files: ['web/**/*.js'],
    extends: [tseslint.configs.recommended],
    languageOptions: { sourceType: 'module' },
  },
  {
    // Test casts are partial fixtures and stubs (`{} as TaskSupply`, `as unknown as Task`) or reads of
    // a result the next assertion checks; a wrong one fails its test, so the rule would only add noise.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-type-assertion': 'off' },
  },
);
