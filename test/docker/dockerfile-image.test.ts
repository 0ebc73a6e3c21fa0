// The Dockerfile's image, made on a machine without Docker (image-root.ts: every stage's instructions done under a
// folder standing for its `/`, the build stage's `npm run build` on exactly the files it copies), then used as
// `docker run` would: its entrypoint, as its user, in its working directory, with its environment.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";
import { ROOT, useScriptedServer } from "../support/loom-process.js";
import { gitProject } from "../support/batch-tasks.js";
import { readDockerfile, stagesOf } from "./dockerfile.js";
import { buildImageRoot, type ImageRoot } from "./image-root.js";

const server = useScriptedServer();
let image: ImageRoot;

beforeAll(() => {
	image = buildImageRoot(stagesOf(readDockerfile()), tempDir("loom-image-"));
}, 900_000);

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** `docker run IMAGE …args`: the entrypoint with the arguments, as the image's user, in its working directory. */
function dockerRun(args: string[], env: Record<string, string> = {}): Promise<Run> {
	const [program, ...entry] = image.entrypoint;
	const child = spawn(program!, [...entry, ...args], { cwd: image.workdir, env: { ...image.env, ...env }, uid: image.user.uid, gid: image.user.gid, stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
	return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** As the image's user, with the image's environment. */
function asUser(program: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
	return spawnSync(program, args, { cwd: options.cwd, env: { ...image.env, ...options.env }, uid: image.user.uid, gid: image.user.gid, encoding: "utf8" });
}

describe("the Dockerfile's image", () => {
	it("holds loom as npm pack ships it (package.json's files), built from the files the build stage copies, with the production dependencies alone", () => {
		const packed = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
		const shipped = new Set<string>(packed[0].files.map((file: { path: string }) => file.path.split("/")[0]));
		const home = image.local("/opt/loom");
		expect(readdirSync(home).sort()).toEqual([...shipped, "node_modules"].sort());
		expect(existsSync(join(home, "dist/bundle/loom.js"))).toBe(true);
		const modules = readdirSync(join(home, "node_modules"));
		const { dependencies, devDependencies } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
		for (const name of Object.keys(dependencies)) expect(existsSync(join(home, "node_modules", name)), name).toBe(true);
		for (const name of ["typescript", "vitest", "rolldown", "dockerfile-utils"]) {
			expect(Object.keys(devDependencies)).toContain(name);
			expect(modules).not.toContain(name);
		}
		// What the image's packages give loom, here as there.
		expect(image.packages).toEqual(["git", "bubblewrap", "ripgrep"]);
		expect(process.version.startsWith("v20.")).toBe(true);
	});

	it("runs the entrypoint as an unprivileged user: --version, then a -p prompt with its key in LOOM_API_KEY, its session in LOOM_HOME, its commands in the sandbox", async () => {
		expect(image.user).toMatchObject({ name: "node", uid: 1000 });
		const version = await dockerRun(["--version"]);
		expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);

		// The project, mounted at the working directory by `docker run --user "$(id -u):$(id -g)" -v "$PWD:/work"`.
		const project = image.workdir;
		for (const args of [["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "start"]]) {
			expect(asUser("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: project }).status).toBe(0);
		}
		server.enqueue(
			{ toolCalls: [{ name: "bash", arguments: { command: 'echo in > inside.txt && echo out > "$HOME/outside.txt"; echo ran' } }] },
			{ text: "done" },
		);
		const run = await dockerRun(["-p", "--provider", "openai", "--model", "scripted", "--base-url", server.openaiBaseUrl, "do it"], { LOOM_API_KEY: "test-key" });
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout.trim()).toBe("done");
		expect(readFileSync(join(project, "inside.txt"), "utf8")).toBe("in\n");
		const home = image.env.LOOM_HOME!;
		expect(statSync(home).mode & 0o7777).toBe(0o1777);
		const sessions = join(home, "sessions");
		expect(readdirSync(sessions)).toHaveLength(1);
		expect(statSync(sessions).uid).toBe(image.user.uid);
		// bubblewrap, where this machine lets the image's user make namespaces (a container needs them allowed too):
		// the command ran confined, its write to HOME kept out; elsewhere loom said why it ran without.
		const bwrap = asUser("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--", "/bin/true"]);
		if (bwrap.status === 0) {
			expect(run.stderr).not.toContain("The sandbox is off");
			expect(existsSync(join(image.env.HOME!, "outside.txt"))).toBe(false);
		} else {
			expect(run.stderr).toContain("The sandbox is off: ");
			expect(run.stderr).toContain("in a container run it with user namespaces allowed");
		}
	});

	it("lets git work in a project that belongs to another user (the host's, mounted at /work)", () => {
		const project = join(tempDir("loom-image-project-"), "project");
		mkdirSync(project);
		gitProject(project);
		execFileSync("chmod", ["-R", "a+rX", join(project, "..")]);
		execFileSync("chown", ["-R", "1001:1001", project]);
		const top = asUser("git", ["rev-parse", "--show-toplevel"], { cwd: project });
		expect(top.stderr).toBe("");
		expect(top.stdout.trim()).toBe(project);
		// Without the image's system configuration, git refuses it.
		const refused = asUser("git", ["rev-parse", "--show-toplevel"], { cwd: project, env: { GIT_CONFIG_SYSTEM: "/dev/null" } });
		expect(refused.stderr).toContain("dubious ownership");
	});
});
