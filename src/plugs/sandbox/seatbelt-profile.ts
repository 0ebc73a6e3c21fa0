// A sandbox policy as a macOS Seatbelt profile, run as `sandbox-exec -p PROFILE command args…`. The profile
// allows by default and then denies what the policy takes away; in Seatbelt the last matching rule wins, so
// the order below is the contract: writes denied, the writable roots allowed, protected names and read-only
// paths denied again, hidden paths denied to read and write, the network denied but loom's proxy.
import { protectedPaths, type SandboxPolicy } from "./sandbox-policy.js";

/** Devices every program writes to. */
const DEVICE_WRITES = ['(literal "/dev/null")', '(literal "/dev/zero")', '(literal "/dev/dtracehelper")', '(regex #"^/dev/tty")', '(regex #"^/dev/fd/")'];

/** A string as a Seatbelt string literal. */
function quoted(text: string): string {
	return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(policy: SandboxPolicy): string {
	const lines = ["(version 1)", "(allow default)", "(deny file-write*)", `(allow file-write* ${DEVICE_WRITES.join(" ")})`];
	const roots = [...policy.writableRoots, ...(policy.privateTmp ? [policy.tmpDir] : [])];
	if (roots.length > 0) lines.push(`(allow file-write* ${roots.map((root) => `(subpath ${quoted(root)})`).join(" ")})`);
	const readOnly = [...protectedPaths(policy), ...policy.readOnlyPaths];
	if (readOnly.length > 0) lines.push(`(deny file-write* ${readOnly.map((path) => `(subpath ${quoted(path)})`).join(" ")})`);
	if (policy.hiddenPaths.length > 0) {
		lines.push(`(deny file-read* file-write* ${policy.hiddenPaths.map((path) => `(subpath ${quoted(path)})`).join(" ")})`);
	}
	lines.push("(deny network*)", '(allow network* (remote unix-socket))');
	const port = policy.network.kind === "proxy" && policy.network.proxyUrl ? new URL(policy.network.proxyUrl).port : undefined;
	if (port) lines.push(`(allow network-outbound (remote ip ${quoted(`localhost:${port}`)}))`);
	return `${lines.join("\n")}\n`;
}
