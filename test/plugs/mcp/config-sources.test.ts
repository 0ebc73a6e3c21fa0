// Where servers are configured and which definition of a name wins; a project's servers wait for trust.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadMcpConfig, readConfigFile } from "../../../src/plugs/mcp/config-sources.js";
import { McpConfigError } from "../../../src/plugs/mcp/mcp-config.js";
import { workspace } from "../../support/temp-dir.js";

function servers(config: unknown) {
	return JSON.stringify({ mcpServers: config });
}

describe("loadMcpConfig", () => {
	it("finds nothing, and reports nothing, where nothing is configured", () => {
		const { cwd, home } = workspace();
		expect(loadMcpConfig({ cwd, home, projectTrusted: false })).toEqual({ servers: [], problems: [], notes: [] });
	});

	it("reads the user's mcp.json, the project's .mcp.json and each --mcp-config; a later source wins a name", () => {
		const { cwd, home } = workspace();
		writeFileSync(join(home, "mcp.json"), servers({ user: { command: "u" }, shared: { command: "from-user" } }));
		writeFileSync(join(cwd, ".mcp.json"), servers({ shared: { command: "from-project" }, project: { command: "p" } }));
		writeFileSync(join(cwd, "extra.json"), servers({ extra: { command: "e" }, project: { command: "from-flag" } }));
		const config = loadMcpConfig({ cwd, home, projectTrusted: true, configs: ["extra.json", servers({ inline: { url: "http://127.0.0.1:1/mcp" } })] });
		const byName = Object.fromEntries(config.servers.map((server) => [server.name, server]));
		expect(Object.keys(byName).sort()).toEqual(["extra", "inline", "project", "shared", "user"]);
		expect(byName.shared).toMatchObject({ fromProject: true, spec: { command: "from-project" }, source: join(cwd, ".mcp.json") });
		expect(byName.project).toMatchObject({ fromProject: false, spec: { command: "from-flag" }, source: join(cwd, "extra.json") });
		expect(byName.inline!.source).toBe("--mcp-config");
	});

	it("keeps an untrusted project's servers apart: they replace none of the user's", () => {
		const { cwd, home } = workspace();
		writeFileSync(join(home, "mcp.json"), servers({ github: { command: "user-github" } }));
		writeFileSync(join(cwd, ".mcp.json"), servers({ github: { command: "project-github" }, local: { command: "l" } }));
		const config = loadMcpConfig({ cwd, home, projectTrusted: false });
		expect(config.servers.map((server) => [server.name, server.fromProject, server.spec && "command" in server.spec ? server.spec.command : ""])).toEqual([
			["github", false, "user-github"],
			["local", true, "l"],
		]);
	});

	it("reports a broken standing file and goes on without it; a broken --mcp-config is an error", () => {
		const { cwd, home } = workspace();
		writeFileSync(join(home, "mcp.json"), "{ broken");
		writeFileSync(join(cwd, ".mcp.json"), servers({ a: { command: "a" } }));
		const config = loadMcpConfig({ cwd, home, projectTrusted: false });
		expect(config.problems).toEqual([expect.stringMatching(new RegExp(`^${join(home, "mcp.json")}: invalid JSON: `))]);
		expect(config.servers.map((server) => server.name)).toEqual(["a"]);
		writeFileSync(join(cwd, "bad.json"), servers({ a: { command: 1 } }));
		expect(() => loadMcpConfig({ cwd, home, projectTrusted: false, configs: ["bad.json"] })).toThrow(`${join(cwd, "bad.json")}: mcpServers."a".command: must be a non-empty string (got 1).`);
		expect(() => loadMcpConfig({ cwd, home, projectTrusted: false, configs: ["missing.json"] })).toThrow(`--mcp-config missing.json: no such file (${join(cwd, "missing.json")}).`);
	});
});

describe("readConfigFile", () => {
	it("refuses a directory and a file over 1 MB, naming the file; a missing file is no configuration", () => {
		const { cwd } = workspace();
		mkdirSync(join(cwd, "dir.json"));
		expect(() => readConfigFile(join(cwd, "dir.json"))).toThrow(McpConfigError);
		writeFileSync(join(cwd, "big.json"), " ".repeat(1024 * 1024 + 1));
		expect(() => readConfigFile(join(cwd, "big.json"))).toThrow(`${join(cwd, "big.json")} is 1.0 MB, over the 1.0 MB loom reads from it.`);
		expect(readConfigFile(join(cwd, "none.json"))).toBeUndefined();
	});
});
