// A provider's SDK client is made once for a key, endpoint and headers, and serves every request made with them.
import { describe, expect, it } from "vitest";
import { reusedClient } from "../../../../src/core/ai/providers/provider-run.js";

describe("SDK clients reused across requests", () => {
	it("makes one client for the same options and another when the key, endpoint or headers differ", () => {
		let made = 0;
		const make = (options: object) => ({ options, n: ++made });
		const options = { apiKey: "k1", baseURL: "http://127.0.0.1:1/v1", defaultHeaders: { "x-a": "1" } };
		const first = reusedClient("test-kind", options, make);
		expect(reusedClient("test-kind", { ...options }, make)).toBe(first);
		expect(reusedClient("test-kind", { ...options, apiKey: "k2" }, make)).not.toBe(first);
		expect(reusedClient("test-kind", { ...options, defaultHeaders: { "x-a": "2" } }, make)).not.toBe(first);
		expect(reusedClient("other-kind", options, make)).not.toBe(first);
		expect(made).toBe(4);
	});

	it("keeps a bounded number of clients", () => {
		let made = 0;
		const make = () => ({ n: ++made });
		const first = reusedClient("bounded", { apiKey: "0" }, make);
		for (let i = 1; i <= 20; i++) reusedClient("bounded", { apiKey: String(i) }, make);
		expect(reusedClient("bounded", { apiKey: "0" }, make)).not.toBe(first);
	});
});
