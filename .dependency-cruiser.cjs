// Import rules checked by `npm run lint:imports` (part of `npm test`): no import cycle at all (the issue asked
// for none across folders; src has none inside a folder either, so the rule keeps it that way), and platform
// folders never import an area. Type-only imports count: a cycle of types still ties modules together for a
// reader and for the compiler.
const platform = '^src/(http|mcp|auth|db|jobs|outbound)/';
const area = '^src/(handlers|admin|sandbox)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'An import cycle. Break it where the lower module reaches up (move the shared type or helper down).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'platform-imports-no-area',
      comment: 'Platform folders (http, mcp, auth, db, jobs, outbound) serve every area and import none.',
      severity: 'error',
      from: { path: platform },
      to: { path: area },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
