// The session's secret mask follows auth.json: tokens stored before the session and those renewed while it runs.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { maskValues } from "../../src/core/index.js";
import { maskWithStoredLogins } from "../../src/sdk/login-secrets.js";
import { tempDir } from "../support/temp-dir.js";

function store(home: string, access: string): void {
	writeFileSync(join(home, "auth.json"), JSON.stringify({ plans: { chatgpt: { access, refresh: "refresh-token-0001", expires: 0 } }, mcp: { "https://x/mcp": { tokens: { access_token: `mcp-${access}` } } } }));
}

describe("the mask of stored logins", () => {
	it("masks the tokens of auth.json, and a token renewed after the session started", () => {
		const home = tempDir();
		const mask = maskWithStoredLogins(home, (tokens) => maskValues(["api-key-12345", ...tokens], 8));
		expect(mask.mask("none yet: api-key-12345")).toBe("none yet: ***");
		store(home, "access-token-first");
		expect(mask.mask("a access-token-first r refresh-token-0001 m mcp-access-token-first")).toBe("a *** r *** m ***");
		store(home, "access-token-renewed-later");
		expect(mask.mask("now access-token-renewed-later")).toBe("now ***");
		expect(mask.values).toContain("api-key-12345");
	});
});
