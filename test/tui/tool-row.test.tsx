import chalk from "chalk";
import { render } from "ink-testing-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolRow } from "../../src/tui/components/ToolRow.js";
import { toolRowLines } from "../../src/tui/transcript/tool-row-text.js";
import type { ToolRunView } from "../../src/tui/transcript/view-model.js";
import { builtinTools } from "../support/builtin-tools.js";
import { linesWith, plain } from "./render-helpers.js";

const level = chalk.level;
beforeAll(() => {
	chalk.level = 1;
});
afterAll(() => {
	chalk.level = level;
});

function run(overrides: Partial<ToolRunView>): ToolRunView {
	return { id: "t1", name: "bash", status: "preparing", argsPreview: "npm test", startedAt: 10_000, ...overrides };
}

function frameOf(view: ToolRunView, now = 12_500, max = 8, width?: number) {
	const { lastFrame, unmount } = render(<ToolRow run={view} now={now} lines={toolRowLines(view, max, builtinTools)} live width={width} />);
	const frame = lastFrame() ?? "";
	unmount();
	return { raw: frame, text: plain(frame) };
}

describe("ToolRow", () => {
	it("preparing: a spinner, the tool name, the argument summary and the elapsed time", () => {
		const { text } = frameOf(run({}));
		expect(text.split("\n")).toHaveLength(1);
		expect(text).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] bash npm test preparing 2\.5s$/);
	});

	it("in 60 columns shortens a long argument summary and keeps the elapsed time", () => {
		const command = "npm run test -- --reporter verbose --coverage --watch=false packages/core packages/cli";
		const { text } = frameOf(run({ status: "running", argsPreview: command }), 12_500, 8, 60);
		const header = text.split("\n")[0]!;
		expect(header).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] bash npm run test -- --reporter .*… 2\.5s$/);
		expect(header.length).toBeLessThanOrEqual(60);
	});

	it("running bash: the last 5 lines of live output", () => {
		const progress = Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join("\n");
		const { text } = frameOf(run({ status: "running", progressText: progress }));
		const lines = text.split("\n");
		expect(lines[0]).toMatch(/bash npm test 2\.5s$/);
		expect(lines.slice(1).map((line) => line.trim())).toEqual(["line 5", "line 6", "line 7", "line 8", "line 9"]);
	});

	it("done bash: a check mark, the final duration and the exit status in green", () => {
		const { text, raw } = frameOf(run({ status: "done", resultText: "ok\nall passed", details: { exitCode: 0 }, endedAt: 11_000 }), 99_000);
		expect(text).toMatch(/^✓ bash npm test 1\.0s/);
		expect(text).toContain("all passed");
		expect(linesWith(raw, "exit 0")[0]).toContain("\u001b[32m");
	});

	it("failed bash: output and exit status in red with a cross", () => {
		const { text, raw } = frameOf(run({ status: "error", resultText: "Error: boom\nCommand exited with code 2", details: { exitCode: 2 }, endedAt: 13_000 }));
		expect(text).toMatch(/^✗ bash npm test 3\.0s/);
		expect(linesWith(raw, "Error: boom")[0]).toContain("\u001b[31m");
		expect(linesWith(raw, "exit 2")[0]).toContain("\u001b[31m");
	});

	it("bash that timed out or was killed says so, with the path of the full output", () => {
		expect(frameOf(run({ status: "error", resultText: "x", details: { timedOut: true }, endedAt: 11_000 })).text).toContain("timed out");
		expect(frameOf(run({ status: "error", resultText: "x", details: { signal: "SIGKILL" }, endedAt: 11_000 })).text).toContain("killed by SIGKILL");
		expect(frameOf(run({ status: "error", resultText: "x", details: { aborted: true }, endedAt: 11_000 })).text).toContain("interrupted");
		const truncated = frameOf(run({ status: "done", resultText: "x", details: { exitCode: 0, truncated: true, fullOutputPath: "/tmp/out.log" }, endedAt: 11_000 }));
		expect(truncated.text).toContain("exit 0 · full output: /tmp/out.log");
	});

	it("read: path with the range asked for, then how many lines were read, each fact once", () => {
		const asked = frameOf(run({ name: "read", argsPreview: "src/a.ts:1-120", args: { path: "src/a.ts", offset: 1, limit: 120 }, status: "done", resultText: "...", details: { startLine: 1, endLine: 120, totalLines: 300 }, endedAt: 10_400 }));
		expect(asked.text).toMatch(/^✓ read src\/a\.ts:1-120 0\.4s\n\s+read 120 lines of 300$/);
		// The whole file: its length once.
		const whole = frameOf(run({ name: "read", argsPreview: "a.ts", args: { path: "a.ts" }, status: "done", resultText: "...", details: { startLine: 1, endLine: 3, totalLines: 3 }, endedAt: 10_400 }));
		expect(whole.text).toMatch(/\n\s+read 3 lines$/);
		// Fewer lines than asked for, or a file cut short by the limits: which lines came back.
		const cut = frameOf(run({ name: "read", argsPreview: "big.ts", args: { path: "big.ts" }, status: "done", resultText: "...", details: { startLine: 1, endLine: 2000, totalLines: 5000 }, endedAt: 10_400 }));
		expect(cut.text).toMatch(/\n\s+read 2000 lines \(1-2000 of 5000\)$/);
		const short = frameOf(run({ name: "read", argsPreview: "a.ts:2-10", args: { path: "a.ts", offset: 2, limit: 9 }, status: "done", resultText: "...", details: { startLine: 2, endLine: 3, totalLines: 3 }, endedAt: 10_400 }));
		expect(short.text).toMatch(/\n\s+read 2 lines \(2-3 of 3\)$/);
	});

	it("read without details counts the lines of the result", () => {
		const { text } = frameOf(run({ name: "read", argsPreview: "a", status: "done", resultText: "a\nb\nc\n", endedAt: 10_400 }));
		expect(text).toContain("read 3 lines");
	});

	it("edit: the diff from its first hunk, added lines green and removed lines red", () => {
		const diff = "Index: x.ts\n===================================================================\n--- x.ts\n+++ x.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n";
		const { text, raw } = frameOf(run({ name: "edit", argsPreview: "x.ts", status: "done", resultText: "Edited x.ts", details: { diff, firstChangedLine: 2 }, endedAt: 10_100 }));
		expect(text.split("\n").map((line) => line.trimEnd())).toEqual(["✓ edit x.ts 0.1s", "  @@ -1,3 +1,3 @@", "   const a = 1;", "  -const b = 2;", "  +const b = 3;"]);
		expect(linesWith(raw, "+const b = 3;")[0]).toContain("\u001b[32m");
		expect(linesWith(raw, "-const b = 2;")[0]).toContain("\u001b[31m");
		expect(linesWith(raw, "@@ -1,3")[0]).toContain("\u001b[36m");
	});

	it("edit: a long diff is cut to the rows allowed, saying how many lines were left out", () => {
		const diff = Array.from({ length: 30 }, (_, i) => `+line ${i}`).join("\n");
		const { text } = frameOf(run({ name: "edit", argsPreview: "x.ts", status: "done", details: { diff }, endedAt: 10_100 }), 12_500, 5);
		const lines = text.split("\n");
		expect(lines).toHaveLength(6);
		expect(lines[5]).toContain("… 26 more lines");
	});

	it("write: the bytes written", () => {
		const { text } = frameOf(run({ name: "write", argsPreview: "out.txt", status: "done", resultText: "Wrote out.txt", details: { bytes: 2048 }, endedAt: 10_100 }));
		expect(text).toContain("✓ write out.txt");
		expect(text).toContain("wrote 2.0 KB");
	});

	it("error: the error text in red", () => {
		const { text, raw } = frameOf(run({ name: "frobnicate", argsPreview: '{"x":1}', status: "error", resultText: "Tool frobnicate not found", endedAt: 10_000 }));
		expect(text).toMatch(/^✗ frobnicate \{"x":1\} 0\.0s/);
		expect(linesWith(raw, "Tool frobnicate not found")[0]).toContain("\u001b[31m");
	});

	it("in the live area every line is one row, however long", () => {
		const { text } = frameOf(run({ status: "running", argsPreview: "x".repeat(300), progressText: "y".repeat(500) }));
		expect(text.split("\n")).toHaveLength(2);
	});
});
