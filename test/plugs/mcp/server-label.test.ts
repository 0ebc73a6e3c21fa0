import { describe, expect, it } from "vitest";
import { commandLine, projectServerLabel } from "../../../src/plugs/mcp/server-label.js";

describe("how the trust question names a project's server", () => {
	it("shows a stdio server's command with its arguments, not the bare command", () => {
		const spec = { transport: "stdio" as const, command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: {} };
		expect(projectServerLabel("fs", spec as never)).toBe(".mcp.json server fs: npx -y @modelcontextprotocol/server-filesystem /tmp");
	});

	it("strips escapes, quotes words a shell would split, and keeps the end of a long path", () => {
		expect(commandLine("sh", ["-c", "echo hi; rm x", "\x1b[31mred\x1b[0m"])).toBe("sh -c 'echo hi; rm x' red");
		const long = `/home/user/${"deep/".repeat(20)}server/dist/index.js`;
		const shown = commandLine("node", [long]);
		expect(shown.startsWith("node …")).toBe(true);
		expect(shown.endsWith("server/dist/index.js")).toBe(true);
		expect(shown.length).toBeLessThan(60);
	});

	it("masks credentials in the arguments before cutting long words", () => {
		const token = `ghp_${"x".repeat(60)}`;
		const mask = (text: string) => text.replaceAll(token, "***");
		const spec = { transport: "stdio" as const, command: "npx", args: ["server", `--token=${token}`, "--key", token], env: {} };
		expect(projectServerLabel("gh", spec as never, mask)).toBe(".mcp.json server gh: npx server '--token=***' --key '***'");
	});

	it("cuts a very long command line", () => {
		const shown = commandLine("npx", Array.from({ length: 60 }, (_, i) => `--flag${i}`));
		expect(shown.length).toBe(160);
		expect(shown.endsWith("…")).toBe(true);
	});

	it("names a remote server by its host", () => {
		expect(projectServerLabel("web", { transport: "http", url: "https://mcp.example.com/v1", headers: {} } as never)).toBe(".mcp.json server web: mcp.example.com");
	});
});
