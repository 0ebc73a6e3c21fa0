// Secret values kept out of what tools return and show.
import { describe, expect, it } from "vitest";
import { configuredKeys, maskResult, secretMask } from "../../../src/plugs/policy/secrets.js";

const env = {
	OPENAI_API_KEY: "sk-openai-0123456789",
	GITHUB_TOKEN: "ghp_abcdefghijklmnop",
	AWS_SECRET: "aws/secret/value",
	DB_PASSWORD_FILE_CONTENT: "hunter2hunter2",
	FEATURE_KEY: "on",
	PATH: "/usr/bin:/bin",
};

describe("secretMask", () => {
	it("masks values of variables named like secrets, and configured keys, wherever they appear verbatim", () => {
		const secrets = secretMask(env, ["models-json-key-abcdef"]);
		expect(secrets.mask("a sk-openai-0123456789 b ghp_abcdefghijklmnop c aws/secret/value d hunter2hunter2 e models-json-key-abcdef")).toBe(
			"a *** b *** c *** d *** e ***",
		);
	});

	it("leaves short values and other variables alone: they would mangle ordinary output", () => {
		const secrets = secretMask(env, ["none"]);
		expect(secrets.mask("FEATURE_KEY=on PATH=/usr/bin:/bin key=none")).toBe("FEATURE_KEY=on PATH=/usr/bin:/bin key=none");
	});

	it("in live output also masks a secret cut at either end of the text", () => {
		const secrets = secretMask({ API_TOKEN: "tok-1234567890abcdef" }, []);
		expect(secrets.maskLive("export API_TOKEN=tok-12345")).toBe("export API_TOKEN=***");
		expect(secrets.maskLive("67890abcdef and more")).toBe("*** and more");
		expect(secrets.maskLive("tok-1234567890abcdef")).toBe("***");
		expect(secrets.maskLive("tokens: 3")).toBe("tokens: 3");
	});

	it("masks credentials written in an MCP server's configuration (env, headers, options), not its other values", () => {
		const secrets = secretMask({}, [], [
			["GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_literal0123456789"],
			["Authorization", "Bearer tok-0123456789abcdef"],
			["X-API-Key", "xkey-0123456789"],
			["token", "argtoken-0123456789"],
			["NODE_ENV", "production"],
			["PATH", "/opt/server/bin"],
		]);
		expect(secrets.mask("ghp_literal0123456789 | tok-0123456789abcdef | xkey-0123456789 | argtoken-0123456789 | production /opt/server/bin")).toBe(
			"*** | *** | *** | *** | production /opt/server/bin",
		);
	});

	it("collects the explicit key and every provider's key", () => {
		const registry = { providers: () => ["anthropic", "openai", "local"], apiKeyFor: (provider: string) => (provider === "local" ? undefined : `${provider}-key-123456`) };
		expect(configuredKeys(registry, "explicit-key-123456")).toEqual(["explicit-key-123456", "anthropic-key-123456", "openai-key-123456"]);
	});
});

describe("maskResult", () => {
	const secrets = secretMask({ GITHUB_TOKEN: "ghp_abcdefghijklmnop" }, []);

	it("masks text parts and every string in the details, keeping the rest", () => {
		const masked = maskResult(
			{ content: [{ type: "text", text: "token ghp_abcdefghijklmnop" }, { type: "image", data: "AAAA", mimeType: "image/png" }], details: { diff: "+ghp_abcdefghijklmnop", lines: [1, "ghp_abcdefghijklmnop"], exitCode: 0 } },
			secrets,
		);
		expect(masked).toEqual({
			content: [{ type: "text", text: "token ***" }, { type: "image", data: "AAAA", mimeType: "image/png" }],
			details: { diff: "+***", lines: [1, "***"], exitCode: 0 },
		});
	});

	it("changes nothing in a result without secrets", () => {
		expect(maskResult({ content: [{ type: "text", text: "all clear" }], details: { exitCode: 0 } }, secrets)).toBeUndefined();
	});
});
