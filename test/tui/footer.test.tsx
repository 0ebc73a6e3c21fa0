import chalk from "chalk";
import { render } from "ink-testing-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Footer, type FooterProps, footerHeight } from "../../src/tui/components/Footer.js";
import { initialView } from "../../src/tui/view-model.js";
import { plain } from "./render-helpers.js";

const level = chalk.level;
beforeAll(() => {
	chalk.level = 1;
});
afterAll(() => {
	chalk.level = level;
});

function view(overrides: Partial<FooterProps["view"]> = {}): FooterProps["view"] {
	return {
		...initialView({ provider: "anthropic", model: "claude-sonnet", thinkingLevel: "medium", cwd: "/home/dev/project" }),
		usage: { input: 12_300, output: 1_250, cacheRead: 0, cacheWrite: 0, cost: 0.0421 },
		contextTokens: 23_000,
		...overrides,
	};
}

function footer(props: Partial<FooterProps>) {
	const { lastFrame, unmount } = render(<Footer view={view()} contextWindow={100_000} now={50_000} width={100} home="/home/dev" {...props} />);
	const raw = lastFrame() ?? "";
	unmount();
	return { raw, text: plain(raw) };
}

describe("Footer", () => {
	it("shows model, thinking level, cwd, tokens in and out, cost and context used", () => {
		const { text } = footer({});
		const lines = text.split("\n");
		expect(lines[0]).toBe("ready");
		expect(lines[1]).toBe("anthropic/claude-sonnet · thinking medium · ~/project · ↑12k ↓1.3k · $0.04 · ctx 23%");
	});

	it("while running: a spinner, the turn, the elapsed time and 'esc to interrupt'", () => {
		const { text } = footer({ view: view({ runStatus: "running", turn: 2, runStartedAt: 45_000 }) });
		expect(text.split("\n")[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Working · turn 2 · 5\.0s · esc to interrupt$/);
	});

	it("names the approval mode after the run's state, in colour unless auto", () => {
		const session = { ...view().session, approvalMode: "ask" as const };
		const running = footer({ view: view({ runStatus: "running", turn: 1, runStartedAt: 45_000, session }) });
		expect(running.text.split("\n")[0]).toMatch(/ · esc to interrupt · ask \(shift\+tab\)$/);
		expect(running.raw).toContain("\u001b[33mask");
		expect(footer({ view: view({ session: { ...session, approvalMode: "auto" } }) }).text.split("\n")[0]).toBe("ready · auto (shift+tab)");
	});

	it("while a retry waits: a countdown line", () => {
		const waiting = view({ runStatus: "running", retry: { attempt: 2, maxRetries: 3, reason: "529 overloaded", until: 53_200 } });
		const { text } = footer({ view: waiting });
		expect(text.split("\n")[0]).toBe("⟳ Retrying in 4s (attempt 2/3): 529 overloaded");
		expect(footerHeight(waiting)).toBe(3);
		expect(footer({ view: waiting, now: 53_500 }).text).toContain("Retrying in 0s");
	});

	it("colours the context use when it gets high, and leaves it out when unknown", () => {
		expect(footer({ view: view({ contextTokens: 96_000 }) }).raw).toContain(`\u001b[31m · ctx 96%`);
		expect(footer({ view: view({ contextTokens: 85_000 }) }).raw).toContain(`\u001b[33m · ctx 85%`);
		expect(footer({ view: view({ contextTokens: undefined }) }).text).not.toContain("ctx");
		expect(footer({ contextWindow: undefined }).text).not.toContain("ctx");
	});

	it("says when it is compacting", () => {
		expect(footer({ view: view({ compacting: "threshold" }) }).text).toContain("Compacting the conversation…");
	});
});
