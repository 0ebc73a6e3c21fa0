// The brake on a tainted conversation: once text written by others (a fetched page, an untrusted MCP server) is in
// the model's context, that text may be steering it (prompt injection). What an injected instruction would want —
// to send data out, to fetch and run more, to persist itself outside the project or in the files that configure
// git, loom, Claude Code or MCP servers — is asked about even in `auto` mode. Reading and changing the project's own
// files stay free: the user sees and reviews those.
import { resolve, sep } from "node:path";
import { runsLater } from "../../core/index.js";
import type { CallFacts, FileFact, PolicyContext } from "./call-facts.js";
import { effectiveWords } from "./command-wrappers.js";
import { commandName, FILE_WRITERS, NOT_FILES, type ShellCommand, type ShellWord } from "./shell-line.js";

/** Commands whose job is to reach other machines. */
const NETWORK_COMMANDS = new Set([
	"curl", "wget", "fetch", "aria2c", "http", "https", "xh", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "scp", "sftp", "ftp",
	"rsync", "dig", "nslookup", "host", "ping", "gh", "npx", "bunx", "pnpx", "docker", "podman", "kubectl", "aws", "gcloud", "az",
]);
/** Package managers and tools whose listed subcommands download or upload. */
const NETWORK_SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
	git: new Set(["push", "pull", "fetch", "clone", "ls-remote", "submodule", "remote", "archive", "send-email", "request-pull"]),
	npm: new Set(["install", "i", "ci", "add", "update", "publish", "exec", "x", "create", "init", "view", "login", "audit"]),
	pnpm: new Set(["install", "i", "add", "update", "publish", "dlx", "exec", "create"]),
	yarn: new Set(["install", "add", "upgrade", "publish", "dlx", "create"]),
	bun: new Set(["install", "i", "add", "update", "publish", "x", "create"]),
	pip: new Set(["install", "download"]),
	pip3: new Set(["install", "download"]),
	uv: new Set(["pip", "add", "sync", "run", "tool"]),
	cargo: new Set(["install", "add", "update", "publish", "fetch"]),
	go: new Set(["get", "install", "mod"]),
	gem: new Set(["install", "push"]),
	brew: new Set(["install", "upgrade", "update", "tap"]),
	"apt-get": new Set(["install", "update", "upgrade", "download"]),
	apt: new Set(["install", "update", "upgrade"]),
};
/** Interpreters given code on the command line: what the code does is not known before it runs. */
const INLINE_CODE: Readonly<Record<string, string>> = { python: "-c", python3: "-c", node: "-e", perl: "-e", ruby: "-e", php: "-r", deno: "eval" };

function value(word: ShellWord): string {
	return word.literal ?? word.text;
}

function inside(path: string, folder: string): boolean {
	return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

const RUNS_LATER = "which configures what runs later (git, loom, Claude Code, MCP servers, shells)";

/** Changing such a path outlives the session: what it holds runs later, unasked (git hooks, settings, MCP servers). */
function configPath(path: string): boolean {
	return runsLater(path.replaceAll("\\", sep).replaceAll("/", sep), true);
}

function networkCommand(command: ShellCommand): string | undefined {
	const words = effectiveWords(command.words);
	const name = commandName(words);
	if (name === undefined) return undefined;
	if (NETWORK_COMMANDS.has(name)) return `\`${name}\` reaches the network`;
	const sub = NETWORK_SUBCOMMANDS[name];
	const first = words.slice(1).map(value).find((word) => !word.startsWith("-"));
	if (sub && first !== undefined && sub.has(first)) return `\`${name} ${first}\` reaches the network`;
	if (name === "git" && first === "config") return "`git config` changes git's configuration";
	const flag = INLINE_CODE[name.replace(/[\d.]+$/, "")] ?? INLINE_CODE[name];
	if (flag !== undefined && words.slice(1).some((word) => value(word) === flag)) return `\`${name} ${flag}\` runs code loom cannot check`;
	return undefined;
}

function fileProblem(file: FileFact, ctx: PolicyContext): string | undefined {
	if (!inside(file.real, ctx.realWorkTree)) return `it writes ${file.given}, outside the working tree`;
	if (configPath(file.real.slice(ctx.realWorkTree.length)) || configPath(file.given)) return `it changes ${file.given}, ${RUNS_LATER}`;
	return undefined;
}

/** Why a call must be asked about while the conversation is tainted, or undefined. */
export function taintBrake(call: CallFacts, ctx: PolicyContext): string | undefined {
	for (const file of call.changes) {
		const problem = fileProblem(file, ctx);
		if (problem) return problem;
	}
	for (const file of call.shellWrites) {
		if (file === undefined) return "it writes to a file named only when it runs";
		const problem = fileProblem(file, ctx);
		if (problem) return problem;
	}
	if (!call.shell) return undefined;
	if (!call.shell.complete || call.shell.unread.length > 0) return "loom cannot read all of the command";
	for (const command of call.shell.commands) {
		const network = networkCommand(command);
		if (network) return network;
		const words = effectiveWords(command.words);
		const writer = FILE_WRITERS.has(commandName(words) ?? "");
		for (const word of words.slice(1)) {
			if (word.path === undefined || word.path.startsWith("-")) continue;
			if (configPath(word.path)) return `it names ${value(word)}, ${RUNS_LATER}`;
			const absolute = resolve(ctx.cwd, word.path);
			if (writer && !NOT_FILES.test(absolute) && !inside(absolute, ctx.workTree) && !inside(absolute, ctx.realWorkTree)) {
				return `\`${commandName(words)}\` names ${value(word)}, outside the working tree`;
			}
		}
	}
	return undefined;
}
