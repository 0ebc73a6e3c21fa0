// Pruning: checkpoints of a deleted session go (there is no other way to delete one), those of a --no-session run
// go once its process has ended, old ones go when asked, and a live session's are never touched.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Checkpointer } from "../../../src/plugs/checkpoints/checkpointer.js";
import { pruneCheckpoints } from "../../../src/plugs/checkpoints/prune.js";
import { ShadowRepo } from "../../../src/plugs/checkpoints/shadow-repo.js";
import { writeTree } from "../../support/project-tree.js";
import { makeProject } from "./checkpoint-fixtures.js";

function projectDir(home: string): string {
	const root = join(home, "checkpoints");
	return join(root, readdirSync(root)[0]!);
}

/** Makes a session's log look written by a process that has ended, naming `file` as the session's file. */
function endedSession(home: string, sessionId: string, file: string | null): void {
	const log = join(projectDir(home), "sessions", `${sessionId}.jsonl`);
	const [header, ...rest] = readFileSync(log, "utf8").split("\n");
	const ended = spawnSync("true").pid;
	writeFileSync(log, [JSON.stringify({ ...JSON.parse(header!), pid: ended, file }), ...rest].join("\n"));
}

async function refs(home: string): Promise<string[]> {
	return ShadowRepo.at(projectDir(home)).refs();
}

describe("pruning checkpoints", () => {
	it("removes a deleted session's checkpoints and keeps another session's, which still restore", async () => {
		const project = makeProject({ "a.txt": "0\n" }, undefined, "gone");
		await project.prompt("p1", () => writeTree(project.cwd, { "a.txt": "1\n" }));
		// The same project, another session (its file exists).
		const keptFile = join(project.home, "kept.jsonl");
		writeFileSync(keptFile, "{}\n");
		const other = new Checkpointer({
			home: project.home,
			cwd: project.cwd,
			session: () => ({ id: "kept", file: keptFile }),
			notify: () => {},
		});
		other.beginRun();
		other.bindPrompt("q1");
		await other.beforeChange([]);
		writeTree(project.cwd, { "a.txt": "2\n" });
		other.endRun();
		await other.settled();

		endedSession(project.home, "gone", join(project.home, "deleted.jsonl"));
		endedSession(project.home, "kept", keptFile);
		// A run's trees before and after, and the list of where its "before" did not look.
		expect((await refs(project.home)).filter((ref) => ref.startsWith("gone/"))).toHaveLength(3);

		const report = await pruneCheckpoints({ home: project.home });
		expect(report).toMatchObject({ sessions: 1, runs: 1, projects: 0 });
		expect(await refs(project.home)).toEqual(expect.arrayContaining([expect.stringMatching(/^kept\//)]));
		expect((await refs(project.home)).some((ref) => ref.startsWith("gone/"))).toBe(false);
		expect(existsSync(join(projectDir(project.home), "sessions", "gone.jsonl"))).toBe(false);

		const restore = await other.prepare("q1");
		if (typeof restore === "string") throw new Error(restore);
		await restore.apply();
		expect(readFileSync(join(project.cwd, "a.txt"), "utf8")).toBe("1\n");
	});

	it("removes a --no-session run's checkpoints once its process has ended, and the project's folder with the last of them", async () => {
		const project = makeProject({ "a.txt": "0\n" });
		await project.prompt("p1", () => writeTree(project.cwd, { "a.txt": "1\n" }));
		endedSession(project.home, "session-1", null);
		const report = await pruneCheckpoints({ home: project.home });
		expect(report).toMatchObject({ sessions: 1, runs: 1, projects: 1 });
		expect(report.freedBytes).toBeGreaterThan(0);
		expect(readdirSync(join(project.home, "checkpoints"))).toEqual([]);
	});

	it("says as freed the disk space the removed folder took, as du counts it, not only the bytes its files hold", async () => {
		const project = makeProject({ "a.txt": "0\n" });
		await project.prompt("p1", () => writeTree(project.cwd, { "a.txt": "1\n" }));
		endedSession(project.home, "session-1", null);
		const du = spawnSync("du", ["-s", "-B1", projectDir(project.home)], { encoding: "utf8" });
		const used = Number(du.stdout.split("\t")[0]);
		expect(used).toBeGreaterThan(0);
		const report = await pruneCheckpoints({ home: project.home });
		expect(report.projects).toBe(1);
		expect(report.freedBytes).toBe(used);
	});

	it("never touches a session whose process still runs, even before its file exists", async () => {
		const project = makeProject({ "a.txt": "0\n" });
		await project.prompt("p1", () => writeTree(project.cwd, { "a.txt": "1\n" }));
		const report = await pruneCheckpoints({ home: project.home });
		expect(report).toMatchObject({ sessions: 0, runs: 0, projects: 0 });
		expect([...(await project.checkpointer.checkpointed(["p1"]))]).toEqual(["p1"]);
	});

	it("removes runs older than the days given and keeps the later ones restorable", async () => {
		const project = makeProject({ "a.txt": "0\n" });
		await project.prompt("old", () => writeTree(project.cwd, { "a.txt": "1\n" }));
		await project.prompt("new", () => writeTree(project.cwd, { "a.txt": "2\n" }));
		const later = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000);
		// Ten days on, "old" is older than a week; "new" is made younger by hand.
		const sessionFile = join(project.home, "session-1.jsonl");
		writeFileSync(sessionFile, "{}\n");
		endedSession(project.home, "session-1", sessionFile);
		const log = join(projectDir(project.home), "sessions", "session-1.jsonl");
		const text = readFileSync(log, "utf8").split("\n");
		const newRun = JSON.parse(text.find((line) => line.includes('"prompt":"new"'))!).run;
		writeFileSync(log, [...text.filter((line) => line !== ""), JSON.stringify({ run: newRun, at: later.toISOString() })].join("\n") + "\n");

		const report = await pruneCheckpoints({ home: project.home, olderThanDays: 7, now: later });
		expect(report).toMatchObject({ sessions: 0, runs: 1 });
		expect([...(await project.checkpointer.checkpointed(["old", "new"]))]).toEqual(["new"]);
		expect((await refs(project.home)).length).toBe(3);
		await (await project.restoreTo("new")).apply();
		expect(readFileSync(join(project.cwd, "a.txt"), "utf8")).toBe("1\n");
	});

	it("leaves old runs alone while the session's process still runs, since it may be appending to the log", async () => {
		const project = makeProject({ "a.txt": "0\n" });
		await project.prompt("old", () => writeTree(project.cwd, { "a.txt": "1\n" }));
		const log = join(projectDir(project.home), "sessions", "session-1.jsonl");
		const before = readFileSync(log, "utf8");
		const report = await pruneCheckpoints({ home: project.home, olderThanDays: 7, now: new Date(Date.now() + 10 * 24 * 60 * 60 * 1000) });
		expect(report).toMatchObject({ sessions: 0, runs: 0 });
		expect(readFileSync(log, "utf8")).toBe(before);
		expect([...(await project.checkpointer.checkpointed(["old"]))]).toEqual(["old"]);
	});

	it("leaves old runs alone while a process that resumed the session runs, though another process started the log", async () => {
		const project = makeProject({ "a.txt": "0\n" });
		await project.prompt("old", () => writeTree(project.cwd, { "a.txt": "1\n" }));
		const sessionFile = join(project.home, "session-1.jsonl");
		writeFileSync(sessionFile, "{}\n");
		endedSession(project.home, "session-1", sessionFile);
		// This process resumes the session: its checkpoints go on in the same log.
		const resumed = new Checkpointer({ home: project.home, cwd: project.cwd, session: () => ({ id: "session-1", file: sessionFile }), notify: () => {} });
		resumed.beginRun();
		resumed.bindPrompt("resumed");
		await resumed.beforeChange([]);
		resumed.endRun();
		await resumed.settled();
		const report = await pruneCheckpoints({ home: project.home, olderThanDays: 7, now: new Date(Date.now() + 10 * 24 * 60 * 60 * 1000) });
		expect(report).toMatchObject({ sessions: 0, runs: 0 });
		expect([...(await resumed.checkpointed(["old", "resumed"]))]).toEqual(["old", "resumed"]);
	});

	it("rewrites a log through a temporary file of its own, never one another prune may be writing", async () => {
		const project = makeProject({ "a.txt": "0\n" });
		await project.prompt("old", () => writeTree(project.cwd, { "a.txt": "1\n" }));
		await project.prompt("new", () => writeTree(project.cwd, { "a.txt": "2\n" }));
		const sessionFile = join(project.home, "session-1.jsonl");
		writeFileSync(sessionFile, "{}\n");
		endedSession(project.home, "session-1", sessionFile);
		const sessions = join(projectDir(project.home), "sessions");
		const log = join(sessions, "session-1.jsonl");
		const later = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000);
		const newRun = JSON.parse(readFileSync(log, "utf8").split("\n").find((line) => line.includes('"prompt":"new"'))!).run;
		writeFileSync(log, `${readFileSync(log, "utf8")}${JSON.stringify({ run: newRun, at: later.toISOString() })}\n`);
		writeFileSync(`${log}.tmp`, "another prune's log, half written\n");
		const report = await pruneCheckpoints({ home: project.home, olderThanDays: 7, now: later });
		expect(report).toMatchObject({ runs: 1 });
		expect(readFileSync(`${log}.tmp`, "utf8")).toBe("another prune's log, half written\n");
		expect(readdirSync(sessions).sort()).toEqual(["session-1.jsonl", "session-1.jsonl.tmp"]);
	});

	it("removes an index left behind by a process that crashed a day ago", async () => {
		const project = makeProject({ "a.txt": "0\n" });
		await project.prompt("p1", () => {});
		const indexes = join(projectDir(project.home), "indexes");
		mkdirSync(indexes, { recursive: true });
		writeFileSync(join(indexes, "12345-abcdef"), "");
		await pruneCheckpoints({ home: project.home, now: new Date(Date.now() + 2 * 24 * 60 * 60 * 1000) });
		expect(existsSync(join(indexes, "12345-abcdef"))).toBe(false);
		rmSync(indexes, { recursive: true, force: true });
	});
});
