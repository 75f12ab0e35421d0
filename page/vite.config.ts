import type { Plugin } from "vite";
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

// Relative asset paths: the same build works at Discord's proxied origin and on a local host.
// The Embedded App SDK is a chunk of its own, fetched only inside Discord (src/discord.ts).
export default defineConfig({
  base: "./",
  plugins: [precompressed()],
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
