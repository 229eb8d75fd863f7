// The demo's dev server (`npm start`). The library build does not read this
// file: scripts/build.js passes its own inline configs.
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import { lazyElementKitForEsbuild } from './scripts/lazy-element-kit.js';
import { SHIPPED_SCRIPTS } from './scripts/shipped-scripts.js';

/** Scripts a site loads by plain URL (as dist/ ships them), bundled from source on every request so the demo always runs the current code. */
function distScriptBundles(): Plugin {
  return {
    name: 'questboard-dist-scripts',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const path = request.url?.split('?')[0] ?? '';
        const script = Object.hasOwn(SHIPPED_SCRIPTS, path.slice(1)) ? SHIPPED_SCRIPTS[path.slice(1)] : undefined;
        if (!script) return next();
        try {
          const result = await build({
            entryPoints: [script.entry],
            bundle: true,
            format: script.format,
            ...(script.globalName ? { globalName: script.globalName } : {}),
            write: false,
            target: 'es2022',
            tsconfig: script.tsconfig,
            sourcemap: 'inline',
            plugins: script.lazyElement ? [lazyElementKitForEsbuild(script.entry)] : [],
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
  plugins: [distScriptBundles()],
  // Pre-bundle everything the pages import up front: otherwise Vite discovers
  // dependencies on the first visit and reloads the page in the middle of the demo.
  optimizeDeps: {
    entries: ['index.html', 'demo/*.html'],
    include: ['lit', 'lit/decorators.js', 'idb', 'zod/mini', 'vue', 'jose'],
  },
  // Vue's bundler build asks for its compile-time flags; the framework page uses the Composition API only.
  define: {
    __VUE_OPTIONS_API__: 'false',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
  },
  server: { port: 5173, strictPort: false },
});
