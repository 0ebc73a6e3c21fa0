// Language servers: what an edit of a TypeScript file costs with diagnostics, the server warm (typescript-language-
// server with TypeScript 5's tsserver): the baseline, the write, and the wait for the new errors, as the edit
// tool's hooks run them. Each run flips a line between a type error and none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LanguageServers } from "../../../dist/plugs/lsp/language-servers.js";
import { ms, repeat, repoRoot } from "../lib.mjs";

const SERVER = path.join(repoRoot, "node_modules", ".bin", "typescript-language-server");
const TSSERVER = path.join(repoRoot, "node_modules", "typescript-5", "lib", "tsserver.js");

export default {
	name: "language servers",
	async run({ smoke }) {
		// A cold TypeScript server takes seconds (tens on a loaded machine): smoke size leaves it out.
		if (smoke) return [{ metric: "edit + diagnostics", workload: "not run at smoke size (starts a TypeScript server)", value: 0, format: ms, target: "(reported)" }];
		const runs = 10;
		const cwd = mkdtempSync(path.join(os.tmpdir(), "loom-bench-lsp-"));
		const servers = new LanguageServers({
			cwd,
			settings: { typescript: { command: [SERVER, "--stdio"], initializationOptions: { tsserver: { path: TSSERVER } }, waitMs: 120_000 } },
		});
		try {
			writeFileSync(path.join(cwd, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true, skipLibCheck: true }, include: ["src"] }));
			mkdirSync(path.join(cwd, "src"));
			const lines = Array.from({ length: 200 }, (_, i) => `export function f${i}(n: number): number {\n\treturn n + ${i};\n}`);
			const file = path.join(cwd, "src", "main.ts");
			const text = (run) => `${lines.join("\n")}\nexport const value: number = ${run % 2 === 0 ? '"not a number"' : "1"};\n`;
			const edit = async (run) => {
				await servers.beforeChange(file);
				writeFileSync(file, text(run));
				const found = await servers.afterChange(file);
				if (run % 2 === 0 && found?.count !== 1) throw new Error(`run ${run}: expected 1 new error, got ${JSON.stringify(found)}`);
			};
			writeFileSync(file, text(1));
			// Warm: the server started, the project loaded, the file open.
			await edit(1);
			await edit(0);
			const timing = await repeat(runs, async (run) => {
				const started = process.hrtime.bigint();
				await edit(run + 1);
				return Number(process.hrtime.bigint() - started) / 1e6;
			});
			return [
				{
					metric: "edit + diagnostics",
					workload: "a 600-line .ts file, warm server; every other edit adds a type error",
					...timing,
					format: ms,
					target: "< 1000 ms",
					pass: timing.median < 1000,
				},
			];
		} finally {
			servers.dispose();
			rmSync(cwd, { recursive: true, force: true });
		}
	},
};
