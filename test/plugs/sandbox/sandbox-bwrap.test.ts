// The sandbox with real bubblewrap: what the model runs cannot write outside the writable roots (reported on the
// call in plain words), cannot read hidden secrets or write .git, cannot reach the network; the parser's known
// bypasses change nothing outside the project; an MCP stdio server runs confined; unprivileged users get the same
// confinement; without bwrap loom says what it fell back to.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProcessGroupTransport } from "../../../src/plugs/mcp/stdio-transport.js";
import { findLauncher, resetFallbackNotice, Sandbox, startNetworkProxy } from "../../../src/plugs/sandbox/index.js";
import { sandboxCommand } from "../../../src/plugs/sandbox/sandbox-command.js";
import { createBashTool } from "../../../src/tools/index.js";
import { scriptedSdkSession } from "../../support/sdk-session.js";
import { tempDir } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";
import { waitFor } from "../../support/wait-for.js";

const server = useScriptedServer();

/** A project with .git/hooks, a fake HOME with secrets, a temp dir of the sandbox's own, and an outside folder, side by side. */
function layout() {
	const root = tempDir("loom-sandbox-");
	chmodSync(root, 0o755);
	const dirs = { root, project: join(root, "project"), home: join(root, "home"), tmp: join(root, "tmp"), outside: join(root, "outside") };
	for (const dir of [join(dirs.project, ".git", "hooks"), join(dirs.home, ".ssh"), dirs.tmp, dirs.outside]) mkdirSync(dir, { recursive: true });
	writeFileSync(join(dirs.home, ".ssh", "id_ed25519"), "PRIVATE KEY");
	writeFileSync(join(dirs.home, ".bashrc"), "# mine\n");
	return dirs;
}

function sandboxFor(dirs: ReturnType<typeof layout>, overrides: Partial<ConstructorParameters<typeof Sandbox>[0]> = {}) {
	return new Sandbox({ workTree: dirs.project, home: dirs.home, tmpDir: dirs.tmp, ...overrides });
}

async function run(sandbox: Sandbox, cwd: string, command: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
	const bash = createBashTool(cwd, { confine: sandbox.confine, env });
	try {
		const result = await bash.execute("call", { command }, undefined, undefined);
		return (result.content[0] as { text: string }).text;
	} catch (error) {
		return (error as Error).message;
	}
}

/** Every file under `dir`, relative. */
function tree(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("bubblewrap on this machine", () => {
	it("is found and can make its namespaces (as root here; the unprivileged case is below)", () => {
		expect(findLauncher()).toMatchObject({ kind: "bwrap" });
	});
});

describe("a bash call in workspace-write", () => {
	it("writes the project and the temp dir, nothing else; ~/.ssh and loom's logins read empty; .git stays read-only; the refusal is on the call", async () => {
		const dirs = layout();
		const loomHome = join(dirs.home, ".loom");
		mkdirSync(loomHome);
		writeFileSync(join(loomHome, "auth.json"), '{"plans":{"x":{"refresh":"REFRESH-TOKEN"}}}');
		const saved = { HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
		process.env.HOME = dirs.home;
		process.env.TMPDIR = dirs.tmp;
		try {
			const { session } = await scriptedSdkSession(server, { cwd: dirs.project, sandbox: "workspace-write", loomHome });
			const command = [
				"echo in > inside.txt",
				'echo tmp > "$TMPDIR/t.txt"',
				"echo evil >> ~/.bashrc",
				"echo out > ../outside/o.txt",
				"echo hook > .git/hooks/pre-commit",
				"cat ~/.ssh/id_ed25519",
				"base64 ~/.loom/auth.json",
				"true",
			].join("; ");
			server.enqueue({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command } }] }, { text: "done" });
			await session.prompt("go");
			const result = session.messages.find((message) => message.role === "toolResult") as { content: { text: string }[]; details: { sandboxBlocked?: string[] } };
			const text = result.content[0]!.text;
			expect(text).toContain("blocked by the sandbox: write to ~/.bashrc (commands may write only in");
			expect(text).toContain(`blocked by the sandbox: write to ${dirs.outside}/o.txt`);
			expect(text).toContain(`blocked by the sandbox: write to ${dirs.project}/.git/hooks/pre-commit (.git stays read-only inside the project`);
			expect(text).toMatch(/id_ed25519: No such file or directory/);
			expect(text).not.toContain(Buffer.from('{"plans"').toString("base64").slice(0, 8));
			expect(result.details.sandboxBlocked).toEqual(["~/.bashrc", `${dirs.outside}/o.txt`, `${dirs.project}/.git/hooks/pre-commit`]);
			// What the model was sent is the same sentence.
			expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("blocked by the sandbox: write to ~/.bashrc");
			expect(readFileSync(join(dirs.project, "inside.txt"), "utf8")).toBe("in\n");
			expect(readFileSync(join(dirs.tmp, "t.txt"), "utf8")).toBe("tmp\n");
			expect(readFileSync(join(dirs.home, ".bashrc"), "utf8")).toBe("# mine\n");
			expect(tree(dirs.outside)).toEqual([]);
			expect(tree(join(dirs.project, ".git"))).toEqual(["hooks"]);
			session.dispose();
		} finally {
			for (const [key, value] of Object.entries(saved)) {
				if (value === undefined) delete process.env[key];
				else process.env[key] = value;
			}
		}
	});

	it("lets none of the parser's bypasses change anything outside the project", async () => {
		const dirs = layout();
		const sandbox = sandboxFor(dirs, { mode: "workspace-write" });
		const before = tree(dirs.root).filter((path) => !path.startsWith("project"));
		const lines = [
			`env touch ${dirs.outside}/a`,
			`command touch ${dirs.outside}/b`,
			`/usr/bin/touch ${dirs.outside}/c`,
			`t=touch; $t ${dirs.outside}/d`,
			`timeout 5 touch ${dirs.outside}/e`,
			`echo ${dirs.outside}/f | xargs touch`,
			`x='a[$(touch ${dirs.outside}/g)]'; echo $((x))`,
			`bash < <(echo "touch ${dirs.outside}/h; rm -rf ~/.ssh ~/.bashrc")`,
			"rm -rf ~+ ~ 2>/dev/null",
			"true",
		];
		const output = await run(sandbox, dirs.project, lines.join("\n"), { HOME: dirs.home });
		expect(output).toContain("Read-only file system");
		expect(tree(dirs.root).filter((path) => !path.startsWith("project"))).toEqual(before);
		expect(readFileSync(join(dirs.home, ".ssh", "id_ed25519"), "utf8")).toBe("PRIVATE KEY");
		// rm -rf ~+ empties the project (it may), but .git and the project folder itself stay.
		expect(existsSync(join(dirs.project, ".git", "hooks"))).toBe(true);
	});

	it("refuses a connection to a 127.0.0.1 server with the network closed", async () => {
		const dirs = layout();
		const listener = await listen();
		const port = (listener.address() as AddressInfo).port;
		try {
			const probe = `echo > /dev/tcp/127.0.0.1/${port} && echo reached`;
			expect(await run(sandboxFor(dirs, { mode: "off" }), dirs.project, probe)).toContain("reached");
			const confined = await run(sandboxFor(dirs, { mode: "workspace-write" }), dirs.project, probe);
			expect(confined).not.toContain("reached");
			expect(confined).toMatch(/Connection refused|Network is unreachable/);
		} finally {
			listener.close();
		}
	});

	it("lets an allowed host through loom's proxy and refuses the others", async () => {
		const dirs = layout();
		const listener = await listen();
		const port = (listener.address() as AddressInfo).port;
		const refused: string[] = [];
		const open = await startNetworkProxy(["127.0.0.1"], (host) => refused.push(host));
		const closed = await startNetworkProxy(["registry.npmjs.org"], (host) => refused.push(host));
		try {
			const curl = `curl -s -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:${port}/`;
			const through = sandboxFor(dirs, { mode: "workspace-write" });
			through.useNetwork({ kind: "proxy", allow: ["127.0.0.1"], proxyUrl: open.url });
			expect(await run(through, dirs.project, curl)).toBe("200");
			const blocked = sandboxFor(dirs, { mode: "workspace-write" });
			blocked.useNetwork({ kind: "proxy", allow: ["registry.npmjs.org"], proxyUrl: closed.url });
			expect(await run(blocked, dirs.project, curl)).toBe("403");
			expect(refused).toEqual(["127.0.0.1"]);
		} finally {
			listener.close();
			await open.close();
			await closed.close();
		}
	});
});

describe("read-only", () => {
	it("writes nothing but a private /tmp", async () => {
		const dirs = layout();
		const output = await run(sandboxFor(dirs, { mode: "read-only" }), dirs.project, "echo x > /tmp/mine && cat /tmp/mine; echo y > inside.txt; true");
		expect(output).toMatch(/^x\n.*inside\.txt: Read-only file system/s);
		expect(existsSync(join(dirs.project, "inside.txt"))).toBe(false);
		expect(existsSync("/tmp/mine")).toBe(false);
	});
});

describe("/sandbox", () => {
	it("shows the mode and what it allows, switches it, and lets a refused path be written for the session", async () => {
		const dirs = layout();
		const sandbox = sandboxFor(dirs, { mode: "workspace-write" });
		const command = sandboxCommand(sandbox, dirs.project, dirs.home);
		const notices: string[] = [];
		const ctx = { notify: (_level: string, text: string) => notices.push(text) } as never;
		await command.handler("", ctx);
		expect(notices[0]).toContain("Sandbox: workspace-write (commands may write only the working tree and the temp dir");
		expect(notices[0]).toContain(`Writable: ${dirs.project}, ${dirs.tmp}`);
		expect(notices[0]).toContain("Network: closed");
		const write = `echo x > ${dirs.outside}/granted.txt; true`;
		expect(await run(sandbox, dirs.project, write)).toContain("Read-only file system");
		await command.handler(`allow ${dirs.outside}`, ctx);
		expect(notices[1]).toBe(`Commands may write ${dirs.outside} for this session.`);
		expect(await run(sandbox, dirs.project, write)).toBe("(no output)");
		await command.handler("read-only", ctx);
		expect(sandbox.mode).toBe("read-only");
		await command.handler("sometimes", ctx);
		expect(notices.at(-1)).toBe("Unknown sandbox mode \"sometimes\". Use one of: off, workspace-write, read-only, or allow PATH.");
	});
});

describe("an MCP stdio server", () => {
	it("runs confined: it cannot write outside the project nor read ~/.ssh", async () => {
		const dirs = layout();
		const script = join(dirs.project, "server.mjs");
		writeFileSync(
			script,
			`import { writeFileSync, readFileSync } from "node:fs";
const tryIt = (what, act) => { try { act(); process.stderr.write(what + ": ok\\n"); } catch (error) { process.stderr.write(what + ": " + error.code + "\\n"); } };
tryIt("outside", () => writeFileSync(${JSON.stringify(join(dirs.outside, "m.txt"))}, "x"));
tryIt("inside", () => writeFileSync("inside.txt", "x"));
tryIt("ssh", () => readFileSync(${JSON.stringify(join(dirs.home, ".ssh", "id_ed25519"))}));
process.stdin.resume();
`,
		);
		const transport = new ProcessGroupTransport({ transport: "stdio", command: process.execPath, args: [script], cwd: dirs.project, env: {} } as never, sandboxFor(dirs, { mode: "workspace-write" }).confine);
		await transport.start();
		await waitFor(() => transport.stderrTail, (text) => text.includes("ssh:"), { what: "the server's report" });
		await transport.close();
		expect(transport.stderrTail).toBe("outside: EROFS\ninside: ok\nssh: ENOENT\n");
		expect(tree(dirs.outside)).toEqual([]);
	});
});

describe("a settings hook", () => {
	it("runs confined: it writes the project, not outside it", async () => {
		const dirs = layout();
		const loomHome = join(dirs.root, "loom-home");
		const hook = `echo in > "$LOOM_PROJECT_DIR/hook.txt"; echo out > ${JSON.stringify(join(dirs.outside, "hook.txt"))}; exit 0`;
		mkdirSync(loomHome);
		writeFileSync(join(loomHome, "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook }] }] } }));
		// The system temp dir is writable, and holds the layout: the sandbox's own temp dir stands for it.
		const saved = process.env.TMPDIR;
		process.env.TMPDIR = dirs.tmp;
		try {
			const { session } = await scriptedSdkSession(server, { sandbox: "workspace-write" }, { cwd: dirs.project, home: loomHome });
			server.enqueue({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "true" } }] }, { text: "done" });
			await session.prompt("go");
			session.dispose();
		} finally {
			if (saved === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = saved;
		}
		expect(readFileSync(join(dirs.project, "hook.txt"), "utf8")).toBe("in\n");
		expect(tree(dirs.outside)).toEqual([]);
	});
});

describe("web_fetch with a network allowlist", () => {
	it("reaches the hosts commands may reach, and not one a redirect points to outside the list", async () => {
		const dirs = layout();
		const loomHome = join(dirs.root, "loom-home");
		mkdirSync(loomHome);
		const site: Server = createServer((request, response) => {
			if (request.url === "/away") response.writeHead(302, { location: `http://localhost:${(site.address() as AddressInfo).port}/page` }).end();
			else response.writeHead(200, { "content-type": "text/plain" }).end("allowed page");
		});
		await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
		const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
		writeFileSync(join(loomHome, "settings.json"), JSON.stringify({ sandbox: { network: { allow: ["127.0.0.1"] } }, web: { allowPrivate: true } }));
		try {
			const { session } = await scriptedSdkSession(server, { sandbox: "workspace-write", tools: ["web_fetch"] }, { cwd: dirs.project, home: loomHome });
			server.enqueue(
				{ toolCalls: [{ id: "call_1", name: "web_fetch", arguments: { url: `${base}/page` } }, { id: "call_2", name: "web_fetch", arguments: { url: `${base}/away` } }] },
				{ text: "done" },
			);
			await session.prompt("go");
			session.dispose();
			const results = session.messages.filter((message) => message.role === "toolResult") as { content: { text: string }[] }[];
			expect(results[0]!.content[0]!.text).toContain("allowed page");
			expect(results[1]!.content[0]!.text).toContain("localhost is not in the sandbox's network allowlist");
		} finally {
			site.close();
		}
	});
});

/** Pids of the processes whose command line holds `marker`, found in /proc. */
function hostPids(marker: string): number[] {
	return readdirSync("/proc")
		.filter((name) => /^\d+$/.test(name))
		.filter((pid) => {
			try {
				return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(marker);
			} catch {
				return false;
			}
		})
		.map(Number);
}

describe("processes a sandboxed command leaves", () => {
	it("end with the session: a job started with & and a background shell", async () => {
		const dirs = layout();
		const job = `${4000 + Math.floor(Math.random() * 1000)}.25`;
		const shell = `${5000 + Math.floor(Math.random() * 1000)}.75`;
		const { session } = await scriptedSdkSession(server, { sandbox: "workspace-write" }, { cwd: dirs.project, home: join(dirs.root, "loom-home") });
		server.enqueue(
			{ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: `sleep ${job} & echo started` } }] },
			{ toolCalls: [{ id: "call_2", name: "bash", arguments: { command: `sleep ${shell}`, background: true } }] },
			{ text: "done" },
		);
		await session.prompt("go");
		expect(hostPids(job)).toHaveLength(1);
		expect(hostPids(shell)).toHaveLength(1);
		session.dispose();
		await expect.poll(() => [...hostPids(job), ...hostPids(shell)]).toEqual([]);
	});
});

describe("an unprivileged user", () => {
	it("gets the same confinement (unprivileged user namespaces work here)", () => {
		const dirs = layout();
		chownSync(dirs.project, 65534, 65534);
		chownSync(dirs.outside, 65534, 65534);
		const asNobody = (command: string, args: string[]) =>
			spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", command, ...args], { cwd: dirs.project, encoding: "utf8" });
		// The probe loom makes, as that user.
		const probe = asNobody("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--die-with-parent", "--", "/bin/sh", "-c", ":"]);
		expect(probe.stderr).toBe("");
		expect(probe.status).toBe(0);
		const spec = sandboxFor(dirs, { mode: "workspace-write" }).confine({
			command: "/bin/sh",
			args: ["-c", `echo in > inside.txt; echo out > ${dirs.outside}/o.txt; echo done`],
			cwd: dirs.project,
		});
		const run = asNobody(spec.command, [...spec.args]);
		expect(run.stdout).toBe("done\n");
		expect(run.stderr).toContain(`${dirs.outside}/o.txt: Read-only file system`);
		expect(readFileSync(join(dirs.project, "inside.txt"), "utf8")).toBe("in\n");
		expect(tree(dirs.outside)).toEqual([]);
	});
});

describe("without bubblewrap", () => {
	it("says once what it fell back to and how to fix it; a mode asked for refuses to run unconfined", async () => {
		const dirs = layout();
		const bin = join(dirs.root, "bin");
		mkdirSync(bin);
		symlinkSync("/bin/sh", join(bin, "sh"));
		resetFallbackNotice();
		const notices: string[] = [];
		const fallback = sandboxFor(dirs, { pathVariable: bin });
		fallback.onFallback((text) => notices.push(text));
		expect(fallback.mode).toBe("off");
		expect(await run(fallback, dirs.project, `echo out > ${dirs.outside}/o.txt; echo ran`)).toBe("ran");
		await run(fallback, dirs.project, "true");
		expect(notices).toEqual([expect.stringMatching(/^The sandbox is off: bubblewrap \(bwrap\) is not on PATH, so commands and MCP servers run unconfined .* install it \(Debian, Ubuntu: apt install bubblewrap/)]);
		const asked = sandboxFor(dirs, { pathVariable: bin, mode: "workspace-write" });
		expect(await run(asked, dirs.project, "echo ran")).toMatch(/^The sandbox \(workspace-write\) cannot run here: bubblewrap \(bwrap\) is not on PATH, so the command was not run\./);
	});
});

function listen(): Promise<Server> {
	const listener = createServer((_req, res) => res.end("hello"));
	return new Promise((resolve) => listener.listen(0, "127.0.0.1", () => resolve(listener)));
}
