import { describe, expect, it } from "vitest";
import {
	buildSummaryPrompt,
	collectFileOperations,
	formatFileLists,
	serializeConversation,
	splitFileLists,
} from "../../../../src/core/session/compaction/index.js";
import { builtinTools } from "../../../support/builtin-tools.js";
import { assistant, call, result, user } from "./fixtures.js";

const older = [
	user("Add a --verbose flag to the CLI"),
	assistant("I will look at the argument parser.", [call("c1", "read", { path: "src/cli/args.ts" })]),
	result("c1", "read", `export function parseArgs() {}\n${"L".repeat(10_000)}TAIL_OF_FILE`),
	assistant("", [call("c2", "edit", { path: "src/cli/args.ts", edits: [{ oldText: "a", newText: "b" }] }), call("c3", "write", { path: "src/new.ts", content: "x" })]),
	result("c2", "edit", "Edited src/cli/args.ts"),
	result("c3", "write", "Could not write src/new.ts: EACCES", true),
	assistant("Added the flag; tests pass."),
];

describe("buildSummaryPrompt", () => {
	it("contains the older messages as text, with long tool results truncated", () => {
		const prompt = buildSummaryPrompt(older);
		expect(prompt).toContain("[User]: Add a --verbose flag to the CLI");
		expect(prompt).toContain("[Assistant]: I will look at the argument parser.");
		expect(prompt).toContain('[Assistant tool call read]: {"path":"src/cli/args.ts"}');
		expect(prompt).toContain("[Tool result read]: export function parseArgs() {}");
		expect(prompt).not.toContain("TAIL_OF_FILE");
		expect(prompt).toMatch(/more characters left out/);
		expect(prompt).toContain("[Tool error write]: Could not write src/new.ts: EACCES");
		expect(prompt).toContain("[Assistant]: Added the flag; tests pass.");
		expect(prompt.length).toBeLessThan(6000);
	});

	it("asks for the structured sections", () => {
		const prompt = buildSummaryPrompt(older);
		for (const heading of ["## Goal", "## Constraints & preferences", "## Progress", "### Done", "### In progress", "### Blocked", "## Key decisions", "## Next steps"]) {
			expect(prompt).toContain(heading);
		}
		expect(prompt).not.toContain("<previous-summary>");
	});

	it("builds on a previous summary (without its appended file lists) and adds the user's instructions", () => {
		const previous = `## Goal\nRefactor the parser\n\n${formatFileLists({ read: new Set(["old.ts"]), modified: new Set() })}`;
		const prompt = buildSummaryPrompt(older, previous, "  Focus on the CLI flags.  ");
		expect(prompt).toContain("<previous-summary>\n## Goal\nRefactor the parser\n</previous-summary>");
		expect(prompt).not.toContain("old.ts");
		expect(prompt).toMatch(/updated summary that builds on the previous one/);
		expect(prompt.indexOf("<previous-summary>")).toBeLessThan(prompt.indexOf("<conversation>"));
		expect(prompt).toContain("Additional instructions from the user for this summary:\nFocus on the CLI flags.");
	});

	it("fits a huge conversation into maxChars, keeping its start and its end", () => {
		const many = Array.from({ length: 400 }, (_, i) => user(`message ${i} ${"w".repeat(500)}`));
		const text = serializeConversation(many, { maxChars: 20_000 });
		expect(text.length).toBeLessThanOrEqual(20_000);
		expect(text).toContain("message 0 ");
		expect(text).toContain("message 399 ");
		expect(text).toMatch(/\[… \d+ messages left out to fit the summariser's context …\]/);
	});
});

describe("file lists", () => {
	it("come from successful read, edit and write calls only", () => {
		const operations = collectFileOperations(older, builtinTools);
		expect([...operations.read]).toEqual(["src/cli/args.ts"]);
		expect([...operations.modified]).toEqual(["src/cli/args.ts"]);
		expect(formatFileLists(operations)).toBe("## Files read\n- (none)\n\n## Files modified\n- src/cli/args.ts");
	});

	it("round-trip through a summary, so the next compaction merges them exactly", () => {
		const summary = `## Goal\nx\n\n${formatFileLists({ read: new Set(["b.ts", "a.ts"]), modified: new Set(["c.ts"]) })}`;
		const { body, operations } = splitFileLists(summary);
		expect(body).toBe("## Goal\nx");
		expect([...operations.read].sort()).toEqual(["a.ts", "b.ts"]);
		expect([...operations.modified]).toEqual(["c.ts"]);
		expect(splitFileLists("no lists here").body).toBe("no lists here");
	});
});
