// The package as a user installs it: `npm pack`, then `npm ci` of the tarball into a new project without the
// network (its dependencies come from npm's cache, which `npm ci` of this repository filled), then
// `import { createAgentSession, SessionManager } from "loom"` by name, with types: the bundled entry, without
// loading Ink or React.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, useScriptedServer } from "../support/loom-process.js";
import { tempDir } from "../support/temp-dir.js";

const server = useScriptedServer();
const run = promisify(execFile);

/** Runs a command, failing with its output when it fails. */
async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
	try {
		return (await run(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 })).stdout;
	} catch (error) {
		const { stdout, stderr } = error as { stdout?: string; stderr?: string };
		throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`);
	}
}

interface LockEntry {
	version?: string;
	resolved?: string;
	integrity?: string;
	dev?: boolean;
	devOptional?: boolean;
	[key: string]: unknown;
}

/** What the consumer project develops with, as a TypeScript user of loom would: Node's types (and what they need). */
const CONSUMER_DEV = ["@types/node", "undici-types"];

/**
 * A lock file for a project depending on the tarball: the tarball's entry, and this repository's lock entries of
 * everything but development dependencies (the package's dependencies, resolved as here) save the consumer's own
 * (CONSUMER_DEV). Entries get the registry's address, so npm takes each package from its cache by integrity
 * instead of asking the registry.
 */
async function consumerLock(tarball: string, devDependencies: Record<string, string>): Promise<object> {
	const registry = (await sh("npm", ["config", "get", "registry"], ROOT)).trim().replace(/\/?$/, "/");
	const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
	const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
	const packages: Record<string, LockEntry | object> = {
		"": { name: "consumer", dependencies: { loom: `file:${tarball}` }, devDependencies },
		"node_modules/loom": { version: own.version, resolved: `file:${tarball}`, license: own.license, dependencies: own.dependencies, bin: own.bin, engines: own.engines },
	};
	for (const [key, entry] of Object.entries(lock.packages)) {
		if (key === "") continue;
		if (entry.dev && !CONSUMER_DEV.includes(key.replace(/^node_modules\//, ""))) continue;
		const name = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
		// Needed by a development dependency here and by an optional one of the package's (a native addon's helper):
		// for the consumer, optional.
		const { devOptional, ...kept } = entry;
		packages[key] = { ...kept, ...(devOptional ? { optional: true } : {}), resolved: entry.resolved ?? `${registry}${name}/-/${name.split("/").pop()}-${entry.version}.tgz` };
	}
	return { name: "consumer", lockfileVersion: 3, requires: true, packages };
}

const MAIN = `import { createAgentSession, SessionManager } from "loom";

const { session } = await createAgentSession({
	sessionManager: SessionManager.inMemory(),
	provider: "openai",
	model: "scripted",
	baseUrl: process.env.SCRIPTED_BASE_URL,
	apiKey: "test-key",
});
const ends = [];
session.subscribe((event) => {
	if (event.type === "tool_execution_end") ends.push(event.toolCallId);
});
await session.prompt("read it");
console.log(JSON.stringify({ ends, answer: session.messages.at(-1).content }));
session.dispose();
`;

/** Records every module the program loads (Node's resolve hook, off the main thread) into LOADED_MODULES_FILE. */
const HOOKS = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
	const result = await next(specifier, context);
	appendFileSync(process.env.LOADED_MODULES_FILE, result.url + "\\n");
	return result;
}
`;
const RECORD = `import { register } from "node:module";
register("./hooks.mjs", import.meta.url);
`;

const TYPED = `import { createAgentSession, SessionManager, type AgentSession, type ExtensionAPI } from "loom";

const guard = (loom: ExtensionAPI): void => {
	loom.on("tool_call", (event) => {
		if (event.toolName === "bash" && /rm\\s+-rf/.test(event.input.command)) return { block: true, reason: "no rm -rf" };
		return undefined;
	});
};
export async function open(): Promise<AgentSession> {
	const { session } = await createAgentSession({ sessionManager: SessionManager.inMemory(), extensions: [guard] });
	session.agent.toolExecution = "sequential";
	return session;
}
// @ts-expect-error: the options are typed
void createAgentSession({ toolExecution: "sideways" });
`;

/** An extension in loom's home that hands the program what it imported from "loom". */
const EXPOSE = `import * as loom from "loom";
import type { ExtensionAPI } from "loom";
export default function (_api: ExtensionAPI): void {
	(globalThis as { extensionLoom?: unknown }).extensionLoom = loom;
}
`;

const SHARED = `import * as loom from "loom";

const { session } = await loom.createAgentSession({
	sessionManager: loom.SessionManager.inMemory(),
	provider: "openai",
	model: "scripted",
	baseUrl: process.env.SCRIPTED_BASE_URL,
	apiKey: "test-key",
});
const theirs = globalThis.extensionLoom;
console.log(JSON.stringify({ create: theirs.createAgentSession === loom.createAgentSession, session: session instanceof theirs.AgentSession, type: theirs.Type === loom.Type }));
session.dispose();
`;

describe("the loom package", () => {
	let project: string;
	let files: string[];

	beforeAll(async () => {
		const packed = tempDir("loom-pack-");
		const [result] = JSON.parse(await sh("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", packed], ROOT));
		files = result.files.map((file: { path: string }) => file.path);
		project = tempDir("loom-consumer-");
		const tarball = join(packed, result.filename);
		const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
		const devDependencies = { "@types/node": own.devDependencies["@types/node"] };
		writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { loom: `file:${tarball}` }, devDependencies }));
		writeFileSync(join(project, "package-lock.json"), JSON.stringify(await consumerLock(tarball, devDependencies)));
		await sh("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], project);
	}, 180_000);

	it("holds the built entry, its declarations and the command, and no sources or tests", () => {
		expect(files).toContain("dist/bundle/sdk.js");
		expect(files).toContain("dist/sdk/index.d.ts");
		expect(files).toContain("bin/loom");
		expect(files.filter((file) => /^(src|test|examples)\//.test(file))).toEqual([]);
	});

	it("names no folder of the machine that built it in its code", () => {
		const installed = join(project, "node_modules", "loom");
		const built = files.filter((file) => file.endsWith(".js")).filter((file) => readFileSync(join(installed, file), "utf8").includes(ROOT));
		expect(built).toEqual([]);
	});

	it("is imported by name and runs a prompt, without loading Ink, React or the extension loader", async () => {
		writeFileSync(join(project, "a.txt"), "alpha\n");
		writeFileSync(join(project, "main.mjs"), MAIN);
		writeFileSync(join(project, "hooks.mjs"), HOOKS);
		writeFileSync(join(project, "record.mjs"), RECORD);
		const loaded = join(project, "loaded.txt");
		server.enqueue({ toolCalls: [{ id: "r", name: "read", arguments: { path: "a.txt" } }] }, { text: "It says alpha." });
		const env = { PATH: process.env.PATH, HOME: project, LOOM_HOME: join(project, ".loom"), SCRIPTED_BASE_URL: server.openaiBaseUrl, LOADED_MODULES_FILE: loaded };
		const stdout = await sh(process.execPath, ["--import", "./record.mjs", "main.mjs"], project, env);

		expect(JSON.parse(stdout)).toEqual({ ends: ["r"], answer: [{ type: "text", text: "It says alpha." }] });
		const modules = [...new Set(readFileSync(loaded, "utf8").trim().split("\n"))];
		const loom = `file://${join(project, "node_modules", "loom", "dist")}/`;
		expect(modules).toContain(`${loom}bundle/sdk.js`);
		// The entry is the bundle (a few chunks), not the hundreds of modules of the plain build and the SDKs.
		expect(modules.filter((url) => url.startsWith(loom) && !url.startsWith(`${loom}bundle/`))).toEqual([]);
		expect(modules.filter((url) => /\/node_modules\/(ink|react|react-reconciler|openai|@sinclair)\//.test(url))).toEqual([]);
		// Ink and React are inside the bundle too, in the screen's chunk: no loaded file holds React's element
		// symbol or Ink's layout engine.
		const files = modules.filter((url) => url.startsWith("file:")).map((url) => readFileSync(new URL(url), "utf8"));
		expect(files.filter((text) => text.includes("react.transitional.element") || text.includes("yoga-layout"))).toEqual([]);
		// No extension exists here, so the extension loader is not loaded either.
		expect(modules.filter((url) => url.includes("/node_modules/jiti/"))).toEqual([]);
	});

	it("gives an extension's `import … from \"loom\"` the program's own functions and classes", async () => {
		const home = join(project, ".loom-extended");
		mkdirSync(join(home, "extensions"), { recursive: true });
		writeFileSync(join(home, "extensions", "expose.ts"), EXPOSE);
		writeFileSync(join(project, "shared.mjs"), SHARED);
		server.enqueue({ text: "ok" });
		const env = { PATH: process.env.PATH, HOME: project, LOOM_HOME: home, SCRIPTED_BASE_URL: server.openaiBaseUrl };
		expect(JSON.parse(await sh(process.execPath, ["shared.mjs"], project, env))).toEqual({ create: true, session: true, type: true });
	});

	it("exports by name exactly what the SDK's source exports", async () => {
		const names = JSON.parse(await sh(process.execPath, ["--input-type=module", "-e", 'console.log(JSON.stringify(Object.keys(await import("loom"))))'], project));
		const source = Object.keys(await import("../../src/sdk/index.js"));
		expect([...names].sort()).toEqual([...source].sort());
	});

	it("comes with type declarations a TypeScript project checks against", async () => {
		mkdirSync(join(project, "src"), { recursive: true });
		writeFileSync(join(project, "src", "typed.ts"), TYPED);
		const tsconfig = {
			compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [] },
			include: ["src"],
		};
		writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
		await sh(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], project);
	});

	it("has declarations that check in full (skipLibCheck false) with Node's types, naming no package loom does not install", async () => {
		mkdirSync(join(project, "strict"), { recursive: true });
		writeFileSync(join(project, "strict", "typed.ts"), TYPED);
		const tsconfig = {
			compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"] },
			include: ["strict"],
		};
		writeFileSync(join(project, "tsconfig.strict.json"), JSON.stringify(tsconfig));
		await sh(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.strict.json"], project);
	});
});
