import { defineConfig } from "vitest/config";

// Relative asset paths: the same build works at Discord's proxied origin and on a local host.
export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, target: "es2022" },
  test: { include: ["test/**/*.test.ts"], environment: "node" },
});
