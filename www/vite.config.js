// Vite builds the app from www/ into www/dist. The engine worker, the console page, the
// wasm packages and coi-serviceworker are static files the bundler must not touch: the
// plugin below copies them into dist unchanged (and serves them in `vite` dev mode), so
// www/dist is a complete static site.
import { cpSync, existsSync, createReadStream } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const WWW = dirname(fileURLToPath(import.meta.url));
const COI = join(WWW, 'node_modules/coi-serviceworker/coi-serviceworker.min.js');

/** [source, path inside dist]; a missing optional source is skipped with a warning. */
const STATIC_COPIES = [
  [join(WWW, 'engine'), 'engine', { required: true }],
  [join(WWW, 'console.html'), 'console.html', { required: false }],
  [resolve(WWW, '../pkg'), 'pkg', { required: false }],
  [COI, 'coi-serviceworker.js', { required: true }],
];

function copyStaticParts() {
  let outDir;
  return {
    name: 'meshmate-static-parts',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const [source, target, { required }] of STATIC_COPIES) {
        if (!existsSync(source)) {
          if (required) throw new Error(`${source} is missing: the bundle would not work without it`);
          this.warn(`${source} is missing; ${target} is left out of dist`);
          continue;
        }
        cpSync(source, join(outDir, target), { recursive: true });
      }
    },
    configureServer(server) {
      // Dev mode serves www/ as is; add the two parts that live elsewhere.
      server.middlewares.use((req, res, next) => {
        const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
        let file = null;
        if (path === '/coi-serviceworker.js') file = COI;
        else if (path.startsWith('/pkg/')) file = resolve(WWW, '..', '.' + path);
        if (!file || !file.startsWith(resolve(WWW, '..')) || !existsSync(file)) return next();
        res.setHeader('Content-Type', file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript');
        createReadStream(file).pipe(res);
      });
    },
  };
}

export default defineConfig({
  root: WWW,
  base: './',
  plugins: [copyStaticParts()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: {
    headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
  },
});
