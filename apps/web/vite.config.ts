import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a .br and a .gz beside every text file of the build over 1 KiB, once at build time (maximum
 * quality), so the server sends them without compressing per request.
 */
function precompress(outDir: string): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
  return {
    name: 'caredeck-precompress',
    apply: 'build',
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(file)) continue;
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * Records each chunk's source module, static imports and CSS in `.bundle/chunks.json` (outside the served
 * folder), so `npm test` can measure what a screen downloads before it shows (scripts/first-load.mjs).
 */
function chunkMap(root: string): Plugin {
  return {
    name: 'caredeck-chunk-map',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) =>
        output.type === 'chunk'
          ? [
              {
                file: output.fileName,
                entry: output.isEntry,
                source: output.facadeModuleId ? path.relative(root, output.facadeModuleId) : null,
                imports: output.imports,
                css: [...(output.viteMetadata?.importedCss ?? [])],
              },
            ]
          : [],
      );
      mkdirSync(path.join(root, '.bundle'), { recursive: true });
      writeFileSync(path.join(root, '.bundle', 'chunks.json'), `${JSON.stringify(chunks, null, 1)}\n`);
    },
  };
}

/**
 * Mantine's ScrollArea imports a single hook, `useMergeRefs`, from @floating-ui/react; that package is one module,
 * so the console frame and the patient list (which draw ScrollAreas at once) loaded all of floating-ui, which only
 * popovers need and which loads after their first render. This points ScrollArea's import at the same hook in
 * src/shared/ui/useMergeRefs.ts. A ScrollArea that starts importing anything else from the package fails the build.
 */
function scrollAreaWithoutFloatingUi(root: string): Plugin {
  const hook = path.join(root, 'src', 'shared', 'ui', 'useMergeRefs.ts');
  return {
    name: 'caredeck-scrollarea-without-floating-ui',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== '@floating-ui/react' || !importer) return null;
      return /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]/.test(importer) ? hook : null;
    },
  };
}

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('./dist', import.meta.url));

const apiTarget = process.env.CAREDECK_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root,
  plugins: [react(), scrollAreaWithoutFloatingUi(root), chunkMap(root), precompress(outDir)],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir,
    emptyOutDir: true,
    // No source maps in the served build: the console ships as built, not as readable source.
    sourcemap: false,
    rolldownOptions: {
      output: {
        // React, React DOM and the router are needed by every screen and change rarely: one long-cached chunk.
        // Every other library is split by the screens that use it (a shared group made every screen download
        // every component any screen uses; ADR 048).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 30,
            },
          ],
        },
      },
    },
  },
});
