// The short lock shared files are changed under: one holder at a time, a lock left by a holder that died is
// taken over once stale, and a holder that lost its lock so does not remove the next holder's.
import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STALE_LOCK_MS, takeShortLock } from "../../../../src/core/lib/files/short-lock.js";
import { tempDir } from "../../../support/temp-dir.js";

function age(path: string, ms: number): void {
	const then = new Date(Date.now() - ms);
	utimesSync(path, then, then);
}

describe("the short lock", () => {
	it("has one holder at a time, and is free again once released", () => {
		const lock = join(tempDir(), "file.lock");
		const release = takeShortLock(lock, 0);
		expect(release).toBeDefined();
		expect(takeShortLock(lock, 20)).toBeUndefined();
		release!();
		expect(existsSync(lock)).toBe(false);
		expect(takeShortLock(lock, 0)).toBeDefined();
	});

	it("takes over a lock whose holder cannot be told apart from a live one, once it is stale", () => {
		const lock = join(tempDir(), "file.lock");
		// A live process of this machine (this one), or a lock whose holder is not written in it.
		writeFileSync(lock, `${process.pid} ${hostname()} someone\n`);
		age(lock, STALE_LOCK_MS - 2000);
		expect(takeShortLock(lock, 0)).toBeUndefined();
		age(lock, STALE_LOCK_MS + 1000);
		expect(takeShortLock(lock, 0)).toBeDefined();
	});

	it("takes over at once a lock whose holder, on this machine, is gone", () => {
		const lock = join(tempDir(), "file.lock");
		writeFileSync(lock, `999999999 ${hostname()} crashed\n`);
		const started = Date.now();
		const release = takeShortLock(lock, 2000);
		expect(release).toBeDefined();
		expect(Date.now() - started).toBeLessThan(1000);
		release!();
		expect(existsSync(lock)).toBe(false);
	});

	it("is not removed by a holder whose lock was taken over meanwhile", () => {
		const lock = join(tempDir(), "file.lock");
		const slow = takeShortLock(lock, 0)!;
		age(lock, STALE_LOCK_MS + 1000);
		const next = takeShortLock(lock, 0);
		expect(next).toBeDefined();
		slow();
		expect(existsSync(lock)).toBe(true);
		next!();
		expect(existsSync(lock)).toBe(false);
	});

	it("gives no lock where none can be made", () => {
		expect(takeShortLock(join(tempDir(), "missing", "file.lock"), 0)).toBeUndefined();
	});
});
