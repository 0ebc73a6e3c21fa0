// Which tools a session may use and which are enabled: names and `*` patterns over the built-ins, tools still to
// come from MCP servers, and groups of tools that change as a whole.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/core/engine/tool-definition.js";
import { ToolCatalog } from "../../src/sdk/tool-catalog.js";
import { createBuiltinTools } from "../../src/tools/index.js";

const { known, defaults } = createBuiltinTools("/");
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

function tool(name: string): ToolDefinition {
	return { name, label: name, description: `The ${name} tool.`, parameters: Type.Object({}), execute: async () => ({ content: [], details: undefined }) };
}

/** What `--tools` with MCP servers github and fs configured (still starting) gives. */
function withServers(choice: string[] | undefined): ToolCatalog {
	const catalog = new ToolCatalog(known, choice, defaults);
	catalog.expectTools({
		accepts: (pattern) => pattern.startsWith("mcp__github__") || pattern.startsWith("mcp__fs__"),
		hint: "mcp__<server>__<tool> of the MCP servers github, fs",
	});
	return catalog;
}

describe("ToolCatalog", () => {
	it("takes * as any characters, in the built-in tools' order; without a choice the default built-ins", () => {
		expect(names(new ToolCatalog(known, ["ls", "re*"], defaults).enabled())).toEqual(["read", "ls"]);
		expect(names(new ToolCatalog(known, undefined, defaults).enabled())).toEqual(names(defaults));
	});

	it("accepts names and patterns of tools still to come, which may be starting", () => {
		const catalog = withServers(["read", "mcp__github__create_issue", "mcp__fs__*"]);
		catalog.checkChoice();
		expect(names(catalog.enabled())).toEqual(["read"]);
	});

	it("refuses a name no tool has and no tool to come may have, listing both", () => {
		expect(() => withServers(["mcp__gitlab__*"]).checkChoice()).toThrow(
			"unknown tool mcp__gitlab__*; choose from read,bash,edit,write,grep,find,ls,bash_output,bash_kill,ask_user,todo_write,web_fetch,web_search,lsp, or mcp__<server>__<tool> of the MCP servers github, fs.",
		);
		expect(() => new ToolCatalog(known, ["mcp__github__x"], defaults).checkChoice()).toThrow("unknown tool mcp__github__x; choose from read,bash,edit,write,grep,find,ls,bash_output,bash_kill,ask_user,todo_write,web_fetch,web_search,lsp.");
	});

	it("a group's tools are replaced as a whole and keep their place; the choice enables those it names", () => {
		const catalog = new ToolCatalog(known, ["read", "mcp__a__*", "ext"], defaults);
		const servers = catalog.group("an MCP server");
		catalog.addTool(tool("ext"), "an extension");
		servers.set([tool("mcp__a__one"), tool("mcp__b__two")]);
		expect(names(catalog.enabled())).toEqual(["read", "mcp__a__one", "ext"]);
		expect(catalog.allows("mcp__b__two")).toBe(false);
		servers.set([tool("mcp__a__three")]);
		expect(names(catalog.all).slice(-2)).toEqual(["mcp__a__three", "ext"]);
		expect(() => servers.set([tool("ext")])).toThrow("A tool named ext exists already; an MCP server must give its tool another name.");
		servers.remove();
		expect(names(catalog.enabled())).toEqual(["read", "ext"]);
	});

	it("without a choice every added tool is enabled; an extension's tool may not take a built-in's name", () => {
		const catalog = new ToolCatalog(known, undefined, defaults);
		const remove = catalog.addTool(tool("ext"), "clash");
		catalog.group("an MCP server").set([tool("mcp__a__one")]);
		expect(names(catalog.enabled())).toEqual([...names(defaults), "ext", "mcp__a__one"]);
		remove();
		expect(() => catalog.addTool(tool("read"), "clash")).toThrow("A tool named read exists already; clash must give its tool another name.");
		expect(names(catalog.all)).toEqual([...names(known), "mcp__a__one"]);
	});
});
