// Settings hooks as Claude Code users write them: real bash and node scripts on the session's events, against
// the scripted model server, in sessions made by createAgentSession.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_STOP_CONTINUATIONS } from "../../../src/core/index.js";
import { writeFileAt } from "../../support/project-tree.js";
import { runHookEvent } from "../../../src/plugs/hooks/hook-event.js";
import { MAX_HOOK_OUTPUT_BYTES } from "../../../src/plugs/hooks/run-hook-command.js";
import { isRunning } from "../../support/process-state.js";
import { ScriptedUi } from "../../support/scripted-ui.js";
import { scriptedSdkSession } from "../../support/sdk-session.js";
import { workspace, type Workspace } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const server = useScriptedServer();

/** A workspace whose user settings (loom home's settings.json) hold these hooks. */
function withHooks(hooks: Record<string, unknown[]>, extra: Record<string, unknown> = {}): Workspace {
	const ws = workspace();
	writeFileAt(join(ws.home, "settings.json"), JSON.stringify({ hooks, ...extra }));
	return ws;
}

const command = (text: string, timeout?: number) => ({ type: "command", command: text, ...(timeout ? { timeout } : {}) });

/** The text of the tool result messages and user messages of a recorded Chat Completions request. */
function requestText(index: number): string {
	return JSON.stringify(server.requests[index]!.body.messages);
}

describe("settings hooks", () => {
	it("a PreToolUse hook exiting 2 blocks `git push`, the model reads its stderr, and it gets Claude Code's input on stdin", async () => {
		const ws = workspace();
		const script = writeFileAt(
			join(ws.cwd, "hooks", "no-push.sh"),
			`#!/bin/bash\ninput=$(cat)\necho "$input" > "$LOOM_PROJECT_DIR/stdin.json"\necho "$CLAUDE_PROJECT_DIR" > "$LOOM_PROJECT_DIR/project-dir.txt"\nif echo "$input" | grep -q '"command":"git push'; then echo "Pushing is not allowed from the agent" >&2; exit 2; fi\nexit 0\n`,
		);
		writeFileAt(join(ws.home, "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command(`bash ${script}`)] }] } }));
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "git push origin main" } }] }, { text: "done" });
		const { session } = await scriptedSdkSession(server, {}, ws);
		await session.runPrompt("push it");
		expect(requestText(1)).toContain("Pushing is not allowed from the agent");
		const stdin = JSON.parse(readFileSync(join(ws.cwd, "stdin.json"), "utf8"));
		expect(stdin).toMatchObject({
			hook_event_name: "PreToolUse",
			tool_name: "Bash",
			tool_input: { command: "git push origin main" },
			session_id: session.sessionId,
			cwd: ws.cwd,
		});
		expect(stdin).toHaveProperty("transcript_path");
		expect(readFileSync(join(ws.cwd, "project-dir.txt"), "utf8").trim()).toBe(ws.cwd);
		session.dispose();
	});

	it('a PreToolUse hook answering permissionDecision "allow" spares the question in approval mode ask; "deny" blocks with its reason', async () => {
		const hook = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const i=JSON.parse(s);const p=i.tool_input.file_path;console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:p.endsWith("ok.txt")?"allow":"deny",permissionDecisionReason:"only ok.txt may be written"}}))})'`;
		const ws = withHooks({ PreToolUse: [{ matcher: "Write|Edit", hooks: [command(hook)] }] });
		server.enqueue(
			{ toolCalls: [{ name: "write", arguments: { path: "ok.txt", content: "fine" } }, { name: "write", arguments: { path: "no.txt", content: "bad" } }] },
			{ text: "done" },
		);
		const { session } = await scriptedSdkSession(server, { approval: "ask" }, ws);
		await session.runPrompt("write two files");
		expect(readFileSync(join(ws.cwd, "ok.txt"), "utf8")).toBe("fine");
		expect(existsSync(join(ws.cwd, "no.txt"))).toBe(false);
		expect(requestText(1)).toContain("only ok.txt may be written");
		session.dispose();
	});

	it("a PreToolUse hook's updatedInput is what the tool runs", async () => {
		const hook = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s).tool_input.command;console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",updatedInput:{command:c.replace("first","second")}}}))})'`;
		const ws = withHooks({ PreToolUse: [{ matcher: "Bash", hooks: [command(hook)] }] });
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "echo first > out.txt" } }] }, { text: "done" });
		const { session } = await scriptedSdkSession(server, {}, ws);
		await session.runPrompt("go");
		expect(readFileSync(join(ws.cwd, "out.txt"), "utf8")).toBe("second\n");
		session.dispose();
	});

	it("a PostToolUse formatter rewrites the file the agent wrote, and its additionalContext reaches the model", async () => {
		const formatter = `node -e 'const fs=require("fs");let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s).tool_input.file_path;fs.writeFileSync(p,fs.readFileSync(p,"utf8").toUpperCase());console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PostToolUse",additionalContext:"formatted "+require("path").basename(p)}}))})'`;
		const ws = withHooks({ PostToolUse: [{ matcher: "Write|Edit|MultiEdit", hooks: [command(formatter)] }] });
		server.enqueue({ toolCalls: [{ name: "write", arguments: { path: "src/a.txt", content: "hello\n" } }] }, { text: "done" });
		const { session } = await scriptedSdkSession(server, {}, ws);
		await session.runPrompt("write it");
		expect(readFileSync(join(ws.cwd, "src", "a.txt"), "utf8")).toBe("HELLO\n");
		expect(requestText(1)).toContain("formatted a.txt");
		session.dispose();
	});

	it("UserPromptSubmit's stdout is context the request carries; exit 2 blocks the prompt; SessionStart's context comes with the first prompt", async () => {
		const ws = withHooks({
			UserPromptSubmit: [{ hooks: [command(`input=$(cat); if echo "$input" | grep -q secret; then echo "no secrets in prompts" >&2; exit 2; fi; echo "Ticket LOOM-42 is open"`)] }],
			SessionStart: [{ matcher: "startup", hooks: [command(`echo "branch: feature-x"`)] }],
		});
		const { session } = await scriptedSdkSession(server, {}, ws);
		session.subscribe(() => {});
		await session.runPrompt("fix the bug");
		const sent = requestText(0);
		expect(sent).toContain("fix the bug");
		expect(sent).toContain("Ticket LOOM-42 is open");
		expect(sent).toContain("branch: feature-x");
		await expect(session.runPrompt("my secret is x")).rejects.toThrow("no secrets in prompts");
		expect(server.requests).toHaveLength(1);
		session.dispose();
	});

	it("a Stop hook exiting 2 makes the agent take one more turn with its reason, and one that always objects is bounded", async () => {
		const once = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{if(JSON.parse(s).stop_hook_active)process.exit(0);process.stderr.write("run the tests first");process.exit(2)})'`;
		const ws = withHooks({ Stop: [{ hooks: [command(once)] }] });
		const { session } = await scriptedSdkSession(server, {}, ws);
		await session.runPrompt("do it");
		expect(server.requests).toHaveLength(2);
		expect(requestText(1)).toContain("run the tests first");
		session.dispose();

		server.reset();
		const always = withHooks({ Stop: [{ hooks: [command(`echo "again" >&2; exit 2`)] }] });
		const stubborn = await scriptedSdkSession(server, {}, always);
		const outcome = await stubborn.session.runPrompt("do it");
		expect(outcome.status).toBe("done");
		expect(server.requests).toHaveLength(1 + MAX_STOP_CONTINUATIONS);
		stubborn.session.dispose();
	});

	it("a hook that sleeps past its timeout is killed with its process group, and the call it guarded is not run", async () => {
		const pids = join(workspace().cwd, "pids");
		// Three seconds: time enough, on a busy machine, for the shell to start and write both pids before it is killed.
		const ws2 = withHooks({ PreToolUse: [{ matcher: "Bash", hooks: [command(`sleep 30 & echo $! > ${pids}; echo $$ >> ${pids}; sleep 30`, 3)] }] });
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "touch ran" } }] }, { text: "done" });
		const { session, ui } = await scriptedSdkSession(server, {}, ws2);
		const started = Date.now();
		await session.runPrompt("run it");
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(existsSync(join(ws2.cwd, "ran"))).toBe(false);
		expect(requestText(1)).toContain("did not answer within 3 s");
		expect(ui.noticeLines().join("\n")).toContain("did not finish within 3 s");
		const spawned = readFileSync(pids, "utf8").trim().split("\n").map(Number);
		expect(spawned).toHaveLength(2);
		await expect.poll(() => spawned.filter((pid) => isRunning(pid))).toEqual([]);
		session.dispose();
	});

	it("an untrusted project's .claude/settings.json hooks do not run; trusted, the file as Claude Code wrote it works", async () => {
		const claudeSettings = (ws: Workspace) =>
			writeFileAt(
				join(ws.cwd, ".claude", "settings.json"),
				JSON.stringify({
					permissions: { allow: ["Bash(npm test:*)"] },
					hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'echo ran >> "$CLAUDE_PROJECT_DIR/hook-ran"' }] }] },
				}),
			);
		const untrusted = workspace();
		claudeSettings(untrusted);
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { text: "done" });
		const first = await scriptedSdkSession(server, {}, untrusted);
		await first.session.runPrompt("go");
		expect(existsSync(join(untrusted.cwd, "hook-ran"))).toBe(false);
		expect(first.projectTrust.pending.join("\n")).toContain(".claude/settings.json: PreToolUse hook");
		first.session.dispose();

		const trusted = workspace();
		claudeSettings(trusted);
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { text: "done" });
		const second = await scriptedSdkSession(server, { trustProject: true }, trusted);
		await second.session.runPrompt("go");
		expect(readFileSync(join(trusted.cwd, "hook-ran"), "utf8")).toBe("ran\n");
		second.session.dispose();
	});

	it("asks before a trusted project's hooks run the first time, not again while they stay the same, and again once one changed", async () => {
		const ws = workspace();
		const hooksFile = (word: string) =>
			writeFileAt(
				join(ws.cwd, ".claude", "settings.json"),
				JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command(`echo ${word} >> "$CLAUDE_PROJECT_DIR/hook.log"`)] }] } }),
			);
		const session = async (ui: ScriptedUi) => {
			server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { text: "done" });
			const made = await scriptedSdkSession(server, { ui }, ws);
			await made.session.runPrompt("go");
			made.session.dispose();
			return ui.titles();
		};
		hooksFile("one");
		expect(await session(new ScriptedUi().choose(/^Yes/))).toEqual(["Trust this project folder?"]);
		expect(await session(new ScriptedUi())).toEqual([]);
		hooksFile("two");
		expect(await session(new ScriptedUi().choose(/^Yes/))).toEqual(["Run this project's new or changed hooks?"]);
		expect(readFileSync(join(ws.cwd, "hook.log"), "utf8")).toBe("one\none\ntwo\n");

		// Where nobody can answer, changed hooks do not run, and the prompt does not wait for an answer.
		hooksFile("three");
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { text: "done" });
		const made = await scriptedSdkSession(server, { ui: new ScriptedUi({ interactive: false }) }, ws);
		await made.session.runPrompt("go");
		made.session.dispose();
		expect(made.session.loadWarnings.join("\n")).toContain("The project's hooks changed since they were allowed, so they do not run");
		expect(readFileSync(join(ws.cwd, "hook.log"), "utf8")).toBe("one\none\ntwo\n");
	});

	it("a hook that floods, crashes or closes its stdin is bounded and reported, and the others of its event still count", async () => {
		const cwd = workspace().cwd;
		const hook = (text: string) => ({ event: "PreToolUse" as const, command: text, timeoutS: 30, source: { file: "/settings.json", scope: "user" as const } });
		const outcome = await runHookEvent(
			"PreToolUse",
			[
				hook("head -c 5000000 /dev/zero | tr '\\0' x; exit 1"),
				hook("exec 0<&-; kill -SEGV $$"),
				hook(`echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`),
			],
			{ tool_name: "Bash", tool_input: { command: "ls" } },
			{ cwd, env: {} },
		);
		expect(outcome.permission).toBe("ask");
		expect(outcome.notices.map((notice) => notice.text)).toEqual([
			expect.stringMatching(/^The PreToolUse hook `head -c .*` \(\/settings\.json\) failed \(exit 1\)\.$/),
			expect.stringContaining("failed (exit by a signal)"),
		]);
		const flood = await runHookEvent("UserPromptSubmit", [hook("head -c 5000000 /dev/zero | tr '\\0' x")], {}, { cwd, env: {}, stdoutIsContext: true });
		expect(flood.context[0]!.length).toBeLessThan(MAX_HOOK_OUTPUT_BYTES + 100);
		expect(flood.context[0]).toContain("more bytes of output dropped");
	});

	it("Notification hears an approval question, PreCompact a /compact, with Claude Code's fields", async () => {
		const ws = withHooks({
			Notification: [{ hooks: [command(`cat > "$LOOM_PROJECT_DIR/notification.json"`)] }],
			PreCompact: [{ matcher: "manual", hooks: [command(`cat > "$LOOM_PROJECT_DIR/precompact.json"`)] }],
		});
		server.enqueue({ toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "x" } }] }, { text: "done" }, { text: "the summary" });
		const ui = new ScriptedUi().choose("Allow once");
		const { session } = await scriptedSdkSession(server, { approval: "ask", ui }, ws);
		await session.runPrompt("write it");
		await session.compact();
		const read = (name: string) => JSON.parse(readFileSync(join(ws.cwd, name), "utf8"));
		await expect.poll(() => existsSync(join(ws.cwd, "notification.json")) && read("notification.json")).toMatchObject({ hook_event_name: "Notification", message: "loom needs your permission to use Write" });
		expect(read("precompact.json")).toMatchObject({ hook_event_name: "PreCompact", trigger: "manual", session_id: session.sessionId });
		session.dispose();
	});
});
