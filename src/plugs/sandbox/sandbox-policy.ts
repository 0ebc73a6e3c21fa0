// What the sandbox lets a command do, as one value both launchers (bubblewrap, Seatbelt) compile: which folders
// it may write, which names inside them stay read-only, what it must not see, and whether it reaches the network.
import { isAbsolute, join, resolve } from "node:path";
import { expandHome, RUNS_LATER_NAMES, type SandboxMode, type Settings } from "../../core/index.js";

/**
 * Inside a writable root these stay read-only unless the user allows them (`sandbox.writableProtected`): code planted
 * there runs later without anyone approving it.
 */
export const PROTECTED_NAMES = RUNS_LATER_NAMES;

/** Secrets hidden from every command, besides what `read` deny rules and `sandbox.hide` name. */
export const DEFAULT_HIDDEN = ["~/.ssh", "~/.aws", "~/.gnupg"] as const;

/**
 * Sockets a read-only file system does not stop a command from connecting to, each a way out of the sandbox: the
 * user's session bus and runtime folder (`systemd-run --user` runs anything), Docker's daemon, the SSH agent (the
 * keys hidden with ~/.ssh, usable through it). Hidden where they exist.
 */
export function escapeSockets(env: NodeJS.ProcessEnv, uid = process.getuid?.()): string[] {
	const runtime = env.XDG_RUNTIME_DIR || (uid === undefined ? undefined : `/run/user/${uid}`);
	return [runtime, "/run/docker.sock", "/var/run/docker.sock", env.SSH_AUTH_SOCK].filter((path): path is string => Boolean(path && isAbsolute(path)));
}

export type SandboxNetwork =
	| { kind: "closed" }
	/** Only through loom's proxy at `proxyUrl`, which lets `allow` hosts through (the network is shared: a weaker guarantee). */
	| { kind: "proxy"; allow: readonly string[]; proxyUrl?: string };

export interface SandboxPolicy {
	mode: SandboxMode;
	/** Absolute folders commands may write (none in read-only). */
	writableRoots: string[];
	/** Names kept read-only inside each writable root. */
	protectedNames: string[];
	/** Absolute paths kept read-only wherever they are (write/edit deny rules). */
	readOnlyPaths: string[];
	/** Absolute paths replaced by an empty folder or file. */
	hiddenPaths: string[];
	/** The project, seen (read-only at least) even where a private /tmp would cover it. */
	workTree: string;
	/** The system temp dir: writable in workspace-write, private in read-only. */
	tmpDir: string;
	/** A private, empty /tmp and temp dir instead of the host's. */
	privateTmp: boolean;
	network: SandboxNetwork;
}

export interface SandboxPolicyInputs {
	mode: SandboxMode;
	/** The project: the repository's top, else the working directory. */
	workTree: string;
	home: string;
	/** The system temp dir (os.tmpdir()), writable in workspace-write. */
	tmpDir: string;
	settings?: Settings["sandbox"];
	/** What the approval rules' file patterns compile to. */
	pathRules?: { hidden: readonly string[]; readOnly: readonly string[]; writable: readonly string[] };
	/** Where the escape sockets are found (default: loom's environment). */
	env?: NodeJS.ProcessEnv;
	/** loom's own secrets (its logins' auth.json), hidden like ~/.ssh: the mask sees a token, not its base64. */
	secretFiles?: readonly string[];
}

export function sandboxPolicy(inputs: SandboxPolicyInputs): SandboxPolicy {
	const { mode, home, settings = {}, pathRules } = inputs;
	const absolute = (path: string) => resolve(expandHome(path, home));
	const writable = mode === "workspace-write";
	const allowProtected = new Set(settings.writableProtected ?? []);
	const allow = settings.network?.allow ?? [];
	return {
		mode,
		writableRoots: writable
			? unique([resolve(inputs.workTree), resolve(inputs.tmpDir), ...(settings.writableRoots ?? []).map(absolute), ...(pathRules?.writable ?? [])])
			: [],
		protectedNames: PROTECTED_NAMES.filter((name) => !allowProtected.has(name)),
		readOnlyPaths: unique([...(pathRules?.readOnly ?? [])]),
		hiddenPaths: unique([...DEFAULT_HIDDEN.map((path) => join(home, path.slice(2))), ...(settings.hide ?? []).map(absolute), ...(pathRules?.hidden ?? []), ...(inputs.secretFiles ?? []), ...escapeSockets(inputs.env ?? process.env)]),
		workTree: resolve(inputs.workTree),
		tmpDir: resolve(inputs.tmpDir),
		privateTmp: mode === "read-only",
		network: allow.length > 0 ? { kind: "proxy", allow } : { kind: "closed" },
	};
}

/** The protected names inside each writable root but the temp dir (shared with every program, it plants nothing loom runs). */
export function protectedPaths(policy: SandboxPolicy): string[] {
	return policy.writableRoots.filter((root) => root !== policy.tmpDir).flatMap((root) => policy.protectedNames.map((name) => join(root, name)));
}

function unique(paths: string[]): string[] {
	return [...new Set(paths)];
}
