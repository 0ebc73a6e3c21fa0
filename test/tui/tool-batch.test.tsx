import { describe, expect, it } from "vitest";
import { assistant, toolCall, toolEnd, toolResultMessage, toolStart } from "./events.js";
import { FakeSession, type Script, gate } from "./fake-session.js";
import { mount } from "./mount-app.js";

const ENTER = "\r";
const SPINNER = "[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]";

/** The live row of `command`. */
function row(frame: string, command: string): string {
	return frame.split("\n").find((line) => line.includes(`bash ${command}`)) ?? "";
}

describe("a batch of tool calls on the screen", () => {
	it("shows every call of the batch as soon as the message ends, queued, then preparing, running and done, in the model's order", async () => {
		const steps = [gate(), gate(), gate(), gate()];
		const calls = [toolCall("c1", "bash", { command: "echo one" }), toolCall("c2", "bash", { command: "sleep 30 && echo x" }), toolCall("c3", "bash", { command: "echo three" })];
		const script: Script = () => [
			{ type: "turn_start" },
			{ type: "message_start", message: assistant([]) },
			{ type: "message_end", message: assistant([{ type: "text", text: "Three commands." }, ...calls], { stopReason: "toolUse" }) },
			() => steps[0]!.promise,
			toolStart("c1", "bash", { command: "echo one" }),
			{ type: "tool_execution_running", toolCallId: "c1", toolName: "bash" },
			toolEnd("c1", "bash", "one"),
			toolStart("c2", "bash", { command: "sleep 30 && echo x" }),
			() => steps[1]!.promise,
			{ type: "tool_execution_running", toolCallId: "c2", toolName: "bash" },
			() => steps[2]!.promise,
			toolEnd("c2", "bash", "x"),
			toolStart("c3", "bash", { command: "echo three" }),
			{ type: "tool_execution_running", toolCallId: "c3", toolName: "bash" },
			toolEnd("c3", "bash", "three"),
			...toolResultMessage("c1", "bash", "one"),
			...toolResultMessage("c2", "bash", "x"),
			...toolResultMessage("c3", "bash", "three"),
			() => steps[3]!.promise,
			{ type: "turn_end", message: assistant(""), toolResults: [] },
		];
		const screen = mount(new FakeSession(script));
		await screen.type("run three", ENTER);

		// The message ended: all three rows, queued, in the model's order.
		let frame = await screen.until((f) => f.includes("echo three"));
		for (const command of ["echo one", "sleep 30 && echo x", "echo three"]) expect(row(frame, command)).toMatch(new RegExp(`bash ${command.replace(/[.*&]/g, "\\$&")} queued$`));
		expect(frame.indexOf("echo one")).toBeLessThan(frame.indexOf("sleep 30"));
		expect(frame.indexOf("sleep 30")).toBeLessThan(frame.indexOf("echo three"));

		// Its turn came: preparing (validation, approval) until execute() begins.
		steps[0]!.open();
		frame = await screen.until((f) => /✓ bash echo one/.test(f) && / preparing /.test(row(f, "sleep 30 && echo x")));
		expect(row(frame, "sleep 30 && echo x")).toMatch(new RegExp(`^${SPINNER} bash sleep 30 && echo x preparing \\d+\\.\\ds$`));
		expect(row(frame, "echo three")).toMatch(/queued$/);

		// Running, though it prints nothing.
		steps[1]!.open();
		frame = await screen.until((f) => !/preparing/.test(row(f, "sleep 30 && echo x")));
		expect(row(frame, "sleep 30 && echo x")).toMatch(new RegExp(`^${SPINNER} bash sleep 30 && echo x \\d+\\.\\ds$`));

		steps[2]!.open();
		frame = await screen.until((f) => /✓ bash echo three/.test(f));
		expect(frame).toMatch(/✓ bash echo one[\s\S]*✓ bash sleep 30 && echo x[\s\S]*✓ bash echo three/);
		steps[3]!.open();
	});

	it("closes a queued call the run never reached as not run", async () => {
		const script: Script = () => [
			{ type: "turn_start" },
			{ type: "message_end", message: assistant([toolCall("c1", "bash", { command: "echo one" })], { stopReason: "toolUse" }) },
			{ type: "turn_end", message: assistant(""), toolResults: [] },
		];
		const screen = mount(new FakeSession(script));
		await screen.type("run it", ENTER);
		const frame = await screen.until((f) => f.includes("ready") && f.includes("echo one"));
		expect(frame).toMatch(/✗ bash echo one\n\s+Not run: the run ended before its turn\./);
	});
});
