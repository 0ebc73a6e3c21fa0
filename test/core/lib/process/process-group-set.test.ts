// Process groups: real shells in groups of their own, ended TERM then KILL, all of a set at once, and forgotten
// once gone. What must happen when loom exits hangs on one "exit" listener, whatever registers it and however often.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive, isGroupAlive, onProcessExit, ProcessGroupSet, runExitHooks } from "../../../../src/core/lib/process/index.js";
import { waitFor } from "../../../support/wait-for.js";

const started: ChildProcess[] = [];

/** A shell in a group of its own that starts a background job (both ignore SIGTERM when `ignoreTerm`). */
function group(ignoreTerm = false): number {
	return shell(ignoreTerm).pid!;
}

function shell(ignoreTerm = false): ChildProcess {
	const trap = ignoreTerm ? "trap '' TERM; " : "";
	const child = spawn("sh", ["-c", `${trap}sleep 60 & echo ready; ${trap}sleep 60; wait`], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
	started.push(child);
	return child;
}

/** Resolves once the shell has set its trap and started its job. */
function ready(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => child.stdout!.once("data", () => resolve()));
}

/** When the shell ended, and by which signal. */
function ending(child: ChildProcess): Promise<{ signal: NodeJS.Signals | null; at: number }> {
	return new Promise((resolve) => child.once("exit", (_code, signal) => resolve({ signal, at: Date.now() })));
}

afterEach(() => {
	for (const child of started.splice(0)) {
		try {
			process.kill(-child.pid!, "SIGKILL");
		} catch {}
	}
});

describe("isAlive", () => {
	it("tells a running process from one that ended, and takes no pid for a process", () => {
		expect(isAlive(process.pid)).toBe(true);
		expect(isAlive(spawnSync("true").pid)).toBe(false);
		// Not ours to signal (EPERM) unless the tests run as root: alive either way.
		expect(isAlive(1)).toBe(true);
		expect(isAlive(0)).toBe(false);
		expect(isAlive(-1)).toBe(false);
	});
});

describe("ProcessGroupSet", () => {
	it("kills every group it tracks, and only those, at once", async () => {
		const [mine, other] = [group(), group()];
		const set = new ProcessGroupSet();
		set.track(mine);
		set.killAll();
		expect(await waitFor(() => !isGroupAlive(mine))).toBe(true);
		expect(isGroupAlive(other)).toBe(true);
		expect(set.tracked()).toEqual([]);
	});

	it("terminates a group with SIGTERM, then SIGKILL after the grace when it ignores the first", async () => {
		const [polite, stubborn] = [shell(), shell(true)];
		const [politeEnd, stubbornEnd] = [ending(polite), ending(stubborn)];
		await Promise.all([ready(polite), ready(stubborn)]);
		const set = new ProcessGroupSet();
		set.track(polite.pid!);
		set.track(stubborn.pid!);
		const startedAt = Date.now();
		set.terminate(polite.pid!, 60_000);
		set.terminate(stubborn.pid!, 1000);
		expect((await politeEnd).signal).toBe("SIGTERM");
		const killed = await stubbornEnd;
		expect(killed.signal).toBe("SIGKILL");
		expect(killed.at - startedAt).toBeGreaterThanOrEqual(1000);
		expect(await waitFor(() => !isGroupAlive(polite.pid!) && !isGroupAlive(stubborn.pid!))).toBe(true);
		expect(set.tracked()).toEqual([polite.pid!]);
		set.release(polite.pid!);
		expect(set.tracked()).toEqual([]);
	});

	it("keeps a group tracked while a process of it runs, and forgets it once gone", async () => {
		const pgid = group();
		const set = new ProcessGroupSet();
		set.track(pgid);
		set.release(pgid);
		expect(set.tracked()).toEqual([pgid]);
		process.kill(-pgid, "SIGKILL");
		await waitFor(() => !isGroupAlive(pgid));
		set.release(pgid);
		expect(set.tracked()).toEqual([]);
	});

	it("tracks its groups in the set it is within too; killing either ends them and both forget them", async () => {
		const all = new ProcessGroupSet();
		const session = new ProcessGroupSet(all);
		const [first, second] = [group(), group()];
		session.track(first);
		session.track(second);
		expect(all.tracked()).toEqual([first, second]);
		session.kill(first);
		expect(all.tracked()).toEqual([second]);
		all.killAll();
		expect(await waitFor(() => !isGroupAlive(first) && !isGroupAlive(second))).toBe(true);
		expect(all.tracked()).toEqual([]);
	});
});

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
