// A session's OAuth provider when auth.json cannot be read: the server counts as having no login, said once.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { authFilePath } from "../../../src/core/ai/index.js";
import { McpOAuthProvider } from "../../../src/plugs/mcp/oauth-provider.js";
import { tempDir } from "../../support/temp-dir.js";

describe("MCP OAuth provider", () => {
	it("treats a corrupt auth.json as no login and warns once, naming the file and loom logout", () => {
		const home = tempDir();
		writeFileSync(authFilePath(home), "{not json");
		const warnings: string[] = [];
		const provider = new McpOAuthProvider(home, "plain", "http://127.0.0.1:1/mcp", undefined, (text) => void warnings.push(text));
		expect(provider.tokens()).toBeUndefined();
		expect(provider.tokens()).toBeUndefined();
		expect(provider.discoveryState()).toBeUndefined();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain(authFilePath(home));
		expect(warnings[0]).toMatch(/loom logout/);
	});
});
