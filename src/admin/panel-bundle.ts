// The admin panel's script is one bundle made by esbuild from src/admin/public/app.js and what it imports: the
// pages, the generated typed SDK (src/generated/sdk.ts, with openapi-fetch) and uPlot for the charts. Nothing is
// loaded from elsewhere at run time. `npm run build` writes the bundle into dist/admin/ (see scripts/build.ts);
// a service run from the sources (tests, `npm run dev`) bundles in memory when the panel is first served.
import { fileURLToPath } from 'node:url';
import type { BuildOptions, Metafile } from 'esbuild';

export const PANEL_ENTRY = fileURLToPath(new URL('./public/app.js', import.meta.url));
export const PANEL_SCRIPT = 'app.js';

/** The options both ways of bundling share, so the built and the in-memory panel are the same script. */
export const panelBuildOptions: BuildOptions = {
  entryPoints: { app: PANEL_ENTRY },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'linked',
  charset: 'utf8',
  metafile: true,
  logLevel: 'warning',
};

export interface PanelBundle {
  /** File name (app.js, app.css, their maps, legal comments) to its bytes. */
  files: Map<string, Uint8Array<ArrayBuffer>>;
  metafile: Metafile;
}
