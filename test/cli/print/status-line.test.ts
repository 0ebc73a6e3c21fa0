// The text-mode status line on a terminal-like stream: what it says, and that it leaves nothing behind.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { StatusLine } from "../../../src/cli/print/status-line.js";
import type { SessionEvent } from "../../../src/core/session/session-events.js";
import { ToolCallStates } from "../../../src/core/session/tool-calls.js";

/** A status line reading the tool-call states a session keeps, fed the same events as the line. */
function statusLine(stream: NodeJS.WriteStream) {
	const calls = new ToolCallStates(() => []);
	const status = new StatusLine(stream, () => calls.all);
	const update = status.update.bind(status);
	status.update = (event: SessionEvent) => {
		calls.reduce(event);
		update(event);
	};
	return status;
}

function fakeTerminal(columns = 120) {
	const stream = new PassThrough() as PassThrough & { isTTY: boolean; columns: number };
	stream.isTTY = true;
	stream.columns = columns;
	let written = "";
	stream.on("data", (chunk) => (written += chunk.toString()));
	return { stream, written: () => written };
}

/** The line as the terminal shows it now: the text after the last line erase. */
function visible(written: string): string {
	return written.split("\r\x1b[2K").at(-1)!;
}

describe("StatusLine", () => {
	it("shows what is happening, the running tools, retries, and erases itself at the end", async () => {
		const terminal = fakeTerminal();
		const status = statusLine(terminal.stream as unknown as NodeJS.WriteStream);
		status.start();
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/waiting for the model · \d+\.\ds$/);

		status.update({ type: "tool_execution_start", toolCallId: "1", toolName: "bash", args: {} });
		status.update({ type: "tool_execution_start", toolCallId: "2", toolName: "bash", args: {} });
		status.update({ type: "tool_execution_start", toolCallId: "3", toolName: "read", args: {} });
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/running bash ×2, read · /);

		status.update({ type: "tool_execution_end", toolCallId: "1", toolName: "bash", result: { content: [], details: {} }, isError: false });
		status.update({ type: "tool_execution_end", toolCallId: "2", toolName: "bash", result: { content: [], details: {} }, isError: false });
		status.update({ type: "tool_execution_end", toolCallId: "3", toolName: "read", result: { content: [], details: {} }, isError: false });
		status.update({ type: "retry_scheduled", attempt: 2, maxRetries: 3, delayMs: 4000, reason: "HTTP 529 overloaded" });
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/HTTP 529 overloaded; retry 2\/3 in 4s$/);

		status.stop();
		await new Promise((r) => setImmediate(r));
		expect(terminal.written().endsWith("\r\x1b[2K")).toBe(true);
	});

	it("reads the session's call states: a call waiting for approval says so, an ended one is gone", async () => {
		const terminal = fakeTerminal();
		const status = statusLine(terminal.stream as unknown as NodeJS.WriteStream);
		status.start();
		status.update({ type: "tool_execution_start", toolCallId: "1", toolName: "bash", args: {} });
		status.update({ type: "tool_approval_requested", toolCallId: "1", toolName: "bash" });
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/running bash \(waiting for approval\) · /);
		status.update({ type: "tool_approval_resolved", toolCallId: "1", toolName: "bash", outcome: "denied" });
		status.update({ type: "tool_execution_end", toolCallId: "1", toolName: "bash", result: { content: [], details: {} }, isError: true });
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/^. waiting for the model · /);
		status.stop();
	});

	it("shows a tool's name with its control characters written out, and a retry's reason without escape sequences", async () => {
		const terminal = fakeTerminal();
		const status = statusLine(terminal.stream as unknown as NodeJS.WriteStream);
		status.start();
		status.update({ type: "tool_execution_start", toolCallId: "1", toolName: "evil\x1b]2;title\x07", args: {} });
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/running evil\\x1b\]2;title\\x07 · /);
		status.update({ type: "tool_execution_end", toolCallId: "1", toolName: "evil", result: { content: [], details: {} }, isError: false });
		status.update({ type: "retry_scheduled", attempt: 1, maxRetries: 3, delayMs: 1000, reason: "quota\x1b]52;c;UFdORUQ=\x07\nexceeded" });
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/ · quota exceeded; retry 1\/3 in 1s$/);
		status.stop();
		// Only the status line's own erase sequences reach the terminal.
		expect(terminal.written().replaceAll("\r\x1b[2K", "")).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
	});

	it("after the tools of a turn end, says it waits for the model again, not what the model did before them", async () => {
		const terminal = fakeTerminal();
		const status = statusLine(terminal.stream as unknown as NodeJS.WriteStream);
		status.start();
		const partial = {} as never;
		status.update({ type: "message_update", message: partial, assistantMessageEvent: { type: "toolcall_delta", contentIndex: 0, delta: "{", partial } });
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/preparing a tool call/);
		status.update({ type: "tool_execution_start", toolCallId: "1", toolName: "bash", args: {} });
		status.update({ type: "tool_execution_end", toolCallId: "1", toolName: "bash", result: { content: [], details: {} }, isError: false });
		await new Promise((r) => setImmediate(r));
		expect(visible(terminal.written())).toMatch(/waiting for the model · /);
		status.stop();
	});

	it("never draws wider than the terminal", async () => {
		const terminal = fakeTerminal(30);
		const status = statusLine(terminal.stream as unknown as NodeJS.WriteStream);
		status.start();
		status.update({ type: "retry_scheduled", attempt: 1, maxRetries: 3, delayMs: 1000, reason: "a very long reason ".repeat(5) });
		await new Promise((r) => setImmediate(r));
		expect([...visible(terminal.written())].length).toBeLessThan(30);
		status.stop();
	});
});
