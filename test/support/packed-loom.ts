// The package as `npm pack` makes it, made once for what it packs: the SDK test installs the tarball, the Dockerfile
// test compares the image with its file list. The tarball and its list are kept in the system's temporary directory,
// in a folder named by a hash of every file the tarball can hold (package.json, README, bin/, dist/…) and of npm's
// version, so a build that changed packs anew and an unchanged one is packed once, whichever test file (in whichever
// worker, at the same time or not) asks first. A folder appears whole (renamed into place) or not at all.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { findOnPath, isAlive } from "../../src/core/lib/process/index.js";
import { ROOT } from "./loom-process.js";
import { waitFor } from "./wait-for.js";

const run = promisify(execFile);

export interface PackedLoom {
	/** The tarball `npm pack` wrote. */
	tarball: string;
	/** The paths it holds, as `npm pack --json` lists them (package.json, bin/loom, dist/…). */
	files: string[];
}

const PREFIX = "loom-packed-";
/** What packing may take on a busy machine, ten times over; a test file waits this long for another's. */
const PACK_WAIT_MS = 120_000;
/** Folders of other builds unused for this long go when a new one is made (one of a run still going is younger). */
const KEEP_MS = 60 * 60_000;

/** Files npm adds whatever package.json's "files" says (case-insensitive), and the ignore files it reads. */
const ALWAYS = /^(package\.json|readme(\..*)?|licen[cs]e(\..*)?|\.npmignore|\.gitignore)$/i;

/** Every file under `path` (itself, if a file), by its path from the repository's root. */
function filesUnder(path: string): string[] {
	const full = join(ROOT, path);
	if (!existsSync(full)) return [];
	if (!statSync(full).isDirectory()) return [path];
	return readdirSync(full).flatMap((name) => filesUnder(`${path}/${name}`));
}

/** npm's version, from the package of the npm on PATH (what `npm pack` takes and leaves out is its own). */
function npmVersion(): string {
	const npm = findOnPath("npm", process.env.PATH ?? "");
	if (!npm) throw new Error("npm is not on PATH");
	const manifest = join(dirname(dirname(realpathSync(npm))), "package.json");
	return existsSync(manifest) ? `npm ${JSON.parse(readFileSync(manifest, "utf8")).version}` : `npm at ${realpathSync(npm)}`;
}

/** The files the tarball can hold, and the hash of their paths and contents. */
function contentKey(): { key: string; hashed: Set<string> } {
	const { files = [] } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files?: string[] };
	const hashed = new Set([...readdirSync(ROOT).filter((name) => ALWAYS.test(name)), ...files.flatMap((entry) => filesUnder(entry.replace(/^\.?\/+|\/+$/g, "")))]);
	const hash = createHash("sha256").update(`${npmVersion()}\0`);
	for (const path of [...hashed].sort()) hash.update(`${path}\0`).update(readFileSync(join(ROOT, path))).update("\0");
	return { key: hash.digest("hex"), hashed };
}

/** The folder's tarball and list, marked as in use now (a run of another build leaves it); undefined if it is not there. */
function readPacked(folder: string): PackedLoom | undefined {
	try {
		const now = new Date();
		utimesSync(folder, now, now);
		const { filename, files } = JSON.parse(readFileSync(join(folder, "pack.json"), "utf8")) as { filename: string; files: string[] };
		return { tarball: join(folder, filename), files };
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

/** Whether the lock's holder has gone (killed while packing) without removing it. */
function holderGone(lock: string): boolean {
	try {
		return !isAlive(Number(readFileSync(join(lock, "pid"), "utf8")));
	} catch {
		// Its pid not written yet (just made), or the lock gone meanwhile: the holder is there, or was.
		return existsSync(lock) && Date.now() - statSync(lock).mtimeMs > PACK_WAIT_MS;
	}
}

/** Packs into a folder of its own, then renames it into place; false if the files changed while npm packed them. */
async function pack(key: string, hashed: Set<string>, folder: string): Promise<boolean> {
	const part = `${folder}.part-${process.pid}-${randomBytes(4).toString("hex")}`;
	mkdirSync(part);
	try {
		const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", part], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
		const [result] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
		const files = result!.files.map((file) => file.path);
		if (contentKey().key !== key) return false;
		const unhashed = files.filter((path) => !hashed.has(path));
		if (unhashed.length > 0) throw new Error(`npm pack took files test/support/packed-loom.ts does not hash (teach it): ${unhashed.join(", ")}`);
		writeFileSync(join(part, "pack.json"), JSON.stringify({ filename: result!.filename, files }));
		try {
			renameSync(part, folder);
		} catch (error) {
			// Another worker, which took over a lock it thought abandoned, was first: its folder is as good.
			if (!existsSync(folder)) throw error;
		}
		return true;
	} finally {
		rmSync(part, { recursive: true, force: true });
	}
}

/** Removes what packers killed midway left (their folders in the making), and the folders of other builds unused for KEEP_MS. */
function prune(key: string): void {
	const dir = tmpdir();
	for (const name of readdirSync(dir)) {
		const match = /^loom-packed-([0-9a-f]{64})(\.lock|\.part-(\d+)-.*)?$/.exec(name);
		if (!match) continue;
		const path = join(dir, name);
		try {
			const abandoned = match[3] !== undefined && !isAlive(Number(match[3]));
			const unused = match[1] !== key && Date.now() - statSync(path).mtimeMs > KEEP_MS && (match[2] !== ".lock" || holderGone(path));
			if (abandoned || unused) rmSync(path, { recursive: true, force: true });
		} catch {
			// Removed by another run meanwhile.
		}
	}
}

/** The tarball of the package as it is built now, packed by this call or by an earlier one for the same files. */
export async function packedLoom(): Promise<PackedLoom> {
	for (let attempt = 1; ; attempt++) {
		const { key, hashed } = contentKey();
		const folder = join(tmpdir(), `${PREFIX}${key}`);
		const lock = `${folder}.lock`;
		for (;;) {
			const made = readPacked(folder);
			if (made) return made;
			try {
				mkdirSync(lock);
				break;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			}
			// Another test file packs the same files: its folder, or its lock going (it failed, or was killed).
			await waitFor(() => existsSync(folder) || !existsSync(lock) || holderGone(lock), Boolean, { timeoutMs: PACK_WAIT_MS, intervalMs: 50, what: `${lock} to give way to ${folder}` });
			if (!existsSync(folder) && existsSync(lock) && holderGone(lock)) rmSync(lock, { recursive: true, force: true });
		}
		let packed: boolean;
		try {
			writeFileSync(join(lock, "pid"), String(process.pid));
			// Made while this one waited for the lock's last holder to remove it.
			packed = existsSync(folder) || (await pack(key, hashed, folder));
		} finally {
			rmSync(lock, { recursive: true, force: true });
		}
		if (packed) {
			prune(key);
			const made = readPacked(folder);
			if (made) return made;
		}
		if (attempt === 3) throw new Error("the package's files (dist/) kept changing while npm packed them: was it being rebuilt?");
	}
}
