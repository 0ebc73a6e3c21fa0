// The sandbox's launcher probe runs in the background while a session is assembled, so the first command does
// not wait on a synchronous bubblewrap start; its answer is the one the synchronous probe gives.
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { describe, expect, it, vi } from "vitest";
import { findLauncher, launcherKnown, preloadLauncher } from "../../../src/plugs/sandbox/launcher-probe.js";
import { waitFor } from "../../support/wait-for.js";

describe.skipIf(process.platform !== "linux")("preloading the sandbox launcher", () => {
	it("probes in the background, after which finding the launcher starts no process", async () => {
		// A PATH of its own: the probe is once per process and PATH.
		const path = `${process.env.PATH}:/nonexistent-preload-test`;
		expect(launcherKnown(path)).toBe(false);
		preloadLauncher(path);
		await waitFor(() => launcherKnown(path));
		// Every spawnSync, named imports included, is seen.
		const spawnSync = vi.spyOn(childProcess, "spawnSync");
		syncBuiltinESMExports();
		const launcher = findLauncher(path);
		const other = findLauncher(`${process.env.PATH}:/nonexistent-sync-test`);
		expect(spawnSync).toHaveBeenCalledTimes(1);
		spawnSync.mockRestore();
		syncBuiltinESMExports();
		// Only the other PATH's synchronous probe ran, and it gives the same answer.
		expect(launcher.kind).toBe(other.kind);
	});
});
