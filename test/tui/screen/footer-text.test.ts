import { describe, expect, it } from "vitest";
import { contextColor, footerHeight, infoRow, retryText, runState } from "../../../src/tui/screen/footer-text.js";
import { initialView } from "../../../src/tui/transcript/view-model.js";

const base = {
	...initialView({ provider: "anthropic", model: "claude-sonnet", thinkingLevel: "medium", cwd: "/home/dev/project" }),
	usage: { input: 12_300, output: 1_250, cacheRead: 0, cacheWrite: 0, cost: 0.0421 },
	contextTokens: 23_000,
};
const retry = { attempt: 2, maxRetries: 3, reason: "529\n\u001b[31moverloaded", until: 53_200 };

describe("footer text", () => {
	it("takes a third row only while a retry waits", () => {
		expect(footerHeight(base)).toBe(2);
		expect(footerHeight({ retry })).toBe(3);
	});

	it("says what the run does: compacting, ready, or working with its turn and time", () => {
		expect(runState({ ...base, compacting: "manual" }, 0)).toEqual({ kind: "compacting" });
		expect(runState(base, 0)).toEqual({ kind: "idle" });
		expect(runState({ ...base, runStatus: "running", turn: 2, runStartedAt: 45_000 }, 50_000)).toEqual({ kind: "running", label: "Working", detail: " · turn 2 · 5.0s" });
		expect(runState({ ...base, runStatus: "settling", turn: 0, runStartedAt: undefined }, 50_000)).toEqual({ kind: "running", label: "Finishing", detail: "" });
	});

	it("counts a retry down to zero, its reason on one line without escapes", () => {
		expect(retryText(retry, 50_000)).toBe("⟳ Retry 2/3 in 4s: 529 overloaded");
		expect(retryText(retry, 60_000)).toBe("⟳ Retry 2/3 in 0s: 529 overloaded");
	});

	it("colours the context use from 80% and 95%", () => {
		expect([contextColor(79), contextColor(80), contextColor(94), contextColor(95)]).toEqual([undefined, "yellow", "yellow", "red"]);
	});

	it("fits the info row and gives the context use apart, when the window is known", () => {
		expect(infoRow(base, 100, 100_000, "/home/dev")).toEqual({
			info: "anthropic/claude-sonnet · thinking medium · ~/project · ↑12k ↓1.3k · $0.04",
			context: " · ctx 23%",
		});
		expect(infoRow({ ...base, contextTokens: 96_000 }, 100, 100_000).contextColor).toBe("red");
		expect(infoRow(base, 100)).toEqual({ info: expect.stringContaining("$0.04") });
	});

	it("names the login a plan's requests are signed in with beside the model", () => {
		const signedIn = { ...base, session: { ...base.session, provider: "chatgpt", model: "gpt-5.6-terra", credential: "ChatGPT login" } };
		expect(infoRow(signedIn, 120).info).toMatch(/^chatgpt\/gpt-5\.6-terra \(ChatGPT login\) · thinking medium/);
	});
});
