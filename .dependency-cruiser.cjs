// Import rules checked by `npm run lint:imports` (part of `npm test`): no import cycle crosses a folder,
// and platform folders never import an area. Type-only imports count: a cycle of types still ties the
// folders together for a reader and for the compiler.
const platform = '^src/(http|mcp|auth|db|jobs|outbound)/';
const area = '^src/(handlers|admin|sandbox)/';

// Edges other helpers of issue 27 are removing; delete each line when its branch lands.
const allowed = [
  // the house helper: security headers move out of the admin panel into one platform module
  { from: 'src/http/respond.ts', to: 'src/admin/routes.ts' },
];

const escape = (path) => `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle-between-folders',
      comment: 'A cycle whose modules are not all in one folder. Break it where the lower module reaches up.',
      severity: 'error',
      // $1 is the folder of the module the cycle is reported from; the cycle passes through another folder.
      from: { path: '^(src|src/.+)/[^/]+$' },
      to: { circular: true, via: { pathNot: '^$1/[^/]+$' } },
    },
    {
      name: 'platform-imports-no-area',
      comment: 'Platform folders (http, mcp, auth, db, jobs, outbound) serve every area and import none.',
      severity: 'error',
      from: { path: platform, pathNot: allowed.map((edge) => escape(edge.from)) },
      to: { path: area },
    },
    ...allowed.map((edge) => ({
      name: 'platform-imports-no-area',
      comment: `Allowed for now: ${edge.from} -> ${edge.to}, and nothing else from that module.`,
      severity: 'error',
      from: { path: escape(edge.from) },
      to: { path: area, pathNot: escape(edge.to) },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
