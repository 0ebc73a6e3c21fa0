// End to end: write and edit replace files by rename, which needs only the directory's permission; a file the
// user made read-only must still not change (Perforce-style checkouts, protected generated files).
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../support/temp-dir.js";
import { LOOM_BIN, runLoom, serverFlags, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

// Root may write any file, so as root loom runs as "nobody" to meet the permission check a user meets.
const asRoot = process.getuid?.() === 0;
const runAs = asRoot ? { uid: 65534, gid: 65534 } : {};
// "nobody" must be able to reach node and the built loom (a checkout under /root may not let it).
const canRunAsNobody =
	!asRoot ||
	spawnSync(process.execPath, ["-e", `require("fs").accessSync(${JSON.stringify(LOOM_BIN)}, require("fs").constants.R_OK)`], runAs)
		.status === 0;

describe.skipIf(!canRunAsNobody)("read-only files", () => {
	it("write and edit refuse a read-only file and leave it unchanged", async () => {
		const ws = workspace();
		chmodSync(dirname(ws.cwd), 0o755);
		chmodSync(ws.cwd, 0o777);
		chmodSync(ws.home, 0o777);
		const file = join(ws.cwd, "locked.txt");
		writeFileSync(file, "original\n");
		chmodSync(file, 0o444);
		server.enqueue(
			{
				toolCalls: [
					{ id: "w", name: "write", arguments: { path: "locked.txt", content: "replaced\n" } },
					{ id: "e", name: "edit", arguments: { path: "locked.txt", edits: [{ oldText: "original", newText: "edited" }] } },
				],
			},
			{ text: "done" },
		);
		const result = await runLoom(["-p", "--mode", "json", ...serverFlags(server.openaiBaseUrl), "change it"], { ...ws, ...runAs });
		expect(result.code).toBe(0);
		expect(readFileSync(file, "utf8")).toBe("original\n");
		const ends = result.stdout
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line))
			.filter((event) => event.type === "tool_execution_end");
		expect(ends.map((event) => event.isError)).toEqual([true, true]);
		for (const event of ends) expect(event.result.content[0].text).toMatch(/locked\.txt is read-only/);
	});
});
