import v8 from "node:v8";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { withBaselineWasm } from "../../../src/core/lib/baseline-wasm.js";

let flags: string[] = [];
beforeEach(() => {
	flags = [];
	vi.spyOn(v8, "setFlagsFromString").mockImplementation((flag) => void flags.push(flag));
});
afterEach(() => vi.restoreAllMocks());

function deferred() {
	let resolve!: () => void;
	const promise = new Promise<void>((done) => (resolve = done));
	return { promise, resolve };
}

describe("withBaselineWasm", () => {
	it("keeps WebAssembly baseline while a load runs, and clears the flag when it settles, failed or not", async () => {
		await withBaselineWasm(async () => expect(flags).toEqual(["--liftoff-only"]));
		expect(flags).toEqual(["--liftoff-only", "--no-liftoff-only"]);
		await expect(withBaselineWasm(() => Promise.reject(new Error("no module")))).rejects.toThrow("no module");
		expect(flags.at(-1)).toBe("--no-liftoff-only");
	});

	it("clears the flag only once the last of overlapping loads settles", async () => {
		const first = deferred();
		const second = deferred();
		const a = withBaselineWasm(() => first.promise);
		const b = withBaselineWasm(() => second.promise);
		expect(flags).toEqual(["--liftoff-only"]);
		first.resolve();
		await a;
		expect(flags).toEqual(["--liftoff-only"]);
		second.resolve();
		await b;
		expect(flags).toEqual(["--liftoff-only", "--no-liftoff-only"]);
	});
});
