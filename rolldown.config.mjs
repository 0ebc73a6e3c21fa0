// Bundles the `loom` command into a few files: Node 20 spends most of a cold start resolving and loading the
// hundreds of small modules of the SDKs and TypeBox, so one bundle (with lazy chunks for each SDK and the
// screen) starts several times faster than the plain tsc output.
import { defineConfig } from "rolldown";

/**
 * Libraries (React, its reconciler, the scheduler) pick their production or development build from NODE_ENV
 * when loaded. Bundled, loom always takes the production build: the development one checks every render,
 * cost several times the CPU on a fast stream, and its code alone doubled what the screen has to load. Every
 * module reads NODE_ENV as "production" (loom's own screen loader then leaves the environment alone); only
 * reads are replaced, so the user's NODE_ENV still reaches the commands loom runs.
 */
const productionBuilds = {
	name: "production-builds",
	transform: {
		filter: { code: "process.env.NODE_ENV" },
		handler(code) {
			return code.replace(/process\.env\.NODE_ENV(?!\s*=[^=])/g, '"production"');
		},
	},
};

export default defineConfig({
	input: { loom: "src/cli/main.ts" },
	platform: "node",
	// Ink and React are bundled like everything else (loaded from node_modules, Node lexed every CommonJS
	// module of React for its exports, half of the screen's start). Ink imports the React devtools only when
	// DEV=true; they are not installed.
	external: ["react-devtools-core"],
	plugins: [productionBuilds],
	output: {
		dir: "dist/bundle",
		format: "esm",
		entryFileNames: "[name].js",
		chunkFileNames: "chunks/[name]-[hash].js",
		cleanDir: true,
	},
});
