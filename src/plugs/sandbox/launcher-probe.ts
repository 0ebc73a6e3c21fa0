// Whether this machine can confine a command: bubblewrap on Linux (found on PATH and able to make its
// namespaces: user namespaces may be off, or a container may forbid them), sandbox-exec on macOS. Asked once
// per process and PATH; the answer is kept.
import { spawn, spawnSync } from "node:child_process";
import { findOnPath, isExecutable } from "../../core/index.js";

export type Launcher = { kind: "bwrap" | "seatbelt"; path: string } | { kind: "none"; reason: string; fix: string };

const SEATBELT = "/usr/bin/sandbox-exec";
/** bwrap starts in a few milliseconds; this is for a machine under load. */
const PROBE_TIMEOUT_MS = 10_000;

const probed = new Map<string, Launcher>();

/** The launcher for this platform, probed on first use for each PATH. */
export function findLauncher(pathVariable: string | undefined = process.env.PATH, platform: NodeJS.Platform = process.platform): Launcher {
	const key = `${platform}\0${pathVariable ?? ""}`;
	let launcher = probed.get(key);
	if (!launcher) {
		launcher = probe(pathVariable ?? "", platform);
		probed.set(key, launcher);
	}
	return launcher;
}

function probe(pathVariable: string, platform: NodeJS.Platform): Launcher {
	if (platform === "darwin") {
		return isExecutable(SEATBELT)
			? { kind: "seatbelt", path: SEATBELT }
			: { kind: "none", reason: `${SEATBELT} is missing`, fix: "it ships with macOS; check that /usr/bin is intact" };
	}
	if (platform !== "linux") return { kind: "none", reason: `loom has no sandbox for ${platform}`, fix: "run loom on Linux or macOS for one" };
	const bwrap = findOnPath("bwrap", pathVariable);
	if (!bwrap) {
		return { kind: "none", reason: "bubblewrap (bwrap) is not on PATH", fix: "install it (Debian, Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)" };
	}
	const run = spawnSync(bwrap, PROBE_ARGS, { stdio: ["ignore", "ignore", "pipe"], timeout: PROBE_TIMEOUT_MS, encoding: "utf8" });
	return bwrapVerdict(bwrap, run.status, run.signal, run.stderr ?? "", run.error);
}

/** bubblewrap making the namespaces a command runs in, and running nothing there. */
const PROBE_ARGS = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--die-with-parent", "--", "/bin/sh", "-c", ":"];

/**
 * Starts the probe in the background (a session with a shell tool, as it is assembled), so the first command
 * does not wait on a synchronous bwrap start; findLauncher uses its answer once it is in, and probes itself
 * meanwhile. Nothing to do where the probe needs no process.
 */
export function preloadLauncher(pathVariable: string | undefined = process.env.PATH, platform: NodeJS.Platform = process.platform): void {
	const key = `${platform}\0${pathVariable ?? ""}`;
	if (platform !== "linux" || probed.has(key) || preloading.has(key)) return;
	const bwrap = findOnPath("bwrap", pathVariable ?? "");
	if (!bwrap) return;
	preloading.add(key);
	let stderr = "";
	const settle = (status: number | null, signal: NodeJS.Signals | null, error?: Error) => {
		if (!probed.has(key)) probed.set(key, bwrapVerdict(bwrap, status, signal, stderr, error));
	};
	try {
		const child = spawn(bwrap, PROBE_ARGS, { stdio: ["ignore", "ignore", "pipe"], timeout: PROBE_TIMEOUT_MS });
		child.stderr.on("data", (chunk: Buffer) => {
			if (stderr.length < 4096) stderr += chunk.toString("utf8");
		});
		child.on("error", (error) => settle(null, null, error));
		child.on("close", (status, signal) => settle(status, signal));
		child.unref();
	} catch {
		// Left to findLauncher's own probe.
	}
}

const preloading = new Set<string>();

/** Whether the launcher for this PATH is known already (no probe would run): for tests of the preload. */
export function launcherKnown(pathVariable: string | undefined = process.env.PATH, platform: NodeJS.Platform = process.platform): boolean {
	return probed.has(`${platform}\0${pathVariable ?? ""}`);
}

function bwrapVerdict(bwrap: string, status: number | null, signal: NodeJS.Signals | null, stderr: string, error: Error | undefined): Launcher {
	if (status === 0) return { kind: "bwrap", path: bwrap };
	const said = stderr.trim().split("\n")[0] || error?.message || `exit ${status ?? signal}`;
	return {
		kind: "none",
		reason: `${bwrap} cannot create its namespaces here (${said})`,
		fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0), or in a container run it with user namespaces allowed",
	};
}

