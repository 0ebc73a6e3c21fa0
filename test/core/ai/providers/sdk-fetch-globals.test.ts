// The SDKs' stand-ins for fetch's Headers and FormData behave as fetch's own: each case runs on both and compares.
import { describe, expect, it } from "vitest";
import { SdkFormData, SdkHeaders } from "../../../../src/core/ai/providers/sdk-fetch-globals.js";

type AnyHeaders = Headers | SdkHeaders;
type Make = (init?: any) => AnyHeaders;

const makers: Record<string, Make> = {
	fetch: (init) => new Headers(init),
	sdk: (init) => new SdkHeaders(init),
};

/** What a Headers shows: its pairs in iteration order, forEach's pairs, and lookups. */
function observe(headers: AnyHeaders, names: string[]) {
	const forEach: [string, string][] = [];
	headers.forEach((value, name) => forEach.push([name, value]));
	return {
		pairs: [...headers],
		entries: [...headers.entries()],
		keys: [...headers.keys()],
		values: [...headers.values()],
		forEach,
		cookies: headers.getSetCookie(),
		got: names.map((name) => [headers.get(name), headers.has(name)]),
	};
}

/** The outcome of `run` on a fresh Headers of each kind: what it shows, or the error's type. */
function both(run: (make: Make) => AnyHeaders, names: string[] = []) {
	const outcome = (make: Make) => {
		try {
			return observe(run(make), names);
		} catch (error) {
			return { threw: (error as Error).constructor.name };
		}
	};
	return { fetch: outcome(makers.fetch!), sdk: outcome(makers.sdk!) };
}

const cases: Record<string, [(make: Make) => AnyHeaders, string[]?]> = {
	"empty": [(make) => make()],
	"a record": [(make) => make({ "X-B": "2", "content-type": "application/json", "x-a": " 1 " }), ["X-A", "x-b", "missing"]],
	"pairs with repeats": [(make) => make([["Accept", "a"], ["accept", "b"], ["x-z", "z"]]), ["ACCEPT"]],
	"set, append, delete": [
		(make) => {
			const headers = make({ a: "1" });
			headers.append("A", "2");
			headers.set("b", "\t3 ");
			headers.append("c", "4");
			headers.delete("C");
			return headers;
		},
		["a", "b", "c"],
	],
	"set-cookie kept apart": [
		(make) => {
			const headers = make([["set-cookie", "a=1"], ["Set-Cookie", "b=2"], ["x", "y"]]);
			headers.append("set-cookie", "c=3");
			return headers;
		},
		["set-cookie"],
	],
	"copied from a Headers of fetch's": [(make) => make(new Headers([["x-b", "2"], ["x-a", "1"], ["set-cookie", "k=v"], ["set-cookie", "l=w"]])), ["x-a"]],
	"copied from its own kind": [(make) => make(make([["x-b", "2"], ["x-b", "3"]])), ["x-b"]],
	"an invalid name": [(make) => make({ "bad name": "1" })],
	"a value with a line break": [(make) => make({ a: "1\r\nInjected: 2" })],
	"a value beyond a byte (a pasted dash)": [(make) => make({ authorization: "Bearer key\u2014" })],
	"a value of Latin-1": [(make) => make({ "x-name": "caf\u00e9" }), ["x-name"]],
	"deleted while iterated": [
		(make) => {
			const headers = make([["a", "1"], ["b", "2"], ["c", "3"]]);
			const seen = new Map<string, string>();
			for (const [name, value] of headers) {
				seen.set(name, value);
				headers.delete("c");
			}
			return make([...seen]);
		},
	],
	"a pair of three": [(make) => make([["a", "1", "2"]])],
	"set with an invalid name": [
		(make) => {
			const headers = make();
			headers.set("a:b", "1");
			return headers;
		},
	],
};

describe("SdkHeaders", () => {
	for (const [name, [run, names]] of Object.entries(cases)) {
		it(`behaves as fetch's Headers: ${name}`, () => {
			const { fetch, sdk } = both(run, names);
			expect(sdk).toEqual(fetch);
		});
	}

	it("is what `instanceof Headers` asks in the SDKs: its own objects and fetch's, nothing else", () => {
		expect(new SdkHeaders() instanceof SdkHeaders).toBe(true);
		expect(new Headers() instanceof SdkHeaders).toBe(true);
		expect(new Response("").headers instanceof SdkHeaders).toBe(true);
		expect({ get: () => null } instanceof SdkHeaders).toBe(false);
		expect(new Map() instanceof SdkHeaders).toBe(false);
		expect(Object.prototype.toString.call(new SdkHeaders())).toBe("[object Headers]");
	});

	it("is read by fetch itself as headers", async () => {
		const request = new Request("http://127.0.0.1/", { headers: new SdkHeaders({ "x-one": "1" }) as unknown as Headers });
		expect(request.headers.get("x-one")).toBe("1");
	});
});

describe("SdkFormData", () => {
	it("makes fetch's own FormData, and `instanceof` recognises fetch's without being one", async () => {
		const form = new SdkFormData();
		expect(form).toBeInstanceOf(FormData);
		(form as unknown as FormData).append("file", new Blob(["bytes"]), "a.txt");
		const body = await new Response(form as unknown as FormData).text();
		expect(body).toContain('filename="a.txt"');
		expect(new FormData() instanceof SdkFormData).toBe(true);
		expect(new URLSearchParams() instanceof SdkFormData).toBe(false);
		expect(("text" as unknown) instanceof SdkFormData).toBe(false);
	});
});
