import { defineConfig } from "vitest/config";

// Relative asset paths: the same build works at Discord's proxied origin and on a local host.
export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, target: "es2022" },
  // The stylesheet is read as text by the contrast test (vitest empties CSS otherwise).
  test: { include: ["test/**/*.test.ts"], environment: "node", css: { include: [/style\.css/] } },
});
