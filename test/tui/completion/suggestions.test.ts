import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applySuggestion, commandSuggestions, pathSuggestions } from "../../../src/tui/completion/suggestions.js";
import { mentions, mentionWord, shellWord } from "../../../src/core/index.js";
import { tempDir } from "../../support/temp-dir.js";

const commands = [
	{ name: "model", description: "switch the model", argsHint: "[id]" },
	{ name: "help", description: "this help" },
	{ name: "compact", description: "summarise", argsHint: "[instructions]" },
	{ name: "review-pr", description: "a prompt template\u001b[31m" },
	{ name: "skill:pdf2text", description: "a skill" },
];

describe("command suggestions", () => {
	it("list every command for '/', with arguments and descriptions", () => {
		const list = commandSuggestions("/", 1, commands);
		expect(list?.items.map((item) => item.label)).toEqual(["/model [id]", "/help", "/compact [instructions]", "/review-pr", "/skill:pdf2text"]);
		expect(list?.items[3].description).toBe("a prompt template");
	});

	it("narrow as the name is typed, best match first; complete to the name and a space", () => {
		const list = commandSuggestions("/mo", 3, commands);
		expect(list?.items[0]).toMatchObject({ label: "/model [id]", insert: "/model ", submit: false });
		expect(commandSuggestions("/he", 3, commands)?.items[0]).toMatchObject({ insert: "/help ", submit: true });
		expect(commandSuggestions("/zzz", 4, commands)).toBeUndefined();
		expect(commandSuggestions("/skill:pd", 9, commands)?.items[0]).toMatchObject({ insert: "/skill:pdf2text " });
	});

	it("only at the very start of the text, while the cursor is in the name", () => {
		expect(commandSuggestions("say /mo", 7, commands)).toBeUndefined();
		expect(commandSuggestions("/model gpt", 10, commands)).toBeUndefined();
		expect(commandSuggestions("/etc/hosts", 10, commands)).toBeUndefined();
	});

	it("replace the whole name when chosen, keeping what follows", () => {
		const list = commandSuggestions("/mo x", 2, commands);
		expect(list && applySuggestion("/mo x", list, list.items[0])).toEqual({ text: "/model x", cursor: 7 });
	});
});

describe("path completion (Tab)", () => {
	function project(): string {
		const root = tempDir("loom-paths-");
		mkdirSync(join(root, "src", "components"), { recursive: true });
		writeFileSync(join(root, "src", "components", "Editor.tsx"), "");
		writeFileSync(join(root, "src", "editor-state.ts"), "");
		writeFileSync(join(root, "src", "editor-keys.ts"), "");
		writeFileSync(join(root, "src", ".hidden"), "");
		writeFileSync(join(root, "README.md"), "");
		return root;
	}

	it("completes a single match at once: a directory with its slash, a file with a space", async () => {
		const root = project();
		const dir = await pathSuggestions("look in sr", 10, root);
		expect(dir?.items).toEqual([{ label: "src/", insert: "src/" }]);
		const file = await pathSuggestions("open src/components/Ed", 22, root);
		expect(file?.items).toEqual([{ label: "src/components/Editor.tsx", insert: "src/components/Editor.tsx " }]);
	});

	it("extends to the common part first, then lists the choices; dot files only when asked for", async () => {
		const root = project();
		expect((await pathSuggestions("src/e", 5, root))?.items).toEqual([{ label: "src/editor-", insert: "src/editor-" }]);
		expect((await pathSuggestions("src/editor-", 11, root))?.items.map((item) => item.label)).toEqual(["src/editor-keys.ts", "src/editor-state.ts"]);
		expect((await pathSuggestions("src/", 4, root))?.items.map((item) => item.label)).toEqual(["src/components/", "src/editor-keys.ts", "src/editor-state.ts"]);
		expect((await pathSuggestions("src/.h", 6, root))?.items.map((item) => item.label)).toEqual(["src/.hidden"]);
	});

	it("keeps an @ in front, reads ~/ as the home directory, and offers nothing for no match", async () => {
		const root = project();
		expect((await pathSuggestions("@REA", 4, root))?.items).toEqual([{ label: "README.md", insert: "@README.md " }]);
		expect((await pathSuggestions("~/sr", 4, "/nowhere", root))?.items).toEqual([{ label: "~/src/", insert: "~/src/" }]);
		expect(await pathSuggestions("nothing-like-this", 17, root)).toBeUndefined();
	});

	it("writes a path holding blanks as a shell would: escaped, or quoted after @; and completes on inside it", async () => {
		const root = tempDir("loom-paths-");
		mkdirSync(join(root, "dir with space"));
		writeFileSync(join(root, "dir with space", "file name.txt"), "");
		writeFileSync(join(root, "dir with space", "it's $1.txt"), "");

		expect((await pathSuggestions("cat dir", 7, root))?.items).toEqual([{ label: "dir with space/", insert: "dir\\ with\\ space/" }]);
		const inside = "cat dir\\ with\\ space/fi";
		expect((await pathSuggestions(inside, inside.length, root))?.items).toEqual([
			{ label: "dir with space/file name.txt", insert: "dir\\ with\\ space/file\\ name.txt " },
		]);
		const odd = "cat dir\\ with\\ space/it";
		expect((await pathSuggestions(odd, odd.length, root))?.items[0]?.insert).toBe("dir\\ with\\ space/it\\'s\\ \\$1.txt ");

		expect((await pathSuggestions("@dir", 4, root))?.items).toEqual([{ label: "dir with space/", insert: '@"dir with space/' }]);
		const quoted = '@"dir with space/fi';
		expect((await pathSuggestions(quoted, quoted.length, root))?.items).toEqual([{ label: "dir with space/file name.txt", insert: '@"dir with space/file name.txt" ' }]);
	});
});
