// Typing re-renders only the editor, and a stream is rendered at a bounded rate (a fast one at a lower one).
import { render } from "ink";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Text } from "ink";
import { FAST_STREAM_INTERVAL_MS, RENDER_INTERVAL_MS } from "../../src/tui/screen/frame-pacing.js";
import { useSessionView } from "../../src/tui/hooks/use-session-view.js";
import { initialView } from "../../src/tui/transcript/view-model.js";
import { sleep, waitFor } from "../support/wait-for.js";
import { textDelta, assistant } from "./events.js";
import { FakeSession } from "./fake-session.js";
import { typeKeys, waitForFrame } from "./render-helpers.js";
import { TestStdin, TestStdout } from "./terminal-streams.js";

const footerRenders = vi.hoisted(() => ({ count: 0 }));

vi.mock("../../src/tui/components/Footer.js", async (importOriginal) => {
	const original = await importOriginal<typeof import("../../src/tui/components/Footer.js")>();
	return {
		...original,
		Footer: (props: Parameters<typeof original.Footer>[0]) => {
			footerRenders.count++;
			return original.Footer(props);
		},
	};
});

const { App } = await import("../../src/tui/components/App.js");

const unmounts: Array<() => void> = [];
afterEach(() => {
	for (const unmount of unmounts.splice(0)) unmount();
});

function mount(session: FakeSession) {
	const stdout = new TestStdout(80, 30);
	const stdin = new TestStdin();
	const instance = render(<App session={session} inputActive onExit={() => {}} />, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	unmounts.push(() => instance.unmount());
	return { stdout, stdin };
}

describe("render cost", () => {
	it("typing re-renders the editor, not the rest of the screen", async () => {
		const { stdout, stdin } = mount(new FakeSession());
		await waitForFrame(stdout.lastFrame, (f) => f.includes("ready"));
		await sleep(50);
		const before = footerRenders.count;
		await typeKeys(stdin, ..."a fairly long prompt typed key by key");
		await waitForFrame(stdout.lastFrame, (f) => f.includes("typed key by key"));
		expect(footerRenders.count - before).toBe(0);
	});

	it("renders a burst of 2,000 stream events a bounded number of times", async () => {
		const session = new FakeSession();
		const { stdout } = mount(session);
		await waitForFrame(stdout.lastFrame, (f) => f.includes("ready"));
		const before = footerRenders.count;
		const started = Date.now();
		await session.emit({ type: "message_start", message: assistant([]) });
		for (let i = 0; i < 2000; i++) await session.emit(textDelta(`t${i} `));
		await waitForFrame(stdout.lastFrame, (f) => f.includes("t1999"));
		const elapsedMs = Date.now() - started;
		// About 30 renders a second at most (one per 33 ms window), plus a little slack for the last one.
		const renders = footerRenders.count - before;
		expect(renders).toBeGreaterThanOrEqual(1);
		expect(renders).toBeLessThanOrEqual(Math.ceil(elapsedMs / 33) + 2);
		expect(renders).toBeLessThan(200);
	});

	it("keeps a run's stream and its clock within one render per 33 ms window", async () => {
		const session = new FakeSession();
		const { stdout } = mount(session);
		await waitForFrame(stdout.lastFrame, (f) => f.includes("ready"));
		await session.emit({ type: "agent_start" });
		await session.emit({ type: "message_start", message: assistant([]) });
		await sleep(50);
		const before = footerRenders.count;
		const started = Date.now();
		// A steady stream while the spinner's clock ticks: the clock rides along with the stream's renders.
		for (let i = 0; Date.now() - started < 700; i++) {
			await session.emit(textDelta(`w${i} `));
			await sleep(5);
		}
		const elapsedMs = Date.now() - started;
		const renders = footerRenders.count - before;
		expect(renders).toBeGreaterThan(5);
		expect(renders).toBeLessThanOrEqual(Math.ceil(elapsedMs / 33) + 2);
	});

	it("draws a fast stream at about 12 frames a second, and one at reading speed at about 30", async () => {
		// The hook alone, under a component that costs nothing to draw: the count is the pacing's, not the machine's.
		async function framesFor(delta: (i: number) => string): Promise<{ renders: number; elapsedMs: number }> {
			const session = new FakeSession();
			let renders = 0;
			function Tail() {
				const { view } = useSessionView(session, () => initialView());
				renders++;
				return <Text>{String(view.activeAssistant?.tail.length ?? 0)}</Text>;
			}
			const stdout = new TestStdout(80, 10);
			const instance = render(<Tail />, { stdout: stdout as unknown as NodeJS.WriteStream, stdin: new TestStdin() as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false });
			unmounts.push(() => instance.unmount());
			const drawn = renders;
			await session.emit({ type: "message_start", message: assistant([]) });
			// The frame that shows the answer started is drawn before the stream is counted.
			await waitFor(() => renders, (count) => count > drawn);
			const before = renders;
			const started = Date.now();
			for (let i = 0; Date.now() - started < 1000; i++) {
				await session.emit(textDelta(delta(i)));
				await sleep(5);
			}
			return { renders: renders - before, elapsedMs: Date.now() - started };
		}
		// About 40,000 characters a second (10,000 tokens): far faster than anyone reads.
		const fast = await framesFor((i) => `f${i} ${"x".repeat(200)} `);
		expect(fast.renders).toBeGreaterThanOrEqual(3);
		expect(fast.renders).toBeLessThanOrEqual(Math.ceil(fast.elapsedMs / FAST_STREAM_INTERVAL_MS) + 2);
		// A few characters every 5 ms or more (under 1,000 a second): the usual rate.
		const slow = await framesFor((i) => `s${i % 10}`);
		expect(slow.renders).toBeGreaterThan(Math.ceil(slow.elapsedMs / FAST_STREAM_INTERVAL_MS) + 2);
		expect(slow.renders).toBeLessThanOrEqual(Math.ceil(slow.elapsedMs / RENDER_INTERVAL_MS) + 2);
	});
});
