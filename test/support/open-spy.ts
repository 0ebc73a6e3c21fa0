// For a unit test that counts file opens: its node:fs, mocked with
//   vi.mock("node:fs", async (importOriginal) => (await import("<path>/open-spy.js")).withOpenSpy(await importOriginal()));
// notes in `opened` every path openSync opens (the real openSync does the work).
import type * as fs from "node:fs";

/** The paths opened, in order; a test empties it before the step it counts. */
export const opened: string[] = [];

export function withOpenSpy(real: typeof fs): typeof fs {
	const openSync = (path: fs.PathLike, ...rest: unknown[]) => {
		opened.push(String(path));
		return (real.openSync as (...args: unknown[]) => number)(path, ...rest);
	};
	return { ...real, default: { ...real, openSync }, openSync } as typeof fs;
}
