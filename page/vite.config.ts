import { posix } from "node:path";
import type { Plugin, Rollup } from "vite";
import { defineConfig } from "vitest/config";

const COMPRESSED = /\.(js|css|html)$/;

async function gzip(body: string | Uint8Array): Promise<Uint8Array> {
  const part = typeof body === "string" ? body : new Uint8Array(body); // a copy on its own ArrayBuffer
  const stream = new Blob([part]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Each built script, stylesheet and page also as ``.gz`` beside it: the web server sends it
 * to a browser that accepts gzip (aiohttp's FileResponse looks for it). */
function precompressed(): Plugin {
  return {
    name: "precompressed",
    apply: "build",
    enforce: "post",
    async generateBundle(_options, bundle) {
      for (const [name, file] of Object.entries(bundle)) {
        if (!COMPRESSED.test(name)) continue;
        const body = file.type === "chunk" ? file.code : file.source;
        this.emitFile({ type: "asset", fileName: `${name}.gz`, source: await gzip(body) });
      }
    },
  };
}

// Text that would end an inline element early, or switch the HTML parser's script state.
const CLOSES = /<\/(script|style)|<!--/i;

function inlineText(name: string, text: string): string {
  if (CLOSES.test(text)) throw new Error(`${name} cannot be inlined: it holds ${CLOSES.exec(text)?.[0]}`);
  return text;
}

/** The start-up script and its stylesheet inside ``index.html``: the page starts with one
 * request instead of two in a row. The Content-Security-Policy allows them by their sha256,
 * which the web server computes from the built file it serves (web/headers.py). Chunks loaded
 * later (the Embedded App SDK) stay files: their address in the inlined script is made
 * relative to the page instead of to ``assets/``. */
function inlined(): Plugin {
  return {
    name: "inlined",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const page = bundle["index.html"] as Rollup.OutputAsset | undefined;
      const entry = Object.values(bundle).find((file): file is Rollup.OutputChunk => file.type === "chunk" && file.isEntry);
      if (!page || !entry) return;
      let html = String(page.source);
      let code = entry.code;
      for (const later of entry.dynamicImports) {
        const fromEntry = posix.relative(posix.dirname(entry.fileName), later);
        code = code.replaceAll(`import("./${fromEntry}")`, `import("./${later}")`);
      }
      for (const name of [...entry.imports, ...entry.dynamicImports]) {
        const chunk = bundle[name];
        if (chunk?.type === "chunk" && chunk.imports.includes(entry.fileName)) throw new Error(`${name} imports the start-up script: it cannot be inlined`);
      }
      const script = new RegExp(`<script type="module" crossorigin src="\\./${entry.fileName}"></script>`);
      if (!script.test(html)) throw new Error(`index.html does not name ${entry.fileName}`);
      html = html.replace(script, () => `<script type="module">${inlineText(entry.fileName, code)}</script>`);
      delete bundle[entry.fileName];
      for (const name of entry.viteMetadata?.importedCss ?? []) {
        const sheet = bundle[name];
        const link = new RegExp(`<link rel="stylesheet" crossorigin href="\\./${name}">`);
        if (sheet?.type !== "asset" || !link.test(html)) throw new Error(`index.html does not name ${name}`);
        html = html.replace(link, () => `<style>${inlineText(name, String(sheet.source))}</style>`);
        delete bundle[name];
      }
      page.source = html;
    },
  };
}

// Relative asset paths: the same build works at Discord's proxied origin and on a local host.
// The Embedded App SDK is a chunk of its own, fetched only inside Discord (src/discord.ts).
export default defineConfig({
  base: "./",
  plugins: [inlined(), precompressed()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    rollupOptions: {
      output: {
        manualChunks: (id) => (id.includes("/@discord/embedded-app-sdk/") ? "discord-sdk" : undefined),
      },
    },
  },
  // The stylesheet is read as text by the contrast test (vitest empties CSS otherwise).
  test: { include: ["test/**/*.test.ts"], environment: "node", css: { include: [/style\.css/] } },
});
