import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Import cycles and the model's boundary are checked by dependency-cruiser (.dependency-cruiser.cjs,
// in `npm run lint`): import-x/no-cycle skips type-only imports, which must count here.
export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      '.serverless/**',
      '.esbuild/**',
      'coverage/**',
      'lib/generated/**',
      'bench/results/**',
      'reports/**',
      '.stryker-tmp*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // CommonJS shims for tools that load their configuration with require().
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        __filename: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // lib/ is the product: `any` needs an inline disable with a reason.
    files: ['lib/**/*.ts', 'functions/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    files: ['test/**/*.ts', 'dev/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
