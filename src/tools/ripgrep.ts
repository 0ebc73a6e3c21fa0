// ripgrep, when it is on the PATH, as grep's fast first pass: it walks the tree in parallel, skipping what
// .gitignore excludes, and names the files holding a piece of text every match must contain. grep then reads
// only those, in the walk's order, with its own matcher and its own ignore rules, so what it finds is what the
// Node walk finds (see grep.ts). Files are searched as bytes (no transcoding of a UTF-16 file by its BOM), as
// grep looks at a file's bytes for the text.
import { spawn } from "node:child_process";
import { findOnPath, walkOrder } from "../core/index.js";

export interface RipgrepPass {
	/** Files (walk-relative, in walk order) that hold the text. */
	candidates: string[];
	/** Files over maxFileBytes that ripgrep left unread (walk-relative, in walk order); none without a limit. */
	tooBig: string[];
	/** Files ripgrep read. */
	searched: number;
}

let found: { path: string | undefined } | undefined;

/** ripgrep's path, looked up once per process; undefined when it is not installed. */
export function ripgrepOnPath(): string | undefined {
	found ??= { path: findOnPath("rg", process.env.PATH ?? "") };
	return found.path;
}

/**
 * Lists the files under `root` holding `text` (ignoring case when asked); ignore files are read as the Node walk
 * reads them: every .gitignore inside git or not, .git/info/exclude, dotfiles searched, .git skipped, no
 * .ignore/.rgignore or global excludes. Undefined when ripgrep could not run or said something not understood.
 */
export async function ripgrepPass(rg: string, root: string, text: string, options: RipgrepOptions & { ignoreCase: boolean }): Promise<RipgrepPass | undefined> {
	const search = ["--files-with-matches", "--fixed-strings", "--text", "--stats", ...(options.ignoreCase ? ["--ignore-case"] : ["--case-sensitive"])];
	// --debug names each file left out for its size.
	if (options.maxFileBytes !== undefined) search.push("--debug");
	const output = await run(rg, root, [...search, ...walkArgs(options.maxFileBytes), "--regexp", text, "--", "."], options.signal);
	return output && parsePass(output.stdout, output.stderr);
}

export interface RipgrepOptions {
	/**
	 * Larger files are left out, unread. Without it every file is read: asking each file's size costs ripgrep a
	 * stat per file, a fifth of its time on a tree of small files.
	 */
	maxFileBytes?: number;
	signal?: AbortSignal;
}

/** Every file the pass reads (walk-relative, in walk order): those not ignored and within maxFileBytes, if given. */
export async function ripgrepFiles(rg: string, root: string, options: RipgrepOptions): Promise<string[] | undefined> {
	const output = await run(rg, root, ["--files", ...walkArgs(options.maxFileBytes), "--", "."], options.signal);
	return output && nulList(output.stdout, output.stdout.length);
}

/** How both passes walk: as the Node walk does (see ripgrepPass). */
function walkArgs(maxFileBytes: number | undefined): string[] {
	return [
		"--null",
		"--hidden",
		"--no-ignore-dot",
		"--no-ignore-global",
		"--no-require-git",
		"--no-ignore-parent",
		"--no-config",
		"--no-messages",
		"--encoding",
		"none",
		"--glob",
		"!.git",
		...(maxFileBytes === undefined ? [] : ["--max-filesize", String(maxFileBytes)]),
	];
}

function run(rg: string, root: string, args: string[], signal: AbortSignal | undefined): Promise<{ stdout: string; stderr: string } | undefined> {
	return new Promise((resolve) => {
		const child = spawn(rg, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RIPGREP_CONFIG_PATH: "" } });
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		const abort = () => child.kill("SIGKILL");
		signal?.addEventListener("abort", abort, { once: true });
		child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
		child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
		child.on("error", () => resolve(undefined));
		child.on("close", (code) => {
			signal?.removeEventListener("abort", abort);
			// 0: files found, 1: none, 2: some file could not be read (the others were searched).
			if (code === null || code > 2) return resolve(undefined);
			resolve({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
		});
	});
}

/** `--null --stats` output: "./path\0" per file, then the statistics; `--debug` names each file left out for its size. */
export function parsePass(stdout: string, stderr: string): RipgrepPass | undefined {
	const end = stdout.lastIndexOf("\0");
	const searched = /^(\d+) files searched$/m.exec(stdout.slice(end + 1))?.[1];
	if (searched === undefined) return undefined;
	const candidates = nulList(stdout, end);
	const tooBig: string[] = [];
	for (const line of stderr.split("\n")) {
		const big = /\bignoring (.+): \d+ bytes$/.exec(line);
		if (big) tooBig.push(relative(big[1]!));
	}
	return { candidates, tooBig: tooBig.sort(walkOrder), searched: Number(searched) };
}

/** The "./path\0" records before `end`, walk-relative, in walk order. */
function nulList(stdout: string, end: number): string[] {
	const records = stdout.slice(0, end).split("\0");
	if (records.at(-1) === "") records.pop();
	return records.map(relative).sort(walkOrder);
}

function relative(path: string): string {
	return path.startsWith("./") ? path.slice(2) : path;
}
