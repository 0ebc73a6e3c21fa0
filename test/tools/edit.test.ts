import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool, prepareEditArguments } from "../../src/tools/index.js";
import { tempDir } from "../support/temp-dir.js";

async function setup(content: string | Buffer, name = "file.txt") {
	const dir = tempDir();
	const file = path.join(dir, name);
	await fs.writeFile(file, content);
	const tool = createEditTool(dir);
	const edit = (edits: { oldText: string; newText: string }[]) => tool.execute("1", { path: name, edits });
	const read = () => fs.readFile(file, "utf8");
	return { dir, file, tool, edit, read };
}

describe("edit tool: exact edits", () => {
	it("replaces unique text and reports a diff and the first changed line", async () => {
		const { edit, read } = await setup("one\ntwo\nthree\nfour\n");
		const result = await edit([{ oldText: "two\nthree", newText: "two\n3" }]);
		expect(await read()).toBe("one\ntwo\n3\nfour\n");
		expect(result.details.firstChangedLine).toBe(3);
		expect(result.details.diff).toContain("-three");
		expect(result.details.diff).toContain("+3");
		expect(result.details.diff).toMatch(/^@@ -1,4 \+1,4 @@$/m);
		expect(result.details.replacements).toBe(1);
	});

	it("matches every edit against the original, not one after another", async () => {
		const { edit, read } = await setup("alpha\nbeta\n");
		await edit([
			{ oldText: "alpha", newText: "beta" },
			{ oldText: "beta", newText: "gamma" },
		]);
		expect(await read()).toBe("beta\ngamma\n");
	});

	it("refuses an empty oldText", async () => {
		const { edit, read } = await setup("x\n");
		await expect(edit([{ oldText: "", newText: "y" }])).rejects.toThrow(/edits\[0\]\.oldText is empty.*write/s);
		expect(await read()).toBe("x\n");
	});

	it("on no match shows the closest lines of the file", async () => {
		const { edit, read } = await setup("function add(a, b) {\n\treturn a + b;\n}\n\nfunction sub(a, b) {\n\treturn a - b;\n}\n");
		const error = await edit([{ oldText: "function sub(a, b) {\n\treturn a + b;\n}", newText: "x" }]).catch((e: Error) => e);
		expect(error).toBeInstanceOf(Error);
		const message = (error as Error).message;
		expect(message).toContain("edits[0].oldText was not found in file.txt");
		expect(message).toContain("lines 5-7");
		expect(message).toContain("5: function sub(a, b) {");
		expect(message).toMatch(/copy oldText/i);
		expect(await read()).toContain("return a - b");
	});

	it("refuses text that matches several places", async () => {
		const { edit } = await setup("x = 1\ny = 2\nx = 1\n");
		await expect(edit([{ oldText: "x = 1", newText: "x = 3" }])).rejects.toThrow(/matches 2 places.*exactly once.*surrounding/s);
	});

	it("refuses overlapping edits", async () => {
		const { edit, read } = await setup("abc def ghi\n");
		await expect(
			edit([
				{ oldText: "abc def", newText: "1" },
				{ oldText: "def ghi", newText: "2" },
			]),
		).rejects.toThrow(/edits\[0\] and edits\[1\] overlap.*merge/s);
		expect(await read()).toBe("abc def ghi\n");
	});

	it("refuses edits that change nothing", async () => {
		const { edit } = await setup("same\n");
		await expect(edit([{ oldText: "same", newText: "same" }])).rejects.toThrow(/unchanged/);
	});

	it("applies all or nothing", async () => {
		const { edit, read } = await setup("keep me\nand me\n");
		const error = await edit([
			{ oldText: "keep me", newText: "changed" },
			{ oldText: "not there", newText: "?" },
		]).catch((e: Error) => e);
		expect((error as Error).message).toMatch(/No edits were applied.*edits\[1\]\.oldText was not found/s);
		expect(await read()).toBe("keep me\nand me\n");
	});

	it("explains a missing file and refuses non-UTF-8 files", async () => {
		const { tool } = await setup(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), "latin1.txt");
		await expect(tool.execute("1", { path: "missing.txt", edits: [{ oldText: "a", newText: "b" }] })).rejects.toThrow(
			/File not found: missing.txt.*use write/s,
		);
		await expect(tool.execute("1", { path: "latin1.txt", edits: [{ oldText: "caf", newText: "tea" }] })).rejects.toThrow(/not valid UTF-8/);
	});
});

describe("edit tool: tolerant matching", () => {
	it("matches straight quotes against curly ones and leaves other lines' bytes alone", async () => {
		const { edit, read } = await setup("const a = “quoted”;\nconst b = ‘single’;\nconst c = “other”;\n");
		const result = await edit([{ oldText: `const b = 'single';`, newText: `const b = 'changed';` }]);
		expect(await read()).toBe("const a = “quoted”;\nconst b = 'changed';\nconst c = “other”;\n");
		expect(result.details.tolerantMatches).toBe(1);
	});

	it("ignores trailing whitespace", async () => {
		const { edit, read } = await setup("if (x) {   \n\tgo();\t\n}\nnext  \n");
		await edit([{ oldText: "if (x) {\n\tgo();\n}", newText: "if (y) {\n\tstop();\n}" }]);
		expect(await read()).toBe("if (y) {\n\tstop();\n}\nnext  \n");
	});

	it("treats Unicode dashes and non-breaking spaces as their plain forms", async () => {
		const { edit, read } = await setup("range 1–5 — done\nprice:\u00A010\u202F€\n");
		await edit([
			{ oldText: "range 1-5 - done", newText: "range 1-9" },
			{ oldText: "price: 10 €", newText: "price: 12 €" },
		]);
		expect(await read()).toBe("range 1-9\nprice: 12 €\n");
	});

	it("matches across Unicode normalisation forms (NFKC)", async () => {
		const { edit, read } = await setup("caf\u00E9 = 1\nﬁle = 2\n");
		await edit([
			{ oldText: "cafe\u0301 = 1", newText: "tea = 1" },
			{ oldText: "file = 2", newText: "doc = 2" },
		]);
		expect(await read()).toBe("tea = 1\ndoc = 2\n");
	});

	it("prefers an exact match and still refuses tolerant ambiguity", async () => {
		const { edit } = await setup("say “yo”\nsay „yo“\nsay 'yo'\n");
		await expect(edit([{ oldText: 'say "yo"', newText: "x" }])).rejects.toThrow(/matches 2 places/);
		const { edit: edit2, read } = await setup("say “hi”\nsay \"hi\"\n");
		await edit2([{ oldText: 'say "hi"', newText: "said" }]);
		expect(await read()).toBe("say “hi”\nsaid\n");
	});
});

describe("edit tool: line endings and BOM", () => {
	it("keeps a CRLF file CRLF when oldText and newText use LF", async () => {
		const { edit, file } = await setup("one\r\ntwo\r\nthree\r\n");
		const result = await edit([{ oldText: "one\ntwo", newText: "uno\ndos\nplus" }]);
		expect(await fs.readFile(file, "latin1")).toBe("uno\r\ndos\r\nplus\r\nthree\r\n");
		expect(result.details.diff).not.toContain("\r");
		expect(result.details.firstChangedLine).toBe(1);
	});

	it("does not touch the bytes of lines outside the edit in a mixed-ending file", async () => {
		const { edit, file } = await setup("a\r\nb\r\nc\nd\r\n");
		await edit([{ oldText: "b", newText: "B" }]);
		expect(await fs.readFile(file, "latin1")).toBe("a\r\nB\r\nc\nd\r\n");
	});

	it("preserves a UTF-8 BOM", async () => {
		const { edit, file } = await setup("\uFEFFhello\nworld\n");
		const result = await edit([{ oldText: "hello", newText: "hi" }]);
		const bytes = await fs.readFile(file);
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
		expect(bytes.subarray(3).toString("utf8")).toBe("hi\nworld\n");
		expect(result.details.firstChangedLine).toBe(1);
	});

	it("keeps the file mode and leaves no temporary file", async () => {
		const { edit, file, dir } = await setup("x\n", "tool.sh");
		await fs.chmod(file, 0o700);
		await edit([{ oldText: "x", newText: "y" }]);
		expect((await fs.stat(file)).mode & 0o777).toBe(0o700);
		expect(await fs.readdir(dir)).toEqual(["tool.sh"]);
	});
});

describe("edit tool: arguments", () => {
	it("accepts the legacy flat form", () => {
		expect(prepareEditArguments({ path: "a", oldText: "x", newText: "y" })).toEqual({ path: "a", edits: [{ oldText: "x", newText: "y" }] });
	});

	it("accepts edits sent as a JSON string", () => {
		const edits = [{ oldText: "x", newText: "y" }];
		expect(prepareEditArguments({ path: "a", edits: JSON.stringify(edits) })).toEqual({ path: "a", edits });
	});

	it("leaves other shapes for validation to reject", () => {
		expect(prepareEditArguments({ path: "a", edits: "not json" })).toEqual({ path: "a", edits: "not json" });
		expect(prepareEditArguments("nonsense")).toBe("nonsense");
	});

	it("rejects malformed edits with a readable error, before touching the file", async () => {
		const { tool, read } = await setup("x\n");
		const call = (edits: unknown) => tool.execute("1", { path: "file.txt", edits } as never);
		await expect(call([])).rejects.toThrow(/non-empty array/);
		await expect(call([{ oldText: "x" }])).rejects.toThrow(/edits\[0\] must have string oldText and newText/);
		expect(await read()).toBe("x\n");
	});

	it("runs an edit given in the legacy form end to end", async () => {
		const { tool, read } = await setup("old\n");
		const args = prepareEditArguments({ path: "file.txt", oldText: "old", newText: "new" }) as { path: string; edits: { oldText: string; newText: string }[] };
		await tool.execute("1", args);
		expect(await read()).toBe("new\n");
	});
});

describe("edit tool: concurrency", () => {
	it("keeps all of 20 parallel edits to distinct markers in one file", async () => {
		const markers = Array.from({ length: 20 }, (_, i) => `marker-${i}`);
		const { tool, read } = await setup(`${markers.join("\n")}\n`);
		await Promise.all(
			markers.map((marker, i) => tool.execute(String(i), { path: "file.txt", edits: [{ oldText: `${marker}\n`, newText: `done-${i}\n` }] })),
		);
		expect(await read()).toBe(`${markers.map((_, i) => `done-${i}`).join("\n")}\n`);
	});
});
