// For batch tests and the bench: a git project, a tasks file of N small tasks, and a scripted model that does
// each task in two requests (a write of tN.txt, then "done tN").
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedResponder, ScriptedTurn } from "./scripted-model-server.mjs";

/** A committed git repository at `dir` holding README.md. */
export function gitProject(dir: string): void {
	const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, stdio: "ignore" });
	writeFileSync(join(dir, "README.md"), "project\n");
	git("init", "-q");
	git("add", "-A");
	git("commit", "-qm", "start");
}

/** tasks.jsonl with tasks t1…tN in `dir`, working on `cwd` (relative to dir). Returns the file's path. */
export function writeTasks(dir: string, count: number, cwd = "project"): string {
	const file = join(dir, "tasks.jsonl");
	const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ id: `t${i + 1}`, prompt: `task t${i + 1}: write the file`, cwd }));
	writeFileSync(file, `${lines.join("\n")}\n`);
	return file;
}

/** The task a request belongs to, from its first user message ("task tN"). */
export function taskOf(body: any): string | undefined {
	return /task (t\d+)/.exec(JSON.stringify(body.messages?.find((message: any) => message.role === "user") ?? ""))?.[1];
}

/**
 * A write of tN.txt, then "done tN" once the request carries the tool's result. `hold(id)` may answer instead
 * (a hanging turn for a task the test interrupts).
 */
export function taskResponder(hold?: (id: string) => ScriptedTurn | undefined): ScriptedResponder {
	return (body) => {
		const id = taskOf(body);
		if (!id) return undefined;
		const held = hold?.(id);
		if (held) return held;
		const last = body.messages.at(-1);
		if (last?.role === "tool") return { text: `done ${id}` };
		return { toolCalls: [{ name: "write", arguments: { path: `${id}.txt`, content: `${id}\n` } }] };
	};
}

/** results.jsonl's lines, parsed (none when it does not exist yet). */
export function readResults(file: string): any[] {
	try {
		return readFileSync(file, "utf8").trimEnd().split("\n").filter(Boolean).map((line) => JSON.parse(line));
	} catch {
		return [];
	}
}
