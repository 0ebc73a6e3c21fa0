// The house rules hold in src/ (npm test runs the checker before the tests); here, a tree with one wrong import of
// each kind shows that the checker fails on each and names its rule. The wrong imports share one tree, so one run
// of the checker (seconds: it loads dependency-cruiser and TypeScript) serves their cases; each case also reads that
// all three were errors, so each alone would fail the check.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const CHECKER = join(dirname(fileURLToPath(import.meta.url)), "check-layers.mjs");
const run = promisify(execFile);
const roots: string[] = [];

afterAll(async () => {
	await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
	const root = await mkdtemp(join(tmpdir(), "loom-layers-"));
	roots.push(root);
	for (const [path, text] of Object.entries(files)) {
		await mkdir(dirname(join(root, path)), { recursive: true });
		await writeFile(join(root, path), text);
	}
	return root;
}

async function check(dir: string): Promise<{ code: number; output: string }> {
	try {
		const { stdout } = await run(process.execPath, [CHECKER, "--root", dir], { timeout: 120_000 });
		return { code: 0, output: stdout };
	} catch (error) {
		const failed = error as { code: number; stdout: string; stderr: string };
		return { code: failed.code, output: failed.stdout + failed.stderr };
	}
}

const CLEAN = {
	"src/core/index.ts": 'export { oneLine } from "./lib/index.js";\nexport type { Agent } from "./engine/index.js";\n',
	"src/core/lib/index.ts": 'export { oneLine } from "./text.js";\n',
	"src/core/lib/text.ts": "export const oneLine = (text: string): string => text.replace(/\\s+/g, \" \");\n",
	"src/core/engine/index.ts": 'export type { Agent } from "./agent.js";\n',
	"src/core/engine/agent.ts": 'import { oneLine } from "../lib/index.js";\nexport interface Agent { name: string }\nexport const label = oneLine("a  b");\n',
	"src/tui/index.ts": 'import { oneLine, type Agent } from "../core/index.js";\nexport const show = (agent: Agent): string => oneLine(agent.name);\n',
};

/** One wrong import of each kind, each in files of its own. */
const WRONG = {
	// Up a layer, type-only.
	"src/core/lib/bad.ts": 'import type { Agent } from "../engine/index.js";\nexport type A = Agent;\n',
	// Around a folder's index.
	"src/tui/bad.ts": 'import { label } from "../core/engine/agent.js";\nexport const x = label;\n',
	// A circle of two files.
	"src/tui/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
	"src/tui/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
};

let wrongResult: Promise<{ code: number; output: string }> | undefined;
/** The checker's verdict on the clean tree with every wrong import added: run once, by the first case that asks. */
function checkWrong(): Promise<{ code: number; output: string }> {
	wrongResult ??= tree({ ...CLEAN, ...WRONG }).then(check);
	return wrongResult;
}

/** The checker failed, every wrong import an error of its own (each alone fails the check), `rule` among them. */
async function expectFailure(rule: string): Promise<void> {
	const result = await checkWrong();
	expect(result.code).toBe(1);
	expect(result.output).toContain("3 dependency violations (3 errors, 0 warnings)");
	expect(result.output).toContain(rule);
}

describe("the layer and door checker", () => {
	it("passes a tree whose imports point down and enter folders through their index", async () => {
		const result = await check(await tree(CLEAN));
		expect(result.output).toMatch(/no dependency violations/);
		expect(result.code).toBe(0);
	});

	it("fails on an import that points up a layer, even a type-only one, naming the rule", async () => {
		await expectFailure("lib-knows-no-agents: src/core/lib/bad.ts → src/core/engine/index.ts");
	});

	it("fails on an import that goes around a folder's index", async () => {
		await expectFailure("enter-through-index: src/tui/bad.ts → src/core/engine/agent.ts");
	});

	it("fails on an import circle of two files", async () => {
		await expectFailure("no-circular: src/tui/a.ts → ");
	});
});
