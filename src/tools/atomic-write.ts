// Writes a file so that a crash leaves either the old content or the new, never half of it.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { specialFileKind } from "./file-kind.js";

/**
 * Where the bytes should land: through a symlink to its target (so the link survives the rename),
 * otherwise the path itself.
 */
async function writeTarget(filePath: string): Promise<string> {
	try {
		return await fs.realpath(filePath);
	} catch {
		return filePath;
	}
}

async function checkWritable(target: string, shownPath: string): Promise<void> {
	try {
		await fs.access(target, fs.constants.W_OK);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS") throw error;
		throw new Error(`${shownPath} is read-only (${code === "EROFS" ? "read-only file system" : "no write permission"}); nothing was written.`);
	}
}

/** Temp file in the same directory (same filesystem, so rename is atomic), fsync, then rename over the target. */
export async function atomicWriteFile(filePath: string, data: string | Uint8Array): Promise<void> {
	const target = await writeTarget(filePath);
	const dir = path.dirname(target);
	await fs.mkdir(dir, { recursive: true });

	let mode: number | undefined;
	try {
		const stat = await fs.stat(target);
		if (stat.isDirectory()) throw new Error(`${filePath} is a directory, not a file.`);
		// Renaming over a device or FIFO would replace it (as root, /dev/null itself): leave it alone.
		if (!stat.isFile()) throw new Error(`${filePath} is not a regular file (it is ${specialFileKind(stat)}); nothing was written.`);
		mode = stat.mode & 0o7777;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
	// A rename needs only the directory's permission; a file its owner made read-only must not change all the same.
	if (mode !== undefined) await checkWritable(target, filePath);

	const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
	const handle = await fs.open(temp, "wx", mode ?? 0o666);
	try {
		await handle.writeFile(data);
		// open() applies the umask; chmod restores the existing file's exact mode.
		if (mode !== undefined) await handle.chmod(mode);
		await handle.sync();
		await handle.close();
		await fs.rename(temp, target);
	} catch (error) {
		await handle.close().catch(() => {});
		await fs.rm(temp, { force: true }).catch(() => {});
		throw error;
	}
}
