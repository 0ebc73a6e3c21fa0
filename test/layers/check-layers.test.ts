// The house rules hold in src/ (npm test runs the checker before the tests); here, a tree with one wrong import of
// each kind shows that the checker fails on it and names the rule.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const CHECKER = join(dirname(fileURLToPath(import.meta.url)), "check-layers.mjs");
const run = promisify(execFile);
let root: string | undefined;

afterEach(async () => {
	if (root) await rm(root, { recursive: true, force: true });
	root = undefined;
});

async function tree(files: Record<string, string>): Promise<string> {
	root = await mkdtemp(join(tmpdir(), "loom-layers-"));
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

describe("the layer and door checker", () => {
	it("passes a tree whose imports point down and enter folders through their index", async () => {
		const result = await check(await tree(CLEAN));
		expect(result.output).toMatch(/no dependency violations/);
		expect(result.code).toBe(0);
	});

	it("fails on an import that points up a layer, even a type-only one, naming the rule", async () => {
		const result = await check(await tree({ ...CLEAN, "src/core/lib/bad.ts": 'import type { Agent } from "../engine/index.js";\nexport type A = Agent;\n' }));
		expect(result.code).toBe(1);
		expect(result.output).toContain("lib-knows-no-agents: src/core/lib/bad.ts → src/core/engine/index.ts");
	});

	it("fails on an import that goes around a folder's index", async () => {
		const result = await check(await tree({ ...CLEAN, "src/tui/bad.ts": 'import { label } from "../core/engine/agent.js";\nexport const x = label;\n' }));
		expect(result.code).toBe(1);
		expect(result.output).toContain("enter-through-index: src/tui/bad.ts → src/core/engine/agent.ts");
	});

	it("fails on an import circle of two files", async () => {
		const result = await check(
			await tree({ ...CLEAN, "src/tui/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n', "src/tui/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n' }),
		);
		expect(result.code).toBe(1);
		expect(result.output).toContain("no-circular: src/tui/a.ts → ");
	});
});
