// Sessions on disk: appending as messages end, resuming a very large file, listing many sessions.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { listSessions, SessionStore } from "../../../dist/core/session/index.js";
import { mb, ms, repeat, us } from "../lib.mjs";
import { runProbe } from "../probes/run-probe.mjs";

const usage = { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, totalTokens: 1200, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function message(i, textBytes) {
	const text = `message ${i} `.padEnd(textBytes, "lorem ipsum dolor sit amet ");
	return i % 2 === 0
		? { role: "user", content: text, timestamp: Date.now() }
		: { role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "bench", model: "bench", usage, stopReason: "stop", timestamp: Date.now() };
}

export default {
	name: "long sessions",
	async run({ smoke }) {
		const runs = smoke ? 1 : 5;
		const home = mkdtempSync(path.join(os.tmpdir(), "loom-bench-sessions-"));
		try {
			const appendCount = smoke ? 500 : 20_000;
			const append = await repeat(runs, async (run) => {
				const store = SessionStore.create({ home, cwd: `/bench/append/${run}` });
				const started = process.hrtime.bigint();
				for (let i = 0; i < appendCount; i++) store.append({ type: "message", message: message(i, 200) });
				const elapsed = Number(process.hrtime.bigint() - started) / 1e3;
				store.close();
				return elapsed / appendCount;
			});

			// A 100 MB session: 20,000 messages of about 5 KB.
			const big = SessionStore.create({ home, cwd: "/bench/big" });
			const bigCount = smoke ? 400 : 20_000;
			for (let i = 0; i < bigCount; i++) big.append({ type: "message", message: message(i, 5000) });
			big.close();
			const bigSize = statSync(big.file).size;
			const resumes = [];
			const resume = await repeat(runs, async () => {
				const result = await runProbe("resume-session", { file: big.file });
				if (result.messages !== bigCount) throw new Error(`resumed ${result.messages} of ${bigCount} messages`);
				resumes.push(result);
				return result.ms;
			});
			const resumeRss = Math.max(...resumes.map((r) => r.peakRss));

			const listCount = smoke ? 50 : 1000;
			for (let i = 0; i < listCount; i++) {
				const store = SessionStore.create({ home, cwd: "/bench/list", now: new Date(Date.now() - i * 60_000) });
				for (let j = 0; j < 6; j++) store.append({ type: "message", message: message(j, 400) });
				store.close();
			}
			const list = await repeat(runs, async () => {
				const started = process.hrtime.bigint();
				const sessions = listSessions(home, "/bench/list");
				if (sessions.length !== listCount) throw new Error(`listed ${sessions.length} of ${listCount}`);
				return Number(process.hrtime.bigint() - started) / 1e6;
			});
			return [
				{ metric: "append a message", workload: `${appendCount.toLocaleString("en")} messages appended one by one`, ...append, format: us, target: "(reported)" },
				{ metric: "resume", workload: `open a ${mb(bigSize)} session of ${bigCount.toLocaleString("en")} messages, fresh process`, ...resume, format: ms, target: "< 1.5 s", pass: resume.median < 1500 },
				{ metric: "resume, peak RSS", workload: "same", value: resumeRss, format: mb, target: "< 300 MB", pass: resumeRss < 300 * 2 ** 20 },
				{ metric: "list sessions", workload: `${listCount.toLocaleString("en")} sessions of one directory`, ...list, format: ms, target: "< 500 ms", pass: list.median < 500 },
			];
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	},
};
