// A prompt sent before the screen mounted (the CLI's typed-ahead prompt, sendEarly): the screen, mounted on the port
// sendEarly returns, shows the run as if its editor had sent it, whether the run is over or still streaming.
import { render } from "ink";
import { afterEach, describe, expect, it } from "vitest";
import { sendEarly } from "../../src/cli/early-prompt.js";
import { AgentSession } from "../../src/core/session/index.js";
import { App } from "../../src/tui/components/App.js";
import type { StartedPrompt } from "../../src/tui/index.js";
import { count } from "../support/tmux-terminal.js";
import { tempDir } from "../support/temp-dir.js";
import { scriptedSessionOptions } from "../support/scripted-session.js";
import { useScriptedServer } from "../support/use-scripted-server.js";
import { plain, screenOf, waitForFrame } from "./render-helpers.js";
import { TestStdin, TestStdout } from "./terminal-streams.js";

const server = useScriptedServer();
const cleanups: Array<() => void> = [];

afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function makeSession(): AgentSession {
	const session = new AgentSession(scriptedSessionOptions(server, tempDir(), tempDir(), { systemPrompt: "You are a test." }));
	cleanups.push(() => session.dispose());
	return session;
}

function mount(session: AgentSession, startedPrompt: StartedPrompt) {
	const stdout = new TestStdout(100, 40);
	const screen = screenOf(() => stdout.lastFrame());
	const instance = render(<App session={session} inputActive onExit={() => {}} print={screen.print} startedPrompt={startedPrompt} />, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: new TestStdin() as unknown as NodeJS.ReadStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	cleanups.unshift(() => instance.unmount());
	return { until: (check: (frame: string) => boolean) => waitForFrame(screen.frame, check, 15_000), frame: () => plain(screen.frame()) };
}

describe("a prompt sent before the screen mounted", () => {
	it("shows the prompt and its answer once when its run ended before the screen came, the totals counted once", async () => {
		server.enqueue({ text: "An early answer." });
		const session = makeSession();
		const early = sendEarly(session, "early words");
		await early.done;
		const totals = session.usageTotals;
		const { until, frame } = mount(early.session, early);
		await until((text) => text.includes("An early answer.") && text.includes("Ask loom"));
		expect(count(frame(), "› early words")).toBe(1);
		expect(count(frame(), "An early answer.")).toBe(1);
		expect(server.requests).toHaveLength(1);
		expect(session.usageTotals).toEqual(totals);
		// The footer's input tokens are the session's, not twice them.
		expect(frame()).toContain(`↑${totals.input}`);
	});

	it("shows a run still streaming when the screen comes, and its end", async () => {
		let release = () => {};
		const held = new Promise<void>((resolve) => (release = resolve));
		server.setResponder(async () => {
			await held;
			return { text: "A late answer." };
		});
		const session = makeSession();
		const early = sendEarly(session, "still running");
		await new Promise<void>((resolve) => {
			const stop = session.onModelRequest(() => {
				stop();
				resolve();
			});
		});
		const { until, frame } = mount(early.session, early);
		await until((text) => text.includes("› still running") && text.includes("Steer the run"));
		release();
		await until((text) => text.includes("A late answer.") && text.includes("Ask loom"));
		expect(count(frame(), "› still running")).toBe(1);
		expect(count(frame(), "A late answer.")).toBe(1);
		await early.done;
	});
});
