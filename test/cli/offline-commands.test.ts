// --export and --prune-checkpoints, in-process through the CLI's I/O seam: neither needs a model or a process.
// The end-to-end runs that record checkpoints and export what a real run wrote are in undo.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../src/core/session/index.js";
import { assistant, toolResult, user } from "../core/session/session-fixtures.js";
import { runLoomInProcess as runLoom } from "../support/loom-in-process.js";
import { workspace } from "../support/temp-dir.js";

describe("--prune-checkpoints", () => {
	it("runs on its own", async () => {
		const ws = workspace();
		expect((await runLoom(["--prune-checkpoints", "--continue"], ws)).stderr).toContain("--prune-checkpoints runs on its own: it cannot be combined with --continue.");
		expect((await runLoom(["--prune-checkpoints", "soon"], ws)).stderr).toContain("must be a number of days");
		expect((await runLoom(["--prune-checkpoints", "3", "hello"], ws)).stderr).toContain("--prune-checkpoints takes no prompt.");
	});
});

describe("--export", () => {
	it("shows every built-in tool's calls as the tool describes them, grep, find and ls included", async () => {
		const ws = workspace();
		const store = SessionStore.create({ home: ws.home, cwd: ws.cwd });
		store.append({ type: "message", message: user("find the TODOs") });
		const call = { ...assistant(""), content: [{ type: "toolCall" as const, id: "g1", name: "grep", arguments: { pattern: "TODO", path: "src" } }], stopReason: "toolUse" as const };
		store.append({ type: "message", message: call });
		store.append({ type: "message", message: { ...toolResult("src/a.ts:1: TODO"), toolCallId: "g1", toolName: "grep" } });
		store.close();
		expect((await runLoom(["--export", store.id, "page.html"], ws)).code).toBe(0);
		const html = readFileSync(join(ws.cwd, "page.html"), "utf8");
		expect(html).toContain("/TODO/ in src");
	});

	it("exports the current branch of a session that branched, and says how many others the file holds", async () => {
		const ws = workspace();
		const store = SessionStore.create({ home: ws.home, cwd: ws.cwd });
		const exchange = (question: string) => {
			const prompt = store.append({ type: "message", message: user(question) });
			store.append({ type: "message", message: assistant(`answer to ${question}`) });
			return prompt;
		};
		exchange("first question");
		const left = exchange("question left behind");
		store.branch(left.parentId);
		exchange("question asked instead");
		store.close();
		const page = async () => {
			expect((await runLoom(["--export", store.id, "page.html"], ws)).code).toBe(0);
			return readFileSync(join(ws.cwd, "page.html"), "utf8");
		};

		let html = await page();
		expect(html).toContain("question asked instead");
		expect(html).not.toContain("question left behind");
		expect(html).toContain("<dt>Branch</dt><dd>the current one; the session holds 1 other (/tree in loom switches to it)</dd>");

		// Right after a rewind, the current branch is the conversation before the prompt rewound to.
		const reopened = await SessionStore.open(store.file!);
		reopened.branch(left.parentId);
		reopened.close();
		html = await page();
		expect(html).toContain("first question");
		expect(html).not.toContain("question left behind");
		expect(html).not.toContain("question asked instead");
		expect(html).toContain("the session holds 2 others");
	});

	it("says which session it cannot find", async () => {
		const ws = workspace();
		const result = await runLoom(["--export", "nosuch"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/nosuch/);
	});
});
