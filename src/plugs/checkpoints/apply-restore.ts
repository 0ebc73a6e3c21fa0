// Puts files back: deletes what was created since, writes back what was changed or deleted. Regular files are
// written atomically through the same writer as the edit tools (keeping the file's identity and mode); nothing
// outside the work tree is touched, and a failure on one file does not stop the others.
import fs from "node:fs/promises";
import { dirname, join } from "node:path";
import type { FileAction, RestoreReport } from "../../core/index.js";
import { atomicWriteFile } from "../../core/index.js";

/** What one file becomes. */
export type FileContent =
	| { kind: "file"; bytes: Buffer; /** Exact permission bits; default: keep the file's own (new files: 0666 less the umask). */ mode?: number; executable?: boolean }
	| { kind: "symlink"; target: string };

export interface RestoreStep {
	/** Relative to the work tree, "/"-separated. */
	path: string;
	action: FileAction;
	/** Undefined for a delete. */
	content?: () => Promise<FileContent>;
}

/**
 * Applies the steps: deletes first (deepest paths first), then writes. After deleting, parent folders left empty
 * are removed too, up to one that `keepDir` says existed before.
 */
export async function applyRestore(
	workTree: string,
	steps: readonly RestoreStep[],
	keep: ReadonlySet<string>,
	keepDir: (dir: string) => boolean,
): Promise<RestoreReport> {
	const report: RestoreReport = { restored: [], deleted: [], recreated: [], kept: [], failed: [] };
	const chosen = steps.filter((step) => {
		if (!keep.has(step.path)) return true;
		report.kept.push(step.path);
		return false;
	});
	const deletes = chosen.filter((step) => step.action === "delete").sort((a, b) => depth(b.path) - depth(a.path));
	for (const step of deletes) {
		await attempt(report, step.path, async () => {
			await removePath(join(workTree, step.path));
			await removeEmptyParents(workTree, step.path, keepDir);
			report.deleted.push(step.path);
		});
	}
	for (const step of chosen.filter((step) => step.action !== "delete")) {
		await attempt(report, step.path, async () => {
			await writeContent(join(workTree, step.path), await step.content!());
			(step.action === "recreate" ? report.recreated : report.restored).push(step.path);
		});
	}
	return report;
}

async function attempt(report: RestoreReport, path: string, fn: () => Promise<void>): Promise<void> {
	try {
		await fn();
	} catch (error) {
		report.failed.push({ path, error: (error as Error).message });
	}
}

async function writeContent(file: string, content: FileContent): Promise<void> {
	const current = await fs.lstat(file).catch(() => undefined);
	// Something else stands where the file goes (a link the agent made, a file where a link was): replace it.
	if (current && (content.kind === "symlink" || !current.isFile())) await removePath(file);
	if (content.kind === "symlink") {
		await fs.mkdir(dirname(file), { recursive: true });
		await fs.symlink(content.target, file);
		return;
	}
	await atomicWriteFile(file, content.bytes);
	if (content.mode !== undefined) await fs.chmod(file, content.mode);
	else if (content.executable !== undefined) {
		const mode = (await fs.stat(file)).mode & 0o7777;
		const wanted = content.executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
		if (wanted !== mode) await fs.chmod(file, wanted);
	}
}

/** Removes a file or link; a folder only when empty (a folder full of files is never removed wholesale). */
async function removePath(file: string): Promise<void> {
	const stat = await fs.lstat(file).catch(() => undefined);
	if (!stat) return;
	if (stat.isDirectory()) await fs.rmdir(file);
	else await fs.unlink(file);
}

async function removeEmptyParents(workTree: string, path: string, keepDir: (dir: string) => boolean): Promise<void> {
	for (let dir = parentOf(path); dir !== "" && !keepDir(dir); dir = parentOf(dir)) {
		try {
			await fs.rmdir(join(workTree, dir));
		} catch {
			return;
		}
	}
}

function parentOf(path: string): string {
	const at = path.lastIndexOf("/");
	return at === -1 ? "" : path.slice(0, at);
}

function depth(path: string): number {
	return path.split("/").length;
}
