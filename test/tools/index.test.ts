import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as tools from "../../src/tools/index.js";
import { tempDir } from "../support/temp-dir.js";

const toolsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/tools");

describe("tools entry", () => {
	it("creates the coding tools in the order read, bash, edit, write", async () => {
		const dir = tempDir();
		const created = tools.createCodingTools(dir);
		expect(created.map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write", "bash_output", "bash_kill", "ask_user", "todo_write"]);
		for (const tool of created) {
			expect(tool.label.length).toBeGreaterThan(0);
			expect(tool.description.length).toBeGreaterThan(40);
			expect(tool.parameters.type).toBe("object");
		}
		expect(created.filter((tool) => tool.executionMode === "sequential").map((tool) => tool.name)).toEqual(["bash", "ask_user"]);
	});

	it("knows the search and web tools without enabling them by default; all of them only read", () => {
		const { known, defaults } = tools.createBuiltinTools("/");
		expect(known.map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write", "grep", "find", "ls", "bash_output", "bash_kill", "ask_user", "todo_write", "web_fetch", "web_search", "lsp"]);
		expect(defaults.map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write", "bash_output", "bash_kill", "ask_user", "todo_write"]);
		expect(known.filter((tool) => tool.readOnly).map((tool) => tool.name)).toEqual(["read", "grep", "find", "ls", "bash_output", "bash_kill", "ask_user", "todo_write", "web_fetch", "web_search", "lsp"]);
	});

	it("makes each tool of the names table under its table name, in the table's order", () => {
		expect(tools.BUILTIN_TOOLS.map((tool) => tool.create("/").name)).toEqual(tools.BUILTIN_TOOL_NAMES.map((tool) => tool.name));
		expect(tools.BUILTIN_TOOLS.map((tool) => tool.name)).toEqual(tools.BUILTIN_TOOL_NAMES.map((tool) => tool.name));
	});

	it("tells the model its limits in each description", () => {
		const [read, bash] = tools.createCodingTools("/");
		expect(read!.description).toMatch(/2000 lines or 50 KB/);
		expect(bash!.description).toMatch(/2000 lines or 50\.0 KB/);
		expect(bash!.description).toMatch(/temporary file/);
		expect(bash!.description).toMatch(/background.*until loom exits.*> *\S+ 2>&1 &/is);
	});

	it("exports the queue and the process clean-up", () => {
		expect(typeof tools.withFileMutationQueue).toBe("function");
		expect(typeof tools.killAllBashProcesses).toBe("function");
	});

	it("imports nothing of ours from outside src/core", async () => {
		const files = (await fs.readdir(toolsDir, { recursive: true })).filter((f) => f.endsWith(".ts"));
		expect(files.length).toBeGreaterThan(5);
		for (const file of files) {
			const source = await fs.readFile(path.join(toolsDir, file), "utf8");
			for (const match of source.matchAll(/from\s+"(\.[^"]*)"/g)) {
				const target = path.resolve(path.dirname(path.join(toolsDir, file)), match[1]!);
				const inside = target.startsWith(toolsDir + path.sep) || target.startsWith(path.resolve(toolsDir, "../core") + path.sep);
				expect(inside, `${file} imports ${match[1]}`).toBe(true);
			}
		}
	});
});
