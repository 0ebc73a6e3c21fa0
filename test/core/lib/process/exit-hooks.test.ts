// What must happen when loom exits hangs on one "exit" listener, whatever registers it and however often.
import { describe, expect, it } from "vitest";
import { onProcessExit, runExitHooks } from "../../../../src/core/lib/process/index.js";

describe("exit hooks", () => {
	it("add one exit listener to the process for every hook, however often each is registered", () => {
		const before = process.listeners("exit").length;
		const removers = [() => {}, () => {}, () => {}].map((hook) => [onProcessExit(hook), onProcessExit(hook)]).flat();
		expect(process.listeners("exit").length - before).toBeLessThanOrEqual(1);
		expect(process.listeners("exit")).toContain(runExitHooks);
		for (const remove of removers) remove();
	});

	it("run each hook once, in the order registered, past one that throws; unregistered hooks do not run", () => {
		const ran: string[] = [];
		const first = () => ran.push("first");
		const removers = [
			onProcessExit(first),
			onProcessExit(() => {
				throw new Error("broken hook");
			}),
			onProcessExit(() => ran.push("second")),
			onProcessExit(first),
		];
		const gone = onProcessExit(() => ran.push("gone"));
		gone();
		runExitHooks();
		expect(ran).toEqual(["first", "second"]);
		for (const remove of removers) remove();
	});
});
