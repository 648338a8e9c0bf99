/**
 * Import boundaries of lib/ (issue 28 item 7), checked by `npm run lint`.
 * ESLint's import-x/no-cycle skips type-only imports, and a cycle through types still ties the
 * modules' meaning together, so dependency-cruiser reads the TypeScript sources before compilation
 * (type-only imports kept). A dynamic import() is the lazy-load boundary (lib/util/lazy.ts): it is
 * not an edge of a cycle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'An import cycle in lib/ (type-only imports count, dynamic import() does not).',
      severity: 'error',
      from: { path: '^lib/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'model-stays-below',
      comment:
        'The model (lib/providers/aws/model) computes the desired stack; it imports neither deploy, ' +
        'features, regions nor the provider that wires them.',
      severity: 'error',
      from: { path: '^lib/providers/aws/model/' },
      to: {
        path: '^lib/providers/aws/(deploy/|features/|regions/|provider[.]ts$|factory[.]ts$|index[.]ts$)',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^lib/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
