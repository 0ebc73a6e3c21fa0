// A sandbox policy as bubblewrap's arguments: the whole file system read-only, the writable roots bound
// writable, the protected names inside them and the read-only paths bound read-only again, the hidden paths
// covered (an empty tmpfs for a folder, /dev/null for a file), a fresh /dev and /proc, a private /tmp where the
// mode asks, the network namespace unshared when closed. Later binds win, so the order below is the contract.
// Paths that do not exist are left out: a bind would create its mount point on the host.
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import type { SpawnSpec } from "../../core/index.js";
import { protectedPaths, type SandboxPolicy } from "./sandbox-policy.js";

/** How bwrap-args sees the file system (the real one by default; tests give their own). */
export interface PathProbe {
	kind(path: string): "directory" | "file" | undefined;
	/** The path with links resolved (bind sources and targets must be real paths). */
	real(path: string): string;
}

export const realPaths: PathProbe = {
	kind(path) {
		try {
			const stat = statSync(path);
			return stat.isDirectory() ? "directory" : "file";
		} catch {
			return undefined;
		}
	},
	real(path) {
		try {
			return realpathSync(path);
		} catch {
			return path;
		}
	},
};

/** Whether `path` is `folder` or lies inside it. */
export function isWithin(path: string, folder: string): boolean {
	const inside = relative(folder, path);
	return inside === "" || (!inside.startsWith("..") && !isAbsolute(inside));
}

/** The arguments for `bwrap ARGS -- command args…`. */
export function bwrapArgs(policy: SandboxPolicy, spec: SpawnSpec, probe: PathProbe = realPaths): string[] {
	// No PID namespace: jobs a command leaves running (`cmd &`) live on until the session ends, as unconfined, and pids
	// mean the same inside and out. The cost (README, "What it does not cover"): the host's /proc stays visible.
	const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
	const existing = (paths: readonly string[]) =>
		unique(paths.filter((path) => probe.kind(path) !== undefined).map((path) => probe.real(path)));
	if (policy.privateTmp) {
		for (const tmp of existing(["/tmp", policy.tmpDir])) args.push("--tmpfs", tmp);
		// A project inside the temp dir stays visible, read-only.
		for (const seen of existing([policy.workTree, spec.cwd])) {
			if (["/tmp", policy.tmpDir].some((tmp) => isWithin(seen, tmp))) args.push("--ro-bind", seen, seen);
		}
	}
	const roots = existing(policy.writableRoots);
	for (const root of roots) args.push("--bind", root, root);
	for (const path of existing([...protectedPaths(policy), ...policy.readOnlyPaths])) args.push("--ro-bind", path, path);
	for (const path of existing(policy.hiddenPaths)) {
		if (probe.kind(path) === "directory") args.push("--tmpfs", path, "--remount-ro", path);
		else args.push("--ro-bind", "/dev/null", path);
	}
	// An allowlist whose proxy is not listening yet is a closed network.
	if (policy.network.kind === "closed" || !policy.network.proxyUrl) args.push("--unshare-net");
	else if (policy.network.proxyUrl) {
		const url = policy.network.proxyUrl;
		for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"]) args.push("--setenv", name, url);
		args.push("--setenv", "NO_PROXY", "", "--setenv", "no_proxy", "");
	}
	// The hidden agent and bus sockets are not to be looked for either.
	args.push("--unsetenv", "SSH_AUTH_SOCK", "--unsetenv", "DBUS_SESSION_BUS_ADDRESS");
	// bwrap gets no new session: the command stays in the process group loom kills.
	args.push("--die-with-parent", "--chdir", probe.kind(spec.cwd) ? probe.real(spec.cwd) : spec.cwd);
	return [...args, "--", spec.command, ...spec.args];
}

function unique(paths: string[]): string[] {
	return [...new Set(paths)];
}
