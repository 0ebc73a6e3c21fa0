// Loading the screen from the sources, where NODE_ENV is read at run time: React's production build, and the
// environment the agent's processes inherit left as the user set it, not even changed for a moment.
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { preloadScreen } from "../../src/tui/index.js";

describe("loading the screen with NODE_ENV unset", () => {
	// The test runner sets NODE_ENV; the user here did not.
	const runnerValue = process.env.NODE_ENV;
	beforeEach(() => {
		delete process.env.NODE_ENV;
	});
	afterEach(() => {
		process.env.NODE_ENV = runnerValue;
	});

	it("never sets NODE_ENV, even while loading, and still takes React's production build", async () => {
		const seen = new Set<string | undefined>();
		const watch = setInterval(() => seen.add(process.env.NODE_ENV), 0);
		try {
			preloadScreen();
			seen.add(process.env.NODE_ENV);
			// The same module preloadScreen() loads: resolves once it has.
			await import("../../src/tui/mount-screen.js");
		} finally {
			clearInterval(watch);
		}
		expect([...seen]).toEqual([undefined]);
		// (This runner compiles JSX for React's development runtime of its own; React itself and its renderer count.)
		// Loaded, not only read for their export names (Node's import of CommonJS reads both builds' sources).
		const builds = Object.entries(createRequire(import.meta.url).cache)
			.filter(([, module]) => module?.loaded)
			.map(([path]) => /[/\\](react|react-reconciler|scheduler)\.(production|development)\.js$/.exec(path)?.slice(1).join("."))
			.filter(Boolean);
		expect(builds.sort()).toEqual(["react-reconciler.production", "react.production", "scheduler.production"]);
	});
});
