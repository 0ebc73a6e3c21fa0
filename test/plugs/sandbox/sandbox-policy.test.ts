// The sandbox's policy and its compiled forms, on their text: bubblewrap's arguments, the Seatbelt profile,
// the refused writes found in output, the proxy's host matching, the approval rules' paths as binds.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings, SettingsError } from "../../../src/core/config/settings.js";
import { sandboxPathRules } from "../../../src/plugs/policy/index.js";
import { bwrapArgs, hostAllowed, sandboxBlocks, sandboxPolicy, seatbeltProfile, type PathProbe } from "../../../src/plugs/sandbox/index.js";
import { tempDir } from "../../support/temp-dir.js";

/** A file system of the paths named: folders end with a slash. */
function fakeProbe(paths: string[]): PathProbe {
	return {
		kind: (path) => (paths.includes(`${path}/`) ? "directory" : paths.includes(path) ? "file" : undefined),
		real: (path) => path,
	};
}

const spec = { command: "/bin/bash", args: ["-c", "true"], cwd: "/work/proj" };
const fs = fakeProbe(["/work/proj/", "/work/proj/.git/", "/work/proj/.mcp.json", "/tmp/", "/home/u/.ssh/", "/work/proj/.env", "/home/u/notes/", "/run/user/1000/", "/tmp/ssh-x/agent.1"]);
/** A session with a runtime folder (its bus) and an SSH agent: the sockets a read-only file system lets a command reach. */
const env = { XDG_RUNTIME_DIR: "/run/user/1000", SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1" };

describe("bwrapArgs", () => {
	it("binds / read-only, the writable roots writable, protected names read-only, hides secrets, closes the network", () => {
		const policy = sandboxPolicy({ mode: "workspace-write", workTree: "/work/proj", home: "/home/u", tmpDir: "/tmp", pathRules: { hidden: ["/work/proj/.env"], readOnly: [], writable: [] }, env });
		const args = bwrapArgs(policy, spec, fs);
		expect(args.join(" ")).toBe(
			[
				"--ro-bind / / --dev /dev --proc /proc",
				"--bind /work/proj /work/proj --bind /tmp /tmp",
				"--ro-bind /work/proj/.git /work/proj/.git --ro-bind /work/proj/.mcp.json /work/proj/.mcp.json",
				"--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh --ro-bind /dev/null /work/proj/.env",
				"--tmpfs /run/user/1000 --remount-ro /run/user/1000 --ro-bind /dev/null /tmp/ssh-x/agent.1",
				"--unshare-net --unsetenv SSH_AUTH_SOCK --unsetenv DBUS_SESSION_BUS_ADDRESS --die-with-parent --chdir /work/proj -- /bin/bash -c true",
			].join(" "),
		);
	});

	it("gives read-only a private /tmp, with a project inside it still seen, and writes nothing", () => {
		const probe = fakeProbe(["/tmp/", "/tmp/proj/"]);
		const policy = sandboxPolicy({ mode: "read-only", workTree: "/tmp/proj", home: "/home/u", tmpDir: "/tmp" });
		const args = bwrapArgs(policy, { ...spec, cwd: "/tmp/proj" }, probe).join(" ");
		expect(args).toContain("--tmpfs /tmp --ro-bind /tmp/proj /tmp/proj");
		expect(args).not.toContain("--bind ");
		expect(args).toContain("--unshare-net");
	});

	it("lets the user write a protected name, and shares the network only once the proxy listens", () => {
		const settings = { writableProtected: [".git"], network: { allow: ["registry.npmjs.org"] }, writableRoots: ["~/notes"] };
		const policy = sandboxPolicy({ mode: "workspace-write", workTree: "/work/proj", home: "/home/u", tmpDir: "/tmp", settings });
		expect(bwrapArgs(policy, spec, fs).join(" ")).not.toContain("/work/proj/.git");
		expect(bwrapArgs(policy, spec, fs)).toContain("--unshare-net");
		expect(bwrapArgs(policy, spec, fs).join(" ")).toContain("--bind /home/u/notes /home/u/notes");
		const proxied = bwrapArgs({ ...policy, network: { kind: "proxy", allow: ["registry.npmjs.org"], proxyUrl: "http://127.0.0.1:4000" } }, spec, fs);
		expect(proxied).not.toContain("--unshare-net");
		expect(proxied.join(" ")).toContain("--setenv HTTPS_PROXY http://127.0.0.1:4000");
	});
});

describe("seatbeltProfile", () => {
	it("denies writes but the roots, re-denies protected names, hides secrets, closes the network", () => {
		const policy = sandboxPolicy({ mode: "workspace-write", workTree: "/work/proj", home: "/home/u", tmpDir: "/tmp", env: {} });
		const profile = seatbeltProfile(policy);
		const lines = profile.trim().split("\n");
		expect(lines.slice(0, 3)).toEqual(["(version 1)", "(allow default)", "(deny file-write*)"]);
		expect(profile).toContain('(allow file-write* (subpath "/work/proj") (subpath "/tmp"))');
		expect(profile).toContain('(deny file-write* (subpath "/work/proj/.loom") (subpath "/work/proj/.git") (subpath "/work/proj/.husky") (subpath "/work/proj/.claude") (subpath "/work/proj/.vscode") (subpath "/work/proj/.mcp.json") (subpath "/work/proj/.envrc") (subpath "/work/proj/.bashrc") (subpath "/work/proj/.bash_profile") (subpath "/work/proj/.bash_login") (subpath "/work/proj/.profile") (subpath "/work/proj/.zshrc") (subpath "/work/proj/.zshenv") (subpath "/work/proj/.zprofile") (subpath "/work/proj/.zlogin"))');
		expect(profile).toContain('(deny file-read* file-write* (subpath "/home/u/.ssh") (subpath "/home/u/.aws") (subpath "/home/u/.gnupg") (subpath "/run/user/'+process.getuid!()+'") (subpath "/run/docker.sock") (subpath "/var/run/docker.sock"))');
		// Later rules win: the protected names come after the roots they lie in.
		expect(profile.indexOf("(allow file-write* (subpath")).toBeLessThan(profile.indexOf('(deny file-write* (subpath "/work/proj/.loom")'));
		expect(lines.at(-1)).toBe("(allow network* (remote unix-socket))");
		expect(profile).toContain("(deny network*)");
	});

	it("opens only the proxy's port with an allowlist, and quotes paths", () => {
		const policy = sandboxPolicy({ mode: "read-only", workTree: '/work/a "b"', home: "/home/u", tmpDir: "/tmp/x" });
		const profile = seatbeltProfile({ ...policy, network: { kind: "proxy", allow: ["a.com"], proxyUrl: "http://127.0.0.1:4123" } });
		expect(profile).toContain('(allow network-outbound (remote ip "localhost:4123"))');
		expect(profile).toContain('(allow file-write* (subpath "/tmp/x"))');
		expect(profile).not.toContain('"/work/a "b""');
	});
});

describe("sandboxBlocks", () => {
	const policy = sandboxPolicy({ mode: "workspace-write", workTree: "/work/proj", home: "/home/u", tmpDir: "/tmp" });
	it("finds each write the read-only file system refused, with why, in a person's words", () => {
		const output = [
			"touch: cannot touch '/home/u/.bashrc': Read-only file system",
			"bash: line 1: /etc/x: Read-only file system",
			"touch: cannot touch '.git/hooks/pre-commit': Read-only file system",
			"touch: cannot touch '/work/proj/ok': Permission denied",
		].join("\n");
		const blocks = sandboxBlocks(output, policy, "/work/proj", "/home/u");
		expect(blocks.map((block) => block.path)).toEqual(["~/.bashrc", "/etc/x", "/work/proj/.git/hooks/pre-commit"]);
		expect(blocks[0]!.why).toBe("commands may write only in /work/proj, /tmp");
		expect(blocks[2]!.why).toMatch(/^\.git stays read-only inside the project/);
	});

	it("says nothing with the sandbox off", () => {
		expect(sandboxBlocks("touch: cannot touch '/x': Read-only file system", { ...policy, mode: "off" }, "/", "/home/u")).toEqual([]);
	});
});

describe("hostAllowed", () => {
	it("matches names exactly, and *.name its subdomains and itself", () => {
		expect(hostAllowed("registry.npmjs.org", ["registry.npmjs.org"])).toBe(true);
		expect(hostAllowed("evil-registry.npmjs.org", ["registry.npmjs.org"])).toBe(false);
		expect(hostAllowed("api.github.com", ["*.github.com"])).toBe(true);
		expect(hostAllowed("github.com", ["*.github.com"])).toBe(true);
		expect(hostAllowed("notgithub.com", ["*.github.com"])).toBe(false);
		expect(hostAllowed("127.0.0.1", ["github.com"])).toBe(false);
	});
});

describe("sandboxPathRules", () => {
	it("compiles read deny rules to hidden paths, write deny rules to read-only ones, write allow rules outside the project to roots", () => {
		const cwd = tempDir();
		mkdirSync(join(cwd, "config"), { recursive: true });
		writeFileSync(join(cwd, "config", ".env"), "KEY=1");
		writeFileSync(join(cwd, ".env"), "KEY=1");
		const settings = { deny: ["read(~/.kube/**)", "read(.env)", "write(./dist/)", "bash(rm *)"], allow: ["edit(/srv/notes/**)", "edit(src/**)"] };
		const rules = sandboxPathRules({ settings, settingsFile: "settings.json", cwd, home: "/home/u" });
		expect(rules.hidden.sort()).toEqual(["/home/u/.kube", join(cwd, ".env"), join(cwd, "config", ".env")].sort());
		expect(rules.readOnly).toEqual([join(cwd, "dist")]);
		expect(rules.writable).toEqual(["/srv/notes"]);
	});
});

describe("settings' sandbox", () => {
	it("takes a mode, roots, protected names allowed, hidden paths and a network allowlist; refuses an unknown mode", () => {
		const home = tempDir();
		const sandbox = { mode: "read-only", writableRoots: ["~/.npm"], writableProtected: [".git"], hide: ["~/.kube"], network: { allow: ["registry.npmjs.org"] } };
		writeFileSync(join(home, "settings.json"), JSON.stringify({ sandbox }));
		expect(loadSettings(home).sandbox).toEqual(sandbox);
		writeFileSync(join(home, "settings.json"), JSON.stringify({ sandbox: { mode: "sometimes" } }));
		expect(() => loadSettings(home)).toThrow(SettingsError);
	});
});
