// Bundles the `loom` command into a few files: Node 20 spends most of a cold start resolving and loading the
// hundreds of small modules of the SDKs and TypeBox, so one bundle (with lazy chunks for each SDK and the
// screen) starts several times faster than the plain tsc output.
import { defineConfig } from "rolldown";

export default defineConfig({
	input: { loom: "src/cli/main.ts" },
	platform: "node",
	// Ink and React stay ordinary imports: they load only for the interactive screen. The shell parser is
	// WebAssembly that finds its .wasm files beside its own module, and jiti (the extension loader) loads only when
	// an extension exists and finds its own files at run time: both stay in node_modules too.
	external: [/^ink(\/|$)/, /^react(\/|$)/, /^@vscode\/tree-sitter-wasm(\/|$)/, /^jiti(\/|$)/],
	output: {
		dir: "dist/bundle",
		format: "esm",
		entryFileNames: "[name].js",
		chunkFileNames: "chunks/[name]-[hash].js",
		cleanDir: true,
	},
});
