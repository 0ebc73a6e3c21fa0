import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { runInteractive } from "../../src/tui/index.js";
import { waitFor } from "../support/wait-for.js";
import { FakeSession } from "./fake-session.js";
import { typeKeys } from "./render-helpers.js";
import { TestStdin, TestStdout } from "./terminal-streams.js";

function streams(stdinIsTTY = true) {
	const stdin = new TestStdin(stdinIsTTY);
	const stdout = new TestStdout(80, 24, true);
	const stderr = new TestStdout(80, 24, false);
	return {
		stdin,
		stdout,
		options: {
			stdin: stdin as unknown as NodeJS.ReadStream,
			stdout: stdout as unknown as NodeJS.WriteStream,
			stderr: stderr as unknown as NodeJS.WriteStream,
			patchConsole: false,
		},
		output: () => stripVTControlCharacters(stdout.frames.join("")),
	};
}

describe("runInteractive", () => {
	it("runs until /quit and resolves with exit code 0, leaving the terminal as it found it", async () => {
		const session = new FakeSession();
		const io = streams();
		const done = runInteractive(session, io.options);
		await waitFor(() => io.stdin.rawMode);
		await typeKeys(io.stdin, "/quit", "\r");
		expect(await done).toBe(0);
		expect(io.stdin.rawMode).toBe(false);
		expect(session.listenerCount).toBe(0);
		expect(io.stdout.frames[0]).toBe("\u001b[?2004h");
		expect(io.stdout.frames.join("")).toContain("\u001b[?2004l");
	});

	it("sends the initial prompt, shows the answer, and exits with Ctrl+D", async () => {
		const session = new FakeSession();
		const io = streams();
		const done = runInteractive(session, { ...io.options, initialPrompt: "hello there" });
		await waitFor(() => session.calls.prompts.length, (n) => n === 1);
		await waitFor(io.output, (out) => out.includes("echo: hello there"));
		await typeKeys(io.stdin, "\u0004");
		expect(await done).toBe(0);
		expect(session.calls.prompts).toEqual(["hello there"]);
	});

	it("exits with Ctrl+C pressed twice, the first interrupting a run in progress", async () => {
		const session = new FakeSession(() => [() => new Promise((resolve) => setTimeout(resolve, 60_000))]);
		const io = streams();
		let exited = false;
		const done = runInteractive(session, { ...io.options, initialPrompt: "long task" }).finally(() => (exited = true));
		await waitFor(() => session.calls.prompts.length, (n) => n === 1);
		// Once the screen shows the run: a Ctrl+C before that has no run to interrupt.
		await waitFor(io.output, (out) => out.includes("Working"));
		await typeKeys(io.stdin, "\u0003");
		await waitFor(() => session.calls.aborts, (n) => n === 1);
		expect(exited).toBe(false);
		await typeKeys(io.stdin, "\u0003");
		expect(await done).toBe(0);
	});

	it("without a terminal for input: runs the initial prompt and exits 0, or 1 when it cannot start", async () => {
		const ok = new FakeSession();
		expect(await runInteractive(ok, { ...streams(false).options, initialPrompt: "task" })).toBe(0);
		expect(ok.calls.prompts).toEqual(["task"]);
		const failing = new FakeSession();
		failing.promptError = new Error("No API key");
		expect(await runInteractive(failing, { ...streams(false).options, initialPrompt: "task" })).toBe(1);
	});

	it("without a terminal and without a prompt: says why and exits 2", async () => {
		const io = streams(false);
		expect(await runInteractive(new FakeSession(), io.options)).toBe(2);
		expect(io.output()).toContain("needs a terminal for input");
	});
});
