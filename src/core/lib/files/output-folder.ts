// The one folder per loom process that holds the files of long command outputs: made on first use, removed
// when the process exits (a normal exit, or a signal the CLI turns into one); folders of processes that died
// without exiting are removed by the next loom that starts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isAlive, onProcessExit } from "../process/index.js";

const PREFIX = "loom-output-";
/** loom-output-<pid>-<random>: the pid tells a later process whether the owner is gone. */
const FOLDER_NAME = /^loom-output-(\d+)-[^/]+$/;

let folder: string | undefined;

/** This process's folder, made (readable by its user only) on the first call. */
export function outputFolder(): string {
	if (folder && fs.existsSync(folder)) return folder;
	folder = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
	onProcessExit(removeOutputFolder);
	return folder;
}

/** Removes this process's folder and everything in it; synchronous, so it can run while the process exits. */
export function removeOutputFolder(): void {
	if (!folder) return;
	try {
		fs.rmSync(folder, { recursive: true, force: true });
	} catch {
		// Nothing more can be done while exiting; the next loom will try again.
	}
	folder = undefined;
}

/** Removes the folders of loom processes that are gone (a crash, SIGKILL); never another user's or a live one's. */
export async function removeStaleOutputFolders(root = os.tmpdir()): Promise<void> {
	let names: string[];
	try {
		names = await fs.promises.readdir(root);
	} catch {
		return;
	}
	const uid = process.getuid?.();
	await Promise.all(
		names.map(async (name) => {
			const pid = Number(FOLDER_NAME.exec(name)?.[1]);
			if (!pid || pid === process.pid || isAlive(pid)) return;
			const full = path.join(root, name);
			try {
				const stat = await fs.promises.lstat(full);
				if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) return;
				await fs.promises.rm(full, { recursive: true, force: true });
			} catch {
				// Gone already, or not ours to remove.
			}
		}),
	);
}
