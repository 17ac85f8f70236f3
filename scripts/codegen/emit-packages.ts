// Emits the generated parts of the installable packages under packages/: the SDK's sources (the same
// files as src/generated's SDK, so the package and the server never drift) and both package.json files,
// versioned with the contract's info.version. Paths are relative to the repository root.
import type { GeneratedFile } from './generate.ts';

export interface PackageInputs {
  /** The contract's info.version: both packages carry it. */
  version: string;
  /** What the server's package.json asks for, so the packages run on the versions the tests ran. */
  dependencyRanges: Record<string, string>;
  /** The GeneratedFile list of src/generated, whose SDK files the SDK package carries. */
  generated: GeneratedFile[];
  headerText: string;
}

// Scoped names: only the scope's owner can publish under @service-mcp, so no install instruction of ours can
// resolve to someone else's package (the unscoped `service-sdk` on npm is an unrelated package). The
// launcher's command stays `service-mcp`, the seed's name for it.
export const SDK_PACKAGE = '@service-mcp/sdk';
export const LAUNCHER_PACKAGE = '@service-mcp/launcher';
export const LAUNCHER_COMMAND = 'service-mcp';
const SDK_FILES = ['types.ts', 'sdk-runtime.ts', 'sdk.ts'];

function range(inputs: PackageInputs, name: string): string {
  const value = inputs.dependencyRanges[name];
  if (!value) throw new Error(`package.json has no dependency ${name}, which the packages need`);
  return value;
}

function packageJson(fields: Record<string, unknown>, headerText: string): string {
  return `${JSON.stringify({ '//': headerText, ...fields }, null, 2)}\n`;
}

const common = {
  type: 'module',
  license: 'UNLICENSED',
  engines: { node: '^20.19.0 || ^22.12.0 || >=24.0.0' },
  // A scoped package is published private unless told otherwise.
  publishConfig: { access: 'public' },
};

export function emitSdkPackageJson(inputs: PackageInputs): string {
  return packageJson(
    {
      name: SDK_PACKAGE,
      version: inputs.version,
      description: 'Typed client of the service API: one function per operation, generated from the OpenAPI contract',
      ...common,
      main: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      files: ['dist', 'README.md'],
      dependencies: { 'openapi-fetch': range(inputs, 'openapi-fetch') },
    },
    inputs.headerText,
  );
}

export function emitLauncherPackageJson(inputs: PackageInputs): string {
  return packageJson(
    {
      name: LAUNCHER_PACKAGE,
      version: inputs.version,
      description: `The service's MCP tools over stdio, for desktop agent clients: npx -y --package ${LAUNCHER_PACKAGE} ${LAUNCHER_COMMAND}`,
      ...common,
      bin: { [LAUNCHER_COMMAND]: './dist/service-mcp.js' },
      files: ['dist', 'README.md'],
      dependencies: {
        '@modelcontextprotocol/server': range(inputs, '@modelcontextprotocol/server'),
        [SDK_PACKAGE]: inputs.version,
      },
    },
    inputs.headerText,
  );
}

export function emitPackages(inputs: PackageInputs): GeneratedFile[] {
  const sdkSources = SDK_FILES.map((name) => {
    const file = inputs.generated.find((f) => f.name === name);
    if (!file) throw new Error(`codegen produced no ${name} for the SDK package`);
    return { name: `packages/sdk/src/generated/${name}`, content: file.content };
  });
  return [
    ...sdkSources,
    { name: 'packages/sdk/package.json', content: emitSdkPackageJson(inputs) },
    { name: 'packages/launcher/package.json', content: emitLauncherPackageJson(inputs) },
  ];
}
