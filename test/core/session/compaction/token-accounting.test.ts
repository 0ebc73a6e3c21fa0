import { describe, expect, it } from "vitest";
import {
	DEFAULT_COMPACTION_SETTINGS,
	IMAGE_TOKENS,
	compactionThreshold,
	contextUsage,
	createCompactionSummary,
	estimateContextBreakdown,
	estimateContextTokens,
	estimateTokens,
	resolveCompactionSettings,
	shouldCompact,
} from "../../../../src/core/session/compaction/index.js";
import { assistant, call, result, tick, usage, user } from "./fixtures.js";

describe("estimateTokens", () => {
	it("counts about four characters a token for user text", () => {
		expect(estimateTokens(user("a".repeat(400)))).toBe(100);
		expect(estimateTokens(user("abc"))).toBe(1);
	});

	it("counts tool call names and arguments, and thinking, in assistant messages", () => {
		const args = { path: "src/a.ts", content: "y".repeat(1000) };
		const withCall = assistant("", [call("c1", "write", args)]);
		expect(estimateTokens(withCall)).toBe(Math.ceil(("write".length + JSON.stringify(args).length) / 4));
		const thinking = { ...assistant("done"), content: [{ type: "thinking" as const, thinking: "t".repeat(396) }, { type: "text" as const, text: "done" }] };
		expect(estimateTokens(thinking)).toBe(100);
	});

	it("counts tool result text and a fixed cost per image", () => {
		const text = result("c1", "read", "r".repeat(800));
		expect(estimateTokens(text)).toBe(200);
		const image = { ...text, content: [...text.content, { type: "image" as const, data: "A".repeat(100_000), mimeType: "image/png" }] };
		expect(estimateTokens(image)).toBe(200 + IMAGE_TOKENS);
		const userImage = user("");
		userImage.content = [{ type: "text", text: "see" }, { type: "image", data: "AAAA", mimeType: "image/png" }];
		expect(estimateTokens(userImage)).toBe(1 + IMAGE_TOKENS);
	});
});

describe("estimateContextTokens", () => {
	it("takes the last answer's reported usage and estimates the messages after it", () => {
		const messages = [
			user("first"),
			assistant("a1", [], usage(1000, 50)),
			user("second"),
			assistant("a2", [call("c1", "read", { path: "x" })], usage(2000, 100, 500, 200)),
			result("c1", "read", "r".repeat(4000)),
		];
		const breakdown = estimateContextBreakdown(messages);
		expect(breakdown.usageIndex).toBe(3);
		expect(breakdown.reportedTokens).toBe(2800);
		expect(breakdown.estimatedTokens).toBe(1000);
		expect(estimateContextTokens(messages)).toBe(3800);
	});

	it("skips a failed or aborted answer's usage and estimates from the last good report", () => {
		const failed = { ...assistant("partial", [], usage(0, 0)), stopReason: "error" as const, errorMessage: "boom" };
		const aborted = { ...assistant("x", [], usage(9999, 1)), stopReason: "aborted" as const };
		const messages = [user("q"), assistant("a", [], usage(500, 20)), user("u".repeat(400)), failed, aborted];
		const breakdown = estimateContextBreakdown(messages);
		expect(breakdown.usageIndex).toBe(1);
		expect(breakdown.tokens).toBe(520 + 100 + estimateTokens(failed) + estimateTokens(aborted));
	});

	it("estimates everything, system prompt and tools included, when nothing was reported", () => {
		const messages = [user("q".repeat(40)), result("c", "bash", "b".repeat(40))];
		expect(estimateContextTokens(messages)).toBe(20);
		const tool = { name: "read", description: "Reads", parameters: { type: "object" } as any };
		const withPrompt = estimateContextTokens(messages, { systemPrompt: "s".repeat(400), tools: [tool] });
		expect(withPrompt).toBe(20 + 100 + Math.ceil((4 + 5 + JSON.stringify(tool.parameters).length) / 4));
	});

	it("ignores usage reported before a compaction summary (it measured the uncompacted context)", () => {
		const kept = [user("kept question"), assistant("kept answer", [], usage(90_000, 200))];
		const summary = createCompactionSummary("## Goal\nship it", 90_200, tick());
		const view = [summary, ...kept];
		const breakdown = estimateContextBreakdown(view);
		expect(breakdown.usageIndex).toBeUndefined();
		expect(breakdown.tokens).toBe(view.reduce((sum, message) => sum + estimateTokens(message), 0));
		// The first answer after compaction measures the compacted context: it is trusted again.
		const fresh = [...view, user("next"), assistant("fresh", [], usage(3000, 40))];
		expect(estimateContextBreakdown(fresh).usageIndex).toBe(fresh.length - 1);
		expect(estimateContextTokens(fresh)).toBe(3040);
	});

	it("gives the footer a percentage of the window", () => {
		const messages = [user("q"), assistant("a", [], usage(2500, 0))];
		expect(contextUsage(messages, 10_000)).toEqual({ tokens: 2500, contextWindow: 10_000, percent: 25 });
		expect(contextUsage(messages, 0).percent).toBeUndefined();
	});
});

describe("shouldCompact", () => {
	it("has the documented defaults and fills missing settings with them", () => {
		expect(DEFAULT_COMPACTION_SETTINGS).toEqual({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 });
		expect(resolveCompactionSettings({ reserveTokens: 1000 })).toEqual({ enabled: true, reserveTokens: 1000, keepRecentTokens: 20000 });
	});

	it("compacts only above contextWindow minus the reserve", () => {
		const settings = resolveCompactionSettings();
		expect(compactionThreshold(200_000, settings)).toBe(200_000 - 16384);
		expect(shouldCompact(200_000 - 16384, 200_000, settings)).toBe(false);
		expect(shouldCompact(200_000 - 16383, 200_000, settings)).toBe(true);
		expect(shouldCompact(150_000, 200_000)).toBe(false);
	});

	it("never compacts when disabled or when the window is unknown", () => {
		expect(shouldCompact(1_000_000, 200_000, resolveCompactionSettings({ enabled: false }))).toBe(false);
		expect(shouldCompact(1_000_000, 0)).toBe(false);
	});

	it("caps the reserve at half of a small window instead of compacting on every request", () => {
		const settings = resolveCompactionSettings();
		expect(compactionThreshold(8192, settings)).toBe(4096);
		expect(shouldCompact(3000, 8192, settings)).toBe(false);
		expect(shouldCompact(5000, 8192, settings)).toBe(true);
		expect(shouldCompact(1900, 4000, resolveCompactionSettings({ reserveTokens: 1000 }))).toBe(false);
		expect(shouldCompact(3100, 4000, resolveCompactionSettings({ reserveTokens: 1000 }))).toBe(true);
	});
});
