import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "../../../src/core/lib/format.js";

describe("formatRelativeTime", () => {
	const now = new Date(2026, 2, 10, 12, 0, 0);
	const ago = (ms: number) => new Date(now.getTime() - ms);
	const minute = 60_000;
	const hour = 60 * minute;
	const day = 24 * hour;

	it("says how long ago, in the largest whole unit, for the last week", () => {
		expect(formatRelativeTime(ago(20_000), now)).toBe("just now");
		expect(formatRelativeTime(ago(5 * minute), now)).toBe("5m ago");
		expect(formatRelativeTime(ago(59 * minute), now)).toBe("59m ago");
		expect(formatRelativeTime(ago(2 * hour + 10 * minute), now)).toBe("2h ago");
		expect(formatRelativeTime(ago(23 * hour), now)).toBe("23h ago");
		expect(formatRelativeTime(ago(3 * day), now)).toBe("3d ago");
		expect(formatRelativeTime(ago(6 * day), now)).toBe("6d ago");
	});

	it("gives the date for anything older, and 'just now' for a time ahead of the clock", () => {
		expect(formatRelativeTime(new Date(2026, 1, 3, 9, 30), now)).toBe("2026-02-03");
		expect(formatRelativeTime(new Date(now.getTime() + hour), now)).toBe("just now");
	});
});
