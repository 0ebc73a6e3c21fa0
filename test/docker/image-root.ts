// Loom's image built on a machine without Docker, as far as it can be: each stage's files made under a folder
// standing for its `/` by doing what each instruction says (COPY copies, RUN's commands run with their paths under
// that folder), the base image being this machine (its Node, its Debian packages). Commands this file does not know
// fail the build, so a change of the Dockerfile is exercised or reported, never skipped.
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { basename, dirname, isAbsolute, join, posix } from "node:path";
import { findOnPath } from "../../src/core/index.js";
import { ROOT } from "../support/loom-process.js";
import { commandsOf, type Stage, type Step } from "./dockerfile.js";

/** The users of the base image (node:20-slim) by name. */
const BASE_USERS: Record<string, { uid: number; gid: number; home: string }> = {
	root: { uid: 0, gid: 0, home: "/root" },
	node: { uid: 1000, gid: 1000, home: "/home/node" },
};

export interface ImageRoot {
	/** The folder standing for the image's `/`. */
	root: string;
	/** The image's environment (ENV, HOME), its paths as this machine has them; TMPDIR is its /tmp, GIT_CONFIG_SYSTEM its /etc/gitconfig. */
	env: Record<string, string>;
	user: { name: string; uid: number; gid: number };
	/** The last WORKDIR, on this machine. */
	workdir: string;
	/** ENTRYPOINT, its program found on the image's PATH. */
	entrypoint: string[];
	/** The Debian packages its RUN installs, each found here by its command. */
	packages: string[];
	/** An image path as this machine has it: under the root if the image made it there, else the base's own (this machine's). */
	local(path: string): string;
}

interface StageState {
	root: string;
	workdir: string;
	env: Record<string, string>;
	user: string;
	entrypoint?: string[];
	packages: string[];
}

/** Builds every stage under `dir` (one folder each); returns the last, the image. */
export function buildImageRoot(stages: Stage[], dir: string): ImageRoot {
	const built = new Map<string, StageState>();
	let last: StageState | undefined;
	stages.forEach((stage, index) => {
		if (!/^node:20(-|$)/.test(stage.image)) throw new Error(`FROM ${stage.image}: this machine stands for node:20 images only`);
		const root = join(dir, stage.name ?? `stage-${index}`);
		mkdirSync(root, { recursive: true });
		chmodSync(dir, 0o755);
		chmodSync(root, 0o755);
		const state: StageState = { root, workdir: "/", env: { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin" }, user: "root", packages: [] };
		for (const step of stage.steps) doStep(step, state, built);
		if (stage.name) built.set(stage.name, state);
		last = state;
	});
	const image = last!;
	const local = (path: string) => (isAbsolute(path) && existsSync(join(image.root, path)) ? join(image.root, path) : path);
	const user = BASE_USERS[image.user];
	if (!user) throw new Error(`USER ${image.user}: not a user of the base image (${Object.keys(BASE_USERS).join(", ")})`);
	const home = join(image.root, user.home);
	mkdirSync(home, { recursive: true });
	execFileSync("chown", [`${user.uid}:${user.gid}`, home]);
	// The image's own /tmp, as a container has it (this machine's /tmp holds the root itself).
	const tmp = join(image.root, "tmp");
	mkdirSync(tmp, { recursive: true });
	chmodSync(tmp, 0o1777);
	const env: Record<string, string> = { HOME: home, TMPDIR: tmp, GIT_CONFIG_SYSTEM: join(image.root, "etc/gitconfig") };
	for (const [name, value] of Object.entries(image.env)) env[name] = value.split(":").map(local).join(":");
	const [program, ...args] = image.entrypoint ?? [];
	if (!program) throw new Error("the image has no ENTRYPOINT");
	const found = program.includes("/") ? local(program) : findOnPath(program, env.PATH ?? "");
	if (!found) throw new Error(`ENTRYPOINT ${program}: not found on the image's PATH (${env.PATH})`);
	return { root: image.root, env, user: { name: image.user, uid: user.uid, gid: user.gid }, workdir: local(image.workdir), entrypoint: [found, ...args], packages: image.packages, local };
}

function doStep(step: Step, state: StageState, built: Map<string, StageState>): void {
	const at = (path: string) => join(state.root, posix.resolve(state.workdir, path));
	switch (step.keyword) {
		case "WORKDIR":
			state.workdir = posix.resolve(state.workdir, step.args[0]!);
			mkdirSync(at("."), { recursive: true });
			return;
		case "COPY":
			return copy(step, state, at, built);
		case "RUN":
			for (const command of commandsOf(step)) run(command, step, state, at);
			return;
		case "ENV":
			for (const [name, value] of step.env ?? []) state.env[name] = value.replace(/\$\{?(\w+)\}?/g, (_, variable: string) => state.env[variable] ?? "");
			return;
		case "USER":
			state.user = step.args[0]!;
			return;
		case "ENTRYPOINT":
			if (!step.exec) throw new Error(`Dockerfile:${step.line}: ENTRYPOINT in shell form (signals would reach the shell, not loom)`);
			state.entrypoint = step.exec;
			return;
		default:
			throw new Error(`Dockerfile:${step.line}: ${step.keyword} is not built by test/docker/image-root.ts; teach it`);
	}
}

/** COPY's rules: a folder's contents go into the destination; files into it when it ends with / or there are several. */
function copy(step: Step, state: StageState, at: (path: string) => string, built: Map<string, StageState>): void {
	const sources = step.args.slice(0, -1);
	const destination = step.args.at(-1)!;
	const from = step.from === undefined ? undefined : built.get(step.from);
	if (step.from !== undefined && !from) throw new Error(`Dockerfile:${step.line}: no stage named ${step.from} before`);
	const intoFolder = destination.endsWith("/") || sources.length > 1;
	for (const source of sources) {
		const path = from ? join(from.root, posix.resolve(from.workdir, source)) : join(ROOT, source);
		if (!existsSync(path)) throw new Error(`Dockerfile:${step.line}: COPY ${source}: ${path} does not exist`);
		const target = intoFolder && !statSync(path).isDirectory() ? join(at(destination), basename(source)) : at(destination);
		mkdirSync(dirname(target), { recursive: true });
		// Between stages, hard links (the dependencies are large); from the repository, copies (its files stay its own).
		if (from) execFileSync("cp", ["-al", statSync(path).isDirectory() ? `${path}/.` : path, target]);
		else cpSync(path, target, { recursive: true, verbatimSymlinks: true });
	}
}

/** A RUN command, done on this machine: the paths it names under the stage's root. */
function run(command: string, step: Step, state: StageState, at: (path: string) => string): void {
	const cwd = at(".");
	const rooted = (word: string) => (word.startsWith("/") ? join(state.root, word) : word);
	const words = command.split(/\s+/).map((word) => word.replace(/^'(.*)'$/, "$1"));
	const owner = (spec: string) => spec.split(":").map((name) => String(BASE_USERS[name]?.uid ?? name)).join(":");
	if (command === "npm ci --ignore-scripts") {
		// The packages the lock file pins, as installed here (tests have no network).
		symlinkSync(join(ROOT, "node_modules"), join(cwd, "node_modules"));
	} else if (/^npm run [\w:-]+$/.test(command)) {
		try {
			execFileSync("npm", ["run", words[2]!], { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
		} catch (error) {
			const { stdout, stderr } = error as { stdout?: string; stderr?: string };
			throw new Error(`Dockerfile:${step.line}: \`${command}\` failed:\n${stdout ?? ""}${stderr ?? ""}`);
		}
	} else if (command === "npm prune --omit=dev") {
		pruneToProduction(cwd);
	} else if (command === "apt-get update") {
		// The base here is this machine: its packages are checked where they are installed.
	} else if (/\bapt-get install\b/.test(command)) {
		const list = words.find((word) => word.startsWith("/") && existsSync(rooted(word)));
		if (!list) throw new Error(`Dockerfile:${step.line}: the test reads the packages from a copied list file: ${command}`);
		for (const line of readFileSync(rooted(list), "utf8").split("\n")) {
			if (!line || line.startsWith("#")) continue;
			const [name, program] = line.split(" ");
			if (!program || !findOnPath(program, process.env.PATH ?? "")) throw new Error(`the image's package ${name} (${program}) is not installed here: run .ci/run`);
			state.packages.push(name!);
		}
	} else if (words[0] === "rm") {
		for (const word of words.slice(1)) if (word.startsWith("/") && !word.includes("..")) rmSync(rooted(word.replace(/\/\*$/, "")), { recursive: true, force: true });
	} else if (words[0] === "git" && words[1] === "config" && words[2] === "--system") {
		mkdirSync(join(state.root, "etc"), { recursive: true });
		execFileSync("git", words.slice(1), { env: { ...process.env, GIT_CONFIG_SYSTEM: join(state.root, "etc/gitconfig") } });
	} else if (words[0] === "mkdir") {
		execFileSync("mkdir", words.slice(1).map(rooted));
	} else if (words[0] === "chown") {
		execFileSync("chown", [owner(words[1]!), ...words.slice(2).map(rooted)]);
	} else {
		throw new Error(`Dockerfile:${step.line}: the test does not know how to do \`${command}\` on this machine; teach test/docker/image-root.ts`);
	}
}

/**
 * What `npm prune --omit=dev` leaves: the packages of the lock file that are not for development alone, hard-linked
 * from the installed ones (the packages nested in them come along).
 */
function pruneToProduction(cwd: string): void {
	const modules = join(cwd, "node_modules");
	const lock = JSON.parse(readFileSync(join(cwd, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> };
	const installed = join(ROOT, "node_modules");
	rmSync(modules, { force: true });
	for (const [path, entry] of Object.entries(lock.packages)) {
		const name = path.replace(/^node_modules\//, "");
		// Top-level packages alone; an optional one for another platform is not installed.
		if (entry.dev || !path.startsWith("node_modules/") || name.includes("/node_modules/") || !existsSync(join(installed, name))) continue;
		mkdirSync(dirname(join(modules, name)), { recursive: true });
		execFileSync("cp", ["-al", join(installed, name), join(modules, name)]);
	}
}
