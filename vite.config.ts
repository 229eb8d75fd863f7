// The demo's dev server (`npm start`). The library build does not read this
// file: scripts/build.js passes its own inline configs.
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';

/** Scripts a site loads by plain URL, bundled from source on every request so the demo always runs the current code. */
const CLASSIC_SCRIPTS: Record<string, { entry: string; tsconfig: string }> = {
  // A service worker must be one classic script on the page's own origin.
  '/questboard-sw.js': { entry: 'src/worker/index.ts', tsconfig: 'tsconfig.worker.json' },
  // What a site owner pastes in a <script src> tag.
  '/questboard.js': { entry: 'src/embed/index.ts', tsconfig: 'tsconfig.json' },
};

function classicScriptBundles(): Plugin {
  return {
    name: 'questboard-classic-scripts',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const path = request.url?.split('?')[0] ?? '';
        const script = CLASSIC_SCRIPTS[path];
        if (!script) return next();
        try {
          const result = await build({
            entryPoints: [script.entry],
            bundle: true,
            format: 'iife',
            write: false,
            target: 'es2022',
            tsconfig: script.tsconfig,
            sourcemap: 'inline',
          });
          response.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          // The browser checks the worker script for updates on every navigation: never let it keep a stale copy.
          response.setHeader('Cache-Control', 'no-cache');
          response.end(result.outputFiles[0]!.text);
        } catch (error) {
          server.config.logger.error(`Could not bundle ${script.entry}: ${(error as Error).message}`);
          response.statusCode = 500;
          response.end();
        }
      });
    },
  };
}

export default defineConfig({
  plugins: [classicScriptBundles()],
  // Pre-bundle everything the pages import up front: otherwise Vite discovers
  // dependencies on the first visit and reloads the page in the middle of the demo.
  optimizeDeps: {
    entries: ['index.html', 'demo/*.html'],
    include: ['lit', 'lit/decorators.js', 'idb', 'zod/mini', 'dompurify', 'vue'],
  },
  server: { port: 5173, strictPort: false },
});
