// The screen's wait for a prompt typed ahead of it (screenMayLoad): it loads once the prompt's request is written,
// once the prompt's run is over, or after the fallback, whichever comes first, and never before.
import { describe, expect, it } from "vitest";
import { screenMayLoad } from "../../src/cli/early-prompt.js";

const LONG = 60_000;

/** A session whose model requests the test announces, and a prompt whose end the test decides. */
function fixture() {
	let announce = () => {};
	let listeners = 0;
	const session = {
		onModelRequest(listener: () => void) {
			listeners++;
			announce = listener;
			return () => {
				listeners--;
				announce = () => {};
			};
		},
	};
	let end: (error?: Error) => void = () => {};
	const done = new Promise<void>((resolve, reject) => (end = (error) => (error ? reject(error) : resolve())));
	return { session, early: { done }, request: () => announce(), end, listeners: () => listeners };
}

/** Whether `promise` has settled once every callback queued so far (timers of 0 ms included) has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let state = false;
	void promise.then(() => (state = true));
	await new Promise((resolve) => setTimeout(resolve, 0));
	await new Promise((resolve) => setImmediate(resolve));
	return state;
}

describe("screenMayLoad", () => {
	it("waits while the prompt's request is being built, and lets the screen load once it is written", async () => {
		const { session, early, request, listeners } = fixture();
		const allowed = screenMayLoad(session, early, LONG);
		expect(await settled(allowed)).toBe(false);
		request();
		expect(await settled(allowed)).toBe(true);
		expect(listeners()).toBe(0);
	});

	it("lets the screen load when the prompt's run ends without a request, failed or not", async () => {
		for (const error of [undefined, new Error("could not start")]) {
			const { session, early, end, listeners } = fixture();
			const allowed = screenMayLoad(session, early, LONG);
			expect(await settled(allowed)).toBe(false);
			end(error);
			expect(await settled(allowed)).toBe(true);
			expect(listeners()).toBe(0);
		}
	});

	it("lets the screen load after the fallback when the prompt waits before it sends", async () => {
		const { session, early, listeners } = fixture();
		const allowed = screenMayLoad(session, early, 1);
		await allowed;
		expect(listeners()).toBe(0);
	});
});
