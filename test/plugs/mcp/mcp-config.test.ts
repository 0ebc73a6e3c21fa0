// The configuration format Claude Code reads (.mcp.json), and loom's errors for a file that does not fit it.
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandVariables, MissingVariablesError } from "../../../src/plugs/mcp/mcp-config.js";
import { DEFAULT_CALL_TIMEOUT_MS, McpConfigError, parseMcpConfig } from "../../../src/plugs/mcp/mcp-config.js";

const context = { source: "/p/.mcp.json", env: { TOKEN: "t0k", HOST: "example.test", EMPTY: "" }, cwd: "/p" };

function parse(config: unknown) {
	return parseMcpConfig(typeof config === "string" ? config : JSON.stringify(config), context);
}

function parseError(config: unknown): string {
	try {
		parse(config);
	} catch (error) {
		expect(error).toBeInstanceOf(McpConfigError);
		return (error as Error).message;
	}
	throw new Error("parsed");
}

describe("parseMcpConfig", () => {
	it("reads local (command) and remote (http, sse) servers in the file's order", () => {
		const servers = parse({
			mcpServers: {
				github: { command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: "${TOKEN}" } },
				remote: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
				legacy: { type: "sse", url: "http://127.0.0.1:9/sse" },
			},
		});
		expect(servers.map((server) => server.name)).toEqual(["github", "remote", "legacy"]);
		expect(servers[0]!.spec).toMatchObject({ transport: "stdio", command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: "t0k" }, cwd: "/p" });
		expect(servers[1]!.spec).toMatchObject({ transport: "http", url: "https://example.test/mcp", headers: { Authorization: "Bearer t0k" } });
		expect(servers[2]!.spec).toMatchObject({ transport: "sse" });
		expect(servers[0]!.spec!.timeoutMs).toBe(DEFAULT_CALL_TIMEOUT_MS);
		expect(servers[0]!.source).toBe("/p/.mcp.json");
	});

	it("reads VS Code's \"servers\" when \"mcpServers\" is absent; its errors name \"servers\"; with both, notes which is used", () => {
		const vscode = {
			servers: {
				local: { type: "stdio", command: "node", args: ["server.js"], env: { TOKEN: "${TOKEN}" } },
				remote: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
				old: { type: "sse", url: "http://127.0.0.1:9/sse" },
			},
			inputs: [],
		};
		const servers = parse(vscode);
		expect(servers.map((server) => [server.name, server.spec!.transport])).toEqual([["local", "stdio"], ["remote", "http"], ["old", "sse"]]);
		expect(servers[0]!.spec).toMatchObject({ command: "node", args: ["server.js"], env: { TOKEN: "t0k" }, cwd: "/p" });
		expect(servers[1]!.spec).toMatchObject({ url: "https://example.test/mcp", headers: { Authorization: "Bearer t0k" } });
		expect(parseError({ servers: { x: { type: "stdio", command: "" } } })).toBe('/p/.mcp.json: servers."x".command: must be a non-empty string (got "").');

		const notes: string[] = [];
		const both = parseMcpConfig(JSON.stringify({ mcpServers: { a: { command: "a" } }, ...vscode }), { ...context, notes });
		expect(both.map((server) => server.name)).toEqual(["a"]);
		expect(notes).toEqual(['/p/.mcp.json: has both "mcpServers" and "servers" (VS Code\'s); loom uses "mcpServers" and ignores "servers".']);
	});

	it("takes a url without a type for streamable HTTP, and other clients' spellings of it", () => {
		const servers = parse({ mcpServers: { a: { url: "http://127.0.0.1:1/mcp" }, b: { type: "streamable-http", url: "http://127.0.0.1:1/mcp" } } });
		expect(servers.map((server) => server.spec!.transport)).toEqual(["http", "http"]);
	});

	it("resolves a relative cwd against loom's working directory, and ~ against the home directory", () => {
		const [relative, home] = parse({ mcpServers: { a: { command: "x", cwd: "tools/srv" }, b: { command: "x", cwd: "~/srv" } } });
		expect((relative!.spec as { cwd: string }).cwd).toBe("/p/tools/srv");
		expect((home!.spec as { cwd: string }).cwd).toBe(join(homedir(), "srv"));
	});

	it("reads timeout and startupTimeout in milliseconds, and disabled", () => {
		const [server] = parse({ mcpServers: { a: { command: "x", timeout: 1500, startupTimeout: 900, disabled: true } } });
		expect(server!.spec).toMatchObject({ timeoutMs: 1500, startupTimeoutMs: 900 });
		expect(server!.disabled).toBe(true);
	});

	it("ignores keys it does not know, so a file written for another client loads", () => {
		expect(parse({ mcpServers: { a: { command: "x", alwaysAllow: ["t"], autoApprove: [] } }, otherClientSetting: 1 })).toHaveLength(1);
		expect(parse({})).toEqual([]);
	});

	it("makes a server whose variable is not set unusable, naming the variable; the others load", () => {
		const servers = parse({ mcpServers: { a: { command: "x", env: { K: "${NOT_SET}" } }, b: { command: "y" } } });
		expect(servers[0]!.spec).toBeUndefined();
		expect(servers[0]!.problem).toBe("${NOT_SET} is not set in the environment: set it, or give a default like ${NOT_SET:-default}");
		expect(servers[1]!.spec).toBeDefined();
	});

	it("names the file and the field of every mistake", () => {
		expect(parseError("{ nope")).toMatch(/^\/p\/\.mcp\.json: invalid JSON: /);
		expect(parseError([])).toBe('/p/.mcp.json: (top level): must be a JSON object like {"mcpServers": {...}} (got []).');
		expect(parseError({ mcpServers: [] })).toBe("/p/.mcp.json: mcpServers: must be an object of servers by name (got []).");
		expect(parseError({ mcpServers: { a: "npx x" } })).toBe(
			'/p/.mcp.json: mcpServers."a": must be an object with "command" (a local server) or "url" (a remote one) (got "npx x").',
		);
		expect(parseError({ mcpServers: { a: { command: "x", args: "-y" } } })).toBe('/p/.mcp.json: mcpServers."a".args: must be an array of strings (got "-y").');
		expect(parseError({ mcpServers: { a: { command: "x", args: ["-y", 2] } } })).toBe('/p/.mcp.json: mcpServers."a".args[1]: must be a string (got 2).');
		expect(parseError({ mcpServers: { a: { command: "x", env: { K: 1 } } } })).toBe('/p/.mcp.json: mcpServers."a".env.K: must be a string (got 1).');
		expect(parseError({ mcpServers: { a: { type: "websocket", url: "ws://x" } } })).toBe(
			'/p/.mcp.json: mcpServers."a".type: must be "stdio", "http" or "sse" (got "websocket").',
		);
		expect(parseError({ mcpServers: { a: { type: "http", url: "ftp://x" } } })).toBe('/p/.mcp.json: mcpServers."a".url: must be an http:// or https:// URL (got "ftp://x").');
		expect(parseError({ mcpServers: { a: { type: "http" } } })).toBe('/p/.mcp.json: mcpServers."a".url: must be a non-empty string.');
		expect(parseError({ mcpServers: { a: {} } })).toBe('/p/.mcp.json: mcpServers."a".command: must be a non-empty string.');
		expect(parseError({ mcpServers: { a: { command: "x", timeout: "60s" } } })).toBe(
			'/p/.mcp.json: mcpServers."a".timeout: must be a positive number of milliseconds (got "60s").',
		);
	});

	it("accepts a byte-order mark", () => {
		expect(parse(`\uFEFF${JSON.stringify({ mcpServers: { a: { command: "x" } } })}`)).toHaveLength(1);
	});
});

describe("expandVariables", () => {
	it("expands ${VAR}, and ${VAR:-default} when VAR is unset or empty", () => {
		expect(expandVariables("${TOKEN}/${MISSING:-fallback}/${EMPTY:-e}/${TOKEN:-unused}", context.env)).toBe("t0k/fallback/e/t0k");
		expect(expandVariables("no variables, $TOKEN or ${ not one }", context.env)).toBe("no variables, $TOKEN or ${ not one }");
	});

	it("names every unset variable without a default", () => {
		expect(() => expandVariables("${A}${B}${A}", {})).toThrow(new MissingVariablesError(["A", "B"]));
		expect(new MissingVariablesError(["A", "B"]).message).toBe("${A}, ${B} are not set");
	});
});
