// A project's shadow git repository under <loom home>/checkpoints/<project key>/: it records the project's work
// tree as git trees, with its own index per session, and never reads or writes the project's own .git (except
// reading its info/exclude). Checkpoints are refs to trees; nothing here makes commits or touches branches.
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readCheckedText } from "../../core/index.js";
import { join } from "node:path";
import { type SkippedFile, type SnapshotLimits, parseLsFiles, planStaging } from "./changed-files.js";
import { type GitCall, type GitLocation, type GitResult, gitEnvironment, nulRecords, runGit, shadowGit } from "./git.js";
import { type ProjectRoot, checkpointsRoot, projectKey } from "./project-root.js";

/**
 * Attributes that win over any .gitattributes in the project: content is recorded byte for byte (no line-ending
 * conversion, no clean filter such as git-lfs), so a restore writes back exactly what was there.
 */
const ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding\n";
/**
 * Outside git, no .gitignore may name them: folders that only ever hold what a tool downloads or regenerates
 * (dependencies, virtual environments, caches), at any depth. Not dist/, build/, target/ or vendor/, which some
 * projects write by hand: a project leaves those out with a .gitignore.
 */
export const OUTSIDE_GIT_EXCLUDES = [
	"# Outside git: dependency and cache folders.",
	"node_modules/",
	".venv/",
	"venv/",
	"__pycache__/",
	".pytest_cache/",
	".mypy_cache/",
	".ruff_cache/",
	".tox/",
	".next/",
	".nuxt/",
	".svelte-kit/",
	".turbo/",
	".parcel-cache/",
	".gradle/",
	".cache/",
	"",
].join("\n");

/** The user's info/exclude is copied into the shadow repository's; a larger one is not read. */
const MAX_EXCLUDE_BYTES = 1024 * 1024;

export type SnapshotResult =
	| {
			kind: "tree";
			tree: string;
			skipped: SkippedFile[];
			/**
			 * When asked for: where the snapshot did not look (see OutsideList); undefined when there were more such
			 * entries than the file limit, so where it looked is not known.
			 */
			outside?: string[];
	  }
	/** More files to record than the limit allows; nothing was recorded. */
	| { kind: "too-many"; limit: number };

/** One path that differs between two trees. Modes are git's ("100644", "100755", "120000"; "000000": absent). */
export interface TreeChange {
	path: string;
	status: "added" | "deleted" | "modified" | "type-changed";
	fromMode: string;
	toMode: string;
	fromBlob: string;
	toBlob: string;
}

export class ShadowRepo {
	readonly gitDir: string;
	private excludeText: string | undefined;
	/** The tree each index of this process last wrote: an index nothing was staged into since writes it again. */
	private readonly writtenTrees = new Map<string, string>();

	private constructor(
		/** This project's folder under <loom home>/checkpoints. */
		readonly dir: string,
		readonly root: ProjectRoot,
	) {
		this.gitDir = join(dir, "git");
	}

	get workTree(): string {
		return this.root.workTree;
	}

	/** An existing shadow repository, for what needs no work tree (refs, pruning). */
	static at(dir: string): ShadowRepo {
		return new ShadowRepo(dir, { workTree: dir });
	}

	/** The shadow repository of `root`, created on first use. */
	static async open(home: string, root: ProjectRoot): Promise<ShadowRepo> {
		const repo = new ShadowRepo(join(checkpointsRoot(home), projectKey(root.workTree)), root);
		await repo.ensure();
		return repo;
	}

	private async ensure(): Promise<void> {
		if (!existsSync(join(this.gitDir, "HEAD"))) {
			mkdirSync(this.dir, { recursive: true, mode: 0o700 });
			// No templates: the user's init.templateDir (hooks, excludes) has no place here.
			await runGit(["init", "--quiet", "--bare", "--template=", this.gitDir], { cwd: this.dir });
			writeFileSync(join(this.dir, "project.json"), `${JSON.stringify({ workTree: this.workTree, created: new Date().toISOString() })}\n`);
		}
		mkdirSync(join(this.gitDir, "info"), { recursive: true });
		mkdirSync(join(this.dir, "indexes"), { recursive: true });
		writeIfChanged(join(this.gitDir, "info", "attributes"), ATTRIBUTES);
	}

	/** Where git works for the index `indexName` (one per session, so two loom processes never share one). */
	location(indexName: string): GitLocation {
		return { gitDir: this.gitDir, workTree: this.workTree, indexFile: join(this.dir, "indexes", indexName) };
	}

	/**
	 * Records the work tree as it is now. Only files that changed since this index last recorded them are read;
	 * ignored files and folders are neither listed nor read. A new index starts from the project's latest one,
	 * so a new session does not read every file again. With `outside`, it also lists where it did not look.
	 */
	async snapshot(indexName: string, limits: SnapshotLimits, options: { outside?: boolean } = {}): Promise<SnapshotResult> {
		const where = this.location(indexName);
		this.refreshExcludes();
		const template = join(this.dir, "index");
		if (!existsSync(where.indexFile) && existsSync(template)) copyFileSync(template, where.indexFile);
		const [listed, ignored] = await Promise.all([
			shadowGit(where, ["ls-files", "-z", "-t", "--others", "--modified", "--deleted", "--exclude-standard"], { maxRecords: limits.maxFiles }),
			// Ignored files, and folders wholly ignored as one entry: git neither lists nor reads inside those.
			options.outside
				? shadowGit(where, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], { maxRecords: limits.maxFiles })
				: undefined,
		]);
		if (listed.truncated) return { kind: "too-many", limit: limits.maxFiles };
		const changes = parseLsFiles(nulRecords(listed.stdout));
		const plan = planStaging(this.workTree, changes, limits);
		if (plan.update.length > 0) {
			await shadowGit(where, ["update-index", "--add", "--remove", "-z", "--stdin"], {
				input: plan.update.map((path) => `${path}\0`).join(""),
				// Many files at once (a project's first checkpoint) go into one pack file: writing thousands of
				// loose objects costs several times as much on most filesystems.
				config: plan.update.length > PACK_ABOVE ? ["core.bigFileThreshold=1"] : [],
			});
		}
		if (plan.drop.length > 0) {
			await shadowGit(where, ["update-index", "-z", "--index-info"], { input: plan.drop.map((path) => `0 ${"0".repeat(40)}\t${path}\0`).join("") });
		}
		const staged = plan.update.length > 0 || plan.drop.length > 0;
		let tree = staged ? undefined : this.writtenTrees.get(indexName);
		if (tree === undefined) {
			tree = (await shadowGit(where, ["write-tree"])).stdout.toString("utf8").trim();
			this.writtenTrees.set(indexName, tree);
		}
		if (staged) copyAtomically(where.indexFile, template);
		const outside = ignored && !ignored.truncated ? [...nulRecords(ignored.stdout), ...changes.nested] : undefined;
		return { kind: "tree", tree, skipped: plan.skipped, ...(options.outside ? { outside } : {}) };
	}

	/** Keeps a list of paths as one blob (an identical list is stored once); returns its id. */
	async writeList(paths: readonly string[]): Promise<string> {
		const { stdout } = await this.repoGit(["hash-object", "-w", "--stdin"], { input: paths.map((path) => `${path}\0`).join("") });
		return stdout.toString("utf8").trim();
	}

	/** A list kept by writeList; undefined when it is missing. */
	async readList(id: string): Promise<string[] | undefined> {
		const size = (await this.blobSizes([id])).get(id);
		if (size === undefined) return undefined;
		const bytes = (await this.readBlobs([id], size)).get(id);
		return bytes === undefined ? undefined : nulRecords(bytes);
	}

	/** What changes going from tree `from` to tree `to` (no rename detection: a rename is a delete and an add). */
	async diff(from: string, to: string): Promise<TreeChange[]> {
		const { stdout } = await this.repoGit(["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to]);
		return parseRawDiff(nulRecords(stdout));
	}

	/** Every folder in a tree, "/"-separated. */
	async directories(tree: string): Promise<Set<string>> {
		const { stdout } = await this.repoGit(["ls-tree", "-r", "-d", "-z", "--name-only", tree]);
		return new Set(nulRecords(stdout));
	}

	/** The sizes of blobs, by id (missing ones left out): one git process for any number of them. */
	async blobSizes(ids: readonly string[]): Promise<Map<string, number>> {
		const sizes = new Map<string, number>();
		const unique = [...new Set(ids)];
		if (unique.length === 0) return sizes;
		const { stdout } = await this.repoGit(["cat-file", "--batch-check"], { input: unique.map((id) => `${id}\n`).join("") });
		for (const line of stdout.toString("utf8").split("\n")) {
			const [id, type, size] = line.split(" ");
			if (type === "blob" && size !== undefined) sizes.set(id!, Number(size));
		}
		return sizes;
	}

	/** The contents of blobs, by id, in one git process; `totalBytes`: their sizes added up (see blobSizes), the read's bound. */
	async readBlobs(ids: readonly string[], totalBytes: number): Promise<Map<string, Buffer>> {
		const contents = new Map<string, Buffer>();
		const unique = [...new Set(ids)];
		if (unique.length === 0) return contents;
		const { stdout } = await this.repoGit(["cat-file", "--batch"], {
			input: unique.map((id) => `${id}\n`).join(""),
			maxBytes: totalBytes + unique.length * BATCH_HEADER_BYTES,
		});
		parseBatch(stdout, contents);
		return contents;
	}

	/** Keeps trees reachable under refs/loom/<name>, so pruning the repository never drops them. */
	async keep(refs: Readonly<Record<string, string>>): Promise<void> {
		const input = Object.entries(refs)
			.map(([name, id]) => `update refs/loom/${name} ${id}\n`)
			.join("");
		if (input !== "") await this.repoGit(["update-ref", "--stdin"], { input });
	}

	/** Names (under refs/loom/) of the refs below `prefix`. */
	async refs(prefix = ""): Promise<string[]> {
		const { stdout } = await this.repoGit(["for-each-ref", "--format=%(refname)", `refs/loom/${prefix}`]);
		return stdout
			.toString("utf8")
			.split("\n")
			.filter((line) => line !== "")
			.map((ref) => ref.slice("refs/loom/".length));
	}

	/** Drops refs (names under refs/loom/); their trees go at the next collectGarbage(). */
	async forget(names: readonly string[]): Promise<void> {
		if (names.length === 0) return;
		await this.repoGit(["update-ref", "--stdin"], { input: names.map((name) => `delete refs/loom/${name}\n`).join("") });
	}

	/**
	 * Removes what no ref keeps. Objects written in the last ten minutes stay: another loom process may be in the
	 * middle of a checkpoint whose tree is not kept by a ref yet.
	 */
	async collectGarbage(): Promise<void> {
		await this.repoGit(["gc", "--quiet", "--prune=10.minutes.ago"], { timeoutMs: 600_000 });
	}

	/** Git on the repository alone (objects and refs), from inside it: the work tree may be gone. */
	private repoGit(args: readonly string[], call: GitCall = {}): Promise<GitResult> {
		return runGit(["--git-dir", this.gitDir, "-c", "gc.auto=0", ...args], { ...call, cwd: this.gitDir, env: gitEnvironment() });
	}

	/** Removes one session's index. */
	dropIndex(indexName: string): void {
		this.writtenTrees.delete(indexName);
		rmSync(this.location(indexName).indexFile, { force: true });
	}

	/**
	 * The shadow repository's info/exclude: the project's own .git/info/exclude, copied when it changed; outside
	 * git, the default list of dependency and cache folders. The project's .gitignore files are read by git from
	 * the work tree itself, nested ones included; the user's global excludes file applies as it does to their own
	 * repository.
	 */
	private refreshExcludes(): void {
		let text = "# Written by loom: the project's .git/info/exclude, so its checkpoints leave out what git leaves out.\n";
		if (this.root.userGitDir) text += readSmall(join(this.root.userGitDir, "info", "exclude"));
		else text += OUTSIDE_GIT_EXCLUDES;
		if (text === this.excludeText) return;
		writeIfChanged(join(this.gitDir, "info", "exclude"), text);
		this.excludeText = text;
	}
}

/** Room per object in `cat-file --batch` output besides its content: "<id> blob <size>\n", then "\n". */
const BATCH_HEADER_BYTES = 128;
const PACK_ABOVE = 100;

/** Parses `git diff-tree --raw -z` records: ":<mode> <mode> <blob> <blob> <status>", then the path. */
export function parseRawDiff(records: readonly string[]): TreeChange[] {
	const changes: TreeChange[] = [];
	for (let index = 0; index + 1 < records.length; index += 2) {
		const [fromMode, toMode, fromBlob, toBlob, letter] = records[index]!.slice(1).split(" ");
		const status = STATUS[letter?.[0] ?? ""];
		if (!status || !toBlob) continue;
		changes.push({ path: records[index + 1]!, status, fromMode: fromMode!, toMode: toMode!, fromBlob: fromBlob!, toBlob });
	}
	return changes;
}

const STATUS: Record<string, TreeChange["status"]> = { A: "added", D: "deleted", M: "modified", T: "type-changed" };

/** `git cat-file --batch` output: "<id> <type> <size>\n<content>\n" per object ("<id> missing\n" for none). */
function parseBatch(output: Buffer, into: Map<string, Buffer>): void {
	let at = 0;
	while (at < output.length) {
		const end = output.indexOf(0x0a, at);
		if (end === -1) break;
		const [id, type, size] = output.subarray(at, end).toString("utf8").split(" ");
		at = end + 1;
		if (type === "missing" || size === undefined) continue;
		const length = Number(size);
		into.set(id!, output.subarray(at, at + length));
		at += length + 1;
	}
}

/** A small regular file's text ("" for anything else: missing, too large, a FIFO that would block). */
function readSmall(file: string): string {
	try {
		const text = readCheckedText(file, { maxBytes: MAX_EXCLUDE_BYTES });
		return text.endsWith("\n") || text === "" ? text : `${text}\n`;
	} catch {
		return "";
	}
}

function writeIfChanged(file: string, text: string): void {
	try {
		if (readFileSync(file, "utf8") === text) return;
	} catch {
		// Not there yet.
	}
	writeFileSync(file, text);
}

/** The template index is replaced whole, so a session copying it never reads half of one. */
function copyAtomically(from: string, to: string): void {
	const temp = `${to}.${randomBytes(4).toString("hex")}.tmp`;
	try {
		copyFileSync(from, temp);
		renameSync(temp, to);
	} catch {
		rmSync(temp, { force: true });
	}
}
