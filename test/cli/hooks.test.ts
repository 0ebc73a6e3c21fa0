// Settings hooks end to end with the built loom: a project's .claude/settings.json as Claude Code wrote it
// (permissions and all), listed by `loom hooks`, run in print mode with --trust, and replayed by `loom hooks test`.
// The hooks write their logs in the project, not in .claude/, which the sandbox keeps read-only (README, "Hooks").
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAt } from "../support/project-tree.js";
import { workspace } from "../support/temp-dir.js";
import { jsonLines, runLoom, serverFlags, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

const GUARD = `#!/usr/bin/env bash
# Claude Code's example guard: no rm -rf.
command=$(node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).tool_input.command))')
if [[ "$command" == *"rm -rf"* ]]; then
  echo "Blocked by .claude/hooks/guard.sh: rm -rf is not allowed here" >&2
  exit 2
fi
echo "$command" >> "$CLAUDE_PROJECT_DIR/allowed.log"
`;

describe("loom hooks", () => {
	it("a .claude/settings.json copied from a Claude Code project works unchanged once the project is trusted, and is listed and replayed", async () => {
		const ws = workspace();
		chmodSync(writeFileAt(join(ws.cwd, ".claude", "hooks", "guard.sh"), GUARD), 0o755);
		writeFileAt(
			join(ws.cwd, ".claude", "settings.json"),
			JSON.stringify({
				$schema: "https://json.schemastore.org/claude-code-settings.json",
				permissions: { allow: ["Bash(npm run lint)"], deny: ["Read(./.env)"] },
				hooks: {
					PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', timeout: 30 }] }],
				},
			}),
		);

		writeFileAt(
			join(ws.cwd, ".claude", "settings.local.json"),
			JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/ended.json"' }] }] } }),
		);

		const listed = await runLoom(["hooks"], ws);
		expect(listed.code).toBe(0);
		expect(listed.stdout).toContain("PreToolUse:");
		expect(listed.stdout).toContain("SessionEnd:");
		expect(listed.stdout).toContain('Bash: "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh  (30 s; .claude/settings.json) [waits for the project to be trusted]');

		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "rm -rf build" } }, { name: "bash", arguments: { command: "echo fine" } }] }, { text: "done" });
		const result = await runLoom(["-p", "--mode", "json", "--trust", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code, result.stderr).toBe(0);
		const results = server.requests[1]!.body.messages.filter((message: any) => message.role === "tool").map((message: any) => JSON.stringify(message.content));
		expect(results[0]).toContain("rm -rf is not allowed here");
		expect(results[1]).toContain("fine");
		expect(readFileSync(join(ws.cwd, "allowed.log"), "utf8")).toBe("echo fine\n");
		const sessionId = jsonLines(result.stdout).find((event) => event.type === "session_open").sessionId;
		// SessionEnd runs as loom leaves, and may finish after it.
		await expect.poll(() => existsSync(join(ws.cwd, "ended.json")) && readFileSync(join(ws.cwd, "ended.json"), "utf8")).toContain('"hook_event_name":"SessionEnd"');

		const replayed = await runLoom(["hooks", "test", "PreToolUse", "--session", sessionId], ws);
		expect(replayed.code, replayed.stderr).toBe(0);
		expect(replayed.stdout).toContain('Bash {"command":"rm -rf build"}: block: Blocked by .claude/hooks/guard.sh: rm -rf is not allowed here');
		expect(replayed.stdout).toContain('Bash {"command":"echo fine"}: no objection');
		expect(existsSync(join(ws.cwd, "build"))).toBe(false);
	});
});
