// Which hosts web_fetch may reach: a page read by the model can steer it, so a fetch must not become a way into the
// user's own machine or network (a local admin page, a cloud metadata service, a router). Every address a host
// name resolves to is checked before connecting, and the connection goes to the checked address (no second lookup
// a rebinding name server could answer differently).
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** web_fetch's settings (settings.json "web"). */
export interface WebSettings {
	/** Loopback and private addresses web_fetch may reach: true for all, or host names / addresses ("127.0.0.1", "localhost"). */
	allowPrivate?: boolean | string[];
	/** Give up on a fetch after this long (default 30 s). */
	timeoutMs?: number;
}

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
	["0.0.0.0", 8],
	["10.0.0.0", 8],
	["100.64.0.0", 10],
	["127.0.0.0", 8],
	["169.254.0.0", 16],
	["172.16.0.0", 12],
	["192.0.0.0", 24],
	["192.168.0.0", 16],
	["198.18.0.0", 15],
	["224.0.0.0", 4],
	["240.0.0.0", 4],
] as const) {
	NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
	["::", 128],
	["::1", 128],
	["fc00::", 7],
	["fe80::", 10],
	["ff00::", 8],
	["64:ff9b:1::", 48],
] as const) {
	NOT_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/** Whether an address is loopback, private, link-local, shared, multicast or unspecified (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
	if (mapped) return isPrivateAddress(mapped);
	const family = isIP(address);
	if (family === 0) return true;
	return NOT_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

export interface ResolvedHost {
	address: string;
	family: 4 | 6;
}

export class WebAddressError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "WebAddressError";
	}
}

function allowedPrivately(host: string, settings: WebSettings): boolean {
	const allow = settings.allowPrivate;
	if (allow === true) return true;
	return Array.isArray(allow) && allow.some((entry) => entry.toLowerCase() === host.toLowerCase());
}

/** The address to connect to for `host` (a name or an address), every address it has checked; throws a WebAddressError. */
export async function resolvePublicHost(host: string, settings: WebSettings): Promise<ResolvedHost> {
	const bare = host.startsWith("[") ? host.slice(1, -1) : host;
	const family = isIP(bare);
	const addresses: ResolvedHost[] =
		family !== 0
			? [{ address: bare, family: family as 4 | 6 }]
			: await lookup(bare, { all: true, verbatim: true }).then(
					(found) => found.map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 })),
					(error: NodeJS.ErrnoException) => {
						throw new WebAddressError(`Could not resolve ${host} (${error.code ?? error.message}).`);
					},
				);
	if (addresses.length === 0) throw new WebAddressError(`Could not resolve ${host}.`);
	const hidden = addresses.find((entry) => isPrivateAddress(entry.address));
	if (hidden && !allowedPrivately(bare, settings) && !addresses.every((entry) => allowedPrivately(entry.address, settings))) {
		throw new WebAddressError(
			`Refused: ${host} is ${hidden.address === bare ? "" : `at ${hidden.address}, `}a loopback or private address. web_fetch reaches only the public internet, so a page cannot steer it into the user's machine or network; the user can allow hosts with "web": {"allowPrivate": ["${bare}"]} in settings.json.`,
		);
	}
	return addresses[0]!;
}
