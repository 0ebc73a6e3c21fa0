// Replacing a file whole: written beside it under a name no other writer uses, then renamed over it, so a reader
// never sees half of it and two writers never write into each other's temporary file.
import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";

export function replaceFileSync(target: string, data: string, options: { mode?: number } = {}): void {
	const temporary = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
	try {
		writeFileSync(temporary, data, options);
		renameSync(temporary, target);
	} catch (error) {
		rmSync(temporary, { force: true });
		throw error;
	}
}
