// The tasks file: every line checked before anything runs, paths from the file's folder, schemas read.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../support/temp-dir.js";
import { readTasksFile } from "../../../src/cli/batch/tasks-file.js";
import { finishedIds } from "../../../src/cli/batch/results-file.js";

function file(text: string): string {
	const dir = tempDir();
	writeFileSync(join(dir, "schema.json"), '{"type":"object"}');
	const path = join(dir, "tasks.jsonl");
	writeFileSync(path, text);
	return path;
}

describe("readTasksFile", () => {
	it("reads tasks with ids, folders from the file's folder, URLs as given and schemas from files", () => {
		const path = file(
			[
				'{"prompt": "a", "cwd": "sub"}',
				"",
				"# a comment",
				'{"id": "b", "prompt": "b", "repo": "https://example.com/r.git", "model": "m", "outputSchema": "schema.json"}',
				'{"prompt": "c", "repo": "git@example.com:r.git", "outputSchema": {"type": "array"}}',
			].join("\n"),
		);
		const dir = join(path, "..");
		expect(readTasksFile(path)).toEqual([
			{ id: "line-1", prompt: "a", cwd: join(dir, "sub"), repo: undefined, model: undefined, outputSchema: undefined },
			{ id: "b", prompt: "b", cwd: undefined, repo: "https://example.com/r.git", model: "m", outputSchema: { type: "object" } },
			{ id: "line-5", prompt: "c", cwd: undefined, repo: "git@example.com:r.git", model: undefined, outputSchema: { type: "array" } },
		]);
	});

	it("names the line of a broken task", () => {
		expect(() => readTasksFile(file('{"prompt": "a"}\n{"prompt": 1}\n'))).toThrow(/tasks\.jsonl:2: "prompt" must be a non-empty string/);
		expect(() => readTasksFile(file('{"prompt": "a", "cmd": "x"}\n'))).toThrow(/:1: unknown field "cmd"/);
		expect(() => readTasksFile(file('{"id": "x", "prompt": "a"}\n{"id": "x", "prompt": "b"}\n'))).toThrow(/:2: the id "x" is already used/);
		expect(() => readTasksFile(file("not json\n"))).toThrow(/:1: not JSON/);
		expect(() => readTasksFile(file("\n"))).toThrow(/no tasks/);
	});

	it("counts as finished only done and invalid_output lines, skipping a torn last line", () => {
		const path = file(['{"id":"a","status":"done"}', '{"id":"b","status":"failed"}', '{"id":"c","status":"invalid_output"}', '{"id":"d","sta'].join("\n"));
		expect([...finishedIds(path)].sort()).toEqual(["a", "c"]);
		expect(finishedIds(join(path, "..", "none.jsonl")).size).toBe(0);
	});
});
