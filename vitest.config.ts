import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
		exclude: ["node_modules/**"],
		testTimeout: 20_000,
		hookTimeout: 20_000,
	},
});
