// Works out a restore to just before a prompt's run, from that run's checkpoint and the runs after it: which
// files change and how, which of them someone else changed after the agent, and what cannot be restored.
import type { FileChange, FilesRestore } from "../../core/index.js";
import { formatSize } from "../../core/index.js";
import { type RestoreStep, applyRestore } from "./apply-restore.js";
import { blobBatches } from "./blob-batches.js";
import type { SkippedFile } from "./changed-files.js";
import type { RunRecord } from "./checkpoint-log.js";
import { contentHash, readPreimage } from "./preimages.js";
import type { ShadowRepo, TreeChange } from "./shadow-repo.js";

const GITLINK = "160000";
const SYMLINK = "120000";

/** A restore and how to do it. */
interface Planned {
	steps: RestoreStep[];
	userChanged: Set<string>;
	notRestored: { path: string; reason: string }[];
	keepDir: (dir: string) => boolean;
	note?: string;
}

/**
 * Tree mode: the restore from the work tree now (`current`, just snapshotted) to `runs[0].before`. The user's
 * changes are what differs between a run's end and the next run's start (or now). A file missing from
 * `runs[0].before` is deleted only when a checkpoint proves the agent created it (see agentCreated); any other is
 * left as it is and said so.
 */
export async function planTreeRestore(repo: ShadowRepo, runs: readonly RunRecord[], current: { tree: string; skipped: SkippedFile[] }): Promise<Planned> {
	const target = runs[0]!;
	const changes = (await repo.diff(current.tree, target.before!)).filter((change) => change.fromMode !== GITLINK && change.toMode !== GITLINK);
	const userChanged = new Set<string>();
	for (const [index, run] of runs.entries()) {
		if (!run.after) continue;
		const next = runs.slice(index + 1).find((later) => later.before)?.before ?? current.tree;
		// The same tree: nobody changed anything in between, and no git process is needed to say so.
		if (next === run.after) continue;
		for (const change of await repo.diff(run.after, next)) userChanged.add(change.path);
	}
	const unrecorded = new Map<string, SkippedFile>();
	for (const file of [...(target.skipped ?? []), ...current.skipped]) unrecorded.set(file.path, file);
	const notRestored = [...unrecorded.values()].map((file) => ({ path: file.path, reason: skippedReason(file) }));
	const recorded = changes.filter((change) => !unrecorded.has(change.path));
	// The diff goes from now to then: "deleted" means it exists now and did not then.
	const created = await agentCreated(
		repo,
		runs,
		recorded.filter((change) => change.status === "deleted").map((change) => change.path),
	);
	notRestored.push(...created.kept);
	const restorable = recorded.filter((change) => change.status !== "deleted" || created.proven.has(change.path));
	// Read in the order the restore writes the files back (see filesRestore).
	const written = restorable.filter((change) => change.status !== "deleted").sort(byPath);
	const blobs = blobBatches(repo, written.map((change) => change.toBlob));
	const steps = restorable.map((change) => treeStep(blobs, change));
	// Folders left empty by a delete go too, unless the folder existed then.
	const directories = steps.some((step) => step.action === "delete") ? await repo.directories(target.before!) : new Set<string>();
	return { steps, userChanged, notRestored, keepDir: (dir) => directories.has(dir) };
}

/**
 * Of the files that exist now but are missing from the target's `before`, those a checkpoint proves the agent
 * created: the target's snapshot looked where the file is (it was not ignored, left out or inside a nested
 * repository then), and some run's snapshots show the file appear during that run, from a `before` that looked
 * there too, or a write or edit made it where the path did not exist (files mode). Everything else is kept, with
 * why: one entry per folder the snapshot did not look into.
 */
async function agentCreated(
	repo: ShadowRepo,
	runs: readonly RunRecord[],
	candidates: readonly string[],
): Promise<{ proven: Set<string>; kept: { path: string; reason: string }[] }> {
	const proven = new Set<string>();
	const kept = new Map<string, string>();
	if (candidates.length === 0) return { proven, kept: [] };
	const lists = new Map<string, Promise<string[] | undefined>>();
	const outsideOf = (run: RunRecord) => {
		if (!run.outside) return Promise.resolve(undefined);
		let list = lists.get(run.outside);
		if (!list) lists.set(run.outside, (list = repo.readList(run.outside).catch(() => undefined)));
		return list;
	};
	const target = runs[0]!;
	const targetOutside = await outsideOf(target);
	const looked = (run: RunRecord, outside: string[] | undefined, path: string) =>
		outside !== undefined && whereNotLooked(outside, path) === undefined && !(run.skipped ?? []).some((file) => file.path === path);
	const open = new Set<string>();
	for (const path of candidates) {
		if (targetOutside === undefined) kept.set(path, NOT_KNOWN);
		else if (!looked(target, targetOutside, path)) {
			const folder = whereNotLooked(targetOutside, path) ?? path;
			kept.set(folder, NOT_LOOKED);
		} else open.add(path);
	}
	for (const run of runs) {
		if (open.size === 0) break;
		for (const path of createdIn(run, await runAdded(repo, run))) {
			if (!open.has(path)) continue;
			if (run.mode === "files" || looked(run, await outsideOf(run), path)) {
				proven.add(path);
				open.delete(path);
			}
		}
	}
	for (const path of open) kept.set(path, NOT_THE_AGENTS);
	return { proven, kept: [...kept].map(([path, reason]) => ({ path, reason })).sort(byPath) };
}

const NOT_KNOWN = "it did not exist then, but this checkpoint does not record where it looked, so the file is kept";
const NOT_LOOKED = "ignored or inside another repository when the checkpoint was taken, so not recorded: kept as it is";
const NOT_THE_AGENTS = "created after the checkpoint, but not during the agent's runs: kept as it is";

/** The paths a tree-mode run's own snapshots show appear during it (none without both). */
async function runAdded(repo: ShadowRepo, run: RunRecord): Promise<string[]> {
	if (run.mode !== "tree" || !run.before || !run.after || run.before === run.after) return [];
	const changes = await repo.diff(run.before, run.after);
	// Files where a nested repository stood were never looked at: not the agent's for all the snapshots say.
	const gitlinks = changes.filter((change) => change.fromMode === GITLINK).map((change) => `${change.path}/`);
	return changes.filter((change) => change.status === "added" && !gitlinks.some((link) => change.path.startsWith(link))).map((change) => change.path);
}

/** What a run created: from its snapshots (tree mode) or from its pre-images of files that did not exist (files mode). */
function createdIn(run: RunRecord, added: readonly string[]): readonly string[] {
	if (run.mode === "tree") return added;
	return (run.preimages ?? []).filter((preimage) => !preimage.existed).map((preimage) => preimage.path);
}

/** The entry of an outside list (see RunRecord.outside) that covers `path`: itself, or a folder above it. */
function whereNotLooked(outside: readonly string[], path: string): string | undefined {
	return outside.find((entry) => entry === path || (entry.endsWith("/") && path.startsWith(entry)));
}

function treeStep(blobs: (id: string) => Promise<Buffer | undefined>, change: TreeChange): RestoreStep {
	// The diff goes from now to then: "added" means it existed then and is gone now.
	const action = change.status === "added" ? "recreate" : change.status === "deleted" ? "delete" : "restore";
	if (action === "delete") return { path: change.path, action };
	return {
		path: change.path,
		action,
		content: async () => {
			const bytes = await blobs(change.toBlob);
			if (!bytes) throw new Error("its recorded content is missing from the checkpoint");
			if (change.toMode === SYMLINK) return { kind: "symlink", target: bytes.toString("utf8") };
			return { kind: "file", bytes, executable: change.toMode === "100755" };
		},
	};
}

/**
 * Files mode: every file a write or edit changed in these runs goes back to its first pre-image. The user changed
 * a file when its content now is not what the last run touching it left, or when a run found it different from
 * how the run before had left it.
 */
export function planFilesRestore(projectDir: string, workTree: string, runs: readonly RunRecord[], maxBytes: number): Planned {
	const first = new Map<string, NonNullable<RunRecord["preimages"]>[number]>();
	const userChanged = new Set<string>();
	const leftBy = new Map<string, string | null>();
	for (const run of runs) {
		for (const preimage of run.preimages ?? []) {
			if (!first.has(preimage.path)) first.set(preimage.path, preimage);
			const left = leftBy.get(preimage.path);
			if (left !== undefined && left !== (preimage.existed ? (preimage.hash ?? "") : null)) userChanged.add(preimage.path);
		}
		for (const [path, hash] of Object.entries(run.afterHashes ?? {})) leftBy.set(path, hash);
	}
	const steps: RestoreStep[] = [];
	const notRestored: { path: string; reason: string }[] = [];
	const bases = new Map<string, string>();
	for (const [path, preimage] of first) {
		if (preimage.skipped) {
			notRestored.push({ path, reason: "it was over the size limit or not a regular file, so it was not recorded" });
			continue;
		}
		const now = contentHash(workTree, path, maxBytes);
		if (leftBy.has(path) && leftBy.get(path) !== now) userChanged.add(path);
		if (!preimage.existed) {
			if (now === null) continue;
			steps.push({ path, action: "delete" });
			bases.set(path, preimage.base ?? "");
			continue;
		}
		if (now === preimage.hash) continue;
		steps.push({
			path,
			action: now === null ? "recreate" : "restore",
			content: async () => {
				const bytes = readPreimage(projectDir, preimage);
				if (!bytes) throw new Error("its recorded content is missing from the checkpoint");
				return { kind: "file", bytes, mode: preimage.mode };
			},
		});
	}
	const baseDirs = [...bases.values()];
	return {
		steps,
		userChanged,
		notRestored,
		keepDir: (dir) => baseDirs.some((base) => base === dir || base.startsWith(`${dir}/`)),
		note: "Only files changed by write and edit were recorded for these prompts; changes made by bash or other tools are not restored.",
	};
}

/** No run since the prompt could change a file. */
export function nothingToRestore(): Planned {
	return { steps: [], userChanged: new Set(), notRestored: [], keepDir: () => true };
}

/** The FilesRestore a session shows and applies. */
export function filesRestore(workTree: string, planned: Planned): FilesRestore {
	const steps = [...planned.steps].sort(byPath);
	const changes: FileChange[] = steps.map(({ path, action }) => ({ path, action }));
	return {
		root: workTree,
		changes,
		userChanged: changes.map((change) => change.path).filter((path) => planned.userChanged.has(path)),
		notRestored: planned.notRestored,
		note: planned.note,
		apply: (options = {}) => applyRestore(workTree, steps, new Set(options.keep ?? []), planned.keepDir),
	};
}

function byPath(a: { path: string }, b: { path: string }): number {
	return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function skippedReason(file: SkippedFile): string {
	const size = formatSize(file.size);
	return file.reason === "binary" ? `a binary file of ${size}, over the limit, so not recorded` : `${size}, over the size limit, so not recorded`;
}
